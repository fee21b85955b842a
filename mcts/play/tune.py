"""Tuning bot options by tournaments, with optuna.

    cfg = TuneConfig(bot="ismcts:time=0.05", params=[parse_param("c=0.2:2.0", "ismcts")],
                     against=["ismcts:preset=baseline,time=0.05"], players=2,
                     games_per_trial=40, trials=30, seed=1)
    best = run_tune(cfg, "tune-c")          # resumable: run again to continue

Each trial is one tournament (mcts.play.tournament, duplicate deals) between the bot
with the trial's option values and the `against` bots; its objective is the
bot's win rate. Every trial plays the same deals (common random numbers), so
trials differ by their options and the bots' own randomness, not by the luck
of the deal. Optuna's TPE sampler proposes the options; it handles ranges of
floats and whole numbers, log scales and choices, and its sqlite storage
(``study.db`` in the output folder) makes a study resumable for free.

Which options can be tuned comes from the bot option table (mcts.play.bots): every
option of the bot except the budget and the plumbing (``iterations``,
``time``, ``workers``, ``seed``). A numeric option takes ``NAME=LOW:HIGH``
(``:log`` for a log scale); any option takes a choice ``NAME=A|B|C``.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

from ulm.errors import OptionError
from ulm.extras import installed, require
from ulm.jsonfile import read_json, write_atomically
from ulm.names import did_you_mean

from mcts.play.tournament import MAX_GAMES, TournamentConfig, TournamentError, run_tournament

MAX_TRIALS = MAX_GAMES      # a trial plays one game at least: the bound of a tournament's games

NOT_TUNABLE = ("iterations", "time", "workers", "seed")


class TuneError(OptionError):
    """Bad tuning settings (`field`: the setting of TuneConfig; exit status 2
    in the CLI)."""


@dataclass
class Param:
    """One option to tune: a range (kind 'int' or 'float') or a list of choices."""
    name: str
    kind: str                     # "int", "float" or "choice"
    low: float | None = None
    high: float | None = None
    log: bool = False
    choices: list = field(default_factory=list)

    def suggest(self, trial):
        if self.kind == "choice":
            return trial.suggest_categorical(self.name, self.choices)
        if self.kind == "int":
            return trial.suggest_int(self.name, int(self.low), int(self.high), log=self.log)
        return trial.suggest_float(self.name, self.low, self.high, log=self.log)

    def text(self) -> str:
        if self.kind == "choice":
            return f"{self.name}=" + "|".join(self.choices)
        return f"{self.name}={_fmt(self.low)}:{_fmt(self.high)}" + (":log" if self.log else "")


def _fmt(x) -> str:
    return f"{x:.6g}" if isinstance(x, float) else str(x)


def _bot_class(spec: str):
    from mcts.play.bots import BOTS, make_bot
    try:
        make_bot(spec)
    except ValueError as exc:
        raise TuneError("bot", message=f"{exc}") from None
    return BOTS[spec.split(":", 1)[0].strip()]


def option_kind(parser) -> str:
    """'int', 'float' or 'choice': what an option's parser accepts."""
    def ok(text):
        try:
            parser(text)
            return True
        except (ValueError, TypeError):
            return False
    if ok("2.5"):
        return "float"
    if ok("2"):
        return "int"
    return "choice"


def tunable_options(bot_name: str) -> dict:
    """{option: kind} of the options of bot `bot_name` that can be tuned."""
    from mcts.play.bots import BOTS
    cls = BOTS[bot_name]
    return {k: option_kind(p.read) for k, p in sorted(cls.options.items()) if k not in NOT_TUNABLE}


