"""The position format's names and limits (docs/positions.md): what the
reader (ulm.position_reader) checks against and the writer (ulm.positions)
writes. `ulm.positions` re-exports them.
"""
from __future__ import annotations

from ulm import _fastcore as core
from ulm._fastcore import CARDS, PHASES, TASKS
from ulm.board import CATHEDRAL_CARDS

FORMAT = "ulm-position/1"
KINDS = ("full", "view")
NO_TILE = -1
NUM_ROUNDS = core.NUM_ROUNDS
TILES_TOTAL = 50
SEALS = 12
CRESTS = 3
LAID_OUT = core.DESCENDANTS_LAID_OUT
DESC_ON_BOARD = core.DESC_ON_BOARD
DESC_UNSEEN = core.DESC_UNSEEN
TILES_PER_COLOUR = core.TILES_PER_COLOUR
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


# the fields of a position, of its turn and of a player, as a file may give them
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
