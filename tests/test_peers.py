"""bench/peers: Ulm as an OpenSpiel Python game, checked with OpenSpiel's own
conformance test (pyspiel.random_sim_test), and OpenSpiel's ISMCTSBot on it.

Skipped as a whole when open-spiel is not installed (pip install -e '.[peers]').
"""
import os
import subprocess
import sys

import pytest
from helpers import ROOT as PROJECT

# skipped only outside CI (a developer without the peers extra); in CI it must be there
pyspiel = pytest.importorskip("pyspiel") if not os.environ.get("CI") else __import__("pyspiel")

ROOT = str(PROJECT)
PEERS = os.path.join(ROOT, "bench", "peers")
for _p in (ROOT, PEERS):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import numpy as np  # noqa: E402
import ulm_openspiel  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts as os_mcts  # noqa: E402

from ulm import ACTION_NAMES, IllegalActionError  # noqa: E402
from ulm.benchmarks import midgame_state  # noqa: E402

NAME = ulm_openspiel.GAME_NAME


class Sampler:
    """A seeded stand-in for pyspiel.UniformProbabilitySampler."""

    def __init__(self, seed):
        self.rng = np.random.RandomState(seed)

    def __call__(self):
        return self.rng.uniform()


def play_random(state, seed, max_steps=None):
    rng = np.random.RandomState(seed)
    steps = 0
    while not state.is_terminal() and (max_steps is None or steps < max_steps):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        steps += 1
    return state


def test_game_type_declares_what_the_game_is():
    t = pyspiel.load_game(NAME).get_type()
    assert t.short_name == NAME
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (t.min_num_players, t.max_num_players) == (2, 4)
    assert t.provides_information_state_string
    assert NAME in pyspiel.registered_names()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_players_parameter_and_game_info(players):
    game = pyspiel.load_game(NAME, {"players": players})
    assert game.num_players() == players
    assert game.new_initial_state().num_players() == players
    assert game.num_distinct_actions() == len(ACTION_NAMES)
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)
    assert game.max_game_length() >= 10 * players * 13
    assert str(game) == f"{NAME}(players={players},variant=basic)"


def test_default_is_four_players_and_bad_counts_are_refused():
    assert pyspiel.load_game(NAME).num_players() == 4
    for bad in (1, 5):
        with pytest.raises(Exception, match="2, 3 or 4"):
            pyspiel.load_game(NAME, {"players": bad})


@pytest.mark.parametrize("params", [{"players": 2}, {"players": 3}, {"players": 4},
                                    {"players": 2, "variant": "advanced"},
                                    {"players": 4, "variant": "advanced"}])
def test_openspiel_random_sim_test(params):
    """OpenSpiel's C++ conformance check: clone == original (ToString, history),
    legal actions sorted and empty for other players, legal-action masks,
    chance outcomes, serialize/deserialize round trip, game length within
    MaxGameLength, returns within [min, max] utility and equal to the
    accumulated rewards."""
    game = pyspiel.load_game(NAME, params)
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def test_openspiel_random_sim_test_from_a_midgame_position():
    game = pyspiel.load_game(NAME, {"players": 4})
    start = game.state_from_core(midgame_state(4, seed=3))
    pyspiel.random_sim_test_with_specific_initial_state(game, 3, start, True)


def test_state_calls_agree_with_the_engine():
    game = pyspiel.load_game(NAME, {"players": 3})
    state = play_random(game.new_initial_state(), seed=5, max_steps=150)
    core = state.core
    assert state.current_player() == core.current_player()
    assert state.legal_actions() == core.legal_actions()
    assert state.is_terminal() is False
    for a in state.legal_actions():
        assert state.action_to_string(state.current_player(), a) == ACTION_NAMES[a]
    state = play_random(state, seed=6)
    assert state.is_terminal()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.returns() == state.core.returns()
    assert sum(state.returns()) == pytest.approx(1.0)


def test_chance_nodes_are_explicit():
    state = pyspiel.load_game(NAME, {"players": 2}).new_initial_state()
    assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert sorted(a for a, _ in outcomes) == state.legal_actions()
    assert all(ACTION_NAMES[a].startswith("chance:") for a, _ in outcomes)


def test_illegal_action_is_an_error():
    state = pyspiel.load_game(NAME, {"players": 2}).new_initial_state()
    play_random(state, seed=1, max_steps=40)
    illegal = next(a for a in range(len(ACTION_NAMES)) if a not in state.legal_actions())
    with pytest.raises((IllegalActionError, RuntimeError, ValueError)):
        state.apply_action(illegal)


