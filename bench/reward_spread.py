"""How widely one iteration's reward spreads, from a position: the cut-off's
win chance (two rounds of heuristic rollout, then the evaluation) against the
win share of a heuristic rollout to the end. UCB's exploration term has to
match this spread, which is why the default search scales it by the spread it
sees (explore="scaled", docs/strength.md).

    python bench/reward_spread.py PLAYERS [GAMES]

Positions: about 15% of the turn starts of GAMES heuristic self-play games
(seeds 500, 501, ...); from each, 24 rollouts of either kind. Printed per
quarter of the game (by decisions played): the mean over positions of the
standard deviation of the mover's reward, and its mean.
"""
import sys

import numpy as np

try:        # run as a script: the checkout's ulm if built in place, else the installed one
    import _ulm_path  # noqa: E402,F401
except ModuleNotFoundError:     # imported as bench.NAME (the tests): the checkout is on the path
    pass

import ulm  # noqa: E402
from mcts.searcher import _search  # noqa: E402
from mcts.searcher.evaluation import win_chances  # noqa: E402

ROLLOUTS = 24
SHARE = 0.15


def cut_off(state, seed, turns):
    """The mover-independent win chances after `turns` turn starts of heuristic play."""
    s = state.clone()
    s.seed_dealer(seed)
    seen = k = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.resolve_chance()
            continue
        if _search.is_turn_start(s):
            if seen >= turns:
                return win_chances(s)
            seen += 1
        k += 1
        s.apply_action(_search.heuristic_action_for(s, seed * 1000 + k))
    return s.returns()


def main(players, games):
    rng = np.random.default_rng(0)
    rows = {}
    for g in range(games):
        s = ulm.Game(players=players).new_game(seed=500 + g)
        k = 0
        while not s.is_terminal():
            if s.is_chance_node():
                s.resolve_chance()
                continue
            k += 1
            if _search.is_turn_start(s) and rng.random() < SHARE:
                p = s.current_player()
                cut = [cut_off(s, 7 + j, 2 * players)[p] for j in range(ROLLOUTS)]
                full = [_search.playout_outcome(s, 99 + j, "heuristic")[1][p]
                        for j in range(ROLLOUTS)]
                rows.setdefault(min(k // (20 * players), 3), []).append(
                    (np.std(cut), np.std(full), np.mean(cut), np.mean(full)))
            s.apply_action(_search.heuristic_action_for(s, g * 100000 + k))
    print(f"{players} players, {games} games: standard deviation (mean) of the mover's reward")
    print("quarter  positions  cut-off (2 rounds)   rollout to the end")
    for q in sorted(rows):
        a = np.array(rows[q]).mean(0)
        print(f"{q + 1:>7}  {len(rows[q]):>9}  {a[0]:.3f} ({a[2]:.2f})         {a[1]:.3f} ({a[3]:.2f})")
    a = np.array(sum(rows.values(), [])).mean(0)
    print(f"{'all':>7}  {sum(map(len, rows.values())):>9}  {a[0]:.3f} ({a[2]:.2f})         "
          f"{a[1]:.3f} ({a[3]:.2f})")


if __name__ == "__main__":
    from _args import REQUIRED, players, read_args, whole
    main(*read_args(__doc__, sys.argv[1:], ("PLAYERS", players, REQUIRED), ("GAMES", whole, 40)))
