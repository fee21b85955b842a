"""How fast `ulm serve` answers the GETs of many open pages while games are made
and bots search.

    PYTHONPATH=. python bench/serve_load.py                       # 200 clients, 1 GET/s each
    PYTHONPATH=. python bench/serve_load.py --every 0             # the same clients, no pause

Starts `ulm serve` on a free port of 127.0.0.1 (its games in a temporary folder, or
in memory with --forget). Meanwhile `--games` games are made, one after another
over the first half of the run: `--searching` of them with two bots of `--bot`
(their searches take the machine's bot slots, as players' bots do), the others
with two people (a board waiting for a decision). `--clients` clients, each on a
keep-alive connection of its own, ask in turn for what an open page asks for:
the page itself (/), the list of games (/api/games) and a game's state
(/api/games/{id}, a game made so far), each client once every `--every` seconds
(0: as fast as the server answers). Prints the GETs answered a second and the
latency of each route and of all (p50, p90, p99, max in ms), the requests that
failed or timed out, the server's CPU time (Linux; a figure that other processes
on a busy machine change less than the latencies) and what else ran on the machine
(the load average before the run).

The clients are one asyncio loop of this process (one CPU); the server is one
process. Talks to 127.0.0.1 only; every count and time is bounded.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

TIMEOUT = 60.0              # seconds: a request slower than this counts as timed out
MAX_CLIENTS, MAX_GAMES, MAX_SECONDS = 2000, 1000, 600
ROUTES = ("GET /", "GET /api/games", "GET /api/games/{id}")


def _bounded(low, high, kind):
    def parse(text):
        value = kind(text)
        if not low <= value <= high:    # NaN fails too
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}, got {text}")
        return value
    return parse


class Connection:
    """One keep-alive HTTP/1.1 connection to the server (asyncio streams)."""

    def __init__(self, port: int):
        self.port = port
        self.reader = self.writer = None

    async def call(self, method: str, path: str, body=None) -> tuple[int | None, bytes]:
        """(status, body); status None when the request failed or timed out."""
        try:
            if hasattr(asyncio, "timeout"):     # Python 3.11: no task made for each call
                async with asyncio.timeout(TIMEOUT):
                    return await self._call(method, path, body)
            return await asyncio.wait_for(self._call(method, path, body), TIMEOUT)
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError):
            self.close()
            return None, b""

    async def _call(self, method, path, body):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        data = b"" if body is None else json.dumps(body).encode()
        head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                f"Content-Length: {len(data)}\r\n")
        if body is not None:
            head += "Content-Type: application/json\r\n"
        self.writer.write(head.encode() + b"\r\n" + data)
        # the client is cheap (it shares the machine with the server): the head is read
        # at once and only the two headers it needs are looked at
        lines = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").lower().split("\r\n")
        status = int(lines[0].split()[1])
        length, close = 0, False
        for line in lines[1:]:
            if line.startswith("content-length:"):
                length = int(line[15:])
            elif line.startswith("connection:") and "close" in line:
                close = True
        answer = await self.reader.readexactly(length)
        if close:
            self.close()
        return status, answer

    def close(self):
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def cpu_seconds(pid: int) -> float | None:
    """The CPU time a process has used so far (Linux: /proc), or None."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def start_server(port: int, folder: str, forget: bool) -> subprocess.Popen:
    args = [sys.executable, "-m", "cli", "serve", "--port", str(port)]
    if forget:
        args.append("--forget")
    proc = subprocess.Popen(args, env=dict(os.environ, ULM_DATA_DIR=folder),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    if not line.startswith("Ulm web companion"):
        proc.kill()
        raise SystemExit(f"the server did not start: {line}{proc.stderr.read()}")
    with socket.socket() as probe:
        for _ in range(200):
            try:
                probe.connect(("127.0.0.1", port))
                return proc
            except OSError:
                time.sleep(0.05)
    proc.kill()
    raise SystemExit("the server does not answer")


async def make_games(port, args, until, games: list) -> None:
    """`args.games` games over the first half of the run, `args.searching` of them
    between bots."""
    conn = Connection(port)
    pause = (until - time.monotonic()) / 2 / args.games
    bots = set(random.Random(1).sample(range(args.games), args.searching))
    for k in range(args.games):
        seats = [args.bot, args.bot] if k in bots else ["human", "human"]
        status, answer = await conn.call("POST", "/api/games",
                                         {"mode": "play", "seats": seats, "seed": k})
        if status == 201:
            games.append(json.loads(answer)["id"])
        await asyncio.sleep(pause)
    conn.close()


async def client(port, k, args, until, games, times, failed) -> None:
    """One open page: a GET every `args.every` seconds (at once with 0), the routes in turn."""
    conn = Connection(port)
    rng = random.Random(k)
    route = k % len(ROUTES)
    await asyncio.sleep(rng.uniform(0, args.every))     # the clients spread over a second
    due = time.monotonic()
    while time.monotonic() < until:
        name = ROUTES[route]
        route = (route + 1) % len(ROUTES)
        path = name.split()[1]
        if "{id}" in path:
            if not games:
                continue
            path = path.replace("{id}", rng.choice(games))
        t = time.perf_counter()
        status, _ = await conn.call("GET", path)
        if status == 200:
            times[name].append(time.perf_counter() - t)
        else:
            failed.append((name, status))
        if args.every:
            due += args.every
            await asyncio.sleep(max(0.0, due - time.monotonic()))
    conn.close()


def percentiles(times: list) -> str:
    if not times:
        return "no answers"
    ms = sorted(1000 * t for t in times)
    q = statistics.quantiles(ms, n=100, method="inclusive") if len(ms) > 1 else ms * 99
    return (f"p50 {q[49]:7.1f}  p90 {q[89]:7.1f}  p99 {q[98]:7.1f}  max {ms[-1]:7.1f} ms"
            f"  ({len(ms)} answers)")


async def run(port: int, args) -> tuple[dict, list, list, float]:
    start = time.monotonic()
    until = start + args.seconds
    games: list = []
    times: dict = {name: [] for name in ROUTES}
    failed: list = []
    tasks = [asyncio.create_task(make_games(port, args, until, games))]
    tasks += [asyncio.create_task(client(port, k, args, until, games, times, failed))
              for k in range(args.clients)]
    await asyncio.gather(*tasks)
    return times, failed, games, time.monotonic() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=_bounded(1, MAX_CLIENTS, int), default=200)
    ap.add_argument("--every", type=_bounded(0.0, 60.0, float), default=1.0,
                    help="seconds between a client's GETs (0: no pause)")
    ap.add_argument("--games", type=_bounded(1, MAX_GAMES, int), default=50)
    ap.add_argument("--searching", type=_bounded(0, MAX_GAMES, int), default=5,
                    help="of the games, those between two bots")
    ap.add_argument("--bot", default="ismcts:time=0.5")
    ap.add_argument("--seconds", type=_bounded(1, MAX_SECONDS, float), default=30.0)
    ap.add_argument("--forget", action="store_true", help="the server keeps no games file")
    args = ap.parse_args()
    if args.searching > args.games:
        ap.error("--searching: at most --games")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    folder = tempfile.mkdtemp(prefix="ulm-serve-load-")
    proc = start_server(port, folder, args.forget)
    try:
        load = os.getloadavg()
        cpu = cpu_seconds(proc.pid)
        times, failed, games, spent = asyncio.run(run(port, args))
        answered = sum(len(t) for t in times.values())
        used = cpu_seconds(proc.pid)
        used = used - cpu if used is not None and cpu is not None else None
        print(f"ulm serve{' --forget' if args.forget else ''}: {args.clients} clients, "
              + (f"a GET every {args.every:g} s each" if args.every else "no pause")
              + f", for {args.seconds:g} s; {len(games)} games made, {args.searching} "
              f"of them {args.bot} vs {args.bot}")
        print(f"{answered / spent:,.0f} GETs answered a second")
        for name, spent_each in times.items():
            print(f"{name:22s} {percentiles(spent_each)}")
        print(f"{'all':22s} {percentiles([t for each in times.values() for t in each])}")
        print(f"failed or timed out (> {TIMEOUT:g} s): {len(failed)}")
        if used is not None:
            print(f"the server's CPU time: {used:.1f} s in {spent:.1f} s (its bots' searches "
                  f"included), {1000 * used / max(1, answered):.2f} ms a GET")
        print(f"load average before the run (1, 5, 15 min): "
              f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    finally:
        proc.terminate()
        proc.wait(30)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
