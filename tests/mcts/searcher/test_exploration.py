"""Exploration and the final choice: the polynomial exploration term (form=puct)
and its prior beside UCB1, the choice by lower confidence bound (final=lcb),
what decided a recommendation (`SearchResult.decided_by`), and the pinned
preset of today's default search (preset=2026-12)."""
import json

import pytest
from helpers import ROOT
from test_search_options import first_push, preset_bench_search, preset_root_visits, walked

import ulm
from mcts import make_bot, search
from mcts.searcher import _search
from mcts.searcher.params import PRESETS as SEARCH_PRESETS
from mcts.searcher.params import SearchParams
from mcts.searcher.search import (LCB_MIN_SHARE, LCB_STDEVS, ActionStats, _rank_by_lcb,
                                  merge_exports)
from mcts.searcher._search import Searcher
from ulm.positions import load_position


def visits_of(result):
    return {a.action: a.visits for a in result.actions}


# ---------------------------------------------------------------------------
# form=puct: c P(a) sqrt(avail) / (1 + visits)

def test_puct_with_a_huge_constant_gives_every_decision_its_prior_share():
    """Where exploration outweighs every value, PUCT gives each decision visits
    in proportion to its prior: even with the uniform prior; with the heuristic
    prior, the heuristic's decision HEURISTIC_PRIOR + (1 - HEURISTIC_PRIOR)/k of
    them against (1 - HEURISTIC_PRIOR)/k for each other (17 to 1 for 16
    decisions). UCB1 with the same constant spreads them evenly."""
    s = first_push()
    k = len(s.legal_actions())
    heuristic = _search.heuristic_action_for(s, seed=0)
    even = visits_of(search(s, 4000, seed=1, form="puct", c=1000, explore="fixed"))
    assert max(even.values()) - min(even.values()) <= 3
    ucb = visits_of(search(s, 4000, seed=1, c=1000, explore="fixed"))
    assert max(ucb.values()) - min(ucb.values()) <= 3
    prior = visits_of(search(s, 4000, seed=1, form="puct", prior="heuristic", c=1000,
                             explore="fixed"))
    share = _search.HEURISTIC_PRIOR
    expected = (share + (1 - share) / k) / ((1 - share) / k)
    others = [v for a, v in prior.items() if a != heuristic]
    assert prior[heuristic] / (sum(others) / len(others)) == pytest.approx(expected, rel=0.05)


def test_a_progressive_bias_leaves_the_uniform_prior_uniform():
    """bias= finds the heuristic's decision too; with prior=uniform that must not lean
    PUCT's prior towards it: a tiny bias with a huge constant spreads the visits
    evenly, as it does without the bias."""
    s = first_push()
    even = visits_of(search(s, 4000, seed=1, form="puct", c=1000, explore="fixed",
                            bias=1e-6))
    assert max(even.values()) - min(even.values()) <= 3


def test_puct_is_its_own_search_and_repeats_with_its_seed():
    s = first_push()
    a = search(s, 3000, seed=4, form="puct", c=8)
    b = search(s, 3000, seed=4, form="puct", c=8)
    assert visits_of(a) == visits_of(b)
    assert visits_of(a) != visits_of(search(s, 3000, seed=4, c=8))     # not UCB1's
    # more exploration, flatter visits: the top decision's share falls as c grows
    shares = [search(s, 3000, seed=4, form="puct", c=c).best.share for c in (1, 16, 256)]
    assert shares[0] > shares[1] > shares[2]


def test_puct_leaves_the_default_search_alone():
    """form="ucb1" is the default: the default search is the same exactly."""
    s = walked(3, 11, 50)
    assert visits_of(search(s, 800, seed=2)) == visits_of(search(s, 800, seed=2, form="ucb1"))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_puct_searches_every_player_count(players):
    s = first_push(players=players)
    r = search(s, 1500, seed=3, form="puct", prior="heuristic", c=16, final="lcb")
    assert sum(a.visits for a in r.actions) == 1500
    assert r.best_action in s.legal_actions()


