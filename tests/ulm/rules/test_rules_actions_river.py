"""Rule tests for RULES.md section 4.3 (the five actions) and 4.4 (river movement),
plus the worked examples of the English rulebook (seeds/004_*.txt) on these actions.

Every situation is constructed: row 1 of the grid is set so that pushing the drawn
tile from the left activates exactly the colours the test needs; the tile at the
right end of row 1 is pushed out onto outer space 3 (right side, top).
"""
import pytest

from helpers import *

FILLER = "orange gray white / brown turquoise gray"   # rows 2 and 3, never activated
RIGHT_TOP = 3   # outer space the tile pushed out of row 1 (from the left) lands on


# ---------------------------------------------------------------------------
# small builders

def at_actions(s, draw, row1):
    """Draw a tile of colour `draw` and push it into row 1 from the left.
    row1 = 'a b c': after the push the activated tiles are draw, a, b and c is
    pushed out onto outer space 3."""
    set_grid(s, f"{row1} / {FILLER}")
    set_outer(s, {RIGHT_TOP: None, 11: None})   # row 1 pushable (R-PUSH-3)
    r = s.raw()
    if r["bag"][colour(draw)] == 0:
        bag = r["bag"]
        bag[colour(draw)] = 1
        edit(s, bag=bag)
    do(s, "draw")
    chance(s, f"tile {draw}")
    do(s, "push row 1 from left")
    assert s.raw()["phase"] == ACTIONS
    return s


def ready(draw, row1, players=2, variant="basic", tower_tile=None, **p0):
    """A state in the ACTIONS phase of seat 0 after the push."""
    s = fresh(players=players, variant=variant)
    if variant == "advanced":
        set_tower(s, tower_tile)
        # the turn has already started: set the turn-start flag of T5 as the engine's turn
        # start does (test_tower_T5_from_round_start_R_ACT_SEAL_4 checks the real path)
        edit(s, t5_seal=int(tower_tile == "T5"))
    if p0:
        edit_player(s, 0, **p0)
    return at_actions(s, draw, row1)


def seals(names):
    return sorted(n for n in names if n.startswith("seal in"))


def buys(names):
    return sorted(n for n in names if n.startswith("buy card"))


def clears(names):
    return sorted(n for n in names if n.startswith("clear"))


def plays(names):
    return sorted(n for n in names if n.startswith("play "))


def give_coat(s, name, p):
    """Player p owns coat `name` (with its marker and, if golden, its crest)."""
    r = s.raw()
    c = COATS.index(name)
    pl = r["players"][p]
    r["coat_owner"][c] = p
    r["coat_unknown"] &= ~(1 << c)
    pl["coats"] |= 1 << c
    r["outer_mark"][c] = p
    pl["seals_left"] -= 1
    if name.startswith("G-"):
        pl["crests_left"] -= 1
        r["crest_owner"][c] = p   # golden coats are in QUARTERS order
    s.set_raw(r)
    return s


def barge(s, p=0):
    return player(s, p)["barge"]


def coins(s, p=0):
    return player(s, p)["coins"]


def score(s, p=0):
    return player(s, p)["score"]


def supply(s, p=0):
    return dict(zip(COLOURS, player(s, p)["supply"]))


# ---------------------------------------------------------------------------
# R-ACT-MONEY-1

def test_money_gives_one_coin_R_ACT_MONEY_1():
    """R-ACT-MONEY-1: a Money action gives exactly 1 coin; one gray tile, one action."""
    s = ready("gray", "white brown orange", coins=2)
    assert "money" in legal(s)
    do(s, "money")
    assert coins(s) == 3
    assert "money" not in legal(s)


def test_money_once_per_activated_gray_R_ACT_MONEY_1():
    """R-ACT-MONEY-1: three activated gray tiles are three Money actions, +1 coin each."""
    s = ready("gray", "gray gray white", coins=0)
    for expected in (1, 2, 3):
        do(s, "money")
        assert coins(s) == expected
    assert "money" not in legal(s)


def test_money_not_offered_without_gray_or_before_push_R_ACT_MONEY_1():
    """R-ACT-MONEY-1: Money needs an activated gray tile; the pushed-out gray gives none,
    and nothing is offered before the push."""
    s = fresh()
    set_grid(s, f"white brown gray / {FILLER}")
    assert "money" not in legal(s)
    do(s, "draw")
    chance(s, "tile orange")
    assert "money" not in legal(s)
    do(s, "push row 1 from left")      # gray is pushed out
    assert "money" not in legal(s)


def test_money_mint_master_one_more_R_ACT_MONEY_1():
    """R-ACT-MONEY-1: the Mint Master adds 1 coin to each Money action."""
    s = fresh()
    give_descendant(s, "Mint Master", 0)
    edit_player(s, 0, coins=2)
    at_actions(s, "gray", "gray white brown")
    do(s, "money")
    assert coins(s) == 4
    do(s, "money")
    assert coins(s) == 6


def test_money_mint_master_of_other_player_gives_nothing_R_ACT_MONEY_1():
    """R-ACT-MONEY-1: only the owner of the Mint Master gets the extra coin."""
    s = fresh()
    give_descendant(s, "Mint Master", 1)
    edit_player(s, 0, coins=2)
    at_actions(s, "gray", "white brown orange")
    do(s, "money")
    assert coins(s) == 3


def test_money_tower_T2_one_more_each_R_ACT_MONEY_1():
    """R-ACT-MONEY-1: tower T2 gives +1 more coin on each Money action."""
    s = ready("gray", "gray white brown", variant="advanced", tower_tile="T2", coins=0)
    do(s, "money")
    assert coins(s) == 2
    do(s, "money")
    assert coins(s) == 4


def test_money_tower_T2_and_mint_master_R_ACT_MONEY_1():
    """R-ACT-MONEY-1: Mint Master and T2 add up: 3 coins per Money action."""
    s = fresh(variant="advanced")
    set_tower(s, "T2")
    give_descendant(s, "Mint Master", 0)
    edit_player(s, 0, coins=0)
    at_actions(s, "gray", "white brown orange")
    do(s, "money")
    assert coins(s) == 3


def test_money_other_tower_tile_no_bonus_R_ACT_MONEY_1():
    """R-ACT-MONEY-1: with another tower tile in force (T1) Money gives just 1 coin."""
    s = ready("gray", "white brown orange", variant="advanced", tower_tile="T1", coins=0)
    do(s, "money")
    assert coins(s) == 1


# ---------------------------------------------------------------------------
# R-ACT-CLEAR-1

def test_clear_takes_all_tiles_of_one_side_R_ACT_CLEAR_1():
    """R-ACT-CLEAR-1: clearing a side takes all its tiles (here 3) into the supply,
    and nothing from the other sides."""
    s = fresh()
    set_outer(s, {0: "brown", 1: "orange", 2: "turquoise", 6: "gray"})
    edit_player(s, 0, supply={})
    at_actions(s, "white", "brown turquoise gray")
    assert clears(legal(s)) == ["clear bottom", "clear right", "clear top"]
    do(s, "clear top")
    assert supply(s) == {"gray": 0, "white": 0, "brown": 1, "turquoise": 1, "orange": 1}
    outer = s.raw()["outer"]
    assert outer[0] == outer[1] == outer[2] == NO_TILE
    assert outer[6] == colour("gray") and outer[RIGHT_TOP] == colour("gray")
    assert clears(legal(s)) == []        # one white tile: one side


