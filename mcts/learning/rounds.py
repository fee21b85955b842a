"""Rounds of expert iteration: self-play, fit, check, and again with the new model.

Round 0's games are played by `first_spec` (the v0.2 search by default); a
residual linear model of staged inputs is fitted to their rows at the
search's cut-off `horizon` turns after each turn start (mcts.learning.selfplay); it
evaluates the search of round 1's games
(``learned_spec`` with ``model=`` the new file), and so on: each round's
search is the previous round's with a better evaluation, and each model is
fitted to the games of the latest `window` rounds. With `value_iterations`
each round's search also gives the values of its positions, and the fits
take ``fit.target`` (mcts.learning.train: outcome, value or their mix). After each
fit, the search with the new model plays a check tournament against
`opponent` (duplicate deals, both sides at the same budget), so the curve
shows strength beside the loss.

Everything is reproducible from `seed`: round r's games come from
``derive_seed(seed, 2 r)`` and its check from ``derive_seed(seed, 2 r + 1)``;
the fits take the round's seed too. Files in `out`: ``data-R.npz``,
``model-R.npz``, ``check-R/`` (a tournament folder) and ``rounds.json`` (the
report, rewritten after every round; a run that stops can be looked at).
"""
from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ulm import derive_seed
from ulm.errors import OptionError
from ulm.jsonfile import write_atomically
from ulm.numbers import shown

from mcts.learning.selfplay import SelfplayConfig, load_dataset, merge_datasets, run_selfplay, save_dataset
from mcts.searcher.model import TrainError, save_model
from mcts.learning.train import FitConfig, fit

FIRST_SPEC = "ismcts:preset=v0.2,iterations=300"
LEARNED_SPEC = "ismcts:eval=learned,horizon=2,minimax=0.3,iterations=300"
OPPONENT = "ismcts:preset=v0.2"


