"""The engine protocol's messages (docs/engines.md), built from one seat's knowledge.

Everything a guest bot is told goes through `seat_view` (the view position of
the seat, ulm.positions.state_to_position with a viewer: the one place that
decides what a viewer may know, R-INFO-4) or through the words of a decision for
that seat (ulm.decisions.decision_words and chance_name). Nothing else of the
true state is read here.
"""
from __future__ import annotations

from ulm import ACTION_NAMES, SEATS
from ulm.board import corrected_board_data
from ulm.decisions import chance_name, decision_words, shown_whole
from ulm.positions import state_to_position

PROTOCOL = 1                # the version of docs/engines.md this host speaks
DEFAULT_TIME = 1.0          # seconds per decision when the spec gives no time=
DEFAULT_GRACE = 0.5         # seconds past the time before a late answer forfeits
START_SECONDS = 10.0        # how long a new engine may take to say hello


def seat_view(state, seat: int) -> dict:
    """What `seat` knows of `state`: its view position (docs/positions.md)."""
    return state_to_position(state, viewer=seat)


def legal_decisions(state) -> list[dict]:
    """The legal decisions of the player to move: id and name (the record's names)."""
    return [{"id": a, "name": ACTION_NAMES[a]} for a in state.legal_actions()]


def event(state, action: int, seat: int) -> dict:
    """A decision or chance outcome about to be applied to `state`, as `seat` sees it:
    its words for that seat, and its id when the seat sees it whole."""
    if state.is_chance_node():
        out: dict = {"seat": None, "words": chance_name(state, action, seat)}
    else:
        out = {"seat": SEATS[state.current_player()],
               "words": decision_words(state, action, seat)}
    if shown_whole(state, action, seat):
        out["id"] = action
    return out


def hello() -> dict:
    return {"type": "hello", "protocol": PROTOCOL}


def board(game) -> dict | None:
    """The game's board in the board file's form when it is a corrected one (the
    view positions do not carry it), else None."""
    return corrected_board_data(game.table)


def game(players: int, seat: int, variant: str, seed: int, time: float, grace: float,
         table: dict | None = None) -> dict:
    """`table`: a corrected board (board()), sent as "board" only then."""
    out = {"type": "game", "protocol": PROTOCOL, "players": players,
           "seats": list(SEATS[:players]), "seat": SEATS[seat], "variant": variant,
           "seed": seed, "time": time, "grace": grace}
    if table is not None:
        out["board"] = table
    return out


def decide(state, seat: int, number: int, time: float, events: list[dict]) -> dict:
    return {"type": "decide", "decision": number, "time": time, "events": events,
            "view": seat_view(state, seat), "legal": legal_decisions(state)}


def end(state, seat: int, events: list[dict], forfeits: dict) -> dict:
    """The game's end as `seat` sees it (a forfeit may end a 2-player game early:
    the scores are those of that moment)."""
    players = state.num_players()
    return {"type": "end", "events": events, "view": seat_view(state, seat),
            "scores": dict(zip(SEATS, state.scores())),
            "finished": state.is_terminal(),
            "forfeits": {SEATS[p]: f["reason"] for p, f in forfeits.items() if p < players}}


def quit_() -> dict:
    return {"type": "quit"}
