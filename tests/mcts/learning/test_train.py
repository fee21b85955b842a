"""Learning an evaluation from self-play: the feature encoder (mcts/searcher/features.py),
the data sets (mcts/learning/selfplay.py), the models (mcts/learning/train.py) and `ulm train`."""
from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

import ulm
from cli.main import main
from helpers import assert_input_error
from mcts.searcher import features as F
from mcts.learning.selfplay import (DatasetError, SelfplayConfig, load_dataset,
                           merge_datasets, run_selfplay, save_dataset)
from mcts.searcher.model import Model, TrainError, load_model, save_model
from mcts.learning.train import FitConfig, fit, gradients, init_params
from samples import planted

TINY_SPEC = "ismcts:preset=v0.2,iterations=8"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def tiny():
    """Four 2-player self-play games of a tiny search."""
    return run_selfplay(SelfplayConfig(spec=TINY_SPEC, players=2, games=4, seed=3))


# ---------------------------------------------------------------------------
# the feature encoder


def test_layout_sizes_are_stable():
    assert (F.GLOBAL_SIZE, F.PLAYER_SIZE) == (357, 187)
    assert [F.feature_count(n) for n in (2, 3, 4)] == [731, 918, 1105]
    for n in (2, 3, 4):
        names = F.feature_names(n)
        assert len(names) == F.feature_count(n) == len(set(names))
    assert F.LAYOUT_VERSION == "ulm-features/1"
    with pytest.raises(ValueError, match="players"):
        F.feature_count(5)


def test_a_hand_checked_opening():
    """The 3-player set-up of seed 4 before the first draw, one card put in
    Blue's hand: every entry checked by hand against the rules' set-up (R-SETUP-*)."""
    s = ulm.Game(players=3).new_game(4)
    s.set_raw({"pile": s.raw()["pile"] & ~(1 << 5),             # Nave III into Blue's hand
               "players": [{}, {"hand": 1 << 5, "coins": 7}, {}]})
    x = F.encode(s)
    assert x.shape == (918,) and x.dtype == np.float32
    at = F.offset
    assert list(x[at("players"):at("players") + 3]) == [0, 1, 0]
    assert x[at("round")] == 1 and x[at("round") + 1:at("round") + 10].sum() == 0
    assert x[at("game left")] == 1.0
    assert x[at("phase")] == 1          # before the draw
    grid = x[at("grid"):at("grid") + 45].reshape(9, 5)
    assert list(grid.sum(axis=0)) == [2, 2, 1, 2, 2]     # gray, white, brown, turquoise, orange
    assert (grid.sum(axis=1) == 1).all()
    assert x[at("outer"):at("outer") + 60].sum() == 0
    assert (x[at("pushable"):at("pushable") + 12] == 1).all()
    assert list(x[at("docks"):at("docks") + 5]) == [1, 1, 1, 1, 1]
    assert x[at("bag"):at("bag") + 5].sum() == 36 - 3      # each player drew one (R-SETUP-5)
    assert x[at("pile size")] == 32 and x[at("pile") + 5] == 0
    assert x[at("discard size")] == 0
    assert x[at("coat stack size")] == 12
    assert x[at("descendants on board"):at("descendants on board") + 8].sum() == 4
    assert x[at("descendants unseen"):at("descendants unseen") + 8].sum() == 4
    for seat in range(3):
        def b(name, seat=seat):
            return at(name, seat)
        assert list(x[b("seat"):b("seat") + 4]) == [int(seat == k) for k in range(4)]
        assert x[b("to move")] == (seat == 0)
        assert x[b("turns to wait")] == seat
        assert (x[b("score")], x[b("coins")], x[b("sparrows")]) == (5, 7 if seat == 1 else 2, 2)
        assert (x[b("seals left")], x[b("crests left")], x[b("barge")]) == (12, 3, 0)
        assert x[b("barge space")] == 1
        assert x[b("projected")] == 5 + 2 - 11       # start, sparrows, river index 0
        assert x[b("supply size")] == 1
        assert x[b("hand size")] == (seat == 1) and x[b("hand") + 5] == (seat == 1)
        assert x[b("front size")] == 0 and x[b("coats owned")] == 0
    # Blue's perspective: Blue's block first, then Yellow, then Red
    view = F.perspective(x, 1, 3)
    assert view[at("hand", 0) + 5] == 1 and view[at("seat", 0) + 1] == 1
    assert view[at("seat", 1) + 2] == 1 and view[at("seat", 2)] == 1
    assert (view[:F.GLOBAL_SIZE] == x[:F.GLOBAL_SIZE]).all()


