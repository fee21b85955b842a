"""The "may" of the rules as real decisions, and extra actions at any moment of the turn.

R-DRAW-3 (the Builder may draw 1 or 2), R-ACT-CLEAR-2 (the Abbot's dock tile may be
declined), R-ACT-CARD-1/3 (after a buy that may look at 2 cards, taking the top card stays
allowed), R-TURN-3 (the Swabian League's action, the Shipyard's card action and the T5
seal at once, in any phase of the own turn), with R-ACT-MONEY-1 and R-ACT-RIVER-1 (the
descendant and tower bonuses only for activated tiles). Every situation is constructed
and shows the decision offered and its effect.
"""
from __future__ import annotations

from helpers import *

ROW1 = "gray white brown / orange gray white / brown turquoise gray"


def start(players=2, variant="basic", **p0) -> ulm.State:
    s = fresh(players=players, variant=variant)
    if p0:
        edit_player(s, 0, **p0)
    return s


def actions_after(s, draw: str, row1: str) -> ulm.State:
    """Draw `draw` and push it into row 1 from the left (row1: 'a b c'; c goes out)."""
    set_grid(s, f"{row1} / orange gray white / brown turquoise gray")
    set_outer(s, {3: None, 11: None})
    r = s.raw()
    if r["bag"][colour(draw)] == 0:
        r["bag"][colour(draw)] = 1
        s.set_raw(r)
    to_actions(s, draw, "row 1 from left")
    return s


def stack_cards(s, pile=(), discard=()) -> ulm.State:
    """Only these cards in the pile and on the discard pile; the rest in seat 1's hand."""
    r = s.raw()
    held = 0
    for pl in r["players"]:
        held |= pl["hand"] | pl["front"]
    r["pile"], r["discard"] = cards_mask(*pile), cards_mask(*discard)
    r["players"][1]["hand"] |= ((1 << 33) - 1) & ~r["pile"] & ~r["discard"] & ~held
    s.set_raw(r)
    return s


# ---------------------------------------------------------------------------
# R-DRAW-3: the Builder may draw 2, or 1 as usual

def test_builder_chooses_to_draw_one_or_two_R_DRAW_3():
    """With the Builder both 'draw' and 'draw 2 (Builder)' are offered. 'draw' draws one
    tile (one chance event) and goes straight to the push; 'draw 2' draws two and the
    owner keeps one, the other goes back into the bag."""
    s = start()
    give_descendant(s, "Builder", 0)
    assert "draw" in legal(s) and "draw 2 (Builder)" in legal(s)
    one = s.clone()
    do(one, "draw")
    chance(one, "tile orange")
    assert not one.is_chance_node() and one.raw()["phase"] == PUSH
    assert one.raw()["drawn"] == [colour("orange"), NO_TILE]
    assert not any(a.startswith("pick") for a in legal(one))
    bag = s.raw()["bag"]
    do(s, "draw 2 (Builder)")
    chance(s, "tile orange", "tile gray")
    assert legal(s) == ["pick gray", "pick orange"]
    do(s, "pick gray")
    assert s.raw()["drawn"] == [colour("gray"), NO_TILE]
    assert s.raw()["bag"] == [b - (c == colour("gray")) for c, b in enumerate(bag)]


def test_draw_two_only_for_the_builder_R_DRAW_3():
    s = start()
    give_descendant(s, "Builder", 1)
    assert "draw 2 (Builder)" not in legal(s)


# ---------------------------------------------------------------------------
# R-ACT-CLEAR-2: the Abbot may decline the dock tile

def test_abbot_may_decline_the_dock_tile_R_ACT_CLEAR_2():
    """After a clear-away the Abbot's owner chooses a dock tile or none: 'take no dock
    tile' leaves the docks and the bag as they were (no refill draw)."""
    s = start(supply={})
    give_descendant(s, "Abbot", 0)
    set_outer(s, {0: "gray"})
    edit(s, bag=[b - (c == 0) for c, b in enumerate(s.raw()["bag"])])
    actions_after(s, "white", "turquoise gray brown")
    before = s.raw()
    do(s, "clear top")
    assert legal(s)[-1] == "take no dock tile"
    assert sorted(legal(s)[:-1]) == sorted(f"take {c} from the docks" for c in COLOURS)
    do(s, "take no dock tile")
    r = s.raw()
    assert not s.is_chance_node() and r["n_tasks"] == 0
    assert r["docks"] == before["docks"] and r["bag"] == before["bag"]
    assert r["players"][0]["supply"] == [1, 0, 0, 0, 0]   # only the cleared gray


# ---------------------------------------------------------------------------
# R-ACT-CARD-1 / R-ACT-CARD-3: take the top card, or look at 2

