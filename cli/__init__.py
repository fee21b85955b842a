"""The `ulm` command line (cli.main:main) and what its commands share."""
from __future__ import annotations

import errno
import math
import sys

import click

# help options of every command, also when a command is used on its own
HELP = {"help_option_names": ["-h", "--help"]}


class InputError(click.ClickException):
    """Bad input from the user: exit status 2 like click's own usage errors."""
    exit_code = 2


def worded(exc: Exception, options: dict) -> InputError:
    """A library's error, which names its setting as data (ulm.errors.OptionError:
    `games`, "at most ..."), worded by the command-line option that gives it
    (`--games: at most ...`; options: setting -> option); any other error as it is."""
    from ulm.errors import OptionError
    if isinstance(exc, OptionError) and exc.field in options:
        return InputError(exc.in_words(options))
    return InputError(str(exc))


class FiniteFloatRange(click.FloatRange):
    """click.FloatRange that also refuses nan (it compares false with every bound)
    and infinities (they pass a range open at one end)."""

    def convert(self, value, param, ctx):
        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):       # before the range: inf is out of any range
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return super().convert(number, param, ctx)


class WholeRange(click.IntRange):
    """click.IntRange that reads a whole number by the one grammar of
    ulm.numbers.parse_whole (the digits 0-9, a minus sign): int() alone would
    also take "1_000", "+3", " 3 " and other scripts' digits."""

    def convert(self, value, param, ctx):
        if isinstance(value, str):
            from ulm.numbers import parse_whole
            try:
                value = parse_whole(value, None)
            except ValueError as exc:
                self.fail(str(exc), param, ctx)
        return super().convert(value, param, ctx)


def hold_whole_numbers(command: click.Command) -> None:
    """Make every whole-number parameter of `command` (and of its subcommands)
    a WholeRange of the same bounds, wherever it was declared: `type=int` and
    click.IntRange alike."""
    for param in command.params:
        kind = param.type
        if isinstance(kind, WholeRange):
            continue
        if isinstance(kind, click.IntRange):
            param.type = WholeRange(kind.min, kind.max, min_open=kind.min_open,
                                    max_open=kind.max_open, clamp=kind.clamp)
        elif kind is click.INT:
            param.type = WholeRange()
    for sub in getattr(command, "commands", {}).values():
        hold_whole_numbers(sub)


def iterations_option_type() -> click.IntRange:
    """An iteration budget: 1 to the search's bound (mcts.searcher.search.MAX_ITERATIONS)."""
    from mcts.searcher.search import MAX_ITERATIONS
    return click.IntRange(1, MAX_ITERATIONS)


def seconds_option_type() -> FiniteFloatRange:
    """A time budget: more than 0, at most the search's bound (mcts.searcher.search.MAX_SECONDS)."""
    from mcts.searcher.search import MAX_SECONDS
    return FiniteFloatRange(0, MAX_SECONDS, min_open=True)


class SeatType(click.ParamType):
    """A seat by colour name (Red, Blue, Green, Yellow) or number (0..3): ulm.parse_seat."""
    name = "seat"

    def convert(self, value, param, ctx):
        from ulm import parse_seat
        try:
            return parse_seat(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


SEAT = SeatType()


class Interrupted(click.ClickException):
    """Ctrl-C: a short note on stderr and exit status 130 (128 + SIGINT), no traceback."""
    exit_code = 130

    def __init__(self):
        super().__init__("interrupted")

    def show(self, file=None):
        click.echo("Interrupted.", err=True)


# errors of a write that name no file: the write to standard output failed
# (click.echo writes and flushes there; a full disk or device, a file too large)
OUTPUT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}


def os_error(exc: OSError) -> InputError:
    """`Error: <file>: <reason>` for a file that cannot be read or written; a failed
    write without a file name is one to standard output."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    if exc.filename is not None:
        return InputError(f"{exc.filename}: {reason}")
    if exc.errno in OUTPUT_ERRNOS:
        return InputError(f"standard output: {reason}")
    return InputError(reason)


def fail_on_input_errors(fn):
    """Turn the library's validation errors into InputError."""
    import functools

    from ulm.board import BoardError
    from ulm.positions import PositionError
    from ulm.records import RecordError

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (BoardError, PositionError, RecordError) as exc:
            raise InputError(str(exc)) from None
        except BrokenPipeError:  # output piped into `head` and the like
            sys.stderr.close()
        except OSError as exc:
            raise os_error(exc) from None
    return wrapper


def needs_extra(module: str, extra: str):
    """The callback of an option that needs an extra (--png, --plot): checked when
    the option is given, before any work; the command group turns the MissingExtra
    into `Error: --png needs the picture extra: ...` (exit 2)."""
    def check(ctx, param, value):
        if value is not None:
            from ulm.extras import require
            require(module, extra, max(param.opts, key=len))
        return value
    return check


