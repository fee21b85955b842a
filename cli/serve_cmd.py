"""`ulm serve`: start the local web companion (cli.web.app) with uvicorn."""
from __future__ import annotations

import click

from cli import HELP, InputError


@click.command("serve", context_settings=HELP)
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="TCP port (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Only this machine can connect to 127.0.0.1; "
                   "anything else exposes the server to the network.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the web browser.")
@click.option("--max-seconds", type=click.FloatRange(min=0.1, max=600), default=30.0,
              show_default=True, help="Longest search of one hint, bot move or annotated decision.")
def serve(port, host, open_browser, max_seconds):
    """Play, follow a real game and review records in the web browser.

    The server keeps the games in memory; the page finds its game again after
    a reload. Stop it with Ctrl-C.
    """
    import socket

    from ulm.extras import require
    require("starlette", "web", "ulm serve")
    uvicorn = require("uvicorn", "web", "ulm serve")

    from cli.web.app import create_app

    try:  # a clear message for a taken port or a bad address, before uvicorn starts
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.bind((host, port))
            port = probe.getsockname()[1]
    except OSError as exc:
        raise InputError(f"--host/--port: cannot listen on {host}:{port}: {exc.strerror}") from None
    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    if host not in ("127.0.0.1", "localhost", "::1"):  # noqa: SIM102
        click.echo(f"Warning: listening on {host}: other machines can reach this server.",
                   err=True)
    click.echo(f"Ulm web companion on {url}  (Ctrl-C stops it)")
    if open_browser:
        import threading
        import webbrowser
        threading.Timer(0.8, webbrowser.open, args=(url,)).start()
    local = host in ("127.0.0.1", "localhost", "::1")
    hosts = ["127.0.0.1", "localhost", "::1", "[::1]"] if local else None
    uvicorn.run(create_app(max_seconds=max_seconds, allowed_hosts=hosts), host=host, port=port,
                log_level="warning")
