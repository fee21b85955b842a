"""Rule tests for RULES.md section 10 (tower tiles, advanced game), section 11
(end of game and scoring) and section 2 (the board table's defaults).

Every test names the rule ID it checks (underscores in the name, dashes in the
docstring). Situations are built with the helpers of tests/helpers.py.
"""
from __future__ import annotations

import functools
import random

import pytest

from helpers import (ACTIONS, BEFORE_DRAW, COATS, COLOURS, DESCENDANTS, PUSH, QUARTERS,
                     card, cards_mask, chance, colour, coat, do, edit, edit_player, fresh,
                     give_descendant, legal, mask_cards, player, quarter, set_bag,
                     set_barges, set_grid, set_tower, to_actions, tower)
import ulm

# ---------------------------------------------------------------------------
# local building blocks

# the default board of RULES section 2
NORTH = [("Leaning House", 0, 5), ("Oath House", 6, 10), ("Town Hall", 11, 16),
         ("Goose Tower", 17, 21)]
SOUTH = [("Tillage", 0, 3), ("Garden", 4, 9), ("Shipyard", 10, 15),
         ("Reichenauer Hof", 16, 21)]


def north_of(i: int) -> str:
    return next(q for q, lo, hi in NORTH if lo <= i <= hi)


def south_of(i: int) -> str:
    return next(q for q, lo, hi in SOUTH if lo <= i <= hi)


def river_value(i: int) -> int:
    """R-BOARD-1: -11..-1 on indices 0..10, +1..+11 on indices 11..21."""
    return i - 11 if i <= 10 else i - 10


def activate(s, tiles: str = "gray white brown", out: str = "brown"):
    """From the start of the turn: draw and push so that exactly `tiles` (3 colours)
    are the activated tiles of row 1; `out` is the tile pushed out (onto outer space 3)."""
    a, b, c = tiles.split()
    set_grid(s, f"{b} {c} {out} / gray white brown / turquoise orange gray")
    r = s.raw()
    r["bag"][colour(a)] = max(r["bag"][colour(a)], 1)
    r["outer"][11] = r["outer"][3] = -1       # row 1 can be pushed (R-PUSH-3)
    s.set_raw(r)
    return to_actions(s, draw=a, push="row 1 from left")


def advanced(tile: str | None, players: int = 2, seed: int = 0):
    """An advanced game at seat 0's first decision of a round with tower tile `tile` in
    force: the tile is shown as the next one, the last seat ends round 1, and the round
    start puts it on the Cathedral (so per-turn effects such as T5's are set up by the
    engine). The outer spaces are emptied again afterwards."""
    s = fresh(players, "advanced", seed)
    set_tower(s, None, tile)
    edit(s, turn_player=players - 1)
    activate(s, "gray white brown")
    do(s, "end turn")
    s.resolve_chance()
    r = s.raw()
    assert r["tower_current"] == (tower(tile) if tile else -1)
    assert r["round"] == 1 and r["turn_player"] == 0 and r["phase"] == BEFORE_DRAW
    return edit(s, outer=[-1] * 12)


def seal_names(s) -> set[str]:
    return {a for a in legal(s) if a.startswith("seal in ") and "City Wall" not in a}


def buy_names(s) -> set[str]:
    return {a for a in legal(s) if a.startswith("buy card")}


def vp(s, p: int, source: str) -> int:
    return s.score_breakdown(p)[source]


def pay_names(s) -> set[str]:
    return {a for a in legal(s) if a.startswith("tower:")}


# ===========================================================================
# Section 10: tower tiles (advanced variant)
# ===========================================================================

def test_river_action_gets_one_extra_step_R_TOWER_T1():
    """R-TOWER-T1: with T1 each River action gets 1 extra step; without it only 1 step."""
    s = advanced("T1")
    activate(s, "gray turquoise white")
    do(s, "river step")
    assert player(s, 0)["barge"] == 1
    assert "river step" in legal(s)           # the extra step
    do(s, "river step")
    assert player(s, 0)["barge"] == 2
    assert "river step" not in legal(s)       # one turquoise: 1 + 1 steps

    s = advanced("T2")                        # another tower tile: no extra step
    activate(s, "gray turquoise white")
    do(s, "river step")
    assert player(s, 0)["barge"] == 1
    assert "river step" not in legal(s)


def test_extra_step_is_separate_and_may_come_later_R_TOWER_T1():
    """R-TOWER-T1: the extra step is a separate step that may be taken later in the turn,
    and each step triggers the bonus of the space it reaches (R-ACT-RIVER-1)."""
    s = advanced("T1")
    set_barges(s, 17, 0)
    activate(s, "gray turquoise white")
    coins, sparrows = player(s, 0)["coins"], player(s, 0)["sparrows"]
    do(s, "river step")
    assert player(s, 0)["barge"] == 18 and player(s, 0)["coins"] == coins + 1  # +8: coin
    do(s, "money")                                                           # something else
    assert "river step" in legal(s)
    do(s, "river step")
    assert player(s, 0)["barge"] == 19 and player(s, 0)["sparrows"] == sparrows + 1  # +9
    assert "river step" not in legal(s)


def test_each_river_action_gets_its_extra_step_R_TOWER_T1():
    """R-TOWER-T1: two turquoise tiles give 2 River actions, each with an extra step (4);
    with the Barge Driver each River action gets 1 + 1 + 1 steps."""
    s = advanced("T1")
    activate(s, "turquoise turquoise white")
    while "river step" in legal(s):
        do(s, "river step")
    assert player(s, 0)["barge"] == 4

    s = advanced("T1")
    give_descendant(s, "Barge Driver", 0)
    activate(s, "gray turquoise white")
    while "river step" in legal(s):
        do(s, "river step")
    assert player(s, 0)["barge"] == 3


def test_T1_does_not_lengthen_card_moves_R_TOWER_T1():
    """R-TOWER-T1: only River actions get the extra step; a card's 0-2 move stays 0-2 and
    leaves no extra step behind."""
    s = advanced("T1")
    activate(s, "gray white brown")
    edit_player(s, 0, supply={"turquoise": 1}, hand=["Works of Art I"])
    r = s.raw()
    r["pile"] &= ~cards_mask("Works of Art I")
    s.set_raw(r)
    do(s, "play Works of Art I (upper)")
    assert set(legal(s)) == {"move barge 0", "move barge 1", "move barge 2"}
    do(s, "move barge 2")
    assert player(s, 0)["barge"] == 2
    assert "river step" not in legal(s)


def test_money_action_gets_one_extra_coin_R_TOWER_T2():
    """R-TOWER-T2: each Money action gives 2 coins instead of 1."""
    s = advanced("T2")
    activate(s, "gray white brown")
    before = player(s, 0)["coins"]
    do(s, "money")
    assert player(s, 0)["coins"] == before + 2
    assert "money" not in legal(s)

    s = advanced("T1")                        # without T2: 1 coin
    activate(s, "gray white brown")
    before = player(s, 0)["coins"]
    do(s, "money")
    assert player(s, 0)["coins"] == before + 1