@pytest.mark.parametrize("players", [2, 4])
def test_encoding_follows_the_game(players):
    """Late in a game: counts add up (50 tiles, 33 cards) and the eval features
    are the search's own."""
    from mcts.searcher._search import eval_features_of
    s = ulm.Game(players=players).new_game(8)
    k = 0
    while k < 120 and not s.is_terminal():
        if s.is_chance_node():
            s.resolve_chance()
            continue
        legal = s.legal_actions()
        s.apply_action(legal[(5 * k) % len(legal)])
        k += 1
    x = F.encode(s)
    at = F.offset
    r = s.raw()
    tiles = (x[at("grid"):at("grid") + 45].sum() + x[at("outer"):at("outer") + 60].sum()
             + x[at("bag"):at("bag") + 5].sum() + x[at("docks"):at("docks") + 5].sum()
             + sum(x[at("supply size", p)] for p in range(players))
             + sum(1 for t in r["drawn"] if t >= 0))
    assert tiles == 50 + 5 * r["tiles_added"]
    cards = (x[at("pile size")] + x[at("discard size")]
             + sum(x[at("hand size", p)] + x[at("front size", p)] for p in range(players)))
    assert cards == 33 - r["n_looked_cards"]
    for p in range(players):
        assert list(x[at("eval features", p):at("eval features", p) + 13]) == pytest.approx(
            list(eval_features_of(s, p)[1:14]), abs=1e-5)


def _states_of_every_kind():
    """Decision points of seeded random games in 2-4 players, both variants:
    every phase, pending sub-decisions, looked-at cards and coats, the end."""
    from samples import CONFIGS, random_states
    return [s for n, v in CONFIGS for s in random_states(n, v)]


def test_the_compiled_encoder_equals_the_documented_layout():
    """mcts.searcher.features.encode (compiled, what the search reads) gives the same
    vector, number for number, as an independent reading of the layout from
    the public API (tests/feature_oracle.py), on positions of every kind."""
    from tests import feature_oracle
    states = _states_of_every_kind()
    assert len(states) > 300
    for s in states:
        x, expected = F.encode(s), feature_oracle.encode(s)
        if not np.array_equal(x, expected):
            names = F.feature_names(s.num_players())
            wrong = [(names[i], float(expected[i]), float(x[i]))
                     for i in np.flatnonzero(x != expected)[:5]]
            raise AssertionError(f"{s.num_players()} players: (entry, expected, got): {wrong}")


# ---------------------------------------------------------------------------
# data sets


def test_dataset_round_trips(tiny, tmp_path):
    path = tmp_path / "d.npz"
    save_dataset(path, tiny)
    back = load_dataset(path)
    assert back["meta"] == tiny["meta"]
    for name in ("features", "base_features", "eval_win", "win", "rank", "score", "game",
                 "game_seed", "round", "turn_player"):
        assert back[name].dtype == tiny[name].dtype
        assert np.array_equal(back[name], tiny[name]), name
    rows = len(back["round"])
    assert rows >= 4 * 20 and back["features"].shape == (rows, 731)
    # the outcome: win shares add up to 1, ranks to 1 + 2, the same in every row of a game
    assert np.allclose(back["win"].sum(axis=1), 1.0)
    assert np.allclose(back["rank"].sum(axis=1), 3.0)
    assert sorted(set(back["game"].tolist())) == [0, 1, 2, 3]
    # the targets are the game's: the highest final score wins (R-END-3), rank 1 wins
    for row in range(rows):
        score, win, rank = back["score"][row], back["win"][row], back["rank"][row]
        assert win[score.argmax()] == win.max() > 0
        assert ((rank <= 1.5) == (win > 0)).all()
    assert json.loads(json.dumps(back["meta"]))["spec"] == TINY_SPEC