def test_clear_single_tile_side_and_empty_sides_not_offered_R_ACT_CLEAR_1():
    """R-ACT-CLEAR-1: a side with 1 tile can be cleared; a side with no tiles cannot be chosen."""
    s = fresh()
    set_outer(s, {10: "orange"})
    edit_player(s, 0, supply={})
    at_actions(s, "white", "gray brown turquoise")
    assert clears(legal(s)) == ["clear left", "clear right"]
    with pytest.raises(ulm.IllegalActionError):
        do(s, "clear top")
    with pytest.raises(ulm.IllegalActionError):
        do(s, "clear bottom")
    do(s, "clear left")
    assert supply(s)["orange"] == 1 and sum(player(s, 0)["supply"]) == 1
    assert s.raw()["outer"][10] == NO_TILE


def test_clear_two_whites_clear_two_sides_R_ACT_CLEAR_1():
    """R-ACT-CLEAR-1: each white tile is a separate clear-away; two whites clear two sides,
    and no third side."""
    s = fresh()
    set_outer(s, {0: "gray", 7: "orange", 8: "orange"})
    edit_player(s, 0, supply={})
    at_actions(s, "white", "white brown turquoise")
    assert clears(legal(s)) == ["clear bottom", "clear right", "clear top"]
    do(s, "clear top")
    assert clears(legal(s)) == ["clear bottom", "clear right"]
    do(s, "clear bottom")
    assert clears(legal(s)) == []
    assert supply(s) == {"gray": 1, "white": 0, "brown": 0, "turquoise": 0, "orange": 2}
    assert s.raw()["outer"][RIGHT_TOP] == colour("turquoise")   # right side left alone


def test_clear_may_take_tile_pushed_out_this_turn_R_ACT_CLEAR_1():
    """R-ACT-CLEAR-1: the tile pushed out this turn may be taken, together with the other
    tiles of its side (3 tiles)."""
    s = fresh()
    set_outer(s, {4: "gray", 5: "brown"})
    edit_player(s, 0, supply={})
    at_actions(s, "white", "turquoise gray orange")   # orange pushed out onto space 3
    assert s.raw()["outer"][RIGHT_TOP] == colour("orange")
    assert clears(legal(s)) == ["clear right"]
    do(s, "clear right")
    assert supply(s) == {"gray": 1, "white": 0, "brown": 1, "turquoise": 0, "orange": 1}
    outer = s.raw()["outer"]
    assert outer[3] == outer[4] == outer[5] == NO_TILE


def test_clear_needs_activated_white_R_ACT_CLEAR_1():
    """R-ACT-CLEAR-1: without an activated white tile there is no clear-away (the pushed-out
    white gives none)."""
    s = fresh()
    set_outer(s, {0: "gray", 6: "brown"})
    at_actions(s, "gray", "brown turquoise white")
    assert clears(legal(s)) == []


# ---------------------------------------------------------------------------
# R-ACT-CLEAR-2

def test_abbot_takes_dock_tile_with_clear_R_ACT_CLEAR_2():
    """R-ACT-CLEAR-2: with the Abbot, a clear-away also takes one tile of choice from the
    loading docks (refilled from the bag)."""
    s = fresh()
    give_descendant(s, "Abbot", 0)
    set_outer(s, {0: "gray"})
    set_docks(s, {"gray": 1, "white": 1, "brown": 1, "turquoise": 1, "orange": 1})
    edit_player(s, 0, supply={})
    at_actions(s, "white", "brown turquoise gray")
    do(s, "clear top")
    assert sorted(legal(s)) == sorted([f"take {c} from the docks" for c in COLOURS]
                                      + ["take no dock tile"])
    do(s, "take orange from the docks")
    assert supply(s) == {"gray": 1, "white": 0, "brown": 0, "turquoise": 0, "orange": 1}
    chance(s, "tile brown")                    # the dock space is refilled (R-DOCK-1)
    assert s.raw()["docks"] == [1, 1, 2, 1, 0]
    assert "end turn" in legal(s)


def test_abbot_dock_tile_with_each_clear_R_ACT_CLEAR_2():
    """R-ACT-CLEAR-2: two clear-away actions with the Abbot give two dock tiles."""
    s = fresh()
    give_descendant(s, "Abbot", 0)
    set_outer(s, {0: "gray", 7: "orange"})
    set_docks(s, {"gray": 1, "white": 1, "brown": 1, "turquoise": 1, "orange": 1})
    edit_player(s, 0, supply={})
    at_actions(s, "white", "white brown turquoise")
    do(s, "clear top", "take white from the docks")
    chance(s, "tile gray")
    do(s, "clear bottom", "take brown from the docks")
    chance(s, "tile gray")
    assert supply(s) == {"gray": 1, "white": 1, "brown": 1, "turquoise": 0, "orange": 1}


def test_no_dock_tile_without_abbot_R_ACT_CLEAR_2():
    """R-ACT-CLEAR-2: without the Abbot (another player has it) a clear-away takes no dock tile."""
    s = fresh()
    give_descendant(s, "Abbot", 1)
    set_outer(s, {0: "gray"})
    edit_player(s, 0, supply={})
    at_actions(s, "white", "brown turquoise gray")
    docks = s.raw()["docks"]
    do(s, "clear top")
    assert not s.is_chance_node()
    assert not any(n.endswith("from the docks") for n in legal(s))
    assert s.raw()["docks"] == docks
    assert sum(player(s, 0)["supply"]) == 1


# ---------------------------------------------------------------------------
# R-ACT-CARD-1

def test_buy_two_different_tiles_one_card_R_ACT_CARD_1():
    """R-ACT-CARD-1: 2 different tiles go back to the bag; the top card goes to the hand."""
    s = ready("brown", "gray white orange", supply={"gray": 1, "white": 1}, hand=[])
    bag = s.raw()["bag"]
    assert buys(legal(s)) == ["buy card paying gray+white"]
    do(s, "buy card paying gray+white")
    assert s.is_chance_node()
    chance(s, "card Siege")
    assert not s.is_chance_node()
    assert mask_cards(player(s, 0)["hand"]) == ["Siege"]
    assert sum(player(s, 0)["supply"]) == 0
    r = s.raw()
    assert r["bag"][colour("gray")] == bag[colour("gray")] + 1
    assert r["bag"][colour("white")] == bag[colour("white")] + 1
    assert r["discard"] == 0
    assert not r["pile"] & cards_mask("Siege")
    assert buys(legal(s)) == []      # one brown tile, one card action


def test_buy_two_same_tiles_look_at_two_keep_one_R_ACT_CARD_1():
    """R-ACT-CARD-1: 2 tiles of one colour: look at the top 2, keep 1, the other goes face up
    on the discard pile."""
    s = ready("brown", "gray white turquoise", supply={"orange": 2, "gray": 1}, hand=[])
    assert buys(legal(s)) == ["buy card paying gray+orange", "buy card paying orange+orange"]
    do(s, "buy card paying orange+orange", "look at the top 2 cards")
    chance(s, "card Siege", "card Patrician")
    assert sorted(legal(s)) == ["keep Patrician", "keep Siege"]
    do(s, "keep Siege")
    r = s.raw()
    assert mask_cards(r["players"][0]["hand"]) == ["Siege"]
    assert mask_cards(r["discard"]) == ["Patrician"]
    assert not r["pile"] & cards_mask("Siege", "Patrician")
    assert supply(s)["orange"] == 0 and supply(s)["gray"] == 1


