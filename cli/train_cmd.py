"""`ulm train`: self-play data sets and models of the evaluation learned from them."""
from __future__ import annotations

import json
import os

import click

from cli import (HELP, SCHEDULER_HELP, SEED, FiniteFloatRange, InputError, check_workers_or_scheduler,
                 fail_on_input_errors, json_option, needs_extra, players_option, quiet_option,
                 scheduler_option, workers_option, worded)
from mcts import MAX_ITERATIONS, MAX_WORKERS
from ulm.errors import OptionError
from ulm.game import VARIANTS
from mcts.searcher.model import MAX_HIDDEN
from mcts.play.tournament import MAX_GAMES, TournamentError
from mcts.learning.train import MAX_BATCH, MAX_EPOCHS, TARGETS


def _check_out(out: str, option: str = "--out") -> None:
    """Refuse an output file that cannot be written, before the work."""
    if not out:
        raise InputError(f"{option}: no file name given")
    folder = os.path.dirname(os.path.abspath(out))
    if os.path.isdir(out):
        raise InputError(f"{option}: {out}: is a folder; give a file name")
    if not os.path.isdir(folder):
        raise InputError(f"{option}: {folder}: no such folder")
    if not os.access(folder, os.W_OK):
        raise InputError(f"{option}: {folder}: permission denied")


FIT_OPTIONS = {"kind": "--model", "inputs": "--inputs", "target": "--target",
               "validation": "--validation", "epochs": "--epochs", "batch": "--batch",
               "hidden": "--hidden", "lr": "--lr", "l2": "--l2"}


# a self-play's settings (mcts.learning.selfplay.SelfplayConfig), as the options give them
SELFPLAY_OPTIONS = {"spec": "--bots", "players": "--players", "games": "--games",
                    "variant": "--variant", "sample": "--sample", "horizon": "--horizon",
                    "value_iterations": "--value-iterations"}


def _fit_error(exc: Exception) -> InputError:
    """A fit's error worded by its option (the library names its settings)."""
    from mcts.learning.train import FitDiverged
    if isinstance(exc, FitDiverged):
        return InputError(f"--lr, --l2: {exc}")
    return worded(exc, FIT_OPTIONS)


def _target_option(help: str):
    return click.option("--target", type=click.Choice(TARGETS), default="outcome",
                        show_default=True, help=help)


def _value_iterations_option(help: str):
    return click.option("--value-iterations", type=click.IntRange(0, MAX_ITERATIONS), default=0,
                        show_default=True, help=help)


def _fit_options(epochs: int, l2: float, l2_help: str, validation: float,
                 validation_help: str):
    """The options of a fit that `fit` and `rounds` share, with their own defaults."""
    options = [
        click.option("--epochs", type=click.IntRange(1, MAX_EPOCHS), default=epochs,
                     show_default=True),
        click.option("--lr", type=FiniteFloatRange(0, min_open=True), default=1e-3,
                     show_default=True, help="Learning rate (Adam)."),
        click.option("--l2", type=FiniteFloatRange(0), default=l2, show_default=True, help=l2_help),
        click.option("--validation", type=FiniteFloatRange(0, 1, max_open=True),
                     default=validation, show_default=True, help=validation_help),
    ]

    def apply(command):
        for option in reversed(options):
            command = option(command)
        return command
    return apply


def _plot_option(help: str):
    return click.option("--plot", default=None, type=click.Path(dir_okay=False),
                        callback=needs_extra("matplotlib", "plot"), help=help)


@click.group("train", context_settings=HELP)
def train():
    """Learn an evaluation from self-play: `selfplay` records positions with the
    games' outcomes, `fit` trains a model on them, `rounds` repeats both with
    the search of the last model (expert iteration; docs/training.md).

    The search evaluates linear models and mlps (up to 64 hidden units) of
    rich or staged inputs: the shipped one with eval=learned (a linear model
    of staged inputs), one of yours with model=FILE."""


@train.command("selfplay", context_settings=HELP)
@click.option("--games", type=click.IntRange(1, MAX_GAMES), default=100, show_default=True,
              help="Self-play games to play.")
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True)
@click.option("--bots", "spec", default=None, metavar="SPEC",
              help="The bot of every seat (default ismcts:preset=v0.2,iterations=300).")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the run: game g is dealt from derive_seed(seed, g).")
