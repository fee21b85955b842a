"""The cost of one search iteration in instructions, counted by callgrind.

    python bench/iteration_cost.py [ITERATIONS]     # needs valgrind (apt-get install valgrind)

Runs, under `valgrind --tool=callgrind` with collection switched on only
inside the compiled search loop (`Searcher.run_loop`), a fixed number of
iterations of the default search and of the baseline preset from the 4-player
opening push and the mid-game position of `ulm bench`, and prints the
instructions per iteration. Instruction counts do not depend on the load of the
machine, unlike timings.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

POSITIONS = ("opening", "midgame")
PRESETS = ("default", "baseline")


def _child(position: str, preset: str, iterations: int) -> None:
    """Inside valgrind: grow one tree by `iterations` iterations."""
    from bench.bench_search import midgame, opening
    from mcts._search import Searcher
    from mcts.bots import search_options
    from mcts.evaluation import eval_parameters
    from mcts.search import horizon_turns

    state = opening() if position == "opening" else midgame()
    opts = search_options(preset)
    opts.pop("final")
    opts["horizon"] = horizon_turns(opts["horizon"], state.num_players())
    if opts["horizon"] >= 0:
        weights, win_weights = eval_parameters(state.num_players())
        opts.update(eval_weights=weights, eval_win_weights=win_weights)
    Searcher(state, seed=1, **opts).run(iterations)


def count(position: str, preset: str, iterations: int) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
               "--toggle-collect=*Searcher_run_loop*", sys.executable, os.path.abspath(__file__),
               "--child", position, preset, str(iterations)]
        subprocess.run(cmd, check=True, capture_output=True)
        with open(out) as f:
            text = f.read()
    m = re.search(r"^summary:\s+(\d+)", text, re.M) or re.search(r"^totals:\s+(\d+)", text, re.M)
    return int(m.group(1))


def main(iterations: int = 2000) -> int:
    print(f"instructions per iteration (callgrind, {iterations:,} iterations each)")
    for position in POSITIONS:
        row = {p: count(position, p, iterations) / iterations for p in PRESETS}
        print(f"  4-player {position:<8} " + "  ".join(f"{p} {row[p]:12,.0f}" for p in PRESETS)
              + f"  (baseline / default {row['baseline'] / row['default']:.2f}x)")
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000))
