"""The calibrated evaluation that scores a cut-off rollout.

Two linear functions of N_WEIGHTS features of a player's position
(`mcts.searcher._search.eval_features`: score, end-game points now, coins, tiles,
cards, seals, descendants, river, sparrows, coats, seat order ..., each also
times the share of the game left):

* the predicted final score (VP), fitted by least squares;
* the win logit: the players' win chances are the softmax of their logits,
  fitted by maximum likelihood. Its scale is part of the fit, so it is as sure
  of a lead late in the game as the rollouts are, and less sure early on.

Both are fitted to the mean outcome of rollouts of the search's rollout policy
from positions of self-play, so the cut-off predicts what a full rollout would
give on average. The weights are data, one set per player count, in
mcts/searcher/eval_weights.json; `python lab/calibrate_eval.py` regenerates them
(docs/strength.md has the fit). Named sets (`WEIGHT_SETS`) keep copies that do
not move when that file is refitted: "pinned" is the evaluation of the search
of release 0.2 (the `ismcts:preset=v0.2` bot), and the base whose win chances
the shipped learned models correct (RESIDUAL_WEIGHTS).

The learned evaluation (``evaluation="learned"``, the bots' ``eval=learned``)
gives the win chances instead: mcts.searcher.learned. The predicted scores of the
margin term stay the linear function above.
"""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from mcts.searcher._search import EVAL_WEIGHTS, FEATURE_NAMES, eval_outcome_of

WEIGHTS_FILE = "eval_weights.json"
# Named sets of weights: "default" is the current fit, the others are pinned
# copies (a preset that names one keeps its search when the default is refitted).
WEIGHT_SETS: dict[str, str] = {"default": WEIGHTS_FILE, "pinned": "eval_weights_pinned.json"}
# What scores a cut-off rollout: the 14-feature linear function, or the learned model.
EVALUATIONS: tuple[str, ...] = ("linear", "learned")
# The weights whose win chances a residual learned model corrects: those the
# training data records (mcts.learning.selfplay), so refitting "default" moves no model.
RESIDUAL_WEIGHTS = "pinned"

__all__ = ["EVAL_WEIGHTS", "EVALUATIONS", "FEATURE_NAMES", "RESIDUAL_WEIGHTS", "WEIGHTS_FILE",
           "WEIGHT_SETS", "eval_parameters", "predict", "win_chances"]


@lru_cache(maxsize=None)
def _table(name: str = "default") -> dict:
    if name not in WEIGHT_SETS:
        raise ValueError(f"weights: expected one of {', '.join(WEIGHT_SETS)}, got {name!r}")
    with resources.files("mcts.searcher").joinpath(WEIGHT_SETS[name]).open("r", encoding="utf-8") as f:
        return json.load(f)


def eval_parameters(players: int, weights: str = "default") -> tuple:
    """(score weights, win weights) of the evaluation for a game of `players`,
    from the named set `weights` (WEIGHT_SETS)."""
    entry = _table(weights)["players"].get(str(players))
    if entry is None:
        raise ValueError(f"players: no evaluation weights for {players} players")
    out = []
    for name in ("score_weights", "win_weights"):
        values = tuple(float(w) for w in entry[name])
        if len(values) != EVAL_WEIGHTS:
            raise ValueError(f"{WEIGHT_SETS[weights]}: {players} players: {name}: expected "
                             f"{EVAL_WEIGHTS} weights, got {len(values)}")
        out.append(values)
    return tuple(out)


def predict(state) -> list:
    """The evaluation's predicted final score of every player in `state`."""
    return eval_outcome_of(state, *eval_parameters(state.num_players()))[0]


def win_chances(state) -> list:
    """The evaluation's win chance of every player (softmax of the win logits)."""
    return eval_outcome_of(state, *eval_parameters(state.num_players()))[1]