def test_buy_needs_two_tiles_R_ACT_CARD_1():
    """R-ACT-CARD-1: with fewer than 2 supply tiles (or 1 of a colour for a same-colour pair)
    no card can be bought."""
    s = ready("brown", "gray white turquoise", supply={"orange": 1}, hand=[])
    assert buys(legal(s)) == []
    with pytest.raises(ulm.IllegalActionError):
        do(s, "buy card paying orange+orange", "look at the top 2 cards")


def test_buy_needs_activated_brown_R_ACT_CARD_1():
    """R-ACT-CARD-1: without an activated brown tile there is no buy (the pushed-out brown
    gives none)."""
    s = ready("gray", "white turquoise brown", supply={"orange": 2, "gray": 2}, hand=[])
    assert buys(legal(s)) == []


def test_buy_councilman_two_different_tiles_look_at_two_R_ACT_CARD_1():
    """R-ACT-CARD-1: with the Councilman, 2 different tiles also let the buyer look at 2, keep 1."""
    s = fresh()
    give_descendant(s, "Councilman", 0)
    edit_player(s, 0, supply={"gray": 1, "white": 1}, hand=[])
    at_actions(s, "brown", "gray white orange")
    do(s, "buy card paying gray+white", "look at the top 2 cards")
    chance(s, "card City Wall", "card Nave I")
    assert sorted(legal(s)) == ["keep City Wall", "keep Nave I"]
    do(s, "keep Nave I")
    assert mask_cards(player(s, 0)["hand"]) == ["Nave I"]
    assert mask_cards(s.raw()["discard"]) == ["City Wall"]


def test_buy_two_browns_two_cards_R_ACT_CARD_1():
    """R-ACT-CARD-1: each activated brown tile is one card action: two browns buy two cards."""
    s = ready("brown", "brown white orange", supply={"gray": 2, "white": 2}, hand=[])
    do(s, "buy card paying gray+white")
    chance(s, "card Siege")
    do(s, "buy card paying gray+white")
    chance(s, "card Patrician")
    assert mask_cards(player(s, 0)["hand"]) == ["Patrician", "Siege"]
    assert buys(legal(s)) == []


# ---------------------------------------------------------------------------
# R-ACT-CARD-2

def test_card_action_plays_additional_card_R_ACT_CARD_2():
    """R-ACT-CARD-2: a card action may be used to play one additional hand card (after the free
    one); it then cannot also buy."""
    s = ready("brown", "gray white orange", supply={"gray": 1, "white": 1},
              hand=["Siege", "Patrician", "Ulm Sparrow"])
    do(s, "play Siege (lower)")                    # the free play of the turn
    assert "play Patrician (lower)" in legal(s)
    assert buys(legal(s)) == ["buy card paying gray+white"]
    do(s, "play Patrician (lower)")                # option b
    assert plays(legal(s)) == []                   # no third play
    assert buys(legal(s)) == []                    # the card action is used
    assert mask_cards(player(s, 0)["front"]) == ["Patrician", "Siege"]
    assert mask_cards(player(s, 0)["hand"]) == ["Ulm Sparrow"]


def test_no_additional_card_without_card_action_R_ACT_CARD_2():
    """R-ACT-CARD-2: without an activated brown tile only the one free card play exists."""
    s = ready("gray", "white orange brown", hand=["Siege", "Patrician"])
    do(s, "play Siege (lower)")
    assert plays(legal(s)) == []


def test_card_action_used_for_buy_gives_no_extra_play_R_ACT_CARD_2():
    """R-ACT-CARD-2: option b is instead of buying: after buying with the only brown, only the
    free play is left."""
    s = ready("brown", "gray white orange", supply={"gray": 1, "white": 1},
              hand=["Siege", "Patrician"])
    do(s, "buy card paying gray+white")
    chance(s, "card Reformation")
    do(s, "play Siege (lower)")
    assert plays(legal(s)) == []


def test_two_card_actions_two_extra_plays_R_ACT_CARD_2():
    """R-ACT-CARD-2: two activated browns allow two additional plays (three in all)."""
    s = ready("brown", "brown white orange", hand=["Siege", "Patrician", "Ulm Sparrow", "Reformation"])
    do(s, "play Siege (lower)", "play Patrician (lower)", "play Ulm Sparrow (lower)")
    assert plays(legal(s)) == []
    assert mask_cards(player(s, 0)["hand"]) == ["Reformation"]


# ---------------------------------------------------------------------------
# R-ACT-CARD-3

def test_tower_T3_buy_costs_one_coin_R_ACT_CARD_3():
    """R-ACT-CARD-3: with T3 a card costs 1 coin instead of 2 tiles (replaces the cost: no tile
    payment is offered); one card is drawn."""
    s = ready("brown", "gray white orange", variant="advanced", tower_tile="T3",
              coins=2, supply={"gray": 2, "white": 1}, hand=[])
    assert buys(legal(s)) == ["buy card paying 1 coin"]
    do(s, "buy card paying 1 coin")
    chance(s, "card Siege")
    assert not s.is_chance_node()
    assert coins(s) == 1
    assert supply(s)["gray"] == 2 and supply(s)["white"] == 1
    assert mask_cards(player(s, 0)["hand"]) == ["Siege"]
    assert s.raw()["discard"] == 0


def test_tower_T3_needs_a_coin_R_ACT_CARD_3():
    """R-ACT-CARD-3: with T3 and no coin nothing can be bought, tiles notwithstanding."""
    s = ready("brown", "gray white orange", variant="advanced", tower_tile="T3",
              coins=0, supply={"gray": 2, "white": 1}, hand=[])
    assert buys(legal(s)) == []


def test_tower_T3_councilman_one_of_two_R_ACT_CARD_3():
    """R-ACT-CARD-3: with T3 and the Councilman, 1 coin buys 1 of the top 2 cards."""
    s = fresh(variant="advanced")
    set_tower(s, "T3")
    give_descendant(s, "Councilman", 0)
    edit_player(s, 0, coins=1, hand=[])
    at_actions(s, "brown", "gray white orange")
    do(s, "buy card paying 1 coin", "look at the top 2 cards")
    chance(s, "card Siege", "card Fustian II")
    assert sorted(legal(s)) == ["keep Fustian II", "keep Siege"]
    do(s, "keep Fustian II")
    assert coins(s) == 0
    assert mask_cards(player(s, 0)["hand"]) == ["Fustian II"]
    assert mask_cards(s.raw()["discard"]) == ["Siege"]


def test_tower_T4_buy_costs_one_tile_R_ACT_CARD_3():
    """R-ACT-CARD-3: with T4 a card costs 1 tile (of any colour) instead of 2; one card,
    no pair payment offered, coins untouched."""
    s = ready("brown", "gray white orange", variant="advanced", tower_tile="T4",
              coins=2, supply={"gray": 2, "white": 1}, hand=[])
    bag_gray = s.raw()["bag"][colour("gray")]
    assert buys(legal(s)) == ["buy card paying gray", "buy card paying white"]
    do(s, "buy card paying gray")
    chance(s, "card Patrician")
    assert not s.is_chance_node()
    assert supply(s)["gray"] == 1 and supply(s)["white"] == 1
    assert s.raw()["bag"][colour("gray")] == bag_gray + 1
    assert coins(s) == 2
    assert mask_cards(player(s, 0)["hand"]) == ["Patrician"]


