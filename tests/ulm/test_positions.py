"""Position files (docs/positions.md): full positions and views round-trip
(the same raw() state, the same information state, every file of examples/
byte-identical and matching examples/generate.py); a table of bad position
files, each refused by load_position with PositionError naming the field and
the reason, and by `ulm validate` / `ulm show` with exit 2 and no traceback;
a view typed in at the table."""
from __future__ import annotations

import copy
import importlib.util
import json
from pathlib import Path

import pytest

from helpers import check_invariants
from ulm._fastcore import TASKS
from ulm.positions import (PositionError, dumps, load_position, position_to_state,
                           save_position, state_to_position)
from ulm.records import load_record

from samples import CONFIGS, EXAMPLE_FILES, EXAMPLES, all_random_states, example, random_states, run, used


def test_random_states_cover_the_turn():
    """The sample holds every phase, pending sub-decisions and looked-at cards and coats."""
    seen = set()
    for s in all_random_states():
        r = s.raw()
        seen.add(("phase", r["phase"]))
        seen.update(("task", TASKS[t]) for t in r["task"][:r["n_tasks"]])
        seen.add(("looked cards", r["n_looked_cards"] > 0))
        seen.add(("looked coats", r["n_looked_coats"] > 0))
        seen.add(("coats under", r["coat_tail_len"] > 0))
    for phase in range(4):
        assert ("phase", phase) in seen
    for task in ("card keep", "coat choice", "barge move", "dock choice", "descendant choice",
                 "tower payment"):
        assert ("task", task) in seen
    for what in ("looked cards", "looked coats", "coats under"):
        assert (what, True) in seen


# ---------------------------------------------------------------------------
# round trips

@pytest.mark.parametrize("players,variant", CONFIGS)
def test_full_position_round_trip(players, variant):
    for st in random_states(players, variant):
        pos = state_to_position(st)
        back, seat = position_to_state(json.loads(dumps(pos)))
        assert used(back.raw()) == used(st.raw())
        assert state_to_position(back) == pos
        assert seat == st.raw()["turn_player"]


@pytest.mark.parametrize("players,variant", CONFIGS)
def test_view_round_trip(players, variant):
    for st in random_states(players, variant):
        for p in range(players):
            view = state_to_position(st, p)
            back, seat = position_to_state(json.loads(dumps(view)))
            assert seat == p
            assert back.information_state_string(p) == st.information_state_string(p)
            assert state_to_position(back, p) == view
            check_invariants(back)


def test_view_round_trip_through_files(tmp_path):
    st = random_states(4, "advanced")[20]
    for p in range(4):
        path = tmp_path / f"view-{p}.json"
        save_position(st, path, viewer=p)
        back, seat = load_position(path)
        assert seat == p
        assert back.information_state_string(p) == st.information_state_string(p)


@pytest.mark.parametrize("name", EXAMPLE_FILES)
def test_example_file_round_trip_is_byte_identical(name, tmp_path):
    path = EXAMPLES / name
    text = path.read_text(encoding="utf-8")
    if name.startswith("record"):
        assert dumps(load_record(path).to_dict()) == text
        return
    state, seat = load_position(path)
    viewer = seat if json.loads(text)["kind"] == "view" else None
    assert dumps(state_to_position(state, viewer)) == text
    out = tmp_path / name
    save_position(state, out, viewer)
    assert out.read_bytes() == path.read_bytes()


