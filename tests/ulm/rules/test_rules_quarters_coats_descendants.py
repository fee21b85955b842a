"""Rule tests for RULES.md section 6 (quarter privileges, R-DOCK-1), section 7
(city coats of arms, R-COAT-*) and section 8 (Descendants, R-DESC-*).

Every situation is constructed by name (tests/helpers.py); seal actions come
from pushing an orange tile into row 1 of a grid with no other orange tile,
with the barge set beside the quarter (set_barges).
"""
from __future__ import annotations

import pytest

from helpers import *

# a grid without orange and without any line of three; pushing orange into
# row 1 from the left gives "orange gray white" (brown goes onto outer space 3)
NEUTRAL = "gray white brown / turquoise brown white / white gray turquoise"

# a river index beside each quarter (R-BOARD-3)
BESIDE = {
    "Tillage": 2, "Leaning House": 2, "Garden": 5, "Oath House": 7,
    "Town Hall": 12, "Shipyard": 12, "Reichenauer Hof": 17, "Goose Tower": 17,
}

SRC_CITY_GUARD, SRC_REICHENAU, SRC_COATS, SRC_CRESTS = 1, 2, 3, 4
ALL_CARDS = (1 << len(CARDS)) - 1
ALL_COATS = (1 << len(COATS)) - 1
DOCK_TAKES = [f"take {c} from the docks" for c in COLOURS]


def bit(i: int) -> int:
    return 1 << i


def set_supply(s: ulm.State, p: int, counts: dict[str, int]) -> ulm.State:
    """Seat p's supply becomes `counts`; the difference goes to / comes from the bag,
    so the tiles stay conserved (R-COMP-1)."""
    r = s.raw()
    new = [counts.get(c, 0) for c in COLOURS]
    for c in range(5):
        r["bag"][c] += r["players"][p]["supply"][c] - new[c]
        assert r["bag"][c] >= 0
    r["players"][p]["supply"] = new
    s.set_raw(r)
    return s


def give_cards(s: ulm.State, p: int, *names: str) -> ulm.State:
    """Move these cards from the pile (or discard pile) into seat p's hand."""
    r = s.raw()
    m = cards_mask(*names)
    r["pile"] &= ~m
    r["discard"] &= ~m
    r["players"][p]["hand"] |= m
    s.set_raw(r)
    return s


def put_outer(s: ulm.State, spaces: dict[int, str]) -> ulm.State:
    """Tiles from the bag onto outer spaces (tiles stay conserved)."""
    r = s.raw()
    for name in spaces.values():
        r["bag"][colour(name)] -= 1
        assert r["bag"][colour(name)] >= 0
    s.set_raw(r)
    return set_outer(s, spaces)


def at_seal(quarter_name: str | None = None, *, barge: int | None = None, players: int = 2,
            coins: int = 2, grid: str = NEUTRAL, supply: dict | None = None,
            **fields) -> ulm.State:
    """Seat 0 in its action phase with one seal action (orange pushed into row 1)."""
    s = fresh(players)
    set_grid(s, grid)
    set_barges(s, BESIDE[quarter_name] if barge is None else barge)
    edit_player(s, 0, coins=coins, **fields)
    set_supply(s, 0, supply or {})
    to_actions(s, "orange", "row 1 from left")
    assert s.raw()["avail"][colour("orange")] == 1
    return s


def set_pile(s: ulm.State, *names: str, discard: tuple[str, ...] = ()) -> ulm.State:
    """Only these cards in the pile (and these on the discard pile); every other
    card goes into seat 1's hand, so the 33 cards stay conserved."""
    r = s.raw()
    pile, disc = cards_mask(*names), cards_mask(*discard)
    held = 0
    for p in r["players"]:
        held |= p["hand"] | p["front"]
    r["pile"], r["discard"] = pile, disc
    r["players"][1]["hand"] |= ALL_CARDS & ~pile & ~disc & ~held
    s.set_raw(r)
    return s


def set_coats(s: ulm.State, unknown=(), tail=(), rest_owner: int = 1) -> ulm.State:
    """The coat stack: `unknown` (the shuffled top) and `tail` [(coat, seat who put
    it under)], top first. Every other coat belongs to rest_owner (no crests)."""
    r = s.raw()
    r["coat_unknown"] = sum(bit(coat(c)) for c in unknown)
    r["coat_tail_len"] = len(tail)
    r["coat_tail"] = [coat(c) for c, _ in tail] + [0] * (12 - len(tail))
    r["coat_tail_by"] = [by for _, by in tail] + [0] * (12 - len(tail))
    inside = set(unknown) | {c for c, _ in tail}
    for i, name in enumerate(COATS):
        if name not in inside and r["coat_owner"][i] < 0:
            r["coat_owner"][i] = rest_owner
            r["players"][rest_owner]["coats"] |= bit(i)
    s.set_raw(r)
    return s


def set_seals(s: ulm.State, p: int, counts: dict[str, int]) -> ulm.State:
    """Seals of seat p already on the board (seals_left and quarter_seals kept consistent)."""
    r = s.raw()
    pl = r["players"][p]
    for q, n in counts.items():
        i = quarter(q)
        r["quarter_seals"][i] += n - pl["seals_in"][i]
        pl["seals_left"] -= n - pl["seals_in"][i]
        pl["seals_in"][i] = n
    s.set_raw(r)
    return s


def give_crest(s: ulm.State, quarter_name: str, p: int) -> ulm.State:
    """Seat p holds the golden coat of this quarter and its crest there."""
    r = s.raw()
    q = quarter(quarter_name)
    c = COATS.index({"Tillage": "G-Tillage", "Leaning House": "G-Leaning", "Garden": "G-Garden",
                     "Oath House": "G-Oath", "Town Hall": "G-TownHall",
                     "Shipyard": "G-Shipyard", "Reichenauer Hof": "G-Reichenau",
                     "Goose Tower": "G-Goose"}[quarter_name])
    r["crest_owner"][q] = p
    r["coat_owner"][c] = p
    r["coat_unknown"] &= ~bit(c)
    r["players"][p]["coats"] |= bit(c)
    r["players"][p]["crests_left"] -= 1
    s.set_raw(r)
    return s


def set_desc(s: ulm.State, **by_name) -> ulm.State:
    """Descendants: name -> DESC_ON_BOARD / DESC_UNSEEN / seat (unnamed ones: unseen)."""
    desc = [DESC_UNSEEN] * len(DESCENDANTS)
    for name, v in by_name.items():
        desc[descendant(name.replace("_", " "))] = v
    return edit(s, desc=desc)


def outcomes(s: ulm.State) -> dict[str, float]:
    return {ACTION_NAMES[a][len("chance: "):]: p for a, p in s.chance_outcomes()}


def idle(s: ulm.State) -> bool:
    """No sub-decision or chance event pending: back in the main action phase."""
    r = s.raw()
    return r["n_tasks"] == 0 and r["phase"] == ACTIONS and not s.is_chance_node()


def pl(s: ulm.State, p: int = 0) -> dict:
    return player(s, p)


def resolve(s: ulm.State, picks: list[str], tiles: list[str]) -> dict[str, list[str]]:
    """Settle pending sub-decisions in whatever order the engine asks them:
    each decision takes the first legal name of `picks` (which is then used up),
    each chance event the next of `tiles`. Returns the legal sets seen per pick."""
    seen = {}
    picks, tiles = list(picks), list(tiles)
    for _ in range(20):
        if s.raw()["n_tasks"] == 0:
            break
        if s.is_chance_node():
            chance(s, tiles.pop(0))
            continue
        names = legal(s)
        for n in picks:
            if n in names:
                seen[n] = names
                picks.remove(n)
                do(s, n)
                break
        else:
            raise AssertionError(f"no pick among {picks} in {names}")
    assert not picks and not tiles, (picks, tiles)
    return seen


