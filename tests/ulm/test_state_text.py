"""How a State prints and reports its result: print(state) shows the board as
`ulm show` does, a finished game names its winners and ranking (R-END-3),
winners() is empty before the end."""
import random
import subprocess
import sys

import ulm
from ulm.positions import state_to_position
from ulm.render import render_position


def played_out(players, seed):
    state = ulm.Game(players=players).new_game(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.current_player() < 0:
            state.resolve_chance()
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_print_state_shows_the_board_as_ulm_show():
    # in a fresh interpreter: `import ulm` alone must be enough
    code = "import ulm; print(ulm.Game(players=3).new_game(seed=4))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    state = ulm.Game(players=3).new_game(seed=4)
    assert out.rstrip("\n") == render_position(state_to_position(state), state.game.table)
    assert "Round 1 of 10, Red to move" in out and "row 1" in out and "Docks:" in out


def test_an_unfinished_game_has_no_winners():
    state = ulm.Game(players=2).new_game(seed=1)
    assert state.winners() == [] and state.returns() == [0.0, 0.0]


def test_a_finished_game_prints_game_over_with_the_ranking():
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        state = played_out(players, seed)
        won = state.winners()
        assert won and [p for p, r in enumerate(state.returns()) if r > 0] == won
        first = str(state).splitlines()[1]
        assert first.startswith("Game over: ") and "to move" not in first
        names = [ulm.SEATS[p] for p in won]
        assert (f"{names[0]} wins" if len(names) == 1 else " share the win") in first
        scores = state.scores()
        ranked = [p for p in range(players) if p not in won]
        ranked.sort(key=lambda p: (-scores[p], p))
        tail = ", ".join(f"{ulm.SEATS[p]} {scores[p]} VP" for p in ranked)
        assert first.endswith(tail)
