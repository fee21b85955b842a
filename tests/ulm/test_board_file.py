"""The board table (RULES section 2: one data table, replaceable, validated with clear errors).

Each bad-file case starts from a copy of the shipped ulm/data/board.json, breaks one thing,
and checks that ulm.BoardError names the field path (exact substring, prefixed by the
file's path). Valid corrected tables are accepted and change play.
"""
from __future__ import annotations

import copy
import json
from importlib import resources

import pytest

from helpers import (do, edit, edit_player, legal, player, quarter, set_barges,
                     set_grid, to_actions)
import ulm
from ulm.board import load_board, parse_board


def default_table() -> dict:
    text = resources.files("ulm.data").joinpath("board.json").read_text(encoding="utf-8")
    return json.loads(text)


def write(tmp_path, data, name="board.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data, indent=1),
                    encoding="utf-8")
    return path


# --- one break per case: (id, change(dict) -> dict or str, expected message after the path) --

def _set(path, value):
    def change(d):
        obj = d
        for key in path[:-1]:
            obj = obj[key]
        obj[path[-1]] = value
        return d
    return change


def _delete(path):
    def change(d):
        obj = d
        for key in path[:-1]:
            obj = obj[key]
        del obj[path[-1]]
        return d
    return change


def _rename_quarter(old, new):
    def change(d):
        d["quarters"] = {(new if k == old else k): v for k, v in d["quarters"].items()}
        return d
    return change


def _golden_to_silver(i):
    def change(d):
        coat = d["coats"][i]
        coat["rim"] = "silver"
        del coat["quarter"], coat["later vp"]
        return d
    return change


