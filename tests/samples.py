"""Samples for the tests: decision points of seeded random games in every
player count and variant (cached), the example files, `ulm` run through
click's CliRunner, and a planted self-play data set."""
from __future__ import annotations

import json
import random
from functools import lru_cache

import numpy as np
from click.testing import CliRunner
from helpers import EXAMPLES

from cli.main import main
from mcts.learning.selfplay import DATASET_FORMAT
from mcts.searcher import features as F
from ulm import CARDS, COATS
from ulm._fastcore import TASKS
from ulm.game import Game

EXAMPLE_FILES = sorted(p.name for p in EXAMPLES.glob("*.json"))
POSITION_FILES = [n for n in EXAMPLE_FILES if not n.startswith("record")]
CONFIGS = [(n, v) for n in (2, 3, 4) for v in ("basic", "advanced")]
ALL_CARDS = (1 << len(CARDS)) - 1
ALL_COATS = (1 << len(COATS)) - 1
TASK_IDS = {name: code for code, name in TASKS.items()}


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def used(raw: dict) -> dict:
    """raw() with looked_cards / looked_coats cut to their used lengths."""
    raw = dict(raw)
    raw["looked_cards"] = raw["looked_cards"][:raw["n_looked_cards"]]
    raw["looked_coats"] = raw["looked_coats"][:raw["n_looked_coats"]]
    raw["looked_coat_known"] = raw["looked_coat_known"][:raw["n_looked_coats"]]
    return raw


@lru_cache(maxsize=None)
def _random_states(players: int, variant: str, games: int = 4, rate: float = 0.05):
    """Decision points of seeded random games: the set-up, every point with a pending
    sub-decision, the end, and a share of the other points (mid-turn ones included)."""
    out = []
    for g in range(games):
        seed = 1000 * players + 100 * (variant == "advanced") + g
        rng = random.Random(seed)
        st = Game(players=players, variant=variant).new_game(seed)
        out.append(st.clone())
        while not st.is_terminal():
            st.apply_action(rng.choice(st.legal_actions()))
            st.resolve_chance()
            if st.raw()["n_tasks"] or st.is_terminal() or rng.random() < rate:
                out.append(st.clone())
    return tuple(out)


def random_states(players, variant):
    return [s.clone() for s in _random_states(players, variant)]


def all_random_states():
    return [s for n, v in CONFIGS for s in random_states(n, v)]




def example(name: str) -> dict:
    """examples/<name>.json as JSON."""
    return json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))


def planted(players=3, games=120, seed=0):
    """A data set whose winner is the seat with the most coins; 60 other
    entries are noise, the rest 0."""
    rng = np.random.default_rng(seed)
    rows = games * 5
    width = F.feature_count(players)
    x = np.zeros((rows, width), np.float32)
    noisy = rng.choice(width, size=60, replace=False)
    x[:, noisy] = rng.integers(0, 4, size=(rows, 60))
    coins = [F.offset("coins", p) for p in range(players)]
    x[:, coins] = rng.permuted(np.tile(np.arange(players), (rows, 1)), axis=1)
    win = np.eye(players, dtype=np.float32)[x[:, coins].argmax(axis=1)]
    return {"features": x, "base_features": np.zeros((rows, players, 28), np.float32),
            "eval_win": np.full((rows, players), 1 / players, np.float32),
            "eval_score": np.zeros((rows, players), np.float32), "win": win,
            "rank": np.zeros((rows, players), np.float32),
            "score": np.zeros((rows, players), np.float32),
            "game": np.repeat(np.arange(games), 5).astype(np.int32),
            "game_seed": np.zeros(rows, np.uint64), "round": np.zeros(rows, np.int8),
            "turn_player": np.zeros(rows, np.int8),
            "meta": {"format": DATASET_FORMAT, "layout": F.LAYOUT_VERSION, "players": players,
                     "spec": "planted", "seed": seed}}