def test_puct_and_lcb_search_a_view_with_two_workers():
    """A position seen by one player (a view file), root parallel: the trees'
    statistics are merged, then the final choice is made."""
    view, seat = load_position(ROOT / "examples" / "push-4p-view.json")
    r = search(view, 2000, seed=3, form="puct", c=16, final="lcb", workers=2)
    assert r.player == seat and r.workers == 2
    assert sum(a.visits for a in r.actions) == 2000
    assert r.best_action in view.legal_actions() and r.decided_by in ("visits", "lcb")


# ---------------------------------------------------------------------------
# final=lcb: the best lower confidence bound among the well-visited decisions

def _stats(action, visits, estimate, error):
    return ActionStats(action=action, name=str(action), visits=visits, availability=visits,
                       share=0.0, value=estimate, mean_reward=(), win_probability=(),
                       estimate=estimate, estimate_error=error)


def test_lcb_picks_a_rival_only_when_its_estimate_is_better_beyond_noise():
    top = _stats(1, 6940, 0.442, 0.012)
    rival = _stats(2, 6881, 0.480, 0.012)       # the case of a 20,000-iteration search
    assert [a.action for a in _rank_by_lcb([top, rival])] == [2, 1]
    close = _stats(2, 3000, 0.450, 0.02)        # higher, but less sure: its bound is lower
    assert [a.action for a in _rank_by_lcb([top, close])] == [1, 2]
    rare = _stats(3, int(LCB_MIN_SHARE * 6940) - 1, 0.9, 0.0)     # too few visits to count
    assert _rank_by_lcb([top, rare])[0] is top
    assert _rank_by_lcb([]) == []
    # the bound is LCB_STDEVS errors under the estimate
    a, b = _stats(1, 1000, 0.5, 0.01), _stats(2, 1000, 0.5 + LCB_STDEVS * 0.01 + 0.001, 0.02)
    assert _rank_by_lcb([a, b])[0] is b


def _export(root):
    """A one-tree export with the root statistics `root`: (key, visits, own reward sum)."""
    return {"num_players": 2, "player": 0, "iterations": sum(v for _, v, _ in root),
            "seconds": 0.1, "tree_nodes": 10, "win_sum": [0.0, 0.0], "score_sum": [0.0, 0.0],
            "root": [(k, v, v, [r, 0.0], [r, 0.0], v, r) for k, v, r in root],
            "turn_tree": {}}


@pytest.mark.parametrize("final, first, decided", [
    ("visits", 1, "visits"), ("value", 2, "value"), ("lcb", 2, "lcb")])
def test_what_decided_the_choice_is_recorded(final, first, decided):
    export = _export([(1, 7000, 0.40 * 7000), (2, 6000, 0.50 * 6000), (3, 100, 0.9 * 100)])
    r = merge_exports([export], seconds=0.1, seed=0, c=2.0, rollout="heuristic",
                      explore="scaled", final=final)
    assert (r.best_action, r.decided_by) == (first, decided)
    assert r.to_dict()["decided_by"] == decided


def test_lcb_that_agrees_with_the_visits_says_visits():
    export = _export([(1, 7000, 0.50 * 7000), (2, 6000, 0.49 * 6000)])
    r = merge_exports([export], seconds=0.1, seed=0, c=2.0, rollout="heuristic",
                      explore="scaled", final="lcb")
    assert (r.best_action, r.decided_by) == (1, "visits")


def test_a_forced_decision_says_so():
    s = fresh_draw()
    assert len(s.legal_actions()) == 1
    r = search(s, 200, seed=1, final="lcb")
    assert r.decided_by == "forced" and r.to_dict()["decided_by"] == "forced"


def fresh_draw():
    return ulm.Game(players=2).new_game(3)


