"""`ulm serve` against bad input and misuse: its options and games file checked at
start, a damaged game answered alone, one server to a games file, no file named by
a request, no change from another site, bots that leave the event loop its share.

Bad input: `Error: <where>: <what>`, status 2, nothing started (the command); a 4xx
JSON error naming the field (the web), never a 500.
"""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
import uvicorn
from click.testing import CliRunner
from starlette.testclient import TestClient

from cli.main import main
from cli.web.app import create_app
from cli.web.store import FORMAT, Store, StoreError
from web_helpers import error_of as _error, wait_for as _wait

JSON = {"content-type": "application/json"}


@pytest.fixture
def served(monkeypatch):
    """`ulm serve ARGS` up to where uvicorn would start: (exit code, output, started)."""
    started = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *a, **k: started.append(self))

    def serve(*args, env=None):
        out = CliRunner().invoke(main, ["serve", "--port", "0", *args], env=env)
        return out.exit_code, out.output, bool(started)
    return serve


def _refused(result, where):
    code, output, started = result
    assert code == 2, output
    assert f"Error: {where}" in output and "Traceback" not in output, output
    assert not started
    return output


# --- the options -------------------------------------------------------------------------

@pytest.mark.parametrize("value", ["nan", "NaN", "-nan", "inf", "1e400", "-1", "0", "601",
                                   "abc", "", "3,5"])
def test_max_seconds_refuses_what_is_not_a_budget(served, value, tmp_path):
    _refused(served("--max-seconds", value, "--forget"), "")
    assert "--max-seconds" in served("--max-seconds", value, "--forget")[1]


def test_a_finite_max_seconds_starts_and_the_library_refuses_nan():
    for bad in (float("nan"), float("inf"), -1.0, 0, True, "30"):
        with pytest.raises(ValueError, match="max_seconds"):
            create_app(max_seconds=bad)


@pytest.mark.parametrize("value", ["abc", "-1", "70000", "", "1e3", "nan", "8765.5"])
def test_port_refuses_what_is_not_a_port(served, value):
    assert "--port" in _refused(served("--port", value, "--forget"), "")


@pytest.mark.parametrize("value, message", [
    ("", "--host: an address or a name to listen on"),
    ("   ", "--host: an address or a name to listen on"),
    ("x" * 300, "--host: an address or a name to listen on"),
    ("8.8.8.8", "--host/--port: cannot listen on 8.8.8.8"),      # not this machine's
])
def test_host_refuses_what_cannot_be_listened_on(served, value, message):
    _refused(served("--host", value, "--forget"), message)


def test_good_options_start_the_server(served, tmp_path):
    code, output, started = served("--max-seconds", "12.5", "--games",
                                   str(tmp_path / "g.sqlite"))
    assert code == 0 and started, output


def test_the_event_loop_gets_the_gil_back_soon_while_serving(monkeypatch):
    """Bot threads busy in Python hand the GIL over within 1 ms while the server runs
    (bench/serve_load.py measures what it does); the process's own is back after."""
    from cli.serve_cmd import SWITCH_SECONDS
    before, seen = sys.getswitchinterval(), []
    monkeypatch.setattr(uvicorn.Server, "run",
                        lambda self, *a, **k: seen.append(sys.getswitchinterval()))
    out = CliRunner().invoke(main, ["serve", "--port", "0", "--forget"])
    assert out.exit_code == 0, out.output
    assert seen == [SWITCH_SECONDS] and SWITCH_SECONDS < before
    assert sys.getswitchinterval() == before


# --- the games file at start -------------------------------------------------------------

def _games_file(path: Path, games: int = 1) -> Path:
    """A games file written by a server, with `games` games of two people."""
    with TestClient(create_app(games_file=path), headers=JSON) as c:
        for seed in range(games):
            c.post("/api/games", json={"mode": "play", "seats": ["human", "human"],
                                       "seed": seed})
    return path


