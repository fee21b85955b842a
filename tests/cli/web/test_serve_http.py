"""`ulm serve` at the HTTP level: every endpoint, good and bad requests.

Bad requests get a 4xx with a JSON {"error": "<field>: <reason>"} naming what
is wrong, never a traceback or a 500.
"""
from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from cli.main import main
from cli.web.app import create_app
import ulm
from mcts import search
from ulm import ACTION_NAMES
from ulm.positions import PositionError, position_to_state, state_to_position
from ulm.records import replay
from web_helpers import error_of as _error, wait_for as _wait
from helpers import ROOT, EXAMPLES

# what the page sends with every request that changes something (cli/web/static/app.js)
JSON = {"content-type": "application/json"}


def _server_threads():
    import threading
    return [t.name for t in threading.enumerate()
            if t.is_alive() and t.name.startswith(("bots-", "job-"))]


@pytest.fixture(autouse=True)
def no_thread_outlives_its_server():
    """A closed server has stopped its bots and searches (a thread left running could
    hold a lock when a later test forks)."""
    yield
    assert _server_threads() == []


@pytest.fixture
def client():
    with TestClient(headers=JSON, app=create_app(max_seconds=5, max_upload=200_000),
                    raise_server_exceptions=False) as c:
        yield c


def _play(client, seats=("human", "greedy"), seed=3, **extra):
    r = client.post("/api/games", json=dict(mode="play", seats=list(seats), seed=seed, **extra))
    assert r.status_code == 201, r.text
    return r.json()


def _decide(client, gid, decision):
    r = client.post(f"/api/games/{gid}/decide", json={"decision": decision})
    assert r.status_code == 200, r.text
    return r.json()


# --- the page and the info ---------------------------------------------------------------

def test_page_static_files_and_info(client):
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert '<div id="board"' in page.text and "/static/app.js" in page.text
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    # every control of the page says what it does
    import re
    controls = re.findall(r"<(?:button|select|input)\b[^>]*>", page.text)
    assert controls and [c for c in controls if "title=" not in c] == []
    info = client.get("/api/info").json()
    assert info["max_seconds"] == 5 and "ismcts" in info["bots"]
    assert info["variants"] == ["basic", "advanced"]


def test_unknown_routes_and_methods_get_json_errors(client):
    assert "no such page" in _error(client.get("/api/nothing"), 404)
    assert "method not allowed" in _error(client.delete("/api/games"), 405)
    assert _error(client.get("/static/../ulm/game.py"), 404)


# --- play --------------------------------------------------------------------------------

def test_play_game_human_decides_bot_answers(client):
    g = _play(client, seats=("human", "ismcts:iterations=20000"))
    assert g["mode"] == "play" and g["viewer"] == "Red" and g["to_move"] == "Red"
    assert [o["name"] for o in g["options"]] == ["draw"]
    assert g["svg"].startswith("<svg") and 'class="target' in g["svg"]
    g = _decide(client, g["id"], "draw")
    pushes = [o for o in g["options"] if o["name"].startswith("push")]
    assert pushes and all(o["target"]["kind"] == "entry" for o in pushes)
    g = _decide(client, g["id"], pushes[0]["decision"])      # by id
    assert g["history"][-1] == {"index": 1, "seat": "Red", "name": pushes[0]["name"],
                                "chance": []}
    g = _decide(client, g["id"], "end turn")                  # by name
    assert g["to_move"] == "Blue" and g["thinking"]["seat"] == "Blue" and not g["options"]
    g = _wait(client, f"/api/games/{g['id']}", lambda d: d["to_move"] == "Red")
    assert g["thinking"] is None
    assert any(h["seat"] == "Blue" for h in g["history"])
    # the human's view only: Blue's hand is not in the picture, the full record is
    assert g["viewer"] == "Red"


def test_play_undo_takes_back_the_humans_last_decision_and_the_bots_after_it(client):
    g = _play(client)
    gid = g["id"]
    _decide(client, gid, "draw")
    g = _decide(client, gid, [o for o in client.get(f"/api/games/{gid}").json()["options"]
                              if o["name"].startswith("push")][0]["decision"])
    g = _decide(client, gid, "end turn")
    g = _wait(client, f"/api/games/{gid}", lambda d: d["to_move"] == "Red" and not d["thinking"])
    n = len(g["history"])
    r = client.post(f"/api/games/{gid}/undo")
    assert r.status_code == 200
    g = r.json()
    assert len(g["history"]) == 2 < n and g["to_move"] == "Red"
    assert [h["name"] for h in g["history"]][0] == "draw"


def test_bots_of_many_games_search_one_at_a_time_with_one_slot(monkeypatch):
    """max_bots bounds the bot searches of all games together: with one slot, the bots
    of two games never search at the same time, and both games go on."""
    import threading

    import mcts.play.bots
    real, lock = mcts.play.bots.search, threading.Lock()
    now, most = [0], [0]

    def counted(*args, **kwargs):
        with lock:
            now[0] += 1
            most[0] = max(most[0], now[0])
        try:
            return real(*args, **kwargs)
        finally:
            with lock:
                now[0] -= 1
    monkeypatch.setattr(mcts.play.bots, "search", counted)
    with TestClient(headers=JSON, app=create_app(max_seconds=5, max_bots=1)) as c:
        assert c.get("/api/info").json()["max_bots"] == 1
        bots = ["ismcts:iterations=300", "ismcts:iterations=300,seed=1"]
        games = [_play(c, seats=bots, seed=s)["id"] for s in (1, 2)]
        for gid in games:   # both go on: each makes 30 decisions (some without a search)
            _wait(c, f"/api/games/{gid}", lambda g: len(g["history"]) >= 30, timeout=300)
    assert most[0] == 1


def test_a_game_dropped_from_memory_stops_its_bots():
    """The least recently used game goes when the server holds too many: its bots' search
    is stopped (through the search's progress callback) and their thread ends, long before
    the game could have been played out."""
    import threading
    with TestClient(headers=JSON, app=create_app(max_seconds=5, max_games=1)) as c:
        g = _play(c, seats=("ismcts:time=5", "ismcts:time=5"))
        runner = next(t for t in threading.enumerate() if t.name == f"bots-{g['id']}")
        _wait(c, f"/api/games/{g['id']}", lambda d: len(d["history"]) >= 3, timeout=120)
        c.post("/api/games", json={"mode": "follow", "players": 2, "seat": "Red"})
        assert c.get(f"/api/games/{g['id']}").status_code == 404
        runner.join(timeout=60)     # a search stops within about 0.1 s
        assert not runner.is_alive()


