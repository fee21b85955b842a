"""The last turn on the board and the chance events in the move list (ulm.decisions,
ulm.picture): what each seat did, marked and said as the viewer may know it."""
from __future__ import annotations

import random

import pytest

from ulm import ACTION_NAMES, CARDS
from ulm.decisions import last_turn, record_events, record_steps, shown_whole
from ulm.picture import board_svg
from ulm.records import GameRecord


def _random_record(players, seed, decisions=400):
    rec, rng = GameRecord(players=players, seed=seed), random.Random(seed)
    while not rec.state.is_terminal() and len(rec.decisions) < decisions:
        rec.apply(rng.choice(rec.state.legal_actions()))
    return rec


@pytest.mark.parametrize("players, seed", [(2, 1), (4, 2)])
def test_record_events_say_the_chance_events_as_the_viewer_knows_them(players, seed):
    rec = _random_record(players, seed)
    everything, red = record_events(rec), record_events(rec, 0)
    assert len(everything) == len(red) == len(rec.decisions)
    assert [e["seat"] for e in everything] == [e["seat"] for e in red]
    drawn = [c for e in everything for c in e["chance"]]
    assert any(c.startswith("drew ") for c in drawn)
    # another seat's card draw: named with everything shown, "X drew a card" for Red
    hidden = [(a, b) for e, f in zip(everything, red) if e["seat"] != 0
              for a, b in zip(e["chance"], f["chance"]) if a != b]
    assert hidden and all(b.endswith(" drew a card") or b.endswith(" drew a coat")
                          for _, b in hidden)
    assert all(a.startswith("drew ") for a, _ in hidden)


def test_the_last_turn_is_the_last_movers_decisions_of_that_turn():
    rec = _random_record(2, 3, decisions=60)
    steps = record_steps(rec)
    turn = last_turn(steps)
    seat = steps[-1][0].current_player()
    assert turn and turn == steps[len(steps) - len(turn):]
    assert all(st.current_player() == seat for st, _ in turn)
    before = steps[len(steps) - len(turn) - 1][0] if len(turn) < len(steps) else None
    assert before is None or before.current_player() != seat
    assert last_turn([]) == []


def test_a_push_is_marked_where_it_went_in_and_what_it_pushed_out():
    rec = GameRecord(players=2, seed=4)
    rec.apply(ACTION_NAMES.index("draw"))
    push = next(a for a in rec.state.legal_actions() if ACTION_NAMES[a].startswith("push "))
    rec.apply(push)
    svg = board_svg(rec.state, viewer=0, last=last_turn(record_steps(rec)))
    assert svg.count('class="last-push"') == 1
    assert svg.count("data-last=") == 3      # the bag drawn from, the entry, the outer space
    assert 'class="last-move"' not in board_svg(rec.state, viewer=0)


def test_an_opponents_hidden_keep_is_not_marked():
    for seed in range(40):
        rec, rng = GameRecord(players=2, seed=seed), random.Random(seed)
        while not rec.state.is_terminal() and len(rec.decisions) < 500:
            st = rec.state
            keeps = [a for a in st.legal_actions()
                     if ACTION_NAMES[a].startswith("keep ") and ACTION_NAMES[a][5:] in CARDS]
            if keeps and st.current_player() == 1 and len(keeps) > 1:
                keep = keeps[0]
                assert not shown_whole(st, keep, 0) and shown_whole(st, keep, 1)
                assert shown_whole(st, keep, None)
                svg = board_svg(st, viewer=0, last=[(st.clone(), keep)])
                assert "data-last=" not in svg
                return
            rec.apply(rng.choice(st.legal_actions()))
    pytest.fail("no keep of a card looked at in 40 random games")
