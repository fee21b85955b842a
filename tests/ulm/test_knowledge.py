"""What every player knows (RULES R-INFO-3 (a)-(c), R-COAT-4).

Each situation is built from a constructed state and then played with real decisions, so
the engine's own bookkeeping (Player.known, card_group, the coat knowledge masks) is
what is tested. For each rule:

- a resample test (as the leak tests of test_positions.py): the known card or coat is
  where it must be in every world drawn by resample_from_infostate, and the unknown ones
  are still redealt uniformly (Pearson's statistic within 6 standard deviations);
- two states that differ only in something publicly known give different information
  strings for every player, and the view of every player differs too.
"""
from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from helpers import (card, cards_mask, check_invariants, chance, coat, do, legal, mask_cards)
import ulm
from ulm import CARDS, COATS
from ulm.positions import observation, position_to_state
from constructed import GROUP, coat_state, deal, knowledge_state, leaning, reshuffled, with_task

ALL_COATS = (1 << len(COATS)) - 1
DRAWS = 2000


def assert_uniform(counts: Counter, outcomes, draws: int):
    """Each outcome about draws/len(outcomes) times (Pearson's chi-square, 6 sigma),
    and nothing else seen."""
    assert set(counts) <= set(outcomes), set(counts) - set(outcomes)
    k = len(outcomes)
    expected = draws / k
    stat = sum((counts[o] - expected) ** 2 / expected for o in outcomes)
    df = k - 1
    assert stat < df + 6 * math.sqrt(2 * df), (stat, counts)


def differ_for_everyone(s: ulm.State, t: ulm.State):
    for p in range(s.num_players()):
        assert s.information_state_string(p) != t.information_state_string(p), p
        assert observation(s, p) != observation(t, p), p


def swap(raw: dict, a: str, b: str, keys=("pile", "discard", "hand", "known", "front")):
    """Exchange the places of two cards everywhere in a raw state."""
    ma, mb = cards_mask(a), cards_mask(b)
    for h in [raw] + raw["players"]:
        for key in keys:
            if key in h and bool(h[key] & ma) != bool(h[key] & mb):
                h[key] ^= ma | mb


def changed(s: ulm.State, fn) -> ulm.State:
    t = s.clone()
    r = t.raw()
    fn(r)
    t.set_raw(r)
    return t






# ---------------------------------------------------------------------------
# R-INFO-3 (a): a card taken face up stays known while it is in the hand

def goose_pick(pick: str = "Siege") -> ulm.State:
    """Red holds Steeple I (face down) and takes `pick` from the discard pile with the
    Goose Tower's privilege; Blue and Green hold cards drawn face down."""
    s = deal({0: ["Steeple I"], 1: ["Nave I", "Fustian I"], 2: ["Choir II", "City Wall"]},
             discard=["Siege", "Works of Art I"])
    with_task(s, 0, "goose tower choice")
    do(s, f"take {pick} from the discard pile")
    return s


def test_goose_pick_known_in_every_world_R_INFO_3a():
    """Blue's and Green's resamples leave the picked card in Red's hand every time (a core
    without this knowledge kept it in 4 of 200), while Red's face-down card is redealt uniformly
    among the cards Blue cannot see."""
    s = goose_pick()
    r = s.raw()
    assert r["players"][0]["known"] == cards_mask("Siege")
    assert r["players"][0]["hand"] == cards_mask("Steeple I", "Siege")
    for viewer in (1, 2):
        unseen = (r["pile"] | r["players"][0]["hand"] | r["players"][3 - viewer]["hand"]) \
            & ~cards_mask("Siege")
        hidden = Counter()
        for seed in range(DRAWS):
            t = s.resample_from_infostate(viewer, seed).raw()
            red = t["players"][0]["hand"]
            assert red & cards_mask("Siege"), "the picked card is in Red's hand in every world"
            assert t["players"][0]["known"] == cards_mask("Siege")
            other = red & ~cards_mask("Siege")
            assert bin(other).count("1") == 1
            hidden[mask_cards(other)[0]] += 1
        assert_uniform(hidden, mask_cards(unseen), DRAWS)