# ===========================================================================
# Section 6: quarter privileges


def test_tillage_gives_dock_tile_coin_and_barge_0_to_2_R_PRIV_TILLAGE():
    """R-PRIV-TILLAGE: 1 tile of choice from the docks, 1 coin, barge 0-2."""
    s = at_seal("Tillage", barge=2)
    assert "seal in Tillage" in legal(s)
    do(s, "seal in Tillage")
    assert pl(s)["coins"] == 2 - 2 + 1
    seen = resolve(s, ["take brown from the docks", "move barge 2"], ["tile gray"])
    assert seen["take brown from the docks"] == DOCK_TAKES
    assert seen["move barge 2"] == ["move barge 0", "move barge 1", "move barge 2"]
    p = pl(s)
    assert p["supply"] == [0, 0, 1, 0, 0]
    assert p["coins"] == 1 and p["barge"] == 4
    assert p["seals_in"][quarter("Tillage")] == 1 and p["seals_left"] == 11
    assert s.raw()["quarter_seals"][quarter("Tillage")] == 1
    assert s.raw()["docks"] == [2, 1, 0, 1, 1]
    assert p["score"] == 5
    assert idle(s)
    check_invariants(s)


def test_tillage_barge_may_stay_and_skips_occupied_spaces_R_PRIV_TILLAGE():
    """R-PRIV-TILLAGE: the 0-2 move is one move (R-RIVER-3) that skips occupied spaces;
    0 leaves the barge where it is."""
    s = at_seal("Tillage", barge=3)
    set_barges(s, 3, 4)
    snap = s.clone()
    do(s, "seal in Tillage")
    resolve(s, ["take gray from the docks", "move barge 2"], ["tile white"])
    assert pl(s)["barge"] == 6  # index 4 holds seat 1's barge: not counted
    s = snap
    do(s, "seal in Tillage")
    seen = resolve(s, ["take gray from the docks", "move barge 0"], ["tile white"])
    assert "move barge 3" not in seen["move barge 0"]
    assert pl(s)["barge"] == 3 and pl(s)["coins"] == 1 and pl(s)["supply"][colour("gray")] == 1
    check_invariants(s)


def _leaning_draw_two_keep_one(q: str) -> None:
    s = at_seal(q)
    assert f"seal in {q}" in legal(s)
    do(s, f"seal in {q}")
    assert s.is_chance_node()
    first = outcomes(s)
    assert set(first) == {f"coat {c}" for c in COATS}
    assert all(p == pytest.approx(1 / 12) for p in first.values())
    chance(s, "coat S-1")
    assert set(outcomes(s)) == {f"coat {c}" for c in COATS if c != "S-1"}
    chance(s, "coat G-Goose")
    assert legal(s) == ["keep coat G-Goose", "keep coat S-1"]  # no "put back" with 2
    snap = s.clone()

    do(s, "keep coat S-1")
    r = s.raw()
    p = r["players"][0]
    assert p["score"] == 5 + 4 and p["vp"][SRC_COATS] == 4
    assert r["coat_owner"][coat("S-1")] == 0 and p["coats"] == bit(coat("S-1"))
    assert r["outer_mark"][coat("S-1")] == 0
    assert p["seals_left"] == 10 and p["crests_left"] == 3
    assert r["coat_tail_len"] == 1
    assert r["coat_tail"][0] == coat("G-Goose") and r["coat_tail_by"][0] == 0
    assert r["coat_unknown"] == ALL_COATS & ~bit(coat("S-1")) & ~bit(coat("G-Goose"))
    assert r["crest_owner"] == [-1] * 8
    assert idle(s)
    check_invariants(s)

    s = snap
    do(s, "keep coat G-Goose")
    r = s.raw()
    p = r["players"][0]
    assert p["score"] == 5 + 2 and p["crests_left"] == 2
    assert r["crest_owner"][quarter("Goose Tower")] == 0
    assert r["outer_mark"][coat("G-Goose")] == 0
    assert r["coat_tail"][0] == coat("S-1") and r["coat_tail_by"][0] == 0
    assert r["coat_tail_len"] == 1
    check_invariants(s)


def test_leaning_house_draw_two_keep_one_other_under_stack_R_PRIV_LEANING():
    """R-PRIV-LEANING: draw 2 coats (chance events), keep 1, the other under the stack."""
    _leaning_draw_two_keep_one("Leaning House")


def test_garden_draw_two_keep_one_other_under_stack_R_PRIV_GARDEN():
    """R-PRIV-GARDEN: as Leaning House: draw 2, keep 1, the other under the stack."""
    _leaning_draw_two_keep_one("Garden")


def _one_coat_left(q: str) -> None:
    s = at_seal(q)
    set_coats(s, unknown=["S-2"])
    snap = s.clone()
    do(s, f"seal in {q}")
    assert outcomes(s) == {"coat S-2": pytest.approx(1.0)}
    chance(s, "coat S-2")
    assert legal(s) == ["keep coat S-2", "put the coat back"]
    do(s, "put the coat back")
    r = s.raw()
    assert r["coat_unknown"] == 0 and r["coat_tail_len"] == 1
    assert r["coat_tail"][0] == coat("S-2") and r["coat_tail_by"][0] == 0
    assert r["coat_owner"][coat("S-2")] == -1 and r["players"][0]["score"] == 5
    assert r["outer_mark"] == [-1] * 12
    assert idle(s)
    check_invariants(s)

    s = snap
    do(s, f"seal in {q}")
    chance(s, "coat S-2")
    do(s, "keep coat S-2")
    r = s.raw()
    assert r["coat_owner"][coat("S-2")] == 0 and r["players"][0]["score"] == 9
    assert r["coat_unknown"] == 0 and r["coat_tail_len"] == 0
    assert r["outer_mark"][coat("S-2")] == 0
    check_invariants(s)


def test_leaning_house_one_coat_left_keep_or_put_back_R_PRIV_LEANING():
    """R-PRIV-LEANING: with 1 coat left, draw it and keep it or put it back."""
    _one_coat_left("Leaning House")


def test_garden_one_coat_left_keep_or_put_back_R_PRIV_GARDEN():
    """R-PRIV-GARDEN: with 1 coat left, draw it and keep it or put it back."""
    _one_coat_left("Garden")


def _one_known_coat_left(q: str) -> None:
    s = at_seal(q)
    set_coats(s, tail=[("G-Oath", 1)])
    do(s, f"seal in {q}")
    # the only coat left is known (put under by seat 1): no chance event
    assert not s.is_chance_node()
    assert legal(s) == ["keep coat G-Oath", "put the coat back"]
    do(s, "keep coat G-Oath")
    r = s.raw()
    assert r["coat_tail_len"] == 0 and r["coat_owner"][coat("G-Oath")] == 0
    assert r["crest_owner"][quarter("Oath House")] == 0
    assert r["players"][0]["score"] == 7
    check_invariants(s)


def test_leaning_house_last_coat_is_one_put_under_R_PRIV_LEANING():
    """R-PRIV-LEANING: the 1-coat case also when that coat was put under the stack."""
    _one_known_coat_left("Leaning House")


def test_garden_last_coat_is_one_put_under_R_PRIV_GARDEN():
    """R-PRIV-GARDEN: the 1-coat case also when that coat was put under the stack."""
    _one_known_coat_left("Garden")


def _no_coat_left(q: str) -> None:
    s = at_seal(q)
    set_coats(s)
    before = s.raw()
    do(s, f"seal in {q}")
    assert idle(s)
    r = s.raw()
    for k in ("coat_unknown", "coat_tail_len", "coat_owner", "outer_mark", "crest_owner"):
        assert r[k] == before[k], k
    p = r["players"][0]
    assert p["score"] == 5 and p["coins"] == 0 and p["seals_left"] == 11
    assert p["seals_in"][quarter(q)] == 1
    check_invariants(s)


