"""Speed measurements of the core, shared by `ulm bench` and bench/.

Each function runs its loop in compiled code and returns a rate per second
of wall time on one core.
"""
from __future__ import annotations

import time

from ulm import _fastcore as core
from ulm.game import Game


def run_playouts(game: Game, games: int, seed: int = 1) -> None:
    """Play `games` complete random games from the opening in compiled code."""
    core.bench_playouts(game, games, seed)


def run_determinizations(state: core.State, player: int, count: int, seed: int = 1) -> None:
    """Determinize copies of `state` for `player` `count` times in compiled code."""
    core.bench_determinize(state, player, count, seed)


def run_observations(state: core.State, player: int, count: int) -> None:
    """Write `player`'s observation tensor of `state` `count` times, all in compiled code."""
    core.bench_observation(state, player, count)


def playouts_per_second(players: int = 4, variant: str = "basic", games: int = 2000,
                        seed: int = 1) -> float:
    """Complete random games from the opening (set-up included), uniform random decisions."""
    game = Game(players=players, variant=variant)
    core.bench_playouts(game, max(1, games // 20), seed)  # warm caches
    t0 = time.perf_counter()
    core.bench_playouts(game, games, seed)
    return games / (time.perf_counter() - t0)


def midgame_state(players: int = 4, seed: int = 1, decisions: int = 90) -> core.State:
    """A reproducible mid-game position: seeded random play from a fresh game."""
    import random
    state = Game(players=players).new_game(seed)
    rng = random.Random(core.derive_seed(seed, 0))
    for _ in range(decisions):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
        state.resolve_chance()
    return state


def determinizations_per_second(players: int = 4, count: int = 200_000, seed: int = 1) -> float:
    state = midgame_state(players, seed)
    t0 = time.perf_counter()
    core.bench_determinize(state, state.current_player(), count, seed)
    return count / (time.perf_counter() - t0)
