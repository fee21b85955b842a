"""Following a game from one seat's knowledge (ulm/follow.py): what the viewer knows to
be impossible is refused with the reason, what may be is offered, whatever one deal of
the hidden cards says (R-INFO-3, R-INFO-4)."""
import json
import random

import pytest
from click.testing import CliRunner

import ulm
from cli.main import main
from ulm import ACTION_NAMES, CARDS, COLOURS
from ulm._fastcore import SEATS, TASKS
from ulm.decisions import DecisionError, decision_words
from ulm.follow import apply_decision, decision_names, options
from ulm.positions import dumps, position_to_state, state_to_position

RED, BLUE = 0, 1


def _until(players, seed, stop):
    """A random game up to the first state where `stop(state)` holds (None if none)."""
    rng = random.Random(seed)
    state = ulm.Game(players=players).new_game(seed=seed)
    while not state.is_terminal():
        if stop(state):
            return state
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome())
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return None


def _own_card_draw(state):
    return (state.is_chance_node() and state.raw()["turn_player"] == RED
            and ACTION_NAMES[state.legal_actions()[0]].startswith("chance: card"))


def _keep(state):
    stack = state.task_stack()
    return (not state.is_chance_node() and stack and TASKS[stack[-1][0]] == "card keep"
            and state.raw()["n_looked_cards"] >= 2)


def _first(players, stop):
    return next(s for s in (_until(players, k, stop) for k in range(200)) if s is not None)


def _view(full, viewer):
    return position_to_state(json.loads(dumps(state_to_position(full, viewer))))[0]


def _bits(mask):
    return [c for c in range(len(CARDS)) if mask >> c & 1]


def test_a_card_known_in_another_hand_cannot_be_drawn():
    """Blue took Siege face up (the Goose Tower's pick): Red cannot draw it."""
    full = _first(2, _own_card_draw)
    raw = full.raw()
    card = _bits(raw["pile"])[0]
    raw["pile"] &= ~(1 << card)
    raw["players"][BLUE]["hand"] |= 1 << card
    raw["players"][BLUE]["known"] |= 1 << card
    full.set_raw(raw)
    view = _view(full, RED)
    with pytest.raises(DecisionError, match=f"{CARDS[card]} is known to be in Blue's hand"):
        apply_decision(view, f"drew {CARDS[card]}", RED)
    assert f"drew {CARDS[card]}" not in [n for n, _ in decision_names(view, RED)]
    # Blue may play it: it is in Blue's hand
    assert state_to_position(view, RED) == state_to_position(full, RED)


def test_the_discard_pile_and_the_own_hand_are_no_place_to_draw_from(tmp_path):
    full = _first(2, _own_card_draw)
    raw = full.raw()
    gone = _bits(raw["pile"])[0]
    raw["pile"] &= ~(1 << gone)
    raw["discard"] |= 1 << gone
    full.set_raw(raw)
    path = tmp_path / "view.json"
    path.write_text(dumps(state_to_position(full, RED)))
    res = CliRunner().invoke(main, ["apply", str(path), f"drew {CARDS[gone]}"])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert f"{CARDS[gone]} is on the discard pile" in res.stderr
    own = _bits(full.raw()["players"][RED]["hand"])
    if own:
        res = CliRunner().invoke(main, ["apply", str(path), f"drew {CARDS[own[0]]}"])
        assert f"{CARDS[own[0]]} is in Red's own hand" in res.stderr


def _reshuffled(full):
    """`full` after a reshuffle: the draw pile is the new group, every other card older."""
    raw = full.raw()
    raw["reshuffles"] = 1
    raw["card_group"] = [1 if raw["pile"] >> c & 1 else 0 for c in range(len(CARDS))]
    full.set_raw(raw)
    return full