def test_extra_coin_on_each_money_action_and_with_mint_master_R_TOWER_T2():
    """R-TOWER-T2: +1 on EACH Money action (two gray tiles: +4); with the Mint Master +3 each."""
    s = advanced("T2")
    activate(s, "gray gray brown")
    before = player(s, 0)["coins"]
    do(s, "money", "money")
    assert player(s, 0)["coins"] == before + 4

    s = advanced("T2")
    give_descendant(s, "Mint Master", 0)
    activate(s, "gray white brown")
    before = player(s, 0)["coins"]
    do(s, "money")
    assert player(s, 0)["coins"] == before + 3


def test_T2_only_on_money_actions_R_TOWER_T2():
    """R-TOWER-T2: coins from a card (Commercial Goods: 3) get no extra coin."""
    s = advanced("T2")
    activate(s, "white white brown")
    edit_player(s, 0, coins=0, supply={"brown": 1}, hand=["Commercial Goods II"])
    r = s.raw()
    r["pile"] &= ~cards_mask("Commercial Goods II")
    s.set_raw(r)
    do(s, "play Commercial Goods II (upper)", "move barge 0")
    assert player(s, 0)["coins"] == 3


def test_buying_costs_one_coin_instead_of_two_tiles_R_TOWER_T3():
    """R-TOWER-T3: buying a card costs 1 coin (not 2 tiles); the card goes to the hand."""
    s = advanced("T3")
    activate(s, "gray white brown")
    edit_player(s, 0, coins=2, supply={"gray": 2, "white": 1})
    assert buy_names(s) == {"buy card paying 1 coin"}     # no tile payments offered
    bag = list(s.raw()["bag"])
    do(s, "buy card paying 1 coin")
    chance(s, "card Siege")
    p = player(s, 0)
    assert p["coins"] == 1
    assert p["supply"] == [2, 1, 0, 0, 0]                  # no tiles given up
    assert s.raw()["bag"] == bag
    assert p["hand"] == cards_mask("Siege")
    assert s.raw()["phase"] == ACTIONS and not s.task_stack()


def test_buying_with_T3_needs_a_coin_R_TOWER_T3():
    """R-TOWER-T3: without a coin no card can be bought, even with tiles to spare."""
    s = advanced("T3")
    activate(s, "gray white brown")
    edit_player(s, 0, coins=0, supply={"gray": 2, "white": 2})
    assert buy_names(s) == set()


def test_T3_buy_one_of_two_only_with_councilman_R_TOWER_T3():
    """R-TOWER-T3: one card for the coin; with the Councilman the player looks at 2 and keeps 1."""
    s = advanced("T3")
    give_descendant(s, "Councilman", 0)
    activate(s, "gray white brown")
    do(s, "buy card paying 1 coin", "look at the top 2 cards")
    chance(s, "card Siege", "card Patrician")
    assert set(legal(s)) == {"keep Siege", "keep Patrician"}
    do(s, "keep Patrician")
    assert player(s, 0)["hand"] == cards_mask("Patrician")
    assert s.raw()["discard"] == cards_mask("Siege")


def test_buying_costs_one_tile_instead_of_two_R_TOWER_T4():
    """R-TOWER-T4: buying a card costs 1 tile of any colour (returned to the bag); one card."""
    s = advanced("T4")
    activate(s, "gray white brown")
    edit_player(s, 0, coins=2, supply={"gray": 2, "orange": 1})
    assert buy_names(s) == {"buy card paying gray", "buy card paying orange"}
    bag = list(s.raw()["bag"])
    do(s, "buy card paying orange")
    assert s.is_chance_node()
    chance(s, "card Siege")
    p = player(s, 0)
    assert p["supply"] == [2, 0, 0, 0, 0]
    assert p["coins"] == 2
    assert s.raw()["bag"][colour("orange")] == bag[colour("orange")] + 1
    assert p["hand"] == cards_mask("Siege")
    assert not s.task_stack()


def test_T4_needs_a_tile_and_councilman_looks_at_two_R_TOWER_T4():
    """R-TOWER-T4: an empty supply cannot buy; with the Councilman 1 of 2 cards is kept."""
    s = advanced("T4")
    activate(s, "gray white brown")
    edit_player(s, 0, supply={})
    assert buy_names(s) == set()

    s = advanced("T4")
    give_descendant(s, "Councilman", 0)
    activate(s, "gray white brown")
    edit_player(s, 0, supply={"white": 1})
    do(s, "buy card paying white", "look at the top 2 cards")
    chance(s, "card Siege", "card Reformation")
    assert set(legal(s)) == {"keep Siege", "keep Reformation"}


def test_seal_without_orange_tile_once_per_turn_R_TOWER_T5():
    """R-TOWER-T5: one seal action without an orange tile, paid normally (2 coins); only one."""
    s = advanced("T5")
    set_barges(s, 17, 0)                     # Goose Tower / Reichenauer Hof
    activate(s, "gray white brown")
    edit_player(s, 0, coins=5)
    assert seal_names(s) == {"seal in Goose Tower", "seal in Reichenauer Hof"}
    do(s, "seal in Reichenauer Hof")
    p = player(s, 0)
    assert p["coins"] == 3                    # paid normally
    assert p["seals_in"][quarter("Reichenauer Hof")] == 1
    assert seal_names(s) == set()             # only one extra seal action

    s = advanced("T6")                        # no T5: no seal without orange
    set_barges(s, 17, 0)
    activate(s, "gray white brown")
    edit_player(s, 0, coins=5)
    assert seal_names(s) == set()


def test_T5_seal_is_an_extra_action_besides_orange_R_TOWER_T5():
    """R-TOWER-T5: with an activated orange tile, T5 adds a second seal action."""
    s = advanced("T5")
    set_barges(s, 17, 0)
    activate(s, "orange white brown")
    edit_player(s, 0, coins=6)
    do(s, "seal in Reichenauer Hof")
    assert seal_names(s) == {"seal in Goose Tower", "seal in Reichenauer Hof"}
    do(s, "seal in Reichenauer Hof")
    assert player(s, 0)["seals_in"][quarter("Reichenauer Hof")] == 2
    assert player(s, 0)["coins"] == 2
    assert seal_names(s) == set()


def test_T5_seal_needs_coins_and_is_offered_each_player_R_TOWER_T5():
    """R-TOWER-T5: the seal still costs 2 coins (1 coin: not offered); every player may use it."""
    s = advanced("T5")
    set_barges(s, 17, 17 - 1)
    activate(s, "gray white brown")
    edit_player(s, 0, coins=1)
    assert seal_names(s) == set()
    do(s, "end turn")
    assert s.current_player() == 1
    activate(s, "gray white brown")
    edit_player(s, 1, coins=2)
    assert seal_names(s) == {"seal in Town Hall", "seal in Reichenauer Hof"}


def test_seal_costs_one_coin_less_R_TOWER_T6():
    """R-TOWER-T6: the seal action costs 1 coin (1 coin suffices; 1 is paid)."""
    s = advanced("T6")
    set_barges(s, 17, 0)
    activate(s, "orange white brown")
    edit_player(s, 0, coins=1)
    assert seal_names(s) == {"seal in Goose Tower", "seal in Reichenauer Hof"}
    do(s, "seal in Reichenauer Hof")
    assert player(s, 0)["coins"] == 0

    s = advanced("T6")
    set_barges(s, 17, 0)
    activate(s, "orange white brown")
    edit_player(s, 0, coins=0)
    assert seal_names(s) == set()