def _generator():
    spec = importlib.util.spec_from_file_location("ulm_examples_generate", EXAMPLES / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_examples_match_their_generator():
    """As `python examples/generate.py --check`: the files are what the generator writes."""
    files = _generator().examples()
    assert sorted(files) == EXAMPLE_FILES
    differ = [name for name, text in files.items()
              if (EXAMPLES / name).read_text(encoding="utf-8") != text]
    assert not differ, f"differ from examples/generate.py: {differ}"


# ---------------------------------------------------------------------------
# bad position files

def at(data, path):
    for k in path:
        data = data[k]
    return data


def set_(path, value):
    def fn(d):
        at(d, path[:-1])[path[-1]] = value
    return fn


def del_(path):
    def fn(d):
        del at(d, path[:-1])[path[-1]]
    return fn


def both(*fns):
    def fn(d):
        for f in fns:
            f(d)
    return fn


def _golden_coats(d):
    for c in ("G-Leaning", "G-Garden", "G-TownHall", "G-Shipyard"):
        d["coat stack"]["shuffled"].remove(c)
        d["players"][1]["coats"].append(c)


def _colour_count(d):
    """19 gray tiles, but still 50 in all."""
    d["players"][0]["supply"] = {"gray": 9, "turquoise": 1}
    d["bag"].update(brown=d["bag"]["brown"] - 5, orange=d["bag"]["orange"] - 4)


def _add(path, key, delta):
    def fn(d):
        at(d, path)[key] = at(d, path)[key] + delta
    return fn


# (id, example, edit, expected message substring: the field path and the reason)
BAD = [
    ("negative coins", "midgame-4p", set_(["players", 2, "coins"], -1),
     "players[2].coins: must be >= 0, got -1"),
    ("too many coins", "midgame-4p", set_(["players", 0, "coins"], 1000),
     "players[0].coins: must be <= 999, got 1000"),
    ("tile count", "midgame-4p", _add(["bag"], "gray", 2),
     "tiles: 52 counted (grid, outer spaces, docks, bag, supplies, drawn), expected 50"),
    ("too many of a colour", "midgame-4p", _colour_count, "tiles: 19 gray tiles, more than the game has"),
    ("refill not by fives", "midgame-4p", set_(["tiles added"], 3),
     "tiles added: the bag is refilled 5 tiles at a time (R-DRAW-8), got 3"),
    ("view hand sizes vs unseen cards", "midgame-4p-view", set_(["players", 0, "hand size"], 3),
     "draw pile size: 32 cards are unseen by Blue, but the draw pile (32) and the other hands "
     "(Red 3, Green 0, Yellow 0) hold 35"),
    ("view coats vs unseen coats", "midgame-4p-view", set_(["coat stack", "shuffled"], 7),
     "coat stack.shuffled: 11 coats are unseen by Blue, but the stack and the looked-at coats hold 8"),
    ("unknown card", "midgame-4p", set_(["draw pile", 0], "Steeple 1"),
     "draw pile[0]: unknown card 'Steeple 1'; did you mean 'Steeple I'?"),
    ("unknown card in front", "midgame-4p", set_(["players", 0, "in front"], ["Work of Art V"]),
     "players[0].in front[0]: unknown card 'Work of Art V'; did you mean 'Works of Art V'?"),
    ("unknown quarter", "midgame-4p", set_(["players", 1, "seals"], {"Leaning Hose": 1}),
     "players[1].seals: unknown quarter 'Leaning Hose'; did you mean 'Leaning House'?"),
    ("unknown colour", "midgame-4p", set_(["grid", 0, 0], "grey"),
     "grid[0][0]: unknown colour 'grey'; did you mean 'gray'?"),
    ("unknown colour in a count", "midgame-4p", set_(["players", 0, "supply"], {"grey": 1}),
     "players[0].supply: unknown colour 'grey'; did you mean 'gray'?"),
    ("unknown coat", "midgame-4p", set_(["players", 1, "coats"], ["G-Oth"]),
     "players[1].coats[0]: unknown coat of arms 'G-Oth'; did you mean 'G-Oath'?"),
    ("unknown player", "midgame-4p", set_(["to move"], "Yelow"),
     "to move: unknown player 'Yelow'; did you mean 'Yellow'?"),
    ("unknown field", "midgame-4p", set_(["players", 0, "coin"], 1),
     "players[0].coin: unknown field; did you mean 'coins'?"),
    ("unknown task", "midgame-4p", set_(["pending"], [{"task": "dock choise", "arg": 0}]),
     "pending[0].task: unknown task 'dock choise'; did you mean 'dock choice'?"),
    ("text for a number", "midgame-4p", set_(["players", 0, "coins"], "2"),
     "players[0].coins: must be a whole number, got '2'"),
    ("true for a number", "midgame-4p", set_(["players", 0, "sparrows"], True),
     "players[0].sparrows: must be a whole number, got True"),
    ("object for a list", "midgame-4p", set_(["players"], {}), "players: must be a list, got dict"),
    ("missing field", "midgame-4p", del_(["players", 1, "coins"]), "players[1].coins: missing"),
    ("missing draw pile size", "midgame-4p-view", del_(["draw pile size"]), "draw pile size: missing"),
    ("wrong format", "midgame-4p", set_(["format"], "ulm-position/2"),
     "format: expected 'ulm-position/1', got 'ulm-position/2'"),
    ("wrong kind", "midgame-4p", set_(["kind"], "partial"),
     "kind: must be 'full' or 'view', got 'partial'"),
    ("five players", "midgame-4p", lambda d: d["players"].append(copy.deepcopy(d["players"][0])),
     "players: Ulm is for 2, 3 or 4 players, got 5"),
    ("round 11", "midgame-4p", set_(["round"], 11), "round: must be <= 10, got 11"),
    ("unknown phase", "midgame-4p", set_(["phase"], "draw"),
     "phase: must be one of before draw, push, actions, game over, got 'draw'"),
    ("push without a drawn tile", "midgame-4p", set_(["phase"], "push"),
     "turn.drawn: phase 'push' needs the drawn tile"),
    ("drawn tile before the draw", "midgame-4p", set_(["turn", "drawn"], ["gray"]),
     "turn.drawn: no tile is drawn before the draw (phase 'before draw')"),
    ("game over before round 10", "midgame-4p", set_(["phase"], "game over"),
     "round: a finished game is in round 10, got 4"),
    ("full position missing a card", "midgame-4p", lambda d: d["draw pile"].remove("Patrician"),
     "draw pile: 33 cards in all, 32 placed; missing: Patrician"),
    ("card listed twice", "midgame-4p", lambda d: d["discard pile"].append("Steeple I"),
     "draw pile[0]: Steeple I is already in discard pile"),
    ("card twice in one list", "midgame-4p", lambda d: d["draw pile"].append("Steeple I"),
     "draw pile[32]: 'Steeple I' is listed twice"),
    ("coat missing", "midgame-4p", lambda d: d["coat stack"]["shuffled"].remove("S-4"),
     "coat stack: 12 coats in all; missing: S-4"),
    ("coat twice", "midgame-4p", lambda d: d["players"][0]["coats"].append("S-2"),
     "coat stack.shuffled: coat S-2 is already in players[0].coats"),
    ("two barges on one river space", "midgame-4p", set_(["players", 2, "barge"], 5),
     "players[2].barge: river space 5 already holds Red's barge"),
    ("barge off the river", "midgame-4p", set_(["players", 0, "barge"], 22),
     "players[0].barge: must be <= 21, got 22"),
    ("too many golden coats", "midgame-4p", _golden_coats,
     "players[1].coats: 4 golden coats, but a player has only 3 crests"),
    ("too many seals", "midgame-4p", set_(["players", 0, "seals"], {"Tillage": 12}),
     "players[0].seals: 13 seals on the board and on coats, but a player has 12"),
    ("quarter over capacity", "midgame-4p", set_(["players", 0, "seals"], {"Tillage": 3}),
     "players: 6 seals in Tillage, which has 4 spaces"),
    ("Oath House seal without a descendant", "midgame-4p",
     set_(["players", 0, "seals"], {"Oath House": 1}),
     "players: 1 seals in the Oath House but 0 descendants taken"),
    ("descendant on the board and owned", "midgame-4p",
     set_(["players", 0, "descendants"], ["Merchant"]),
     "players[0].descendants: Merchant is already on the board"),
    ("descendants laid out", "midgame-4p", lambda d: d["descendants on board"].pop(),
     "descendants on board: 4 descendants are laid out at set-up; 3 on the board + 0 owned = 3"),
    ("wrong tower past count", "advanced-3p", lambda d: d["tower"]["past"].pop(),
     "tower.past: round 4 has 3 earlier tower tiles, got 2"),
    ("tower tile twice", "advanced-3p", lambda d: d["tower"].update(next=d["tower"]["past"][0]),
     "appears twice"),
    ("no tower tile in force", "advanced-3p", set_(["tower", "current"], None),
     "tower.current: the advanced game has a tower tile in force every round"),
    ("tower in the basic game", "midgame-4p", set_(["tower"], {"current": "T1"}),
     "tower: tower tiles have effects only in the advanced variant"),
    ("docks", "midgame-4p", both(_add(["docks"], "white", 1), _add(["bag"], "white", -1)),
     "docks: the 5 loading docks hold 5 tiles here, got 6"),
    ("outer spaces", "midgame-4p", lambda d: d["outer spaces"].pop(),
     "outer spaces: must list the 12 outer spaces (null when empty), got 11"),
    ("grid shape", "midgame-4p", lambda d: d["grid"].pop(), "grid: must be 3 rows of 3 colours"),
    ("score vs sources", "midgame-4p", set_(["players", 0, "score"], 10),
     "players[0].vp: the sources add up to 9, but the score is 10"),
    ("end-game points during play", "midgame-4p", set_(["players", 1, "vp"], {"start": 3, "river": 2}),
     "players[1].vp: end-game sources are only scored when the game is over"),
    ("seat name", "midgame-4p", set_(["players", 0, "name"], "Blue"),
     "players[0].name: seat 0 is 'Red', got 'Blue'"),
    ("view names an opponent's hand", "midgame-4p-view", set_(["players", 0, "hand"], []),
     "players[0].hand: a view of Blue cannot know Red's hand; give 'hand size'"),
    ("view names a coat another put under", "midgame-4p-view",
     set_(["coat stack", "under", 0, "coat"], "S-2"),
     "coat stack.under[0].coat: Blue cannot know a coat Red put under"),
    ("view lists the draw pile", "midgame-4p-view", set_(["draw pile"], []),
     "draw pile: a view gives only the 'draw pile size'"),
    ("full position with a viewer", "midgame-4p", set_(["viewer"], "Red"),
     "viewer: only a view has a viewer (kind is 'full')"),
    ("looked-at cards without a card keep", "midgame-4p",
     set_(["looked at"], {"cards": ["Steeple I"], "coats": []}),
     "looked at.cards: cards are looked at only while a 'card keep' is pending"),
    ("unmarked coat not owned", "midgame-4p", set_(["players", 0, "unmarked coats"], ["S-2"]),
     "players[0].unmarked coats[0]: S-2 is not among the player's coats"),
    ("board of the wrong type", "midgame-4p", set_(["board"], {}),
     "board: must be the path of a board table file, got dict"),
    ("board file missing", "midgame-4p", set_(["board"], "/nonexistent/board.json"),
     "board: /nonexistent/board.json: cannot read the file"),
    ("not an object", "midgame-4p", lambda d: Replace([]),
     "position: must be a JSON object, got list"),
    # every pending task's argument as the core reads it
    ("barge move beyond its actions", "midgame-4p",
     set_(["pending"], [{"task": "barge move", "arg": 40}]),
     "pending[0].arg: 'barge move' takes the most river spaces the barge may move: 1..4, got 40"),
    ("amount for another card", "midgame-4p", set_(["pending"], [{"task": "amount", "arg": 5}]),
     "pending[0].arg: 'amount' takes the card being played: 30 (Siege) or 32 (Ulm Sparrow), got 5"),
    ("cathedral payment for a trade card", "midgame-4p",
     set_(["pending"], [{"task": "cathedral payment", "arg": 9}]),
     "pending[0].arg: 'cathedral payment' takes the cathedral card paid for, by number"),
    ("reformation pick of three", "midgame-4p",
     set_(["pending"], [{"task": "reformation pick", "arg": 3}]),
     "pending[0].arg: 'reformation pick' takes the tiles still to take from outer spaces: 1..2, got 3"),
    ("argument of a task without one", "midgame-4p",
     set_(["pending"], [{"task": "dock choice", "arg": 3}]),
     "pending[0].arg: 'dock choice' takes no argument (0), got 3"),
    ("negative argument", "midgame-4p", set_(["pending"], [{"task": "card keep", "arg": -1}]),
     "pending[0].arg: 'card keep' takes no argument (0), got -1"),
    ("set-up draw pending", "midgame-4p", set_(["pending"], [{"task": "grid fill", "arg": 4}]),
     "pending[0].task: 'grid fill' is a set-up draw: it never waits in a position"),
    ("round start pending", "midgame-4p", set_(["pending"], [{"task": "round start"}]),
     "pending[0].task: 'round start' is run at once when a round ends"),
    # the turn against the phase and the pending tasks
    ("drawn tile in the actions phase", "midgame-4p",
     both(set_(["phase"], "actions"), set_(["turn", "drawn"], ["gray"]), _add(["bag"], "gray", -1)),
     "turn.drawn: the drawn tile is pushed before the actions (phase 'actions')"),
    ("second drawn tile without a Builder", "midgame-4p",
     both(set_(["phase"], "push"), set_(["turn", "drawn"], ["gray", "white"]),
          _add(["bag"], "gray", -1), _add(["bag"], "white", -1)),
     "turn.drawn: 2 drawn tile(s), but the pending 'draw tile to push' tasks (slots []) need 1"),
    ("builder keep without the Builder", "midgame-4p",
     both(set_(["phase"], "push"), set_(["turn", "drawn"], ["gray", "white"]),
          _add(["bag"], "gray", -1), _add(["bag"], "white", -1),
          set_(["pending"], [{"task": "builder keep"}])),
     "pending[0]: 'builder keep' needs the Builder, and Blue does not own it"),
    ("draw slot 1 without a builder keep", "midgame-4p",
     both(set_(["phase"], "push"), set_(["turn", "drawn"], ["gray"]), _add(["bag"], "gray", -1),
          set_(["pending"], [{"task": "draw tile to push", "arg": 1}])),
     "turn.drawn: 1 drawn tile(s), but the pending 'draw tile to push' tasks (slots [1]) need 1"),
    ("actions before the push", "midgame-4p", set_(["turn", "actions"], {"gray": 1}),
     "turn.actions.gray: actions come from the push; none in phase 'before draw'"),
    ("actions beyond a byte", "midgame-4p",
     both(set_(["phase"], "actions"), set_(["turn", "actions"], {"gray": 300})),
     "turn.actions.gray: must be <= 20, got 300"),
    ("extra river steps before the push", "midgame-4p", set_(["turn", "extra river steps"], 1),
     "turn.extra river steps: they come from a river action; none in phase 'before draw'"),
    ("extra river steps without a source", "midgame-4p",
     both(set_(["phase"], "actions"), set_(["turn", "extra river steps"], 1)),
     "turn.extra river steps: at most 0 here (1 with the Barge Driver, 1 with tower tile T1"),
    ("pushed out before the push", "midgame-4p", set_(["turn", "pushed out at"], 3),
     "turn.pushed out at: no tile is pushed out before the push (phase 'before draw')"),
    ("draw swap before the draw", "midgame-4p", set_(["turn", "draw swap used"], True),
     "turn.draw swap used: the joker and the Scholar swap the drawn tile"),
    ("merchant used without the Merchant", "midgame-4p", set_(["turn", "merchant used"], True),
     "turn.merchant used: Blue does not own the Merchant"),
    ("T5 seal without T5", "midgame-4p", set_(["turn", "T5 seal"], True),
     "turn.T5 seal: tower tile T5 is not in force"),
    ("T10 used without T10", "advanced-3p",
     both(set_(["phase"], "actions"), set_(["turn", "T10 used"], True),
          set_(["turn", "pushed out at"], 3)),
     "turn.T10 used: tower tile T10 is not in force"),
    ("T10 used before the push", "midgame-4p", set_(["turn", "T10 used"], True),
     "turn.T10 used: T10 takes the tile pushed out this turn; none in phase 'before draw'"),
    ("tower payment before the draw", "midgame-4p",
     set_(["pending"], [{"task": "tower payment"}]),
     "pending[0]: 'tower payment' waits only in phase 'actions', not in 'before draw'"),
    ("tower payment without T8 or T9", "advanced-3p",
     both(set_(["phase"], "actions"), set_(["pending"], [{"task": "tower payment"}])),
     "pending[0]: 'tower payment' is due only while T8 or T9 is in force"),
    ("tower reveal with the next tile shown", "advanced-3p",
     set_(["pending"], [{"task": "tower reveal"}]),
     "pending[0]: 'tower reveal' shows the next tower tile, but tower.next is already shown"),
    ("tower reveal in the basic game", "midgame-4p", set_(["pending"], [{"task": "tower reveal"}]),
     "pending[0]: tower tiles are revealed only in the advanced game"),
    ("patrician colour after the draw", "midgame-4p",
     both(set_(["phase"], "push"), set_(["turn", "drawn"], ["gray"]), _add(["bag"], "gray", -1),
          set_(["pending"], [{"task": "patrician colour"}])),
     "pending[0]: 'patrician colour' waits only in phase 'before draw', not in 'push'"),
    ("pending tasks after the game", "midgame-4p",
     both(set_(["round"], 10), set_(["phase"], "game over"),
          set_(["pending"], [{"task": "dock choice"}])),
     "pending: a finished game has no pending tasks"),
    ("card look without a card keep", "midgame-4p", set_(["pending"], [{"task": "look at card"}]),
     "pending[0]: 'look at card' draws for a 'card keep' pending below it"),
    ("four cards looked at", "midgame-4p",
     set_(["pending"], [{"task": "card keep"}] + [{"task": "look at card"}] * 4),
     "pending[1]: 0 looked at and 4 more to draw: at most 3 are looked at"),
    ("three coats drawn", "midgame-4p",
     set_(["pending"], [{"task": "coat choice"}] + [{"task": "coat draw"}] * 3),
     "pending[1]: 0 looked at and 3 more to draw: at most 2 are looked at"),
    ("a choice with nothing to choose", "midgame-4p", set_(["pending"], [{"task": "coat choice"}]),
     "pending[0]: 'coat choice' has no legal choice in this position"),
    ("score beyond the points a game gives", "midgame-4p",
     both(set_(["players", 0, "score"], 40000), set_(["players", 0, "vp"], {"start": 40000})),
     "players[0].score: must be <= 999, got 40000"),
    ("points of a source beyond the game", "midgame-4p",
     set_(["players", 0, "vp"], {"start": 40000, "coats of arms": -39995}),
     "players[0].vp.start: must be between -999 and 999, got 40000"),
]
BAD_JSON = ('{\n  "format": "ulm-position/1",\n  "kind": "full",\n}\n',
            "not valid JSON (line 4, column 1: Expecting property name")


def test_bad_table_is_large_and_distinct():
    assert len(BAD) >= 25
    assert len({b[0] for b in BAD}) == len(BAD)
    assert len({b[3] for b in BAD}) == len(BAD)


class Replace:
    """An edit that replaces the whole document."""

    def __init__(self, value):
        self.value = value


def bad_file(tmp_path, base, edit) -> Path:
    data = example(base)
    result = edit(data)
    if isinstance(result, Replace):
        data = result.value
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def check_rejected(path: Path, message: str):
    with pytest.raises(PositionError) as err:
        load_position(path)
    assert message in str(err.value)
    assert str(err.value).startswith(f"{path}: ")
    for command in ("validate", "show"):
        res = run(command, path)
        assert res.exit_code == 2, (command, res.output)
        assert "Error: " in res.output
        assert message in res.output
        assert "Traceback" not in res.output
        assert res.exception is None or isinstance(res.exception, SystemExit)


@pytest.mark.parametrize("case", BAD, ids=[b[0] for b in BAD])
def test_bad_position(case, tmp_path):
    _, base, edit, message = case
    check_rejected(bad_file(tmp_path, base, edit), message)


def test_bad_json(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(BAD_JSON[0], encoding="utf-8")
    check_rejected(path, BAD_JSON[1])


def test_not_a_text_file(tmp_path):
    path = tmp_path / "bad.json"
    path.write_bytes(b"\xff\xfe{")
    check_rejected(path, "not a UTF-8 text file (byte 0xff at position 0)")
    res = run("replay", path)
    assert res.exit_code == 2 and "not a UTF-8 text file" in res.output


def test_missing_file(tmp_path):
    with pytest.raises(PositionError, match="cannot read the file"):
        load_position(tmp_path / "nope.json")
    for command in ("validate", "show"):
        res = run(command, tmp_path / "nope.json")
        assert res.exit_code == 2 and "Error: " in res.output and "nope.json" in res.output
        assert "Traceback" not in res.output


def test_show_and_replay_name_the_kind_of_file():
    """`validate` tells the kinds apart; `show` and `replay` say which command to use."""
    res = run("show", EXAMPLES / "record-2p.json")
    assert res.exit_code == 2
    assert ("format: expected 'ulm-position/1', got 'ulm-record/1' (a game record: use "
            "`ulm replay`)") in res.output
    res = run("replay", EXAMPLES / "midgame-4p.json")
    assert res.exit_code == 2
    assert ("format: expected 'ulm-record/1', got 'ulm-position/1' (a position: use "
            "`ulm show`)") in res.output


def test_bad_examples_are_otherwise_valid(tmp_path):
    """The table's edits start from files that load: each failure is the edit's."""
    for base in {b[1] for b in BAD}:
        load_position(EXAMPLES / f"{base}.json")


# ---------------------------------------------------------------------------
# a view typed in at the table (the walk-through of docs/positions.md)

def test_walkthrough_view_typed_at_the_table(tmp_path):
    mine = tmp_path / "mine.json"
    res = run("new", "--players", 4, "--as", "Blue", "-o", mine)
    assert res.exit_code == 0 and res.output == ""
    d = json.loads(mine.read_text(encoding="utf-8"))
    d["round"] = 5
    d["to move"] = "Blue"
    d["bag"] = {"gray": 5, "white": 6, "brown": 8, "turquoise": 7, "orange": 6}
    d["draw pile size"] = 26
    d["discard pile"] = ["Siege"]
    d["coat stack"] = {"shuffled": 8, "under": [{"by": "Red"}, {"coat": "S-2", "by": "Blue"}]}
    red, blue, green, yellow = d["players"]
    red.update(score=7, vp={"start": 5, "coats of arms": 2}, coins=0, barge=4,
               supply={"gray": 1}, seals={"Garden": 1}, coats=["G-Tillage"])
    red["hand size"] = 1
    blue.update(score=9, vp={"start": 5, "coats of arms": 4}, coins=1, sparrows=3, barge=2,
                supply={"white": 1, "orange": 1}, seals={"Leaning House": 1}, coats=["S-4"],
                hand=["Patrician", "Nave II"])
    green["in front"] = ["Works of Art III"]
    yellow["supply"] = {}
    yellow["hand size"] = 2
    mine.write_text(json.dumps(d, indent=2), encoding="utf-8")
    state, seat = load_position(mine)
    assert seat == 1 and state.current_player() == 1
    res = run("validate", mine)
    assert res.exit_code == 0
    assert "a valid position, 4 players, Blue to move" in res.output
    # the mistake the page shows: the draw pile size not lowered
    d["draw pile size"] = 33
    mine.write_text(json.dumps(d, indent=2), encoding="utf-8")
    res = run("validate", mine)
    assert res.exit_code == 2
    assert ("draw pile size: 29 cards are unseen by Blue, but the draw pile (33) and the other "
            "hands (Red 1, Green 0, Yellow 2) hold 36") in res.output




# ---------------------------------------------------------------------------
# a position before the set-up: a real table's set-up entered with `ulm apply`

def _setup_words(players: int, variant: str, seed: int) -> list[str]:
    """The set-up draws of the game of `seed`, as a player at its table reads them
    and `ulm apply` takes them: the grid row by row from the top left, each
    player's tile from Red on, the Descendants, the tower tiles (current, next)."""
    from ulm.game import Game
    real = state_to_position(Game(players=players, variant=variant).new_game(seed), None)
    words = [f"drew {colour}" for row in real["grid"] for colour in row]
    words += [f"drew {next(iter(p['supply']))}" for p in real["players"]]
    words += [f"revealed {d}" for d in real["descendants on board"]]
    if variant == "advanced":
        words += [f"revealed {real['tower']['current']}", f"revealed {real['tower']['next']}"]
    return words


@pytest.mark.parametrize("players, variant, seat", [(2, "basic", "Blue"), (3, "advanced", "Red"),
                                                    (4, "basic", "Yellow"), (4, "advanced", None)])
def test_a_real_tables_setup_is_entered_from_before_the_setup(players, variant, seat, tmp_path):
    """`ulm new --before-setup`, then the table's draws one `ulm apply` at a time:
    every position between reads back, and the last is exactly the position
    of that set-up (here the one `ulm new --seed 11` deals)."""
    game = tmp_path / "game.json"
    view = ["--as", seat] if seat else []
    res = run("new", "--players", players, "--variant", variant, *view, "--before-setup",
              "-o", game)
    assert res.exit_code == 0, res.output
    start = json.loads(game.read_text())
    assert start["grid"] == [[None] * 3] * 3 and {"task": "grid fill", "arg": 0} in start["pending"]
    words = _setup_words(players, variant, 11)
    for k, word in enumerate(words):
        res = run("apply", game, word, "-o", game, "--quiet")
        assert res.exit_code == 0, (k, word, res.output)
        res = run("validate", game)
        assert res.exit_code == 0 and "a valid position" in res.output, (k, res.output)
    dealt = run("new", "--players", players, "--variant", variant, *view, "--seed", 11)
    assert game.read_text() == dealt.stdout
    assert run("apply", game, "--list").stdout.startswith("Red to decide, phase before draw")


def test_the_setup_in_one_apply_and_through_a_pipe():
    words = _setup_words(2, "basic", 5)
    first = run("new", "--players", 2, "--as", "Red", "--before-setup")
    from click.testing import CliRunner
    from cli.main import main
    res = CliRunner().invoke(main, ["apply", "-", *words, "--quiet"], input=first.stdout)
    assert res.exit_code == 0, res.output
    assert res.stdout == run("new", "--players", 2, "--as", "Red", "--seed", 5).stdout
    # what may come next is listed in the words to type
    listing = CliRunner().invoke(main, ["apply", "-", "--list"], input=first.stdout)
    assert listing.stdout.startswith("The set-up's draw of the grid space in row 1, column 1 is "
                                     "next (5 possible events, as Red knows"), listing.stdout
    assert "  drew gray\n" in listing.stdout


def test_every_position_of_the_setup_reads_back_as_written():
    from ulm.follow import apply_decision, options
    from ulm.game import Game
    for players, variant, viewer in ((2, "basic", None), (3, "advanced", 1), (4, "basic", 3)):
        state = Game(players=players, variant=variant).new_initial_state()
        step = 0
        while state.is_chance_node():
            data = state_to_position(state, viewer)
            back, seat = position_to_state(json.loads(dumps(data)), "p")
            assert state_to_position(back, viewer) == data, step
            assert seat == (viewer if viewer is not None else 0)
            assert back.information_state_key(seat) == state.information_state_key(seat)
            entries = options(state, viewer)
            apply_decision(state, entries[step % len(entries)][0], viewer)
            step += 1
        assert step == 9 + players + 4 + (2 if variant == "advanced" else 0)


def _during_setup(draws: int = 3, variant: str = "basic", viewer=1) -> dict:
    from ulm.follow import apply_decision, options
    from ulm.game import Game
    state = Game(players=2, variant=variant).new_initial_state()
    for _ in range(draws):
        apply_decision(state, options(state, viewer)[0][0], viewer)
    return json.loads(dumps(state_to_position(state, viewer)))


def _set(path: str, value):
    def change(d):
        *parents, last = path.split("/")
        node = d
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if value is DELETE:
            del node[int(last) if isinstance(node, list) else last]
        else:
            node[int(last) if isinstance(node, list) else last] = value
    return change


DELETE = object()

# (what, the change to a position 3 draws into the set-up, words of the error)
BAD_SETUPS = [
    ("a space filled early", _set("grid/1/1", "gray"), ["grid[1][1]: \"gray\"", "make it null"]),
    ("a space drawn emptied", _set("grid/0/1", None), ["grid[0][1]", "a colour, got None"]),
    ("a colour that is none", _set("grid/0/0", "purple"), ["grid[0][0]", "purple"]),
    ("a colour of the wrong type", _set("grid/0/0", 7), ["grid[0][0]", "7"]),
    ("a draw the bag cannot give", _set("grid/0/2", "gray"),
     ["grid[0][2]", "'drew gray' cannot happen here"]),
    ("a pending draw dropped", lambda d: d["pending"].pop(),
     ["grid[1][0]", "the pending draws say so"]),
    ("pending truncated to one", lambda d: d.update(pending=d["pending"][:1]), ["grid"]),
    ("pending of the wrong type", lambda d: d["pending"].append("grid fill"), ["pending"]),
    ("a tile in a supply", _set("players/0/supply", {"gray": 1}), ["players[0].supply"]),
    ("no players", _set("players", []), ["players: a list of 2, 3 or 4 players"]),
    ("six players", lambda d: d["players"].extend(copy.deepcopy(d["players"] * 2)),
     ["players: a list of 2, 3 or 4 players"]),
    ("a viewer of no seat", _set("viewer", "Green"), ["viewer: one of Red, Blue, got 'Green'"]),
    ("a kind of no position", _set("kind", "half"), ["kind: 'full' or 'view'"]),
    ("a variant of no game", _set("variant", "expert"),
     ["variant: must be 'basic' or 'advanced', got 'expert'"]),
    ("another format", _set("format", "ulm-position/0"), ["format: must be 'ulm-position/1'"]),
    ("an unknown field", _set("colour", "red"), ["colour: no such field"]),
    ("a coin more", _set("players/1/coins", 3), ["players[1].coins: 3", "make it 2"]),
    ("a huge number", _set("players/1/coins", 10 ** 30), ["players[1].coins"]),
    ("a hand", _set("players/1/hand", ["Siege"]), ["players[1].hand"]),
    ("the round", _set("round", 4), ["pending[0].task", "round start"]),
    ("a field missing", _set("docks", DELETE), ["docks: missing; the set-up's draws make it"]),
]


@pytest.mark.parametrize("what, change, words", BAD_SETUPS, ids=[row[0] for row in BAD_SETUPS])
def test_a_position_during_the_setup_is_checked_whole(what, change, words, tmp_path):
    data = _during_setup()
    assert position_to_state(copy.deepcopy(data), "p")
    change(data)
    with pytest.raises(PositionError) as err:
        position_to_state(data, "p")
    for word in words:
        assert word in str(err.value), (word, str(err.value))
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data))
    res = run("apply", path, "drew white", "-o", tmp_path / "out.json")
    assert res.exit_code == 2 and res.output.startswith(f"Error: {path}: "), res.output
    assert "Traceback" not in res.output and not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("what, change, words", [
    ("a Descendant of no name", _set("descendants on board", ["Wizard"]), ["Wizard"]),
    ("a Descendant revealed twice", _set("descendants on board", ["Abbot", "Abbot"]),
     ["descendants on board"]),
    ("a Descendant of the wrong type", _set("descendants on board", [{"name": "Abbot"}]),
     ["descendants on board", "{'name': 'Abbot'}"]),
    ("Descendants of the wrong type", _set("descendants on board", "Abbot"),
     ["descendants on board", "got 'Abbot'"]),
    ("no tower", _set("tower", DELETE), ["tower: missing"]),
    ("a tower tile of no name", _set("tower/current", "T99"), ["tower.current", "T99"]),
    ("a tower tile shown early", _set("tower/next", "T5"), ["tower.next: \"T5\"",
                                                             "make it null"]),
], ids=lambda v: v if isinstance(v, str) else "")
def test_the_setups_reveals_are_checked(what, change, words):
    data = _during_setup(draws=9 + 2 + 4, variant="advanced", viewer=None)
    if what.startswith("a Descendant"):
        data = _during_setup(draws=9 + 2 + 1, variant="advanced", viewer=None)
    assert position_to_state(copy.deepcopy(data), "p")
    change(data)
    with pytest.raises(PositionError) as err:
        position_to_state(data, "p")
    for word in words:
        assert word in str(err.value), (word, str(err.value))


