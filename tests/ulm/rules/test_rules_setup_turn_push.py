"""Rule tests for RULES.md sections 1 (R-COMP-*), 3 (R-SETUP-*) and 4 up to 4.2
(R-ROUND-*, R-TURN-*, R-DRAW-*, R-PUSH-*).

Outer spaces (RULES section 7): top 0,1,2 (above columns 1..3), right 3,4,5 (rows 1..3),
bottom 6,7,8 (below columns 3..1), left 9,10,11 (rows 3..1).
"""
from __future__ import annotations

import math
import random

import pytest

from helpers import *  # noqa: F401,F403
from helpers import (ACTIONS, BEFORE_DRAW, DESC_ON_BOARD, DESC_UNSEEN, GAME_OVER, NO_TILE, PUSH,
                     cards_mask, chance, check_invariants, colour, do, edit, edit_player, fresh,
                     give_descendant, legal, player, set_bag, set_barges, set_docks, set_grid,
                     set_outer, set_tower, tile_count, to_actions, tower)
import ulm
from ulm import CARDS, COATS, COLOURS, DESCENDANTS, TOWER_TILES

ALL_PUSHES = [
    "push row 1 from left", "push row 2 from left", "push row 3 from left",
    "push row 1 from right", "push row 2 from right", "push row 3 from right",
    "push column 1 from top", "push column 2 from top", "push column 3 from top",
    "push column 1 from bottom", "push column 2 from bottom", "push column 3 from bottom",
]

# Each entry point, worked out by hand from RULES R-PUSH-1/2 and the outer-space numbering
# of section 7: (cells of the line from the entry end to the far end, outer space at the
# entry end, outer space the far tile is pushed onto).
ENTRIES = {
    "push row 1 from left": ([0, 1, 2], 11, 3),
    "push row 2 from left": ([3, 4, 5], 10, 4),
    "push row 3 from left": ([6, 7, 8], 9, 5),
    "push row 1 from right": ([2, 1, 0], 3, 11),
    "push row 2 from right": ([5, 4, 3], 4, 10),
    "push row 3 from right": ([8, 7, 6], 5, 9),
    "push column 1 from top": ([0, 3, 6], 0, 8),
    "push column 2 from top": ([1, 4, 7], 1, 7),
    "push column 3 from top": ([2, 5, 8], 2, 6),
    "push column 1 from bottom": ([6, 3, 0], 8, 0),
    "push column 2 from bottom": ([7, 4, 1], 7, 1),
    "push column 3 from bottom": ([8, 5, 2], 6, 2),
}

# every row, column and diagonal holds 3 different colours
DISTINCT_GRID = "gray white brown / turquoise orange gray / white brown orange"


def popcount(x: int) -> int:
    return bin(x).count("1")


def names_of(outcomes) -> list[str]:
    return [ulm.ACTION_NAMES[a] for a, _ in outcomes]


def outcome_probs(state) -> dict[str, float]:
    """Chance outcomes by name (without the 'chance: ' prefix) -> probability."""
    return {ulm.ACTION_NAMES[a][len("chance: "):]: p for a, p in state.chance_outcomes()}


def bag_probs(bag: list[int]) -> dict[str, float]:
    total = sum(bag)
    return {f"tile {COLOURS[c]}": n / total for c, n in enumerate(bag) if n > 0}


def assert_probs(state, expected: dict[str, float]) -> None:
    got = outcome_probs(state)
    assert set(got) == set(expected), (got, expected)
    for k, v in expected.items():
        assert got[k] == pytest.approx(v), (k, got[k], v)


def colour_counts(state) -> list[int]:
    """Tiles of each colour in grid, outer spaces, docks, bag, supplies and in hand."""
    r = state.raw()
    n = [0] * 5
    for x in r["grid"] + r["outer"] + r["drawn"]:
        if x >= 0:
            n[x] += 1
    for c in range(5):
        n[c] += r["docks"][c] + r["bag"][c] + sum(p["supply"][c] for p in r["players"])
    return n


def at_push(state, drawn: str):
    """From the start of a turn: draw a tile of colour `drawn` (phase PUSH afterwards)."""
    do(state, "draw")
    chance(state, f"tile {drawn}")
    assert state.raw()["phase"] == PUSH
    return state


def quick_turn(state) -> None:
    """A minimal turn: draw (dealer), the first legal push, end the turn; T8/T9 are settled
    by losing 5 VP; every chance event is drawn with the state's dealer."""
    assert state.raw()["phase"] == BEFORE_DRAW and not state.is_chance_node()
    do(state, "draw")
    state.resolve_chance()
    do(state, next(a for a in legal(state) if a.startswith("push ")))
    state.resolve_chance()
    do(state, "end turn")
    if not state.is_terminal() and not state.is_chance_node() and "tower: lose 5 VP" in legal(state):
        do(state, "tower: lose 5 VP")
    state.resolve_chance()


def random_walk(state, seed: int, visit=None, max_steps: int = 20000) -> int:
    """Play to the end: uniform decisions, chance outcomes by their probabilities."""
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal():
        if visit is not None:
            visit(state)
        if state.is_chance_node():
            outs = state.chance_outcomes()
            a = rng.choices([a for a, _ in outs], [p for _, p in outs])[0]
        else:
            a = rng.choice(state.legal_actions())
        state.apply_action(a)
        steps += 1
        assert steps < max_steps
    return steps


def run_setup(game: ulm.Game, grid: list[str], tiles: list[str], descs: list[str],
              tower_name: str | None = None):
    """Carry out the set-up's chance events by hand."""
    s = game.new_initial_state()
    for c in grid:
        chance(s, f"tile {c}")
    for c in tiles:
        chance(s, f"tile {c}")
    for d in descs:
        chance(s, f"descendant {d}")
    if tower_name is not None:
        chance(s, f"tower {tower_name}")
    return s


# ===========================================================================
# 1. Components
# ===========================================================================

@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 17])
def test_fifty_tiles_ten_of_each_colour_R_COMP_1(players, seed):
    """R-COMP-1: 50 action tiles, 10 of each colour, counted over grid, docks, bag and supplies."""
    s = fresh(players=players, seed=seed)
    assert colour_counts(s) == [10, 10, 10, 10, 10]
    assert tile_count(s) == 50
    assert s.raw()["tiles_added"] == 0


def test_tiles_conserved_through_a_whole_game_R_COMP_1():
    """R-COMP-1: the 50 tiles are conserved through a whole game (plus R-DRAW-8 additions)."""
    for variant in ("basic", "advanced"):
        s = fresh(players=3, variant=variant, seed=5)
        random_walk(s, seed=11, visit=check_invariants)
        check_invariants(s)
        r = s.raw()
        assert tile_count(s) == 50 + r["tiles_added"]
        assert r["tiles_added"] % 5 == 0


def test_thirty_three_cards_R_COMP_2():
    """R-COMP-2: 33 cards = 9 Cathedral + 15 Trade + 9 Chronicle; all 33 in the set-up's pile."""
    assert len(CARDS) == 33
    cathedral = [c for c in CARDS if c.split()[0] in ("Steeple", "Nave", "Choir")]
    trade = [c for c in CARDS if c.startswith(("Works of Art", "Commercial Goods", "Fustian"))]
    assert len(cathedral) == 9
    assert len(trade) == 15
    for kind in ("Works of Art", "Commercial Goods", "Fustian"):
        assert sum(c.startswith(kind) for c in trade) == 5
    chronicle = [c for c in CARDS if c not in cathedral and c not in trade]
    assert sorted(chronicle) == sorted([
        "Ulm Chronicle", "City Wall", "Construction Freeze", "Fishermen's Jousting",
        "Patrician", "Reformation", "Siege", "Swabian League", "Ulm Sparrow"])
    s = fresh(players=4)
    assert s.raw()["pile"] == (1 << 33) - 1
    assert len(set(CARDS)) == 33


def test_descendants_coats_towers_counts_R_COMP_3():
    """R-COMP-3: 8 Descendants, 12 coats of arms, 12 tower tiles."""
    assert len(DESCENDANTS) == 8 and len(set(DESCENDANTS)) == 8
    assert len(COATS) == 12 and len(set(COATS)) == 12
    assert len(TOWER_TILES) == 12 and list(TOWER_TILES) == [f"T{i}" for i in range(1, 13)]
    # the set-up draws Descendants out of 8, tower tiles out of 12
    s = ulm.Game(players=2, variant="advanced").new_initial_state()
    for c in ["gray", "gray", "white", "white", "brown", "turquoise", "turquoise",
              "orange", "orange", "gray", "gray"]:
        chance(s, f"tile {c}")
    assert sorted(names_of(s.chance_outcomes())) == sorted(f"chance: descendant {d}" for d in DESCENDANTS)
    for d in ["Abbot", "Builder", "Scholar", "Merchant"]:
        chance(s, f"descendant {d}")
    assert sorted(names_of(s.chance_outcomes())) == sorted(f"chance: tower {t}" for t in TOWER_TILES)
    r = fresh(players=2).raw()
    assert r["coat_unknown"] == (1 << 12) - 1 and popcount(r["coat_unknown"]) == 12


@pytest.mark.parametrize("players", [2, 3, 4])
def test_per_player_components_R_COMP_4(players):
    """R-COMP-4: each player: 1 barge, 12 seals, 3 crests, 2 coins, 2 sparrows, 1 tile from the bag."""
    s = fresh(players=players, seed=3)
    r = s.raw()
    assert len(r["players"]) == players
    for p in r["players"]:
        assert p["barge"] == 0
        assert p["seals_left"] == 12 and sum(p["seals_in"]) == 0
        assert p["crests_left"] == 3
        assert p["coins"] == 2
        assert p["sparrows"] == 2
        assert sum(p["supply"]) == 1
        assert p["hand"] == 0 and p["front"] == 0 and p["coats"] == 0
    check_invariants(s)


