"""Rule tests for RULES.md section 5 (cards in play) and section 9 (the 33 cards)."""
from __future__ import annotations

import json
import os

import pytest

import ulm
from helpers import *  # noqa: F401,F403
from helpers import (ACTIONS, BEFORE_DRAW, PUSH, CARDS, COLOURS, QUARTERS, cards_mask,
                     chance, do, edit, edit_player, fresh, give_descendant, legal,
                     mask_cards, player, set_barges, set_grid, set_outer, set_tower,
                     to_actions)

BOARD = json.load(open(os.path.join(os.path.dirname(ulm.__file__), "data", "board.json")))
CATHEDRAL_COLOURS = BOARD["cathedral cards"]          # card name -> [colour, colour]
TRADE_COSTS = BOARD["trade card costs"]               # copy I..V -> colour
ROMAN = ("I", "II", "III", "IV", "V")


# ---------------------------------------------------------------------------
# Helpers local to this file


def give(state, p, hand=(), front=(), discard=None, pile=None):
    """Put cards into p's hand / in front of p, taking them out of the pile, the
    discard pile and other players (so the 33 cards stay conserved). `discard` /
    `pile`, if given, set those piles exactly (their cards are taken out of the pile)."""
    moved = cards_mask(*hand) | cards_mask(*front)
    r = state.raw()
    if discard is not None:
        moved_d = cards_mask(*discard)
        r["pile"] &= ~moved_d
        r["discard"] = moved_d
    if pile is not None:
        r["pile"] = cards_mask(*pile)
    r["pile"] &= ~moved
    r["discard"] &= ~moved
    for q in r["players"]:
        q["hand"] &= ~moved
        q["front"] &= ~moved
    state.set_raw(r)
    pl = player(state, p)
    edit_player(state, p, hand=pl["hand"] | cards_mask(*hand),
                front=pl["front"] | cards_mask(*front))
    return state


def park_cards(state, keep_pile=(), keep_discard=()):
    """Pile := keep_pile, discard := keep_discard; every other card not in a hand or in
    front of a player is put in front of the last seat (out of the way)."""
    r = state.raw()
    held = 0
    for q in r["players"]:
        held |= q["hand"] | q["front"]
    pile, disc = cards_mask(*keep_pile), cards_mask(*keep_discard)
    rest = ((1 << len(CARDS)) - 1) & ~held & ~pile & ~disc
    r["pile"], r["discard"] = pile, disc
    r["players"][-1]["front"] |= rest
    state.set_raw(r)
    return state


def check_cards(state):
    """The 33 cards are each in exactly one place (R-COMP-2)."""
    r = state.raw()
    places = [r["pile"], r["discard"]]
    for q in r["players"]:
        places += [q["hand"], q["front"]]
    looked = 0
    for c in r["looked_cards"][: r["n_looked_cards"]]:
        looked |= 1 << c
    places.append(looked)
    seen = 0
    for m in places:
        assert not (seen & m), "a card in two places"
        seen |= m
    assert seen == (1 << len(CARDS)) - 1, "33 cards conserved"


def start_actions(state, a, b, c, filler="white"):
    """From the start of the turn: make the pushed row 1 hold colours a, b, c (a is the
    drawn tile pushed in from the left); `filler` is pushed out onto outer space 3."""
    raw = state.raw()
    set_grid(state, f"{b} {c} {filler} / gray white turquoise / white turquoise gray")
    bag = list(raw["bag"])
    if bag[COLOURS.index(a)] == 0:
        bag[COLOURS.index(a)] = 1
        edit(state, bag=bag)
    do(state, "draw")
    chance(state, f"tile {a}")
    do(state, "push row 1 from left")
    assert state.raw()["phase"] == ACTIONS
    return state


def plays(state):
    """The card plays among the legal decisions."""
    return [n for n in legal(state) if n.startswith("play ")]


def bd(state, p):
    return state.score_breakdown(p)


def score(state, p):
    return player(state, p)["score"]


def end_turn(state):
    do(state, "end turn")


# ---------------------------------------------------------------------------
# Section 5: R-CARD-GET-1


def test_buy_card_goes_to_hand_face_down_R_CARD_GET_1():
    """R-CARD-GET-1: the card action (buy) returns 2 tiles to the bag and the top card of
    the pile goes to the buyer's hand (not to the discard pile or in front)."""
    s = fresh(2)
    edit_player(s, 0, supply={"gray": 1, "orange": 1})
    start_actions(s, "brown", "white", "turquoise")
    bag_before = s.raw()["bag"]
    assert "buy card paying gray+orange" in legal(s)
    do(s, "buy card paying gray+orange")
    assert s.is_chance_node()
    outcomes = [ulm.ACTION_NAMES[a] for a, _ in s.chance_outcomes()]
    assert len(outcomes) == 33  # any card of the pile
    chance(s, "card Siege")
    r = s.raw()
    assert mask_cards(r["players"][0]["hand"]) == ["Siege"]
    assert r["players"][0]["front"] == 0 and r["discard"] == 0
    assert not r["pile"] >> CARDS.index("Siege") & 1
    assert r["players"][0]["supply"] == [0, 0, 0, 0, 0]
    assert r["bag"][COLOURS.index("gray")] == bag_before[COLOURS.index("gray")] + 1
    assert r["bag"][COLOURS.index("orange")] == bag_before[COLOURS.index("orange")] + 1
    check_cards(s)


def test_buy_with_same_colours_looks_at_two_R_CARD_GET_1():
    """R-CARD-GET-1 (with R-ACT-CARD-1): two tiles of one colour: look at 2, keep 1 in the
    hand, the other goes face up to the discard pile."""
    s = fresh(2)
    edit_player(s, 0, supply={"white": 2})
    start_actions(s, "brown", "gray", "turquoise")
    do(s, "buy card paying white+white", "look at the top 2 cards")
    chance(s, "card Patrician", "card Nave II")
    assert sorted(legal(s)) == ["keep Nave II", "keep Patrician"]
    do(s, "keep Nave II")
    r = s.raw()
    assert mask_cards(r["players"][0]["hand"]) == ["Nave II"]
    assert mask_cards(r["discard"]) == ["Patrician"]
    check_cards(s)


def test_town_hall_privilege_draws_a_card_R_CARD_GET_1():
    """R-CARD-GET-1 (with R-PRIV-TOWNHALL): a seal in the Town Hall draws 1 card into the hand."""
    s = fresh(2)
    set_barges(s, 12, 0)  # beside Town Hall (north) / Shipyard (south)
    start_actions(s, "orange", "gray", "white")
    do(s, "seal in Town Hall")
    assert s.is_chance_node()
    chance(s, "card Reformation")
    assert mask_cards(player(s, 0)["hand"]) == ["Reformation"]
    assert "take a coin" in legal(s)
    check_cards(s)


def test_shipyard_gives_an_extra_card_action_R_CARD_GET_1():
    """R-CARD-GET-1 (with R-PRIV-SHIPYARD): the Shipyard's extra card action can buy a card
    although no brown tile was activated."""
    s = fresh(2)
    set_barges(s, 12, 0)
    edit_player(s, 0, supply={"gray": 1, "white": 1})
    start_actions(s, "orange", "gray", "white")
    assert not any(n.startswith("buy card") for n in legal(s))
    do(s, "seal in Shipyard")
    do(s, "take gray from the docks")
    chance(s, "tile gray")  # dock refill
    assert "buy card paying gray+white" in legal(s)
    do(s, "buy card paying gray+white")
    chance(s, "card Ulm Sparrow")
    assert mask_cards(player(s, 0)["hand"]) == ["Ulm Sparrow"]
    check_cards(s)


