"""Reading a position file: the checks that turn a parsed position into a core
state (docs/positions.md), against the names and limits of ulm.position_format.

`position_to_state(data)` validates a parsed position and builds its state.
One `_PositionBuilder` does one read: a method per section of the format,
called in a fixed order, each storing what the later sections check against
(the seats, the phase, the pending tasks, the reshuffle groups, the cards and
coats placed so far). The order of the checks decides which message a
position that breaks several rules gets, so it is part of the format.
`ulm.positions` re-exports the public names; most callers import them there.
"""
from __future__ import annotations


from ulm import _fastcore as core
from ulm._fastcore import (CARDS, COATS, COLOURS, DESCENDANTS, PHASES, QUARTERS, SEATS,
                           SOURCES, TASKS, TOWER_TILES)
from ulm.board import BoardError
from ulm.game import VARIANTS, Game
from ulm.names import did_you_mean
from ulm.position_format import (
    AMOUNT_CARDS, CRESTS, DESC_ON_BOARD, DESC_UNSEEN, DOCK_REFILL, FORMAT, KINDS, LAID_OUT,
    LOOKED_CARDS, LOOKED_COATS, MAX_ACTIONS, MAX_POINTS, NEVER_PENDING, NO_TILE, NUM_ROUNDS,
    PHASE_BEFORE_DRAW, PHASE_GAME_OVER, PHASE_PUSH, PLAYER_FIELDS, SEALS, TASK_ARGS, TASK_IDS,
    TASK_PHASES, TILES_PER_COLOUR, TILES_TOTAL, TOP_FIELDS, TURN_FIELDS, PositionError)

_T = TASK_IDS


