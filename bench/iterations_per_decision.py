"""Iterations per decision of the default search and the baseline preset at a
time budget, over positions of heuristic games (every tenth decision of the
first 60 of each game).

    python bench/iterations_per_decision.py [SECONDS] [PLAYERS] [GAMES]

Both presets search the same positions one after the other in this process;
on a shared machine the counts fall with the load, so compare them side by
side in one run.
"""
from __future__ import annotations

import sys

try:        # run as a script: the checkout's ulm if built in place, else the installed one
    import _ulm_path  # noqa: E402,F401
except ModuleNotFoundError:     # imported as bench.NAME (the tests): the checkout is on the path
    pass

import ulm  # noqa: E402
from mcts import search  # noqa: E402
from mcts.searcher import _search  # noqa: E402
from mcts.searcher.params import PRESETS  # noqa: E402


def positions(players: int, games: int):
    for seed in range(games):
        state = ulm.Game(players=players).new_game(seed=seed)
        step = 0
        while not state.is_terminal() and step < 60:
            if state.is_chance_node():
                state.resolve_chance()
                continue
            step += 1
            if step % 10 == 0:
                yield state.clone(), step
            state.apply_action(_search.heuristic_action_for(state, seed=step))


def main(seconds: float = 0.02, players: int = 2, games: int = 6) -> int:
    print(f"iterations per decision at {seconds} s, {players} players, "
          f"{games} games x 6 positions")
    counts = {"default": [], "baseline": []}
    for state, step in positions(players, games):
        for preset in counts:
            result = search(state, time=seconds, seed=step, params=PRESETS[preset])
            if not result.forced:
                counts[preset].append(result.iterations)
    for preset, its in counts.items():
        print(f"  {preset:<9} mean {sum(its) / len(its):8,.0f}   min {min(its):7,}   "
              f"max {max(its):7,}   ({len(its)} searches)")
    print(f"  ratio     {sum(counts['default']) / sum(counts['baseline']):.2f}x")
    return 0


if __name__ == "__main__":
    from _args import players, read_args, seconds, whole
    sys.exit(main(*read_args(__doc__, sys.argv[1:], ("SECONDS", seconds, 0.02),
                             ("PLAYERS", players, 2), ("GAMES", whole, 6))))
