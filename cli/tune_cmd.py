"""`ulm tune`: tune a bot's options by tournaments (mcts.play.tune, optuna)."""
from __future__ import annotations

import json

import click

from cli import (
    HELP,
    InputError,
    check_workers_or_scheduler,
    engines_named,
    engines_option,
    fail_on_input_errors,
    json_option,
    players_option,
    plot_note,
    quiet_option,
    scheduler_option,
    seed_option,
    workers_option,
    worded,
)
from mcts.play.tournament import MAX_GAMES, TournamentError
from mcts.play.tune import MAX_TRIALS

# a study's settings, as the options of `ulm tune` give them
TUNE_OPTIONS = {"bot": "--bot", "param": "--param", "against": "--against",
                "players": "--players", "games_per_trial": "--games-per-trial",
                "trials": "--trials", "out_dir": "--out",
                "scheduler": "--scheduler"}


@click.command("tune", context_settings=HELP)
@click.option("--bot", required=True,
              help="The bot to tune, with its budget, e.g. 'ismcts:time=0.05'.")
@click.option("--param", "params", multiple=True, required=True,
              help="An option to tune: NAME=LOW:HIGH, NAME=LOW:HIGH:log or NAME=A|B|C (repeat).")
@click.option("--against", multiple=True, required=True,
              help="Opponent bot spec(s), seated after the tuned bot (repeat).")
@players_option()
@click.option("--games-per-trial", type=click.IntRange(1, MAX_GAMES), default=40, show_default=True,
              help="Games of each trial's tournament (rounded up to whole seat rotations).")
@click.option("--trials", type=click.IntRange(1, MAX_TRIALS), default=30, show_default=True,
              help="Finished trials wanted in all (a resumed study counts those it has).")
@workers_option("Worker processes playing a trial's games (without --scheduler).")
@scheduler_option()
@seed_option("Seed of the deals and of the optimiser.")
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Folder for study.db, trials.csv, trials.png, best.json and the trials' games; "
                   "run again with the same settings to resume.")
@json_option("the best trial")
@quiet_option()
@engines_option()
@fail_on_input_errors
def tune(bot, params, against, players, games_per_trial, trials, workers, scheduler, seed, out,
         as_json, quiet, engines):
    """Find the options of BOT that win most against the --against bots (optuna TPE).

    Example: ulm tune --bot ismcts:time=0.05 --param c=0.2:2.0 --against pimc:time=0.05
    --games-per-trial 40 --trials 30 --out tune-c
    """
    from mcts.play.cluster import ClusterError, open_executor
    from mcts.play.tune import TuneConfig, TuneError, parse_param, run_tune, validate
    check_workers_or_scheduler(scheduler)
    if engines and scheduler:
        raise InputError("--scheduler: engines (engine:NAME) play on this machine only")
    try:
        name = bot.split(":", 1)[0].strip()
        from mcts.play.bots import BOTS
        if name not in BOTS:
            raise TuneError(f"bot: unknown bot {name!r}; known bots: {', '.join(sorted(BOTS))}")
        cfg = TuneConfig(bot=bot, params=[parse_param(p, name) for p in params],
                         against=list(against), players=players,
                         games_per_trial=games_per_trial, trials=trials, seed=seed,
                         engines=engines_named(engines, against) or None)
        validate(cfg)  # before reaching or starting a cluster
        with open_executor(scheduler) as executor:
            if executor is not None and not (quiet or as_json):
                click.echo(executor.describe(), err=True)
            best = run_tune(cfg, out, workers=workers, progress=not (quiet or as_json),
                            scheduler=executor)
    except (TuneError, TournamentError) as exc:
        raise worded(exc, TUNE_OPTIONS) from None
    except ClusterError as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        click.echo(json.dumps(best, indent=1))
        return
    click.echo(f"Best of {trials} trials (trial {best['trial']}): win rate {best['win_rate']:.1%} "
               f"[{best['win_low']:.0%}, {best['win_high']:.0%}] over {best['games']} games")
    click.echo(f"Bot spec: {best['spec']}")
    if out:
        plot = plot_note("trials.png")
        click.echo(f"Results in {out}/ (trials.csv, {plot + ', ' if plot else ''}best.json, "
                   "study.db)")