def test_seal_costs_one_coin_more_R_TOWER_T7():
    """R-TOWER-T7: the seal action costs 3 coins (2 coins do not suffice)."""
    s = advanced("T7")
    set_barges(s, 17, 0)
    activate(s, "orange white brown")
    edit_player(s, 0, coins=2)
    assert seal_names(s) == set()
    edit_player(s, 0, coins=4)
    assert seal_names(s) == {"seal in Goose Tower", "seal in Reichenauer Hof"}
    do(s, "seal in Reichenauer Hof")
    assert player(s, 0)["coins"] == 1


def test_seal_costs_two_coins_without_T6_T7_R_TOWER_T6():
    """R-TOWER-T6: the reduction applies only while T6 is in force (otherwise 2 coins)."""
    s = advanced("T2")
    set_barges(s, 17, 0)
    activate(s, "orange white brown")
    edit_player(s, 0, coins=1)
    assert seal_names(s) == set()
    edit_player(s, 0, coins=2)
    do(s, "seal in Reichenauer Hof")
    assert player(s, 0)["coins"] == 0


def test_give_up_two_tiles_or_lose_five_R_TOWER_T8():
    """R-TOWER-T8: at the end of the turn: give up 2 tiles (any 2 the player holds) or lose 5 VP."""
    s = advanced("T8")
    activate(s, "gray white brown")
    edit_player(s, 0, supply={"gray": 2, "orange": 1})
    do(s, "end turn")
    assert s.current_player() == 0
    assert pay_names(s) == {"tower: give gray+gray", "tower: give gray+orange",
                            "tower: lose 5 VP"}
    score = player(s, 0)["score"]
    bag = list(s.raw()["bag"])
    do(s, "tower: give gray+orange")
    assert player(s, 0)["supply"] == [1, 0, 0, 0, 0]
    assert player(s, 0)["score"] == score
    r = s.raw()
    assert r["bag"][colour("gray")] == bag[colour("gray")] + 1
    assert r["bag"][colour("orange")] == bag[colour("orange")] + 1
    assert r["turn_player"] == 1 and r["phase"] == BEFORE_DRAW


def test_choosing_to_lose_five_R_TOWER_T8():
    """R-TOWER-T8: a player who could pay may choose to lose 5 VP and keep the tiles."""
    s = advanced("T8")
    activate(s, "gray white brown")
    edit_player(s, 0, supply={"gray": 1, "white": 1})
    score = player(s, 0)["score"]
    do(s, "end turn", "tower: lose 5 VP")
    assert player(s, 0)["score"] == score - 5
    assert player(s, 0)["supply"] == [1, 1, 0, 0, 0]
    assert vp(s, 0, "tower penalties") == -5
    assert s.raw()["turn_player"] == 1


def test_fewer_than_two_tiles_loses_five_R_TOWER_T8():
    """R-TOWER-T8: with fewer than 2 tiles the player cannot give up 2 and loses 5 VP."""
    s = advanced("T8")
    activate(s, "gray white brown")
    edit_player(s, 0, supply={"brown": 1})
    score = player(s, 0)["score"]
    do(s, "end turn")
    if not s.is_chance_node() and s.current_player() == 0 and pay_names(s):
        # a choice is offered: it must not include giving up tiles
        assert pay_names(s) == {"tower: lose 5 VP"}
        do(s, "tower: lose 5 VP")
    assert player(s, 0)["score"] == score - 5
    assert player(s, 0)["supply"] == [0, 0, 1, 0, 0]
    assert s.raw()["turn_player"] == 1


def test_pay_two_coins_or_lose_five_R_TOWER_T9():
    """R-TOWER-T9: at the end of the turn: pay 2 coins (to the supply) or lose 5 VP."""
    s = advanced("T9")
    activate(s, "gray white brown")
    edit_player(s, 0, coins=3)
    do(s, "end turn")
    assert pay_names(s) == {"tower: pay 2 coins", "tower: lose 5 VP"}
    score = player(s, 0)["score"]
    do(s, "tower: pay 2 coins")
    assert player(s, 0)["coins"] == 1 and player(s, 0)["score"] == score
    assert s.raw()["turn_player"] == 1

    s = advanced("T9")
    activate(s, "gray white brown")
    edit_player(s, 0, coins=2)
    do(s, "end turn", "tower: lose 5 VP")
    assert player(s, 0)["coins"] == 2 and player(s, 0)["score"] == score - 5


def test_fewer_than_two_coins_loses_five_R_TOWER_T9():
    """R-TOWER-T9: with fewer than 2 coins the player loses 5 VP."""
    s = advanced("T9")
    activate(s, "gray white brown")
    edit_player(s, 0, coins=1)
    score = player(s, 0)["score"]
    do(s, "end turn")
    if not s.is_chance_node() and s.current_player() == 0 and pay_names(s):
        assert pay_names(s) == {"tower: lose 5 VP"}
        do(s, "tower: lose 5 VP")
    assert player(s, 0)["score"] == score - 5
    assert player(s, 0)["coins"] == 1
    assert s.raw()["turn_player"] == 1


def test_take_the_pushed_out_tile_R_TOWER_T10():
    """R-TOWER-T10: the active player may take the tile they pushed out into their supply (once)."""
    s = advanced("T10")
    edit_player(s, 0, supply={})
    activate(s, "gray white brown", out="orange")
    assert s.raw()["outer"][3] == colour("orange")
    assert "take the pushed-out tile" in legal(s)
    do(s, "take the pushed-out tile")
    assert player(s, 0)["supply"] == [0, 0, 0, 0, 1]
    assert s.raw()["outer"][3] == -1
    assert "take the pushed-out tile" not in legal(s)

    s = advanced("T9")                        # not without T10
    activate(s, "gray white brown", out="orange")
    assert "take the pushed-out tile" not in legal(s)


def test_T10_only_the_tile_pushed_out_this_turn_R_TOWER_T10():
    """R-TOWER-T10: only after the push; a tile pushed out earlier is not 'the' pushed-out tile."""
    s = advanced("T10")
    assert "take the pushed-out tile" not in legal(s)        # before the draw
    activate(s, "gray white brown", out="orange")
    do(s, "end turn")
    s2 = s.clone()
    # seat 1 pushes row 2: the orange tile from seat 0's push is still on space 3
    to_actions(s2, draw="gray", push="row 2 from left")
    assert s2.raw()["outer"][3] == colour("orange")
    do(s2, "take the pushed-out tile")
    assert s2.raw()["outer"][3] == colour("orange")           # not the old tile
    assert s2.raw()["outer"][4] == -1                         # this turn's one was taken


def test_choose_colour_of_tile_to_push_R_TOWER_T11():
    """R-TOWER-T11: before the draw the player may choose any colour still in the bag."""
    s = advanced("T11")
    set_bag(s, {"gray": 3, "white": 0, "brown": 2, "turquoise": 0, "orange": 1})
    picks = {a for a in legal(s) if a.startswith("pick ")}
    assert picks == {"pick gray", "pick brown", "pick orange"}
    do(s, "pick brown")
    r = s.raw()
    assert r["phase"] == PUSH and r["drawn"][0] == colour("brown")
    assert r["bag"] == [3, 0, 1, 0, 1]
    do(s, "push row 1 from left")
    assert s.raw()["grid"][0] == colour("brown")

    s = advanced("T10")                        # no free choice without T11
    assert not any(a.startswith("pick ") for a in legal(s))


