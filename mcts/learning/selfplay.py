"""Self-play games of a searching bot, recorded as a data set for training.

Every seat is played by the same bot spec (default `DEFAULT_SPEC`: the v0.2
search at a small budget). At each turn start (the positions where the
search's rollouts are cut off and evaluated; a share `sample` of them) the
position is encoded (mcts.searcher.features) and kept with the game's final outcome.
With ``horizon`` H > 0 the row is instead the state where the search's
rollout from that turn start is cut off (``_search.rollout_to_horizon``: the
heuristic policy plays H turns, chance from ``derive_seed(game seed, step,
HORIZON_STREAM)``), still with the outcome of the game played from the turn
start: a model fitted to such rows tells, from what the search sees at its
cut-off, how the game goes when it is played well from the tree's leaf, not
how the rollout policy would finish it. Cut-offs at the end of the game are
not kept (the search scores those by their outcome).

With ``value_iterations`` V > 0 every row also gets ``value``: each seat's win
chance as the self-play bot's own search (its options, V iterations, seed
``derive_seed(game seed, step, VALUE_STREAM)``) sees the row's position, for
the seat to move there: the win chances of the decision it would take (the
most visited one). A target of far less noise than the outcome, which also
carries the luck of the rest of the game (``mcts.learning.train``, ``target``).

Reproducible: game g of a run of seed S is dealt from
``derive_seed(S, g)``; every seat's bot is reseeded from its spec's seed, that
game seed and the seat (mcts.play.bot_game.bot_seed, as in tournaments); the
sample of turn starts draws from ``derive_seed(game seed, step, SAMPLE_STREAM)``.
Games are played on the tournaments' local pool or a Dask cluster
(mcts.play.pool.play_games) and put in game order, so the data set is the
same for any number of workers.

The data set (``save_dataset`` / ``load_dataset``; numpy .npz, one row per
position; N players, F = mcts.searcher.features.feature_count(N)):

==============  ===========  ==================================================
array           shape        meaning
==============  ===========  ==================================================
features        (R, F) f4    the neutral feature vector (mcts.searcher.features.encode)
base_features   (R, N, 28)   the 14-feature evaluation's inputs of every seat
                f4           (mcts.searcher._search.eval_features_of, with "x left")
eval_win        (R, N) f4    the v0.2 evaluation's win chance of every seat
eval_score      (R, N) f4    the v0.2 evaluation's predicted final score
win             (R, N) f4    the game's outcome: 1 for the winner, 1/k for
                             each of k shared winners, else 0 (targets)
rank            (R, N) f4    final rank, 1 = winner, ties share the mean place
score           (R, N) f4    final score (VP)
game            (R,) i4      game index within the run
game_seed       (R,) u8      seed of the game's deal
round           (R,) i1      round of the position (0..9)
turn_player     (R,) i1      seat to move
value           (R, N) f4    only with value_iterations: each seat's win
                             chance by a search of the position (above)
meta            ()  str      JSON: format, layout version, players, variant,
                             bot spec, seed, games, sample, horizon and
                             value_iterations (0 in files without them),
                             feature count
==============  ===========  ==================================================
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from ulm import derive_seed
from ulm.errors import OptionError

from mcts.searcher import features as F
from mcts.searcher.model import read_npz, write_npz
from mcts.searcher.search import MAX_ITERATIONS

DATASET_FORMAT = "ulm-selfplay/1"
DEFAULT_SPEC = "ismcts:preset=v0.2,iterations=300"
SAMPLE_STREAM = 1 << 30
HORIZON_STREAM = (1 << 30) + 1
VALUE_STREAM = (1 << 30) + 2


def kept_turn_start(state, seed: int, step: int, sample: float) -> bool:
    """Whether the position before decision `step` of the game dealt by `seed` is a
    row of a data set: a turn start, kept with chance `sample` drawn from its own
    seed stream (so the sample is the same whatever the bots do with theirs)."""
    from mcts.searcher import _search
    return _search.is_turn_start(state) and (
        sample >= 1.0 or (derive_seed(seed, step, SAMPLE_STREAM) >> 11) / 2 ** 53 < sample)


ROW_ARRAYS = ("features", "base_features", "eval_win", "eval_score", "win", "rank", "score",
              "game", "game_seed", "round", "turn_player")
PER_SEAT = ("eval_win", "eval_score", "win", "rank", "score")
OPTIONAL_ARRAYS = ("value",)     # per seat; written only by runs that compute them
BASE_FEATURES = 28               # the 14-feature evaluation's inputs with their "x left" copies


class DatasetError(ValueError):
    """A file that is not a data set of this format, or data sets that do not go together."""


@dataclass
class SelfplayConfig:
    spec: str = DEFAULT_SPEC
    players: int = 2
    games: int = 10
    seed: int = 0
    variant: str = "basic"
    sample: float = 1.0
    horizon: int = 0
    value_iterations: int = 0

    def validate(self) -> None:
        from mcts.play.bots import IsmctsBot, make_bot
        if self.players not in (2, 3, 4):
            raise OptionError("players", message=f"Ulm is for 2, 3 or 4 players, got {self.players!r}")
        from mcts.play.tournament import MAX_GAMES
        if not isinstance(self.games, int) or not 1 <= self.games <= MAX_GAMES:
            raise OptionError("games", message=f"a whole number from 1 to {MAX_GAMES:,}, got {self.games!r}")
        from ulm.game import check_variant
        check_variant(self.variant)
        if not 0 < self.sample <= 1:
            raise OptionError("sample", message=f"a share of the turn starts in (0, 1], got {self.sample!r}")
        if not isinstance(self.horizon, int) or not 0 <= self.horizon <= 40:
            raise OptionError("horizon", message=f"turns of rollout, 0 to 40, got {self.horizon!r}")
        if (not isinstance(self.value_iterations, int)
                or not 0 <= self.value_iterations <= MAX_ITERATIONS):
            raise OptionError("value_iterations", message=f"0 to {MAX_ITERATIONS}, "
                             f"got {self.value_iterations!r}")
        try:
            bot = make_bot(self.spec, self.players)
        except ValueError as exc:       # naming the bad part of the spec
            raise OptionError("spec", self.spec, str(exc)) from None
        if self.value_iterations and not isinstance(bot, IsmctsBot):
            raise OptionError("value_iterations", message=f"the values come from the bots' own search, "
                             f"which needs an ismcts bot, got {self.spec}")

    def todo(self) -> list:
        return [(g, derive_seed(self.seed, g), self.players, self.spec, self.variant,
                 self.sample, self.horizon, self.value_iterations) for g in range(self.games)]


def play_selfplay_game(args) -> dict:
    """Play one self-play game; its positions and outcome as arrays (see the module)."""
    import ulm
    from mcts.searcher import _search
    from mcts.play.bots import make_bot
    from mcts.searcher.evaluation import RESIDUAL_WEIGHTS, eval_parameters
    from mcts.play.bot_game import bot_seed, ranks_of
    from mcts.searcher.search import search
    game, game_seed, players, spec, variant, sample, horizon, value_iterations = args
    # ismcts bots where values are searched (SelfplayConfig checks): their determinize
    bots: list[Any] = [make_bot(spec) for _ in range(players)]
    for seat, bot in enumerate(bots):
        bot.reseed(bot_seed(bot.seed, game_seed, seat))
    score_w, win_w = eval_parameters(players, RESIDUAL_WEIGHTS)
    state = ulm.Game(players=players, variant=variant).new_game(game_seed)
    feats, base, ewin, escore, rounds, movers, values = [], [], [], [], [], [], []
    step = 0
    for step in ulm.decision_steps(state):
        if kept_turn_start(state, game_seed, step, sample):
            cut = state if horizon == 0 else _search.rollout_to_horizon(
                state, horizon, derive_seed(game_seed, step, HORIZON_STREAM))
            if not cut.is_terminal():
                feats.append(F.encode(cut))
                base.append([_search.eval_features_of(cut, p) for p in range(players)])
                scores, chances = _search.eval_outcome_of(cut, score_w, win_w)
                escore.append(scores)
                ewin.append(chances)
                rounds.append(cut.round())
                movers.append(cut.turn_player())
                if value_iterations:
                    found = search(cut, iterations=value_iterations,
                                   seed=derive_seed(game_seed, step, VALUE_STREAM),
                                   params=bots[0].params.replace(workers=1))
                    values.append(found.best.win_probability)
        p = state.current_player()
        state.apply_action(bots[p].choose(state.clone()))
    final = state.scores()
    won = state.winners()
    win = [1.0 / len(won) if p in won else 0.0 for p in range(players)]
    ranks = ranks_of(final, state.returns())
    rows = len(feats)
    width = F.feature_count(players)
    out = {
        "game": game, "game_seed": game_seed, "decisions": step,
        "features": np.asarray(feats, dtype=np.float32).reshape(rows, width),
        "base_features": np.asarray(base, dtype=np.float32).reshape(rows, players,
                                                                     BASE_FEATURES),
        "eval_win": np.asarray(ewin, dtype=np.float32).reshape(rows, players),
        "eval_score": np.asarray(escore, dtype=np.float32).reshape(rows, players),
        "win": np.tile(np.asarray(win, dtype=np.float32), (rows, 1)),
        "rank": np.tile(np.asarray(ranks, dtype=np.float32), (rows, 1)),
        "score": np.tile(np.asarray(final, dtype=np.float32), (rows, 1)),
        "round": np.asarray(rounds, dtype=np.int8),
        "turn_player": np.asarray(movers, dtype=np.int8),
    }
    if value_iterations:
        out["value"] = np.asarray(values, dtype=np.float32).reshape(rows, players)
    return out


def run_selfplay(cfg: SelfplayConfig, workers: int = 1, scheduler=None,
                 progress: bool = False) -> dict:
    """Play the run's games (local pool of `workers`, or `scheduler`) and return
    the data set (arrays and "meta", as `save_dataset` writes it)."""
    from mcts.play.pool import play_games
    cfg.validate()
    todo = cfg.todo()
    bar = None
    if progress:
        import tqdm as tqdm_module
        from tqdm import tqdm
        tqdm_module.tqdm.monitor_interval = 0   # no monitor thread before the workers fork
        bar = tqdm(total=len(todo), unit="game", desc="self-play", dynamic_ncols=True,
                   file=sys.stderr)
    games: dict = {}
    positions = 0
    try:
        for result in play_games(todo, workers, scheduler, fn=play_selfplay_game):
            games[result["game"]] = result
            positions += len(result["round"])
            if bar:
                bar.set_postfix_str(f"{positions} positions", refresh=False)
                bar.update(1)
    finally:
        if bar:
            bar.close()
    ordered = [games[g] for g in sorted(games)]
    data: dict[str, Any] = {}     # the row arrays, and "meta" a dict
    for name in ROW_ARRAYS:
        if name in ("game", "game_seed"):
            dtype = np.int32 if name == "game" else np.uint64
            data[name] = np.concatenate([np.full(len(r["round"]), r[name], dtype=dtype)
                                         for r in ordered])
        else:
            data[name] = np.concatenate([r[name] for r in ordered])
    if cfg.value_iterations:
        data["value"] = np.concatenate([r["value"] for r in ordered])
    meta = dict(format=DATASET_FORMAT, layout=F.LAYOUT_VERSION,
                feature_count=F.feature_count(cfg.players), **asdict(cfg),
                decisions=int(sum(r["decisions"] for r in ordered)))
    data["meta"] = meta
    return data


def save_dataset(path, data: dict) -> None:
    """Write a data set to `path` (.npz, compressed) atomically: a failed or
    interrupted write leaves no file behind."""
    path = os.fspath(path)
    arrays = {name: data[name] for name in ROW_ARRAYS + OPTIONAL_ARRAYS if name in data}
    arrays["meta"] = np.array(json.dumps(data["meta"]))
    write_npz(path, arrays, compressed=True)


def load_dataset(path) -> dict:
    """Read a data set written by `save_dataset`; DatasetError names the file
    and what is wrong (`check_dataset`). Arrays of other names are left out."""
    path = os.fspath(path)
    arrays: dict[str, Any] = read_npz(
        path, DatasetError, "self-play data set", memory_bytes(),
        f"more than this machine's memory ({memory_bytes():,} bytes)",
        names=ROW_ARRAYS + OPTIONAL_ARRAYS + ("meta",))
    try:
        meta = json.loads(str(arrays.pop("meta")))
    except (KeyError, ValueError, RecursionError):
        raise DatasetError(f"{path}: not a self-play data set (no meta data)") from None
    if not isinstance(meta, dict) or meta.get("format") != DATASET_FORMAT:
        raise DatasetError(f"{path}: not a self-play data set of format {DATASET_FORMAT}")
    arrays["meta"] = meta
    try:
        check_dataset(arrays)
    except DatasetError as exc:
        raise DatasetError(f"{path}: {exc}") from None
    return arrays


def memory_bytes() -> int:
    """The machine's memory: no data set that cannot fit in it is unpacked."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):     # not known on this system
        return 2 ** 40


