"""Ulm: rules engine (compiled core), positions and game records.

    >>> import ulm
    >>> game = ulm.Game(players=4)
    >>> state = game.new_game(seed=1)
    >>> state.legal_actions()[:3]
"""
try:
    from ulm import _fastcore  # noqa: F401  (the compiled core is built)
except ImportError as exc:  # pragma: no cover - depends on the build
    raise ImportError(
        "ulm's compiled core (ulm._fastcore) is not built. Install the project with "
        "`pip install .` (or `pip install -e .`), or build it in place with "
        "`python setup.py build_ext --inplace`; this needs Cython and a C compiler."
    ) from exc

from ulm._fastcore import (  # noqa: E402
    ACTION_KINDS, ACTION_NAMES, CARDS, CHANCE, COATS, COLOURS, DECISION_COUNT, DESCENDANTS,
    NUM_ROUNDS, OBSERVATION_SEAT_FIELDS, OBSERVATION_SIZE, OBSERVATION_SLICES, PHASES,
    PUSH_ENTRY_OUTER, PUSH_EXIT_OUTER, QUARTERS, RIVER_LENGTH, SEATS, SOURCES, STATE_BYTES,
    TASKS, TERMINAL, TOWER_TILES, TOWER_VARIANTS, VARIANTS, IllegalActionError, State,
    action_fields, action_id, derive_seed,
)
from ulm.board import BoardError, load_board  # noqa: E402
from ulm.game import Game, decision_steps, parse_seat  # noqa: E402
from ulm import render as _render  # noqa: E402,F401  (str(state) draws the position as `ulm show`)

__all__ = [
    "ACTION_KINDS", "ACTION_NAMES", "BoardError", "CARDS", "CHANCE", "COATS", "COLOURS",
    "DECISION_COUNT", "DESCENDANTS", "Game", "IllegalActionError", "NUM_ROUNDS",
    "OBSERVATION_SEAT_FIELDS", "OBSERVATION_SIZE", "OBSERVATION_SLICES", "PHASES",
    "PUSH_ENTRY_OUTER", "PUSH_EXIT_OUTER",
    "QUARTERS", "RIVER_LENGTH", "SEATS", "SOURCES", "STATE_BYTES", "TASKS", "State", "TERMINAL",
    "TOWER_TILES", "TOWER_VARIANTS", "VARIANTS", "action_fields", "action_id", "decision_steps",
    "derive_seed", "load_board", "parse_seat",
]