def test_T11_choice_after_outer_tiles_return_R_TOWER_T11():
    """R-TOWER-T11 (with R-DRAW-1, R-DRAW-8): the colours offered are those in the bag at the
    draw: outer tiles returned when no line can be pushed, or one of each if it is empty."""
    s = advanced("T11")
    set_bag(s, {"gray": 1})
    edit(s, outer=[colour("orange")] * 12)
    assert {a for a in legal(s) if a.startswith("pick ")} == {"pick gray", "pick orange"}
    do(s, "pick orange")
    r = s.raw()
    assert r["outer"] == [-1] * 12
    assert r["bag"] == [1, 0, 0, 0, 11] and r["drawn"][0] == colour("orange")

    s = advanced("T11")
    set_bag(s, {})
    assert {a for a in legal(s) if a.startswith("pick ")} == {f"pick {c}" for c in COLOURS}
    added = s.raw()["tiles_added"]
    do(s, "pick white")
    r = s.raw()
    assert r["bag"] == [1, 0, 1, 1, 1] and r["tiles_added"] == added + 5


def test_T11_builder_adds_nothing_R_TOWER_T11():
    """R-TOWER-T11: with the Builder a free choice is still one tile (no second draw)."""
    s = advanced("T11")
    give_descendant(s, "Builder", 0)
    bag = list(s.raw()["bag"])
    do(s, "pick orange")
    assert not s.is_chance_node()
    assert s.raw()["phase"] == PUSH
    assert sum(s.raw()["bag"]) == sum(bag) - 1
    assert any(a.startswith("push ") for a in legal(s))


@pytest.mark.parametrize("index, expected", [
    (8, {"Leaning House", "Oath House", "Town Hall", "Garden", "Shipyard"}),
    (0, {"Leaning House", "Tillage"}),
    (1, {"Leaning House", "Tillage", "Garden"}),
    (21, {"Goose Tower", "Reichenauer Hof"}),
    (14, {"Town Hall", "Goose Tower", "Shipyard", "Reichenauer Hof"}),
])
def test_seal_reach_within_three_river_spaces_R_TOWER_T12(index, expected):
    """R-TOWER-T12: seal in the quarters beside any river index within 3 of the own barge."""
    s = advanced("T12")
    set_barges(s, index, 0 if index else 1)
    activate(s, "orange white brown")
    edit_player(s, 0, coins=2)
    assert seal_names(s) == {f"seal in {q}" for q in expected}


def test_T12_reach_places_seal_and_privilege_R_TOWER_T12():
    """R-TOWER-T12: a seal 3 spaces away goes to that quarter and gives its privilege."""
    s = advanced("T12")
    set_barges(s, 13, 0)
    activate(s, "orange white brown")
    edit_player(s, 0, coins=2, score=5)
    do(s, "seal in Reichenauer Hof")                     # index 16 is 3 ahead
    p = player(s, 0)
    assert p["seals_in"][quarter("Reichenauer Hof")] == 1 and p["coins"] == 0
    assert p["score"] == 6                               # privilege: 1 quarter with a seal

    s = advanced("T11")                                  # without T12: only beside the barge
    set_barges(s, 13, 0)
    activate(s, "orange white brown")
    assert seal_names(s) == {"seal in Town Hall", "seal in Shipyard"}


def test_tower_payment_settled_at_end_of_turn_R_TOWER_1():
    """R-TOWER-1: T8 is settled when the turn ends, with the tiles held then (gained this turn
    included); nothing is asked before; the returned tiles go to the bag."""
    s = advanced("T8")
    edit_player(s, 0, supply={})
    activate(s, "gray white brown", out="orange")
    assert not pay_names(s)
    do(s, "clear right")                                 # takes the orange tile on space 3
    assert player(s, 0)["supply"] == [0, 0, 0, 0, 1]
    edit_player(s, 0, supply={"orange": 1, "turquoise": 1})
    bag_total = sum(s.raw()["bag"])
    do(s, "end turn")
    assert pay_names(s) == {"tower: give turquoise+orange", "tower: lose 5 VP"}
    do(s, "tower: give turquoise+orange")
    assert sum(s.raw()["bag"]) == bag_total + 2
    assert player(s, 0)["supply"] == [0, 0, 0, 0, 0]


def test_tower_payment_every_players_turn_R_TOWER_1():
    """R-TOWER-1: T9 is settled at the end of EACH player's turn; coins go to the supply."""
    s = advanced("T9", players=3)
    for p in range(3):
        assert s.raw()["turn_player"] == p
        activate(s, "gray white brown")
        edit_player(s, p, coins=4)
        do(s, "end turn")
        assert pay_names(s) == {"tower: pay 2 coins", "tower: lose 5 VP"}
        do(s, "tower: pay 2 coins")
        assert player(s, p)["coins"] == 2
        if p < 2:
            set_tower(s, "T9")