def test_tower_T4_single_tile_enough_R_ACT_CARD_3():
    """R-ACT-CARD-3: with T4 a single supply tile suffices; with none there is no buy."""
    s = ready("brown", "gray white orange", variant="advanced", tower_tile="T4",
              supply={"turquoise": 1}, hand=[])
    assert buys(legal(s)) == ["buy card paying turquoise"]
    s = ready("brown", "gray white orange", variant="advanced", tower_tile="T4",
              supply={}, hand=[])
    assert buys(legal(s)) == []


def test_tower_T4_councilman_one_of_two_R_ACT_CARD_3():
    """R-ACT-CARD-3: with T4 and the Councilman, 1 tile buys 1 of the top 2 cards."""
    s = fresh(variant="advanced")
    set_tower(s, "T4")
    give_descendant(s, "Councilman", 0)
    edit_player(s, 0, supply={"orange": 1}, hand=[])
    at_actions(s, "brown", "gray white turquoise")
    do(s, "buy card paying orange", "look at the top 2 cards")
    chance(s, "card Siege", "card Choir I")
    assert sorted(legal(s)) == ["keep Choir I", "keep Siege"]
    do(s, "keep Siege")
    assert mask_cards(player(s, 0)["hand"]) == ["Siege"]
    assert mask_cards(s.raw()["discard"]) == ["Choir I"]
    assert supply(s)["orange"] == 0


def test_no_coin_or_single_tile_buy_without_tower_R_ACT_CARD_3():
    """R-ACT-CARD-3: without T3/T4 (basic game, or another tower tile) buying costs 2 tiles."""
    s = ready("brown", "gray white orange", coins=5, supply={"gray": 1}, hand=[])
    assert buys(legal(s)) == []
    s = ready("brown", "gray white orange", variant="advanced", tower_tile="T1",
              coins=5, supply={"gray": 1, "white": 1}, hand=[])
    assert buys(legal(s)) == ["buy card paying gray+white"]


# ---------------------------------------------------------------------------
# R-ACT-RIVER-1

def test_river_action_one_step_R_ACT_RIVER_1():
    """R-ACT-RIVER-1: a River action moves the barge 1 step; one turquoise, one step."""
    s = ready("turquoise", "gray white orange")
    set_barges(s, 4, 0)
    do(s, "river step")
    assert barge(s) == 5
    assert "river step" not in legal(s)


def test_river_needs_activated_turquoise_R_ACT_RIVER_1():
    """R-ACT-RIVER-1: no River action without an activated turquoise tile (pushed-out one
    gives none)."""
    s = ready("gray", "white orange turquoise")
    assert "river step" not in legal(s)


def test_river_barge_driver_extra_step_later_in_turn_R_ACT_RIVER_1():
    """R-ACT-RIVER-1: Barge Driver gives 1 extra step, a separate step that may be taken later
    in the turn (after another action)."""
    s = fresh()
    give_descendant(s, "Barge Driver", 0)
    edit_player(s, 0, coins=0)
    at_actions(s, "turquoise", "gray white orange")
    do(s, "river step")
    assert barge(s) == 1
    do(s, "money")
    assert "river step" in legal(s)
    do(s, "river step")
    assert barge(s) == 2
    assert "river step" not in legal(s)
    assert coins(s) == 1


def test_river_barge_driver_extra_step_per_river_action_R_ACT_RIVER_1():
    """R-ACT-RIVER-1: with the Barge Driver each River action gets its extra step: 2 turquoise
    tiles give 4 steps."""
    s = fresh()
    give_descendant(s, "Barge Driver", 0)
    at_actions(s, "turquoise", "turquoise white orange")
    for expected in (1, 2, 3, 4):
        do(s, "river step")
        assert barge(s) == expected
    assert "river step" not in legal(s)


def test_river_tower_T1_extra_step_R_ACT_RIVER_1():
    """R-ACT-RIVER-1: tower T1 gives the River action 1 extra step."""
    s = ready("turquoise", "gray white orange", variant="advanced", tower_tile="T1")
    do(s, "river step", "river step")
    assert barge(s) == 2
    assert "river step" not in legal(s)


def test_river_tower_T1_and_barge_driver_three_steps_R_ACT_RIVER_1():
    """R-ACT-RIVER-1: T1 and the Barge Driver add up: 3 steps from one River action."""
    s = fresh(variant="advanced")
    set_tower(s, "T1")
    give_descendant(s, "Barge Driver", 0)
    at_actions(s, "turquoise", "gray white orange")
    do(s, "river step", "river step", "river step")
    assert barge(s) == 3
    assert "river step" not in legal(s)


def test_river_each_extra_step_triggers_bonus_R_ACT_RIVER_1():
    """R-ACT-RIVER-1: each step may trigger a bonus space: Barge Driver from 17: the step to 18
    gives a coin, the extra step to 19 a sparrow."""
    s = fresh()
    give_descendant(s, "Barge Driver", 0)
    edit_player(s, 0, coins=0, sparrows=0)
    set_barges(s, 17, 0)
    at_actions(s, "turquoise", "gray white orange")
    do(s, "river step")
    assert (barge(s), coins(s), player(s, 0)["sparrows"]) == (18, 1, 0)
    do(s, "river step")
    assert (barge(s), coins(s), player(s, 0)["sparrows"]) == (19, 1, 1)


# ---------------------------------------------------------------------------
# R-ACT-SEAL-1

def test_seal_offers_north_and_south_quarter_beside_barge_R_ACT_SEAL_1():
    """R-ACT-SEAL-1: the seal may go to the north or south quarter beside the own barge only."""
    expected = {0: ["seal in Leaning House", "seal in Tillage"],
                5: ["seal in Garden", "seal in Leaning House"],
                10: ["seal in Oath House", "seal in Shipyard"],
                11: ["seal in Shipyard", "seal in Town Hall"],
                16: ["seal in Reichenauer Hof", "seal in Town Hall"],
                21: ["seal in Goose Tower", "seal in Reichenauer Hof"]}
    for idx, quarters in expected.items():
        s = fresh()
        set_barges(s, idx, 0 if idx else 1)
        edit_player(s, 0, coins=2)
        at_actions(s, "orange", "gray white brown")
        assert seals(legal(s)) == quarters, idx


def test_seal_pays_two_coins_places_seal_gets_privilege_R_ACT_SEAL_1():
    """R-ACT-SEAL-1: pay 2 coins, one seal moves to the quarter, then the privilege
    (Reichenauer Hof: +1 VP per quarter holding an own seal, here 2)."""
    s = fresh()
    set_barges(s, 16, 0)
    r = s.raw()
    r["players"][0]["seals_in"][quarter("Tillage")] = 1
    r["players"][0]["seals_left"] = 11
    r["quarter_seals"][quarter("Tillage")] = 1
    s.set_raw(r)
    edit_player(s, 0, coins=5)
    at_actions(s, "orange", "gray white brown")
    vp = score(s)
    do(s, "seal in Reichenauer Hof")
    p = player(s, 0)
    assert p["coins"] == 3
    assert p["seals_left"] == 10
    assert p["seals_in"][quarter("Reichenauer Hof")] == 1
    assert s.raw()["quarter_seals"][quarter("Reichenauer Hof")] == 1
    assert score(s) == vp + 2
    assert seals(legal(s)) == []       # one orange tile, one seal action


