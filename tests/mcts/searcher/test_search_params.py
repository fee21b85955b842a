"""One set of search options (mcts.searcher.params.SearchParams) behind search(), the
bots and their presets, and `ulm suggest --bot`."""
import json
import math

import pytest
from click.testing import CliRunner
from helpers import assert_input_error, fresh, ROOT

from cli.main import main
from mcts import PRESETS, Evaluation, SearchParams, make_bot, search
from mcts.play.bots import PRESET_OPTIONS as BOT_PRESETS
from mcts.play.bots import OPTIONS, params_from_spec
from mcts.searcher.evaluation import WEIGHT_SETS
from mcts.searcher.params import MAX_HORIZON, MAX_WEIGHT
from mcts.searcher.search import searcher_options
from ulm import derive_seed

DRAW = 1
PINNED = next(name for name in WEIGHT_SETS if name != "default")   # the v0.2 preset's weights
POSITION = ROOT / "examples" / "push-4p-view.json"


def first_push(players=2, seed=3):
    s = fresh(players=players, seed=seed)
    s.apply_action(DRAW)
    s.resolve_chance()
    return s


def visits(result):
    return [(a.action, a.visits, round(a.value, 12)) for a in result.actions]


# ---------------------------------------------------------------------------
# One object: the keyword arguments, params=, bots and presets search alike

def test_keywords_and_params_are_one_search():
    s = first_push()
    by_keywords = search(s, 300, seed=4, c=1.1, explore="fixed", horizon="1r",
                         evaluation="linear", weights=PINNED)
    params = SearchParams(iterations=300, seed=4, c=1.1, explore="fixed", horizon="1r",
                          evaluation=Evaluation("linear", weights=PINNED))
    assert visits(search(s, params=params)) == visits(by_keywords)
    # a budget or an option given beside params replaces the params' own
    assert visits(search(s, 300, params=params.replace(iterations=50), seed=4)) == \
        visits(by_keywords)


def test_a_bot_searches_its_params():
    s = first_push()
    bot = make_bot("ismcts:preset=v0.2,iterations=300,seed=7")
    action = bot.choose(s)
    again = search(s, params=bot.params.replace(seed=derive_seed(7, 1)))
    assert visits(again) == visits(bot.last_result) and again.best_action == action


def test_presets_are_one_table():
    """The bots' presets (spec words, `ulm bots --json`) are the SearchParams
    of mcts.searcher.params.PRESETS, and the old dictionaries exactly."""
    assert {name: p.spec_options() for name, p in PRESETS.items()} == BOT_PRESETS
    assert BOT_PRESETS["baseline"] == {
        "iterations": 1000, "c": 0.7, "rollout": "heuristic", "margin": 0.1, "chance": "open",
        "horizon": -1, "bias": 0.0, "mast": 0.0, "final": "visits", "reuse": False,
        "explore": "fixed", "minimax": 0.0, "eval": "linear", "form": "ucb1",
        "prior": "uniform"}
    assert BOT_PRESETS["v0.2"]["weights"] == PINNED and "weights" not in BOT_PRESETS["default"]
    for name, params in PRESETS.items():
        assert make_bot(f"ismcts:preset={name}").params == params
    assert SearchParams() == PRESETS["default"]


def test_the_searcher_gets_the_resolved_options():
    v02 = searcher_options(PRESETS["v0.2"], 2)
    assert (v02["c"], v02["horizon"], v02["minimax"], v02["explore"]) == (2.0, 8, 0.3, "scaled")
    baseline = searcher_options(PRESETS["baseline"], 3)
    assert (baseline["c"], baseline["horizon"], baseline["minimax"]) == (0.7, -1, 0.0)
    assert "eval_weights" not in baseline          # no cut-off, no evaluation
    default = searcher_options(SearchParams(horizon="2r"), 3)
    assert default["horizon"] == 6 and default["minimax"] == 0.3 and default["c"] == 2.0
    assert "learned_weights" in default
    assert searcher_options(SearchParams(explore="fixed"), 2)["c"] == 0.25