def test_goose_pick_in_the_view_and_the_information_state_R_INFO_3a():
    """The view of every other player names the picked card ('known cards'); loading the
    view gives back the same information state; two states that differ only in which
    card Red took face up differ for every player. Had the card been drawn face down,
    the same exchange would be invisible to Blue and Green."""
    s = goose_pick("Siege")
    view = observation(s, 1)
    red = view["players"][0]
    assert red["known cards"] == ["Siege"] and red["hand size"] == 2 and "hand" not in red
    back, seat = position_to_state(view)
    assert seat == 1 and back.information_state_string(1) == s.information_state_string(1)
    assert back.raw()["players"][0]["known"] == cards_mask("Siege")

    t = changed(s, lambda r: swap(r, "Siege", "Patrician"))   # Patrician was in the pile
    assert t.raw()["players"][0]["known"] == cards_mask("Patrician")
    differ_for_everyone(s, t)

    def forget(r):
        r["players"][0]["known"] = 0
    hidden_s, hidden_t = changed(s, forget), changed(t, forget)
    for p in (1, 2):
        assert hidden_s.information_state_string(p) == hidden_t.information_state_string(p)


def test_goose_pick_forgotten_when_played_R_INFO_3a():
    """'while it stays in that hand': once played, the card is public anyway and no
    longer counted as a known hand card."""
    s = goose_pick("Siege")
    r = s.raw()
    r["free_play"] = 1
    s.set_raw(r)
    do(s, "play Siege (lower)")
    assert s.raw()["players"][0]["known"] == 0
    assert mask_cards(s.raw()["players"][0]["front"])[-1] == "Siege"


# ---------------------------------------------------------------------------
# R-INFO-3 (b): the cards of a reshuffle form a public group

BEFORE = ["Choir II", "City Wall", "Ulm Chronicle"]   # Green's 2 cards and Blue's first




def test_reshuffle_group_in_every_world_R_INFO_3b():
    """In Red's worlds the new pile holds only cards of the reshuffled group, Green's
    cards (drawn before) never come from it, Blue holds one card of each, and within
    each group the cards are redealt uniformly. Green, who holds 2 of the 3 cards drawn
    before, knows Blue's first card by elimination in every world."""
    s = reshuffled()
    r = s.raw()
    assert [CARDS[c] for c in range(len(CARDS)) if r["card_group"][c] == 1] == GROUP
    assert mask_cards(r["pile"]) == ["Steeple II", "Steeple III", "Nave III"]
    group, before = cards_mask(*GROUP), cards_mask(*BEFORE)
    blue_new, blue_old = Counter(), Counter()
    for seed in range(DRAWS):
        t = s.resample_from_infostate(0, seed).raw()
        assert t["pile"] & ~group == 0 and bin(t["pile"]).count("1") == 3
        assert t["players"][2]["hand"] & ~before == 0
        blue = t["players"][1]["hand"]
        assert bin(blue & group).count("1") == 1 and bin(blue & before).count("1") == 1
        blue_new[mask_cards(blue & group)[0]] += 1
        blue_old[mask_cards(blue & before)[0]] += 1
    assert_uniform(blue_new, GROUP, DRAWS)
    assert_uniform(blue_old, BEFORE, DRAWS)
    for seed in range(50):
        t = s.resample_from_infostate(2, seed).raw()
        assert t["players"][1]["hand"] & before == cards_mask("Ulm Chronicle")


def test_reshuffle_group_in_the_information_state_R_INFO_3b():
    """Two states that differ only in the public make-up of the reshuffled group (Choir II
    instead of Nave III was shuffled in; Green drew Nave III before) differ for every
    player; the view records the group and each hidden hand's counts by group."""
    s = reshuffled()

    def other_group(r):
        swap(r, "Nave III", "Choir II")
        g = r["card_group"]
        a, b = card("Nave III"), card("Choir II")
        g[a], g[b] = g[b], g[a]
    t = changed(s, other_group)
    differ_for_everyone(s, t)
    view = observation(s, 0)
    assert view["reshuffles"] == [GROUP]
    assert view["players"][1]["hidden cards by reshuffle"] == [1, 1]
    assert view["players"][2]["hidden cards by reshuffle"] == [2, 0]
    assert view["draw pile size"] == 3
    back, _ = position_to_state(view)
    assert back.information_state_string(0) == s.information_state_string(0)


