"""Nothing shown to a player names a card or coat it cannot know (R-INFO-3, R-INFO-4):
the leak oracle (tests/leaks.py) run over whole games in every output channel, for 2, 3
and 4 players: the terminal's log of `ulm play --human`, `ulm show`, `ulm apply` and
`ulm apply --list` of a view, `ulm suggest --json` and `ulm annotate --json`, and every
answer of the web companion in Play, Follow and Review."""
from __future__ import annotations

import json
import random

import click
import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

import ulm
from cli.main import main
from cli.web.app import create_app
from leaks import Secrets, assert_no_leak, seen_cards
from ulm import ACTION_NAMES, CARDS
from ulm._fastcore import SEATS
from ulm.decisions import decision_words
from ulm.positions import dumps, position_to_state, state_to_position
from ulm.records import GameRecord, replay
from helpers import EXAMPLES

PLAYERS = [2, 3, 4]


# --- the oracle itself --------------------------------------------------------------------

def test_the_oracle_catches_a_leak_and_lets_public_lists_pass():
    state = ulm.Game(players=3).new_game(seed=2)
    raw = state.raw()
    pile = [c for c in range(len(CARDS)) if raw["pile"] >> c & 1]
    raw["pile"] &= ~(1 << pile[0] | 1 << pile[1])
    raw["players"][0]["hand"] |= 1 << pile[0]              # Red's card
    raw["players"][1]["hand"] |= 1 << pile[1]              # Blue's, hidden from Red
    state.set_raw(raw)
    viewer = 0
    secrets = Secrets(state, viewer)
    blue_card = CARDS[next(c for c in range(len(CARDS)) if state.raw()["players"][1]["hand"] >> c
                           & 1)]
    # a deliberately leaky text, line, JSON value and picture
    assert secrets.leaks(f"round 3 Blue (greedy): keep {blue_card}; end turn")
    assert secrets.leaks({"history": [{"seat": "Blue", "name": f"keep {blue_card}"}]})
    assert secrets.leaks(f'<svg><text x="1">{blue_card}</text></svg>')
    # what the viewer knows: its own hand; a list of every card the draw may be
    own = [CARDS[c] for c in range(len(CARDS)) if state.raw()["players"][viewer]["hand"] >> c & 1]
    assert not secrets.leaks(f"Red's hand: {', '.join(own)}")
    hidden = [CARDS[c] for c in range(len(CARDS)) if state.hidden_cards(viewer) >> c & 1]
    assert not secrets.leaks("possible: " + ", ".join(f"drew {c}" for c in hidden))
    assert not secrets.leaks({"options": [{"name": f"Blue: play {c} (upper)"} for c in hidden]})
    # whole names only: "Nave I" is not found in "Nave III"
    if "Nave I" in hidden and "Nave III" not in hidden:
        assert not secrets.leaks("Nave III")
    assert Secrets(state, viewer, seen={blue_card}).leaks(f"keep {blue_card}") == []


# --- the terminal ----------------------------------------------------------------------------

