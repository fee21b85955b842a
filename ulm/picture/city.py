"""The city: the quarters on both banks with their seals and crests, the river with
its bonuses and the bridge, and the barges."""
from __future__ import annotations

from ulm._fastcore import COATS, QUARTERS, RIVER_BONUSES, RIVER_LENGTH
from ulm.picture.style import (SEAT_FILL, GOLD, WATER, WATER_EDGE, INK, FAINT, WIDTH, MARGIN,
                               RIVER_W, NORTH_Y, QUARTER_H, RIVER_Y, RIVER_H, SOUTH_Y,
                               CITY_BOTTOM, CHAR_W, BONUS_LABEL)
from ulm.picture.svg import _Svg, _shield


def _quarter_spans(table: dict) -> dict:
    spans: dict[str, tuple[int, int, str]] = {}
    for side, beside in (("north", table["north_of"]), ("south", table["south_of"])):
        for i, q in enumerate(beside):
            name = QUARTERS[q]
            lo, hi, _ = spans.get(name, (i, i, side))
            spans[name] = (min(lo, i), max(hi, i), side)
    return spans


def _draw_city(svg: _Svg, pos: dict, table: dict):
    """The quarters on both banks, then the river between them."""
    _draw_quarters(svg, pos, table)
    _draw_river(svg, pos, table)


def _draw_quarters(svg: _Svg, pos: dict, table: dict):
    """Each quarter with its coat, its crest, its seal spaces (filled in seat order) and,
    in the Oath House, the descendants on the board."""
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


def _draw_river(svg: _Svg, pos: dict, table: dict):
    """The river's spaces with their values and bonuses, the bridge, and the barges."""
    values, bonus = table["river_value"], table["river_bonus"]
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
