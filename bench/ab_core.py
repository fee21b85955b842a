"""Interleaved A/B of random playouts (or of a search) between two builds.

    git worktree add /tmp/old main   # or: mkdir /tmp/old && git archive main | tar -x -C /tmp/old
    (cd /tmp/old && python setup.py build_ext --inplace)
    python bench/ab_core.py /tmp/old . [--pairs 7] [--games 20000] [--players 4] [--variant basic]
    python bench/ab_core.py /tmp/old . --search baseline [--iterations 6000]

With --search PRESET each run times `mcts.searcher.search` with that preset's options
(`mcts.searcher.params.PRESETS`) for a fixed number of iterations at seat 0's first push
of the seed-1 game (the `ulm bench` opening), instead of random playouts; the
figures are then iterations/s.

Each pair runs A then B, each in a fresh interpreter with that tree first on
sys.path, the same seeded games in compiled code (ulm._fastcore.bench_playouts).
Reported per run: games/s of wall time and of the process's CPU time; on a
shared, loaded machine the CPU figure is the steadier one, and the medians of
the interleaved pairs compare the two builds under the same load.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

try:        # run as a script: the checkout's ulm if built in place, else the installed one
    import _ulm_path  # noqa: F401
except ModuleNotFoundError:     # imported as bench.NAME (the tests): the checkout is on the path
    pass
from ulm.game import VARIANTS  # noqa: E402
from ulm.numbers import whole_argument  # noqa: E402  (the one grammar of a count)

CHILD = """
import sys, time
from ulm import _fastcore as core
from ulm.game import Game
g = Game(players={players}, variant={variant!r})
core.bench_playouts(g, 500, 1)
w0, c0 = time.perf_counter(), time.process_time()
core.bench_playouts(g, {games}, 1)
w1, c1 = time.perf_counter(), time.process_time()
print({games} / (w1 - w0), {games} / (c1 - c0))
"""

SEARCH_CHILD = """
import time
from ulm.game import Game
from mcts import search
from mcts.searcher.params import PRESETS
state = Game(players={players}, variant={variant!r}).new_game(1)
state.apply_action(1)           # the draw (forced)
state.resolve_chance()
opts = {{"params": PRESETS[{preset!r}]}}
search(state, iterations=200, seed=1, **opts)
w0, c0 = time.perf_counter(), time.process_time()
search(state, iterations={games}, seed=1, **opts)
w1, c1 = time.perf_counter(), time.process_time()
print({games} / (w1 - w0), {games} / (c1 - c0))
"""


def run(tree: str, players: int, variant: str, games: int,
        preset: str | None = None) -> tuple[float, float]:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    child = CHILD if preset is None else SEARCH_CHILD
    out = subprocess.run([sys.executable, "-c", child.format(players=players, variant=variant,
                                                             games=games, preset=preset)],
                         env=env, cwd="/", capture_output=True, text=True, check=True).stdout
    wall, cpu = map(float, out.split())
    return wall, cpu


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a", help="source tree of build A (the previous code)")
    ap.add_argument("b", help="source tree of build B (the new code)")
    ap.add_argument("--pairs", type=whole_argument, default=7)
    ap.add_argument("--games", type=whole_argument, default=20000)
    ap.add_argument("--players", type=whole_argument, default=4)
    ap.add_argument("--variant", default=VARIANTS[0], choices=VARIANTS)
    ap.add_argument("--search", metavar="PRESET", default=None,
                    help="time this search preset (default, baseline) instead of playouts")
    ap.add_argument("--iterations", type=whole_argument, default=6000, help="iterations per run (--search)")
    args = ap.parse_args(argv)
    unit = "games" if args.search is None else "iterations"
    count = args.games if args.search is None else args.iterations
    res = {"a": [], "b": []}
    for k in range(args.pairs):
        for side, tree in (("a", args.a), ("b", args.b)):
            res[side].append(run(tree, args.players, args.variant, count, args.search))
        (aw, ac), (bw, bc) = res["a"][-1], res["b"][-1]
        print(f"pair {k + 1}: A {aw:9,.0f} wall {ac:9,.0f} cpu {unit}/s | "
              f"B {bw:9,.0f} wall {bc:9,.0f} cpu {unit}/s | B/A cpu {bc / ac:.2f}", flush=True)
    med = {s: (statistics.median(w for w, _ in r), statistics.median(c for _, c in r))
           for s, r in res.items()}
    what = f"{args.search} search, " if args.search else ""
    print(f"median, {what}{args.players} players {args.variant}, {count:,} {unit} per run: "
          f"A {med['a'][0]:,.0f} wall / {med['a'][1]:,.0f} cpu; "
          f"B {med['b'][0]:,.0f} wall / {med['b'][1]:,.0f} cpu {unit}/s; "
          f"B/A {med['b'][1] / med['a'][1]:.2f} (cpu), {med['b'][0] / med['a'][0]:.2f} (wall)")


if __name__ == "__main__":
    main()
