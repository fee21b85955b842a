"""Every fault of an engine program, with real processes (examples/engines/faulty_engine.py):
the faulty seat forfeits the game (ranked last, the reason in the row), the game goes on
for the others in 3 and 4 players and ends in 2, and no process of the engine outlives
the game."""
from __future__ import annotations

import os
import re
import sys
import time

import pytest

from helpers import ROOT
from mcts.play import engines
from mcts.play.bot_game import play_game
from mcts.play.engines import host, protocol

FAULTY = f"{sys.executable} {ROOT / 'examples' / 'engines' / 'faulty_engine.py'}"
GOOD = f"{sys.executable} {ROOT / 'examples' / 'engines' / 'random_engine.py'}"
QUICK = "time=0.5,grace=0.5"


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch):
    monkeypatch.setattr(protocol, "START_SECONDS", 2.0)
    engines.set_log_dir(tmp_path / "logs")
    yield tmp_path / "logs"
    engines.set_log_dir(engines.DEFAULT_LOG_DIR)


def _alive(pid: int) -> bool:
    return host._alive(pid)


def _children_in_logs(logs) -> list[int]:
    """The processes the faulty engines said they started (their logs)."""
    pids = []
    for path in logs.glob("*.log"):
        pids += [int(p) for p in re.findall(r"child (\d+)", path.read_text())]
    return pids


def _no_engine_left(logs) -> None:
    for pid in host.descendants(os.getpid()):
        try:
            cmdline = open(f"/proc/{pid}/cmdline", "rb").read()
        except OSError:
            continue
        assert b"faulty_engine" not in cmdline and b"random_engine" not in cmdline, pid
    for pid in _children_in_logs(logs):
        for _ in range(50):         # SIGKILLed: gone as soon as its parent reaps it
            if not _alive(pid):
                break
            time.sleep(0.02)
        assert not _alive(pid), f"the engine's child {pid} outlived the game"
    assert not host._LIVE


FAULTS = [
    # command, the kind of forfeit
    ("/no/such/engine", "start"),
    (f"{FAULTY} exit", "start"),
    (f"{FAULTY} mute", "start"),
    (f"{FAULTY} old", "start"),
    (f"{FAULTY} crash 2", "crash"),
    (f"{FAULTY} hang 2", "time"),
    (f"{FAULTY} garbage", "garbage"),
    (f"{FAULTY} illegal 3", "illegal"),
    (f"{FAULTY} unknown", "unknown"),
    (f"{FAULTY} twice 2", "garbage"),
    (f"{FAULTY} stale 2", "garbage"),
    (f"{FAULTY} flood", "flood"),
    (f"{FAULTY} close", "closed"),
    (f"{FAULTY} children", "children"),
    (f"{FAULTY} escape", "children"),
    (f"{FAULTY} noquit", "quit"),
]


@pytest.mark.parametrize("command,kind", FAULTS, ids=[f"{k}:{c.split()[-1]}" for c, k in FAULTS])
def test_a_fault_forfeits_the_game_and_it_goes_on_in_3_players(command, kind, logs, monkeypatch):
    monkeypatch.setitem(engines.ENGINES, "bad", command)
    row = play_game([f"engine:bad:{QUICK}", "random", "greedy"], seed=4, game=7)
    fault = row["forfeits"][0]
    assert fault is not None and fault["kind"] == kind, fault
    assert row["ranks"][0] == 3.0 and row["returns"][0] == 0.0
    assert sum(row["returns"]) == pytest.approx(1.0)
    assert row["forfeits"][1:] == [None, None]
    # the others played the game to its end (the forfeited seat by the random bot)
    assert row["decisions"] > 100
    _no_engine_left(logs)


def test_in_2_players_a_fault_ends_the_game_and_the_other_seat_wins(logs, monkeypatch):
    monkeypatch.setitem(engines.ENGINES, "bad", f"{FAULTY} garbage 3")
    row = play_game(["greedy", f"engine:bad:{QUICK}"], seed=2)
    assert row["forfeits"][1]["kind"] == "garbage"
    assert row["forfeits"][1]["reason"].startswith("wrote 'this is not JSON'")
    assert row["returns"] == [1.0, 0.0] and row["ranks"] == [1.0, 2.0]
    assert row["decisions"] < 20
    _no_engine_left(logs)


def test_a_forfeited_seat_plays_on_the_same_way_every_time(logs, monkeypatch):
    """The random bot that takes the seat over has the seat's seed: the game replays."""
    monkeypatch.setitem(engines.ENGINES, "bad", f"{FAULTY} illegal 2")
    rows = [play_game([f"engine:bad:{QUICK}", "greedy", "random", "greedy"], seed=9)
            for _ in range(2)]
    for row in rows:
        del row["seconds"], row["longest"]
    assert rows[0] == rows[1]
    assert rows[0]["forfeits"][0]["kind"] == "illegal"


def test_each_engine_writes_its_standard_error_to_a_log_of_its_own(logs, monkeypatch):
    monkeypatch.setitem(engines.ENGINES, "good", GOOD)
    play_game(["engine:good", "engine:good", "random"], seed=1, game=3)
    assert sorted(p.name for p in logs.iterdir()) == ["good.game-3.Blue.log",
                                                      "good.game-3.Red.log"]
    assert "Blue: game over" in (logs / "good.game-3.Blue.log").read_text()
    _no_engine_left(logs)