def test_the_searcher_takes_the_params_with_the_defaults_of_search():
    """The compiled Searcher is built from SearchParams, by default SearchParams():
    the tree of `Searcher(state)` is the one search() grows from the same seed,
    and a preset's tree is the preset's search."""
    from mcts.searcher._search import Searcher
    s = first_push(players=3)
    tree = Searcher(s)
    tree.run(300)
    assert tree.root_stats() == search(s, iterations=300).tree.root_stats()
    baseline = Searcher(s, PRESETS["baseline"].replace(seed=4))
    baseline.run(300)
    assert baseline.root_stats() == search(s, params=PRESETS["baseline"].replace(
        iterations=300, seed=4)).tree.root_stats()
    assert baseline.root_stats() != tree.root_stats()
    with pytest.raises(ValueError, match="params: must be a SearchParams, got dict"):
        Searcher(s, {"c": 0.7})


def test_a_spec_horizon_is_checked_by_search_params():
    """A bot spec's horizon= is checked once, by SearchParams, and refused in the
    spec's words."""
    for text in ("41", "11r", "0.5", "-2", "x"):
        value = OPTIONS["horizon"].parse(text)      # the spec's value, not checked there
        with pytest.raises(ValueError) as spec:
            make_bot(f"ismcts:horizon={text}")
        with pytest.raises(ValueError) as field:
            SearchParams(horizon=value)
        assert str(spec.value).endswith(str(field.value))


# ---------------------------------------------------------------------------
# Specs: params_from_spec / to_spec

@pytest.mark.parametrize("spec", [
    "ismcts", "ismcts:preset=v0.2,c=1.2", "ismcts:preset=baseline", "ismcts:time=0.5",
    "ismcts:iterations=50,time=2", "ismcts:horizon=2r,minimax=0,explore=fixed",
    f"ismcts:eval=linear,weights={PINNED},mast=0.25,bias=0.5,margin=0.3",
    "ismcts:model=learned-2p-v2,seed=9,workers=2,reuse=on,final=value,chance=closed",
    "ismcts:rollout=random,c=0", "cheat:iterations=20",
])
def test_specs_round_trip(spec):
    params = params_from_spec(spec)
    assert params_from_spec(params.to_spec()) == params
    assert params == make_bot(spec).params


def test_to_spec_writes_what_differs():
    assert SearchParams().to_spec() == "ismcts:iterations=1000"
    assert SearchParams(time=2.5, c=1.5).to_spec() == "ismcts:c=1.5,time=2.5"
    assert PRESETS["v0.2"].to_spec() == \
        f"ismcts:c=2.0,eval=linear,horizon=8,iterations=1000,minimax=0.3,weights={PINNED}"
    assert SearchParams(determinize=False, reuse=True).to_spec() == \
        "cheat:iterations=1000,reuse=on"
    with pytest.raises(ValueError, match="max_nodes: a bot spec has no such option"):
        SearchParams(max_nodes=100).to_spec()


@pytest.mark.parametrize("spec, words", [
    ("random", ["random is no search", "ismcts or cheat"]),
    ("pimc:iterations=5", ["pimc is no search"]),
    ("ismcts:colour=red", ["unknown option 'colour'"]),
    ("ismcts:c=nan", ["c: the exploration constant must be", "'nan'"]),
    ("", ["known bots"]),
    ("ismcts:preset=baseline,minimax=0.3", ["minimax: implicit minimax needs", "horizon"]),
])
def test_params_from_spec_refuses_what_is_no_search(spec, words):
    with pytest.raises(ValueError) as info:
        params_from_spec(spec)
    for w in words:
        assert w in str(info.value)


# ---------------------------------------------------------------------------
# One validation, naming the field

HUGE = 10 ** 30
NAN = float("nan")