def parse_param(text: str, bot_name: str) -> Param:
    """A Param from ``NAME=LOW:HIGH[:log]`` or ``NAME=A|B|C``; TuneError names what is wrong."""
    from mcts.play.bots import BOTS
    where = repr(text)
    name, eq, rest = str(text).partition("=")
    name, rest = name.strip(), rest.strip()
    if not eq or not name or not rest:
        raise TuneError("param", message=f"{where}: write NAME=LOW:HIGH, NAME=LOW:HIGH:log or NAME=A|B|C")
    cls = BOTS[bot_name]
    options = tunable_options(bot_name)
    if name in NOT_TUNABLE and name in cls.options:
        raise TuneError("param", message=f"{where}: {name} is not tuned (it is the budget or plumbing); "
                        f"tunable options of {bot_name}: {', '.join(options) or 'none'}")
    if name not in options:
        hint = did_you_mean(name, options, cutoff=0.4)
        raise TuneError("param", message=f"{where}: {bot_name} has no tunable option {name!r}{hint}; "
                        f"tunable: {', '.join(options) or 'none'}")
    parser = cls.options[name].read
    if "|" in rest:
        choices = [c.strip() for c in rest.split("|")]
        if len(choices) < 2 or any(not c for c in choices) or len(set(choices)) != len(choices):
            raise TuneError("param", message=f"{where}: a choice needs two or more distinct values A|B|...")
        for c in choices:
            try:
                parser(c)
            except ValueError as exc:
                raise TuneError("param", message=f"{where}: {exc}") from None
        return Param(name, "choice", choices=choices)
    kind = options[name]
    if kind == "choice":
        raise TuneError("param", message=f"{where}: {name} is not a number; give its choices as {name}=A|B")
    parts = [p.strip() for p in rest.split(":")]
    log = len(parts) == 3 and parts[2] == "log"
    if len(parts) not in (2, 3) or (len(parts) == 3 and not log):
        raise TuneError("param", message=f"{where}: a range is LOW:HIGH or LOW:HIGH:log")
    try:
        low, high = (int(p) if kind == "int" else float(p) for p in parts[:2])
    except ValueError:
        kinds = "whole numbers" if kind == "int" else "numbers"
        raise TuneError("param", message=f"{where}: LOW and HIGH must be {kinds}"
                        f", got {parts[0]!r} and {parts[1]!r}") from None
    if not (math.isfinite(low) and math.isfinite(high)) or not low < high:
        raise TuneError("param", message=f"{where}: LOW must be below HIGH, got {parts[0]} and {parts[1]}")
    for v in parts[:2]:
        try:
            parser(v)
        except ValueError as exc:
            raise TuneError("param", message=f"{where}: {exc}") from None
    if log and low <= 0:
        raise TuneError("param", message=f"{where}: a log scale needs LOW > 0, got {parts[0]}")
    return Param(name, kind, low=low, high=high, log=log)


@dataclass
class TuneConfig:
    bot: str
    params: list
    against: list
    players: int = 2
    games_per_trial: int = 40
    trials: int = 30
    seed: int = 0
    # NAME -> COMMAND of the engine programs the opponents name (engine:NAME): part of
    # the study, as a tournament keeps them, so a resumed study runs the same programs
    engines: dict | None = None

    def settings(self) -> dict:
        """What fixes the study (a rerun must match it); `trials` may grow."""
        out = {"bot": self.bot, "params": [p.text() for p in self.params],
               "against": list(self.against), "players": self.players,
               "games_per_trial": self.games_per_trial, "seed": self.seed}
        if self.engines:
            out["engines"] = dict(self.engines)
        return out


