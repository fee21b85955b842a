"""Building blocks for rule tests: constructed situations by name.

    s = fresh(players=2)                      # set-up done, seat 0 to draw
    set_grid(s, "gray white brown / turquoise orange gray / white brown orange")
    edit_player(s, 0, coins=5, supply={"gray": 2})
    do(s, "draw"); chance(s, "tile orange"); do(s, "push row 1 from left")
    assert "money" in legal(s)
"""
from __future__ import annotations

from pathlib import Path

import ulm
from ulm import ACTION_NAMES, CARDS, COATS, COLOURS, DESCENDANTS, QUARTERS
from ulm import _fastcore as core  # noqa: F401  (for the tests that import *)

TESTS = Path(__file__).resolve().parent         # tests/: its helpers and golden files
ROOT = TESTS.parent                              # the project's root
EXAMPLES = ROOT / "examples"

NO_TILE = -1
BEFORE_DRAW, PUSH, ACTIONS, GAME_OVER = 0, 1, 2, 3
DESC_ON_BOARD, DESC_UNSEEN = -1, -2


def colour(name: str) -> int:
    return COLOURS.index(name)


def card(name: str) -> int:
    return CARDS.index(name)


def cards_mask(*names: str) -> int:
    m = 0
    for n in names:
        m |= 1 << CARDS.index(n)
    return m


def mask_cards(mask: int) -> list[str]:
    return [CARDS[i] for i in range(len(CARDS)) if mask >> i & 1]


def quarter(name: str) -> int:
    return QUARTERS.index(name)


def descendant(name: str) -> int:
    return DESCENDANTS.index(name)


def coat(name: str) -> int:
    return COATS.index(name)


def tower(name: str) -> int:
    """'T1'..'T12' -> 0..11"""
    return int(name[1:]) - 1


def fresh(players: int = 2, variant: str = "basic", seed: int = 0) -> ulm.State:
    """A set-up game at the first decision (seat 0, before the draw)."""
    return ulm.Game(players=players, variant=variant).new_game(seed)


def edit(state: ulm.State, **fields) -> ulm.State:
    """Overwrite top-level struct fields (see ulm/_fastcore.pxd)."""
    raw = state.raw()
    raw.update(fields)
    state.set_raw(raw)
    return state


def edit_player(state: ulm.State, p: int, **fields) -> ulm.State:
    """Overwrite fields of player p. `supply`, `seals_in` accept {name: count} dicts
    (missing names become 0); `hand`/`front` accept lists of card names."""
    raw = state.raw()
    pl = raw["players"][p]
    for k, v in fields.items():
        if k == "supply" and isinstance(v, dict):
            v = [v.get(c, 0) for c in COLOURS]
        elif k == "seals_in" and isinstance(v, dict):
            v = [v.get(q, 0) for q in QUARTERS]
        elif k in ("hand", "front") and not isinstance(v, int):
            v = cards_mask(*v)
        pl[k] = v
    state.set_raw(raw)
    return state


def player(state: ulm.State, p: int) -> dict:
    return state.raw()["players"][p]


def set_grid(state: ulm.State, text: str) -> ulm.State:
    """Rows separated by '/', colours by spaces (row 1 first, left to right)."""
    cells = [colour(w) for w in text.replace("/", " ").split()]
    assert len(cells) == 9, cells
    return edit(state, grid=cells)


def set_outer(state: ulm.State, spaces: dict[int, str | None]) -> ulm.State:
    """Outer spaces by number (0..11, clockwise from the top-left; RULES section 7)."""
    outer = state.raw()["outer"]
    for k, name in spaces.items():
        outer[k] = NO_TILE if name is None else colour(name)
    return edit(state, outer=outer)


def set_docks(state: ulm.State, counts: dict[str, int]) -> ulm.State:
    return edit(state, docks=[counts.get(c, 0) for c in COLOURS])


def set_bag(state: ulm.State, counts: dict[str, int]) -> ulm.State:
    return edit(state, bag=[counts.get(c, 0) for c in COLOURS])


def set_barges(state: ulm.State, *indices: int) -> ulm.State:
    raw = state.raw()
    for p, i in enumerate(indices):
        raw["players"][p]["barge"] = i
    state.set_raw(raw)
    return state


def set_tower(state: ulm.State, current: str | None, next_: str | None = None) -> ulm.State:
    """Advanced game: the tower tile in force (and the one shown next). Also sets the
    per-turn T5 seal as the start of the turn would have (R-TOWER-T5)."""
    return edit(state, tower_current=-1 if current is None else tower(current),
                tower_next=-1 if next_ is None else tower(next_),
                t5_seal=int(current == "T5"))


def give_descendant(state: ulm.State, name: str, p: int) -> ulm.State:
    desc = state.raw()["desc"]
    desc[descendant(name)] = p
    return edit(state, desc=desc)


