"""A rich, fixed-length encoding of a position for a learned evaluation.

The cut-off evaluation of the search (mcts.searcher.evaluation) sees 14 numbers per
player. This encoder sees the whole position: the grid, the docks and the
outer spaces, the river, cards in hand and in front, coats, seals and crests
per quarter, descendants, the bag's and the pile's make-up, whose turn and
which phase. Every number is a plain count, flag or one-hot of the C struct (or of a
function the compiled core already has: the end-game points, the pushable
lines). The compiled search computes them (``mcts/searcher/_features.pxi``) for the
training data and for its learned evaluation alike; tests/feature_oracle.py
computes the same vector from the public API, and the tests compare the two
on positions of every kind.

It encodes the full state: hidden cards included. That is what the search
evaluates (a determinized world), and the training targets (the game's
outcome) come from the true state.

Layout (version ``LAYOUT_VERSION``; every entry is a float32):

``encode(state)`` gives the *neutral* vector: the global block, then one
player block per seat in seat order (seat 0 first). Its length is
``feature_count(players)`` = G + players x P, with G = 357 and P = 187
(731 / 918 / 1105 for 2 / 3 / 4 players). ``perspective(x, seat, players)``
gives the vector a model of seat `seat` reads: the global block, then the
player blocks rotated so that `seat`'s block comes first and the others follow
in turn order (seat+1, seat+2, ...). A model's win chances are the softmax over
the seats of its logit of each seat's perspective.

Global block (G = 357), in this order:

=====================  ====  ===================================================
entry                  size  meaning
=====================  ====  ===================================================
players                   3  one-hot of the player count 2, 3, 4
advanced                  1  1 in the advanced variant
round                    10  one-hot of the round (0..9)
game left                 1  share of the game's turns not yet started
                             (1 - (round x N + turn player) / (10 x N))
phase                     4  one-hot of PHASES (before draw, push, actions,
                             game over)
grid                     45  cell-major (row-major cells 0..8) one-hot of the
                             tile's colour (COLOURS); all 0 for an empty cell
outer                    60  outer space-major (0..11) one-hot of the colour
pushable                 12  1 where the push entry (PUSH_ENTRIES) is legal by
                             R-PUSH-3: both outer spaces of its line empty
bag                       5  tiles of each colour in the bag
docks                     5  tiles of each colour in the loading docks
tiles added               1  R-DRAW-8 refills so far
pile                     33  1 for each card (CARDS order) in the draw pile
pile size                 1
discard                  33  1 for each card on the discard pile
discard size              1
reshuffles                1
coat stack               12  1 for each coat (COATS order) in the coat stack
coat stack size           1
tower current            12  one-hot of the tower tile in force (advanced)
tower next               12  one-hot of the next tower tile (advanced)
tower unseen             12  1 for each tower tile not yet seen
descendants on board      8  1 for each descendant (DESCENDANTS order) on the
                             Oath House
descendants unseen        8  1 for each descendant out of the game
quarter seals             8  seals in each quarter (QUARTERS order), all seats
drawn                    10  two slots, each a one-hot of the drawn tile's
                             colour
avail                     5  unused actions of the activated tiles by colour
extra                     5  unused extra actions by colour
turn flags                6  free_play, t5_seal, river_extra, draw_swap_used,
                             merchant_used, t10_used
pushed out at            12  one-hot of this turn's pushed-out outer space
tasks                     1  tasks on the task stack
task kinds               29  1 for each task kind 1..29 (TASKS) on the stack
=====================  ====  ===================================================

Player block (P = 187), for one seat p:

=====================  ====  ===================================================
entry                  size  meaning
=====================  ====  ===================================================
seat                      4  one-hot of the seat (seat 0 starts every round)
to move                   1  1 if p is the turn player
turns to wait             1  (p - turn player) mod N
score                     1  VP now
projected                 1  VP if the game ended now (projected_scores)
breakdown                14  score_breakdown(p) by SOURCES, end-game items
                             included
coins                     1
sparrows                  1
barge                     1  river index 0..21
seals left                1
crests left               1
barge space              22  one-hot of the river index
supply                    5  tiles of each colour in p's supply
supply size               1
seals in quarter          8  p's seals in each quarter
quarters with a seal      1
hand                     33  1 for each card in p's hand (hidden ones too)
hand size                 1
front                    33  1 for each card in front of p
front size                1
coats                    12  1 for each coat p owns
coats owned               1
crests                    8  1 for each quarter where p has the crest
coat marks               12  1 for each outer space with p's seal on its image
descendants              8  1 for each descendant p owns
coats known              1  coats under the stack that p knows
eval features            13  mcts.searcher._search.eval_features_of(state, p)[1:14]
                             (the 14-feature evaluation's inputs without the
                             constant)
=====================  ====  ===================================================

Version history: ``ulm-features/1`` is this layout.
"""
from __future__ import annotations