WHOLE_ARRAYS = ("game", "game_seed", "round", "turn_player")
SHARES = ("win", "value", "eval_win")     # each seat's share or chance: 0 to 1
SHARE_SUMS = ("win", "value")             # ... adding up to 1 in every row


def check_dataset(data: dict) -> None:
    """Raise DatasetError naming what in `data` (arrays and "meta") departs
    from the documented layout: the description, an array missing, of the
    wrong type or shape, a number not finite, a round, seat, game or share out
    of its range."""
    meta = data.get("meta")
    if not isinstance(meta, dict):
        raise DatasetError("meta: not a JSON object")
    if meta.get("layout") != F.LAYOUT_VERSION:
        raise DatasetError(f"features of layout {meta.get('layout')!r}; this version "
                           f"reads {F.LAYOUT_VERSION}")
    n = meta.get("players")
    if type(n) is not int or n not in (2, 3, 4):
        raise DatasetError(f"players must be 2, 3 or 4, got {n!r}")
    if meta.get("feature_count", F.feature_count(n)) != F.feature_count(n):
        raise DatasetError(f"feature_count: {F.feature_count(n)} for {n} players, got "
                           f"{meta.get('feature_count')!r}")
    missing = [name for name in ROW_ARRAYS if name not in data]
    if missing:
        raise DatasetError(f"missing arrays {', '.join(missing)}")
    rows = np.shape(data["round"])[0] if np.ndim(data["round"]) else -1
    for name in ROW_ARRAYS + OPTIONAL_ARRAYS:
        if name in data:
            _check_rows(name, np.asarray(data[name]), _shape_of(name, rows, n))
    for name, low, high in (("round", 0, 9), ("turn_player", 0, n - 1),
                            ("game", 0, None), ("game_seed", 0, None)):
        _check_range(name, data[name], low, high)
    for name in SHARES:
        if name in data:
            _check_range(name, data[name], 0.0, 1.0)
    for name in SHARE_SUMS:
        if name in data and len(data[name]):
            worst = float(np.abs(data[name].astype(np.float64).sum(axis=1) - 1.0).max())
            if worst > 1e-3:
                raise DatasetError(f"{name}: each row's shares add up to 1, one is off by "
                                   f"{worst:g}")