def test_same_colour_buy_may_take_the_top_card_R_ACT_CARD_1():
    """Paying two tiles of one colour: 'take the top card' (one card to the hand, nothing
    discarded) or 'look at the top 2 cards' (keep one, the other face up)."""
    s = start(supply={"gray": 2})
    stack_cards(s, pile=["Siege", "Patrician", "Reformation"])
    actions_after(s, "brown", "turquoise white orange")
    do(s, "buy card paying gray+gray")
    assert legal(s) == ["take the top card", "look at the top 2 cards"]
    top = s.clone()
    do(top, "take the top card")
    chance(top, "card Patrician")
    r = top.raw()
    assert r["players"][0]["hand"] == cards_mask("Patrician") and r["discard"] == 0
    assert not top.is_chance_node() and r["n_tasks"] == 0
    do(s, "look at the top 2 cards")
    chance(s, "card Siege", "card Reformation")
    do(s, "keep Siege")
    assert s.raw()["discard"] == cards_mask("Reformation")


def test_councilman_buy_may_take_the_top_card_R_ACT_CARD_1():
    """With the Councilman two different tiles give the same choice; without it there
    is none (one card)."""
    s = start(supply={"gray": 1, "white": 1})
    give_descendant(s, "Councilman", 0)
    stack_cards(s, pile=["Siege", "Patrician"])
    actions_after(s, "brown", "turquoise white orange")
    do(s, "buy card paying gray+white")
    assert legal(s) == ["take the top card", "look at the top 2 cards"]
    s = start(supply={"gray": 1, "white": 1})
    stack_cards(s, pile=["Siege", "Patrician"])
    actions_after(s, "brown", "turquoise white orange")
    do(s, "buy card paying gray+white")
    assert s.is_chance_node()


def test_only_one_card_left_no_choice_R_ACT_CARD_1():
    """With one card left in the pile and the discard pile, looking at 2 would be taking
    it: no choice is offered."""
    s = start(supply={"gray": 2})
    stack_cards(s, pile=["Siege"])
    actions_after(s, "brown", "turquoise white orange")
    do(s, "buy card paying gray+gray")
    assert s.is_chance_node()
    chance(s, "card Siege")
    assert s.raw()["players"][0]["hand"] == cards_mask("Siege")


def test_tower_councilman_may_take_the_top_card_R_ACT_CARD_3():
    """Under T3 (1 coin) and T4 (1 tile) the Councilman may look at 2 or take the top."""
    for tile, buy in (("T3", "buy card paying 1 coin"), ("T4", "buy card paying white")):
        s = start(variant="advanced", supply={"white": 1}, coins=3)
        set_tower(s, tile, "T1")
        give_descendant(s, "Councilman", 0)
        stack_cards(s, pile=["Siege", "Patrician"])
        actions_after(s, "brown", "turquoise gray orange")
        do(s, buy)
        assert legal(s) == ["take the top card", "look at the top 2 cards"], tile
        do(s, "take the top card")
        chance(s, "card Siege")
        assert s.raw()["players"][0]["hand"] == cards_mask("Siege")


# ---------------------------------------------------------------------------
# R-TURN-3: extra actions at once, in any phase of the own turn

def all_lines_blocked(s) -> ulm.State:
    """Tiles on the top side (blocking the 3 columns) and on the left side (blocking the
    3 rows): no line can be pushed (R-PUSH-3)."""
    r = s.raw()
    for o, c in zip((0, 1, 2, 9, 10, 11), ("gray", "white", "brown", "turquoise", "orange", "gray")):
        r["outer"][o] = colour(c)
        r["bag"][colour(c)] -= 1
    s.set_raw(r)
    return s


def test_swabian_clear_before_the_draw_keeps_the_outer_tiles_R_TURN_3():
    """All six lines blocked. Drawing now would put all 6 outer tiles back into the bag
    (R-DRAW-1). Playing the Swabian League for a clear-away before the draw, Red takes
    the 3 tiles of the top side; the columns are free again, so at the draw the 3 tiles
    on the left side stay where they are."""
    s = all_lines_blocked(start(hand=["Swabian League"], supply={"white": 1}))
    plain = s.clone()
    do(plain, "draw")
    assert all(o == NO_TILE for o in plain.raw()["outer"])
    do(s, "play Swabian League (upper)", "pick white")
    assert s.raw()["phase"] == BEFORE_DRAW
    assert "clear top" in legal(s) and "clear left" in legal(s)
    do(s, "clear top")
    assert s.raw()["players"][0]["supply"] == [1, 2, 1, 0, 0]
    do(s, "draw")
    outer = s.raw()["outer"]
    assert [outer[o] for o in (9, 10, 11)] == [colour("turquoise"), colour("orange"), colour("gray")]
    assert "push column 1 from top" in legal(chance(s, "tile gray"))
    assert "push row 1 from left" not in legal(s)


