"""How far apart are two searches' estimates of one decision? The measurement
behind the ± of a decision's estimate (mcts.searcher.search.estimate_error).

    python bench/estimate_noise.py [POSITIONS] [BUDGETS]

Positions: every fifth decision with a choice of greedy self-play games of 2,
3 and 4 players (games seeded 200, 201, ...). At each, the default search's
most visited decision is searched alone at the root (`root_action`, as a
review searches a decision played) twice with the same budget and two seeds.
For each budget (default 500,2000,10000,20000 iterations) the table gives
the mean gap |e1 - e2| between the two estimates, the standard deviation of
z = (e1 - e2) / sqrt(s1^2 + s2^2) with s the standard errors from the visits
alone (floor 0) and with the search's ± (mcts.searcher.search.estimate_error, its
ESTIMATE_FLOOR), and the floor these searches show: the part of an
estimate's error that more visits do not lower, sqrt((mean (e1 - e2)^2 -
mean (s1^2 + s2^2)) / 2). A ± that means what it says gives z a standard
deviation of about 1 at every budget.
"""
from __future__ import annotations

import math
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
try:        # run as a script: the checkout's ulm if built in place, else the installed one
    import _ulm_path  # noqa: E402,F401
except ModuleNotFoundError:     # imported as bench.NAME (the tests): the checkout is on the path
    pass

import ulm  # noqa: E402
from mcts import search  # noqa: E402
from mcts.play.bots import make_bot  # noqa: E402
from mcts.searcher.search import estimate_error  # noqa: E402


def positions(count: int) -> list:
    out, game = [], 0
    while len(out) < count:
        players = 2 + game % 3
        state = ulm.Game(players=players).new_game(200 + game)
        bots = [make_bot(f"greedy:seed={p}") for p in range(players)]
        k = 0
        for _ in ulm.decision_steps(state):
            if len(out) >= count:
                break
            if len(state.legal_actions()) > 1:
                k += 1
                if k % 5 == 0:
                    out.append(state.clone())
            state.apply_action(bots[state.current_player()].choose(state.clone()))
        game += 1
    return out


def errors(stats, floor=None) -> float:
    return estimate_error(stats.value, stats.visits) if floor is None else \
        estimate_error(stats.value, stats.visits, floor=floor)


def main(count: int = 40, budgets: tuple = (500, 2000, 10000, 20000)) -> None:
    states = positions(count)
    print(f"{len(states)} positions: the most visited decision searched alone twice "
          "(two seeds, the same budget)")
    print(f"{'iterations':>10}  {'mean gap':>8}  {'sd z, visits':>12}  {'sd z, ±':>8}  "
          f"{'floor':>6}  (points)")
    for n in budgets:
        gaps, sampled, full = [], [], []
        for k, state in enumerate(states):
            choice = search(state, iterations=n, seed=k).best_action
            a = search(state, iterations=n, seed=1000 + k, root_action=choice).best
            b = search(state, iterations=n, seed=2000 + k, root_action=choice).best
            gaps.append(a.estimate - b.estimate)
            sampled.append(errors(a, 0.0) ** 2 + errors(b, 0.0) ** 2)
            full.append(errors(a) ** 2 + errors(b) ** 2)
        sd_sampled = math.sqrt(statistics.mean(g * g / v for g, v in zip(gaps, sampled)))
        sd_full = math.sqrt(statistics.mean(g * g / v for g, v in zip(gaps, full)))
        floor = math.sqrt(max(statistics.mean(g * g for g in gaps) - statistics.mean(sampled),
                              0.0) / 2)
        print(f"{n:>10}  {100 * statistics.mean(map(abs, gaps)):8.2f}  {sd_sampled:12.2f}  "
              f"{sd_full:8.2f}  {100 * floor:6.2f}")


if __name__ == "__main__":
    from _args import read_args, whole, wholes
    main(*read_args(__doc__, sys.argv[1:], ("POSITIONS", whole, 40),
                    ("BUDGETS", wholes, (500, 2000, 10000, 20000))))
