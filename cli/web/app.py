"""The HTTP face of `ulm serve`: a Starlette app over cli.web.server.

    >>> from cli.web.app import create_app
    >>> app = create_app(max_seconds=30)      # serve with uvicorn.run(app, ...)

Routes (all JSON; errors are {"error": "<field>: <reason>"} with a 4xx status):

    GET    /                              the page (static/index.html)
    GET    /api/info                      bots, variants, limits
    GET    /api/games                     the games kept: id, mode, players, seats, last change
    POST   /api/games                     {"mode": "play"|"follow"|"review", ...} -> game
    GET    /api/games/{id}                the game: board SVG, legal decisions, history, hint
    POST   /api/games/{id}/decide         {"decision": id | name} or {"text": words} (follow)
    POST   /api/games/{id}/undo
    POST   /api/games/{id}/goto           {"index": k, "as": seat | "all"}   (review)
    GET    /api/games/{id}/board?index=k  the board after k decisions, the last turn marked
    GET    /api/games/{id}/continue?seat=s  the record up to here and s's view (review)
    POST   /api/games/{id}/takeback       {"index": k}: back to k decisions   (play)
    POST   /api/games/{id}/variation      {"index": k, "line": [ids]}: another line from k
    GET    /api/games/{id}/download       the view file (follow) or record (play, review)
    POST   /api/games/{id}/hint           {"seconds": s, "index": k, "line": [...]} -> job
    POST   /api/games/{id}/chance         {"seconds": s} -> job: the person's chance now  (play)
    POST   /api/games/{id}/annotate       {"seat": s, "seconds": s, "by": chance|points} -> job   (review)
    GET    /api/jobs/{id}                 progress and result of a search
    GET    /api/jobs/{id}/events          the same as server-sent events, live (text/event-stream)
    DELETE /api/jobs/{id}                 cancel it

Files come and go only as request bodies and downloads: no request names a
path on the server.

With a token (`ulm serve --lan`, create_app(token=...)) every route, the page and its
files too, answers 403 to a request without it (class Token).
"""
from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import mimetypes
import re
import time
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.concurrency import run_in_threadpool
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from cli.web.checks import (MAX_BOT_SEARCHES, MAX_GAMES, MAX_RUNNING_JOBS, SERVED_SEARCH_SECONDS,
                            WebError, capped, quoted)
from cli.web.server import GameRegistry
from cli.web.games.base import json_bytes
from cli.web.store import StoreError
from ulm.numbers import parse_whole

STATIC = Path(__file__).parent / "static"
EVENT_POLL = 0.005          # seconds between looks at a job streamed as events
MAX_UPLOAD = 2_000_000      # bytes of one request body (a record of a long game is ~20 kB)
BODY_SECONDS = 10.0         # the longest a request's body may take to arrive


def _error(message: str, status: int) -> JSONResponse:
    """Every error answer: {"error": "<field>: <reason>"}, quoting at most a little of
    the input (cli.web.checks.capped)."""
    return JSONResponse({"error": capped(message)}, status_code=status)


class AllowedHosts:
    """Refuse a request whose Host header names another server (DNS rebinding: a web
    page elsewhere reaching this one through a name of its own) with the JSON error
    of every other answer."""

    def __init__(self, app, allowed_hosts):
        self.app = app
        self.allowed = {h.lower() for h in allowed_hosts}

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            host = Headers(scope=scope).get("host") or ""
            name = host_name(host)
            if name is None or name.lower() not in self.allowed:
                names = ", ".join(sorted(self.allowed))
                await _error(f"host: {quoted(host)} is not a name of this server; use one of "
                             f"{names}", 400)(scope, receive, send)
                return
        await self.app(scope, receive, send)


HOST_FORM = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(:[0-9]{1,5})?")


def host_name(host: str) -> str | None:
    """The name in a Host header (its port taken off), or None when the header is not a
    name with an optional port alone (`127.0.0.1:8765@evil.example`, a user, a path)."""
    found = HOST_FORM.fullmatch(host)
    return found.group(1) if found else None


