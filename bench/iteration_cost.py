"""The cost of one search iteration in instructions, counted by callgrind.

    python bench/iteration_cost.py [ITERATIONS]     # needs valgrind (apt-get install valgrind)

Runs, under `valgrind --tool=callgrind` with collection switched on only
inside the compiled search loop (`Searcher.run_loop`), a fixed number of
iterations of the default search (the learned evaluation 2 turns on), of the
search of release 0.2 (`preset=v0.2`: the linear evaluation 8 turns on) and
of the baseline preset from the opening push and the mid-game position of
`ulm bench`, in 4 and in 2 players, and prints the instructions per
iteration; then the instructions of one learned evaluation (`learned_win`,
counted alone) and their share of the default's iteration. Instruction
counts do not depend on the load of the machine, unlike timings.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
try:        # run as a script: the checkout's ulm if built in place, else the installed one
    import _ulm_path  # noqa: E402,F401
except ModuleNotFoundError:     # imported as bench.NAME (the tests): the checkout is on the path
    pass

POSITIONS = (("opening", 4), ("midgame", 4), ("opening", 2), ("midgame", 2))
PRESETS = ("default", "v0.2", "baseline")


def _child(position: str, players: int, preset: str, iterations: int) -> None:
    """Inside valgrind: grow one tree by `iterations` iterations, as the bots'
    search() does (only its compiled loop is counted)."""
    from bench_search import midgame, opening
    from mcts.searcher.params import PRESETS as SEARCH_PRESETS
    from mcts.searcher.search import search

    state = opening(players) if position == "opening" else midgame(players)
    search(state, iterations=iterations, seed=1, params=SEARCH_PRESETS[preset])


def count(position: str, players: int, preset: str, iterations: int,
          collect: str = "*Searcher_run_loop*"):
    """Instructions inside the functions matching `collect`, and the calls of
    learned_win among them."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
               "--compress-strings=no",
               f"--toggle-collect={collect}", sys.executable, os.path.abspath(__file__),
               "--child", position, str(players), preset, str(iterations)]
        subprocess.run(cmd, check=True, capture_output=True)
        with open(out) as f:
            text = f.read()
    m = re.search(r"^summary:\s+(\d+)", text, re.M) or re.search(r"^totals:\s+(\d+)", text, re.M)
    calls = sum(int(c) for c in re.findall(r"^cfn=.*learned_win.*\ncalls=(\d+)", text, re.M))
    return int(m.group(1)), calls


def main(iterations: int = 2000) -> int:
    print(f"instructions per iteration (callgrind, {iterations:,} iterations each)")
    for position, players in POSITIONS:
        row = {p: count(position, players, p, iterations)[0] / iterations for p in PRESETS}
        print(f"  {players}-player {position:<8} "
              + "  ".join(f"{p} {row[p]:12,.0f}" for p in PRESETS)
              + f"  (default / v0.2 {row['default'] / row['v0.2']:.2f}x,"
              + f" baseline / v0.2 {row['baseline'] / row['v0.2']:.2f}x)")
        inside, _ = count(position, players, "default", iterations, "*learned_win*")
        _, calls = count(position, players, "default", iterations)
        if calls:
            share = 100 * inside / iterations / row["default"]
            print(f"  {'':17} one learned evaluation: {inside / calls:,.0f} instructions "
                  f"({calls / iterations:.2f} an iteration, {share:.1f}% of the iteration)")
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child(sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5]))
    else:
        from _args import read_args, whole
        sys.exit(main(*read_args(__doc__, sys.argv[1:], ("ITERATIONS", whole, 2000))))