# ---------------------------------------------------------------------------
# R-INFO-3 (c): every card looked at is kept or discarded face up

def test_looked_at_cards_kept_or_discarded_face_up_R_INFO_3c():
    """Blue looks at 2 cards, keeps Siege, Patrician goes face up onto the discard pile:
    in Red's worlds Patrician is on the discard pile every time and Blue's kept card is
    redealt uniformly among the cards Red cannot see, as any card drawn face down."""
    s = deal({0: ["Steeple I"], 2: ["Choir II"]}, discard=[])
    with_task(s, 1, "buy mode")
    assert legal(s) == ["take the top card", "look at the top 2 cards"]
    do(s, "look at the top 2 cards")
    chance(s, "card Siege", "card Patrician")
    do(s, "keep Siege")
    r = s.raw()
    assert r["discard"] == cards_mask("Patrician") and r["n_looked_cards"] == 0
    unseen = mask_cards(r["pile"] | r["players"][1]["hand"] | r["players"][2]["hand"])
    kept = Counter()
    for seed in range(DRAWS):
        t = s.resample_from_infostate(0, seed).raw()
        assert t["discard"] == cards_mask("Patrician")
        kept[mask_cards(t["players"][1]["hand"])[0]] += 1
    assert_uniform(kept, unseen, DRAWS)
    t = changed(s, lambda r: swap(r, "Patrician", "Reformation"))  # the other card shown
    differ_for_everyone(s, t)


def test_every_look_ends_kept_or_face_up_in_random_games_R_INFO_3c():
    """In random games, whenever a look at cards ends, each card looked at is in the
    looker's hand (one at most) or on the discard pile: no card stays privately known
    outside a hand."""
    looks = 0
    for seed in range(30):
        rng = random.Random(seed)
        s = ulm.Game(players=3, variant="advanced" if seed % 2 else "basic").new_game(seed)
        while not s.is_terminal():
            r = s.raw()
            looking = r["looked_cards"][:r["n_looked_cards"]] if r["n_looked_cards"] else []
            p = r["turn_player"]
            if s.is_chance_node():
                s.apply_action(s.sample_chance_outcome())
            else:
                s.apply_action(rng.choice(s.legal_actions()))
            after = s.raw()
            if looking and not s.is_chance_node() and after["n_looked_cards"] == 0:
                looks += 1
                kept = [c for c in looking if after["players"][p]["hand"] >> c & 1]
                shown = [c for c in looking if after["discard"] >> c & 1 or any(
                    pl["front"] >> c & 1 for pl in after["players"])]
                assert len(kept) <= 1 and len(kept) + len(shown) == len(looking)
    assert looks >= 10


# ---------------------------------------------------------------------------
# R-COAT-4: who knows each coat under the stack





def test_coat_put_back_stays_known_R_COAT_4():
    """Red put S-1 under the stack. Blue draws S-2 (shuffled part) and S-1 (the last coat,
    known to Red), keeps S-2 and puts S-1 back: Red and Blue know it; Green does not.
    While Blue chooses, Red knows which of the two coats is S-1."""
    s = leaning(coat_state(["S-2", "S-3", "G-Oath"], [("S-1", 0, [0])]))
    r0 = s.raw()
    r0["coat_unknown"] = 1 << coat("S-2")          # only S-2 left in the shuffled part
    r0["players"][2]["coats"] |= (1 << coat("S-3")) | (1 << coat("G-Oath"))
    r0["coat_owner"][coat("S-3")] = r0["coat_owner"][coat("G-Oath")] = 2
    s.set_raw(r0)
    chance(s, "coat S-2")                           # then S-1 from under the stack
    r = s.raw()
    assert [COATS[c] for c in r["looked_coats"][:2]] == ["S-2", "S-1"]
    assert r["looked_coat_known"][:2] == [0b010, 0b011]
    for seed in range(20):                          # Red knows S-1 is being looked at
        t = s.resample_from_infostate(0, seed).raw()
        assert t["looked_coats"][1] == coat("S-1")
    do(s, "keep coat S-2")
    r = s.raw()
    assert r["coat_tail_len"] == 1 and r["coat_tail"][0] == coat("S-1")
    assert r["coat_tail_by"][0] == 1 and r["coat_tail_known"][0] == 0b011
    for viewer in (0, 1):
        for seed in range(50):
            assert s.resample_from_infostate(viewer, seed).raw()["coat_tail"][0] == coat("S-1")
    assert observation(s, 0)["coat stack"]["under"] == [
        {"coat": "S-1", "by": "Blue", "known to": ["Red", "Blue"]}]
    assert observation(s, 2)["coat stack"]["under"] == [{"by": "Blue", "known to": ["Red", "Blue"]}]


