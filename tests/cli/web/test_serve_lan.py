"""`ulm serve --lan`: the server on the local network, every request asked for the secret
token made at the start (?token= in the printed address, a header, or the cookie the
page keeps), the address printed with its QR code; without --lan nothing changes.

Every server here listens on 127.0.0.1 only (or none at all: Starlette's test client);
the machine's network address is injected, never listened on.
"""
from __future__ import annotations

import json
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
import segno
import uvicorn
from click.testing import CliRunner
from starlette.testclient import TestClient

import cli.serve_cmd as serve_cmd
from cli.main import main
from cli.web.app import STATIC, create_app
from web_helpers import error_of
from browser_helpers import served as serving
from helpers import EXAMPLES

TOKEN = secrets.token_urlsafe(32)
LAN = "192.0.2.7"                      # the machine's network address, injected (TEST-NET-1)
LOCAL = ["127.0.0.1", "localhost", "::1", "[::1]"]
BASE = "http://127.0.0.1:8765"
JSON = {"content-type": "application/json"}
CHROMIUM = "/usr/bin/chromium"


def _lan_app(**kw):
    return create_app(max_seconds=5, allowed_hosts=[*LOCAL, LAN], token=TOKEN, **kw)


@pytest.fixture(scope="module")
def lan():
    """A --lan app with a game of each kind and a search job: (client, ids); the client
    brings no token of its own."""
    with TestClient(_lan_app(), base_url=BASE, raise_server_exceptions=False) as c:
        own = dict(JSON, **{"x-ulm-token": TOKEN})
        play = c.post("/api/games", json={"mode": "play", "seats": ["human", "human"],
                                          "seed": 1}, headers=own).json()["id"]
        record = json.loads((EXAMPLES / "record-2p.json").read_text())
        review = c.post("/api/games", json={"mode": "review", "record": record},
                        headers=own).json()["id"]
        job = c.post(f"/api/games/{play}/hint", json={"seconds": 0.2}, headers=own).json()
        c.delete(f"/api/jobs/{job['id']}", headers=own)
        c.cookies.clear()
        yield c, {"play": play, "review": review, "job": job["id"]}


STATIC_FILES = sorted("/static/" + p.relative_to(STATIC).as_posix()
                      for p in STATIC.rglob("*") if p.is_file())
ROUTES = [   # (method, path, body, status with the token)
    ("GET", "/", None, 200),
    ("GET", "/?game={play}", None, 200),
    ("GET", "/favicon.ico", None, 200),
    *[("GET", path, None, 200) for path in STATIC_FILES],
    ("GET", "/api/info", None, 200),
    ("GET", "/api/games", None, 200),
    ("POST", "/api/games", {"mode": "play", "seats": ["human", "random"], "seed": 2}, 201),
    ("GET", "/api/games/{play}", None, 200),
    ("POST", "/api/games/{play}/decide", {"decision": "draw"}, 200),
    ("POST", "/api/games/{play}/undo", None, 200),
    ("POST", "/api/games/{review}/goto", {"index": 1}, 200),
    ("GET", "/api/games/{play}/board?index=0", None, 200),
    ("POST", "/api/games/{play}/takeback", {"index": 0}, 200),
    ("POST", "/api/games/{play}/variation", {"index": 0, "line": []}, 200),
    ("GET", "/api/games/{review}/continue?seat=Red", None, 200),
    ("GET", "/api/games/{review}/download", None, 200),
    ("POST", "/api/games/{play}/hint", {"seconds": 0.1}, 202),
    ("POST", "/api/games/{review}/annotate", {"seat": "Red", "seconds": 0.1}, 202),
    ("GET", "/api/jobs/{job}", None, 200),
    ("GET", "/api/jobs/{job}/events", None, 200),
    ("DELETE", "/api/jobs/{job}", None, 200),
    ("GET", "/no/such/page", None, 404),
]


def _ask(c, method, path, body, ids, headers=None):
    return c.request(method, path.format(**ids), headers=dict(JSON, **(headers or {})),
                     content=None if body is None else json.dumps(body))


def _state(c, ids):
    """What a refused request must leave as it was: the games, the play game's version."""
    own = {"x-ulm-token": TOKEN}
    games = c.get("/api/games", headers=own).json()["games"]
    return len(games), c.get(f"/api/games/{ids['play']}", headers=own).json()["version"]


