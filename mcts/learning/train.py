"""Models of each seat's win chance, fitted with numpy to self-play data sets.

A model maps one seat's input vector to a logit; the seats' win chances are
the softmax of their logits (as the 14-feature evaluation does). Inputs:

* ``rich``: the seat's perspective of the position's features
  (mcts.searcher.features.perspective: global block, then the player blocks from that
  seat on);
* ``public``: as rich, without what the seat cannot know: the other seats'
  hand cards and the draw pile's cards (by elimination they would reveal
  those hands) are set to 0 (a check of how much the rich model owes to
  hidden cards; at search time it sees determinized worlds);
* ``staged``: as rich, followed by the player blocks again, each number times
  the share of the game left (the "game left" entry), so a linear model
  weighs a feature differently early and late in the game (as the
  14-feature evaluation does with its "x left" inputs); the compiled search
  evaluates this input with a linear model (``eval=learned``);
* ``base``: the 14-feature evaluation's 28 inputs of that seat (with "x left"),
  to compare with the same data and the same training.

Each input is standardised with the training rows' mean and standard
deviation (stored with the model). Kinds:

* ``linear``: logit = w . z;
* ``mlp``: logit = v . tanh(W z + b) + w . z (one hidden layer and a linear
  skip connection).

With ``residual`` the model is a correction of the v0.2 evaluation: its
logits are added to the logarithms of the v0.2 evaluation's win chances
(``eval_win`` of the data set; in the search, the 14-feature win head), so a
model of zero weights is that evaluation exactly, and `l2` keeps the fit near
it where the data say little.

Training minimises the cross-entropy of the win chances against a target
(``target``) plus `l2` x the squared weights, by mini-batch Adam. Targets:
``outcome``, the games' win shares (mcts.learning.selfplay: 1 for the winner, 1/k for k
shared winners); ``value``, the win chances a search found at the position
(the data set's ``value``, from ``value_iterations``): far less noise, since
the outcome also carries the luck of the rest of the game, but the search's
own beliefs; ``mix``, their mean. The games (not the positions)
are split into training and validation, so positions of one game never sit
on both sides; the model kept is that of the epoch with the lowest
validation cross-entropy (the last epoch without validation). The training
cross-entropy of an epoch is measured on at most TRAIN_SAMPLE of its rows.
Deterministic for a seed: the split, the initial weights and the batches
come from ``numpy.random.default_rng(derive_seed(seed, k))``.

Model files (``save_model``/``load_model``): numpy .npz with the arrays
``mean``, ``std``, ``w`` (linear part) and for an mlp ``W1``, ``b1``, ``v``,
plus ``meta`` (JSON: format ``MODEL_FORMAT``, kind, inputs, layout version,
players, hidden units, the fit's settings and its validation figures).
"""
from __future__ import annotations

import io
import math
import os
from dataclasses import asdict, dataclass

import numpy as np

from ulm import derive_seed
from ulm.jsonfile import write_atomically

from mcts.searcher import features as F
from mcts.searcher.model import (EPS, INPUTS, MAX_HIDDEN, MAX_MAGNITUDE, MODEL_FORMAT, Model, TrainError,
                        base_logits, input_width, logits, seat_inputs, softmax)
from mcts.learning.selfplay import DatasetError, check_dataset

TARGETS = ("outcome", "value", "mix")
STAGES = (("rounds 1-3", 0, 3), ("rounds 4-7", 3, 7), ("rounds 8-10", 7, 10))
TRAIN_SAMPLE = 20000
ADAM = (0.9, 0.999, 1e-8)
MAX_EPOCHS = 10_000
MAX_BATCH = 10_000_000      # positions a mini-batch; more than any data set holds in memory


class FitDiverged(TrainError):
    """A fit whose loss or weights stopped being finite numbers (a step too
    large for the data: the learning rate or the weight decay)."""


@dataclass
class FitConfig:
    kind: str = "mlp"
    hidden: int = 32
    epochs: int = 20
    batch: int = 256
    lr: float = 1e-3
    l2: float = 1e-4
    validation: float = 0.2
    inputs: str = "rich"
    seed: int = 0
    residual: bool = False
    target: str = "outcome"


def init_params(kind: str, width: int, hidden: int, rng) -> dict:
    params = {"w": np.zeros(width)}
    if kind == "mlp":
        params["W1"] = rng.normal(0.0, 1.0 / math.sqrt(width), size=(width, hidden))
        params["b1"] = np.zeros(hidden)
        params["v"] = rng.normal(0.0, 1.0 / math.sqrt(hidden), size=hidden)
    return params