@pytest.mark.parametrize("players, seed", [(2, 0), (3, 2), (4, 3)])
def test_play_human_log(players, seed, monkeypatch, tmp_path):
    """A person (Red) against bots, taking the first decision listed each time: every line
    the terminal shows is checked against the real game when Red is asked next."""
    import cli.human_cmd
    import mcts.play.session
    from cli.human_cmd import play_human
    games, lines, seen, checked = [], [], set(), [0]
    after_bot = []                # (state, seen) after each decision of a bot

    class Spy(mcts.play.session.PlaySession):
        def __init__(self, *args, **kw):
            super().__init__(*args, **kw)
            games.append(self)

        def bot_move(self, viewer=None):
            out = super().bot_move(viewer)
            seen.update(seen_cards(self.state, 0))
            after_bot.append((self.state.clone(), set(seen)))
            return out

    def echo(message="", **kw):
        message = str(message)
        if message.startswith("round ") and "): " in message:
            # a bot's turn, one part a decision: each checked against the game right after it
            parts = message.split("): ", 1)[1].rsplit("  -> ", 1)[0].split("; ")
            for part, (state, known) in zip(parts, after_bot[-len(parts):]):
                assert_no_leak(state, 0, part, "play --human, a bot's turn", known)
        else:
            lines.append(message)

    def check():
        state = games[0].state
        seen.update(seen_cards(state, 0))
        assert_no_leak(state, 0, "\n".join(lines[checked[0]:]), "play --human", seen=seen)
        checked[0] = len(lines)

    def prompt(*args, **kw):
        check()
        return "1"

    monkeypatch.setattr(cli.human_cmd, "PlaySession", Spy)
    monkeypatch.setattr(click, "echo", echo)
    monkeypatch.setattr(click, "prompt", prompt)
    seats = ["human"] + ["random"] * (players - 1)
    play_human(seats, seed, "basic", None, str(tmp_path / "game.json"), 10)
    check()
    assert games[0].state.is_terminal()


def test_play_human_log_says_a_bots_keep_by_its_discards(monkeypatch, tmp_path):
    """The bot's turn in the log: "kept one, discarded X", never the card kept."""
    lines = []
    monkeypatch.setattr(click, "echo", lambda message="", **kw: lines.append(str(message)))
    monkeypatch.setattr(click, "prompt", lambda *a, **k: "1")
    from cli.human_cmd import play_human
    found = 0
    for seed in range(6):
        play_human(["human", "random"], seed, "basic", None, str(tmp_path / f"g{seed}.json"), 10)
        found += sum("kept one, discarded" in line for line in lines)
        assert not [line for line in lines if line.startswith("round") and any(
            f"keep {c}" in line for c in CARDS)], seed
        if found >= 2:
            break
    assert found >= 2


# --- views through the command line -------------------------------------------------------

def _random_game(players, seed, variant="basic"):
    """The states of a random game with each event in the viewer's (Red's) words."""
    rng = random.Random(seed)
    state = ulm.Game(players=players, variant=variant).new_game(seed)
    while not state.is_terminal():
        a = (state.sample_chance_outcome() if state.is_chance_node()
             else rng.choice(state.legal_actions()))
        yield state, a
        state.apply_action(a)
    yield state, None


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


@pytest.mark.parametrize("players, seed", [(2, 4), (3, 5), (4, 6)])
def test_show_apply_and_suggest_of_a_view(players, seed, tmp_path):
    viewer, seen, k, checked, suggested = 0, set(), 0, 0, 0
    path = tmp_path / "view.json"
    for state, action in _random_game(players, seed, "advanced" if seed % 2 else "basic"):
        seen |= seen_cards(state, viewer)
        k += 1
        if k % 23 and action is not None:
            continue
        view = state_to_position(state, viewer)
        try:
            position_to_state(view)
        except ulm.positions.PositionError:          # the set-up still being dealt
            continue
        path.write_text(dumps(view))
        assert_no_leak(state, viewer, view, "the view file", seen)
        shown = run("show", path)
        assert shown.exit_code == 0, shown.output
        assert_no_leak(state, viewer, shown.stdout, "ulm show", seen)
        listed = run("apply", path, "--list", "--json")
        assert listed.exit_code == 0, listed.output
        assert_no_leak(state, viewer, json.loads(listed.stdout), "ulm apply --list", seen)
        names = [o["name"] for o in json.loads(listed.stdout)["options"]]
        assert run("apply", path, "--list").stdout.splitlines()[1:] == [f"  {n}" for n in names]
        if action is not None:
            words = decision_words(state, action, viewer)
            if not words.startswith("kept one"):      # listed by its discards
                assert words in names, (words, names)   # what happened was possible
            after = state.clone()
            after.apply_action(action)
            res = run("apply", path, words, "--quiet")
            assert res.exit_code == 0, (words, res.output)
            assert json.loads(res.stdout) == state_to_position(after, viewer)
            assert_no_leak(after, viewer, json.loads(res.stdout), "ulm apply",
                           seen | seen_cards(after, viewer))
            if not state.is_chance_node() and state.current_player() == viewer and suggested < 3:
                res = run("suggest", path, "--iterations", 30, "--json")
                assert res.exit_code == 0, res.output
                assert_no_leak(state, viewer, json.loads(res.stdout), "ulm suggest", seen)
                suggested += 1
        checked += 1
    assert checked >= 5 and suggested


