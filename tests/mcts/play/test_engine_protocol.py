"""The engine protocol and the plug-ins: what a guest bot is told is its seat's
knowledge alone (the leak oracles of tests/leaks.py over every message sent, in 2, 3
and 4 players), the reference engines play whole games and tournaments, and a plug-in's
state tells nothing of the hidden cards."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT
from leaks import DealSecret, Secrets, assert_same_for_worlds, seen_cards
import ulm
from ulm import ACTION_NAMES
from ulm.positions import position_to_state
from mcts.play import engines
from mcts.play.bot_game import play_game
from mcts.play.bots import make_bot
from mcts.play.engines import EngineBot, protocol
from mcts.play.plugins import PluginBot
from mcts.play.reports import format_table
from mcts.play.tournament import TournamentConfig, run_tournament

ENGINES_DIR = ROOT / "examples" / "engines"
PY_ENGINE = f"{sys.executable} {ENGINES_DIR / 'random_engine.py'}"


@pytest.fixture(scope="module")
def c_engine(tmp_path_factory):
    """The C engine, built with the system's compiler."""
    gcc = shutil.which("gcc")
    assert gcc, "the C reference engine is built with gcc"
    out = tmp_path_factory.mktemp("c") / "random_engine"
    subprocess.run([gcc, "-O2", "-Wall", "-Werror", "-o", str(out),
                    str(ENGINES_DIR / "random_engine.c")], check=True)
    return str(out)