def test_coins_unlimited_R_COMP_5():
    """R-COMP-5: coins are unlimited: a player holding 200 coins (and others many) still gains."""
    s = fresh(players=2)
    edit_player(s, 0, coins=200)
    edit_player(s, 1, coins=30)
    set_grid(s, "white brown turquoise / " + "brown white turquoise / turquoise brown white")
    to_actions(s, draw="gray", push="row 1 from left")  # row 1: gray white brown
    assert "money" in legal(s)
    do(s, "money")
    assert player(s, 0)["coins"] == 201
    assert player(s, 1)["coins"] == 30


def test_sparrows_unlimited_R_COMP_5():
    """R-COMP-5: sparrows are unlimited: 200 sparrows + sparrow income (R-PUSH-5) = 201."""
    s = fresh(players=2)
    edit_player(s, 1, sparrows=200)
    edit_player(s, 0, sparrows=40)
    marks = [-1] * 12
    marks[3] = 1  # player 1's seal on the coat image at outer space 3 (right of row 1)
    edit(s, outer_mark=marks)
    to_actions(s, draw="gray", push="row 1 from left")
    assert player(s, 1)["sparrows"] == 201
    assert player(s, 0)["sparrows"] == 40


@pytest.mark.parametrize("bad", [1, 5, 0, -2, 6])
def test_player_count_refused_R_COMP_6(bad):
    """R-COMP-6: any player count other than 2, 3 or 4 is refused with a clear ValueError."""
    with pytest.raises(ValueError) as exc:
        ulm.Game(players=bad)
    msg = str(exc.value)
    assert "2, 3 or 4" in msg
    assert str(bad) in msg
    with pytest.raises(ValueError):
        ulm.Game(players=bad, variant="advanced")


def test_player_count_non_int_refused_R_COMP_6():
    """R-COMP-6: a non-integer player count is refused with a clear ValueError."""
    for bad in ("3", 2.0, None, True):
        with pytest.raises(ValueError) as exc:
            ulm.Game(players=bad)
        assert "2, 3 or 4" in str(exc.value)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_player_count_accepted_R_COMP_6(players):
    """R-COMP-6: 2, 3 and 4 players are accepted."""
    for variant in ("basic", "advanced"):
        s = ulm.Game(players=players, variant=variant).new_game(1)
        assert s.num_players() == players
        assert len(s.scores()) == players


# ===========================================================================
# 3. Set-up
# ===========================================================================

def test_setup_is_a_chance_node_R_SETUP_4():
    """R-SETUP-4 (set-up as chance events): new_initial_state() starts at a chance node that
    fills the grid at random from 2 gray, 2 white, 1 brown, 2 turquoise, 2 orange."""
    s = ulm.Game(players=2).new_initial_state()
    assert s.is_chance_node()
    assert s.current_player() == ulm.CHANCE
    assert s.legal_actions() == [a for a, _ in s.chance_outcomes()]
    assert_probs(s, {"tile gray": 2 / 9, "tile white": 2 / 9, "tile brown": 1 / 9,
                     "tile turquoise": 2 / 9, "tile orange": 2 / 9})
    chance(s, "tile brown")
    # the only brown is laid; the other 8 cells draw from the rest
    assert_probs(s, {"tile gray": 2 / 8, "tile white": 2 / 8,
                     "tile turquoise": 2 / 8, "tile orange": 2 / 8})
    for c in ["gray", "gray", "white", "white", "turquoise", "turquoise", "orange"]:
        chance(s, f"tile {c}")
    assert_probs(s, {"tile orange": 1.0})
    chance(s, "tile orange")
    r = s.raw()
    assert r["grid"] == [colour(c) for c in ["brown", "gray", "gray", "white", "white",
                                             "turquoise", "turquoise", "orange", "orange"]]
    # the grid's 9 tiles and the 5 docks come out of the 50; 36 in the bag
    assert r["bag"] == [7, 7, 8, 7, 7] and sum(r["bag"]) == 36
    assert r["docks"] == [1, 1, 1, 1, 1]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 2, 99])
def test_fresh_setup_grid_docks_bag_R_SETUP_4(players, seed):
    """R-SETUP-4: grid 1 brown, 2 turquoise, 2 orange, 2 white, 2 gray; docks one of each;
    36 tiles in the bag before the players draw theirs (36 - players after); outer spaces empty."""
    for variant in ("basic", "advanced"):
        s = fresh(players=players, variant=variant, seed=seed)
        r = s.raw()
        grid = r["grid"]
        assert all(x >= 0 for x in grid)
        assert [grid.count(c) for c in range(5)] == [2, 2, 1, 2, 2]
        assert r["docks"] == [1, 1, 1, 1, 1]
        assert r["outer"] == [NO_TILE] * 12
        assert r["outer_mark"] == [-1] * 12
        supplies = [sum(p["supply"][c] for p in r["players"]) for c in range(5)]
        assert [b + t for b, t in zip(r["bag"], supplies)] == [7, 7, 8, 7, 7]
        assert sum(r["bag"]) == 36 - players


def test_grid_is_random_R_SETUP_4():
    """R-SETUP-4: the grid is filled at random (different seeds give different grids)."""
    grids = {tuple(fresh(players=2, seed=k).raw()["grid"]) for k in range(12)}
    assert len(grids) > 1


def test_fresh_setup_cards_R_SETUP_1():
    """R-SETUP-1: all 33 cards face down in the draw pile, empty discard pile, no hands."""
    for players in (2, 4):
        r = fresh(players=players, seed=4).raw()
        assert r["pile"] == (1 << 33) - 1
        assert r["discard"] == 0
        assert all(p["hand"] == 0 and p["front"] == 0 for p in r["players"])


def test_pile_is_shuffled_card_draw_uniform_R_SETUP_1():
    """R-SETUP-1: the pile is shuffled: the first card drawn is any of the 33, each 1/33."""
    s = fresh(players=2)
    set_grid(s, "white brown turquoise / turquoise white orange / orange turquoise white")
    edit_player(s, 0, supply={"gray": 1, "orange": 1})
    to_actions(s, draw="gray", push="row 1 from left")  # row 1: gray white brown
    do(s, "buy card paying gray+orange")
    assert s.is_chance_node()
    outs = s.chance_outcomes()
    assert sorted(names_of(outs)) == sorted(f"chance: card {c}" for c in CARDS)
    assert all(p == pytest.approx(1 / 33) for _, p in outs)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_four_descendants_on_board_R_SETUP_2(players):
    """R-SETUP-2: 4 of the 8 Descendants lie on the Oath House, the other 4 are out unseen."""
    for seed in range(5):
        r = fresh(players=players, seed=seed).raw()
        assert r["desc"].count(DESC_ON_BOARD) == 4
        assert r["desc"].count(DESC_UNSEEN) == 4


def test_descendants_drawn_at_random_R_SETUP_2():
    """R-SETUP-2: the 4 Descendants are drawn at random: each reveal is uniform over the unseen."""
    s = ulm.Game(players=2).new_initial_state()
    for c in ["gray", "gray", "white", "white", "brown", "turquoise", "turquoise", "orange",
              "orange", "gray", "white"]:
        chance(s, f"tile {c}")
    for k, d in enumerate(["City Guard", "Abbot", "Barge Driver", "Scholar"]):
        outs = s.chance_outcomes()
        assert len(outs) == 8 - k
        assert all(p == pytest.approx(1 / (8 - k)) for _, p in outs)
        chance(s, f"descendant {d}")
        assert f"chance: descendant {d}" not in names_of(s.chance_outcomes())
    assert not s.is_chance_node()
    desc = s.raw()["desc"]
    on_board = [DESCENDANTS[i] for i in range(8) if desc[i] == DESC_ON_BOARD]
    assert sorted(on_board) == sorted(["City Guard", "Abbot", "Barge Driver", "Scholar"])
    sets = {tuple(fresh(players=2, seed=k).raw()["desc"]) for k in range(12)}
    assert len(sets) > 1


def test_coat_stack_shuffled_face_down_R_SETUP_3():
    """R-SETUP-3: 12 coats in a face-down stack (none owned, none known); a draw is uniform."""
    s = fresh(players=2)
    r = s.raw()
    assert r["coat_unknown"] == (1 << 12) - 1
    assert r["coat_tail_len"] == 0
    assert r["coat_owner"] == [-1] * 12
    assert r["crest_owner"] == [-1] * 8
    assert r["n_looked_coats"] == 0
    # a seal in the Leaning House (north of river index 0) draws coats: uniform over 12
    set_grid(s, "orange white turquoise / turquoise white brown / brown turquoise white")
    to_actions(s, draw="gray", push="row 1 from left")  # row 1: gray orange white
    do(s, "seal in Leaning House")
    assert s.is_chance_node()
    outs = s.chance_outcomes()
    assert sorted(names_of(outs)) == sorted(f"chance: coat {c}" for c in COATS)
    assert all(p == pytest.approx(1 / 12) for _, p in outs)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_fresh_players_R_SETUP_5(players):
    """R-SETUP-5: barge on river index 0, score 5, 2 coins, 2 sparrows, 12 seals, 3 crests, 1 tile."""
    s = fresh(players=players, seed=8)
    for p in range(players):
        pl = player(s, p)
        assert pl["barge"] == 0
        assert pl["score"] == 5
        assert pl["coins"] == 2 and pl["sparrows"] == 2
        assert pl["seals_left"] == 12 and pl["crests_left"] == 3
        assert sum(pl["supply"]) == 1
    assert s.scores() == [5] * players
    assert all(s.score_breakdown(p)["start"] == 5 for p in range(players))


