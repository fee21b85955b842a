"""Actions as data (ulm.action_fields, State.action_fields, ulm.action_id): every action
id has a kind and fields from the core's one action table, the position adds where a
barge lands (by the core's own movement rule), and the picture, the follow logic and
the words read these fields, never the names."""
import math
import random

import pytest

import mcts
import ulm
from cli.web.checks import label
from ulm import (ACTION_KINDS, ACTION_NAMES, CARDS, COATS, COLOURS, DESCENDANTS, QUARTERS,
                 TOWER_TILES, action_fields, action_id)
from ulm import _fastcore as core
from ulm._fastcore import SIDES
from ulm import decisions, follow, picture
from ulm.decisions import chance_name, decision_label, decision_words
from ulm.follow import IllegalHere, apply_decision, decision_names, fit
from ulm.picture import action_target

from helpers import edit, fresh, set_barges

ENTRIES = core.PUSH_ENTRIES


def _paid(f):
    if "coins" in f:
        return f"{f['coins']} coin{'s' if f['coins'] > 1 else ''}"
    return "+".join(f["pay"])


# the engine's name of an action of each kind, spelt from its fields (the oracle of the
# round trip: written out here, not taken from the core's own spelling)
SPELLING = {
    "end_turn": lambda f: "end turn", "draw": lambda f: "draw",
    "push": lambda f: "push " + ENTRIES[f["entry"]],
    "joker": lambda f: f"joker: take {f['colour']} from the docks",
    "scholar": lambda f: f"scholar: push {f['colour']} from supply",
    "money": lambda f: "money", "clear": lambda f: "clear " + f["side"],
    "buy_card": lambda f: "buy card paying " + _paid(f),
    "river_step": lambda f: "river step",
    "seal": lambda f: f"seal in {f['quarter']}" + (f" with {f['card']}" if "card" in f else ""),
    "merchant": lambda f: f"merchant: give {f['give']}, take {f['take']}",
    "take_pushed_out": lambda f: "take the pushed-out tile",
    "play": lambda f: f"play {f['card']} ({f['row']})",
    "pick_colour": lambda f: "pick " + f["colour"],
    "take_dock_tile": lambda f: f"take {f['colour']} from the docks",
    "take_coin": lambda f: "take a coin", "keep_card": lambda f: "keep " + f["card"],
    "take_discard": lambda f: f"take {f['card']} from the discard pile",
    "look_at_top": lambda f: f"look at the top {f['count']} cards",
    "move_barge": lambda f: f"move barge {f['spaces']}",
    "keep_coat": lambda f: "keep coat " + f["coat"],
    "return_coat": lambda f: "put the coat back",
    "take_descendant": lambda f: "take " + f["descendant"],
    "chronicle_seal": lambda f: "chronicle seal in " + f["quarter"],
    "amount": lambda f: f"amount {f['amount']}", "freeze": lambda f: "freeze: 2 " + f["gain"],
    "take_outer_tile": lambda f: f"take outer tile {f['outer']}", "stop": lambda f: "stop",
    "tower_payment": lambda f: (f"tower: lose {f['vp']} VP" if "vp" in f
                                else f"tower: pay {_paid(f)}" if "coins" in f
                                else f"tower: give {_paid(f)}"),
    "draw_two": lambda f: "draw 2 (Builder)", "take_top_card": lambda f: "take the top card",
    "no_dock_tile": lambda f: "take no dock tile",
    "chance_tile": lambda f: "chance: tile " + f["colour"],
    "chance_card": lambda f: "chance: card " + f["card"],
    "chance_coat": lambda f: "chance: coat " + f["coat"],
    "chance_descendant": lambda f: "chance: descendant " + f["descendant"],
    "chance_tower": lambda f: "chance: tower " + f["tile"],
}
# every field a kind may have, and the values it may take
VALUES = {"entry": range(12), "outer": range(12), "colour": COLOURS, "give": COLOURS,
          "take": COLOURS, "side": SIDES, "quarter": QUARTERS, "card": CARDS, "coat": COATS,
          "descendant": DESCENDANTS, "tile": TOWER_TILES, "row": ("upper", "lower"),
          "spaces": range(5), "amount": range(6), "count": (2, 3), "gain": ("coins", "tiles"),
          "coins": (1, 2), "vp": (5,)}