@pytest.mark.parametrize("method, path, body, status", ROUTES)
def test_every_route_without_the_token_is_refused(lan, method, path, body, status):
    c, ids = lan
    before = _state(c, ids)
    msg = error_of(_ask(c, method, path, body, ids), 403)
    assert msg.startswith("token: missing") and TOKEN not in msg, msg
    assert _state(c, ids) == before
    assert not c.cookies


@pytest.mark.parametrize("method, path, body, status", ROUTES)
def test_every_route_with_the_token_is_served(lan, method, path, body, status):
    c, ids = lan
    own = {"x-ulm-token": TOKEN}
    ids = dict(ids, play=c.post("/api/games", json={"mode": "play", "seed": 1, "seats": [
        "human", "human"]}, headers=own).json()["id"])        # a new game: Red to draw
    if path.endswith(("/undo", "/takeback")):
        assert _ask(c, "POST", "/api/games/{play}/decide", {"decision": "draw"}, ids,
                    own).status_code == 200
    r = _ask(c, method, path, body, ids, own)
    assert r.status_code == status, r.text
    if status == 202:           # the search asked for is cancelled again
        c.delete(f"/api/jobs/{r.json()['id']}", headers={"x-ulm-token": TOKEN})
    c.cookies.clear()


BAD = [   # (what, headers, query): a request that does not bring the token
    ("a wrong token", {"x-ulm-token": secrets.token_urlsafe(32)}, ""),
    ("a wrong token in the address", {}, "?token=" + secrets.token_urlsafe(32)),
    ("a wrong bearer", {"authorization": "Bearer " + secrets.token_urlsafe(32)}, ""),
    ("an empty token", {"x-ulm-token": ""}, ""),
    ("an empty token in the address", {}, "?token="),
    ("an empty bearer", {"authorization": "Bearer "}, ""),
    ("a huge token", {"x-ulm-token": "A" * 60_000}, ""),
    ("a huge token in the address", {}, "?token=" + "A" * 30_000),
    ("the token cut short", {"x-ulm-token": TOKEN[:-1]}, ""),
    ("the token and more", {"x-ulm-token": TOKEN + "A"}, ""),
    ("the token in capitals", {"x-ulm-token": TOKEN.upper()}, ""),
    ("not ASCII", {"x-ulm-token": "é".encode() * 43}, ""),
    ("not ASCII in the address", {}, "?token=" + "%C3%A9" * 43),
    ("not UTF-8 in the address", {}, "?token=%FF%FE"),
    ("NaN", {"x-ulm-token": "NaN"}, ""),
    ("a negative number", {"x-ulm-token": "-1"}, ""),
    ("a wrong cookie", {"cookie": f"ulm-token-8765={secrets.token_urlsafe(32)}"}, ""),
    ("another port's cookie", {"cookie": f"ulm-token-9999={TOKEN}"}, ""),
    ("a cookie of another name", {"cookie": f"token={TOKEN}"}, ""),
    ("a header of another name", {"token": TOKEN}, ""),
    ("basic authorization", {"authorization": f"Basic {TOKEN}"}, ""),
    ("the bare token as authorization", {"authorization": TOKEN}, ""),
    ("another query name", {}, f"?Token={TOKEN}"),
    ("in the path", {}, f"/{TOKEN}"),
]


@pytest.mark.parametrize("what, headers, query", BAD, ids=[b[0] for b in BAD])
@pytest.mark.parametrize("method, path, body", [("GET", "/api/info", None),
                                                ("GET", "/", None),
                                                ("POST", "/api/games/{play}/decide",
                                                 {"decision": "draw"})])
def test_a_request_without_the_right_token_is_refused(lan, what, headers, query, method, path,
                                                      body):
    c, ids = lan
    if method == "POST" and query.startswith("?"):
        query = query.replace("?", "&")      # the address of a change carries no token
        path += "?x=1"
    before = _state(c, ids)
    msg = error_of(_ask(c, method, path + query, body, ids, headers), 403)
    assert msg.startswith(("token: missing", "x-ulm-token: not this server's token",
                           "?token: not this server's token",
                           "authorization: not this server's token",
                           "cookie: not this server's token")), msg
    assert TOKEN not in msg and len(msg) < 300
    assert _state(c, ids) == before