def _shape_of(name: str, rows: int, players: int) -> tuple:
    if name == "features":
        return (rows, F.feature_count(players))
    if name == "base_features":
        return (rows, players, BASE_FEATURES)
    return (rows, players) if name in PER_SEAT + OPTIONAL_ARRAYS else (rows,)


def _check_rows(name: str, array: np.ndarray, shape: tuple) -> None:
    kinds = "iu" if name in WHOLE_ARRAYS else "fiu"
    if array.dtype.kind not in kinds:
        what = "whole numbers" if name in WHOLE_ARRAYS else "numbers"
        raise DatasetError(f"{name}: {what}, got an array of {array.dtype}")
    if array.shape != shape:
        raise DatasetError(f"{name}: shape {shape}, got {array.shape} (arrays of "
                           "inconsistent shapes)")
    if array.dtype.kind == "f" and not np.isfinite(array).all():
        raise DatasetError(f"{name}: {np.count_nonzero(~np.isfinite(array)):,} numbers not "
                           "finite")


def _check_range(name: str, array: np.ndarray, low, high) -> None:
    if not len(array):
        return
    if array.dtype.kind == "u":         # no negative numbers, and uint64 cannot meet int bounds
        small, large = low, int(array.max())
    else:
        small, large = array.min().item(), array.max().item()
    if small < low or (high is not None and large > high):
        bad = small if small < low else large
        span = f"{low} to {high}" if high is not None else f"at least {low}"
        raise DatasetError(f"{name}: {span}, got {bad}")