def test_undo_without_a_human_decision_is_refused(client):
    g = _play(client)
    assert "no decision of a human" in _error(client.post(f"/api/games/{g['id']}/undo"), 409)


def test_all_bot_game_plays_to_the_end_and_the_record_replays(client):
    g = _play(client, seats=("random", "random"), seed=11)
    g = _wait(client, f"/api/games/{g['id']}", lambda d: d["terminal"], timeout=120)
    assert g["winners"] and not g["options"] and g["viewer"] is None
    r = client.get(f"/api/games/{g['id']}/download")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    rec = replay(r.json())
    assert rec.state.is_terminal() and len(rec.decisions) == len(g["history"])
    assert dict(zip(("Red", "Blue"), rec.state.scores())) == g["scores"]


@pytest.mark.parametrize("body, message", [
    ({"mode": "play", "seats": ["human"]}, "seats: Ulm is for 2, 3 or 4 players"),
    ({"mode": "play", "seats": ["human"] * 5}, "seats: Ulm is for 2, 3 or 4 players"),
    ({"mode": "play", "seats": ["human", "alphago"]}, "seats[1]: bot spec 'alphago': unknown bot"),
    ({"mode": "play", "seats": ["human", "ismcts:iteratons=5"]},
     "seats[1]: bot spec 'ismcts:iteratons=5': ismcts: unknown option 'iteratons' "
     "(did you mean 'iterations'?)"),
    ({"mode": "play", "seats": ["human", "ismcts:time=1000"]}, "time must be at most 5 s"),
    ({"mode": "play", "seats": ["human", "ismcts:time=1e308"]},
     "time: at most 3600 seconds"),
    ({"mode": "play", "seats": ["human", "ismcts:iterations=999999999"]}, "iterations per decision"),
    ({"mode": "play", "seats": ["human", 7]}, "seats[1]: a bot spec must be a string"),
    ({"mode": "play", "seats": ["human", "greedy"], "variant": "expert"},
     "variant: must be 'basic' or 'advanced'"),
    ({"mode": "play", "seats": ["human", "greedy"], "seed": -1}, "seed: must be a whole number"),
    ({"mode": "play", "seats": ["human", "greedy"], "seed": "x"}, "seed: must be a whole number"),
    ({"mode": "chess"}, "mode: must be 'play', 'follow' or 'review'"),
    ({}, "mode: must be"),
])
def test_bad_new_games_are_refused_with_the_reason(client, body, message):
    assert message in _error(client.post("/api/games", json=body), 400)


RECORD = json.loads((EXAMPLES / "record-2p.json").read_text())
VIEW = json.loads((EXAMPLES / "push-4p-view.json").read_text())
WRONG = [["play"], {"a": 1}, None, True, 2.5, [], -1]


@pytest.mark.parametrize("body, field", [
    *[({"mode": v}, "mode") for v in WRONG],
    *[({"mode": "play", "seats": v}, "seats") for v in WRONG],
    *[({"mode": "play", "seats": ["human", v]}, "seats[1]") for v in WRONG],
    *[({"mode": "play", "seats": ["human", "greedy"], "seed": v}, "seed") for v in WRONG[:6]],
    *[({"mode": "play", "seats": ["human", "greedy"], "variant": v}, "variant") for v in WRONG],
    *[({"mode": "follow", "players": v, "seat": "Red"}, "players") for v in WRONG],
    *[({"mode": "follow", "players": 2, "seat": v}, "seat") for v in WRONG],
    *[({"mode": "follow", "view": v}, "view") for v in WRONG if v is not None],
    *[({"mode": "follow", "view": dict(VIEW, round=v)}, "view: round") for v in WRONG[:6]],
    *[({"mode": "review", "record": v}, "record") for v in WRONG],
    *[({"mode": "review", "record": dict(RECORD, bots=v)}, "record: bots")
      for v in WRONG + [[1, 2], ["a", "b", "c"]] if v not in (None, [], ["play"])],
    *[({"mode": "review", "record": dict(RECORD, decisions=v)}, "record: decisions")
      for v in WRONG if v != [] and v != ["play"]],
])
def test_every_wrongly_typed_field_is_a_400_naming_it(client, body, field):
    msg = _error(client.post("/api/games", json=body), 400)
    assert msg.startswith(f"{field}: "), msg


def test_wrongly_typed_fields_of_a_game_are_400s_naming_them(client):
    gid = _play(client)["id"]
    review = client.post("/api/games", json={"mode": "review", "record": RECORD}).json()["id"]
    for v in WRONG:
        if v not in (None, -1):
            assert _error(client.post(f"/api/games/{gid}/decide", json={"decision": v}),
                          400).startswith("decision: ")
        if v != 2.5:
            assert _error(client.post(f"/api/games/{gid}/hint", json={"seconds": v}),
                          400).startswith("seconds: ")
        assert _error(client.post(f"/api/games/{review}/goto", json={"index": v}),
                      400).startswith("index: ")
        if v is not None:
            assert _error(client.post(f"/api/games/{review}/goto", json={"index": 1, "as": v}),
                          400).startswith("as: ")
        assert _error(client.post(f"/api/games/{review}/annotate", json={"seat": v}),
                      400).startswith("seat: ")
        if v != 2.5:
            assert _error(client.post(f"/api/games/{review}/annotate",
                                      json={"seat": "Red", "seconds": v}),
                          400).startswith("seconds: ")


LONG = "x" * 5000


@pytest.mark.parametrize("method, path, body", [
    ("post", "/api/games", {"mode": LONG}),
    ("post", "/api/games", {"mode": ["play"] * 3000}),
    ("post", "/api/games", {"mode": "play", "seats": ["human", "ismcts:" + LONG]}),
    ("post", "/api/games", {"mode": "play", "seats": ["human", LONG]}),
    ("post", "/api/games", {"mode": "play", "seats": ["human", "greedy"], "seed": LONG}),
    ("post", "/api/games", {"mode": "play", "seats": ["human", "greedy"], "variant": LONG}),
    ("post", "/api/games", {"mode": "follow", "players": 2, "seat": LONG}),
    ("post", "/api/games", {"mode": "follow", "view": dict(VIEW, phase=LONG)}),
    ("post", "/api/games", {"mode": "review", "record": dict(RECORD, variant=LONG)}),
    ("post", "/api/games", {"mode": "review", "record": dict(RECORD, decisions=[LONG])}),
    ("get", "/api/games/" + LONG, None),
    ("get", "/api/jobs/" + LONG, None),
])
def test_error_messages_quote_at_most_60_characters_of_the_input(client, method, path, body):
    r = getattr(client, method)(path, **({} if body is None else {"json": body}))
    msg = _error(r, r.status_code)
    assert 400 <= r.status_code < 500
    assert "x" * 60 not in msg and "'play', " * 9 not in msg, msg
    assert "…" in msg and len(msg) < 400, msg


