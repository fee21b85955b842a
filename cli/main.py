"""The `ulm` command: a thin click layer over the library.

Bad input of any kind ends with `Error: <what and where>` on stderr and exit
status 2, never a traceback, and no file half-written.
"""
from __future__ import annotations

import sys

import click

from cli import (
    HELP,
    SEAT,
    SEED,
    InputError,
    Interrupted,
    fail_on_input_errors,
    hold_whole_numbers,
    needs_extra,
    os_error,
)
from cli.picture_opts import write_pictures
from cli.position_input import STDIN, read_position_arg, read_stdin
from ulm import SEATS
from ulm.board import parse_board
from ulm.extras import MissingExtra
from ulm.game import VARIANTS, Game
from ulm.jsonfile import loads, read_text, write_atomically
from ulm.positions import PositionError, dumps, position_to_state, state_to_position
from ulm.records import RecordError, load_record, replay
from ulm.render import (
    plural,
    render_breakdown,
    render_position,
    render_state,
    result_line,
)


def write_output(text: str, out: str | None) -> None:
    if out is None:
        click.echo(text, nl=False)
        return
    if out == "":
        raise InputError("--output: no file name given")
    write_atomically(out, text)


class UlmGroup(click.Group):
    """The command group; a Ctrl-C inside any command ends it with status 130; a
    missing extra, or a file or standard output that cannot be written (a full
    disk), with `Error: <where>: <reason>` and status 2."""

    def invoke(self, ctx):
        try:
            result = super().invoke(ctx)
            if sys.stdout is not None and not sys.stdout.closed:
                sys.stdout.flush()  # what is still buffered fails here, not at exit
            return result
        except KeyboardInterrupt:
            raise Interrupted() from None
        except MissingExtra as exc:  # an extra that a command or option needs
            raise InputError(str(exc)) from None
        except BrokenPipeError:     # output piped into `head` and the like
            sys.stderr.close()
        except OSError as exc:
            raise os_error(exc) from None

    def add_command(self, cmd, name=None):
        """Every command's whole numbers are read by the one grammar
        (ulm.numbers: the digits 0-9), however its options were declared."""
        hold_whole_numbers(cmd)
        super().add_command(cmd, name)

    def main(self, *args, **kwargs):
        try:    # `ulm --help` and `--version` write before any command runs
            return super().main(*args, **kwargs)
        except BrokenPipeError:
            sys.stderr.close()
        except OSError as exc:
            error = os_error(exc)
            error.show()
            sys.exit(error.exit_code)


@click.group(cls=UlmGroup, context_settings=dict(HELP, show_default=True))
@click.version_option(package_name="ulm-engine")
def main():
    """Ulm: rules engine, move suggestions, bot tournaments and benchmarks.

    Positions are JSON files (see docs/positions.md); `ulm new` writes one.
    """


@main.command("new")
@click.option("--players", type=click.IntRange(2, 4), default=4, help="Number of players.")
@click.option("--variant", type=click.Choice(VARIANTS), default=VARIANTS[0])
@click.option("--seed", type=SEED, default=0, help="Seed of the set-up draws.")
@click.option("--as", "viewer", type=SEAT, default=None,
              help="Write the view of this seat (what that player knows) instead of the full state.")
@click.option("--board", type=click.Path(dir_okay=False), default=None, help="A corrected board table.")
@click.option("--before-setup", is_flag=True,
              help="Write the position before the set-up's draws (an empty grid), so that a "
                   "real table's set-up is entered with `ulm apply` (\"drew white\" for each "
                   "grid space, each player's tile, \"revealed Abbot\" ...) instead of "
                   "dealt from --seed.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write to this file instead of standard output.")
@fail_on_input_errors
def new_cmd(players, variant, seed, viewer, board, before_setup, output):
    """Write a freshly set-up position (or, with --before-setup, one whose
    set-up is still to be entered)."""
    if viewer is not None and viewer >= players:
        raise InputError(f"--as: no seat {SEATS[viewer]} in a {players}-player game")
    if before_setup and click.get_current_context().get_parameter_source("seed") \
            == click.core.ParameterSource.COMMANDLINE:
        raise InputError("--seed: deals the set-up; with --before-setup the set-up is "
                         "entered with `ulm apply`, so leave out --seed")
    game = Game(players=players, variant=variant, board=board)
    state = game.new_initial_state() if before_setup else game.new_game(seed)
    data = state_to_position(state, viewer)
    if board:
        data["board"] = board
    write_output(dumps(data), output)