import numpy as np

from ulm import (CARDS, COATS, COLOURS, DESCENDANTS, NUM_ROUNDS, PHASES, PUSH_ENTRY_OUTER,
                 QUARTERS, RIVER_LENGTH, SOURCES, TASKS, TOWER_TILES)

LAYOUT_VERSION = "ulm-features/1"
ROUNDS = NUM_ROUNDS
DESC_ON_BOARD = -1
DESC_UNSEEN = -2
NUM_OUTER = 12
NUM_TASK_KINDS = 29

# (name, size) of every entry, in order
GLOBAL_LAYOUT = (
    ("players", 3), ("advanced", 1), ("round", ROUNDS), ("game left", 1),
    ("phase", len(PHASES)), ("grid", 9 * len(COLOURS)), ("outer", NUM_OUTER * len(COLOURS)),
    ("pushable", len(PUSH_ENTRY_OUTER)), ("bag", len(COLOURS)), ("docks", len(COLOURS)),
    ("tiles added", 1), ("pile", len(CARDS)), ("pile size", 1), ("discard", len(CARDS)),
    ("discard size", 1), ("reshuffles", 1), ("coat stack", len(COATS)),
    ("coat stack size", 1), ("tower current", len(TOWER_TILES)),
    ("tower next", len(TOWER_TILES)), ("tower unseen", len(TOWER_TILES)),
    ("descendants on board", len(DESCENDANTS)), ("descendants unseen", len(DESCENDANTS)),
    ("quarter seals", len(QUARTERS)), ("drawn", 2 * len(COLOURS)), ("avail", len(COLOURS)),
    ("extra", len(COLOURS)), ("turn flags", 6), ("pushed out at", NUM_OUTER), ("tasks", 1),
    ("task kinds", NUM_TASK_KINDS),
)
PLAYER_LAYOUT = (
    ("seat", 4), ("to move", 1), ("turns to wait", 1), ("score", 1), ("projected", 1),
    ("breakdown", len(SOURCES)), ("coins", 1), ("sparrows", 1), ("barge", 1),
    ("seals left", 1), ("crests left", 1), ("barge space", RIVER_LENGTH),
    ("supply", len(COLOURS)), ("supply size", 1), ("seals in quarter", len(QUARTERS)),
    ("quarters with a seal", 1), ("hand", len(CARDS)), ("hand size", 1),
    ("front", len(CARDS)), ("front size", 1), ("coats", len(COATS)), ("coats owned", 1),
    ("crests", len(QUARTERS)), ("coat marks", NUM_OUTER), ("descendants", len(DESCENDANTS)),
    ("coats known", 1), ("eval features", 13),
)
GLOBAL_SIZE = sum(size for _, size in GLOBAL_LAYOUT)
PLAYER_SIZE = sum(size for _, size in PLAYER_LAYOUT)
TURN_FLAGS = ("free_play", "t5_seal", "river_extra", "draw_swap_used", "merchant_used",
              "t10_used")

__all__ = [
    "GLOBAL_LAYOUT",
    "GLOBAL_SIZE",
    "LAYOUT_VERSION",
    "PLAYER_LAYOUT",
    "PLAYER_SIZE",
    "encode",
    "feature_count",
    "feature_names",
    "offset",
    "perspective",
    "perspectives",
]


def feature_count(players: int) -> int:
    """Length of the vector of a game of `players`."""
    _check_players(players)
    return GLOBAL_SIZE + players * PLAYER_SIZE


def _check_players(players) -> None:
    if players not in (2, 3, 4):
        raise ValueError(f"players: Ulm is for 2, 3 or 4 players, got {players!r}")


