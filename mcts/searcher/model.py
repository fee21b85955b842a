"""A fitted model of each seat's win chance, and its file.

The inputs of a seat (``seat_inputs``), the logits (``logits``), the
standardisation and parameters (``Model``) and the file (``save_model`` /
``load_model``, format ``MODEL_FORMAT``): what `ulm train` fits
(mcts.learning.train) and what the search's learned evaluation reads
(mcts.searcher.learned). mcts.learning.train documents the inputs and the kinds of model.
"""
from __future__ import annotations

import io
import json
import os
import stat
from typing import Optional

import numpy as np

from ulm import jsonfile
from ulm.errors import OptionError
from ulm.jsonfile import write_atomically

from mcts.searcher import features as F
from mcts.searcher._search import eval_outcome_of
from mcts.searcher.evaluation import RESIDUAL_WEIGHTS, eval_parameters

MODEL_FORMAT = "ulm-eval-model/1"
EPS = 1e-12
INPUTS = ("rich", "staged", "public", "base")
KINDS = ("linear", "mlp")
ARRAYS = {"linear": ("mean", "std", "w"), "mlp": ("mean", "std", "w", "W1", "b1", "v")}
MAX_HIDDEN = 1024           # hidden units of an mlp (`ulm train fit --hidden`)
MAX_MAGNITUDE = 1e6         # of every number of a model: fits of standardised inputs stay far
#                             below; it keeps the search's sums of the weights finite
MIN_SPREAD = 1e-6           # the fit gives an input of a smaller deviation the spread 1
MAX_MODEL_BYTES = 64 * 2 ** 20   # an mlp of MAX_HIDDEN units of 4 players is 15 MB

__all__ = ["EPS", "INPUTS", "KINDS", "MAX_HIDDEN", "MODEL_FORMAT", "Model", "TrainError",
           "base_logits", "check_model", "input_width", "load_model", "logits", "save_model",
           "seat_inputs", "softmax", "write_npz"]


class TrainError(OptionError):
    """Settings or data that a fit cannot use (`field`: the fit's setting, or
    None for the data)."""


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
                raise TrainError(None, message="a residual model needs the v0.2 evaluation's logits")
            out = out + base
        return softmax(out)

    def win_chances_of(self, state) -> list:
        """Win chances of every seat in `state` (full state; rich inputs only)."""
        if self.meta["inputs"] == "base":
            raise TrainError("win_chances_of", message="only for a model of the rich features")
        n = state.num_players()
        if n != self.players:
            raise TrainError("players", message=f"the model is for {self.players} players, not {n}")
        data = {"features": F.encode(state)[None, :], "meta": {"players": n}}
        base = None
        if self.meta.get("residual"):
            chances = eval_outcome_of(state, *eval_parameters(n, RESIDUAL_WEIGHTS))[1]
            base = np.log(np.clip(np.asarray([chances], dtype=np.float64), EPS, 1.0))
        return self.win_chances(seat_inputs(data, [0], self.meta["inputs"]), base)[0].tolist()


def write_npz(path, arrays: dict, compressed: bool = False) -> None:
    """Numpy arrays into an .npz file, whole or not at all (ulm.jsonfile.write_atomically)."""
    buf = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(buf, **arrays)
    write_atomically(os.fspath(path), buf.getvalue())


def save_model(path, model: Model) -> None:
    """Write a model (.npz) atomically, only a whole and finite one (`check_model`)."""
    path = os.fspath(path)
    check_model(model)
    arrays = {"mean": model.mean, "std": model.std, **model.params,
              "meta": np.array(json.dumps(model.meta))}
    write_npz(path, arrays)


