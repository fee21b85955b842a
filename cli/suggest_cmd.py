"""`ulm suggest POSITION`: search a position and print the advice.

A thin layer over the library: the position file is read by
ulm.positions.load_position, the search is mcts.searcher.search, and this module only
turns the SearchResult into text (or JSON with --json).
"""
from __future__ import annotations

import json
import sys
from typing import NoReturn

import click

from cli import (
    HELP,
    InputError,
    needs_extra,
)
from mcts import search
from mcts.play.bots import params_from_spec, written_options
from mcts.searcher.params import (BY_FIELD, OPTIONS, PRESETS, SHORTHANDS, Option, OptionError,
                                  SearchParams)
from ulm import NUM_ROUNDS, SEATS
from ulm.positions import PositionError, load_position

DEFAULT_ITERATIONS = 10000
TOP_ALTERNATIVES = 5


def _progress_bar(iterations, seconds, enabled):
    """A tqdm bar on stderr, or None. It only appears for searches longer than 0.5 s."""
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency; run without a bar
        return None
    if iterations is not None:
        return tqdm(total=iterations, unit="it", file=sys.stderr, delay=0.5, leave=False,
                    desc="searching")
    return tqdm(total=round(seconds, 1), unit="s", file=sys.stderr, delay=0.5, leave=False,
                desc="searching", bar_format="{l_bar}{bar}| {n:.1f}/{total:.1f} s")


def _fail(message: str) -> NoReturn:
    raise InputError(message)


class OptionType(click.ParamType):
    """A shorthand of a search option (mcts.searcher.params.SHORTHANDS): its text
    read and checked by the option's own declaration, refused in its words."""

    def __init__(self, option: Option):
        self.option = option
        self.name = option.spec or option.name

    def convert(self, value, param, ctx):
        if not isinstance(value, str):
            return value
        try:
            return self.option.read(value)
        except OptionError as exc:
            self.fail(exc.message, param, ctx)


def shorthand_options(command):
    """The options of `command` that are shorthands of the search's options
    (mcts.searcher.params.SHORTHANDS, the option table): each read by its
    Option, default its field's (not given: the spec's or the search's)."""
    for flag, declared in reversed(SHORTHANDS.items()):
        command = click.option(flag, declared.name, type=OptionType(declared), default=None,
                               help=f"{declared.help[:1].upper()}{declared.help[1:]} "
                                    f"[default: {_default_words(declared)}; the spec's "
                                    f"{declared.spec}=].")(command)
    return command


def _default_words(declared: Option) -> str:
    if declared.name == "iterations":
        return f"{DEFAULT_ITERATIONS} without --time"
    return "auto" if declared.default is None else str(declared.default)


def _bot_params(spec: str, players: int) -> SearchParams:
    """The params of a --bot spec (a preset's name is short for ismcts:preset=NAME)."""
    if spec.strip() in PRESETS:
        spec = f"ismcts:preset={spec.strip()}"
    try:
        params = params_from_spec(spec, players)
    except ValueError as exc:
        _fail(f"--bot: {exc}")
    if not params.determinize:
        _fail("--bot: cheat sees the hidden cards and coats; advice comes from what the "
              "player to move knows: give ismcts")
    return params


def suggest_params(bot, given: dict, players: int) -> SearchParams:
    """The search of `ulm suggest`: the --bot spec's params (none: the default
    search with DEFAULT_ITERATIONS) with the shorthand options `given` on the
    command line (field -> value). One rule: a shorthand may add to a spec
    what it does not set (a level's spec counts as written: `level:2` sets its
    budget), and one that the spec sets too is an error."""
    changes = dict(given)
    if bot is None:
        base = SearchParams(iterations=DEFAULT_ITERATIONS)
    else:
        base = _bot_params(bot, players)
        spec, written = written_options(bot)
        fields = {OPTIONS[key].name for key in written if key in OPTIONS}
        if fields & {"iterations", "time"}:     # a budget counts as both
            fields |= {"iterations", "time"}
        for name in changes:
            if name in fields:
                where = "" if spec == bot.strip() else f" ({bot.strip()} is {spec})"
                _fail(f"{BY_FIELD[name].shorthand}: the --bot spec sets {name} too{where}; "
                      "give it once")
        if not fields & {"iterations", "time"} and not changes.keys() & {"iterations", "time"}:
            changes["iterations"] = DEFAULT_ITERATIONS
    if changes.keys() & {"iterations", "time"}:
        changes = {"iterations": None, "time": None, **changes}
    try:
        return base.replace(**changes)
    except OptionError as exc:      # options that do not go together, by the option given
        declared = BY_FIELD.get(exc.field or "")
        if declared is not None and declared.shorthand and declared.name in given:
            _fail(exc.in_words(name=declared.shorthand))
        _fail(str(exc))


