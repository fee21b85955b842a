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
from ulm.board import BoardError
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
PHASE_GAME_OVER = PHASES.index("game over")


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
    under = []
    for c, by in zip(r["coat_tail"][:r["coat_tail_len"]], r["coat_tail_by"][:r["coat_tail_len"]]):
        entry = {"by": SEATS[by]}
        if viewer is None or by == viewer:
            entry = {"coat": COATS[c], "by": SEATS[by]}
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
    if looked_cards or looked_coats:
        if viewer is None or viewer == r["turn_player"]:
            pos["looked at"] = {"cards": [CARDS[c] for c in looked_cards],
                                "coats": [COATS[c] for c in looked_coats]}
        else:
            pos["looked at"] = {"cards": len(looked_cards), "coats": len(looked_coats)}
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

    def colour_counts(self, obj, key, where, default=...):
        counts = self.field(obj, key, where, dict, default)
        path = f"{where}.{key}" if where else key
        out = [0] * len(COLOURS)
        for name, n in counts.items():
            c = self.name(name, COLOURS, path, "colour")
            if isinstance(n, bool) or not isinstance(n, int):
                self.fail(f"{path}.{name}", f"must be a whole number, got {n!r}")
            if n < 0:
                self.fail(f"{path}.{name}", f"must be >= 0, got {n}")
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
              "draw pile size", "discard pile", "coat stack", "descendants on board", "tower",
              "looked at", "players", "board")
TURN_FIELDS = ("drawn", "actions", "free card play", "extra river steps", "T5 seal",
               "draw swap used", "merchant used", "T10 used", "pushed out at")
