"""Ratings on the Elo scale from games between bots: the results of every two
seats of a tournament's games (`pair_results`) and a Bradley-Terry fit of
them (`elo_fit`); bench/levels_rating.py rates the levels with them
(mcts.play.levels.RATINGS)."""
from __future__ import annotations

import math


def pair_results(rows: list[dict]) -> dict:
    """Per unordered pair of bots, per deal: (wins of the first by name, games)
    from a tournament's game rows; in a game of more players every two seats
    are one comparison, the better rank winning it (a shared rank: half each)."""
    pairs: dict = {}
    for row in rows:
        bots, ranks = row["bots"], row["ranks"]
        for i in range(len(bots)):
            for j in range(i + 1, len(bots)):
                if bots[i] == bots[j]:
                    continue
                a, b = sorted((i, j), key=lambda s: bots[s])
                win = 1.0 if ranks[a] < ranks[b] else 0.5 if ranks[a] == ranks[b] else 0.0
                deals = pairs.setdefault((bots[a], bots[b]), {})
                w, g = deals.get(row["deal"], (0.0, 0))
                deals[row["deal"]] = (w + win, g + 1)
    return pairs


def elo_fit(totals: dict, anchor: str, prior: float = 0.5) -> dict:
    """Bradley-Terry ratings on the Elo scale, `anchor` at 0, from
    {(a, b): (wins of a, games)}. `prior` games of each played pair are
    counted as drawn, so a bot that lost (or won) every game stays finite."""
    names = sorted({n for pair in totals for n in pair})
    wins = {n: 0.0 for n in names}
    games: dict = {}
    for (a, b), (w, g) in totals.items():
        wins[a] += w + prior / 2
        wins[b] += g - w + prior / 2
        games[a, b] = games[b, a] = games.get((a, b), 0) + g + prior
    strength = {n: 1.0 for n in names}
    for _ in range(2000):       # the MM iteration (Hunter 2004); converges monotonically
        new = {}
        for n in names:
            denom = sum(g / (strength[n] + strength[m]) for (x, m), g in games.items() if x == n)
            new[n] = wins[n] / denom if denom else strength[n]
        scale = new[anchor]
        done = all(abs(new[n] / scale - strength[n]) < 1e-10 for n in names)
        strength = {n: v / scale for n, v in new.items()}
        if done:
            break
    return {n: 400 * math.log10(strength[n]) for n in names}