def test_goose_tower_take_from_discard_or_look_at_three_R_CARD_GET_1():
    """R-CARD-GET-1 (with R-PRIV-GOOSE): the Goose Tower takes a card of choice from the
    discard pile, or looks at the top 3 and keeps 1 (2 go face up to the discard pile)."""
    s = fresh(2)
    set_barges(s, 18, 0)
    give(s, 0, discard=["Siege", "Choir I"])
    start_actions(s, "orange", "gray", "white")
    do(s, "seal in Goose Tower")
    assert sorted(legal(s)) == sorted(["take Siege from the discard pile",
                                       "take Choir I from the discard pile",
                                       "look at the top 3 cards"])
    t = s.clone()
    do(t, "take Choir I from the discard pile")
    assert mask_cards(player(t, 0)["hand"]) == ["Choir I"]
    assert mask_cards(t.raw()["discard"]) == ["Siege"]
    check_cards(t)
    do(s, "look at the top 3 cards")
    chance(s, "card Fustian I", "card Fustian II", "card City Wall")
    assert sorted(legal(s)) == sorted(["keep Fustian I", "keep Fustian II", "keep City Wall"])
    do(s, "keep City Wall")
    assert mask_cards(player(s, 0)["hand"]) == ["City Wall"]
    assert sorted(mask_cards(s.raw()["discard"])) == sorted(
        ["Siege", "Choir I", "Fustian I", "Fustian II"])
    check_cards(s)


def test_river_plus_11_draws_the_top_card_R_CARD_GET_1():
    """R-CARD-GET-1 (with R-BOARD-2): reaching river space +11 (index 21) draws a card."""
    s = fresh(2)
    set_barges(s, 20, 0)
    start_actions(s, "turquoise", "gray", "white")
    do(s, "river step")
    assert player(s, 0)["barge"] == 21
    assert s.is_chance_node()
    chance(s, "card Swabian League")
    assert mask_cards(player(s, 0)["hand"]) == ["Swabian League"]
    check_cards(s)


# ---------------------------------------------------------------------------
# R-CARD-GET-2


def test_empty_pile_reshuffles_discard_R_CARD_GET_2():
    """R-CARD-GET-2: an empty draw pile is replaced by the shuffled discard pile when a
    card must be drawn."""
    s = fresh(2)
    park_cards(s, keep_pile=(), keep_discard=("Siege", "Patrician"))
    edit_player(s, 0, supply={"gray": 1, "white": 1})
    start_actions(s, "brown", "gray", "turquoise")
    assert "buy card paying gray+white" in legal(s)
    do(s, "buy card paying gray+white")
    assert s.is_chance_node()
    outs = {ulm.ACTION_NAMES[a]: pr for a, pr in s.chance_outcomes()}
    assert outs == {"chance: card Patrician": 0.5, "chance: card Siege": 0.5}
    chance(s, "card Siege")
    r = s.raw()
    assert mask_cards(r["players"][0]["hand"]) == ["Siege"]
    assert mask_cards(r["pile"]) == ["Patrician"]
    assert r["discard"] == 0
    check_cards(s)


def test_reshuffle_in_the_middle_of_a_look_at_two_R_CARD_GET_2():
    """R-CARD-GET-2: buying with two tiles of one colour with 1 card left in the pile: the
    second card comes from the reshuffled discard pile."""
    s = fresh(2)
    park_cards(s, keep_pile=("Nave I",), keep_discard=("Choir II", "Fustian III"))
    edit_player(s, 0, supply={"gray": 2})
    start_actions(s, "brown", "white", "turquoise")
    do(s, "buy card paying gray+gray", "look at the top 2 cards")
    assert [ulm.ACTION_NAMES[a] for a, _ in s.chance_outcomes()] == ["chance: card Nave I"]
    chance(s, "card Nave I")
    outs = sorted(ulm.ACTION_NAMES[a] for a, _ in s.chance_outcomes())
    assert outs == ["chance: card Choir II", "chance: card Fustian III"]
    chance(s, "card Fustian III")
    do(s, "keep Nave I")
    r = s.raw()
    assert mask_cards(r["players"][0]["hand"]) == ["Nave I"]
    assert sorted(mask_cards(r["discard"])) == ["Fustian III"]
    assert mask_cards(r["pile"]) == ["Choir II"]
    check_cards(s)


def test_no_card_when_pile_and_discard_are_empty_R_CARD_GET_2():
    """R-CARD-GET-2: with both the pile and the discard pile empty, no card is drawn: the
    Town Hall privilege gives no card (just its coin/tile choice), river +11 gives nothing,
    and buying is not offered."""
    s = fresh(2)
    park_cards(s)
    set_barges(s, 12, 0)
    edit_player(s, 0, supply={"gray": 1, "white": 1})
    start_actions(s, "orange", "brown", "white")
    assert not any(n.startswith("buy card") for n in legal(s))
    do(s, "seal in Town Hall")
    assert not s.is_chance_node()
    assert "take a coin" in legal(s)
    coins = player(s, 0)["coins"]
    do(s, "take a coin")
    assert player(s, 0)["coins"] == coins + 1
    assert player(s, 0)["hand"] == 0
    check_cards(s)

    t = fresh(2)
    park_cards(t)
    set_barges(t, 20, 0)
    start_actions(t, "turquoise", "gray", "white")
    do(t, "river step")
    assert player(t, 0)["barge"] == 21
    assert not t.is_chance_node()
    assert player(t, 0)["hand"] == 0
    assert "end turn" in legal(t)
    check_cards(t)


# ---------------------------------------------------------------------------
# R-CARD-PLAY-1


def test_upper_goes_to_discard_and_pays_cost_R_CARD_PLAY_1():
    """R-CARD-PLAY-1: played for its upper bonus, a card goes face up to the discard pile
    and its cost is paid (a trade card's tile goes back to the bag)."""
    s = fresh(2)
    give(s, 0, hand=["Commercial Goods II"])
    edit_player(s, 0, supply={"brown": 1})
    start_actions(s, "gray", "white", "turquoise")
    bag = s.raw()["bag"][COLOURS.index("brown")]
    do(s, "play Commercial Goods II (upper)")
    r = s.raw()
    assert mask_cards(r["discard"]) == ["Commercial Goods II"]
    assert r["players"][0]["hand"] == 0 and r["players"][0]["front"] == 0
    assert r["players"][0]["supply"][COLOURS.index("brown")] == 0
    assert r["bag"][COLOURS.index("brown")] == bag + 1
    check_cards(s)


def test_lower_goes_in_front_at_no_cost_R_CARD_PLAY_1():
    """R-CARD-PLAY-1: played for its lower bonus, a card goes face up in front of the player
    at no cost, also when its upper cost could not be paid."""
    s = fresh(2)
    give(s, 0, hand=["Steeple I", "Fustian V"])
    edit_player(s, 0, supply={"orange": 1})   # neither gray nor white
    start_actions(s, "gray", "white", "turquoise")
    names = plays(s)
    assert "play Steeple I (upper)" not in names
    assert "play Fustian V (upper)" not in names        # costs gray
    assert "play Steeple I (lower)" in names and "play Fustian V (lower)" in names
    before = player(s, 0)
    do(s, "play Steeple I (lower)")
    after = player(s, 0)
    assert mask_cards(after["front"]) == ["Steeple I"]
    assert mask_cards(after["hand"]) == ["Fustian V"]
    assert after["supply"] == before["supply"] and after["coins"] == before["coins"]
    assert after["score"] == before["score"]
    assert s.raw()["discard"] == 0
    assert bd(s, 0)["cathedral cards"] == 3
    check_cards(s)


# ---------------------------------------------------------------------------
# R-CARD-PLAY-2


def test_one_free_card_play_per_turn_R_CARD_PLAY_2():
    """R-CARD-PLAY-2: without a card action, only one card may be played in a turn."""
    s = fresh(2)
    give(s, 0, hand=["Siege", "Reformation", "Construction Freeze"])
    start_actions(s, "gray", "white", "turquoise")
    assert len(plays(s)) > 0
    do(s, "play Siege (lower)")
    assert plays(s) == []
    assert mask_cards(player(s, 0)["hand"]) == ["Construction Freeze", "Reformation"]


