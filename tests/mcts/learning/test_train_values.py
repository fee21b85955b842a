"""Searched values as a training target: `ulm train selfplay --value-iterations`
(mcts/learning/selfplay.py) and `ulm train fit --target` (mcts/learning/train.py)."""
from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

import ulm
from cli.main import main
from helpers import assert_input_error
from mcts.searcher import features as F
from mcts.searcher._search import is_turn_start
from mcts.play.bots import make_bot
from mcts.searcher.model import TrainError
from mcts.searcher.search import search
from mcts.learning.selfplay import (ROW_ARRAYS, VALUE_STREAM, SelfplayConfig, load_dataset,
                           merge_datasets, run_selfplay, save_dataset)
from mcts.learning.train import FitConfig, evaluate, fit, targets_of
from samples import planted

SPEC = "ismcts:preset=v0.2,iterations=8"
VALUE_ITERATIONS = 40


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def valued():
    """Three 2-player self-play games whose positions are also searched."""
    return run_selfplay(SelfplayConfig(spec=SPEC, players=2, games=3, seed=3,
                                       value_iterations=VALUE_ITERATIONS))


def test_values_are_the_bots_own_search_of_each_position(valued):
    """The values leave the games alone; a row's value is the win chances of
    the decision the bots' search (its options, the value budget, the value
    seed) takes in that row's position."""
    plain = run_selfplay(SelfplayConfig(spec=SPEC, players=2, games=3, seed=3))
    assert "value" not in plain and plain["meta"]["value_iterations"] == 0
    for name in ROW_ARRAYS:
        assert np.array_equal(plain[name], valued[name]), name
    rows = len(valued["round"])
    value = valued["value"]
    assert value.shape == (rows, 2) and value.dtype == np.float32
    assert np.allclose(value.sum(axis=1), 1.0, atol=1e-5)
    assert valued["meta"]["value_iterations"] == VALUE_ITERATIONS
    assert not np.allclose(value, valued["eval_win"], atol=1e-3)
    # the first row: the first turn start of game 0 (step 1: its first decision)
    game_seed = int(valued["game_seed"][0])
    state = ulm.Game(players=2).new_game(game_seed)
    while state.is_chance_node():
        state.resolve_chance()
    assert is_turn_start(state)
    assert np.array_equal(valued["features"][0], F.encode(state))
    found = search(state, iterations=VALUE_ITERATIONS,
                   seed=ulm.derive_seed(game_seed, 1, VALUE_STREAM),
                   params=make_bot(SPEC).params.replace(workers=1))
    assert value[0] == pytest.approx(found.best.win_probability, abs=1e-6)


def test_values_are_reproducible_and_round_trip(valued, tmp_path):
    again = run_selfplay(SelfplayConfig(spec=SPEC, players=2, games=3, seed=3,
                                        value_iterations=VALUE_ITERATIONS), workers=2)
    assert np.array_equal(again["value"], valued["value"])
    path = tmp_path / "v.npz"
    save_dataset(path, valued)
    back = load_dataset(path)
    assert np.array_equal(back["value"], valued["value"]) and back["meta"] == valued["meta"]
    # merged: kept where every data set has values, left out otherwise
    assert len(merge_datasets([back, valued])["value"]) == 2 * len(valued["round"])
    plain = {k: v for k, v in valued.items() if k != "value"}
    assert "value" not in merge_datasets([back, plain])
    # a value array of the wrong shape is refused
    np.savez(tmp_path / "bad.npz", **{k: back[k] for k in ROW_ARRAYS},
             value=back["value"][:, :1], meta=np.array(json.dumps(back["meta"])))
    with pytest.raises(ValueError, match="inconsistent shapes"):
        load_dataset(tmp_path / "bad.npz")


def test_values_at_a_horizon_are_those_of_the_cut_offs():
    cut = run_selfplay(SelfplayConfig(spec=SPEC, players=3, games=1, seed=5, horizon=2,
                                      value_iterations=20))
    assert cut["value"].shape == (len(cut["round"]), 3)
    assert np.allclose(cut["value"].sum(axis=1), 1.0, atol=1e-5)


def test_bad_value_settings_are_refused():
    with pytest.raises(ValueError, match="value_iterations"):
        SelfplayConfig(spec=SPEC, value_iterations=-1).validate()
    with pytest.raises(ValueError, match="ismcts"):
        SelfplayConfig(spec="greedy", value_iterations=10).validate()


def with_values(data, seed=1):
    """`data` with values decided by the seat with the most sparrows (softmax
    of 3 x sparrows), while the outcome follows the coins."""
    rng = np.random.default_rng(seed)
    n = data["meta"]["players"]
    sparrows = [F.offset("sparrows", p) for p in range(n)]
    x = data["features"].copy()
    x[:, sparrows] = rng.permuted(np.tile(np.arange(n), (len(x), 1)), axis=1)
    e = np.exp(3.0 * x[:, sparrows])
    return dict(data, features=x, value=(e / e.sum(axis=1, keepdims=True)).astype(np.float32))