@pytest.mark.parametrize("players, seed", [(2, 7), (3, 8), (4, 9)])
def test_annotate_json(players, seed, tmp_path):
    rec = GameRecord(players=players, seed=seed)
    rng = random.Random(seed)
    while not rec.state.is_terminal():
        rec.apply(rng.choice(rec.state.legal_actions()))
    path = tmp_path / "rec.json"
    rec.save(path)
    res = run("annotate", path, "--as", "Red", "--iterations", 5, "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    state, seen = replay(rec.to_dict(), 0).state, set()
    by_index = {d["index"]: d for d in out["decisions"]}
    for k, action in enumerate(rec.decisions):
        seen |= seen_cards(state, 0)
        if k in by_index:
            assert_no_leak(state, 0, by_index[k], f"ulm annotate, decision {k}", seen)
        state.apply_action(action)
        state.resolve_chance()
    rest = {key: v for key, v in out.items() if key != "decisions"}
    assert_no_leak(state, 0, rest, "ulm annotate", seen | seen_cards(state, 0))


# --- the web companion ----------------------------------------------------------------------

def check_history(history, data, viewer):
    """Each entry of a history against the game right after its decision."""
    state, seen = replay(data, 0).state, set()
    assert len(history) == len(data["decisions"])
    for entry, name in zip(history, data["decisions"]):
        seen |= seen_cards(state, viewer)
        state.apply_action(ACTION_NAMES.index(name))
        state.resolve_chance()
        seen |= seen_cards(state, viewer)
        assert_no_leak(state, viewer, entry, f"history entry {entry['index']}", seen)


def _wait_for_people(c, gid):
    import time
    for _ in range(2000):
        g = c.get(f"/api/games/{gid}").json()
        if g["terminal"] or g["options"]:
            return g
        time.sleep(0.01)
    raise AssertionError("the bots did not move")


@pytest.mark.parametrize("players, seed", [(2, 11), (3, 12), (4, 13)])
def test_web_play(players, seed):
    with TestClient(create_app(max_seconds=5)) as c:
        g = c.post("/api/games", json={"mode": "play", "seed": seed,
                                       "seats": ["human"] + ["random"] * (players - 1)}).json()
        server = c.app.state.server
        gid, seen, hinted = g["id"], set(), False
        while True:
            g = _wait_for_people(c, gid)
            state = server.games[gid].state
            seen |= seen_cards(state, 0)
            assert_no_leak(state, 0, g, "web play", seen)
            if g["terminal"]:
                break
            if not hinted and state.raw()["round"] >= 2:
                r = c.get(f"/api/games/{gid}/download")       # the record shows everything
                assert r.status_code == 409 and "when the game is over" in r.json()["error"]
                job = c.post(f"/api/games/{gid}/hint", json={"seconds": 0.6}).json()
                with c.stream("GET", f"/api/jobs/{job['id']}/events") as r:   # live estimates
                    events = [json.loads(line[5:]) for line in r.iter_lines()
                              if line.startswith("data:")]
                assert any(e["partial"] for e in events) and events[-1]["status"] == "done"
                for e in events:
                    assert_no_leak(state, 0, e, "web hint events", seen)
                job = c.get(f"/api/jobs/{job['id']}").json()
                assert job["status"] == "done", job
                assert_no_leak(state, 0, job["result"], "web hint", seen)
                hinted = True
            if len(g["options"]) > 1:     # a variation from here: another line of Red's turn
                v = c.post(f"/api/games/{gid}/variation",
                           json={"index": len(g["history"]), "line": []}).json()
                for _ in range(4):
                    assert_no_leak(state, 0, v, "web variation", seen)
                    if not v["options"]:
                        break
                    v = c.post(f"/api/games/{gid}/variation", json={
                        "index": len(g["history"]),
                        "line": v["line"] + [v["options"][-1]["decision"]]}).json()
            r = c.post(f"/api/games/{gid}/decide", json={"decision": g["options"][0]["decision"]})
            assert r.status_code == 200, r.text
        record = c.get(f"/api/games/{gid}/download").json()
        assert replay(record).state.is_terminal()
        check_history(g["history"], record, 0)
        check_boards_looked_back(c, gid, record, 0)


def check_boards_looked_back(c, gid, data, viewer, step=9):
    """The boards of earlier positions (GET .../board?index=k, the last turn marked) against
    the game then, with what the viewer had seen by then."""
    state, seen = replay(data, 0).state, set()
    for k, name in enumerate(data["decisions"] + [None]):
        seen |= seen_cards(state, viewer)
        if k % step == 0:
            board = c.get(f"/api/games/{gid}/board?index={k}").json()
            assert board["index"] == k and "<svg" in board["svg"], board
            assert_no_leak(state, viewer, board, f"board at {k}", seen)
        if name is not None:
            state.apply_action(ACTION_NAMES.index(name))
            state.resolve_chance()


def test_web_play_history_says_a_bots_keep_by_its_discards():
    with TestClient(create_app(max_seconds=5)) as c:
        found = 0
        for seed in range(10):
            gid = c.post("/api/games", json={"mode": "play", "seed": seed,
                                             "seats": ["human", "random"]}).json()["id"]
            while True:
                g = _wait_for_people(c, gid)
                if g["terminal"]:
                    break
                c.post(f"/api/games/{gid}/decide", json={"decision": g["options"][0]["decision"]})
            blue = [h["name"] for h in g["history"] if h["seat"] == "Blue"]
            assert not [n for n in blue if n.startswith("keep ") and n[5:] in CARDS]
            found += sum(n.startswith("kept one, discarded") for n in blue)
            if found:
                break
        assert found


def test_web_hint_only_for_a_persons_own_seat():
    with TestClient(create_app(max_seconds=5)) as c:
        g = c.post("/api/games", json={"mode": "play", "seats": ["ismcts:time=2", "human"],
                                       "seed": 1}).json()
        assert g["thinking"] is not None or g["to_move"] == "Red"
        r = c.post(f"/api/games/{g['id']}/hint", json={"seconds": 0.1})
        assert r.status_code == 409, r.text
        assert r.json() == {"error": "hint: it is Red's turn (ismcts:time=2); hints are for a "
                                     "person's own decisions"}


@pytest.mark.parametrize("players, seed", [(2, 14), (3, 15), (4, 16)])
def test_web_follow(players, seed):
    """Red follows a real random game, entering each event in Red's words; every answer is
    checked against the real game."""
    viewer, rng, seen = 0, random.Random(seed), set()
    real = ulm.Game(players=players).new_initial_state()
    real.seed_dealer(seed)
    with TestClient(create_app(max_seconds=5)) as c:
        gid = c.post("/api/games", json={"mode": "follow", "players": players,
                                         "seat": "Red"}).json()["id"]
        reals, before, seen_before = [], real.clone(), set()
        for step in range(6000):
            if real.is_terminal():
                break
            if real.is_chance_node():
                a = real.sample_chance_outcome()
            else:
                a = rng.choice(real.legal_actions())
            words = decision_words(real, a, viewer)
            mover = real.current_player()
            if real.is_chance_node() or mover == viewer:
                body = {"decision": words}
            elif words.startswith("kept one"):
                body = {"text": words}
            else:
                body = {"decision": f"{SEATS[mover]}: {words}"}
            r = c.post(f"/api/games/{gid}/decide", json=body)
            assert r.status_code == 200, (step, body, r.text)
            real.apply_action(a)
            seen |= seen_cards(real, viewer)
            assert_no_leak(real, viewer, r.json(), f"web follow, step {step}", seen)
            if step % 37 == 0:      # the board looked back at, one entry before
                reals.append((step, before, set(seen_before)))
            before, seen_before = real.clone(), set(seen)
        assert real.is_terminal()
        for step, state, known in reals:
            board = c.get(f"/api/games/{gid}/board?index={step}").json()
            assert board["index"] == step, board
            assert_no_leak(state, viewer, board, f"web follow, board at {step}", known)


@pytest.mark.parametrize("players, seed", [(2, 17), (3, 18), (4, 19)])
def test_web_review(players, seed):
    """A finished game reviewed through Red's eyes: the board at each step against the game
    then; the history of the whole game against what Red knew at its end."""
    rec = GameRecord(players=players, seed=seed)
    rng = random.Random(seed)
    while not rec.state.is_terminal():
        rec.apply(rng.choice(rec.state.legal_actions()))
    data = rec.to_dict()
    seen_at, state = [], replay(data, 0).state
    for action in rec.decisions:
        seen_at.append(seen_cards(state, 0))
        state.apply_action(action)
        state.resolve_chance()
    with TestClient(create_app(max_seconds=5)) as c:
        gid = c.post("/api/games", json={"mode": "review", "record": data}).json()["id"]
        seen = set()
        for k in range(0, len(rec.decisions), 7):
            seen |= seen_at[k]
            g = c.post(f"/api/games/{gid}/goto", json={"index": k, "as": "Red"}).json()
            at = replay(data, k).state
            history = g.pop("history")
            assert_no_leak(at, 0, g, f"web review, index {k}", seen)
            go_on = c.get(f"/api/games/{gid}/continue?seat=Red").json()
            assert go_on["view"]["viewer"] == "Red"
            assert_no_leak(at, 0, go_on, f"web review, continued from {k}", seen)
        check_history(history, data, 0)
        check_boards_looked_back(c, gid, data, 0, step=11)


def test_web_review_shows_an_annotation_and_hints_only_through_their_seats_eyes():
    data = json.loads((EXAMPLES / "record-2p.json")
                      .read_text())
    with TestClient(create_app(max_seconds=5)) as c:
        gid = c.post("/api/games", json={"mode": "review", "record": data}).json()["id"]
        job = c.post(f"/api/games/{gid}/annotate", json={"seat": "Blue", "seconds": 0.01}).json()
        while job["status"] == "running":
            job = c.get(f"/api/jobs/{job['id']}").json()
        assert job["status"] == "done", job
        blue = next(d["index"] for d in job["result"]["decisions"])
        as_blue = c.post(f"/api/games/{gid}/goto", json={"index": blue, "as": "Blue"}).json()
        assert as_blue["annotation"]["seat"] == "Blue" and as_blue["hint"] is not None
        as_red = c.post(f"/api/games/{gid}/goto", json={"index": blue, "as": "Red"}).json()
        assert as_red["annotation"] is None and as_red["hint"] is None
        assert as_red["annotations"] == [] and len(as_blue["annotations"]) == 1
        r = c.post(f"/api/games/{gid}/hint", json={"seconds": 0.05})
        assert r.status_code == 409 and r.json() == {
            "error": "hint: it is Blue's turn; seen by Red, hints are for Red"}
        everything = c.post(f"/api/games/{gid}/goto", json={"index": blue, "as": "all"}).json()
        assert everything["annotation"]["seat"] == "Blue"