def test_free_play_before_the_draw_R_CARD_PLAY_2():
    """R-CARD-PLAY-2 (with R-TURN-1): the free play may be made before the draw; it is then
    used up for the turn."""
    s = fresh(2)
    give(s, 0, hand=["Siege", "Reformation"])
    set_grid(s, "white gray orange / turquoise white turquoise / gray orange gray")
    assert s.raw()["phase"] == BEFORE_DRAW
    assert "play Siege (lower)" in legal(s) and "play Reformation (lower)" in legal(s)
    do(s, "play Siege (lower)")
    assert s.raw()["phase"] == BEFORE_DRAW
    assert plays(s) == []
    do(s, "draw")
    chance(s, "tile gray")
    assert plays(s) == []
    do(s, "push row 1 from left")
    assert plays(s) == []
    assert mask_cards(player(s, 0)["front"]) == ["Siege"]


def test_free_play_between_draw_and_push_R_CARD_PLAY_2():
    """R-CARD-PLAY-2 (with R-TURN-1): the free play may also be made after the draw,
    before the push."""
    s = fresh(2)
    give(s, 0, hand=["Siege"])
    do(s, "draw")
    chance(s, "tile gray")
    assert s.raw()["phase"] == PUSH
    assert "play Siege (lower)" in legal(s)
    do(s, "play Siege (lower)")
    assert mask_cards(player(s, 0)["front"]) == ["Siege"]


def test_card_action_option_b_allows_one_more_play_R_CARD_PLAY_2():
    """R-CARD-PLAY-2 (with R-ACT-CARD-2): each card action used as option b allows one more
    card play; it uses up that card action (no buy with it any more)."""
    s = fresh(2)
    give(s, 0, hand=["Siege", "Reformation", "Construction Freeze"])
    edit_player(s, 0, supply={"gray": 1, "white": 1})
    start_actions(s, "brown", "white", "turquoise")
    do(s, "play Siege (lower)")                   # the free play
    assert "buy card paying gray+white" in legal(s)
    assert "play Reformation (lower)" in legal(s)   # option b
    do(s, "play Reformation (lower)")
    assert plays(s) == []
    assert not any(n.startswith("buy card") for n in legal(s))
    assert mask_cards(player(s, 0)["front"]) == ["Reformation", "Siege"]


def test_two_card_actions_allow_three_plays_R_CARD_PLAY_2():
    """R-CARD-PLAY-2: with two activated brown tiles, 1 free + 2 option-b plays = 3 plays."""
    s = fresh(2)
    give(s, 0, hand=["Siege", "Reformation", "Construction Freeze", "Patrician"])
    start_actions(s, "brown", "brown", "turquoise")
    do(s, "play Siege (lower)")
    do(s, "play Reformation (lower)")
    assert plays(s) != []
    do(s, "play Construction Freeze (lower)")
    assert plays(s) == []
    assert mask_cards(player(s, 0)["hand"]) == ["Patrician"]


def test_card_action_used_to_buy_gives_no_extra_play_R_CARD_PLAY_2():
    """R-CARD-PLAY-2: a card action used to buy (option a) is not also an extra play."""
    s = fresh(2)
    give(s, 0, hand=["Siege", "Reformation"])
    edit_player(s, 0, supply={"gray": 1, "white": 1})
    start_actions(s, "brown", "white", "turquoise")
    do(s, "buy card paying gray+white")
    chance(s, "card Patrician")
    do(s, "play Siege (lower)")     # free play
    assert plays(s) == []


def test_free_play_renews_each_turn_R_CARD_PLAY_2():
    """R-CARD-PLAY-2: the free play is per turn: the next turn has a new one."""
    s = fresh(2)
    give(s, 0, hand=["Siege", "Reformation"])
    do(s, "play Siege (lower)")
    to_actions(s, "gray", "row 1 from left")
    assert plays(s) == []
    end_turn(s)
    to_actions(s, "gray", "row 2 from left")
    end_turn(s)
    assert s.raw()["turn_player"] == 0 and s.raw()["round"] == 1
    assert "play Reformation (lower)" in legal(s)


def test_shipyard_extra_card_action_allows_extra_play_R_CARD_PLAY_2():
    """R-CARD-PLAY-2 (with R-PRIV-SHIPYARD): the Shipyard's card action may be used as
    option b: one more card play."""
    s = fresh(2)
    set_barges(s, 12, 0)
    give(s, 0, hand=["Siege", "Reformation"])
    start_actions(s, "orange", "gray", "white")
    do(s, "play Siege (lower)")
    assert plays(s) == []
    do(s, "seal in Shipyard")
    do(s, "take gray from the docks")
    chance(s, "tile gray")
    assert "play Reformation (lower)" in legal(s)


# ---------------------------------------------------------------------------
# R-CARD-PLAY-3


def _play_to_the_end(s):
    """From the start of round 10, seat 0 to move: both players push and end their turns."""
    edit(s, round=9)
    to_actions(s, "gray", "row 1 from left")
    end_turn(s)
    to_actions(s, "gray", "row 2 from left")
    end_turn(s)
    assert s.is_terminal()


def test_hand_cards_score_nothing_at_the_end_R_CARD_PLAY_3():
    """R-CARD-PLAY-3: cards still in the hand at the end of the game score nothing; the
    same cards in front of a player score their lower bonuses."""
    s = fresh(2)
    hand = ["Steeple I", "Nave I", "Choir I", "Works of Art I", "Works of Art II",
            "Works of Art III", "Patrician", "Siege", "Ulm Sparrow"]
    give(s, 0, hand=hand)
    give(s, 1, front=["Steeple II", "Nave II", "Choir II", "Fustian I", "Fustian II",
                      "Fustian III", "Fishermen's Jousting"])
    before = bd(s, 0)
    assert before["cathedral cards"] == before["trade cards"] == before["chronicle cards"] == 0
    _play_to_the_end(s)
    b0 = bd(s, 0)
    assert b0["cathedral cards"] == 0 and b0["trade cards"] == 0 and b0["chronicle cards"] == 0
    assert b0["sparrows"] == 2 and b0["river"] == -11
    assert s.scores()[0] == 5 + 2 - 11 == b0["total"]
    b1 = bd(s, 1)
    assert b1["cathedral cards"] == 9 + 9
    assert b1["trade cards"] == 9 + 6
    assert b1["chronicle cards"] == 6   # Jousting: barges tied on index 0 share the first rank
    assert s.scores()[1] == b1["total"] == 5 + 2 - 11 + 18 + 15 + 6


# ---------------------------------------------------------------------------
# R-CARD-PLAY-4


def _hidden_hand_state():
    s = fresh(2)
    give(s, 0, hand=["Siege", "Nave III"], front=["Choir I"])
    give(s, 1, hand=["Patrician", "Reformation", "Fustian II"], front=["Nave I"],
         discard=["Steeple I", "Works of Art IV"])
    return s


def test_resample_keeps_own_hand_and_public_cards_R_CARD_PLAY_4():
    """R-CARD-PLAY-4: an observer's own hand, the discard pile and the cards in front of
    players are kept when a state is resampled from the observer's information."""
    s = _hidden_hand_state()
    r = s.raw()
    for seed in range(20):
        t = s.resample_from_infostate(0, seed)
        q = t.raw()
        assert q["players"][0]["hand"] == r["players"][0]["hand"]
        assert q["discard"] == r["discard"]
        assert q["players"][0]["front"] == r["players"][0]["front"]
        assert q["players"][1]["front"] == r["players"][1]["front"]
        assert bin(q["players"][1]["hand"]).count("1") == 3   # the hand size is public
        check_cards(t)


def test_resample_changes_opponent_hand_R_CARD_PLAY_4():
    """R-CARD-PLAY-4: an opponent's hand is hidden, so resampling changes it for some seed
    (drawn from the cards the observer cannot see)."""
    s = _hidden_hand_state()
    r = s.raw()
    changed = False
    visible = (r["players"][0]["hand"] | r["discard"] | r["players"][0]["front"]
               | r["players"][1]["front"])
    for seed in range(20):
        q = s.resample_from_infostate(0, seed).raw()
        assert not q["players"][1]["hand"] & visible
        if q["players"][1]["hand"] != r["players"][1]["hand"]:
            changed = True
    assert changed
    # and the other way round: seat 1 keeps its hand, seat 0's is redealt
    changed = False
    for seed in range(20):
        q = s.resample_from_infostate(1, seed).raw()
        assert q["players"][1]["hand"] == r["players"][1]["hand"]
        if q["players"][0]["hand"] != r["players"][0]["hand"]:
            changed = True
    assert changed


