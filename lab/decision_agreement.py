"""Does a larger budget change the search's decisions? A cheap look at where
a search stops gaining from iterations, before any tournament.

    python lab/decision_agreement.py [SPEC] [POSITIONS] [REFERENCE] [OTHER]

Positions: every sixth decision with a choice of 2-player self-play games of
`ismcts:preset=v0.2,iterations=300` (games seeded 100, 101, ...). Each is
searched by SPEC (default `ismcts:preset=v0.2`) with REFERENCE iterations
(default 64,000, seed 3), and then with 250 ... REFERENCE iterations (seed
1). For each budget the table gives how often it takes the reference's
decision, and the win chance its decision gives up by the reference's own
estimates (the mean over the positions of the reference's value of its
choice minus that of the smaller search's choice). The last row, the
reference budget with another seed, is the noise floor: two equal searches
differ that much. A search whose rows reach that floor at N iterations gains
nothing from more.

OTHER, a second search (e.g. `ismcts:preset=v0.2` beside the default), adds a
row: that search at the reference budget (seed 1) against the reference. Two
searches whose row is no lower than the noise floor take different decisions
no more often than one search does with another seed.
"""
from __future__ import annotations

import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

import ulm  # noqa: E402
from mcts import search  # noqa: E402
from mcts.play.bots import make_bot, params_from_spec  # noqa: E402

PLAYER = "ismcts:preset=v0.2,iterations=300"


def positions(count: int) -> list:
    """`count` positions: every sixth decision with a choice of self-play games."""
    found, game = [], 100
    while len(found) < count:
        state = ulm.Game(players=2).new_game(game)
        bots = [make_bot(f"{PLAYER},seed={2 * game + p}") for p in range(2)]
        choices = 0
        for _ in ulm.decision_steps(state):
            if len(found) >= count:
                break
            if len(state.legal_actions()) >= 2:
                choices += 1
                if choices % 6 == 0:
                    found.append(state.clone())
            state.apply_action(bots[state.current_player()].choose(state.clone()))
        game += 1
    return found


def budgets(reference: int) -> list:
    out, n = [], 250
    while n < reference:
        out.append(n)
        n *= 4
    return out + [reference]


REFERENCE_SEED = 3


def compare(found: list, ref: list, n: int, opts: dict, seed: int = 1) -> tuple:
    """(share of the reference's decisions taken, mean win chance given up by
    the reference's estimates) of searches of `n` iterations with `seed`."""
    same, lost = 0, 0.0
    for state, big in zip(found, ref):
        choice = search(state, iterations=n, seed=seed, **opts).best_action
        value = {a.action: a.value for a in big.actions}
        same += choice == big.best_action
        lost += value[big.best_action] - value.get(choice, min(value.values()))
    return same / len(found), lost / len(found)


def main(spec: str = "ismcts:preset=v0.2", count: int = 60, reference: int = 64_000,
         other: str | None = None) -> int:
    try:
        opts = {"params": params_from_spec(spec)}
        other_opts = {"params": params_from_spec(other)} if other else None
    except ValueError as exc:
        print(f"decision_agreement.py: {exc}", file=sys.stderr)
        return 2
    found = positions(count)
    start = time.process_time()
    ref = [search(s, iterations=reference, seed=REFERENCE_SEED, **opts) for s in found]
    print(f"{spec}: {len(found)} positions, reference {reference:,} iterations "
          f"({(time.process_time() - start) / len(found):.2f} s CPU each)")
    print(f"{'iterations':>10}  {'same decision':>13}  {'win chance given up':>19}")
    for n in budgets(reference):
        same, lost = compare(found, ref, n, opts)
        print(f"{n:>10,}  {100 * same:>12.0f}%  {100 * lost:>18.2f}%", flush=True)
    if other_opts is not None:
        same, lost = compare(found, ref, reference, other_opts)
        print(f"{other} at {reference:,}: {100 * same:.0f}% the same decision, "
              f"{100 * lost:.2f}% given up")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.join(HERE, "..", "bench"))
    from _args import read_args, text, whole
    sys.exit(main(*read_args(__doc__, sys.argv[1:], ("SPEC", text, "ismcts:preset=v0.2"),
                             ("POSITIONS", whole, 60), ("REFERENCE", whole, 64_000),
                             ("OTHER", text, None))))