BAD = [
    ("not JSON", lambda d: '{"format": "ulm-board/1", "river": ', ": not valid JSON (line 1"),
    ("top level not an object", lambda d: [d], ": must be a JSON object"),
    ("wrong format", _set(["format"], "ulm-board/2"),
     ".format: expected 'ulm-board/1', got 'ulm-board/2'"),
    ("unknown top-level field", _set(["rivers"], {}),
     ".rivers: unknown field (did you mean 'river'?)"),
    ("river not an object", _set(["river"], list(range(22))), ".river: must be an object, got list"),
    ("river too short", lambda d: _set(["river", "values"], d["river"]["values"][:21])(d),
     ".river.values: the river has 22 spaces, got 21 values"),
    ("river too long", lambda d: _set(["river", "values"], d["river"]["values"] + [12])(d),
     ".river.values: the river has 22 spaces, got 23 values"),
    ("river value not an integer", _set(["river", "values", 3], 2.5),
     ".river.values[3]: must be a whole number, got 2.5"),
    ("river value a boolean", _set(["river", "values", 0], True),
     ".river.values[0]: must be a whole number, got True"),
    ("river value out of range", _set(["river", "values", 21], 100),
     ".river.values[21]: must be between -99 and 99, got 100"),
    ("bonus on no river index", _set(["river", "bonus", "22"], "coin"),
     ".river.bonus.22: not a river index 0..21"),
    ("unknown bonus", _set(["river", "bonus", "18"], "coins"),
     ".river.bonus.18: unknown name 'coins' (did you mean 'coin'?)"),
    ("river space left uncovered", _set(["quarters", "Goose Tower", "river"], [17, 20]),
     ".quarters: river space 21 has no north quarter"),
    ("uncovered in the south", _set(["quarters", "Tillage", "river"], [1, 3]),
     ".quarters: river space 0 has no south quarter"),
    ("overlapping ranges", _set(["quarters", "Town Hall", "river"], [10, 16]),
     ".quarters.Town Hall.river: river space 10 is already beside Oath House on the north side"),
    ("range backwards", _set(["quarters", "Garden", "river"], [9, 4]),
     ".quarters.Garden.river: first index 9 is after last index 4"),
    ("range not a pair", _set(["quarters", "Garden", "river"], [4, 6, 9]),
     ".quarters.Garden.river: must be [first, last] river indices"),
    ("range beyond the river", _set(["quarters", "Goose Tower", "river"], [17, 22]),
     ".quarters.Goose Tower.river[1]: must be between 0 and 21, got 22"),
    ("unknown quarter name", _rename_quarter("Garden", "Gardens"),
     ".quarters: unknown name 'Gardens' (did you mean 'Garden'?)"),
    ("missing quarter", _delete(["quarters", "Shipyard"]), ".quarters: missing Shipyard"),
    ("bad side", _set(["quarters", "Garden", "side"], "east"),
     ".quarters.Garden.side: must be 'north' or 'south', got 'east'"),
    ("unknown quarter field", _set(["quarters", "Garden", "seal space"], 4),
     ".quarters.Garden.seal space: unknown field (did you mean 'seal spaces'?)"),
    ("missing seal spaces", _delete(["quarters", "Garden", "seal spaces"]),
     ".quarters.Garden.seal spaces: missing"),
    ("seal spaces as text", _set(["quarters", "Garden", "seal spaces"], "4"),
     ".quarters.Garden.seal spaces: must be a whole number, got '4'"),
    ("zero seal spaces", _set(["quarters", "Garden", "seal spaces"], 0),
     ".quarters.Garden.seal spaces: must be between 1 and 12, got 0"),
    ("Oath House seal spaces not 4", _set(["quarters", "Oath House", "seal spaces"], 3),
     ".quarters.Oath House.seal spaces: the Oath House has one space per Descendant "
     "laid out (4), got 3"),
    ("wrong coat count", lambda d: _set(["coats"], d["coats"][:11])(d),
     ".coats: expected 12 coats of arms, got 11"),
    ("wrong coat name", _set(["coats", 3, "name"], "G-Oaths"),
     ".coats[3].name: coat 3 is 'G-Oath', got 'G-Oaths'"),
    ("coats out of order", lambda d: _set(["coats"], d["coats"][1:2] + d["coats"][:1]
                                          + d["coats"][2:])(d),
     ".coats[0].name: coat 0 is 'G-Tillage', got 'G-Leaning'"),
    ("golden coat without quarter", _delete(["coats", 0, "quarter"]),
     ".coats[0].quarter: a golden coat needs its quarter"),
    ("golden coat of an unknown quarter", _set(["coats", 2, "quarter"], "Gardn"),
     ".coats[2].quarter: unknown name 'Gardn' (did you mean 'Garden'?)"),
    ("two golden coats for one quarter", _set(["coats", 1, "quarter"], "Tillage"),
     ".coats[1].quarter: Tillage already has the golden coat G-Tillage"),
    ("quarter without golden coat", _golden_to_silver(7),
     ".coats: no golden coat for Goose Tower"),
    ("bad rim", _set(["coats", 8, "rim"], "bronze"),
     ".coats[8].rim: must be 'gold' or 'silver', got 'bronze'"),
    ("silver coat with a quarter", _set(["coats", 9, "quarter"], "Garden"),
     ".coats[9]: a silver coat has no quarter and no later vp"),
    ("negative coat vp", _set(["coats", 8, "vp"], -1),
     ".coats[8].vp: must be between 0 and 20, got -1"),
    ("coat vp not an integer", _set(["coats", 5, "vp"], 3.0),
     ".coats[5].vp: must be a whole number, got 3.0"),
    ("golden coat without later vp", _delete(["coats", 4, "later vp"]),
     ".coats[4].later vp: must be a whole number, got None"),
    ("negative later vp", _set(["coats", 4, "later vp"], -2),
     ".coats[4].later vp: must be between 0 and 20, got -2"),
    ("missing coat vp", _delete(["coats", 10, "vp"]), ".coats[10].vp: missing"),
    ("outer space shown twice", _set(["outer spaces", 11], "G-Tillage"),
     ".outer spaces: coat G-Tillage is shown twice"),
    ("outer spaces too few", lambda d: _set(["outer spaces"], d["outer spaces"][:11])(d),
     ".outer spaces: expected 12 coat names, got 11"),
    ("outer space unknown coat", _set(["outer spaces", 8], "S-5"),
     ".outer spaces[8]: unknown name 'S-5'"),
    ("unknown colour in cathedral card", _set(["cathedral cards", "Nave I"], ["gray", "purple"]),
     ".cathedral cards.Nave I[1]: unknown name 'purple'"),
    ("missing cathedral card", _delete(["cathedral cards", "Choir III"]),
     ".cathedral cards.Choir III: missing"),
    ("unknown cathedral card", _set(["cathedral cards", "Nave IV"], ["gray", "white"]),
     ".cathedral cards: unknown name 'Nave IV'"),
    ("cathedral card with 3 colours", _set(["cathedral cards", "Nave I"],
                                           ["gray", "white", "brown"]),
     ".cathedral cards.Nave I: must be a list of 2 colours"),
    ("wrong trade cost count", lambda d: _set(["trade card costs"], d["trade card costs"][:4])(d),
     ".trade card costs: expected 5 colours (copies I..V), got 4"),
    ("unknown trade cost colour", _set(["trade card costs", 4], "grey"),
     ".trade card costs[4]: unknown name 'grey' (did you mean 'gray'?)"),
]