def test_a_plugin_that_raises_or_answers_illegally_forfeits(tmp_path, logs):
    plugin = tmp_path / "broken.py"
    plugin.write_text(
        "class Raises:\n"
        "    def choose(self, state):\n"
        "        raise RuntimeError('no idea')\n"
        "class Illegal:\n"
        "    def choose(self, state):\n"
        "        return 10_000\n"
        "class Reseed:\n"
        "    def reseed(self, seed):\n"
        "        if seed:\n"
        "            raise ValueError('not this seed')\n"
        "    def choose(self, state):\n"
        "        return state.legal_actions()[0]\n"
        "class Slow:\n"
        "    def choose(self, state):\n"
        "        import time; time.sleep(0.3)\n"
        "        return state.legal_actions()[0]\n")
    for cls, kind in (("Raises", "exception"), ("Illegal", "unknown"), ("Slow", "time"),
                      ("Reseed", "exception")):
        row = play_game([f"python:{plugin}:{cls}:time=0.05,grace=0.1", "random", "random"],
                        seed=3)
        assert row["forfeits"][0]["kind"] == kind, row["forfeits"]
        assert row["ranks"][0] == 3.0


def test_a_bug_of_a_shipped_bot_is_no_forfeit(monkeypatch):
    """Only a guest's fault forfeits; the project's own bots raise as before."""
    from mcts.play.bots import RandomBot

    def broken(self, state):
        raise RuntimeError("a bug")
    monkeypatch.setattr(RandomBot, "_choose", broken)
    with pytest.raises(RuntimeError, match="a bug"):
        play_game(["random", "greedy"], seed=1)


def test_an_engine_that_writes_without_end_to_its_log_has_it_cut_and_plays_on(logs, monkeypatch):
    """Standard error is output too: the log keeps at most MAX_LOG bytes and says where
    it stops; the rest is read and dropped, so the engine is not blocked."""
    monkeypatch.setattr(host, "MAX_LOG", 100_000)
    monkeypatch.setitem(engines.ENGINES, "chatty", f"{FAULTY} chatter 2")
    row = play_game([f"engine:chatty:{QUICK}", "greedy"], seed=2)
    assert row["forfeits"] == [None, None]
    (log,) = logs.glob("chatty.*.log")
    text = log.read_bytes()
    assert len(text) < 100_000 + 200 and text.count(b"y" * 1000) > 0
    assert text.rstrip().endswith(b"the engine wrote more than 100,000 bytes to its standard "
                                  b"error]")
    _no_engine_left(logs)


def test_an_answer_written_before_it_is_asked_forfeits_and_a_late_info_is_dropped(logs,
                                                                                   monkeypatch):
    """Each decision answers the `decide` just sent: a second answer waiting in the pipe
    when the next one is asked, or an answer naming another decision, is a fault (it
    would otherwise be taken as the next answer, to a question the engine never saw);
    an info written after an answer is dropped, and the game goes on."""
    monkeypatch.setitem(engines.ENGINES, "twice", f"{FAULTY} twice 2")
    row = play_game(["greedy", f"engine:twice:{QUICK}"], seed=2)
    assert row["forfeits"][1]["kind"] == "garbage"
    assert row["forfeits"][1]["reason"].startswith(
        'wrote {"type": "decision", "id": ') and "before it was asked for decision 3" in \
        row["forfeits"][1]["reason"], row["forfeits"][1]
    monkeypatch.setitem(engines.ENGINES, "stale", f"{FAULTY} stale 2")
    row = play_game(["greedy", f"engine:stale:{QUICK}"], seed=2)
    assert row["forfeits"][1]["reason"] == "answered decision 1 when asked for decision 2"
    monkeypatch.setitem(engines.ENGINES, "late", f"{FAULTY} lateinfo 1")
    row = play_game(["greedy", f"engine:late:{QUICK}"], seed=2)
    assert row["forfeits"] == [None, None] and row["decisions"] > 100
    _no_engine_left(logs)


@pytest.mark.parametrize("at,number,shown", [
    (2, '"2"', "'2'"), (1, "true", "true"), (2, "2.0", "2.0"), (2, "null", "null"),
    (2, "-2", "-2"), (2, "1e400", "Infinity"), (2, "[2]", "[2]"), (2, "12" * 60, "1212")])
def test_a_decision_number_that_is_not_the_one_asked_forfeits(at, number, shown, logs,
                                                               monkeypatch):
    """The optional "decision" of an answer: wrong type, a boolean for 1, a float,
    null, negative, huge, a list; the reason shows it cut short."""
    monkeypatch.setitem(engines.ENGINES, "n", f"{FAULTY} numbered {at} '{number}'")
    row = play_game(["greedy", f"engine:n:{QUICK}"], seed=2)
    reason = row["forfeits"][1]["reason"]
    assert row["forfeits"][1]["kind"] == "garbage" and reason.startswith(
        f"answered decision {shown}") and reason.endswith(f"when asked for decision {at}"), reason
    assert len(reason) < 200
