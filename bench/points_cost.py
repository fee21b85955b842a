"""The cost of the root decisions' points (`Searcher(points=True)`, the
default): iterations per CPU second with and without them, side by side.

    python bench/points_cost.py [ITERATIONS] [ROUNDS]
    python bench/points_cost.py --instructions [ITERATIONS]   # callgrind (valgrind)

Each figure is the best of ROUNDS (default 5) searches of ITERATIONS (default
20,000) iterations, with and without the points interleaved, so both see the
same load: the default search (the learned evaluation 2 turns on) and the
baseline preset (rollouts to the end), from the 4-player opening push and the
mid-game position of `ulm bench`. The searches are the same with and without
the points (the same decisions, visits and tree): only the sums at the root
differ. With --instructions, the instructions per iteration inside the
compiled loop are counted by callgrind instead (they do not depend on the load).
"""
from __future__ import annotations

import contextlib
import importlib
import os
import re
import subprocess
import sys
import tempfile
import time

try:        # run as a script: the checkout's ulm if built in place, else the installed one
    import _ulm_path  # noqa: E402,F401
except ModuleNotFoundError:     # imported as bench.NAME (the tests): the checkout is on the path
    pass

search_module = importlib.import_module("mcts.searcher.search")   # the module (mcts.searcher.search is
#                                                          also the name of its function)
from bench_search import midgame, opening  # noqa: E402
from mcts.searcher.params import PRESETS as SEARCH_PRESETS  # noqa: E402

POSITIONS = (("opening", opening), ("mid-game", midgame))
PRESETS = ("default", "baseline")


@contextlib.contextmanager
def points(on: bool):
    """search() builds its Searcher with points=`on` inside the block."""
    real = search_module.Searcher

    def searcher(*args, **options):
        return real(*args, points=on, **options)
    search_module.Searcher = searcher
    try:
        yield
    finally:
        search_module.Searcher = real


def rate(state, preset: str, on: bool, iterations: int) -> tuple:
    """(iterations per CPU second, the root's visits) of one search."""
    with points(on):
        cpu = time.process_time()
        result = search_module.search(state, iterations=iterations, seed=1,
                                      params=SEARCH_PRESETS[preset])
        cpu = time.process_time() - cpu
    return iterations / max(cpu, 1e-9), [(a.action, a.visits) for a in result.actions]


def main(iterations: int = 20000, rounds: int = 5) -> int:
    print(f"iterations per CPU second, best of {rounds} interleaved searches of "
          f"{iterations:,} iterations, with and without the points of the root's decisions")
    for label, make in POSITIONS:
        state = make()
        for preset in PRESETS:
            best = {True: 0.0, False: 0.0}
            visits = {}
            for _ in range(rounds):
                for on in (True, False):
                    per_second, visits[on] = rate(state, preset, on, iterations)
                    best[on] = max(best[on], per_second)
            assert visits[True] == visits[False], "the points changed the search"
            print(f"  4-player {label:<8} {preset:<8}: with {best[True]:9,.0f} /s, "
                  f"without {best[False]:9,.0f} /s, cost "
                  f"{100 * (best[False] / best[True] - 1):+.1f}% time per iteration")
    return 0


def _child(label: str, preset: str, on: str, iterations: int) -> None:
    """Inside valgrind: one search, only its compiled loop counted."""
    state = dict(POSITIONS)[label]()
    rate(state, preset, on == "on", iterations)


def instructions(iterations: int = 2000) -> int:
    print(f"instructions per iteration (callgrind, {iterations:,} iterations each)")
    for label, _ in POSITIONS:
        for preset in PRESETS:
            counts = {}
            for on in ("on", "off"):
                with tempfile.TemporaryDirectory() as tmp:
                    out = os.path.join(tmp, "callgrind.out")
                    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                                    "--toggle-collect=*Searcher_run_loop*", sys.executable,
                                    os.path.abspath(__file__), "--child", label, preset, on,
                                    str(iterations)], check=True, capture_output=True)
                    with open(out) as f:
                        text = f.read()
                m = re.search(r"^summary:\s+(\d+)", text, re.M) or \
                    re.search(r"^totals:\s+(\d+)", text, re.M)
                counts[on] = int(m.group(1)) / iterations
            print(f"  4-player {label:<8} {preset:<8}: with {counts['on']:10,.0f}, without "
                  f"{counts['off']:10,.0f}, cost {100 * (counts['on'] / counts['off'] - 1):+.2f}%")
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--child"]:
        _child(args[1], args[2], args[3], int(args[4]))
    elif args[:1] == ["--instructions"]:
        from _args import read_args, whole
        sys.exit(instructions(*read_args(__doc__, args[1:], ("ITERATIONS", whole, 2000))))
    else:
        from _args import read_args, whole
        sys.exit(main(*read_args(__doc__, args, ("ITERATIONS", whole, 20000),
                                 ("ROUNDS", whole, 5))))
