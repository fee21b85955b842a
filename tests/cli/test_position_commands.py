"""The commands `ulm new`, `ulm show` and `ulm validate` (cli/main.py) over
position files, and their help texts."""
from __future__ import annotations

import json

import pytest

from ulm._fastcore import SEATS
from ulm.game import Game
from ulm.positions import (load_position, position_to_state)

from samples import EXAMPLE_FILES, EXAMPLES, example, run


# ---------------------------------------------------------------------------
# the commands new, show, validate

@pytest.mark.parametrize("players", [2, 3, 4])
def test_new(players):
    res = run("new", "--players", players, "--seed", 3)
    assert res.exit_code == 0
    data = json.loads(res.output)
    assert data["kind"] == "full" and len(data["players"]) == players
    assert [p["name"] for p in data["players"]] == list(SEATS[:players])
    assert data["round"] == 1 and data["phase"] == "before draw"
    state, _ = position_to_state(data)
    assert state.raw() == Game(players=players).new_game(3).raw()


def test_new_advanced_and_as():
    res = run("new", "--players", 3, "--variant", "advanced", "--as", "Green")
    assert res.exit_code == 0
    data = json.loads(res.output)
    assert data["variant"] == "advanced" and data["tower"]["past"] == []
    assert data["tower"]["current"] and data["tower"]["next"]
    assert data["kind"] == "view" and data["viewer"] == "Green"
    assert data["draw pile size"] == 33 and data["coat stack"]["shuffled"] == 12
    assert run("new", "--players", 3, "--as", 2).output == run("new", "--players", 3, "--as", "green").output


def test_new_output_file_loads(tmp_path):
    out = tmp_path / "mine.json"
    res = run("new", "--players", 4, "--as", "Blue", "-o", out)
    assert res.exit_code == 0 and res.output == ""
    state, seat = load_position(out)
    assert seat == 1 and state.num_players() == 4
    assert run("validate", out).exit_code == 0


@pytest.mark.parametrize("args,message", [
    (["--players", 5], "Invalid value for '--players'"),
    (["--players", 1], "Invalid value for '--players'"),
    (["--players", 2, "--as", "Yellow"], "--as: no seat Yellow in a 2-player game"),
    (["--as", "Purple"], "'Purple' is not a seat"),
    (["--variant", "expert"], "Invalid value for '--variant'"),
    (["--seed", -1], "Invalid value for '--seed'"),
    (["--seed", 2 ** 64], "Invalid value for '--seed'"),
    (["--board", "/nonexistent/board.json"], "board"),
])
def test_new_bad_option_writes_nothing(args, message, tmp_path):
    out = tmp_path / "out.json"
    res = run("new", *args, "-o", out)
    assert res.exit_code == 2, res.output
    assert "Error" in res.output and message in res.output
    assert "Traceback" not in res.output
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_show_full_position():
    path = EXAMPLES / "midgame-4p.json"
    data = example("midgame-4p")
    res = run("show", path)
    assert res.exit_code == 0
    out = res.output
    assert "Ulm, 4 players, basic game" in out
    assert "Round 4 of 10, Blue to move, phase: before draw" in out
    tile = {"gray": "GR", "white": "WH", "brown": "BR", "turquoise": "TQ", "orange": "OR", None: ".."}
    for row in data["grid"]:
        assert "  ".join(tile[c] for c in row) in out
    for p in data["players"]:
        coins = f"{p['coins']} coin{'' if p['coins'] == 1 else 's'}"   # plurals right
        assert f"{p['name']}: {p['score']} VP, {coins}" in out
        value = p['barge'] - 11 if p['barge'] <= 10 else p['barge'] - 10   # default board
        assert f"barge on {value:+d} (space {p['barge']})" in out
    assert "River: " in out and "Score breakdown" in out
    for r in (1, 2, 3):                                    # rows numbered as in the decisions
        assert f"row {r}  " in out
    assert "column  1   2   3" in out
    assert " 1 coins" not in out and " 1 sparrows" not in out and " 1 cards" not in out


def test_show_view_hides_hands():
    res = run("show", EXAMPLES / "advanced-3p-view.json")
    assert res.exit_code == 0
    assert "view of Blue" in res.output
    assert "hand: " in res.output and " cards" in res.output
    assert "Tower tile in force:" in res.output
    assert "Score breakdown" not in res.output
    res = run("show", EXAMPLES / "advanced-3p-view.json", "--as", "Red")
    assert res.exit_code == 2 and "is the view of Blue" in res.output


def test_show_as_seat_of_a_full_position():
    full = run("show", EXAMPLES / "midgame-4p.json", "--as", "Blue")
    view = run("show", EXAMPLES / "midgame-4p-view.json")
    assert full.exit_code == view.exit_code == 0
    assert full.output == view.output


@pytest.mark.parametrize("name", EXAMPLE_FILES)
def test_validate_examples(name):
    res = run("validate", EXAMPLES / name)
    assert res.exit_code == 0, res.output
    assert "a valid" in res.output


@pytest.mark.parametrize("command,words", [
    (None, ["Ulm", "new", "show", "validate", "replay", "docs/positions.md"]),
    ("new", ["freshly set-up position", "--players", "--variant", "--seed", "--as", "--output"]),
    ("show", ["Print a position as text", "--as"]),
    ("validate", ["Check a position, game record or board file", "exit 2"]),
    ("replay", ["Replay a game record", "--at", "--as", "--json", "--output"]),
])
def test_help_texts(command, words):
    res = run(*([command] if command else []), "--help")
    assert res.exit_code == 0
    for w in words:
        assert w in res.output