# ---------------------------------------------------------------------------
# Section 9: Cathedral cards


@pytest.mark.parametrize("name", [f"{part} {r}" for part in ("Steeple", "Nave", "Choir")
                                  for r in ("I", "II", "III")])
def test_cathedral_upper_pays_a_shown_colour_for_6_vp_R_CARD_CATH_UPPER(name):
    """R-CARD-CATH-UPPER: return 1 tile of either shown colour (ulm/data/board.json) to the
    bag and gain 6 VP."""
    shown = CATHEDRAL_COLOURS[name]
    s = fresh(2)
    give(s, 0, hand=[name])
    edit_player(s, 0, supply={c: 1 for c in COLOURS})
    start_actions(s, "gray", "white", "turquoise")
    do(s, f"play {name} (upper)")
    assert sorted(legal(s)) == sorted(f"pick {c}" for c in shown)
    pay = shown[1]
    bag = s.raw()["bag"][COLOURS.index(pay)]
    sc = score(s, 0)
    do(s, f"pick {pay}")
    pl = player(s, 0)
    assert pl["supply"] == [0 if c == pay else 1 for c in COLOURS]
    assert s.raw()["bag"][COLOURS.index(pay)] == bag + 1
    assert pl["score"] == sc + 6
    assert bd(s, 0)["cathedral cards (upper)"] == 6
    assert mask_cards(s.raw()["discard"]) == [name]
    check_cards(s)


def test_cathedral_upper_needs_a_shown_colour_R_CARD_CATH_UPPER():
    """R-CARD-CATH-UPPER: without a tile of either shown colour the upper bonus cannot be
    played; with only one of them, only that one is offered."""
    s = fresh(2)
    give(s, 0, hand=["Choir III"])           # turquoise/orange
    edit_player(s, 0, supply={"gray": 2, "white": 1, "brown": 3})
    start_actions(s, "gray", "white", "turquoise")
    assert "play Choir III (upper)" not in legal(s)
    assert "play Choir III (lower)" in legal(s)
    edit_player(s, 0, supply={"gray": 2, "orange": 1})
    assert "play Choir III (upper)" in legal(s)
    do(s, "play Choir III (upper)")
    assert legal(s) == ["pick orange"]
    do(s, "pick orange")
    assert player(s, 0)["supply"] == [2, 0, 0, 0, 0]
    assert bd(s, 0)["cathedral cards (upper)"] == 6


def test_cathedral_colour_table_matches_board_json_R_CARD_CATH_UPPER():
    """R-CARD-CATH-UPPER: every pair of colours except brown+orange appears once."""
    pairs = sorted(tuple(sorted(v)) for v in CATHEDRAL_COLOURS.values())
    assert len(set(pairs)) == 9
    assert ("brown", "orange") not in pairs
    rules_table = {
        "Steeple I": ["gray", "white"], "Nave I": ["gray", "orange"], "Choir I": ["white", "orange"],
        "Steeple II": ["gray", "brown"], "Nave II": ["white", "brown"],
        "Choir II": ["brown", "turquoise"], "Steeple III": ["gray", "turquoise"],
        "Nave III": ["white", "turquoise"], "Choir III": ["turquoise", "orange"]}
    assert CATHEDRAL_COLOURS == rules_table


@pytest.mark.parametrize("front,expected", [
    ([], 0),
    (["Steeple I"], 3),
    (["Steeple I", "Steeple II"], 6),
    (["Steeple I", "Nave II"], 6),
    (["Steeple I", "Nave II", "Choir III"], 9 + 9),
    (["Steeple I", "Steeple II", "Nave I", "Choir I"], 12 + 9),
    (["Steeple I", "Steeple II", "Nave I", "Nave II", "Choir I", "Choir II"], 18 + 18),
    (["Steeple I", "Steeple II", "Steeple III", "Nave I", "Nave II", "Choir I"], 18 + 9),
    ([f"{p} {r}" for p in ("Steeple", "Nave", "Choir") for r in ("I", "II", "III")], 27 + 27),
])
def test_cathedral_lower_3_each_plus_9_per_set_R_CARD_CATH_LOWER(front, expected):
    """R-CARD-CATH-LOWER: 3 VP per Cathedral card in front, +9 per complete set
    Steeple+Nave+Choir."""
    s = fresh(2)
    give(s, 0, front=front)
    assert bd(s, 0)["cathedral cards"] == expected
    assert bd(s, 0)["total"] == 5 + 2 - 11 + expected


def test_cathedral_lower_scored_at_the_end_R_CARD_CATH_LOWER():
    """R-CARD-CATH-LOWER: the lower bonus is added to the score at the end of the game."""
    s = fresh(2)
    give(s, 0, hand=["Choir II"], front=["Steeple III", "Nave III"])
    edit(s, round=9)
    do(s, "play Choir II (lower)")
    to_actions(s, "gray", "row 1 from left")
    end_turn(s)
    to_actions(s, "gray", "row 2 from left")
    end_turn(s)
    assert s.is_terminal()
    assert bd(s, 0)["cathedral cards"] == 18
    assert s.scores()[0] == 5 + 2 - 11 + 18


# ---------------------------------------------------------------------------
# Trade cards: costs and upper bonuses


@pytest.mark.parametrize("kind", ["Works of Art", "Commercial Goods", "Fustian"])
@pytest.mark.parametrize("copy", range(5))
def test_trade_card_cost_per_copy_R_CARD_ART_R_CARD_GOODS_R_CARD_FUSTIAN(kind, copy):
    """R-CARD-ART / R-CARD-GOODS / R-CARD-FUSTIAN: copy I..V costs a turquoise, brown, orange,
    white, gray tile (board.json), returned to the bag; no other tile allows the play."""
    name = f"{kind} {ROMAN[copy]}"
    cost = TRADE_COSTS[copy]
    s = fresh(2)
    give(s, 0, hand=[name])
    edit_player(s, 0, supply={c: 1 for c in COLOURS if c != cost})
    start_actions(s, "gray", "white", "turquoise")
    assert f"play {name} (upper)" not in legal(s)
    edit_player(s, 0, supply={cost: 1})
    bag = s.raw()["bag"][COLOURS.index(cost)]
    do(s, f"play {name} (upper)")
    assert player(s, 0)["supply"] == [0] * 5
    assert s.raw()["bag"][COLOURS.index(cost)] == bag + 1


def test_trade_costs_table_R_CARD_ART_R_CARD_GOODS_R_CARD_FUSTIAN():
    """R-CARD-ART / R-CARD-GOODS / R-CARD-FUSTIAN: the cost table."""
    assert TRADE_COSTS == ["turquoise", "brown", "orange", "white", "gray"]


def _trade_upper(name, barge, supply_colour, other_barge=0):
    s = fresh(2)
    set_barges(s, barge, other_barge)
    give(s, 0, hand=[name])
    edit_player(s, 0, supply={supply_colour: 1})
    start_actions(s, "gray", "white", "white")
    return s


def test_works_of_art_upper_R_CARD_ART():
    """R-CARD-ART: 1 coin, 2 VP and a barge move of 0-2 spaces."""
    s = _trade_upper("Works of Art I", 3, "turquoise")
    p0 = player(s, 0)
    do(s, "play Works of Art I (upper)")
    assert sorted(legal(s)) == ["move barge 0", "move barge 1", "move barge 2"]
    p1 = player(s, 0)
    assert p1["coins"] == p0["coins"] + 1
    assert p1["score"] == p0["score"] + 2
    assert bd(s, 0)["trade cards (upper)"] == 2
    do(s, "move barge 2")
    assert player(s, 0)["barge"] == 5


def test_works_of_art_barge_only_final_bonus_R_CARD_ART():
    """R-CARD-ART (with R-RIVER-3): a 2-space move from index 17 passes the coin space (18)
    and ends on the sparrow space (19): only the sparrow is gained."""
    s = _trade_upper("Works of Art II", 17, "brown")
    p0 = player(s, 0)
    do(s, "play Works of Art II (upper)", "move barge 2")
    p1 = player(s, 0)
    assert p1["barge"] == 19
    assert p1["coins"] == p0["coins"] + 1          # the card's coin only
    assert p1["sparrows"] == p0["sparrows"] + 1


