"""The board table (RULES section 2, the coats of section 7, the cathedral
card colours of section 9): one JSON file, validated, turned into the arrays
the core copies into its C struct.

`load_board(None)` reads the shipped default `ulm/data/board.json`.
Every error names the field and what is wrong with it (`BoardError`).
"""
from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from ulm.jsonfile import read_json
from ulm.names import did_you_mean
from ulm.numbers import is_whole_text
from ulm._fastcore import (BOARD_FIELDS, CARDS, COATS, COLOURS, DESCENDANTS_LAID_OUT,
                           QUARTERS, RIVER_BONUSES, RIVER_LENGTH)

DEFAULT_BOARD = "board.json"
FORMAT = "ulm-board/1"
CATHEDRAL_CARDS = CARDS[:9]


class BoardError(ValueError):
    """A board table that cannot be used; the message names the field."""


def _name(value: object, choices: Sequence[str], where: str) -> int:
    if value not in choices:
        raise BoardError(f"{where}: unknown name {value!r}{did_you_mean(value, choices)}; "
                         f"expected one of {', '.join(choices)}")
    return choices.index(value)


def _int(value: object, where: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BoardError(f"{where}: must be a whole number, got {value!r}")
    if lo is not None and value < lo or hi is not None and value > hi:
        raise BoardError(f"{where}: must be between {lo} and {hi}, got {value}")
    return value


def _get(obj: object, key: str, where: str, kind: type) -> Any:
    if not isinstance(obj, dict):
        raise BoardError(f"{where}: must be an object, got {type(obj).__name__}")
    if key not in obj:
        raise BoardError(f"{where}.{key}: missing")
    value = obj[key]
    if not isinstance(value, kind):
        raise BoardError(f"{where}.{key}: must be {'an object' if kind is dict else 'a list'}, "
                         f"got {type(value).__name__}")
    return value


def _unknown_keys(obj: dict, allowed: Collection[str], where: str) -> None:
    for key in obj:
        if key not in allowed:
            raise BoardError(f"{where}.{key}: unknown field{did_you_mean(key, allowed)}")


def parse_board(data: dict, source: str = "board") -> dict:
    """Validate a board table (already parsed JSON) and return the core's arrays."""
    if not isinstance(data, dict):
        raise BoardError(f"{source}: must be a JSON object")
    _unknown_keys(data, ("format", "about", "river", "quarters", "coats", "outer spaces",
                         "cathedral cards", "trade card costs"), source)
    if data.get("format", FORMAT) != FORMAT:
        raise BoardError(f"{source}.format: expected {FORMAT!r}, got {data['format']!r}")

    river = _get(data, "river", source, dict)
    _unknown_keys(river, ("values", "bonus"), f"{source}.river")
    values = _get(river, "values", f"{source}.river", list)
    if len(values) != RIVER_LENGTH:
        raise BoardError(f"{source}.river.values: the river has {RIVER_LENGTH} spaces, "
                         f"got {len(values)} values")
    values = [_int(v, f"{source}.river.values[{i}]", -99, 99) for i, v in enumerate(values)]
    bonus = [0] * RIVER_LENGTH
    for key, name in _get(river, "bonus", f"{source}.river", dict).items():
        where = f"{source}.river.bonus.{key}"
        if not is_whole_text(key) or not 0 <= int(key) < RIVER_LENGTH:
            raise BoardError(f"{where}: not a river index 0..{RIVER_LENGTH - 1}")
        bonus[int(key)] = _name(name, RIVER_BONUSES[1:], where) + 1

    quarters = _get(data, "quarters", source, dict)
    north_of = [-1] * RIVER_LENGTH
    south_of = [-1] * RIVER_LENGTH
    capacity = [0] * len(QUARTERS)
    seen = set()
    for name, spec in quarters.items():
        where = f"{source}.quarters.{name}"
        q = _name(name, QUARTERS, f"{source}.quarters")
        seen.add(q)
        if not isinstance(spec, dict):
            raise BoardError(f"{where}: must be an object")
        _unknown_keys(spec, ("side", "river", "seal spaces"), where)
        side = spec.get("side")
        if side not in ("north", "south"):
            raise BoardError(f"{where}.side: must be 'north' or 'south', got {side!r}")
        span = _get(spec, "river", where, list)
        if len(span) != 2:
            raise BoardError(f"{where}.river: must be [first, last] river indices")
        lo = _int(span[0], f"{where}.river[0]", 0, RIVER_LENGTH - 1)
        hi = _int(span[1], f"{where}.river[1]", 0, RIVER_LENGTH - 1)
        if lo > hi:
            raise BoardError(f"{where}.river: first index {lo} is after last index {hi}")
        beside = north_of if side == "north" else south_of
        for i in range(lo, hi + 1):
            if beside[i] >= 0:
                raise BoardError(f"{where}.river: river space {i} is already beside "
                                 f"{QUARTERS[beside[i]]} on the {side} side")
            beside[i] = q
        if "seal spaces" not in spec:
            raise BoardError(f"{where}.seal spaces: missing")
        capacity[q] = _int(spec["seal spaces"], f"{where}.seal spaces", 1, 12)
        if q == QUARTERS.index("Oath House") and capacity[q] != DESCENDANTS_LAID_OUT:
            raise BoardError(f"{where}.seal spaces: the Oath House has one space per "
                             f"Descendant laid out ({DESCENDANTS_LAID_OUT}), got {capacity[q]}")
    missing = [QUARTERS[q] for q in range(len(QUARTERS)) if q not in seen]
    if missing:
        raise BoardError(f"{source}.quarters: missing {', '.join(missing)}")
    for side, beside in (("north", north_of), ("south", south_of)):
        for i, q in enumerate(beside):
            if q < 0:
                raise BoardError(f"{source}.quarters: river space {i} has no {side} quarter")

    coats = _get(data, "coats", source, list)
    if len(coats) != len(COATS):
        raise BoardError(f"{source}.coats: expected {len(COATS)} coats of arms, got {len(coats)}")
    coat_quarter, coat_vp, coat_later_vp = [], [], []
    quarter_coat = [-1] * len(QUARTERS)
    for i, coat in enumerate(coats):
        where = f"{source}.coats[{i}]"
        if not isinstance(coat, dict):
            raise BoardError(f"{where}: must be an object")
        _unknown_keys(coat, ("name", "rim", "quarter", "vp", "later vp"), where)
        if coat.get("name") != COATS[i]:
            raise BoardError(f"{where}.name: coat {i} is {COATS[i]!r}, got {coat.get('name')!r}")
        rim = coat.get("rim")
        if rim not in ("gold", "silver"):
            raise BoardError(f"{where}.rim: must be 'gold' or 'silver', got {rim!r}")
        if "vp" not in coat:
            raise BoardError(f"{where}.vp: missing")
        coat_vp.append(_int(coat["vp"], f"{where}.vp", 0, 20))
        if rim == "gold":
            if "quarter" not in coat:
                raise BoardError(f"{where}.quarter: a golden coat needs its quarter")
            q = _name(coat["quarter"], QUARTERS, f"{where}.quarter")
            if quarter_coat[q] >= 0:
                raise BoardError(f"{where}.quarter: {QUARTERS[q]} already has the golden coat "
                                 f"{COATS[quarter_coat[q]]}")
            quarter_coat[q] = i
            coat_quarter.append(q)
            coat_later_vp.append(_int(coat.get("later vp"), f"{where}.later vp", 0, 20))
        else:
            if "quarter" in coat or "later vp" in coat:
                raise BoardError(f"{where}: a silver coat has no quarter and no later vp")
            coat_quarter.append(-1)
            coat_later_vp.append(0)
    missing = [QUARTERS[q] for q in range(len(QUARTERS)) if quarter_coat[q] < 0]
    if missing:
        raise BoardError(f"{source}.coats: no golden coat for {', '.join(missing)}")

    outer = _get(data, "outer spaces", source, list)
    if len(outer) != 12:
        raise BoardError(f"{source}.outer spaces: expected 12 coat names, got {len(outer)}")
    outer_coat = [_name(n, COATS, f"{source}.outer spaces[{k}]") for k, n in enumerate(outer)]
    if len(set(outer_coat)) != 12:
        twice = next(COATS[c] for c in outer_coat if outer_coat.count(c) > 1)
        raise BoardError(f"{source}.outer spaces: coat {twice} is shown twice")
    coat_outer = [outer_coat.index(c) for c in range(len(COATS))]

    cards = _get(data, "cathedral cards", source, dict)
    cathedral = []
    for name in cards:
        _name(name, CATHEDRAL_CARDS, f"{source}.cathedral cards")
    for name in CATHEDRAL_CARDS:
        where = f"{source}.cathedral cards.{name}"
        if name not in cards:
            raise BoardError(f"{where}: missing")
        pair = cards[name]
        if not isinstance(pair, list) or len(pair) != 2:
            raise BoardError(f"{where}: must be a list of 2 colours")
        cathedral.append([_name(c, COLOURS, f"{where}[{j}]") for j, c in enumerate(pair)])

    costs = _get(data, "trade card costs", source, list)
    if len(costs) != 5:
        raise BoardError(f"{source}.trade card costs: expected 5 colours (copies I..V), got {len(costs)}")
    trade_cost = [_name(c, COLOURS, f"{source}.trade card costs[{i}]") for i, c in enumerate(costs)]

    return {
        "river_value": values, "river_bonus": bonus, "north_of": north_of,
        "south_of": south_of, "capacity": capacity, "coat_quarter": coat_quarter,
        "coat_vp": coat_vp, "coat_later_vp": coat_later_vp, "quarter_coat": quarter_coat,
        "outer_coat": outer_coat, "coat_outer": coat_outer,
        "cathedral_colours": cathedral, "trade_cost": trade_cost,
    }


def _pick(names: Sequence[str], value: object, where: str) -> str:
    """names[value] for an index the table gives (no negative indices)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(names):
        raise BoardError(f"{where}: must be an index 0..{len(names) - 1}, got {value!r}")
    return names[value]


def table_to_data(table: dict, source: str = "board") -> dict:
    """A parsed table back in the board file's form (the inverse of parse_board)."""
    def arr(key: str, n: int) -> list:
        value = table[key]
        if not isinstance(value, (list, tuple)) or len(value) != n:
            raise BoardError(f"{source}.{key}: expected a list of {n}, got {value!r}")
        return list(value)

    values = arr("river_value", RIVER_LENGTH)
    bonus = {}
    for i, b in enumerate(arr("river_bonus", RIVER_LENGTH)):
        if b != 0:
            bonus[str(i)] = _pick(RIVER_BONUSES, b, f"{source}.river_bonus[{i}]")
    north, south = arr("north_of", RIVER_LENGTH), arr("south_of", RIVER_LENGTH)
    capacity = arr("capacity", len(QUARTERS))
    quarters = {}
    for q, name in enumerate(QUARTERS):
        for side, beside in (("north", north), ("south", south)):
            span = [i for i, v in enumerate(beside) if v == q]
            if span:
                quarters[name] = {"side": side, "river": [span[0], span[-1]],
                                  "seal spaces": capacity[q]}
                break
    for side, beside in (("north", north), ("south", south)):
        for i, v in enumerate(beside):
            _pick(QUARTERS, v, f"{source}.{side}_of[{i}]")
    coats = []
    coat_quarter, coat_vp = arr("coat_quarter", len(COATS)), arr("coat_vp", len(COATS))
    later = arr("coat_later_vp", len(COATS))
    for c, name in enumerate(COATS):
        if coat_quarter[c] == -1:
            coats.append({"name": name, "rim": "silver", "vp": coat_vp[c]})
        else:
            coats.append({"name": name, "rim": "gold", "vp": coat_vp[c], "later vp": later[c],
                          "quarter": _pick(QUARTERS, coat_quarter[c],
                                           f"{source}.coat_quarter[{c}]")})
    outer = [_pick(COATS, c, f"{source}.outer_coat[{i}]")
             for i, c in enumerate(arr("outer_coat", 12))]
    cathedral = {}
    for i, pair in enumerate(arr("cathedral_colours", len(CATHEDRAL_CARDS))):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise BoardError(f"{source}.cathedral_colours[{i}]: must be 2 colours, got {pair!r}")
        cathedral[CATHEDRAL_CARDS[i]] = [_pick(COLOURS, c, f"{source}.cathedral_colours[{i}]")
                                         for c in pair]
    costs = [_pick(COLOURS, c, f"{source}.trade_cost[{i}]")
             for i, c in enumerate(arr("trade_cost", 5))]
    return {"format": FORMAT, "river": {"values": values, "bonus": bonus},
            "quarters": quarters, "coats": coats, "outer spaces": outer,
            "cathedral cards": cathedral, "trade card costs": costs}


def check_table(table: object, source: str = "board") -> dict:
    """A board given as a dict, validated as a board file is: either the data of
    a board file (it has "river", "quarters", ...) or a table parse_board
    produced (it has the core's arrays: river_value, north_of, ...), which is
    turned back into a board file's form, parsed, and must come out the same."""
    if not isinstance(table, dict):
        raise BoardError(f"{source}: must be a board table (a dict), got {type(table).__name__}")
    if "river" in table or "format" in table:
        return parse_board(table, source)
    for key in table:
        if key not in BOARD_FIELDS:
            raise BoardError(f"{source}.{key}: unknown field of a board table"
                             f"{did_you_mean(key, BOARD_FIELDS)}")
    for key in BOARD_FIELDS:
        if key not in table:
            raise BoardError(f"{source}.{key}: missing")
    parsed = parse_board(table_to_data(table, source), source)
    for key in BOARD_FIELDS:
        if _as_lists(table[key]) != parsed[key]:
            raise BoardError(f"{source}.{key}: does not agree with the rest of the table "
                             f"(expected {parsed[key]}, got {table[key]!r})")
    return parsed


def _as_lists(value: object) -> object:
    return [_as_lists(v) for v in value] if isinstance(value, (list, tuple)) else value


_SHIPPED: list = []         # the shipped table, read once


def shipped_board() -> dict:
    """The shipped default table (RULES section 2), read once."""
    if not _SHIPPED:
        _SHIPPED.append(load_board())
    return _SHIPPED[0]


def corrected_board_data(table: dict) -> dict | None:
    """A game's table in the board file's form when it differs from the shipped
    one (a corrected board), else None: what a seat is told of the board beyond
    what every copy of the game has (the engine protocol, the plug-ins)."""
    return None if table == shipped_board() else table_to_data(table)


def load_board(path: str | Path | None = None) -> dict:
    """Read and validate a board file; None reads the shipped default."""
    if path is None:
        text = resources.files("ulm.data").joinpath(DEFAULT_BOARD).read_text(encoding="utf-8")
        source = "board.json"
        data = json.loads(text)
    else:
        source = str(path)
        data = read_json(path, BoardError)
    return parse_board(data, source)