BAD_FIELDS = [
    # wrong type
    (dict(iterations="100"), "iterations: must be a positive whole number"),
    (dict(iterations=2.0), "iterations: must be a positive whole number"),
    (dict(time="1"), "time: must be a positive number of seconds"),
    (dict(workers=True), "workers: must be a positive whole number"),
    (dict(c="1"), "c: the exploration constant must be a number from 0 to 1000"),
    (dict(explore=1), "explore: expected one of fixed, scaled"),
    (dict(horizon=2.0), "horizon: must be -1 (to the end)"),
    (dict(reuse="yes"), "reuse: must be on or off (True or False), got 'yes'"),
    (dict(determinize=1), "determinize: must be on or off (True or False)"),
    (dict(seed=1.5), "seed: must be a whole number from 0 to 2**64 - 1"),
    (dict(evaluation="linear"), "evaluation: must be an Evaluation"),
    (dict(max_nodes="big"), "max_nodes: must be a whole number from 2"),
    # huge
    (dict(iterations=HUGE), "iterations: at most 2,147,483,647"),
    (dict(time=1e308), "time: at most 3600 seconds"),
    (dict(workers=10 ** 6), "workers: at most"),
    (dict(c=MAX_WEIGHT * 2), "c: the exploration constant must be a number from 0 to 1000"),
    (dict(horizon=MAX_HORIZON + 1), "horizon: must be -1 (to the end), a number of turns from "
                                    "0 to 40"),
    (dict(horizon="11r"), "horizon: must be"),
    (dict(horizon=f"{HUGE}r"), "horizon: must be"),
    (dict(margin_weight=1e9), "margin_weight: must be a number from 0 to 1000"),
    (dict(bias=math.inf), "bias: must be a number from 0 to 1000"),
    (dict(seed=2 ** 64), "seed: must be"),
    (dict(max_nodes=2 ** 40), "max_nodes: must be"),
    # negative
    (dict(iterations=-5), "iterations: must be a positive whole number"),
    (dict(time=-1.0), "time: must be a positive number of seconds"),
    (dict(workers=0), "workers: must be a positive whole number"),
    (dict(c=-0.1), "c: the exploration constant"),
    (dict(horizon=-2), "horizon: must be"),
    (dict(mast=-0.5), "mast: must be a number from 0 to 1"),
    (dict(minimax=-0.1), "minimax: must be a weight from 0 to 1"),
    (dict(seed=-1), "seed: must be"),
    # NaN
    (dict(time=NAN), "time: must be a positive number of seconds"),
    (dict(c=NAN), "c: the exploration constant"),
    (dict(margin_weight=NAN), "margin_weight: must be a number"),
    (dict(mast=NAN), "mast: must be a number"),
    (dict(minimax=NAN), "minimax: must be a weight"),
    # empty
    (dict(rollout=""), "rollout: expected one of random, heuristic, lookahead, got ''"),
    (dict(chance=""), "chance: expected one of open, closed"),
    (dict(final=""), "final: expected one of visits, value"),
    (dict(horizon=""), "horizon: must be"),
    (dict(horizon="r"), "horizon: must be"),
    # truncated or foreign
    (dict(horizon="2 r"), "horizon: must be"),
    (dict(rollout="smart"), "rollout: expected one of"),
    (dict(final="best"), "final: expected one of"),
    (dict(c=[1.0]), "c: the exploration constant"),
    # options that do not go together
    (dict(horizon=-1, minimax=0.3), "minimax: implicit minimax needs the evaluation"),
]


@pytest.mark.parametrize("fields, message", BAD_FIELDS)
def test_a_bad_field_is_named(fields, message):
    with pytest.raises(ValueError) as info:
        SearchParams(**fields)
    assert message in str(info.value)
    s = first_push()
    with pytest.raises(ValueError) as info:      # the same check behind search()
        if "evaluation" in fields:
            search(s, params=SearchParams(), **{"evaluation": 3})
        else:
            search(s, **fields)
    assert str(info.value).split(":")[0] == message.split(":")[0]