def _percent(x):
    return f"{100 * x:5.1f}%"


# what put the first decision first (the answer's decided_by), said where it is not
# the most visits the table shows
DECIDED_BY_WORDS = {"value": "its estimate (final=value), not by its visits",
                    "lcb": "its lower confidence bound, its estimate less 3 times its ± "
                           "(final=lcb, as KataGo), not by its visits"}


def format_result(answer, state, seat, path) -> str:
    """The human-readable report of a search, drawn from its answer (the one
    shape: SearchResult.to_dict, docs/library.md); a SearchResult is taken as
    its answer."""
    data = answer.to_dict() if hasattr(answer, "to_dict") else answer
    n = len(data["seats"])
    actions, line = data["actions"], data["principal_line"]
    lines = [f"Position {path}: {SEATS[seat]} to move, round {state.round() + 1} of "
             f"{NUM_ROUNDS}, {n} players", ""]
    if data["stats"]["forced"]:
        lines.append(f"The only legal decision: {data['best_action_name']}. The estimates "
                     "below are those of the position behind it.")
        lines.append("")
        return "\n".join(lines + _totals(data, seat, "Chances to win and expected final "
                                                       "scores after it:"))
    lines.append("Recommended decisions for the rest of the turn:")
    width = max([len(s["name"]) for s in line] + [len("decision")]
                + [len(a["name"]) for a in actions[:TOP_ALTERNATIVES]])
    for i, step in enumerate(line, 1):
        lines.append(f"  {i}. {step['name']:<{width}}  share {_percent(step['share'])}")
    if line and line[-1]["reveals"]:
        lines.append("  (this step shows you what was hidden, such as the coats drawn from under "
                     "the stack, and what comes next depends on it: once you see it, add it "
                     "with `ulm apply` and ask again)")
    elif line and line[-1]["chance_after"]:
        lines.append("  (a chance event follows: once it is known, add the decisions and what "
                     "happened with `ulm apply` and ask again)")
    lines.append("  share: how often the search chose the decision where it stood")
    decided = DECIDED_BY_WORDS.get(data.get("decided_by", "visits"))
    if decided:
        lines.append(f"  the first decision was chosen by {decided}")
    lines.append("")
    lines.append("Top alternatives for the first decision:")
    lines.append(f"  {'decision':<{width}}  {'visits':>8}  {'share':>6}  {'estimate':>8}  "
                 f"{'±':>5}  {'points':>6}  {'lead':>6}  {'±':>5}")
    for a in actions[:TOP_ALTERNATIVES]:
        lines.append(f"  {a['name']:<{width}}  {a['visits']:>8}  {_percent(a['share'])}  "
                     f"{_percent(a['estimate']):>8}  {_error(100 * a['estimate_error'])}  "
                     f"{_points(a, seat)}".rstrip())
    if len(actions) > TOP_ALTERNATIVES:
        lines.append(f"  ... and {len(actions) - TOP_ALTERNATIVES} more decisions "
                     "(--json lists them all)")
    lines.append(f"  estimate: the figure the search ranks by (its visits go to the best): "
                 f"{SEATS[seat]}'s mean result after the decision (about the chance to win, "
                 "plus a little for the score margin) mixed with the best line's evaluation "
                 "(implicit minimax), so not the chance to win shown below; ±: its standard "
                 "error, in percentage points")
    lines.append(f"  points: {SEATS[seat]}'s expected final score after the decision (VP; "
                 "where a playout stops at the search's horizon, the evaluation's forecast "
                 "there); lead: the expected margin over the best other seat, ± its standard "
                 "error")
    lines.append("")
    return "\n".join(lines + _breakdown(data) + _totals(data, seat))


def _points(action: dict, seat) -> str:
    """A decision's expected points, lead and its ± as columns ('' without them)."""
    if action["margin"] is None:
        return ""
    return (f"{action['expected_score'][seat]:6.1f}  {action['margin']:+6.1f}  "
            f"{_error(action['margin_error'])}")


def _error(value: float) -> str:
    """A standard error in a column of 5, with the precision it has: one
    decimal, or two significant digits below 0.1 (never a bare 0.0)."""
    if value >= 0.1:
        return f"{value:5.1f}"
    if value <= 0:
        return f"{0:5d}"
    return f"{value:5.2g}" if value >= 0.001 else f"{value:5.0e}"


BREAKDOWN_ROWS = 5          # the sources that differ most
BREAKDOWN_MIN = 0.05        # VP: a smaller difference is not worth a word