def test_lcb_in_a_real_search_and_its_line_starts_with_the_choice():
    """A search with final=lcb recommends the best bound, and the principal line
    and the JSON answer start with the decision recommended."""
    s = walked(2, 3, 1)
    for seed in range(1, 40):
        r = search(s, 400, seed=seed, final="lcb")
        if r.decided_by == "lcb":
            break
    else:
        pytest.fail("no search of 39 let the lower bound decide")
    most = max(r.actions, key=lambda a: a.visits)
    assert r.best is not most
    sure = [a for a in r.actions if a.visits >= LCB_MIN_SHARE * most.visits]
    bound = [a.estimate - LCB_STDEVS * a.estimate_error for a in sure]
    assert r.best.estimate - LCB_STDEVS * r.best.estimate_error == max(bound)
    data = json.loads(json.dumps(r.to_dict()))
    assert data["best_action"] == r.best_action == data["actions"][0]["action"]
    line = r.principal_line()
    assert not line or line[0].action == r.best_action
    same = search(s, 400, seed=seed)        # the same tree, chosen by visits
    assert same.best_action == most.action and same.decided_by == "visits"


def test_a_bot_plays_the_lcb_choice():
    s = walked(2, 3, 1)
    for seed in range(1, 200):
        bot = make_bot(f"ismcts:iterations=400,final=lcb,seed={seed}")
        action = bot.choose(s)
        if bot.last_result.decided_by == "lcb":
            most = max(bot.last_result.actions, key=lambda a: a.visits)
            assert action == bot.last_result.best_action != most.action
            break
    else:
        pytest.fail("no search of 199 let the lower bound decide")


# ---------------------------------------------------------------------------
# The options' bad-input table

@pytest.mark.parametrize("field, value, words", [
    ("form", "PUCT", "form: expected one of ucb1, puct"),
    ("form", "", "form: expected one of"),
    ("form", 1, "form: expected one of"),
    ("form", None, "form: expected one of"),
    ("form", "ucb1\x00", "form: expected one of"),
    ("form", "x" * 10_000, "form: expected one of"),
    ("prior", "policy", "prior: expected one of uniform, heuristic"),
    ("prior", float("nan"), "prior: expected one of"),
    ("prior", ["uniform"], "prior: expected one of"),
    ("final", "LCB", "final: expected one of visits, value, lcb"),
    ("final", "lcb ", "final: expected one of"),
])
def test_bad_exploration_options_name_the_field(field, value, words):
    with pytest.raises(ValueError, match=words):
        SearchParams(**{field: value})


def test_a_prior_needs_the_polynomial_term():
    with pytest.raises(ValueError, match="prior: a prior is a term of form=puct, not ucb1"):
        SearchParams(prior="heuristic")
    assert SearchParams(form="puct", prior="heuristic").prior == "heuristic"


@pytest.mark.parametrize("spec, words", [
    ("ismcts:form=polynomial", "form"), ("ismcts:form=", "form"),
    ("ismcts:prior=heuristic", "prior: a prior is a term of form=puct"),
    ("ismcts:form=puct,prior=learned", "prior"), ("ismcts:final=lower", "final"),
])
def test_bad_exploration_specs_are_refused(spec, words):
    with pytest.raises(ValueError, match=words):
        make_bot(spec)


def test_the_options_round_trip_through_a_spec():
    params = SearchParams(iterations=500, form="puct", prior="heuristic", c=16, final="lcb")
    spec = params.to_spec()
    assert "form=puct" in spec and "prior=heuristic" in spec and "final=lcb" in spec
    assert make_bot(spec).params.replace(seed=0) == params
    assert "form" not in SearchParams(iterations=500).to_spec()     # defaults stay unwritten
    bot = make_bot("ismcts:iterations=300,form=puct,c=16,seed=2")
    bot.choose(first_push())
    assert bot.last_result.iterations == 300


def test_a_searcher_takes_the_form_from_its_params():
    s = first_push()
    a = Searcher(s, SearchParams(form="puct", c=8, seed=3))
    b = Searcher(s, SearchParams(c=8, seed=3))
    a.run(1500)
    b.run(1500)
    assert [r[1] for r in a.root_stats()] != [r[1] for r in b.root_stats()]


# ---------------------------------------------------------------------------
# preset=2026-12: today's default search, pinned

