"""`ulm train`: self-play data sets and models of the evaluation learned from them."""
from __future__ import annotations

import json
import os

import click

from cli import (HELP, SCHEDULER_HELP, FiniteFloatRange, InputError, check_workers_or_scheduler,
                 fail_on_input_errors, needs_extra)
from mcts import MAX_WORKERS


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


@click.group("train", context_settings=HELP)
def train():
    """Learn an evaluation from self-play: `selfplay` records positions with the
    games' outcomes, `fit` trains a model on them (docs/training.md).

    The learned model is not used by the search yet."""


@train.command("selfplay", context_settings=HELP)
@click.option("--games", type=click.IntRange(1), default=100, show_default=True,
              help="Self-play games to play.")
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True)
@click.option("--bots", "spec", default=None, metavar="SPEC",
              help="The bot of every seat (default ismcts:preset=v0.2,iterations=300).")
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True,
              help="Seed of the run: game g is dealt from derive_seed(seed, g).")
@click.option("--variant", type=click.Choice(["basic", "advanced"]), default="basic",
              show_default=True)
@click.option("--sample", type=FiniteFloatRange(0, 1, min_open=True), default=1.0,
              show_default=True, help="Share of the turn starts kept as positions.")
@click.option("--workers", type=click.IntRange(1, MAX_WORKERS),
              default=min(os.cpu_count() or 1, MAX_WORKERS), show_default=True,
              help="Worker processes playing games in parallel (without --scheduler).")
@click.option("--scheduler", default=None, metavar="ADDRESS", help=SCHEDULER_HELP)
@click.option("--out", required=True, type=click.Path(dir_okay=False),
              help="The data set to write (.npz; written when every game is played).")
@click.option("--json", "as_json", is_flag=True, help="Print a summary as JSON.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@fail_on_input_errors
def selfplay_cmd(games, players, spec, seed, variant, sample, workers, scheduler, out, as_json,
                 quiet):
    """Play self-play games and write their positions with the outcomes.

    Example: ulm train selfplay --games 200 --players 2 --out data.npz
    """
    from mcts.cluster import ClusterError, open_executor
    from mcts.selfplay import DEFAULT_SPEC, SelfplayConfig, run_selfplay, save_dataset
    cfg = SelfplayConfig(spec=spec or DEFAULT_SPEC, players=players, games=games, seed=seed,
                         variant=variant, sample=sample)
    try:
        cfg.validate()
    except ValueError as exc:
        where = "--bots" if "spec" in str(exc) else "--" + str(exc).split(":")[0]
        raise InputError(f"{where}: {exc}") from None
    _check_out(out)
    check_workers_or_scheduler(scheduler)
    try:
        with open_executor(scheduler) as executor:
            data = run_selfplay(cfg, workers=workers, scheduler=executor,
                                progress=not (quiet or as_json))
    except ClusterError as exc:
        raise click.ClickException(str(exc)) from None
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
@click.option("--hidden", type=click.IntRange(1, 1024), default=32, show_default=True,
              help="Hidden units of the mlp.")
@click.option("--epochs", type=click.IntRange(1), default=20, show_default=True)
@click.option("--batch", type=click.IntRange(1), default=256, show_default=True,
              help="Positions per mini-batch.")
@click.option("--lr", type=FiniteFloatRange(0, min_open=True), default=1e-3, show_default=True,
              help="Learning rate (Adam).")
@click.option("--l2", type=FiniteFloatRange(0), default=1e-4, show_default=True,
              help="Weight decay of the weights (not the biases).")
@click.option("--validation", type=FiniteFloatRange(0, 1, max_open=True), default=0.2,
              show_default=True, help="Share of the games held out for validation.")
@click.option("--inputs", type=click.Choice(["rich", "public", "base"]), default="rich",
              show_default=True,
              help="rich: the features of mcts.features; public: the same without the other "
                   "seats' hands and the pile's cards; base: the 14-feature evaluation's "
                   "inputs (for comparison).")
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True,
              help="Seed of the split, the initial weights and the batches.")
@click.option("--out", default=None, type=click.Path(dir_okay=False),
              help="Write the model here (.npz).")
@click.option("--plot", default=None, type=click.Path(dir_okay=False),
              callback=needs_extra("matplotlib", "plot"),
              help="Draw the training curve into this PNG file (the plot extra).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--quiet", is_flag=True, help="No progress bar and no per-epoch lines.")
@fail_on_input_errors
def fit_cmd(data, kind, hidden, epochs, batch, lr, l2, validation, inputs, seed, out, plot,
            as_json, quiet):
    """Fit a model of each seat's win chance to self-play data sets (one player count).

    Reports the training and validation cross-entropy per epoch, and on the
    validation positions the v0.2 evaluation's and a uniform guess's.

    Example: ulm train fit data.npz --model linear --out model.npz
    """
    from mcts.selfplay import DatasetError, load_dataset, merge_datasets
    from mcts.train import FitConfig, TrainError, fit, save_model
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
                    validation=validation, inputs=inputs, seed=seed)
    log = None if (quiet or as_json) else click.echo
    try:
        model, report = fit(merged, cfg, log=log, progress=not (quiet or as_json))
    except TrainError as exc:
        raise InputError(str(exc)) from None
    if out is not None:
        try:
            save_model(out, model)
        except OSError as exc:
            raise InputError(f"--out: {out}: {exc.strerror}") from None
        report["out"] = out
    if plot is not None:
        from mcts.train import plot_history
        try:
            plot_history(report, plot)
        except OSError as exc:
            raise InputError(f"--plot: {plot}: {exc.strerror}") from None
        report["plot"] = plot
    if as_json:
        click.echo(json.dumps(report, indent=1))
    else:
        v = report["validation"]
        click.echo(f"kept epoch {report['epoch_kept']}")
        click.echo(f"validation ({v['positions']} positions of {v['games']} games): "
                   f"cross-entropy {v['model']:.4f}; v0.2 evaluation {v['eval_v0.2']:.4f}; "
                   f"uniform {v['uniform']:.4f}")
        for stage, row in report["validation_by_stage"].items():
            click.echo(f"  {stage}: model {row['model']:.4f}, v0.2 evaluation "
                       f"{row['eval_v0.2']:.4f} ({row['positions']} positions)")
        if out:
            click.echo(f"Model written to {out}")


@train.command("evaluate", context_settings=HELP)
@click.argument("model", type=click.Path(dir_okay=False))
@click.argument("data", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@fail_on_input_errors
def evaluate_cmd(model, data, as_json):
    """Cross-entropy of a fitted model's win chances on data sets (every
    position; e.g. games of another seed than it was fitted to), next to the
    v0.2 evaluation's and a uniform guess's, overall and by stage.

    Example: ulm train evaluate model.npz test.npz
    """
    import numpy as np

    from mcts.selfplay import DatasetError, load_dataset, merge_datasets
    from mcts.train import STAGES, TrainError, evaluate, load_model
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
    rows = np.arange(len(merged["round"]))
    report = {"model": model, "data": list(data), "all": evaluate(fitted, merged, rows),
              "by_stage": {name: evaluate(fitted, merged, rows[(merged["round"] >= lo)
                                                               & (merged["round"] < hi)])
                           for name, lo, hi in STAGES}}
    if as_json:
        click.echo(json.dumps(report, indent=1))
        return
    for name, row in [("all", report["all"])] + list(report["by_stage"].items()):
        click.echo(f"{name}: model {row['model']:.4f}, v0.2 evaluation {row['eval_v0.2']:.4f}, "
                   f"uniform {row['uniform']:.4f} ({row['positions']} positions, "
                   f"{row['games']} games)")
