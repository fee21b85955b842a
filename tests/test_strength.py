"""Strength regression tests: small duplicate tournaments with fixed seeds.

They are deterministic (every bot is seeded from the deal), so they fail only
when a change makes the searcher weaker (or changes its play). The full-size
results are in docs/strength.md.
"""
import pytest

from mcts.tournament import TournamentConfig, run_tournament


def _win_rate(bots, players, games, seed):
    cfg = TournamentConfig(bots=bots, players=players, games=games, seed=seed)
    summary = run_tournament(cfg, None, workers=2, progress=False)
    return {b["bot"]: b for b in summary["bots"]}


@pytest.mark.slow
def test_ismcts_beats_greedy_two_players():
    res = _win_rate(["ismcts:iterations=500", "greedy"], 2, 12, seed=7)
    assert res["ismcts:iterations=500"]["win_rate"] >= 0.75


@pytest.mark.slow
def test_ismcts_beats_three_greedy_bots_four_players():
    res = _win_rate(["ismcts:iterations=500", "greedy", "greedy", "greedy"], 4, 12, seed=8)
    assert res["ismcts:iterations=500"]["win_rate"] >= 0.5  # baseline 0.25


@pytest.mark.slow
def test_greedy_beats_random():
    res = _win_rate(["greedy", "random"], 2, 20, seed=9)
    assert res["greedy"]["win_rate"] >= 0.9
