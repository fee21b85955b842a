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


class FiniteFloatRange(click.FloatRange):
    """click.FloatRange that also refuses nan (it compares false with every bound)
    and infinities (they pass a range open at one end)."""

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


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


# --scheduler of the commands that play tournaments (tournament, tune)
SCHEDULER_HELP = ("Play the games as tasks on a Dask cluster: tcp://HOST:8786 (a running "
                  "`dask scheduler`) or local:N (start N local worker processes); same games "
                  "and results as without. Needs pip install 'ulm-engine[cluster]'.")


def check_workers_or_scheduler(scheduler) -> None:
    """--workers counts local processes: with --scheduler it would be ignored."""
    ctx = click.get_current_context()
    if scheduler and ctx.get_parameter_source("workers") == click.core.ParameterSource.COMMANDLINE:
        raise InputError("--workers: counts local worker processes and cannot go with "
                         "--scheduler (the cluster's workers play; local:N starts N of them)")
