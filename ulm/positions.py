"""Position files (JSON): a full state, or one player's view of it.

A *full* position holds everything (bot games, replays). A *view* holds what
one player knows (RULES section 12): their hand, the opponents' hand sizes,
the discard pile, the sizes of the draw pile and the coat stack, and the
coats they put under the stack. The schema is documented in docs/positions.md.

`load_position(path)` validates a file and returns `(state, seat)`: the seat
is the viewer of a view, or the player to move of a full position. Every
rejection is a `PositionError` whose message starts with the field path.
"""
from __future__ import annotations

import difflib
from pathlib import Path

from ulm import _fastcore as core
from ulm._fastcore import (CARDS, COATS, COLOURS, DESCENDANTS, PHASES, QUARTERS, SEATS,
                           SOURCES, TASKS, TOWER_TILES)
from ulm.board import CATHEDRAL_CARDS, BoardError
from ulm.game import VARIANTS, Game
from ulm.jsonfile import dumps, read_json, write_atomically  # noqa: F401 (re-exported)

FORMAT = "ulm-position/1"
KINDS = ("full", "view")
NO_TILE = -1
NUM_ROUNDS = 10
TILES_TOTAL = 50
SEALS = 12
CRESTS = 3
LAID_OUT = core.DESCENDANTS_LAID_OUT
DESC_ON_BOARD = core.DESC_ON_BOARD_
DESC_UNSEEN = core.DESC_UNSEEN_
TILES_PER_COLOUR = core.TILES_PER_COLOUR_
TASK_IDS = {name: code for code, name in TASKS.items()}
DOCK_REFILL = TASK_IDS["dock refill"]
PHASE_BEFORE_DRAW, PHASE_PUSH, PHASE_ACTIONS, PHASE_GAME_OVER = (
    PHASES.index(p) for p in ("before draw", "push", "actions", "game over"))
MAX_BARGE_MOVE = sum(1 for a in core.ACTION_NAMES if a.startswith("move barge ")) - 1
MAX_ACTIONS = 20        # of one colour in a turn; far above what play can reach
MAX_POINTS = 999        # a score or one source of points, either sign
LOOKED_CARDS = 3        # the Goose Tower's look at 3 (R-PRIV-GOOSE)
LOOKED_COATS = 2        # a Leaning House / Garden privilege draws 2 coats

# What the argument of each pending task means (the core's task_arg), as
# (lowest, highest, meaning); tasks not listed take no argument (0). The set-up
# draws and the automatic round start never wait in a position: new_game() and
# every decision run them at once.
_T = TASK_IDS
TASK_ARGS = {
    _T["draw tile to push"]: (0, 1, "the slot of the drawn tile: 0, or 1 for a Builder's second tile"),
    _T["barge move"]: (1, MAX_BARGE_MOVE, "the most river spaces the barge may move"),
    _T["reformation pick"]: (1, 2, "the tiles still to take from outer spaces"),
    _T["cathedral payment"]: (0, len(CATHEDRAL_CARDS) - 1,
                              "the cathedral card paid for, by number: "
                              + ", ".join(f"{i} {c}" for i, c in enumerate(CATHEDRAL_CARDS))),
}
AMOUNT_CARDS = (CARDS.index("Siege"), CARDS.index("Ulm Sparrow"))
NEVER_PENDING = {_T["grid fill"]: "a set-up draw", _T["player tile"]: "a set-up draw",
                 _T["descendant reveal"]: "a set-up draw",
                 _T["round start"]: "run at once when a round ends"}
# tasks that only an action of one phase queues (tile actions are used in 'actions')
TASK_PHASES = {
    _T["draw tile to push"]: (PHASE_PUSH,), _T["builder keep"]: (PHASE_PUSH,),
    _T["patrician colour"]: (PHASE_BEFORE_DRAW,), _T["tower reveal"]: (PHASE_BEFORE_DRAW,),
    _T["tower payment"]: (PHASE_ACTIONS,),
}


class PositionError(ValueError):
    """A position file that cannot be used; the message names the field path."""


# ---------------------------------------------------------------------------
# state -> position