def test_player_tiles_drawn_in_seat_order_R_SETUP_5():
    """R-SETUP-5: each player draws one tile from the 36-tile bag, in seat order from seat 0."""
    s = ulm.Game(players=3).new_initial_state()
    for c in ["gray", "gray", "white", "white", "brown", "turquoise", "turquoise", "orange",
              "orange"]:
        chance(s, f"tile {c}")
    assert_probs(s, bag_probs([7, 7, 8, 7, 7]))
    chance(s, "tile orange")
    assert player(s, 0)["supply"] == [0, 0, 0, 0, 1]
    assert sum(player(s, 1)["supply"]) == 0 and sum(player(s, 2)["supply"]) == 0
    assert_probs(s, bag_probs([7, 7, 8, 7, 6]))
    chance(s, "tile gray")
    assert player(s, 1)["supply"] == [1, 0, 0, 0, 0]
    assert sum(player(s, 2)["supply"]) == 0
    assert_probs(s, bag_probs([6, 7, 8, 7, 6]))
    chance(s, "tile brown")
    assert player(s, 2)["supply"] == [0, 0, 1, 0, 0]
    assert s.raw()["bag"] == [6, 7, 7, 7, 6]
    for d in ["Abbot", "Builder", "Scholar", "Merchant"]:
        chance(s, f"descendant {d}")
    assert not s.is_chance_node()
    assert s.current_player() == 0
    assert legal(s) == ["draw"]


def test_basic_game_shows_no_tower_tile_R_SETUP_6():
    """R-SETUP-6: basic game: tower tiles only count rounds; no tile is current or shown."""
    for seed in range(4):
        s = fresh(players=2, variant="basic", seed=seed)
        r = s.raw()
        assert ulm.VARIANTS[r["variant"]] == "basic"
        assert r["tower_current"] == -1 and r["tower_next"] == -1
    # no tower chance event in the basic set-up
    s = run_setup(ulm.Game(players=2), ["gray", "gray", "white", "white", "brown", "turquoise",
                                          "turquoise", "orange", "orange"],
                  ["gray", "white"], ["Abbot", "Builder", "Scholar", "Merchant"])
    assert not s.is_chance_node()
    assert s.raw()["tower_current"] == -1 and s.raw()["tower_next"] == -1


def test_advanced_game_tower_current_and_next_R_SETUP_6():
    """R-SETUP-6: advanced game: the top tile applies to round 1 and the next tile is visible;
    each tile drawn from the shuffled 12 is uniform."""
    for seed in range(6):
        r = fresh(players=2, variant="advanced", seed=seed).raw()
        assert ulm.VARIANTS[r["variant"]] == "advanced"
        assert 0 <= r["tower_current"] < 12 and 0 <= r["tower_next"] < 12
        assert r["tower_current"] != r["tower_next"]
        assert popcount(r["tower_unseen"]) == 10
        assert not (r["tower_unseen"] >> r["tower_current"]) & 1
        assert not (r["tower_unseen"] >> r["tower_next"]) & 1
    s = run_setup(ulm.Game(players=2, variant="advanced"),
                  ["gray", "gray", "white", "white", "brown", "turquoise", "turquoise",
                   "orange", "orange"], ["gray", "white"],
                  ["Abbot", "Builder", "Scholar", "Merchant"])
    assert s.is_chance_node()
    outs = s.chance_outcomes()
    assert len(outs) == 12 and all(p == pytest.approx(1 / 12) for _, p in outs)
    chance(s, "tower T5")
    # the round-1 tile is on the Cathedral; the next one is revealed (uniform over 11)
    assert s.is_chance_node()
    outs = s.chance_outcomes()
    assert len(outs) == 11 and "chance: tower T5" not in names_of(outs)
    chance(s, "tower T9")
    assert not s.is_chance_node()
    r = s.raw()
    assert r["tower_current"] == tower("T5") and r["tower_next"] == tower("T9")
    assert r["round"] == 0 and r["turn_player"] == 0


def test_two_tower_tiles_never_used_R_SETUP_6():
    """R-SETUP-6: of the 12 tower tiles 10 are stacked; 2 stay unseen all game."""
    s = fresh(players=2, variant="advanced", seed=21)
    used = []
    while not s.is_terminal():
        r = s.raw()
        if r["turn_player"] == 0 and r["phase"] == BEFORE_DRAW:
            used.append(r["tower_current"])
        quick_turn(s)
    assert len(used) == 10 and len(set(used)) == 10
    unseen = s.raw()["tower_unseen"]
    assert popcount(unseen) == 2
    assert all(not (unseen >> t) & 1 for t in used)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seat_zero_starts_every_round_R_SETUP_7(players):
    """R-SETUP-7: seat 0 is the start player, and starts every round of the game."""
    s = fresh(players=players, seed=2)
    assert s.current_player() == 0 and s.raw()["turn_player"] == 0
    starters = {}
    while not s.is_terminal():
        r = s.raw()
        starters.setdefault(r["round"], r["turn_player"])
        quick_turn(s)
    assert starters == {k: 0 for k in range(10)}


def _play_fixed(state, turns: int) -> None:
    for _ in range(turns):
        quick_turn(state)


def test_same_seed_same_decisions_identical_R_SETUP_8():
    """R-SETUP-8: same (players, variant, board, seed, decisions) -> identical raw state."""
    for variant in ("basic", "advanced"):
        a = ulm.Game(players=3, variant=variant).new_game(seed=1234)
        # unrelated activity in between must not matter
        other = ulm.Game(players=4).new_game(seed=9)
        other.random_playout(3)
        b = ulm.Game(players=3, variant=variant).new_game(seed=1234)
        assert a.raw() == b.raw()
        _play_fixed(a, 7)
        _play_fixed(b, 7)
        assert a.raw() == b.raw()
        # a whole game with the same decision sequence and dealer
        random_walk(a, seed=5)
        random_walk(b, seed=5)
        assert a.raw() == b.raw()
        assert a.scores() == b.scores()


def test_same_board_table_identical_R_SETUP_8():
    """R-SETUP-8: the board table is part of the determination: the same table given
    explicitly gives the same game as the default."""
    g0 = ulm.Game(players=2)
    g1 = ulm.Game(players=2, board=dict(g0.table))
    a, b = g0.new_game(seed=77), g1.new_game(seed=77)
    assert a.raw() == b.raw()
    _play_fixed(a, 4)
    _play_fixed(b, 4)
    assert a.raw() == b.raw()


def test_different_seeds_differ_R_SETUP_8():
    """R-SETUP-8: different seeds give different set-ups (and games)."""
    a = ulm.Game(players=2).new_game(seed=1)
    b = ulm.Game(players=2).new_game(seed=2)
    assert a.raw() != b.raw()
    raws = {repr(ulm.Game(players=3).new_game(seed=k).raw()) for k in range(10)}
    assert len(raws) >= 9
    # variant and player count are part of it too
    assert (ulm.Game(players=2, variant="advanced").new_game(1).raw()
            != ulm.Game(players=2).new_game(1).raw())


def test_clone_continues_identically_R_SETUP_8():
    """R-SETUP-8: the state carries its dealer: a clone continued with the same decisions
    ends up identical."""
    a = fresh(players=2, seed=31)
    _play_fixed(a, 3)
    b = a.clone()
    _play_fixed(a, 5)
    _play_fixed(b, 5)
    assert a.raw() == b.raw()


# ===========================================================================
# 4. Course of play: rounds and turns
# ===========================================================================

@pytest.mark.parametrize("players", [2, 4])
def test_ten_rounds_R_ROUND_1(players):
    """R-ROUND-1: the game lasts 10 rounds (10 turns per player), then ends."""
    s = fresh(players=players, seed=6)
    turns = 0
    rounds = []
    while not s.is_terminal():
        rounds.append(s.raw()["round"])
        quick_turn(s)
        turns += 1
    assert turns == 10 * players
    assert sorted(set(rounds)) == list(range(10))
    assert s.raw()["phase"] == GAME_OVER
    assert s.raw()["tower_current"] == -1  # basic game: counter only


def test_tower_tile_each_round_advanced_R_ROUND_1():
    """R-ROUND-1: advanced game: at each round's start the shown next tile goes onto the
    Cathedral and applies for this round; the one after is revealed (none after round 10)."""
    s = fresh(players=2, variant="advanced", seed=13)
    seen = []  # (round, current, next) at the start of each round
    while not s.is_terminal():
        r = s.raw()
        if r["turn_player"] == 0 and r["phase"] == BEFORE_DRAW:
            seen.append((r["round"], r["tower_current"], r["tower_next"]))
        else:
            # within a round the tile in force does not change
            assert r["tower_current"] == seen[-1][1]
        quick_turn(s)
    assert [x[0] for x in seen] == list(range(10))
    for k in range(1, 10):
        assert seen[k][1] == seen[k - 1][2], "the shown tile applies next round"
    for k in range(9):
        assert seen[k][2] >= 0
    assert seen[9][2] == -1, "no tile is left to show in round 10"
    assert len({x[1] for x in seen}) == 10


