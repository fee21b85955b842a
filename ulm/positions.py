"""Position files (JSON): a full state, or one player's view of it.

A *full* position holds everything (bot games, replays). A *view* holds what
one player knows (RULES section 12): their hand, the opponents' hand sizes,
the discard pile, the sizes of the draw pile and the coat stack, and the
coats they put under the stack. The schema is documented in docs/positions.md.

`load_position(path)` validates a file and returns `(state, seat)`: the seat
is the viewer of a view, or the player to move of a full position. Every
rejection is a `PositionError` whose message starts with the field path.

This module writes positions (`state_to_position`, one method per section of
the format) and reads and writes the files. The format's names and limits live
in `ulm.position_format`, the reading and its checks in `ulm.position_reader`;
their public names are importable from here too.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from ulm import _fastcore as core
from ulm._fastcore import (CARDS, COATS, COLOURS, DESCENDANTS, PHASES, QUARTERS, SEATS,
                           SOURCES, TASKS, TOWER_TILES)
from ulm.jsonfile import dumps, read_json, write_atomically  # noqa: F401 (re-exported)
from ulm.position_format import (  # noqa: F401 (re-exported: the format's names and limits)
    AMOUNT_CARDS, CRESTS, DESC_ON_BOARD, DESC_UNSEEN, DOCK_REFILL, FORMAT, KINDS, LAID_OUT,
    LOOKED_CARDS, LOOKED_COATS, MAX_ACTIONS, MAX_BARGE_MOVE, MAX_POINTS, NEVER_PENDING, NO_TILE,
    NUM_ROUNDS, PHASE_ACTIONS, PHASE_BEFORE_DRAW, PHASE_GAME_OVER, PHASE_PUSH, PLAYER_FIELDS,
    SEALS, TASK_ARGS, TASK_IDS, TASK_PHASES, TILES_PER_COLOUR, TILES_TOTAL, TOP_FIELDS,
    TURN_FIELDS, PositionError)
from ulm.position_reader import position_to_state  # noqa: F401 (re-exported)

# ---------------------------------------------------------------------------
# state -> position


def _colour_counts(counts: Sequence[int]) -> dict:
    return {COLOURS[c]: int(n) for c, n in enumerate(counts) if n}


def _cards(mask: int) -> list[str]:
    return [CARDS[i] for i in range(len(CARDS)) if mask >> i & 1]


def _coats(mask: int) -> list[str]:
    return [COATS[i] for i in range(len(COATS)) if mask >> i & 1]


def _seats(mask: int, n: int) -> list[str]:
    return [SEATS[p] for p in range(n) if mask >> p & 1]


def state_to_position(state: core.State, viewer: int | None = None) -> dict:
    """The position as a JSON-ready dict: full, or the view of seat `viewer`."""
    r = state.raw()
    n = r["num_players"]
    if viewer is not None and not 0 <= viewer < n:
        raise PositionError(f"viewer: no seat {viewer} in a {n}-player game")
    return _PositionWriter(r, viewer, state.game.table).position()


class _PositionWriter:
    """The sections of one position, from the core's raw struct `r`: all of it
    (viewer None), or what seat `viewer` knows (R-INFO-4)."""

    def __init__(self, r: dict, viewer: int | None, table: dict):
        self.r = r
        self.n = r["num_players"]
        self.viewer = viewer
        self.table = table

    def position(self) -> dict:
        """The sections in the order of the file (docs/positions.md)."""
        pos: dict = {}
        for section in (self.header, self.round_and_phase, self.turn, self.pending, self.board,
                        self.cards, self.coat_stack, self.descendants, self.tower,
                        self.looked_at, self.players):
            pos.update(section())
        return pos

    def sees(self, p: int) -> bool:
        """The position shows what player `p` holds: a full one, or p's own view."""
        return self.viewer is None or self.viewer == p

    def by_group(self, cards: Iterable[int]) -> list[int]:
        """Hidden cards by reshuffle group: drawn before the first, after the first, ..."""
        counts = [0] * (self.r["reshuffles"] + 1)
        for c in cards:
            counts[self.r["card_group"][c]] += 1
        return counts

    def header(self) -> dict:
        pos: dict = {"format": FORMAT, "kind": "full" if self.viewer is None else "view"}
        if self.viewer is not None:
            pos["viewer"] = SEATS[self.viewer]
        pos["variant"] = "advanced" if self.r["advanced"] else "basic"
        return pos

    def round_and_phase(self) -> dict:
        r = self.r
        return {"round": min(r["round"] + 1, NUM_ROUNDS), "to move": SEATS[r["turn_player"]],
                "phase": PHASES[r["phase"]]}

    def turn(self) -> dict:
        r = self.r
        return {"turn": {
            "drawn": [COLOURS[c] for c in r["drawn"] if c >= 0],
            "actions": _colour_counts(r["avail"]),
            "extra actions": _colour_counts(r["extra"]),
            "free card play": bool(r["free_play"]),
            "extra river steps": r["river_extra"],
            "T5 seal": bool(r["t5_seal"]),
            "draw swap used": bool(r["draw_swap_used"]),
            "merchant used": bool(r["merchant_used"]),
            "T10 used": bool(r["t10_used"]),
            "pushed out at": r["pushed_out_at"] if r["pushed_out_at"] >= 0 else None,
        }}

    def pending(self) -> dict:
        r = self.r
        return {"pending": [{"task": TASKS[t], "arg": a}
                            for t, a in zip(r["task"][:r["n_tasks"]], r["task_arg"][:r["n_tasks"]])]}

    def board(self) -> dict:
        """The grid, the outer spaces, the docks, the bag and the tiles added."""
        r = self.r
        return {
            "grid": [[COLOURS[c] if c >= 0 else None for c in r["grid"][3 * i:3 * i + 3]]
                     for i in range(3)],
            "outer spaces": [COLOURS[c] if c >= 0 else None for c in r["outer"]],
            "docks": _colour_counts(r["docks"]),
            "bag": _colour_counts(r["bag"]),
            "tiles added": r["tiles_added"],
        }

    def cards(self) -> dict:
        """The draw pile (its size in a view), the discard pile and the reshuffle groups."""
        r = self.r
        pos: dict = {}
        if self.viewer is None:
            pos["draw pile"] = _cards(r["pile"])
        else:
            pos["draw pile size"] = bin(r["pile"]).count("1")
        pos["discard pile"] = _cards(r["discard"])
        pos["reshuffles"] = [[CARDS[c] for c in range(len(CARDS)) if r["card_group"][c] == g]
                             for g in range(1, r["reshuffles"] + 1)]
        return pos

    def coat_stack(self) -> dict:
        """The shuffled coats (counted in a view) and those put under the stack:
        named where the viewer knows them (R-COAT-4)."""
        r, viewer = self.r, self.viewer
        under = []
        n_under = r["coat_tail_len"]
        for c, by, known in zip(r["coat_tail"][:n_under], r["coat_tail_by"][:n_under],
                                r["coat_tail_known"][:n_under]):
            entry = {"by": SEATS[by]}
            if viewer is None or known >> viewer & 1:
                entry = {"coat": COATS[c], "by": SEATS[by]}
            if known != 1 << by:
                entry["known to"] = _seats(known, self.n)
            under.append(entry)
        shuffled = _coats(r["coat_unknown"]) if viewer is None else bin(r["coat_unknown"]).count("1")
        return {"coat stack": {"shuffled": shuffled, "under": under}}

    def descendants(self) -> dict:
        return {"descendants on board": [DESCENDANTS[d] for d in range(len(DESCENDANTS))
                                         if self.r["desc"][d] == DESC_ON_BOARD]}

    def tower(self) -> dict:
        """The tower tiles, in the advanced game only."""
        r = self.r
        if not r["advanced"]:
            return {}
        return {"tower": {
            "current": TOWER_TILES[r["tower_current"]] if r["tower_current"] >= 0 else None,
            "next": TOWER_TILES[r["tower_next"]] if r["tower_next"] >= 0 else None,
            "past": _past_tower_tiles(r),
        }}

    def looked_at(self) -> dict:
        """The cards and coats the mover is looking at: named for the mover,
        counted (by reshuffle group) for the others, coats shown to them named."""
        r, viewer = self.r, self.viewer
        looked_cards = r["looked_cards"][:r["n_looked_cards"]]
        looked_coats = r["looked_coats"][:r["n_looked_coats"]]
        coats_known = r["looked_coat_known"][:r["n_looked_coats"]]
        if not (looked_cards or looked_coats):
            return {}
        looked: dict[str, object]     # the cards and coats, or how many (R-COAT-4)
        if self.sees(r["turn_player"]):
            looked = {"cards": [CARDS[c] for c in looked_cards],
                      "coats": [COATS[c] for c in looked_coats]}
        else:
            looked = {"cards": len(looked_cards), "coats": len(looked_coats)}
            if r["reshuffles"]:
                looked["cards by reshuffle"] = self.by_group(looked_cards)
            if any(k >> viewer & 1 for k in coats_known):  # R-COAT-4
                looked["coats"] = [COATS[c] if k >> viewer & 1 else None
                                   for c, k in zip(looked_coats, coats_known)]
        if any(k != 1 << r["turn_player"] for k in coats_known):
            looked["coats known to"] = [_seats(k, self.n) for k in coats_known]
        return {"looked at": looked}

    def players(self) -> dict:
        return {"players": [self.player(p, pl) for p, pl in enumerate(self.r["players"])]}

    def player(self, p: int, pl: dict) -> dict:
        """One player: points, money, barge, supply, seals, coats, descendants, cards."""
        r = self.r
        entry = {
            "name": SEATS[p],
            "score": pl["score"],
            "vp": {SOURCES[i]: v for i, v in enumerate(pl["vp"]) if v},
            "coins": pl["coins"],
            "sparrows": pl["sparrows"],
            "barge": pl["barge"],
            "supply": _colour_counts(pl["supply"]),
            "seals": {QUARTERS[q]: k for q, k in enumerate(pl["seals_in"]) if k},
            "coats": _coats(pl["coats"]),
        }
        unmarked = [COATS[c] for c in range(len(COATS))
                    if pl["coats"] >> c & 1 and r["outer_mark"][self.table["coat_outer"][c]] != p]
        if unmarked:
            entry["unmarked coats"] = unmarked
        entry["descendants"] = [DESCENDANTS[d] for d in range(len(DESCENDANTS)) if r["desc"][d] == p]
        entry["in front"] = _cards(pl["front"])
        entry.update(self.hand(p, pl))
        return entry

    def hand(self, p: int, pl: dict) -> dict:
        """The hand, or its size and the cards taken face up (R-INFO-3a), with the
        hidden ones by reshuffle group (R-INFO-3b)."""
        entry: dict = {}
        if self.sees(p):
            entry["hand"] = _cards(pl["hand"])
        else:
            entry["hand size"] = bin(pl["hand"]).count("1")
        if pl["known"]:
            entry["known cards"] = _cards(pl["known"])  # R-INFO-3a
        if not self.sees(p) and self.r["reshuffles"]:
            hidden = pl["hand"] & ~pl["known"]
            entry["hidden cards by reshuffle"] = self.by_group(
                [c for c in range(len(CARDS)) if hidden >> c & 1])
        return entry