@pytest.mark.parametrize("action", range(len(ACTION_NAMES)))
def test_every_action_has_fields_that_spell_its_name_and_lead_back_to_it(action):
    fields = action_fields(action)
    kind = fields.pop("kind")
    assert kind in ACTION_KINDS
    for key, value in fields.items():
        if key == "pay":
            assert value and all(c in COLOURS for c in value)
        else:
            assert value in VALUES[key], (key, value)
    assert SPELLING[kind](fields) == ACTION_NAMES[action]
    assert action_id(kind, **fields) == action


def test_every_kind_is_spelt_and_used():
    assert set(ACTION_KINDS) == set(SPELLING)
    assert {action_fields(a)["kind"] for a in range(len(ACTION_NAMES))} == set(ACTION_KINDS)
    assert len(ACTION_NAMES) == core.ACTION_COUNT
    assert all(action_fields(a)["kind"].startswith("chance_") == (a >= core.DECISION_COUNT)
               for a in range(len(ACTION_NAMES)))


def test_fields_are_a_copy():
    fields = action_fields(ACTION_NAMES.index("push row 2 from left"))
    assert fields == {"kind": "push", "entry": 1}
    fields["entry"] = 7
    assert action_fields(ACTION_NAMES.index("push row 2 from left"))["entry"] == 1


BAD_ACTIONS = [("wrong type", "3"), ("float", 3.0), ("bool", True), ("none", None),
               ("huge", 10 ** 30), ("negative", -1), ("past the end", len(ACTION_NAMES)),
               ("nan", math.nan), ("empty", ""), ("list", [3])]


@pytest.mark.parametrize("case, action", BAD_ACTIONS, ids=[c for c, _ in BAD_ACTIONS])
def test_a_bad_action_id_is_refused_naming_it(case, action):
    state = fresh(players=2)
    for ask in (action_fields, state.action_fields):
        with pytest.raises(ValueError, match=r"^action: must be an action id 0\.\.382"):
            ask(action)


BAD_LOOKUPS = [("unknown kind", ("castle",), {}, "kind: no action kind 'castle'"),
               ("empty kind", ("",), {}, "kind: no action kind ''"),
               ("kind not a string", (3,), {}, "kind: no action kind 3"),
               ("truncated", ("push",), {}, "no push action with {}"),
               ("out of range", ("push",), {"entry": 99}, "no push action"),
               ("negative", ("take_outer_tile",), {"outer": -1}, "no take_outer_tile action"),
               ("nan", ("amount",), {"amount": math.nan}, "no amount action"),
               ("foreign field", ("push",), {"entry": 1, "colour": "gray"}, "no push action"),
               ("wrong type", ("push",), {"entry": "1"}, "no push action"),
               ("unhashable", ("seal",), {"quarter": {"Garden": 1}}, "no seal action"),
               ("huge", ("amount",), {"amount": 10 ** 40}, "no amount action")]


@pytest.mark.parametrize("case, args, fields, message", BAD_LOOKUPS,
                         ids=[c for c, *_ in BAD_LOOKUPS])
def test_a_lookup_of_no_action_is_refused(case, args, fields, message):
    with pytest.raises(ValueError, match="^" + message.replace("{", r"\{").replace("}", r"\}")
                       .replace("(", r"\(")):
        action_id(*args, **fields)


def test_a_lookup_takes_a_list_for_a_payment_and_ignores_what_the_position_adds():
    pair = action_id("buy_card", pay=["gray", "white"])
    assert ACTION_NAMES[pair] == "buy card paying gray+white"
    state = fresh(players=3, seed=4)
    for action in range(len(ACTION_NAMES)):
        assert action_id(**state.action_fields(action)) == action


# --- what the position adds -------------------------------------------------------------------