def targets_of(data: dict, target: str = "outcome") -> np.ndarray:
    """The win chances a model is fitted to, one row per position (see the module)."""
    if target not in TARGETS:
        raise TrainError("target", message=f"one of {', '.join(TARGETS)}, got {target!r}")
    if target != "outcome" and "value" not in data:
        raise TrainError("target", message=f"{target} needs searched values, and the data set has none "
                         "(self-play with value_iterations)")
    win = data["win"].astype(np.float64)
    if target == "outcome":
        return win
    value = data["value"].astype(np.float64)
    return value if target == "value" else 0.5 * (win + value)


def cross_entropy(p: np.ndarray, y: np.ndarray) -> float:
    """Mean over rows of -sum_seats y log p."""
    return float(-(y * np.log(np.clip(p, EPS, 1.0))).sum(axis=-1).mean()) if len(y) else math.nan


def gradients(params: dict, z: np.ndarray, y: np.ndarray, l2: float, base=None) -> tuple:
    """(loss, gradients) of the mean cross-entropy plus l2 x squared weights
    (`base`: logits added to the model's)."""
    out, h = logits(params, z, cache=True)
    if base is not None:
        out = out + base
    p = softmax(out)
    loss = -(y * np.log(np.clip(p, EPS, 1.0))).sum(axis=-1).mean()
    d = (p - y * 1.0) / len(y)              # dloss/dlogit; the shares of a row add up to 1
    grads = {"w": np.einsum("bn,bnd->d", d, z)}
    if h is not None:
        grads["v"] = np.einsum("bn,bnh->h", d, h)
        dh = d[..., None] * params["v"] * (1.0 - h * h)
        grads["W1"] = np.einsum("bnd,bnh->dh", z, dh)
        grads["b1"] = dh.sum(axis=(0, 1))
    for name in ("w", "W1", "v"):
        if name in grads:
            grads[name] = grads[name] + 2.0 * l2 * params[name]
            loss += l2 * float((params[name] ** 2).sum())
    return float(loss), grads


# ---------------------------------------------------------------------------
# fitting

def split_games(data: dict, share: float, seed: int) -> tuple:
    """Row indices (training, validation): a share `share` of the games, drawn
    from the seed, is held out."""
    games = np.unique(data["game"])
    rng = np.random.default_rng(derive_seed(seed, 1))
    held = set(rng.permutation(games)[:int(round(share * len(games)))].tolist())
    is_val = np.fromiter((g in held for g in data["game"].tolist()), dtype=bool,
                         count=len(data["game"]))
    return np.flatnonzero(~is_val), np.flatnonzero(is_val)


def _standardisation(data, rows, inputs, chunk=4096) -> tuple:
    width = input_width(data["meta"]["players"], inputs)
    s, s2, count = np.zeros(width), np.zeros(width), 0
    for k in range(0, len(rows), chunk):
        z = seat_inputs(data, rows[k:k + chunk], inputs).reshape(-1, width)
        s += z.sum(axis=0)
        s2 += (z * z).sum(axis=0)
        count += len(z)
    mean = s / max(count, 1)
    std = np.sqrt(np.maximum(s2 / max(count, 1) - mean * mean, 0.0))
    std[std < 1e-6] = 1.0       # constant inputs: left as they are (centred)
    return mean, std


def predict_rows(model: Model, data: dict, rows, chunk: int = 4096) -> np.ndarray:
    """The model's win chances of `rows` of a data set."""
    residual = bool(model.meta.get("residual"))
    out = [model.win_chances(seat_inputs(data, rows[k:k + chunk], model.meta["inputs"]),
                             base_logits(data, rows[k:k + chunk], residual))
           for k in range(0, len(rows), chunk)]
    return np.concatenate(out) if out else np.zeros((0, data["meta"]["players"]))