def load_model(path) -> Model:
    """Read a model file; TrainError names the file and what is wrong with it
    (`check_model`: nothing unchecked reaches a fit's figures or the search)."""
    path = os.fspath(path)
    arrays = _read_npz(path)
    try:
        meta = jsonfile.loads(str(arrays.pop("meta")), "meta", TrainError)
    except KeyError:
        raise TrainError(None, message=f"{path}: not a model file (no meta data)") from None
    except TrainError as exc:
        raise TrainError(None, message=f"{path}: not a model file ({exc})") from None
    if not isinstance(meta, dict) or meta.get("format") != MODEL_FORMAT:
        raise TrainError(None, message=f"{path}: not a model of format {MODEL_FORMAT}")
    model = Model(arrays, arrays.pop("mean", None), arrays.pop("std", None), meta)
    try:
        check_model(model)
    except TrainError as exc:
        raise TrainError(None, message=f"{path}: {exc}") from None
    model.mean, model.std = (np.asarray(a, dtype=np.float64) for a in (model.mean, model.std))
    model.params = {k: np.asarray(v, dtype=np.float64) for k, v in model.params.items()}
    return model


def read_npz(path: str, error: type[Exception], kind: str, limit: int, limit_words: str,
             names: Optional[tuple] = None) -> dict:
    """The arrays of an .npz file (those in `names`, or all), read only when
    their unpacked sizes add up to at most `limit` bytes; anything wrong is an
    `error` naming the file and saying why, the file called a `kind` (a model
    file, a self-play data set) and the limit `limit_words`."""
    try:
        _check_npz_start(path, error, kind)
        z = np.load(path, allow_pickle=False)
        if not isinstance(z, np.lib.npyio.NpzFile):
            raise ValueError("a single array, not an .npz archive")
        with z:
            keep = [k for k in z.files if names is None or k in names]
            archive = z.zip     # an NpzFile read from a file has its zip
            assert archive is not None
            unpacked = sum(archive.getinfo(k + ".npy").file_size for k in keep)
            if unpacked > limit:
                raise error(f"{path}: {unpacked:,} bytes unpacked, {limit_words}")
            return {k: z[k] for k in keep}
    except error:
        raise
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except IsADirectoryError:
        raise error(f"{path}: is a folder, not a {kind}") from None
    except PermissionError:
        raise error(f"{path}: permission denied") from None
    except Exception as exc:    # zip/npy errors of a file that is not one
        raise error(f"{path}: not a {kind} (.npz): {exc}") from None


ZIP_START = b"PK\x03\x04"      # every .npz file is a zip archive and begins so
NPY_START = b"\x93NUMPY"       # a single array (.npy)


def _check_npz_start(path: str, error: type[Exception], kind: str) -> None:
    """Refuse, in the project's words, what is no .npz file at all before numpy
    reads it (numpy would advise loading a text file as pickled data): a
    device or a pipe, an empty file, a single array, any other file."""
    mode = os.stat(path).st_mode        # before opening: a pipe would wait for a writer
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(path)
    if not stat.S_ISREG(mode):
        raise error(f"{path}: a device or a pipe, not a {kind} (.npz)")
    with open(path, "rb") as f:
        start = f.read(len(ZIP_START) + 2)
    if not start:
        raise error(f"{path}: an empty file, not a {kind} (.npz)")
    if start.startswith(NPY_START):
        raise error(f"{path}: a single numpy array (.npy), not a {kind} (an .npz archive)")
    if not start.startswith(ZIP_START):
        what = "a text file" if _looks_like_text(start) else "not a zip archive"
        raise error(f"{path}: {what}, not a {kind} (.npz: a zip archive of arrays)")


def _looks_like_text(start: bytes) -> bool:
    try:
        start.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return all(b >= 32 or b in b"\t\n\r" for b in start)


def _read_npz(path: str) -> dict:
    """The arrays of a model file, each read only if their size is within bounds."""
    return read_npz(path, TrainError, "model file", MAX_MODEL_BYTES,
                    f"larger than a model can be ({MAX_MODEL_BYTES:,} bytes)")