def test_tower_tile_applies_for_the_round_R_ROUND_1():
    """R-ROUND-1: the tile moved onto the Cathedral at the round start is in force in that round
    (round start with T5 next: each player's extra seal action becomes available)."""
    s = fresh(players=2, variant="advanced", seed=3)
    set_tower(s, "T1", "T5")
    quick_turn(s)
    assert s.raw()["tower_current"] == tower("T1")
    quick_turn(s)  # last turn of round 1 -> round 2 starts with T5
    r = s.raw()
    assert r["round"] == 1 and r["tower_current"] == tower("T5")
    assert r["t5_seal"] == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_one_turn_each_in_seat_order_R_ROUND_2(players):
    """R-ROUND-2: in each round every player takes exactly one turn, in seat order from seat 0."""
    s = fresh(players=players, seed=10)
    order = []
    while not s.is_terminal():
        r = s.raw()
        order.append((r["round"], r["turn_player"]))
        quick_turn(s)
    assert order == [(k, p) for k in range(10) for p in range(players)]


def test_turn_order_draw_push_actions_R_TURN_1():
    """R-TURN-1: (a) draw, (b) push, (c) actions: nothing else before the draw, only pushes
    after it, actions only after the push, in any order, each optional."""
    s = fresh(players=2)
    set_grid(s, "white turquoise orange / brown white orange / turquoise brown white")
    set_outer(s, {0: "orange"})  # something to clear away on the top side; column 1 blocked
    edit_player(s, 0, coins=0)
    assert s.raw()["phase"] == BEFORE_DRAW
    assert legal(s) == ["draw"]
    do(s, "draw")
    assert s.is_chance_node()
    chance(s, "tile gray")
    assert s.raw()["phase"] == PUSH
    lg = legal(s)
    assert "draw" not in lg and "end turn" not in lg and "money" not in lg
    assert "river step" not in lg and not any(a.startswith("clear") for a in lg)
    pushes = [a for a in lg if a.startswith("push ")]
    assert sorted(pushes) == sorted(p for p in ALL_PUSHES
                                    if p not in ("push column 1 from top", "push column 1 from bottom"))
    do(s, "push row 1 from left")  # row 1: gray white turquoise; orange -> outer 3
    assert s.raw()["phase"] == ACTIONS
    assert set(legal(s)) >= {"end turn", "money", "river step", "clear top", "clear right"}
    # any order: river, then money, then clear
    do(s, "river step")
    assert player(s, 0)["barge"] == 1
    assert "river step" not in legal(s)
    do(s, "money")
    assert player(s, 0)["coins"] == 1
    assert "money" not in legal(s)
    orange_before = player(s, 0)["supply"][colour("orange")]
    do(s, "clear right")
    assert player(s, 0)["supply"][colour("orange")] == orange_before + 1
    assert not any(a.startswith("clear") for a in legal(s))
    # nothing left to do: the only decision left is to end the turn
    assert legal(s) == ["end turn"]
    do(s, "end turn")
    r = s.raw()
    assert r["turn_player"] == 1 and r["phase"] == BEFORE_DRAW


def test_actions_are_optional_R_TURN_1():
    """R-TURN-1: each action is optional: the turn may end right after the push."""
    s = fresh(players=2)
    set_grid(s, "white turquoise orange / brown white orange / turquoise brown white")
    before = player(s, 0)
    to_actions(s, draw="gray", push="row 1 from left")
    assert "end turn" in legal(s) and "money" in legal(s)
    do(s, "end turn")
    after = player(s, 0)
    assert after["coins"] == before["coins"] and after["barge"] == before["barge"]
    assert s.raw()["turn_player"] == 1


def test_actions_in_reverse_order_R_TURN_1():
    """R-TURN-1: the order of the activated actions is free (the reverse order works too)."""
    s = fresh(players=2)
    set_grid(s, "white turquoise orange / brown white orange / turquoise brown white")
    set_outer(s, {0: "orange"})
    edit_player(s, 0, coins=0)
    to_actions(s, draw="gray", push="row 1 from left")
    do(s, "clear top", "money", "river step")
    pl = player(s, 0)
    assert pl["coins"] == 1 and pl["barge"] == 1
    assert legal(s) == ["end turn"]


def test_card_play_any_moment_even_before_draw_R_TURN_1():
    """R-TURN-1: a card may be played at any moment of the own turn, also before the draw."""
    # before the draw
    s = fresh(players=2)
    edit_player(s, 0, hand=["Siege"], coins=3)
    lg = legal(s)
    assert "draw" in lg and "play Siege (upper)" in lg and "play Siege (lower)" in lg
    do(s, "play Siege (upper)", "amount 1")
    assert player(s, 0)["coins"] == 2 and player(s, 0)["score"] == 7
    assert s.raw()["phase"] == BEFORE_DRAW and legal(s) == ["draw"]
    # between the draw and the push
    s = fresh(players=2)
    edit_player(s, 0, hand=["Siege"], coins=3)
    at_push(s, "gray")
    assert "play Siege (upper)" in legal(s)
    do(s, "play Siege (upper)", "amount 2")
    assert player(s, 0)["score"] == 9 and s.raw()["phase"] == PUSH
    # after the push
    s = fresh(players=2)
    edit_player(s, 0, hand=["Siege"], coins=3)
    to_actions(s, draw="gray", push="row 1 from left")
    assert "play Siege (lower)" in legal(s)
    do(s, "play Siege (lower)")
    assert player(s, 0)["front"] == cards_mask("Siege")


def test_chance_nodes_tile_draw_R_TURN_2():
    """R-TURN-2: a tile drawn from the bag is a chance event (outcomes by bag content,
    probabilities summing to 1); the draw itself is the player's decision."""
    s = fresh(players=2)
    set_bag(s, {"gray": 3, "white": 0, "brown": 1, "turquoise": 4, "orange": 2})
    assert not s.is_chance_node()
    assert s.current_player() == 0
    assert s.chance_outcomes() == []
    do(s, "draw")
    assert s.is_chance_node() and s.current_player() == ulm.CHANCE
    outs = s.chance_outcomes()
    assert math.isclose(sum(p for _, p in outs), 1.0)
    assert s.legal_actions() == [a for a, _ in outs]
    assert_probs(s, bag_probs([3, 0, 1, 4, 2]))
    with pytest.raises(ulm.IllegalActionError):
        do(s, "push row 1 from left")
    with pytest.raises(ulm.IllegalActionError):
        chance(s, "tile white")  # none in the bag
    chance(s, "tile turquoise")
    assert not s.is_chance_node() and s.current_player() == 0
    assert s.chance_outcomes() == []


def test_chance_nodes_card_and_coat_draws_R_TURN_2():
    """R-TURN-2: a card drawn from the pile and each coat of arms drawn are separate chance
    events; the choices around them are separate decisions of the player."""
    # card: Town Hall privilege (R-PRIV-TOWNHALL) = a card (chance) + coin-or-tile (decision)
    s = fresh(players=2)
    set_grid(s, "orange turquoise white / brown white turquoise / turquoise brown white")
    set_barges(s, 11, 0)
    to_actions(s, draw="gray", push="row 1 from left")  # gray orange turquoise
    do(s, "seal in Town Hall")
    assert s.is_chance_node()
    outs = s.chance_outcomes()
    assert len(outs) == 33 and math.isclose(sum(p for _, p in outs), 1.0)
    chance(s, "card Siege")
    assert not s.is_chance_node() and s.current_player() == 0
    assert player(s, 0)["hand"] == cards_mask("Siege")
    assert "take a coin" in legal(s)
    do(s, "take gray from the docks")
    # the emptied dock is refilled from the bag: another chance event (R-DOCK-1)
    assert s.is_chance_node()
    assert math.isclose(sum(p for _, p in s.chance_outcomes()), 1.0)
    chance(s, "tile orange")
    assert s.raw()["docks"][colour("orange")] == 2 and s.raw()["docks"][colour("gray")] == 0
    # coats: Leaning House privilege draws 2 coats as 2 separate chance events
    s = fresh(players=2)
    set_grid(s, "orange white turquoise / turquoise white brown / brown turquoise white")
    to_actions(s, draw="gray", push="row 1 from left")
    do(s, "seal in Leaning House")
    assert s.is_chance_node() and len(s.chance_outcomes()) == 12
    chance(s, "coat S-1")
    assert s.is_chance_node()
    outs = s.chance_outcomes()
    assert len(outs) == 11 and "chance: coat S-1" not in names_of(outs)
    assert math.isclose(sum(p for _, p in outs), 1.0)
    chance(s, "coat G-Garden")
    assert not s.is_chance_node()
    assert sorted(legal(s)) == sorted(["keep coat S-1", "keep coat G-Garden"])


def test_every_node_chance_or_decision_R_TURN_2():
    """R-TURN-2: over whole random games, every chance node lists its outcomes with
    probabilities summing to 1 (legal actions = the outcomes), and every decision node has
    no chance outcomes and belongs to the player whose turn it is."""
    counts = {"chance": 0, "decision": 0}

    def visit(st):
        if st.is_chance_node():
            counts["chance"] += 1
            outs = st.chance_outcomes()
            assert outs
            assert math.isclose(sum(p for _, p in outs), 1.0, rel_tol=1e-9)
            assert all(p > 0 for _, p in outs)
            assert st.legal_actions() == [a for a, _ in outs]
            assert all(ulm.ACTION_NAMES[a].startswith("chance: ") for a, _ in outs)
            assert st.current_player() == ulm.CHANCE
        else:
            counts["decision"] += 1
            assert st.chance_outcomes() == []
            lg = st.legal_actions()
            assert lg and not any(ulm.ACTION_NAMES[a].startswith("chance: ") for a in lg)
            assert st.current_player() == st.raw()["turn_player"]

    for variant, seed in (("basic", 1), ("advanced", 2)):
        s = fresh(players=3, variant=variant, seed=seed)
        random_walk(s, seed=seed + 40, visit=visit)
    assert counts["chance"] > 50 and counts["decision"] > 100