def _random_states(players, seed, every=1, limit=2000):
    """The states of a random game with the advanced rules (tower tiles move barges too)."""
    rng = random.Random(seed)
    state = ulm.Game(players=players, variant="advanced").new_initial_state()
    for _ in range(limit):
        if state.is_terminal():
            return
        if rng.randrange(every) == 0:
            yield state
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_river_target_is_where_the_barge_lands(players):
    moved = jumped = 0
    for seed in range(4):
        for state in _random_states(players, seed):
            if state.is_chance_node():
                continue
            for action in state.legal_actions():
                fields = state.action_fields(action)
                if fields["kind"] not in ("river_step", "move_barge"):
                    continue
                mover = state.current_player()
                assert fields["by"] == mover
                assert fields["river_from"] == state.raw()["players"][mover]["barge"]
                after = state.clone()
                after.apply_action(action)
                landed = after.raw()["players"][mover]["barge"]
                steps = fields.get("spaces", 1)
                if fields["river_to"] is None:
                    assert steps > 0 and landed == fields["river_from"]
                    continue
                assert landed == fields["river_to"]
                moved += 1
                jumped += landed - fields["river_from"] > steps   # over another barge
    assert moved > 20 and jumped > 0, (moved, jumped)


def test_a_barge_jumps_the_others_and_stops_at_the_end_of_the_river():
    state = fresh(players=4)
    set_barges(state, 2, 3, 4, 6)
    step, two = ACTION_NAMES.index("river step"), ACTION_NAMES.index("move barge 2")
    assert state.action_fields(step)["river_to"] == 5
    assert state.action_fields(two)["river_to"] == 7
    assert action_target(state, two) == {"kind": "river-space", "value": 7}
    set_barges(state, 20, 21)
    assert state.action_fields(step)["river_to"] is None
    assert state.action_fields(ACTION_NAMES.index("move barge 0"))["river_to"] == 20
    assert action_target(state, step) is None


def test_the_position_adds_the_pushed_out_tile_and_the_set_up_tiles():
    state = fresh(players=2)
    take = ACTION_NAMES.index("take the pushed-out tile")
    assert state.action_fields(take)["outer"] is None
    edit(state, pushed_out_at=7)
    assert state.action_fields(take) == {"kind": "take_pushed_out", "by": 0, "outer": 7}
    setup = ulm.Game(players=2).new_initial_state()
    white = ACTION_NAMES.index("chance: tile white")
    assert setup.action_fields(white) == {"kind": "chance_tile", "colour": "white", "by": None,
                                          "cell": 0}
    while "seat" not in setup.action_fields(white):     # the grid is filled: the seats' tiles
        setup.apply_action(setup.sample_chance_outcome())
    seat = setup.task_stack()[-1][1]
    assert action_target(setup, white) == {"kind": "supply", "value": "white",
                                           "seat": ulm.SEATS[seat]}


# --- the presentation reads fields, not names -----------------------------------------------

FOREIGN = tuple(f"action #{a}" for a in range(len(ACTION_NAMES)))


@pytest.fixture
def foreign_names(monkeypatch):
    """Every module that holds the names table gets one in another language: what is
    read from fields is unchanged, what is read from names is not."""
    def swap():
        for module in (core, decisions, follow, picture):
            monkeypatch.setattr(module, "ACTION_NAMES", FOREIGN, raising=False)
    return swap


def _sample(players, seed, every):
    return [s.clone() for s in _random_states(players, seed, every=every, limit=600)]


def test_the_pictures_targets_do_not_depend_on_the_names(foreign_names):
    states = [s for players in (2, 3, 4) for s in _sample(players, players, every=9)]
    before = [[action_target(s, a) for a in range(len(ACTION_NAMES))] for s in states]
    assert sum(t is not None for row in before for t in row) > 1000
    foreign_names()
    after = [[action_target(s, a) for a in range(len(ACTION_NAMES))] for s in states]
    assert after == before