def test_leaning_house_no_coat_left_nothing_happens_R_PRIV_LEANING():
    """R-PRIV-LEANING: with no coat left in the stack, nothing happens (the seal stays)."""
    _no_coat_left("Leaning House")


def test_garden_no_coat_left_nothing_happens_R_PRIV_GARDEN():
    """R-PRIV-GARDEN: with no coat left in the stack, nothing happens (the seal stays)."""
    _no_coat_left("Garden")


def test_leaning_house_draws_unknown_top_before_coats_put_under_R_PRIV_LEANING():
    """R-PRIV-LEANING: the 2 coats come from the top: the shuffled part first, then the
    coats put under (top first)."""
    s = at_seal("Leaning House")
    set_coats(s, unknown=["S-4"], tail=[("G-TownHall", 1), ("S-3", 1)])
    do(s, "seal in Leaning House")
    assert outcomes(s) == {"coat S-4": pytest.approx(1.0)}
    chance(s, "coat S-4")
    assert legal(s) == ["keep coat G-TownHall", "keep coat S-4"]
    do(s, "keep coat G-TownHall")
    r = s.raw()
    assert r["coat_tail_len"] == 2
    assert r["coat_tail"][:2] == [coat("S-3"), coat("S-4")]
    assert r["coat_tail_by"][:2] == [1, 0]
    check_invariants(s)


def test_oath_house_choose_a_descendant_on_the_board_R_PRIV_OATH():
    """R-PRIV-OATH: choose one of the Descendants still on the board; the seal goes there."""
    s = at_seal("Oath House", supply={"gray": 1})
    set_desc(s, Abbot=DESC_ON_BOARD, Builder=DESC_ON_BOARD, Merchant=DESC_ON_BOARD,
             Mint_Master=DESC_ON_BOARD)
    assert not any(n.startswith("merchant:") for n in legal(s))
    do(s, "seal in Oath House")
    assert legal(s) == ["take Abbot", "take Builder", "take Merchant", "take Mint Master"]
    do(s, "take Merchant")
    r = s.raw()
    assert r["desc"][descendant("Merchant")] == 0
    assert [r["desc"][descendant(d)] for d in ("Abbot", "Builder", "Mint Master")] == [-1] * 3
    assert r["players"][0]["seals_in"][quarter("Oath House")] == 1
    assert r["quarter_seals"][quarter("Oath House")] == 1
    assert r["players"][0]["coins"] == 0
    assert idle(s)
    # the Merchant is usable at once (R-DESC-MERCHANT)
    assert "merchant: give gray, take orange" in legal(s)
    check_invariants(s)


def test_oath_house_several_descendants_and_taken_ones_not_offered_R_PRIV_OATH():
    """R-PRIV-OATH: Descendants owned by anyone are not offered; a player may own several;
    the new ability applies for the rest of the game (here: Money at once)."""
    s = at_seal("Oath House")
    set_desc(s, Abbot=0, Builder=1, Scholar=DESC_ON_BOARD, Mint_Master=DESC_ON_BOARD)
    do(s, "seal in Oath House")
    assert legal(s) == ["take Scholar", "take Mint Master"]
    do(s, "take Mint Master")
    r = s.raw()
    assert r["desc"][:5] == [0, 1, DESC_ON_BOARD, DESC_UNSEEN, 0]
    do(s, "money")
    assert pl(s)["coins"] == 0 + 2  # Mint Master: +1 more


def test_oath_house_full_after_four_seals_R_PRIV_OATH():
    """R-PRIV-OATH: the Oath House's 4 seal spaces are the Descendant spaces: with all 4
    taken the quarter is full."""
    s = at_seal("Oath House")
    set_desc(s, Abbot=1, Builder=1, Scholar=1, Merchant=1)
    set_seals(s, 1, {"Oath House": 4})
    assert "seal in Oath House" not in legal(s)
    assert "seal in Garden" in legal(s)


def test_oath_house_last_descendant_R_PRIV_OATH():
    """R-PRIV-OATH: with one Descendant left it is the only choice."""
    s = at_seal("Oath House")
    set_desc(s, Abbot=1, Builder=1, Scholar=DESC_ON_BOARD, Merchant=1)
    set_seals(s, 1, {"Oath House": 3})
    do(s, "seal in Oath House")
    assert legal(s) == ["take Scholar"]
    do(s, "take Scholar")
    assert s.raw()["desc"][descendant("Scholar")] == 0
    assert s.raw()["quarter_seals"][quarter("Oath House")] == 4


def test_town_hall_card_and_coin_R_PRIV_TOWNHALL():
    """R-PRIV-TOWNHALL: draw 1 card (a chance event), then 1 coin or 1 dock tile: coin."""
    s = at_seal("Town Hall")
    set_pile(s, "Siege", "Patrician")
    do(s, "seal in Town Hall")
    assert outcomes(s) == {"card Siege": pytest.approx(0.5), "card Patrician": pytest.approx(0.5)}
    chance(s, "card Siege")
    assert pl(s)["hand"] == cards_mask("Siege")
    assert legal(s) == DOCK_TAKES + ["take a coin"]
    do(s, "take a coin")
    p = pl(s)
    assert p["coins"] == 2 - 2 + 1 and p["supply"] == [0] * 5
    assert s.raw()["pile"] == cards_mask("Patrician") and s.raw()["docks"] == [1] * 5
    assert idle(s)
    check_invariants(s)


def test_town_hall_card_and_dock_tile_R_PRIV_TOWNHALL():
    """R-PRIV-TOWNHALL: the other option: 1 tile of choice from the docks (refilled)."""
    s = at_seal("Town Hall")
    set_pile(s, "Siege", "Patrician")
    do(s, "seal in Town Hall")
    chance(s, "card Patrician")
    do(s, "take turquoise from the docks")
    assert s.is_chance_node()  # R-DOCK-1
    chance(s, "tile white")
    p = pl(s)
    assert p["hand"] == cards_mask("Patrician") and p["coins"] == 0
    assert p["supply"] == [0, 0, 0, 1, 0]
    assert s.raw()["docks"] == [1, 2, 1, 0, 1]
    assert idle(s)
    check_invariants(s)


def test_town_hall_without_cards_still_coin_or_tile_R_PRIV_TOWNHALL():
    """R-PRIV-TOWNHALL: with pile and discard empty no card is drawn (R-CARD-GET-2), the
    coin-or-tile part still applies."""
    s = at_seal("Town Hall")
    set_pile(s)
    do(s, "seal in Town Hall")
    assert not s.is_chance_node()
    assert legal(s) == DOCK_TAKES + ["take a coin"]
    do(s, "take a coin")
    assert pl(s)["coins"] == 1 and pl(s)["hand"] == 0
    check_invariants(s)


def test_shipyard_dock_tile_and_extra_card_buy_R_PRIV_SHIPYARD():
    """R-PRIV-SHIPYARD: 1 dock tile, and one additional card action (option a: buy)."""
    s = at_seal("Shipyard", supply={"gray": 1, "white": 1})
    set_pile(s, "Siege", "Reformation")
    assert not any(n.startswith("buy card") for n in legal(s))  # no brown tile activated
    do(s, "seal in Shipyard")
    assert legal(s) == DOCK_TAKES
    do(s, "take gray from the docks")
    assert s.is_chance_node()
    chance(s, "tile orange")
    assert pl(s)["supply"] == [2, 1, 0, 0, 0]
    assert s.raw()["docks"] == [0, 1, 1, 1, 2]
    buys = [n for n in legal(s) if n.startswith("buy card")]
    assert buys == ["buy card paying gray+gray", "buy card paying gray+white"]
    bag = s.raw()["bag"]
    do(s, "buy card paying gray+white")
    chance(s, "card Reformation")
    p = pl(s)
    assert p["hand"] == cards_mask("Reformation") and p["supply"] == [1, 0, 0, 0, 0]
    assert s.raw()["bag"] == [bag[0] + 1, bag[1] + 1] + bag[2:]
    assert not any(n.startswith("buy card") for n in legal(s))  # only one extra
    check_invariants(s)