def validate(cfg: TuneConfig) -> None:
    _bot_class(cfg.bot)
    if not cfg.params:
        raise TuneError("param", message="give at least one option to tune, e.g. c=0.2:2.0")
    names = [p.name for p in cfg.params]
    if len(set(names)) != len(names):
        raise TuneError("param", message=f"an option is given twice: {', '.join(names)}")
    _, _, opts = cfg.bot.partition(":")
    fixed = {o.split("=")[0].strip() for o in opts.split(",") if o.strip()}
    for n in names:
        if n in fixed:
            raise TuneError("param", message=f"{n}: the bot spec already sets {n}")
    if not cfg.against:
        raise TuneError("against", message="name at least one opponent")
    tc = TournamentConfig(bots=[cfg.bot] + list(cfg.against), players=cfg.players,
                          games=cfg.games_per_trial, seed=cfg.seed, engines=cfg.engines)
    try:
        from mcts.play.tournament import validate_config
        validate_config(tc)
    except TournamentError as exc:      # the tournament's settings, as a study's
        setting = {"bots": "against", "games": "games_per_trial"}.get(exc.field or "", exc.field)
        raise TuneError(setting, exc.value, exc.message) from None
    if type(cfg.trials) is not int or not 1 <= cfg.trials <= MAX_TRIALS:
        raise TuneError("trials", message=f"a whole number from 1 to {MAX_TRIALS:,}, "
                                          f"got {cfg.trials!r}")


def trial_spec(bot: str, values: dict) -> str:
    """The bot spec with the trial's option values appended."""
    sep = "," if ":" in bot else ":"
    return bot + sep + ",".join(f"{k}={_fmt(v)}" for k, v in values.items())


def play_trial(cfg: TuneConfig, spec: str, out_dir: Path | None, workers: int = 1,
               scheduler=None) -> dict:
    """One trial: `spec` against cfg.against on the study's deals; the bot's summary row."""
    tc = TournamentConfig(bots=[spec] + list(cfg.against), players=cfg.players,
                          games=cfg.games_per_trial, seed=cfg.seed, engines=cfg.engines)
    sub = None
    if out_dir is not None:  # named by the spec, so a repeated trial resumes its games
        sub = out_dir / "trials" / hashlib.sha1(spec.encode()).hexdigest()[:12]
    summary = run_tournament(tc, sub, workers=workers, progress=False, scheduler=scheduler)
    return summary["bots"][0] | {"games": summary["games"]}


def _study(cfg: TuneConfig, out: Path | None):
    optuna = require("optuna", "tune", "ulm tune")
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        conf = out / "tune.json"
        if conf.exists():
            old = read_json(conf, TuneError)
            if old != cfg.settings():
                raise TuneError("out_dir", message=f"{out} holds another study ({conf}); use a new folder "
                                "or the same settings (only the trials may change) to resume")
        else:
            write_atomically(conf, json.dumps(cfg.settings(), indent=1) + "\n")
        storage = f"sqlite:///{(out / 'study.db').resolve()}"
    sampler = optuna.samplers.TPESampler(seed=cfg.seed, n_startup_trials=min(10, max(2, cfg.trials // 3)))
    study = optuna.create_study(study_name="ulm-tune", storage=storage, sampler=sampler,
                                direction="maximize", load_if_exists=True)
    # a trial cut off by an interruption: mark it failed and play its options again
    # first (its games are kept in its folder)
    from optuna.trial import TrialState
    for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        study.tell(t.number, state=TrialState.FAIL)
        study.enqueue_trial(t.params, skip_if_exists=False)
    return study


def run_tune(cfg: TuneConfig, out_dir: str | Path | None = None, *, workers: int = 1,
             progress: bool = True, scheduler=None) -> dict:
    """Run trials until the study has cfg.trials finished ones; returns the best
    ({"spec", "params", "win_rate", "win_low", "win_high", "games", "trial"})."""
    require("optuna", "tune", "ulm tune")  # before anything is written
    from optuna.trial import TrialState
    validate(cfg)
    out = None if out_dir is None else Path(out_dir)
    study = _study(cfg, out)

    def done():
        return len(study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)))

    bar = None
    if progress and done() < cfg.trials:
        from tqdm import tqdm
        bar = tqdm(total=cfg.trials, initial=done(), unit="trial", desc="tune", dynamic_ncols=True)
    try:
        while done() < cfg.trials:
            trial = study.ask()
            values = {p.name: p.suggest(trial) for p in cfg.params}
            spec = trial_spec(cfg.bot, values)
            row = play_trial(cfg, spec, out, workers, scheduler)
            for k in ("win_low", "win_high", "games", "score"):
                trial.set_user_attr(k, row[k])
            trial.set_user_attr("spec", spec)
            study.tell(trial, row["win_rate"])
            if bar is not None:
                bar.update(1)
                bar.set_postfix_str(f"best {study.best_value:.1%}")
            if out is not None:
                write_outputs(study, cfg, out)
    finally:
        if bar is not None:
            bar.close()
    if out is not None:
        write_outputs(study, cfg, out)
    return best_of(study)


def best_of(study) -> dict:
    t = study.best_trial
    return {"spec": t.user_attrs["spec"], "params": dict(t.params), "win_rate": t.value,
            "win_low": t.user_attrs["win_low"], "win_high": t.user_attrs["win_high"],
            "games": t.user_attrs["games"], "trial": t.number}


def trial_rows(study) -> list[dict]:
    from optuna.trial import TrialState
    rows = []
    for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
        rows.append({"trial": t.number, **t.params, "win_rate": t.value,
                     "win_low": t.user_attrs.get("win_low"),
                     "win_high": t.user_attrs.get("win_high"),
                     "games": t.user_attrs.get("games"), "spec": t.user_attrs.get("spec")})
    return rows


def write_outputs(study, cfg: TuneConfig, out: Path) -> None:
    rows = trial_rows(study)
    if not rows:
        return
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(rows[0]))
    w.writeheader()
    w.writerows(rows)
    write_atomically(out / "trials.csv", buf.getvalue())
    write_atomically(out / "best.json", json.dumps(best_of(study), indent=1) + "\n")
    if installed("matplotlib"):  # the plot extra; the command says so when it is missing
        plot_trials(rows, cfg, out / "trials.png")