def test_extra_actions_in_the_push_phase_R_TURN_3():
    """Between the draw and the push: a Swabian League money action is used at once."""
    s = start(hand=["Swabian League"], supply={"gray": 1}, coins=0)
    do(s, "draw")
    chance(s, "tile orange")
    do(s, "play Swabian League (upper)", "pick gray")
    assert s.raw()["phase"] == PUSH and "money" in legal(s)
    do(s, "money")
    assert player(s, 0)["coins"] == 1 and s.raw()["phase"] == PUSH


def test_shipyard_card_action_before_the_push_R_TURN_3():
    """An Ulm Chronicle seal in the Shipyard before the draw gives the Shipyard's card
    action, usable at once: a card is bought before the draw."""
    s = start(hand=["Ulm Chronicle"], supply={"gray": 1, "white": 1}, coins=2)
    set_barges(s, 12, 0)                       # beside Town Hall / Shipyard
    stack_cards(s, pile=["Siege", "Patrician"])
    do(s, "play Ulm Chronicle (upper)", "chronicle seal in Shipyard", "take gray from the docks")
    chance(s, "tile gray")
    r = s.raw()
    assert r["phase"] == BEFORE_DRAW and r["extra"][colour("brown")] == 1
    do(s, "buy card paying gray+white")
    chance(s, "card Siege")
    assert player(s, 0)["hand"] == cards_mask("Siege")
    assert s.raw()["extra"] == [0] * 5 and "draw" in legal(s)


def test_tower_T5_seal_before_the_draw_R_TURN_3():
    """T5: the extra seal action may be used before the draw; it is gone afterwards."""
    s = start(variant="advanced", coins=2)
    set_tower(s, "T5", "T1")
    set_barges(s, 12, 0)
    assert "seal in Town Hall" in legal(s) and "draw" in legal(s)
    do(s, "seal in Town Hall")
    r = s.raw()
    assert r["t5_seal"] == 0 and player(s, 0)["seals_in"][quarter("Town Hall")] == 1
    assert player(s, 0)["coins"] == 0


def test_unused_extra_actions_lapse_R_TURN_3():
    s = start(hand=["Swabian League"], supply={"orange": 1})
    do(s, "play Swabian League (upper)", "pick orange")
    assert s.raw()["extra"] == [0, 0, 0, 0, 1]
    to_actions(s, "gray", "row 1 from left")
    do(s, "end turn")
    assert s.raw()["extra"] == [0] * 5 and s.raw()["turn_player"] == 1


def test_swabian_money_gets_no_mint_master_or_T2_R_ACT_MONEY_1():
    """The Mint Master and T2 add a coin to an activated gray tile's Money action, not to
    the Swabian League's extra one; with both, the activated one goes first."""
    s = start(variant="advanced", hand=["Swabian League"], supply={"gray": 1}, coins=0)
    set_tower(s, "T2", "T1")
    give_descendant(s, "Mint Master", 0)
    do(s, "play Swabian League (upper)", "pick gray", "money")
    assert player(s, 0)["coins"] == 1                      # extra: 1 coin only
    s = start(variant="advanced", hand=["Swabian League"], supply={"gray": 1}, coins=0)
    set_tower(s, "T2", "T1")
    give_descendant(s, "Mint Master", 0)
    do(s, "play Swabian League (upper)", "pick gray")
    actions_after(s, "gray", "turquoise white orange")
    do(s, "money")
    assert player(s, 0)["coins"] == 3                      # activated: 1 + 1 + 1
    do(s, "money")
    assert player(s, 0)["coins"] == 4 and "money" not in legal(s)


def test_swabian_river_gets_no_barge_driver_or_T1_R_ACT_RIVER_1():
    """The Swabian League's River action moves 1 step: no Barge Driver or T1 steps."""
    s = start(variant="advanced", hand=["Swabian League"], supply={"turquoise": 1})
    set_tower(s, "T1", "T2")
    give_descendant(s, "Barge Driver", 0)
    do(s, "play Swabian League (upper)", "pick turquoise", "river step")
    assert player(s, 0)["barge"] == 1 and s.raw()["river_extra"] == 0
    assert "river step" not in legal(s)
    actions_after(s, "turquoise", "gray white orange")
    do(s, "river step")
    assert player(s, 0)["barge"] == 2 and s.raw()["river_extra"] == 2