def test_works_of_art_barge_zero_R_CARD_ART():
    """R-CARD-ART: moving 0 spaces is allowed; the coin and VP are gained all the same."""
    s = _trade_upper("Works of Art V", 16, "gray")
    p0 = player(s, 0)
    do(s, "play Works of Art V (upper)", "move barge 0")
    p1 = player(s, 0)
    assert p1["barge"] == 16
    assert p1["coins"] == p0["coins"] + 1 and p1["score"] == p0["score"] + 2
    assert p1["sparrows"] == p0["sparrows"]


def test_commercial_goods_upper_R_CARD_GOODS():
    """R-CARD-GOODS: 3 coins (no VP) and a barge move of 0-2 spaces; ending on index 18
    adds its coin."""
    s = _trade_upper("Commercial Goods III", 16, "orange")
    p0 = player(s, 0)
    do(s, "play Commercial Goods III (upper)")
    assert sorted(legal(s)) == ["move barge 0", "move barge 1", "move barge 2"]
    do(s, "move barge 2")
    p1 = player(s, 0)
    assert p1["barge"] == 18
    assert p1["coins"] == p0["coins"] + 3 + 1
    assert p1["score"] == p0["score"]


def test_commercial_goods_skips_occupied_space_R_CARD_GOODS():
    """R-CARD-GOODS (with R-RIVER-1): a space holding another barge is skipped and not
    counted."""
    s = _trade_upper("Commercial Goods IV", 5, "white", other_barge=6)
    p0 = player(s, 0)
    do(s, "play Commercial Goods IV (upper)", "move barge 2")
    p1 = player(s, 0)
    assert p1["barge"] == 8
    assert p1["coins"] == p0["coins"] + 3


def test_fustian_upper_R_CARD_FUSTIAN():
    """R-CARD-FUSTIAN: 2 coins, 1 VP and a barge move of 0-3 spaces."""
    s = _trade_upper("Fustian I", 2, "turquoise")
    p0 = player(s, 0)
    do(s, "play Fustian I (upper)")
    assert sorted(legal(s)) == ["move barge 0", "move barge 1", "move barge 2", "move barge 3"]
    do(s, "move barge 3")
    p1 = player(s, 0)
    assert p1["barge"] == 5
    assert p1["coins"] == p0["coins"] + 2
    assert p1["score"] == p0["score"] + 1
    assert bd(s, 0)["trade cards (upper)"] == 1


def test_fustian_barge_ends_on_coin_space_R_CARD_FUSTIAN():
    """R-CARD-FUSTIAN (with R-RIVER-3): from 15, three spaces end on 18 (+1 coin)."""
    s = _trade_upper("Fustian V", 15, "gray")
    p0 = player(s, 0)
    do(s, "play Fustian V (upper)", "move barge 3")
    p1 = player(s, 0)
    assert p1["barge"] == 18
    assert p1["coins"] == p0["coins"] + 2 + 1
    assert p1["score"] == p0["score"] + 1


def test_fustian_move_limited_by_river_end_R_CARD_FUSTIAN():
    """R-CARD-FUSTIAN: near the river's end only the free spaces ahead can be moved; ending
    on +11 draws a card."""
    s = _trade_upper("Fustian II", 19, "brown")
    do(s, "play Fustian II (upper)")
    assert sorted(legal(s)) == ["move barge 0", "move barge 1", "move barge 2"]
    do(s, "move barge 2")
    assert player(s, 0)["barge"] == 21
    assert s.is_chance_node()
    chance(s, "card Siege")
    assert mask_cards(player(s, 0)["hand"]) == ["Siege"]


# ---------------------------------------------------------------------------
# R-CARD-TRADE-LOWER


def _trade_front(a, g, f):
    return ([f"Works of Art {ROMAN[i]}" for i in range(a)]
            + [f"Commercial Goods {ROMAN[i]}" for i in range(g)]
            + [f"Fustian {ROMAN[i]}" for i in range(f)])


@pytest.mark.parametrize("a,g,f,expected", [
    (0, 0, 0, 0),
    (1, 0, 0, 3),
    (2, 0, 0, 6),
    (3, 0, 0, 9 + 6),
    (1, 1, 1, 9 + 3),
    (3, 1, 1, 15 + 6),       # a set of 3 Art beats a set of 3 kinds
    (2, 2, 2, 18 + 6),       # two sets of 3 kinds
    (4, 1, 1, 18 + 6 + 3),   # 3 Art + (Art, Goods, Fustian)
    (5, 5, 5, 45 + 18 + 6),  # 3+3+3 of one kind and 2 sets of 3 kinds
    (3, 3, 3, 27 + 18),      # three sets of one kind
    (4, 4, 4, 36 + 18 + 3),
    (5, 2, 0, 21 + 6),
    (5, 5, 0, 30 + 12),
    (2, 1, 1, 12 + 3),
])
def test_trade_lower_optimal_partition_R_CARD_TRADE_LOWER(a, g, f, expected):
    """R-CARD-TRADE-LOWER: 3 VP per trade card, +6 per set of 3 of one kind, +3 per set of 3
    different kinds, each card in at most one set, in the partition that scores most."""
    s = fresh(2)
    give(s, 0, front=_trade_front(a, g, f))
    assert bd(s, 0)["trade cards"] == expected


def test_trade_lower_scored_at_the_end_R_CARD_TRADE_LOWER():
    """R-CARD-TRADE-LOWER: added to the final score at the end of the game."""
    s = fresh(2)
    give(s, 0, front=_trade_front(3, 1, 1))
    _play_to_the_end(s)
    assert bd(s, 0)["trade cards"] == 21
    assert s.scores()[0] == 5 + 2 - 11 + 21


# ---------------------------------------------------------------------------
# Chronicle cards


def test_ulm_chronicle_upper_seal_for_one_coin_R_CH_ULMCHRON():
    """R-CH-ULMCHRON: place a seal for 1 coin without an orange tile, in a quarter beside
    the barge; the quarter's privilege applies (Tillage: a coin, a dock tile, barge 0-2)."""
    s = fresh(2)
    give(s, 0, hand=["Ulm Chronicle"])
    edit_player(s, 0, coins=3)
    start_actions(s, "gray", "white", "turquoise")   # no orange
    assert not any(n.startswith("seal in") for n in legal(s))
    do(s, "play Ulm Chronicle (upper)")
    assert sorted(legal(s)) == ["chronicle seal in Leaning House", "chronicle seal in Tillage"]
    do(s, "chronicle seal in Tillage")
    pl = player(s, 0)
    assert pl["coins"] == 3 - 1 + 1            # paid 1, Tillage privilege +1
    assert pl["seals_left"] == 11
    assert pl["seals_in"][QUARTERS.index("Tillage")] == 1
    assert s.raw()["quarter_seals"][QUARTERS.index("Tillage")] == 1
    assert all(n.startswith("take ") and n.endswith("from the docks") for n in legal(s))
    do(s, "take orange from the docks")
    chance(s, "tile gray")
    assert sorted(legal(s)) == ["move barge 0", "move barge 1", "move barge 2"]
    assert mask_cards(s.raw()["discard"]) == ["Ulm Chronicle"]


def test_ulm_chronicle_crest_income_and_seal_action_kept_R_CH_ULMCHRON():
    """R-CH-ULMCHRON: crest income applies as for a seal action; the card does not use up
    the activated orange tile's seal action."""
    s = fresh(2)
    give(s, 0, hand=["Ulm Chronicle"])
    edit_player(s, 0, coins=5)
    crest = s.raw()["crest_owner"]
    crest[QUARTERS.index("Leaning House")] = 1
    edit(s, crest_owner=crest)
    start_actions(s, "orange", "white", "turquoise")
    sc1 = score(s, 1)
    do(s, "play Ulm Chronicle (upper)", "chronicle seal in Leaning House")
    assert score(s, 1) == sc1 + 2
    assert bd(s, 1)["crests"] == 2
    assert player(s, 0)["coins"] == 4
    # Leaning House privilege: coats of arms
    chance(s, "coat S-1", "coat S-2")
    do(s, "keep coat S-1")
    assert "seal in Tillage" in legal(s)
    do(s, "seal in Tillage")
    assert player(s, 0)["coins"] == 4 - 2 + 1


