"""ulm.openspiel: Ulm as the OpenSpiel game python_ulm, checked with OpenSpiel's
own conformance test (pyspiel.random_sim_test: clones, serialization, the
observation and information-state tensors and strings at every node), its
observation objects, the resampling check of its C++ tests, its ISMCTSBot and
its RL environment with its random and tabular Q-learning agents.

Skipped as a whole when open-spiel is not installed (pip install -e '.[openspiel]').
"""
import os

import pytest

# skipped only outside CI (a developer without the extra); in CI it must be there
pyspiel = pytest.importorskip("pyspiel") if not os.environ.get("CI") else __import__("pyspiel")

import numpy as np  # noqa: E402
import ulm.openspiel as ulm_openspiel  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts as os_mcts  # noqa: E402

from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import random_agent, tabular_qlearner  # noqa: E402
from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation  # noqa: E402

from ulm import ACTION_NAMES, IllegalActionError  # noqa: E402
from ulm import OBSERVATION_SIZE, OBSERVATION_SLICES  # noqa: E402
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
    assert t.provides_information_state_string and t.provides_observation_string
    assert t.provides_information_state_tensor and t.provides_observation_tensor
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




@pytest.mark.parametrize("players", [2, 3, 4])
def test_tensors_are_the_cores_observation_through_cpp_and_python(players):
    game = pyspiel.load_game(NAME, {"players": players})
    assert game.observation_tensor_shape() == [OBSERVATION_SIZE]
    assert game.information_state_tensor_shape() == [OBSERVATION_SIZE]
    assert game.observation_tensor_size() == game.information_state_tensor_size() == OBSERVATION_SIZE
    state = play_random(game.new_initial_state(), seed=players, max_steps=120)
    for p in range(players):
        core = state.core.observation_tensor(p)
        assert np.array_equal(np.array(state.observation_tensor(p), np.float32), core)
        assert np.array_equal(np.array(state.information_state_tensor(p), np.float32), core)
        assert state.observation_string(p) == state.information_state_string(p)


def test_observation_objects_name_the_slices_and_share_the_tensor():
    """OpenSpiel's make_observation, as its observation_test.py uses it."""
    game = pyspiel.load_game(NAME, {"players": 3})
    state = play_random(game.new_initial_state(), seed=8, max_steps=90)
    for kind in (None, INFO_STATE_OBS_TYPE):
        obs = make_observation(game, kind)
        assert list(obs.dict) == [name for name, *_ in OBSERVATION_SLICES]
        obs.set_from(state, 2)
        assert np.array_equal(obs.tensor, state.core.observation_tensor(2))
        for name, _start, shape, _ in OBSERVATION_SLICES:
            assert obs.dict[name].shape == shape and np.shares_memory(obs.dict[name], obs.tensor)
        assert obs.string_from(state, 2) == state.information_state_string(2)
    everyone = pyspiel.IIGObservationType(perfect_recall=False,
                                          private_info=pyspiel.PrivateInfoType.ALL_PLAYERS)
    with pytest.raises(ValueError, match="own view"):
        make_observation(game, everyone)
    with pytest.raises(ValueError, match="parameters"):
        make_observation(game, INFO_STATE_OBS_TYPE, {"single_tensor": True})


def test_resampled_states_keep_the_information_state_string_and_tensor():
    """The check of OpenSpiel's C++ ResampleInfostateTest (not exported to Python),
    with its stock sampler: at every decision of a whole game, for every player, the
    resampled state has the same information-state string and tensor and the same
    player to move."""
    game = pyspiel.load_game(NAME, {"players": 2, "variant": "advanced"})
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    sampler = pyspiel.UniformProbabilitySampler(0., 1.)
    checked = 0
    while not state.is_terminal():
        if not state.is_chance_node():
            for p in range(2):
                other = state.resample_from_infostate(p, sampler)
                assert other.information_state_string(p) == state.information_state_string(p)
                assert other.information_state_tensor(p) == state.information_state_tensor(p)
                assert other.current_player() == state.current_player()
                checked += 1
        actions = state.legal_actions()
        state.apply_action(int(actions[rng.randint(len(actions))]))
    assert checked > 100


def test_openspiel_rl_environment_with_its_random_and_tabular_q_learning_agents():
    """OpenSpiel's RL loop (rl_environment, as its examples train agents): a tabular
    Q-learner against its random agent, two whole games, the chance events sampled by
    the environment; observations are the information-state tensors."""
    env = rl_environment.Environment(
        NAME, chance_event_sampler=rl_environment.ChanceEventSampler(seed=1), players=2)
    assert env.observation_spec()["info_state"] == (OBSERVATION_SIZE,)
    assert env.action_spec()["num_actions"] == len(ACTION_NAMES)
    agents = [tabular_qlearner.QLearner(player_id=0, num_actions=len(ACTION_NAMES)),
              random_agent.RandomAgent(player_id=1, num_actions=len(ACTION_NAMES))]
    for _ in range(2):
        time_step = env.reset()
        steps = 0
        while not time_step.last():
            p = time_step.observations["current_player"]
            assert len(time_step.observations["info_state"][p]) == OBSERVATION_SIZE
            out = agents[p].step(time_step)
            assert out.action in time_step.observations["legal_actions"][p]
            time_step = env.step([out.action])
            steps += 1
        for agent in agents:
            agent.step(time_step)              # the last step: learn from the result
        assert sum(time_step.rewards) == pytest.approx(1.0) and steps > 20
    assert agents[0]._q_values                  # it learned values for states it met


def test_openspiel_ismcts_agent_in_the_rl_environment():
    """OpenSpiel's ISMCTS bot as an RL agent (mcts_agent), as its ismcts_agent_test."""
    from open_spiel.python.algorithms import mcts_agent
    env = rl_environment.Environment(
        NAME, chance_event_sampler=rl_environment.ChanceEventSampler(seed=2),
        include_full_state=True, players=2)     # the agent rebuilds the state it searches
    game = env.game
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game=game, uct_c=0.7, max_simulations=3, random_state=rng,
                           evaluator=os_mcts.RandomRolloutEvaluator(random_state=rng))
    agents = [mcts_agent.MCTSAgent(player_id=p, num_actions=len(ACTION_NAMES), mcts_bot=bot)
              for p in range(2)]
    time_step = env.reset()
    while not time_step.last():
        p = time_step.observations["current_player"]
        time_step = env.step([agents[p].step(time_step).action])
    assert sum(time_step.rewards) == pytest.approx(1.0)


def test_without_the_openspiel_extra_the_import_names_it():
    import subprocess
    import sys
    code = ("import sys; sys.modules['pyspiel'] = None\n"
            "try:\n    import ulm.openspiel\nexcept ImportError as exc:\n    print(exc)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == ("ulm.openspiel needs the openspiel extra: "
                                  "pip install 'ulm-engine[openspiel]'")
