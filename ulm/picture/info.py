"""The panel beside the cathedral: the round and the player to move, the turn, the
loading docks, the bag, the piles and the coat stack, the cards and coats being
looked at, the tower tiles and the suggested line's caption."""
from __future__ import annotations

from xml.sax.saxutils import escape

from ulm.render import plural
from ulm._fastcore import COLOURS
from ulm.picture.style import (TILE_FILL, TILE_INK, SEAT_FILL, GOLD, SILVER, HIGHLIGHT, FAINT,
                               CITY_BOTTOM, INFO_X, INFO2_X, CHAR_W)
from ulm.picture.svg import _Svg, _shield, _coat_label, _tile, _card, _flow


def _draw_info(svg: _Svg, pos: dict, table: dict, caption: list[str]):
    """The panel beside the cathedral, in two columns: the turn, the docks, the bag, the
    piles and what is being looked at; the tower tiles and the suggested line."""
    x, y = INFO_X, float(CITY_BOTTOM + 44)
    y = _draw_turn(svg, pos, x, y)
    y = _draw_docks(svg, pos, x, y)
    y = _draw_bag(svg, pos, x, y)
    y = _draw_piles(svg, pos, x, y)
    _draw_looked_at(svg, pos, x, y)
    y2 = _draw_tower(svg, pos, INFO2_X, CITY_BOTTOM + 44)
    _draw_caption(svg, INFO2_X, y2, caption)


def _draw_turn(svg: _Svg, pos: dict, x, y) -> float:
    """The round, the player to move and the phase, the actions left, the tasks waiting
    and the tiles drawn; returns the y below them."""
    turn = pos["turn"]
    mover = pos["to move"]
    svg.text(x, y, f"Round {pos['round']} of 10", 14, weight="bold")
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
    return y + 12


def _draw_docks(svg: _Svg, pos: dict, x, y) -> float:
    """The loading docks: one space per colour with its count; returns the y below."""
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
    return y + 76


def _draw_bag(svg: _Svg, pos: dict, x, y) -> float:
    """The bag and its tiles by colour; returns the y below."""
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
    return y + 44


def _draw_piles(svg: _Svg, pos: dict, x, y) -> float:
    """The draw pile, the coat stack (and the coats under it the view names), the
    reshuffles and the discard pile; returns the y below them."""
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
    return y


def _draw_looked_at(svg: _Svg, pos: dict, x, y) -> float:
    """The cards and coats the player to move is looking at, as the view knows them;
    returns the y below them."""
    mover = pos["to move"]
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
    return y


def _draw_tower(svg: _Svg, pos: dict, x2, y2) -> float:
    """The tower tiles (advanced game): in force, next and earlier; returns the y below."""
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
    return y2


def _draw_caption(svg: _Svg, x2, y2, caption: list[str]) -> None:
    """The suggested line, in words."""
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