def test_shipyard_extra_card_action_plays_an_extra_card_R_PRIV_SHIPYARD():
    """R-PRIV-SHIPYARD: the additional card action may be option b: one more card play."""
    s = fresh()
    set_grid(s, NEUTRAL)
    set_barges(s, BESIDE["Shipyard"])
    edit_player(s, 0, coins=2)
    set_supply(s, 0, {})
    give_cards(s, 0, "Siege", "Patrician", "Steeple I")
    do(s, "play Patrician (lower)")  # the free play of the turn
    to_actions(s, "orange", "row 1 from left")
    assert "play Siege (lower)" not in legal(s)
    do(s, "seal in Shipyard")
    resolve(s, ["take white from the docks"], ["tile white"])
    assert "play Siege (lower)" in legal(s)
    do(s, "play Siege (lower)")
    assert pl(s)["front"] == cards_mask("Patrician", "Siege")
    assert "play Steeple I (lower)" not in legal(s)
    check_invariants(s)


def test_reichenau_counts_quarters_with_own_seals_including_this_one_R_PRIV_REICHENAU():
    """R-PRIV-REICHENAU: +1 VP per quarter holding at least one own seal, this one included."""
    s = at_seal("Reichenauer Hof")
    set_seals(s, 0, {"Tillage": 1, "Garden": 2})
    set_seals(s, 1, {"Shipyard": 1, "Town Hall": 1, "Goose Tower": 1})  # not counted
    do(s, "seal in Reichenauer Hof")
    assert idle(s)
    p = pl(s)
    assert p["score"] == 5 + 3 and p["vp"][SRC_REICHENAU] == 3
    assert pl(s, 1)["score"] == 5
    check_invariants(s)


def test_reichenau_second_seal_there_counts_quarter_once_R_PRIV_REICHENAU():
    """R-PRIV-REICHENAU: quarters are counted, not seals (a second seal in the Hof)."""
    s = at_seal("Reichenauer Hof")
    set_seals(s, 0, {"Reichenauer Hof": 1, "Tillage": 2})
    do(s, "seal in Reichenauer Hof")
    assert pl(s)["score"] == 5 + 2


def test_reichenau_first_seal_gives_one_R_PRIV_REICHENAU():
    """R-PRIV-REICHENAU: the first seal of the game there gives 1 VP (this quarter)."""
    s = at_seal("Reichenauer Hof")
    do(s, "seal in Reichenauer Hof")
    assert pl(s)["score"] == 6 and pl(s)["vp"][SRC_REICHENAU] == 1


def test_goose_tower_take_any_card_from_discard_R_PRIV_GOOSE():
    """R-PRIV-GOOSE: option 1: take any 1 card from the discard pile."""
    s = at_seal("Goose Tower")
    set_pile(s, "Steeple I", "Nave I", "Choir I", "Fustian I", discard=("Siege", "City Wall"))
    do(s, "seal in Goose Tower")
    assert legal(s) == ["take City Wall from the discard pile",
                        "take Siege from the discard pile", "look at the top 3 cards"]
    do(s, "take Siege from the discard pile")
    r = s.raw()
    assert r["players"][0]["hand"] == cards_mask("Siege")
    assert r["discard"] == cards_mask("City Wall")
    assert r["pile"] == cards_mask("Steeple I", "Nave I", "Choir I", "Fustian I")
    assert idle(s)
    check_invariants(s)


def test_goose_tower_look_at_three_keep_one_R_PRIV_GOOSE():
    """R-PRIV-GOOSE: option 2: look at the top 3 of the pile, keep 1, 2 face up on the
    discard pile."""
    s = at_seal("Goose Tower")
    set_pile(s, "Steeple I", "Nave I", "Choir I", "Fustian I", discard=("City Wall",))
    do(s, "seal in Goose Tower")
    do(s, "look at the top 3 cards")
    assert len(outcomes(s)) == 4
    chance(s, "card Steeple I")
    chance(s, "card Nave I")
    chance(s, "card Choir I")
    assert legal(s) == ["keep Steeple I", "keep Nave I", "keep Choir I"]
    do(s, "keep Nave I")
    r = s.raw()
    assert r["players"][0]["hand"] == cards_mask("Nave I")
    assert r["discard"] == cards_mask("City Wall", "Steeple I", "Choir I")
    assert r["pile"] == cards_mask("Fustian I")
    assert idle(s)
    check_invariants(s)


def test_goose_tower_empty_discard_only_look_R_PRIV_GOOSE():
    """R-PRIV-GOOSE: with an empty discard pile only the look-at-3 option exists."""
    s = at_seal("Goose Tower")
    set_pile(s, "Steeple I", "Nave I", "Choir I")
    do(s, "seal in Goose Tower")
    assert legal(s) == ["look at the top 3 cards"]


def test_dock_refill_is_a_chance_event_from_the_bag_R_DOCK_1():
    """R-DOCK-1: an emptied dock space is refilled at once by a random tile from the bag:
    a chance event with the bag's proportions, before anything else happens."""
    s = fresh()
    set_grid(s, NEUTRAL)
    set_barges(s, 2)
    set_supply(s, 0, {})
    set_bag(s, {"gray": 2, "brown": 1, "orange": 1})
    to_actions(s, "orange")
    assert s.raw()["bag"] == [2, 0, 1, 0, 0]
    do(s, "seal in Tillage")
    if "move barge 0" in legal(s):  # the privilege's parts in either order
        do(s, "move barge 0")
    do(s, "take white from the docks")
    assert s.is_chance_node()  # at once, before any other decision
    assert outcomes(s) == {"tile gray": pytest.approx(2 / 3), "tile brown": pytest.approx(1 / 3)}
    chance(s, "tile brown")
    r = s.raw()
    assert r["docks"] == [1, 0, 2, 1, 1] and r["bag"] == [2, 0, 0, 0, 0]
    assert pl(s)["supply"] == [0, 1, 0, 0, 0]


def test_dock_refill_with_empty_bag_adds_one_of_each_R_DOCK_1():
    """R-DOCK-1: with the bag empty, R-DRAW-8 first adds one tile of each colour."""
    s = fresh()
    set_grid(s, NEUTRAL)
    set_barges(s, BESIDE["Town Hall"])
    set_supply(s, 0, {})
    set_bag(s, {"orange": 1})
    set_pile(s, "Siege")
    to_actions(s, "orange")
    assert s.raw()["bag"] == [0] * 5
    do(s, "seal in Town Hall")
    chance(s, "card Siege")
    do(s, "take gray from the docks")
    r = s.raw()
    assert r["bag"] == [1] * 5 and r["tiles_added"] == 5
    assert outcomes(s) == {f"tile {c}": pytest.approx(0.2) for c in COLOURS}
    chance(s, "tile gray")
    r = s.raw()
    assert r["docks"] == [1] * 5 and r["bag"] == [0, 1, 1, 1, 1]
    assert pl(s)["supply"] == [1, 0, 0, 0, 0]


def test_dock_refill_after_each_dock_take_R_DOCK_1():
    """R-DOCK-1: every dock take (Abbot's, with each clear-away) is refilled before the next."""
    s = fresh()
    set_grid(s, "white white gray / turquoise brown orange / brown turquoise orange")
    put_outer(s, {0: "gray", 6: "orange"})
    give_descendant(s, "Abbot", 0)
    set_supply(s, 0, {})
    to_actions(s, "white")
    do(s, "clear top")
    do(s, "take orange from the docks")
    assert s.is_chance_node()
    chance(s, "tile orange")
    assert s.raw()["docks"] == [1] * 5
    do(s, "clear bottom")
    do(s, "take orange from the docks")
    assert s.is_chance_node()
    chance(s, "tile turquoise")
    assert s.raw()["docks"] == [1, 1, 1, 2, 0]
    check_invariants(s)