TOKEN_FORM = re.compile(r"[A-Za-z0-9_-]{16,}")     # secrets.token_urlsafe's, long enough


class Token:
    """With `ulm serve --lan`: refuse every request without the server's secret token
    (403, the JSON error of every other answer). The token comes in the address
    `ulm serve` printed (?token=, on a GET), as `Authorization: Bearer <token>` or
    `X-Ulm-Token: <token>` (a script), or in the cookie set when it came in the address
    (HttpOnly, SameSite=Strict): the browser sends it with every later request of the
    page, its scripts, event streams and downloads alike."""

    def __init__(self, app, token: str):
        self.app = app
        self.token = token.encode()

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        cookie = _token_cookie(scope)
        given, where = _token_of(scope, cookie)
        if given is None or not hmac.compare_digest(given.encode(), self.token):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
                return
            problem = (f"{where}: not this server's token" if given is not None else
                       "token: missing; this server takes requests only with the token "
                       "`ulm serve --lan` printed: open the address it printed")
            await _error(f"{problem} (a new one is made at every start)", 403)(
                scope, receive, send)
            return
        if where == "?token" and scope["type"] == "http":
            send = _keeping(send, f"{cookie}={given}; HttpOnly; SameSite=Strict; Path=/")
        await self.app(scope, receive, send)


def _token_cookie(scope) -> str:
    """The cookie's name: one for each port, as browsers keep cookies by host alone."""
    server = scope.get("server")
    return f"ulm-token-{server[1]}" if server and server[1] else "ulm-token"


def _token_of(scope, cookie: str) -> tuple[str | None, str]:
    """The token a request brings and where: (None, "token") when it brings none."""
    headers = Headers(scope=scope)
    if "x-ulm-token" in headers:
        return headers["x-ulm-token"], "x-ulm-token"
    scheme, _, value = headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer":
        return value.strip(), "authorization"
    if scope.get("method") in ("GET", "HEAD"):
        from urllib.parse import parse_qs
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"),
                         keep_blank_values=True).get("token")
        if query:
            return query[0], "?token"
    from starlette.requests import cookie_parser
    kept = cookie_parser(headers.get("cookie", "")).get(cookie)
    return (kept, "cookie") if kept is not None else (None, "token")


def _keeping(send, cookie: str):
    """`send` with the token's cookie added to the answer's headers."""
    async def sending(message):
        if message["type"] == "http.response.start":
            message = dict(message, headers=[*message.get("headers", []),
                                             (b"set-cookie", cookie.encode())])
        await send(message)
    return sending


CHANGES = ("POST", "PUT", "PATCH", "DELETE")     # the methods of requests that change something


class SameOrigin:
    """Refuse a request that changes something (a new game, a decision, a search) unless
    it comes from the page itself: its body announced as JSON (a form or a text/plain
    request of a page elsewhere is sent without the browser asking first) and its Origin,
    if any, this server's; 403 with the JSON error of every other answer."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["method"] in CHANGES:
            problem = _cross_site(Headers(scope=scope), scope.get("scheme", "http"))
            if problem:
                await _error(problem, 403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _cross_site(headers: Headers, scheme: str) -> str | None:
    """Why a request that changes something is not the page's own, or None: an origin
    is the page's when its scheme is the one this request came by (an https page is
    another origin than the http one) and its host and port are the Host's."""
    from urllib.parse import urlsplit
    origin = headers.get("origin")
    if origin is not None:
        parts = urlsplit(origin)
        if parts.scheme != scheme or \
                parts.netloc.lower() != (headers.get("host") or "").lower():
            return (f"origin: {quoted(origin)} is not this server's page; a change is taken "
                    "only from the page itself")
    if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        return ("origin: the request comes from another site; a change is taken only from "
                "the page itself")
    kind = headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        return (f"request: a change must be sent as JSON (Content-Type: application/json), "
                f"got {quoted(kind or None)}")
    return None


class Gone(Exception):
    """The client left before its request was read whole: nobody to answer."""


