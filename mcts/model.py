"""A fitted model of each seat's win chance, and its file.

The inputs of a seat (``seat_inputs``), the logits (``logits``), the
standardisation and parameters (``Model``) and the file (``save_model`` /
``load_model``, format ``MODEL_FORMAT``): what `ulm train` fits
(mcts.train) and what the search's learned evaluation reads
(mcts.learned). mcts.train documents the inputs and the kinds of model.
"""
from __future__ import annotations

import io
import json
import os

import numpy as np

from ulm.jsonfile import write_atomically

from mcts import features as F
from mcts._search import eval_outcome_of
from mcts.evaluation import RESIDUAL_BASE, eval_parameters

MODEL_FORMAT = "ulm-eval-model/1"
EPS = 1e-12
INPUTS = ("rich", "staged", "public", "base")

__all__ = ["EPS", "INPUTS", "MODEL_FORMAT", "Model", "TrainError", "base_logits", "input_width",
           "load_model", "logits", "save_model", "seat_inputs", "softmax", "write_npz"]


class TrainError(ValueError):
    """Settings or data that a fit cannot use."""


def seat_inputs(data: dict, rows, inputs: str) -> np.ndarray:
    """The inputs of every seat for `rows` of a data set: (len(rows), N, D)."""
    n = data["meta"]["players"]
    if inputs == "base":
        return data["base_features"][rows].astype(np.float64)
    z = F.perspectives(data["features"][rows], n).astype(np.float64)
    if inputs == "public":
        z[..., _hidden_columns(n)] = 0.0
    elif inputs == "staged":
        left = z[..., F.offset("game left"), None]
        z = np.concatenate([z, z[..., F.GLOBAL_SIZE:] * left], axis=-1)
    return z


def _hidden_columns(players: int) -> np.ndarray:
    """Columns of a perspective vector the seat cannot know (inputs="public")."""
    pile = F.offset("pile")
    cols = list(range(pile, pile + len(F.CARDS)))
    for k in range(1, players):
        hand = F.offset("hand", k)
        cols += range(hand, hand + len(F.CARDS))
    return np.asarray(cols)


def input_width(players: int, inputs: str) -> int:
    if inputs == "base":
        return 28
    if inputs == "staged":
        return F.feature_count(players) + players * F.PLAYER_SIZE
    return F.feature_count(players)


# ---------------------------------------------------------------------------
# the model

def logits(params: dict, z: np.ndarray, cache: bool = False):
    """Logits (B, N) of standardised inputs z (B, N, D)."""
    out = z @ params["w"]
    h = None
    if "W1" in params:
        h = np.tanh(z @ params["W1"] + params["b1"])
        out = out + h @ params["v"]
    return (out, h) if cache else out


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def base_logits(data: dict, rows, residual: bool):
    """The logits a residual model adds to: log of the v0.2 evaluation's win
    chances of `rows` (None without residual)."""
    if not residual:
        return None
    return np.log(np.clip(data["eval_win"][rows].astype(np.float64), EPS, 1.0))


class Model:
    """A fitted model: standardisation, parameters and what it was fitted to."""

    def __init__(self, params: dict, mean: np.ndarray, std: np.ndarray, meta: dict):
        self.params, self.mean, self.std, self.meta = params, mean, std, meta

    @property
    def players(self) -> int:
        return self.meta["players"]

    def win_chances(self, inputs: np.ndarray, base=None) -> np.ndarray:
        """Win chances (B, N) of raw seat inputs (B, N, D); a residual model
        adds its logits to `base` (log of the v0.2 evaluation's chances)."""
        out = logits(self.params, (inputs - self.mean) / self.std)
        if self.meta.get("residual"):
            if base is None:
                raise TrainError("a residual model needs the v0.2 evaluation's logits")
            out = out + base
        return softmax(out)

    def win_chances_of(self, state) -> list:
        """Win chances of every seat in `state` (full state; rich inputs only)."""
        if self.meta["inputs"] == "base":
            raise TrainError("win_chances_of: only for a model of the rich features")
        n = state.num_players()
        if n != self.players:
            raise TrainError(f"players: the model is for {self.players} players, not {n}")
        data = {"features": F.encode(state)[None, :], "meta": {"players": n}}
        base = None
        if self.meta.get("residual"):
            chances = eval_outcome_of(state, *eval_parameters(n, RESIDUAL_BASE))[1]
            base = np.log(np.clip(np.asarray([chances], dtype=np.float64), EPS, 1.0))
        return self.win_chances(seat_inputs(data, [0], self.meta["inputs"]), base)[0].tolist()


def write_npz(path, arrays: dict, compressed: bool = False) -> None:
    """Numpy arrays into an .npz file, whole or not at all (ulm.jsonfile.write_atomically)."""
    buf = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(buf, **arrays)
    write_atomically(os.fspath(path), buf.getvalue())


def save_model(path, model: Model) -> None:
    """Write a model (.npz) atomically."""
    path = os.fspath(path)
    arrays = {"mean": model.mean, "std": model.std, **model.params,
              "meta": np.array(json.dumps(model.meta))}
    write_npz(path, arrays)


def load_model(path) -> Model:
    path = os.fspath(path)
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
        meta = json.loads(str(arrays.pop("meta")))
    except FileNotFoundError:
        raise TrainError(f"{path}: no such file") from None
    except Exception as exc:    # zip/npy/JSON errors of a file that is not a model
        raise TrainError(f"{path}: not a model file (.npz): {exc}") from None
    if not isinstance(meta, dict) or meta.get("format") != MODEL_FORMAT:
        raise TrainError(f"{path}: not a model of format {MODEL_FORMAT}")
    mean, std = arrays.pop("mean"), arrays.pop("std")
    return Model(arrays, mean, std, meta)