def test_ulm_chronicle_costs_one_coin_with_t7_R_CH_ULMCHRON():
    """R-CH-ULMCHRON: the seal costs 1 coin (the card's price, also under tower T7)."""
    s = fresh(2, variant="advanced")
    set_tower(s, "T7", "T1")
    give(s, 0, hand=["Ulm Chronicle"])
    edit_player(s, 0, coins=1)
    start_actions(s, "gray", "white", "turquoise")
    assert "play Ulm Chronicle (upper)" in legal(s)
    do(s, "play Ulm Chronicle (upper)", "chronicle seal in Leaning House")
    assert player(s, 0)["coins"] == 0


def test_ulm_chronicle_needs_coin_and_free_space_R_CH_ULMCHRON():
    """R-CH-ULMCHRON: not playable for its upper bonus without a coin, or when both quarters
    beside the barge are full."""
    s = fresh(2)
    give(s, 0, hand=["Ulm Chronicle"])
    edit_player(s, 0, coins=0)
    start_actions(s, "gray", "white", "turquoise")
    assert "play Ulm Chronicle (upper)" not in legal(s)
    assert "play Ulm Chronicle (lower)" in legal(s)
    edit_player(s, 0, coins=4)
    assert "play Ulm Chronicle (upper)" in legal(s)
    qs = s.raw()["quarter_seals"]
    qs[QUARTERS.index("Tillage")] = 4
    qs[QUARTERS.index("Leaning House")] = 4
    edit(s, quarter_seals=qs)
    assert "play Ulm Chronicle (upper)" not in legal(s)
    qs[QUARTERS.index("Tillage")] = 3
    edit(s, quarter_seals=qs)
    do(s, "play Ulm Chronicle (upper)")
    assert legal(s) == ["chronicle seal in Tillage"]


def test_ulm_chronicle_lower_2_per_coat_R_CH_ULMCHRON():
    """R-CH-ULMCHRON: lower bonus 2 VP per coat of arms owned."""
    s = fresh(2)
    give(s, 0, front=["Ulm Chronicle"])
    assert bd(s, 0)["chronicle cards"] == 0
    edit_player(s, 0, coats=0b100000001001)   # three coats
    assert bd(s, 0)["chronicle cards"] == 6


def test_city_wall_seal_in_any_quarter_R_CH_CITYWALL():
    """R-CH-CITYWALL: as a modifier of a seal action the seal may go to any quarter; it is
    paid normally and the card goes to the discard pile."""
    s = fresh(2)
    give(s, 0, hand=["City Wall"])
    edit_player(s, 0, coins=4)
    start_actions(s, "orange", "white", "turquoise")
    names = legal(s)
    assert "play City Wall (upper)" not in names
    assert sorted(n for n in names if n.startswith("seal in")) == sorted(
        ["seal in Tillage", "seal in Leaning House"]
        + [f"seal in {q} with City Wall" for q in QUARTERS])
    do(s, "seal in Reichenauer Hof with City Wall")
    pl = player(s, 0)
    assert pl["coins"] == 2
    assert pl["seals_in"][QUARTERS.index("Reichenauer Hof")] == 1
    assert pl["hand"] == 0
    assert mask_cards(s.raw()["discard"]) == ["City Wall"]
    assert bd(s, 0)["Reichenauer Hof"] == 1


def test_city_wall_is_not_an_extra_seal_action_R_CH_CITYWALL():
    """R-CH-CITYWALL: without a seal action the City Wall gives no seal; with one orange
    tile, the wall seal uses that seal action up, and it uses the turn's card play."""
    s = fresh(2)
    give(s, 0, hand=["City Wall", "Siege"])
    edit_player(s, 0, coins=8)
    start_actions(s, "gray", "white", "turquoise")
    assert not any("City Wall" in n and n.startswith("seal") for n in legal(s))
    t = fresh(2)
    give(t, 0, hand=["City Wall", "Siege"])
    edit_player(t, 0, coins=8)
    start_actions(t, "orange", "white", "turquoise")
    do(t, "seal in Goose Tower with City Wall")
    do(t, "look at the top 3 cards")
    chance(t, "card Nave I", "card Nave II", "card Nave III")
    do(t, "keep Nave I")
    names = legal(t)
    assert not any(n.startswith("seal in") for n in names)
    assert plays(t) == []               # the free play went with the City Wall


def test_city_wall_needs_the_free_play_or_card_action_R_CH_CITYWALL():
    """R-CH-CITYWALL: playing the City Wall is a card play: after the free play is used
    (and no card action), the wall modifier is not offered."""
    s = fresh(2)
    give(s, 0, hand=["City Wall", "Siege"])
    edit_player(s, 0, coins=8)
    start_actions(s, "orange", "white", "turquoise")
    do(s, "play Siege (lower)")
    assert not any("with City Wall" in n for n in legal(s))
    assert "seal in Tillage" in legal(s)


def test_city_wall_with_card_action_option_b_R_CH_CITYWALL():
    """R-CH-CITYWALL (with R-CARD-PLAY-2): after the free play, an activated brown tile's
    card action can play the City Wall with the seal action."""
    s = fresh(2)
    give(s, 0, hand=["City Wall", "Siege"])
    edit_player(s, 0, coins=8, supply={"gray": 1, "white": 1})
    start_actions(s, "orange", "brown", "turquoise")
    do(s, "play Siege (lower)")
    assert "seal in Town Hall with City Wall" in legal(s)
    do(s, "seal in Town Hall with City Wall")
    chance(s, "card Nave I")
    do(s, "take a coin")
    assert not any(n.startswith("buy card") for n in legal(s))   # the card action is used
    assert mask_cards(player(s, 0)["hand"]) == ["Nave I"]
    assert player(s, 0)["seals_in"][QUARTERS.index("Town Hall")] == 1


def test_city_wall_lower_sole_majorities_R_CH_CITYWALL():
    """R-CH-CITYWALL: lower bonus 2 VP per quarter where the player has the sole majority of
    seals (ties give nothing)."""
    s = fresh(3)
    give(s, 0, front=["City Wall"])
    seals0 = [0] * 8
    seals1 = [0] * 8
    seals2 = [0] * 8
    seals0[QUARTERS.index("Tillage")] = 2
    seals1[QUARTERS.index("Tillage")] = 1
    seals0[QUARTERS.index("Garden")] = 1
    seals1[QUARTERS.index("Garden")] = 1
    seals0[QUARTERS.index("Oath House")] = 1
    seals0[QUARTERS.index("Town Hall")] = 1
    seals2[QUARTERS.index("Town Hall")] = 2
    seals1[QUARTERS.index("Shipyard")] = 2
    edit_player(s, 0, seals_in=seals0)
    edit_player(s, 1, seals_in=seals1)
    edit_player(s, 2, seals_in=seals2)
    assert bd(s, 0)["chronicle cards"] == 4   # Tillage and Oath House


def test_construction_freeze_two_coins_R_CH_FREEZE():
    """R-CH-FREEZE: upper: take 2 coins..."""
    s = fresh(2)
    give(s, 0, hand=["Construction Freeze"])
    coins = player(s, 0)["coins"]
    do(s, "play Construction Freeze (upper)")
    assert sorted(legal(s)) == ["freeze: 2 coins", "freeze: 2 tiles"]
    do(s, "freeze: 2 coins")
    assert player(s, 0)["coins"] == coins + 2


