"""`ulm play --human SEAT`: a person against bots in the terminal, scripted through
CliRunner input; mcts.play.session.PlaySession underneath."""
import json
import re

from click.testing import CliRunner

from cli.main import main
from mcts.play.session import PlaySession
from ulm import ACTION_NAMES
from ulm.records import load_record


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def test_a_scripted_game_to_the_end(tmp_path):
    """Red always takes the first listed decision; the record replays to the same game."""
    record = tmp_path / "game.json"
    res = run("play", "--human", "Red", "--bots", "random", "--seed", 5, "--record", record,
              input="1\n" * 400)
    assert res.exit_code == 0, res.output
    assert "Final scores:" in res.stdout and f"Record saved to {record}" in res.stdout
    assert "Red, your decision:" in res.stdout and " 1. draw" in res.stdout
    data = json.loads(record.read_text())
    assert data["bots"][0] == "human" and data["bots"][1].startswith("random")
    rec = load_record(record)
    assert rec.state.is_terminal()
    assert data["result"]["scores"] == dict(zip(["Red", "Blue"], rec.state.scores()))
    # every decision of Red was the first legal one
    replay = PlaySession(["human", "random"], seed=5)
    for name in data["decisions"]:
        state = replay.state
        if state.current_player() == 0:
            assert ACTION_NAMES[state.legal_actions()[0]] == name
        replay._apply(ACTION_NAMES.index(name))


def test_hint_undo_names_and_bad_input(tmp_path):
    record = tmp_path / "game.json"
    script = "\n".join(["?", "draw", "u", "u", "money", "99", "1", "b", "push row 2 from left",
                        "q"]) + "\n"
    res = run("play", "--human", "Blue", "--players", 2, "--bots", "ismcts:iterations=30",
              "--hint-iterations", 50, "--seed", 1, "--record", record, input=script)
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "Hint (50 iterations): draw" in out
    # the forced draw's hint carries the position's chances, never 0%, with its ±
    win = re.search(r"^  draw\s+estimate\s+([\d.]+)% ± [\d.]+\s+\((\d+) visits\)", out, re.M)
    assert win and 0 < float(win.group(1)) < 100 and win.group(2) == "50", out
    assert "Undone: draw" in out
    assert "Nothing of yours to undo." in out
    assert "Not possible: 'money' is illegal here (legal: draw)" in out
    assert "No decision 99: choose 1..1." in out
    assert "Round 1 of 10, Blue to move, phase: push" in out
    assert "round  1 Red (ismcts:iterations=30)" in out       # the bot's turn, logged
    data = json.loads(record.read_text())
    blue = [d for d in data["decisions"]][-2:]
    assert blue == ["draw", "push row 2 from left"]
    assert load_record(record).state.raw()["phase"] == 2       # actions: the game goes on later


def test_interrupted_game_is_saved_to_the_default_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ulm-game.json").write_text("{}")             # never overwritten
    res = run("play", "--human", "0", "--bots", "random", input="1\n")   # then the input ends
    assert res.exit_code == 130
    assert "record saved to ./ulm-game-2.json" in res.stdout
    assert (tmp_path / "ulm-game.json").read_text() == "{}"
    rec = load_record(tmp_path / "ulm-game-2.json")
    assert [ACTION_NAMES[a] for a in rec.decisions] == ["draw"]


def test_human_option_errors():
    res = run("play", "--human", "Green", "--players", 2)
    assert res.exit_code == 2 and "--human: no seat Green in a 2-player game" in res.stderr
    res = run("play", "--human", "Purple")
    assert res.exit_code == 2 and "Purple" in res.stderr
    res = run("play", "--human", "Red", "--bots", "nosuchbot")
    assert res.exit_code == 2 and "--bots" in res.stderr
    res = run("play")
    assert res.exit_code == 2 and "--bots" in res.stderr


def test_session_undo_restores_the_state_and_the_dealer():
    game = PlaySession(["human", "random"], seed=2)
    before = game.state.clone()
    events = game.play(ACTION_NAMES.index("draw"), viewer=0)
    assert len(events) == 1 and events[0].startswith("drew ")
    assert game.undo() == ACTION_NAMES.index("draw")
    assert game.state.raw() == before.raw() and game.record.decisions == []
    assert game.play(ACTION_NAMES.index("draw"), viewer=0) == events   # the same tile again
    assert game.undo() is not None and game.undo() is None
