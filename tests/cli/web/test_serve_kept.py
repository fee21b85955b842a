"""What `ulm serve` answers without making it again (many open pages ask for the
same things every second): the page's files with validators (ETag, 304), a game's
answer made once for each version of the game, the list of games made once for each
change. How fast: bench/serve_load.py (docs/serve.md)."""
from __future__ import annotations

import json
import time

import pytest
from starlette.testclient import TestClient

import cli.web.games.boards as boards
from cli.web.app import STATIC, PageFiles, create_app
from web_helpers import error_of, wait_for

JSON = {"content-type": "application/json"}


@pytest.fixture
def client():
    with TestClient(create_app(max_seconds=5), headers=JSON,
                    raise_server_exceptions=False) as c:
        yield c


@pytest.fixture
def drawn(monkeypatch):
    """The boards drawn for a game's answer, counted."""
    count = [0]
    draw = boards.draw

    def counting(*args, **kw):
        count[0] += 1
        return draw(*args, **kw)
    monkeypatch.setattr(boards, "draw", counting)
    return count


@pytest.mark.parametrize("path", ["/", "/favicon.ico", "/static/app.js", "/static/style.css",
                                  "/static/favicon.svg"])
def test_the_pages_files_carry_a_validator_and_are_not_sent_again(client, path):
    first = client.get(path)
    assert first.status_code == 200 and first.content
    tag = first.headers["etag"]
    assert tag.startswith('"') and first.headers["cache-control"] == "no-cache"
    again = client.get(path, headers={"if-none-match": tag})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == tag
    for other in ('"x"', "", 'W/"x", "y"'):
        assert client.get(path, headers={"if-none-match": other}).content == first.content
    assert client.get(path, headers={"if-none-match": f'"x", {tag}'}).status_code == 304
    assert client.head(path).status_code == 200


def test_a_changed_file_is_served_anew_with_another_tag(tmp_path):
    from starlette.requests import Request
    (tmp_path / "a.js").write_text("// one\n")
    files = PageFiles(tmp_path)
    request = Request({"type": "http", "method": "GET", "headers": [], "path": "/"})
    one = files.answer(request, "a.js")
    (tmp_path / "a.js").write_text("// two, longer\n")
    two = files.answer(request, "a.js")
    assert one.body == b"// one\n" and two.body == b"// two, longer\n"
    assert one.headers["etag"] != two.headers["etag"]
    assert one.headers["content-type"] == "text/javascript; charset=utf-8"


@pytest.mark.parametrize("path", ["/static/../app.py", "/static/%2e%2e/app.py",
                                  "/static/..%2fapp.py", "/static/.hidden", "/static/",
                                  "/static/nothing.js", "/static/sub/app.js",
                                  "/static/..\\app.py", "/static/" + "a" * 5000])
def test_only_the_pages_own_files_are_served(client, path):
    assert error_of(client.get(path), 404).startswith("/")
    assert (STATIC / "app.js").is_file()


def test_a_games_answer_is_drawn_once_for_each_version(client, drawn):
    g = client.post("/api/games", json={"mode": "play", "seats": ["human", "human"],
                                        "seed": 3}).json()
    before = drawn[0]
    answers = [client.get(f"/api/games/{g['id']}") for _ in range(5)]
    assert drawn[0] == before                   # the answer made at its creation is kept
    assert all(a.content == answers[0].content for a in answers)
    assert answers[0].json() == g
    after = client.post(f"/api/games/{g['id']}/decide", json={"decision": "draw"}).json()
    assert after["version"] == g["version"] + 1 and drawn[0] == before + 1
    assert client.get(f"/api/games/{g['id']}").json() == after and drawn[0] == before + 1


def test_a_kept_answer_still_shows_what_changes_without_a_new_version(client):
    """A hint arrives, a bot's thinking time goes on: both are in the next answer."""
    g = client.post("/api/games", json={"mode": "play", "seats": ["human", "human"],
                                        "seed": 3}).json()
    assert client.get(f"/api/games/{g['id']}").json()["hint"] is None
    job = client.post(f"/api/games/{g['id']}/hint", json={"seconds": 0.2}).json()
    wait_for(client, f"/api/jobs/{job['id']}", lambda j: j["status"] == "done")
    shown = client.get(f"/api/games/{g['id']}").json()
    assert shown["hint"] is not None and shown["version"] == g["version"]
    bot = client.post("/api/games", json={"mode": "play", "seats": ["ismcts:time=3", "human"],
                                          "seed": 3}).json()
    for _ in range(100):        # two answers of one version while the bot thinks
        a = client.get(f"/api/games/{bot['id']}").json()
        time.sleep(0.3)
        b = client.get(f"/api/games/{bot['id']}").json()
        if a["version"] == b["version"] and a["thinking"] and b["thinking"]:
            assert b["thinking"]["seconds"] > a["thinking"]["seconds"], (a, b)
            break
    else:
        raise AssertionError("the bot was never seen thinking")


def test_the_list_of_games_is_made_once_for_each_change(client, monkeypatch):
    server = client.app.state.server
    made = [0]
    list_games = server.list_games

    def counting():
        made[0] += 1
        return list_games()
    monkeypatch.setattr(server, "list_games", counting)
    g = client.post("/api/games", json={"mode": "play", "seats": ["human", "human"]}).json()
    lists = [client.get("/api/games").json() for _ in range(5)]
    assert made[0] == 1 and lists[0]["games"][0]["id"] == g["id"]
    client.post(f"/api/games/{g['id']}/decide", json={"decision": "draw"})
    assert client.get("/api/games").json()["games"][0]["decisions"] == 1 and made[0] == 2


def test_the_games_kept_in_memory_are_listed_with_their_last_change(client):
    """`ulm serve --forget`: each game listed has the time of its last change (the page
    shows it; without it the list said "Invalid Date"), the latest first."""
    ids = [client.post("/api/games", json={"mode": "play", "seats": ["human", "human"],
                                           "seed": k}).json()["id"] for k in range(3)]
    t = time.time()
    client.post(f"/api/games/{ids[0]}/decide", json={"decision": "draw"})
    listed = client.get("/api/games").json()
    assert listed["kept"] is False
    assert [x["id"] for x in listed["games"]] == [ids[0], ids[2], ids[1]]
    for x in listed["games"]:
        assert isinstance(x["changed"], float) and abs(x["changed"] - t) < 60, x
    assert listed["games"][0]["changed"] >= t
    assert json.loads(json.dumps(listed)) == listed