def test_coat_knowledge_resample_R_COAT_4():
    """Coats under the stack: each stays at its place in the worlds of every player who
    knows it; for a player who knows none, each place is redealt uniformly over the coats
    that player cannot see."""
    tail = [("S-1", 0, [0, 1]), ("G-Garden", 1, [1]), ("S-3", 2, [2, 0])]
    s = coat_state(["S-2", "S-4", "G-Goose"], tail)
    for viewer in range(3):
        for seed in range(100):
            t = s.resample_from_infostate(viewer, seed).raw()
            for i, (c, _, known) in enumerate(tail):
                if viewer in known:
                    assert t["coat_tail"][i] == coat(c)
    # Green knows only S-3: places 0 and 1 hold each of the other 5 unseen coats alike
    unseen = ["S-1", "G-Garden", "S-2", "S-4", "G-Goose"]
    at = [Counter(), Counter()]
    for seed in range(DRAWS):
        t = s.resample_from_infostate(2, seed).raw()
        for i in (0, 1):
            at[i][COATS[t["coat_tail"][i]]] += 1
    for i in (0, 1):
        assert_uniform(at[i], unseen, DRAWS)


def test_coat_knowledge_information_state_R_COAT_4():
    """Who knows a coat is public: a different set of knowers changes every player's
    information state; the coat itself changes only the strings of those who know it."""
    tail = [("S-1", 0, [0, 1]), ("G-Garden", 1, [1])]
    s = coat_state(["S-2", "S-3", "S-4"], tail)

    def more_knowers(r):
        r["coat_tail_known"][1] |= 1 << 2
    differ_for_everyone(s, changed(s, more_knowers))

    def other_coat(r):                              # S-1 and S-2 change places
        r["coat_tail"][0] = coat("S-2")
        r["coat_unknown"] ^= (1 << coat("S-1")) | (1 << coat("S-2"))
    t = changed(s, other_coat)
    same = [s.information_state_string(p) == t.information_state_string(p) for p in range(3)]
    assert same == [False, False, True]


def test_knowing_both_coats_learns_which_went_back_R_COAT_4():
    """Red put S-1 and S-3 under; Blue draws both and keeps S-3: Red knows S-1 went back.
    Had Blue kept the coat Red knew while the other came from the shuffled part, Red would
    not know the coat put back."""
    s = leaning(coat_state([], [("S-1", 0, [0]), ("S-3", 0, [0])]))
    assert not s.is_chance_node()
    do(s, "keep coat S-3")
    r = s.raw()
    assert r["coat_tail"][0] == coat("S-1") and r["coat_tail_known"][0] == 0b011

    s = leaning(coat_state(["S-2"], [("S-1", 0, [0])]))
    chance(s, "coat S-2")
    do(s, "keep coat S-1")
    r = s.raw()
    assert r["coat_tail"][0] == coat("S-2") and r["coat_tail_known"][0] == 0b010
    check_invariants(s)


def test_coat_view_round_trip_R_COAT_4():
    """A view names exactly the coats its viewer knows and loads back to the same
    information state, also while coats are being looked at."""
    s = leaning(coat_state(["S-2"], [("S-1", 0, [0]), ("S-3", 2, [2, 0])]))
    chance(s, "coat S-2")
    for p in range(3):
        view = observation(s, p)
        back, _ = position_to_state(view)
        assert back.information_state_string(p) == s.information_state_string(p)
    assert observation(s, 0)["looked at"]["coats"] == [None, "S-1"]
    assert observation(s, 2)["looked at"]["coats"] == 2