def test_merchant_and_joker_exchanges_fill_the_space_no_refill_R_DOCK_1():
    """R-DOCK-1: an exchange puts a tile into the dock space it empties (Merchant,
    sparrow joker), so nothing is drawn and the docks keep 5 tiles."""
    s = fresh()
    give_descendant(s, "Merchant", 0)
    set_supply(s, 0, {"gray": 1})
    do(s, "merchant: give gray, take orange")
    assert not s.is_chance_node()
    assert s.raw()["docks"] == [2, 1, 1, 1, 0]
    do(s, "draw")
    chance(s, "tile white")
    do(s, "joker: take brown from the docks")
    assert not s.is_chance_node()
    assert s.raw()["docks"] == [2, 2, 0, 1, 0] and s.raw()["drawn"][0] == colour("brown")
    check_invariants(s)


# ===========================================================================
# Section 7: city coats of arms


@pytest.mark.parametrize("name", COATS)
def test_taking_a_coat_scores_marks_its_outer_space_and_crest_R_COAT_1(name):
    """R-COAT-1: immediate VP, one own seal on the coat's outer-space image (outer space
    k shows coat k), a crest on the quarter if golden."""
    s = at_seal("Leaning House")
    set_coats(s, unknown=[name])
    do(s, "seal in Leaning House")
    chance(s, f"coat {name}")
    do(s, f"keep coat {name}")
    k = coat(name)
    r = s.raw()
    p = r["players"][0]
    golden = name.startswith("G-")
    vp = {"G-Shipyard": 3}.get(name, 2) if golden else 4
    assert p["score"] == 5 + vp and p["vp"][SRC_COATS] == vp
    assert r["outer_mark"] == [0 if i == k else -1 for i in range(12)]
    assert p["seals_left"] == 10
    assert r["coat_owner"][k] == 0 and p["coats"] & bit(k)
    expected_crests = [-1] * 8
    if golden:
        expected_crests[QUARTERS.index({
            "G-Tillage": "Tillage", "G-Leaning": "Leaning House", "G-Garden": "Garden",
            "G-Oath": "Oath House", "G-TownHall": "Town Hall", "G-Shipyard": "Shipyard",
            "G-Reichenau": "Reichenauer Hof", "G-Goose": "Goose Tower"}[name])] = 0
    assert r["crest_owner"] == expected_crests
    assert p["crests_left"] == (2 if golden else 3)
    check_invariants(s)


# the push that moves a tile onto outer space k (R-PUSH-2 numbering)
PUSH_ONTO = {0: "column 1 from bottom", 1: "column 2 from bottom", 2: "column 3 from bottom",
             3: "row 1 from left", 4: "row 2 from left", 5: "row 3 from left",
             6: "column 3 from top", 7: "column 2 from top", 8: "column 1 from top",
             9: "row 3 from right", 10: "row 2 from right", 11: "row 1 from right"}


def test_coat_marker_earns_sparrow_when_a_tile_is_pushed_onto_it_R_COAT_1():
    """R-COAT-1 with R-PUSH-5: the seal on the coat's image earns its owner 1 sparrow when
    a tile is later pushed onto that outer space, also on another player's turn."""
    s = at_seal("Leaning House")
    set_coats(s, unknown=["S-3"])
    do(s, "seal in Leaning House")
    chance(s, "coat S-3")
    do(s, "keep coat S-3")
    assert s.raw()["outer_mark"][10] == 0
    do(s, "end turn")
    snap = s.clone()
    to_actions(s, "gray", "row 2 from right")  # the far tile lands on outer space 10
    assert s.raw()["outer"][10] >= 0
    assert pl(s, 0)["sparrows"] == 3 and pl(s, 1)["sparrows"] == 2
    s = snap
    to_actions(s, "gray", "row 3 from right")  # outer space 9: no marker there
    assert pl(s, 0)["sparrows"] == 2 and pl(s, 1)["sparrows"] == 2


@pytest.mark.parametrize("k", range(12))
def test_marker_on_each_outer_space_pays_its_owner_R_COAT_1(k):
    """R-COAT-1: a marker on outer space k (coat k's image) pays a sparrow to its owner
    when the push lands on k; other seats get nothing."""
    s = fresh(3)
    set_grid(s, NEUTRAL)
    marks = [-1] * 12
    marks[k] = 2
    edit(s, outer_mark=marks)
    edit_player(s, 2, seals_left=11)
    to_actions(s, "gray", PUSH_ONTO[k])
    r = s.raw()
    assert r["outer"][k] == [colour(w) for w in NEUTRAL.replace("/", " ").split()][
        {0: 0, 1: 1, 2: 2, 3: 2, 4: 5, 5: 8, 6: 8, 7: 7, 8: 6, 9: 6, 10: 3, 11: 0}[k]]
    assert [p["sparrows"] for p in r["players"]] == [2, 2, 3]


def test_coat_without_seal_left_scores_but_gets_no_marker_R_COAT_1():
    """R-COAT-1 [D]: with no seal left (the privilege's seal was the last), the coat still
    scores but gets no marker; a golden coat still places its crest."""
    s = at_seal("Leaning House")
    set_seals(s, 0, {"Tillage": 3, "Garden": 4, "Town Hall": 4})
    assert pl(s)["seals_left"] == 1
    set_coats(s, unknown=["S-1", "G-Goose"])
    snap = s.clone()
    do(s, "seal in Leaning House")
    chance(s, "coat S-1", "coat G-Goose")
    do(s, "keep coat S-1")
    r = s.raw()
    assert r["players"][0]["score"] == 9 and r["coat_owner"][coat("S-1")] == 0
    assert r["outer_mark"] == [-1] * 12 and r["players"][0]["seals_left"] == 0
    check_invariants(s)
    s = snap
    do(s, "seal in Leaning House")
    chance(s, "coat S-1", "coat G-Goose")
    do(s, "keep coat G-Goose")
    r = s.raw()
    assert r["players"][0]["score"] == 7 and r["outer_mark"] == [-1] * 12
    assert r["crest_owner"][quarter("Goose Tower")] == 0 and r["players"][0]["crests_left"] == 2
    check_invariants(s)


def _no_crests(s: ulm.State) -> ulm.State:
    for q in ("Tillage", "Garden", "Shipyard"):
        give_crest(s, q, 0)
    assert pl(s)["crests_left"] == 0
    return s


def test_golden_coat_needs_a_crest_R_COAT_2():
    """R-COAT-2: with all 3 crests used a golden coat may not be kept (silver one must)."""
    s = _no_crests(at_seal("Leaning House"))
    do(s, "seal in Leaning House")
    chance(s, "coat G-Goose", "coat S-1")
    assert legal(s) == ["keep coat S-1"]
    do(s, "keep coat S-1")
    r = s.raw()
    assert r["coat_owner"][coat("G-Goose")] == -1 and r["crest_owner"][quarter("Goose Tower")] == -1
    assert r["coat_tail"][0] == coat("G-Goose") and r["coat_tail_len"] == 1
    assert r["players"][0]["score"] == 9
    check_invariants(s)


def test_both_drawn_golden_without_crest_keep_neither_R_COAT_2():
    """R-COAT-2: both drawn coats golden and no crest left: keep neither, both go under."""
    s = _no_crests(at_seal("Leaning House"))
    before = s.raw()
    do(s, "seal in Leaning House")
    chance(s, "coat G-Goose", "coat G-Oath")
    assert idle(s)
    r = s.raw()
    assert r["coat_tail_len"] == 2
    assert sorted(r["coat_tail"][:2]) == sorted([coat("G-Goose"), coat("G-Oath")])
    assert r["coat_tail_by"][:2] == [0, 0]
    assert r["coat_owner"] == before["coat_owner"] and r["crest_owner"] == before["crest_owner"]
    assert r["players"][0]["score"] == 5 and r["outer_mark"] == [-1] * 12
    check_invariants(s)


