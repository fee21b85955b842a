"""The cathedral area: the 3x3 grid of tiles, the twelve outer spaces with their
coats and seals, the four sides and the entry arrows."""
from __future__ import annotations

from ulm.render import plural
from ulm._fastcore import COATS, PUSH_ENTRIES, PUSH_ENTRY_OUTER, SIDES
from ulm.picture.style import (SEAT_FILL, GOLD, SILVER, HIGHLIGHT, PAPER, INK, FAINT, MARGIN,
                               CITY_BOTTOM, CELL, GAP, ARROW, GRID_X, GRID_Y)
from ulm.picture.svg import _Svg, _shield, _coat_label, _tile


def _outer_xy(k: int) -> tuple[float, float]:
    if k < 3:
        return GRID_X + k * CELL, GRID_Y - GAP - CELL
    if k < 6:
        return GRID_X + 3 * CELL + GAP, GRID_Y + (k - 3) * CELL
    if k < 9:
        return GRID_X + (8 - k) * CELL, GRID_Y + 3 * CELL + GAP
    return GRID_X - GAP - CELL, GRID_Y + (11 - k) * CELL


def _entry_arrow(e: int) -> tuple[float, float, str, float, float]:
    """Centre of the arrow of entry e, its direction and its box size."""
    ox, oy = _outer_xy(PUSH_ENTRY_OUTER[e])
    if e < 3:
        return ox - ARROW / 2 - 2, oy + CELL / 2, "right", ARROW, CELL
    if e < 6:
        return ox + CELL + ARROW / 2 + 2, oy + CELL / 2, "left", ARROW, CELL
    if e < 9:
        return ox + CELL / 2, oy - ARROW / 2 - 2, "down", CELL, ARROW
    return ox + CELL / 2, oy + CELL + ARROW / 2 + 2, "up", CELL, ARROW


def _arrow_path(cx, cy, direction, length, width) -> str:
    """A block arrow centred on (cx, cy) pointing in `direction`."""
    half, head = length / 2, min(length * 0.45, width * 0.9)
    shaft = width * 0.35
    pts = [(-half, -shaft), (half - head, -shaft), (half - head, -width), (half, 0),
           (half - head, width), (half - head, shaft), (-half, shaft)]
    rot = {"right": (1, 0), "left": (-1, 0), "down": (0, 1), "up": (0, -1)}[direction]
    out = []
    for px, py in pts:
        x = cx + px * rot[0] - py * rot[1]
        y = cy + px * rot[1] + py * rot[0]
        out.append(f"{x:.1f},{y:.1f}")
    return "M" + " L".join(out) + " Z"


def _draw_cathedral(svg: _Svg, pos: dict, table: dict):
    svg.text(MARGIN, CITY_BOTTOM + 40, "Cathedral area (push a tile in at an arrow)", 12,
             weight="bold")
    marks = {}
    for p in pos["players"]:
        unmarked = set(p.get("unmarked coats", []))
        for c in p["coats"]:
            if c not in unmarked:
                marks[table["coat_outer"][COATS.index(c)]] = p["name"]
    # the four sides (clear-away) behind their outer spaces
    for s, side in enumerate(SIDES):
        ks = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (9, 10, 11)][s]
        xs = [_outer_xy(k) for k in ks]
        x0 = min(x for x, _ in xs) - 4
        y0 = min(y for _, y in xs) - 4
        w = max(x for x, _ in xs) + CELL + 4 - x0
        h = max(y for _, y in xs) + CELL + 4 - y0
        tiles = sum(1 for k in ks if pos["outer spaces"][k])
        svg.element(("side", side, None), (x0, y0, w, h), "side",
                    f"{side} side: {plural(tiles, 'tile')} (clear {side})", data_side=side)
        svg.rect(x0, y0, w, h, "#e9e1cf", stroke="#b8a887", sw=1, rx=6)
        svg.close()
    pushed = pos["turn"].get("pushed out at")
    for k in range(12):
        x, y = _outer_xy(k)
        coat = COATS[table["outer_coat"][k]]
        colour = pos["outer spaces"][k]
        gold = table["coat_quarter"][table["outer_coat"][k]] >= 0
        svg.element(("outer", k, None), (x, y, CELL, CELL), "outer",
                    f"outer space {k}: coat {coat}" + (f", {colour} tile" if colour else ", empty")
                    + (f", marked by {marks[k]}" if k in marks else ""),
                    data_outer=k, data_coat=coat, data_colour=colour)
        svg.rect(x + 2, y + 2, CELL - 4, CELL - 4, PAPER, stroke="#b8a887", rx=4)
        _shield(svg, x + 6, y + 6, 16, 19, GOLD if gold else SILVER)
        svg.text(x + CELL - 5, y + CELL - 6, _coat_label(coat), 8, "end", FAINT)
        if colour:
            _tile(svg, x + 14, y + 14, CELL - 30, colour)
        if k == pushed:
            svg.rect(x + 10, y + 10, CELL - 22, CELL - 22, "none", stroke=HIGHLIGHT, sw=2,
                     stroke_dasharray="4 3")
        svg.close()
        if k in marks:
            svg.element(("seal", "outer", k), (x + CELL - 22, y + 4, 18, 18), "seal",
                        f"{marks[k]}'s seal on coat {coat}", data_outer=k, data_seat=marks[k])
            svg.add("circle", cx=x + CELL - 13, cy=y + 13, r=8, fill=SEAT_FILL[marks[k]],
                    stroke=INK, stroke_width=1)
            svg.close()
    for e in range(12):
        cx, cy, direction, w, h = _entry_arrow(e)
        svg.element(("entry", e, None), (cx - w / 2, cy - h / 2, w, h), "entry",
                    f"push {PUSH_ENTRIES[e]}", data_entry=e, data_name=PUSH_ENTRIES[e])
        svg.rect(cx - w / 2, cy - h / 2, w, h, "#ffffff", stroke="none", rx=4, opacity=0.01)
        svg.add("path", d=_arrow_path(cx, cy, direction, 26, 9), fill="#c9bc9c",
                stroke="#7a6a48", stroke_width=1)
        svg.close()
    # row and column numbers, as in the decisions' names ("push row 2 from left")
    for r in range(3):
        svg.text(GRID_X - GAP - CELL - ARROW - 6, GRID_Y + r * CELL + CELL / 2 + 4,
                 f"row {r + 1}", 10, "end", FAINT)
        svg.text(GRID_X + r * CELL + CELL / 2, GRID_Y - GAP - CELL - ARROW - 10,
                 f"column {r + 1}", 10, "middle", FAINT)
    svg.rect(GRID_X - 3, GRID_Y - 3, 3 * CELL + 6, 3 * CELL + 6, "#6e6250", stroke="none", rx=6)
    for i in range(9):
        colour = pos["grid"][i // 3][i % 3]
        x, y = GRID_X + (i % 3) * CELL, GRID_Y + (i // 3) * CELL
        svg.element(("cell", i, None), (x, y, CELL, CELL), "cell",
                    f"row {i // 3 + 1}, column {i % 3 + 1}: {colour or 'empty (set-up)'}",
                    data_cell=i, data_colour=colour)
        if colour is None:      # the set-up is being entered: not laid out yet
            svg.rect(x + 3, y + 3, CELL - 6, CELL - 6, "#d9cfbb", stroke="#4a4030", sw=1,
                     rx=(CELL - 6) * 0.12, stroke_dasharray="4 3")
        else:
            _tile(svg, x + 3, y + 3, CELL - 6, colour)
        svg.close()