async def read_body(request: Request, limit: int) -> dict:
    """The request's JSON object, read up to `limit` bytes within the app's
    `body_seconds` (a body sent slowly must not hold a connection for ever: 408), as
    UTF-8 text under the rule of every JSON file the command line reads
    (ulm.jsonfile: UTF-8 only, no key twice, bounded nesting and digits)."""
    from starlette.requests import ClientDisconnect
    from ulm.jsonfile import decode_text, loads
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > limit:
        raise WebError(f"upload: {int(length):,} bytes, more than the {limit:,} this server "
                       "accepts", 413)

    async def receive() -> bytes:
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise WebError(f"upload: more than the {limit:,} bytes this server accepts",
                               413)
            chunks.append(chunk)
        return b"".join(chunks)
    seconds = request.app.state.body_seconds
    try:
        raw = await asyncio.wait_for(receive(), seconds)
    except asyncio.TimeoutError:
        raise WebError(f"upload: the request's body did not arrive within {seconds:g} s",
                       408) from None
    except ClientDisconnect:
        raise Gone() from None
    if not raw.strip():
        return {}
    # only JSON: a web page elsewhere cannot send it here without the browser asking first
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise WebError("request: send the body as JSON (Content-Type: application/json)", 415)
    data = loads(decode_text(raw, "request", WebError), "request", WebError)
    if not isinstance(data, dict):
        raise WebError(f"request: expected a JSON object, got {type(data).__name__}")
    return data


def _endpoint(fn):
    """Run a handler; its WebError becomes a 4xx answer with the message."""
    async def handler(request: Request):
        try:
            answer = await fn(request)
            store = request.app.state.server.store
            if request.method in CHANGES and store is not None:
                await run_in_threadpool(store.flush)    # answered once it is on disk
            return answer
        except WebError as exc:
            answer = _error(str(exc), exc.status)
            if exc.status == 408:       # the rest of the body is not waited for
                answer.headers["connection"] = "close"
            return answer
        except Gone:
            return Response(status_code=400, headers={"connection": "close"})
        except StoreError as exc:
            return _error(f"games file: {exc}", 503)
    return handler


class PageFiles:
    """The page's files (static/), answered from memory with a validator: each file is
    read again only when its size or time changes, and a browser that has it (its ETag
    in If-None-Match) gets 304 without the file. `Cache-Control: no-cache` makes the
    browser ask every time, so a new version of the page is seen at once."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.kept: dict[str, tuple] = {}    # name -> (stat key, ETag, body, media type)

    def answer(self, request: Request, name: str) -> Response:
        import hashlib
        import os
        if "/" in name or "\\" in name or name.startswith(".") or not name:
            raise HTTPException(404)
        path = self.folder / name
        try:
            info = os.stat(path)
        except OSError:
            raise HTTPException(404) from None
        key = (info.st_mtime_ns, info.st_size)
        kept = self.kept.get(name)
        if kept is None or kept[0] != key:
            try:
                body = path.read_bytes()
            except OSError:     # a folder, or gone meanwhile
                raise HTTPException(404) from None
            tag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
            kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
            if kind.startswith("text/") or kind.endswith(("+xml", "/javascript")):
                kind += "; charset=utf-8"
            self.kept[name] = kept = (key, tag, body, kind)
        _, tag, body, kind = kept
        headers = {"etag": tag, "cache-control": "no-cache"}
        if tag in [t.strip() for t in request.headers.get("if-none-match", "").split(",")]:
            return Response(status_code=304, headers=headers)
        return Response(body, media_type=kind, headers=headers)


def _levels() -> list[dict]:
    """The bot levels offered in the set-up: number, name and spec (mcts.play.levels)."""
    from mcts.play.levels import LEVELS
    return [{"level": lv.number, "name": lv.name, "spec": f"level:{lv.number}",
             "search": lv.spec} for lv in LEVELS]


def _game_routes(server: GameRegistry, max_upload: int) -> list:
    """The page and the routes of the games (/, /api/info, /api/games/...), by topic."""
    return [*_page_routes(server, max_upload), *_games_list_routes(server, max_upload),
            *_one_game_routes(server, max_upload)]


def _page_routes(server: GameRegistry, max_upload: int) -> list:
    """The page's files and what it asks first (/api/info: bots, levels, limits)."""
    files = PageFiles(STATIC)

    async def index(request):
        return files.answer(request, "index.html")

    async def favicon(request):
        return files.answer(request, "favicon.svg")

    async def static(request):
        return files.answer(request, request.path_params["name"])

    async def info(request):
        from mcts import BOTS
        from mcts.play.engines import ENGINES
        from mcts.play.levels import DEFAULT_LEVEL
        from ulm import SEATS
        from ulm.game import VARIANTS
        levels = _levels()
        # the engines given to `ulm serve` at its start, and no others (docs/engines.md)
        engines = [f"engine:{name}" for name in sorted(ENGINES)]
        return JSONResponse({"bots": sorted(BOTS), "variants": list(VARIANTS),
                             "engines": engines,
                             "seats": list(SEATS), "max_seconds": server.max_seconds,
                             "max_upload": max_upload, "max_bots": server.max_bots,
                             "keeps_games": server.store is not None,
                             "examples": ["human", *(lv["spec"] for lv in levels),
                                          "ismcts:time=2", "greedy", "random", *engines],
                             "default_bot": f"level:{DEFAULT_LEVEL}",
                             "levels": levels})

    return [
        Route("/", _endpoint(index)),
        Route("/favicon.ico", _endpoint(favicon)),
        Route("/static/{name:path}", _endpoint(static), methods=["GET", "HEAD"]),
        Route("/api/info", _endpoint(info)),
    ]