def test_the_token_in_a_foreign_place_is_refused(lan):
    """In a change's address, in its body, in another header: not where it is looked for."""
    c, ids = lan
    before = _state(c, ids)
    decide = f"/api/games/{ids['play']}/decide"
    for r in (c.post(decide + f"?token={TOKEN}", json={"decision": "draw"}),
              c.post(decide, json={"decision": "draw", "token": TOKEN}),
              c.post(decide, json={"decision": "draw"}, headers={"x-token": TOKEN}),
              c.get(f"/api/info#token={TOKEN}")):
        assert error_of(r, 403).startswith("token: missing")
    assert _state(c, ids) == before


def test_a_websocket_without_the_token_is_refused():
    """The app has no websocket route; one added later is guarded all the same."""
    from starlette.websockets import WebSocketDisconnect
    app = _lan_app()

    async def hello(ws):
        await ws.accept()
        await ws.send_text("hello")
        await ws.close()
    from starlette.routing import WebSocketRoute
    app.router.routes.append(WebSocketRoute("/ws", hello))
    with TestClient(app, base_url=BASE) as c:
        for headers in ({}, {"x-ulm-token": "wrong"}, {"cookie": f"ulm-token-8765={TOKEN}x"}):
            with pytest.raises(WebSocketDisconnect) as refused:
                with c.websocket_connect("ws://127.0.0.1:8765/ws", headers=headers):
                    pass
            assert refused.value.code == 1008       # closed for a policy: never accepted
        with c.websocket_connect("ws://127.0.0.1:8765/ws", headers={"x-ulm-token": TOKEN}) as ws:
            assert ws.receive_text() == "hello"


def test_the_address_with_the_token_sets_the_cookie_the_page_keeps(lan):
    c, ids = lan
    r = c.get(f"/?token={TOKEN}")
    assert r.status_code == 200 and "<html" in r.text.lower()
    cookie = r.headers["set-cookie"]
    name_value, *flags = [part.strip() for part in cookie.split(";")]
    assert name_value == f"ulm-token-8765={TOKEN}"
    assert sorted(flags) == ["HttpOnly", "Path=/", "SameSite=Strict"]    # no Domain, no expiry
    try:
        # with the cookie alone: the page's files, its scripts' reads and changes, a stream
        for path in ["/", *STATIC_FILES, "/api/info", f"/api/games/{ids['play']}"]:
            answer = c.get(path)
            assert answer.status_code == 200, path
            assert "set-cookie" not in answer.headers
        r = c.post("/api/games", json={"mode": "play", "seats": ["human", "human"]},
                   headers={"origin": BASE})
        assert r.status_code == 201, r.text
        assert c.get(f"/api/jobs/{ids['job']}/events").status_code == 200
    finally:
        c.cookies.clear()
    assert c.get("/api/info").status_code == 403


@pytest.mark.parametrize("headers", [{"authorization": f"Bearer {TOKEN}"},
                                     {"authorization": f"bearer {TOKEN}"},
                                     {"x-ulm-token": TOKEN}])
def test_a_script_brings_the_token_in_a_header(lan, headers):
    c, ids = lan
    assert c.get("/api/info", headers=headers).status_code == 200
    assert c.post(f"/api/games/{ids['play']}/undo", headers=dict(JSON, **headers)
                  ).status_code in (200, 409)
    c.cookies.clear()


def test_the_page_on_the_lan_address_is_served_and_its_changes_taken():
    """The Host allow-list takes the machine's network address, the Origin check the
    page's own origin there; a foreign name or origin is still refused."""
    there = f"http://{LAN}:8765"
    with TestClient(_lan_app(), base_url=there, raise_server_exceptions=False) as c:
        assert c.get(f"/?token={TOKEN}").status_code == 200
        r = c.post("/api/games", json={"mode": "play", "seats": ["human", "human"]},
                   headers={"origin": there, "sec-fetch-site": "same-origin"})
        assert r.status_code == 201, r.text
        assert error_of(c.post("/api/games", json={"mode": "play", "seats": ["human"] * 2},
                               headers={"origin": "http://attacker.example"}), 403
                        ).startswith("origin: ")
        assert error_of(c.get("/api/info", headers={"host": "evil.example:8765"}), 400
                        ).startswith("host: ")


