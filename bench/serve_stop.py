"""How long `ulm serve` takes to stop on Ctrl-C while it works, and whether it starts
again on the same port at once.

    PYTHONPATH=. python bench/serve_stop.py [--bot ismcts:time=20] [--hint 20]

Starts `ulm serve` on a free port (its games in a temporary folder), starts a game in
which a bot of the given spec thinks and a hint of the given seconds in another, with
the hint's event stream open; sends SIGINT and prints the seconds until the process
has ended; then starts a server on the same port and prints how long that took and
the games it found.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default="ismcts:time=20")
    ap.add_argument("--hint", type=float, default=20.0)
    args = ap.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    folder = tempfile.mkdtemp(prefix="ulm-serve-stop-")
    env = dict(os.environ, ULM_DATA_DIR=folder)

    def start():
        proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", str(port)],
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True)
        return proc, proc.stdout.readline().strip()

    def call(method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data,
                                         method=method,
                                         headers={"Content-Type": "application/json"})
        for _ in range(100):
            try:
                with urllib.request.urlopen(request, timeout=10) as r:
                    return json.loads(r.read())
            except (ConnectionError, urllib.error.URLError):
                time.sleep(0.05)
        raise SystemExit("the server does not answer")

    proc, line = start()
    print(line)
    game = call("POST", "/api/games", {"mode": "play", "seats": ["human", "greedy"]})
    call("POST", f"/api/games/{game['id']}/decide", {"decision": "draw"})
    job = call("POST", f"/api/games/{game['id']}/hint", {"seconds": args.hint})
    bot = call("POST", "/api/games", {"mode": "play", "seats": [args.bot, "human"]})
    stream = socket.create_connection(("127.0.0.1", port))
    stream.sendall(f"GET /api/jobs/{job['id']}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                   .encode())
    time.sleep(1.0)
    thinking = call("GET", f"/api/games/{bot['id']}")["thinking"]
    print(f"a hint of {args.hint:g} s searching; {args.bot} thinking: {thinking is not None}")
    t = time.monotonic()
    proc.send_signal(signal.SIGINT)
    proc.wait(60)
    print(f"Ctrl-C to the end of the process: {time.monotonic() - t:.3f} s")
    t = time.monotonic()
    proc, line = start()
    print(f"started again on port {port} in {time.monotonic() - t:.2f} s: {line}")
    games = call("GET", "/api/games")["games"]
    print(f"games found: {len(games)}")
    proc.send_signal(signal.SIGINT)
    proc.wait(60)
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