@pytest.fixture(autouse=True)
def logs(tmp_path):
    engines.set_log_dir(tmp_path / "logs")
    yield
    engines.set_log_dir(engines.DEFAULT_LOG_DIR)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_message_sent_to_an_engine_is_built_from_its_seats_knowledge(players, monkeypatch):
    """A game with an engine in every seat: each message sent is checked against the
    true state of that moment, for the seat it went to (cards and coats it cannot know,
    with what it saw before; and the seed that deals the game)."""
    monkeypatch.setitem(engines.ENGINES, "py", PY_ENGINE)
    seed = 1000 + players
    game = ulm.Game(players=players)
    deal = DealSecret(game, seed)
    seen = [set() for _ in range(players)]
    now: list = [None]
    sent = {"hello": 0, "game": 0, "decide": 0, "end": 0, "quit": 0}
    problems: list[str] = []

    def tap_for(bot):
        def tap(direction, message):
            if direction != "host":
                return
            sent[message["type"]] += 1
            state, seat = now[0], bot.seat
            secrets = Secrets(state, seat, seen[seat])
            problems.extend(secrets.leaks(message))
            for event in message.get("events", []):     # an id says all its name says
                if "id" in event:
                    problems.extend(secrets.leaks(ACTION_NAMES[event["id"]]))
            if message["type"] in ("game", "end") or message.get("decision", 0) % 7 == 1:
                problems.extend(deal.leaks(message))
        return tap

    original = {name: getattr(EngineBot, name) for name in ("choose", "observe", "end_game")}

    def choose(self, state):
        self.tap = tap_for(self)
        seen[self.seat] |= seen_cards(state, self.seat)
        now[0] = state
        return original["choose"](self, state)

    def observe(self, state, action):
        seen[self.seat] |= seen_cards(state, self.seat)
        return original["observe"](self, state, action)

    def end_game(self, state, forfeits):
        seen[self.seat] |= seen_cards(state, self.seat)
        now[0] = state
        return original["end_game"](self, state, forfeits)

    for name, fn in (("choose", choose), ("observe", observe), ("end_game", end_game)):
        monkeypatch.setattr(EngineBot, name, fn)
    row = play_game(["engine:py"] * players, seed)
    assert problems == []
    assert row["forfeits"] == [None] * players
    assert sent["hello"] == sent["game"] == sent["end"] == sent["quit"] == players
    assert sent["decide"] == row["decisions"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_decision_message_is_the_same_in_every_world_the_seat_cannot_tell_apart(players):
    state = ulm.Game(players=players).new_game(7)
    bot = make_bot("random:seed=3")
    step = 0
    while not state.is_terminal():
        if step % 9 == 0:
            seat = state.current_player()
            assert_same_for_worlds(state, seat, lambda s, seat=seat: protocol.decide(s, seat, 1, 1.0, []),
                                   seed=step)
        state.apply_action(bot.choose(state))
        state.resolve_chance()
        step += 1


class _Peek:
    """A plug-in that notes the hands of the other seats in the state it is given."""
    def __init__(self):
        self.hands = []

    def choose(self, state):
        raw = state.raw()
        me = state.current_player()
        self.hands.append([pl["hand"] for p, pl in enumerate(raw["players"][:state.num_players()])
                           if p != me])
        return state.legal_actions()[0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_plugin_is_handed_its_seats_view_with_the_hidden_cards_dealt_anew(players):
    """The state a plug-in gets is the same for the true state and for any world its
    seat cannot tell from it (so it tells nothing of the hidden cards), and keeps the
    seat's information state."""
    state = ulm.Game(players=players).new_game(11)
    other_bot = make_bot("random:seed=5")
    step = 0
    while not state.is_terminal():
        seat = state.current_player()
        if step % 5 == 0:
            bot = PluginBot("peek", _Peek(), seed=step)
            world = bot.world(state)
            assert world.information_state_key(seat) == state.information_state_key(seat)
            for k in range(2):
                other = state.resample_from_infostate(seat, 100 * step + k)
                again = PluginBot("peek", _Peek(), seed=step)
                assert again.world(other).raw() == world.raw()
        state.apply_action(other_bot.choose(state))
        state.resolve_chance()
        step += 1


def _corrected_board(tmp_path) -> Path:
    """The shipped board with other river values: a game whose scores differ."""
    data = json.loads((ROOT / "ulm" / "data" / "board.json").read_text())
    data["river"]["values"] = [v + 1 for v in data["river"]["values"]]
    path = tmp_path / "corrected.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("corrected", [False, True])
def test_an_engine_is_told_a_corrected_board_and_rebuilds_its_seats_knowledge(corrected,
                                                                             tmp_path):
    """The views do not carry the board table: an engine is told a corrected one in
    its game message (and nothing of the shipped one), and its first view read back
    on it is its seat's information state of the true game."""
    game = ulm.Game(players=3, board=_corrected_board(tmp_path) if corrected else None)
    state = game.new_game(5)
    other = make_bot("random:seed=2")
    heard: list[dict] = []
    bot = EngineBot("py", PY_ENGINE)
    bot.tap = lambda direction, message: heard.append(message) if direction == "host" else None
    try:
        while True:
            state.resolve_chance()
            if state.current_player() == 0:
                asked = state.clone()
                state.apply_action(bot.choose(state))
                break
            state.apply_action(other.choose(state))
    finally:
        bot.close()
    told = next(m for m in heard if m["type"] == "game")
    view = next(m for m in heard if m["type"] == "decide")["view"]
    if not corrected:
        assert "board" not in told
        return
    json.loads(json.dumps(told))
    assert ulm.Game(players=3, board=told["board"]).table == game.table != \
        ulm.Game(players=3).table
    known, seat = position_to_state(view, "view", told["board"])
    assert seat == 0 and known.game.table == game.table
    assert known.information_state_key(0) == asked.information_state_key(0)


@pytest.mark.parametrize("corrected", [False, True])
def test_a_plugins_world_is_on_the_games_board(corrected, tmp_path):
    game = ulm.Game(players=2, board=_corrected_board(tmp_path) if corrected else None)
    state = game.new_game(8)
    state.resolve_chance()
    world = PluginBot("peek", _Peek(), seed=1).world(state)
    assert world.game.table == game.table
    assert world.information_state_key(state.current_player()) == \
        state.information_state_key(state.current_player())


def test_a_plugin_by_module_file_and_entry_point(tmp_path, monkeypatch):
    mod = tmp_path / "firstbots.py"
    mod.write_text("class First:\n"
                   "    def choose(self, state):\n"
                   "        return state.legal_actions()[0]\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    dist = tmp_path / "firstbots-1.2.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: firstbots\nVersion: 1.2\n")
    (dist / "entry_points.txt").write_text("[ulm.bots]\nfirst = firstbots:First\n")
    from mcts.play.plugins import plugins
    assert {"name": "first", "target": "firstbots:First", "origin": "firstbots 1.2"} in plugins()
    for spec in ("python:firstbots:First", f"python:{mod}:First", "python:first:seed=4"):
        row = play_game([spec, "random", "random"], seed=2)
        assert row["forfeits"] == [None] * 3, spec
    with pytest.raises(ValueError, match="no plug-in 'nothere' is installed"):
        make_bot("python:nothere")
    with pytest.raises(ValueError, match="has no class Second"):
        make_bot("python:firstbots:Second")
    with pytest.raises(ValueError, match="no file"):
        make_bot(f"python:{tmp_path / 'missing.py'}:First")
    with pytest.raises(ValueError, match="unknown option 'iterations'"):
        make_bot("python:firstbots:First:iterations=3")


def test_the_reference_engines_play_a_tournament_against_level_2(c_engine, tmp_path,
                                                                   monkeypatch):
    cfg = TournamentConfig(bots=["engine:py", "engine:c", "level:2"], players=3, games=6,
                           seed=5, engines={"py": PY_ENGINE, "c": c_engine})
    summary = run_tournament(cfg, tmp_path / "out", workers=1, progress=False)
    bots = {b["bot"]: b for b in summary["bots"]}
    assert summary["games"] == 6
    for name in ("engine:py", "engine:c"):
        assert bots[name]["games"] == 6 and bots[name]["forfeits"] == 0
        assert 0 < bots[name]["seconds_per_decision"] <= bots[name]["longest_decision"]
    table = format_table(summary)
    assert "s/decision" in table and "engine:c" in table
    assert len(list((tmp_path / "out" / "engine-logs").glob("c.game-*.log"))) == 6


def test_the_node_engine_plays_a_tournament(tmp_path):
    node = shutil.which("node")
    assert node, "the Node reference engine needs node"
    cfg = TournamentConfig(bots=["engine:js", "greedy"], players=2, games=2, seed=3,
                           engines={"js": f"{node} {ENGINES_DIR / 'random_engine.js'}"})
    summary = run_tournament(cfg, tmp_path / "out", workers=1, progress=False)
    js = next(b for b in summary["bots"] if b["bot"] == "engine:js")
    assert js["games"] == 2 and js["forfeits"] == 0


def test_a_tournament_goes_on_past_faults_and_reports_them(tmp_path):
    faulty = f"{sys.executable} {ENGINES_DIR / 'faulty_engine.py'} crash 3"
    cfg = TournamentConfig(bots=["engine:bad:time=0.5", "random"], players=2, games=4, seed=1,
                           engines={"bad": faulty})
    summary = run_tournament(cfg, tmp_path / "out", workers=2, progress=False)
    bad = next(b for b in summary["bots"] if b["bot"] == "engine:bad:time=0.5")
    assert summary["games"] == 4
    assert bad["forfeits"] == 4 and bad["forfeit_kinds"] == {"crash": 4}
    assert bad["wins"] == 0
    assert "crash 4" in format_table(summary)
    rows = (tmp_path / "out" / "games.jsonl").read_text().splitlines()
    assert all('"kind": "crash"' in r for r in rows)
    assert "seat1_forfeit" in (tmp_path / "out" / "games.csv").read_text()


def test_a_game_record_keeps_the_forfeits_and_the_engines_notes(tmp_path, monkeypatch):
    from ulm.records import load_record
    monkeypatch.setitem(engines.ENGINES, "py", PY_ENGINE)
    monkeypatch.setitem(engines.ENGINES, "bad",
                        f"{sys.executable} {ENGINES_DIR / 'faulty_engine.py'} unknown 2")
    path = tmp_path / "game.json"
    play_game(["engine:py", "engine:bad", "random"], seed=3, record_path=path)
    rec = load_record(path)
    assert rec.forfeits["Blue"]["kind"] == "unknown"
    assert rec.forfeits["Blue"]["reason"] == "answered 'conquer the world': no such decision"
    assert rec.info["Red"][0][1]["comment"].startswith("Red picks from")
    assert rec.state.is_terminal()


# --- the transcript of docs/engines.md ------------------------------------------------------

TRANSCRIPT = ENGINES_DIR / "transcript-2p.txt"


def transcript(monkeypatch) -> str:
    """A whole 2-player game of the Python reference engine (Red) against level:2, as the
    engine's standard input ("> ") and output ("< ") carry it."""
    monkeypatch.setitem(engines.ENGINES, "py", PY_ENGINE)
    lines: list[str] = []
    choose = EngineBot.choose

    def tapped(self, state):
        self.tap = lambda direction, message: lines.append(
            ("> " if direction == "host" else "< ")
            + json.dumps(message, separators=(",", ":")))
        return choose(self, state)
    monkeypatch.setattr(EngineBot, "choose", tapped)
    play_game(["engine:py", "level:2"], seed=1)
    return "\n".join(lines) + "\n"


def test_the_shipped_transcript_is_what_the_host_and_the_engine_say(monkeypatch):
    """examples/engines/transcript-2p.txt is a real game (ULM_WRITE_TRANSCRIPT=1 rewrites
    it), and every line docs/engines.md quotes from a transcript is in it."""
    fresh = transcript(monkeypatch)
    if os.environ.get("ULM_WRITE_TRANSCRIPT"):
        TRANSCRIPT.write_text(fresh)
    assert TRANSCRIPT.read_text() == fresh
    shipped = {_without_view(line) for line in fresh.splitlines()}
    doc = (ROOT / "docs" / "engines.md").read_text()
    quoted = re.findall(r"^[<>] \{.*\}$", doc, flags=re.M)
    assert len(quoted) >= 8
    for line in quoted:
        assert line in shipped, line


def _without_view(line: str) -> str:
    """A transcript line with its view written {...}, as the doc quotes it."""
    message = json.loads(line[2:])
    if "view" in message:
        message["view"] = "{...}"
    return line[:2] + json.dumps(message, separators=(",", ":")).replace('"{...}"', "{...}")


@pytest.mark.parametrize("field,value,message", [
    ("forfeits", [1], "forfeits: must be an object of the seats that forfeited"),
    ("forfeits", {"Green": {}}, "forfeits: must be an object of the seats that forfeited"),
    ("info", "notes", "info: must be an object of seats' engine notes"),
    ("info", {"Purple": []}, "info: must be an object of seats' engine notes"),
])
def test_a_record_with_bad_forfeits_or_notes_is_refused(field, value, message):
    from ulm.records import RecordError, replay
    data = {"format": "ulm-record/1", "players": 2, "seed": 1, "decisions": [], field: value}
    with pytest.raises(RecordError, match=message):
        replay(data)


def test_a_game_with_a_person_sends_the_engine_the_events_its_seat_saw(monkeypatch):
    """`ulm play --human` and the web play through PlaySession: the engine is told what
    happened since its last decision there too, in its seat's words; after a person
    takes a decision back the engine starts afresh, its events from that point."""
    from mcts.play.session import PlaySession
    monkeypatch.setitem(engines.ENGINES, "py", PY_ENGINE)
    decides: list = []
    original = EngineBot.choose

    def choose(self, state):
        self.tap = lambda direction, m: decides.append(m) if m["type"] == "decide" else None
        return original(self, state)

    monkeypatch.setattr(EngineBot, "choose", choose)
    table = PlaySession(["human", "engine:py"], seed=5)
    try:
        def saw_red():
            return any(e["seat"] == "Red" for d in decides for e in d["events"])
        for _ in range(300):
            if saw_red():
                break
            if table.human_to_move():
                table.play(table.state.legal_actions()[0])
            else:
                table.bot_move()
        assert decides and decides[0]["events"], decides[:1]     # Red's first turn, told
        assert saw_red()                                         # the person's decisions
        for d in decides:       # a card Red drew is not named to Blue
            assert all("id" not in e for e in d["events"] if e["words"] == "Red drew a card")
        while not table.human_to_move():
            table.bot_move()
        table.play(table.state.legal_actions()[0])
        assert table.undo() is not None
        assert table.bots[1].process is None and table.bots[1].events == []
    finally:
        for bot in table.bots:
            if bot is not None and hasattr(bot, "close"):
                bot.close()
