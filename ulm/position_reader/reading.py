"""Typed access to the parsed JSON that names the path of every error, and what
the sections of one read share."""
from __future__ import annotations

from ulm import _fastcore as core
from ulm._fastcore import CARDS, COATS, COLOURS
from ulm.names import did_you_mean
from ulm.position_format import PositionError


class _Reader:
    """Typed access to the parsed JSON that names the path of every error."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, where: str, message: str):
        raise PositionError(f"{where}: {message}")

    def field(self, obj: dict, key: str, where: str, kind, default=...):
        path = f"{where}.{key}" if where else key
        if key not in obj:
            if default is ...:
                self.fail(path, "missing")
            return default
        value = obj[key]
        if kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                self.fail(path, f"must be a whole number, got {value!r}")
        elif kind is bool:
            if not isinstance(value, bool):
                self.fail(path, f"must be true or false, got {value!r}")
        elif kind is not None and not isinstance(value, kind):
            want = {dict: "an object", list: "a list", str: "a text"}.get(kind, str(kind))
            self.fail(path, f"must be {want}, got {type(value).__name__}")
        return value

    def count(self, obj, key, where, default=..., lo=0, hi=None):
        v = self.field(obj, key, where, int, default)
        path = f"{where}.{key}" if where else key
        if v is not None and v < lo:
            self.fail(path, f"must be >= {lo}, got {v}")
        if v is not None and hi is not None and v > hi:
            self.fail(path, f"must be <= {hi}, got {v}")
        return v

    def name(self, value, choices, path, what):
        if not isinstance(value, str) or value not in choices:
            hint = did_you_mean(value, choices, cutoff=0.4, after="; ")
            self.fail(path, f"unknown {what} {value!r}{hint}")
        return choices.index(value)

    def names(self, obj, key, where, choices, what, default=...):
        values = self.field(obj, key, where, list, default)
        path = f"{where}.{key}" if where else key
        out = [self.name(v, choices, f"{path}[{i}]", what) for i, v in enumerate(values)]
        for i, v in enumerate(out):
            if out.index(v) != i:
                self.fail(f"{path}[{i}]", f"{choices[v]!r} is listed twice")
        return out

    def colour_counts(self, obj, key, where, default=..., hi=None):
        counts = self.field(obj, key, where, dict, default)
        path = f"{where}.{key}" if where else key
        out = [0] * len(COLOURS)
        for name, n in counts.items():
            c = self.name(name, COLOURS, path, "colour")
            if isinstance(n, bool) or not isinstance(n, int):
                self.fail(f"{path}.{name}", f"must be a whole number, got {n!r}")
            if n < 0:
                self.fail(f"{path}.{name}", f"must be >= 0, got {n}")
            if hi is not None and n > hi:
                self.fail(f"{path}.{name}", f"must be <= {hi}, got {n}")
            out[c] = n
        return out

    def unknown_keys(self, obj, allowed, where):
        for key in obj:
            if key not in allowed:
                hint = did_you_mean(key, allowed, cutoff=0.5, after="; ")
                self.fail(f"{where}.{key}" if where else key, f"unknown field{hint}")


class _Sections:
    """What every section of one read shares: the reader, the parsed position, the
    places of the cards and coats read so far, and the fields later sections check
    against. The sections are its subclasses, one module each; `_PositionBuilder`
    joins them."""

    # what the sections store for the later ones (set by the section named)
    is_view: bool                  # header
    variant: str                   # one of VARIANTS
    player_data: list
    n: int
    seats: tuple[str, ...]
    viewer: int
    table: dict                    # new_state
    st: core.State
    r: dict
    rnd: int                       # round_and_phase
    mover: int
    phase: int
    drawn: list                    # turn
    t5_seal: bool | None
    tasks: list[int]               # pending
    derive_bag: bool               # docks_and_bag
    on_board: list[int]            # descendants_on_board
    desc: list[int]
    groups: list[int]              # reshuffles
    n_groups: int
    outer_mark: list[int]          # players
    coat_owner: list[int]
    crest_owner: list[int]
    quarter_seals: list[int]
    looked_hidden: bool            # looked_at
    looked_by_group: list[int]
    n_looked_cards: int
    looked_cards: list[int]
    n_looked_coats: int
    looked_coats: list
    looked_known: list[int]

    def __init__(self, data, source: str, board):
        self.rd = _Reader(source)
        self.data = data
        self.board_arg = board              # the caller's table, unless the file names one
        self.cards_seen: dict[int, str] = {}   # card -> the field that holds it
        self.coat_place: dict[int, str] = {}   # coat -> the field that holds it
        # in a view, the other players' hidden hand cards by reshuffle group
        self.hidden_by_group: dict[int, list[int]] = {}

    def claim_cards(self, ids: list[int], path: str) -> None:
        """Each card is in one place only."""
        for i, c in enumerate(ids):
            if c in self.cards_seen:
                self.rd.fail(f"{path}[{i}]", f"{CARDS[c]} is already in {self.cards_seen[c]}")
            self.cards_seen[c] = path

    def claim_coat(self, c: int, path: str) -> None:
        if c in self.coat_place:
            self.rd.fail(path, f"coat {COATS[c]} is already in {self.coat_place[c]}")
        self.coat_place[c] = path

    def group_counts(self, obj, key, where, total, what) -> list[int]:
        """Hidden cards by reshuffle group; the default puts them all in group 0."""
        rd, n_groups = self.rd, self.n_groups
        path = f"{where}.{key}"
        counts = rd.field(obj, key, where, list, None)
        if counts is None:
            if total and n_groups > 1:
                rd.fail(path, f"missing: after a reshuffle, give how many of the {total} {what} "
                        f"were drawn before the first reshuffle, after it, ... ({n_groups} numbers)")
            return [total] + [0] * (n_groups - 1)
        if len(counts) != n_groups:
            rd.fail(path, f"must list {n_groups} numbers (before the first reshuffle and after "
                    f"each of the {n_groups - 1}), got {len(counts)}")
        for i, k in enumerate(counts):
            if isinstance(k, bool) or not isinstance(k, int) or k < 0:
                rd.fail(f"{path}[{i}]", f"must be a whole number >= 0, got {k!r}")
        if sum(counts) != total:
            rd.fail(path, f"add up to {sum(counts)}, but {total} {what} are hidden")
        return counts