def _read_only(path: Path, request) -> None:
    """`path` made unwritable, for root too (who writes any file a mode forbids)."""
    path.chmod(0o444)
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(path)], check=True)
        request.addfinalizer(lambda: subprocess.run(["chattr", "-i", str(path)]))


def _foreign(path: Path) -> Path:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notes (day TEXT, text TEXT)")
    db.execute("INSERT INTO notes VALUES ('monday', 'buy milk')")
    db.commit()
    db.close()
    return path


def _other_games_table(path: Path) -> Path:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE games (id TEXT, score INTEGER)")
    db.commit()
    db.close()
    return path


def _view_only(path: Path) -> Path:
    """A database of something else holding a view and no table."""
    db = sqlite3.connect(path)
    db.execute("CREATE VIEW answers AS SELECT 42 AS answer")
    db.commit()
    db.close()
    return path


def _wal(path: Path) -> Path:
    """A foreign database in write-ahead-log mode (opening it may write beside it)."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE notes (text TEXT)")
    db.commit()
    db.close()
    return path


def _newer(path: Path) -> Path:
    _games_file(path)
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {FORMAT + 1}")
    db.commit()
    db.close()
    return path


def _truncated(path: Path) -> Path:
    whole = _games_file(path.with_name("whole.sqlite"), games=3).read_bytes()
    path.write_bytes(whole[:60])
    return path


GAMES_FILES = {
    "text": (lambda p: p.write_text("my notes\n") and p, "not a games file of `ulm serve`"),
    "binary junk": (lambda p: p.write_bytes(bytes(range(256)) * 64) and p,
                    "not a games file of `ulm serve`"),
    "truncated": (_truncated, "a damaged games file (database disk image is malformed)"),
    "foreign database": (_foreign, "not a games file of `ulm serve` (a SQLite database with "
                                   "table notes); it is left as it is"),
    "a view and no table": (_view_only, "not a games file of `ulm serve` (a SQLite database "
                                        "with view answers)"),
    "a database in WAL mode": (_wal, "not a games file of `ulm serve` (a SQLite database "
                                     "with table notes)"),
    "another games table": (_other_games_table, "not a games file of `ulm serve`"),
    "newer format": (_newer, f"a games file of a newer format ({FORMAT + 1}; this version"),
}


@pytest.mark.parametrize("kind", sorted(GAMES_FILES))
def test_a_games_file_that_is_not_one_is_refused_and_left_alone(served, tmp_path, kind):
    make, message = GAMES_FILES[kind]
    path = make(tmp_path / "games.sqlite")
    before, beside = path.read_bytes(), sorted(tmp_path.iterdir())
    _refused(served("--games", str(path)), f"--games: {path}: {message}")
    assert path.read_bytes() == before
    assert sorted(tmp_path.iterdir()) == beside         # no journal left beside it either


def test_an_empty_file_or_database_becomes_a_games_file(served, tmp_path):
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    blank = sqlite3.connect(tmp_path / "blank.sqlite")      # a database with nothing in it
    blank.execute("CREATE TABLE t (x)")
    blank.execute("DROP TABLE t")
    blank.commit()
    blank.close()
    assert (tmp_path / "blank.sqlite").stat().st_size > 0
    for path in (empty, tmp_path / "blank.sqlite", tmp_path / "new.sqlite"):
        with TestClient(create_app(games_file=path), headers=JSON) as c:
            assert c.get("/api/games").json() == {"games": [], "kept": True}
            assert c.post("/api/games", json={"mode": "play", "seats": ["human", "human"]}
                          ).status_code == 201
    code, output, started = served("--games", str(empty))
    assert code == 0 and started, output


@pytest.mark.parametrize("order", [["--forget", "--games", "{path}"],
                                   ["--games", "{path}", "--forget"]])
def test_forget_with_a_games_file_is_refused(served, tmp_path, order):
    path = tmp_path / "games.sqlite"
    output = _refused(served(*[a.format(path=path) for a in order]), "--forget/--games: ")
    assert "give one of them" in output and not path.exists()


def test_a_read_only_games_file_is_refused_at_start(served, tmp_path, request):
    path = _games_file(tmp_path / "games.sqlite")
    _read_only(path, request)
    _refused(served("--games", str(path)), f"--games: {path}: not writable")


@pytest.mark.parametrize("name, message", [
    ("", "--games: a file name, got ''"),
    ("folder", "is a directory"),
    ("file/games.sqlite", "cannot make its folder"),
    ("x" * 5000, "File name too long"),
])
def test_games_paths_that_cannot_be_a_file(served, tmp_path, name, message):
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("a file, not a folder\n")
    path = str(tmp_path / name) if name else ""
    code, output, started = served("--games", path, env={"ULM_DATA_DIR": str(tmp_path)})
    assert code == 2 and not started and "Traceback" not in output, output
    assert "--games" in output and message in output, output


def test_an_old_games_file_without_a_format_is_still_read(tmp_path):
    """A file of the version before the format number: the same table, user_version 0."""
    path = tmp_path / "games.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE games (id TEXT PRIMARY KEY, mode TEXT NOT NULL, summary TEXT "
               "NOT NULL, data TEXT NOT NULL, changed REAL NOT NULL)")
    db.commit()
    db.close()
    store = Store(path)
    store.close()
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == FORMAT


# --- a damaged game ----------------------------------------------------------------------

DAMAGES = {
    "data not JSON": ("UPDATE games SET data = '{\"record\": ' WHERE id = ?", "422"),
    "data not a record": ("UPDATE games SET data = '{\"record\": 5}' WHERE id = ?", "422"),
    "data a list": ("UPDATE games SET data = '[1, 2]' WHERE id = ?", "422"),
    "decisions illegal": (None, "422"),
    "mode unknown": ("UPDATE games SET mode = 'chess' WHERE id = ?", "422"),
    "summary not JSON": ("UPDATE games SET summary = 'x{' WHERE id = ?", "listed"),
    "summary of wrong types": ("UPDATE games SET summary = '{\"seats\": 5, \"changed\": "
                               "\"now\"}' WHERE id = ?", "listed"),
    "changed not a number": ("UPDATE games SET changed = 'soon' WHERE id = ?", "listed"),
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_damaged_row_is_answered_for_that_game_alone(tmp_path, damage):
    path = tmp_path / "games.sqlite"
    with TestClient(create_app(games_file=path), headers=JSON) as c:
        good = c.post("/api/games", json={"mode": "play", "seats": ["human", "human"],
                                          "seed": 1}).json()
        bad = c.post("/api/games", json={"mode": "play", "seats": ["human", "human"],
                                         "seed": 2}).json()
        c.post(f"/api/games/{bad['id']}/decide", json={"decision": "draw"})
    sql, effect = DAMAGES[damage]
    db = sqlite3.connect(path)
    if sql is None:         # a decision no game allows
        data = json.loads(db.execute("SELECT data FROM games WHERE id = ?",
                                     (bad["id"],)).fetchone()[0])
        data["record"]["decisions"] = [10_000]
        db.execute("UPDATE games SET data = ? WHERE id = ?", (json.dumps(data), bad["id"]))
    else:
        db.execute(sql, (bad["id"],))
    db.commit()
    db.close()
    with TestClient(create_app(games_file=path), headers=JSON,
                    raise_server_exceptions=False) as c:
        listed = c.get("/api/games")
        assert listed.status_code == 200, listed.text
        games = {g["id"]: g for g in listed.json()["games"]}
        assert set(games) == {good["id"], bad["id"]}
        assert games[good["id"]]["seats"] == ["human", "human"]
        assert all(isinstance(g["seats"], list) and isinstance(g["changed"], (int, float))
                   for g in games.values())
        assert c.get(f"/api/games/{good['id']}").status_code == 200
        if effect == "422":
            msg = _error(c.get(f"/api/games/{bad['id']}"), 422)
            assert msg.startswith(f"game: the kept game '{bad['id']}' cannot be rebuilt "
                                  "from the games file")
            _error(c.post(f"/api/games/{bad['id']}/decide", json={"decision": "draw"}), 422)
        else:
            assert games[bad["id"]].get("damaged") or games[bad["id"]]["decisions"] == 1
        assert c.post("/api/games", json={"mode": "play", "seats": ["human", "human"]}
                      ).status_code == 201


# --- one server to a games file ----------------------------------------------------------

def test_a_second_server_on_the_same_file_is_refused(tmp_path):
    path = tmp_path / "games.sqlite"
    with TestClient(create_app(games_file=path), headers=JSON) as c:
        game = c.post("/api/games", json={"mode": "play", "seats": ["human", "human"],
                                          "seed": 3}).json()
        with pytest.raises(StoreError, match="in use by another server"):
            create_app(games_file=path)
        assert c.post(f"/api/games/{game['id']}/decide",
                      json={"decision": "draw"}).status_code == 200
    with TestClient(create_app(games_file=path), headers=JSON) as c:   # the first has ended
        assert len(c.get(f"/api/games/{game['id']}").json()["history"]) == 1


def _start(path: Path):
    proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", "0", "--games",
                             str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    return proc, proc.stdout.readline()


def _call(url, method, path, body=None):
    import urllib.error
    import urllib.request
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, method=method, headers=JSON)
    for _ in range(100):
        try:
            with urllib.request.urlopen(request, timeout=30) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())
        except urllib.error.URLError:           # until uvicorn listens
            time.sleep(0.1)
    raise AssertionError("the server does not answer")


def test_two_server_processes_on_one_file_lose_nothing(tmp_path):
    """The decision a server answered 200 is kept: a second `ulm serve` on the same file
    is refused at its start (status 2, naming the file) instead of writing stale copies."""
    import signal
    path = tmp_path / "games.sqlite"
    first, line = _start(path)
    try:
        assert line.startswith("Ulm web companion on "), (line, first.stderr.read())
        url = line.split()[4]
        status, game = _call(url, "POST", "api/games",
                             {"mode": "play", "seats": ["human", "human"], "seed": 5})
        second = subprocess.run([sys.executable, "-m", "cli", "serve", "--port", "0",
                                 "--games", str(path)], capture_output=True, text=True,
                                timeout=60)
        assert second.returncode == 2, second.stdout + second.stderr
        assert f"Error: --games: {path}: in use by another server" in second.stderr
        assert "Traceback" not in second.stderr
        status, after = _call(url, "POST", f"api/games/{game['id']}/decide",
                              {"decision": "draw"})
        assert status == 200 and len(after["history"]) == 1
    finally:
        first.send_signal(signal.SIGINT)
        first.wait(30)
    third, line = _start(path)
    try:
        url = line.split()[4]
        status, again = _call(url, "GET", f"api/games/{game['id']}")
        assert status == 200 and again["history"] == after["history"]
    finally:
        third.send_signal(signal.SIGINT)
        third.wait(30)


# --- no request names a file -------------------------------------------------------------

def _model_paths(tmp_path: Path) -> list[str]:
    """Paths a caller might probe: a real model, a file, a folder, nothing, junk."""
    from mcts.searcher.learned import LEARNED_MODELS, shipped_model
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"PK\x03\x04 not a zip at all")
    empty = tmp_path / "empty.npz"
    np.savez(empty, w=np.zeros(3))
    return [shipped_model(LEARNED_MODELS[2]), "/etc/passwd", str(tmp_path), "/no/such/file",
            str(junk), str(empty), "../mcts/searcher/models/learned-2p-v2.npz", "models/learned-2p-v2",
            "learned-9p-v2", "", "~/x.npz", "x" * 5000, "nan", "-1", "5"]


def test_a_bot_spec_naming_a_file_gets_one_message_whatever_is_there(tmp_path):
    with TestClient(create_app(max_seconds=5), headers=JSON,
                    raise_server_exceptions=False) as c:
        answers = set()
        for path in _model_paths(tmp_path):
            r = c.post("/api/games", json={"mode": "play", "seats": [
                "human", f"ismcts:iterations=20,model={path}"]})
            answers.add(_error(r, 400))
        assert answers == {"seats[1]: bot spec: model: this server takes a shipped model by "
                           "name (learned-2p-v2, learned-3p-v2, learned-4p-v2), never a file"}


def test_a_shipped_model_by_name_plays(tmp_path):
    with TestClient(create_app(max_seconds=5), headers=JSON) as c:
        for name in ("learned-2p-v2", "learned-2p-v2.npz"):
            r = c.post("/api/games", json={"mode": "play", "seats": [
                f"ismcts:iterations=20,model={name}", "human"], "seed": 1})
            assert r.status_code == 201, r.text
            g = _wait(c, f"/api/games/{r.json()['id']}", lambda g: g["options"])
            assert g["seats"][0]["spec"] == f"ismcts:iterations=20,model={name}"
        msg = _error(c.post("/api/games", json={"mode": "play", "seats": [
            "ismcts:model=learned-3p-v2", "human"]}), 400)
        assert msg == "seats[0]: bot spec: model: learned-2p-v2 is the shipped model of a " \
                      "2-player game"


# --- no change from another site ---------------------------------------------------------

@pytest.fixture
def game_client():
    with TestClient(create_app(max_seconds=5, allowed_hosts=["127.0.0.1", "localhost"]),
                    base_url="http://127.0.0.1:8765", raise_server_exceptions=False) as c:
        g = c.post("/api/games", json={"mode": "play", "seats": ["human", "human"],
                                       "seed": 1}).json()
        yield c, g["id"]


OWN = "http://127.0.0.1:8765"
CROSS_SITE = [   # (method, path, body, headers): what a page elsewhere can send unasked
    ("POST", "/api/games", b'{"mode": "play", "seats": ["human", "random"]}',
     {"content-type": "text/plain"}),
    ("POST", "/api/games", b"mode=play&seats=human", {"content-type":
                                                      "application/x-www-form-urlencoded"}),
    ("POST", "/api/games", b"--b\r\n\r\n", {"content-type": "multipart/form-data; boundary=b"}),
    ("POST", "{game}/hint", b"seconds=5", {"content-type":
                                          "application/x-www-form-urlencoded"}),
    ("POST", "{game}/hint", b"", {"content-type": "application/x-www-form-urlencoded"}),
    ("POST", "{game}/undo", b"", {"content-type": "text/plain"}),
    ("POST", "{game}/undo", b"", {}),
    ("POST", "{game}/decide", b'{"decision": "draw"}', {"content-type": "text/plain"}),
    ("POST", "{game}/decide", b'{"decision": "draw"}',
     {"content-type": "application/json", "origin": "http://attacker.example"}),
    ("POST", "{game}/decide", b'{"decision": "draw"}',
     {"content-type": "application/json", "origin": "null"}),
    ("POST", "{game}/decide", b'{"decision": "draw"}',
     {"content-type": "application/json", "origin": "http://127.0.0.1:9999"}),
    ("POST", "{game}/decide", b'{"decision": "draw"}',
     {"content-type": "application/json", "origin": "x" * 5000}),
    ("POST", "{game}/decide", b'{"decision": "draw"}',
     {"content-type": "application/json", "origin": ""}),
    ("POST", "{game}/decide", b'{"decision": "draw"}',
     {"content-type": "application/json", "origin": "http://"}),
    ("POST", "{game}/decide", b'{"decision": "draw"}',
     {"content-type": "application/json", "origin": "ftp://127.0.0.1:8765"}),
    ("POST", "{game}/decide", b'{"decision": "draw"}',      # the same host, other scheme
     {"content-type": "application/json", "origin": "https://127.0.0.1:8765"}),
    ("POST", "{game}/decide", b'{"decision": "draw"}',
     {"content-type": "application/json", "origin": "HTTPS://127.0.0.1:8765"}),
    ("POST", "{game}/decide", b'{"decision": "draw"}',
     {"content-type": "application/json", "origin": "http://127.0.0.1:8765@evil.example"}),
    ("POST", "{game}/decide", b'{"decision": "draw"}', {"content-type": ""}),
    ("POST", "{game}/decide", b'{"decision": "draw"}', {"content-type": "application/jsonx"}),
    ("POST", "{game}/decide", b'{"decision": "draw"}',
     {"content-type": "application/json", "sec-fetch-site": "cross-site"}),
    ("POST", "{game}/decide", b'{"decision": "draw"}',
     {"content-type": "application/json", "sec-fetch-site": "same-site"}),
    ("DELETE", "/api/jobs/x", b"", {"origin": "http://attacker.example"}),
    ("PUT", "{game}/decide", b"", {"content-type": "text/plain"}),
]


@pytest.mark.parametrize("method, path, body, headers", CROSS_SITE)
def test_a_change_from_another_site_is_refused(game_client, method, path, body, headers):
    c, gid = game_client
    before = c.get(f"/api/games/{gid}").json()
    r = c.request(method, path.format(game=f"/api/games/{gid}"), content=body,
                  headers=headers)
    msg = _error(r, 403)
    assert msg.startswith(("origin: ", "request: a change must be sent as JSON")), msg
    assert len(msg) < 300
    after = c.get(f"/api/games/{gid}").json()
    assert after["version"] == before["version"] and after["hint"] is None
    assert len(c.get("/api/games").json()["games"]) == 1


def test_the_pages_own_requests_are_served(game_client):
    c, gid = game_client
    for headers in ({}, {"origin": OWN}, {"origin": OWN, "sec-fetch-site": "same-origin"},
                    {"origin": "http://localhost:8765", "host": "localhost:8765"}):
        r = c.post(f"/api/games/{gid}/decide", json={"decision": "draw"},
                   headers=dict(JSON, **headers))
        assert r.status_code in (200, 400), r.text      # served (the second draw is illegal)
        assert c.post(f"/api/games/{gid}/undo", headers=dict(JSON, **headers)
                      ).status_code in (200, 409)
    # reading is not a change: a GET from anywhere is answered (CORS keeps the answer from
    # a page elsewhere)
    assert c.get("/api/info", headers={"origin": "http://attacker.example"}).status_code == 200


# --- bots leave the event loop its share -------------------------------------------------

def test_bots_never_wait_for_the_games_file(tmp_path):
    """The games file busy (its connection held, as while the disk is slow): the list of
    games is answered from memory, the page's other requests are served, and a game of
    bots still plays to the end."""
    with TestClient(create_app(max_seconds=5, games_file=tmp_path / "g.sqlite"),
                    headers=JSON) as c:
        server = c.app.state.server
        answers, made = {}, []

        def ask(name, path):
            answers[name] = c.get(path)
        with server.store.lock:                     # the file is busy
            listing = threading.Thread(target=ask, args=("list", "/api/games"))
            listing.start()
            listing.join(30)                        # the list does not wait for the file
            info = threading.Thread(target=ask, args=("info", "/api/info"))
            info.start()
            info.join(30)
            assert "info" in answers and "list" in answers
            maker = threading.Thread(target=lambda: made.append(server.new_play(
                {"seats": ["random", "random"], "seed": 4})))
            maker.start()
            maker.join(30)
            assert made, "a new game waits for the games file"
            deadline = time.monotonic() + 60
            while not made[0].state.is_terminal():
                assert time.monotonic() < deadline, "the bots wait for the games file"
                time.sleep(0.05)
        listing.join(30)
        assert answers["list"].status_code == 200
        assert c.get(f"/api/games/{made[0].id}").json()["terminal"]


def test_a_bots_decision_is_played_and_kept_in_its_slot(monkeypatch):
    """The bots of many games take turns for the whole decision (choosing, playing it,
    keeping the game), so no more than max_bots threads do bot work at once."""
    with TestClient(create_app(max_seconds=5, max_bots=1), headers=JSON) as c:
        server = c.app.state.server
        real, seen = server.persist, []

        def persist(session):
            if threading.current_thread().name.startswith("bots-"):
                seen.append(server.bots_searching)
            real(session)
        monkeypatch.setattr(server, "persist", persist)
        games = [c.post("/api/games", json={"mode": "play", "seats": ["random", "random"],
                                            "seed": s}).json()["id"] for s in (1, 2, 3)]
        for gid in games:
            _wait(c, f"/api/games/{gid}", lambda g: g["terminal"])
    assert len(seen) > 100 and set(seen) == {1}


# --- clients that drop or dawdle mid-request (a real uvicorn) -----------------------------

class _Log(list):
    """The records uvicorn logs while a test runs."""

    def __init__(self):
        super().__init__()
        import logging
        self.handler = logging.Handler()
        self.handler.emit = self.append       # type: ignore[method-assign]


@pytest.fixture
def live():
    """create_app(**kw) served by uvicorn in a thread on a free port of 127.0.0.1: the
    port, and the records logged by uvicorn meanwhile."""
    import logging
    import socket
    servers, log = [], _Log()
    loggers = [logging.getLogger(n) for n in ("uvicorn", "uvicorn.error", "uvicorn.access")]
    for logger in loggers:
        logger.addHandler(log.handler)

    def start(**kw):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = uvicorn.Server(uvicorn.Config(create_app(max_seconds=5, **kw),
                                               host="127.0.0.1", port=port, log_config=None,
                                               log_level="info"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        servers.append((server, thread))
        deadline = time.monotonic() + 30
        while not server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.02)
        return port, log
    yield start
    for server, thread in servers:
        server.should_exit = True
        thread.join(30)
    for logger in loggers:
        logger.removeHandler(log.handler)


def _half_request(port: int, sent: bytes = b'{"mode": "play", "seats": [') :
    import socket
    s = socket.create_connection(("127.0.0.1", port), timeout=20)
    s.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
              b"\r\nContent-Length: 100000\r\n\r\n" + sent)
    return s


def test_a_client_dropping_mid_upload_leaves_no_traceback(live):
    port, log = live()
    for _ in range(20):
        s = _half_request(port)
        time.sleep(0.02)
        s.close()
    time.sleep(0.5)
    status, _ = _call(f"http://127.0.0.1:{port}/", "GET", "api/info")
    assert status == 200
    logged = [r.getMessage() + str(r.exc_info or "") for r in log]
    assert not [m for m in logged if "Exception" in m or "Traceback" in m
                or "ClientDisconnect" in m], logged[:3]


def test_a_body_sent_slowly_is_timed_out_and_its_connection_closed(live):
    port, log = live(body_seconds=1.0)
    held = [_half_request(port) for _ in range(20)]
    t = time.monotonic()
    for s in held:
        answer = b""
        while chunk := s.recv(65536):       # the answer, then the server closes
            answer += chunk
        s.close()
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408"), answer[:200]
        assert json.loads(body)["error"].startswith("upload: the request's body did not "
                                                    "arrive within 1 s")
    assert time.monotonic() - t < 15            # a bound on a hung connection
    assert not [r for r in log if r.exc_info]


def test_the_library_refuses_a_body_time_that_is_not_one():
    for bad in (0, -1, float("nan"), float("inf"), True, "10"):
        with pytest.raises(ValueError, match="body_seconds"):
            create_app(body_seconds=bad)