def test_selfplay_is_reproducible_and_the_same_on_the_pool(tiny):
    again = run_selfplay(SelfplayConfig(spec=TINY_SPEC, players=2, games=4, seed=3), workers=2)
    for name in ("features", "win", "game_seed", "eval_win"):
        assert np.array_equal(again[name], tiny[name]), name
    other = run_selfplay(SelfplayConfig(spec=TINY_SPEC, players=2, games=1, seed=4))
    assert other["game_seed"][0] != tiny["game_seed"][0]


def test_rollout_to_horizon_is_the_searchs_cut_off():
    """From a turn start, horizon 0 is the position itself; horizon H plays H
    turns of the heuristic policy (chance from the seed) and stops at a turn
    start; the state given is left alone."""
    from mcts.searcher._search import is_turn_start, rollout_to_horizon
    s = ulm.Game(players=2).new_game(6)
    assert is_turn_start(s)
    before = s.raw()
    assert rollout_to_horizon(s, 0, seed=1).raw() == before
    cut = rollout_to_horizon(s, 3, seed=1)
    assert s.raw() == before
    assert is_turn_start(cut) and cut.raw() != before
    r = cut.raw()
    assert r["round"] * 2 + r["turn_player"] >= 3      # three turns on at least
    assert rollout_to_horizon(s, 3, seed=1).raw() == r
    assert rollout_to_horizon(s, 3, seed=2).raw() != r
    end = rollout_to_horizon(s, 40, seed=1)
    assert end.is_terminal()
    with pytest.raises(ValueError, match="horizon"):
        rollout_to_horizon(s, -1)


def test_selfplay_at_a_horizon_keeps_the_cut_offs_with_the_games_outcome(tiny):
    """horizon=H: the same games (the same outcomes), each row the state of the
    search's cut-off H turns after a turn start; reproducible."""
    cfg = SelfplayConfig(spec=TINY_SPEC, players=2, games=4, seed=3, horizon=2)
    cut = run_selfplay(cfg)
    assert cut["meta"]["horizon"] == 2 and tiny["meta"]["horizon"] == 0
    by_game = lambda d: {int(g): d["win"][d["game"] == g][0].tolist()     # noqa: E731
                         for g in np.unique(d["game"])}
    assert by_game(cut) == by_game(tiny)
    assert 0 < len(cut["round"]) <= len(tiny["round"])
    assert not np.array_equal(cut["features"][:5], tiny["features"][:5])
    # rows are two turns later: the round or the turn player moved on
    assert (cut["round"][:5] * 2 + cut["turn_player"][:5]
            >= tiny["round"][:5] * 2 + tiny["turn_player"][:5] + 2).all()
    again = run_selfplay(cfg, workers=2)
    assert np.array_equal(again["features"], cut["features"])
    with pytest.raises(ValueError, match="horizon"):
        run_selfplay(SelfplayConfig(spec=TINY_SPEC, games=1, horizon=-1))


@pytest.mark.parametrize("players", [3, 4])
def test_selfplay_and_fit_for_more_players(players):
    data = run_selfplay(SelfplayConfig(spec=TINY_SPEC, players=players, games=2, seed=1))
    rows = len(data["round"])
    assert rows >= 2 * 10 * players and data["features"].shape == (rows, F.feature_count(players))
    assert np.allclose(data["win"].sum(axis=1), 1.0)
    assert np.allclose(data["eval_win"].sum(axis=1), 1.0, atol=1e-5)
    assert set(data["turn_player"].tolist()) == set(range(players))
    model, report = fit(data, FitConfig(kind="mlp", hidden=4, epochs=1, validation=0.5))
    assert report["validation"]["uniform"] == pytest.approx(np.log(players), abs=1e-4)
    chances = model.win_chances_of(ulm.Game(players=players).new_game(2))
    assert len(chances) == players and sum(chances) == pytest.approx(1.0)


