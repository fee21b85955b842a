"""The playouts' sampler (core `sample_legal`): it draws a legal decision
without listing them, and it must draw each legal decision with the same
probability, as drawing from legal_actions() would.

Checked on every decision of seeded random games (2-4 players, basic and
advanced): every drawn decision is legal, every legal decision is drawn, and
the counts fit the uniform distribution (chi-square, summed over all
positions, within 5 standard deviations of its expectation; per position
within a bound that a correct sampler exceeds with probability < 1e-9).
"""
from __future__ import annotations

import math
import random

import pytest

import ulm
from ulm import _fastcore as core

CONFIGS = [(p, v) for p in (2, 3, 4) for v in ("basic", "advanced")]
DRAWS_PER_ACTION = 60


def decision_states(players, variant, games=2, seed=0):
    """Every decision node (clones) of a few seeded random games."""
    rng = random.Random(seed)
    for g in range(games):
        s = ulm.Game(players=players, variant=variant).new_game(1000 * seed + g)
        while not s.is_terminal():
            if s.is_chance_node():
                s.resolve_chance()
                continue
            yield s.clone()
            s.apply_action(rng.choice(s.legal_actions()))


def chi_square(counts, legal, draws):
    expected = draws / len(legal)
    return sum((counts.get(a, 0) - expected) ** 2 / expected for a in legal)


@pytest.mark.parametrize("players,variant", CONFIGS)
def test_sampler_is_uniform_over_legal_actions(players, variant):
    total_stat = 0.0
    total_df = 0
    positions = 0
    for i, s in enumerate(decision_states(players, variant, seed=players)):
        legal = s.legal_actions()
        draws = DRAWS_PER_ACTION * len(legal)
        counts = core.sample_legal_counts(s, draws, 7919 * i + players)
        assert set(counts) == set(legal), f"position {i}: drawn {sorted(counts)} vs legal {legal}"
        assert sum(counts.values()) == draws
        if len(legal) > 1:
            df = len(legal) - 1
            stat = chi_square(counts, legal, draws)
            # a chi-square variable exceeds df + 12 sqrt(2 df) + 40 with probability < 1e-9
            assert stat < df + 12 * math.sqrt(2 * df) + 40, (i, legal, counts)
            total_stat += stat
            total_df += df
        positions += 1
    assert positions > 150
    assert total_df > 500
    z = (total_stat - total_df) / math.sqrt(2 * total_df)
    assert abs(z) < 5, f"summed chi-square {total_stat:.0f} on {total_df} df (z = {z:.2f})"


def test_sampler_has_nothing_to_draw_at_chance_nodes_and_the_end():
    s = ulm.Game(players=2).new_initial_state()
    assert s.is_chance_node()
    assert core.sample_legal_counts(s, 10, 1) == {}
    s = ulm.Game(players=2).new_game(3)
    s.random_playout(3)
    assert s.is_terminal()
    assert core.sample_legal_counts(s, 10, 1) == {}


def test_sampler_detects_a_skewed_draw():
    """The uniformity check has teeth: counts from a sampler that favours the
    first decision fail it."""
    legal = list(range(8))
    draws = DRAWS_PER_ACTION * len(legal)
    skewed = {a: (draws // len(legal)) for a in legal}
    skewed[0] += 60
    skewed[7] -= 60
    df = len(legal) - 1
    assert chi_square(skewed, legal, draws) > df + 12 * math.sqrt(2 * df) + 40