# ---------------------------------------------------------------------------
# position files: the knowledge fields are validated (docs/positions.md, section 3)





def _set(*path_value):
    *path, value = path_value

    def fn(d):
        for k in path[:-1]:
            d = d[k]
        d[path[-1]] = value
    return fn


BAD_KNOWLEDGE = [
    ("known card not in the hand", None, _set("players", 1, "known cards", ["Siege"]),
     "players[1].known cards[0]: Siege is not in the hand"),
    ("more known cards than the hand holds", 0, _set("players", 1, "hand size", 0),
     "players[1].known cards: 1 known cards, but the hand holds 0"),
    ("pile card outside the last reshuffle", None,
     _set("reshuffles", [["Steeple II", "Steeple III", "Nave II"]]),
     "draw pile[2]: Nave III is not among the cards of the last reshuffle"),
    ("a card in two reshuffles", None, _set("reshuffles", [["Nave III"], ["Nave III"]]),
     "reshuffles[1][0]: Nave III is already in reshuffles[0]"),
    ("hidden cards by group missing", 0, lambda d: d["players"][2].pop("hidden cards by reshuffle"),
     "players[2].hidden cards by reshuffle: missing: after a reshuffle"),
    ("hidden cards by group do not add up", 0,
     _set("players", 1, "hidden cards by reshuffle", [2, 1]),
     "players[1].hidden cards by reshuffle: add up to 3, but 2 hand cards are hidden"),
    ("group counts against the unseen cards", 0,
     _set("players", 2, "hidden cards by reshuffle", [1, 1]),
     "reshuffles: 3 cards before the first reshuffle are unseen by Red, but the hands, "
     "looked-at cards and draw pile hold 2 of them"),
]


@pytest.mark.parametrize("case", BAD_KNOWLEDGE, ids=[b[0] for b in BAD_KNOWLEDGE])
def test_bad_knowledge_fields_R_INFO_3(case):
    """A position whose known cards or reshuffle groups do not fit is rejected with the
    field and the reason (R-INFO-3a/b)."""
    from ulm.positions import PositionError, state_to_position
    _, viewer, edit, message = case
    s = knowledge_state()
    data = state_to_position(s, viewer)
    position_to_state(data)                           # the unedited file is valid
    edit(data)
    with pytest.raises(PositionError) as err:
        position_to_state(data)
    assert message in str(err.value)


def test_bad_coat_knowledge_fields_R_COAT_4():
    from ulm.positions import PositionError, state_to_position
    s = coat_state(["S-2", "S-4", "G-Goose"], [("S-1", 0, [0, 1]), ("G-Garden", 1, [1])])
    data = state_to_position(s, 1)
    position_to_state(data)
    data["coat stack"]["under"][0]["known to"] = ["Blue"]
    with pytest.raises(PositionError) as err:
        position_to_state(data)
    assert "coat stack.under[0].known to: Red, who put the coat there, knows it" in str(err.value)
    data = state_to_position(s, 2)
    data["coat stack"]["under"][0]["coat"] = "S-1"
    with pytest.raises(PositionError) as err:
        position_to_state(data)
    assert "coat stack.under[0].coat: Green cannot know a coat Red put under" in str(err.value)


def test_show_names_what_everyone_knows_R_INFO_3():
    """`ulm show` (render_state) of a view names the cards taken face up, the reshuffle
    and the coats its viewer knows under the stack (R-INFO-3a/b, R-COAT-4)."""
    from ulm.render import render_state
    text = render_state(knowledge_state(), 0)
    assert "hand: 3 cards: Works of Art I (known to all) and 2 hidden" in text
    assert "Reshuffles: 1; the draw pile holds only cards the last one put there" in text
    s = coat_state(["S-2", "S-4", "G-Goose"], [("S-1", 0, [0, 1]), ("G-Garden", 1, [1])])
    assert "under: S-1 (put by Red, known to Red, Blue)" in render_state(s, 1)
    assert "under: S-1" not in render_state(s, 2)
