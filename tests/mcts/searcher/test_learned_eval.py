"""The learned evaluation in the compiled search: its weights (mcts.searcher.evaluation),
the compiled inference (mcts/searcher/_features.pxi, learned_win) against the numpy
model, the shipped models and the options that choose it."""
from __future__ import annotations

import numpy as np
import pytest

import ulm
from mcts.searcher import features as F
from mcts import make_bot, search
from mcts.searcher._search import Searcher, eval_outcome_of, learned_win_of
from mcts.searcher.evaluation import eval_parameters
from mcts.searcher.learned import LEARNED_MODELS, learned_model, learned_weights, search_weights
from mcts.searcher.model import MODEL_FORMAT, Model
from mcts.searcher.params import PRESETS, EvaluationNumbers
from samples import random_states
from helpers import EXAMPLES


def random_model(players: int, inputs: str, seed: int, residual: bool = False,
                 hidden: int = 0) -> Model:
    """A linear model (or with `hidden` units an mlp) with random weights and
    standardisation (what the numpy model computes for it is what the search
    must compute)."""
    rng = np.random.default_rng(seed)
    width = F.feature_count(players) + (players * F.PLAYER_SIZE if inputs == "staged" else 0)
    meta = {"format": MODEL_FORMAT, "kind": "mlp" if hidden else "linear", "inputs": inputs,
            "players": players, "residual": residual}
    params = {"w": rng.normal(0.0, 0.3, width)}
    if hidden:
        params.update(W1=rng.normal(0.0, 0.2, (width, hidden)), b1=rng.normal(0.0, 0.5, hidden),
                      v=rng.normal(0.0, 1.0, hidden))
    return Model(params, rng.normal(0.0, 1.0, width), rng.uniform(0.5, 3.0, width), meta)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("inputs, residual, hidden", [
    ("staged", False, 0), ("rich", False, 0), ("staged", True, 0),
    ("staged", True, 7), ("rich", False, 3)])
def test_compiled_inference_equals_the_numpy_model(players, inputs, residual, hidden):
    """On positions of every kind (both variants, every phase, pending
    sub-decisions, the end) the compiled win chances equal the numpy model's
    to 1e-6, with random weights, of linear models and mlps; a residual model
    corrects the v0.2 evaluation's chances in both."""
    model = random_model(players, inputs, seed=players + hidden, residual=residual,
                         hidden=hidden)
    weights = np.asarray(search_weights(model))
    score_w, win_w = eval_parameters(players, "pinned")
    states = random_states(players, "basic") + random_states(players, "advanced")
    worst = 0.0
    for s in states:
        expected = np.asarray(model.win_chances_of(s))
        base = eval_outcome_of(s, score_w, win_w)[1] if residual else None
        got = np.asarray(learned_win_of(s, weights, base))
        worst = max(worst, float(np.abs(expected - got).max()))
    assert worst < 1e-6
    # evaluated again and again (the timing of bench/bench_eval.py), the same chances
    for s in states[::7]:
        base = eval_outcome_of(s, score_w, win_w)[1] if residual else None
        assert learned_win_of(s, weights, base, 5) == learned_win_of(s, weights, base)
    # the random weights give chances far from uniform: the check has teeth
    assert max(max(model.win_chances_of(s)) for s in states) > 0.9
    if hidden:
        # and the hidden layer matters: without it the chances differ
        linear = Model({"w": model.params["w"]}, model.mean, model.std,
                       dict(model.meta, kind="linear"))
        assert max(float(np.abs(np.asarray(linear.win_chances_of(s))
                                - np.asarray(model.win_chances_of(s))).max())
                   for s in states) > 0.05


