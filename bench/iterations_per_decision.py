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


def main(argv: list[str]) -> int:
    seconds = float(argv[0]) if argv else 0.02
    players = int(argv[1]) if len(argv) > 1 else 2
    games = int(argv[2]) if len(argv) > 2 else 6
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
    sys.exit(main(sys.argv[1:]))