def check_model(model: Model) -> None:
    """Raise TrainError naming what makes `model` unusable: its description
    (kind, inputs, players, layout), an array missing, extra, of the wrong type
    or shape, a number not finite or above MAX_MAGNITUDE, a spread below
    MIN_SPREAD."""
    meta = model.meta
    width, hidden = _check_meta(meta), 0
    arrays = {"mean": model.mean, "std": model.std, **model.params}
    arrays = {k: v for k, v in arrays.items() if v is not None}
    kind = meta["kind"]
    missing = [k for k in ARRAYS[kind] if k not in arrays]
    if missing:
        raise TrainError(None, message=f"missing array{'s' * (len(missing) > 1)} {', '.join(missing)}")
    extra = sorted(set(arrays) - set(ARRAYS[kind]))
    if extra:
        raise TrainError(None, message=f"array{'s' * (len(extra) > 1)} {', '.join(extra)} in a {kind} model")
    if kind == "mlp":
        hidden = np.shape(arrays["W1"])[-1] if np.ndim(arrays["W1"]) == 2 else 0
        if not 1 <= hidden <= MAX_HIDDEN:
            raise TrainError("W1", message=f"1 to {MAX_HIDDEN} hidden units, got shape "
                             f"{np.shape(arrays['W1'])}")
    shapes = {"mean": (width,), "std": (width,), "w": (width,), "W1": (width, hidden),
              "b1": (hidden,), "v": (hidden,)}
    for name in ARRAYS[kind]:
        _check_array(name, arrays[name], shapes[name])
    low = float(np.min(arrays["std"]))
    if low < MIN_SPREAD:
        raise TrainError("std", message=f"a spread of at least {MIN_SPREAD:g} for every input, got {low:g}")


def _check_meta(meta) -> int:
    """The input width of a model's description; TrainError if it is wrong."""
    if not isinstance(meta, dict):
        raise TrainError("meta", message="not a JSON object")
    if meta.get("format") != MODEL_FORMAT:
        raise TrainError("meta", message=f"format {MODEL_FORMAT}, got {meta.get('format')!r}")
    if meta.get("kind") not in KINDS:
        raise TrainError("kind", message=f"one of {', '.join(KINDS)}, got {meta.get('kind')!r}")
    if meta.get("inputs") not in INPUTS:
        raise TrainError("inputs", message=f"one of {', '.join(INPUTS)}, got {meta.get('inputs')!r}")
    players = meta.get("players")
    if type(players) is not int or players not in (2, 3, 4):
        raise TrainError("players", message=f"2, 3 or 4, got {players!r}")
    if meta.get("layout", F.LAYOUT_VERSION) != F.LAYOUT_VERSION:
        raise TrainError("layout", message=f"features of layout {meta.get('layout')!r}; this version "
                         f"reads {F.LAYOUT_VERSION}")
    if not isinstance(meta.get("residual", False), bool):
        raise TrainError("residual", message=f"true or false, got {meta.get('residual')!r}")
    width = input_width(players, meta["inputs"])
    if meta.get("input_width", width) != width:
        raise TrainError("input_width", message=f"{width} for {meta['inputs']} inputs of {players} "
                         f"players, got {meta.get('input_width')!r}")
    return width


def _check_array(name: str, array, shape: tuple) -> None:
    array = np.asarray(array)
    if array.dtype.kind not in "fiu":
        raise TrainError(None, message=f"{name}: numbers, got an array of {array.dtype}")
    if array.shape != shape:
        raise TrainError(None, message=f"{name}: shape {shape}, got {array.shape}")
    if not np.isfinite(array).all():
        raise TrainError(None, message=f"{name}: {np.count_nonzero(~np.isfinite(array))} numbers not finite")
    if array.size and float(np.abs(array).max()) > MAX_MAGNITUDE:
        raise TrainError(None, message=f"{name}: numbers of at most {MAX_MAGNITUDE:g} in size, got "
                         f"{float(np.abs(array).max()):g}")