def test_search_weights_take_models_of_the_rich_features_only():
    model = random_model(2, "staged", 0)
    assert len(search_weights(model)) == 2 * 2 * F.PLAYER_SIZE
    mlp = random_model(2, "staged", 0, hidden=3)
    per_unit = 2 + F.GLOBAL_SIZE + 2 * 2 * F.PLAYER_SIZE
    assert len(search_weights(mlp)) == 2 * 2 * F.PLAYER_SIZE + 3 * per_unit
    with pytest.raises(ValueError, match="up to 64 hidden units, not 65"):
        search_weights(random_model(2, "staged", 0, hidden=65))
    with pytest.raises(ValueError, match="linear models and mlps"):
        search_weights(Model(model.params, model.mean, model.std,
                             dict(model.meta, inputs="base")))
    with pytest.raises(ValueError, match="weights: 748 numbers are no learned model's for 3"):
        learned_win_of(ulm.Game(players=3).new_game(1), np.asarray(search_weights(model)))
    with pytest.raises(ValueError, match="repeats: must be at least 1"):
        learned_win_of(ulm.Game(players=2).new_game(1), np.asarray(search_weights(model)),
                       None, 0)


@pytest.mark.parametrize("players", sorted(LEARNED_MODELS))
def test_the_shipped_models_load_and_predict(players):
    """Each player count has a shipped model of the current layout, fitted to
    self-play of its own player count, better than a uniform guess on its
    validation games."""
    model = learned_model(players)
    meta = model.meta
    assert meta["format"] == MODEL_FORMAT and meta["layout"] == F.LAYOUT_VERSION
    assert meta["players"] == players and meta["kind"] == "linear"
    assert meta["inputs"] == "staged"
    v = meta["validation"]
    assert v["model"] < v["uniform"] and v["model"] < v["eval_v0.2"]
    state = ulm.Game(players=players).new_game(5)
    weights, residual = learned_weights(players)
    base = eval_outcome_of(state, *eval_parameters(players, "pinned"))[1] if residual else None
    chances = learned_win_of(state, np.asarray(weights), base)
    assert sum(chances) == pytest.approx(1.0)
    assert np.allclose(chances, model.win_chances_of(state), atol=1e-9)


def push_decision(players: int = 2):
    """A position where the player to move chooses among the pushes."""
    state = ulm.Game(players=players).new_game(4)
    while len(state.legal_actions()) < 2 or state.is_chance_node():
        if state.is_chance_node():
            state.resolve_chance()
        else:
            state.apply_action(state.legal_actions()[0])
    return state


def test_the_search_uses_the_learned_evaluation_at_the_horizon():
    state = push_decision()
    linear = search(state, iterations=400, seed=3, evaluation="linear", horizon=2)
    learned = search(state, iterations=400, seed=3, evaluation="learned", horizon=2)
    again = search(state, iterations=400, seed=3, evaluation="learned", horizon=2)
    visits = lambda r: ([(a.action, a.visits) for a in r.actions],     # noqa: E731
                        r.win_probability)
    assert visits(learned) == visits(again)            # deterministic for a seed
    assert visits(learned) != visits(linear)           # and another evaluation
    # without a horizon no evaluation is used: the same search either way
    full = dict(iterations=200, seed=3, horizon=-1)
    assert visits(search(state, **full)) == visits(search(state, evaluation="learned", **full))
    with pytest.raises(ValueError, match="evaluation: expected one of linear, learned"):
        search(state, iterations=10, evaluation="deep")


def test_the_searcher_checks_its_learned_weights():
    state = ulm.Game(players=2).new_game(4)
    state.resolve_chance()
    weights = learned_weights(2)[0]
    zeros = [0.0] * 28
    baseline = PRESETS["baseline"]      # c 0.7 fixed, heuristic rollouts, no minimax
    with pytest.raises(ValueError, match="needs a horizon"):
        Searcher(state, baseline, numbers=EvaluationNumbers(zeros, zeros, weights))
    with pytest.raises(ValueError, match="learned_weights: 10 numbers are no learned model's "
                                         "for 2 players"):
        Searcher(state, baseline.replace(horizon=2),
                 numbers=EvaluationNumbers(zeros, zeros, [0.0] * 10))
    tree = Searcher(state, baseline.replace(horizon=2),
                    numbers=EvaluationNumbers(zeros, zeros, weights))
    tree.run(50)
    assert tree.iterations == 50