PLAYER_FIELDS = ("name", "score", "vp", "coins", "sparrows", "barge", "supply", "seals", "coats",
                 "unmarked coats", "descendants", "in front", "hand", "hand size")


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
    r["avail"] = rd.colour_counts(turn, "actions", "turn", {})
    r["free_play"] = int(rd.field(turn, "free card play", "turn", bool, True))
    r["river_extra"] = rd.count(turn, "extra river steps", "turn", 0, hi=20)
    r["t5_seal"] = int(rd.field(turn, "T5 seal", "turn", bool, False))
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
        args.append(rd.count(task, "arg", where, 0, lo=-1, hi=40))
    r["task"] = tasks + [0] * (len(r["task"]) - len(tasks))
    r["task_arg"] = args + [0] * (len(r["task_arg"]) - len(args))
    r["n_tasks"] = len(tasks)

    if phase == PHASES.index("push") and not drawn and not any(
            t in (TASK_IDS["draw tile to push"], TASK_IDS["patrician colour"]) for t in tasks):
        rd.fail("turn.drawn", "phase 'push' needs the drawn tile")
    if phase == PHASES.index("before draw") and drawn:
        rd.fail("turn.drawn", "no tile is drawn before the draw (phase 'before draw')")

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
        pl["score"] = rd.field(pd, "score", where, int)
        vp = [0] * len(SOURCES)
        vp_in = rd.field(pd, "vp", where, dict, None)
        if vp_in is None:
            vp[0] = pl["score"]
        else:
            for src, v in vp_in.items():
                i = rd.name(src, SOURCES, f"{where}.vp", "source")
                if isinstance(v, bool) or not isinstance(v, int):
                    rd.fail(f"{where}.vp.{src}", f"must be a whole number, got {v!r}")
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
        if is_view and p != viewer:
            if "hand" in pd:
                rd.fail(f"{where}.hand", f"a view of {SEATS[viewer]} cannot know {SEATS[p]}'s hand; "
                        "give 'hand size'")
            hand_sizes[p] = rd.count(pd, "hand size", where, hi=len(CARDS))
            pl["hand"] = 0
        else:
            if "hand size" in pd:
                rd.fail(f"{where}.hand size", "give the cards themselves ('hand') for this player")
            hand = rd.names(pd, "hand", where, CARDS, "card")
            claim_cards(hand, f"{where}.hand")
            pl["hand"] = sum(1 << c for c in hand)
            hand_sizes[p] = len(hand)

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
    rd.unknown_keys(looked, ("cards", "coats"), "looked at")
    looked_hidden = is_view and viewer != mover
    if looked_hidden:
        n_looked_cards = rd.count(looked, "cards", "looked at", 0, hi=3)
        n_looked_coats = rd.count(looked, "coats", "looked at", 0, hi=2)
        looked_cards, looked_coats = [], []
    else:
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

    unseen = [c for c in range(len(CARDS)) if c not in cards_seen]
    if is_view:
        pile_size = rd.count(data, "draw pile size", "", hi=len(CARDS))
        if "draw pile" in data:
            rd.fail("draw pile", "a view gives only the 'draw pile size'")
        hidden = pile_size + n_looked_cards * looked_hidden + sum(
            hand_sizes[p] for p in range(n) if p != viewer)
        if hidden != len(unseen):
            rd.fail("draw pile size", f"{len(unseen)} cards are unseen by {SEATS[viewer]}, but the "
                    f"draw pile ({pile_size}) and the other hands ("
                    f"{', '.join(f'{SEATS[p]} {hand_sizes[p]}' for p in range(n) if p != viewer)})"
                    + (f" and the {n_looked_cards} looked-at cards" if looked_hidden else "")
                    + f" hold {hidden}")
        # any consistent deal will do: the searcher redeals every iteration
        k = 0
        for p in range(n):
            if p != viewer:
                r["players"][p]["hand"] = sum(1 << c for c in unseen[k:k + hand_sizes[p]])
                k += hand_sizes[p]
        if looked_hidden:
            looked_cards = unseen[k:k + n_looked_cards]
            k += n_looked_cards
        r["pile"] = sum(1 << c for c in unseen[k:])
    else:
        if "draw pile size" in data:
            rd.fail("draw pile size", "a full position lists the 'draw pile' itself")
        pile = rd.names(data, "draw pile", "", CARDS, "card")
        claim_cards(pile, "draw pile")
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
    tail, tail_by = [], []
    for i, entry in enumerate(under):
        where = f"coat stack.under[{i}]"
        if not isinstance(entry, dict):
            rd.fail(where, "must be an object like {\"coat\": \"S-1\", \"by\": \"Red\"}")
        rd.unknown_keys(entry, ("coat", "by"), where)
        by = rd.name(rd.field(entry, "by", where, str), seats, f"{where}.by", "player")
        tail_by.append(by)
        if is_view and by != viewer:
            if "coat" in entry:
                rd.fail(f"{where}.coat", f"{SEATS[viewer]} cannot know a coat {SEATS[by]} put under")
            tail.append(None)
        else:
            c = rd.name(rd.field(entry, "coat", where, str), COATS, f"{where}.coat", "coat of arms")
            claim_coat(c, where)
            tail.append(c)
    coats_unseen = [c for c in range(len(COATS)) if c not in coat_place]
    if is_view:
        shuffled_n = rd.count(stack, "shuffled", "coat stack", hi=len(COATS))
        hidden_n = shuffled_n + sum(1 for c in tail if c is None) + n_looked_coats * looked_hidden
        if hidden_n != len(coats_unseen):
            rd.fail("coat stack.shuffled", f"{len(coats_unseen)} coats are unseen by {SEATS[viewer]}, "
                    f"but the stack and the looked-at coats hold {hidden_n}")
        k = 0
        for i, c in enumerate(tail):
            if c is None:
                tail[i] = coats_unseen[k]
                k += 1
        if looked_hidden:
            looked_coats = coats_unseen[k:k + n_looked_coats]
            k += n_looked_coats
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

    st.set_raw(r)
    if is_view:
        st.seed_dealer(0)
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
    import json
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PositionError(f"{source}: not valid JSON (line {exc.lineno}, column {exc.colno}: "
                            f"{exc.msg})") from None
    try:
        state, seat = position_to_state(data, source, board)
    except PositionError as exc:
        raise PositionError(f"{source}: {exc}") from None
    return data, state, seat


def save_position(state: core.State, path: str | Path, viewer: int | None = None) -> dict:
    data = state_to_position(state, viewer)
    write_atomically(path, dumps(data))
    return data