@click.option("--variant", type=click.Choice(VARIANTS), default=VARIANTS[0],
              show_default=True)
@click.option("--sample", type=FiniteFloatRange(0, 1, min_open=True), default=1.0,
              show_default=True, help="Share of the turn starts kept as positions.")
@click.option("--horizon", type=click.IntRange(0, 40), default=0, show_default=True,
              help="Keep, for each turn start, the state where the search's rollout from it "
                   "is cut off after this many turns (with the game's outcome).")
@_value_iterations_option("Also give each position the win chances the bots' own search "
                          "finds there with this many iterations (the 'value' target of fit).")
@click.option("--workers", type=click.IntRange(1, MAX_WORKERS),
              default=min(os.cpu_count() or 1, MAX_WORKERS), show_default=True,
              help="Worker processes playing games in parallel (without --scheduler).")
@click.option("--scheduler", default=None, metavar="ADDRESS", help=SCHEDULER_HELP)
@click.option("--out", required=True, type=click.Path(dir_okay=False),
              help="The data set to write (.npz; written when every game is played).")
@click.option("--json", "as_json", is_flag=True, help="Print a summary as JSON.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@fail_on_input_errors
def selfplay_cmd(games, players, spec, seed, variant, sample, horizon, value_iterations, workers,
                 scheduler, out, as_json, quiet):
    """Play self-play games and write their positions with the outcomes.

    Example: ulm train selfplay --games 200 --players 2 --out data.npz
    """
    from mcts.play.cluster import ClusterError, open_executor
    from mcts.learning.selfplay import DEFAULT_SPEC, SelfplayConfig, run_selfplay, save_dataset
    cfg = SelfplayConfig(spec=spec or DEFAULT_SPEC, players=players, games=games, seed=seed,
                         variant=variant, sample=sample, horizon=horizon,
                         value_iterations=value_iterations)
    try:
        cfg.validate()
    except OptionError as exc:          # the setting as data: its option
        raise worded(exc, SELFPLAY_OPTIONS) from None
    _check_out(out)
    check_workers_or_scheduler(scheduler)
    try:
        with open_executor(scheduler) as executor:
            data = run_selfplay(cfg, workers=workers, scheduler=executor,
                                progress=not (quiet or as_json))
    except ClusterError as exc:
        raise click.ClickException(str(exc)) from None
    except TournamentError as exc:      # the scheduler named cannot be used
        raise worded(exc, {"scheduler": "--scheduler"}) from None
    try:
        save_dataset(out, data)
    except OSError as exc:
        raise InputError(f"--out: {out}: {exc.strerror}") from None
    summary = {"out": out, "games": games, "positions": int(len(data["round"])),
               "decisions": data["meta"]["decisions"], "players": players,
               "features": data["meta"]["feature_count"], "bots": cfg.spec, "seed": seed}
    if as_json:
        click.echo(json.dumps(summary, indent=1))
    else:
        click.echo(f"{summary['positions']} positions of {games} games "
                   f"({players} players, {cfg.spec}) written to {out}")


@train.command("fit", context_settings=HELP)
@click.argument("data", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--model", "kind", type=click.Choice(["linear", "mlp"]), default="mlp",
              show_default=True, help="Linear logits, or one hidden layer of tanh units.")
@click.option("--hidden", type=click.IntRange(1, MAX_HIDDEN), default=32, show_default=True,
              help="Hidden units of the mlp (the search evaluates up to 64).")
@_fit_options(epochs=20, l2=1e-4, l2_help="Weight decay of the weights (not the biases).",
              validation=0.2, validation_help="Share of the games held out for validation.")
@click.option("--batch", type=click.IntRange(1, MAX_BATCH), default=256, show_default=True,
              help="Positions per mini-batch.")
@click.option("--inputs", type=click.Choice(["rich", "staged", "public", "base"]),
              default="rich", show_default=True,
              help="rich: the features of mcts.searcher.features; staged: rich and the seats' blocks "
                   "times the share of the game left (what the search's eval=learned "
                   "reads); public: rich without the other "
                   "seats' hands and the pile's cards; base: the 14-feature evaluation's "
                   "inputs (for comparison).")
@click.option("--residual", is_flag=True,
              help="Fit a correction of the v0.2 evaluation: the model's logits add to the "
                   "logarithms of its win chances (zero weights: that evaluation exactly).")
@_target_option("What the win chances are fitted to: the games' outcomes, the searched "
                "values of the positions (selfplay --value-iterations), or their mean.")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the split, the initial weights and the batches.")
@click.option("--out", default=None, type=click.Path(dir_okay=False),
              help="Write the model here (.npz).")
@_plot_option("Draw the training curve into this PNG file (the plot extra).")
@json_option("the report")
@quiet_option("No progress bar and no per-epoch lines.")
@fail_on_input_errors
def fit_cmd(data, kind, hidden, epochs, batch, lr, l2, validation, inputs, residual, target, seed,
            out, plot, as_json, quiet):
    """Fit a model of each seat's win chance to self-play data sets (one player count).

    Reports the training and validation cross-entropy per epoch, and on the
    validation positions the v0.2 evaluation's and a uniform guess's.

    Example: ulm train fit data.npz --model linear --out model.npz
    """
    from mcts.learning.selfplay import DatasetError, load_dataset, merge_datasets
    from mcts.searcher.model import TrainError, save_model
    from mcts.learning.train import FitConfig, fit
    if out is not None:
        _check_out(out)
    if plot is not None:
        _check_out(plot, "--plot")
    try:
        sets = [load_dataset(path) for path in data]
        merged = merge_datasets(sets, list(data))
    except DatasetError as exc:
        raise InputError(str(exc)) from None
    del sets                    # the merged copy is enough
    cfg = FitConfig(kind=kind, hidden=hidden, epochs=epochs, batch=batch, lr=lr, l2=l2,
                    validation=validation, inputs=inputs, seed=seed, residual=residual,
                    target=target)
    log = None if (quiet or as_json) else click.echo
    try:
        model, report = fit(merged, cfg, log=log, progress=not (quiet or as_json))
    except TrainError as exc:
        raise _fit_error(exc) from None
    if out is not None:
        try:
            save_model(out, model)
        except OSError as exc:
            raise InputError(f"--out: {out}: {exc.strerror}") from None
        except TrainError as exc:
            raise InputError(f"--out: {out}: {exc}") from None
        report["out"] = out
    if plot is not None:
        from mcts.learning.train import plot_history
        try:
            plot_history(report, plot)
        except OSError as exc:
            raise InputError(f"--plot: {plot}: {exc.strerror}") from None
        report["plot"] = plot
    if as_json:
        click.echo(json.dumps(report, indent=1))
    else:
        _echo_fit(report, target)
        if out:
            click.echo(f"Model written to {out}")


def _ce(value) -> str:
    """A cross-entropy, or a dash where there were no positions to measure it on."""
    return "-" if value is None else f"{value:.4f}"


def _echo_fit(report: dict, target: str) -> None:
    """The kept epoch and the validation figures (none without validation games)."""
    v = report["validation"]
    click.echo(f"kept epoch {report['epoch_kept']}")
    if not v["positions"]:
        click.echo("no validation positions (--validation 0): the last epoch is kept")
        return
    click.echo(f"validation ({v['positions']} positions of {v['games']} games, "
               f"target {target}): cross-entropy {v['model']:.4f}; "
               f"v0.2 evaluation {v['eval_v0.2']:.4f}; uniform {v['uniform']:.4f}")
    for stage, row in report["validation_by_stage"].items():
        if row["positions"]:
            click.echo(f"  {stage}: model {row['model']:.4f}, v0.2 evaluation "
                       f"{row['eval_v0.2']:.4f} ({row['positions']} positions)")


@train.command("evaluate", context_settings=HELP)
@click.argument("model", type=click.Path(dir_okay=False))
@click.argument("data", nargs=-1, required=True, type=click.Path(dir_okay=False))
@_target_option("What the win chances are compared with: the games' outcomes, the searched "
                "values of the positions (selfplay --value-iterations), or their mean.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@fail_on_input_errors
def evaluate_cmd(model, data, target, as_json):
    """Cross-entropy of a fitted model's win chances on data sets (every
    position; e.g. games of another seed than it was fitted to), next to the
    v0.2 evaluation's and a uniform guess's, overall and by stage.

    Example: ulm train evaluate model.npz test.npz
    """
    from mcts.learning.selfplay import DatasetError, load_dataset, merge_datasets
    from mcts.searcher.model import TrainError, load_model
    from mcts.learning.train import evaluate_model
    try:
        fitted = load_model(model)
    except TrainError as exc:
        raise InputError(str(exc)) from None
    try:
        merged = merge_datasets([load_dataset(path) for path in data], list(data))
    except DatasetError as exc:
        raise InputError(str(exc)) from None
    if merged["meta"]["players"] != fitted.players:
        raise InputError(f"DATA: {merged['meta']['players']} players; the model {model} is "
                         f"for {fitted.players}")
    try:
        report = {"model": model, "data": list(data), "target": target,
                  **evaluate_model(fitted, merged, target)}
    except TrainError as exc:
        raise _fit_error(exc) from None
    if as_json:
        click.echo(json.dumps(report, indent=1))
        return
    click.echo(f"cross-entropy against the {target} target")
    for name, row in [("all", report["all"])] + list(report["by_stage"].items()):
        click.echo(f"{name}: model {_ce(row['model'])}, v0.2 evaluation "
                   f"{_ce(row['eval_v0.2'])}, uniform {_ce(row['uniform'])} "
                   f"({row['positions']} positions, {row['games']} games)")


@train.command("rounds", context_settings=HELP)
@players_option()
@click.option("--rounds", type=click.IntRange(1, 100), default=3, show_default=True,
              help="Rounds of self-play and fitting.")
@click.option("--games", type=click.IntRange(1, MAX_GAMES), default=500, show_default=True,
              help="Self-play games a round.")
@click.option("--first-bots", "first_spec", default=None, metavar="SPEC",
              help="The search of round 0's games (default ismcts:preset=v0.2,iterations=300).")
@click.option("--bots", "learned_spec", default=None, metavar="SPEC",
              help="The search of the later rounds, given model= of the last fit (default "
                   "ismcts:eval=learned,horizon=2,minimax=0.3,iterations=300).")
@click.option("--window", type=click.IntRange(1, 100), default=2, show_default=True,
              help="Rounds of games each fit sees (the latest).")
@click.option("--horizon", type=click.IntRange(0, 40), default=2, show_default=True,
              help="The data's rows: the search's cut-off this many turns after each turn "
                   "start (as `selfplay --horizon`); match the searches' horizon.")
@click.option("--residual/--no-residual", default=True, show_default=True,
              help="Fit corrections of the v0.2 evaluation (as `fit --residual`).")
@_value_iterations_option("Also search each position with this many iterations of the "
                          "round's search (as `selfplay --value-iterations`).")
@_target_option("What the fits aim at (as `fit --target`).")
@click.option("--check-games", type=click.IntRange(0, MAX_GAMES), default=100, show_default=True,
              help="Games of each round's check against --opponent (0: no check).")
@click.option("--check-budget", default="iterations=1000", show_default=True,
              metavar="OPTION=VALUE", help="Both sides' budget in the checks (iterations=N or "
                                           "time=S).")
@click.option("--opponent", default=None, metavar="SPEC",
              help="The checks' opponent (default ismcts:preset=v0.2).")
@_fit_options(epochs=6, l2=1e-3, l2_help="Weight decay.",
              validation=0.1, validation_help="Share of the games each fit holds out.")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the run: every round's games, fit and check derive from it.")
@workers_option()
@scheduler_option()
@click.option("--out", required=True, type=click.Path(file_okay=False),
              help="Folder for the rounds' data sets, models, checks and rounds.json.")
@_plot_option("Draw the curve (loss and check per round) into this PNG file (the plot "
              "extra).")
@json_option("the report")
@quiet_option("No progress bars and no per-step lines.")
@fail_on_input_errors
def rounds_cmd(out, plot, workers, scheduler, as_json, quiet, **settings):
    """Expert iteration: self-play, fit a linear model, check it against the
    v0.2 search, and play the next round with the search of that model.

    Example: ulm train rounds --players 2 --rounds 3 --games 500 --out rounds/
    """
    cfg = _rounds_config(settings)
    if os.path.exists(out) and not os.path.isdir(out):
        raise InputError(f"--out: {out}: is a file; give a folder")
    if plot is not None:
        _check_out(plot, "--plot")
    check_workers_or_scheduler(scheduler)
    report = _run_rounds(cfg, out, workers, scheduler, quiet or as_json)
    if plot is not None:
        from mcts.learning.rounds import plot_rounds
        plot_rounds(report, plot)
        report["plot"] = plot
    if as_json:
        click.echo(json.dumps(report, indent=1))
        return
    _echo_rounds(report, out)


# the option that gives each field of a RoundsConfig (or of its fit), for the messages
_ROUNDS_OPTIONS = {"first_spec": "--first-bots", "learned_spec": "--bots", "opponent": "--opponent",
                   "check_budget": "--check-budget", "validation": "--validation",
                   "target": "--target", "value_iterations": "--value-iterations",
                   "rounds": "--rounds", "games": "--games", "window": "--window",
                   "check_games": "--check-games", "horizon": "--horizon", "players": "--players"}
_FIT_SETTINGS = ("epochs", "lr", "l2", "validation", "residual", "target")


def _rounds_config(settings: dict):
    """The RoundsConfig of the command's settings (the options named as its fields, the
    fit's among them), checked; a spec not given is the library's default."""
    from dataclasses import replace

    from mcts.learning.rounds import FIRST_SPEC, LEARNED_SPEC, OPPONENT, RoundsConfig
    fit = {k: settings.pop(k) for k in _FIT_SETTINGS}
    settings["first_spec"] = settings["first_spec"] or FIRST_SPEC
    settings["learned_spec"] = settings["learned_spec"] or LEARNED_SPEC
    settings["opponent"] = settings["opponent"] or OPPONENT
    cfg = RoundsConfig(**settings, fit=replace(RoundsConfig().fit, **fit))
    try:
        cfg.validate()
    except ValueError as exc:       # OptionError: worded by the option that gives its field
        raise worded(exc, _ROUNDS_OPTIONS) from None
    return cfg


def _run_rounds(cfg, out: str, workers, scheduler, silent: bool) -> dict:
    """Run the rounds on the executor named (local processes by default); the library's
    errors become the command line's messages."""
    from mcts.play.cluster import ClusterError, open_executor
    from mcts.searcher.model import TrainError
    from mcts.learning.rounds import run_rounds
    from mcts.learning.train import FitDiverged
    try:
        with open_executor(scheduler) as executor:
            return run_rounds(cfg, out, workers=workers, scheduler=executor,
                              progress=not silent, log=None if silent else click.echo)
    except ClusterError as exc:
        raise click.ClickException(str(exc)) from None
    except TournamentError as exc:      # the scheduler named cannot be used
        raise worded(exc, {"scheduler": "--scheduler"}) from None
    except OSError as exc:
        raise InputError(f"--out: {out}: {exc.strerror}") from None
    except FitDiverged as exc:
        raise InputError(f"--lr, --l2: {exc}") from None
    except TrainError as exc:
        raise InputError(str(exc)) from None


def _echo_rounds(report: dict, out: str) -> None:
    """One line per round: the fit's cross-entropy against the v0.2 evaluation's, and
    the check's win rate with its interval."""
    for row in report["rounds"]:
        v = row["validation"]
        line = (f"round {row['round']}: cross-entropy {_ce(v['model'])} (v0.2 evaluation "
                f"{_ce(v['eval_v0.2'])}) on {v['positions']} positions")
        if "check" in row:
            c = row["check"]
            line += (f"; check {100 * c['win_rate']:.1f}% [{100 * c['low']:.0f}, "
                     f"{100 * c['high']:.0f}] of {c['games']} games")
        click.echo(line)
    click.echo(f"Rounds in {out} (rounds.json, data-R.npz, model-R.npz, check-R/)")