def test_single_golden_coat_without_crest_goes_back_R_COAT_2():
    """R-COAT-2: the last coat golden and no crest left: it cannot be kept, it goes back."""
    s = _no_crests(at_seal("Leaning House"))
    set_coats(s, unknown=["G-Goose"])
    do(s, "seal in Leaning House")
    chance(s, "coat G-Goose")
    assert idle(s)
    r = s.raw()
    assert r["coat_tail_len"] == 1 and r["coat_tail"][0] == coat("G-Goose")
    assert r["coat_owner"][coat("G-Goose")] == -1


def test_last_crest_allows_a_golden_coat_R_COAT_2():
    """R-COAT-2: with 1 crest left a golden coat may still be kept (and uses it)."""
    s = at_seal("Leaning House")
    give_crest(s, "Tillage", 0)
    give_crest(s, "Garden", 0)
    do(s, "seal in Leaning House")
    chance(s, "coat G-Goose", "coat G-Oath")
    assert legal(s) == ["keep coat G-Oath", "keep coat G-Goose"]
    do(s, "keep coat G-Oath")
    assert pl(s)["crests_left"] == 0
    assert s.raw()["crest_owner"][quarter("Oath House")] == 0


def test_crest_income_to_other_player_R_COAT_3():
    """R-COAT-3 / R-ACT-SEAL-3: a seal by another player in the quarter pays the crest
    owner the coat's later VP at once."""
    s = at_seal("Garden")
    give_crest(s, "Garden", 1)
    do(s, "seal in Garden")
    assert pl(s, 1)["score"] == 5 + 2 and pl(s, 1)["vp"][SRC_CRESTS] == 2
    assert pl(s, 0)["score"] == 5 and pl(s, 0)["vp"][SRC_CRESTS] == 0


def test_crest_income_to_owner_sealing_himself_R_COAT_3():
    """R-COAT-3: the crest owner gains too when sealing in that quarter."""
    s = at_seal("Tillage")
    give_crest(s, "Tillage", 0)
    do(s, "seal in Tillage")
    assert pl(s)["score"] == 5 + 2 and pl(s)["vp"][SRC_CRESTS] == 2


def test_crest_income_uses_the_coat_table_shipyard_1_R_COAT_3():
    """R-COAT-3: the later VP come from the coat table (G-Shipyard: 1)."""
    s = at_seal("Shipyard")
    give_crest(s, "Shipyard", 1)
    do(s, "seal in Shipyard")
    assert pl(s, 1)["score"] == 6 and pl(s, 1)["vp"][SRC_CRESTS] == 1


def test_crest_income_only_in_that_quarter_R_COAT_3():
    """R-COAT-3: seals in other quarters pay the crest owner nothing."""
    s = at_seal("Town Hall")
    give_crest(s, "Shipyard", 1)
    set_pile(s, "Siege")
    do(s, "seal in Town Hall")
    assert pl(s, 1)["score"] == 5 and pl(s, 1)["vp"][SRC_CRESTS] == 0


def test_crest_income_only_for_later_seals_then_every_one_R_COAT_3():
    """R-COAT-3: the seal whose privilege gave the coat pays nothing; every later seal
    there (here the other player's) pays the crest owner."""
    s = at_seal("Leaning House")
    do(s, "seal in Leaning House")
    chance(s, "coat G-Leaning", "coat S-4")
    do(s, "keep coat G-Leaning")
    assert pl(s)["score"] == 7 and pl(s)["vp"][SRC_CRESTS] == 0
    do(s, "end turn")
    set_barges(s, 2, 3)
    edit_player(s, 1, coins=2)
    to_actions(s, "orange", "row 2 from left")
    do(s, "seal in Leaning House")
    assert pl(s, 0)["score"] == 9 and pl(s, 0)["vp"][SRC_CRESTS] == 2
    chance(s, "coat S-1", "coat S-2")
    do(s, "keep coat S-1")
    assert pl(s, 1)["score"] == 9
    assert pl(s, 0)["score"] == 9
    check_invariants(s)


def test_crest_income_on_chronicle_seal_R_COAT_3():
    """R-COAT-3: the Ulm Chronicle's seal is a seal placed there too (crest income)."""
    s = fresh()
    set_barges(s, 2)
    give_crest(s, "Tillage", 1)
    give_cards(s, 0, "Ulm Chronicle")
    do(s, "play Ulm Chronicle (upper)")
    do(s, "chronicle seal in Tillage")
    assert pl(s, 1)["score"] == 7 and pl(s, 1)["vp"][SRC_CRESTS] == 2


def test_coat_put_under_is_known_to_who_put_it_R_COAT_4():
    """R-COAT-4: the coat put under the stack is known to that player only (coat_tail_by,
    the information state and the redeal of hidden information)."""
    base = at_seal("Leaning House")
    do(base, "seal in Leaning House")
    chance(base, "coat S-1")
    a, b = base.clone(), base.clone()
    chance(a, "coat S-2")
    chance(b, "coat S-3")
    do(a, "keep coat S-1")
    do(b, "keep coat S-1")
    ra = a.raw()
    assert ra["coat_tail_len"] == 1 and ra["coat_tail"][0] == coat("S-2")
    assert ra["coat_tail_by"][0] == 0
    assert a.information_state_string(1) == b.information_state_string(1)
    assert a.information_state_string(0) != b.information_state_string(0)
    for seed in range(10):
        assert a.resample_from_infostate(0, seed).raw()["coat_tail"][0] == coat("S-2")
    seen = {a.resample_from_infostate(1, seed).raw()["coat_tail"][0] for seed in range(30)}
    assert len(seen) > 1 and coat("S-1") not in seen


# ===========================================================================
# Section 8: Descendants


ABBOT_GRID = "white white gray / turquoise brown orange / brown turquoise orange"


def test_abbot_dock_tile_with_each_clear_away_R_DESC_ABBOT():
    """R-DESC-ABBOT (R-ACT-CLEAR-2): each clear-away also gives a dock tile of choice."""
    s = fresh()
    set_grid(s, ABBOT_GRID)
    put_outer(s, {0: "gray", 1: "brown", 6: "orange"})
    give_descendant(s, "Abbot", 0)
    set_supply(s, 0, {})
    to_actions(s, "white")  # row 1: white white white; gray pushed onto outer space 3
    assert s.raw()["avail"][colour("white")] == 3
    do(s, "clear top")
    assert pl(s)["supply"] == [1, 0, 1, 0, 0]
    assert legal(s) == DOCK_TAKES + ["take no dock tile"]
    do(s, "take turquoise from the docks")
    chance(s, "tile gray")
    do(s, "clear bottom")
    assert legal(s) == ["take gray from the docks", "take white from the docks",
                        "take brown from the docks", "take orange from the docks",
                        "take no dock tile"]
    do(s, "take white from the docks")
    chance(s, "tile gray")
    do(s, "clear right")
    do(s, "take gray from the docks")
    chance(s, "tile brown")
    assert pl(s)["supply"] == [3, 1, 1, 1, 1]
    assert s.raw()["docks"] == [2, 0, 2, 0, 1]
    assert idle(s)
    check_invariants(s)


def test_without_abbot_clear_away_gives_no_dock_tile_R_DESC_ABBOT():
    """R-DESC-ABBOT: only the Abbot's owner gets the dock tile."""
    s = fresh()
    set_grid(s, ABBOT_GRID)
    put_outer(s, {0: "gray", 1: "brown"})
    give_descendant(s, "Abbot", 1)
    set_supply(s, 0, {})
    to_actions(s, "white")
    do(s, "clear top")
    assert idle(s) and pl(s)["supply"] == [1, 0, 1, 0, 0]
    assert s.raw()["docks"] == [1] * 5