def _colour_counts(counts) -> dict:
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
    board = state.game.table
    pos: dict = {"format": FORMAT, "kind": "full" if viewer is None else "view"}
    if viewer is not None:
        pos["viewer"] = SEATS[viewer]
    pos["variant"] = "advanced" if r["advanced"] else "basic"
    pos["round"] = min(r["round"] + 1, NUM_ROUNDS)
    pos["to move"] = SEATS[r["turn_player"]]
    pos["phase"] = PHASES[r["phase"]]
    pos["turn"] = {
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
    }
    pos["pending"] = [{"task": TASKS[t], "arg": a}
                      for t, a in zip(r["task"][:r["n_tasks"]], r["task_arg"][:r["n_tasks"]])]
    pos["grid"] = [[COLOURS[c] if c >= 0 else None for c in r["grid"][3 * i:3 * i + 3]]
                   for i in range(3)]
    pos["outer spaces"] = [COLOURS[c] if c >= 0 else None for c in r["outer"]]
    pos["docks"] = _colour_counts(r["docks"])
    pos["bag"] = _colour_counts(r["bag"])
    pos["tiles added"] = r["tiles_added"]
    if viewer is None:
        pos["draw pile"] = _cards(r["pile"])
    else:
        pos["draw pile size"] = bin(r["pile"]).count("1")
    pos["discard pile"] = _cards(r["discard"])
    groups = r["card_group"]
    pos["reshuffles"] = [[CARDS[c] for c in range(len(CARDS)) if groups[c] == g]
                         for g in range(1, r["reshuffles"] + 1)]

    def by_group(cards) -> list[int]:
        """Hidden cards by reshuffle group: drawn before the first, after the first, ..."""
        counts = [0] * (r["reshuffles"] + 1)
        for c in cards:
            counts[groups[c]] += 1
        return counts

    under = []
    n_under = r["coat_tail_len"]
    for c, by, known in zip(r["coat_tail"][:n_under], r["coat_tail_by"][:n_under],
                            r["coat_tail_known"][:n_under]):
        entry = {"by": SEATS[by]}
        if viewer is None or known >> viewer & 1:
            entry = {"coat": COATS[c], "by": SEATS[by]}
        if known != 1 << by:
            entry["known to"] = _seats(known, n)
        under.append(entry)
    pos["coat stack"] = {
        "shuffled": _coats(r["coat_unknown"]) if viewer is None else bin(r["coat_unknown"]).count("1"),
        "under": under,
    }
    pos["descendants on board"] = [DESCENDANTS[d] for d in range(len(DESCENDANTS))
                                   if r["desc"][d] == DESC_ON_BOARD]
    if r["advanced"]:
        past = _past_tower_tiles(r)
        pos["tower"] = {
            "current": TOWER_TILES[r["tower_current"]] if r["tower_current"] >= 0 else None,
            "next": TOWER_TILES[r["tower_next"]] if r["tower_next"] >= 0 else None,
            "past": past,
        }
    looked_cards = r["looked_cards"][:r["n_looked_cards"]]
    looked_coats = r["looked_coats"][:r["n_looked_coats"]]
    coats_known = r["looked_coat_known"][:r["n_looked_coats"]]
    if looked_cards or looked_coats:
        if viewer is None or viewer == r["turn_player"]:
            pos["looked at"] = {"cards": [CARDS[c] for c in looked_cards],
                                "coats": [COATS[c] for c in looked_coats]}
        else:
            pos["looked at"] = {"cards": len(looked_cards), "coats": len(looked_coats)}
            if r["reshuffles"]:
                pos["looked at"]["cards by reshuffle"] = by_group(looked_cards)
            if any(k >> viewer & 1 for k in coats_known):  # R-COAT-4
                pos["looked at"]["coats"] = [COATS[c] if k >> viewer & 1 else None
                                             for c, k in zip(looked_coats, coats_known)]
        if any(k != 1 << r["turn_player"] for k in coats_known):
            pos["looked at"]["coats known to"] = [_seats(k, n) for k in coats_known]
    players = []
    for p, pl in enumerate(r["players"]):
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
                    if pl["coats"] >> c & 1 and r["outer_mark"][board["coat_outer"][c]] != p]
        if unmarked:
            entry["unmarked coats"] = unmarked
        entry["descendants"] = [DESCENDANTS[d] for d in range(len(DESCENDANTS)) if r["desc"][d] == p]
        entry["in front"] = _cards(pl["front"])
        if viewer is None or viewer == p:
            entry["hand"] = _cards(pl["hand"])
        else:
            entry["hand size"] = bin(pl["hand"]).count("1")
        if pl["known"]:
            entry["known cards"] = _cards(pl["known"])  # R-INFO-3a
        if viewer is not None and viewer != p and r["reshuffles"]:
            hidden = pl["hand"] & ~pl["known"]
            entry["hidden cards by reshuffle"] = by_group(
                [c for c in range(len(CARDS)) if hidden >> c & 1])
        players.append(entry)
    pos["players"] = players
    return pos


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
# position -> state

