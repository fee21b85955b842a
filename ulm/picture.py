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

import re
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from ulm.decisions import decision_label
from ulm.render import plural
from ulm._fastcore import (CARDS, COATS, COLOURS, PUSH_ENTRIES, PUSH_ENTRY_OUTER, QUARTERS,
                           RIVER_BONUSES, RIVER_LENGTH, SEATS, SIDES)

__all__ = ["board_svg", "board_png", "action_target", "TILE_FILL", "SEAT_FILL"]

# --- colours and sizes --------------------------------------------------------------------

TILE_FILL = {"gray": "#8d8d8d", "white": "#f7f4ea", "brown": "#8b5a2b",
             "turquoise": "#2bb3ad", "orange": "#f28c28"}
TILE_INK = {"gray": "#ffffff", "white": "#333333", "brown": "#ffffff",
            "turquoise": "#10302f", "orange": "#3a2000"}
SEAT_FILL = {"Red": "#d62728", "Blue": "#1f5fbf", "Green": "#2e9e3e", "Yellow": "#e8c31a"}
SEAT_INK = {"Red": "#ffffff", "Blue": "#ffffff", "Green": "#ffffff", "Yellow": "#222222"}
GOLD, SILVER = "#d9a91a", "#c4c7cf"
HIGHLIGHT = "#e6007e"          # the suggested turn, drawn on top
LAST = "#7b3fbf"               # the last turn played
TARGET = "#0a84ff"             # clickable decisions (interactive pictures)
WATER, WATER_EDGE = "#bfe0f2", "#5b9bc4"
PAPER, INK, FAINT = "#fbf7ee", "#222222", "#8a8070"

WIDTH = 1300
MARGIN = 40
RIVER_W = (WIDTH - 2 * MARGIN) / RIVER_LENGTH
NORTH_Y, QUARTER_H = 56, 104
RIVER_Y, RIVER_H = NORTH_Y + QUARTER_H + 8, 78
SOUTH_Y = RIVER_Y + RIVER_H + 8
CITY_BOTTOM = SOUTH_Y + QUARTER_H
CELL = 76                      # grid cell and outer space
GAP = 8                        # between grid and outer spaces
ARROW = 34                     # the entry-arrow zone outside the outer spaces
GRID_X = MARGIN + ARROW + CELL + GAP
GRID_Y = CITY_BOTTOM + 62 + ARROW + CELL + GAP
CATHEDRAL_BOTTOM = GRID_Y + 3 * CELL + GAP + CELL + ARROW
INFO_X = GRID_X + 3 * CELL + GAP + CELL + ARROW + 30
INFO2_X = INFO_X + 360
PLAYERS_Y = CATHEDRAL_BOTTOM + 24
PLAYER_W = (WIDTH - 2 * MARGIN - 3 * 12) / 4
PLAYER_H = 170                 # at least; a panel grows with the cards and coats in it
CHAR_W = 6.1                   # mean width of a character at font-size 10 (DejaVu Sans)
BONUS_LABEL = {"coin": "+1 coin", "sparrow": "sparrow", "dock tile": "dock tile",
               "card": "top card"}
CARD_FILL = {"cathedral": "#d8d2c4", "trade": "#e9d9b0", "special": "#d9c8e8"}

# --- the decisions and the elements they belong to ---------------------------------------

# the element a decision of each kind belongs to, and the field of the decision's data
# (State.action_fields) that is the element's main data attribute
_ELEMENT_OF_KIND = {
    "push": ("entry", "entry"), "joker": ("dock", "colour"), "take_dock_tile": ("dock", "colour"),
    "scholar": ("supply", "colour"), "clear": ("side", "side"), "seal": ("quarter", "quarter"),
    "chronicle_seal": ("quarter", "quarter"), "play": ("card", "card"),
    "keep_card": ("card", "card"), "take_discard": ("card", "card"), "keep_coat": ("coat", "coat"),
    "take_outer_tile": ("outer", "outer"), "take_pushed_out": ("outer", "outer"),
    "take_descendant": ("descendant", "descendant"),
    "river_step": ("river-space", "river_to"), "move_barge": ("river-space", "river_to"),
}


def action_target(state, action: int) -> dict | None:
    """The drawn element a decision belongs to, or None for decisions that are only
    listed (end turn, money, amounts, chance outcomes ...).

    The result is {"kind": <element class>, "value": <its main data attribute>},
    with "seat" for a player's supply tile. It is read from the decision's data
    (State.action_fields): a barge's move goes where the core's movement rule lands it."""
    fields = state.action_fields(action)
    kind = fields["kind"]
    if kind == "draw":
        return {"kind": "bag", "value": "bag"}
    if kind == "chance_descendant":            # revealed in the Oath House (set-up)
        return {"kind": "quarter", "value": "Oath House"}
    if kind == "chance_tile":
        # the set-up entered on the board: the grid space being filled, a player's tile
        # in that player's supply (R-SETUP)
        if "cell" in fields:
            return {"kind": "cell", "value": fields["cell"]}
        if "seat" in fields:
            return {"kind": "supply", "value": fields["colour"], "seat": SEATS[fields["seat"]]}
        return None
    if kind not in _ELEMENT_OF_KIND:
        return None
    element, field = _ELEMENT_OF_KIND[kind]
    if fields[field] is None:                  # a barge that cannot move, nothing pushed out
        return None
    target = {"kind": element, "value": fields[field]}
    if element == "supply":                    # supply tiles are keyed by the seat's name
        target["seat"] = SEATS[fields["by"]]
    return target