def test_bots_choose_the_evaluation():
    bot = make_bot("ismcts:eval=learned,iterations=50")
    assert bot.config["eval"] == "learned"
    assert make_bot("ismcts:preset=v0.2").config["eval"] == "linear"
    assert make_bot("ismcts:preset=baseline").config["eval"] == "linear"
    state = ulm.Game(players=3).new_game(2)
    state.resolve_chance()
    assert bot.choose(state) in state.legal_actions()
    with pytest.raises(ValueError, match="eval: expected one of linear, learned"):
        make_bot("ismcts:eval=deep")


@pytest.mark.parametrize("players", [2, 4])
def test_tiny_and_forced_budgets_with_the_learned_evaluation(players):
    """A budget of 1e-9 s still runs one iteration; a forced decision is
    searched all the same; 2 and 4 players."""
    state = ulm.Game(players=players).new_game(3)
    state.resolve_chance()
    assert len(state.legal_actions()) == 1             # the draw: forced
    forced = search(state, iterations=200, seed=1, evaluation="learned")
    assert forced.forced and forced.iterations == 200
    assert sum(forced.win_probability) == pytest.approx(1.0)
    tiny = search(push_decision(players), time=1e-9, seed=1, evaluation="learned")
    assert tiny.iterations == 1


def test_a_bad_model_file_is_refused_on_the_command_line(tmp_path):
    from click.testing import CliRunner

    from cli.main import main
    from helpers import assert_input_error
    missing = tmp_path / "missing.npz"
    res = CliRunner().invoke(main, ["tournament", "--bots", f"ismcts:model={missing}",
                                    "greedy", "--games", "2"])
    assert_input_error(res, "--bots", str(missing), "no such file")
    other = tmp_path / "three.npz"
    from mcts.searcher.model import save_model
    save_model(other, random_model(3, "staged", 1))
    res = CliRunner().invoke(main, ["tournament", "--bots", f"ismcts:model={other},iterations=5",
                                    "greedy", "--games", "2", "--players", "2", "--workers", "1"])
    assert_input_error(res, "model", "3 players, not 2")
    wide = tmp_path / "wide.npz"
    save_model(wide, random_model(2, "staged", 1, hidden=65))
    res = CliRunner().invoke(main, ["tournament", "--bots", f"ismcts:model={wide},iterations=5",
                                    "greedy", "--games", "2", "--players", "2", "--workers", "1"])
    assert_input_error(res, "model", "wide.npz", "up to 64 hidden units, not 65")


def test_a_view_is_searched_from_its_seats_knowledge_only():
    """A position seen by one seat (hidden cards unknown): the learned search
    evaluates the worlds it deals from that knowledge, the same for a seed."""

    from ulm.positions import load_position
    path = EXAMPLES / "push-4p-view.json"
    state, _ = load_position(path)
    a = search(state, iterations=300, seed=4, evaluation="learned")
    b = search(state.clone(), iterations=300, seed=4, evaluation="learned")
    assert [(x.action, x.visits) for x in a.actions] == [(x.action, x.visits) for x in b.actions]
    assert sum(a.win_probability) == pytest.approx(1.0)


def test_the_evaluation_bench_times_each_player_count(capsys, monkeypatch):
    """bench/bench_eval.py: a positive time per evaluation for 2, 3 and 4
    players, on distinct self-play positions."""
    from bench import bench_eval
    monkeypatch.setattr(bench_eval, "REPEATS", 50)
    found = bench_eval.positions(3, 4)
    assert len({s.information_state_string(0) for s in found}) == 4
    assert bench_eval.main(2) == 0
    out = capsys.readouterr().out
    for players in (2, 3, 4):
        line = next(row for row in out.splitlines() if row.strip().startswith(f"{players} players"))
        assert float(line.split()[2].replace(",", "")) > 0


