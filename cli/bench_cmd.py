"""`ulm bench`: the speed of the core and of the search, reproducibly."""
from __future__ import annotations

import json
import os

import click

from cli import HELP
from mcts.searcher.params import PRESETS
from mcts.searcher.search import NODE_BYTES, VALUE_BYTES, search
from ulm import STATE_BYTES
from ulm.benchmarks import (
    determinizations_per_second,
    midgame_state,
    playouts_per_second,
)
from ulm.game import Game


def signature() -> dict:
    """A fixed, seeded search whose every count must repeat exactly: 5,000
    iterations (random rollouts, seed 12345) at the first push of the 4-player
    game of seed 1, where 12 pushes compete."""
    state = Game(players=4).new_game(1)
    state.apply_action_string("draw")
    state.resolve_chance()
    result = search(state, iterations=5000, seed=12345, rollout="random", workers=1)
    return {"iterations": result.iterations, "tree_nodes": result.tree_nodes,
            "best_action": result.best_action_name, "best_visits": result.best.visits,
            "root_visits": {a.name: a.visits for a in sorted(result.actions,
                                                             key=lambda a: a.action)}}


@click.command("bench", context_settings=HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.option("--quick", is_flag=True, help="Smaller samples (a few seconds in all).")
def bench(as_json, quick):
    """Measure random playouts/s, determinizations/s, ISMCTS iterations/s (1 and all
    cores; random rollouts, and the default search next to the baseline preset),
    bytes per tree node, and print a node-count signature of a fixed search.

    The signature (the root visit counts, tree nodes and best action of a fixed,
    seeded search of the first push of a fixed game) must repeat exactly on
    every machine: a change to it means the search, the rules or the seeding
    changed behaviour (tests/cli/test_cli.py pins it).
    """

    scale = 0.2 if quick else 1.0
    figures: dict = {"cores": os.cpu_count()}
    for n in (2, 3, 4):
        figures[f"playouts_per_second_{n}p"] = round(playouts_per_second(n, games=int(3000 * scale)))
    figures["determinizations_per_second"] = round(determinizations_per_second(count=int(300_000 * scale)))
    opening = Game(players=4).new_game(1)
    opening.apply_action(1)         # the draw is forced (not searched): the first push
    opening.resolve_chance()
    middle = midgame_state(4, seed=1)
    while len(middle.legal_actions()) == 1:     # forced decisions are not searched
        middle.apply_action(middle.legal_actions()[0])
        middle.resolve_chance()
    iters = int(20_000 * scale)
    for label, state in (("opening", opening), ("midgame", middle)):
        r1 = search(state, iterations=iters, seed=1, rollout="random", workers=1)
        figures[f"ismcts_iterations_per_second_{label}_1core"] = round(r1.iterations_per_second)
        for preset in ("default", "baseline"):
            r = search(state, time=1.0 * scale + 0.2, seed=1, params=PRESETS[preset])
            figures[f"ismcts_{preset}_iterations_per_second_{label}"] = round(
                r.iterations_per_second)
    workers = os.cpu_count() or 1
    if workers > 1:
        rk = search(opening, time=2.0 * scale + 0.5, seed=1, rollout="random", workers=workers)
        r1 = search(opening, time=2.0 * scale + 0.5, seed=1, rollout="random", workers=1)
        figures[f"ismcts_iterations_per_second_opening_{workers}cores"] = round(rk.iterations_per_second)
        figures["parallel_speedup"] = round(rk.iterations / max(1, r1.iterations), 2)
    figures["bytes_per_tree_node"] = NODE_BYTES
    figures["bytes_per_tree_node_with_minimax"] = NODE_BYTES + VALUE_BYTES   # the default search
    figures["bytes_per_game_state"] = STATE_BYTES
    figures["signature"] = signature()
    if as_json:
        click.echo(json.dumps(figures, indent=1))
        return
    lines = _labels(figures)
    width = max(len(label) for label in lines.values())
    for k, v in figures.items():
        if k == "signature":
            v = (f"{v['tree_nodes']} nodes after {v['iterations']} iterations, best "
                 f"{v['best_action']!r} with {v['best_visits']} visits; root visits "
                 + " ".join(str(n) for n in v["root_visits"].values()))
        elif isinstance(v, float):
            v = f"{v:.2f}"
        elif isinstance(v, int):
            v = f"{v:,}"
        click.echo(f"{lines[k]:<{width}}  {v}")


# what each figure measures, in words: the players, the position, the rollout
# (docs/speed.md, "What `ulm bench` prints", relates each to its table)
RANDOM_ROLLOUTS = "random rollouts to 2 turns on"
SEARCHES = {"default": "the default search", "baseline": "preset=baseline"}
POSITIONS = {"opening": "4-player opening push", "midgame": "4-player mid-game"}


def _labels(figures: dict) -> dict:
    """Each figure's line: what was measured, for how many players, which rollout."""
    labels = {"cores": "cores",
              "determinizations_per_second": "determinizations/s, 4-player mid-game",
              "parallel_speedup": "speed-up of all cores over 1 (opening, random rollouts)",
              "bytes_per_tree_node": "bytes per tree node",
              "bytes_per_tree_node_with_minimax": "bytes per tree node, with minimax values",
              "bytes_per_game_state": "bytes per game state",
              "signature": "signature (5,000 iterations, 4-player opening, random rollouts)"}
    for key in figures:
        parts = key.split("_")
        if key.startswith("playouts_per_second_"):
            labels[key] = f"random playouts/s, whole {parts[-1][0]}-player basic games"
        elif key.startswith("ismcts_iterations_per_second_"):
            cores = parts[-1].removesuffix("cores").removesuffix("core")
            labels[key] = (f"ISMCTS iterations/s, {POSITIONS[parts[4]]}, {RANDOM_ROLLOUTS}, "
                           f"{cores} core{'s' * (cores != '1')}")
        elif key.startswith("ismcts_") and key.endswith(tuple(POSITIONS)):
            labels[key] = (f"ISMCTS iterations/s, {POSITIONS[parts[-1]]}, "
                           f"{SEARCHES[parts[1]]}, 1 core")
    return labels
