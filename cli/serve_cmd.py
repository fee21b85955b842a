"""`ulm serve`: start the local web companion (cli.web.app) with uvicorn."""
from __future__ import annotations

import sys

import click

from cli import HELP, InputError, engines_option

SWITCH_SECONDS = 0.001      # the GIL's switch interval while serving
LOOPBACK = ("127.0.0.1", "localhost", "::1")


@click.command("serve", context_settings=HELP)
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True,
              help="TCP port (0: any free port).")
@click.option("--host", default=None, show_default="127.0.0.1; 0.0.0.0 with --lan",
              help="Address to listen on. Only this machine can connect to 127.0.0.1; "
                   "anything else exposes the server to the network.")
@click.option("--lan", is_flag=True,
              help="Listen on the local network, for a phone or tablet at the table: every "
                   "request needs a secret token made at this start; the address with it is "
                   "printed, and drawn as a QR code to scan.")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the web browser.")
@click.option("--max-seconds", type=click.FloatRange(min=0.1, max=600), default=30.0,
              show_default=True, help="Longest search of one hint, bot move or annotated decision.")
@click.option("--games", "games_file", type=click.Path(dir_okay=False), default=None,
              help="The SQLite file the games are kept in (default: games.sqlite in "
                   "$ULM_DATA_DIR, else $XDG_DATA_HOME/ulm, else ~/.local/share/ulm).")
@click.option("--forget", is_flag=True, help="Keep the games in memory only.")
@engines_option()
def serve(port, host, lan, open_browser, max_seconds, games_file, forget, engines):
    """Play, follow a real game and review records in the web browser.

    The server keeps the games in a SQLite file (see --games): a restarted server
    finds them, and the page lists them. Stop it with Ctrl-C.

    With --lan a phone on the same network opens the printed address (or scans the
    QR code); the browser keeps the token, and a request without it gets 403.
    """
    import math
    import secrets
    import sqlite3

    if not math.isfinite(max_seconds):     # FloatRange lets NaN through
        raise InputError(f"--max-seconds: must be a number of seconds from 0.1 to 600, "
                         f"got {max_seconds}")
    if host is None:
        host = "0.0.0.0" if lan else "127.0.0.1"
    if not host.strip() or len(host) > 253:
        raise InputError(f"--host: an address or a name to listen on (127.0.0.1, ::1, "
                         f"0.0.0.0, a host name), got {host[:60]!r}")

    from ulm.extras import require
    require("starlette", "web", "ulm serve")
    uvicorn = require("uvicorn", "web", "ulm serve")
    require("httptools", "web", "ulm serve")     # uvicorn's fast HTTP parser (bench/serve_load.py)
    if lan:
        require("segno", "web", "ulm serve --lan")     # the QR code

    from cli.web.app import create_app

    port = free_port(host, port)
    local = host in LOOPBACK
    address = _lan_address(host) if lan else None
    hosts = ["127.0.0.1", "localhost", "::1", "[::1]"] if local or lan else None
    if lan:
        hosts += [host, address, *lan_names()]
    token = secrets.token_urlsafe(32) if lan else None
    if games_file is not None and not games_file.strip():
        raise InputError(f"--games: a file name, got {games_file!r}")
    if forget and games_file is not None:
        raise InputError("--forget/--games: --forget keeps the games in memory only and "
                         f"--games names a file to keep them in ({games_file[:60]!r}); "
                         "give one of them")
    if forget:
        games_file = None
    else:
        from cli.web.store import default_path
        games_file = games_file or str(default_path())
    from cli.web.store import StoreError
    try:
        app = create_app(max_seconds=max_seconds, allowed_hosts=hosts, games_file=games_file,
                         token=token)
    except (OSError, sqlite3.Error, StoreError) as exc:
        raise InputError(f"--games: {games_file}: {exc}") from None

    url = _url(address or host, port, token)
    if not local:
        click.echo(f"Warning: listening on {host}: other machines can reach this server"
                   + (" (each request needs the token)." if lan else "."), err=True)
    click.echo(f"Ulm web companion on {url}  (Ctrl-C stops it)")
    if lan and local:
        click.echo(f"Warning: --lan on {host}: only this machine can connect (the token is "
                   "asked all the same).", err=True)
    if lan:
        _print_lan(url, host, port, token)
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
        Server(uvicorn.Config(app, host=host, port=port, log_level="warning", http="httptools",
                              timeout_graceful_shutdown=1)).run()
    finally:
        sys.setswitchinterval(switch)


def free_port(host: str, port: int) -> int:
    """The port to listen on (a free one for 0), or a clear message for a taken port or
    a bad address, before uvicorn starts."""
    import socket
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            # as uvicorn binds: a port left in TIME_WAIT by a server just stopped is free
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
            return probe.getsockname()[1]
    except OSError as exc:
        raise InputError(f"--host/--port: cannot listen on {host}:{port}: {exc.strerror}") from None


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks (not the loopback), private ones
    first: read from its interfaces (Linux), else the address a UDP socket would send
    from (`connect` on UDP sends nothing)."""
    import contextlib
    import ipaddress
    import socket
    found = []
    with contextlib.suppress(ImportError, AttributeError, OSError):
        import fcntl
        import struct
        for _, name in socket.if_nameindex():
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s, \
                    contextlib.suppress(OSError):
                packed = fcntl.ioctl(s.fileno(), 0x8915,       # SIOCGIFADDR
                                     struct.pack("256s", name[:15].encode()))
                found.append(socket.inet_ntoa(packed[20:24]))
    if not found:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s, contextlib.suppress(OSError):
            s.connect(("10.254.254.254", 1))
            found.append(s.getsockname()[0])
    usable = [a for a in dict.fromkeys(found) if not ipaddress.ip_address(a).is_loopback
              and not ipaddress.ip_address(a).is_link_local
              and not ipaddress.ip_address(a).is_unspecified]
    return sorted(usable, key=lambda a: not ipaddress.ip_address(a).is_private)


def lan_names() -> list[str]:
    """The names a phone may reach this machine by: its host name, and with .local
    (mDNS)."""
    import socket
    name = socket.gethostname().lower()
    return [name, f"{name}.local"] if name else []


def _lan_address(host: str) -> str:
    """The address a phone opens: the --host given, else this machine's first on a
    local network."""
    if host not in ("0.0.0.0", "::"):
        return host
    addresses = lan_addresses()
    if not addresses:
        raise InputError("--lan: this machine has no address on a local network (join the "
                         "Wi-Fi the phone is on, or give --host)")
    return addresses[0]


def _url(host: str, port: int, token: str | None) -> str:
    """The address to open, with the token (?token=) when one is asked."""
    where = f"[{host}]" if ":" in host else host
    return f"http://{where}:{port}/" + (f"?token={token}" if token else "")


def _print_lan(url: str, host: str, port: int, token: str) -> None:
    """The QR code of the address, and the address on this machine."""
    import io

    import segno
    picture = io.StringIO()
    segno.make_qr(url, error="m").terminal(out=picture, compact=True)
    click.echo(picture.getvalue(), nl=False)
    click.echo("Scan it with the phone's camera (the phone on the same network); the page "
               "keeps the token.")
    if host in ("0.0.0.0", "::"):
        click.echo(f"On this machine: {_url('127.0.0.1', port, token)}")
