"""Reading a position file: the checks that turn a parsed position into a core
state (docs/positions.md), against the names and limits of ulm.position_format.

`position_to_state(data)` validates a parsed position and builds its state.
One `_PositionBuilder` does one read: a method per section of the format
(the methods live in the modules of this package by topic: the header and the
turn, the board, the players, the cards, the coats), called in a fixed
order, each storing what the later sections check against (the seats, the
phase, the pending tasks, the reshuffle groups, the cards and coats placed
so far). The order of the checks decides which message a
position that breaks several rules gets, so it is part of the format.
`ulm.positions` re-exports the public names; most callers import them there.
"""
from __future__ import annotations

from ulm import _fastcore as core
from ulm.position_reader.board import _BoardSections
from ulm.position_reader.cards import _CardSections
from ulm.position_reader.checks import _check_turn, _check_waits_for_something
from ulm.position_reader.coats import _CoatSections
from ulm.position_reader.header import _GameSections
from ulm.position_reader.players import _PlayerSections


class _PositionBuilder(_GameSections, _BoardSections, _PlayerSections, _CardSections,
                        _CoatSections):
    """One read of a position: a method per section of the format, called by
    read() in the order of the checks. Each section fills its fields of the
    core's raw struct `r` and keeps what the later sections check against."""

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