def _past_tower_tiles(r: dict) -> list[str]:
    """Tower tiles of earlier rounds (public): neither unseen nor shown now.
    Listed in tile order; their order has no effect on play."""
    shown = {r["tower_current"], r["tower_next"]}
    used = [t for t in range(len(TOWER_TILES))
            if not r["tower_unseen"] >> t & 1 and t not in shown]
    return [TOWER_TILES[t] for t in used]


def observation(state: core.State, player: int) -> dict:
    """What `player` knows (R-INFO-4): the view position of that seat."""
    return state_to_position(state, viewer=player)



# ---------------------------------------------------------------------------
# files

def load_position(path: str | Path, board: object = None) -> tuple[core.State, int]:
    """Read, validate and build a position file; returns (state, seat)."""
    _, state, seat = read_position(path, board)
    return state, seat


def read_position(path: str | Path, board: object = None) -> tuple[dict, core.State, int]:
    """As load_position, also returning the parsed file."""
    data = read_json(path, PositionError)
    try:
        state, seat = position_to_state(data, str(path), board)
    except PositionError as exc:
        raise PositionError(f"{path}: {exc}") from None
    return data, state, seat


def read_position_text(text: str, source: str = "<stdin>", board: object = None
                       ) -> tuple[dict, core.State, int]:
    """As read_position, from the text of a position (e.g. standard input)."""
    from ulm.jsonfile import MAX_BYTES, loads
    if len(text) > MAX_BYTES:
        raise PositionError(f"{source}: larger than {MAX_BYTES // 2 ** 20} MiB; not a position")
    data = loads(text, source, PositionError)
    try:
        state, seat = position_to_state(data, source, board)
    except PositionError as exc:
        raise PositionError(f"{source}: {exc}") from None
    return data, state, seat


def save_position(state: core.State, path: str | Path, viewer: int | None = None) -> dict:
    data = state_to_position(state, viewer)
    write_atomically(path, dumps(data))
    return data