@np.errstate(over="ignore", invalid="ignore")     # _check_finite stops a fit that diverges
def fit(data: dict, cfg: FitConfig, log=None, progress: bool = False) -> tuple:
    """Fit a model to a data set; returns (Model, report). `log(text)` hears a
    line per epoch."""
    if cfg.kind not in ("linear", "mlp"):
        raise TrainError("kind", message=f"linear or mlp, got {cfg.kind!r}")
    if cfg.inputs not in INPUTS:
        raise TrainError("inputs", message=f"one of {', '.join(INPUTS)}, got {cfg.inputs!r}")
    _check_settings(cfg)
    try:
        check_dataset(data)
    except DatasetError as exc:
        raise TrainError("data", message=f"{exc}") from None
    n = data["meta"]["players"]
    rows = len(data["round"])
    games = len(np.unique(data["game"]))
    y = targets_of(data, cfg.target)
    require_positions(data, "fit")
    train_rows, val_rows = split_games(data, cfg.validation, cfg.seed)
    if len(train_rows) == 0:
        raise TrainError("validation", message=f"leaves no game of {games} for training")
    if cfg.validation > 0 and len(val_rows) == 0:
        raise TrainError("validation", message=f"{cfg.validation} of {games} games holds out none; "
                         "give more games or validation 0")
    width = input_width(n, cfg.inputs)
    mean, std = _standardisation(data, train_rows, cfg.inputs)
    if max(float(np.abs(mean).max()), float(std.max())) > MAX_MAGNITUDE:
        raise TrainError("data", message=f"inputs of a mean or spread above {MAX_MAGNITUDE:g} in size; "
                         "a model cannot hold them")
    params = init_params(cfg.kind, width, cfg.hidden,
                         np.random.default_rng(derive_seed(cfg.seed, 2)))
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    beta1, beta2, eps = ADAM
    order_rng = np.random.default_rng(derive_seed(cfg.seed, 3))
    meta = dict(format=MODEL_FORMAT, players=n, layout=F.LAYOUT_VERSION,
                input_width=width, **asdict(cfg),
                data=dict(positions=rows, games=games, spec=data["meta"].get("spec"),
                          seed=data["meta"].get("seed")))
    model = Model(params, mean, std, meta)
    history = []
    step = 0
    # validation cross-entropy, parameters, epoch
    best: tuple[float, dict | None, int] = (math.inf, None, 0)
    train_probe = train_rows
    if len(train_rows) > TRAIN_SAMPLE:
        probe_rng = np.random.default_rng(derive_seed(cfg.seed, 4))
        train_probe = np.sort(probe_rng.choice(train_rows, TRAIN_SAMPLE, replace=False))
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=cfg.epochs, unit="epoch", desc="fit", dynamic_ncols=True, leave=False)
    try:
        for epoch in range(1, cfg.epochs + 1):
            perm = train_rows[order_rng.permutation(len(train_rows))]
            for k in range(0, len(perm), cfg.batch):
                batch = np.sort(perm[k:k + cfg.batch])
                z = (seat_inputs(data, batch, cfg.inputs) - mean) / std
                loss, grads = gradients(params, z, y[batch], cfg.l2,
                                        base_logits(data, batch, cfg.residual))
                step += 1
                for name, g in grads.items():
                    m, v = moments[name]
                    m *= beta1
                    m += (1 - beta1) * g
                    v *= beta2
                    v += (1 - beta2) * g * g
                    mhat = m / (1 - beta1 ** step)
                    vhat = v / (1 - beta2 ** step)
                    params[name] -= cfg.lr * mhat / (np.sqrt(vhat) + eps)
                _check_finite(loss, params, epoch)
            train_ce = cross_entropy(predict_rows(model, data, train_probe), y[train_probe])
            val_ce = (cross_entropy(predict_rows(model, data, val_rows), y[val_rows])
                      if len(val_rows) else math.nan)
            _check_finite(train_ce if len(val_rows) == 0 else train_ce + val_ce, params, epoch)
            if val_ce < best[0]:
                best = (val_ce, {k: v.copy() for k, v in params.items()}, epoch)
            history.append({"epoch": epoch, "train": round(train_ce, 5),
                            "validation": None if math.isnan(val_ce) else round(val_ce, 5)})
            if bar:
                bar.update(1)
            if log:
                log(f"epoch {epoch:3d}: train cross-entropy {train_ce:.4f}, validation "
                    f"{val_ce:.4f}")
    finally:
        if bar:
            bar.close()
    kept = cfg.epochs
    if best[1] is not None:
        params.update(best[1])
        kept = best[2]
    meta["epoch_kept"] = kept
    report = {"players": n, "kind": cfg.kind, "inputs": cfg.inputs, "positions": rows,
              "games": games, "history": history, "epoch_kept": kept,
              "validation": evaluate(model, data, val_rows, cfg.target),
              "validation_by_stage": {
                  name: evaluate(model, data, val_rows[(data["round"][val_rows] >= lo)
                                                       & (data["round"][val_rows] < hi)],
                                 cfg.target)
                  for name, lo, hi in STAGES}}
    meta["validation"] = report["validation"]
    meta["history"] = history
    return model, report


def _check_settings(cfg: FitConfig) -> None:
    """Refuse settings a fit cannot run with (the command line bounds them too)."""
    if type(cfg.epochs) is not int or not 1 <= cfg.epochs <= MAX_EPOCHS:
        raise TrainError("epochs", message=f"1 to {MAX_EPOCHS:,}, got {cfg.epochs!r}")
    if type(cfg.batch) is not int or not 1 <= cfg.batch <= MAX_BATCH:
        raise TrainError("batch", message=f"1 to {MAX_BATCH:,} positions, got {cfg.batch!r}")
    if cfg.kind == "mlp" and (type(cfg.hidden) is not int or not 1 <= cfg.hidden <= MAX_HIDDEN):
        raise TrainError("hidden", message=f"1 to {MAX_HIDDEN} units, got {cfg.hidden!r}")
    for name, low, high, span in (("lr", 0, None, "above 0"), ("l2", 0, None, "at least 0"),
                                  ("validation", 0, 1, "in [0, 1)")):
        value = getattr(cfg, name)
        if (isinstance(value, bool) or not isinstance(value, (int, float))
                or not math.isfinite(value) or value < low or (name == "lr" and value == 0)
                or (high is not None and value >= high)):
            raise TrainError(None, message=f"{name}: a finite number {span}, got {value!r}")