def offset(name: str, seat: int | None = None) -> int:
    """Index of the first number of entry `name`: of the global block (seat
    None) or of seat `seat`'s block (in the neutral vector, or in a perspective
    vector with seat counted from the perspective's own, 0)."""
    layout, base = (GLOBAL_LAYOUT, 0) if seat is None else (
        PLAYER_LAYOUT, GLOBAL_SIZE + seat * PLAYER_SIZE)
    for entry, size in layout:
        if entry == name:
            return base
        base += size
    raise KeyError(name)


def _entry_names(entry: str, size: int) -> list[str]:
    parts = {
        "players": ["2", "3", "4"], "round": [str(r + 1) for r in range(ROUNDS)],
        "phase": list(PHASES),
        "grid": [f"cell {c} {col}" for c in range(9) for col in COLOURS],
        "outer": [f"space {k} {col}" for k in range(NUM_OUTER) for col in COLOURS],
        "pushable": [str(e) for e in range(len(PUSH_ENTRY_OUTER))],
        "bag": list(COLOURS), "docks": list(COLOURS), "avail": list(COLOURS),
        "extra": list(COLOURS), "supply": list(COLOURS),
        "pile": list(CARDS), "discard": list(CARDS), "hand": list(CARDS), "front": list(CARDS),
        "coat stack": list(COATS), "coats": list(COATS),
        "tower current": list(TOWER_TILES), "tower next": list(TOWER_TILES),
        "tower unseen": list(TOWER_TILES),
        "descendants on board": list(DESCENDANTS), "descendants unseen": list(DESCENDANTS),
        "descendants": list(DESCENDANTS),
        "quarter seals": list(QUARTERS), "seals in quarter": list(QUARTERS),
        "crests": list(QUARTERS),
        "drawn": [f"{slot} {col}" for slot in (0, 1) for col in COLOURS],
        "turn flags": list(TURN_FLAGS),
        "pushed out at": [str(k) for k in range(NUM_OUTER)],
        "coat marks": [str(k) for k in range(NUM_OUTER)],
        "task kinds": [TASKS[k] for k in range(1, NUM_TASK_KINDS + 1)],
        "seat": [str(s) for s in range(4)], "breakdown": list(SOURCES),
        "barge space": [str(i) for i in range(RIVER_LENGTH)],
        "eval features": ["score", "end-game points now", "coins", "supply tiles", "hand cards",
                          "quarters with a seal", "seals placed", "descendants", "barge space",
                          "sparrows", "coats", "turns until own turn", "crests placed"],
    }.get(entry)
    if parts is None:
        return [entry]
    assert len(parts) == size, entry
    return [f"{entry}: {p}" for p in parts]


def feature_names(players: int) -> list[str]:
    """A name for every number of the neutral vector (player blocks as "seat k: ...")."""
    _check_players(players)
    names = [n for entry, size in GLOBAL_LAYOUT for n in _entry_names(entry, size)]
    for seat in range(players):
        names += [f"seat {seat}: {n}" for entry, size in PLAYER_LAYOUT
                  for n in _entry_names(entry, size)]
    return names


def encode(state) -> np.ndarray:
    """The neutral feature vector of `state` (float32, length feature_count),
    computed by the compiled encoder the search's learned evaluation reads
    (mcts.searcher._search.encode_features)."""
    from mcts.searcher._search import encode_features
    out = np.empty(feature_count(state.num_players()), dtype=np.float32)
    encode_features(state, out)
    return out


def perspective(x: np.ndarray, seat: int, players: int) -> np.ndarray:
    """The vector seat `seat`'s model reads: the global block, then the player
    blocks from `seat` on in turn order (works on the last axis of a batch)."""
    x = np.asarray(x)
    order = [(seat + k) % players for k in range(players)]
    blocks = [x[..., :GLOBAL_SIZE]] + [
        x[..., GLOBAL_SIZE + q * PLAYER_SIZE:GLOBAL_SIZE + (q + 1) * PLAYER_SIZE] for q in order]
    return np.concatenate(blocks, axis=-1)


def perspectives(x: np.ndarray, players: int) -> np.ndarray:
    """Every seat's perspective of a batch of neutral vectors: shape
    (rows, players, feature_count(players))."""
    x = np.asarray(x)
    if x.ndim != 2 or x.shape[1] != feature_count(players):
        raise ValueError(f"features: expected rows of {feature_count(players)} numbers "
                         f"({players} players), got shape {x.shape}")
    return np.stack([perspective(x, seat, players) for seat in range(players)], axis=1)
