"""The learned evaluation of the search: the shipped models and the weights
the compiled search reads.

``evaluation="learned"`` (the bots' ``eval=learned``) scores a cut-off with
a linear model over the rich features of mcts.features (the seats' blocks,
and the same times the share of the game left: ``ulm train fit --model
linear --inputs staged``), fitted to self-play games (the two-player model
to the mean of the outcomes and the search's values, ``--target mix``): one
model per player count, shipped in mcts/models/ (``LEARNED_MODELS``;
docs/training.md has the commands that made them), or a model file of the
user's (``model=``). A residual model corrects the 14-feature win head of
mcts.evaluation instead of replacing it. The compiled search evaluates it
without the GIL (``learned_win`` in mcts/_features.pxi).
"""
from __future__ import annotations

from functools import lru_cache
from importlib import resources

from mcts._search import FEATURE_GLOBAL, FEATURE_PLAYER
from mcts.model import TrainError, load_model

# The learned models, by player count (files in the package's models/ folder).
LEARNED_MODELS = {2: "learned-2p-v2.npz", 3: "learned-3p-v2.npz", 4: "learned-4p-v2.npz"}

__all__ = ["LEARNED_MODELS", "is_residual", "learned_model", "learned_weights", "search_weights"]


def is_residual(model) -> bool:
    """Does the model correct the 14-feature win head (mcts.train, residual)?"""
    return bool(model.meta.get("residual"))


def search_weights(model) -> tuple:
    """The compiled search's weights of a fitted linear model (mcts.train.Model
    of rich or staged inputs): for each block position k (0: the seat's own,
    then the others in turn order) the weights of that block, then those of
    the block times the share of the game left, each divided by the input's
    standard deviation. The global block and the means add the same to every
    seat's logit and cancel in the softmax, so they are left out."""
    meta = model.meta
    if meta.get("kind") != "linear" or meta.get("inputs") not in ("rich", "staged"):
        raise ValueError(f"the search evaluates linear models of rich or staged inputs, not "
                         f"{meta.get('kind')} of {meta.get('inputs')} inputs")
    n, g, p = model.players, FEATURE_GLOBAL, FEATURE_PLAYER
    scaled = [float(w) / float(s) for w, s in zip(model.params["w"], model.std)]
    blocks = scaled[g:g + n * p]
    staged = scaled[g + n * p:] if meta["inputs"] == "staged" else [0.0] * (n * p)
    if len(blocks) != n * p or len(staged) != n * p:
        raise ValueError(f"the model has {len(scaled)} weights, not those of {n} players")
    return tuple(blocks + staged)


@lru_cache(maxsize=None)
def learned_model(players: int):
    """The shipped learned model for a game of `players` (mcts.train.Model)."""
    name = LEARNED_MODELS.get(players)
    if name is None:
        raise ValueError(f"players: no learned evaluation for {players} players")
    with resources.as_file(resources.files("mcts").joinpath("models", name)) as path:
        model = load_model(path)
    if model.players != players:
        raise ValueError(f"{name}: a model of {model.players} players, not {players}")
    return model


@lru_cache(maxsize=None)
def learned_weights(players: int, model: str | None = None) -> tuple:
    """(the search's weights (`search_weights`), residual) of the shipped
    learned model, or of the model file `model` (of `ulm train fit`) if given."""
    if model is None:
        shipped = learned_model(players)
        return search_weights(shipped), is_residual(shipped)
    try:
        fitted = load_model(model)
    except TrainError as exc:
        raise ValueError(f"model: {exc}") from None
    if fitted.players != players:
        raise ValueError(f"model: {model} is a model of {fitted.players} players, not {players}")
    try:
        return search_weights(fitted), is_residual(fitted)
    except ValueError as exc:
        raise ValueError(f"model: {model}: {exc}") from None