def test_a_card_from_before_a_reshuffle_is_not_in_the_draw_pile():
    full = _reshuffled(_first(2, lambda s: _own_card_draw(s) and s.raw()["players"][BLUE]["hand"]))
    old = _bits(full.raw()["players"][BLUE]["hand"])[0]
    view = _view(full, RED)
    with pytest.raises(DecisionError, match=f"{CARDS[old]} was drawn before the discard pile "
                                            "was shuffled into the draw pile"):
        apply_decision(view, f"drew {CARDS[old]}", RED)
    # and the message's list of what is possible comes from Red's knowledge: every card of
    # the new draw pile, whichever deal the view holds
    with pytest.raises(DecisionError) as err:
        apply_decision(view, f"drew {CARDS[old]}", RED)
    for c in _bits(full.raw()["pile"]):
        assert f"drew {CARDS[c]}" in str(err.value)


def test_possible_draws_come_from_the_knowledge_not_from_one_deal():
    """In Red's view the pile and Blue's hand are one deal: a card the deal put in Blue's
    hand may be the one Red draws; it is offered and accepted, and the view stays right."""
    full = _first(2, lambda s: _own_card_draw(s) and s.raw()["players"][BLUE]["hand"])
    view = _view(full, RED)
    in_blue = _bits(view.raw()["players"][BLUE]["hand"])[0]
    names = [n for n, _ in decision_names(view, RED)]
    assert f"drew {CARDS[in_blue]}" in names
    assert sorted(names) == sorted(f"drew {CARDS[c]}" for c in _bits(full.hidden_cards(RED)))
    apply_decision(view, f"drew {CARDS[in_blue]}", RED)
    full.set_raw(dict(full.raw()))
    truth = full.clone()
    raw = truth.raw()                   # the real game: that card was in the pile
    if not raw["pile"] >> in_blue & 1:
        swap = _bits(raw["pile"])[0]
        raw["pile"] = raw["pile"] & ~(1 << swap) | (1 << in_blue)
        hand = raw["players"][BLUE]["hand"]
        raw["players"][BLUE]["hand"] = hand & ~(1 << in_blue) | (1 << swap)
        truth.set_raw(raw)
    truth.apply_action(ACTION_NAMES.index(f"chance: card {CARDS[in_blue]}"))
    assert state_to_position(view, RED) == state_to_position(truth, RED)


def test_an_opponents_hidden_keep_is_not_offered_under_card_names():
    full = _first(2, _keep)
    mover = full.raw()["turn_player"]
    viewer = 1 - mover
    view = _view(full, viewer)
    names = [n for n, _ in options(view, viewer)]
    assert not [n for n in names if n.startswith("keep ") and not n.startswith("keep coat")]
    with pytest.raises(DecisionError, match=f"cannot see which card {SEATS[mover]} keeps"):
        apply_decision(view.clone(), f"keep {CARDS[view.raw()['looked_cards'][0]]}", viewer)
    # said by the discards, as the terminal and the web say it
    raw = full.raw()
    looked = raw["looked_cards"][:raw["n_looked_cards"]]
    keep = ACTION_NAMES.index(f"keep {CARDS[looked[0]]}")
    words = decision_words(full, keep, viewer)
    assert words.startswith("kept one, discarded ") and CARDS[looked[0]] not in words
    apply_decision(view, words, viewer)
    full.apply_action(keep)
    assert state_to_position(view, viewer) == state_to_position(full, viewer)


def test_a_colour_the_bag_no_longer_holds_cannot_be_drawn():
    full = _first(2, lambda s: s.is_chance_node()
                  and ACTION_NAMES[s.legal_actions()[0]].startswith("chance: tile"))
    raw = full.raw()
    gray = COLOURS.index("gray")
    raw["players"][RED]["supply"][gray] += raw["bag"][gray]
    raw["bag"][gray] = 0
    full.set_raw(raw)
    view = _view(full, BLUE)
    with pytest.raises(DecisionError, match="'drew gray' cannot happen here"):
        apply_decision(view, "drew gray", BLUE)