class _Reader:
    """Typed access to the parsed JSON that names the path of every error."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, where: str, message: str):
        raise PositionError(f"{where}: {message}")

    def field(self, obj: dict, key: str, where: str, kind, default=...):
        path = f"{where}.{key}" if where else key
        if key not in obj:
            if default is ...:
                self.fail(path, "missing")
            return default
        value = obj[key]
        if kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                self.fail(path, f"must be a whole number, got {value!r}")
        elif kind is bool:
            if not isinstance(value, bool):
                self.fail(path, f"must be true or false, got {value!r}")
        elif kind is not None and not isinstance(value, kind):
            want = {dict: "an object", list: "a list", str: "a text"}.get(kind, str(kind))
            self.fail(path, f"must be {want}, got {type(value).__name__}")
        return value

    def count(self, obj, key, where, default=..., lo=0, hi=None):
        v = self.field(obj, key, where, int, default)
        path = f"{where}.{key}" if where else key
        if v is not None and v < lo:
            self.fail(path, f"must be >= {lo}, got {v}")
        if v is not None and hi is not None and v > hi:
            self.fail(path, f"must be <= {hi}, got {v}")
        return v

    def name(self, value, choices, path, what):
        if not isinstance(value, str) or value not in choices:
            near = difflib.get_close_matches(str(value), list(choices), n=1, cutoff=0.4)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            self.fail(path, f"unknown {what} {value!r}{hint}")
        return choices.index(value)

    def names(self, obj, key, where, choices, what, default=...):
        values = self.field(obj, key, where, list, default)
        path = f"{where}.{key}" if where else key
        out = [self.name(v, choices, f"{path}[{i}]", what) for i, v in enumerate(values)]
        for i, v in enumerate(out):
            if out.index(v) != i:
                self.fail(f"{path}[{i}]", f"{choices[v]!r} is listed twice")
        return out

    def colour_counts(self, obj, key, where, default=..., hi=None):
        counts = self.field(obj, key, where, dict, default)
        path = f"{where}.{key}" if where else key
        out = [0] * len(COLOURS)
        for name, n in counts.items():
            c = self.name(name, COLOURS, path, "colour")
            if isinstance(n, bool) or not isinstance(n, int):
                self.fail(f"{path}.{name}", f"must be a whole number, got {n!r}")
            if n < 0:
                self.fail(f"{path}.{name}", f"must be >= 0, got {n}")
            if hi is not None and n > hi:
                self.fail(f"{path}.{name}", f"must be <= {hi}, got {n}")
            out[c] = n
        return out

    def unknown_keys(self, obj, allowed, where):
        for key in obj:
            if key not in allowed:
                near = difflib.get_close_matches(key, list(allowed), n=1, cutoff=0.5)
                hint = f"; did you mean {near[0]!r}?" if near else ""
                self.fail(f"{where}.{key}" if where else key, f"unknown field{hint}")


TOP_FIELDS = ("format", "kind", "viewer", "variant", "round", "to move", "phase", "turn",
              "pending", "grid", "outer spaces", "docks", "bag", "tiles added", "draw pile",
              "draw pile size", "discard pile", "reshuffles", "coat stack", "descendants on board",
              "tower",
              "looked at", "players", "board")
TURN_FIELDS = ("drawn", "actions", "extra actions", "free card play", "extra river steps", "T5 seal",
               "draw swap used", "merchant used", "T10 used", "pushed out at")
PLAYER_FIELDS = ("name", "score", "vp", "coins", "sparrows", "barge", "supply", "seals", "coats",
                 "unmarked coats", "descendants", "in front", "hand", "hand size", "known cards",
                 "hidden cards by reshuffle")


def _task_arg(rd: _Reader, task: dict, t: int, where: str) -> int:
    """The argument of pending task `t`, checked against what the core reads it as."""
    name = TASKS[t]
    if t in NEVER_PENDING:
        rd.fail(f"{where}.task", f"{name!r} is {NEVER_PENDING[t]}: it never waits in a position")
    arg = rd.field(task, "arg", where, int, 0)
    if t in TASK_ARGS:
        lo, hi, meaning = TASK_ARGS[t]
        if not lo <= arg <= hi:
            rd.fail(f"{where}.arg", f"{name!r} takes {meaning}: {lo}..{hi}, got {arg}")
    elif t == _T["amount"]:
        if arg not in AMOUNT_CARDS:
            rd.fail(f"{where}.arg", f"'amount' takes the card being played: "
                    + " or ".join(f"{c} ({CARDS[c]})" for c in AMOUNT_CARDS) + f", got {arg}")
    elif arg != 0:
        rd.fail(f"{where}.arg", f"{name!r} takes no argument (0), got {arg}")
    return arg


def _check_phase_tasks(rd: _Reader, phase: int, tasks: list[int]) -> None:
    """Tasks that only one phase can hold; nothing waits once the game is over."""
    if phase == PHASE_GAME_OVER and tasks:
        rd.fail("pending", "a finished game has no pending tasks")
    for i, t in enumerate(tasks):
        if t in TASK_PHASES and phase not in TASK_PHASES[t]:
            rd.fail(f"pending[{i}]", f"{TASKS[t]!r} waits only in phase "
                    + " or ".join(repr(PHASES[p]) for p in TASK_PHASES[t])
                    + f", not in {PHASES[phase]!r}")


def _check_drawn(rd: _Reader, phase: int, tasks: list[int], args: list[int], drawn: list[int]) -> None:
    """The drawn tile(s): drawn at the draw, pushed at the push (R-DRAW-1..3)."""
    phase_name = PHASES[phase]
    if phase == PHASE_PUSH:
        slots = 2 if _T["builder keep"] in tasks else 1
        waiting = sorted(a for t, a in zip(tasks, args) if t == _T["draw tile to push"])
        if len(drawn) > slots or waiting != list(range(len(drawn), slots)):
            if not drawn and not waiting:
                rd.fail("turn.drawn", "phase 'push' needs the drawn tile")
            rd.fail("turn.drawn", f"{len(drawn)} drawn tile(s), but the pending 'draw tile to "
                    f"push' tasks (slots {waiting}) need {slots} in all"
                    + (" (a Builder's 2 tiles while 'builder keep' is pending)" if slots == 2 else ""))
    elif drawn:
        if phase == PHASE_BEFORE_DRAW:
            rd.fail("turn.drawn", "no tile is drawn before the draw (phase 'before draw')")
        rd.fail("turn.drawn", f"the drawn tile is pushed before the actions (phase {phase_name!r})")


def _check_turn(rd: _Reader, r: dict, tasks: list[int], t5_seal, phase: int) -> bool:
    """The turn fields against the phase, the pending tasks, the tower tile in
    force and the mover's Descendants (the values the core can reach); returns
    the T5 seal flag (default: available when T5 is in force)."""
    mover = r["turn_player"]
    phase_name = PHASES[phase]

    def owns(d):
        return r["desc"][DESCENDANTS.index(d)] == mover

    def in_force(t):
        return r["tower_current"] == TOWER_TILES.index(t)

    def pending(name):
        return [i for i, t in enumerate(tasks) if t == _T[name]]

    for i in pending("builder keep"):
        if not owns("Builder"):
            rd.fail(f"pending[{i}]", f"'builder keep' needs the Builder, and {SEATS[mover]} "
                    "does not own it (R-DRAW-3)")

    # what only the push and the actions give
    if phase in (PHASE_BEFORE_DRAW, PHASE_PUSH):
        for c, k in enumerate(r["avail"]):
            if k:
                rd.fail(f"turn.actions.{COLOURS[c]}", f"actions come from the push; none in "
                        f"phase {phase_name!r}")
        if r["river_extra"]:
            rd.fail("turn.extra river steps", f"they come from a river action; none in phase "
                    f"{phase_name!r}")
        if r["pushed_out_at"] >= 0:
            rd.fail("turn.pushed out at", f"no tile is pushed out before the push (phase "
                    f"{phase_name!r})")
        if r["t10_used"]:
            rd.fail("turn.T10 used", f"T10 takes the tile pushed out this turn; none in phase "
                    f"{phase_name!r}")
    if phase == PHASE_BEFORE_DRAW and r["draw_swap_used"]:
        rd.fail("turn.draw swap used", "the joker and the Scholar swap the drawn tile; nothing "
                "is drawn in phase 'before draw' (R-DRAW-5, R-DRAW-6)")
    if r["merchant_used"] and not owns("Merchant"):
        rd.fail("turn.merchant used", f"{SEATS[mover]} does not own the Merchant (R-DESC-MERCHANT)")
    most = owns("Barge Driver") + in_force("T1")
    if r["river_extra"] > most:
        rd.fail("turn.extra river steps", f"at most {most} here (1 with the Barge Driver, 1 with "
                f"tower tile T1, R-ACT-RIVER-1), got {r['river_extra']}")
    if r["t10_used"]:
        if not in_force("T10"):
            rd.fail("turn.T10 used", "tower tile T10 is not in force")
        if r["pushed_out_at"] < 0:
            rd.fail("turn.T10 used", "T10 takes the tile pushed out this turn: give 'pushed out at'")
    if t5_seal is None:
        t5_seal = in_force("T5")
    if t5_seal and not in_force("T5"):
        rd.fail("turn.T5 seal", "tower tile T5 is not in force")
    # R-TURN-3: the T5 seal may be used in any phase, so a used one fits every phase

    # tasks bound to the tower, to the start of a round or to looked-at cards and coats
    for i in pending("tower reveal"):
        if not r["advanced"]:
            rd.fail(f"pending[{i}]", "tower tiles are revealed only in the advanced game")
        if r["tower_next"] >= 0:
            rd.fail(f"pending[{i}]", "'tower reveal' shows the next tower tile, but tower.next "
                    "is already shown")
        if r["round"] >= NUM_ROUNDS - 1:
            rd.fail(f"pending[{i}]", "round 10 has no next tower tile to reveal")
        if mover != 0 or len(tasks) != 1:
            rd.fail(f"pending[{i}]", f"'tower reveal' happens alone at the start of a round, "
                    f"with {SEATS[0]} to move (R-ROUND-1)")
    for i in pending("tower payment"):
        if not (in_force("T8") or in_force("T9")):
            rd.fail(f"pending[{i}]", "'tower payment' is due only while T8 or T9 is in force")
        if len(tasks) != 1:
            rd.fail(f"pending[{i}]", "'tower payment' comes alone, after 'end turn' (R-TOWER-1)")
    for look, keep, limit, field in (("look at card", "card keep", LOOKED_CARDS, "n_looked_cards"),
                                     ("coat draw", "coat choice", LOOKED_COATS, "n_looked_coats")):
        looks = pending(look)
        for i in looks:
            if not any(j < i for j in pending(keep)):
                rd.fail(f"pending[{i}]", f"{look!r} draws for a {keep!r} pending below it")
        if looks and r[field] + len(looks) > limit:
            rd.fail(f"pending[{looks[0]}]", f"{r[field]} looked at and {len(looks)} more to draw: "
                    f"at most {limit} are looked at")
    return bool(t5_seal)


def _check_waits_for_something(rd: _Reader, st: core.State, tasks: list[int]) -> None:
    """A position waits for a decision with a legal choice, or a chance event
    with an outcome; the engine never stops anywhere else."""
    if st.is_terminal() or st.legal_actions():
        return
    if tasks:
        what = "nothing to draw" if st.is_chance_node() else "no legal choice"
        rd.fail(f"pending[{len(tasks) - 1}]", f"{TASKS[tasks[-1]]!r} has {what} in this "
                "position (the engine settles such a task at once)")
    rd.fail("phase", f"the player to move has no legal decision in phase "
            f"{PHASES[st.raw()['phase']]!r} here")


def position_to_state(data, source: str = "position", board=None) -> tuple[core.State, int]:
    """Validate a parsed position and build its state; returns (state, seat)."""
    rd = _Reader(source)
    if not isinstance(data, dict):
        rd.fail("position", f"must be a JSON object, got {type(data).__name__}")
    fmt = rd.field(data, "format", "", str)
    if fmt != FORMAT:
        hint = {"ulm-record": " (a game record: use `ulm replay`)",
                "ulm-board": " (a board table: use --board)"}.get(fmt.split("/")[0], "")
        rd.fail("format", f"expected {FORMAT!r}, got {fmt!r}{hint}")
    rd.unknown_keys(data, TOP_FIELDS, "")
    kind = rd.field(data, "kind", "", str)
    if kind not in KINDS:
        rd.fail("kind", f"must be 'full' or 'view', got {kind!r}")
    is_view = kind == "view"
    variant = rd.field(data, "variant", "", str)
    if variant not in VARIANTS:
        rd.fail("variant", f"must be 'basic' or 'advanced', got {variant!r}")
    advanced = variant == "advanced"
    players = rd.field(data, "players", "", list)
    n = len(players)
    if not 2 <= n <= 4:
        rd.fail("players", f"Ulm is for 2, 3 or 4 players, got {n}")
    seats = SEATS[:n]
    viewer = None
    if is_view:
        viewer = rd.name(rd.field(data, "viewer", "", str), seats, "viewer", "player")
    elif "viewer" in data:
        rd.fail("viewer", "only a view has a viewer (kind is 'full')")
    board_path = data.get("board", board)
    if "board" in data and board_path is not None and not isinstance(board_path, str):
        rd.fail("board", f"must be the path of a board table file, got {type(board_path).__name__}")
    try:
        game = Game(players=n, variant=variant, board=board_path)
    except BoardError as exc:
        rd.fail("board", str(exc))
    b = game.table
    st = game.new_initial_state()
    r = st.raw()
    r["n_tasks"] = 0

    rnd = rd.count(data, "round", "", lo=1, hi=NUM_ROUNDS)
    mover = rd.name(rd.field(data, "to move", "", str), seats, "to move", "player")
    phase_name = rd.field(data, "phase", "", str)
    if phase_name not in PHASES:
        rd.fail("phase", f"must be one of {', '.join(PHASES)}, got {phase_name!r}")
    phase = PHASES.index(phase_name)
    r["round"] = NUM_ROUNDS if phase == PHASE_GAME_OVER else rnd - 1
    if phase == PHASE_GAME_OVER and rnd != NUM_ROUNDS:
        rd.fail("round", f"a finished game is in round {NUM_ROUNDS}, got {rnd}")
    r["turn_player"] = mover
    r["phase"] = phase

    # the turn in progress
    turn = rd.field(data, "turn", "", dict, {})
    rd.unknown_keys(turn, TURN_FIELDS, "turn")
    drawn_names = rd.field(turn, "drawn", "turn", list, [])
    if len(drawn_names) > 2:
        rd.fail("turn.drawn", f"at most 2 drawn tiles (Builder), got {len(drawn_names)}")
    drawn = [rd.name(c, COLOURS, f"turn.drawn[{i}]", "colour") for i, c in enumerate(drawn_names)]
    r["drawn"] = drawn + [NO_TILE] * (2 - len(drawn))
    r["avail"] = rd.colour_counts(turn, "actions", "turn", {}, hi=MAX_ACTIONS)
    r["extra"] = rd.colour_counts(turn, "extra actions", "turn", {}, hi=MAX_ACTIONS)
    r["free_play"] = int(rd.field(turn, "free card play", "turn", bool, True))
    r["river_extra"] = rd.count(turn, "extra river steps", "turn", 0, hi=2)
    t5_seal = rd.field(turn, "T5 seal", "turn", bool, None)  # default: T5 in force (below)
    r["draw_swap_used"] = int(rd.field(turn, "draw swap used", "turn", bool, False))
    r["merchant_used"] = int(rd.field(turn, "merchant used", "turn", bool, False))
    r["t10_used"] = int(rd.field(turn, "T10 used", "turn", bool, False))
    pushed = turn.get("pushed out at")
    if pushed is not None:
        pushed = rd.count(turn, "pushed out at", "turn", hi=11)
    r["pushed_out_at"] = -1 if pushed is None else pushed

    pending = rd.field(data, "pending", "", list, [])
    if len(pending) > 20:
        rd.fail("pending", f"at most 20 pending tasks, got {len(pending)}")
    tasks, args = [], []
    for i, task in enumerate(pending):
        where = f"pending[{i}]"
        if not isinstance(task, dict):
            rd.fail(where, "must be an object like {\"task\": \"dock choice\", \"arg\": 0}")
        rd.unknown_keys(task, ("task", "arg"), where)
        names = list(TASK_IDS)
        tasks.append(TASK_IDS[names[rd.name(rd.field(task, "task", where, str), names,
                                            f"{where}.task", "task")]])
        args.append(_task_arg(rd, task, tasks[-1], where))
    r["task"] = tasks + [0] * (len(r["task"]) - len(tasks))
    r["task_arg"] = args + [0] * (len(r["task_arg"]) - len(args))
    r["n_tasks"] = len(tasks)

    _check_phase_tasks(rd, phase, tasks)
    _check_drawn(rd, phase, tasks, args, drawn)

    # the board
    grid = rd.field(data, "grid", "", list)
    if len(grid) != 3 or any(not isinstance(row, list) or len(row) != 3 for row in grid):
        rd.fail("grid", "must be 3 rows of 3 colours")
    r["grid"] = [rd.name(c, COLOURS, f"grid[{i}][{j}]", "colour")
                 for i, row in enumerate(grid) for j, c in enumerate(row)]
    outer = rd.field(data, "outer spaces", "", list)
    if len(outer) != 12:
        rd.fail("outer spaces", f"must list the 12 outer spaces (null when empty), got {len(outer)}")
    r["outer"] = [NO_TILE if c is None else rd.name(c, COLOURS, f"outer spaces[{k}]", "colour")
                  for k, c in enumerate(outer)]
    r["docks"] = rd.colour_counts(data, "docks", "")
    # a view may leave the bag out: it is what the rest of the 50 (+ refills) leaves
    derive_bag = is_view and "bag" not in data
    r["bag"] = [0] * len(COLOURS) if derive_bag else rd.colour_counts(data, "bag", "")
    r["tiles_added"] = rd.count(data, "tiles added", "", 0, hi=250)
    if r["tiles_added"] % len(COLOURS):
        rd.fail("tiles added", f"the bag is refilled 5 tiles at a time (R-DRAW-8), got {r['tiles_added']}")
    refills = sum(1 for t in tasks if t == DOCK_REFILL)
    if sum(r["docks"]) != 5 - refills:
        rd.fail("docks", f"the 5 loading docks hold {5 - refills} tiles here, got {sum(r['docks'])}")

    # descendants
    on_board = rd.names(data, "descendants on board", "", DESCENDANTS, "descendant")
    desc = [DESC_UNSEEN] * len(DESCENDANTS)
    for d in on_board:
        desc[d] = DESC_ON_BOARD

    # reshuffle groups (R-INFO-3b): group g holds the cards the g-th reshuffle put into
    # the draw pile and no later one did
    reshuffled = rd.field(data, "reshuffles", "", list, [])
    if len(reshuffled) > 255:
        rd.fail("reshuffles", f"at most 255 reshuffles, got {len(reshuffled)}")
    groups = [0] * len(CARDS)
    group_of: dict[int, str] = {}
    for g, cards in enumerate(reshuffled):
        if not isinstance(cards, list):
            rd.fail(f"reshuffles[{g}]", f"must be a list of cards, got {type(cards).__name__}")
        for i, name in enumerate(cards):
            c = rd.name(name, CARDS, f"reshuffles[{g}][{i}]", "card")
            if c in group_of:
                rd.fail(f"reshuffles[{g}][{i}]", f"{CARDS[c]} is already in {group_of[c]} "
                        "(a card belongs to the last reshuffle that put it into the pile)")
            group_of[c] = f"reshuffles[{g}]"
            groups[c] = g + 1
    r["reshuffles"] = len(reshuffled)
    r["card_group"] = groups
    n_groups = len(reshuffled) + 1

    def group_counts(obj, key, where, total, what):
        """Hidden cards by reshuffle group; the default puts them all in group 0."""
        path = f"{where}.{key}"
        counts = rd.field(obj, key, where, list, None)
        if counts is None:
            if total and n_groups > 1:
                rd.fail(path, f"missing: after a reshuffle, give how many of the {total} {what} "
                        f"were drawn before the first reshuffle, after it, ... ({n_groups} numbers)")
            return [total] + [0] * (n_groups - 1)
        if len(counts) != n_groups:
            rd.fail(path, f"must list {n_groups} numbers (before the first reshuffle and after "
                    f"each of the {n_groups - 1}), got {len(counts)}")
        for i, k in enumerate(counts):
            if isinstance(k, bool) or not isinstance(k, int) or k < 0:
                rd.fail(f"{path}[{i}]", f"must be a whole number >= 0, got {k!r}")
        if sum(counts) != total:
            rd.fail(path, f"add up to {sum(counts)}, but {total} {what} are hidden")
        return counts

    hidden_by_group: dict[int, list[int]] = {}

    # players
    cards_seen: dict[int, str] = {}

    def claim_cards(ids, path):
        for i, c in enumerate(ids):
            if c in cards_seen:
                rd.fail(f"{path}[{i}]", f"{CARDS[c]} is already in {cards_seen[c]}")
            cards_seen[c] = path

    coat_place: dict[int, str] = {}

    def claim_coat(c, path):
        if c in coat_place:
            rd.fail(path, f"coat {COATS[c]} is already in {coat_place[c]}")
        coat_place[c] = path

    hand_sizes = [0] * n
    outer_mark = [-1] * 12
    coat_owner = [-1] * len(COATS)
    crest_owner = [-1] * len(QUARTERS)
    quarter_seals = [0] * len(QUARTERS)
    for p, pd in enumerate(players):
        where = f"players[{p}]"
        if not isinstance(pd, dict):
            rd.fail(where, "must be an object")
        rd.unknown_keys(pd, PLAYER_FIELDS, where)
        name = rd.field(pd, "name", where, str)
        if name != SEATS[p]:
            rd.fail(f"{where}.name", f"seat {p} is {SEATS[p]!r}, got {name!r}")
        pl = r["players"][p]
        pl["score"] = rd.count(pd, "score", where, lo=-MAX_POINTS, hi=MAX_POINTS)
        vp = [0] * len(SOURCES)
        vp_in = rd.field(pd, "vp", where, dict, None)
        if vp_in is None:
            vp[0] = pl["score"]
        else:
            for src, v in vp_in.items():
                i = rd.name(src, SOURCES, f"{where}.vp", "source")
                if isinstance(v, bool) or not isinstance(v, int):
                    rd.fail(f"{where}.vp.{src}", f"must be a whole number, got {v!r}")
                if not -MAX_POINTS <= v <= MAX_POINTS:
                    rd.fail(f"{where}.vp.{src}", f"must be between {-MAX_POINTS} and {MAX_POINTS}, "
                            f"got {v}")
                vp[i] = v
            if sum(vp) != pl["score"]:
                rd.fail(f"{where}.vp", f"the sources add up to {sum(vp)}, but the score is {pl['score']}")
        if phase != PHASE_GAME_OVER and any(vp[core.NUM_PLAY_SOURCES:]):
            rd.fail(f"{where}.vp", "end-game sources are only scored when the game is over")
        pl["vp"] = vp
        pl["coins"] = rd.count(pd, "coins", where, hi=999)
        pl["sparrows"] = rd.count(pd, "sparrows", where, hi=999)
        pl["barge"] = rd.count(pd, "barge", where, hi=core.RIVER_LENGTH - 1)
        pl["supply"] = rd.colour_counts(pd, "supply", where)
        seals_in = [0] * len(QUARTERS)
        for qname, k in rd.field(pd, "seals", where, dict).items():
            q = rd.name(qname, QUARTERS, f"{where}.seals", "quarter")
            if isinstance(k, bool) or not isinstance(k, int) or k < 0:
                rd.fail(f"{where}.seals.{qname}", f"must be a whole number >= 0, got {k!r}")
            seals_in[q] = k
            quarter_seals[q] += k
        pl["seals_in"] = seals_in
        coats = rd.names(pd, "coats", where, COATS, "coat of arms")
        unmarked = rd.names(pd, "unmarked coats", where, COATS, "coat of arms", [])
        for i, c in enumerate(unmarked):
            if c not in coats:
                rd.fail(f"{where}.unmarked coats[{i}]", f"{COATS[c]} is not among the player's coats")
        marks = 0
        golden = 0
        for i, c in enumerate(coats):
            claim_coat(c, f"{where}.coats")
            coat_owner[c] = p
            if c not in unmarked:
                outer_mark[b["coat_outer"][c]] = p
                marks += 1
            if b["coat_quarter"][c] >= 0:
                golden += 1
                crest_owner[b["coat_quarter"][c]] = p
        pl["coats"] = sum(1 << c for c in coats)
        if golden > CRESTS:
            rd.fail(f"{where}.coats", f"{golden} golden coats, but a player has only {CRESTS} crests")
        pl["crests_left"] = CRESTS - golden
        used = sum(seals_in) + marks
        if used > SEALS:
            rd.fail(f"{where}.seals", f"{used} seals on the board and on coats, but a player has {SEALS}")
        pl["seals_left"] = SEALS - used
        for d in rd.names(pd, "descendants", where, DESCENDANTS, "descendant"):
            if desc[d] != DESC_UNSEEN:
                rd.fail(f"{where}.descendants", f"{DESCENDANTS[d]} is already "
                        f"{'on the board' if desc[d] == DESC_ON_BOARD else 'owned by ' + SEATS[desc[d]]}")
            desc[d] = p
        front = rd.names(pd, "in front", where, CARDS, "card")
        claim_cards(front, f"{where}.in front")
        pl["front"] = sum(1 << c for c in front)
        known = rd.names(pd, "known cards", where, CARDS, "card", [])
        if is_view and p != viewer:
            if "hand" in pd:
                rd.fail(f"{where}.hand", f"a view of {SEATS[viewer]} cannot know {SEATS[p]}'s hand; "
                        "give 'hand size' (and the cards taken face up as 'known cards')")
            hand_sizes[p] = rd.count(pd, "hand size", where, hi=len(CARDS))
            if len(known) > hand_sizes[p]:
                rd.fail(f"{where}.known cards", f"{len(known)} known cards, but the hand holds "
                        f"{hand_sizes[p]}")
            claim_cards(known, f"{where}.known cards")
            pl["hand"] = sum(1 << c for c in known)
            hidden_by_group[p] = group_counts(pd, "hidden cards by reshuffle", where,
                                              hand_sizes[p] - len(known), "hand cards")
        else:
            if "hand size" in pd:
                rd.fail(f"{where}.hand size", "give the cards themselves ('hand') for this player")
            if "hidden cards by reshuffle" in pd:
                rd.fail(f"{where}.hidden cards by reshuffle", "only for another player's hand in a view")
            hand = rd.names(pd, "hand", where, CARDS, "card")
            claim_cards(hand, f"{where}.hand")
            for i, c in enumerate(known):
                if c not in hand:
                    rd.fail(f"{where}.known cards[{i}]", f"{CARDS[c]} is not in the hand")
            pl["hand"] = sum(1 << c for c in hand)
            hand_sizes[p] = len(hand)
        pl["known"] = sum(1 << c for c in known)

    owned = sum(1 for d in desc if d >= 0)
    if len(on_board) + owned != LAID_OUT:
        rd.fail("descendants on board", f"{LAID_OUT} descendants are laid out at set-up; "
                f"{len(on_board)} on the board + {owned} owned = {len(on_board) + owned}")
    oath = QUARTERS.index("Oath House")
    choosing = tasks.count(TASK_IDS["descendant choice"])  # seal placed, descendant not yet taken
    if quarter_seals[oath] != owned + choosing:
        rd.fail("players", f"{quarter_seals[oath]} seals in the Oath House but {owned} descendants "
                "taken" + (f" and {choosing} being chosen" if choosing else "")
                + " (each Oath House seal takes one, R-PRIV-OATH)")
    for q, k in enumerate(quarter_seals):
        if k > b["capacity"][q]:
            rd.fail("players", f"{k} seals in {QUARTERS[q]}, which has {b['capacity'][q]} spaces")
    r["desc"] = desc
    r["outer_mark"] = outer_mark
    r["coat_owner"] = coat_owner
    r["crest_owner"] = crest_owner
    r["quarter_seals"] = quarter_seals
    barges = [pl["barge"] for pl in r["players"]]
    for p, i in enumerate(barges):
        if i > 0 and barges.index(i) != p:
            rd.fail(f"players[{p}].barge", f"river space {i} already holds {SEATS[barges.index(i)]}'s "
                    "barge (only the start space holds several, R-RIVER-2)")

    # cards: discard pile, looked-at cards, draw pile
    discard = rd.names(data, "discard pile", "", CARDS, "card")
    claim_cards(discard, "discard pile")
    r["discard"] = sum(1 << c for c in discard)
    looked = rd.field(data, "looked at", "", dict, {})
    rd.unknown_keys(looked, ("cards", "coats", "cards by reshuffle", "coats known to"), "looked at")
    looked_hidden = is_view and viewer != mover
    looked_by_group = [0] * n_groups
    if looked_hidden:
        n_looked_cards = rd.count(looked, "cards", "looked at", 0, hi=3)
        looked_by_group = group_counts(looked, "cards by reshuffle", "looked at", n_looked_cards,
                                       "looked-at cards")
        looked_cards = []
        if isinstance(looked.get("coats"), list):  # some of them known to the viewer (R-COAT-4)
            looked_coats = [None if name is None else
                            rd.name(name, COATS, f"looked at.coats[{i}]", "coat of arms")
                            for i, name in enumerate(looked["coats"])]
            for i, c in enumerate(looked_coats):
                if c is not None:
                    claim_coat(c, f"looked at.coats[{i}]")
        else:
            looked_coats = [None] * rd.count(looked, "coats", "looked at", 0, hi=2)
        n_looked_coats = len(looked_coats)
    else:
        if "cards by reshuffle" in looked:
            rd.fail("looked at.cards by reshuffle", "only in the view of another player")
        looked_cards = rd.names(looked, "cards", "looked at", CARDS, "card", [])
        looked_coats = rd.names(looked, "coats", "looked at", COATS, "coat of arms", [])
        claim_cards(looked_cards, "looked at.cards")
        for c in looked_coats:
            claim_coat(c, "looked at.coats")
        n_looked_cards, n_looked_coats = len(looked_cards), len(looked_coats)
    if n_looked_cards > 3:
        rd.fail("looked at.cards", f"at most 3 cards are looked at, got {n_looked_cards}")
    if n_looked_coats > 2:
        rd.fail("looked at.coats", f"at most 2 coats are looked at, got {n_looked_coats}")
    if n_looked_cards and TASK_IDS["card keep"] not in tasks:
        rd.fail("looked at.cards", "cards are looked at only while a 'card keep' is pending")
    if n_looked_coats and TASK_IDS["coat choice"] not in tasks:
        rd.fail("looked at.coats", "coats are looked at only while a 'coat choice' is pending")
    looked_known = []
    known_lists = rd.field(looked, "coats known to", "looked at", list, [[SEATS[mover]]] * n_looked_coats)
    if len(known_lists) != n_looked_coats:
        rd.fail("looked at.coats known to", f"must list who knows each of the {n_looked_coats} "
                f"looked-at coats, got {len(known_lists)}")
    for i, names in enumerate(known_lists):
        where = f"looked at.coats known to[{i}]"
        if not isinstance(names, list):
            rd.fail(where, f"must be a list of players, got {type(names).__name__}")
        mask = 0
        for j, name in enumerate(names):
            mask |= 1 << rd.name(name, seats, f"{where}[{j}]", "player")
        if not mask >> mover & 1:
            rd.fail(where, f"{SEATS[mover]}, who is looking at the coat, knows it")
        if looked_hidden and (looked_coats[i] is not None) != bool(mask >> viewer & 1):
            rd.fail(f"looked at.coats[{i}]", f"{SEATS[viewer]} " + (
                "knows this coat: name it" if mask >> viewer & 1 else "cannot know this coat: null")
                + " (R-COAT-4)")
        looked_known.append(mask)

    unseen = [c for c in range(len(CARDS)) if c not in cards_seen]
    if is_view:
        pile_size = rd.count(data, "draw pile size", "", hi=len(CARDS))
        if "draw pile" in data:
            rd.fail("draw pile", "a view gives only the 'draw pile size'")
        others = [p for p in range(n) if p != viewer]
        hidden_in = {p: sum(hidden_by_group[p]) for p in others}
        hidden = pile_size + n_looked_cards * looked_hidden + sum(hidden_in.values())
        if hidden != len(unseen):
            rd.fail("draw pile size", f"{len(unseen)} cards are unseen by {SEATS[viewer]}, but the "
                    f"draw pile ({pile_size}) and the other hands ("
                    f"{', '.join(f'{SEATS[p]} {hidden_in[p]}' for p in others)})"
                    + (f" and the {n_looked_cards} looked-at cards" if looked_hidden else "")
                    + f" hold {hidden}")
        # any consistent deal will do: the searcher redeals every iteration; each
        # reshuffle group is dealt among the places its cards can be (R-INFO-3b)
        r["pile"] = 0
        for g in range(n_groups):
            cards_g = [c for c in unseen if groups[c] == g]
            want = (sum(hidden_by_group[p][g] for p in others) + looked_by_group[g]
                    + (pile_size if g == n_groups - 1 else 0))
            if want != len(cards_g):
                what = "before the first reshuffle" if g == 0 else f"of reshuffles[{g - 1}]"
                rd.fail("reshuffles", f"{len(cards_g)} cards {what} are unseen by {SEATS[viewer]}, "
                        f"but the hands, looked-at cards and draw pile hold {want} of them")
            k = 0
            for p in others:
                take = hidden_by_group[p][g]
                r["players"][p]["hand"] |= sum(1 << c for c in cards_g[k:k + take])
                k += take
            looked_cards += cards_g[k:k + looked_by_group[g]]
            k += looked_by_group[g]
            r["pile"] |= sum(1 << c for c in cards_g[k:])
    else:
        if "draw pile size" in data:
            rd.fail("draw pile size", "a full position lists the 'draw pile' itself")
        pile = rd.names(data, "draw pile", "", CARDS, "card")
        claim_cards(pile, "draw pile")
        for i, c in enumerate(pile):
            if groups[c] != n_groups - 1:
                rd.fail(f"draw pile[{i}]", f"{CARDS[c]} is not among the cards of the last reshuffle, "
                        "the only ones the draw pile holds (R-INFO-3b)")
        r["pile"] = sum(1 << c for c in pile)
        missing = [CARDS[c] for c in range(len(CARDS)) if c not in cards_seen]
        if missing:
            rd.fail("draw pile", f"{len(CARDS)} cards in all, {len(cards_seen)} placed; missing: "
                    + ", ".join(missing))
    r["looked_cards"] = (looked_cards + [0, 0, 0])[:3]
    r["n_looked_cards"] = n_looked_cards

    # coat stack
    stack = rd.field(data, "coat stack", "", dict)
    rd.unknown_keys(stack, ("shuffled", "under"), "coat stack")
    under = rd.field(stack, "under", "coat stack", list)
    tail, tail_by, tail_known = [], [], []
    for i, entry in enumerate(under):
        where = f"coat stack.under[{i}]"
        if not isinstance(entry, dict):
            rd.fail(where, "must be an object like {\"coat\": \"S-1\", \"by\": \"Red\"}")
        rd.unknown_keys(entry, ("coat", "by", "known to"), where)
        by = rd.name(rd.field(entry, "by", where, str), seats, f"{where}.by", "player")
        tail_by.append(by)
        known = 0
        for j, name in enumerate(rd.field(entry, "known to", where, list, [SEATS[by]])):
            known |= 1 << rd.name(name, seats, f"{where}.known to[{j}]", "player")
        if not known >> by & 1:
            rd.fail(f"{where}.known to", f"{SEATS[by]}, who put the coat there, knows it (R-COAT-4)")
        tail_known.append(known)
        if is_view and not known >> viewer & 1:
            if "coat" in entry:
                rd.fail(f"{where}.coat", f"{SEATS[viewer]} cannot know a coat {SEATS[by]} put under"
                        " (it is not known to them, R-COAT-4)")
            tail.append(None)
        else:
            c = rd.name(rd.field(entry, "coat", where, str), COATS, f"{where}.coat", "coat of arms")
            claim_coat(c, where)
            tail.append(c)
    coats_unseen = [c for c in range(len(COATS)) if c not in coat_place]
    if is_view:
        shuffled_n = rd.count(stack, "shuffled", "coat stack", hi=len(COATS))
        hidden_n = shuffled_n + tail.count(None) + looked_coats.count(None)
        if hidden_n != len(coats_unseen):
            rd.fail("coat stack.shuffled", f"{len(coats_unseen)} coats are unseen by {SEATS[viewer]}, "
                    f"but the stack and the looked-at coats hold {hidden_n}")
        k = 0
        for i, c in enumerate(tail):
            if c is None:
                tail[i] = coats_unseen[k]
                k += 1
        for i, c in enumerate(looked_coats):
            if c is None:
                looked_coats[i] = coats_unseen[k]
                k += 1
        shuffled = coats_unseen[k:]
    else:
        shuffled = rd.names(stack, "shuffled", "coat stack", COATS, "coat of arms")
        for c in shuffled:
            claim_coat(c, "coat stack.shuffled")
        missing = [COATS[c] for c in range(len(COATS)) if c not in coat_place]
        if missing:
            rd.fail("coat stack", f"{len(COATS)} coats in all; missing: {', '.join(missing)}")
    r["coat_unknown"] = sum(1 << c for c in shuffled)
    r["coat_tail"] = tail + [0] * (len(COATS) - len(tail))
    r["coat_tail_by"] = tail_by + [0] * (len(COATS) - len(tail_by))
    r["coat_tail_known"] = tail_known + [0] * (len(COATS) - len(tail_known))
    r["looked_coat_known"] = (looked_known + [0, 0])[:2]
    r["coat_tail_len"] = len(tail)
    r["looked_coats"] = (looked_coats + [0, 0])[:2]
    r["n_looked_coats"] = n_looked_coats

    # tower tiles
    if advanced:
        tw = rd.field(data, "tower", "", dict)
        rd.unknown_keys(tw, ("current", "next", "past"), "tower")
        past = rd.names(tw, "past", "tower", TOWER_TILES, "tower tile")
        cur = tw.get("current")
        nxt = tw.get("next")
        cur = -1 if cur is None else rd.name(cur, TOWER_TILES, "tower.current", "tower tile")
        nxt = -1 if nxt is None else rd.name(nxt, TOWER_TILES, "tower.next", "tower tile")
        shown = [t for t in (cur, nxt) if t >= 0]
        for t in shown:
            if t in past or shown.count(t) > 1:
                rd.fail("tower", f"{TOWER_TILES[t]} appears twice")
        rounds_done = min(r["round"], NUM_ROUNDS)
        if phase != PHASE_GAME_OVER:
            if cur < 0:
                rd.fail("tower.current", "the advanced game has a tower tile in force every round")
            if len(past) != rounds_done:
                rd.fail("tower.past", f"round {rnd} has {rounds_done} earlier tower tiles, got {len(past)}")
            if nxt < 0 and rnd < NUM_ROUNDS and TASK_IDS["tower reveal"] not in tasks:
                rd.fail("tower.next", "the next tower tile is shown until round 10")
            if nxt >= 0 and rnd == NUM_ROUNDS:
                rd.fail("tower.next", "round 10 has no next tower tile")
        r["tower_current"] = cur
        r["tower_next"] = nxt
        r["tower_unseen"] = sum(1 << t for t in range(len(TOWER_TILES)) if t not in past and t not in shown)
    else:
        if "tower" in data:
            rd.fail("tower", "tower tiles have effects only in the advanced variant")
        r["tower_current"] = r["tower_next"] = -1

    if derive_bag:
        for c in range(len(COLOURS)):
            elsewhere = (sum(1 for x in r["grid"] if x == c) + sum(1 for x in r["outer"] if x == c)
                         + r["docks"][c] + drawn.count(c)
                         + sum(pl["supply"][c] for pl in r["players"]))
            r["bag"][c] = max(0, TILES_PER_COLOUR + r["tiles_added"] // len(COLOURS) - elsewhere)
    # tiles: 50 plus the R-DRAW-8 refills
    total = sum(1 for c in r["grid"] if c >= 0) + sum(1 for c in r["outer"] if c >= 0)
    total += sum(r["docks"]) + sum(r["bag"]) + len(drawn)
    total += sum(sum(pl["supply"]) for pl in r["players"])
    if total != TILES_TOTAL + r["tiles_added"]:
        rd.fail("tiles", f"{total} counted (grid, outer spaces, docks, bag, supplies, drawn), "
                f"expected {TILES_TOTAL + r['tiles_added']}")
    for c in range(len(COLOURS)):
        have = (sum(1 for x in r["grid"] if x == c) + sum(1 for x in r["outer"] if x == c)
                + r["docks"][c] + r["bag"][c] + drawn.count(c)
                + sum(pl["supply"][c] for pl in r["players"]))
        if have > TILES_PER_COLOUR + r["tiles_added"] // len(COLOURS):
            rd.fail("tiles", f"{have} {COLOURS[c]} tiles, more than the game has")

    r["t5_seal"] = int(_check_turn(rd, r, tasks, t5_seal, phase))

    st.set_raw(r)
    if is_view:
        st.seed_dealer(0)
    _check_waits_for_something(rd, st, tasks)
    seat = viewer if is_view else mover
    return st, seat


# ---------------------------------------------------------------------------
# files

def load_position(path: str | Path, board=None) -> tuple[core.State, int]:
    """Read, validate and build a position file; returns (state, seat)."""
    _, state, seat = read_position(path, board)
    return state, seat


def read_position(path: str | Path, board=None) -> tuple[dict, core.State, int]:
    """As load_position, also returning the parsed file."""
    data = read_json(path, PositionError)
    try:
        state, seat = position_to_state(data, str(path), board)
    except PositionError as exc:
        raise PositionError(f"{path}: {exc}") from None
    return data, state, seat


def read_position_text(text: str, source: str = "<stdin>", board=None
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