def test_quoting_cuts_only_what_is_quoted():
    from cli.web.checks import capped, quoted
    assert quoted("abc") == "'abc'"
    assert quoted("y" * 100) == "'" + "y" * 58 + "…" and len(quoted("y" * 100)) == 60
    assert capped("hint: it is Red's turn; hints are for Blue (the view's player), " * 2) == \
        "hint: it is Red's turn; hints are for Blue (the view's player), " * 2
    assert capped(f"text: {'z' * 100!r} is not legal") == f"text: '{'z' * 58}… is not legal"


def test_malformed_json_and_non_objects(client):
    msg = _error(client.post("/api/games", content=b'{"mode": "play",',
                             headers={"content-type": "application/json"}), 400)
    assert msg.startswith("request: not valid JSON")
    assert "expected a JSON object, got list" in _error(client.post("/api/games", json=[1]), 400)
    as_json = {"content-type": "application/json"}
    assert "request: not a UTF-8 text file" in _error(
        client.post("/api/games", content=b"\xff\xfe", headers=as_json), 400)
    assert "request: nested more than 64 levels deep" in _error(
        client.post("/api/games", content=b"[" * 100_000, headers=as_json), 400)
    assert "request: seed: a whole number of 5,000 digits" in _error(
        client.post("/api/games", content=b'{"seed": ' + b"9" * 5000 + b"}",
                    headers=as_json), 400)
    assert "request: mode: the key is given twice" in _error(
        client.post("/api/games", content=b'{"mode": "play", "mode": "review"}',
                    headers=as_json), 400)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32",
                                      "utf-8-sig", "latin-1"])
def test_a_json_body_is_utf8_as_the_command_lines_files_are(client, encoding):
    """One rule for JSON text: the command line refuses a UTF-16 file, so the server
    refuses a UTF-16 body (json.loads alone would guess the encoding and take it)."""
    body = json.dumps({"mode": "play", "seats": ["human", "human"], "variant": "básico"},
                      ensure_ascii=False).encode(encoding)
    msg = _error(client.post("/api/games", content=body,
                             headers={"content-type": "application/json"}), 400)
    assert msg.startswith("request: not "), msg
    assert client.get("/api/games").json()["games"] == []


def test_illegal_and_malformed_decisions(client):
    g = _play(client)
    gid = g["id"]
    msg = _error(client.post(f"/api/games/{gid}/decide", json={"decision": "fly"}), 400)
    assert msg == "decision: 'fly' is not legal here (legal: draw)"
    msg = _error(client.post(f"/api/games/{gid}/decide", json={"decision": 2}), 400)
    assert msg == "decision: 'push row 1 from left' is not legal here (legal: draw)"
    assert "expected an action id or name" in _error(
        client.post(f"/api/games/{gid}/decide", json={"decision": [1]}), 400)
    assert "decision: missing" in _error(client.post(f"/api/games/{gid}/decide", json={}), 400)
    assert "not legal" in _error(client.post(f"/api/games/{gid}/decide",
                                             json={"decision": 10 ** 9}), 400)
    assert "not legal" in _error(client.post(f"/api/games/{gid}/decide",
                                             json={"decision": "Red drew a card"}), 400)


def test_deciding_for_a_bot_is_refused(client):
    g = _play(client, seats=("ismcts:iterations=20000", "human"))
    msg = _error(client.post(f"/api/games/{g['id']}/decide", json={"decision": "draw"}), 409)
    assert msg == "decision: no decision is open to you now"


@pytest.mark.parametrize("path", ["", "/decide", "/undo", "/goto", "/download", "/hint",
                                  "/annotate"])
def test_unknown_game_ids(client, path):
    method = client.get if path in ("", "/download") else client.post
    assert "game: no game 'nope'" in _error(method(f"/api/games/nope{path}"), 404)


# --- hints -------------------------------------------------------------------------------

def test_hint_searches_draws_the_advice_and_lists_alternatives(client):
    g = _play(client)
    gid = g["id"]
    _decide(client, gid, "draw")
    r = client.post(f"/api/games/{gid}/hint", json={"seconds": 0.3})
    assert r.status_code == 202
    job = r.json()
    assert job["status"] == "running" and job["kind"] == "hint"
    job = _wait(client, f"/api/jobs/{job['id']}", lambda j: j["status"] != "running")
    assert job["status"] == "done", job
    advice = job["result"]
    assert advice["seats"][advice["player"]] == "Red" and advice["stats"]["iterations"] > 0
    # the search's answer, the shape suggest --json prints, with the point it answers
    answer = search(ulm.Game(players=2).new_game(seed=1), iterations=20, seed=1).to_dict()
    assert set(advice) == set(answer) | {"index", "variation"}
    assert set(advice["actions"][0]) == set(answer["actions"][0])
    assert advice["principal_line"][0]["name"] == advice["best_action_name"]
    legal = {o["name"] for o in client.get(f"/api/games/{gid}").json()["options"]}
    assert {a["name"] for a in advice["actions"]} <= legal
    assert abs(sum(advice["win_probability"]) - 1) < 1e-6
    g = client.get(f"/api/games/{gid}").json()
    assert g["hint"] == advice and 'class="highlight"' in g["svg"]
    # the advised decision taken: the rest of the advised turn stays, step by step
    line = advice["principal_line"]
    assert len(line) > 1 and not line[0]["chance_after"]
    g = _decide(client, gid, line[0]["action"])
    assert g["hint"]["principal_line"] == line[1:] and g["hint"]["step"] == 2
    assert g["hint"]["best_action"] == line[1]["action"]
    assert g["hint"]["best_action_name"] == line[1]["name"]
    assert g["hint"]["actions"] == [] and 'class="highlight"' in g["svg"]
    # another decision makes the advice stale: gone
    other = next(o for o in g["options"] if o["decision"] != line[1]["action"])
    g = _decide(client, gid, other["decision"])
    assert g["hint"] is None and 'class="highlight"' not in g["svg"]


def test_hint_on_a_forced_decision_gives_the_positions_chances(client):
    g = _play(client)           # the human's first decision: the draw, the only one
    gid = g["id"]
    assert [o["name"] for o in g["options"]] == ["draw"]
    job = client.post(f"/api/games/{gid}/hint", json={"seconds": 0.2}).json()
    job = _wait(client, f"/api/jobs/{job['id']}", lambda j: j["status"] != "running")
    advice = job["result"]
    assert advice["best_action_name"] == "draw" and advice["stats"]["iterations"] > 0
    assert advice["stats"]["forced"] is True
    assert all(0 < w < 1 for w in advice["win_probability"]), advice
    assert abs(sum(advice["win_probability"]) - 1) < 1e-6
    assert 0 < advice["actions"][0]["win_probability"][advice["player"]] < 1