# ---------------------------------------------------------------------------
# typed access to the parsed JSON, and the checks that span sections

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
            hint = did_you_mean(value, choices, cutoff=0.4, after="; ")
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
                hint = did_you_mean(key, allowed, cutoff=0.5, after="; ")
                self.fail(f"{where}.{key}" if where else key, f"unknown field{hint}")


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
            rd.fail(f"{where}.arg", "'amount' takes the card being played: "
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



def _owns(r: dict, descendant: str) -> bool:
    """The player to move owns `descendant`."""
    return r["desc"][DESCENDANTS.index(descendant)] == r["turn_player"]


def _in_force(r: dict, tile: str) -> bool:
    return r["tower_current"] == TOWER_TILES.index(tile)


def _pending(tasks: list[int], name: str) -> list[int]:
    """Where task `name` waits in the pending list."""
    return [i for i, t in enumerate(tasks) if t == _T[name]]


def _check_turn(rd: _Reader, r: dict, tasks: list[int], t5_seal, phase: int) -> bool:
    """The turn fields against the phase, the pending tasks, the tower tile in
    force and the mover's Descendants (the values the core can reach); returns
    the T5 seal flag (default: available when T5 is in force)."""
    for i in _pending(tasks, "builder keep"):
        if not _owns(r, "Builder"):
            rd.fail(f"pending[{i}]", f"'builder keep' needs the Builder, and "
                    f"{SEATS[r['turn_player']]} does not own it (R-DRAW-3)")
    _check_turn_phase(rd, r, phase)
    _check_turn_owned(rd, r)
    if t5_seal is None:
        t5_seal = _in_force(r, "T5")
    if t5_seal and not _in_force(r, "T5"):
        rd.fail("turn.T5 seal", "tower tile T5 is not in force")
    # R-TURN-3: the T5 seal may be used in any phase, so a used one fits every phase
    _check_round_tasks(rd, r, tasks)
    _check_look_tasks(rd, r, tasks)
    return bool(t5_seal)


def _check_turn_phase(rd: _Reader, r: dict, phase: int) -> None:
    """What only the push and the actions give."""
    phase_name = PHASES[phase]
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


def _check_turn_owned(rd: _Reader, r: dict) -> None:
    """What the mover's Descendants and the tower tile in force allow."""
    if r["merchant_used"] and not _owns(r, "Merchant"):
        rd.fail("turn.merchant used", f"{SEATS[r['turn_player']]} does not own the Merchant "
                "(R-DESC-MERCHANT)")
    most = _owns(r, "Barge Driver") + _in_force(r, "T1")
    if r["river_extra"] > most:
        rd.fail("turn.extra river steps", f"at most {most} here (1 with the Barge Driver, 1 with "
                f"tower tile T1, R-ACT-RIVER-1), got {r['river_extra']}")
    if r["t10_used"]:
        if not _in_force(r, "T10"):
            rd.fail("turn.T10 used", "tower tile T10 is not in force")
        if r["pushed_out_at"] < 0:
            rd.fail("turn.T10 used", "T10 takes the tile pushed out this turn: give 'pushed out at'")


def _check_round_tasks(rd: _Reader, r: dict, tasks: list[int]) -> None:
    """Tasks bound to the tower or to the start of a round."""
    for i in _pending(tasks, "tower reveal"):
        if not r["advanced"]:
            rd.fail(f"pending[{i}]", "tower tiles are revealed only in the advanced game")
        if r["tower_next"] >= 0:
            rd.fail(f"pending[{i}]", "'tower reveal' shows the next tower tile, but tower.next "
                    "is already shown")
        if r["round"] >= NUM_ROUNDS - 1:
            rd.fail(f"pending[{i}]", "round 10 has no next tower tile to reveal")
        if r["turn_player"] != 0 or len(tasks) != 1:
            rd.fail(f"pending[{i}]", f"'tower reveal' happens alone at the start of a round, "
                    f"with {SEATS[0]} to move (R-ROUND-1)")
    for i in _pending(tasks, "tower payment"):
        if not (_in_force(r, "T8") or _in_force(r, "T9")):
            rd.fail(f"pending[{i}]", "'tower payment' is due only while T8 or T9 is in force")
        if len(tasks) != 1:
            rd.fail(f"pending[{i}]", "'tower payment' comes alone, after 'end turn' (R-TOWER-1)")


def _check_look_tasks(rd: _Reader, r: dict, tasks: list[int]) -> None:
    """Draws for looked-at cards and coats: below their keep, within the limit."""
    for look, keep, limit, field in (("look at card", "card keep", LOOKED_CARDS, "n_looked_cards"),
                                     ("coat draw", "coat choice", LOOKED_COATS, "n_looked_coats")):
        looks = _pending(tasks, look)
        for i in looks:
            if not any(j < i for j in _pending(tasks, keep)):
                rd.fail(f"pending[{i}]", f"{look!r} draws for a {keep!r} pending below it")
        if looks and r[field] + len(looks) > limit:
            rd.fail(f"pending[{looks[0]}]", f"{r[field]} looked at and {len(looks)} more to draw: "
                    f"at most {limit} are looked at")


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


# ---------------------------------------------------------------------------
# the sections of a position, read in order

class _PositionBuilder:
    """One read of a position: a method per section of the format, called by
    read() in the order of the checks. Each section fills its fields of the
    core's raw struct `r` and keeps what the later sections check against."""

    def __init__(self, data, source: str, board):
        self.rd = _Reader(source)
        self.data = data
        self.board_arg = board              # the caller's table, unless the file names one
        self.cards_seen: dict[int, str] = {}   # card -> the field that holds it
        self.coat_place: dict[int, str] = {}   # coat -> the field that holds it
        # in a view, the other players' hidden hand cards by reshuffle group
        self.hidden_by_group: dict[int, list[int]] = {}

    def read(self) -> tuple[core.State, int]:
        """The sections in the order of their checks: where a position breaks
        several rules, the first check here names the error."""
        self.header()
        self.round_and_phase()
        self.turn()
        self.pending()
        self.grid_and_outer_spaces()
        self.docks_and_bag()
        self.descendants_on_board()
        self.reshuffles()
        self.players()
        self.discard_pile()
        self.looked_at()
        self.draw_pile()
        self.coat_stack()
        self.tower()
        self.tile_totals()
        return self.finish()

    def claim_cards(self, ids: list[int], path: str) -> None:
        """Each card is in one place only."""
        for i, c in enumerate(ids):
            if c in self.cards_seen:
                self.rd.fail(f"{path}[{i}]", f"{CARDS[c]} is already in {self.cards_seen[c]}")
            self.cards_seen[c] = path

    def claim_coat(self, c: int, path: str) -> None:
        if c in self.coat_place:
            self.rd.fail(path, f"coat {COATS[c]} is already in {self.coat_place[c]}")
        self.coat_place[c] = path

    def group_counts(self, obj, key, where, total, what) -> list[int]:
        """Hidden cards by reshuffle group; the default puts them all in group 0."""
        rd, n_groups = self.rd, self.n_groups
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

    def header(self) -> None:
        """format, kind, variant, players, viewer; then the game of the board table."""
        rd, data = self.rd, self.data
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
        self.is_view = kind == "view"
        variant = rd.field(data, "variant", "", str)
        if variant not in VARIANTS:
            rd.fail("variant", f"must be 'basic' or 'advanced', got {variant!r}")
        self.advanced = variant == "advanced"
        self.player_data = rd.field(data, "players", "", list)
        n = self.n = len(self.player_data)
        if not 2 <= n <= 4:
            rd.fail("players", f"Ulm is for 2, 3 or 4 players, got {n}")
        self.seats = SEATS[:n]
        self.viewer = -1        # a full position has no viewer
        if self.is_view:
            self.viewer = rd.name(rd.field(data, "viewer", "", str), self.seats, "viewer", "player")
        elif "viewer" in data:
            rd.fail("viewer", "only a view has a viewer (kind is 'full')")
        self.new_state(variant)

    def new_state(self, variant: str) -> None:
        """The game of the board table the file names (or the caller's), and a
        state of it whose raw struct the sections fill."""
        rd, data = self.rd, self.data
        board_path = data.get("board", self.board_arg)
        if "board" in data and board_path is not None and not isinstance(board_path, str):
            rd.fail("board", f"must be the path of a board table file, got {type(board_path).__name__}")
        try:
            game = Game(players=self.n, variant=variant, board=board_path)
        except BoardError as exc:
            rd.fail("board", str(exc))
        self.table = game.table
        self.st = game.new_initial_state()
        self.r = self.st.raw()
        self.r["n_tasks"] = 0

    def round_and_phase(self) -> None:
        rd, data, r = self.rd, self.data, self.r
        self.rnd = rd.count(data, "round", "", lo=1, hi=NUM_ROUNDS)
        self.mover = rd.name(rd.field(data, "to move", "", str), self.seats, "to move", "player")
        phase_name = rd.field(data, "phase", "", str)
        if phase_name not in PHASES:
            rd.fail("phase", f"must be one of {', '.join(PHASES)}, got {phase_name!r}")
        phase = self.phase = PHASES.index(phase_name)
        r["round"] = NUM_ROUNDS if phase == PHASE_GAME_OVER else self.rnd - 1
        if phase == PHASE_GAME_OVER and self.rnd != NUM_ROUNDS:
            rd.fail("round", f"a finished game is in round {NUM_ROUNDS}, got {self.rnd}")
        r["turn_player"] = self.mover
        r["phase"] = phase

    def turn(self) -> None:
        rd, r = self.rd, self.r
        turn = rd.field(self.data, "turn", "", dict, {})
        rd.unknown_keys(turn, TURN_FIELDS, "turn")
        drawn_names = rd.field(turn, "drawn", "turn", list, [])
        if len(drawn_names) > 2:
            rd.fail("turn.drawn", f"at most 2 drawn tiles (Builder), got {len(drawn_names)}")
        drawn = [rd.name(c, COLOURS, f"turn.drawn[{i}]", "colour") for i, c in enumerate(drawn_names)]
        self.drawn = drawn
        r["drawn"] = drawn + [NO_TILE] * (2 - len(drawn))
        r["avail"] = rd.colour_counts(turn, "actions", "turn", {}, hi=MAX_ACTIONS)
        r["extra"] = rd.colour_counts(turn, "extra actions", "turn", {}, hi=MAX_ACTIONS)
        r["free_play"] = int(rd.field(turn, "free card play", "turn", bool, True))
        r["river_extra"] = rd.count(turn, "extra river steps", "turn", 0, hi=2)
        # default: available when T5 is in force (checked last, with the tower)
        self.t5_seal = rd.field(turn, "T5 seal", "turn", bool, None)
        r["draw_swap_used"] = int(rd.field(turn, "draw swap used", "turn", bool, False))
        r["merchant_used"] = int(rd.field(turn, "merchant used", "turn", bool, False))
        r["t10_used"] = int(rd.field(turn, "T10 used", "turn", bool, False))
        pushed = turn.get("pushed out at")
        if pushed is not None:
            pushed = rd.count(turn, "pushed out at", "turn", hi=11)
        r["pushed_out_at"] = -1 if pushed is None else pushed

    def pending(self) -> None:
        rd, r = self.rd, self.r
        pending = rd.field(self.data, "pending", "", list, [])
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
        self.tasks = tasks
        _check_phase_tasks(rd, self.phase, tasks)
        _check_drawn(rd, self.phase, tasks, args, self.drawn)

    def grid_and_outer_spaces(self) -> None:
        rd, data, r = self.rd, self.data, self.r
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

    def docks_and_bag(self) -> None:
        rd, data, r = self.rd, self.data, self.r
        r["docks"] = rd.colour_counts(data, "docks", "")
        # a view may leave the bag out: it is what the rest of the 50 (+ refills) leaves
        self.derive_bag = self.is_view and "bag" not in data
        r["bag"] = [0] * len(COLOURS) if self.derive_bag else rd.colour_counts(data, "bag", "")
        r["tiles_added"] = rd.count(data, "tiles added", "", 0, hi=250)
        if r["tiles_added"] % len(COLOURS):
            rd.fail("tiles added", f"the bag is refilled 5 tiles at a time (R-DRAW-8), "
                    f"got {r['tiles_added']}")
        refills = sum(1 for t in self.tasks if t == DOCK_REFILL)
        if sum(r["docks"]) != 5 - refills:
            rd.fail("docks", f"the 5 loading docks hold {5 - refills} tiles here, got {sum(r['docks'])}")

    def descendants_on_board(self) -> None:
        """Those on the board; the players' section adds the owned ones."""
        self.on_board = self.rd.names(self.data, "descendants on board", "", DESCENDANTS,
                                      "descendant")
        self.desc = [DESC_UNSEEN] * len(DESCENDANTS)
        for d in self.on_board:
            self.desc[d] = DESC_ON_BOARD

    def reshuffles(self) -> None:
        """R-INFO-3b: group g holds the cards the g-th reshuffle put into the draw
        pile and no later one did; group 0 the cards drawn before the first."""
        rd = self.rd
        reshuffled = rd.field(self.data, "reshuffles", "", list, [])
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
        self.r["reshuffles"] = len(reshuffled)
        self.r["card_group"] = groups
        self.groups = groups
        self.n_groups = len(reshuffled) + 1

    def players(self) -> None:
        self.outer_mark = [-1] * 12
        self.coat_owner = [-1] * len(COATS)
        self.crest_owner = [-1] * len(QUARTERS)
        self.quarter_seals = [0] * len(QUARTERS)
        for p, pd in enumerate(self.player_data):
            self.player(p, pd)
        self.descendant_and_seal_totals()
        r = self.r
        r["desc"] = self.desc
        r["outer_mark"] = self.outer_mark
        r["coat_owner"] = self.coat_owner
        r["crest_owner"] = self.crest_owner
        r["quarter_seals"] = self.quarter_seals
        barges = [pl["barge"] for pl in r["players"]]
        for p, i in enumerate(barges):
            if i > 0 and barges.index(i) != p:
                self.rd.fail(f"players[{p}].barge", f"river space {i} already holds "
                             f"{SEATS[barges.index(i)]}'s barge (only the start space holds "
                             "several, R-RIVER-2)")

    def player(self, p: int, pd) -> None:
        rd = self.rd
        where = f"players[{p}]"
        if not isinstance(pd, dict):
            rd.fail(where, "must be an object")
        rd.unknown_keys(pd, PLAYER_FIELDS, where)
        name = rd.field(pd, "name", where, str)
        if name != SEATS[p]:
            rd.fail(f"{where}.name", f"seat {p} is {SEATS[p]!r}, got {name!r}")
        pl = self.r["players"][p]
        pl["score"] = rd.count(pd, "score", where, lo=-MAX_POINTS, hi=MAX_POINTS)
        pl["vp"] = self.player_points(pd, where, pl["score"])
        pl["coins"] = rd.count(pd, "coins", where, hi=999)
        pl["sparrows"] = rd.count(pd, "sparrows", where, hi=999)
        pl["barge"] = rd.count(pd, "barge", where, hi=core.RIVER_LENGTH - 1)
        pl["supply"] = rd.colour_counts(pd, "supply", where)
        pl["seals_in"] = self.player_seals(pd, where)
        self.player_coats(p, pd, pl, where)
        for d in rd.names(pd, "descendants", where, DESCENDANTS, "descendant"):
            if self.desc[d] != DESC_UNSEEN:
                owner = self.desc[d]  # on the board, or a seat
                rd.fail(f"{where}.descendants", f"{DESCENDANTS[d]} is already "
                        f"{'on the board' if owner == DESC_ON_BOARD else 'owned by ' + SEATS[owner]}")
            self.desc[d] = p
        front = rd.names(pd, "in front", where, CARDS, "card")
        self.claim_cards(front, f"{where}.in front")
        pl["front"] = sum(1 << c for c in front)
        known = rd.names(pd, "known cards", where, CARDS, "card", [])
        if self.is_view and p != self.viewer:
            pl["hand"] = self.hidden_hand(p, pd, where, known)
        else:
            pl["hand"] = self.shown_hand(pd, where, known)
        pl["known"] = sum(1 << c for c in known)

    def player_points(self, pd: dict, where: str, score: int) -> list[int]:
        """The points by source; without them, all of the score is 'play'."""
        rd = self.rd
        vp = [0] * len(SOURCES)
        vp_in = rd.field(pd, "vp", where, dict, None)
        if vp_in is None:
            vp[0] = score
        else:
            for src, v in vp_in.items():
                i = rd.name(src, SOURCES, f"{where}.vp", "source")
                if isinstance(v, bool) or not isinstance(v, int):
                    rd.fail(f"{where}.vp.{src}", f"must be a whole number, got {v!r}")
                if not -MAX_POINTS <= v <= MAX_POINTS:
                    rd.fail(f"{where}.vp.{src}", f"must be between {-MAX_POINTS} and {MAX_POINTS}, "
                            f"got {v}")
                vp[i] = v
            if sum(vp) != score:
                rd.fail(f"{where}.vp", f"the sources add up to {sum(vp)}, but the score is {score}")
        if self.phase != PHASE_GAME_OVER and any(vp[core.NUM_PLAY_SOURCES:]):
            rd.fail(f"{where}.vp", "end-game sources are only scored when the game is over")
        return vp

    def player_seals(self, pd: dict, where: str) -> list[int]:
        """The player's seals in each quarter, added to the quarters' totals."""
        rd = self.rd
        seals_in = [0] * len(QUARTERS)
        for qname, k in rd.field(pd, "seals", where, dict).items():
            q = rd.name(qname, QUARTERS, f"{where}.seals", "quarter")
            if isinstance(k, bool) or not isinstance(k, int) or k < 0:
                rd.fail(f"{where}.seals.{qname}", f"must be a whole number >= 0, got {k!r}")
            seals_in[q] = k
            self.quarter_seals[q] += k
        return seals_in

    def player_coats(self, p: int, pd: dict, pl: dict, where: str) -> None:
        """The coats of arms, their seals on the outer spaces (unless unmarked)
        and the crests on the golden ones; the seals and crests left."""
        rd, b = self.rd, self.table
        coats = rd.names(pd, "coats", where, COATS, "coat of arms")
        unmarked = rd.names(pd, "unmarked coats", where, COATS, "coat of arms", [])
        for i, c in enumerate(unmarked):
            if c not in coats:
                rd.fail(f"{where}.unmarked coats[{i}]", f"{COATS[c]} is not among the player's coats")
        marks = 0
        golden = 0
        for c in coats:
            self.claim_coat(c, f"{where}.coats")
            self.coat_owner[c] = p
            if c not in unmarked:
                self.outer_mark[b["coat_outer"][c]] = p
                marks += 1
            if b["coat_quarter"][c] >= 0:
                golden += 1
                self.crest_owner[b["coat_quarter"][c]] = p
        pl["coats"] = sum(1 << c for c in coats)
        if golden > CRESTS:
            rd.fail(f"{where}.coats", f"{golden} golden coats, but a player has only {CRESTS} crests")
        pl["crests_left"] = CRESTS - golden
        used = sum(pl["seals_in"]) + marks
        if used > SEALS:
            rd.fail(f"{where}.seals", f"{used} seals on the board and on coats, but a player has {SEALS}")
        pl["seals_left"] = SEALS - used

    def hidden_hand(self, p: int, pd: dict, where: str, known: list[int]) -> int:
        """Another player's hand in a view: its size and the cards taken face up
        (R-INFO-3a); the hidden cards are dealt with the draw pile."""
        rd = self.rd
        if "hand" in pd:
            rd.fail(f"{where}.hand", f"a view of {SEATS[self.viewer]} cannot know {SEATS[p]}'s "
                    "hand; give 'hand size' (and the cards taken face up as 'known cards')")
        size = rd.count(pd, "hand size", where, hi=len(CARDS))
        if len(known) > size:
            rd.fail(f"{where}.known cards", f"{len(known)} known cards, but the hand holds {size}")
        self.claim_cards(known, f"{where}.known cards")
        self.hidden_by_group[p] = self.group_counts(pd, "hidden cards by reshuffle", where,
                                                    size - len(known), "hand cards")
        return sum(1 << c for c in known)

    def shown_hand(self, pd: dict, where: str, known: list[int]) -> int:
        """A hand listed card by card: every hand of a full position, the viewer's own."""
        rd = self.rd
        if "hand size" in pd:
            rd.fail(f"{where}.hand size", "give the cards themselves ('hand') for this player")
        if "hidden cards by reshuffle" in pd:
            rd.fail(f"{where}.hidden cards by reshuffle", "only for another player's hand in a view")
        hand = rd.names(pd, "hand", where, CARDS, "card")
        self.claim_cards(hand, f"{where}.hand")
        for i, c in enumerate(known):
            if c not in hand:
                rd.fail(f"{where}.known cards[{i}]", f"{CARDS[c]} is not in the hand")
        return sum(1 << c for c in hand)

    def descendant_and_seal_totals(self) -> None:
        """Across the players: the Descendants laid out, the Oath House seals
        that took them, and the spaces of each quarter."""
        rd, on_board, tasks = self.rd, self.on_board, self.tasks
        owned = sum(1 for d in self.desc if d >= 0)
        if len(on_board) + owned != LAID_OUT:
            rd.fail("descendants on board", f"{LAID_OUT} descendants are laid out at set-up; "
                    f"{len(on_board)} on the board + {owned} owned = {len(on_board) + owned}")
        oath = QUARTERS.index("Oath House")
        choosing = tasks.count(TASK_IDS["descendant choice"])  # seal placed, descendant not yet taken
        if self.quarter_seals[oath] != owned + choosing:
            rd.fail("players", f"{self.quarter_seals[oath]} seals in the Oath House but {owned} "
                    "descendants taken" + (f" and {choosing} being chosen" if choosing else "")
                    + " (each Oath House seal takes one, R-PRIV-OATH)")
        for q, k in enumerate(self.quarter_seals):
            if k > self.table["capacity"][q]:
                rd.fail("players", f"{k} seals in {QUARTERS[q]}, which has "
                        f"{self.table['capacity'][q]} spaces")

    def discard_pile(self) -> None:
        discard = self.rd.names(self.data, "discard pile", "", CARDS, "card")
        self.claim_cards(discard, "discard pile")
        self.r["discard"] = sum(1 << c for c in discard)

    def looked_at(self) -> None:
        """The cards and coats the mover is looking at (R-PRIV-GOOSE, the coat
        draws): named for the mover, counted for the others."""
        rd = self.rd
        looked = rd.field(self.data, "looked at", "", dict, {})
        rd.unknown_keys(looked, ("cards", "coats", "cards by reshuffle", "coats known to"), "looked at")
        self.looked_hidden = self.is_view and self.viewer != self.mover
        self.looked_by_group = [0] * self.n_groups
        if self.looked_hidden:
            self.looked_at_counted(looked)
        else:
            self.looked_at_named(looked)
        n_cards, n_coats = self.n_looked_cards, self.n_looked_coats
        if n_cards > 3:
            rd.fail("looked at.cards", f"at most 3 cards are looked at, got {n_cards}")
        if n_coats > 2:
            rd.fail("looked at.coats", f"at most 2 coats are looked at, got {n_coats}")
        if n_cards and TASK_IDS["card keep"] not in self.tasks:
            rd.fail("looked at.cards", "cards are looked at only while a 'card keep' is pending")
        if n_coats and TASK_IDS["coat choice"] not in self.tasks:
            rd.fail("looked at.coats", "coats are looked at only while a 'coat choice' is pending")
        self.looked_coats_known(looked)

    def looked_at_counted(self, looked: dict) -> None:
        """Another player looks: the viewer knows how many, and the coats shown to
        them (R-COAT-4); the unknown ones are None until they are dealt."""
        rd = self.rd
        self.n_looked_cards = rd.count(looked, "cards", "looked at", 0, hi=3)
        self.looked_by_group = self.group_counts(looked, "cards by reshuffle", "looked at",
                                                 self.n_looked_cards, "looked-at cards")
        self.looked_cards: list[int] = []
        if isinstance(looked.get("coats"), list):  # some of them known to the viewer (R-COAT-4)
            self.looked_coats = [None if name is None else
                                 rd.name(name, COATS, f"looked at.coats[{i}]", "coat of arms")
                                 for i, name in enumerate(looked["coats"])]
            for i, c in enumerate(self.looked_coats):
                if c is not None:
                    self.claim_coat(c, f"looked at.coats[{i}]")
        else:
            self.looked_coats = [None] * rd.count(looked, "coats", "looked at", 0, hi=2)
        self.n_looked_coats = len(self.looked_coats)

    def looked_at_named(self, looked: dict) -> None:
        """A full position, or the mover's own view: the cards and coats by name."""
        rd = self.rd
        if "cards by reshuffle" in looked:
            rd.fail("looked at.cards by reshuffle", "only in the view of another player")
        self.looked_cards = rd.names(looked, "cards", "looked at", CARDS, "card", [])
        coats = rd.names(looked, "coats", "looked at", COATS, "coat of arms", [])
        self.claim_cards(self.looked_cards, "looked at.cards")
        for c in coats:
            self.claim_coat(c, "looked at.coats")
        self.looked_coats = coats
        self.n_looked_cards, self.n_looked_coats = len(self.looked_cards), len(self.looked_coats)

    def looked_coats_known(self, looked: dict) -> None:
        """Who knows each looked-at coat: the mover, and whoever was shown it (R-COAT-4)."""
        rd, mover, viewer, n_coats = self.rd, self.mover, self.viewer, self.n_looked_coats
        self.looked_known = []
        known_lists = rd.field(looked, "coats known to", "looked at", list, [[SEATS[mover]]] * n_coats)
        if len(known_lists) != n_coats:
            rd.fail("looked at.coats known to", f"must list who knows each of the {n_coats} "
                    f"looked-at coats, got {len(known_lists)}")
        for i, names in enumerate(known_lists):
            where = f"looked at.coats known to[{i}]"
            if not isinstance(names, list):
                rd.fail(where, f"must be a list of players, got {type(names).__name__}")
            mask = 0
            for j, name in enumerate(names):
                mask |= 1 << rd.name(name, self.seats, f"{where}[{j}]", "player")
            if not mask >> mover & 1:
                rd.fail(where, f"{SEATS[mover]}, who is looking at the coat, knows it")
            if self.looked_hidden and (self.looked_coats[i] is not None) != bool(mask >> viewer & 1):
                rd.fail(f"looked at.coats[{i}]", f"{SEATS[viewer]} " + (
                    "knows this coat: name it" if mask >> viewer & 1 else "cannot know this coat: null")
                    + " (R-COAT-4)")
            self.looked_known.append(mask)

    def draw_pile(self) -> None:
        """A full position lists the draw pile; a view gives its size, and the
        cards the viewer has not seen are dealt to the hidden places."""
        if self.is_view:
            self.draw_pile_size()
        else:
            self.draw_pile_cards()
        self.r["looked_cards"] = (self.looked_cards + [0, 0, 0])[:3]
        self.r["n_looked_cards"] = self.n_looked_cards

    def draw_pile_size(self) -> None:
        rd, viewer = self.rd, self.viewer
        unseen = [c for c in range(len(CARDS)) if c not in self.cards_seen]
        pile_size = rd.count(self.data, "draw pile size", "", hi=len(CARDS))
        if "draw pile" in self.data:
            rd.fail("draw pile", "a view gives only the 'draw pile size'")
        others = [p for p in range(self.n) if p != viewer]
        hidden_in = {p: sum(self.hidden_by_group[p]) for p in others}
        looked = self.n_looked_cards if self.looked_hidden else 0
        hidden = pile_size + looked + sum(hidden_in.values())
        if hidden != len(unseen):
            rd.fail("draw pile size", f"{len(unseen)} cards are unseen by {SEATS[viewer]}, but the "
                    f"draw pile ({pile_size}) and the other hands ("
                    f"{', '.join(f'{SEATS[p]} {hidden_in[p]}' for p in others)})"
                    + (f" and the {self.n_looked_cards} looked-at cards" if self.looked_hidden else "")
                    + f" hold {hidden}")
        self.deal_unseen_cards(unseen, pile_size, others)

    def deal_unseen_cards(self, unseen: list[int], pile_size: int, others: list[int]) -> None:
        """Any consistent deal will do: the searcher redeals every iteration; each
        reshuffle group is dealt among the places its cards can be (R-INFO-3b)."""
        r, n_groups = self.r, self.n_groups
        r["pile"] = 0
        for g in range(n_groups):
            cards_g = [c for c in unseen if self.groups[c] == g]
            want = (sum(self.hidden_by_group[p][g] for p in others) + self.looked_by_group[g]
                    + (pile_size if g == n_groups - 1 else 0))
            if want != len(cards_g):
                what = "before the first reshuffle" if g == 0 else f"of reshuffles[{g - 1}]"
                self.rd.fail("reshuffles", f"{len(cards_g)} cards {what} are unseen by "
                             f"{SEATS[self.viewer]}, but the hands, looked-at cards and draw pile "
                             f"hold {want} of them")
            k = 0
            for p in others:
                take = self.hidden_by_group[p][g]
                r["players"][p]["hand"] |= sum(1 << c for c in cards_g[k:k + take])
                k += take
            self.looked_cards += cards_g[k:k + self.looked_by_group[g]]
            k += self.looked_by_group[g]
            r["pile"] |= sum(1 << c for c in cards_g[k:])

    def draw_pile_cards(self) -> None:
        rd = self.rd
        if "draw pile size" in self.data:
            rd.fail("draw pile size", "a full position lists the 'draw pile' itself")
        pile = rd.names(self.data, "draw pile", "", CARDS, "card")
        self.claim_cards(pile, "draw pile")
        for i, c in enumerate(pile):
            if self.groups[c] != self.n_groups - 1:
                rd.fail(f"draw pile[{i}]", f"{CARDS[c]} is not among the cards of the last "
                        "reshuffle, the only ones the draw pile holds (R-INFO-3b)")
        self.r["pile"] = sum(1 << c for c in pile)
        missing = [CARDS[c] for c in range(len(CARDS)) if c not in self.cards_seen]
        if missing:
            rd.fail("draw pile", f"{len(CARDS)} cards in all, {len(self.cards_seen)} placed; "
                    "missing: " + ", ".join(missing))

    def coat_stack(self) -> None:
        """The coats put under the stack (by whom, known to whom) and the shuffled
        rest: listed in a full position, counted in a view."""
        rd, r = self.rd, self.r
        stack = rd.field(self.data, "coat stack", "", dict)
        rd.unknown_keys(stack, ("shuffled", "under"), "coat stack")
        tail, tail_by, tail_known = self.coats_under(rd.field(stack, "under", "coat stack", list))
        if self.is_view:
            shuffled = self.deal_unseen_coats(stack, tail)
        else:
            shuffled = rd.names(stack, "shuffled", "coat stack", COATS, "coat of arms")
            for c in shuffled:
                self.claim_coat(c, "coat stack.shuffled")
            missing = [COATS[c] for c in range(len(COATS)) if c not in self.coat_place]
            if missing:
                rd.fail("coat stack", f"{len(COATS)} coats in all; missing: {', '.join(missing)}")
        r["coat_unknown"] = sum(1 << c for c in shuffled)
        r["coat_tail"] = tail + [0] * (len(COATS) - len(tail))
        r["coat_tail_by"] = tail_by + [0] * (len(COATS) - len(tail_by))
        r["coat_tail_known"] = tail_known + [0] * (len(COATS) - len(tail_known))
        r["looked_coat_known"] = (self.looked_known + [0, 0])[:2]
        r["coat_tail_len"] = len(tail)
        r["looked_coats"] = (self.looked_coats + [0, 0])[:2]
        r["n_looked_coats"] = self.n_looked_coats

    def coats_under(self, under: list) -> tuple[list, list[int], list[int]]:
        """The coats under the stack, the seat that put each there and who knows
        it (R-COAT-4); a coat the viewer does not know is None until dealt."""
        rd, seats, viewer = self.rd, self.seats, self.viewer
        tail: list[int | None] = []     # None: a coat the viewer does not know
        tail_by: list[int] = []
        tail_known: list[int] = []
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
            if self.is_view and not known >> viewer & 1:
                if "coat" in entry:
                    rd.fail(f"{where}.coat", f"{SEATS[viewer]} cannot know a coat {SEATS[by]} put "
                            "under (it is not known to them, R-COAT-4)")
                tail.append(None)
            else:
                c = rd.name(rd.field(entry, "coat", where, str), COATS, f"{where}.coat", "coat of arms")
                self.claim_coat(c, where)
                tail.append(c)
        return tail, tail_by, tail_known

    def deal_unseen_coats(self, stack: dict, tail: list) -> list[int]:
        """A view: the coats the viewer has not seen fill the unknown places under
        the stack and among the looked-at coats; the rest are shuffled."""
        coats_unseen = [c for c in range(len(COATS)) if c not in self.coat_place]
        shuffled_n = self.rd.count(stack, "shuffled", "coat stack", hi=len(COATS))
        hidden_n = shuffled_n + tail.count(None) + self.looked_coats.count(None)
        if hidden_n != len(coats_unseen):
            self.rd.fail("coat stack.shuffled", f"{len(coats_unseen)} coats are unseen by "
                         f"{SEATS[self.viewer]}, but the stack and the looked-at coats hold {hidden_n}")
        k = 0
        for coats in (tail, self.looked_coats):
            for i, c in enumerate(coats):
                if c is None:
                    coats[i] = coats_unseen[k]
                    k += 1
        return coats_unseen[k:]

    def tower(self) -> None:
        rd, data, r = self.rd, self.data, self.r
        if not self.advanced:
            if "tower" in data:
                rd.fail("tower", "tower tiles have effects only in the advanced variant")
            r["tower_current"] = r["tower_next"] = -1
            return
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
        if self.phase != PHASE_GAME_OVER:
            self.tower_of_the_round(cur, nxt, past)
        r["tower_current"] = cur
        r["tower_next"] = nxt
        r["tower_unseen"] = sum(1 << t for t in range(len(TOWER_TILES))
                                if t not in past and t not in shown)

    def tower_of_the_round(self, cur: int, nxt: int, past: list[int]) -> None:
        """A tile in force every round, one for each earlier round, the next one
        shown until round 10 (R-TOWER-1)."""
        rd, rnd = self.rd, self.rnd
        rounds_done = min(self.r["round"], NUM_ROUNDS)
        if cur < 0:
            rd.fail("tower.current", "the advanced game has a tower tile in force every round")
        if len(past) != rounds_done:
            rd.fail("tower.past", f"round {rnd} has {rounds_done} earlier tower tiles, got {len(past)}")
        if nxt < 0 and rnd < NUM_ROUNDS and TASK_IDS["tower reveal"] not in self.tasks:
            rd.fail("tower.next", "the next tower tile is shown until round 10")
        if nxt >= 0 and rnd == NUM_ROUNDS:
            rd.fail("tower.next", "round 10 has no next tower tile")

    def colour_elsewhere(self, c: int) -> int:
        """Tiles of colour `c` outside the bag: grid, outer spaces, docks, drawn, supplies."""
        r = self.r
        return (sum(1 for x in r["grid"] if x == c) + sum(1 for x in r["outer"] if x == c)
                + r["docks"][c] + self.drawn.count(c)
                + sum(pl["supply"][c] for pl in r["players"]))

    def tile_totals(self) -> None:
        """50 tiles plus the R-DRAW-8 refills, and no colour beyond its share."""
        r = self.r
        per_colour = TILES_PER_COLOUR + r["tiles_added"] // len(COLOURS)
        if self.derive_bag:
            for c in range(len(COLOURS)):
                r["bag"][c] = max(0, per_colour - self.colour_elsewhere(c))
        total = sum(1 for c in r["grid"] if c >= 0) + sum(1 for c in r["outer"] if c >= 0)
        total += sum(r["docks"]) + sum(r["bag"]) + len(self.drawn)
        total += sum(sum(pl["supply"]) for pl in r["players"])
        if total != TILES_TOTAL + r["tiles_added"]:
            self.rd.fail("tiles", f"{total} counted (grid, outer spaces, docks, bag, supplies, drawn), "
                         f"expected {TILES_TOTAL + r['tiles_added']}")
        for c in range(len(COLOURS)):
            have = self.colour_elsewhere(c) + r["bag"][c]
            if have > per_colour:
                self.rd.fail("tiles", f"{have} {COLOURS[c]} tiles, more than the game has")

    def finish(self) -> tuple[core.State, int]:
        """The turn against everything read, then the state: it must wait for a
        decision or a chance event. Returns (state, the viewer or the mover)."""
        self.r["t5_seal"] = int(_check_turn(self.rd, self.r, self.tasks, self.t5_seal, self.phase))
        self.st.set_raw(self.r)
        if self.is_view:
            self.st.seed_dealer(0)
        _check_waits_for_something(self.rd, self.st, self.tasks)
        return self.st, (self.viewer if self.is_view else self.mover)


def position_to_state(data, source: str = "position", board=None) -> tuple[core.State, int]:
    """Validate a parsed position and build its state; returns (state, seat)."""
    return _PositionBuilder(data, source, board).read()
