"""The library's game logic behind the web's variations and replays: another line
tried from a position (mcts.play.variations) and who made each decision of a record
(GameRecord.movers)."""
from __future__ import annotations

import json

import pytest

from leaks import assert_no_leak, assert_same_for_worlds
from mcts.play.variations import VariationError, coats_drawn, play_variation
from constructed import UNDER, coats_under_the_stack
from ulm import ACTION_NAMES
from ulm.records import GameRecord, replay
from helpers import EXAMPLES



# --- who moved ---------------------------------------------------------------------------

def test_movers_are_the_seats_to_move_before_each_decision_of_a_record():
    data = json.loads((EXAMPLES / "record-2p.json").read_text())
    rec = replay(data)
    movers = rec.movers()
    assert len(movers) == len(data["decisions"]) > 20
    assert movers == [replay(data, k).state.current_player()
                      for k in range(len(data["decisions"]))]
    assert set(movers) == {0, 1}
    assert GameRecord(3, "basic", 5).movers() == []


def test_movers_leave_the_record_as_it_was():
    data = json.loads((EXAMPLES / "record-2p.json").read_text())
    rec = replay(data)
    before = (rec.state.raw(), list(rec.decisions))
    rec.movers()
    assert (rec.state.raw(), list(rec.decisions)) == before


# --- variations --------------------------------------------------------------------------

def _red_to_decide(seed: int = 2):
    """A 2-player game at Red's first decision after the set-up."""
    rec = GameRecord(2, "basic", seed)
    while rec.state.current_player() != 0:
        rec.apply(rec.state.legal_actions()[0])
    return rec.state


def _to_end_of_turn(state, viewer):
    line, v = [], play_variation(state, viewer, [])
    while v.options:
        names = {ACTION_NAMES[a]: a for a in v.options}
        line.append(names.get("end turn", v.options[0]))
        v = play_variation(state, viewer, line)
    return line, v


@pytest.mark.parametrize("viewer", [None, 0])
def test_a_variation_is_the_movers_turn_and_leaves_the_real_state_alone(viewer):
    real = _red_to_decide()
    before = real.raw()
    v = play_variation(real, viewer, [])
    assert v.seat == 0 and v.names == [] and v.ended is None and v.ask is None
    assert sorted(v.options) == sorted(real.legal_actions())
    line, end = _to_end_of_turn(real, viewer)
    assert line and end.options == [] and end.ended
    assert len(end.names) == len(line) == len(end.steps)
    assert real.raw() == before


def test_a_variation_goes_on_no_further_than_its_turn():
    real = _red_to_decide()
    line, _ = _to_end_of_turn(real, 0)
    with pytest.raises(VariationError, match=rf"line\[{len(line)}\]: the variation ended") as exc:
        play_variation(real, 0, line + [line[-1]])
    assert exc.value.conflict


def test_a_variation_is_for_the_viewers_own_decisions_only():
    real = _red_to_decide()
    with pytest.raises(VariationError, match="variations are for Blue's own") as exc:
        play_variation(real, 1, [])
    assert exc.value.conflict
    chance = _red_to_decide()
    while not chance.is_chance_node():       # decisions until a card is drawn
        chance.apply_action(chance.legal_actions()[0])
    with pytest.raises(VariationError, match="nobody decides here") as exc:
        play_variation(chance, None, [])
    assert exc.value.conflict


def test_a_viewers_variation_shows_only_what_the_viewer_may_know():
    real = _red_to_decide(seed=6)
    line, _ = _to_end_of_turn(real, 0)

    def shown(world):
        v = play_variation(world, 0, line)
        return {"names": v.names, "ended": v.ended}
    assert_same_for_worlds(real, 0, shown)


BAD_LINES = [
    ("push", "line: a list of at most 60"),                 # wrong type
    (None, "line: a list of at most 60"),
    (True, "line: a list of at most 60"),
    ({"0": 1}, "line: a list of at most 60"),               # foreign
    ([0] * 61, "line: a list of at most 60"),               # huge
]
BAD_ENTRIES = [
    (True, "line[0]: must be a decision id"),
    (1.5, "line[0]: must be a decision id"),
    (float("nan"), "line[0]: must be a decision id"),       # NaN
    ("", "line[0]: must be a decision id"),                 # empty
    ("draw", "line[0]: must be a decision id"),             # a name, not an id
    ([], "line[0]: must be a decision id"),
    (-1, "line[0]: decision -1 is not legal there"),        # negative
    (10 ** 30, "line[0]: decision 10{30} is not legal there".replace("10{30}", str(10 ** 30))),
]


@pytest.mark.parametrize("line, message", BAD_LINES + [([e], m) for e, m in BAD_ENTRIES])
def test_a_bad_line_is_refused_by_name(line, message):
    real = _red_to_decide()
    with pytest.raises(VariationError) as exc:
        play_variation(real, 0, line)
    assert str(exc.value).startswith(message)
    assert not exc.value.conflict


def test_a_variation_asks_what_was_drawn_from_under_the_stack_and_goes_on_with_it():
    state = coats_under_the_stack()
    seal = ACTION_NAMES.index("seal in Leaning House")
    v = play_variation(state, 0, [seal])
    pairs = {frozenset(w[len("drew coats "):].split(" and ")) for w in v.ask}
    assert pairs == {frozenset((a, b)) for a in UNDER for b in UNDER if a < b}
    assert v.options == [] and v.ended is None
    assert_no_leak(state, 0, {"names": v.names, "ask": v.ask}, "variation")
    told = next(w for w in v.ask if set(w[len("drew coats "):].split(" and ")) == {"S-1", "S-3"})
    v = play_variation(state, 0, [seal, told.upper()])
    assert v.names == ["seal in Leaning House", told] and v.ask is None
    assert sorted(ACTION_NAMES[a] for a in v.options) == ["keep coat S-1", "keep coat S-3"]
    everything = play_variation(state, None, [seal])     # everything seen: nothing to ask
    assert everything.ask is None and everything.options
    for bad, message in [(None, "say which coats"), ("", "say which coats"),
                         ("x" * 101, "say which coats"), ("drew coats S-1 and", "'drew coats"),
                         ("NaN", "'NaN' is not what")]:
        with pytest.raises(VariationError, match=message):
            play_variation(state, 0, [seal, bad])


def test_coats_drawn_is_empty_where_nothing_was_drawn():
    assert coats_drawn(_red_to_decide(), 0) == []