@main.command("show")
@click.argument("position", type=click.Path(dir_okay=False))
@click.option("--as", "viewer", type=SEAT, default=None, help="Show only what this seat knows.")
@click.option("--svg", "svg_out", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also draw the board as an SVG picture into this file.")
@click.option("--png", "png_out", type=click.Path(dir_okay=False, writable=True), default=None,
              callback=needs_extra("cairosvg", "picture"),
              help="Also draw the board as a PNG picture into this file.")
@click.option("--highlight", multiple=True, metavar="DECISION",
              help="Draw this decision on the picture (repeat for a whole turn, in order), "
                   "e.g. --highlight draw --highlight 'push row 2 from left'.")
@fail_on_input_errors
def show_cmd(position, viewer, svg_out, png_out, highlight):
    """Print a position as text: grid, docks, river, quarters, players, scores.

    With --svg/--png the board is also drawn as a picture; POSITION may be `-`
    (standard input).
    """
    if highlight and not (svg_out or png_out):     # it would be read and drawn nowhere
        raise InputError("--highlight: draws on the picture; give --svg or --png too")
    data, state, seat = read_position_arg(position)
    if data["kind"] == "view":
        if viewer is not None and viewer != seat:
            raise InputError(f"--as: {position} is the view of {SEATS[seat]}")
        viewer = seat
    elif viewer is not None and viewer >= state.num_players():
        raise InputError(f"--as: no seat {SEATS[viewer]} in a {state.num_players()}-player game")
    write_pictures(state, viewer, highlight, svg_out, png_out)
    click.echo(render_state(state, viewer))
    if viewer is None:
        click.echo("\nScore breakdown" + (" (final)" if state.is_terminal() else
                                           " (end-game items as if the game ended now)") + ":")
        click.echo(render_breakdown(state))


@main.command("validate")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@fail_on_input_errors
def validate_cmd(file):
    """Check a position, game record or board file; exit 2 with the reason if it is bad.

    FILE `-` reads standard input (e.g. `ulm replay R.json --json | ulm validate -`)."""
    source = STDIN if file == "-" else file
    text = read_stdin(PositionError) if file == "-" else read_text(file, PositionError)
    data = loads(text, source, PositionError)
    kind = data.get("format", "") if isinstance(data, dict) else ""
    # the format decides which loader reports what is wrong
    if str(kind).startswith("ulm-record"):
        try:
            rec = replay(data, None, source)
        except RecordError as exc:
            raise RecordError(f"{source}: {exc}") from None
        from ulm.render import plural
        click.echo(f"{source}: a valid game record, {plural(len(rec.decisions), 'decision')}")
    elif str(kind).startswith("ulm-board"):
        parse_board(data, source)     # its errors name the source
        click.echo(f"{source}: a valid board table")
    else:
        try:
            state, seat = position_to_state(data, source)
        except PositionError as exc:
            raise PositionError(f"{source}: {exc}") from None
        if state.current_player() == seat:
            who = f"{SEATS[seat]} to move"
        elif data.get("kind") == "view":
            who = f"{SEATS[seat]} viewing"
        else:       # a full position waiting for a chance event (a set-up draw, a tile)
            who = "a chance event next"
        click.echo(f"{source}: a valid position, {state.num_players()} players, {who}")


@main.command("replay")
@click.argument("record", type=click.Path(dir_okay=False))
@click.option("--at", type=click.IntRange(0), default=None,
              help="Stop after this many decisions (default: all).")
@click.option("--as", "viewer", type=SEAT, default=None, help="Give the view of this seat.")
@click.option("--json", "as_json", is_flag=True, help="Print the position as JSON.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write the position file here.")
@fail_on_input_errors
def replay_cmd(record, at, viewer, as_json, output):
    """Replay a game record and show (or save) the position at a decision."""
    rec = load_record(record, at)
    state = rec.state
    if viewer is not None and viewer >= state.num_players():
        raise InputError(f"--as: no seat {SEATS[viewer]} in a {state.num_players()}-player game")
    data = state_to_position(state, viewer)
    if output is not None or as_json:
        write_output(dumps(data), output)
        return
    click.echo(f"After {plural(len(rec.decisions), 'decision')}:")
    click.echo(render_position(data, state.game.table,
                               result_line(state) if state.is_terminal() else None))
    if viewer is None:
        click.echo("\nScore breakdown:")
        click.echo(render_breakdown(state))


# the commands of the other modules of cli/
from cli.annotate_cmd import annotate  # noqa: E402
from cli.apply_cmd import apply  # noqa: E402
from cli.bench_cmd import bench  # noqa: E402
from cli.ladder_cmd import ladder  # noqa: E402
from cli.play_cmd import bots_cmd, play, tournament  # noqa: E402
from cli.suggest_cmd import suggest  # noqa: E402
from cli.tune_cmd import tune  # noqa: E402
from cli.train_cmd import train  # noqa: E402

for _command in (suggest, play, tournament, bots_cmd, bench, apply, annotate, ladder, tune,
                 train):
    main.add_command(_command)

from cli.serve_cmd import serve  # noqa: E402  (ulm serve: the web companion)

main.add_command(serve)

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