@pytest.mark.parametrize("host", [
    "127.0.0.1:8765@evil.example", "127.0.0.1@evil.example", "user@127.0.0.1:8765",
    "127.0.0.1:8765/evil", "127.0.0.1:8765:80", "127.0.0.1:port", "127.0.0.1:123456",
    "127.0.0.1 evil.example", "127.0.0.1.", "[::1]x:8765", "[::1", "evil.example:8765",
    "", ":8765", "127.0.0.1:8765#x", "127.0.0.1%00:8765", "localhost:8765\\evil",
])
def test_a_host_that_is_not_a_name_and_port_alone_is_refused(host):
    with TestClient(create_app(max_seconds=5, allowed_hosts=LOCAL), base_url=BASE) as c:
        assert error_of(c.get("/api/info", headers={"host": host}), 400).startswith("host: ")


@pytest.mark.parametrize("host", ["127.0.0.1:8765", "127.0.0.1", "LOCALHOST:8765",
                                  "[::1]:8765", "[::1]"])
def test_the_local_names_with_or_without_a_port_are_served(host):
    with TestClient(create_app(max_seconds=5, allowed_hosts=LOCAL), base_url=BASE) as c:
        assert c.get("/api/info", headers={"host": host}).status_code == 200


def test_without_a_token_nothing_is_asked():
    with TestClient(create_app(max_seconds=5, allowed_hosts=LOCAL), base_url=BASE) as c:
        for path in ["/", "/api/info", f"/api/info?token={TOKEN}", *STATIC_FILES]:
            r = c.get(path, headers={"x-ulm-token": "wrong"})
            assert r.status_code == 200 and "set-cookie" not in r.headers, path
        assert c.post("/api/games", json={"mode": "play", "seats": ["human", "human"]},
                      headers={"origin": BASE}).status_code == 201


@pytest.mark.parametrize("token", ["", "short", "a b" * 10, "é" * 20, 5, b"x" * 20,
                                   "x" * 15, "bad;cookie=value&x"])
def test_the_library_refuses_a_token_that_is_not_one(token):
    with pytest.raises(ValueError, match="token: must be 16 or more URL-safe characters"):
        create_app(token=token)


# --- the command ---------------------------------------------------------------------------

@pytest.fixture
def served(monkeypatch):
    """`ulm serve ARGS` up to where uvicorn would start: (exit code, stdout, stderr,
    the uvicorn server it would have run or None)."""
    started = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *a, **k: started.append(self))

    def serve(*args):
        out = CliRunner().invoke(main, ["serve", *args])
        return out.exit_code, out.stdout, out.stderr, (started or [None])[-1]
    return serve


@pytest.fixture
def on_the_lan(monkeypatch):
    """The machine's network address injected; the port check binds nothing: no test
    listens on anything but the loopback address."""
    asked = []

    def free_port(host, port):
        asked.append((host, port))
        return port or 8765
    monkeypatch.setattr(serve_cmd, "free_port", free_port)
    monkeypatch.setattr(serve_cmd, "lan_addresses", lambda: [LAN, "198.51.100.3"])
    monkeypatch.setattr(serve_cmd, "lan_names", lambda: ["tablehost", "tablehost.local"])
    return asked


def _qr_modules(lines: list[str]) -> list[list[int]]:
    """The QR code drawn in the terminal read back into its modules (1 dark): two rows of
    modules to a line, drawn for a dark terminal (a block is a light module)."""
    tops = {"█": (0, 0), " ": (1, 1), "▀": (0, 1), "▄": (1, 0)}
    rows = []
    for line in lines:
        pairs = [tops[ch] for ch in line]
        rows += [[p[0] for p in pairs], [p[1] for p in pairs]]
    return rows


def _printed(stdout: str) -> tuple[str, list[list[int]]]:
    """The address printed first, and the QR code printed after it."""
    lines = stdout.splitlines()
    url = lines[0].split(" on ", 1)[1].split("  (Ctrl-C")[0]
    picture = [ln for ln in lines[1:] if ln and set(ln) <= set("█▀▄ ")]
    return url, _qr_modules(picture)


def _expected_modules(url: str) -> list[list[int]]:
    code = segno.make_qr(url, error="m")
    rows = [[1 if dark else 0 for dark in row] for row in code.matrix_iter(border=4)]
    # an odd count of rows: the last line's lower half is the terminal's own (dark) background
    return rows + ([[1] * len(rows[0])] if len(rows) % 2 else [])


