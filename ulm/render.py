"""A plain-text picture of a position, for `ulm show` and `str(state)`.

It renders a position dict (ulm.positions.state_to_position), so a view shows
only what its viewer knows.
"""
from __future__ import annotations

from ulm import _fastcore as core
from ulm._fastcore import COLOURS, QUARTERS

# two-letter tile names keep the grid narrow; colour names are the one source
TILE = {c: c[:2].upper() for c in COLOURS}
TILE["turquoise"] = "TQ"
EMPTY = ".."


def _tile(c: str | None) -> str:
    return TILE[c] if c else EMPTY


def _counts(d: dict) -> str:
    return ", ".join(f"{n} {c}" for c, n in d.items()) or "none"


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 coin', '2 coins', '0 coins'."""
    return f"{n} {word if n == 1 else many or word + 's'}"


def result_line(state: core.State) -> str:
    """A finished game's ranking: the winners (R-END-3, the core decides), then
    the others by score."""
    scores = state.scores()
    won = set(state.winners())
    order = sorted(range(len(scores)), key=lambda p: (p not in won, -scores[p], p))
    names = [core.SEATS[p] for p in sorted(won)]
    head = (f"{names[0]} wins" if len(names) == 1
            else " and ".join(names) + " share the win")
    return (f"Game over: {head}. Ranking: "
            + ", ".join(f"{core.SEATS[p]} {plural(scores[p], 'VP', 'VP')}" for p in order))