def test_validate_says_who_is_next_before_the_setup(tmp_path):
    full, view = tmp_path / "full.json", tmp_path / "view.json"
    run("new", "--players", 3, "--before-setup", "-o", full)
    run("new", "--players", 3, "--before-setup", "--as", "Green", "-o", view)
    assert run("validate", full).stdout == (f"{full}: a valid position, 3 players, "
                                            "a chance event next\n")
    assert run("validate", view).stdout == f"{view}: a valid position, 3 players, Green viewing\n"


def test_new_before_setup_refuses_a_seed(tmp_path):
    res = run("new", "--before-setup", "--seed", 3, "-o", tmp_path / "p.json")
    assert res.exit_code == 2 and "--seed: deals the set-up" in res.output
    assert list(tmp_path.iterdir()) == []


def _paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for key, child in node.items():
            yield from _paths(child, path + (key,))
    elif isinstance(node, list):
        for i, child in enumerate(node):
            yield from _paths(child, path + (i,))


@pytest.mark.parametrize("draws, variant", [(0, "basic"), (4, "basic"), (12, "advanced")])
def test_any_field_of_a_setup_position_changed_is_refused_in_words(draws, variant):
    """Every field (and every value of it) of a position during the set-up
    replaced by a value of another type: a PositionError, never another
    exception (the bad-input table of the set-up's positions)."""
    data = _during_setup(draws, variant, viewer=0)
    odd = [None, True, -1, 10 ** 50, 1.5, "", "Abbot", [], [None], {}, {"task": "grid fill"}]
    for path in list(_paths(data))[1:]:
        for value in odd:
            changed = copy.deepcopy(data)
            node = changed
            for key in path[:-1]:
                node = node[key]
            if node[path[-1]] == value and type(node[path[-1]]) is type(value):
                continue
            node[path[-1]] = value
            try:
                position_to_state(changed, "p")
            except PositionError:
                pass


