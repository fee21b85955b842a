"""No Python caller can crash the interpreter through State.set_raw or a board
given as a dict: every value is checked (ValueError / BoardError naming the
field), and whatever passes the checks is safe for the C core to play on.

Inputs that once crashed the core run in a subprocess, so that a segfault fails
the test instead of ending the test run."""
import random
import subprocess
import sys
import textwrap

import pytest

import ulm
from ulm import BoardError
from ulm._fastcore import _ARRAY_RANGES, _PLAYER_ARRAYS, _PLAYER_RANGES, _SCALAR_RANGES


def run_python(code: str, timeout=120):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=timeout)


def test_inputs_that_once_crashed_the_core_are_refused_in_a_subprocess():
    res = run_python("""
        import ulm
        s = ulm.Game(players=4).new_game(1)
        for bad in ({'players': [{}] * 40}, {'num_players': 9}):
            try:
                s.set_raw(bad)
                print('accepted')
            except ValueError as exc:
                print('refused:', exc)
            s.legal_actions(); s.clone().random_playout(1)
        t = dict(ulm.Game(players=2).table)
        t['north_of'] = [40] * 22
        try:
            ulm.Game(players=2, board=t).new_game(0).clone().random_playout(1)
            print('accepted')
        except ulm.BoardError as exc:
            print('refused:', exc)
    """)
    assert res.returncode == 0, (res.returncode, res.stderr)
    assert res.stdout.splitlines() == [
        "refused: players: expected a list of 4 players (num_players), got 40",
        "refused: num_players: must be between 2 and 4, got 9",
        "refused: board.north_of[0]: must be an index 0..7, got 40",
    ]


@pytest.mark.parametrize("change, message", [
    ({"num_players": 9}, "num_players: must be between 2 and 4, got 9"),
    ({"round": -1}, "round: must be between 0 and 10, got -1"),
    ({"turn_player": 3}, "turn_player: no seat 3 in a 2-player game"),
    ({"grid": [0] * 8}, "grid: expected 9 values, got 8"),
    ({"grid": [0] * 8 + [5]}, "grid[8]: must be between -1 and 4, got 5"),
    ({"grid": [0] * 8 + [-1]}, "grid[8]: empty, but no grid fill of cell 8 is pending"),
    ({"pile": 1 << 40}, "pile: must be between 0 and 8589934591"),
    ({"desc": [3] + [-2] * 7}, "desc[0]: no seat 3 in a 2-player game"),
    ({"n_tasks": 25}, "n_tasks: must be between 0 and 24, got 25"),
    ({"n_tasks": 1}, "task[0]: one of the 1 pending tasks, got none (0)"),
    ({"n_tasks": 1, "task": [14] + [0] * 23, "task_arg": [40] + [0] * 23},
     "task_arg[0]: task 'barge move' takes 0..4, got 40"),
    ({"n_tasks": 1, "task": [21] + [0] * 23, "task_arg": [3] + [0] * 23},
     "task_arg[0]: the amount task's card is Siege"),
    ({"phase": 1}, "drawn[0]: a tile is needed here"),
    ({"coat_tail_len": 2, "coat_tail": [-1] * 12}, "coat_tail[0]: a coat of the 2 under the stack"),
    ({"coat_tail_len": 1, "coat_tail": [3] + [0] * 11, "coat_tail_by": [-1] * 12},
     "coat_tail_by[0]: the seat that put coat 0 under the stack"),
    ({"coat_unknown": 1, "coat_owner": [0] + [-1] * 11}, "coat_owner[0]: coat 0 is already in coat_unknown"),
    ({"reshuffles": 0, "card_group": [0] * 32 + [1]}, "card_group[32]: reshuffle 1, but only 0 happened"),
    ({"n_looked_cards": 1, "looked_cards": [-1] * 3}, "looked_cards[0]: one of the 1 looked at, got -1"),
    ({"players": [{}]}, "players: expected a list of 2 players (num_players), got 1"),
    ({"players": [{"barge": 22}, {}]}, "players[0].barge: must be between 0 and 21, got 22"),
    ({"players": [{"hand": 1 << 33}, {}]}, "players[0].hand: must be between 0 and 8589934591"),
    ({"players": [{"supply": [1, 2]}, {}]}, "players[0].supply: expected 5 values, got 2"),
    ({"players": [{"coin": 1}, {}]}, "players[0].coin: not a field of a player"),
    ({"players": [{"coins": "2"}, {}]}, "players[0].coins: must be a whole number, got '2'"),
    ({"colour": 1}, "colour: not a field of the game state"),
])
def test_set_raw_refuses_what_the_core_cannot_take_and_changes_nothing(change, message):
    s = ulm.Game(players=2).new_game(4)
    before = s.raw()
    with pytest.raises(ValueError) as err:
        s.set_raw(change)
    assert message in str(err.value)
    assert s.raw() == before