def plot_note(name: str) -> str:
    """`name` (a plot a command writes, e.g. win_rates.png) when matplotlib is
    installed; otherwise a note on stderr naming the plot extra, and ''."""
    from ulm.extras import MissingExtra, installed
    if installed("matplotlib"):
        return name
    click.echo(f"Note: {MissingExtra(name, 'plot', 'matplotlib')}; it is not drawn", err=True)
    return ""


# --scheduler of the commands that play tournaments (tournament, tune)
SCHEDULER_HELP = ("Play the games as tasks on a Dask cluster: tcp://HOST:8786 (a running "
                  "`dask scheduler`) or local:N (start N local worker processes); same games "
                  "and results as without. Needs pip install 'ulm-engine[cluster]'.")


class SeedType(click.ParamType):
    """A seed: a whole number from 0 to 2**64 - 1 (ulm.numbers.parse_seed)."""
    name = "integer"

    def convert(self, value, param, ctx):
        from ulm.numbers import parse_seed
        try:
            return parse_seed(value, None)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


# The options the commands that play many games share (tournament, tune, ladder),
# and the seed every command reads the same way.
SEED = SeedType()


def seed_option(help: str = "Seed of the deals: the same seed gives the same games."):
    return click.option("--seed", type=SEED, default=0, show_default=True, help=help)


def players_option(default: int = 2):
    return click.option("--players", type=click.IntRange(2, 4), default=default,
                        show_default=True, help="Players in every game.")


def workers_option(help: str = "Worker processes playing games in parallel (without "
                               "--scheduler)."):
    import os

    from mcts import MAX_WORKERS
    return click.option("--workers", type=click.IntRange(1, MAX_WORKERS),
                        default=min(os.cpu_count() or 1, MAX_WORKERS), show_default=True,
                        help=help)


def scheduler_option():
    return click.option("--scheduler", default=None, metavar="ADDRESS", help=SCHEDULER_HELP)


def json_option(what: str):
    return click.option("--json", "as_json", is_flag=True, help=f"Print {what} as JSON.")


def quiet_option(help: str = "No progress bar."):
    return click.option("--quiet", is_flag=True, help=help)


def check_workers_or_scheduler(scheduler) -> None:
    """--workers counts local processes: with --scheduler it would be ignored."""
    ctx = click.get_current_context()
    if scheduler and ctx.get_parameter_source("workers") == click.core.ParameterSource.COMMANDLINE:
        raise InputError("--workers: counts local worker processes and cannot go with "
                         "--scheduler (the cluster's workers play; local:N starts N of them)")


def engines_option():
    """--engine NAME=COMMAND (repeat) and --engines FILE: the engine programs that the
    bot spec engine:NAME may seat (docs/engines.md). The command gets them as one
    argument, `engines` (NAME -> COMMAND, registered with mcts.play.engines)."""
    import functools

    def decorate(fn):
        @functools.wraps(fn)
        def wrapper(*args, engine=(), engines_file=None, **kwargs):
            return fn(*args, engines=registered_engines(engine, engines_file), **kwargs)
        wrapper = click.option(
            "--engines", "engines_file", type=click.Path(dir_okay=False), default=None,
            metavar="FILE", help='A file of engines: {"engines": {"NAME": "COMMAND", ...}}.')(wrapper)
        return click.option(
            "--engine", "engine", multiple=True, metavar="NAME=COMMAND",
            help="An engine program the bot spec engine:NAME seats (repeat; the protocol: "
                 "docs/engines.md).")(wrapper)
    return decorate


def registered_engines(given, engines_file) -> dict:
    """The engines of --engines FILE and --engine NAME=COMMAND, registered."""
    from mcts.play.engines import EngineError, parse_engine, read_engines_file, register_engine
    engines: dict = {}
    if engines_file is not None:
        try:
            engines.update(read_engines_file(engines_file))
        except EngineError as exc:      # names the file and the entry
            raise InputError(f"--engines: {exc}") from None
    for text in given:
        try:
            name, command = parse_engine(text, "--engine")
        except EngineError as exc:      # names the option it was given as
            raise InputError(str(exc)) from None
        engines[name] = command
    for name, command in engines.items():
        register_engine(name, command)
    return engines


def engines_named(engines: dict, specs) -> dict:
    """The engines of `engines` that the bot specs seat (engine:NAME...)."""
    named = {spec.strip().split(":")[1].strip() for spec in specs
             if spec.strip().startswith("engine:") and spec.count(":") >= 1}
    return {name: command for name, command in engines.items() if name in named}