@pytest.mark.parametrize("seconds, message", [
    (10 ** 9, "seconds: at most 5 seconds on this server"),
    (6, "seconds: at most 5 seconds"),
    (0, "seconds: must be a positive number"),
    (-1, "seconds: must be a positive number"),
    ("soon", "seconds: must be a positive number"),
    (True, "seconds: must be a positive number"),
])
def test_absurd_hint_budgets_are_refused(client, seconds, message):
    g = _play(client)
    assert message in _error(client.post(f"/api/games/{g['id']}/hint",
                                         json={"seconds": seconds}), 400)


def test_hint_when_no_decision_is_pending(client):
    g = _play(client, seats=("random", "random"), seed=2)
    g = _wait(client, f"/api/games/{g['id']}", lambda d: d["terminal"], timeout=120)
    assert "the game is over" in _error(client.post(f"/api/games/{g['id']}/hint",
                                                    json={"seconds": 1}), 409)


def _past_the_draw(client, g):
    """The human's draw is forced (not searched): make it, so a hint searches."""
    r = client.post(f"/api/games/{g['id']}/decide", json={"decision": "draw"})
    assert r.status_code == 200, r.text
    return r.json()


def test_cancel_a_search_and_the_server_answers_meanwhile(client):
    g = _play(client)
    _past_the_draw(client, g)
    job = client.post(f"/api/games/{g['id']}/hint", json={"seconds": 5}).json()
    # served while the search runs (it is off the event loop)
    assert client.get("/api/info").status_code == 200
    assert client.get(f"/api/jobs/{job['id']}").json()["status"] == "running"
    r = client.delete(f"/api/jobs/{job['id']}")
    assert r.status_code == 200
    job = _wait(client, f"/api/jobs/{job['id']}", lambda j: j["status"] != "running")
    assert job["status"] == "cancelled" and job["result"] is None
    assert client.get(f"/api/games/{g['id']}").json()["hint"] is None


def test_unknown_job_and_too_many_searches():
    with TestClient(headers=JSON, app=create_app(max_seconds=5, max_jobs=1)) as c:
        assert "job: no search 'x'" in _error(c.get("/api/jobs/x"), 404)
        assert "job: no search" in _error(c.delete("/api/jobs/x"), 404)
        g = _play(c)
        _past_the_draw(c, g)
        first = c.post(f"/api/games/{g['id']}/hint", json={"seconds": 5}).json()
        msg = _error(c.post(f"/api/games/{g['id']}/hint", json={"seconds": 1}), 429)
        assert "searches are running already" in msg
        c.delete(f"/api/jobs/{first['id']}")
        _wait(c, f"/api/jobs/{first['id']}", lambda j: j["status"] != "running")


# --- follow ------------------------------------------------------------------------------

def test_follow_from_the_setup_with_hidden_draws_and_save(client):
    r = client.post("/api/games", json={"mode": "follow", "players": 2, "seat": "Blue"})
    assert r.status_code == 201
    g = r.json()
    gid = g["id"]
    assert g["viewer"] == "Blue" and g["to_move"] == "chance"
    assert all(o["name"].startswith(("drew ", "revealed ")) for o in g["options"])
    # a table being set up is saved as a position (ulm.positions reads it back)
    saved = client.get(f"/api/games/{gid}/download")
    assert saved.status_code == 200, saved.text
    assert position_to_state(saved.json(), "saved")[1] == 1
    while g["to_move"] == "chance":                   # the public set-up
        g = _decide(client, gid, g["options"][0]["decision"])
    assert len(g["history"]) == 15 and g["to_move"] == "Red" and g["can_save"]
    # Red's turn, entered: any legal decision of Red, named with the seat
    assert [o["name"] for o in g["options"]] == ["Red: draw"]
    g = _decide(client, gid, "Red: draw")
    assert g["history"][-1] == {"seat": "Red", "name": "draw", "index": 15}
    g = _decide(client, gid, g["options"][0]["decision"])   # the tile drawn
    g = _decide(client, gid, "push row 2 from left")
    # undo takes back one entry
    assert len(client.post(f"/api/games/{gid}/undo").json()["history"]) == len(g["history"]) - 1
    view = client.get(f"/api/games/{gid}/download").json()
    assert view["kind"] == "view" and view["viewer"] == "Blue"
    # the saved view opens again
    r = client.post("/api/games", json={"mode": "follow", "view": view})
    assert r.status_code == 201 and r.json()["viewer"] == "Blue"


def test_follow_an_opponents_hidden_card_draw():
    """A bot game shows where an opponent draws a card: the follower enters only that
    a card was drawn, and the view never shows which."""
    from ulm import Game
    state = Game(players=2).new_game(4)
    viewer = 1
    # play Red's decisions until Red draws a card (buys one), with the full state
    import random
    rng = random.Random(0)
    steps = 0
    while steps < 3000:
        if state.is_chance_node():
            names = [ACTION_NAMES[a] for a, _ in state.chance_outcomes()]
            if names[0].startswith("chance: card") and state.raw()["turn_player"] == 0:
                break
            state.apply_action(state.sample_chance_outcome())
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    assert state.is_chance_node()
    view = state_to_position(state, viewer)
    with TestClient(headers=JSON, app=create_app(max_seconds=5)) as c:
        g = c.post("/api/games", json={"mode": "follow", "view": view})
        assert g.status_code == 201, g.text
        g = g.json()
        assert [o["name"] for o in g["options"]] == ["Red drew a card"]
        assert [o["decision"] for o in g["options"]] == ["Red drew a card"]
        pile = view["draw pile size"]
        g = _decide(c, g["id"], "Red drew a card")
        assert g["history"][-1]["name"] == "Red drew a card"
        saved = c.get(f"/api/games/{g['id']}/download")
        assert saved.status_code == 200, saved.text
        after = saved.json()
        assert after["draw pile size"] == pile - 1
        assert "hand" not in after["players"][0] and after["viewer"] == "Blue"