@pytest.mark.parametrize("fields, message", [
    (dict(kind="neural"), "evaluation: expected one of linear, learned, got 'neural'"),
    (dict(kind=""), "evaluation: expected one of"),
    (dict(weights="v9"), f"weights: expected one of default, {PINNED}, got 'v9'"),
    (dict(model=""), "model: must be a model file or a shipped model's name"),
    (dict(model=3), "model: must be a model file"),
    (dict(kind="linear", model="learned-2p-v2"), "model: a model is a learned evaluation, "
                                                  "not linear"),
])
def test_a_bad_evaluation_is_named(fields, message):
    with pytest.raises(ValueError) as info:
        Evaluation(**fields)
    assert message in str(info.value)


def test_params_are_frozen_and_replace_checks_again():
    params = SearchParams(c=1.0)
    with pytest.raises(AttributeError):
        params.c = 2.0
    with pytest.raises(ValueError, match="c: the exploration constant"):
        params.replace(c=-1)
    assert params.replace(evaluation="linear", weights=PINNED).evaluation == \
        Evaluation("linear", PINNED)
    assert SearchParams(time=2).iterations is None and SearchParams().iterations == 1000
    with pytest.raises(ValueError, match="params: must be a SearchParams"):
        search(first_push(), params={"c": 1.0})
    with pytest.raises(TypeError):
        search(first_push(), colour="red")


def test_annotate_checks_its_options_before_searching():
    from mcts.play.annotate import annotate
    from ulm.records import GameRecord
    record = GameRecord(players=2, seed=1)
    for _ in range(6):
        state = record.state
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.resolve_chance()
            continue
        record.apply(state.legal_actions()[0])
    with pytest.raises(ValueError, match="c: the exploration constant"):
        annotate(record.to_dict(), 0, iterations=10, c=-1.0)
    with pytest.raises(ValueError, match="horizon: must be"):
        annotate(record.to_dict(), 0, params=SearchParams(iterations=10), horizon=99)


# ---------------------------------------------------------------------------
# ulm suggest --bot

def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def suggest_json(*args):
    res = run("suggest", POSITION, "--json", "--quiet", *args)
    assert res.exit_code == 0, (res.output, res.exception)
    data = json.loads(res.stdout)
    data["stats"].pop("seconds"), data["stats"].pop("iterations_per_second")
    return data


def test_suggest_bot_and_shorthands_are_one_search():
    short = suggest_json("--iterations", 200, "--seed", 3, "--c", 1.5, "--rollout", "random")
    spec = suggest_json("--bot", "ismcts:iterations=200,seed=3,c=1.5,rollout=random")
    mixed = suggest_json("--bot", "ismcts:c=1.5,rollout=random", "--iterations", 200,
                         "--seed", 3)
    assert short == spec == mixed
    assert short["stats"]["c"] == 1.5 and short["stats"]["seed"] == 3


def test_suggest_bot_takes_a_preset():
    by_name = suggest_json("--bot", "v0.2", "--iterations", 150)
    by_spec = suggest_json("--bot", "ismcts:preset=v0.2,iterations=150")
    assert by_name == by_spec
    assert by_name["stats"]["explore"] == "scaled" and by_name["stats"]["minimax"] == 0.3
    # without a budget in either, suggest's own: 10,000 iterations
    assert suggest_json("--bot", "ismcts:preset=baseline,rollout=random",
                        "--workers", 2)["stats"]["iterations"] == 10000


def test_suggest_bot_level_searches_the_level_s_budget():
    """level:N is the level's spec, its budget included (not suggest's 10,000);
    a shorthand the level does not set still adds to it."""
    from mcts.play.levels import LEVELS
    for level in LEVELS[:3]:
        budget = params_from_spec(level.spec).iterations
        data = suggest_json("--bot", f"level:{level.number}", "--seed", 2)
        assert data["stats"]["iterations"] == budget and data["stats"]["seed"] == 2