def test_set_raw_still_takes_everything_raw_gives_and_any_subset():
    for n in (2, 3, 4):
        s = ulm.Game(players=n, variant="advanced").new_game(n)
        t = ulm.Game(players=n, variant="advanced").new_initial_state()
        t.set_raw(s.raw())
        assert t.raw() == s.raw()
        t.set_raw({"round": 3})
        assert t.raw()["round"] == 3


@pytest.mark.parametrize("change, message", [
    (lambda t: t.update(north_of=[40] * 22), "board.north_of[0]: must be an index 0..7, got 40"),
    (lambda t: t.update(river_value=[1] * 21), "board.river_value: expected a list of 22"),
    (lambda t: t.update(coat_outer=[0] * 12), "board.coat_outer: does not agree with the rest"),
    (lambda t: t.update(trade_cost=[0, 1, 2, 3, -1]), "board.trade_cost[4]: must be an index 0..4"),
    (lambda t: t.update(capacity=[0] * 8), "seal spaces: must be between 1 and 12, got 0"),
    (lambda t: t.pop("river_bonus"), "board.river_bonus: missing"),
    (lambda t: t.update(river="x"), "board.river_value: unknown field (did you mean 'river'?)"),
])
def test_a_board_given_as_a_dict_is_validated_like_a_board_file_R_BOARD_1(change, message):
    table = dict(ulm.Game(players=2).table)
    change(table)
    with pytest.raises(BoardError) as err:
        ulm.Game(players=2, board=table)
    assert message in str(err.value)


def test_a_board_files_data_given_as_a_dict_is_parsed_R_BOARD_1():
    import json
    from importlib import resources
    data = json.loads(resources.files("ulm.data").joinpath("board.json").read_text())
    assert ulm.Game(players=2, board=data).table == ulm.Game(players=2).table
    data["river"]["values"] = data["river"]["values"][:5]
    with pytest.raises(BoardError, match="board.river.values: the river has 22 spaces"):
        ulm.Game(players=2, board=data)


def _random_raw(rng: random.Random, base: dict) -> dict:
    """`base` with a few fields set to random values inside the ranges set_raw checks."""
    raw = {k: (list(v) if isinstance(v, list) else v) for k, v in base.items() if k != "players"}
    players = [dict(p) for p in base["players"]]
    for _ in range(rng.randint(1, 6)):
        kind = rng.random()
        if kind < 0.35:
            k = rng.choice(sorted(_SCALAR_RANGES))
            raw[k] = rng.randint(*_SCALAR_RANGES[k])
        elif kind < 0.7:
            k = rng.choice(sorted(_ARRAY_RANGES))
            n, lo, hi = _ARRAY_RANGES[k]
            raw[k][rng.randrange(n)] = rng.randint(lo, hi)
        else:
            p = rng.choice(players)
            k = rng.choice(sorted(_PLAYER_RANGES) + sorted(_PLAYER_ARRAYS))
            if k in _PLAYER_RANGES:
                p[k] = rng.randint(*_PLAYER_RANGES[k])
            else:
                n, lo, hi = _PLAYER_ARRAYS[k]
                p[k] = list(p[k])
                p[k][rng.randrange(n)] = rng.randint(lo, hi)
    raw["players"] = players
    return raw


def test_states_that_pass_set_raw_are_safe_to_play_on():
    """Random in-range values (those set_raw accepts) in real positions, then
    random play, search and playouts: the process must not crash (the sanitizer
    build in .ci/run also checks that nothing is read out of bounds)."""
    res = run_python("""
        import random, sys
        sys.path.insert(0, %r)
        import ulm
        from mcts import search
        from test_set_raw import _random_raw
        rng = random.Random(5)
        accepted = 0
        for case in range(400):
            n = rng.choice((2, 3, 4))
            s = ulm.Game(players=n, variant=rng.choice(("basic", "advanced"))).new_game(case)
            for _ in range(rng.randrange(200)):
                if s.is_terminal():
                    break
                s.apply_action(rng.choice(s.legal_actions())) if not s.is_chance_node() \\
                    else s.resolve_chance()
            try:
                s.set_raw(_random_raw(rng, s.raw()))
            except ValueError:
                continue
            accepted += 1
            s.seed_dealer(case)
            for step in range(300):
                if s.is_terminal():
                    break
                if s.is_chance_node():
                    s.resolve_chance()
                    continue
                legal = s.legal_actions()
                if not legal:
                    break
                s.apply_action(rng.choice(legal))
                str(s); s.information_state_string(0); s.projected_scores()
            if s.current_player() >= 0 and case %% 10 == 0:
                search(s, iterations=30, seed=case)
            s.clone().random_playout(case)
        print("accepted", accepted)
    """ % (str(__import__("pathlib").Path(__file__).parent),), timeout=600)
    assert res.returncode == 0, (res.returncode, res.stderr[-2000:])
    assert int(res.stdout.split()[-1]) > 100