# ===========================================================================
# 4.1 Drawing the tile to push
# ===========================================================================

def _blocked_all_but_column_3(s):
    set_grid(s, DISTINCT_GRID)  # column 3: brown gray orange
    set_outer(s, {3: "white", 4: "gray", 5: "turquoise", 8: "brown", 7: "orange"})
    return s


def test_all_blocked_outer_tiles_back_to_bag_at_draw_R_DRAW_1():
    """R-DRAW-1: when no line can be pushed at the draw, all outer tiles go back into the bag
    first - checked when a player needs to push, not as soon as the sixth line is blocked."""
    s = _blocked_all_but_column_3(fresh(players=2))
    at_push(s, "white")
    assert sorted(a for a in legal(s) if a.startswith("push ")) == sorted(
        ["push column 3 from top", "push column 3 from bottom"])
    do(s, "push column 3 from top")  # column 3: white brown gray; orange -> outer 6
    r = s.raw()
    assert r["outer"][6] == colour("orange")
    # all six lines are blocked now, but the tiles stay during this turn...
    assert sum(1 for x in r["outer"] if x >= 0) == 6
    assert "clear bottom" in legal(s) and "clear right" in legal(s)
    do(s, "end turn")
    # ...and until the next player is about to draw
    r = s.raw()
    assert sum(1 for x in r["outer"] if x >= 0) == 6
    bag = list(r["bag"])
    do(s, "draw")
    r = s.raw()
    assert r["outer"] == [NO_TILE] * 12
    expected = list(bag)
    for c in ("white", "gray", "turquoise", "brown", "orange", "orange"):
        expected[colour(c)] += 1
    assert r["bag"] == expected
    assert_probs(s, bag_probs(expected))
    chance(s, "tile gray")
    assert sorted(a for a in legal(s) if a.startswith("push ")) == sorted(ALL_PUSHES)


def test_outer_tiles_stay_if_a_line_is_pushable_R_DRAW_1():
    """R-DRAW-1: with at least one pushable line, the draw leaves the outer tiles in place."""
    s = _blocked_all_but_column_3(fresh(players=2))
    bag = list(s.raw()["bag"])
    do(s, "draw")
    r = s.raw()
    assert r["outer"][3] == colour("white") and r["outer"][7] == colour("orange")
    assert sum(1 for x in r["outer"] if x >= 0) == 5
    assert r["bag"] == bag
    assert_probs(s, bag_probs(bag))


def test_outer_tiles_only_colour_reachable_after_return_R_DRAW_1():
    """R-DRAW-1: the returned tiles are drawn like any other: a colour missing from the bag
    but lying on an outer space can be drawn when everything is blocked."""
    s = fresh(players=2)
    set_grid(s, DISTINCT_GRID)
    set_bag(s, {"gray": 2, "white": 2})
    set_outer(s, {3: "orange", 4: "orange", 5: "orange", 6: "brown", 7: "brown", 8: "brown"})
    do(s, "draw")
    assert_probs(s, bag_probs([2, 2, 3, 0, 3]))
    chance(s, "tile orange")
    assert s.raw()["drawn"][0] == colour("orange")


def test_draw_one_tile_at_random_R_DRAW_2():
    """R-DRAW-2: one tile is drawn from the bag at random, in proportion to the bag's content."""
    s = fresh(players=2)
    set_bag(s, {"gray": 1, "white": 5, "brown": 0, "turquoise": 2, "orange": 2})
    do(s, "draw")
    assert_probs(s, bag_probs([1, 5, 0, 2, 2]))
    chance(s, "tile turquoise")
    r = s.raw()
    assert r["drawn"] == [colour("turquoise"), NO_TILE]
    assert r["bag"] == [1, 5, 0, 1, 2]
    assert r["phase"] == PUSH and not s.is_chance_node()
    do(s, "push row 2 from right")
    assert s.raw()["grid"][5] == colour("turquoise")
    assert s.raw()["drawn"][0] == NO_TILE


def test_builder_draws_two_keeps_one_R_DRAW_3():
    """R-DRAW-3: Builder: draw 2 (two chance events), choose 1, the other returns to the bag."""
    s = fresh(players=2)
    give_descendant(s, "Builder", 0)
    set_bag(s, {"gray": 2, "white": 2, "brown": 2, "turquoise": 2, "orange": 2})
    do(s, "draw 2 (Builder)")
    assert s.is_chance_node()
    chance(s, "tile gray")
    assert s.is_chance_node(), "the second tile is a separate chance event"
    assert_probs(s, bag_probs([1, 2, 2, 2, 2]))
    chance(s, "tile orange")
    assert not s.is_chance_node()
    assert sorted(legal(s)) == ["pick gray", "pick orange"]
    assert s.raw()["bag"] == [1, 2, 2, 2, 1]
    do(s, "pick orange")
    r = s.raw()
    assert r["bag"] == [2, 2, 2, 2, 1], "the gray goes back"
    assert r["phase"] == PUSH
    do(s, "push row 1 from left")
    assert s.raw()["grid"][0] == colour("orange")


def test_builder_same_colour_twice_R_DRAW_3():
    """R-DRAW-3: two tiles of one colour: one pick, and one tile goes back."""
    s = fresh(players=2)
    give_descendant(s, "Builder", 0)
    set_bag(s, {"white": 3, "brown": 1})
    do(s, "draw 2 (Builder)")
    chance(s, "tile white", "tile white")
    assert legal(s) == ["pick white"]
    do(s, "pick white")
    assert s.raw()["bag"] == [0, 2, 1, 0, 0]


def test_without_builder_single_draw_R_DRAW_3():
    """R-DRAW-3: without the Builder (even if another player has it) only one tile is drawn."""
    s = fresh(players=2)
    give_descendant(s, "Builder", 1)
    do(s, "draw")
    chance(s, "tile gray")
    assert not s.is_chance_node()
    assert s.raw()["phase"] == PUSH
    assert not any(a.startswith("pick ") for a in legal(s))


def test_patrician_choose_colour_in_bag_R_DRAW_4():
    """R-DRAW-4: Patrician (played before the draw): take a tile of any colour still in the bag,
    instead of drawing; no chance event; the Builder adds nothing."""
    s = fresh(players=2)
    give_descendant(s, "Builder", 0)
    edit_player(s, 0, hand=["Patrician"])
    set_bag(s, {"gray": 3, "orange": 1})
    assert "play Patrician (upper)" in legal(s)
    do(s, "play Patrician (upper)")
    assert not s.is_chance_node()
    assert sorted(legal(s)) == ["pick gray", "pick orange"]
    do(s, "pick orange")
    r = s.raw()
    assert not s.is_chance_node()
    assert r["phase"] == PUSH and r["drawn"] == [colour("orange"), NO_TILE]
    assert r["bag"] == [3, 0, 0, 0, 0]
    assert not any(a.startswith("pick ") for a in legal(s))
    do(s, "push column 2 from top")
    assert s.raw()["grid"][1] == colour("orange")


def test_patrician_only_at_the_draw_R_DRAW_4():
    """R-DRAW-4: the Patrician's choice replaces the draw: it cannot be played once the tile
    is drawn (its lower half still can)."""
    s = fresh(players=2)
    edit_player(s, 0, hand=["Patrician"])
    at_push(s, "gray")
    assert "play Patrician (upper)" not in legal(s)
    assert "play Patrician (lower)" in legal(s)
    do(s, "push row 1 from left")
    assert "play Patrician (upper)" not in legal(s)


def test_patrician_after_blocked_grid_return_R_DRAW_4():
    """R-DRAW-4 with R-DRAW-1: when everything is blocked, the outer tiles return to the bag
    before the Patrician's colour is chosen."""
    s = fresh(players=2)
    set_grid(s, DISTINCT_GRID)
    set_bag(s, {"gray": 2})
    set_outer(s, {3: "orange", 4: "white", 5: "white", 6: "brown", 7: "brown", 8: "brown"})
    edit_player(s, 0, hand=["Patrician"])
    do(s, "play Patrician (upper)")
    assert sorted(legal(s)) == ["pick brown", "pick gray", "pick orange", "pick white"]
    do(s, "pick orange")
    assert s.raw()["outer"] == [NO_TILE] * 12
    assert s.raw()["bag"] == [2, 2, 3, 0, 0]


def test_tower_t11_choose_colour_R_DRAW_4():
    """R-DRAW-4: tower T11: the player may choose any colour still in the bag instead of drawing;
    the Builder adds nothing to a free choice."""
    s = fresh(players=2, variant="advanced")
    set_tower(s, "T11", "T1")
    give_descendant(s, "Builder", 0)
    set_bag(s, {"white": 2, "turquoise": 1})
    lg = legal(s)
    assert "draw" in lg
    assert sorted(a for a in lg if a.startswith("pick ")) == ["pick turquoise", "pick white"]
    do(s, "pick turquoise")
    r = s.raw()
    assert not s.is_chance_node()
    assert r["phase"] == PUSH and r["drawn"] == [colour("turquoise"), NO_TILE]
    assert r["bag"] == [0, 2, 0, 0, 0]
    assert not any(a.startswith("pick ") for a in legal(s))


