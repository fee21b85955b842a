"""The engine protocol's cost: games whose every seat is an engine that answers at once.

    PYTHONPATH=. python bench/engine_overhead.py [--players 4] [--games 5] [--engine c|python]

Builds the C reference engine (examples/engines/random_engine.c) with the system's
gcc (or takes the Python one), plays --games games with it in every seat
(mcts.play.bot_game.play_game, the tournament's game) and prints:

* decisions per second: of the decisions alone (the round trips), and of whole
  games (the host's game logic, starting and ending four engines a game);
* the round trip per decision (median and 90th percentile): from `choose` called
  to the decision read, the engine's own work included;
* the host's work per decision (median, 90th percentile): the CPU time the host's
  thread spends building, sending and reading the messages of a decision and the
  events it passes on (waiting for the engine is not work, and not counted);
* for comparison, the per-decision time of the in-process `random` bot.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]     # the reference engines: examples/engines
try:        # run as a script: the checkout's ulm if built in place, else the installed one
    import _ulm_path  # noqa: F401
except ModuleNotFoundError:     # imported as bench.engine_overhead: the checkout is on the path
    pass

from mcts.play import engines  # noqa: E402
from mcts.play.bot_game import play_game  # noqa: E402
from mcts.play.engines import EngineBot  # noqa: E402


def _command(kind: str, folder: Path) -> str:
    if kind == "python":
        return f"{sys.executable} {ROOT / 'examples' / 'engines' / 'random_engine.py'}"
    gcc = shutil.which("gcc")
    if gcc is None:
        sys.exit("gcc not found: give --engine python")
    out = folder / "random_engine"
    subprocess.run([gcc, "-O2", "-o", str(out), str(ROOT / "examples" / "engines" /
                                                    "random_engine.c")], check=True)
    return str(out)


def _pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--engine", choices=("c", "python"), default="c")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="ulm-engine-bench-"))
    engines.register_engine("bench", _command(args.engine, folder))
    engines.set_log_dir(folder / "logs")

    trips: list[float] = []
    work: list[float] = []
    pending = [0.0]             # host CPU time of the events since the last decision
    choose, observe = EngineBot.choose, EngineBot.observe

    def timed_choose(self, state):
        c0, t0 = time.thread_time(), time.perf_counter()
        action = choose(self, state)
        trips.append(time.perf_counter() - t0)
        work.append(time.thread_time() - c0 + pending[0])
        pending[0] = 0.0
        return action

    def timed_observe(self, state, action):
        c0 = time.thread_time()
        observe(self, state, action)
        pending[0] += time.thread_time() - c0

    EngineBot.choose, EngineBot.observe = timed_choose, timed_observe
    decisions, wall = 0, 0.0
    for g in range(args.games):
        t0 = time.perf_counter()
        row = play_game(["engine:bench"] * args.players, seed=g)
        wall += time.perf_counter() - t0
        decisions += row["decisions"]
        assert row["forfeits"] == [None] * args.players, row["forfeits"]
    EngineBot.choose, EngineBot.observe = choose, observe
    t0 = time.perf_counter()
    random_decisions = 0
    for g in range(args.games):
        random_decisions += play_game(["random"] * args.players, seed=g)["decisions"]
    random_wall = time.perf_counter() - t0
    print(f"{args.engine} engine in all {args.players} seats, {args.games} games, "
          f"{decisions} decisions")
    print(f"  decisions per second: {decisions / sum(trips):,.0f} answered, "
          f"{decisions / wall:,.0f} in whole games (engines started and ended)")
    print(f"  round trip per decision: median {statistics.median(trips) * 1e3:.3f} ms, "
          f"90% {_pct(trips, 0.9) * 1e3:.3f} ms")
    print(f"  host work per decision:  median {statistics.median(work) * 1e3:.3f} ms, "
          f"90% {_pct(work, 0.9) * 1e3:.3f} ms")
    print(f"  in-process random bot:   {random_decisions / random_wall:,.0f} decisions per "
          f"second")
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