def legal(state: ulm.State) -> list[str]:
    """Legal decisions (or chance outcomes) by name."""
    return [ACTION_NAMES[a] for a in state.legal_actions()]


def do(state: ulm.State, *names: str) -> ulm.State:
    """Apply decisions by name (raises IllegalActionError if one is illegal)."""
    for n in names:
        state.apply_action(state.string_to_action(n))
    return state


def chance(state: ulm.State, *outcomes: str) -> ulm.State:
    """Apply chance outcomes by name without the 'chance: ' prefix, e.g. 'tile gray',
    'card Siege', 'coat S-1', 'descendant Abbot', 'tower T5'."""
    for o in outcomes:
        assert state.is_chance_node(), f"not a chance node; legal: {legal(state)}"
        state.apply_action(state.string_to_action("chance: " + o))
    return state


def to_actions(state: ulm.State, draw: str = "gray", push: str = "row 1 from left") -> ulm.State:
    """From the start of a turn: draw a tile of colour `draw` and push it."""
    do(state, "draw")
    chance(state, f"tile {draw}")
    do(state, f"push {push}")
    return state


TILES_TOTAL = 50


def tiles_by_colour(state: ulm.State) -> list[int]:
    """Tiles of each colour, counted in every place a tile can be."""
    r = state.raw()
    counts = [0] * len(COLOURS)
    for x in r["grid"] + r["outer"] + r["drawn"]:
        if x >= 0:
            counts[x] += 1
    for c in range(len(COLOURS)):
        counts[c] += r["docks"][c] + r["bag"][c] + sum(p["supply"][c] for p in r["players"])
    return counts


def tile_count(state: ulm.State) -> int:
    """All action tiles in the game: grid, outer spaces, docks, bag, supplies, in hand."""
    r = state.raw()
    n = sum(1 for x in r["grid"] if x >= 0) + sum(1 for x in r["outer"] if x >= 0)
    n += sum(r["docks"]) + sum(r["bag"]) + sum(1 for x in r["drawn"] if x >= 0)
    n += sum(sum(p["supply"]) for p in r["players"])
    return n


def check_colours(state: ulm.State) -> None:
    """In a game played from the set-up (not in a state built by hand): 10 tiles
    of each colour, one more of each per refill of the empty bag (R-COMP-1,
    R-DRAW-8); a tile that changed colour on its way breaks this."""
    most = 10 + state.raw()["tiles_added"] // 5
    assert tiles_by_colour(state) == [most] * len(COLOURS), "tiles of each colour conserved"


def check_invariants(state: ulm.State) -> None:
    """Conservation laws that hold at every step after set-up."""
    r = state.raw()
    # a count taken from a place that does not hold the tile wraps round in the
    # core's uint8 counts (0 - 1 = 255): no place can hold more of a colour than
    # the game has (10, and one more per refill of the empty bag, R-DRAW-8)
    most = 10 + r["tiles_added"] // 5
    places = [("bag", r["bag"]), ("docks", r["docks"]), ("avail", r["avail"])]
    places += [(f"players[{i}].supply", p["supply"]) for i, p in enumerate(r["players"])]
    for name, counts in places:
        assert max(counts) <= most, f"{name}: {counts} holds more of a colour than the game has"
    assert tile_count(state) == TILES_TOTAL + r["tiles_added"], "tiles conserved (R-COMP-1, R-DRAW-8)"
    seen = r["pile"] | r["discard"]
    total = bin(r["pile"]).count("1") + bin(r["discard"]).count("1")
    for p in r["players"]:
        assert not (seen & (p["hand"] | p["front"])), "a card in two places"
        seen |= p["hand"] | p["front"]
        total += bin(p["hand"]).count("1") + bin(p["front"]).count("1")
    looked = r["looked_cards"][: r["n_looked_cards"]]
    total += len(looked)
    assert total == len(CARDS), "33 cards conserved (R-COMP-2)"
    for i, p in enumerate(r["players"]):
        marks = sum(1 for m in r["outer_mark"] if m == i)
        assert p["seals_left"] + sum(p["seals_in"]) + marks == 12, "12 seals per player"
        assert p["coins"] >= 0 and p["sparrows"] >= 0, "no negative coins or sparrows"
    assert sum(r["docks"]) <= 5
    coats = bin(r["coat_unknown"]).count("1") + r["coat_tail_len"] + r["n_looked_coats"]
    coats += sum(1 for o in r["coat_owner"] if o >= 0)
    assert coats == 12, "12 coats of arms"


def assert_input_error(res, *words):
    """Exit status 2, `Error: ` on stderr naming every word, no traceback."""
    assert res.exit_code == 2, (res.exit_code, res.output, res.exception)
    assert isinstance(res.exception, SystemExit), res.exception
    assert "Traceback" not in res.output
    assert "Error: " in res.stderr, res.output
    for w in words:
        assert w in res.stderr, (w, res.stderr)
    return res
