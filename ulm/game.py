"""`Game`: player count, variant and board table; it makes states."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

from ulm._fastcore import SEATS, VARIANTS, CoreGame, State, check_variant
from ulm.board import load_board
from ulm.numbers import is_whole_text

__all__ = ["Game", "VARIANTS", "check_variant", "decision_steps", "parse_seat"]


def parse_seat(value: object, players: int = len(SEATS)) -> int:
    """A seat of a `players`-player game by its colour (Red, Blue, Green, Yellow;
    any case) or its number (0 to players - 1); ValueError saying which otherwise.
    The one reading of a seat: the command line and the web companion use it."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players:
        return value
    if isinstance(value, str):
        text = value.strip()        # a colour may have spaces around it; a number has none
        if is_whole_text(value) and len(value) <= 3 and 0 <= int(value) < players:
            return int(value)
        for i in range(players):
            if SEATS[i].lower() == text.lower():
                return i
    game = f" of this {players}-player game" if players < len(SEATS) else ""
    raise ValueError(f"{value!r} is not a seat{game}; use {', '.join(SEATS[:players])} "
                     f"or 0..{players - 1}")


class Game(CoreGame):
    """A game of Ulm for 2-4 players, basic or advanced (tower tiles).

    `board` is a path to a board table (JSON), a board file's data as a dict,
    or a table parse_board produced; None uses the shipped default (RULES
    section 2). A dict is validated as a board file is (BoardError).
    """

    def __init__(self, players: int = 4, variant: str = "basic",
                 board: str | Path | dict | None = None):
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players: must be 2, 3 or 4, got {players!r}")
        check_variant(variant)      # before a board file is read
        # a dict is checked like a board file (CoreGame does it for every table)
        table = board if isinstance(board, dict) else load_board(board)
        super().__init__(players, variant, table)
        self.board_source = "default" if board is None else (
            "table" if isinstance(board, dict) else str(board))

    def __repr__(self) -> str:
        return f"Game(players={self.num_players}, variant={self.variant!r})"


def decision_steps(state: State) -> Iterator[int]:
    """The decisions of a game played on `state`, counted from 1: chance events
    are resolved by the state's own dealer, and the caller applies one action
    at each step yielded, until the game ends. The step is the number that
    self-play's sampled positions and their seed streams go by
    (mcts.learning.selfplay.kept_turn_start)."""
    step = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.resolve_chance()
            continue
        step += 1
        yield step
