"""The board as a picture: a standalone SVG document (and a PNG of it).

    >>> from ulm.picture import board_svg, board_png, action_target
    >>> svg = board_svg(state, viewer=0, highlight=[1, 2])   # a view, a suggested turn
    >>> board_png(state, "board.png")

The picture is drawn from the position dict (ulm.positions.state_to_position),
so a view shows only what its viewer knows, and from the board table of the
state's game (river values, bonus spaces, quarter ranges, coats), so a
replaced board file draws correctly.

Every board object is one SVG element with a stable class and data
attributes, so tests can count them and a web page can click them:

    cell (data-cell 0..8)          outer (data-outer 0..11)    entry (data-entry 0..11)
    side (data-side top|right|bottom|left)                     dock (data-colour)
    bag                            supply (data-seat, data-colour)
    river-space (data-index)       barge (data-seat)           quarter (data-quarter)
    seal (data-seat and data-quarter, or data-outer for a coat marker)
    crest (data-seat, data-quarter)
    coat (data-coat, data-place seat|looked|under: under the stack, one the viewer knows)
    descendant (data-descendant, data-place board|seat)        tower (data-tile, data-role)
    card (data-card, data-place hand|front|discard|looked, data-seat for hand and front,
          data-known="all" for a hand card taken face up, shown in every view)
    card-back (data-seat: an opponent's hidden hand card)      player (data-seat)

A view draws what its position holds (ulm.positions.state_to_position, the
source of `ulm show`'s text too): an opponent's cards taken face up, the coats
the viewer knows under the stack or being looked at (R-INFO-3, R-COAT-4).

`action_target(state, action)` says which element a decision belongs to
({"kind": "entry", "value": 3}); `kind` is the element's class and `value`
its main data attribute. With `interactive=True` the targets of the legal
decisions of the player to move get the class `target` and a `data-actions`
attribute listing those decision ids.
"""
from __future__ import annotations

from pathlib import Path

from ulm.decisions import decision_label
from ulm.picture.cathedral import _draw_cathedral
from ulm.picture.city import _draw_city
from ulm.picture.info import _draw_info
from ulm.picture.marks import _draw_highlight, _draw_last, _draw_ranked
from ulm.picture.players import _draw_players
from ulm.picture.style import HIGHLIGHT, MARGIN, SEAT_FILL, TILE_FILL, WIDTH
from ulm.picture.svg import _Svg
from ulm.picture.targets import _key, action_target

__all__ = ["board_svg", "board_png", "action_target", "TILE_FILL", "SEAT_FILL"]


def board_svg(state, viewer: int | None = None, highlight: list[int] | None = None,
              interactive: bool = False, last: list | None = None,
              ranked: list[int] | None = None) -> str:
    """The board as a standalone SVG document (see the module doc for its elements).

    last: the decisions of the last turn as pairs (the state before, the decision),
    e.g. ulm.decisions.last_turn(...); each is marked (class "last-move").
    ranked: the best few decisions of the player to move, best first; each is marked
    with its rank (class "ranked", data-rank)."""
    from ulm.positions import state_to_position
    pos = state_to_position(state, viewer)
    table = state.game.table
    targets: dict[tuple, list[int]] = {}
    if interactive and (state.current_player() >= 0 or state.is_chance_node()):
        for a in state.legal_actions():
            t = action_target(state, a)
            if t:
                targets.setdefault(_key(t), []).append(a)
    svg = _Svg(targets)
    who = f" — view of {pos['viewer']}" if pos["kind"] == "view" else ""
    svg.text(MARGIN, 30, f"Ulm — {len(pos['players'])} players, {pos['variant']} game{who}", 18,
             weight="bold")
    _draw_city(svg, pos, table)
    _draw_cathedral(svg, pos, table)
    height = _draw_players(svg, pos, table) + 20
    highlight = list(highlight or [])
    _draw_info(svg, pos, table, [f"{i}. {decision_label(a)}" for i, a in enumerate(highlight, 1)])
    if last:
        _draw_last(svg, last, viewer)
    # on top of everything, once every element's box is known; the ranks' badges clear
    # of the line's step numbers
    taken = _draw_highlight(svg, state, highlight) if highlight else []
    if ranked:
        _draw_ranked(svg, state, list(ranked), taken)
    head = _Svg({})
    head.parts.append(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height:.0f}" '
        f'viewBox="0 0 {WIDTH} {height:.0f}" font-family="DejaVu Sans, Verdana, sans-serif">')
    head.parts.append(
        "<defs><marker id=\"arrowhead\" viewBox=\"0 0 10 10\" refX=\"6\" refY=\"5\" "
        "markerWidth=\"5\" markerHeight=\"5\" orient=\"auto-start-reverse\">"
        f"<path d=\"M0,0 L10,5 L0,10 z\" fill=\"{HIGHLIGHT}\"/></marker>"
        "<style>.target { cursor: pointer; }</style></defs>")
    head.rect(0, 0, WIDTH, height, "#fdfaf3", stroke="none", rx=0)
    return "\n".join(head.parts + svg.parts + ["</svg>"]) + "\n"


def svg_to_png(svg: str, path: str | Path, scale: float = 1.0) -> None:
    """Render an SVG document to a PNG file (cairosvg, the picture extra), written
    whole or not at all."""
    from ulm.extras import require
    from ulm.jsonfile import write_atomically
    cairosvg = require("cairosvg", "picture", "a PNG picture")
    write_atomically(path, cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale))


def board_png(state, path: str | Path, viewer: int | None = None,
              highlight: list[int] | None = None, interactive: bool = False,
              scale: float = 1.0) -> None:
    """The board as a PNG file (the SVG of board_svg, rendered by cairosvg)."""
    svg_to_png(board_svg(state, viewer, highlight, interactive), path, scale)