def test_no_free_choice_without_t11_R_DRAW_4():
    """R-DRAW-4: without T11 (basic game, or another tower tile) there is no colour choice."""
    s = fresh(players=2)
    assert legal(s) == ["draw"]
    s = fresh(players=2, variant="advanced")
    set_tower(s, "T10", "T11")
    assert not any(a.startswith("pick ") for a in legal(s))


def test_tower_t11_after_blocked_grid_return_R_DRAW_4():
    """R-DRAW-4 with R-DRAW-1 and T11: colours lying on the outer spaces may be chosen when
    every line is blocked (they return to the bag first)."""
    s = fresh(players=2, variant="advanced")
    set_tower(s, "T11", None)
    set_grid(s, DISTINCT_GRID)
    set_bag(s, {"gray": 1})
    set_outer(s, {0: "orange", 1: "orange", 2: "orange", 3: "brown", 4: "brown", 5: "brown"})
    picks = sorted(a for a in legal(s) if a.startswith("pick "))
    assert picks == ["pick brown", "pick gray", "pick orange"]
    do(s, "pick brown")
    r = s.raw()
    assert r["outer"] == [NO_TILE] * 12
    assert r["bag"] == [1, 0, 2, 0, 3]


def test_sparrow_joker_exchange_with_dock_R_DRAW_5():
    """R-DRAW-5: pay 1 sparrow to exchange the drawn tile for a dock tile; the drawn tile goes
    to that dock space (no refill needed); the dock tile is pushed."""
    s = fresh(players=2)
    set_docks(s, {"gray": 1, "white": 1, "brown": 1, "turquoise": 1, "orange": 1})
    assert not any(a.startswith("joker") for a in legal(s)), "not before the draw"
    at_push(s, "gray")
    jokers = sorted(a for a in legal(s) if a.startswith("joker"))
    assert jokers == sorted(f"joker: take {c} from the docks"
                            for c in ("white", "brown", "turquoise", "orange"))
    do(s, "joker: take orange from the docks")
    r = s.raw()
    assert not s.is_chance_node()
    assert r["players"][0]["sparrows"] == 1
    assert r["docks"] == [2, 1, 1, 1, 0]
    assert r["drawn"][0] == colour("orange")
    do(s, "push row 3 from left")
    assert s.raw()["grid"][6] == colour("orange")


def test_sparrow_joker_needs_a_sparrow_R_DRAW_5():
    """R-DRAW-5: without a sparrow there is no joker."""
    s = fresh(players=2)
    edit_player(s, 0, sparrows=0)
    at_push(s, "gray")
    assert not any(a.startswith("joker") for a in legal(s))


def test_sparrow_joker_only_colours_in_docks_R_DRAW_5():
    """R-DRAW-5: only tiles actually in the loading docks can be taken."""
    s = fresh(players=2)
    set_docks(s, {"white": 2, "brown": 3})
    at_push(s, "gray")
    assert sorted(a for a in legal(s) if a.startswith("joker")) == [
        "joker: take brown from the docks", "joker: take white from the docks"]
    do(s, "joker: take white from the docks")
    assert s.raw()["docks"] == [1, 1, 3, 0, 0]


def test_scholar_push_from_supply_keep_drawn_R_DRAW_6():
    """R-DRAW-6: Scholar: push a tile from the own supply instead; the drawn tile is kept."""
    s = fresh(players=2)
    give_descendant(s, "Scholar", 0)
    edit_player(s, 0, supply={"brown": 1, "white": 2})
    at_push(s, "gray")
    assert sorted(a for a in legal(s) if a.startswith("scholar")) == [
        "scholar: push brown from supply", "scholar: push white from supply"]
    do(s, "scholar: push brown from supply")
    assert player(s, 0)["supply"] == [1, 2, 0, 0, 0]
    assert s.raw()["drawn"][0] == colour("brown")
    do(s, "push row 2 from left")
    assert s.raw()["grid"][3] == colour("brown")
    assert player(s, 0)["supply"] == [1, 2, 0, 0, 0]


def test_scholar_needs_descendant_and_supply_R_DRAW_6():
    """R-DRAW-6: no Scholar option without owning the Scholar, or with an empty supply."""
    s = fresh(players=2)
    give_descendant(s, "Scholar", 1)
    edit_player(s, 0, supply={"brown": 1})
    at_push(s, "gray")
    assert not any(a.startswith("scholar") for a in legal(s))
    s = fresh(players=2)
    give_descendant(s, "Scholar", 0)
    edit_player(s, 0, supply={})
    at_push(s, "gray")
    assert not any(a.startswith("scholar") for a in legal(s))


def test_joker_then_no_scholar_R_DRAW_7():
    """R-DRAW-7: after the sparrow joker, neither a second joker nor the Scholar is offered."""
    s = fresh(players=2)
    give_descendant(s, "Scholar", 0)
    edit_player(s, 0, supply={"brown": 1}, sparrows=5)
    at_push(s, "gray")
    assert any(a.startswith("joker") for a in legal(s))
    assert any(a.startswith("scholar") for a in legal(s))
    do(s, "joker: take white from the docks")
    lg = legal(s)
    assert not any(a.startswith("joker") or a.startswith("scholar") for a in lg)
    assert player(s, 0)["sparrows"] == 4


def test_scholar_then_no_joker_R_DRAW_7():
    """R-DRAW-7: after the Scholar swap, the joker is no longer offered (nor a second swap)."""
    s = fresh(players=2)
    give_descendant(s, "Scholar", 0)
    edit_player(s, 0, supply={"brown": 1, "orange": 1}, sparrows=5)
    at_push(s, "gray")
    do(s, "scholar: push brown from supply")
    lg = legal(s)
    assert not any(a.startswith("joker") or a.startswith("scholar") for a in lg)
    assert player(s, 0)["sparrows"] == 5


def test_swap_limit_is_per_turn_R_DRAW_7():
    """R-DRAW-7: the limit is per turn: the next turn offers the joker again."""
    s = fresh(players=2)
    edit_player(s, 1, sparrows=2)
    at_push(s, "gray")
    do(s, "joker: take white from the docks", "push row 1 from left", "end turn")
    at_push(s, "gray")
    assert any(a.startswith("joker") for a in legal(s))  # player 1
    do(s, "push row 2 from left", "end turn")
    at_push(s, "brown")
    assert s.raw()["turn_player"] == 0 and player(s, 0)["sparrows"] == 1
    assert any(a.startswith("joker") for a in legal(s)), "player 0's next turn"


def test_empty_bag_refilled_one_of_each_R_DRAW_8():
    """R-DRAW-8: an empty bag at a draw first gets one tile of each colour (tile total +5)."""
    s = fresh(players=2)
    r = s.raw()
    # move the whole bag to player 1's supply so the 50 tiles stay accounted for
    supply = [a + b for a, b in zip(r["players"][1]["supply"], r["bag"])]
    edit_player(s, 1, supply=supply)
    set_bag(s, {})
    check_invariants(s)
    do(s, "draw")
    assert s.is_chance_node()
    assert_probs(s, {f"tile {c}": 0.2 for c in COLOURS})
    r = s.raw()
    assert r["tiles_added"] == 5 and r["bag"] == [1, 1, 1, 1, 1]
    chance(s, "tile white")
    assert s.raw()["bag"] == [1, 0, 1, 1, 1]
    check_invariants(s)
    assert tile_count(s) == 55


def test_empty_bag_for_builders_second_tile_R_DRAW_8():
    """R-DRAW-8: the bag running empty between the Builder's two draws is refilled too."""
    s = fresh(players=2)
    give_descendant(s, "Builder", 0)
    set_bag(s, {"orange": 1})
    do(s, "draw 2 (Builder)")
    assert_probs(s, {"tile orange": 1.0})
    chance(s, "tile orange")
    assert s.is_chance_node()
    assert_probs(s, {f"tile {c}": 0.2 for c in COLOURS})
    assert s.raw()["tiles_added"] == 5
    chance(s, "tile gray")
    do(s, "pick gray")
    assert s.raw()["bag"] == [0, 1, 1, 1, 2]


def test_empty_bag_free_colour_choice_R_DRAW_8():
    """R-DRAW-8 with R-DRAW-4: an empty bag is refilled before a free colour choice too
    (T11 and the Patrician), so every colour can be chosen."""
    s = fresh(players=2, variant="advanced")
    set_tower(s, "T11", None)
    set_bag(s, {})
    assert sorted(a for a in legal(s) if a.startswith("pick ")) == sorted(
        f"pick {c}" for c in COLOURS)
    do(s, "pick white")
    r = s.raw()
    assert r["tiles_added"] == 5 and r["bag"] == [1, 0, 1, 1, 1]
    assert r["drawn"][0] == colour("white") and r["phase"] == PUSH
    s = fresh(players=2)
    set_bag(s, {})
    edit_player(s, 0, hand=["Patrician"])
    do(s, "play Patrician (upper)")
    assert sorted(legal(s)) == sorted(f"pick {c}" for c in COLOURS)
    do(s, "pick orange")
    r = s.raw()
    assert r["tiles_added"] == 5 and r["bag"] == [1, 1, 1, 1, 0]


def test_bag_not_refilled_when_not_empty_R_DRAW_8():
    """R-DRAW-8: a bag with a single tile is not refilled: that tile is drawn for sure."""
    s = fresh(players=2)
    set_bag(s, {"brown": 1})
    do(s, "draw")
    assert_probs(s, {"tile brown": 1.0})
    assert s.raw()["tiles_added"] == 0


# ===========================================================================
# 4.2 Pushing
# ===========================================================================

