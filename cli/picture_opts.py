"""The board pictures of `show`, `apply` and `suggest` (--svg, --png, --highlight)."""
from __future__ import annotations

from cli import InputError
from ulm.decisions import DecisionError
from ulm.follow import parse_line
from ulm.jsonfile import write_atomically


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
