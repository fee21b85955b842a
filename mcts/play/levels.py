"""Bot levels a person can choose: each level is an ordinary bot spec.

    >>> level_spec("3")
    'ismcts:iterations=120'

``level:N`` is a bot spec wherever one is taken (mcts.play.bots.make_bot reads it
as that level's spec): ``ulm play --bots level:3``, tournaments, the web.

A lower level is the same search with fewer iterations per decision: it plays
the moves a short search finds sensible and misses the deeper ones, rather
than blundering at random between strong moves. The top level is the default
search at 0.25 s a decision; every level below it searches a fixed number of
iterations (the same decisions on any machine, well under 0.1 s each).

`RATINGS` holds the measured Elo of each level and of the anchors `random`
and `greedy` (greedy at 0), with 95% intervals, by player count: the round
robin of bench/levels_rating.py (docs/levels.md), fitted by mcts.play.elo.
Each level stands at least 100 Elo above the one below it, in 2 players and
in 4. A player count that was not measured has no entry.
"""
from __future__ import annotations

from dataclasses import dataclass

from ulm.errors import OptionError
from ulm.numbers import shown


@dataclass(frozen=True)
class Level:
    number: int
    name: str
    spec: str


LEVELS = (
    Level(1, "first game", "ismcts:iterations=5"),
    Level(2, "beginner", "ismcts:iterations=15"),
    Level(3, "club", "ismcts:iterations=120"),
    Level(4, "strongest", "ismcts:time=0.25"),
)
LOWEST, HIGHEST = LEVELS[0].number, LEVELS[-1].number
# the level of a bot seat a player does not choose (`ulm play --human`, the web's Play)
DEFAULT_LEVEL = 3
ANCHORS = ("random", "greedy")      # rated with the levels; greedy is 0 Elo

# Measured Elo [95% interval] by player count and bot (level:N or an anchor).
RATINGS: dict[int, dict[str, tuple[int, int, int]]] = {
    2: {
        "random": (-1141, -1355, -977),
        "greedy": (0, 0, 0),
        "level:1": (-256, -302, -216),
        "level:2": (-1, -39, 41),
        "level:3": (326, 267, 397),
        "level:4": (466, 393, 567),
    },
    4: {
        "random": (-1327, -1354, -1303),
        "greedy": (0, 0, 0),
        "level:1": (-82, -122, -40),
        "level:2": (145, 100, 195),
        "level:3": (324, 261, 387),
        "level:4": (559, 486, 641),
    },
}


def level_of(text) -> Level:
    """The level numbered by `text` ("3"); OptionError naming the levels there are."""
    text = str(text).strip()
    if text.isdecimal() and text.isascii() and len(text) <= 3:
        number = int(text)
        if LOWEST <= number <= HIGHEST:
            return LEVELS[number - LOWEST]
    raise OptionError("level", text, f"must be a whole number from {LOWEST} to {HIGHEST}, "
                                     f"got {shown(text)}")


def level_spec(text) -> str:
    """The bot spec of the level numbered by `text`."""
    return level_of(text).spec


def described(spec: str) -> str:
    """A seat's bot as a player reads it: a level with its name ("level:1, first
    game"), any other spec as it is."""
    name, colon, number = str(spec).partition(":")
    if colon and name.strip() == "level":
        try:
            return f"level:{number.strip()}, {level_of(number).name}"
        except ValueError:
            pass
    return str(spec)


def rating(level: Level, players: int):
    """The measured (Elo, low, high) of `level` in `players`, or None."""
    return RATINGS.get(players, {}).get(f"level:{level.number}")
