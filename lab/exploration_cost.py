"""The CPU time of a search of a fixed number of iterations, by exploration
constant: a larger constant spreads the iterations over more decisions (a
shallower tree), which changes the cost of an iteration and so the iterations a
time budget buys. Equal-iteration games compare the constants at nearly equal
time only if these costs are close (lab/2026-12-07-exploration.md).

    python lab/exploration_cost.py [ITERATIONS PLAYERS GAMES]

Positions of bench/iterations_per_decision.py (every tenth decision of the first
60 of heuristic games); each position searched by every setting in turn, then in
the reverse order, in this one process (process time, so other processes' load
counts little).
"""
from __future__ import annotations

import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "bench"))

from iterations_per_decision import positions  # noqa: E402
from mcts import search  # noqa: E402
from mcts.searcher.params import SearchParams  # noqa: E402

SETTINGS = ("", ",c=5", ",c=8", ",form=puct,c=16")


def main(iterations: int = 50_000, players: int = 2, games: int = 3) -> int:
    params = {s: SearchParams.from_spec(f"ismcts:iterations={iterations}{s}") for s in SETTINGS}
    spent = dict.fromkeys(SETTINGS, 0.0)
    count = 0
    for state, step in positions(players, games):
        count += 1
        for order in (SETTINGS, SETTINGS[::-1]):
            for setting in order:
                start = time.process_time()
                search(state, seed=step, params=params[setting])
                spent[setting] += time.process_time() - start
    print(f"{iterations:,} iterations, {players} players, {count} positions, each searched twice")
    for setting in SETTINGS:
        print(f"  {setting.lstrip(',') or 'default':<16} {spent[setting]:7.2f} s CPU   "
              f"{spent[setting] / spent[SETTINGS[0]]:.3f} of the default's")
    return 0


if __name__ == "__main__":
    from _args import players, read_args, whole
    sys.exit(main(*read_args(__doc__, sys.argv[1:], ("ITERATIONS", whole, 50_000),
                             ("PLAYERS", players, 2), ("GAMES", whole, 3))))