def test_each_setup_draw_is_named_for_the_player_entering_it(tmp_path):
    from ulm.follow import apply_decision, options, setup_draw
    from ulm.game import Game
    state = Game(players=2, variant="advanced").new_initial_state()
    named = []
    while setup_draw(state):
        named.append(setup_draw(state))
        apply_decision(state, options(state, 1)[0][0], 1)
    assert named == [f"the grid space in row {r}, column {c}" for r in (1, 2, 3)
                     for c in (1, 2, 3)] + ["Red's tile", "Blue's tile"] + [
        f"a Descendant ({k} still to reveal)" for k in (4, 3, 2, 1)] + ["the current tower tile"]
    assert setup_draw(Game(players=2).new_game(1)) is None
    game = tmp_path / "g.json"
    run("new", "--players", 2, "--as", "Blue", "--before-setup", "-o", game)
    res = run("apply", game, "--list")
    assert res.stdout.startswith("The set-up's draw of the grid space in row 1, column 1 is "
                                 "next (5 possible events, as Blue knows the game):")
    listing = json.loads(run("apply", game, "--list", "--json").stdout)
    assert listing["setup_draw"] == "the grid space in row 1, column 1"
    after = run("apply", game, "drew white", "--quiet", "--list").stdout
    assert after.startswith("The set-up's draw of the grid space in row 1, column 2 is next")
