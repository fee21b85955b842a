"""The arguments of a bench or lab script, read and checked in one way: -h or --help
prints the script's docstring; a missing, extra or bad value is named, with the
usage, exit status 2 and no traceback (argparse).

    seconds, players = read_args(__doc__, sys.argv[1:], ("SECONDS", seconds, 0.02),
                                 ("PLAYERS", players, 2))
"""
from __future__ import annotations

import argparse
import math

MOST = 10**9                # a count: positions, games, iterations
MOST_SECONDS = 86_400.0     # a day
REQUIRED = object()         # a default that makes the value required


def _shown(text: str) -> str:
    return repr(text[:40] + ("..." if len(text) > 40 else ""))


def whole(text: str) -> int:
    """A count: a whole number from 1 to a billion."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MOST:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to {MOST:,}, "
                                         f"got {_shown(text)}")
    return value


def natural(text: str) -> int:
    """A count that may be 0: a whole number from 0 to a billion."""
    return 0 if text.strip() == "0" else whole(text)


def seed(text: str) -> int:
    """A seed: a whole number from 0 to 2**64 - 1."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"must be a whole number from 0 to 2**64 - 1, "
                                         f"got {_shown(text)}")
    return value


def players(text: str) -> int:
    if text.strip() not in ("2", "3", "4"):
        raise argparse.ArgumentTypeError(f"must be 2, 3 or 4 players, got {_shown(text)}")
    return int(text)


def seconds(text: str) -> float:
    """A time: seconds above 0, at most a day."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value <= MOST_SECONDS:     # NaN fails both
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0 and at most "
                                         f"{MOST_SECONDS:,.0f}, got {_shown(text)}")
    return value


def wholes(text: str) -> list[int]:
    """A list of counts: whole numbers separated by commas (500,2000,10000)."""
    try:
        return [whole(part) for part in text.split(",")]
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"must be whole numbers from 1 to {MOST:,} "
                                         f"separated by commas, got {_shown(text)}") from None


def text(value: str) -> str:
    """A text (a bot spec, a file name): not empty, at most 1,000 characters."""
    if not value.strip() or len(value) > 1000:
        raise argparse.ArgumentTypeError(f"must be a text of 1 to 1,000 characters, "
                                         f"got {_shown(value)}")
    return value


def read_args(doc: str | None, argv: list[str], *values: tuple) -> list:
    """The values named in `values`, (NAME, reader, default) each, in order, from
    `argv`: a NAME is a positional value, a --NAME an option; a default of
    REQUIRED makes the value required. No values: the script takes none."""
    parser = argparse.ArgumentParser(description=doc,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    dests = []
    for name, reader, default in values:
        if name.startswith("-"):
            action = parser.add_argument(name, type=reader, default=default,
                                         required=default is REQUIRED)
        elif default is REQUIRED:
            action = parser.add_argument(name, type=reader)
        else:
            action = parser.add_argument(name, type=reader, nargs="?", default=default)
        dests.append(action.dest)
    found = parser.parse_args(argv)
    return [getattr(found, dest) for dest in dests]