def test_builder_draws_two_keeps_one_other_back_to_bag_R_DESC_BUILDER():
    """R-DESC-BUILDER (R-DRAW-3): draw 2 (two chance events), choose 1, the other goes
    back into the bag."""
    s = fresh()
    give_descendant(s, "Builder", 0)
    set_bag(s, {"gray": 3, "white": 2, "brown": 1})
    do(s, "draw 2 (Builder)")
    chance(s, "tile gray")
    assert outcomes(s) == {"tile gray": pytest.approx(2 / 5), "tile white": pytest.approx(2 / 5),
                           "tile brown": pytest.approx(1 / 5)}
    chance(s, "tile white")
    assert legal(s) == ["pick gray", "pick white"]
    do(s, "pick white")
    r = s.raw()
    assert r["drawn"] == [colour("white"), NO_TILE]
    assert r["bag"] == [3, 1, 1, 0, 0]
    do(s, "push row 1 from left")
    assert s.raw()["grid"][0] == colour("white")


def test_builder_same_colour_twice_R_DESC_BUILDER():
    """R-DESC-BUILDER: two tiles of one colour: one choice, one tile back in the bag."""
    s = fresh()
    give_descendant(s, "Builder", 0)
    set_bag(s, {"gray": 3, "white": 2})
    do(s, "draw 2 (Builder)")
    chance(s, "tile gray", "tile gray")
    assert legal(s) == ["pick gray"]
    do(s, "pick gray")
    assert s.raw()["bag"] == [2, 2, 0, 0, 0]


def test_without_builder_one_draw_R_DESC_BUILDER():
    """R-DESC-BUILDER: without the Builder, one tile is drawn and pushed."""
    s = fresh()
    give_descendant(s, "Builder", 1)
    set_bag(s, {"gray": 3, "white": 2})
    do(s, "draw")
    chance(s, "tile gray")
    assert not s.is_chance_node() and s.raw()["phase"] == PUSH
    assert not any(n.startswith("pick") for n in legal(s))
    assert s.raw()["bag"] == [2, 2, 0, 0, 0]


def test_scholar_pushes_supply_tile_and_keeps_drawn_R_DESC_SCHOLAR():
    """R-DESC-SCHOLAR (R-DRAW-6): push a tile from the own supply instead, keep the drawn one."""
    s = fresh()
    set_grid(s, NEUTRAL)
    give_descendant(s, "Scholar", 0)
    set_supply(s, 0, {"brown": 1, "orange": 2})
    do(s, "draw")
    chance(s, "tile gray")
    names = legal(s)
    assert [n for n in names if n.startswith("scholar")] == [
        "scholar: push brown from supply", "scholar: push orange from supply"]
    do(s, "scholar: push brown from supply")
    assert pl(s)["supply"] == [1, 0, 0, 0, 2]
    assert not any(n.startswith(("scholar", "joker")) for n in legal(s))  # R-DRAW-7
    do(s, "push row 1 from left")
    r = s.raw()
    assert r["grid"][:3] == [colour("brown"), colour("gray"), colour("white")]
    assert r["players"][0]["supply"] == [1, 0, 0, 0, 2]
    check_invariants(s)


def test_scholar_only_for_owner_R_DESC_SCHOLAR():
    """R-DESC-SCHOLAR: without the Scholar no supply tile can be pushed."""
    s = fresh()
    give_descendant(s, "Scholar", 1)
    set_supply(s, 0, {"brown": 1})
    do(s, "draw")
    chance(s, "tile gray")
    assert not any(n.startswith("scholar") for n in legal(s))


def test_merchant_exchange_once_per_round_R_DESC_MERCHANT():
    """R-DESC-MERCHANT: once per round in the own turn, 1 supply tile for 1 dock tile;
    again in the next round."""
    s = fresh()
    set_grid(s, NEUTRAL)
    give_descendant(s, "Merchant", 0)
    set_supply(s, 0, {"gray": 1})
    merch = [n for n in legal(s) if n.startswith("merchant")]
    assert merch == ["merchant: give gray, take white", "merchant: give gray, take brown",
                     "merchant: give gray, take turquoise", "merchant: give gray, take orange"]
    do(s, "merchant: give gray, take orange")
    assert pl(s)["supply"] == [0, 0, 0, 0, 1]
    assert s.raw()["docks"] == [2, 1, 1, 1, 0]
    assert not any(n.startswith("merchant") for n in legal(s))
    to_actions(s, "gray")
    assert not any(n.startswith("merchant") for n in legal(s))
    do(s, "end turn")
    # seat 1's turn: seat 1 has no Merchant
    set_supply(s, 1, {"gray": 1})
    assert not any(n.startswith("merchant") for n in legal(s))
    to_actions(s, "gray", "row 2 from left")
    do(s, "end turn")
    r = s.raw()
    assert r["round"] == 1 and r["turn_player"] == 0
    assert "merchant: give orange, take gray" in legal(s)
    do(s, "merchant: give orange, take white")
    assert not any(n.startswith("merchant") for n in legal(s))
    check_invariants(s)


def test_merchant_usable_after_the_push_R_DESC_MERCHANT():
    """R-DESC-MERCHANT: the exchange may also be made in the action phase of the turn."""
    s = fresh()
    set_grid(s, NEUTRAL)
    give_descendant(s, "Merchant", 0)
    set_supply(s, 0, {"turquoise": 1})
    to_actions(s, "gray")
    do(s, "merchant: give turquoise, take brown")
    assert pl(s)["supply"] == [0, 0, 1, 0, 0]
    assert not any(n.startswith("merchant") for n in legal(s))


MONEY_GRID = "gray white brown / turquoise brown white / white gray turquoise"


def test_mint_master_adds_a_coin_on_money_actions_R_DESC_MINT():
    """R-DESC-MINT (R-ACT-MONEY-1): +1 more coin on each Money action."""
    s = fresh()
    set_grid(s, MONEY_GRID)
    give_descendant(s, "Mint Master", 0)
    to_actions(s, "gray")  # row 1: gray gray white: two Money actions
    do(s, "money")
    assert pl(s)["coins"] == 2 + 2
    do(s, "money")
    assert pl(s)["coins"] == 2 + 4
    assert "money" not in legal(s)


def test_money_without_mint_master_R_DESC_MINT():
    """R-DESC-MINT: without it a Money action gives 1 coin."""
    s = fresh()
    set_grid(s, MONEY_GRID)
    give_descendant(s, "Mint Master", 1)
    to_actions(s, "gray")
    do(s, "money")
    assert pl(s)["coins"] == 3


def test_mint_master_not_on_privilege_coins_R_DESC_MINT():
    """R-DESC-MINT: no extra coin from privileges (Tillage, Town Hall)."""
    s = at_seal("Tillage")
    give_descendant(s, "Mint Master", 0)
    do(s, "seal in Tillage")
    assert pl(s)["coins"] == 1
    s = at_seal("Town Hall")
    give_descendant(s, "Mint Master", 0)
    set_pile(s, "Siege")
    do(s, "seal in Town Hall")
    chance(s, "card Siege")
    do(s, "take a coin")
    assert pl(s)["coins"] == 1


def test_mint_master_not_on_card_coins_R_DESC_MINT():
    """R-DESC-MINT: no extra coin from cards (Commercial Goods: 3 coins)."""
    s = fresh()
    give_descendant(s, "Mint Master", 0)
    give_cards(s, 0, "Commercial Goods I")
    set_supply(s, 0, {"turquoise": 1})
    do(s, "play Commercial Goods I (upper)")
    do(s, "move barge 0")
    assert pl(s)["coins"] == 2 + 3


COUNCIL_GRID = "brown white gray / turquoise gray white / white brown turquoise"


