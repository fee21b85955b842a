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
from typing import Any

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
from ulm.position_reader import position_to_state as _position_to_state

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
        pos["variant"] = core.VARIANTS[self.r["variant"]]
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
        if core.VARIANTS[r["variant"]] not in core.TOWER_VARIANTS:
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



def position_to_state(data: object, source: str = "position",
                      board: object = None) -> tuple[core.State, int]:
    """Validate a parsed position and build its state; returns (state, seat):
    a table being set up by replaying its draws (`setup_position_to_state`),
    any other position by ulm.position_reader."""
    if is_during_setup(data):
        assert isinstance(data, dict)
        return setup_position_to_state(data, source, board)
    return _position_to_state(data, source, board)


# ---------------------------------------------------------------------------
# a position before or during the set-up

# the set-up's draws (R-SETUP) and the round start run once they are done: a
# position that still waits for them holds a table being set up
SETUP_PENDING = frozenset(TASKS[t] for t in NEVER_PENDING)


def is_during_setup(data: object) -> bool:
    """Does the parsed position wait for set-up draws (written by `ulm new
    --before-setup`, or by `ulm apply` before the set-up is complete)? Its
    pending tasks are set-up draws (and the advanced game's tower reveals)
    above the first round's start, in round 1; a set-up draw pending in any
    other position is refused by the reader (it never waits there)."""
    if not isinstance(data, dict):
        return False
    pending = data.get("pending")
    if not isinstance(pending, list) or not pending or data.get("round") != 1:
        return False
    tasks = [entry.get("task") if isinstance(entry, dict) else None for entry in pending]
    tasks = [task if isinstance(task, str) else None for task in tasks]
    return tasks[0] == "round start" and all(
        task in SETUP_PENDING or task == "tower reveal" for task in tasks)


def setup_position_to_state(data: dict, source: str = "position",
                            board: object = None) -> tuple[core.State, int]:
    """The state of a position before or during the set-up; returns (state,
    seat). Its state is that of a game before the set-up's draws with the
    draws the file shows applied (the grid cells filled, the players' tiles,
    the Descendants and tower tiles revealed), each entered as `ulm apply`
    and the web's Follow enter them (ulm.follow.apply_decision); the file
    must then be exactly that state's position: anything else is a
    PositionError naming the first field that differs."""
    from ulm.decisions import DecisionError
    from ulm.follow import apply_decision
    from ulm.game import Game
    if data.get("format") != FORMAT:
        raise PositionError(f"format: must be {FORMAT!r}, got {data.get('format')!r}")
    players = data.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 4 or not all(
            isinstance(p, dict) for p in players):
        raise PositionError("players: a list of 2, 3 or 4 players")
    n = len(players)
    viewer = None
    if data.get("kind") == "view":
        if data.get("viewer") not in SEATS[:n]:
            raise PositionError(f"viewer: one of {', '.join(SEATS[:n])}, got "
                                f"{data.get('viewer')!r}")
        viewer = SEATS.index(data["viewer"])
    elif data.get("kind") != "full":
        raise PositionError(f"kind: 'full' or 'view', got {data.get('kind')!r}")
    variant = data.get("variant", "basic")
    try:
        core.check_variant(variant)
    except ValueError as exc:
        raise PositionError(str(exc)) from None
    table: Any = board if board is not None else data.get("board")
    state = Game(players=n, variant=variant, board=table).new_initial_state()
    state.seed_dealer(0)
    remaining = len(data["pending"])
    while state.is_chance_node() and len(state.task_stack()) > remaining:
        where, words = _setup_draw(data, state)
        try:
            apply_decision(state, words, viewer)
        except DecisionError as exc:
            raise PositionError(f"{where}: {exc}") from None
    expected = state_to_position(state, viewer)
    if "board" in data:                 # the table read above
        expected["board"] = data["board"]
    if viewer is not None and "bag" not in data:    # a view's bag is derived
        expected.pop("bag")
    difference = _first_difference(data, expected)
    if difference is not None:
        raise PositionError(f"{difference}; a table being set up is written by `ulm new "
                            "--before-setup` and `ulm apply`")
    return state, viewer if viewer is not None else state.raw()["turn_player"]


def _setup_draw(data: dict, state: core.State) -> tuple[str, str]:
    """The next set-up draw of `state` as the file shows it: (its field, the words
    `ulm apply` takes for it)."""
    task, arg = state.task_stack()[-1]
    name = TASKS[task]
    r = state.raw()
    if name == "grid fill":
        where = f"grid[{arg // 3}][{arg % 3}]"
        grid = data.get("grid")
        row = grid[arg // 3] if isinstance(grid, list) and len(grid) == 3 else None
        colour = row[arg % 3] if isinstance(row, list) and len(row) == 3 else None
        if colour not in COLOURS:
            raise PositionError(f"{where}: the set-up has filled this space (the pending "
                                f"draws say so); a colour, got {colour!r}")
        return where, f"drew {colour}"
    if name == "player tile":
        where = f"players[{arg}].supply"
        supply = data["players"][arg].get("supply")
        tiles = [c for c, k in supply.items() if k] if isinstance(supply, dict) else []
        if len(tiles) != 1 or supply[tiles[0]] != 1 or tiles[0] not in COLOURS:
            raise PositionError(f"{where}: the tile drawn at set-up, one tile, got {supply!r}")
        return where, f"drew {tiles[0]}"
    if name == "descendant reveal":
        where = "descendants on board"
        shown = data.get(where)
        laid = {DESCENDANTS[d] for d in range(len(DESCENDANTS)) if r["desc"][d] == DESC_ON_BOARD}
        new = [d for d in shown if not isinstance(d, str) or d not in laid] \
            if isinstance(shown, list) else []
        if not new or not isinstance(new[0], str):
            raise PositionError(f"{where}: the set-up has revealed {len(laid) + 1} "
                                f"Descendants (the pending draws say so), got {shown!r}")
        return where, f"revealed {new[0]}"
    if name == "tower reveal":
        which = "current" if r["tower_current"] < 0 else "next"
        where = f"tower.{which}"
        tower = data.get("tower")
        tile = tower.get(which) if isinstance(tower, dict) else None
        if not isinstance(tile, str):
            raise PositionError(f"{where}: the set-up has revealed this tower tile (the "
                                f"pending draws say so), got {tile!r}")
        return where, f"revealed {tile}"
    raise PositionError(f"pending: {name!r} is not a set-up draw")


def _first_difference(got: object, want: object, path: str = "") -> str | None:
    """Where and how a parsed position first differs from the one the set-up's
    draws make, in words ("grid[1][1]: "gray", but the set-up's draws ...")."""
    if isinstance(got, dict) and isinstance(want, dict):
        for key in list(want) + [k for k in got if k not in want]:
            step = f"{path}.{key}" if path else str(key)
            if key not in got:
                return f"{step}: missing; the set-up's draws make it {_quoted(want[key])}"
            if key not in want:
                return f"{step}: no such field in a position during the set-up"
            found = _first_difference(got[key], want[key], step)
            if found:
                return found
        return None
    if isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
        for i, (a, b) in enumerate(zip(got, want)):
            found = _first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        return None
    if got != want or type(got) is not type(want):
        return (f"{path or 'document'}: {_quoted(got)}, but the set-up's draws the position "
                f"shows make it {_quoted(want)}")
    return None


def _quoted(value: object) -> str:
    """A value of the file as JSON writes it (null, true), shortened."""
    import json

    from ulm.numbers import shown
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else shown(text, 60)


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