@pytest.mark.parametrize("body, status, message", [
    ({"mode": "follow", "players": 5, "seat": "Red"}, 400, "players: must be 2, 3 or 4"),
    ({"mode": "follow", "players": 2, "seat": "Green"}, 400, "seat: 'Green' is not a seat"),
    ({"mode": "follow", "players": 2}, 400, "seat: None is not a seat"),
    ({"mode": "follow", "view": "mine.json"}, 400, "view: must be a position file"),
    ({"mode": "follow", "view": {"format": "ulm-record/1"}}, 400, "format: expected"),
])
def test_bad_follow_requests(client, body, status, message):
    assert message in _error(client.post("/api/games", json=body), status)


def test_uploads_never_name_server_files(client):
    view = json.loads((EXAMPLES / "push-4p-view.json").read_text())
    view["board"] = "/etc/passwd"
    msg = _error(client.post("/api/games", json={"mode": "follow", "view": view}), 400)
    assert msg.startswith("view: board: this server does not read files")
    record = json.loads((EXAMPLES / "record-2p.json").read_text())
    record["board"] = "../ulm/data/board.json"
    assert "record: board: this server does not read files" in _error(
        client.post("/api/games", json={"mode": "review", "record": record}), 400)


def test_a_full_position_is_not_a_view(client):
    full = json.loads((EXAMPLES / "midgame-4p.json").read_text())
    assert "kind: a followed game starts from one player's view" in _error(
        client.post("/api/games", json={"mode": "follow", "view": full}), 400)


def test_a_broken_view_gets_the_clis_message(client, tmp_path):
    view = json.loads((EXAMPLES / "push-4p-view.json").read_text())
    view["round"] = 11
    msg = _error(client.post("/api/games", json={"mode": "follow", "view": view}), 400)
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(view))
    cli = CliRunner().invoke(main, ["validate", str(path)])
    assert cli.exit_code == 2
    assert cli.output.strip() == f"Error: {path}: " + msg[len("view: "):]
    assert msg == "view: round: must be <= 10, got 11"


def test_oversized_uploads_are_refused(client):
    big = {"mode": "review", "record": {"decisions": ["draw"] * 50_000}}
    msg = _error(client.post("/api/games", json=big), 413)
    assert "more than the 200,000" in msg
    # without a length header too (a streamed body)
    data = json.dumps(big).encode()

    def chunks():
        for k in range(0, len(data), 65536):
            yield data[k:k + 65536]
    assert "more than the 200,000" in _error(client.post("/api/games", content=chunks()), 413)


# --- review ------------------------------------------------------------------------------

def _review(client):
    record = json.loads((EXAMPLES / "record-2p.json").read_text())
    r = client.post("/api/games", json={"mode": "review", "record": record})
    assert r.status_code == 201, r.text
    return record, r.json()


def test_review_steps_through_a_record(client):
    record, g = _review(client)
    n = len(record["decisions"])
    assert g["total"] == g["index"] == n and g["terminal"] and not g["options"]
    from ulm.decisions import decision_label
    assert [h["name"] for h in g["history"]] == [decision_label(ACTION_NAMES.index(n))
                                                 for n in record["decisions"]]
    gid = g["id"]
    g = client.post(f"/api/games/{gid}/goto", json={"index": 10}).json()
    assert g["index"] == 10
    assert g["svg"] == client.get(f"/api/games/{gid}").json()["svg"]
    assert g["round"] == replay(record, 10).state.raw()["round"] + 1
    g = client.post(f"/api/games/{gid}/goto", json={"index": 10, "as": "Blue"}).json()
    assert g["viewer"] == "Blue"
    g = client.post(f"/api/games/{gid}/undo").json()
    assert g["index"] == 9
    assert client.get(f"/api/games/{gid}/download").json() == record
    for bad in (-1, n + 1, "3", 2.5, None):
        assert "index: must be a whole number" in _error(
            client.post(f"/api/games/{gid}/goto", json={"index": bad}), 400)
    assert "as: 'Purple' is not a seat" in _error(
        client.post(f"/api/games/{gid}/goto", json={"index": 3, "as": "Purple"}), 400)
    assert "cannot be changed" in _error(client.post(f"/api/games/{gid}/decide",
                                                     json={"decision": "draw"}), 409)


def test_goto_and_annotate_only_for_records(client):
    g = _play(client)
    assert "goto: only a record" in _error(client.post(f"/api/games/{g['id']}/goto",
                                                       json={"index": 0}), 409)
    assert "annotate: only a record" in _error(
        client.post(f"/api/games/{g['id']}/annotate", json={"seat": "Red"}), 409)


@pytest.mark.parametrize("record_change, message", [
    ({"decisions": ["draw", "fly"]}, "record: decisions[1]: unknown action 'fly'"),
    ({"players": 7}, "record: players: must be 2, 3 or 4"),
    ({"format": "ulm-position/1"}, "record: format: expected 'ulm-record/1'"),
])
def test_bad_records(client, record_change, message):
    record = json.loads((EXAMPLES / "record-2p.json").read_text())
    record.update(record_change)
    assert message in _error(client.post("/api/games", json={"mode": "review",
                                                              "record": record}), 400)


def test_annotate_a_record(client):
    record, g = _review(client)
    gid = g["id"]
    for body, message in [({"seat": "Green"}, "seat: 'Green' is not a seat"),
                          ({"seat": "Red", "seconds": 100}, "seconds: at most 5 seconds"),
                          ({"seat": "Red", "seconds": -2}, "seconds: must be a positive")]:
        assert message in _error(client.post(f"/api/games/{gid}/annotate", json=body), 400)
    short = dict(record, decisions=record["decisions"][:20])
    g = client.post("/api/games", json={"mode": "review", "record": short}).json()
    job = client.post(f"/api/games/{g['id']}/annotate",
                      json={"seat": "Red", "seconds": 0.05}).json()
    assert job["kind"] == "annotate" and job["status"] == "running"
    job = _wait(client, f"/api/jobs/{job['id']}", lambda j: j["status"] != "running")
    assert job["status"] == "done", job
    notes = job["result"]["decisions"]
    reds = [k for k, h in enumerate(g["history"]) if h["seat"] == "Red"]
    assert [n["index"] for n in notes] == reds and job["result"]["seat"] == "Red"
    for n in notes:
        assert n["played"] == short["decisions"][n["index"]]
        assert 0 <= n["best_win"] <= 1
        if n["played"] == n["best"]:
            assert n["loss"] == 0
    # stepping onto an annotated decision draws the searcher's choice there
    g = client.post(f"/api/games/{g['id']}/goto", json={"index": reds[1]}).json()
    assert g["annotation"]["seat"] == "Red"
    assert g["hint"]["kind"] == "annotation" and g["hint"]["best"] == notes[1]["best"]
    assert 'class="highlight"' in g["svg"]