def test_each_target_is_what_the_fit_learns():
    data = with_values(planted(players=2, games=120))
    assert np.array_equal(targets_of(data, "outcome"), data["win"])
    assert np.allclose(targets_of(data, "value"), data["value"])
    assert np.allclose(targets_of(data, "mix"), (data["win"] + data["value"]) / 2)
    coins, sparrows = F.offset("coins", 0), F.offset("sparrows", 0)
    weights, reports = {}, {}
    for target in ("outcome", "value", "mix"):
        model, reports[target] = fit(data, FitConfig(kind="linear", epochs=20, batch=32, lr=0.02,
                                                     validation=0.25, target=target))
        weights[target] = np.abs(model.params["w"] / model.std)
    assert int(np.argmax(weights["outcome"])) == coins
    assert int(np.argmax(weights["value"])) == sparrows
    assert weights["mix"][coins] > 0.3 * weights["mix"].max()
    assert weights["mix"][sparrows] > 0.3 * weights["mix"].max()
    # the figures are against the fit's target
    assert reports["value"]["validation"]["model"] < reports["outcome"]["validation"]["model"] + 1
    fitted, _ = fit(data, FitConfig(kind="linear", epochs=2, validation=0.25, target="value"))
    rows = np.arange(len(data["round"]))
    assert evaluate(fitted, data, rows, "value")["targets"] > 0     # soft targets' entropy
    assert evaluate(fitted, data, rows)["targets"] == pytest.approx(0.0, abs=1e-6)
    plain = planted(players=2, games=20)
    with pytest.raises(TrainError, match="^target: value needs searched values"):
        fit(plain, FitConfig(kind="linear", epochs=1, target="value"))
    with pytest.raises(TrainError, match="^target: one of outcome, value, mix, got 'score'"):
        targets_of(data, "score")


def test_the_commands(valued, tmp_path):
    data = tmp_path / "v.npz"
    res = run("train", "selfplay", "--games", 1, "--bots", SPEC, "--workers", 1, "--seed", 9,
              "--value-iterations", 12, "--quiet", "--out", data)
    assert res.exit_code == 0, res.output
    assert load_dataset(data)["meta"]["value_iterations"] == 12
    save_dataset(data, valued)
    model = tmp_path / "m.npz"
    res = run("train", "fit", data, "--model", "linear", "--target", "mix", "--epochs", 2,
              "--validation", 0.34, "--out", model, "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["epoch_kept"] in (1, 2)
    res = run("train", "fit", data, "--model", "linear", "--target", "value", "--epochs", 1,
              "--validation", 0.34, "--quiet")
    assert res.exit_code == 0 and "target value" in res.stdout, res.output
    res = run("train", "evaluate", model, data, "--target", "value", "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["target"] == "value"
    plain = tmp_path / "plain.npz"
    save_dataset(plain, {k: v for k, v in valued.items() if k != "value"})
    for args, words in [
            (["fit", plain, "--target", "value"], ["--target: value needs searched values"]),
            (["evaluate", model, plain, "--target", "mix"], ["--target: mix needs searched values"]),
            (["fit", data, "--target", "score"], ["--target"]),
            (["selfplay", "--value-iterations", -1, "--out", tmp_path / "n.npz"],
             ["--value-iterations"]),
            (["selfplay", "--value-iterations", 2**31, "--out", tmp_path / "n.npz"],
             ["--value-iterations", "2147483647"]),
            (["selfplay", "--bots", "greedy", "--value-iterations", 5,
              "--out", tmp_path / "n.npz"], ["--value-iterations", "ismcts"])]:
        assert_input_error(run("train", *args), *[str(w) for w in words])
    assert not (tmp_path / "n.npz").exists()


def test_rounds_fit_the_searched_values(tmp_path):
    """`ulm train rounds --value-iterations N --target T`: each round's data set
    has the values of its own search, and each fit aims at T."""
    res = run("train", "rounds", "--rounds", 2, "--games", 4, "--first-bots", SPEC,
              "--bots", "ismcts:eval=learned,iterations=8", "--value-iterations", 10,
              "--target", "mix", "--check-games", 0, "--epochs", 1, "--workers", 1,
              "--validation", 0.25, "--seed", 5, "--json", "--out", tmp_path / "r")
    assert res.exit_code == 0, res.output
    for r in (0, 1):
        data = load_dataset(tmp_path / "r" / f"data-{r}.npz")
        assert data["meta"]["value_iterations"] == 10 and "value" in data
    from mcts.searcher.model import load_model
    assert load_model(tmp_path / "r" / "model-1.npz").meta["target"] == "mix"
    for args, words in [
            (["--target", "value"], ["--target", "value_iterations"]),
            (["--value-iterations", 5, "--first-bots", "greedy"], ["--value-iterations",
                                                                   "ismcts"])]:
        assert_input_error(run("train", "rounds", "--out", tmp_path / "bad", *args), *words)
    assert not (tmp_path / "bad").exists()