def test_bad_data_sets_are_refused(tmp_path, tiny):
    bad = tmp_path / "bad.npz"
    bad.write_text("not a zip")
    with pytest.raises(DatasetError, match="not a self-play data set"):
        load_dataset(bad)
    with pytest.raises(DatasetError, match="no such file"):
        load_dataset(tmp_path / "missing.npz")
    np.savez(tmp_path / "other.npz", x=np.zeros(3))
    with pytest.raises(DatasetError, match="no meta"):
        load_dataset(tmp_path / "other.npz")
    four = dict(tiny, meta=dict(tiny["meta"], players=4))
    with pytest.raises(DatasetError, match="players"):
        merge_datasets([tiny, four], ["a.npz", "b.npz"])
    merged = merge_datasets([tiny, tiny])
    assert len(merged["round"]) == 2 * len(tiny["round"])
    assert len(set(merged["game"].tolist())) == 8


# ---------------------------------------------------------------------------
# models


def test_gradients_match_finite_differences():
    rng = np.random.default_rng(0)
    params = init_params("mlp", 6, 4, rng)
    params["w"] = rng.normal(size=6)
    z = rng.normal(size=(5, 3, 6))
    y = np.eye(3)[rng.integers(0, 3, size=5)]
    _, grads = gradients(params, z, y, 0.01)
    for name in ("w", "W1", "b1", "v"):
        flat = params[name].reshape(-1)
        numeric = np.zeros_like(flat)
        for i in range(len(flat)):
            old = flat[i]
            flat[i] = old + 1e-6
            up, _ = gradients(params, z, y, 0.01)
            flat[i] = old - 1e-6
            down, _ = gradients(params, z, y, 0.01)
            flat[i] = old
            numeric[i] = (up - down) / 2e-6
        assert np.allclose(numeric, grads[name].reshape(-1), atol=1e-6), name


@pytest.mark.parametrize("kind", ["linear", "mlp"])
def test_training_lowers_the_loss_and_is_deterministic(tiny, kind):
    cfg = FitConfig(kind=kind, hidden=8, epochs=4, batch=32, lr=3e-3, validation=0.25, seed=1)
    model, report = fit(tiny, cfg)
    train = [h["train"] for h in report["history"]]
    assert train[-1] < train[0] < np.log(2)          # below a uniform guess, and falling
    again, report2 = fit(tiny, cfg)
    assert report2["history"] == report["history"]
    for name in model.params:
        assert np.array_equal(model.params[name], again.params[name])
    other, _ = fit(tiny, FitConfig(kind=kind, hidden=8, epochs=4, batch=32, lr=3e-3,
                                   validation=0.25, seed=2))
    assert not np.array_equal(other.params["w"], model.params["w"])
    v = report["validation"]
    assert v["games"] == 1 and v["uniform"] == pytest.approx(np.log(2), abs=1e-4)




@pytest.mark.parametrize("kind", ["linear", "mlp"])
def test_a_planted_signal_is_found(kind):
    data = planted()
    model, report = fit(data, FitConfig(kind=kind, hidden=8, epochs=25, batch=32, lr=0.02,
                                        l2=1e-4, validation=0.25, seed=0))
    v = report["validation"]
    assert v["model"] < 0.35 < v["uniform"]
    if kind == "linear":
        # the largest weight is on the seat's own coins, and it is positive
        w = model.params["w"] / model.std
        assert int(np.argmax(np.abs(w))) == F.offset("coins", 0)
        assert w[F.offset("coins", 0)] > 0


