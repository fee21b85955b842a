"""The visits of the first three decisions of one search as its budget grows,
by exploration term and constant: UCB1's alternatives stop receiving
iterations once the first decision's mean pulls ahead, the polynomial term
(form=puct) keeps re-checking them (lab/2026-12-07-exploration.md).

    python lab/frozen_alternatives.py [PLAYERS [SEED [STEPS]]]

The position: `STEPS` decisions (the (7k)-th legal one, cyclically) from the
deal of `SEED`, as tests/mcts/searcher/test_search_options.py's `walked`
(default 3 players, seed 11, 50 steps: 15 decisions).
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import ulm  # noqa: E402
from mcts import search  # noqa: E402

SEARCHES = (("default (UCB1, c 2 scaled)", {}), ("UCB1, c 8 scaled", {"c": 8}),
            ("UCB1, c 0.25 fixed", {"c": 0.25, "explore": "fixed"}),
            ("UCB1, c 0.25 fixed, minimax 0", {"c": 0.25, "explore": "fixed", "minimax": 0}),
            ("PUCT, c 16 scaled", {"form": "puct", "c": 16}))
BUDGETS = (10_000, 40_000, 160_000)


def walked(players: int, seed: int, steps: int):
    state = ulm.Game(players=players).new_game(seed)
    k = 0
    while k < steps and not state.is_terminal():
        if state.is_chance_node():
            state.resolve_chance()
            continue
        legal = state.legal_actions()
        state.apply_action(legal[(7 * k) % len(legal)])
        k += 1
    while state.is_chance_node():
        state.resolve_chance()
    return state


def main(players: int = 3, seed: int = 11, steps: int = 50) -> int:
    state = walked(players, seed, steps)
    print(f"visits of the first / second / third decisions ({players} players, "
          f"{len(state.legal_actions())} decisions, search seed 7)")
    print("| search | " + " | ".join(f"{n:,}" for n in BUDGETS) + " |")
    print("| --- |" + " --- |" * len(BUDGETS))
    for name, options in SEARCHES:
        cells = []
        for n in BUDGETS:
            visits = sorted((a.visits for a in search(state, n, seed=7, **options).actions),
                            reverse=True) + [0, 0]
            cells.append(" / ".join(f"{v:,}" for v in visits[:3]))
        print(f"| {name} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
    from _args import natural, players, read_args, seed
    sys.exit(main(*read_args(__doc__, sys.argv[1:], ("PLAYERS", players, 3), ("SEED", seed, 11),
                             ("STEPS", natural, 50))))