def plot_trials(rows: list[dict], cfg: TuneConfig, path: Path) -> None:
    """Win rate by trial (with the best so far) and against each tuned option."""
    matplotlib = require("matplotlib", "plot", "trials.png")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import ticker
    n = 1 + len(cfg.params)
    fig, axes = plt.subplots(1, n, figsize=(4 * n, 3.4), dpi=100, squeeze=False)
    axes = axes[0]
    xs = [r["trial"] for r in rows]
    ys = [r["win_rate"] for r in rows]
    best, running = [], -1.0
    for y in ys:
        running = max(running, y)
        best.append(running)
    axes[0].plot(xs, ys, "o", color="#4a7ab5", label="trial")
    axes[0].step(xs, best, where="post", color="#b5524a", label="best so far")
    axes[0].axhline(1 / cfg.players, color="gray", linestyle=":", label=f"1/{cfg.players}")
    axes[0].set_xlabel("trial")
    axes[0].set_ylabel(f"win rate ({cfg.games_per_trial} games)")
    axes[0].set_ylim(0, 1)
    axes[0].legend(fontsize=7)
    for ax, p in zip(axes[1:], cfg.params):
        vals = [r[p.name] for r in rows]
        if p.kind == "choice":
            pos = {c: i for i, c in enumerate(p.choices)}
            ax.plot([pos[v] for v in vals], ys, "o", color="#4a7ab5")
            ax.set_xticks(range(len(p.choices)))
            ax.set_xticklabels(p.choices, fontsize=8)
        else:
            ax.plot(vals, ys, "o", color="#4a7ab5")
            if p.log:
                ax.set_xscale("log")
                # plain numbers, and no labels on the minor ticks (they overlap)
                ax.xaxis.set_major_locator(ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
                ax.xaxis.set_major_formatter(ticker.FormatStrFormatter("%g"))
                ax.xaxis.set_minor_formatter(ticker.NullFormatter())
        ax.set_xlabel(p.name)
        ax.set_ylim(0, 1)
    fig.suptitle(f"{cfg.bot} vs {', '.join(cfg.against)}", fontsize=9)
    fig.tight_layout()
    tmp = path.with_suffix(".tmp.png")
    fig.savefig(tmp)
    plt.close(fig)
    os.replace(tmp, path)
