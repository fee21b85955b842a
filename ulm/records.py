"""Game records: the seed of the dealer plus the players' decisions (R-SETUP-8).

Chance events are not stored: after every decision the state's dealer RNG,
seeded with the record's seed, draws them again, so a record replays exactly.

    {"format": "ulm-record/1", "players": 2, "variant": "basic", "seed": 7,
     "decisions": ["draw", "push row 1 from left", "money", "end turn", ...]}
"""
from __future__ import annotations

from pathlib import Path

from ulm._fastcore import ACTION_NAMES, SEATS
from ulm.board import BoardError
from ulm.game import Game, check_variant
from ulm.jsonfile import dumps, read_json, write_atomically
from ulm.numbers import check_seed

FORMAT = "ulm-record/1"
FIELDS = ("format", "players", "variant", "board", "seed", "decisions", "bots", "result",
          "forfeits", "info")


class RecordError(ValueError):
    """A record that cannot be replayed; the message names the field."""


class GameRecord:
    """A game being played or replayed, with its log of decisions."""

    def __init__(self, players: int = 4, variant: str = "basic", seed: int = 0,
                 board: str | None = None, bots: list[str] | None = None):
        self.game = Game(players=players, variant=variant, board=board)
        self.seed = seed
        self.board = board
        self.bots = bots
        self.decisions: list[int] = []
        self.state = self.game.new_game(seed)
        # seat name -> {"kind", "reason", "decision"}: a guest bot's forfeit (docs/engines.md)
        self.forfeits: dict | None = None
        # seat name -> [[decision number, the engine's info message], ...]
        self.info: dict | None = None

    def apply(self, action: int) -> None:
        """Apply a decision of the player to move, then draw the chance events."""
        self.state.apply_action(action)
        self.decisions.append(action)
        self.state.resolve_chance()

    def steps(self, upto: int | None = None) -> list:
        """(the state before, decision) for each of the first `upto` decisions (all
        when None), replayed from the seed."""
        state = self.game.new_game(self.seed)
        out = []
        for action in self.decisions[:upto]:
            out.append((state.clone(), action))
            state.apply_action(action)
            state.resolve_chance()
        return out

    def movers(self) -> list[int]:
        """Who made each decision: the seat to move before it."""
        return [state.current_player() for state, _ in self.steps()]

    def to_dict(self) -> dict:
        data = {"format": FORMAT, "players": self.game.num_players,
                "variant": self.game.variant, "seed": self.seed}
        if self.board:
            data["board"] = self.board
        if self.bots:
            data["bots"] = list(self.bots)
        data["decisions"] = [ACTION_NAMES[a] for a in self.decisions]
        if self.forfeits:
            data["forfeits"] = dict(self.forfeits)
        if self.info:
            data["info"] = dict(self.info)
        if self.state.is_terminal():
            data["result"] = {"scores": dict(zip(SEATS, self.state.scores())),
                              "winners": [SEATS[p] for p in self.state.winners()]}
        return data

    def save(self, path: str | Path) -> None:
        write_atomically(path, dumps(self.to_dict()))


def replay(data: object, at: int | None = None, source: str = "record") -> GameRecord:
    """Replay a parsed record, up to `at` decisions (all when None)."""
    if not isinstance(data, dict):
        raise RecordError(f"record: must be a JSON object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        hint = " (a position: use `ulm show`)" if str(data.get("format")).startswith(
            "ulm-position") else ""
        raise RecordError(f"format: expected {FORMAT!r}, got {data.get('format')!r}{hint}")
    for key in data:
        if key not in FIELDS:
            raise RecordError(f"{key}: unknown field")
    players = data.get("players")
    if isinstance(players, bool) or not isinstance(players, int) or players not in (2, 3, 4):
        raise RecordError(f"players: must be 2, 3 or 4, got {players!r}")
    variant = data.get("variant", "basic")
    try:
        check_variant(variant)
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    try:
        seed = check_seed(data.get("seed"), "seed")
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    decisions = data.get("decisions")
    if not isinstance(decisions, list):
        raise RecordError("decisions: missing, or not a list of action names")
    if at is not None and not 0 <= at <= len(decisions):
        raise RecordError(f"--at: the record has {len(decisions)} decisions, got {at}")
    bots = data.get("bots")
    if bots is not None and (not isinstance(bots, list) or len(bots) > players
                             or not all(isinstance(b, str) for b in bots)):
        raise RecordError(f"bots: must be a list of at most {players} bot specs (text), one a "
                          f"seat, got {type(bots).__name__}"
                          + (f" of {len(bots)}" if isinstance(bots, list) else ""))
    board = data.get("board")
    if board is not None and not isinstance(board, str):
        raise RecordError(f"board: must be the path of a board table file, got {type(board).__name__}")
    forfeits = data.get("forfeits")
    if forfeits is not None and (not isinstance(forfeits, dict)
                                 or not set(forfeits) <= set(SEATS[:players])):
        raise RecordError(f"forfeits: must be an object of the seats that forfeited "
                          f"({', '.join(SEATS[:players])}), got {type(forfeits).__name__}")
    try:
        rec = GameRecord(players, variant, seed, board, data.get("bots"))
    except BoardError as exc:
        raise RecordError(f"board: {exc}") from None
    rec.forfeits = forfeits
    info = data.get("info")
    if info is not None and (not isinstance(info, dict) or not set(info) <= set(SEATS[:players])):
        raise RecordError(f"info: must be an object of seats' engine notes "
                          f"({', '.join(SEATS[:players])}), got {type(info).__name__}")
    rec.info = info
    for k, name in enumerate(decisions[:at] if at is not None else decisions):
        if not isinstance(name, str) or name not in ACTION_NAMES:
            raise RecordError(f"decisions[{k}]: unknown action {name!r}")
        action = ACTION_NAMES.index(name)
        if action not in rec.state.legal_actions():
            legal = ", ".join(ACTION_NAMES[a] for a in rec.state.legal_actions()) or "none"
            raise RecordError(f"decisions[{k}]: {name!r} is illegal at this point (legal: {legal})")
        rec.apply(action)
    return rec


def load_record(path: str | Path, at: int | None = None) -> GameRecord:
    data = read_json(path, RecordError)
    try:
        return replay(data, at, str(path))
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None