def test_cancel_an_annotation(client):
    record, g = _review(client)
    job = client.post(f"/api/games/{g['id']}/annotate",
                      json={"seat": "Blue", "seconds": 0.3}).json()
    assert client.delete(f"/api/jobs/{job['id']}").status_code == 200
    job = _wait(client, f"/api/jobs/{job['id']}", lambda j: j["status"] != "running")
    assert job["status"] == "cancelled"
    assert client.get(f"/api/games/{g['id']}").json()["annotation"] is None


# --- the command -------------------------------------------------------------------------

def test_serve_command_defaults_to_localhost_and_reports_a_taken_port():
    import socket
    out = CliRunner().invoke(main, ["serve", "--help"])
    assert out.exit_code == 0 and "127.0.0.1" in out.output
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        out = CliRunner().invoke(main, ["serve", "--port", str(port)])
    assert out.exit_code == 2
    assert f"Error: --host/--port: cannot listen on 127.0.0.1:{port}" in out.output
    out = CliRunner().invoke(main, ["serve", "--max-seconds", "0"])
    assert out.exit_code == 2 and "--max-seconds" in out.output


def test_serve_refuses_a_games_file_that_is_not_one(tmp_path):
    bad = tmp_path / "notes.sqlite"
    bad.write_text("my notes, not a database\n")
    out = CliRunner().invoke(main, ["serve", "--port", "0", "--games", str(bad)])
    assert out.exit_code == 2, out.output
    assert f"Error: --games: {bad}: not a games file of `ulm serve` (file is not a database)" \
        in out.output
    assert bad.read_text() == "my notes, not a database\n"


@pytest.mark.parametrize("players, seed", [(2, 8), (3, 1), (4, 2)])
def test_follow_a_whole_random_game_the_view_matches_the_real_one(players, seed):
    """A random game is played in full; the follower enters each event as Blue sees it
    (hidden draws as "Red drew a card", a keep after looking at cards by what was
    discarded). Blue's view on the server equals Blue's view of the real game."""
    import random

    from ulm import CARDS, Game
    from ulm._fastcore import SEATS
    from ulm.decisions import chance_name, decision_label
    viewer, rng = 1, random.Random(seed)
    real = Game(players=players).new_initial_state()
    real.seed_dealer(seed)
    with TestClient(headers=JSON, app=create_app(max_seconds=5)) as c:
        gid = c.post("/api/games", json={"mode": "follow", "players": players,
                                         "seat": "Blue"}).json()["id"]
        checked = 0
        for step in range(5000):
            if real.is_terminal():
                break
            mover = real.current_player()
            if real.is_chance_node():
                a = real.sample_chance_outcome()
                body = {"decision": chance_name(real, a, viewer)}
            else:
                a = rng.choice(real.legal_actions())
                name = ACTION_NAMES[a]
                raw = real.raw()
                if mover != viewer and name.startswith("keep ") and name[5:] in CARDS:
                    looked = [CARDS[x] for x in raw["looked_cards"][:raw["n_looked_cards"]]]
                    gone = [x for x in looked if x != name[5:]]
                    body = {"text": "kept a card, discarded " + " and ".join(gone)}
                else:
                    shown = decision_label(a)          # as the page names it
                    body = {"decision": shown if mover == viewer else f"{SEATS[mover]}: {shown}"}
            r = c.post(f"/api/games/{gid}/decide", json=body)
            assert r.status_code == 200, (step, body, r.text)
            real.apply_action(a)
            if step % 10 == 0 or real.is_terminal():
                saved = c.get(f"/api/games/{gid}/download")
                expected = state_to_position(real, viewer)
                try:
                    position_to_state(expected)
                except PositionError:       # the set-up is not complete: nothing to save
                    assert saved.status_code == 409, step
                    continue
                assert saved.status_code == 200, (step, saved.text)
                assert saved.json() == expected, step
                checked += 1
        assert real.is_terminal() and checked >= 5
        g = c.get(f"/api/games/{gid}").json()
        assert g["terminal"] and g["scores"] == dict(zip(SEATS, real.scores()))


def test_follow_decisions_in_words(client):
    g = client.post("/api/games", json={"mode": "follow", "players": 3, "seat": "Green"}).json()
    gid = g["id"]
    r = client.post(f"/api/games/{gid}/decide", json={"text": "drew purple"})
    msg = _error(r, 400)
    assert msg.startswith("text: 'drew purple': a chance event is pending; say what happened")
    assert "drew gray" in msg
    assert "text: a decision in words" in _error(
        client.post(f"/api/games/{gid}/decide", json={"text": ""}), 400)
    g = client.post(f"/api/games/{gid}/decide", json={"text": "drew a white tile"}).json()
    assert g["history"] == [{"seat": "chance", "name": "drew a white tile", "index": 0}]


def test_only_json_bodies_and_only_local_host_names():
    with TestClient(headers=JSON, app=create_app(allowed_hosts=["127.0.0.1", "localhost"]),
                    base_url="http://127.0.0.1") as c:
        r = c.post("/api/games", content=b'{"mode": "play", "seats": ["human", "random"]}',
                   headers={"content-type": "text/plain"})
        assert "a change must be sent as JSON" in _error(r, 403)
        assert c.post("/api/games", json={"mode": "play", "seats": ["human", "random"]}
                      ).status_code == 201
        assert c.get("/api/info", headers={"host": "localhost:8765"}).status_code == 200
        r = c.get("/api/info", headers={"host": "attacker.example:8765"})
        msg = _error(r, 400)    # the JSON error of every other answer, not plain text
        assert r.headers["content-type"] == "application/json"
        assert msg.startswith("host: 'attacker.example:8765' is not a name of this server")
        assert "localhost" in msg
        assert c.get("/api/info", headers={"host": "[::1]:8765"}).status_code == 400
        assert _error(c.post("/api/games", json={"mode": "play"},
                             headers={"host": "x" * 5000}), 400).count("x") < 70


def test_the_page_is_package_data():
    """`pip install .` (not only -e) and the sdist ship the page: cli.web and static/."""
    import re
    root = ROOT
    conf = (root / "pyproject.toml").read_text()       # (tomllib is Python 3.11+ only)
    packages = re.search(r"^include = \[(.*)\]$", conf, re.M).group(1)  # packages found
    assert '"cli.*"' in packages
    assert re.search(r'^"cli\.web" = \["static/\*"\]$', conf, re.M)
    web = re.search(r"^web = \[(.*?)\]", conf, re.M | re.S).group(1)  # the web extra
    assert '"starlette' in web and '"uvicorn' in web
    manifest = (root / "MANIFEST.in").read_text()      # the sdist too
    assert "recursive-include cli/web/static *.html *.js *.css *.svg" in manifest
    static = root / "cli" / "web" / "static"
    page = (static / "index.html").read_text()
    for name in re.findall(r'"/static/([^"]+)"', page):
        assert (static / name).is_file(), name