@pytest.mark.parametrize("change, message", [(c, m) for _, c, m in BAD],
                         ids=[i for i, _, _ in BAD])
def test_bad_board_file_names_the_field_R_BOARD_1(tmp_path, change, message):
    """R-BOARD-1..5 (section 2): a corrected table is validated; each broken field gives a
    BoardError naming the file and the field path."""
    path = write(tmp_path, change(default_table()))
    with pytest.raises(ulm.BoardError) as err:
        load_board(path)
    assert f"{path}{message}" in str(err.value)


@pytest.mark.parametrize("change, message", [(c, m) for i, c, m in BAD if i != "not JSON"],
                         ids=[i for i, _, _ in BAD if i != "not JSON"])
def test_bad_board_table_as_dict_R_BOARD_1(change, message):
    """R-BOARD-1..5: parse_board(dict) validates the same way; the default source is 'board'."""
    with pytest.raises(ulm.BoardError) as err:
        parse_board(change(default_table()))
    assert f"board{message}" in str(err.value)


def test_missing_board_file_R_BOARD_1(tmp_path):
    """R-BOARD-1: a file that does not exist gives a BoardError naming the file."""
    path = tmp_path / "nowhere" / "board.json"
    with pytest.raises(ulm.BoardError) as err:
        load_board(path)
    assert f"{path}: cannot read the file" in str(err.value)
    with pytest.raises(ulm.BoardError):
        ulm.Game(players=2, board=path)


def test_game_refuses_a_bad_board_file_R_BOARD_1(tmp_path):
    """R-BOARD-1: ulm.Game(board=path) validates the file (BoardError, field named)."""
    d = default_table()
    d["river"]["values"] = d["river"]["values"][:20]
    path = write(tmp_path, d)
    with pytest.raises(ulm.BoardError) as err:
        ulm.Game(players=3, variant="advanced", board=path)
    assert f"{path}.river.values: the river has 22 spaces, got 20 values" in str(err.value)
    d = default_table()
    d["quarters"]["Oath House"]["seal spaces"] = 5
    path = write(tmp_path, d, "oath.json")
    with pytest.raises(ulm.BoardError) as err:
        ulm.Game(players=2, board=path)
    assert f"{path}.quarters.Oath House.seal spaces:" in str(err.value)


def test_board_error_is_a_value_error_R_BOARD_1():
    """R-BOARD-1: BoardError is a ValueError (callers may catch either)."""
    assert issubclass(ulm.BoardError, ValueError)
    with pytest.raises(ValueError):
        parse_board({"format": "ulm-board/1"})


def test_parse_board_custom_source_name_R_BOARD_1():
    """R-BOARD-1: parse_board(data, source) prefixes messages with the given source."""
    d = default_table()
    d["coats"][8]["rim"] = "copper"
    with pytest.raises(ulm.BoardError) as err:
        parse_board(d, "my-board")
    assert "my-board.coats[8].rim: must be 'gold' or 'silver', got 'copper'" in str(err.value)


