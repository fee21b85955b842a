"""pytest-benchmark suites for the rules core.

    pytest bench/bench_core.py --benchmark-only        # the suites
    python bench/bench_core.py                         # a quick table of rates
"""
import pytest

from ulm.benchmarks import (determinizations_per_second, midgame_state, playouts_per_second,
                            run_determinizations, run_playouts)
from ulm.game import Game

GAMES_PER_ROUND = 200


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts(benchmark, players):
    """Complete random games from the opening; games/s = GAMES_PER_ROUND / mean."""
    game = Game(players=players)
    benchmark.extra_info["games_per_round"] = GAMES_PER_ROUND
    benchmark(run_playouts, game, GAMES_PER_ROUND, 1)


def test_determinizations(benchmark):
    state = midgame_state(4)
    benchmark(run_determinizations, state, state.current_player(), 10_000, 1)


def test_clone(benchmark):
    state = midgame_state(4)
    benchmark(state.clone)


if __name__ == "__main__":
    from _args import read_args
    import sys
    read_args(__doc__, sys.argv[1:])        # none; --help
    for n in (2, 3, 4):
        print(f"random playouts, {n} players, basic:    {playouts_per_second(n):10,.0f} games/s")
    print(f"random playouts, 4 players, advanced: {playouts_per_second(4, 'advanced'):10,.0f} games/s")
    print(f"determinizations (4 players):         {determinizations_per_second():10,.0f} /s")