def _games_list_routes(server: GameRegistry, max_upload: int) -> list:
    """The list of games and a new game (/api/games)."""
    listed: list = [-1, b""]           # [server.changes, the answer then]
    listing = asyncio.Lock()

    async def list_games(request):
        """The list made since the request came, else made anew: by one request at a
        time, the others waiting take it (many pages ask for it, a bot changes its
        game many times a second)."""
        asked = server.changes
        if listed[0] < asked:
            async with listing:
                if listed[0] < asked:
                    changes = server.changes
                    # the games file's list is in memory; the games in memory are each
                    # summed up (in a thread: a record each)
                    games = (server.list_games() if server.store is not None
                             else await run_in_threadpool(server.list_games))
                    listed[:] = [changes, json_bytes({"games": games,
                                                      "kept": server.store is not None})]
        return Response(listed[1], media_type="application/json")

    async def new_game(request):
        body = await read_body(request, max_upload)
        mode = body.get("mode")
        makers = {"play": server.new_play, "follow": server.new_follow,
                  "review": server.new_review}
        if not isinstance(mode, str) or mode not in makers:
            raise WebError(f"mode: must be 'play', 'follow' or 'review', got {quoted(mode)}")
        session = makers[mode](body)
        return JSONResponse(session.to_json(), status_code=201)

    return [
        Route("/api/games", _endpoint(list_games), methods=["GET"]),
        Route("/api/games", _endpoint(new_game), methods=["POST"]),
    ]