@dataclass
class RoundsConfig:
    players: int = 2
    rounds: int = 3
    games: int = 500                # self-play games a round
    first_spec: str = FIRST_SPEC    # round 0's search
    learned_spec: str = LEARNED_SPEC  # later rounds' search, given model= of the last fit
    window: int = 2                 # rounds of games each fit sees (the latest)
    check_games: int = 100          # games of each round's check (0: none)
    check_budget: str = "iterations=1000"   # both sides' budget in the checks
    opponent: str = OPPONENT
    seed: int = 0
    horizon: int = 2                # the data's rows: the search's cut-off this many turns on
    value_iterations: int = 0       # also search each row (mcts.learning.selfplay); for fit.target
    fit: FitConfig = field(default_factory=lambda: FitConfig(
        kind="linear", inputs="staged", epochs=6, batch=512, lr=1e-3, l2=1e-3, validation=0.1,
        residual=True))

    def validate(self) -> None:
        from mcts.play.bots import make_bot
        for name in ("rounds", "games", "window"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise OptionError(name, value, f"must be a positive whole number, got {value!r}")
        from mcts.play.tournament import MAX_GAMES
        for name, low in (("games", 1), ("check_games", 0)):
            value = getattr(self, name)
            if not isinstance(value, int) or not low <= value <= MAX_GAMES:
                raise OptionError(name, value, f"a whole number from {low} to {MAX_GAMES:,}, "
                                               f"got {value!r}")
        if 0 < self.fit.validation and round(self.fit.validation * self.games) < 1:
            raise OptionError("validation", self.fit.validation,
                              f"{self.fit.validation} of {self.games} games holds out none; "
                              "give more games or validation 0")
        if self.fit.kind != "linear":
            raise OptionError("kind", self.fit.kind,
                              "the search evaluates linear models: fit.kind must be linear")
        if self.fit.target != "outcome" and not self.value_iterations:
            raise OptionError("target", self.fit.target,
                              f"{self.fit.target} needs searched values; give value_iterations")
        # what later rounds play and check with, a shipped model standing in for
        # the fits to come: every spec the run will build is refused now, before
        # round 0's games and fit, never after them
        learned = learned_with_model(self.learned_spec, self.players)
        for name in ("first_spec", "learned_spec"):   # the bots, and the values' search
            try:
                SelfplayConfig(spec=getattr(self, name), players=self.players,
                               horizon=self.horizon,
                               value_iterations=self.value_iterations).validate()
            except OptionError as exc:      # the spec's error is this field's
                if exc.field != "spec":     # self-play's own settings (horizon, ...)
                    raise
                raise OptionError(name, getattr(self, name), exc.message) from None
        check_budget(self.check_budget)
        for name, spec in (("opponent", self.opponent),
                           ("check_budget", _with_budget(self.opponent, self.check_budget))):
            try:
                make_bot(spec, self.players)
            except ValueError as exc:
                raise OptionError(name, getattr(self, name), str(exc)) from None
        for spec in (learned, _with_budget(learned, self.check_budget)):
            try:
                SelfplayConfig(spec=spec, players=self.players, horizon=self.horizon,
                               value_iterations=self.value_iterations).validate()
            except ValueError as exc:
                raise OptionError("learned_spec", self.learned_spec,
                                  f"with the model of a fit: {exc}") from None


BUDGETS = ("iterations", "time")     # what --check-budget may set


def check_budget(budget: str) -> None:
    """ValueError unless `budget` is one budget of a search: iterations=N or
    time=S (its value is checked as the bots' spec checks it)."""
    text = budget.strip() if isinstance(budget, str) else ""
    name, eq, value = text.partition("=")
    if not eq or name.strip() not in BUDGETS or not value.strip() or "," in value:
        raise OptionError("check_budget", budget, f"iterations=N or time=S (one budget for "
                                                  f"both sides of the checks), got {shown(budget)}")


def learned_with_model(spec: str, players: int) -> str:
    """`spec` (the later rounds' search) given model= as each round gives it, the
    shipped model of `players` standing in for a fit; ValueError if the spec is
    no search that takes a model, or names a model of its own."""
    from mcts.play.bots import make_bot
    from mcts.searcher.learned import LEARNED_MODELS
    if isinstance(spec, str) and spec.strip().partition(":")[0].strip() == "level":
        raise OptionError("learned_spec", spec, f"a level is a fixed bot and takes no model of "
                                                f"a fit; give an ismcts spec, e.g. {LEARNED_SPEC}")
    try:
        bot = make_bot(spec)
    except ValueError as exc:
        raise OptionError("learned_spec", spec, str(exc)) from None
    if "model" not in bot.options:
        raise OptionError("learned_spec", spec,
                          f"each round's search evaluates with the model of the last fit "
                          f"(model=), and {bot.name} takes no model; give an ismcts spec, "
                          f"e.g. {LEARNED_SPEC}")
    if bot.config.get("model"):
        raise OptionError("learned_spec", spec, "model= is the last fit's model, added by each "
                                                f"round; leave it out of the spec, got {shown(spec)}")
    stand_in = LEARNED_MODELS[players].removesuffix(".npz")
    return _spec_with(spec, f"model={stand_in}")


def _spec_with(spec: str, extra: str) -> str:
    return f"{spec},{extra}" if ":" in spec else f"{spec}:{extra}"


def _with_budget(spec: str, budget: str) -> str:
    """`spec` searching with `budget` (its own iterations= and time= dropped)."""
    name, _, options = spec.partition(":")
    kept = [o for o in options.split(",") if o and o.split("=")[0].strip() not in
            ("iterations", "time")]
    return _spec_with(":".join([name, ",".join(kept)]) if kept else name, budget)


def run_rounds(cfg: RoundsConfig, out, workers: int = 1, scheduler=None,
               progress: bool = False, log=None) -> dict:
    """Play the rounds into the folder `out`; returns the report (also in
    rounds.json). `log(text)` hears a line per step."""
    from mcts.play.tournament import TournamentConfig, run_tournament
    cfg.validate()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    say = log or (lambda text: None)
    report: dict[str, Any] = {"config": asdict(cfg), "rounds": []}
    spec = cfg.first_spec
    data_files: list[str] = []
    for r in range(cfg.rounds):
        data_path = out / f"data-{r}.npz"
        say(f"round {r}: {cfg.games} self-play games of {spec}")
        data = run_selfplay(SelfplayConfig(spec=spec, players=cfg.players, games=cfg.games,
                                           seed=derive_seed(cfg.seed, 2 * r),
                                           horizon=cfg.horizon,
                                           value_iterations=cfg.value_iterations),
                            workers=workers, scheduler=scheduler, progress=progress)
        save_dataset(data_path, data)
        data_files.append(os.fspath(data_path))
        window = data_files[-cfg.window:]
        merged = merge_datasets([load_dataset(p) for p in window], window)
        fit_cfg = FitConfig(**dict(asdict(cfg.fit), seed=derive_seed(cfg.seed, 2 * r)))
        say(f"round {r}: fitting a {fit_cfg.kind} model to {len(merged['round'])} positions "
            f"of rounds {max(0, r - cfg.window + 1)}-{r}")
        try:
            model, fitted = fit(merged, fit_cfg)
        except TrainError as exc:      # a fit that diverged, rows that leave nothing to fit
            raise type(exc)(None, exc.value, f"round {r}: {exc}") from None
        model_path = out / f"model-{r}.npz"
        save_model(model_path, model)
        row = {"round": r, "spec": spec, "games": cfg.games, "data": os.fspath(data_path),
               "positions": int(len(data["round"])), "model": os.fspath(model_path),
               "fit_positions": int(len(merged["round"])), "epoch_kept": fitted["epoch_kept"],
               "validation": fitted["validation"]}
        spec = _spec_with(cfg.learned_spec, f"model={model_path}")
        if cfg.check_games:
            mine = _with_budget(spec, cfg.check_budget)
            theirs = _with_budget(cfg.opponent, cfg.check_budget)
            say(f"round {r}: checking {mine} against {theirs} ({cfg.check_games} games)")
            summary = run_tournament(
                TournamentConfig(bots=[mine, theirs], players=cfg.players,
                                 games=cfg.check_games, seed=derive_seed(cfg.seed, 2 * r + 1)),
                out / f"check-{r}", workers=workers, progress=progress, scheduler=scheduler)
            me = summary["bots"][0]
            row["check"] = {"bot": mine, "opponent": theirs, "games": me["games"],
                            "win_rate": me["win_rate"], "low": me["win_low"],
                            "high": me["win_high"]}
            say(f"round {r}: won {100 * me['win_rate']:.1f}% [{100 * me['win_low']:.0f}, "
                f"{100 * me['win_high']:.0f}] of {me['games']} games")
        report["rounds"].append(row)
        write_atomically(os.fspath(out / "rounds.json"), json.dumps(report, indent=1) + "\n")
    return report


def plot_rounds(report: dict, path) -> None:
    """The curve of the rounds: validation cross-entropy (the model's and the
    v0.2 evaluation's on the same positions) and the check's win rate with
    its interval, per round, as a PNG."""
    import io

    from ulm.extras import require
    matplotlib = require("matplotlib", "plot", "the rounds' curve")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rounds = [row["round"] for row in report["rounds"]]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(8.5, 3.4), dpi=110)
    ax1.plot(rounds, [row["validation"]["model"] for row in report["rounds"]], "o-",
             label="learned model")
    ax1.plot(rounds, [row["validation"]["eval_v0.2"] for row in report["rounds"]], "s--",
             color="#b5524a", label="v0.2 evaluation")
    ax1.set_xlabel("round")
    ax1.set_xticks(rounds)
    ax1.set_ylabel("validation cross-entropy")
    ax1.legend(fontsize=8)
    checked = [row for row in report["rounds"] if "check" in row]
    if checked:
        x = [row["round"] for row in checked]
        y = [100 * row["check"]["win_rate"] for row in checked]
        err = [[100 * (row["check"]["win_rate"] - row["check"]["low"]) for row in checked],
               [100 * (row["check"]["high"] - row["check"]["win_rate"]) for row in checked]]
        ax2.errorbar(x, y, yerr=err, fmt="o-", capsize=3)
        ax2.axhline(100 / report["config"]["players"], color="gray", linestyle=":")
        ax2.set_title(f"against {checked[0]['check']['opponent']}", fontsize=8)
    ax2.set_xlabel("round")
    ax2.set_xticks(rounds)
    ax2.set_ylabel("win rate % (95% interval)")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    write_atomically(os.fspath(path), buf.getvalue())