def test_clone_is_independent():
    game = pyspiel.load_game(NAME, {"players": 2})
    state = play_random(game.new_initial_state(), seed=2, max_steps=60)
    copy = state.clone()
    assert isinstance(copy, ulm_openspiel.UlmState)
    assert copy.history() == state.history() and str(copy) == str(state)
    before = state.core.raw()
    play_random(copy, seed=3)
    assert copy.is_terminal() and state.core.raw() == before


def test_information_state_string_for_cpp_and_python_callers():
    """C++ callers get it through the game's observer, Python ones directly."""
    game = pyspiel.load_game(NAME, {"players": 4})
    state = game.state_from_core(midgame_state(4, seed=2))
    for p in range(4):
        via_cpp = pyspiel.State.information_state_string(state, p)
        assert via_cpp == state.information_state_string(p) == state.core.information_state_key(p).hex()
    assert state.information_state_string() == state.information_state_string(state.current_player())


def test_resample_from_infostate_keeps_the_information_state():
    game = pyspiel.load_game(NAME, {"players": 4})
    state = game.state_from_core(midgame_state(4, seed=4))
    player = state.current_player()
    key = state.information_state_string(player)
    sampler = Sampler(7)
    worlds = [state.resample_from_infostate(player, sampler) for _ in range(20)]
    for w in worlds:
        assert isinstance(w, ulm_openspiel.UlmState)
        assert w.information_state_string(player) == key
        assert w.legal_actions() == state.legal_actions()
    assert len({repr(w.core.raw()) for w in worlds}) > 1          # hidden parts redealt
    # a function of the sampler's numbers only
    a = state.resample_from_infostate(player, Sampler(11))
    b = state.resample_from_infostate(player, Sampler(11))
    assert a.core.raw() == b.core.raw()
    # the stock sampler OpenSpiel's ISMCTS passes works too
    c = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0., 1.))
    assert c.information_state_string(player) == key


def test_resample_at_every_node_of_a_game():
    """Along a whole random game, for every player, the redealt state keeps the
    information state and the legal actions of the player to move."""
    game = pyspiel.load_game(NAME, {"players": 3})
    state = game.new_initial_state()
    rng = np.random.RandomState(4)
    sampler = Sampler(5)
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        for p in range(3):
            w = state.resample_from_infostate(p, sampler)
            assert w.information_state_string(p) == state.information_state_string(p)
        w = state.resample_from_infostate(state.current_player(), sampler)
        assert w.legal_actions() == state.legal_actions()
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_openspiel_ismcts_bot_plays_a_whole_game():
    """OpenSpiel's own ISMCTSBot, as in its ismcts_test.py, on a 2-player game."""
    game = pyspiel.load_game(NAME, {"players": 2})
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game=game, uct_c=0.7,
                           evaluator=os_mcts.RandomRolloutEvaluator(random_state=rng),
                           max_simulations=4, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert sum(state.returns()) == pytest.approx(1.0)


def test_compare_script_smoke(tmp_path):
    """bench/peers/compare.py end to end with tiny budgets."""
    out = tmp_path / "r.json"
    proc = subprocess.run(
        [sys.executable, os.path.join(PEERS, "compare.py"), "--positions", "1", "--seconds",
         "0.02", "--repeats", "1", "--games", "2", "--iterations", "4", "--iteration-games", "2",
         "--json", str(out)],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "Wilson" in proc.stdout and "iterations per second" in proc.stdout
    import json
    data = json.loads(out.read_text())
    assert data["speed"]["positions"][0]["openspiel_iterations"] >= 2
    assert data["speed"]["positions"][0]["ours_iterations"] >= 1
    s = data["tournament"]["summary"]
    assert s["wins"] + s["draws"] + s["losses"] == 2
    assert 0.0 <= s["wilson95"][0] <= s["score"] <= s["wilson95"][1] <= 1.0
    # (c) at equal iterations: both sides ran exactly 4 simulations per searched decision
    e = data["tournament_equal_iterations"]["summary"]
    assert e["iterations_per_decision"] == 4 and e["seconds_per_decision"] is None
    assert e["ours_iterations_per_decision"] == 4 == e["openspiel_iterations_per_decision"]
    assert data["numpy"] == np.__version__ and data["open_spiel"]


def test_wilson_interval():
    import compare
    lo, hi = compare.wilson(10, 20)
    assert lo == pytest.approx(0.2993, abs=1e-3) and hi == pytest.approx(0.7007, abs=1e-3)
    lo, hi = compare.wilson(20, 20)
    assert hi == 1.0 and lo == pytest.approx(0.8389, abs=1e-3)
    assert compare.wilson(0, 0) == (0.0, 1.0)
