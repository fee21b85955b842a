"""How fast `ulm serve` answers plain GETs while many games of cheap bots run.

    PYTHONPATH=. python bench/serve_load.py [--games 50] [--bot random] [--seconds 20]

Starts `ulm serve` on a free port of 127.0.0.1 (its games in a temporary folder, or
in memory with --forget), keeps `--games` games of two bots of the given spec running
(a game over is replaced by a new one: the list of games is looked at twice a
second) and meanwhile asks, one after another, for
GET /api/info, GET /api/games/{id} (a game being played: its board drawn) and
GET /api/games (the list), for `--seconds` seconds. Prints the latency of each
(p50, p90, p99, max in ms), the requests that failed or timed out, and the games
played. Talks to 127.0.0.1 only; every count and time is bounded.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

TIMEOUT = 60.0              # seconds: a request slower than this counts as timed out
MAX_GAMES, MAX_SECONDS = 200, 300


def _bounded(low, high, kind):
    def parse(text):
        value = kind(text)
        if not low <= value <= high:    # NaN fails too
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}, got {text}")
        return value
    return parse


class Client:
    """One keep-alive connection to the server, JSON in and out."""

    def __init__(self, port: int):
        self.port = port
        self.conn = None

    def call(self, method: str, path: str, body=None):
        """(status, answer, seconds); status None when the request failed or timed out."""
        data = None if method == "GET" else json.dumps(body or {}).encode()
        headers = {"Content-Type": "application/json"} if data is not None else {}
        t = time.perf_counter()
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)
            self.conn.request(method, path, body=data, headers=headers)
            r = self.conn.getresponse()
            answer = json.loads(r.read() or b"null")
            return r.status, answer, time.perf_counter() - t
        except (OSError, http.client.HTTPException, ValueError):
            self.conn = None
            return None, None, time.perf_counter() - t


def start_server(port: int, folder: str, forget: bool):
    args = [sys.executable, "-m", "cli", "serve", "--port", str(port)]
    if forget:
        args.append("--forget")
    proc = subprocess.Popen(args, env=dict(os.environ, ULM_DATA_DIR=folder),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    if not line.startswith("Ulm web companion"):
        proc.kill()
        raise SystemExit(f"the server did not start: {line}{proc.stderr.read()}")
    probe = Client(port)
    for _ in range(200):
        if probe.call("GET", "/api/info")[0] == 200:
            return proc
        time.sleep(0.05)
    proc.kill()
    raise SystemExit("the server does not answer")


def keep_playing(port: int, bot: str, count: int, until: float, games: list, played: set):
    """Keep `count` games of two bots running until `until`: looks at the list of games
    twice a second and starts a new game for each one over."""
    client = Client(port)
    while time.monotonic() < until:
        status, answer, _ = client.call("GET", "/api/games")
        listed = {g["id"]: g for g in answer["games"]} if status == 200 else {}
        played.update(gid for gid in games if listed.get(gid, {}).get("over"))
        running = [gid for gid in games if gid not in played]
        for _ in range(count - len(running)):
            status, g, _ = client.call("POST", "/api/games", {
                "mode": "play", "seats": [bot, bot], "seed": len(games)})
            if status == 201:
                games.append(g["id"])
        time.sleep(0.5)


def percentiles(times: list) -> str:
    if not times:
        return "no answers"
    ms = sorted(1000 * t for t in times)
    q = statistics.quantiles(ms, n=100, method="inclusive") if len(ms) > 1 else ms * 99
    return (f"p50 {q[49]:7.1f}  p90 {q[89]:7.1f}  p99 {q[98]:7.1f}  max {ms[-1]:7.1f} ms"
            f"  ({len(ms)} answers)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=_bounded(1, MAX_GAMES, int), default=50)
    ap.add_argument("--bot", default="random")
    ap.add_argument("--seconds", type=_bounded(1, MAX_SECONDS, float), default=20.0)
    ap.add_argument("--forget", action="store_true", help="the server keeps no games file")
    args = ap.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    folder = tempfile.mkdtemp(prefix="ulm-serve-load-")
    proc = start_server(port, folder, args.forget)
    try:
        until = time.monotonic() + args.seconds
        games, played = [], set()
        keeper = threading.Thread(target=keep_playing, daemon=True,
                                  args=(port, args.bot, args.games, until, games, played))
        keeper.start()
        time.sleep(1.0)                 # the games are under way
        probe = Client(port)
        times = {"GET /api/info": [], "GET /api/games/{id}": [], "GET /api/games": []}
        failed = 0
        while time.monotonic() < until:
            for route in times:
                path = route.split()[1].replace("{id}", games[-1] if games else "none")
                status, _, seconds = probe.call("GET", path)
                if status == 200:
                    times[route].append(seconds)
                else:
                    failed += 1
        keeper.join(TIMEOUT)
        print(f"ulm serve{' --forget' if args.forget else ''}: {args.games} games of "
              f"{args.bot} vs {args.bot} kept running for {args.seconds:g} s; "
              f"{len(played)} games played to the end")
        for route, spent in times.items():
            print(f"{route:22s} {percentiles(spent)}")
        print(f"failed or timed out (> {TIMEOUT:g} s): {failed}")
    finally:
        proc.terminate()
        proc.wait(30)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
