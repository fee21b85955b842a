"""The time of one learned evaluation (`eval=learned`), by player count.

    python bench/bench_eval.py [POSITIONS]         # a table: ns per evaluation
    python bench/bench_eval.py [POSITIONS] --model FILE    # a model file of `ulm train fit`
    pytest bench/bench_eval.py --benchmark-only    # the pytest-benchmark suite

Positions come from self-play of the heuristic rollout policy (every third
turn start of games seeded 1, 2, ...); each is evaluated 20,000 times in a
row without the GIL (`learned_win_of(..., repeats=)`), with the shipped model
of its player count (or the linear model or mlp of `--model`, for its player
count), and the table gives the median over the positions of
the CPU time (and the wall time) per evaluation. The instruction count of
one evaluation inside the search is in bench/iteration_cost.py.
"""
from __future__ import annotations

import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
try:        # run as a script: the checkout's ulm if built in place, else the installed one
    import _ulm_path  # noqa: E402,F401
except ModuleNotFoundError:     # imported as bench.NAME (the tests): the checkout is on the path
    pass

from mcts.searcher._search import heuristic_action_for, is_turn_start, learned_win_of  # noqa: E402
from mcts.searcher.learned import learned_weights  # noqa: E402
from mcts.searcher.model import load_model  # noqa: E402
from ulm.game import Game  # noqa: E402

REPEATS = 20_000


def positions(players: int, count: int) -> list:
    """`count` positions: every third turn start of heuristic self-play games."""
    found, seed = [], 0
    while len(found) < count:
        seed += 1
        state = Game(players=players).new_game(seed)
        starts = 0
        while not state.is_terminal() and len(found) < count:
            if state.is_chance_node():
                state.resolve_chance()
                continue
            if is_turn_start(state):
                starts += 1
                if starts % 3 == 0:
                    found.append(state.clone())
            state.apply_action(heuristic_action_for(state, seed=seed + starts))
    return found


def per_evaluation(state, weights, base, repeats: int = REPEATS) -> tuple:
    """(CPU, wall) seconds of one evaluation of `state`, over `repeats`."""
    cpu, wall = time.process_time(), time.perf_counter()
    learned_win_of(state, weights, base, repeats)
    return (time.process_time() - cpu) / repeats, (time.perf_counter() - wall) / repeats


def shipped(players: int, model: str | None = None) -> tuple:
    """(weights, base) of the shipped model (or of the model file `model`): the
    search's weights, and even chances for a residual model to correct (None
    for another)."""
    weights, residual = learned_weights(players, model)
    return (np.ascontiguousarray(weights, dtype=np.float64),
            [1.0 / players] * players if residual else None)


def measure(players: int, count: int = 30, model: str | None = None) -> tuple:
    """Median (CPU, wall) nanoseconds per evaluation over `count` positions."""
    weights, base = shipped(players, model)
    times = [per_evaluation(s, weights, base) for s in positions(players, count)]
    return (1e9 * statistics.median(t[0] for t in times),
            1e9 * statistics.median(t[1] for t in times))


def test_learned_evaluation(benchmark):
    """One 4-player evaluation, REPEATS times a round."""
    weights, base = shipped(4)
    benchmark(learned_win_of, positions(4, 1)[0], weights, base, REPEATS)


def main(count: int = 30, model: str | None = None) -> int:
    print(f"one learned evaluation, median of {count} positions, {REPEATS:,} evaluations each")
    if model is not None:
        try:
            fitted = load_model(model)
            cpu, wall = measure(fitted.players, count, model)
        except ValueError as exc:      # not a model file, or not one the search evaluates
            print(f"bench_eval.py: {exc}", file=sys.stderr)
            return 2
        units = fitted.params["v"].shape[0] if "v" in fitted.params else 0
        kind = f"mlp of {units} hidden units" if units else "linear model"
        print(f"  {model} ({kind}), {fitted.players} players: {cpu:7,.0f} ns CPU  "
              f"{wall:7,.0f} ns wall")
        return 0
    for players in (2, 3, 4):
        cpu, wall = measure(players, count)
        print(f"  {players} players: {cpu:7,.0f} ns CPU  {wall:7,.0f} ns wall")
    return 0


if __name__ == "__main__":
    from _args import read_args, text, whole
    sys.exit(main(*read_args(__doc__, sys.argv[1:], ("POSITIONS", whole, 30),
                             ("--model", text, None))))