def test_construction_freeze_two_tiles_R_CH_FREEZE():
    """R-CH-FREEZE: ...or draw 2 tiles from the bag into the own supply."""
    s = fresh(2)
    give(s, 0, hand=["Construction Freeze"])
    sup = player(s, 0)["supply"]
    bag = s.raw()["bag"]
    do(s, "play Construction Freeze (upper)", "freeze: 2 tiles")
    assert s.is_chance_node()
    chance(s, "tile orange")
    assert s.is_chance_node()
    chance(s, "tile brown")
    assert not s.is_chance_node()
    new = player(s, 0)["supply"]
    o, b = COLOURS.index("orange"), COLOURS.index("brown")
    assert new[o] == sup[o] + 1 and new[b] == sup[b] + 1
    assert sum(new) == sum(sup) + 2
    assert s.raw()["bag"][o] == bag[o] - 1 and s.raw()["bag"][b] == bag[b] - 1
    assert player(s, 0)["coins"] == 2


@pytest.mark.parametrize("coins,expected", [(0, 0), (4, 4), (6, 6), (9, 6)])
def test_construction_freeze_lower_coins_max_6_R_CH_FREEZE(coins, expected):
    """R-CH-FREEZE: lower bonus 1 VP per coin held, at most 6."""
    s = fresh(2)
    give(s, 0, front=["Construction Freeze"])
    edit_player(s, 0, coins=coins)
    assert bd(s, 0)["chronicle cards"] == expected


def test_jousting_upper_barge_0_to_4_R_CH_JOUST():
    """R-CH-JOUST: barge 0-4 (R-RIVER-3), occupied spaces skipped, only the final bonus."""
    s = fresh(2)
    set_barges(s, 14, 16)
    give(s, 0, hand=["Fishermen's Jousting"])
    start_actions(s, "gray", "white", "turquoise")
    p0 = player(s, 0)
    do(s, "play Fishermen's Jousting (upper)")
    assert sorted(legal(s)) == [f"move barge {k}" for k in range(5)]
    do(s, "move barge 4")    # 15, (16 taken), 17, 18, 19
    p1 = player(s, 0)
    assert p1["barge"] == 19
    assert p1["sparrows"] == p0["sparrows"] + 1
    assert p1["coins"] == p0["coins"]


def test_jousting_upper_limited_by_free_spaces_R_CH_JOUST():
    """R-CH-JOUST: with fewer than 4 free spaces ahead, fewer spaces are offered."""
    s = fresh(2)
    set_barges(s, 18, 20)
    give(s, 0, hand=["Fishermen's Jousting"])
    do(s, "play Fishermen's Jousting (upper)")
    assert sorted(legal(s)) == ["move barge 0", "move barge 1", "move barge 2"]
    do(s, "move barge 2")    # 19, (20 taken), 21
    assert player(s, 0)["barge"] == 21
    assert s.is_chance_node()


@pytest.mark.parametrize("barges,expected", [
    ((0, 0, 0), 6),      # all tied on the start: shared first rank
    ((0, 0, 5), 3),      # tied second
    ((9, 3, 5), 6),
    ((5, 3, 9), 3),
    ((3, 5, 9), 0),
    ((0, 4, 2), 0),
])
def test_jousting_lower_rank_R_CH_JOUST(barges, expected):
    """R-CH-JOUST: lower bonus 6 VP if the own barge is furthest ahead, 3 if second; barges
    tied on index 0 share the rank."""
    s = fresh(3)
    set_barges(s, *barges)
    give(s, 0, front=["Fishermen's Jousting"])
    assert bd(s, 0)["chronicle cards"] == expected


def test_patrician_choose_colour_before_draw_R_CH_PATRICIAN():
    """R-CH-PATRICIAN: played before the draw, the player takes a tile of any colour still
    in the bag instead of drawing (no chance event)."""
    s = fresh(2)
    give(s, 0, hand=["Patrician"])
    bag = s.raw()["bag"]
    bag[COLOURS.index("orange")] = 0
    edit(s, bag=bag)
    assert "play Patrician (upper)" in legal(s)
    do(s, "play Patrician (upper)")
    assert sorted(legal(s)) == sorted(f"pick {c}" for c in COLOURS if c != "orange")
    do(s, "pick brown")
    assert not s.is_chance_node()
    r = s.raw()
    assert r["phase"] == PUSH
    assert r["drawn"][0] == COLOURS.index("brown")
    assert r["bag"][COLOURS.index("brown")] == bag[COLOURS.index("brown")] - 1
    assert "draw" not in legal(s)
    do(s, "push row 1 from left")
    assert s.raw()["grid"][0] == COLOURS.index("brown")


def test_patrician_only_before_the_draw_R_CH_PATRICIAN():
    """R-CH-PATRICIAN: after the draw the upper bonus can no longer be played."""
    s = fresh(2)
    give(s, 0, hand=["Patrician"])
    do(s, "draw")
    chance(s, "tile gray")
    assert "play Patrician (upper)" not in legal(s)
    do(s, "push row 1 from left")
    assert "play Patrician (upper)" not in legal(s)
    assert "play Patrician (lower)" in legal(s)


def test_patrician_after_outer_tiles_return_R_CH_PATRICIAN():
    """R-CH-PATRICIAN (with R-DRAW-1): when no line can be pushed, the outer tiles go back
    into the bag first, so their colours can be chosen."""
    s = fresh(2)
    give(s, 0, hand=["Patrician"])
    bag = s.raw()["bag"]
    bag[COLOURS.index("orange")] = 0
    edit(s, bag=bag)
    set_outer(s, {0: "orange", 1: "gray", 2: "gray", 3: "gray", 4: "gray", 5: "gray"})
    assert not any(n.startswith("push") for n in legal(s))
    do(s, "play Patrician (upper)")
    assert "pick orange" in legal(s)
    do(s, "pick orange")
    assert all(x == -1 for x in s.raw()["outer"])
    assert s.raw()["bag"][COLOURS.index("orange")] == 0
    assert s.raw()["drawn"][0] == COLOURS.index("orange")


def test_patrician_builder_adds_nothing_R_CH_PATRICIAN():
    """R-CH-PATRICIAN (with R-DRAW-4): the Builder adds nothing to the free choice: the
    chosen tile is pushed directly."""
    s = fresh(2)
    give_descendant(s, "Builder", 0)
    give(s, 0, hand=["Patrician"])
    do(s, "play Patrician (upper)", "pick white")
    assert not s.is_chance_node()
    assert s.raw()["phase"] == PUSH
    assert s.raw()["drawn"] == [COLOURS.index("white"), -1]
    assert all(n.startswith("push") or n.startswith("joker") for n in legal(s))


def test_patrician_lower_4_vp_R_CH_PATRICIAN():
    """R-CH-PATRICIAN: lower bonus 4 VP."""
    s = fresh(2)
    give(s, 0, front=["Patrician"])
    assert bd(s, 0)["chronicle cards"] == 4


def test_reformation_take_up_to_two_outer_tiles_R_CH_REFORMATION():
    """R-CH-REFORM (R-CH-REFORMATION): take up to 2 tiles of choice from the outer spaces."""
    s = fresh(2)
    give(s, 0, hand=["Reformation"])
    edit_player(s, 0, supply={})
    start_actions(s, "gray", "white", "turquoise", filler="white")   # white onto outer 3
    set_outer(s, {0: "gray", 7: "orange", 10: "brown"})
    do(s, "play Reformation (upper)")
    assert sorted(legal(s)) == sorted(["take outer tile 0", "take outer tile 3",
                                       "take outer tile 7", "take outer tile 10", "stop"])
    do(s, "take outer tile 7")
    assert player(s, 0)["supply"][COLOURS.index("orange")] == 1
    assert s.raw()["outer"][7] == -1
    assert sorted(legal(s)) == sorted(["take outer tile 0", "take outer tile 3",
                                       "take outer tile 10", "stop"])
    do(s, "take outer tile 3")
    assert player(s, 0)["supply"][COLOURS.index("white")] == 1
    assert "take outer tile 0" not in legal(s)       # only 2
    assert "end turn" in legal(s)
    assert s.raw()["outer"][0] == COLOURS.index("gray")
    assert s.raw()["outer"][10] == COLOURS.index("brown")