def test_seal_privilege_tillage_R_ACT_SEAL_1():
    """R-ACT-SEAL-1: the privilege follows the seal: Tillage gives a dock tile, a coin and a
    0-2 barge move."""
    s = fresh()
    edit_player(s, 0, coins=2, supply={})
    at_actions(s, "orange", "gray white brown")
    do(s, "seal in Tillage")
    assert coins(s) == 1
    assert "take gray from the docks" in legal(s)
    do(s, "take gray from the docks")
    chance(s, "tile white")
    assert legal(s) == ["move barge 0", "move barge 1", "move barge 2"]
    do(s, "move barge 2")
    assert barge(s) == 2 and supply(s)["gray"] == 1


def test_seal_cost_tower_T6_one_coin_R_ACT_SEAL_1():
    """R-ACT-SEAL-1: with T6 the seal costs 1 coin (so 1 coin is enough)."""
    s = ready("orange", "gray white brown", variant="advanced", tower_tile="T6", coins=1)
    set_barges(s, 16, 0)
    assert "seal in Reichenauer Hof" in legal(s)
    do(s, "seal in Reichenauer Hof")
    assert coins(s) == 0


def test_seal_cost_tower_T7_three_coins_R_ACT_SEAL_1():
    """R-ACT-SEAL-1: with T7 the seal costs 3 coins; 2 coins are not enough."""
    s = ready("orange", "gray white brown", variant="advanced", tower_tile="T7", coins=2)
    set_barges(s, 16, 0)
    assert seals(legal(s)) == []
    edit_player(s, 0, coins=4)
    do(s, "seal in Reichenauer Hof")
    assert coins(s) == 1


def test_seal_needs_two_coins_R_ACT_SEAL_1():
    """R-ACT-SEAL-1: with 1 coin (basic game) no seal can be placed."""
    s = ready("orange", "gray white brown", coins=1)
    assert seals(legal(s)) == []
    with pytest.raises(ulm.IllegalActionError):
        do(s, "seal in Tillage")


def test_seal_needs_a_seal_left_R_ACT_SEAL_1():
    """R-ACT-SEAL-1: a player with no seal left cannot seal."""
    s = ready("orange", "gray white brown", coins=5, seals_left=0)
    assert seals(legal(s)) == []


def test_seal_needs_free_space_R_ACT_SEAL_1():
    """R-ACT-SEAL-1: a full quarter (4 seals) is not offered; with both full, no seal."""
    s = fresh()
    set_barges(s, 16, 0)
    qs = s.raw()["quarter_seals"]
    qs[quarter("Reichenauer Hof")] = 4
    edit(s, quarter_seals=qs)
    edit_player(s, 0, coins=5)
    at_actions(s, "orange", "gray white brown")
    assert seals(legal(s)) == ["seal in Town Hall"]
    qs[quarter("Town Hall")] = 4
    edit(s, quarter_seals=qs)
    assert seals(legal(s)) == []


def test_seal_needs_activated_orange_R_ACT_SEAL_1():
    """R-ACT-SEAL-1: no seal without a seal action (orange tile pushed out gives none)."""
    s = ready("gray", "white brown orange", coins=5)
    assert seals(legal(s)) == []


# ---------------------------------------------------------------------------
# R-ACT-SEAL-2

def test_city_wall_seal_any_quarter_R_ACT_SEAL_2():
    """R-ACT-SEAL-2: with City Wall played as a modifier the seal may go to any quarter;
    the card goes to the discard pile and the seal is paid normally."""
    s = ready("orange", "gray white brown", coins=2, hand=["City Wall"])
    assert sorted(n for n in legal(s) if n.endswith("with City Wall")) == sorted(
        f"seal in {q} with City Wall" for q in QUARTERS)
    assert seals([n for n in legal(s) if not n.endswith("City Wall")]) == [
        "seal in Leaning House", "seal in Tillage"]
    do(s, "seal in Goose Tower with City Wall")
    p = player(s, 0)
    assert p["seals_in"][quarter("Goose Tower")] == 1
    assert p["coins"] == 0
    assert p["hand"] == 0
    assert mask_cards(s.raw()["discard"]) == ["City Wall"]
    assert "look at the top 3 cards" in legal(s)     # the Goose Tower privilege


def test_city_wall_is_not_an_extra_seal_action_R_ACT_SEAL_2():
    """R-ACT-SEAL-2: City Wall modifies a seal action; without an orange tile it gives none,
    and after the one seal action there is no second seal."""
    s = ready("gray", "white brown turquoise", coins=9, hand=["City Wall"])
    assert seals(legal(s)) == []
    s = ready("orange", "white brown turquoise", coins=9, hand=["City Wall"])
    do(s, "seal in Reichenauer Hof with City Wall")
    assert seals(legal(s)) == []


def test_city_wall_full_quarter_not_offered_R_ACT_SEAL_2():
    """R-ACT-SEAL-2: City Wall reaches any quarter with a free space, not a full one."""
    s = fresh()
    qs = s.raw()["quarter_seals"]
    qs[quarter("Goose Tower")] = 4
    edit(s, quarter_seals=qs)
    edit_player(s, 0, coins=2, hand=["City Wall"])
    at_actions(s, "orange", "gray white brown")
    assert "seal in Goose Tower with City Wall" not in legal(s)
    assert "seal in Town Hall with City Wall" in legal(s)


def test_tower_T12_quarters_within_three_river_spaces_R_ACT_SEAL_2():
    """R-ACT-SEAL-2: with T12 the seal may go to any quarter beside a river index within 3 of
    the barge's index (barge 13: indices 10..16)."""
    s = ready("orange", "gray white brown", variant="advanced", tower_tile="T12", coins=2)
    set_barges(s, 13, 0)
    assert seals(legal(s)) == ["seal in Oath House", "seal in Reichenauer Hof",
                               "seal in Shipyard", "seal in Town Hall"]
    do(s, "seal in Oath House")
    assert player(s, 0)["seals_in"][quarter("Oath House")] == 1
    assert coins(s) == 0


def test_tower_T12_boundaries_R_ACT_SEAL_2():
    """R-ACT-SEAL-2: T12 reach is exactly 3 river spaces: from 0 the Garden (4..9) is out of
    reach, from 1 it is in; barge 7 reaches 4 quarters."""
    cases = {0: ["seal in Leaning House", "seal in Tillage"],
             1: ["seal in Garden", "seal in Leaning House", "seal in Tillage"],
             7: ["seal in Garden", "seal in Leaning House", "seal in Oath House",
                 "seal in Shipyard"]}
    for idx, expected in cases.items():
        s = ready("orange", "gray white brown", variant="advanced", tower_tile="T12", coins=2)
        set_barges(s, idx, 0 if idx else 1)
        assert seals(legal(s)) == expected, idx


def test_no_wide_reach_without_T12_R_ACT_SEAL_2():
    """R-ACT-SEAL-2: without T12 (another tower tile) barge 7 reaches only Oath House and Garden."""
    s = ready("orange", "gray white brown", variant="advanced", tower_tile="T1", coins=2)
    set_barges(s, 7, 0)
    assert seals(legal(s)) == ["seal in Garden", "seal in Oath House"]


# ---------------------------------------------------------------------------
# R-ACT-SEAL-3

def test_crest_income_to_other_player_R_ACT_SEAL_3():
    """R-ACT-SEAL-3: a seal in a quarter with another player's crest gives the crest owner the
    coat's later points (G-Tillage: 2)."""
    s = fresh()
    give_coat(s, "G-Tillage", 1)
    edit_player(s, 0, coins=2)
    at_actions(s, "orange", "gray white brown")
    vp0, vp1 = score(s, 0), score(s, 1)
    do(s, "seal in Tillage")
    assert score(s, 1) == vp1 + 2
    assert score(s, 0) == vp0