@pytest.mark.parametrize("players, seed", [(2, 21), (3, 22), (4, 23)])
def test_ulm_apply_and_the_web_follow_agree(players, seed, tmp_path):
    """The same view, the same words: `ulm apply` (the view re-read from its file at
    every step, so its hidden part is dealt anew) and the web's Follow mode give the same
    view, offer the same options and refuse the same impossible draws with the same reason."""
    from starlette.testclient import TestClient

    from cli.web.app import create_app
    viewer, rng = BLUE, random.Random(seed)
    real = ulm.Game(players=players).new_game(seed)
    for _ in range(3 * players):                    # into the first round
        real.apply_action(real.sample_chance_outcome() if real.is_chance_node()
                          else rng.choice(real.legal_actions()))
    path = tmp_path / "view.json"
    path.write_text(dumps(state_to_position(real, viewer)))
    refused = 0
    with TestClient(create_app(max_seconds=5)) as c:
        gid = c.post("/api/games", json={"mode": "follow", "view": json.loads(path.read_text())}
                     ).json()["id"]
        for step in range(150):
            if real.is_terminal():
                break
            view, _ = position_to_state(json.loads(path.read_text()))
            g = c.get(f"/api/games/{gid}").json()
            mover = real.current_player()
            web = sorted(o["name"].removeprefix(f"{SEATS[mover]}: ") for o in g["options"])
            assert web == sorted(w for w, _ in options(view, viewer)), step
            known = [c for c in range(len(CARDS)) if not real.hidden_cards(viewer) >> c & 1]
            if not real.is_chance_node() and mover != viewer and known and refused < 3:
                # an opponent plays a card Blue knows is elsewhere
                text = f"play {CARDS[known[refused % len(known)]]} (upper)"
                res = CliRunner().invoke(main, ["apply", str(path), text])
                r = c.post(f"/api/games/{gid}/decide", json={"text": text})
                assert res.exit_code == 2 and r.status_code == 400, (text, res.output)
                # the web quotes at most so much of a message (cli.web.checks.capped)
                reason = r.json()["error"].removeprefix("text: ").removesuffix("…")
                assert reason in res.stderr, (reason, res.stderr)
                assert f"illegal here: {CARDS[known[refused % len(known)]]} " in reason, reason
                refused += 1
            a = (real.sample_chance_outcome() if real.is_chance_node()
                 else rng.choice(real.legal_actions()))
            words = decision_words(real, a, viewer)
            real.apply_action(a)
            res = CliRunner().invoke(main, ["apply", str(path), words, "-o", str(path),
                                            "--quiet"])
            assert res.exit_code == 0, (step, words, res.output)
            r = c.post(f"/api/games/{gid}/decide", json={"text": words})
            assert r.status_code == 200, (step, words, r.text)
            expected = state_to_position(real, viewer)
            assert json.loads(path.read_text()) == expected, (step, words)
            assert c.get(f"/api/games/{gid}/download").json() == expected, (step, words)
    assert refused


def test_a_coat_the_viewer_knows_elsewhere_cannot_be_kept():
    def opponents_coat_choice(state):
        stack = state.task_stack()
        raw = state.raw()
        return (not state.is_chance_node() and stack and TASKS[stack[-1][0]] == "coat choice"
                and raw["turn_player"] != RED and max(raw["coat_owner"]) >= 0)
    full = _first(2, opponents_coat_choice)
    raw = full.raw()
    owned = next(c for c in range(len(ulm.COATS)) if raw["coat_owner"][c] >= 0)
    view = _view(full, RED)
    name = ulm.COATS[owned]
    owner = SEATS[raw["coat_owner"][owned]]
    with pytest.raises(DecisionError, match=f"{name} belongs to {owner}"):
        apply_decision(view, f"keep coat {name}", RED)
    # a coat Red has not seen may be kept, whatever this deal says Blue drew
    unseen = [c for c in range(len(ulm.COATS)) if raw["coat_unknown"] >> c & 1]
    if unseen:
        apply_decision(view, f"keep coat {ulm.COATS[unseen[0]]}", RED)
        assert ulm.COATS[unseen[0]] in state_to_position(view, RED)["players"][BLUE]["coats"]
