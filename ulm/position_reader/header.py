"""The header (format, kind, variant, players, viewer) and the game it names; the
round, the phase, the turn and the pending tasks."""
from __future__ import annotations

from ulm._fastcore import COLOURS, PHASES, SEATS
from ulm.board import BoardError
from ulm.errors import OptionError
from ulm.game import Game, check_variant
from ulm.position_format import (FORMAT, KINDS, MAX_ACTIONS, NO_TILE, NUM_ROUNDS, PHASE_GAME_OVER,
                                 TASK_IDS, TOP_FIELDS, TURN_FIELDS)
from ulm.position_reader.reading import _Sections
from ulm.position_reader.checks import _task_arg, _check_phase_tasks, _check_drawn


class _GameSections(_Sections):
    """The header and the turn, read first: they set the seats, the game and the phase."""

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
        try:
            self.variant = check_variant(variant)
        except OptionError as exc:
            rd.fail("variant", exc.message)
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