def test_tower_tiles_only_in_advanced_game_R_TOWER_1():
    """R-TOWER-1 (section 10: advanced variant only): in the basic game no tower tile is in
    force, so no turn ever ends with a T8/T9 payment."""
    for seed in range(5):
        s = fresh(3, "basic", seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            r = s.raw()
            assert r["tower_current"] == -1 and r["tower_next"] == -1
            if s.is_chance_node():
                s.apply_action(s.sample_chance_outcome())
                continue
            assert not pay_names(s)
            s.apply_action(rng.choice(s.legal_actions()))


def test_score_may_go_below_zero_R_TOWER_2():
    """R-TOWER-2: a score may go below zero (2 VP - 5 = -3), also in the breakdown total."""
    s = advanced("T9")
    activate(s, "gray white brown")
    raw = s.raw()
    raw["players"][0]["score"] = 2
    raw["players"][0]["vp"] = [2] + [0] * 13
    raw["players"][0]["coins"] = 0
    s.set_raw(raw)
    do(s, "end turn")
    if not s.is_chance_node() and pay_names(s):
        do(s, "tower: lose 5 VP")
    assert player(s, 0)["score"] == -3
    assert s.scores()[0] == -3
    assert vp(s, 0, "tower penalties") == -5


def test_final_score_may_be_negative_R_TOWER_2():
    """R-TOWER-2: the game ends with a negative score for a player who lost points."""
    s = advanced("T9")
    edit(s, round=9)
    set_tower(s, "T9")
    activate(s, "gray white brown")
    do(s, "end turn", "tower: lose 5 VP")     # seat 0: 5 - 5 = 0
    set_tower(s, "T9")
    activate(s, "gray white brown")
    edit_player(s, 1, score=1, vp=[1] + [0] * 13, coins=0, sparrows=0)
    set_barges(s, 0, 0)
    do(s, "end turn")
    if not s.is_terminal() and pay_names(s):
        do(s, "tower: lose 5 VP")
    assert s.is_terminal()
    # seat 1: 1 - 5 and river -11 at the end
    assert s.scores()[1] == 1 - 5 - 11
    assert s.score_breakdown(1)["total"] == -15
    assert s.returns() == [1.0, 0.0]


# ===========================================================================
# Section 11: end of game and scoring
# ===========================================================================

def test_game_ends_after_tenth_round_last_turn_R_END_1():
    """R-END-1: the game ends when the last player of round 10 ends the turn, not before."""
    s = fresh(3)
    edit(s, round=9)
    for p in range(3):
        assert not s.is_terminal()
        assert s.raw()["turn_player"] == p and s.raw()["round"] == 9
        activate(s, "gray white brown")
        do(s, "end turn")
    assert s.is_terminal()
    assert s.raw()["round"] == 10
    assert s.legal_actions() == []
    with pytest.raises(ulm.IllegalActionError):
        s.apply_action(s.string_to_action("draw"))


def test_round_nine_does_not_end_the_game_R_END_1():
    """R-END-1: after round 9's last turn round 10 starts with seat 0."""
    s = fresh(2)
    edit(s, round=8, turn_player=1)
    activate(s, "gray white brown")
    do(s, "end turn")
    assert not s.is_terminal()
    r = s.raw()
    assert r["round"] == 9 and r["turn_player"] == 0 and r["phase"] == BEFORE_DRAW


@pytest.mark.parametrize("players, variant", [(2, "basic"), (3, "advanced"), (4, "basic"),
                                              (4, "advanced")])
def test_random_games_last_ten_rounds_R_END_1(players, variant):
    """R-END-1: in random games every seat gets exactly one turn in each of 10 rounds, then
    the game is over (advanced: 10 tower tiles used, 2 never seen)."""
    for seed in range(3):
        s = fresh(players, variant, seed)
        rng = random.Random(seed)
        turns = set()
        while not s.is_terminal():
            r = s.raw()
            turns.add((r["round"], r["turn_player"]))
            if s.is_chance_node():
                s.apply_action(s.sample_chance_outcome())
            else:
                s.apply_action(rng.choice(s.legal_actions()))
        assert turns == {(rd, p) for rd in range(10) for p in range(players)}
        r = s.raw()
        assert r["round"] == 10
        if variant == "advanced":
            assert bin(r["tower_unseen"]).count("1") == 2


# --- my own end-game scoring from raw() (R-END-2) ----------------------------

CATH = [card(n) for n in ("Steeple I", "Steeple II", "Steeple III", "Nave I", "Nave II",
                          "Nave III", "Choir I", "Choir II", "Choir III")]


@functools.lru_cache(maxsize=None)
def best_trade_sets(a: int, g: int, f: int) -> int:
    """R-CARD-TRADE-LOWER: best partition into sets of one kind (+6) / three kinds (+3)."""
    best = 0
    for k, n in enumerate((a, g, f)):
        if n >= 3:
            rest = [a, g, f]
            rest[k] -= 3
            best = max(best, 6 + best_trade_sets(*rest))
    if a and g and f:
        best = max(best, 3 + best_trade_sets(a - 1, g - 1, f - 1))
    return best


def my_end_items(raw: dict, p: int) -> dict:
    pl = raw["players"][p]
    front = set(mask_cards(pl["front"]))
    sp = pl["sparrows"]
    items = {}
    if "Ulm Sparrow" in front:
        items["sparrows"] = 2 * min(sp, 5) + max(sp - 5, 0)
    else:
        items["sparrows"] = sp
    items["river"] = river_value(pl["barge"])
    parts = [sum(1 for c in front if c.startswith(k)) for k in ("Steeple", "Nave", "Choir")]
    n_cath = sum(parts)
    items["cathedral cards"] = 3 * n_cath + 9 * min(parts)
    kinds = [sum(1 for c in front if c.startswith(k))
             for k in ("Works of Art", "Commercial Goods", "Fustian")]
    items["trade cards"] = 3 * sum(kinds) + best_trade_sets(*kinds)
    v = 0
    if "Ulm Chronicle" in front:
        v += 2 * bin(pl["coats"]).count("1")
    if "City Wall" in front:
        for q in range(8):
            mine = pl["seals_in"][q]
            if mine and all(o["seals_in"][q] < mine
                            for i, o in enumerate(raw["players"]) if i != p):
                v += 2
    if "Construction Freeze" in front:
        v += min(pl["coins"], 6)
    if "Fishermen's Jousting" in front:
        ahead = sum(1 for i, o in enumerate(raw["players"]) if i != p and o["barge"] > pl["barge"])
        v += {0: 6, 1: 3}.get(ahead, 0)
    if "Patrician" in front:
        v += 4
    if "Reformation" in front:
        v += 2 * n_cath
    if "Siege" in front:
        v += len(front)
    if "Swabian League" in front:
        v += 2 * sum(1 for x in pl["supply"] if x > 0)
    items["chronicle cards"] = v
    return items


def finish_now(s):
    """Make the current turn (seat 0, round 1) the last turn of the game and end it."""
    n = s.num_players()
    edit(s, round=9, turn_player=n - 1)
    activate(s, "gray white brown")
    do(s, "end turn")
    assert s.is_terminal()
    return s


def test_final_scoring_items_R_END_2():
    """R-END-2: at the end: +1 VP per sparrow, the river value of the barge's index, the lower
    bonuses of the cards in front; hand cards score nothing."""
    s = fresh(2)
    edit_player(s, 1, sparrows=7, barge=15, coins=3, score=10, vp=[10] + [0] * 13,
                front=["Steeple I", "Nave II", "Choir III", "Steeple II",
                       "Works of Art I", "Works of Art II", "Works of Art III",
                       "Commercial Goods I", "Fustian I"],
                hand=["Patrician", "Siege", "Nave I"])
    finish_now(s)
    b = s.score_breakdown(1)
    assert b["sparrows"] == 7
    assert b["river"] == 5
    assert b["cathedral cards"] == 4 * 3 + 9          # one complete set
    assert b["trade cards"] == 5 * 3 + 6              # 3 of one kind; the rest no set
    assert b["chronicle cards"] == 0                  # Patrician/Siege only in hand
    assert s.scores()[1] == 10 + 7 + 5 + 21 + 21
    assert b["total"] == s.scores()[1]


def test_hand_cards_score_nothing_R_END_2():
    """R-END-2: a full hand adds nothing at the end (R-CARD-PLAY-3)."""
    base = fresh(2)
    edit_player(base, 1, sparrows=0, barge=11, score=5, vp=[5] + [0] * 13)
    a = base.clone()
    b = base.clone()
    r = b.raw()
    r["pile"] &= ~cards_mask("Patrician", "Siege", "Steeple I", "Nave I", "Choir I",
                             "Works of Art I")
    b.set_raw(r)
    edit_player(b, 1, hand=["Patrician", "Siege", "Steeple I", "Nave I", "Choir I",
                            "Works of Art I"])
    finish_now(a)
    finish_now(b)
    assert a.scores()[1] == b.scores()[1] == 5 + 1
    assert b.score_breakdown(1) == a.score_breakdown(1)


@pytest.mark.parametrize("sparrows, expected", [(0, 0), (3, 6), (5, 10), (7, 12)])
def test_ulm_sparrow_changes_sparrow_points_R_END_2(sparrows, expected):
    """R-END-2: 1 VP per sparrow; the Ulm Sparrow lower bonus makes it 2 VP for up to 5."""
    s = fresh(2)
    edit_player(s, 0, sparrows=sparrows, front=["Ulm Sparrow"])
    edit_player(s, 1, sparrows=sparrows)
    finish_now(s)
    assert s.score_breakdown(0)["sparrows"] == expected
    assert s.score_breakdown(1)["sparrows"] == sparrows


@pytest.mark.parametrize("index", [0, 5, 10, 11, 16, 21])
def test_river_value_at_the_end_R_END_2(index):
    """R-END-2: the river value of the barge's index is added (negative before the bridge)."""
    s = fresh(2)
    set_barges(s, index, 0 if index else 3)
    edit_player(s, 0, sparrows=0, score=5, vp=[5] + [0] * 13)
    finish_now(s)
    assert s.score_breakdown(0)["river"] == river_value(index)
    assert s.scores()[0] == 5 + river_value(index)


@pytest.mark.parametrize("front, cath, trade, chron", [
    (["Steeple I", "Steeple II", "Steeple III"], 9, 0, 0),
    (["Steeple I", "Nave I", "Choir I", "Steeple II", "Nave II", "Choir II"], 18 + 18, 0, 0),
    (["Works of Art I", "Commercial Goods I", "Fustian I"], 0, 9 + 3, 0),
    (["Works of Art I", "Works of Art II", "Works of Art III", "Commercial Goods I",
      "Commercial Goods II", "Commercial Goods III", "Fustian I"], 0, 21 + 12, 0),
    (["Works of Art I", "Works of Art II", "Works of Art III", "Works of Art IV",
      "Commercial Goods I", "Commercial Goods II", "Commercial Goods III", "Commercial Goods IV",
      "Fustian I", "Fustian II", "Fustian III", "Fustian IV"], 0, 36 + 21, 0),
    (["Patrician", "Siege", "Reformation", "Nave III"], 3, 0, 4 + 4 + 2),
])
def test_lower_bonuses_of_cards_in_front_R_END_2(front, cath, trade, chron):
    """R-END-2: the lower bonuses of the cards in front (best trade-set partition)."""
    s = fresh(2)
    r = s.raw()
    r["pile"] &= ~cards_mask(*front)
    s.set_raw(r)
    edit_player(s, 0, front=front, sparrows=0)
    finish_now(s)
    b = s.score_breakdown(0)
    assert (b["cathedral cards"], b["trade cards"], b["chronicle cards"]) == (cath, trade, chron)


@pytest.mark.parametrize("players, variant", [(2, "basic"), (3, "advanced"), (4, "advanced")])
def test_final_scores_of_random_games_match_own_count_R_END_2(players, variant):
    """R-END-2: in played-out games every end item of score_breakdown equals the value computed
    here from the final state, and the end items are included in the final score."""
    for seed in range(25):
        s = fresh(players, variant, seed)
        s.random_playout(seed)
        assert s.is_terminal()
        raw = s.raw()
        for p in range(players):
            b = s.score_breakdown(p)
            mine = my_end_items(raw, p)
            for k, v in mine.items():
                assert b[k] == v, (seed, p, k)
            assert b["total"] == s.scores()[p] == raw["players"][p]["score"]
            assert sum(raw["players"][p]["vp"]) == raw["players"][p]["score"]


def test_projected_end_items_during_play_R_END_2():
    """R-END-2: during play, the end items score_breakdown reports are today's end values."""
    for seed in range(15):
        s = fresh(3, "advanced", seed)
        rng = random.Random(seed)
        steps = 0
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(s.sample_chance_outcome())
            else:
                s.apply_action(rng.choice(s.legal_actions()))
            steps += 1
            if steps % 17 == 0 and not s.is_terminal():
                raw = s.raw()
                for p in range(3):
                    b = s.score_breakdown(p)
                    for k, v in my_end_items(raw, p).items():
                        assert b[k] == v, (seed, steps, p, k)


def _tie_setup(players, scores, seals):
    """Round 10, last seat to end its turn; scores and seals (lists of quarter lists) as
    given; end items neutralised (no sparrows, all barges on index 0, nothing in front)."""
    s = fresh(players)
    edit(s, round=9, turn_player=players - 1)
    activate(s, "gray white brown")
    raw = s.raw()
    qs = [0] * 8
    for p in range(players):
        pl = raw["players"][p]
        pl["score"] = scores[p] + 11          # + river -11 at the end
        pl["vp"] = [scores[p] + 11] + [0] * 13
        pl["sparrows"] = 0
        pl["barge"] = 0
        pl["front"] = 0
        pl["seals_in"] = [0] * 8
        for q in seals[p]:
            pl["seals_in"][quarter(q)] += 1
            qs[quarter(q)] += 1
        pl["seals_left"] = 12 - len(seals[p])
    raw["quarter_seals"] = qs
    s.set_raw(raw)
    do(s, "end turn")
    assert s.is_terminal()
    assert s.scores() == scores
    return s


def test_most_vp_wins_R_END_3():
    """R-END-3: the player with the most VP wins alone, whatever the quarters."""
    s = _tie_setup(3, [20, 21, 19], [["Tillage", "Garden", "Shipyard"], [], ["Garden"]])
    assert s.winners() == [1]
    assert s.returns() == [0.0, 1.0, 0.0]


def test_tie_broken_by_quarters_with_seals_R_END_3():
    """R-END-3: tied on VP -> most quarters holding at least one own seal (not most seals)."""
    s = _tie_setup(2, [20, 20], [["Garden", "Garden", "Garden"], ["Tillage", "Shipyard"]])
    assert s.winners() == [1]
    assert s.returns() == [0.0, 1.0]


def test_tie_break_only_among_top_scores_R_END_3():
    """R-END-3: quarters matter only between the players tied for most VP."""
    s = _tie_setup(4, [15, 18, 18, 17],
                   [["Tillage", "Garden", "Shipyard", "Town Hall"], ["Garden"],
                    ["Tillage", "Oath House"], ["Goose Tower", "Town Hall", "Garden"]])
    assert s.winners() == [2]
    assert s.returns() == [0.0, 0.0, 1.0, 0.0]


def test_still_tied_players_all_win_R_END_3():
    """R-END-3: tied on VP and on quarters -> every tied player is a winner."""
    s = _tie_setup(3, [12, 12, 12], [["Garden"], ["Tillage"], ["Garden", "Shipyard"]])
    assert s.winners() == [2]
    s = _tie_setup(3, [12, 12, 9], [["Garden", "Tillage"], ["Shipyard", "Town Hall"], []])
    assert s.winners() == [0, 1]
    s = _tie_setup(4, [7, 7, 7, 7], [[], [], [], []])
    assert s.winners() == [0, 1, 2, 3]


def test_still_tied_is_a_shared_win_R_END_3():
    """R-END-3: a shared win: returns() gives each of the k winners 1/k."""
    s = _tie_setup(3, [12, 12, 9], [["Garden", "Tillage"], ["Shipyard", "Town Hall"], []])
    assert s.returns() == [0.5, 0.5, 0.0]
    s = _tie_setup(4, [7, 7, 7, 7], [[], [], [], []])
    assert s.returns() == [0.25, 0.25, 0.25, 0.25]
    s = _tie_setup(4, [7, 7, 7, 6], [["Garden"], ["Tillage"], ["Shipyard"], ["Goose Tower"] * 2])
    assert s.returns() == pytest.approx([1 / 3, 1 / 3, 1 / 3, 0.0])


def test_tie_break_with_negative_scores_R_END_3():
    """R-END-3 (with R-TOWER-2): the highest score wins also when all are negative."""
    s = _tie_setup(2, [-4, -3], [["Garden", "Tillage"], []])
    assert s.returns() == [0.0, 1.0]
    s = _tie_setup(2, [-4, -4], [["Garden", "Tillage"], ["Goose Tower"]])
    assert s.returns() == [1.0, 0.0]


def test_returns_are_zero_before_the_end_R_END_3():
    """R-END-3: wins are shared out only at the end."""
    s = fresh(3)
    assert s.returns() == [0.0, 0.0, 0.0]


def test_score_breakdown_by_source_R_END_4():
    """R-END-4: every player's breakdown has every source plus a total; during play the
    in-play sources add up to the score and the total is the projected score."""
    s = fresh(4, "advanced", 5)
    rng = random.Random(5)
    for _ in range(120):
        if s.is_chance_node():
            s.apply_action(s.sample_chance_outcome())
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    assert not s.is_terminal()
    proj = s.projected_scores()
    for p in range(4):
        b = s.score_breakdown(p)
        assert set(b) == set(ulm.SOURCES) | {"total"}
        play = sum(b[k] for k in ulm.SOURCES[:9])
        assert play == s.scores()[p]
        assert b["total"] == proj[p]
        assert b["total"] == sum(b[k] for k in ulm.SOURCES)
    with pytest.raises(ValueError):
        s.score_breakdown(4)


def test_score_breakdown_names_each_source_R_END_4():
    """R-END-4: points land under their source: coats of arms, Reichenauer Hof, tower
    penalties, cathedral upper, and each end-game item separately."""
    s = advanced("T9")
    set_barges(s, 17, 0)
    activate(s, "orange white brown")
    edit_player(s, 0, coins=2, supply={"gray": 1}, hand=["Steeple I"])
    r = s.raw()
    r["pile"] &= ~cards_mask("Steeple I")
    s.set_raw(r)
    do(s, "seal in Reichenauer Hof")                   # +1 Reichenauer Hof
    do(s, "play Steeple I (upper)", "pick gray")       # +6 cathedral upper
    do(s, "end turn")                                  # 0 coins: -5 tower penalty
    b = s.score_breakdown(0)
    assert b["start"] == 5
    assert b["Reichenauer Hof"] == 1
    assert b["cathedral cards (upper)"] == 6
    assert b["tower penalties"] == -5
    assert b["river"] == river_value(17)
    assert b["sparrows"] == 2
    assert player(s, 0)["score"] == 5 + 1 + 6 - 5


def test_breakdown_at_the_end_equals_scores_R_END_4():
    """R-END-4: after the end each end-game item is part of the final score, per player."""
    s = fresh(2)
    edit_player(s, 0, sparrows=3, front=["Patrician"])
    set_barges(s, 12, 0)
    finish_now(s)
    for p in range(2):
        b = s.score_breakdown(p)
        assert b["total"] == s.scores()[p]
    b = s.score_breakdown(0)
    assert (b["sparrows"], b["river"], b["chronicle cards"]) == (3, 2, 4)
    assert s.scores()[0] == 5 + 3 + 2 + 4


# ===========================================================================
# Section 2: the board (defaults)
# ===========================================================================

@pytest.mark.parametrize("players", [2, 3, 4])
def test_all_barges_start_on_index_zero_R_BOARD_1(players):
    """R-BOARD-1: all barges start on index 0 (value -11); index 0 holds several barges."""
    s = fresh(players)
    assert [player(s, p)["barge"] for p in range(players)] == [0] * players
    for p in range(players):
        assert s.score_breakdown(p)["river"] == -11


def test_river_values_by_index_R_BOARD_1():
    """R-BOARD-1: values -11..-1 at indices 0..10, +1..+11 at 11..21 (no 0: the bridge lies
    between index 10 and 11)."""
    s = fresh(2)
    seen = []
    for i in range(22):
        set_barges(s, i, 0 if i else 1)
        seen.append(s.score_breakdown(0)["river"])
    assert seen == list(range(-11, 0)) + list(range(1, 12))


def test_river_has_22_spaces_R_BOARD_1():
    """R-BOARD-1: 21 single steps lead from index 0 to index 21; there is nothing beyond."""
    s = fresh(2)
    activate(s, "gray turquoise white")
    steps = 0
    while True:
        edit(s, avail=[0, 0, 0, 1, 0])
        if "river step" not in legal(s):
            break
        do(s, "river step")
        while s.task_stack():               # bonus spaces: take whatever is offered
            if s.is_chance_node():
                s.apply_action(s.sample_chance_outcome())
            else:
                s.apply_action(s.legal_actions()[0])
        steps += 1
    assert steps == 21
    assert player(s, 0)["barge"] == 21


def _step_to(index, players=2):
    """Seat 0's barge one space before `index`, then one river step."""
    s = fresh(players)
    set_barges(s, index - 1, *([0] * (players - 1)))
    activate(s, "gray turquoise white")
    before = player(s, 0)
    do(s, "river step")
    assert player(s, 0)["barge"] == index
    return s, before


def test_bonus_space_18_gives_a_coin_R_BOARD_2():
    """R-BOARD-2: index 18 (+8): one coin."""
    s, before = _step_to(18)
    assert player(s, 0)["coins"] == before["coins"] + 1
    assert player(s, 0)["sparrows"] == before["sparrows"]
    assert not s.task_stack()


def test_bonus_space_19_gives_a_sparrow_R_BOARD_2():
    """R-BOARD-2: index 19 (+9): one sparrow."""
    s, before = _step_to(19)
    assert player(s, 0)["sparrows"] == before["sparrows"] + 1
    assert player(s, 0)["coins"] == before["coins"]
    assert not s.task_stack()


def test_bonus_space_20_gives_a_dock_tile_of_choice_R_BOARD_2():
    """R-BOARD-2: index 20 (+10): one action tile of the player's choice from the docks."""
    s, before = _step_to(20)
    edit(s, docks=[1, 1, 0, 1, 1])
    assert set(legal(s)) == {f"take {c} from the docks"
                             for c in ("gray", "white", "turquoise", "orange")}
    do(s, "take orange from the docks")
    assert player(s, 0)["supply"][colour("orange")] == before["supply"][colour("orange")] + 1
    assert s.is_chance_node()                 # the dock space is refilled from the bag


def test_bonus_space_21_gives_the_top_card_R_BOARD_2():
    """R-BOARD-2: index 21 (+11): the top card of the draw pile goes to the hand."""
    s, before = _step_to(21)
    assert before["hand"] == 0
    assert s.is_chance_node()
    chance(s, "card Fustian II")
    assert player(s, 0)["hand"] == cards_mask("Fustian II")


def test_no_bonus_on_other_spaces_R_BOARD_2():
    """R-BOARD-2: indices 1..17 give nothing."""
    for i in range(1, 18):
        s, before = _step_to(i)
        after = player(s, 0)
        assert (after["coins"], after["sparrows"], after["hand"], after["supply"]) == (
            before["coins"], before["sparrows"], before["hand"], before["supply"]), i
        assert not s.task_stack(), i


@pytest.mark.parametrize("index", range(22))
def test_quarters_beside_each_river_index_R_BOARD_3(index):
    """R-BOARD-3: a seal action reaches exactly the north and the south quarter beside the
    barge (Leaning 0-5, Oath 6-10, Town Hall 11-16, Goose 17-21; Tillage 0-3, Garden 4-9,
    Shipyard 10-15, Reichenauer Hof 16-21)."""
    s = fresh(2)
    set_barges(s, index, 0 if index else 1)
    activate(s, "orange white brown")
    edit_player(s, 0, coins=2)
    assert seal_names(s) == {f"seal in {north_of(index)}", f"seal in {south_of(index)}"}


def test_rulebook_examples_for_quarters_R_BOARD_3():
    """R-BOARD-3: a barge between Oath House and Garden (index 6..9); crossing the bridge
    (10 -> 11) a seal goes to the Town Hall."""
    for i in (6, 7, 8, 9):
        assert (north_of(i), south_of(i)) == ("Oath House", "Garden")
    s = fresh(2)
    set_barges(s, 10, 0)
    activate(s, "orange turquoise white")
    do(s, "river step")
    assert player(s, 0)["barge"] == 11
    assert "seal in Town Hall" in legal(s)
    assert "seal in Oath House" not in legal(s)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("q", ["Tillage", "Leaning House", "Oath House", "Garden",
                               "Town Hall", "Shipyard", "Reichenauer Hof", "Goose Tower"])
def test_four_seal_spaces_per_quarter_R_BOARD_4(players, q):
    """R-BOARD-4: every quarter has 4 seal spaces for every player count: with 3 seals there
    a seal may go there, with 4 it may not."""
    index = next(i for i in range(22) if q in (north_of(i), south_of(i)))
    s = fresh(players)
    set_barges(s, index, *([0 if index else 1] * (players - 1)))
    activate(s, "orange white brown")
    edit_player(s, 0, coins=2)
    qs = [0] * 8
    qs[quarter(q)] = 3
    edit(s, quarter_seals=qs)
    assert f"seal in {q}" in legal(s)
    qs[quarter(q)] = 4
    edit(s, quarter_seals=qs)
    assert f"seal in {q}" not in legal(s)


def test_fourth_seal_fills_a_quarter_in_play_R_BOARD_4():
    """R-BOARD-4: four real seals fill a quarter; the fifth is refused."""
    s = fresh(4)
    set_barges(s, 17, 0, 0, 0)
    for _ in range(4):
        assert s.raw()["turn_player"] == 0
        activate(s, "orange white brown")
        edit_player(s, 0, coins=2)
        assert "seal in Reichenauer Hof" in legal(s)
        do(s, "seal in Reichenauer Hof", "end turn")
        for _ in (1, 2, 3):
            activate(s, "gray white brown")
            do(s, "end turn")
        while s.is_chance_node():
            s.apply_action(s.sample_chance_outcome())
    assert s.raw()["quarter_seals"][quarter("Reichenauer Hof")] == 4
    activate(s, "orange white brown")
    edit_player(s, 0, coins=2)
    assert seal_names(s) == {"seal in Goose Tower"}


def test_oath_house_spaces_are_the_four_descendants_R_BOARD_4():
    """R-BOARD-4: the Oath House's 4 spaces are the 4 Descendants laid out; a seal there takes
    one of the Descendants still on the board."""
    for players in (2, 3, 4):
        s = fresh(players, seed=players)
        assert sum(1 for d in s.raw()["desc"] if d == -1) == 4
    s = fresh(2, seed=1)
    on_board = [DESCENDANTS[i] for i, d in enumerate(s.raw()["desc"]) if d == -1]
    set_barges(s, 7, 0)
    activate(s, "orange white brown")
    edit_player(s, 0, coins=2)
    do(s, "seal in Oath House")
    assert set(legal(s)) == {f"take {d}" for d in on_board}
    do(s, f"take {on_board[2]}")
    assert s.raw()["desc"][DESCENDANTS.index(on_board[2])] == 0


@pytest.mark.parametrize("c", range(12))
def test_coat_shown_on_its_outer_space_R_BOARD_5(c):
    """R-BOARD-5 (section 7 table): coat k is shown on outer space k; taking it scores its
    immediate VP, puts a seal on that outer space and (golden) a crest on its quarter."""
    name = COATS[c]
    other = COATS[(c + 1) % 12]
    s = fresh(2)
    activate(s, "orange white brown")          # barge on 0: Leaning House
    edit_player(s, 0, coins=2)
    do(s, "seal in Leaning House")
    chance(s, f"coat {name}", f"coat {other}")
    score = player(s, 0)["score"]
    do(s, f"keep coat {name}")
    r = s.raw()
    expected_vp = 4 if name.startswith("S-") else (3 if name == "G-Shipyard" else 2)
    assert player(s, 0)["score"] == score + expected_vp
    assert r["outer_mark"] == [0 if k == c else -1 for k in range(12)]
    golden = {"G-Tillage": "Tillage", "G-Leaning": "Leaning House", "G-Garden": "Garden",
              "G-Oath": "Oath House", "G-TownHall": "Town Hall", "G-Shipyard": "Shipyard",
              "G-Reichenau": "Reichenauer Hof", "G-Goose": "Goose Tower"}
    if name in golden:
        assert r["crest_owner"] == [0 if QUARTERS[q] == golden[name] else -1 for q in range(8)]
    else:
        assert r["crest_owner"] == [-1] * 8


@pytest.mark.parametrize("name, later", [("G-Reichenau", 2), ("G-Shipyard", 1)])
def test_golden_coat_later_points_R_BOARD_5(name, later):
    """R-BOARD-5 (section 7 table): the crest owner gains the coat's later VP (2; Shipyard 1)
    when a seal is placed in that quarter."""
    q = "Reichenauer Hof" if name == "G-Reichenau" else "Shipyard"
    s = fresh(2)
    coats = s.raw()["coat_owner"]
    coats[coat(name)] = 1
    r = s.raw()
    r["coat_owner"] = coats
    r["crest_owner"][quarter(q)] = 1
    r["coat_unknown"] &= ~(1 << coat(name))
    s.set_raw(r)
    set_barges(s, 16 if q == "Reichenauer Hof" else 12, 0)
    activate(s, "orange white brown")
    edit_player(s, 0, coins=2)
    before = player(s, 1)["score"]
    do(s, f"seal in {q}")
    assert player(s, 1)["score"] == before + later


def test_sparrow_from_marked_outer_space_R_BOARD_5():
    """R-BOARD-5: the seal on an outer space's coat image earns its owner a sparrow when a tile
    is pushed onto that space (space 3 shows G-Oath, space 8 shows S-1)."""
    s = fresh(2)
    edit(s, outer_mark=[-1, -1, -1, 1, -1, -1, -1, -1, -1, -1, -1, -1])
    sp = player(s, 1)["sparrows"]
    activate(s, "gray white brown")              # row 1 from left pushes onto space 3
    assert s.raw()["outer"][3] >= 0
    assert player(s, 1)["sparrows"] == sp + 1
