"""The statistics of tournaments: intervals of win rates and means, with deals
as clusters (duplicate play)."""
from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (successes may be fractional: shared wins)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # exact ends for 0 and n wins (rounding would leave e.g. 5e-17 above a rate of 0)
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return low, high


def mean_interval(values: list[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean with a normal-approximation 95% interval."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    m = sum(values) / n
    if n == 1:
        return m, m, m
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    half = z * sd / math.sqrt(n)
    return m, m - half, m + half


def cluster_win_interval(per_deal: list[tuple[float, int]], z: float = Z95) -> tuple[float, float]:
    """95% interval of a win rate from duplicate play, with deals as clusters.

    Games on one deal are not independent (same cards, same tiles), so the
    spread is taken between deals: each deal contributes (win shares, games).
    The interval is never narrower than Wilson's on the pooled games."""
    wins = sum(w for w, _ in per_deal)
    games = sum(g for _, g in per_deal)
    lo_w, hi_w = wilson_interval(wins, games, z)
    d = len(per_deal)
    if d < 2 or games == 0:
        return lo_w, hi_w
    p = wins / games
    # ratio estimator variance over clusters
    mean_g = games / d
    var = sum((w - p * g) ** 2 for w, g in per_deal) / (d - 1) / (d * mean_g ** 2)
    half = z * math.sqrt(var)
    return min(lo_w, max(0.0, p - half)), max(hi_w, min(1.0, p + half))