def _buy_ready(owner: int, supply: dict) -> ulm.State:
    s = fresh()
    set_grid(s, COUNCIL_GRID)
    give_descendant(s, "Councilman", owner)
    set_supply(s, 0, supply)
    set_pile(s, "Siege", "Patrician", "Reformation")
    to_actions(s, "gray")  # row 1: gray brown white
    return s


def test_councilman_one_of_two_for_different_colours_R_DESC_COUNCIL():
    """R-DESC-COUNCIL (R-ACT-CARD-1): buying with 2 different colours still looks at 2
    cards, keeps 1, the other face up on the discard pile."""
    s = _buy_ready(0, {"gray": 1, "white": 1})
    do(s, "buy card paying gray+white", "look at the top 2 cards")
    chance(s, "card Siege")
    assert s.is_chance_node()
    chance(s, "card Patrician")
    assert legal(s) == ["keep Patrician", "keep Siege"]
    do(s, "keep Siege")
    r = s.raw()
    assert r["players"][0]["hand"] == cards_mask("Siege")
    assert r["discard"] == cards_mask("Patrician") and r["pile"] == cards_mask("Reformation")
    assert r["players"][0]["supply"] == [0] * 5
    check_invariants(s)


def test_councilman_same_colours_still_two_R_DESC_COUNCIL():
    """R-DESC-COUNCIL: with 2 tiles of one colour it is still 1 of 2 (not more)."""
    s = _buy_ready(0, {"gray": 2})
    do(s, "buy card paying gray+gray", "look at the top 2 cards")
    chance(s, "card Siege", "card Reformation")
    assert legal(s) == ["keep Reformation", "keep Siege"]


def test_without_councilman_different_colours_one_card_R_DESC_COUNCIL():
    """R-DESC-COUNCIL: without it, 2 different colours buy just the top card."""
    s = _buy_ready(1, {"gray": 1, "white": 1})
    do(s, "buy card paying gray+white")
    chance(s, "card Siege")
    assert idle(s)
    r = s.raw()
    assert r["players"][0]["hand"] == cards_mask("Siege") and r["discard"] == 0


def _guard(grid: str, push: str, owner: int = 0, draw: str = "gray") -> ulm.State:
    s = fresh()
    set_grid(s, grid)
    give_descendant(s, "City Guard", owner)
    to_actions(s, draw, push)
    return s


def test_city_guard_new_row_R_DESC_GUARD():
    """R-DESC-GUARD (R-PUSH-6): a new row of 3 of one colour gives the owner 2 VP."""
    s = _guard("gray gray white / turquoise brown white / white turquoise brown", "row 1 from left")
    assert s.raw()["grid"][:3] == [colour("gray")] * 3
    assert pl(s)["score"] == 7 and pl(s)["vp"][SRC_CITY_GUARD] == 2


def test_city_guard_new_column_R_DESC_GUARD():
    """R-DESC-GUARD: a new column counts."""
    s = _guard("white brown turquoise / gray orange brown / gray turquoise orange",
               "row 1 from left")
    assert pl(s)["score"] == 7


def test_city_guard_new_diagonal_R_DESC_GUARD():
    """R-DESC-GUARD: a new main diagonal counts."""
    s = _guard("white brown turquoise / orange gray brown / turquoise orange gray",
               "row 1 from left")
    assert pl(s)["score"] == 7


def test_city_guard_new_anti_diagonal_R_DESC_GUARD():
    """R-DESC-GUARD: a new anti-diagonal counts."""
    s = _guard("brown turquoise white / orange gray brown / gray orange turquoise",
               "row 1 from right")
    g = s.raw()["grid"]
    assert g[2] == g[4] == g[6] == colour("gray")
    assert pl(s)["score"] == 7


def test_city_guard_column_push_making_a_new_row_R_DESC_GUARD():
    """R-DESC-GUARD: the whole grid is checked: a column push can make a new row."""
    s = _guard("gray gray white / turquoise brown orange / white turquoise brown",
               "column 3 from top")
    assert s.raw()["grid"][:3] == [colour("gray")] * 3
    assert pl(s)["score"] == 7 and pl(s)["vp"][SRC_CITY_GUARD] == 2


def test_city_guard_two_new_lines_score_once_R_DESC_GUARD():
    """R-DESC-GUARD: two new lines in one push: 2 VP once."""
    s = _guard("gray gray white / turquoise brown gray / white turquoise gray", "row 1 from left")
    g = s.raw()["grid"]
    assert g[0] == g[1] == g[2] == g[5] == g[8] == colour("gray")
    assert pl(s)["score"] == 7 and pl(s)["vp"][SRC_CITY_GUARD] == 2


def test_city_guard_old_line_does_not_count_R_DESC_GUARD():
    """R-DESC-GUARD: a line that was already there before the push is not new."""
    s = _guard("turquoise white gray / orange gray white / brown brown brown", "row 1 from left")
    assert s.raw()["grid"][6:] == [colour("brown")] * 3
    assert pl(s)["score"] == 5
    # the pushed row itself stays the same line
    s = _guard("gray gray gray / turquoise brown white / white turquoise brown", "row 1 from left")
    assert s.raw()["grid"][:3] == [colour("gray")] * 3
    assert pl(s)["score"] == 5


def test_city_guard_only_on_owners_turn_R_DESC_GUARD():
    """R-DESC-GUARD: a line made by another player's push gives nobody anything."""
    s = _guard("gray gray white / turquoise brown white / white turquoise brown",
               "row 1 from left", owner=1)
    assert s.raw()["grid"][:3] == [colour("gray")] * 3
    assert pl(s, 0)["score"] == 5 and pl(s, 1)["score"] == 5


RIVER_GRID = "turquoise white brown / gray brown white / white gray turquoise"


def test_barge_driver_extra_step_on_river_action_R_DESC_BARGE():
    """R-DESC-BARGE (R-ACT-RIVER-1): a River action gives 1 extra step, usable later."""
    s = fresh()
    set_grid(s, RIVER_GRID)
    give_descendant(s, "Barge Driver", 0)
    to_actions(s, "gray")  # row 1: gray turquoise white
    assert s.raw()["avail"][colour("turquoise")] == 1
    do(s, "river step")
    assert pl(s)["barge"] == 1
    do(s, "money")
    assert "river step" in legal(s)
    do(s, "river step")
    assert pl(s)["barge"] == 2
    assert "river step" not in legal(s)


def test_river_without_barge_driver_one_step_R_DESC_BARGE():
    """R-DESC-BARGE: without it a River action is 1 step."""
    s = fresh()
    set_grid(s, RIVER_GRID)
    give_descendant(s, "Barge Driver", 1)
    to_actions(s, "gray")
    do(s, "river step")
    assert pl(s)["barge"] == 1 and "river step" not in legal(s)


def test_barge_driver_not_on_privilege_moves_R_DESC_BARGE():
    """R-DESC-BARGE: no extra step on the Tillage privilege's 0-2 move."""
    s = at_seal("Tillage", barge=2)
    give_descendant(s, "Barge Driver", 0)
    do(s, "seal in Tillage")
    seen = resolve(s, ["take gray from the docks", "move barge 2"], ["tile gray"])
    assert seen["move barge 2"] == ["move barge 0", "move barge 1", "move barge 2"]
    assert pl(s)["barge"] == 4
    assert "river step" not in legal(s) and s.raw()["river_extra"] == 0


def test_barge_driver_not_on_card_moves_R_DESC_BARGE():
    """R-DESC-BARGE: no extra step on card moves (Fishermen's Jousting: 0-4)."""
    s = fresh()
    give_descendant(s, "Barge Driver", 0)
    give_cards(s, 0, "Fishermen's Jousting")
    do(s, "play Fishermen's Jousting (upper)")
    assert legal(s) == [f"move barge {k}" for k in range(5)]
    do(s, "move barge 4")
    assert pl(s)["barge"] == 4 and s.raw()["river_extra"] == 0