def merge_datasets(datasets: list, names: list | None = None) -> dict:
    """One data set of several of the same player count (rows in the order
    given; game indices renumbered so that games of different files stay apart)."""
    if not datasets:
        raise DatasetError("no data set given")
    names = names or [f"data set {i + 1}" for i in range(len(datasets))]
    players = datasets[0]["meta"]["players"]
    for name, d in zip(names, datasets):
        if d["meta"]["players"] != players:
            raise DatasetError(f"{name}: {d['meta']['players']} players; {names[0]} has "
                               f"{players} (fit one player count at a time)")
    if len(datasets) == 1:
        return datasets[0]
    out: dict[str, Any] = {}
    shift = 0
    games = []
    for d in datasets:
        games.append(d["game"].astype(np.int64) + shift)
        shift += int(d["game"].max()) + 1 if len(d["game"]) else 0
    for name in ROW_ARRAYS:
        out[name] = (np.concatenate(games) if name == "game"
                     else np.concatenate([d[name] for d in datasets]))
    for name in OPTIONAL_ARRAYS:    # kept only where every data set has it
        if all(name in d for d in datasets):
            out[name] = np.concatenate([d[name] for d in datasets])
    out["meta"] = dict(datasets[0]["meta"], sources=[d["meta"] for d in datasets])
    return out