def _key(target: dict) -> tuple:
    return (target["kind"], target["value"], target.get("seat"))


# --- a small SVG writer --------------------------------------------------------------------

_NAMES: dict[str, str] = {}                 # keyword -> attribute name (class_ -> class)
_SPECIAL = re.compile(r'[&<>"\n\r\t]')       # what quoteattr changes; else it only quotes


def _attrs(attrs: dict) -> str:
    # a picture has thousands of attributes, most of them numbers: quoteattr only
    # where it changes something (the server draws a board for every new position)
    out = []
    for k, v in attrs.items():
        if v is None or v is False:
            continue
        name = _NAMES.get(k)
        if name is None:
            name = _NAMES[k] = k.rstrip("_").replace("_", "-")
        text = f"{v:.1f}".rstrip("0").rstrip(".") if isinstance(v, float) else str(v)
        out.append(f'{name}="{text}"' if _SPECIAL.search(text) is None
                   else f"{name}={quoteattr(text)}")
    return " ".join(out)


class _Svg:
    def __init__(self, targets: dict):
        self.parts: list[str] = []
        self.targets = targets            # element key -> decision ids (interactive)
        self.boxes: dict[tuple, tuple] = {}

    def add(self, tag: str, text: str | None = None, **attrs) -> None:
        body = "" if text is None else escape(str(text))
        if text is None:
            self.parts.append(f"<{tag} {_attrs(attrs)}/>")
        else:
            self.parts.append(f"<{tag} {_attrs(attrs)}>{body}</{tag}>")

    def open(self, tag: str = "g", **attrs) -> None:
        self.parts.append(f"<{tag} {_attrs(attrs)}>")

    def close(self, tag: str = "g") -> None:
        self.parts.append(f"</{tag}>")

    def element(self, key: tuple, box: tuple, cls: str, title: str | None = None, **data):
        """Open the group of one board object; remember its box for highlights."""
        self.boxes[key] = box
        ids = self.targets.get(key)
        self.open("g", class_=cls + (" target" if ids else ""),
                  data_actions=" ".join(map(str, ids)) if ids else None, **data)
        if title:
            self.add("title", title)
        if ids:   # a frame that says "click here", also in a PNG
            x, y, w, h = box
            self.rect(x - 2, y - 2, w + 4, h + 4, "none", stroke=TARGET, sw=2, rx=5,
                      stroke_dasharray="5 3", class_="target-mark")

    def rect(self, x, y, w, h, fill, stroke=INK, sw=1.0, rx=3, **kw):
        self.add("rect", x=x, y=y, width=w, height=h, rx=rx, fill=fill, stroke=stroke,
                 stroke_width=sw, **kw)

    def text(self, x, y, s, size=11, anchor="start", fill=INK, weight=None, **kw):
        self.add("text", s, x=x, y=y, font_size=size, text_anchor=anchor, fill=fill,
                 font_weight=weight, **kw)


def _shield(svg: _Svg, x, y, w, h, fill):
    svg.add("path", d=f"M{x:.1f},{y:.1f} h{w:.1f} v{h * 0.55:.1f} "
                      f"q0,{h * 0.45:.1f} {-w / 2:.1f},{h * 0.45:.1f} "
                      f"q{-w / 2:.1f},0 {-w / 2:.1f},{-h * 0.45:.1f} z",
            fill=fill, stroke="#6b5a2a", stroke_width=0.8)


def _coat_label(coat: str) -> str:
    return coat[2:] if coat.startswith("G-") else coat


def _card_kind(card: str) -> str:
    if CARDS.index(card) < 9:
        return "cathedral"
    return "trade" if CARDS.index(card) < 24 else "special"


# --- the parts of the picture ---------------------------------------------------------------

def _quarter_spans(table: dict) -> dict:
    spans: dict[str, tuple[int, int, str]] = {}
    for side, beside in (("north", table["north_of"]), ("south", table["south_of"])):
        for i, q in enumerate(beside):
            name = QUARTERS[q]
            lo, hi, _ = spans.get(name, (i, i, side))
            spans[name] = (min(lo, i), max(hi, i), side)
    return spans