def _breakdown(data: dict) -> list:
    """Why the recommendation scores more (or less) than the best rival, in VP
    by scoring source: the sources that differ most (the answer's points_breakdown)."""
    breakdown = data["points_breakdown"]
    if breakdown is None:
        return []
    rows = sorted((r for r in breakdown["by_source"] if abs(r["difference"]) >= BREAKDOWN_MIN),
                  key=lambda r: -abs(r["difference"]))[:BREAKDOWN_ROWS]
    total = breakdown["decision_points"] - breakdown["rival_points"]
    words = ", ".join(f"{r['difference']:+.1f} {r['source']}" for r in rows) or "no difference"
    return [f"In points, {breakdown['decision']} against {breakdown['rival']}: {total:+.1f} VP "
            f"({words})", ""]


def _plural(count, word):
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def _totals(data: dict, seat, heading: str = "Chances to win and expected final scores over "
            "the whole search (every iteration, the other decisions tried included: the "
            "position's chances, not one decision's):") -> list:
    """The win probabilities, expected scores and the search's figures."""
    lines = [heading]
    for p, name in enumerate(data["seats"]):
        who = name + (" (to move)" if p == seat else "")
        lines.append(f"  {who:<16} {_percent(data['win_probability'][p])}  "
                     f"{data['expected_score'][p]:6.1f} VP")
    lines.append("")
    st = data["stats"]
    speed = ("" if st["iterations_per_second"] is None
             else f" ({st['iterations_per_second']:,.0f}/s)")
    lines.append(f"Search: {_plural(st['iterations'], 'iteration')} in {st['seconds']:.2f} s"
                 f"{speed}, {_plural(st['tree_nodes'], 'tree node')}, "
                 f"{_plural(st['workers'], 'worker')}, seed {st['seed']}, "
                 f"c {st['c']} ({st['explore']}), {st['rollout']} rollouts")
    if st["tree_full"]:
        lines.append(f"  The tree reached its bound of {st['max_nodes']:,} nodes a worker and "
                     "stopped growing; the rest of the budget refined only its statistics.")
    return lines


@click.command("suggest", context_settings=HELP)
@click.argument("position", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--bot", "bot", default=None, metavar="SPEC",
              help="The search as a bot spec (`ulm bots`): ismcts with its options, e.g. "
                   "ismcts:preset=v0.2,c=1.2, or a preset's name (v0.2). The options below "
                   "are its shorthands; one the spec also sets is an error. Without a budget "
                   f"in either: {DEFAULT_ITERATIONS} iterations.")
@shorthand_options
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON on stdout.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--svg", "svg_out", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Draw the board with the recommended decisions into this SVG file.")
@click.option("--png", "png_out", type=click.Path(dir_okay=False, writable=True), default=None,
              callback=needs_extra("cairosvg", "picture"),
              help="Draw the board with the recommended decisions into this PNG file.")
def suggest(position, bot, as_json, quiet, svg_out, png_out, **shorthands):
    """Suggest the decisions of the player to move in POSITION (ISMCTS).

    The search uses only what the player to move can know: hidden cards and
    coats of arms in the file are redealt on every iteration.
    """
    given = {name: value for name, value in shorthands.items() if value is not None}
    if {"iterations", "time"} <= given.keys():
        raise click.UsageError("give either --iterations or --time, not both")
    try:
        if position == "-":
            from cli.position_input import read_position_arg
            _, state, seat = read_position_arg(position)
        else:
            state, seat = load_position(position)
    except PositionError as exc:
        _fail(str(exc))
    mover = state.current_player()
    if mover < 0:
        _fail(f"{position}: the position is not a decision of a player "
              f"({'the game is over' if state.is_terminal() else 'a chance event is pending'})")
    if seat != mover:
        _fail(f"{position}: {SEATS[seat]} is not the player to move ({SEATS[mover]} is)")

    params = suggest_params(bot, given, state.num_players())
    iterations = params.iterations
    bar = _progress_bar(iterations, params.time, not (as_json or quiet))
    progress = None
    if bar is not None:
        def progress(done, elapsed):
            target = done if iterations is not None else min(round(elapsed, 1), bar.total)
            if target > bar.n:
                bar.update(target - bar.n)    # update() honours tqdm's delay; refresh() would not
    try:
        result = search(state, params=params, progress=progress)
    finally:
        if bar is not None:
            bar.close()
    answer = result.to_dict()
    if svg_out or png_out:
        from cli.picture_opts import write_pictures
        from ulm import ACTION_NAMES
        write_pictures(state, seat, (), svg_out, png_out,   # as the player to move sees it
                       actions=[step["action"] for step in answer["principal_line"]
                                if 0 <= step["action"] < len(ACTION_NAMES)])
    if as_json:     # the answer (docs/library.md) with the position it answers
        click.echo(json.dumps({"position": str(position), "seat": seat, **answer}, indent=2))
    else:
        click.echo(format_result(answer, state, seat,
                                 "(standard input)" if position == "-" else position))