def test_the_evaluation_bench_times_a_model_file(capsys, monkeypatch, tmp_path):
    """bench/bench_eval.py --model: the time of a model file's evaluation (an
    mlp here) for its player count; a file that is no model: status 2 and
    a message naming it."""
    from bench import bench_eval
    from mcts.searcher.model import save_model
    monkeypatch.setattr(bench_eval, "REPEATS", 50)
    path = tmp_path / "mlp.npz"
    save_model(path, random_model(3, "staged", 2, residual=True, hidden=5))
    assert bench_eval.main(2, str(path)) == 0
    out = capsys.readouterr().out
    line = next(row for row in out.splitlines() if "mlp of 5 hidden units" in row)
    assert "3 players" in line and float(line.split(":")[-1].split()[0].replace(",", "")) > 0
    assert bench_eval.main(2, str(tmp_path / "none.npz")) == 2
    assert "none.npz: no such file" in capsys.readouterr().err


def test_the_search_evaluates_an_mlp_model_file(tmp_path):
    """`model=` an mlp of `ulm train fit --model mlp`: the search evaluates its
    hidden layer (other visits than its linear part alone), the same for a
    seed, from a bot spec as from search()."""
    from mcts.searcher.model import save_model
    mlp = random_model(2, "staged", 9, residual=True, hidden=6)
    linear = Model({"w": mlp.params["w"]}, mlp.mean, mlp.std, dict(mlp.meta, kind="linear"))
    save_model(tmp_path / "mlp.npz", mlp)
    save_model(tmp_path / "linear.npz", linear)
    state = push_decision()
    visits = lambda r: [(a.action, a.visits) for a in r.actions]     # noqa: E731
    with_mlp = search(state, iterations=400, seed=2, model=str(tmp_path / "mlp.npz"))
    again = search(state, iterations=400, seed=2, model=str(tmp_path / "mlp.npz"))
    without = search(state, iterations=400, seed=2, model=str(tmp_path / "linear.npz"))
    assert visits(with_mlp) == visits(again)
    assert visits(with_mlp) != visits(without)
    bot = make_bot(f"ismcts:model={tmp_path / 'mlp.npz'},iterations=50,seed=1")
    assert bot.choose(state.clone()) in state.legal_actions()


def test_a_residual_model_corrects_the_weights_it_was_fitted_against(monkeypatch):
    """The shipped models correct the v0.2 evaluation's chances (the training
    data's): refitting the default weights must not move the learned search."""
    import importlib
    params_module = importlib.import_module("mcts.searcher.params")   # Evaluation.numbers reads them
    from mcts.searcher.evaluation import RESIDUAL_WEIGHTS, WEIGHT_SETS, eval_parameters
    # named for what they are, not for a release; the v0.2 search has them too
    assert RESIDUAL_WEIGHTS == "pinned" and set(WEIGHT_SETS) == {"default", "pinned"}
    assert make_bot("ismcts:preset=v0.2").config["weights"] == "pinned"
    with pytest.raises(ValueError, match="weights: expected one of default, pinned, got 'v0.2'"):
        make_bot("ismcts:weights=v0.2")         # the release names the preset, not the weights
    state = push_decision()
    visits = lambda r: [(a.action, a.visits) for a in r.actions]     # noqa: E731
    before = visits(search(state, iterations=300, seed=5))

    def refitted(players, weights="default"):
        score, win = eval_parameters(players, weights)
        return (score, tuple(w * 3.0 for w in win)) if weights == "default" else (score, win)
    monkeypatch.setattr(params_module, "eval_parameters", refitted)
    assert visits(search(state, iterations=300, seed=5)) == before
    # the linear search does follow its weights
    linear = dict(iterations=300, seed=5, evaluation="linear", horizon=2)
    assert (visits(search(state, **linear))
            != visits(search(state, weights="pinned", **linear)))