def test_twelve_entry_points_R_PUSH_1():
    """R-PUSH-1: with all outer spaces empty there are exactly 12 entry points."""
    s = fresh(players=2)
    at_push(s, "gray")
    pushes = [a for a in legal(s) if a.startswith("push ")]
    assert sorted(pushes) == sorted(ALL_PUSHES)
    assert len(set(pushes)) == 12


@pytest.mark.parametrize("entry", ALL_PUSHES)
def test_push_shifts_line_R_PUSH_2(entry):
    """R-PUSH-2: the line shifts by one, the new tile takes the entry cell, the far tile goes
    onto the outer space at that end; nothing else changes."""
    cells, _entry_space, exit_space = ENTRIES[entry]
    s = fresh(players=2)
    set_grid(s, DISTINCT_GRID)
    grid = list(s.raw()["grid"])
    line = [grid[c] for c in cells]
    new = next(c for c in range(5) if c not in line)
    set_bag(s, {COLOURS[new]: 3})
    at_push(s, COLOURS[new])
    do(s, entry)
    r = s.raw()
    expected = list(grid)
    expected[cells[0]] = new
    expected[cells[1]] = line[0]
    expected[cells[2]] = line[1]
    assert r["grid"] == expected
    outer = [NO_TILE] * 12
    outer[exit_space] = line[2]
    assert r["outer"] == outer
    assert r["drawn"][0] == NO_TILE
    assert r["phase"] == ACTIONS


@pytest.mark.parametrize("space", range(12))
def test_push_needs_both_outer_spaces_empty_R_PUSH_3(space):
    """R-PUSH-3: a tile on either outer space of a line blocks that line in both directions,
    and only that line."""
    blocked = {e for e, (_, a, b) in ENTRIES.items() if space in (a, b)}
    assert len(blocked) == 2
    s = fresh(players=2)
    set_outer(s, {space: "white"})
    at_push(s, "gray")
    pushes = {a for a in legal(s) if a.startswith("push ")}
    assert pushes == set(ALL_PUSHES) - blocked
    for e in blocked:
        with pytest.raises(ulm.IllegalActionError):
            do(s, e)


def test_pushed_line_cannot_be_pushed_further_R_PUSH_3():
    """R-PUSH-3: rulebook: "Rows that have already been pushed cannot be pushed further, back or
    forth" - until the pushed-out tile is cleared away."""
    s = fresh(players=2)
    to_actions(s, draw="gray", push="row 2 from left")
    do(s, "end turn")
    at_push(s, "white")
    pushes = {a for a in legal(s) if a.startswith("push ")}
    assert "push row 2 from left" not in pushes
    assert "push row 2 from right" not in pushes
    assert pushes == set(ALL_PUSHES) - {"push row 2 from left", "push row 2 from right"}
    # a column pushed this turn is blocked as well for the turn after
    do(s, "push column 3 from bottom", "end turn")
    at_push(s, "brown")
    pushes = {a for a in legal(s) if a.startswith("push ")}
    assert pushes == set(ALL_PUSHES) - {"push row 2 from left", "push row 2 from right",
                                        "push column 3 from top", "push column 3 from bottom"}


@pytest.mark.parametrize("choice", ["A", "B"])
def test_clear_away_example_reopens_lines_R_PUSH_3(choice):
    """R-PUSH-3 (rulebook example, 004 line 144, with R-ACT-CLEAR-1): Stephen activated one white
    tile; he may take either the turquoise tile (A, top side) or the orange and white tiles
    (B, left side). Clearing a side makes its lines pushable again; the other stays blocked."""
    s = fresh(players=2)
    # column 2 (cells 1,4,7) holds turquoise, gray, brown; rows 3 and 2 are blocked on the left
    set_grid(s, "gray turquoise brown / brown gray orange / orange brown gray")
    set_outer(s, {9: "orange", 10: "white"})
    edit_player(s, 0, supply={})
    at_push(s, "white")
    do(s, "push column 2 from bottom")  # column 2: gray brown white; turquoise -> outer 1
    r = s.raw()
    assert r["outer"][1] == colour("turquoise")
    clears = sorted(a for a in legal(s) if a.startswith("clear "))
    assert clears == ["clear left", "clear top"]
    if choice == "A":
        do(s, "clear top")
        assert player(s, 0)["supply"] == [0, 0, 0, 1, 0]
        reopened, still = {"column 2"}, {"row 2", "row 3"}
    else:
        do(s, "clear left")
        assert player(s, 0)["supply"] == [0, 1, 0, 0, 1]
        reopened, still = {"row 2", "row 3"}, {"column 2"}
    # one white tile: one side only
    assert not any(a.startswith("clear ") for a in legal(s))
    do(s, "end turn")
    at_push(s, "gray")
    pushes = {a for a in legal(s) if a.startswith("push ")}
    for line in reopened:
        assert {f"push {line} from {d}" for d in (("left", "right") if "row" in line
                                                   else ("top", "bottom"))} <= pushes
    for line in still:
        for d in (("left", "right") if "row" in line else ("top", "bottom")):
            assert f"push {line} from {d}" not in pushes


def test_activated_tiles_are_the_line_after_push_R_PUSH_4():
    """R-PUSH-4: the 3 tiles now in the line are activated; the pushed-out tile gives nothing."""
    s = fresh(players=2)
    # row 1: turquoise white gray; pushing orange from the left pushes the gray out
    set_grid(s, "turquoise white gray / brown orange white / white brown orange")
    edit_player(s, 0, coins=0)
    to_actions(s, draw="orange", push="row 1 from left")  # orange turquoise white
    r = s.raw()
    assert r["avail"] == [0, 1, 0, 1, 1]
    lg = legal(s)
    assert "money" not in lg, "the pushed-out gray gives no Money action"
    assert "river step" in lg and "clear right" in lg
    # the other rows' tiles are not activated
    assert r["grid"][3:] == [colour(c) for c in
                             "brown orange white white brown orange".split()]


def test_albert_example_two_river_one_seal_R_PUSH_4():
    """R-PUSH-4 (rulebook example): Albert pushes a turquoise tile into a row holding turquoise,
    orange and gray; the gray is pushed out (no Money). He has River twice and Seal once:
    river across the bridge, seal in the Town Hall (card + coin), river jumping a barge."""
    s = fresh(players=2)
    set_grid(s, "orange turquoise gray / brown white white / white brown orange")
    set_barges(s, 10, 12)
    edit_player(s, 0, coins=2)
    to_actions(s, draw="turquoise", push="row 1 from left")  # turquoise orange turquoise
    assert s.raw()["outer"][3] == colour("gray")
    assert s.raw()["avail"] == [0, 0, 0, 2, 1]
    assert "money" not in legal(s)
    do(s, "river step")
    assert player(s, 0)["barge"] == 11  # across the bridge
    do(s, "seal in Town Hall")
    chance(s, "card Fustian I")
    do(s, "take a coin")
    pl = player(s, 0)
    assert pl["coins"] == 1 and pl["seals_in"][4] == 1 and pl["hand"] == cards_mask("Fustian I")
    do(s, "river step")
    assert player(s, 0)["barge"] == 13  # the barge on 12 is skipped
    lg = legal(s)
    assert "end turn" in lg
    assert "river step" not in lg and "money" not in lg
    assert not any(a.startswith("seal in") for a in lg)
    assert s.raw()["avail"] == [0, 0, 0, 0, 0]


def test_joan_example_clear_card_money_R_PUSH_4():
    """R-PUSH-4 (rulebook example): Joan pushes a gray tile into a row holding a brown and two
    whites; one white is pushed out, the other gives a Clear-away: she clears the upper side
    (2 brown tiles), buys with them (same colour: look at 2, keep 1, discard 1), takes a coin."""
    s = fresh(players=2)
    set_grid(s, "turquoise orange turquoise / brown white white / orange turquoise orange")
    set_outer(s, {0: "brown", 2: "brown"})
    edit_player(s, 0, supply={}, coins=2)
    to_actions(s, draw="gray", push="row 2 from left")  # gray brown white; white -> outer 4
    r = s.raw()
    assert r["outer"][4] == colour("white")
    assert r["avail"] == [1, 1, 1, 0, 0]
    do(s, "clear top")
    assert player(s, 0)["supply"] == [0, 0, 2, 0, 0]
    do(s, "buy card paying brown+brown", "look at the top 2 cards")
    chance(s, "card Siege", "card Nave II")
    assert sorted(legal(s)) == ["keep Nave II", "keep Siege"]
    do(s, "keep Siege")
    do(s, "money")
    r = s.raw()
    pl = r["players"][0]
    assert pl["coins"] == 3
    assert pl["hand"] == cards_mask("Siege")
    assert r["discard"] == cards_mask("Nave II")
    assert pl["supply"] == [0, 0, 0, 0, 0]
    assert r["outer"][0] == NO_TILE and r["outer"][2] == NO_TILE


def test_pushed_out_tile_activates_nothing_even_if_only_one_R_PUSH_4():
    """R-PUSH-4: each activated tile gives exactly one action: a row of 3 grays gives 3 Money
    actions, and its pushed-out tile none."""
    s = fresh(players=2)
    set_grid(s, "gray gray white / brown orange white / white brown orange")
    edit_player(s, 0, coins=0)
    to_actions(s, draw="gray", push="row 1 from left")  # gray gray gray; white -> outer 3
    assert s.raw()["avail"] == [3, 0, 0, 0, 0]
    assert not any(a.startswith("clear") for a in legal(s))
    do(s, "money", "money", "money")
    assert player(s, 0)["coins"] == 3
    assert "money" not in legal(s)


