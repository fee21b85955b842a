"""How often the final choice matters: over positions of heuristic games (every
tenth decision of the first 60 of each game, as bench/iterations_per_decision.py),
one search each by the default options at a fixed iteration budget, and from
that one search:

* how often the most visited decision's estimate lies below a rival's by more
  than twice their combined standard error (the rival with at least
  LCB_MIN_SHARE of the top visits): the case where "most visits" and "best
  estimate" disagree beyond noise;
* how often final="lcb" (mcts.searcher.search) would choose another decision
  than the most visited.

    python bench/final_choice.py [ITERATIONS] [PLAYERS] [GAMES] [--form puct --c 16]

The figures are counts of positions; they cost one search per position.
"""
from __future__ import annotations

import argparse
import math
import sys

try:        # run as a script: the checkout's ulm if built in place, else the installed one
    import _ulm_path  # noqa: F401
    from iterations_per_decision import positions
except ModuleNotFoundError:     # imported as bench.final_choice (the tests)
    from bench.iterations_per_decision import positions
from mcts import search  # noqa: E402
from mcts.searcher.search import LCB_MIN_SHARE, _rank_by_lcb  # noqa: E402


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("iterations", type=int, nargs="?", default=50_000)
    parser.add_argument("players", type=int, nargs="?", default=2)
    parser.add_argument("games", type=int, nargs="?", default=4)
    parser.add_argument("--form", default="ucb1")
    parser.add_argument("--c", type=float, default=None)
    args = parser.parse_args(argv)
    options = {"form": args.form}
    if args.c is not None:
        options["c"] = args.c
    searched = contested = switched = 0
    for state, step in positions(args.players, args.games):
        if len(state.legal_actions()) < 2:
            continue
        result = search(state, iterations=args.iterations, seed=step, **options)
        searched += 1
        most = result.actions[0]        # by visits (final="visits")
        rivals = [a for a in result.actions[1:] if a.visits >= LCB_MIN_SHARE * most.visits]
        if any(a.estimate - most.estimate > 2 * math.hypot(a.estimate_error, most.estimate_error)
               for a in rivals):
            contested += 1
        if _rank_by_lcb(result.actions)[0] is not most:
            switched += 1
    print(f"{args.players} players, {args.iterations:,} iterations, {options}: {searched} "
          f"positions searched; the most visited below a rival beyond noise in {contested}; "
          f"final=lcb chooses another in {switched}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