def render_position(pos: dict, table: dict | None = None, result: str | None = None) -> str:
    """The position as text: grid with outer spaces, docks, river, quarters, players.
    `result`: the line that replaces the round's of a finished game (result_line)."""
    lines = []
    who = f" — view of {pos['viewer']}" if pos["kind"] == "view" else ""
    lines.append(f"Ulm, {len(pos['players'])} players, {pos['variant']} game{who}")
    if result is not None and pos["phase"] == "game over":
        lines.append(result)
    else:
        lines.append(f"Round {pos['round']} of 10, {pos['to move']} to move, "
                     f"phase: {pos['phase']}")
    if pos.get("tower"):
        tw = pos["tower"]
        lines.append(f"Tower tile in force: {tw['current'] or '-'}   next: {tw['next'] or '-'}")
    turn = pos.get("turn", {})
    if turn.get("drawn"):
        lines.append(f"Drawn tile: {', '.join(turn['drawn'])}")
    if pos["phase"] == "actions":
        lines.append(f"Actions left: {_counts(turn.get('actions', {}))}; "
                     f"free card play {'unused' if turn.get('free card play') else 'used'}"
                     + (f"; extra river steps {turn['extra river steps']}"
                        if turn.get("extra river steps") else ""))
    if any(turn.get("extra actions", {}).values()):
        lines.append(f"Extra actions (any phase): {_counts(turn['extra actions'])}")
    if pos.get("pending"):
        lines.append("Pending: " + ", ".join(t["task"] for t in reversed(pos["pending"])))
    lines.append("")
    # the grid with its 12 outer spaces (numbered clockwise from the top-left), its rows
    # and columns numbered as in the decisions ("push row 2 from left")
    o = [_tile(c) for c in pos["outer spaces"]]
    g = [[_tile(c) for c in row] for row in pos["grid"]]
    lines.append("   column  1   2   3")
    lines.append("           " + "  ".join(o[0:3]))
    for r in range(3):
        lines.append(f"row {r + 1}  {o[11 - r]}  " + "  ".join(g[r]) + f"  {o[3 + r]}")
    lines.append("           " + "  ".join([o[8], o[7], o[6]]))
    lines.append("")
    lines.append(f"Docks: {_counts(pos['docks'])}")
    lines.append(f"Bag: {_counts(pos['bag'])}")
    pile = pos.get("draw pile")
    pile_n = len(pile) if pile is not None else pos["draw pile size"]
    lines.append(f"Draw pile: {plural(pile_n, 'card')}; "
                 f"discard pile: {', '.join(pos['discard pile']) or 'empty'}")
    stack = pos["coat stack"]
    shuffled = stack["shuffled"] if isinstance(stack["shuffled"], int) else len(stack["shuffled"])
    lines.append(f"Coat stack: {plural(shuffled + len(stack['under']), 'coat')} "
                 f"({len(stack['under'])} put under)")
    for entry in stack["under"]:
        if "coat" in entry:
            known = entry.get("known to", [entry["by"]])
            lines.append(f"   under: {entry['coat']} (put by {entry['by']}, known to "
                         f"{', '.join(known)})")
    if pos.get("reshuffles"):
        lines.append(f"Reshuffles: {len(pos['reshuffles'])}; the draw pile holds only cards the "
                     f"last one put there: {', '.join(pos['reshuffles'][-1])}")
    lines.append(f"Descendants on the board: {', '.join(pos['descendants on board']) or 'none'}")
    lines.append("")
    # the river: index, value, barges
    values = table["river_value"] if table else list(range(-11, 0)) + list(range(1, 12))
    barges: dict[int, list[str]] = {}
    for p in pos["players"]:
        barges.setdefault(p["barge"], []).append(p["name"][0])
    cells = []
    for i in range(core.RIVER_LENGTH):
        mark = "".join(barges.get(i, [])) or "~"
        cells.append(f"{values[i]:+d}{mark}")
        if i < core.RIVER_LENGTH - 1 and values[i] < 0 < values[i + 1]:
            cells.append("|bridge|")
    lines.append(f"River: value of each space, barges by initial (spaces 0..{core.RIVER_LENGTH - 1} "
                 "from the start)")
    lines.append("  " + " ".join(cells))
    seals: dict[str, list[str]] = {q: [] for q in QUARTERS}
    for p in pos["players"]:
        for q, k in p["seals"].items():
            seals[q].append(f"{p['name']} {k}")
    lines.append("Quarters: " + "; ".join(
        f"{q}: {', '.join(v) if v else '-'}" for q, v in seals.items()))
    lines.append("")
    for p in pos["players"]:
        known = p.get("known cards", [])
        if "hand" in p:
            hand = ", ".join(p["hand"]) or "empty"
            if known:
                hand += f" (known to all: {', '.join(known)})"
        elif known:  # taken face up (R-INFO-3a)
            hand = (f"{plural(p['hand size'], 'card')}: {', '.join(known)} (known to all)"
                    f" and {p['hand size'] - len(known)} hidden")
        else:
            hand = plural(p["hand size"], "card") + " (hidden)" if p["hand size"] else "empty"
        river = f"{values[p['barge']]:+d}"
        lines.append(f"{p['name']}: {p['score']} VP, {plural(p['coins'], 'coin')}, "
                     f"{plural(p['sparrows'], 'sparrow')}, barge on {river} (space {p['barge']})")
        lines.append(f"   supply: {_counts(p['supply'])}; hand: {hand}")
        extras = []
        if p["in front"]:
            extras.append("in front: " + ", ".join(p["in front"]))
        if p["coats"]:
            extras.append("coats: " + ", ".join(p["coats"]))
        if p["descendants"]:
            extras.append("descendants: " + ", ".join(p["descendants"]))
        if extras:
            lines.append("   " + "; ".join(extras))
    return "\n".join(lines)


def render_state(state: core.State, viewer: int | None = None) -> str:
    """The position of `state` as `ulm show` prints it (str(state))."""
    from ulm.positions import state_to_position
    return render_position(state_to_position(state, viewer), state.game.table,
                           result_line(state) if state.is_terminal() else None)


def render_breakdown(state: core.State) -> str:
    """Score breakdown by source for every player (R-END-4)."""
    rows = [state.score_breakdown(p) for p in range(state.num_players())]
    names = [core.SEATS[p] for p in range(len(rows))]
    width = max(len(k) for k in rows[0])
    out = [" " * width + "".join(f"{n:>8}" for n in names)]
    for key in rows[0]:
        if key != "total" and not any(r[key] for r in rows):
            continue
        out.append(f"{key:<{width}}" + "".join(f"{r[key]:>8}" for r in rows))
    return "\n".join(out)


core.set_renderer(render_state)