def test_a_residual_model_corrects_the_v02_evaluation(tiny):
    """--residual: the model's logits add to the log of the v0.2 evaluation's
    chances; zero weights give that evaluation exactly, and the fit starts
    from it (its first-epoch loss is the v0.2 evaluation's or lower)."""
    model, report = fit(tiny, FitConfig(kind="linear", inputs="staged", residual=True,
                                        epochs=3, batch=16, lr=0.01, validation=0.25))
    assert model.meta["residual"] is True
    state = ulm.Game(players=2).new_game(9)
    from mcts.searcher._search import eval_outcome_of
    from mcts.searcher.evaluation import eval_parameters
    zero = Model({"w": np.zeros_like(model.params["w"])}, model.mean, model.std, model.meta)
    v02 = eval_outcome_of(state, *eval_parameters(2, "pinned"))[1]
    assert zero.win_chances_of(state) == pytest.approx(v02, abs=1e-9)
    assert model.win_chances_of(state) != pytest.approx(v02, abs=1e-6)
    v = report["validation"]
    assert v["model"] <= v["eval_v0.2"] + 0.05
    with pytest.raises(TrainError, match="residual model needs"):
        model.win_chances(np.zeros((1, 2, len(model.mean))))


def test_models_round_trip(tmp_path):
    data = planted(players=2, games=20)
    model, _ = fit(data, FitConfig(kind="mlp", hidden=4, epochs=2, batch=16, validation=0.2))
    save_model(tmp_path / "m.npz", model)
    back = load_model(tmp_path / "m.npz")
    assert back.meta == json.loads(json.dumps(model.meta))
    z = F.perspectives(data["features"][:7], 2).astype(np.float64)
    assert np.array_equal(back.win_chances(z), model.win_chances(z))
    state = ulm.Game(players=2).new_game(1)
    chances = back.win_chances_of(state)
    assert len(chances) == 2 and sum(chances) == pytest.approx(1.0)
    with pytest.raises(TrainError, match="players"):
        back.win_chances_of(ulm.Game(players=3).new_game(1))
    with pytest.raises(TrainError, match="validation"):
        fit(planted(players=2, games=2), FitConfig(validation=0.1))


# ---------------------------------------------------------------------------
# the command


def test_train_selfplay_and_fit_commands(tmp_path):
    data = tmp_path / "d.npz"
    res = run("train", "selfplay", "--games", 2, "--bots", TINY_SPEC, "--workers", 1,
              "--seed", 9, "--json", "--out", data)
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    assert summary["positions"] == len(load_dataset(data)["round"]) > 0
    model = tmp_path / "m.npz"
    res = run("train", "fit", data, data, "--model", "linear", "--epochs", 2, "--batch", 16,
              "--validation", 0.5, "--out", model, "--json")
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    assert len(report["history"]) == 2 and report["validation"]["positions"] > 0
    assert load_model(model).meta["kind"] == "linear"
    res = run("train", "fit", data, "--model", "mlp", "--hidden", 3, "--epochs", 1,
              "--validation", 0.5, "--plot", tmp_path / "curve.png", "--quiet")
    assert res.exit_code == 0, res.output
    assert (tmp_path / "curve.png").read_bytes()[:4] == b"\x89PNG"
    res = run("train", "evaluate", model, data, "--json")
    assert res.exit_code == 0, res.output
    figures = json.loads(res.stdout)
    assert figures["all"]["positions"] == summary["positions"]
    assert set(figures["by_stage"]) == {"rounds 1-3", "rounds 4-7", "rounds 8-10"}