# The root visits of the default search of December 2026 (`ismcts:iterations=600,
# seed=5`) on the fixed positions of test_search_options (`walked`), taken from
# that code before the exploration options were added. The preset must repeat
# them exactly whatever the default becomes; they change only when the rules,
# the core's random numbers, the shipped models or the search's algorithm change.
DEC2026_ROOT_VISITS = {
    (2, 3, 1): [(2, 10), (3, 14), (4, 22), (5, 17), (6, 30), (7, 20), (8, 191), (9, 34),
                (10, 48), (11, 19), (12, 17), (13, 15), (14, 102), (15, 17), (16, 22), (18, 22)],
    (3, 11, 50): [(2, 6), (3, 9), (4, 453), (5, 11), (6, 7), (7, 13), (8, 8), (9, 5), (10, 6),
                  (11, 36), (12, 16), (13, 11), (14, 5), (15, 6), (18, 8)],
    (4, 5, 90): [(2, 582), (5, 4), (14, 9), (18, 5)],
}


@pytest.mark.parametrize("position", sorted(DEC2026_ROOT_VISITS))
def test_dec2026_preset_repeats_the_default_search_of_its_month(position):
    assert preset_root_visits("2026-12", position) == DEC2026_ROOT_VISITS[position]


def test_dec2026_preset_gives_the_pinned_bench_signature():
    from signatures import SIGNATURE
    _, r = preset_bench_search("2026-12")
    assert r.tree_nodes == SIGNATURE["tree_nodes"]
    assert {a.name: a.visits for a in r.actions} == SIGNATURE["root_visits"]


def test_dec2026_preset_writes_every_option_out():
    from mcts.play.bots import PRESET_OPTIONS as PRESETS
    preset = PRESETS["2026-12"]
    assert set(PRESETS["default"]) <= set(preset)
    assert all(v is not None for v in preset.values())
    params = SEARCH_PRESETS["2026-12"]
    assert params.horizon == 2 and params.c == 2.0 and params.minimax == 0.3
    assert (params.form, params.final, params.explore) == ("ucb1", "visits", "scaled")


def test_final_choice_bench_counts_positions(capsys):
    """bench/final_choice.py: one search a position, the two counts out of them."""
    import re
    import sys
    sys.path.insert(0, str(ROOT))
    from bench.final_choice import main
    assert main(["300", "2", "1"]) == 0
    out = capsys.readouterr().out
    found = re.search(r"(\d+) positions searched; the most visited below a rival beyond "
                      r"noise in (\d+); final=lcb chooses another in (\d+)", out)
    assert found, out
    searched, contested, switched = map(int, found.groups())
    assert searched >= 3 and contested <= searched and switched <= searched


class _Fewer:
    """A position whose legal decisions are fewer than its tree's (as a reused
    subtree may hold decisions of worlds ruled out since)."""

    def __init__(self, state, drop):
        self._state, self._drop = state, drop

    def legal_actions(self):
        return [a for a in self._state.legal_actions() if a not in self._drop]

    def __getattr__(self, name):
        return getattr(self._state, name)


@pytest.mark.parametrize("drop", ["most visited", "recommended"])
def test_a_reused_tree_recommends_only_what_is_legal_and_says_what_decided(drop):
    """A decision of the tree that is not legal here is left out; what decided
    is said of the decision recommended among the rest."""
    s = walked(2, 3, 1)
    first = search(s, 400, seed=3, final="lcb")
    assert first.decided_by == "lcb"        # the bound chose another than the most visited
    most = max(first.actions, key=lambda a: a.visits).action
    gone = most if drop == "most visited" else first.best_action
    r = search(_Fewer(s, {gone}), 1, seed=3, tree=first.tree, final="lcb")
    assert gone not in [a.action for a in r.actions]
    rest = max(r.actions, key=lambda a: (a.visits, a.value, -a.action))
    assert r.decided_by == ("visits" if r.best is rest else "lcb")
    if drop == "recommended":
        assert r.best is rest and r.decided_by == "visits"