def test_crest_income_shipyard_one_point_R_ACT_SEAL_3():
    """R-ACT-SEAL-3: the later points are the coat's own (G-Shipyard: 1)."""
    s = fresh()
    give_coat(s, "G-Shipyard", 1)
    set_barges(s, 10, 0)
    edit_player(s, 0, coins=2, supply={})
    at_actions(s, "orange", "gray white brown")
    vp1 = score(s, 1)
    do(s, "seal in Shipyard")
    assert score(s, 1) == vp1 + 1


def test_crest_income_to_own_crest_R_ACT_SEAL_3():
    """R-ACT-SEAL-3: the crest owner also gains when sealing in their own crest's quarter."""
    s = fresh()
    give_coat(s, "G-TownHall", 0)
    set_barges(s, 11, 0)
    edit_player(s, 0, coins=2)
    at_actions(s, "orange", "gray white brown")
    vp = score(s, 0)
    do(s, "seal in Town Hall")
    assert score(s, 0) == vp + 2


def test_no_crest_income_elsewhere_R_ACT_SEAL_3():
    """R-ACT-SEAL-3: a seal in a quarter without a crest gives nobody crest points
    (the Leaning House crest does not pay for a Tillage seal)."""
    s = fresh()
    give_coat(s, "G-Leaning", 1)
    edit_player(s, 0, coins=2)
    at_actions(s, "orange", "gray white brown")
    vp0, vp1 = score(s, 0), score(s, 1)
    do(s, "seal in Tillage")
    assert (score(s, 0), score(s, 1)) == (vp0, vp1)
    assert player(s, 1)["vp"][ulm.SOURCES.index("crests")] == 0


# ---------------------------------------------------------------------------
# R-ACT-SEAL-4

def test_tower_T5_seal_without_orange_R_ACT_SEAL_4():
    """R-ACT-SEAL-4: with T5 one seal action is possible without an orange tile, paid normally;
    only one."""
    s = ready("gray", "white brown turquoise", variant="advanced", tower_tile="T5", coins=5)
    set_barges(s, 16, 0)
    assert seals(legal(s)) == ["seal in Reichenauer Hof", "seal in Town Hall"]
    do(s, "seal in Reichenauer Hof")
    assert coins(s) == 3
    assert seals(legal(s)) == []


def test_tower_T5_extra_to_orange_R_ACT_SEAL_4():
    """R-ACT-SEAL-4: the T5 seal is an extra action: with one orange tile, two seals."""
    s = ready("orange", "white brown turquoise", variant="advanced", tower_tile="T5", coins=9)
    set_barges(s, 16, 0)
    do(s, "seal in Reichenauer Hof")
    assert seals(legal(s)) == ["seal in Reichenauer Hof", "seal in Town Hall"]
    do(s, "seal in Reichenauer Hof")
    assert coins(s) == 5
    assert player(s, 0)["seals_in"][quarter("Reichenauer Hof")] == 2
    assert seals(legal(s)) == []


def test_tower_T5_seal_must_be_paid_R_ACT_SEAL_4():
    """R-ACT-SEAL-4: the T5 seal costs the normal 2 coins; with 1 coin it is not available."""
    s = ready("gray", "white brown turquoise", variant="advanced", tower_tile="T5", coins=1)
    assert seals(legal(s)) == []


def test_no_seal_without_orange_other_tower_R_ACT_SEAL_4():
    """R-ACT-SEAL-4: without T5 (T6 in force) there is no seal without an orange tile."""
    s = ready("gray", "white brown turquoise", variant="advanced", tower_tile="T6", coins=5)
    assert seals(legal(s)) == []


def test_tower_T5_from_round_start_R_ACT_SEAL_4():
    """R-ACT-SEAL-4: T5 revealed as the next tile comes into force at the next round: then the
    first player may seal without an orange tile (reached by play, not by editing the flag)."""
    s = fresh(variant="advanced")
    set_tower(s, "T1", "T5")
    at_actions(s, "gray", "white brown turquoise")
    assert seals(legal(s)) == []                 # round 1: T1
    do(s, "end turn")
    set_grid(s, f"white brown turquoise / {FILLER}")
    do(s, "draw")
    chance(s, "tile gray")
    do(s, "push row 2 from left", "end turn")
    chance(s, "tower T3")                        # the tile shown for round 3
    r = s.raw()
    assert (r["round"], r["turn_player"], r["tower_current"]) == (1, 0, tower("T5"))
    edit_player(s, 0, coins=5)
    at_actions(s, "gray", "white brown turquoise")
    assert seals(legal(s)) == ["seal in Leaning House", "seal in Tillage"]
    do(s, "seal in Tillage")
    assert coins(s) == 4                         # 2 paid, 1 from the Tillage privilege


def test_tower_T5_seal_each_player_own_turn_R_ACT_SEAL_4():
    """R-ACT-SEAL-4: each player gets their own T5 seal in their turn."""
    s = ready("gray", "white brown turquoise", variant="advanced", tower_tile="T5", coins=5)
    do(s, "seal in Leaning House")
    chance(s, "coat S-1", "coat S-2")
    do(s, "keep coat S-1", "end turn")
    assert s.raw()["turn_player"] == 1
    edit_player(s, 1, coins=5)
    at_actions(s, "gray", "white brown turquoise")
    assert seals(legal(s)) == ["seal in Leaning House", "seal in Tillage"]


# ---------------------------------------------------------------------------
# R-RIVER-1 .. R-RIVER-4

def test_river_step_skips_occupied_spaces_R_RIVER_1():
    """R-RIVER-1: occupied spaces are skipped and not counted: 5 -> 8 past barges on 6 and 7."""
    s = fresh(players=3)
    set_barges(s, 5, 6, 7)
    at_actions(s, "turquoise", "gray white orange")
    do(s, "river step")
    assert [barge(s, p) for p in range(3)] == [8, 6, 7]


def test_river_moves_forward_only_R_RIVER_1():
    """R-RIVER-1: the barge moves only forward, also with a free space just behind it."""
    s = fresh(players=3)
    set_barges(s, 5, 3, 7)
    at_actions(s, "turquoise", "turquoise white orange")
    do(s, "river step")
    assert barge(s) == 6
    do(s, "river step")
    assert barge(s) == 8


def test_river_extra_steps_skip_each_time_R_RIVER_1():
    """R-RIVER-1: each step skips the occupied spaces ahead (Barge Driver: 5 -> 7 -> 9 past
    barges on 6 and 8)."""
    s = fresh(players=3)
    give_descendant(s, "Barge Driver", 0)
    set_barges(s, 5, 6, 8)
    at_actions(s, "turquoise", "gray white orange")
    do(s, "river step")
    assert barge(s) == 7
    do(s, "river step")
    assert barge(s) == 9


def test_river_no_free_space_step_lost_R_RIVER_2():
    """R-RIVER-2: with no free space ahead (20 -> 21 taken) the step is lost: not offered."""
    s = fresh()
    set_barges(s, 20, 21)
    at_actions(s, "turquoise", "gray white orange")
    assert "river step" not in legal(s)
    assert barge(s) == 20


def test_river_end_of_river_step_lost_R_RIVER_2():
    """R-RIVER-2: a barge on the last space (21) cannot move; the River action is of no use."""
    s = fresh()
    set_barges(s, 21, 0)
    at_actions(s, "turquoise", "gray white orange")
    assert "river step" not in legal(s)


