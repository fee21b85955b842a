"""The calibrated evaluation that scores a cut-off rollout.

A linear prediction of each player's final score from N_WEIGHTS features of
the position (`mcts._search.eval_features`: score, end-game points now, coins,
tiles, cards, seals, descendants, river, sparrows, coats, seat order ...,
each also times the share of the game left), and win chances as a softmax of
the predicted scores at a fitted temperature. The weights are data, one set
per player count, in mcts/eval_weights.json; `python bench/calibrate_eval.py`
regenerates them from heuristic self-play (docs/strength.md has the fit).
"""
from __future__ import annotations

import json
import math
from functools import lru_cache
from importlib import resources

from mcts._search import EVAL_WEIGHTS, FEATURE_NAMES, eval_features_of

WEIGHTS_FILE = "eval_weights.json"

__all__ = ["EVAL_WEIGHTS", "FEATURE_NAMES", "WEIGHTS_FILE", "eval_parameters", "predict",
           "win_chances"]


@lru_cache(maxsize=None)
def _table() -> dict:
    with resources.files("mcts").joinpath(WEIGHTS_FILE).open("r", encoding="utf-8") as f:
        return json.load(f)


def eval_parameters(players: int) -> tuple:
    """(weights, temperature) of the evaluation for a game of `players`."""
    entry = _table()["players"].get(str(players))
    if entry is None:
        raise ValueError(f"players: no evaluation weights for {players} players")
    weights = tuple(float(w) for w in entry["weights"])
    if len(weights) != EVAL_WEIGHTS:
        raise ValueError(f"{WEIGHTS_FILE}: {players} players: expected {EVAL_WEIGHTS} weights, "
                         f"got {len(weights)}")
    return weights, float(entry["temperature"])


def predict(state) -> list:
    """The evaluation's predicted final score of every player in `state`."""
    weights, _ = eval_parameters(state.num_players())
    return [sum(w * f for w, f in zip(weights, eval_features_of(state, p)))
            for p in range(state.num_players())]


def win_chances(state) -> list:
    """The evaluation's win chance of every player (softmax of `predict`)."""
    _, temperature = eval_parameters(state.num_players())
    pred = predict(state)
    top = max(pred)
    e = [math.exp((v - top) / temperature) for v in pred]
    return [x / sum(e) for x in e]