def _check_finite(loss: float, params: dict, epoch: int) -> None:
    """Stop a fit whose loss or weights are no longer finite numbers of at
    most MAX_MAGNITUDE (what a model file may hold)."""
    if not math.isfinite(loss):
        raise FitDiverged(None, message=f"the fit diverged in epoch {epoch}: the loss is not "
                          "a finite number; "
                          "a smaller learning rate or weight decay may help")
    for name, p in params.items():
        if not np.isfinite(p).all() or float(np.abs(p).max()) > MAX_MAGNITUDE:
            raise FitDiverged(None, message=f"the fit diverged in epoch {epoch}: the weights {name} grew "
                              f"beyond {MAX_MAGNITUDE:g}; a smaller learning rate or weight "
                              "decay may help")


def require_positions(data: dict, what: str) -> None:
    """The one rule of `fit` and `evaluate_model`: a data set of no positions
    (a game keeps none with a tiny sample or a long horizon) has nothing to
    fit or to measure; TrainError saying so."""
    if len(data["round"]) == 0:
        raise TrainError("data", message=f"no positions to {what} (the data sets hold none: "
                         "play more games, or a larger sample or a shorter horizon)")


def evaluate_model(model: Model, data: dict, target: str = "outcome") -> dict:
    """`evaluate` on every position of a data set ("all") and by stage of the
    game ("by_stage"); TrainError for a data set of no positions
    (`require_positions`) or of another player count than the model's."""
    require_positions(data, "evaluate")
    if data["meta"]["players"] != model.players:
        raise TrainError("data", message=f"{data['meta']['players']} players; the model is for "
                         f"{model.players}")
    rows = np.arange(len(data["round"]))
    return {"all": evaluate(model, data, rows, target),
            "by_stage": {name: evaluate(model, data,
                                        rows[(data["round"] >= lo) & (data["round"] < hi)],
                                        target)
                         for name, lo, hi in STAGES}}


def evaluate(model: Model, data: dict, rows, target: str = "outcome") -> dict:
    """Cross-entropy against `target` (`targets_of`) on `rows` of the model, of
    the v0.2 evaluation (recorded in the data set) and of a uniform guess, and
    the targets' own entropy."""
    rows = np.asarray(rows, dtype=np.int64)
    y = targets_of(data, target)[rows]
    n = data["meta"]["players"]
    games = len(np.unique(data["game"][rows])) if len(rows) else 0
    return {"positions": len(rows), "games": games,
            "model": _r(cross_entropy(predict_rows(model, data, rows), y)),
            "eval_v0.2": _r(cross_entropy(data["eval_win"][rows].astype(np.float64), y)),
            "uniform": _r(cross_entropy(np.full(y.shape, 1.0 / n), y)),
            "targets": _r(cross_entropy(y, y))}


def _r(x: float):
    return None if math.isnan(x) else round(x, 5)


def plot_history(report: dict, path) -> None:
    """The training curve (cross-entropy per epoch, training and validation,
    with the v0.2 evaluation's and a uniform guess's on the validation
    positions) as a PNG."""
    from ulm.extras import require
    matplotlib = require("matplotlib", "plot", "the training curve")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    epochs = [h["epoch"] for h in report["history"]]
    fig, ax = plt.subplots(figsize=(5.5, 3.6), dpi=110)
    ax.plot(epochs, [h["train"] for h in report["history"]], "o-", label="training")
    val = [h["validation"] for h in report["history"]]
    if any(v is not None for v in val):
        ax.plot(epochs, [math.nan if v is None else v for v in val], "o-", label="validation")
    v = report["validation"]
    if v["eval_v0.2"] is not None:
        ax.axhline(v["eval_v0.2"], color="#b5524a", linestyle="--",
                   label="v0.2 evaluation (validation)")
        ax.axhline(v["uniform"], color="gray", linestyle=":", label="uniform")
    ax.set_xlabel("epoch")
    ax.set_ylabel("cross-entropy of the win chances")
    ax.set_title(f"{report['kind']} on {report['inputs']} inputs, {report['players']} players, "
                 f"{report['positions']} positions", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    write_atomically(os.fspath(path), buf.getvalue())