def test_reformation_may_stop_early_R_CH_REFORMATION():
    """R-CH-REFORM (R-CH-REFORMATION): "up to" 2: the player may take one or none."""
    s = fresh(2)
    give(s, 0, hand=["Reformation"])
    set_outer(s, {0: "gray"})
    do(s, "play Reformation (upper)", "take outer tile 0")
    assert not any(n.startswith("take outer") for n in legal(s))
    assert player(s, 0)["supply"][COLOURS.index("gray")] >= 1
    t = fresh(2)
    give(t, 0, hand=["Reformation"])
    set_outer(t, {0: "gray", 1: "white"})
    sup = player(t, 0)["supply"]
    do(t, "play Reformation (upper)", "stop")
    assert player(t, 0)["supply"] == sup
    assert "draw" in legal(t)


def test_reformation_lower_2_per_cathedral_card_R_CH_REFORMATION():
    """R-CH-REFORM (R-CH-REFORMATION): lower bonus 2 VP per Cathedral card in front."""
    s = fresh(2)
    give(s, 0, front=["Reformation", "Steeple I", "Nave III", "Choir II", "Siege"],
         hand=["Steeple II"])
    b = bd(s, 0)
    assert b["cathedral cards"] == 18
    assert b["chronicle cards"] == 6 + 5     # Reformation 3*2, Siege 5 cards in front


@pytest.mark.parametrize("coins,offered", [(0, 0), (2, 2), (3, 3), (7, 3)])
def test_siege_amounts_offered_R_CH_SIEGE(coins, offered):
    """R-CH-SIEGE: pay up to 3 coins (no more than held)."""
    s = fresh(2)
    give(s, 0, hand=["Siege"])
    edit_player(s, 0, coins=coins)
    do(s, "play Siege (upper)")
    assert sorted(legal(s)) == [f"amount {k}" for k in range(offered + 1)]


def test_siege_upper_2_vp_per_coin_R_CH_SIEGE():
    """R-CH-SIEGE: upper: each coin paid gives 2 VP."""
    s = fresh(2)
    give(s, 0, hand=["Siege"])
    edit_player(s, 0, coins=5)
    sc = score(s, 0)
    do(s, "play Siege (upper)", "amount 3")
    assert player(s, 0)["coins"] == 2
    assert score(s, 0) == sc + 6
    assert bd(s, 0)["Siege"] == 6


def test_siege_lower_1_per_card_in_front_R_CH_SIEGE():
    """R-CH-SIEGE: lower bonus 1 VP per card in front of the player, the Siege included."""
    s = fresh(2)
    give(s, 0, front=["Siege"])
    assert bd(s, 0)["chronicle cards"] == 1
    give(s, 0, front=["Works of Art I", "Nave I", "Patrician"], hand=["Choir I"])
    b = bd(s, 0)
    assert b["chronicle cards"] == 4 + 4      # Siege 4 cards + Patrician 4


def test_swabian_league_extra_action_keeps_tile_R_CH_SWABIAN():
    """R-CH-SWABIAN: one additional action of the colour of a tile in the own supply; the
    tile is not given up."""
    s = fresh(2)
    give(s, 0, hand=["Swabian League"])
    edit_player(s, 0, supply={"orange": 1, "gray": 2}, coins=4)
    start_actions(s, "gray", "white", "turquoise")
    assert not any(n.startswith("seal in") for n in legal(s))
    do(s, "play Swabian League (upper)")
    assert sorted(legal(s)) == ["pick gray", "pick orange"]
    do(s, "pick orange")
    assert player(s, 0)["supply"] == [2, 0, 0, 0, 1]
    assert "seal in Tillage" in legal(s)
    do(s, "seal in Tillage")
    assert player(s, 0)["seals_in"][QUARTERS.index("Tillage")] == 1


def test_swabian_league_extra_money_action_R_CH_SWABIAN():
    """R-CH-SWABIAN: with a gray tile, one more Money action (+1 coin)."""
    s = fresh(2)
    give(s, 0, hand=["Swabian League"])
    edit_player(s, 0, supply={"gray": 1}, coins=0)
    start_actions(s, "gray", "white", "turquoise")
    do(s, "money")
    assert "money" not in legal(s)
    do(s, "play Swabian League (upper)", "pick gray")
    do(s, "money")
    assert player(s, 0)["coins"] == 2
    assert player(s, 0)["supply"][0] == 1


def test_swabian_league_brown_gives_a_card_action_R_CH_SWABIAN():
    """R-CH-SWABIAN: choosing brown gives a card action, e.g. to play one more card
    (option b) after the Swabian League used the free play."""
    s = fresh(2)
    give(s, 0, hand=["Swabian League", "Siege"])
    edit_player(s, 0, supply={"brown": 1})
    start_actions(s, "gray", "white", "turquoise")
    do(s, "play Swabian League (upper)", "pick brown")
    assert "play Siege (lower)" in legal(s)
    do(s, "play Siege (lower)")
    assert plays(s) == []
    assert player(s, 0)["supply"] == [0, 0, 1, 0, 0]


def test_swabian_league_needs_a_supply_tile_R_CH_SWABIAN():
    """R-CH-SWABIAN: with an empty supply the upper bonus cannot be played."""
    s = fresh(2)
    give(s, 0, hand=["Swabian League"])
    edit_player(s, 0, supply={})
    start_actions(s, "gray", "white", "turquoise")
    assert "play Swabian League (upper)" not in legal(s)
    assert "play Swabian League (lower)" in legal(s)


@pytest.mark.parametrize("supply,expected", [({}, 0), ({"gray": 3}, 2),
                                             ({"gray": 1, "white": 2, "orange": 1}, 6),
                                             ({c: 1 for c in COLOURS}, 10)])
def test_swabian_league_lower_2_per_colour_R_CH_SWABIAN(supply, expected):
    """R-CH-SWABIAN: lower bonus 2 VP per colour of which the player holds a tile."""
    s = fresh(2)
    give(s, 0, front=["Swabian League"])
    edit_player(s, 0, supply=supply)
    assert bd(s, 0)["chronicle cards"] == expected


@pytest.mark.parametrize("sparrows,offered", [(0, 0), (2, 2), (5, 5), (7, 5)])
def test_ulm_sparrow_amounts_offered_R_CH_SPARROW(sparrows, offered):
    """R-CH-SPARROW: exchange up to 5 sparrows (no more than held)."""
    s = fresh(2)
    give(s, 0, hand=["Ulm Sparrow"])
    edit_player(s, 0, sparrows=sparrows)
    do(s, "play Ulm Sparrow (upper)")
    assert sorted(legal(s)) == [f"amount {k}" for k in range(offered + 1)]


def test_ulm_sparrow_upper_exchange_R_CH_SPARROW():
    """R-CH-SPARROW: upper: each sparrow exchanged gives 1 coin."""
    s = fresh(2)
    give(s, 0, hand=["Ulm Sparrow"])
    edit_player(s, 0, sparrows=7, coins=1)
    do(s, "play Ulm Sparrow (upper)", "amount 4")
    assert player(s, 0)["sparrows"] == 3
    assert player(s, 0)["coins"] == 5


@pytest.mark.parametrize("sparrows,expected", [(0, 0), (3, 6), (5, 10), (8, 13)])
def test_ulm_sparrow_lower_doubles_up_to_five_R_CH_SPARROW(sparrows, expected):
    """R-CH-SPARROW: lower bonus 2 VP per sparrow for up to 5 sparrows instead of 1 VP
    (further sparrows still 1 VP each, R-END-2)."""
    s = fresh(2)
    edit_player(s, 0, sparrows=sparrows)
    without = bd(s, 0)
    give(s, 0, front=["Ulm Sparrow"])
    b = bd(s, 0)
    assert without["sparrows"] == sparrows
    assert b["sparrows"] + b["chronicle cards"] == expected
    assert b["total"] - without["total"] == expected - sparrows


def test_ulm_sparrow_lower_at_the_end_R_CH_SPARROW():
    """R-CH-SPARROW: the final score counts the doubled sparrows."""
    s = fresh(2)
    give(s, 0, front=["Ulm Sparrow"])
    edit_player(s, 0, sparrows=4)
    _play_to_the_end(s)
    assert s.scores()[0] == 5 + 8 - 11