def test_river_extra_step_lost_when_blocked_R_RIVER_2():
    """R-RIVER-2: 19 -> 20 (21 occupied); the Barge Driver's extra step then has no free space."""
    s = fresh()
    give_descendant(s, "Barge Driver", 0)
    set_barges(s, 19, 21)
    at_actions(s, "turquoise", "gray white orange")
    do(s, "river step")
    assert barge(s) == 20
    do(s, "take gray from the docks")       # bonus of space 20
    chance(s, "tile gray")
    assert "river step" not in legal(s)


def test_river_start_space_holds_several_barges_R_RIVER_2():
    """R-RIVER-2: index 0 holds several barges; a step from 0 goes to 1 (the others on 0 do
    not count), and space 1 then holds only that barge."""
    s = fresh(players=4)
    assert [barge(s, p) for p in range(4)] == [0, 0, 0, 0]
    at_actions(s, "turquoise", "gray white orange")
    do(s, "river step")
    assert [barge(s, p) for p in range(4)] == [1, 0, 0, 0]


def test_river_other_spaces_hold_one_barge_R_RIVER_2():
    """R-RIVER-2: a space other than 0 holds at most one barge: from 0 with a barge on 1 the
    step ends on 2."""
    s = fresh(players=3)
    set_barges(s, 0, 1, 0)
    at_actions(s, "turquoise", "gray white orange")
    do(s, "river step")
    assert [barge(s, p) for p in range(3)] == [2, 1, 0]


def test_river_card_move_at_once_final_bonus_only_R_RIVER_3():
    """R-RIVER-3: Fishermen's Jousting (0-4) from 17 to 21 in one move: only the final space's
    bonus (a card) applies, not the coin of 18 nor the sparrow of 19."""
    s = ready("gray", "white brown orange", coins=0, sparrows=0, hand=["Fishermen's Jousting"])
    set_barges(s, 17, 0)
    do(s, "play Fishermen's Jousting (upper)")
    assert legal(s) == [f"move barge {k}" for k in range(5)]
    do(s, "move barge 4")
    assert barge(s) == 21
    assert s.is_chance_node()                     # the card of space 21
    chance(s, "card Siege")
    assert mask_cards(player(s, 0)["hand"]) == ["Siege"]
    assert (coins(s), player(s, 0)["sparrows"]) == (0, 0)


def test_river_card_move_counts_free_spaces_R_RIVER_3():
    """R-RIVER-3: k counts free spaces only: from 17 with a barge on 19 the free spaces ahead
    are 18, 20, 21 (k up to 3); k = 2 ends on 20 with only that bonus (a dock tile)."""
    s = ready("gray", "white brown orange", coins=0, sparrows=0, supply={},
              hand=["Fishermen's Jousting"])
    set_barges(s, 17, 19)
    do(s, "play Fishermen's Jousting (upper)")
    assert legal(s) == [f"move barge {k}" for k in range(4)]
    do(s, "move barge 2")
    assert barge(s) == 20
    assert sorted(legal(s)) == sorted(f"take {c} from the docks" for c in COLOURS
                                      if s.raw()["docks"][colour(c)] > 0)
    assert (coins(s), player(s, 0)["sparrows"]) == (0, 0)


def test_river_card_move_choose_fewer_R_RIVER_3():
    """R-RIVER-3: any k in 0..N may be chosen; Fustian (0-3) from 16 with k = 3 ends on 19:
    only the sparrow, no coin from 18; k = 0 leaves the barge where it is."""
    s = ready("gray", "white brown orange", coins=0, sparrows=0,
              supply={"turquoise": 1}, hand=["Fustian I"])
    set_barges(s, 16, 0)
    t = s.clone()
    do(s, "play Fustian I (upper)")               # +2 coins, 1 VP, barge 0-3
    assert legal(s) == [f"move barge {k}" for k in range(4)]
    do(s, "move barge 3")
    assert (barge(s), coins(s), player(s, 0)["sparrows"]) == (19, 2, 1)
    do(t, "play Fustian I (upper)", "move barge 0")
    assert (barge(t), coins(t), player(t, 0)["sparrows"]) == (16, 2, 0)


def test_river_card_move_limited_by_free_spaces_R_RIVER_3():
    """R-RIVER-3: a 0-4 move from 19 can advance only 2 free spaces (20, 21)."""
    s = ready("gray", "white brown orange", hand=["Fishermen's Jousting"])
    set_barges(s, 19, 0)
    do(s, "play Fishermen's Jousting (upper)")
    assert legal(s) == ["move barge 0", "move barge 1", "move barge 2"]


def test_river_tile_steps_separate_bonuses_R_RIVER_4():
    """R-RIVER-4: each step from an action tile is a separate move with its own bonus: two
    turquoise tiles from 17: coin on 18, then sparrow on 19."""
    s = fresh()
    edit_player(s, 0, coins=0, sparrows=0)
    set_barges(s, 17, 0)
    at_actions(s, "turquoise", "turquoise white orange")
    do(s, "river step")
    assert (barge(s), coins(s), player(s, 0)["sparrows"]) == (18, 1, 0)
    do(s, "river step")
    assert (barge(s), coins(s), player(s, 0)["sparrows"]) == (19, 1, 1)


def test_river_extra_step_separate_bonuses_R_RIVER_4():
    """R-RIVER-4: each extra step (T1) is a separate move: from 19, dock tile on 20, then the
    card on 21."""
    s = ready("turquoise", "gray white orange", variant="advanced", tower_tile="T1",
              supply={}, hand=[])
    set_barges(s, 19, 0)
    do(s, "river step")
    assert barge(s) == 20
    do(s, "take brown from the docks")
    chance(s, "tile brown")
    assert supply(s)["brown"] == 1
    do(s, "river step")
    assert barge(s) == 21
    chance(s, "card Patrician")
    assert mask_cards(player(s, 0)["hand"]) == ["Patrician"]


# ---------------------------------------------------------------------------
# The English rulebook's worked examples (seeds/004_*.txt)

def test_book_clear_away_example_stephen_R_ACT_CLEAR_1():
    """R-ACT-CLEAR-1 (rulebook example): Stephen activated a white tile; he may take either the
    turquoise tile (A, one side) or the orange and the white tiles (B, another side)."""
    s = fresh()
    set_outer(s, {9: "orange", 10: "white"})          # side B: left
    edit_player(s, 0, supply={})
    # push column 1 from the bottom: the turquoise at its top is pushed out onto space 0 (A)
    set_grid(s, "turquoise gray brown / gray orange brown / orange gray brown")
    do(s, "draw")
    chance(s, "tile white")
    do(s, "push column 1 from bottom")
    assert s.raw()["outer"][0] == colour("turquoise")
    assert clears(legal(s)) == ["clear left", "clear top"]
    a = s.clone()
    do(a, "clear top")
    assert supply(a) == {"gray": 0, "white": 0, "brown": 0, "turquoise": 1, "orange": 0}
    assert clears(legal(a)) == []
    do(s, "clear left")
    assert supply(s) == {"gray": 0, "white": 1, "brown": 0, "turquoise": 0, "orange": 1}
    assert clears(legal(s)) == []


