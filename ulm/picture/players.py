"""One panel per player: score, coins, supply, coats and descendants, the cards in
front and the hand as the view holds it."""
from __future__ import annotations

from ulm.render import plural
from ulm._fastcore import COATS, COLOURS
from ulm.picture.style import (TILE_FILL, SEAT_FILL, SEAT_INK, GOLD, SILVER, PAPER, INK, FAINT,
                               MARGIN, PLAYERS_Y, PLAYER_W, PLAYER_H, CHAR_W)
from ulm.picture.svg import _Svg, _shield, _coat_label, _card, _flow


def _group_words(counts: list[int]) -> str:
    """Hidden hand cards by the pile they were drawn from: "1 from the first pile, 1 from
    reshuffle 1"."""
    return ", ".join(f"{n} from " + ("the first pile" if g == 0 else f"reshuffle {g}")
                     for g, n in enumerate(counts) if n)


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