def test_expert_iteration_rounds(tmp_path):
    """`ulm train rounds`: round 0 plays the first search, each later round the
    search of the model fitted before it; a check per round; reproducible."""
    args = ["train", "rounds", "--rounds", 2, "--games", 4, "--first-bots",
            "ismcts:preset=v0.2,iterations=8", "--bots", "ismcts:eval=learned,iterations=8",
            "--check-games", 2, "--check-budget", "iterations=10", "--epochs", 2, "--workers", 1,
            "--validation", 0.25, "--seed", 5, "--json"]
    res = run(*args, "--out", tmp_path / "a", "--plot", tmp_path / "curve.png")
    assert res.exit_code == 0, res.output
    report = json.loads(res.stdout)
    first, second = report["rounds"]
    assert first["spec"] == "ismcts:preset=v0.2,iterations=8"
    assert second["spec"] == f"ismcts:eval=learned,iterations=8,model={tmp_path / 'a'}/model-0.npz"
    assert second["fit_positions"] == first["positions"] + second["positions"]  # window 2
    assert first["check"]["games"] == 2
    assert first["check"]["bot"].startswith("ismcts:eval=learned,model=")
    assert first["check"]["bot"].endswith("model-0.npz,iterations=10")
    assert first["check"]["opponent"] == "ismcts:preset=v0.2,iterations=10"
    assert load_model(tmp_path / "a" / "model-1.npz").meta["inputs"] == "staged"
    assert json.loads((tmp_path / "a" / "rounds.json").read_text())["rounds"] == report["rounds"]
    assert (tmp_path / "curve.png").read_bytes()[:4] == b"\x89PNG"
    again = json.loads(run(*args, "--out", tmp_path / "b").stdout)
    for mine, theirs in zip(report["rounds"], again["rounds"]):
        assert mine["validation"] == theirs["validation"]
        assert mine["check"]["win_rate"] == theirs["check"]["win_rate"]
    a = load_dataset(tmp_path / "a" / "data-1.npz")
    b = load_dataset(tmp_path / "b" / "data-1.npz")
    assert np.array_equal(a["features"], b["features"])


# a run of rounds that is over in a moment, were it started
QUICK = ["--rounds", 2, "--games", 2, "--validation", 0, "--epochs", 1, "--check-games", 0,
         "--first-bots", "ismcts:iterations=3", "--workers", 1, "--quiet", "--out", "{rounds}"]


