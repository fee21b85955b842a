"""`ulm serve`: start the local web companion (cli.web.app) with uvicorn."""
from __future__ import annotations

import sys

import click

from cli import HELP, InputError

SWITCH_SECONDS = 0.001      # the GIL's switch interval while serving


@click.command("serve", context_settings=HELP)
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="TCP port (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Only this machine can connect to 127.0.0.1; "
                   "anything else exposes the server to the network.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the web browser.")
@click.option("--max-seconds", type=click.FloatRange(min=0.1, max=600), default=30.0,
              show_default=True, help="Longest search of one hint, bot move or annotated decision.")
@click.option("--games", "games_file", type=click.Path(dir_okay=False), default=None,
              help="The SQLite file the games are kept in (default: games.sqlite in "
                   "$ULM_DATA_DIR, else $XDG_DATA_HOME/ulm, else ~/.local/share/ulm).")
@click.option("--forget", is_flag=True, help="Keep the games in memory only.")
def serve(port, host, open_browser, max_seconds, games_file, forget):
    """Play, follow a real game and review records in the web browser.

    The server keeps the games in a SQLite file (see --games): a restarted server
    finds them, and the page lists them. Stop it with Ctrl-C.
    """
    import math
    import socket
    import sqlite3

    if not math.isfinite(max_seconds):     # FloatRange lets NaN through
        raise InputError(f"--max-seconds: must be a number of seconds from 0.1 to 600, "
                         f"got {max_seconds}")
    if not host.strip() or len(host) > 253:
        raise InputError(f"--host: an address or a name to listen on (127.0.0.1, ::1, "
                         f"0.0.0.0, a host name), got {host[:60]!r}")

    from ulm.extras import require
    require("starlette", "web", "ulm serve")
    uvicorn = require("uvicorn", "web", "ulm serve")

    from cli.web.app import create_app

    try:  # a clear message for a taken port or a bad address, before uvicorn starts
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            # as uvicorn binds: a port left in TIME_WAIT by a server just stopped is free
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
            port = probe.getsockname()[1]
    except OSError as exc:
        raise InputError(f"--host/--port: cannot listen on {host}:{port}: {exc.strerror}") from None
    local = host in ("127.0.0.1", "localhost", "::1")
    hosts = ["127.0.0.1", "localhost", "::1", "[::1]"] if local else None
    if games_file is not None and not games_file.strip():
        raise InputError(f"--games: a file name, got {games_file!r}")
    if forget:
        games_file = None
    else:
        from cli.web.store import default_path
        games_file = games_file or str(default_path())
    from cli.web.store import StoreError
    try:
        app = create_app(max_seconds=max_seconds, allowed_hosts=hosts, games_file=games_file)
    except (OSError, sqlite3.Error, StoreError) as exc:
        raise InputError(f"--games: {games_file}: {exc}") from None

    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    if host not in ("127.0.0.1", "localhost", "::1"):  # noqa: SIM102
        click.echo(f"Warning: listening on {host}: other machines can reach this server.",
                   err=True)
    click.echo(f"Ulm web companion on {url}  (Ctrl-C stops it)")
    if open_browser:
        import threading
        import webbrowser
        threading.Timer(0.8, webbrowser.open, args=(url,)).start()

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame):
            # Ctrl-C: searches, bots and event streams stop at once, so that uvicorn's
            # wait for open answers is short
            app.state.server.stop_searches()
            super().handle_exit(sig, frame)

    # bot threads busy in Python hand the GIL back to the event loop within 1 ms, not
    # the 5 ms of Python's default: a request needs it a few times (bench/serve_load.py)
    switch = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_SECONDS)
    try:
        Server(uvicorn.Config(app, host=host, port=port, log_level="warning",
                              timeout_graceful_shutdown=1)).run()
    finally:
        sys.setswitchinterval(switch)
