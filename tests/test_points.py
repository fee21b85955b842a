"""Each root decision in points (mcts/_tree.pxi `root_points`, mcts/search.py
ActionStats.expected_score / margin / points_by_source): the figures are the
means over the iterations through the decision of the final scores (at a
cut-off: the evaluation's predicted final scores), recounted here one
iteration at a time."""
import math
import random
import sys
from pathlib import Path

import pytest

import ulm
from mcts.search import POINT_SOURCES, action_name, search

sys.path.insert(0, str(Path(__file__).resolve().parent))
from helpers import edit  # noqa: E402

FULL = {"horizon": -1}      # rollouts to the end of the game: final scores
CUT = {}                    # the default search: rollouts cut off, scored by the evaluation


def opening(players: int = 2, seed: int = 1):
    state = ulm.Game(players=players, variant="basic").new_game(seed)
    state.apply_action(1)           # the draw (forced)
    state.resolve_chance()
    return state


def recount(tree, iterations: int) -> dict:
    """Grow `tree` one iteration at a time; per root decision, the scores of
    the iterations through it, read from the growth of the search's totals
    (`totals`: the scores of every iteration) and of the decision's count."""
    def counts():
        return {row[0]: row[5] for row in tree.root_stats()}
    seen: dict = {}
    scores, n = tree.totals()[1], counts()
    for _ in range(iterations):
        assert tree.run(1) == 1
        after, n_after = tree.totals()[1], counts()
        grown = [k for k in n_after if n_after[k] != n.get(k, 0)]
        assert len(grown) == 1
        seen.setdefault(grown[0], []).append([a - b for a, b in zip(after, scores)])
        scores, n = after, n_after
    return seen


def margin(scores, me):
    return scores[me] - max(s for p, s in enumerate(scores) if p != me)


@pytest.mark.parametrize("options", [FULL, CUT], ids=["to the end", "cut off"])
@pytest.mark.parametrize("players", [2, 4])
def test_the_point_sums_are_those_of_the_iterations_through_each_decision(options, players):
    state = opening(players)
    tree = search(state, iterations=1, seed=5, **options).tree
    me = tree.root_player
    before = tree.root_points()
    seen = recount(tree, 300)
    after = tree.root_points()
    assert len(seen) > 1
    for key, rows in seen.items():
        scores0, margin0, square0, _ = before.get(key, [[0.0] * players, 0.0, 0.0, None])
        scores, margin_sum, square_sum, _ = after[key]
        assert [a - b for a, b in zip(scores, scores0)] == pytest.approx(
            [sum(r[p] for r in rows) for p in range(players)], rel=1e-9, abs=1e-6)
        assert margin_sum - margin0 == pytest.approx(sum(margin(r, me) for r in rows), abs=1e-6)
        assert square_sum - square0 == pytest.approx(sum(margin(r, me) ** 2 for r in rows),
                                                     rel=1e-9, abs=1e-6)
        if options is FULL:         # the end of the game: whole points
            assert all(float(x).is_integer() for r in rows for x in r)
    if options is CUT:              # the evaluation's predicted scores, not whole points
        assert not all(float(x).is_integer() for rows in seen.values() for r in rows for x in r)


@pytest.mark.parametrize("options", [FULL, CUT], ids=["to the end", "cut off"])
def test_each_decision_shows_its_mean_points_margin_and_sources(options):
    result = search(opening(2), iterations=600, seed=2, **options)
    tree, me = result.tree, result.player
    sums = tree.root_points()
    counted = {row[0]: row[5] for row in tree.root_stats()}
    for a in result.actions:
        n = counted[a.action]
        scores, margin_sum, square_sum, sources = sums[a.action]
        assert a.expected_score == pytest.approx([s / n for s in scores])
        assert a.margin == pytest.approx(margin_sum / n)
        spread = square_sum / n - (margin_sum / n) ** 2
        assert a.margin_error == pytest.approx(math.sqrt(max(spread, 0.0) / n))
        assert len(a.points_by_source) == len(POINT_SOURCES)
        # the sources add up to the decision's points; nothing forecast at the end
        assert sum(a.points_by_source) == pytest.approx(a.expected_score[me])
        if options is FULL:
            assert a.points_by_source[-1] == pytest.approx(0.0, abs=1e-9)
        data = a.to_dict()
        assert data["expected_score"] == list(a.expected_score)
        assert data["margin"] == a.margin and data["margin_error"] == a.margin_error
    data = result.to_dict()["points_breakdown"]
    best, rival = result.actions[0], result.actions[1]
    assert (data["decision"], data["rival"]) == (best.name, rival.name)
    for row in data["by_source"]:
        i = POINT_SOURCES.index(row["source"])
        assert row["decision"] == best.points_by_source[i]
        assert row["difference"] == pytest.approx(best.points_by_source[i] - rival.points_by_source[i])


def test_a_search_without_points_is_the_same_search():
    from mcts._search import Searcher
    state = opening(2)
    with_points, without = Searcher(state, seed=3), Searcher(state, seed=3, points=False)
    with_points.run(400)
    without.run(400)
    assert with_points.root_stats() == without.root_stats()
    assert without.root_points() == {} and with_points.root_points()
