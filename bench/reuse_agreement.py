"""Tree reuse next to a fresh search: how often they choose the same decision.

    python bench/reuse_agreement.py [POSITIONS] [ITERATIONS]

For seat 0's first turn of seeded 2-player games: search the push with N
iterations, then the decision after it (same player, no chance event) twice:
re-rooted at the chosen push's subtree plus N more iterations ("reuse"), and
fresh with 2N iterations (the summed budget). Prints how often the two pick
the same decision, how often two fresh searches with different seeds do (the
noise floor), and how many visits the reused root started with.
"""
from __future__ import annotations

import sys

try:        # run as a script: the checkout's ulm if built in place, else the installed one
    import _ulm_path  # noqa: E402,F401
except ModuleNotFoundError:     # imported as bench.NAME (the tests): the checkout is on the path
    pass

import ulm  # noqa: E402
from mcts import search  # noqa: E402
from mcts.searcher.params import PRESETS  # noqa: E402


def main(positions: int = 30, n: int = 1000) -> int:
    opts = {"params": PRESETS["default"]}
    same = compared = kept = noise = 0
    for seed in range(positions):
        s = ulm.Game(players=2).new_game(seed)
        s.apply_action(1)
        s.resolve_chance()
        first = search(s, iterations=n, seed=seed, **opts)
        after = s.clone()
        after.apply_action(first.best_action)
        if after.current_player() != 0 or len(after.legal_actions()) < 2:
            continue
        tree = first.tree
        if not tree.reroot(first.best_action, after, seed + 1):
            continue
        reused = search(after, iterations=n, seed=seed + 1, tree=tree, **opts)
        fresh = search(after, iterations=2 * n, seed=seed + 1, **opts)
        other = search(after, iterations=2 * n, seed=seed + 2, **opts)
        compared += 1
        kept += reused.reused_visits
        same += reused.best_action == fresh.best_action
        noise += other.best_action == fresh.best_action
    print(f"{compared} positions, {n} + {n} iterations (reuse) vs {2 * n} (fresh): "
          f"same decision in {same} ({100 * same / max(compared, 1):.0f}%); "
          f"two fresh searches with different seeds agree in {noise} "
          f"({100 * noise / max(compared, 1):.0f}%); "
          f"the reused root started with {kept / max(compared, 1):.0f} visits on average")
    return 0


if __name__ == "__main__":
    from _args import read_args, whole
    sys.exit(main(*read_args(__doc__, sys.argv[1:], ("POSITIONS", whole, 30),
                             ("ITERATIONS", whole, 1000))))
