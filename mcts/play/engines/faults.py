"""A guest bot's fault: what went wrong, as data (the kind) and in words."""
from __future__ import annotations

# Every way a guest (an engine program or a Python plug-in) can lose a game by
# forfeit: kind -> what the report says of it (docs/engines.md has the table).
FAULT_KINDS = {
    "start": "did not start",
    "crash": "ended during the game",
    "closed": "closed its output",
    "time": "took longer than its time and grace",
    "garbage": "answered something that is not a message of the protocol",
    "illegal": "answered an illegal decision",
    "unknown": "answered a decision that does not exist",
    "flood": "wrote more than the protocol allows",
    "quit": "did not end when told to quit",
    "children": "left processes behind",
    "exception": "raised an exception",
}


class BotFault(Exception):
    """A guest bot broke the rules of the host: it forfeits the game.

    `kind` is one of FAULT_KINDS; `reason` says what happened, in words."""

    def __init__(self, kind: str, reason: str):
        assert kind in FAULT_KINDS, kind
        super().__init__(reason)
        self.kind = kind
        self.reason = reason

    def to_dict(self) -> dict:
        return {"kind": self.kind, "reason": self.reason}
