"""What `show`, `apply` and `suggest` share: positions from a file or standard input,
and the board pictures (--svg, --png)."""
from __future__ import annotations

import sys

from cli import InputError
from ulm.decisions import DecisionError
from ulm.follow import parse_line
from ulm.jsonfile import MAX_BYTES, decode_text, write_atomically
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


def parse_highlight(state, names) -> list[int]:
    """Decision names (as `ulm apply` takes them) -> action ids, checked in order."""
    try:
        return parse_line(state, list(names))
    except DecisionError as exc:
        raise InputError(f"--highlight: {exc}") from None


def write_pictures(state, viewer, highlight, svg_out, png_out, actions=None) -> None:
    """Draw the board into the files asked for; `actions` (ids) are highlighted as given."""
    if not (svg_out or png_out):
        return
    from ulm.picture import board_svg, svg_to_png
    if actions is None:
        actions = parse_highlight(state, highlight) if highlight else []
    svg = board_svg(state, viewer=viewer, highlight=actions)
    try:
        if svg_out:
            write_atomically(svg_out, svg)
        if png_out:
            svg_to_png(svg, png_out)
    except OSError as exc:
        from cli import os_error
        raise os_error(exc) from None
