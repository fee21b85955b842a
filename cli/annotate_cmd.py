"""`ulm annotate`: the searcher's view of one seat's decisions in a game record."""
from __future__ import annotations

import json
import sys

import click

from cli import (
    HELP,
    SEAT,
    SEED,
    FiniteFloatRange,
    InputError,
    fail_on_input_errors,
    iterations_option_type,
    needs_extra,
)
from mcts.play.annotate import (BY, MAX_MISTAKE_ERRORS, MAX_MISTAKE_POINTS, MISTAKE_ERRORS,
                           MISTAKE_POINTS, MISTAKE_SCORE)
from mcts.play.annotate import annotate as annotate_record
from ulm import SEATS
from ulm.records import load_record

TOP_MISTAKES = 5


def _percent(x) -> str:
    return f"{100 * x:4.0f}%"


def _count(n: int, word: str) -> str:
    """'1 visit', '1,000 visits'."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def format_report(report, path: str, top: int = TOP_MISTAKES) -> str:
    """The report as text: the biggest mistakes first, then every decision."""
    seat = SEATS[report.seat]
    budget = (_count(report.iterations, "iteration") if report.iterations
              else f"{report.time:g} s")
    notes = report.notes
    lines = [f"{path}: {seat}'s {len(notes)} decision{'s' if len(notes) != 1 else ''}, "
             f"searched with {budget} each (seed {report.seed}).",
             "estimate: the figure the searcher ranks decisions by, " + seat + "'s mean result "
             "after the decision (about the chance to win, plus a little for the score margin) "
             "mixed with the best line's evaluation (the decision played gets a search of its "
             "own with the same budget where the searcher chose another); loss: how much of it "
             "the decision played gave away, ± its standard error; VP: the loss in victory "
             "points, the searcher's choice's expected margin over the best other seat minus "
             "the decision played's, ± its standard error. " + _mistake_words(report), ""]
    forced = sum(1 for n in notes if n.forced)
    agree = sum(1 for n in notes if n.played == n.best and not n.forced)
    if notes:
        free = len(notes) - forced
        lines.append(f"The searcher agrees with {agree} of {free} decision"
                     f"{'s' if free != 1 else ''} with a choice ({forced} forced); "
                     f"{len(report.mistakes())} mistake{'s' if len(report.mistakes()) != 1 else ''}"
                     f" losing {100 * report.total_loss():.0f} percentage points "
                     f"({report.total_points_loss():.1f} VP) in all, "
                     f"{len(report.within_noise())} other loss"
                     f"{'es' if len(report.within_noise()) != 1 else ''} within noise.")
    if report.final_returns is not None:
        share = report.final_returns[report.seat]
        lines.append(f"Result: {seat} {'won' if share == 1 else 'shared the win' if share else 'lost'}.")
    mistakes = report.mistakes()
    lines.append("")
    if mistakes:
        lines.append("Biggest mistakes:")
        for n in mistakes[:top]:
            lines.append(f"  #{n.index:<4} round {n.round:>2}: played {n.played!r} "
                         f"(estimate {_percent(_value(n, 'played')).strip()}, "
                         f"{_count(n.played_visits, 'visit')}), "
                         f"searcher: {n.best!r} (estimate {_percent(_value(n, 'best')).strip()}, "
                         f"{_count(n.best_visits, 'visit')}): loss {100 * n.loss:.1f} ± "
                         f"{100 * n.uncertainty:.1f} points{_vp_loss(n, ', ')}")
        lines.append("")
    else:
        lines.append("No mistakes found.")
        lines.append("")
    width = max([len(n.played) for n in notes] + [len(n.best) for n in notes] + [8])
    lines.append(f"  {'#':>4} {'round':>5}  {'played':<{width}} {'est.':>5}  "
                 f"{'searcher':<{width}} {'est.':>5} {'loss':>5} {'±':>4} {'VP':>5} {'±':>4}")
    points, errors = report.mistake_points, report.mistake_errors
    for n in notes:
        same = n.played == n.best
        loss = "" if same else f"{100 * n.loss:5.1f} {100 * n.uncertainty:4.1f} {_vp_loss(n)}"
        if n.lost(report.by) > 0 and not n.is_mistake(points, errors, report.by):
            loss += "  within noise"
        best = "(forced)" if n.forced else "(same)" if same else n.best
        lines.append(f"  {n.index:>4} {n.round:>5}  {n.played:<{width}} "
                     f"{_percent(_value(n, 'played'))}  {best:<{width}} "
                     f"{_percent(_value(n, 'best'))} {loss}".rstrip())
    return "\n".join(lines)


def _mistake_words(report) -> str:
    """What counts as a mistake in `report` (by the estimate or by VP)."""
    if report.by == "points":
        return (f"A mistake loses more than {MISTAKE_SCORE:g} VP and more than "
                f"{report.mistake_errors:g} times its ±; a smaller loss is within noise.")
    return (f"A mistake loses more than {report.mistake_points:g} "
            f"point{'s' if report.mistake_points != 1 else ''} and more than "
            f"{report.mistake_errors:g} times its ±; a smaller loss is within noise.")


def _vp_loss(note, before: str = "") -> str:
    """The loss in victory points with its ± ('' when the note has none)."""
    if note.points_loss is None:
        return ""
    if before:
        return f"{before}{note.points_loss:.1f} ± {note.points_uncertainty:.1f} VP"
    return f"{note.points_loss:5.1f} {note.points_uncertainty:4.1f}"


def _value(note, which: str) -> float:
    """The estimate of the decision played or of the searcher's choice (the win share
    for a note made without one)."""
    value = getattr(note, f"{which}_value")
    return getattr(note, f"{which}_win") if value is None else value


@click.command("annotate", context_settings=HELP)
@click.argument("record", type=click.Path(dir_okay=False))
@click.option("--as", "seat", required=True, type=SEAT, metavar="SEAT",
              help="The seat whose decisions are reviewed (Red, Blue, ... or 0..3).")
@click.option("--iterations", type=iterations_option_type(), default=None,
              help="Iterations of the searcher per decision (default 2000 when --time is not given).")
@click.option("--time", "seconds", type=click.FloatRange(min=0, min_open=True, max=600),
              default=None, help="Seconds of search per decision (instead of --iterations).")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the searches: the same seed and budget give the same report.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.option("--plot", "plot", type=click.Path(dir_okay=False, writable=True), default=None,
              callback=needs_extra("matplotlib", "plot"),
              help="Draw the seat's win probability over the game into this PNG.")
@click.option("--top", type=click.IntRange(min=1), default=TOP_MISTAKES, show_default=True,
              help="How many of the biggest mistakes to list first.")
@click.option("--mistake-points", type=FiniteFloatRange(0, MAX_MISTAKE_POINTS),
              default=MISTAKE_POINTS, show_default=True,
              help="A mistake loses more than this many percentage points ...")
@click.option("--mistake-errors", type=FiniteFloatRange(0, MAX_MISTAKE_ERRORS),
              default=MISTAKE_ERRORS, show_default=True,
              help="... and more than this many times its standard error; a smaller loss "
                   "is shown as within noise.")
@click.option("--by", type=click.Choice(BY), default="chance", show_default=True,
              help="Find and rank the mistakes by the loss in the estimate (chance) or in "
                   f"victory points (points: more than {MISTAKE_SCORE:g} VP and more than "
                   "--mistake-errors times its ±), which still tells the mistakes apart "
                   "in a game already won or lost.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@fail_on_input_errors
def annotate(record, seat, iterations, seconds, seed, as_json, plot, top, mistake_points,
             mistake_errors, by, quiet):
    """Review a game record: for every decision of one seat, the searcher's choice and
    its win probability next to the decision played, the loss, the biggest mistakes
    first, and (--plot) a picture of the seat's chances over the game."""
    if iterations is not None and seconds is not None:
        raise InputError("--time: give either --iterations or --time, not both")
    rec = load_record(record)
    if seat >= rec.game.num_players:
        from ulm import SEATS
        raise InputError(f"--as: no seat {SEATS[seat]} in a {rec.game.num_players}-player game")
    bar = None
    if not (quiet or as_json):
        from tqdm import tqdm
        bar = tqdm(unit="decision", file=sys.stderr, delay=0.5, leave=False, desc="annotating")

    def progress(done, total):
        if bar is not None:
            bar.total = total
            bar.update(done - bar.n)
    try:
        report = annotate_record(rec, seat, iterations=iterations, time=seconds, seed=seed,
                                 progress=progress, mistake_points=mistake_points,
                                 mistake_errors=mistake_errors, by=by)
    finally:
        if bar is not None:
            bar.close()
    if plot:
        report.plot(plot)
    if as_json:
        data = {"record": str(record)}
        data.update(report.to_dict())
        click.echo(json.dumps(data, indent=2))
    else:
        click.echo(format_report(report, record, top))
        if plot:
            click.echo(f"\nPlot saved to {plot}")