def _followed(states):
    """What may come next for each viewer: the action ids of each entry."""
    return [[ids for _, ids in decision_names(s, viewer)]
            for s in states for viewer in range(s.num_players())]


def test_what_a_follower_may_see_next_does_not_depend_on_the_names(foreign_names):
    states = _sample(3, 11, every=12) + _sample(2, 5, every=12)
    before = _followed(states)
    legal = sum(len(s.legal_actions()) for s in states for _ in range(s.num_players()))
    assert sum(len(ids) for row in before for ids in row) > legal   # unseen cards, draws
    foreign_names()
    assert _followed(states) == before


def _said(states):
    """The words of each chance outcome, card played and opponent's card kept, for each
    viewer (the mover's own keep is said by the engine's name)."""
    out = []
    for s in states:
        legal = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
        for viewer in range(s.num_players()):
            kinds = ("play", "keep_card") if viewer != s.current_player() else ("play",)
            out.append([decision_words(s, a, viewer) for a in legal
                        if s.is_chance_node() or action_fields(a)["kind"] in kinds])
    return out


def test_the_words_of_draws_keeps_and_cards_do_not_depend_on_the_names(foreign_names):
    states = [s for players, seed in ((2, 3), (4, 8), (3, 1)) for s in _sample(players, seed, 1)
              if s.is_chance_node() or "keep_card" in
              {action_fields(a)["kind"] for a in s.legal_actions()}]
    before = _said(states)
    assert any(w.startswith("kept one, discarded") for row in before for w in row)
    assert any(w.startswith("drew ") for row in before for w in row)
    foreign_names()
    assert _said(states) == before
    lower = action_id("play", card="Siege", row="lower")
    assert decision_label(lower) == "lay Siege in front (end-game points)"


def test_a_follower_applies_an_unseen_card_played_with_foreign_names(foreign_names):
    """An opponent plays a card the viewer has not seen: the world is changed to one
    where the opponent holds it, from the action's fields."""
    play = None
    for state in _random_states(2, 21, limit=3000):
        if state.is_chance_node() or state.current_player() != 1:
            continue
        plays = [action_id("play", card=c, row="upper") for c in CARDS]
        play = next((a for a in plays if a not in state.legal_actions()
                     and follow._fits(state, a, 0)), None)
        if play is not None:
            break
    assert play is not None
    foreign_names()
    world = state.clone()
    assert apply_decision(world, play, viewer=0) == play


def test_an_illegal_decision_is_refused_by_its_kind_of_refusal():
    state = fresh(players=2)
    money = ACTION_NAMES.index("money")
    with pytest.raises(IllegalHere, match="'money' is illegal here"):
        fit(state.clone(), money, viewer=0)
    raw = state.raw()
    siege = 1 << CARDS.index("Siege")
    raw["pile"] &= ~siege                       # Red holds Siege, Blue is to move
    raw["players"][0]["hand"] |= siege
    raw["turn_player"] = 1
    state.set_raw(raw)
    own = "Siege"
    with pytest.raises(decisions.DecisionError, match=f"{own} is in Red's own hand") as refused:
        fit(state.clone(), action_id("play", card=own, row="upper"), viewer=0)
    assert not isinstance(refused.value, IllegalHere)   # the reason is said
    assert chance_name(ulm.Game(players=2).new_initial_state(),
                       ACTION_NAMES.index("chance: tile gray")) == "drew gray"
    with pytest.raises(ValueError, match="^action: 'money' is not a chance outcome"):
        chance_name(state, money)


def test_the_webs_words_are_the_searchs_words(monkeypatch):
    """The web says a decision exactly as mcts.action_name does (one place for the words)."""
    monkeypatch.setattr(mcts, "action_name", lambda a: f"said {a}")
    assert label(5) == "said 5" and label(383) == "said 383"
    monkeypatch.undo()
    assert label(383) == "keep a card (hidden)"
    assert label(ACTION_NAMES.index("play Siege (lower)")) == decision_label(
        ACTION_NAMES.index("play Siege (lower)")) == "lay Siege in front (end-game points)"
