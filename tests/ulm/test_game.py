"""The game (ulm/game.py): `decision_steps` walks a game's decisions, resolving
chance events by the state's own dealer, for every loop that plays a game
through (self-play, calibration, the bench scripts)."""
import random

import pytest

import ulm


@pytest.mark.parametrize("players", [2, 3, 4])
def test_decision_steps_count_every_decision_and_only_decisions(players):
    seed = 40 + players
    state = ulm.Game(players=players).new_game(seed)
    rng = random.Random(seed)
    steps = []
    for step in ulm.decision_steps(state):
        assert state.current_player() >= 0 and not state.is_chance_node()
        steps.append(step)
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.is_terminal()
    # the same game played by hand: the same decisions, counted alike
    again = ulm.Game(players=players).new_game(seed)
    rng, decisions = random.Random(seed), 0
    while not again.is_terminal():
        if again.is_chance_node():
            again.resolve_chance()
            continue
        decisions += 1
        again.apply_action(rng.choice(again.legal_actions()))
    assert steps == list(range(1, decisions + 1)) and decisions > 50
    assert state.scores() == again.scores()


def test_decision_steps_stop_where_the_caller_stops():
    state = ulm.Game(players=2).new_game(5)
    for step in ulm.decision_steps(state):
        if step == 10:
            break
        state.apply_action(state.legal_actions()[0])
    assert step == 10 and state.current_player() >= 0 and not state.is_terminal()


def test_decision_steps_of_a_finished_game_are_none():
    state = ulm.Game(players=2).new_game(5)
    for _ in ulm.decision_steps(state):
        state.apply_action(state.legal_actions()[-1])
    assert list(ulm.decision_steps(state)) == []
