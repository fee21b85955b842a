"""Marks drawn on top once every element's box is known: the suggested line
(numbered), the best few decisions (ranked) and the last turn played."""
from __future__ import annotations

from ulm._fastcore import SEATS
from ulm.picture.style import SEAT_FILL, HIGHLIGHT, LAST, MARGIN, RIVER_W, RIVER_Y, RIVER_H
from ulm.picture.svg import _Svg
from ulm.picture.targets import action_target, _key
from ulm.picture.cathedral import _entry_arrow, _arrow_path


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
