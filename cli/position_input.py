"""Positions for `show`, `apply` and `suggest`: from a file, or from standard input
for `-`."""
from __future__ import annotations

import sys

from ulm.jsonfile import MAX_BYTES, decode_text
from ulm.positions import PositionError, read_position, read_position_text

STDIN = "<stdin>"   # how messages name standard input


def read_stdin(error: type[Exception]) -> str:
    """Standard input as text (UTF-8, at most MAX_BYTES); problems raise `error`."""
    return decode_text(sys.stdin.buffer.read(MAX_BYTES + 1), STDIN, error)


def read_position_arg(path: str):
    """(parsed file, state, seat) of a position file, or of standard input for `-`."""
    if path == "-":
        return read_position_text(read_stdin(PositionError), STDIN)
    return read_position(path)