@pytest.mark.parametrize("args, words", [
    (["fit", "/no/such/data.npz"], ["/no/such/data.npz", "no such file"]),
    (["fit", "{bad}"], ["{bad}", "not a self-play data set"]),
    (["fit", "{data}", "--epochs", 0], ["--epochs"]),
    (["fit", "{data}", "--batch", 10 ** 30], ["--batch", "10000000"]),
    (["fit", "{data}", "--batch", -1], ["--batch"]),
    (["fit", "{data}", "--batch", "nan"], ["--batch"]),
    (["fit", "{data}", "--validation", 1], ["--validation"]),
    (["fit", "{data}", "--out", "/no/such/folder/m.npz"], ["--out", "no such folder"]),
    (["fit", "{data}", "{data4}"], ["players"]),
    (["selfplay", "--bots", "ismcts:iterashuns=3", "--out", "{new}"], ["--bots", "iterashuns"]),
    (["selfplay", "--players", 5, "--out", "{new}"], ["--players"]),
    (["selfplay", "--sample", 0, "--out", "{new}"], ["--sample"]),
    (["selfplay", "--horizon", -1, "--out", "{new}"], ["--horizon"]),
    (["selfplay", "--out", "/no/such/folder/d.npz"], ["--out", "no such folder"]),
    (["selfplay", "--out", "{folder}"], ["--out", "directory"]),
    (["selfplay", "--games", 1], ["--out"]),
    (["evaluate", "/no/such/model.npz", "{data}"], ["/no/such/model.npz", "no such file"]),
    (["evaluate", "{data}", "{data}"], ["not a model"]),
    (["evaluate", "{model4}", "{data}"], ["players", "for 4"]),
    (["fit", "{data}", "--plot", "/no/such/folder/c.png"], ["--plot", "no such folder"]),
    (["rounds", "--bots", "ismcts:iterashuns=3", "--out", "{rounds}"], ["--bots", "iterashuns"]),
    (["rounds", "--first-bots", "nobot", "--out", "{rounds}"], ["--first-bots", "nobot"]),
    (["rounds", "--opponent", "ismcts:c=-1", "--out", "{rounds}"], ["--opponent", "c"]),
    (["rounds", "--check-budget", "iterations=0", "--out", "{rounds}"],
     ["--check-budget", "iterations"]),
    (["rounds", "--out", "{bad}"], ["--out", "is a file"]),
    # what the later rounds play is refused before round 0's games and fit
    (["rounds", *QUICK, "--bots", "random"], ["--bots", "random takes no model"]),
    (["rounds", *QUICK, "--bots", "greedy"], ["--bots", "greedy takes no model"]),
    (["rounds", *QUICK, "--bots", "pimc:iterations=5"], ["--bots", "pimc takes no model"]),
    (["rounds", *QUICK, "--bots", "level:2"], ["--bots", "a level is a fixed bot"]),
    (["rounds", *QUICK, "--bots", "ismcts:model={model4}"],
     ["--bots", "model= is the last fit's model", "leave it out"]),
    (["rounds", *QUICK, "--bots", "ismcts:iterations=5", "--check-budget", "time=0.01,c=2"],
     ["--check-budget", "iterations=N or time=S", "got 'time=0.01,c=2'"]),
    (["rounds", *QUICK, "--check-games", 2, "--check-budget", "c=1"],
     ["--check-budget", "iterations=N or time=S", "got 'c=1'"]),
    (["rounds", *QUICK, "--check-games", 2, "--check-budget", "seed=3"],
     ["--check-budget", "got 'seed=3'"]),
    (["rounds", *QUICK, "--check-budget", ""], ["--check-budget", "got ''"]),
    (["rounds", *QUICK, "--check-budget", "iterations"], ["--check-budget", "got 'iterations'"]),
    (["rounds", *QUICK, "--check-budget", "time=nan"], ["--check-budget", "time"]),
    (["rounds", *QUICK, "--check-budget", "iterations=1e400"], ["--check-budget", "iterations"]),
    (["evaluate", "{model2}", "{empty}"], ["data: no positions to evaluate"]),
    (["fit", "{empty}"], ["data: no positions to fit"]),
    (["rounds", "--rounds", 0, "--out", "{rounds}"], ["--rounds"]),
    (["rounds", "--games", 4, "--out", "{rounds}"], ["--validation", "0.1 of 4 games"]),
])
def test_bad_input_exits_2(args, words, tmp_path, tiny):
    data, data4 = tmp_path / "d.npz", tmp_path / "d4.npz"
    save_dataset(data, tiny)
    save_dataset(data4, planted(players=4, games=3))
    bad = tmp_path / "bad.npz"
    bad.write_text("{}")
    new = tmp_path / "new.npz"
    model4 = tmp_path / "m4.npz"
    save_model(model4, fit(planted(players=4, games=4), FitConfig(kind="linear", epochs=1,
                                                                  validation=0.25))[0])
    model2, empty = tmp_path / "m2.npz", tmp_path / "empty.npz"
    save_model(model2, fit(tiny, FitConfig(kind="linear", epochs=1, validation=0))[0])
    save_dataset(empty, {k: (v if k == "meta" else v[:0]) for k, v in tiny.items()})
    paths = {"data": data, "data4": data4, "bad": bad, "new": new, "folder": tmp_path,
             "model4": model4, "model2": model2, "empty": empty, "rounds": tmp_path / "rounds"}
    args = [str(a).format(**paths) for a in args]
    words = [w.format(**paths) for w in words]
    assert_input_error(run("train", *args), *words)
    assert not new.exists()          # nothing half-written
    assert not (tmp_path / "rounds").exists()


def test_help_lists_every_option():
    import click
    group = main.commands["train"]
    out = run("train", "--help").stdout
    assert "selfplay" in out and "fit" in out and "rounds" in out
    assert "eval=learned" in " ".join(out.split())
    for name, cmd in group.commands.items():
        out = run("train", name, "--help").stdout
        for param in cmd.params:
            if isinstance(param, click.Option):
                assert any(opt in out for opt in param.opts), (name, param.opts)