# --- the shipped table and valid corrected tables ------------------------------------------

def test_shipped_table_is_the_default_R_BOARD_1(tmp_path):
    """R-BOARD-1..5: load_board(None) reads the shipped table; an unchanged copy loads the
    same; Game() without a board uses it."""
    default = load_board(None)
    path = write(tmp_path, default_table())
    assert load_board(path) == default
    assert load_board(str(path)) == default
    assert parse_board(default_table()) == default
    assert default["river_value"] == list(range(-11, 0)) + list(range(1, 12))
    assert default["capacity"] == [4] * 8
    assert ulm.Game(players=2).board_source == "default"
    g = ulm.Game(players=2, board=path)
    assert g.board_source == str(path)


def custom_game(tmp_path, change, players=2, variant="basic"):
    d = change(default_table())
    path = write(tmp_path, d, "corrected.json")
    return ulm.Game(players=players, variant=variant, board=path)


def test_corrected_river_values_change_scoring_R_BOARD_1(tmp_path):
    """R-BOARD-1: a table with other river values is accepted; the river item of the score
    breakdown and the final score use them."""
    values = [-20 + i for i in range(11)] + [2 * i for i in range(1, 12)]
    g = custom_game(tmp_path, _set(["river", "values"], values))
    assert g.table["river_value"] == values
    s = g.new_game(1)
    assert s.score_breakdown(0)["river"] == -20
    set_barges(s, 13, 0)
    assert s.score_breakdown(0)["river"] == 6
    # finish: round 10, last seat ends the turn
    edit(s, round=9, turn_player=1)
    edit_player(s, 1, sparrows=0, score=5, vp=[5] + [0] * 13)
    set_grid(s, "gray white brown / white turquoise orange / orange gray turquoise")
    to_actions(s, draw="gray", push="row 1 from left")
    do(s, "end turn")
    assert s.is_terminal()
    assert s.score_breakdown(0)["river"] == 6
    assert s.scores()[1] == 5 - 20
    # the default board still says -11 for the same situation
    assert ulm.Game(players=2).new_game(1).score_breakdown(0)["river"] == -11


def test_corrected_seal_spaces_change_legality_R_BOARD_4(tmp_path):
    """R-BOARD-4: a table with 3 seal spaces in the Garden: 3 seals fill it (default: 4)."""
    def situation(game):
        s = game.new_game(2)
        set_barges(s, 5, 0)                               # Leaning House / Garden
        set_grid(s, "white brown gray / white turquoise gray / orange gray turquoise")
        to_actions(s, draw="orange", push="row 1 from left")
        edit_player(s, 0, coins=2)
        qs = [0] * 8
        qs[quarter("Garden")] = 3
        return edit(s, quarter_seals=qs)

    corrected = situation(custom_game(tmp_path, _set(["quarters", "Garden", "seal spaces"], 3)))
    assert "seal in Garden" not in legal(corrected)
    assert "seal in Leaning House" in legal(corrected)
    default = situation(ulm.Game(players=2))
    assert "seal in Garden" in legal(default)


def test_corrected_quarter_ranges_change_seal_reach_R_BOARD_3(tmp_path):
    """R-BOARD-3: moving the Tillage/Garden border (Tillage 0-4, Garden 5-9) changes which
    quarter lies beside river index 4."""
    def change(d):
        d["quarters"]["Tillage"]["river"] = [0, 4]
        d["quarters"]["Garden"]["river"] = [5, 9]
        return d

    def seals(game):
        s = game.new_game(3)
        set_barges(s, 4, 0)
        set_grid(s, "white brown gray / white turquoise gray / orange gray turquoise")
        to_actions(s, draw="orange", push="row 1 from left")
        edit_player(s, 0, coins=2)
        return {a for a in legal(s) if a.startswith("seal in ")}

    assert seals(custom_game(tmp_path, change)) == {"seal in Leaning House", "seal in Tillage"}
    assert seals(ulm.Game(players=2)) == {"seal in Leaning House", "seal in Garden"}