@pytest.mark.parametrize("args, words", [
    # wrong type
    (["--bot", "ismcts:c=abc"], ["--bot: bot spec", "c: the exploration constant must be a "
                                                   "number", "'abc'"]),
    (["--bot", "ismcts:reuse=2"], ["--bot:", "reuse: must be on or off"]),
    # huge
    (["--bot", f"ismcts:iterations={10 ** 30}"], ["--bot:", "iterations: at most"]),
    (["--bot", "ismcts:time=1e308"], ["--bot:", "time: at most 3600"]),
    (["--bot", "ismcts:" + "c=1," * 5000 + "c=1"], ["--bot:", "given twice"]),
    (["--c", 5000], ["'--c': the exploration constant must be a number from 0 to 1000"]),
    (["--iterations", 2 ** 31], ["'--iterations': at most 2,147,483,647"]),
    # negative
    (["--bot", "ismcts:c=-1"], ["--bot:", "c: the exploration constant must be a number from "
                                          "0 to 1000"]),
    (["--bot", "ismcts:horizon=-3"], ["--bot:", "horizon: must be"]),
    (["--seed", -1], ["'--seed': must be a whole number from 0 to 2**64 - 1"]),
    # NaN
    (["--bot", "ismcts:c=nan"], ["--bot:", "c: the exploration constant must be", "'nan'"]),
    (["--bot", "ismcts:mast=nan"], ["--bot:", "mast: must be"]),
    (["--time", "nan"], ["'--time': must be a positive number of seconds, got 'nan'"]),
    # empty, truncated
    (["--bot", ""], ["--bot:", "known bots"]),
    (["--bot", "ismcts:c="], ["--bot:", "bad option 'c='"]),
    (["--bot", "ismcts:iterations"], ["--bot:", "OPTION=VALUE"]),
    # foreign
    (["--bot", "random"], ["--bot:", "random is no search"]),
    (["--bot", "pimc:determinizations=3"], ["--bot:", "pimc is no search"]),
    (["--bot", "cheat:iterations=50"], ["--bot: cheat sees the hidden cards"]),
    (["--bot", "ismcts:model=learned-2p-v2"], ["--bot:", "a model of 2 players, not 4"]),
    (["--bot", "v0.3"], ["--bot:", "unknown bot 'v0.3'"]),
    # unknown option
    (["--bot", "ismcts:colour=red"], ["--bot:", "unknown option 'colour'"]),
    # conflicting with a shorthand
    (["--bot", "ismcts:iterations=100", "--iterations", 200],
     ["--iterations: the --bot spec sets iterations too"]),
    (["--bot", "ismcts:time=1", "--iterations", 200],
     ["--iterations: the --bot spec sets iterations too"]),
    (["--bot", "ismcts:iterations=100", "--time", 1], ["--time: the --bot spec sets time too"]),
    (["--bot", "ismcts:seed=1", "--seed", 2], ["--seed: the --bot spec sets seed too"]),
    (["--bot", "ismcts:c=1", "--c", 1], ["--c: the --bot spec sets c too"]),
    (["--bot", "ismcts:preset=baseline,minimax=0.3"], ["--bot:", "minimax: implicit minimax"]),
    # a level is a spec that sets its budget: one rule for every spec
    (["--bot", "level:2", "--iterations", 10],
     ["--iterations: the --bot spec sets iterations too (level:2 is ismcts:iterations=15)"]),
    (["--bot", "level:4", "--iterations", 10], ["--iterations: the --bot spec sets iterations"]),
    (["--bot", "level:2,time=0.05"], ["--bot:", "level: a level takes no options",
                                      "level:2 is ismcts:iterations=15"]),
    # options that contradict
    (["--bot", "ismcts:model=learned-4p-v2,eval=linear"],
     ["--bot:", "model: a model is a learned evaluation, not linear"]),
])
def test_suggest_bot_bad_input(tmp_path, args, words):
    svg = tmp_path / "advice.svg"
    res = run("suggest", POSITION, "--quiet", "--svg", svg, *args)
    assert_input_error(res, "Error: ", *words)
    assert not svg.exists()              # refused before anything is written