def test_ulm_serve_runs_as_a_process_and_stops_on_ctrl_c(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import urllib.request
    proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, ULM_DATA_DIR=str(tmp_path)))
    try:
        line = proc.stdout.readline()
        assert line.startswith("Ulm web companion on http://127.0.0.1:"), line
        url, info = line.split()[4], None
        for _ in range(100):          # until uvicorn listens
            try:
                with urllib.request.urlopen(url + "api/info", timeout=5) as r:
                    info = json.loads(r.read())
                break
            except OSError:
                time.sleep(0.1)
        assert info is not None and info["max_seconds"] == 30
        with urllib.request.urlopen(url, timeout=5) as r:
            assert b'id="board"' in r.read()

        def post(path, body):
            request = urllib.request.Request(url + path, data=json.dumps(body).encode(),
                                             headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=10) as r:
                return json.loads(r.read())
        # Ctrl-C while a bot of 30 s thinks and a hint of 30 s searches, an event stream open:
        # they are stopped, not waited for (the bound is far below their budgets)
        bot = post("api/games", {"mode": "play", "seats": ["ismcts:time=30", "human"]})
        game = post("api/games", {"mode": "play", "seats": ["human", "greedy"]})
        post(f"api/games/{game['id']}/decide", {"decision": "draw"})
        job = post(f"api/games/{game['id']}/hint", {"seconds": 30})
        stream = urllib.request.urlopen(url + f"api/jobs/{job['id']}/events", timeout=10)
        assert stream.readline().startswith(b"event: progress")
        with urllib.request.urlopen(url + f"api/games/{bot['id']}", timeout=5) as r:
            assert json.loads(r.read())["thinking"] is not None
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)
        stream.close()
        assert "Traceback" not in proc.stderr.read()
        # a new server on the same port at once; it finds the games
        port = url.rsplit(":", 1)[1].strip("/")
        proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", port],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=dict(os.environ, ULM_DATA_DIR=str(tmp_path)))
        line = proc.stdout.readline()
        assert line.startswith(f"Ulm web companion on {url}"), (line, proc.stderr.read())
        for _ in range(100):
            try:
                with urllib.request.urlopen(url + "api/games", timeout=5) as r:
                    games = json.loads(r.read())["games"]
                break
            except OSError:
                time.sleep(0.1)
        assert {g["id"] for g in games} == {bot["id"], game["id"]}
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# --- looking back, taking back, live hints, games kept --------------------------------------

def test_the_board_of_an_earlier_position_with_its_last_turn_marked(client):
    g = _play(client, seats=("greedy", "human"), seed=4)
    g = _wait(client, f"/api/games/{g['id']}", lambda d: d["options"])
    n = len(g["history"])
    assert n > 2 and all(h["seat"] == "Red" for h in g["history"])
    assert 'class="last-move"' in g["svg"] and "data-last" in g["svg"]
    assert any(h["chance"] for h in g["history"])      # the tiles drawn, said after a draw
    first = client.get(f"/api/games/{g['id']}/board?index=1").json()
    assert first["index"] == 1 and first["total"] == n and first["svg"].count("data-last") == 1
    start = client.get(f"/api/games/{g['id']}/board?index=0").json()
    assert "data-last" not in start["svg"] and "clickable" not in start["svg"]
    for bad, message in (("x", "index: must be a whole number written with the digits 0-9, got 'x'"),
                         ("1_0", "index: must be a whole number written with the digits 0-9"),
                         ("%2B1", "index: must be a whole number written with the digits 0-9"),
                         ("%D9%A1", "index: must be a whole number written with the digits 0-9"),
                         (str(n + 1), f"index: must be a whole number from 0 to {n}")):
        assert message in _error(client.get(f"/api/games/{g['id']}/board?index={bad}"), 400)


def test_take_back_to_an_earlier_decision(client):
    g = _play(client, seats=("human", "greedy"), seed=2)
    gid = g["id"]
    for _ in range(3):
        g = _wait(client, f"/api/games/{gid}", lambda d: d["options"])
        g = _decide(client, gid, g["options"][-1]["decision"])
    g = _wait(client, f"/api/games/{gid}", lambda d: d["options"])
    r = client.post(f"/api/games/{gid}/takeback", json={"index": 1})
    assert r.status_code == 200, r.text
    assert len(r.json()["history"]) == 1 and r.json()["to_move"] == "Red"
    assert "nothing to take back" in _error(
        client.post(f"/api/games/{gid}/takeback", json={"index": 1}), 409)
    assert "index: must be a whole number" in _error(
        client.post(f"/api/games/{gid}/takeback", json={"index": "one"}), 400)
    long = _error(client.post(f"/api/games/{gid}/takeback", json={"index": "x" * 5000}), 400)
    assert len(long) < 200 and long.endswith("…")            # the input quoted, capped
    data = json.loads((EXAMPLES / "record-2p.json").read_text())
    rv = client.post("/api/games", json={"mode": "review", "record": data}).json()
    assert "only a game being played" in _error(
        client.post(f"/api/games/{rv['id']}/takeback", json={"index": 0}), 409)


def test_a_hint_streams_its_estimate_as_server_sent_events(client):
    g = _play(client)
    g = _decide(client, g["id"], "draw")
    job = client.post(f"/api/games/{g['id']}/hint", json={"seconds": 0.8}).json()
    with client.stream("GET", f"/api/jobs/{job['id']}/events") as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        lines = list(r.iter_lines())
    kinds = [line.split(": ", 1)[1] for line in lines if line.startswith("event:")]
    data = [json.loads(line[5:]) for line in lines if line.startswith("data:")]
    assert kinds[-1] == "end" and set(kinds[:-1]) == {"progress"} and len(kinds) >= 3
    live = [d["partial"] for d in data if d["partial"]]
    assert live and all(p["stats"]["iterations"] > 0 for p in live)
    assert data[-1]["status"] == "done" and data[-1]["partial"] is None
    final = data[-1]["result"]
    assert final["stats"]["seconds"] >= 0.7          # the whole search, not its last slice
    assert len(final["actions"]) == len(g["options"]) - 0 or len(final["actions"]) > 6
    assert all({"visits", "share", "win_probability"} <= set(a) for a in final["actions"])
    g = client.get(f"/api/games/{g['id']}").json()
    assert g["svg"].count('class="rank"') == min(3, len(final["actions"]))
    assert "no search" in _error(client.get("/api/jobs/nothing/events"), 404)