def test_book_river_example_joan_R_ACT_RIVER_1_R_RIVER_1():
    """R-ACT-RIVER-1, R-RIVER-1 (rulebook example '1 River action Joan'): the barge moves
    forward 1 unoccupied space."""
    s = fresh(players=3)
    set_barges(s, 3, 2, 6)
    at_actions(s, "turquoise", "gray white orange")
    do(s, "river step")
    assert [barge(s, p) for p in range(3)] == [4, 2, 6]


def test_book_river_example_stephen_R_ACT_RIVER_1_R_RIVER_1():
    """R-ACT-RIVER-1, R-RIVER-1 (rulebook example '1 River action Stephen'): a space holding
    another player's barge is skipped and not counted."""
    s = fresh(players=3)
    set_barges(s, 3, 4, 0)
    at_actions(s, "turquoise", "gray white orange")
    do(s, "river step")
    assert [barge(s, p) for p in range(3)] == [5, 4, 0]


def test_book_seal_example_stephen_coats_R_ACT_SEAL_1():
    """R-ACT-SEAL-1 (rulebook example): Stephen pays 2 coins, places a seal in the quarter north
    of the Danube (Leaning House, barge on 4, between Leaning House and Garden) and receives its
    privilege: he chooses 1 of 2 city coats of arms."""
    s = fresh()
    set_barges(s, 4, 0)
    edit_player(s, 0, coins=2)
    at_actions(s, "orange", "gray white brown")
    assert seals(legal(s)) == ["seal in Garden", "seal in Leaning House"]
    vp = score(s)
    do(s, "seal in Leaning House")
    assert coins(s) == 0
    chance(s, "coat S-1", "coat G-Goose")
    assert sorted(legal(s)) == ["keep coat G-Goose", "keep coat S-1"]
    do(s, "keep coat S-1")
    r = s.raw()
    p = r["players"][0]
    assert p["seals_in"][quarter("Leaning House")] == 1
    assert score(s) == vp + 4                       # silver coat: 4 VP
    assert r["outer_mark"][COATS.index("S-1")] == 0
    assert p["seals_left"] == 10                    # one seal in the quarter, one on the coat image
    assert r["coat_tail"][: r["coat_tail_len"]] == [COATS.index("G-Goose")]


def test_book_example_albert_three_actions_R_ACT_RIVER_1_R_ACT_SEAL_1_R_RIVER_1_R_RIVER_4():
    """R-ACT-RIVER-1, R-ACT-SEAL-1, R-RIVER-1, R-RIVER-4 (rulebook 'Example with 3 exemplary
    actions'): Albert pushes turquoise into a turquoise/orange/gray row, the gray is pushed out
    (no Money). First River action: across the bridge (10 -> 11). Seal in the Town Hall for 2
    coins: the top card and a coin. Second River action: jumps over the red barge (12 -> 13)."""
    s = fresh()
    set_barges(s, 10, 12)                  # Albert, the red barge
    edit_player(s, 0, coins=2, hand=[])
    at_actions(s, "turquoise", "turquoise orange gray")
    r = s.raw()
    assert r["outer"][RIGHT_TOP] == colour("gray")
    assert "money" not in legal(s)
    assert seals(legal(s)) == ["seal in Oath House", "seal in Shipyard"]   # before the bridge
    do(s, "river step")
    assert barge(s) == 11
    assert seals(legal(s)) == ["seal in Shipyard", "seal in Town Hall"]
    do(s, "seal in Town Hall")
    assert coins(s) == 0
    chance(s, "card Fustian III")          # the topmost card of the pile
    assert "take a coin" in legal(s)
    do(s, "take a coin")
    assert coins(s) == 1
    assert mask_cards(player(s, 0)["hand"]) == ["Fustian III"]
    assert player(s, 0)["seals_in"][quarter("Town Hall")] == 1
    do(s, "river step")
    assert (barge(s, 0), barge(s, 1)) == (13, 12)
    assert "river step" not in legal(s) and seals(legal(s)) == []


def test_book_example_joan_three_actions_R_ACT_CLEAR_1_R_ACT_CARD_1_R_ACT_MONEY_1():
    """R-ACT-CLEAR-1, R-ACT-CARD-1, R-ACT-MONEY-1 (rulebook 'Another example with 3 different
    actions'): Joan pushes gray into a brown/white/white row, a white is pushed out. She clears
    the top side (two brown tiles), buys with them (same colour: looks at 2, keeps 1, the other
    face up on the discard pile), then takes 1 coin."""
    s = fresh()
    set_outer(s, {0: "brown", 2: "brown"})
    edit_player(s, 0, coins=2, supply={}, hand=[])
    at_actions(s, "gray", "brown white white")
    assert s.raw()["outer"][RIGHT_TOP] == colour("white")
    assert clears(legal(s)) == ["clear right", "clear top"]   # one white left: one side
    bag_brown = s.raw()["bag"][colour("brown")]
    do(s, "clear top")
    assert supply(s) == {"gray": 0, "white": 0, "brown": 2, "turquoise": 0, "orange": 0}
    assert clears(legal(s)) == []
    assert buys(legal(s)) == ["buy card paying brown+brown"]
    do(s, "buy card paying brown+brown", "look at the top 2 cards")
    chance(s, "card Commercial Goods I", "card Ulm Chronicle")
    assert sorted(legal(s)) == ["keep Commercial Goods I", "keep Ulm Chronicle"]
    do(s, "keep Ulm Chronicle")
    assert mask_cards(player(s, 0)["hand"]) == ["Ulm Chronicle"]
    assert mask_cards(s.raw()["discard"]) == ["Commercial Goods I"]
    assert s.raw()["bag"][colour("brown")] == bag_brown + 2
    assert sum(player(s, 0)["supply"]) == 0
    do(s, "money")
    assert coins(s) == 3
    # she may play the just-acquired card at once (the free play of the turn)
    assert "play Ulm Chronicle (lower)" in legal(s)


def test_book_barge_example_red_green_blue_R_RIVER_1():
    """R-RIVER-1 (rulebook Danube example): the red barge moves 1 space; the green barge is on
    the next space and the blue one in front of it, so red ends in front of the blue barge."""
    s = fresh(players=3)
    set_barges(s, 5, 6, 7)                 # red, green, blue
    at_actions(s, "turquoise", "gray white orange")
    do(s, "river step")
    assert [barge(s, p) for p in range(3)] == [8, 6, 7]


def test_book_oath_house_or_garden_example_R_ACT_SEAL_1():
    """R-ACT-SEAL-1 (rulebook example): the blue barge lies between the Oath House and the Garden,
    so its owner may seal in either; each gives its own privilege."""
    for idx in (6, 7, 8, 9):
        s = fresh()
        set_barges(s, idx, 0)
        edit_player(s, 0, coins=2)
        at_actions(s, "orange", "gray white brown")
        assert seals(legal(s)) == ["seal in Garden", "seal in Oath House"], idx
    oath = s.clone()
    do(oath, "seal in Oath House")
    on_board = [d for d in DESCENDANTS if oath.raw()["desc"][descendant(d)] == DESC_ON_BOARD]
    assert sorted(legal(oath)) == sorted(f"take {d}" for d in on_board)
    do(oath, f"take {on_board[0]}")
    assert oath.raw()["desc"][descendant(on_board[0])] == 0
    assert player(oath, 0)["seals_in"][quarter("Oath House")] == 1
    do(s, "seal in Garden")
    chance(s, "coat S-2", "coat S-3")
    assert sorted(legal(s)) == ["keep coat S-2", "keep coat S-3"]
    assert player(s, 0)["seals_in"][quarter("Garden")] == 1
