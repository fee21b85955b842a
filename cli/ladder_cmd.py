"""`ulm ladder`: the skill ladder, each iteration budget against half of it."""
from __future__ import annotations

import json

import click

from cli import (
    HELP,
    engines_option,
    fail_on_input_errors,
    json_option,
    players_option,
    plot_note,
    quiet_option,
    seed_option,
    worded,
    workers_option,
)
from mcts import MAX_ITERATIONS
from mcts.play.tournament import MAX_GAMES, TournamentError


@click.command("ladder", context_settings=HELP)
@click.option("--bot", default="ismcts", show_default=True,
              help="The searcher (a bot spec without a budget); each rung sets iterations.")
@click.option("--low", type=click.IntRange(2, MAX_ITERATIONS), default=250, show_default=True,
              help="Budget of the first rung (it plays against half of it).")
@click.option("--high", type=click.IntRange(2, MAX_ITERATIONS), default=64_000, show_default=True,
              help="Largest budget; the budgets double from --low up to this.")
@players_option()
@click.option("--games", type=click.IntRange(1, MAX_GAMES), default=40, show_default=True,
              help="Games per rung, rounded up to whole rotations of the seats.")
@workers_option()
@seed_option()
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Folder for rung-N/ tournaments, ladder.json, ladder.csv and ladder.png; "
                   "an interrupted ladder resumes from it.")
@json_option("the rungs")
@quiet_option("No progress bars.")
@engines_option()
@fail_on_input_errors
def ladder(bot, low, high, players, games, workers, seed, out, as_json, quiet, engines):
    """Play BOT:iterations=N against BOT:iterations=N/2 for N = LOW, 2 LOW, ... HIGH.

    Example: ulm ladder --low 250 --high 8000 --games 40 --out ladder
    """
    from mcts.play.ladder import format_ladder, run_ladder
    quiet = quiet or as_json
    try:
        rungs = run_ladder(low, high, bot=bot, players=players, games=games, seed=seed,
                           out_dir=out, workers=workers, progress=not quiet,
                           on_rung=None if quiet else lambda r: click.echo(
                               f"rung {r.budget} vs {r.half}: {r.win_rate:.1%} "
                               f"[{r.win_low:.0%}, {r.win_high:.0%}] of {r.games} games"))
    except TournamentError as exc:       # the tournaments' settings, as the ladder sets them
        raise worded(exc, {"players": "--players", "bots": "--bot", "bot": "--bot",
                           "games": "--games", "out_dir": "--out", "low": "--low",
                           "high": "--high"}) from None
    if as_json:
        click.echo(json.dumps([r.to_dict() for r in rungs], indent=1))
        return
    click.echo(format_ladder(rungs))
    if out:
        plot = plot_note("ladder.png")
        click.echo(f"Results in {out}/ (ladder.json, ladder.csv, {plot + ', ' if plot else ''}"
                   "rung-N/)")