def test_lan_listens_everywhere_and_prints_the_network_address_and_its_qr_code(served,
                                                                             on_the_lan):
    code, out, err, server = served("--lan", "--port", "8765", "--forget")
    assert code == 0 and server is not None, out + err
    assert server.config.host == "0.0.0.0" and on_the_lan == [("0.0.0.0", 8765)]
    url, modules = _printed(out)
    assert url.startswith(f"http://{LAN}:8765/?token=")
    token = url.split("?token=")[1]
    assert len(token) == 43 and token.replace("-", "").replace("_", "").isalnum()
    assert modules == _expected_modules(url)
    assert f"On this machine: http://127.0.0.1:8765/?token={token}" in out
    assert "other machines can reach this server (each request needs the token)" in err
    # the token printed is the server's: its network address and names are served
    for there in (f"http://{LAN}:8765", BASE, "http://tablehost.local:8765"):
        with TestClient(server.config.app, base_url=there,
                        raise_server_exceptions=False) as c:
            assert c.get("/api/info").status_code == 403
            assert c.get(f"/api/info?token={token}").status_code == 200
    with TestClient(server.config.app, base_url="http://evil.example:8765",
                    raise_server_exceptions=False) as c:
        assert c.get(f"/api/info?token={token}").status_code == 400


def test_every_start_makes_a_new_token(served, on_the_lan):
    urls = {_printed(served("--lan", "--forget")[1])[0] for _ in range(3)}
    assert len(urls) == 3


def test_lan_on_a_given_host_prints_that_address(served, on_the_lan):
    code, out, err, server = served("--lan", "--host", "198.51.100.3", "--port", "9000",
                                    "--forget")
    assert code == 0, out + err
    assert server.config.host == "198.51.100.3"
    url, modules = _printed(out)
    assert url.startswith("http://198.51.100.3:9000/?token=") and modules == \
        _expected_modules(url)
    assert "On this machine" not in out


def test_lan_on_the_loopback_address_asks_the_token_and_says_only_this_machine(served):
    code, out, err, server = served("--lan", "--host", "127.0.0.1", "--port", "0",
                                    "--forget")
    assert code == 0, out + err
    url, modules = _printed(out)
    assert url.startswith("http://127.0.0.1:") and "?token=" in url
    assert modules == _expected_modules(url)
    assert "only this machine can connect" in err


def test_without_lan_nothing_changes(served):
    code, out, err, server = served("--port", "0", "--forget")
    assert code == 0 and server is not None, out + err
    assert server.config.host == "127.0.0.1"
    assert "token" not in out and "█" not in out and err == ""
    assert out.startswith("Ulm web companion on http://127.0.0.1:") and out.count("\n") == 1
    with TestClient(server.config.app, base_url=BASE) as c:
        assert c.get("/api/info").status_code == 200 and "set-cookie" not in \
            c.get("/").headers


def _taken_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen()
    return s


@pytest.mark.parametrize("args, where", [
    (["--lan", "--host", ""], "--host"),
    (["--lan", "--host", " "], "--host"),
    (["--lan", "--host", "h" * 300], "--host"),
    (["--lan", "--host", "203.0.113.9"], "--host/--port"),       # not an address of ours
    (["--lan", "--host", "no such host.invalid"], "--host/--port"),
    (["--lan", "--host", "127.0.0.1", "--port", "TAKEN"], "--host/--port"),
    (["--lan", "--host", "127.0.0.1", "--port", "-1"], ""),
    (["--lan", "--host", "127.0.0.1", "--port", "65536"], ""),
    (["--lan", "--host", "127.0.0.1", "--port", "nan"], ""),
    (["--lan", "--host", "127.0.0.1", "--port", "8e3"], ""),
    (["--lan=yes", "--host", "127.0.0.1"], ""),
    (["--lan", "--host", "127.0.0.1", "--max-seconds", "nan"], ""),
    (["--lan", "--host", "127.0.0.1", "--games", ""], "--games"),
])
def test_bad_option_combinations_are_refused(served, tmp_path, args, where):
    with _taken_port() as taken:
        args = [str(taken.getsockname()[1]) if a == "TAKEN" else a for a in args]
        code, out, err, server = served(*args)
    assert code == 2 and server is None, out + err
    assert f"Error: {where}" in err and "Traceback" not in out + err, err
    assert "token" not in out


def test_lan_without_a_network_address_is_refused_and_writes_nothing(served, monkeypatch,
                                                                     tmp_path):
    monkeypatch.setattr(serve_cmd, "free_port", lambda host, port: 8765)
    monkeypatch.setattr(serve_cmd, "lan_addresses", lambda: [])
    code, out, err, server = served("--lan", "--games", str(tmp_path / "g.sqlite"))
    assert code == 2 and server is None
    assert err == ("Error: --lan: this machine has no address on a local network (join the "
                   "Wi-Fi the phone is on, or give --host)\n")
    assert out == "" and list(tmp_path.iterdir()) == []