def test_sparrow_income_other_player_R_PUSH_5():
    """R-PUSH-5: a tile pushed onto an outer space marked by another player's seal gives that
    player 1 sparrow, on the active player's turn."""
    s = fresh(players=3)
    marks = [-1] * 12
    marks[3] = 2
    marks[11] = 1  # the entry side of row 1 from the left: no income
    edit(s, outer_mark=marks)
    to_actions(s, draw="gray", push="row 1 from left")  # pushed onto outer space 3
    assert [player(s, p)["sparrows"] for p in range(3)] == [2, 2, 3]


def test_sparrow_income_own_marker_R_PUSH_5():
    """R-PUSH-5: the own marker pays the active player as well."""
    s = fresh(players=2)
    marks = [-1] * 12
    marks[6] = 0
    edit(s, outer_mark=marks)
    to_actions(s, draw="gray", push="column 3 from top")  # far tile -> outer space 6
    assert player(s, 0)["sparrows"] == 3
    assert player(s, 1)["sparrows"] == 2


def test_no_sparrow_income_unmarked_space_R_PUSH_5():
    """R-PUSH-5: no marker on the space pushed onto: nobody gains."""
    s = fresh(players=2)
    marks = [0, 1, 0, -1, 1, 0, 1, 0, 1, 0, 1, 0]  # every space but 3 is marked
    edit(s, outer_mark=marks)
    to_actions(s, draw="gray", push="row 1 from left")
    assert player(s, 0)["sparrows"] == 2 and player(s, 1)["sparrows"] == 2


def test_sparrow_income_on_later_turn_R_PUSH_5():
    """R-PUSH-5: the marker pays again each time a tile is pushed onto that space."""
    s = fresh(players=2)
    marks = [-1] * 12
    marks[9] = 1  # left of row 3
    edit(s, outer_mark=marks)
    set_grid(s, DISTINCT_GRID)
    to_actions(s, draw="white", push="row 3 from right")  # brown orange white; white -> 9
    assert player(s, 1)["sparrows"] == 3
    do(s, "clear left", "end turn")  # the activated white clears space 9 again
    to_actions(s, draw="gray", push="row 3 from right")
    assert player(s, 1)["sparrows"] == 4


def test_city_guard_new_line_R_PUSH_6():
    """R-PUSH-6: City Guard: a push that makes a new line of 3 same colour gives 2 VP."""
    s = fresh(players=2)
    give_descendant(s, "City Guard", 0)
    set_grid(s, "white gray gray / brown orange turquoise / turquoise white orange")
    to_actions(s, draw="gray", push="row 1 from right")  # gray gray gray
    assert player(s, 0)["score"] == 7
    assert s.score_breakdown(0)["City Guard"] == 2


def test_city_guard_two_lines_once_per_push_R_PUSH_6():
    """R-PUSH-6: two new lines (a row and a diagonal) by one push: still 2 VP only."""
    s = fresh(players=2)
    give_descendant(s, "City Guard", 0)
    set_grid(s, "gray gray white / brown gray orange / gray white turquoise")
    to_actions(s, draw="gray", push="row 1 from left")  # row 1 and the 2-4-6 diagonal
    g = s.raw()["grid"]
    assert g[0] == g[1] == g[2] == colour("gray") and g[2] == g[4] == g[6]
    assert player(s, 0)["score"] == 7


def test_city_guard_diagonal_and_column_R_PUSH_6():
    """R-PUSH-6: diagonals and columns count as lines."""
    # diagonal 0-4-8 completed by pushing column 1 from the bottom
    s = fresh(players=2)
    give_descendant(s, "City Guard", 0)
    set_grid(s, "white brown turquoise / orange orange gray / brown gray orange")
    # column 1 from bottom: cell 6 <- drawn, 3 <- old 6, 0 <- old 3 (orange)
    to_actions(s, draw="white", push="column 1 from bottom")
    g = s.raw()["grid"]
    assert g[0] == g[4] == g[8] == colour("orange")
    assert player(s, 0)["score"] == 7
    # a column
    s = fresh(players=2)
    give_descendant(s, "City Guard", 0)
    set_grid(s, "white brown turquoise / orange brown gray / gray orange white")
    to_actions(s, draw="brown", push="column 2 from top")  # column 2: brown brown brown
    g = s.raw()["grid"]
    assert g[1] == g[4] == g[7] == colour("brown")
    assert player(s, 0)["score"] == 7


def test_city_guard_existing_line_gives_nothing_R_PUSH_6():
    """R-PUSH-6: a line that was already monochrome before the push is not new."""
    s = fresh(players=2)
    give_descendant(s, "City Guard", 0)
    set_grid(s, "gray gray gray / brown orange turquoise / turquoise white orange")
    to_actions(s, draw="gray", push="row 1 from left")  # still gray gray gray
    assert player(s, 0)["score"] == 5
    s = fresh(players=2)
    give_descendant(s, "City Guard", 0)
    set_grid(s, "gray gray gray / brown orange turquoise / turquoise white orange")
    to_actions(s, draw="white", push="row 3 from right")  # no new line; row 1 stays
    assert player(s, 0)["score"] == 5
    assert s.score_breakdown(0)["City Guard"] == 0


def test_city_guard_only_for_its_owner_R_PUSH_6():
    """R-PUSH-6: only the City Guard's owner gains, and only by the owner's own push."""
    s = fresh(players=2)
    give_descendant(s, "City Guard", 1)
    set_grid(s, "white gray gray / brown orange turquoise / turquoise white orange")
    to_actions(s, draw="gray", push="row 1 from right")  # player 0 makes the line
    assert player(s, 0)["score"] == 5 and player(s, 1)["score"] == 5
    s = fresh(players=2)
    set_grid(s, "white gray gray / brown orange turquoise / turquoise white orange")
    to_actions(s, draw="gray", push="row 1 from right")  # nobody owns the City Guard
    assert s.scores() == [5, 5]


def test_city_guard_on_owners_later_turn_R_PUSH_6():
    """R-PUSH-6: the owner gains on each own push that makes a new line (player 1's turn)."""
    s = fresh(players=2)
    give_descendant(s, "City Guard", 1)
    set_grid(s, "white gray gray / brown orange turquoise / turquoise white orange")
    to_actions(s, draw="brown", push="row 3 from left")  # player 0: no line
    do(s, "end turn")
    to_actions(s, draw="gray", push="row 1 from right")  # player 1 makes gray gray gray
    assert player(s, 1)["score"] == 7
    assert player(s, 0)["score"] == 5


def _t10_game():
    s = fresh(players=2, variant="advanced")
    set_tower(s, "T10", "T1")
    return s


def test_t10_take_pushed_out_tile_R_PUSH_7():
    """R-PUSH-7: tower T10: the active player may take the tile they just pushed out."""
    s = _t10_game()
    set_grid(s, DISTINCT_GRID)  # row 1: gray white brown
    edit_player(s, 0, supply={})
    at_push(s, "orange")
    assert "take the pushed-out tile" not in legal(s), "only after the push"
    do(s, "push row 1 from left")  # brown -> outer 3
    assert s.raw()["outer"][3] == colour("brown")
    assert "take the pushed-out tile" in legal(s)
    do(s, "take the pushed-out tile")
    r = s.raw()
    assert r["players"][0]["supply"] == [0, 0, 1, 0, 0]
    assert r["outer"][3] == NO_TILE
    assert "take the pushed-out tile" not in legal(s), "once"
    do(s, "end turn")
    # the line is free again for the next player
    at_push(s, "gray")
    assert {"push row 1 from left", "push row 1 from right"} <= set(legal(s))


def test_t10_optional_and_not_other_tiles_R_PUSH_7():
    """R-PUSH-7: taking the tile is optional; only the tile pushed out this turn can be taken."""
    s = _t10_game()
    set_outer(s, {9: "white"})  # an older pushed-out tile (row 3 blocked)
    edit_player(s, 0, supply={})
    to_actions(s, draw="gray", push="column 1 from top")  # far tile -> outer 8
    pushed = s.raw()["outer"][8]
    assert pushed >= 0
    do(s, "take the pushed-out tile")
    r = s.raw()
    assert r["outer"][9] == colour("white"), "the older tile stays"
    assert sum(r["players"][0]["supply"]) == 1 and r["players"][0]["supply"][pushed] == 1
    # optional: the next player (also under T10) may just end the turn
    do(s, "end turn")
    to_actions(s, draw="gray", push="row 1 from left")
    assert "take the pushed-out tile" in legal(s)
    do(s, "end turn")
    assert s.raw()["outer"][3] >= 0


def test_t10_not_after_clearing_it_R_PUSH_7():
    """R-PUSH-7: once the pushed-out tile is cleared away, there is nothing to take."""
    s = _t10_game()
    set_grid(s, "brown white gray / turquoise orange gray / white brown orange")
    edit_player(s, 0, supply={})
    to_actions(s, draw="orange", push="row 1 from left")  # orange brown white; gray -> outer 3
    do(s, "clear right")
    assert player(s, 0)["supply"] == [1, 0, 0, 0, 0]
    assert "take the pushed-out tile" not in legal(s)


def test_no_take_without_t10_R_PUSH_7():
    """R-PUSH-7: without T10 in force (basic game, or another tower tile) nothing is taken."""
    s = fresh(players=2)
    to_actions(s, draw="gray", push="row 1 from left")
    assert "take the pushed-out tile" not in legal(s)
    s = fresh(players=2, variant="advanced")
    set_tower(s, "T1", "T10")
    to_actions(s, draw="gray", push="row 1 from left")
    assert "take the pushed-out tile" not in legal(s)
