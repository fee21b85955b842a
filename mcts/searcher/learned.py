"""The learned evaluation of the search: the shipped models and the weights
the compiled search reads.

``evaluation="learned"`` (the bots' ``eval=learned``) scores a cut-off with
a linear model over the rich features of mcts.searcher.features (the seats' blocks,
and the same times the share of the game left: ``ulm train fit --model
linear --inputs staged``), fitted to self-play games (the two-player model
to the mean of the outcomes and the search's values, ``--target mix``): one
model per player count, shipped in mcts/searcher/models/ (``LEARNED_MODELS``;
docs/training.md has the commands that made them), or a model file of the
user's (``model=``). A residual model corrects the 14-feature win head of
mcts.searcher.evaluation instead of replacing it. The compiled search evaluates it
without the GIL (``learned_win`` in mcts/searcher/_features.pxi).
"""
from __future__ import annotations

import os
from functools import lru_cache
from importlib import resources

import numpy as np

from mcts.searcher._search import FEATURE_GLOBAL, FEATURE_PLAYER, MAX_HIDDEN_UNITS
from mcts.searcher.model import TrainError, check_model, load_model

# The learned models, by player count (files in the package's models/ folder).
LEARNED_MODELS = {2: "learned-2p-v2.npz", 3: "learned-3p-v2.npz", 4: "learned-4p-v2.npz"}

__all__ = ["LEARNED_MODELS", "is_residual", "learned_model", "learned_weights", "search_weights",
           "shipped_model"]


def shipped_model(name: str) -> str | None:
    """The file of the shipped model `name` (a name of LEARNED_MODELS, with or without
    .npz: ``model=learned-2p-v2`` in a bot spec), None when no shipped model has it."""
    file = name if name.endswith(".npz") else name + ".npz"
    if file not in LEARNED_MODELS.values():
        return None
    return str(resources.files("mcts.searcher").joinpath("models").joinpath(file))


def is_residual(model) -> bool:
    """Does the model correct the 14-feature win head (mcts.learning.train, residual)?"""
    return bool(model.meta.get("residual"))


def search_weights(model) -> tuple:
    """The compiled search's weights of a fitted model (mcts.learning.train.Model of
    rich or staged inputs, linear or mlp; `learned_win_from` in
    mcts/searcher/_features.pxi). The linear part: for each block position k (0: the
    seat's own, then the others in turn order) the weights of that block, then
    those of the block times the share of the game left, each divided by the
    input's standard deviation; the global block and the means add the same
    to every seat's logit and cancel in the softmax, so they are left out. An
    mlp's hidden layer follows: its constants (b1 less the standardised
    means' share), its output weights, then its input weights divided by the
    standard deviations, the global block's, the blocks' and the staged
    blocks', the units of one input together."""
    meta = model.meta
    if meta.get("kind") not in ("linear", "mlp") or meta.get("inputs") not in ("rich", "staged"):
        raise ValueError(f"the search evaluates linear models and mlps of rich or staged "
                         f"inputs, not {meta.get('kind')} of {meta.get('inputs')} inputs")
    check_model(model)      # TrainError (a ValueError) naming what is wrong
    n, g, p = model.players, FEATURE_GLOBAL, FEATURE_PLAYER
    std = np.asarray(model.std, dtype=np.float64)
    scaled = [float(w) / float(s) for w, s in zip(model.params["w"], std)]
    blocks = scaled[g:g + n * p]
    staged = scaled[g + n * p:] if meta["inputs"] == "staged" else [0.0] * (n * p)
    if len(blocks) != n * p or len(staged) != n * p:
        raise ValueError(f"the model has {len(scaled)} weights, not those of {n} players")
    if meta["kind"] == "linear":
        return tuple(blocks + staged)
    w1 = np.asarray(model.params["W1"], dtype=np.float64) / std[:, None]
    hidden = w1.shape[1]
    if hidden > MAX_HIDDEN_UNITS:
        raise ValueError(f"the search evaluates models of up to {MAX_HIDDEN_UNITS} hidden "
                         f"units, not {hidden}")
    const = np.asarray(model.params["b1"], dtype=np.float64) - np.asarray(
        model.mean, dtype=np.float64) @ w1
    w1_staged = w1[g + n * p:] if meta["inputs"] == "staged" else np.zeros((n * p, hidden))
    layer = np.concatenate([const, np.asarray(model.params["v"], dtype=np.float64),
                            w1[:g].ravel(), w1[g:g + n * p].ravel(), w1_staged.ravel()])
    return tuple(blocks + staged) + tuple(layer.tolist())


@lru_cache(maxsize=None)
def learned_model(players: int):
    """The shipped learned model for a game of `players` (mcts.learning.train.Model)."""
    name = LEARNED_MODELS.get(players)
    if name is None:
        raise ValueError(f"players: no learned evaluation for {players} players")
    with resources.as_file(resources.files("mcts.searcher").joinpath("models").joinpath(name)) as path:
        model = load_model(path)
    if model.players != players:
        raise ValueError(f"{name}: a model of {model.players} players, not {players}")
    return model


def learned_weights(players: int, model: str | None = None) -> tuple:
    """(the search's weights (`search_weights`), residual) of the shipped
    learned model, or of the model file `model` (of `ulm train fit`) if given.
    A file is read again when it changes (its time of change or size)."""
    if model is None:
        return _shipped_weights(players)
    try:
        stat = os.stat(model)
    except OSError:
        return _model_weights(players, model, None)     # load_model names the fault
    return _model_weights(players, model, (stat.st_mtime_ns, stat.st_size, stat.st_ino))


@lru_cache(maxsize=None)
def _shipped_weights(players: int) -> tuple:
    shipped = learned_model(players)
    return search_weights(shipped), is_residual(shipped)


@lru_cache(maxsize=64)
def _model_weights(players: int, model: str, version) -> tuple:
    """The weights of a model file as it is at `version` (the cache's key)."""
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