def _draw_city(svg: _Svg, pos: dict, table: dict):
    values, bonus = table["river_value"], table["river_bonus"]
    seals_by_quarter: dict[str, list] = {q: [] for q in QUARTERS}
    crest = {}
    for p in pos["players"]:
        for q, k in p["seals"].items():
            seals_by_quarter[q] += [p["name"]] * k
        for c in p["coats"]:
            q = table["coat_quarter"][COATS.index(c)]
            if q >= 0:
                crest[QUARTERS[q]] = (p["name"], c)
    svg.text(MARGIN, NORTH_Y - 8, "North bank", 11, fill=FAINT)
    svg.text(MARGIN, CITY_BOTTOM + 16, "South bank", 11, fill=FAINT)
    for name, (lo, hi, side) in _quarter_spans(table).items():
        q = QUARTERS.index(name)
        x = MARGIN + lo * RIVER_W + 2
        w = (hi - lo + 1) * RIVER_W - 4
        y = NORTH_Y if side == "north" else SOUTH_Y
        cap = table["capacity"][q]
        svg.element(("quarter", name, None), (x, y, w, QUARTER_H), "quarter",
                    f"{name}: {len(seals_by_quarter[name])} of {cap} seal spaces taken",
                    data_quarter=name)
        svg.rect(x, y, w, QUARTER_H, "#efe6d2", stroke="#8b7b5a", sw=1.2, rx=6)
        svg.text(x + 6, y + 16, name, 12, weight="bold")
        coat = COATS[table["quarter_coat"][q]]
        cx = x + w - 26
        _shield(svg, cx, y + 5, 20, 24, GOLD)
        svg.text(cx + 10, y + 40, f"{table['coat_vp'][table['quarter_coat'][q]]}/"
                 f"{table['coat_later_vp'][table['quarter_coat'][q]]} VP", 8, "middle", FAINT)
        if name in crest:
            owner, _ = crest[name]
            svg.element(("crest", name, None), (cx + 3, y + 8, 14, 14), "crest",
                        f"{owner}'s crest ({coat})", data_quarter=name, data_seat=owner)
            svg.add("circle", cx=cx + 10, cy=y + 15, r=6.5, fill=SEAT_FILL[owner],
                    stroke="#ffffff", stroke_width=1.5)
            svg.close()
        # the seal spaces, filled in seat order
        per_row = max(1, int((w - 12) // 24))
        for k in range(cap):
            sx = x + 16 + (k % per_row) * 24
            sy = y + 34 + (k // per_row) * 24
            if k < len(seals_by_quarter[name]):
                owner = seals_by_quarter[name][k]
                svg.element(("seal", name, k), (sx - 9, sy - 9, 18, 18), "seal",
                            f"{owner}'s seal in {name}", data_quarter=name, data_seat=owner)
                svg.add("circle", cx=sx, cy=sy, r=9, fill=SEAT_FILL[owner], stroke=INK,
                        stroke_width=1)
                svg.close()
            else:
                svg.add("circle", class_="seal-space", data_quarter=name, cx=sx, cy=sy, r=9,
                        fill="none", stroke=FAINT, stroke_width=1, stroke_dasharray="3 2")
        if name == "Oath House":
            on_board = pos["descendants on board"]
            tx = x + 6
            ty = y + QUARTER_H - 22
            for d in on_board:
                tw = len(d) * CHAR_W * 0.95 + 10
                if tx + tw > x + w - 4:
                    tx = x + 6
                    ty -= 19
                svg.element(("descendant", d, None), (tx, ty, tw, 16), "descendant",
                            f"{d} (on the board)", data_descendant=d, data_place="board")
                svg.rect(tx, ty, tw, 16, "#fff8e0", stroke="#9a7d2a", rx=8)
                svg.text(tx + tw / 2, ty + 12, d, 9.5, "middle")
                svg.close()
                tx += tw + 4
        svg.close()
    # the river
    svg.rect(MARGIN - 4, RIVER_Y - 4, WIDTH - 2 * MARGIN + 8, RIVER_H + 8, WATER,
             stroke=WATER_EDGE, sw=1, rx=10)
    barges: dict[int, list[str]] = {}
    for p in pos["players"]:
        barges.setdefault(p["barge"], []).append(p["name"])
    for i in range(RIVER_LENGTH):
        x = MARGIN + i * RIVER_W
        b = RIVER_BONUSES[bonus[i]]
        svg.element(("river-space", i, None), (x + 2, RIVER_Y, RIVER_W - 4, RIVER_H),
                    "river-space", f"river space {i}: {values[i]:+d} VP at the end"
                    + (f", bonus: {b}" if b != "none" else ""),
                    data_index=i, data_value=values[i], data_bonus=None if b == "none" else b)
        svg.rect(x + 2, RIVER_Y, RIVER_W - 4, RIVER_H, "#e3f2fa" if b == "none" else "#fff2c2",
                 stroke=WATER_EDGE, sw=0.8, rx=4)
        svg.text(x + RIVER_W / 2, RIVER_Y + 17, f"{values[i]:+d}", 14, "middle", weight="bold")
        svg.text(x + RIVER_W / 2, RIVER_Y + RIVER_H - 4, f"#{i}", 8, "middle", FAINT)
        if b != "none":
            svg.text(x + RIVER_W / 2, RIVER_Y + RIVER_H - 15, BONUS_LABEL[b], 8, "middle",
                     "#8a6500")
        svg.close()
        if i + 1 < RIVER_LENGTH and values[i] < 0 < values[i + 1]:
            bx = x + RIVER_W - 5
            svg.open("g", class_="bridge")
            svg.add("title", "the bridge")
            svg.rect(bx, RIVER_Y - 6, 10, RIVER_H + 12, "#a0785a", stroke="#5a3e28", rx=2)
            svg.text(bx + 5, RIVER_Y + RIVER_H / 2, "bridge", 8, "middle", "#ffffff",
                     transform=f"rotate(-90 {bx + 5:.1f} {RIVER_Y + RIVER_H / 2:.1f})",
                     dy="3")
            svg.close()
    for i, names in barges.items():
        x = MARGIN + i * RIVER_W
        for k, name in enumerate(names):
            bx = x + 5 + (k % 2) * 23
            by = RIVER_Y + 24 + (k // 2) * 17 if len(names) > 1 else RIVER_Y + 30
            bw = 21 if len(names) > 1 else RIVER_W - 12
            svg.element(("barge", name, None), (bx, by, bw, 13), "barge",
                        f"{name}'s barge on river space {i} ({values[i]:+d})", data_seat=name,
                        data_index=i)
            svg.add("path", d=f"M{bx:.1f},{by:.1f} h{bw:.1f} l-4,13 h{-(bw - 8):.1f} z",
                    fill=SEAT_FILL[name], stroke=INK, stroke_width=1)
            svg.close()


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


def _tile(svg: _Svg, x, y, size, colour, label=True):
    svg.rect(x, y, size, size, TILE_FILL[colour], stroke="#4a4030", sw=1, rx=size * 0.12)
    if label:
        svg.text(x + size / 2, y + size / 2 + 4, colour, min(11, size / 5), "middle",
                 TILE_INK[colour])


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


def _card(svg: _Svg, x, y, card, place, seat=None, known=False) -> float:
    """A card face; `known`: a hand card every player knows (taken face up)."""
    w = _card_width(card)
    svg.element(("card", card, None), (x, y, w, 17), "card",
                f"{card} ({place}{', known to all' if known else ''})",
                data_card=card, data_place=place, data_seat=seat,
                data_known="all" if known else None)
    svg.rect(x, y, w, 17, CARD_FILL[_card_kind(card)], stroke="#6b604a", rx=3)
    svg.text(x + w / 2, y + 12.5, card, 9.5, "middle")
    svg.close()
    return w


def _card_width(card: str) -> float:
    return len(card) * CHAR_W * 0.92 + 10


def _flow(svg: _Svg, x0, y, width, items, draw, line=21, measure=_card_width):
    """Lay items out left to right, wrapping at `width`; returns the next y."""
    x = x0
    for item in items:
        w = measure(item)
        if x > x0 and x + w > x0 + width:
            x = x0
            y += line
        x += draw(x, y, item) + 4
    return y + line


def _draw_info(svg: _Svg, pos: dict, table: dict, caption: list[str]):
    x, y = INFO_X, float(CITY_BOTTOM + 44)
    turn = pos["turn"]
    svg.text(x, y, f"Round {pos['round']} of 10", 14, weight="bold")
    mover = pos["to move"]
    y += 22
    if pos["phase"] == "game over":
        svg.text(x, y, "The game is over", 12)
    else:
        svg.rect(x, y - 12, 14, 14, SEAT_FILL[mover], rx=3)
        svg.text(x + 20, y, f"{mover} to move — {pos['phase']}", 12)
    y += 18
    if pos["phase"] == "actions":
        acts = ", ".join(f"{n} {c}" for c, n in turn.get("actions", {}).items()) or "none"
        svg.text(x, y, f"Actions left: {acts}", 11)
        y += 16
        extra = turn.get("extra river steps")
        svg.text(x, y, f"Free card play {'unused' if turn.get('free card play') else 'used'}"
                 + (f"; {plural(extra, 'extra river step')}" if extra else ""), 11)
        y += 16
    if pos.get("pending"):
        svg.text(x, y, "Waiting for: " + ", ".join(t["task"] for t in reversed(pos["pending"])),
                 11, fill="#8a3000")
        y += 16
    if turn.get("drawn"):
        svg.text(x, y + 4, "Drawn tile:", 12)
        for k, c in enumerate(turn["drawn"]):
            svg.open("g", class_="drawn", data_colour=c)
            _tile(svg, x + 80 + k * 54, y - 14, 46, c)
            svg.close()
        y += 44
    y += 12
    # loading docks: one space per colour with its count
    svg.text(x, y, "Loading docks", 12, weight="bold")
    y += 8
    for k, c in enumerate(COLOURS):
        n = pos["docks"].get(c, 0)
        dx = x + k * 64
        svg.element(("dock", c, None), (dx, y, 58, 58), "dock",
                    f"loading dock: {plural(n, c + ' tile')}", data_colour=c, data_count=n)
        svg.rect(dx, y, 58, 58, "#e9e1cf", stroke="#b8a887", rx=5)
        if n:
            _tile(svg, dx + 7, y + 5, 44, c, label=False)
            svg.text(dx + 29, y + 32, f"×{n}", 12, "middle", TILE_INK[c], weight="bold")
        else:
            svg.text(dx + 29, y + 33, "—", 12, "middle", FAINT)
        svg.close()
    y += 76
    bag = pos["bag"]
    svg.element(("bag", "bag", None), (x - 4, y - 14, 320, 40), "bag",
                f"the bag: {plural(sum(bag.values()), 'tile')}")
    svg.rect(x - 4, y - 14, 320, 40, "#f1e8d6", stroke="#b8a887", rx=8)
    svg.text(x + 4, y + 2, f"Bag: {plural(sum(bag.values()), 'tile')}", 12, weight="bold")
    for k, c in enumerate(COLOURS):
        bx = x + 4 + k * 62
        svg.rect(bx, y + 8, 12, 12, TILE_FILL[c], stroke="#4a4030", rx=2)
        svg.text(bx + 16, y + 18, f"×{bag.get(c, 0)}", 10)
    svg.close()
    y += 44
    pile = pos.get("draw pile")
    pile_n = len(pile) if pile is not None else pos.get("draw pile size", 0)
    stack = pos["coat stack"]
    shuffled = stack["shuffled"] if isinstance(stack["shuffled"], int) else len(stack["shuffled"])
    svg.text(x, y, f"Draw pile: {plural(pile_n, 'card')}", 11)
    svg.text(x + 130, y, f"Coat stack: {plural(shuffled + len(stack['under']), 'coat')}"
             + (f" ({len(stack['under'])} put under)" if stack["under"] else ""), 11)
    y += 20
    y = _draw_reshuffles(svg, x, y, pos.get("reshuffles", []))
    y = _draw_coats_under(svg, x, y, stack["under"])
    svg.text(x, y, "Discard pile:" + ("" if pos["discard pile"] else " empty"), 11)
    y += 6
    if pos["discard pile"]:
        y = _flow(svg, x, y, 330, pos["discard pile"],
                  lambda cx, cy, c: _card(svg, cx, cy, c, "discard"))
    else:
        y += 14
    looked = pos.get("looked at")
    if looked:
        cards, coats = looked.get("cards", []), looked.get("coats", [])
        if isinstance(cards, int) or isinstance(coats, int):
            n_coats = coats if isinstance(coats, int) else len(coats)
            svg.text(x, y + 4, f"{mover} is looking at "
                     + " and ".join(t for t in (
                         plural(cards, "card") if cards else "",
                         plural(n_coats, "coat") if n_coats else "") if t), 11)
            y += 20
            if not isinstance(coats, int):   # coats of them the viewer knows (R-COAT-4)
                y = _draw_known_coats(svg, x, y, [(c, f"coat {c} (drawn by {mover}, known "
                                                      "to you)", "looked") for c in coats if c])
        else:
            if cards:
                svg.text(x, y + 4, "Looked at (keep one):", 11)
                y = _flow(svg, x + 130, y - 8, 200, cards,
                          lambda cx, cy, c: _card(svg, cx, cy, c, "looked"))
            for k, c in enumerate(coats):
                cx = x + k * 70
                svg.element(("coat", c, None), (cx, y, 64, 30), "coat", f"coat {c} (drawn)",
                            data_coat=c, data_place="looked")
                _shield(svg, cx, y, 22, 26, GOLD if c.startswith("G-") else SILVER)
                svg.text(cx + 26, y + 18, _coat_label(c), 10)
                svg.close()
            if coats:
                y += 36
    # tower tiles (advanced game)
    x2, y2 = INFO2_X, CITY_BOTTOM + 44
    tower = pos.get("tower")
    if tower:
        svg.text(x2, y2, "Tower tiles", 12, weight="bold")
        y2 += 8
        for k, (role, tile) in enumerate((("current", tower["current"]), ("next", tower["next"]))):
            tx = x2 + k * 84
            if tile is None:
                continue
            svg.element(("tower", tile, None), (tx, y2, 76, 46), "tower",
                        f"tower tile {tile} ({'in force' if role == 'current' else 'next round'})",
                        data_tile=tile, data_role=role)
            svg.rect(tx, y2, 76, 46, "#d9d3c7" if role == "current" else "#ece8df",
                     stroke="#6b604a", sw=1.5 if role == "current" else 1, rx=5)
            svg.text(tx + 38, y2 + 22, tile, 16, "middle", weight="bold")
            svg.text(tx + 38, y2 + 39, "in force" if role == "current" else "next", 9,
                     "middle", FAINT)
            svg.close()
        y2 += 64
        if tower["past"]:
            svg.text(x2, y2, "Earlier:", 10, fill=FAINT)
            tx = x2 + 46
            for tile in tower["past"]:
                svg.element(("tower", tile, None), (tx, y2 - 11, 26, 15), "tower",
                            f"tower tile {tile} (earlier round)", data_tile=tile,
                            data_role="past")
                svg.rect(tx, y2 - 11, 26, 15, "#f3f0ea", stroke="#b8a887", rx=3)
                svg.text(tx + 13, y2, tile, 9, "middle", FAINT)
                svg.close()
                tx += 29
            y2 += 20
        y2 += 10
    if caption:
        svg.open("g", class_="highlight-caption")
        svg.text(x2, y2, "Suggested:", 12, weight="bold", fill=HIGHLIGHT)
        for i, line in enumerate(caption):
            svg.text(x2, y2 + 18 + 16 * i, line, 11, fill=HIGHLIGHT)
        svg.close()


def _draw_reshuffles(svg: _Svg, x, y, reshuffles: list[list[str]], width=330) -> float:
    """The cards of the last reshuffle, which alone the draw pile holds (R-INFO-3b), as
    the text says it; returns the y of the next line."""
    if not reshuffles:
        return y
    times = "once" if len(reshuffles) == 1 else f"{len(reshuffles)} times"
    words = (f"Reshuffled {times}: the draw pile holds only cards the last one put there: "
             + ", ".join(reshuffles[-1])).split(" ")
    lines: list[list[str]] = [[]]
    per_line = int(width / (CHAR_W * 0.9))
    for word in words:
        if lines[-1] and len(" ".join(lines[-1] + [word])) > per_line:
            lines.append([])
        lines[-1].append(word)
    # one element on one line of the document: the list is read whole, as the text's
    rows = "".join(f'<tspan x="{x}" dy="{12 if k else 0}">{escape(" ".join(line))}</tspan>'
                   for k, line in enumerate(lines))
    svg.parts.append(f'<text class="reshuffles" data-count="{len(reshuffles)}" x="{x}" '
                     f'y="{y}" font-size="9" fill="{FAINT}">{rows}</text>')
    return y + 12 * (len(lines) - 1) + 18


def _group_words(counts: list[int]) -> str:
    """Hidden hand cards by the pile they were drawn from: "1 from the first pile, 1 from
    reshuffle 1"."""
    return ", ".join(f"{n} from " + ("the first pile" if g == 0 else f"reshuffle {g}")
                     for g, n in enumerate(counts) if n)


def _draw_coats_under(svg: _Svg, x, y, under: list[dict]) -> float:
    """The coats put under the stack that the view names (R-COAT-4), as the text lists
    them: by whom, known to whom."""
    named = [(e["coat"], f"coat {e['coat']} (under the stack, put by {e['by']}, known to "
                         f"{', '.join(e.get('known to', [e['by']]))})", "under")
             for e in under if "coat" in e]
    if not named:
        return y
    svg.text(x, y, "Under the stack:", 11)
    return _draw_known_coats(svg, x + 96, y - 14, named, 234) + 6


def _draw_known_coats(svg: _Svg, x, y, coats: list[tuple], width=330) -> float:
    """Coats named by the view but not placed (under the stack, drawn): (coat, title,
    place) each, in rows `width` wide; returns the y below them."""
    def draw(cx, cy, item):
        c, title, place = item
        svg.element(("coat", c, None), (cx, cy, 64, 30), "coat", title, data_coat=c,
                    data_place=place)
        _shield(svg, cx, cy, 22, 26, GOLD if c.startswith("G-") else SILVER)
        svg.text(cx + 26, cy + 18, _coat_label(c), 10)
        svg.close()
        return 66
    return _flow(svg, x, y, width, coats, draw, line=36, measure=lambda item: 66) \
        if coats else y


def _draw_players(svg: _Svg, pos: dict, table: dict) -> float:
    """One panel per player, side by side, as tall as the fullest; returns its bottom."""
    mover = pos["to move"] if pos["phase"] != "game over" else None
    frames = []                                  # (index in svg.parts, x, name)
    bottom = float(PLAYERS_Y + PLAYER_H)
    for s, p in enumerate(pos["players"]):
        name = p["name"]
        x, y = MARGIN + s * (PLAYER_W + 12), PLAYERS_Y
        svg.element(("player", name, None), (x, y, PLAYER_W, PLAYER_H), "player",
                    f"{name}: {p['score']} VP", data_seat=name)
        frames.append((len(svg.parts), x, name))  # the frame goes here once its height is known
        svg.rect(x, y, PLAYER_W, 26, SEAT_FILL[name], stroke="none", rx=8)
        svg.text(x + 10, y + 18, name + (" — to move" if name == mover else "")
                 + (" — viewer" if pos.get("viewer") == name else ""), 13, fill=SEAT_INK[name],
                 weight="bold")
        svg.text(x + PLAYER_W - 10, y + 18, f"{p['score']} VP", 14, "end", SEAT_INK[name],
                 weight="bold")
        seals_used = sum(p["seals"].values()) + len(p["coats"]) - len(p.get("unmarked coats", []))
        golden = sum(1 for c in p["coats"] if table["coat_quarter"][COATS.index(c)] >= 0)
        v = table["river_value"][p["barge"]]
        lx, ly, width = x + 10, float(y + 44), PLAYER_W - 20
        svg.text(lx, ly, f"{plural(p['coins'], 'coin')} · {plural(p['sparrows'], 'sparrow')}"
                 f" · barge on {v:+d} (#{p['barge']})", 11)
        ly += 16
        svg.text(lx, ly, f"{plural(12 - seals_used, 'seal')} and "
                 f"{plural(3 - golden, 'crest')} left", 11, fill=FAINT)
        ly += 10
        for k, c in enumerate(COLOURS):
            n = p["supply"].get(c, 0)
            tx = lx + k * 58
            svg.element(("supply", c, name), (tx, ly, 52, 24), "supply",
                        f"{name}'s supply: {plural(n, c + ' tile')}", data_seat=name,
                        data_colour=c, data_count=n)
            svg.rect(tx, ly, 22, 22, TILE_FILL[c], stroke="#4a4030", rx=3,
                     opacity=1 if n else 0.3)
            svg.text(tx + 26, ly + 16, f"×{n}", 11, fill=INK if n else FAINT)
            svg.close()
        ly += 30
        owned = [("coat", c) for c in p["coats"]] + [("descendant", d) for d in p["descendants"]]

        def measure(item):
            kind, what = item
            if kind == "coat":
                return len(_coat_label(what)) * CHAR_W * 0.9 + 18
            return len(what) * CHAR_W * 0.95 + 10

        def draw_owned(cx, cy, item, name=name):
            kind, what = item
            w = measure(item)
            if kind == "coat":
                svg.element(("coat", what, None), (cx, cy, w, 16), "coat", f"coat {what}",
                            data_coat=what, data_place="seat", data_seat=name)
                _shield(svg, cx, cy, 12, 15,
                        GOLD if table["coat_quarter"][COATS.index(what)] >= 0 else SILVER)
                svg.text(cx + 15, cy + 12, _coat_label(what), 9.5)
            else:
                svg.element(("descendant", what, None), (cx, cy, w, 16), "descendant",
                            f"{what} (owned by {name})", data_descendant=what,
                            data_place="seat", data_seat=name)
                svg.rect(cx, cy, w, 16, "#fff8e0", stroke="#9a7d2a", rx=8)
                svg.text(cx + w / 2, cy + 12, what, 9.5, "middle")
            svg.close()
            return w
        if owned:
            ly = _flow(svg, lx, ly, width, owned, draw_owned, line=20, measure=measure)
        ly += 10
        svg.text(lx, ly, "In front:" + ("" if p["in front"] else " none"), 10, fill=FAINT)
        if p["in front"]:
            ly = _flow(svg, lx, ly + 4, width, p["in front"],
                       lambda cx, cy, c, name=name: _card(svg, cx, cy, c, "front", name))
        ly = _draw_hand(svg, p, lx, ly + 16, width)
        svg.close()
        bottom = max(bottom, ly + 12)
    for index, x, name in reversed(frames):
        frame = _Svg({})
        frame.rect(x, PLAYERS_Y, PLAYER_W, bottom - PLAYERS_Y, PAPER, stroke=SEAT_FILL[name],
                   sw=3 if name == mover else 1.2, rx=8)
        svg.parts[index:index] = frame.parts
    return bottom


def _draw_hand(svg: _Svg, p: dict, x, y, width) -> float:
    """A player's hand as the view holds it (the position's "hand", "hand size" and "known
    cards", as the text shows it): the cards seen, those taken face up marked known to all
    (R-INFO-3a), a back for each hidden one. Returns the y of its last line."""
    name, known = p["name"], p.get("known cards", [])

    def card(cx, cy, c):
        return _card(svg, cx, cy, c, "hand", name, known=c in known)
    if "hand" in p:
        svg.text(x, y, "Hand:" + ("" if p["hand"] else " empty"), 10, fill=FAINT)
        if p["hand"]:
            y = _flow(svg, x, y + 4, width, p["hand"], card)
        return y
    n = p["hand size"]
    if not n:
        svg.text(x, y, "Hand: empty", 10, fill=FAINT)
        return y
    if not known:
        y = _card_backs(svg, x, y, f"Hand: {plural(n, 'card')} (hidden)", n, name)
    else:
        svg.text(x, y, f"Hand: {plural(n, 'card')}, known to all:", 10, fill=FAINT)
        y = _flow(svg, x, y + 4, width, known, card)
        if n > len(known):
            y = _card_backs(svg, x, y + 14, f"and {n - len(known)} hidden", n - len(known),
                            name)
    groups = p.get("hidden cards by reshuffle")
    if groups and sum(groups):                   # where the hidden ones came from (R-INFO-3b)
        y += 14
        svg.text(x, y, "hidden: " + _group_words(groups), 9, fill=FAINT,
                 class_="hidden-groups", data_seat=name)
    return y


def _card_backs(svg: _Svg, x, y, label: str, n: int, name: str, per_row: int = 8) -> float:
    """`label`, then a card back for each of `n` hidden hand cards of `name`."""
    svg.text(x, y, label, 10, fill=FAINT)
    for k in range(n):
        svg.open("g", class_="card-back", data_seat=name)
        svg.add("title", f"one of {name}'s hidden hand cards")
        svg.rect(x + len(label) * CHAR_W * 0.9 + 8 + (k % per_row) * 16,
                 y - 13 + (k // per_row) * 21, 13, 18, "#6b5a8e", stroke="#3b2f55", rx=2)
        svg.close()
    return y + 21 * ((n - 1) // per_row)


def _draw_highlight(svg: _Svg, state, highlight: list[int]) -> list:
    """Draw the suggested decisions on top, numbered; returns the step numbers' badges
    (cx, cy, r)."""
    badges = []
    st = state.clone()
    moving = st.current_player() >= 0
    svg.open("g", class_="highlight")
    for step, action in enumerate(highlight, 1):
        target = action_target(st, action) if not st.is_terminal() else None
        box = svg.boxes.get(_key(target)) if target else None
        if target and target["kind"] == "entry":
            cx, cy, direction, _, _ = _entry_arrow(target["value"])
            svg.add("path", d=_arrow_path(cx, cy, direction, 34, 13), fill=HIGHLIGHT,
                    stroke="#ffffff", stroke_width=1.5)
        elif target and target["kind"] == "river-space":
            start = st.action_fields(action)["river_from"]
            x1 = MARGIN + start * RIVER_W + RIVER_W / 2
            x2 = MARGIN + target["value"] * RIVER_W + RIVER_W / 2
            top = RIVER_Y + 8
            svg.add("path", d=f"M{x1:.1f},{top:.1f} Q{(x1 + x2) / 2:.1f},{top - 26:.1f} "
                              f"{x2 - 4:.1f},{top - 2:.1f}", fill="none", stroke=HIGHLIGHT,
                    stroke_width=3, marker_end="url(#arrowhead)")
        if box:
            x, y, w, h = box
            svg.rect(x - 3, y - 3, w + 6, h + 6, "none", stroke=HIGHLIGHT, sw=3, rx=6)
            svg.add("circle", cx=x + w + 1, cy=y - 1, r=9, fill=HIGHLIGHT)
            badges.append((x + w + 1, y - 1, 9))
            svg.text(x + w + 1, y + 3, step, 11, "middle", "#ffffff", weight="bold")
        # later steps are drawn in the position they are taken in, up to a chance event
        # (what it brings is not known)
        if moving and action in st.legal_actions():
            st.apply_action(action)
        moving = moving and st.current_player() >= 0
    svg.close()
    return badges


def _badge_place(x, y, w, h, taken: list, r: float = 10) -> tuple:
    """Where a rank badge of radius `r` goes on the element at (x, y, w, h): the first of
    its corners (bottom left first) clear of the badges `taken` (circles cx, cy, r),
    which elements side by side (dock tiles, cards, the sides) would otherwise share."""
    corners = [(x + 2, y + h - 2), (x + 2, y + 2), (x + w - 2, y + h - 2), (x - r, y + h / 2),
               (x + w / 2, y + h + r)]
    for cx, cy in corners:
        if all((cx - bx) ** 2 + (cy - by) ** 2 >= (r + br) ** 2 for bx, by, br in taken):
            return cx, cy
    return corners[0]


def _draw_ranked(svg: _Svg, state, ranked: list[int], taken: list) -> None:
    """The best few first decisions, each marked on its element with its rank (#1 the
    best), its badge clear of the badges `taken` (the advised line's step numbers)."""
    svg.open("g", class_="ranked")
    for rank, action in enumerate(ranked, 1):
        target = action_target(state, action) if not state.is_terminal() else None
        box = svg.boxes.get(_key(target)) if target else None
        if not box:
            continue
        x, y, w, h = box
        svg.open("g", class_="rank", data_rank=rank, data_action=action)
        svg.rect(x - 1, y - 1, w + 2, h + 2, "none", stroke=HIGHLIGHT, sw=2 if rank > 1 else 3,
                 rx=5, stroke_opacity=1.0 if rank == 1 else 0.6)
        cx, cy = _badge_place(x, y, w, h, taken)
        taken.append((cx, cy, 10))
        svg.add("circle", cx=cx, cy=cy, r=10, fill="#ffffff", stroke=HIGHLIGHT,
                stroke_width=2)
        svg.text(cx, cy + 4, f"#{rank}", 9.5, "middle", HIGHLIGHT, weight="bold")
        svg.close()
    svg.close()


def _draw_last(svg: _Svg, last: list, viewer) -> None:
    """Mark the decisions of the last turns (pairs of the state before and the decision),
    each in the colour of the seat that made it (data-seat): where a push went in and
    which outer space it pushed out, the river step, the quarter sealed, the card
    played, the tile taken. A decision the viewer cannot see whole (an opponent's
    hidden keep) is not marked."""
    from ulm.decisions import shown_whole
    svg.open("g", class_="last-move")
    for before, action in last:
        if before.is_chance_node() or not shown_whole(before, action, viewer):
            continue
        target = action_target(before, action)
        if not target:
            continue
        seat = SEATS[before.current_player()]
        colour = SEAT_FILL.get(seat, LAST)
        marks = [_key(target)]
        if target["kind"] == "entry":
            cx, cy, direction, _, _ = _entry_arrow(target["value"])
            svg.add("path", d=_arrow_path(cx, cy, direction, 30, 11), fill=colour,
                    stroke="#ffffff", stroke_width=1.5, class_="last-push", data_seat=seat)
            after = before.clone()
            after.apply_action(action)
            out = after.raw()["pushed_out_at"]
            if out >= 0:
                marks.append(("outer", out, None))
        elif target["kind"] == "river-space":
            start = before.action_fields(action)["river_from"]
            x1 = MARGIN + start * RIVER_W + RIVER_W / 2
            x2 = MARGIN + target["value"] * RIVER_W + RIVER_W / 2
            top = RIVER_Y + RIVER_H - 8
            svg.add("path", d=f"M{x1:.1f},{top:.1f} Q{(x1 + x2) / 2:.1f},{top + 20:.1f} "
                              f"{x2:.1f},{top:.1f}", fill="none", stroke=colour,
                    stroke_width=3, stroke_dasharray="6 3", data_seat=seat)
        for key in marks:
            box = svg.boxes.get(key)
            if box is None and key[0] == "card":   # a card played goes in front of its seat
                box = next((b for k, b in svg.boxes.items()
                            if k[0] == "card" and k[1] == key[1]), None)
            if box:
                x, y, w, h = box
                svg.rect(x - 5, y - 5, w + 10, h + 10, "none", stroke=colour, sw=3, rx=7,
                         stroke_dasharray="8 4", data_last=str(action), data_seat=seat)
    svg.close()


# --- the whole picture -----------------------------------------------------------------------

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