def test_corrected_bonus_space_R_BOARD_2(tmp_path):
    """R-BOARD-2: a table with a coin bonus on index 5 (and none on 18) pays it there."""
    def change(d):
        d["river"]["bonus"] = {"5": "coin", "19": "sparrow", "20": "dock tile", "21": "card"}
        return d

    def step(game, index):
        s = game.new_game(4)
        set_barges(s, index - 1, 0)
        set_grid(s, "turquoise brown gray / white turquoise gray / orange gray turquoise")
        to_actions(s, draw="white", push="row 1 from left")
        coins = player(s, 0)["coins"]
        do(s, "river step")
        return player(s, 0)["coins"] - coins

    g = custom_game(tmp_path, change)
    assert step(g, 5) == 1 and step(g, 18) == 0
    d = ulm.Game(players=2)
    assert step(d, 5) == 0 and step(d, 18) == 1


def test_corrected_coat_values_R_BOARD_5(tmp_path):
    """R-BOARD-5: a table where S-1 is worth 5 VP and sits on outer space 0 (swapped with
    G-Tillage): keeping it scores 5 and marks outer space 0."""
    def change(d):
        d["coats"][8]["vp"] = 5
        d["outer spaces"][0], d["outer spaces"][8] = "S-1", "G-Tillage"
        return d

    g = custom_game(tmp_path, change)
    s = g.new_game(5)
    set_grid(s, "white brown gray / white turquoise gray / orange gray turquoise")
    to_actions(s, draw="orange", push="row 1 from left")
    edit_player(s, 0, coins=2)
    do(s, "seal in Leaning House")
    s.apply_action(s.string_to_action("chance: coat S-1"))
    s.apply_action(s.string_to_action("chance: coat S-2"))
    score = player(s, 0)["score"]
    do(s, "keep coat S-1")
    assert player(s, 0)["score"] == score + 5
    assert s.raw()["outer_mark"][0] == 0 and s.raw()["outer_mark"][8] == -1


def test_corrected_cathedral_colours_and_trade_costs_R_BOARD_5(tmp_path):
    """Section 2 table (cathedral card colours, trade costs): Steeple I paid with orange/brown
    and Works of Art I costing orange when the table says so."""
    def change(d):
        d["cathedral cards"]["Steeple I"] = ["orange", "brown"]
        d["trade card costs"][0] = "orange"
        return d

    def plays(game):
        s = game.new_game(6)
        edit_player(s, 0, supply={"orange": 1}, hand=["Steeple I", "Works of Art I"])
        r = s.raw()
        r["pile"] &= ~(1 << ulm.CARDS.index("Steeple I") | 1 << ulm.CARDS.index("Works of Art I"))
        s.set_raw(r)
        return {a for a in legal(s) if a.endswith("(upper)")}

    assert plays(custom_game(tmp_path, change)) == {"play Steeple I (upper)",
                                                    "play Works of Art I (upper)"}
    assert plays(ulm.Game(players=2)) == set()


def test_game_accepts_an_already_parsed_table_R_BOARD_1(tmp_path):
    """R-BOARD-1: Game(board=dict) takes a table parse_board produced."""
    d = default_table()
    d["river"]["values"][0] = -15
    g = ulm.Game(players=4, board=parse_board(d))
    assert g.board_source == "table"
    s = g.new_game(0)
    assert [s.score_breakdown(p)["river"] for p in range(4)] == [-15] * 4


def test_default_file_untouched_by_loading_a_copy_R_BOARD_1(tmp_path):
    """R-BOARD-1: loading a corrected copy leaves the shipped table as it was."""
    before = copy.deepcopy(load_board(None))
    custom_game(tmp_path, _set(["river", "values", 0], -30))
    assert load_board(None) == before
    assert ulm.Game(players=2).new_game(0).score_breakdown(0)["river"] == -11