def test_the_network_addresses_are_this_machines_and_not_the_loopback():
    addresses = serve_cmd.lan_addresses()
    import ipaddress
    assert all(not ipaddress.ip_address(a).is_loopback for a in addresses)
    for address in addresses:      # each one can be listened on (bound, never listened on)
        with socket.socket() as s:
            s.bind((address, 0))


def test_without_the_interfaces_the_address_is_the_one_a_udp_socket_would_send_from(
        monkeypatch):
    """A `connect` on UDP sends nothing; the address it picks is one of the interfaces'."""
    read = serve_cmd.lan_addresses()
    monkeypatch.setattr(socket, "if_nameindex", lambda: [])
    guessed = serve_cmd.lan_addresses()
    assert len(guessed) <= 1 and set(guessed) <= set(read)
    if read:
        assert guessed, "a machine with a network address has a route to send from"


# --- a real server on 127.0.0.1 -------------------------------------------------------------

def _http(url, method="GET", body=None, headers=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method,
                                     headers=dict(JSON, **(headers or {})))
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def test_a_real_lan_server_on_the_loopback_address_asks_the_token(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--lan", "--host",
                             "127.0.0.1", "--port", "0", "--forget"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = proc.stdout.readline().split(" on ", 1)[1].split("  (Ctrl-C")[0]
        base, token = url.split("/?token=")
        assert base.startswith("http://127.0.0.1:")
        for _ in range(200):                    # until uvicorn listens
            try:
                status, _, body = _http(base + "/api/info")
                break
            except urllib.error.URLError:
                time.sleep(0.1)
        assert status == 403 and json.loads(body)["error"].startswith("token: missing")
        for path in ("/", "/favicon.ico", *STATIC_FILES, "/api/games", "/api/jobs/x/events"):
            assert _http(base + path)[0] == 403, path
        assert _http(base + "/api/games", "POST", {"mode": "play", "seats": ["human"] * 2},
                     {"origin": base})[0] == 403
        status, headers, _ = _http(url)
        assert status == 200 and headers["set-cookie"].startswith(
            f"ulm-token-{base.rsplit(':', 1)[1]}={token}; HttpOnly; SameSite=Strict")
        status, _, body = _http(base + "/api/games", "POST",
                                {"mode": "play", "seats": ["human"] * 2},
                                {"origin": base, "authorization": f"Bearer {token}"})
        assert status == 201, body
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=60)


# --- the page keeps the token (Chromium) ----------------------------------------------------

@pytest.fixture(scope="module")
def lan_server():
    """A --lan app served by uvicorn in a thread on 127.0.0.1 (a free port)."""
    with serving(create_app(max_seconds=10, allowed_hosts=LOCAL, token=TOKEN)) as url:
        yield url


def test_the_page_opened_with_the_token_keeps_it_for_every_request(lan_server):
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=["--no-sandbox", "--headless", "--disable-gpu"])
        try:
            context = browser.new_context()
            page = context.new_page()
            errors, refused = [], []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("response", lambda r: refused.append(r.url) if r.status == 403 else None)
            page.goto(f"{lan_server}/?mode=play&token={TOKEN}")
            page.select_option("#form-play select[name=players]", "2")
            page.fill("#form-play input[name=seat0]", "human")
            page.fill("#form-play input[name=seat1]", "human")
            page.fill("#form-play input[name=seed]", "5")
            page.click("#start-play")
            page.wait_for_selector("#board svg")
            page.wait_for_function("location.search.includes('game=')")
            assert "token" not in page.url          # the page's address leaves it out
            assert "ulm-token" not in page.evaluate("document.cookie")     # HttpOnly
            # a hint: a change and its event stream, with the token the browser keeps
            page.select_option("#hint-seconds", "0.5")
            page.click("#hint")
            page.wait_for_selector("#board svg .highlight", timeout=20000)
            # a reload, without the token in the address
            page.reload()
            page.wait_for_selector("#board svg")
            assert refused == [] and errors == []
            # another browser, without the token: refused
            other = browser.new_context().new_page()
            answer = other.goto(lan_server + "/")
            assert answer.status == 403 and "token: missing" in other.content()
        finally:
            browser.close()