def test_games_are_kept_in_a_file_and_found_by_a_restarted_server(tmp_path):
    path = tmp_path / "games.sqlite"
    data = json.loads((EXAMPLES / "record-2p.json").read_text())
    with TestClient(headers=JSON, app=create_app(max_seconds=5, games_file=path)) as c:
        assert c.get("/api/games").json() == {"games": [], "kept": True}
        play = _play(c, seats=("human", "greedy"), seed=6)
        play = _wait(c, f"/api/games/{play['id']}", lambda d: d["options"])
        play = _decide(c, play["id"], play["options"][0]["decision"])
        follow = c.post("/api/games", json={"mode": "follow", "players": 3,
                                            "seat": "Green"}).json()
        c.post(f"/api/games/{follow['id']}/decide",
               json={"decision": follow["options"][0]["decision"]})
        review = c.post("/api/games", json={"mode": "review", "record": data}).json()
        c.post(f"/api/games/{review['id']}/goto", json={"index": 7, "as": "Blue"})
        play = _wait(c, f"/api/games/{play['id']}", lambda d: d["options"])
    assert path.exists()
    with TestClient(headers=JSON, app=create_app(max_seconds=5, games_file=path)) as c:
        listed = c.get("/api/games").json()["games"]
        assert [x["mode"] for x in listed] == ["review", "follow", "play"]
        assert listed[2]["seats"] == ["human", "greedy"] and listed[1]["players"] == 3
        assert all(isinstance(x["changed"], float) for x in listed)
        again = c.get(f"/api/games/{play['id']}").json()
        assert again["history"] == play["history"] and again["can_undo"]
        assert c.post(f"/api/games/{play['id']}/undo").status_code == 200
        f = c.get(f"/api/games/{follow['id']}").json()
        assert len(f["history"]) == 1 and f["viewer"] == "Green"
        rv = c.get(f"/api/games/{review['id']}").json()
        assert rv["index"] == 7 and rv["viewer"] == "Blue"
    with TestClient(headers=JSON, app=create_app(max_seconds=5)) as c:          # in memory only
        assert c.get("/api/games").json() == {"games": [], "kept": False}
        _play(c, seats=("human", "human"))
        assert [x["mode"] for x in c.get("/api/games").json()["games"]] == ["play"]


def test_a_variation_is_another_line_of_the_turn_the_game_unchanged(client):
    g = _play(client, seats=("human", "greedy"), seed=2)
    gid = g["id"]
    g = _decide(client, gid, "draw")
    here = len(g["history"])
    v = client.post(f"/api/games/{gid}/variation", json={"index": here, "line": []}).json()
    assert v["names"] == [] and v["ended"] is None and v["seat"] == "Red"
    assert {o["name"] for o in v["options"]} == {o["name"] for o in g["options"]}
    push = next(o for o in v["options"] if o["name"].startswith("push"))
    v = client.post(f"/api/games/{gid}/variation",
                    json={"index": here, "line": [push["decision"]]}).json()
    assert v["names"] == [push["name"]] and 'class="last-move"' in v["svg"]
    line = [push["decision"]]
    while v["options"]:                        # to the end of the turn
        end = next((o for o in v["options"] if o["name"] == "end turn"), v["options"][0])
        line.append(end["decision"])
        v = client.post(f"/api/games/{gid}/variation", json={"index": here, "line": line}).json()
    assert v["ended"] and v["options"] == []
    assert client.get(f"/api/games/{gid}").json()["history"] == g["history"]   # unchanged
    for body, message in (
            ({"index": here, "line": "push"}, "line: a list of at most 60 decision ids"),
            ({"index": here, "line": [True]}, "line[0]: must be a decision id"),
            ({"index": here, "line": [99999]}, "line[0]: decision 99999 is not legal there"),
            ({"index": here + 5, "line": []}, f"index: must be a whole number from 0 to {here}"),
            ({"index": here, "line": line + [0]}, "the variation ended before it")):
        r = client.post(f"/api/games/{gid}/variation", json=body)
        assert message in _error(r, r.status_code), body
    # not where another seat decides: its hidden cards would be in its choices
    for decision in line:                      # the variation's turn, played for real
        _decide(client, gid, decision)
    g = _wait(client, f"/api/games/{gid}", lambda d: d["options"])
    blue = next(h["index"] for h in g["history"] if h["seat"] == "Blue")
    assert "variations are for Red's own decisions" in _error(client.post(
        f"/api/games/{gid}/variation", json={"index": blue, "line": []}), 409)


def test_a_record_under_review_goes_on_in_play_or_follow(client):
    data = json.loads((EXAMPLES / "record-2p.json").read_text())
    rv = client.post("/api/games", json={"mode": "review", "record": data}).json()
    client.post(f"/api/games/{rv['id']}/goto", json={"index": 20})
    k = client.get(f"/api/games/{rv['id']}/continue?seat=Blue").json()
    assert k["index"] == 20 and k["record"]["decisions"] == data["decisions"][:20]
    assert "result" not in k["record"] and k["view"]["viewer"] == "Blue"
    r = client.post("/api/games", json={"mode": "play", "record": k["record"],
                                        "seats": ["greedy", "human"]})
    assert r.status_code == 201, r.text
    play = r.json()
    assert [h["name"] for h in play["history"][:20]] == data["decisions"][:20]
    assert play["viewer"] == "Blue"
    follow = client.post("/api/games", json={"mode": "follow", "view": k["view"]}).json()
    assert follow["viewer"] == "Blue" and follow["history"] == []
    for body, status, message in (
            ({"record": data, "seats": ["greedy", "human"]}, 409, "the game is over"),
            ({"record": k["record"], "seats": ["human"] * 3}, 400, "a 2-player game; give 2"),
            ({"record": "x", "seats": ["human"] * 2}, 400, "record: must be a game record")):
        r = client.post("/api/games", json=dict(body, mode="play"))
        assert message in _error(r, status), body
    client.post(f"/api/games/{rv['id']}/goto", json={"index": 20, "as": "Red"})
    seen = client.get(f"/api/games/{rv['id']}/continue?seat=Red").json()
    assert seen["record"] is None and seen["view"]["viewer"] == "Red"
    assert "the view to follow is Red's" in _error(
        client.get(f"/api/games/{rv['id']}/continue?seat=Blue"), 409)
    assert "not a seat" in _error(client.get(f"/api/games/{rv['id']}/continue?seat=Pink"), 400)
    assert "only a record under review" in _error(
        client.get(f"/api/games/{play['id']}/continue"), 409)