def _one_game_routes(server: GameRegistry, max_upload: int) -> list:
    """One game: its state, its decisions and steps, its board at a point, its
    variations, its record, and the searches asked of it (/api/games/{game}/...)."""
    async def get_game(request):
        game_id = request.path_params["game"]
        kept = server.games.get(game_id)
        body = kept.kept_json_bytes() if kept is not None else None
        if body is not None:            # nothing to draw or wait for: answered at once
            kept.touched = time.monotonic()
        else:       # in a thread: rebuilt from the file, the board drawn
            body = await run_in_threadpool(lambda: server.game(game_id).to_json_bytes())
        return Response(body, media_type="application/json")

    async def decide(request):
        session = server.game(request.path_params["game"])
        body = await read_body(request, max_upload)
        if "text" in body and session.mode == "follow":
            session.decide(text=body["text"])
        elif "decision" in body:
            session.decide(body["decision"])
        else:
            raise WebError("decision: missing (an action id or its name; a followed game "
                           "also takes \"text\": the decision in words)")
        return JSONResponse(session.to_json())

    async def undo(request):
        session = server.game(request.path_params["game"])
        session.undo()
        return JSONResponse(session.to_json())

    async def goto(request):
        session = server.game(request.path_params["game"])
        body = await read_body(request, max_upload)
        if not hasattr(session, "goto"):
            raise WebError("goto: only a record under review can be stepped through", 409)
        session.goto(body.get("index", session.index), body.get("as"))
        return JSONResponse(session.to_json())

    async def board_at(request):
        session = server.game(request.path_params["game"])
        raw = request.query_params.get("index", "")
        try:
            index = parse_whole(raw, "index")
        except ValueError as exc:
            raise WebError(str(exc)) from None
        out = session.board_at(index)
        return JSONResponse(dict(out, can_hint=session.can_hint_at(index),
                                 can_vary=session.can_vary_at(index)))

    async def continued(request):
        session = server.game(request.path_params["game"])
        if not hasattr(session, "continued"):
            raise WebError("continue: only a record under review is continued from", 409)
        return JSONResponse(session.continued(request.query_params.get("seat")))

    async def variation(request):
        session = server.game(request.path_params["game"])
        body = await read_body(request, max_upload)
        out = session.explore(body.get("index"), body.get("line", []))
        return JSONResponse(dict(out, can_hint=session.can_hint_at(out["index"], out["line"])))

    async def take_back(request):
        session = server.game(request.path_params["game"])
        body = await read_body(request, max_upload)
        if not hasattr(session, "take_back"):
            raise WebError("takeback: only a game being played can be taken back", 409)
        session.take_back(body.get("index"))
        return JSONResponse(session.to_json())

    async def download(request):
        session = server.game(request.path_params["game"])
        kind, data = session.export()
        from ulm.jsonfile import dumps
        name = f"ulm-{session.mode}-{session.id[:6]}-{kind}.json"
        return Response(dumps(data), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def hint(request):
        session = server.game(request.path_params["game"])
        body = await read_body(request, max_upload)
        job = server.hint(session, body.get("seconds", 2.0), body.get("index"), body.get("line"))
        return JSONResponse(job.to_json(), status_code=202)

    async def chance(request):
        session = server.game(request.path_params["game"])
        body = await read_body(request, max_upload)
        job = server.chance(session, body.get("seconds", 0.5))
        return JSONResponse(job.to_json(), status_code=202)

    async def annotate(request):
        session = server.game(request.path_params["game"])
        body = await read_body(request, max_upload)
        job = server.annotate(session, body.get("seat"), body.get("seconds", 0.5),
                              body.get("by", "chance"))
        return JSONResponse(job.to_json(), status_code=202)

    return [
        Route("/api/games/{game}", _endpoint(get_game)),
        Route("/api/games/{game}/decide", _endpoint(decide), methods=["POST"]),
        Route("/api/games/{game}/undo", _endpoint(undo), methods=["POST"]),
        Route("/api/games/{game}/goto", _endpoint(goto), methods=["POST"]),
        Route("/api/games/{game}/board", _endpoint(board_at)),
        Route("/api/games/{game}/takeback", _endpoint(take_back), methods=["POST"]),
        Route("/api/games/{game}/variation", _endpoint(variation), methods=["POST"]),
        Route("/api/games/{game}/continue", _endpoint(continued)),
        Route("/api/games/{game}/download", _endpoint(download)),
        Route("/api/games/{game}/hint", _endpoint(hint), methods=["POST"]),
        Route("/api/games/{game}/chance", _endpoint(chance), methods=["POST"]),
        Route("/api/games/{game}/annotate", _endpoint(annotate), methods=["POST"]),
    ]


def _job_routes(server: GameRegistry) -> list:
    """The routes of the searches (/api/jobs/...): state, events, cancel."""
    async def get_job(request):
        return JSONResponse(server.job(request.path_params["job"]).to_json())

    async def job_events(request):
        """The job as server-sent events: one "progress" event at every change (a hint's
        estimate so far in "partial"), then one "end" event with the result."""
        job = server.job(request.path_params["job"])

        async def events():
            seen = -1
            while True:
                if job.status != "running" or server.closing:
                    yield f"event: end\ndata: {json.dumps(job.to_json())}\n\n"
                    return
                if job.seq != seen:
                    seen = job.seq
                    yield f"event: progress\ndata: {json.dumps(job.to_json())}\n\n"
                await asyncio.sleep(EVENT_POLL)
        return StreamingResponse(events(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store"})

    async def cancel_job(request):
        job = server.job(request.path_params["job"])
        job.cancel_event.set()
        return JSONResponse(job.to_json())

    return [
        Route("/api/jobs/{job}", _endpoint(get_job)),
        Route("/api/jobs/{job}/events", _endpoint(job_events)),
        Route("/api/jobs/{job}", _endpoint(cancel_job), methods=["DELETE"]),
    ]


def create_app(max_seconds: float = SERVED_SEARCH_SECONDS, max_upload: int = MAX_UPLOAD,
               max_games: int = MAX_GAMES, max_jobs: int = MAX_RUNNING_JOBS,
               allowed_hosts: list | None = None, max_bots: int = MAX_BOT_SEARCHES,
               games_file=None, token: str | None = None,
               body_seconds: float = BODY_SECONDS) -> Starlette:
    """The web app; its games live in memory, and with `games_file` (a SQLite file,
    cli.web.store) also on disk, where a restarted server finds them.

    allowed_hosts: the names the browser may use for the server (the Host header);
    `ulm serve` on 127.0.0.1 allows only local names, so a web page elsewhere cannot
    reach the server through a name of its own (DNS rebinding).

    token: the secret every request must bring (`ulm serve --lan`; class Token); None
    asks for none."""
    import math
    if isinstance(max_seconds, bool) or not isinstance(max_seconds, (int, float)) \
            or not math.isfinite(max_seconds) or max_seconds <= 0:
        raise ValueError(f"max_seconds: must be a positive number of seconds, got {max_seconds!r}")
    if isinstance(body_seconds, bool) or not isinstance(body_seconds, (int, float)) \
            or not math.isfinite(body_seconds) or body_seconds <= 0:
        raise ValueError(f"body_seconds: must be a positive number of seconds, got "
                         f"{body_seconds!r}")
    if token is not None and not (isinstance(token, str) and TOKEN_FORM.fullmatch(token)):
        raise ValueError("token: must be 16 or more URL-safe characters "
                         "(secrets.token_urlsafe), got another value")
    server = GameRegistry(max_seconds=max_seconds, max_games=max_games, max_jobs=max_jobs,
                    max_bots=max_bots)
    if games_file is not None:
        from cli.web.store import Store
        server.store = Store(games_file)

    async def http_error(request, exc: HTTPException):
        messages = {404: f"{request.url.path}: no such page or API route",
                    405: f"{request.method} {request.url.path}: method not allowed"}
        return _error(messages.get(exc.status_code, exc.detail), exc.status_code)

    async def server_error(request, exc: Exception):
        # a bug of ours: a short message, never a traceback
        return _error(f"internal error: {type(exc).__name__}: {exc}", 500)

    # the page's scripts are ES modules, which a browser runs only when served as
    # JavaScript (a system's table of types may say otherwise: text/plain on Windows)
    mimetypes.add_type("text/javascript", ".js")
    routes = [*_game_routes(server, max_upload), *_job_routes(server)]
    middleware = []
    if allowed_hosts:
        middleware.append(Middleware(AllowedHosts, allowed_hosts=list(allowed_hosts)))
    if token is not None:
        middleware.append(Middleware(Token, token=token))
    middleware.append(Middleware(SameOrigin))

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        # shutting down: searches cancelled, bots stopped, their threads waited for
        await run_in_threadpool(server.close)
        if server.store is not None:
            server.store.close()

    handlers: dict[Any, Any] = {HTTPException: http_error, Exception: server_error}
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers=handlers)
    app.state.server = server
    app.state.body_seconds = body_seconds
    return app
