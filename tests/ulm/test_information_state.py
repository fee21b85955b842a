"""The information state and determinization (RULES section 12, R-INFO-1..4):
two states that differ only in what p cannot see give the same string for p,
and a difference p can see changes it; resample_from_infostate(p, seed) keeps
p's information state, really redeals what p cannot see (a resampler that
returns the true state fails), deals uniformly (chi-square) and keeps the
coats p put under the stack where they are (R-COAT-4)."""
from __future__ import annotations

import math

import pytest

from helpers import cards_mask, check_invariants, coat, fresh, mask_cards
import ulm
from ulm import ACTION_NAMES, CARDS, COATS
from ulm.game import Game
from ulm.positions import (observation, position_to_state,
                           state_to_position)

from samples import ALL_CARDS, ALL_COATS, TASK_IDS, all_random_states, used


# ---------------------------------------------------------------------------
# information state (RULES section 12)

OBSERVER_HANDS = {0: ["Steeple I", "Patrician"], 1: ["Nave I", "Siege", "Fustian I"],
                  2: ["Choir II", "City Wall"]}
UNDER = [("S-1", 0), ("G-Garden", 1), ("S-3", 0), ("S-2", 2)]


def hidden_info_state(variant: str = "advanced") -> ulm.State:
    """3 players, before Red's draw: hands of 2/3/2 cards, one discarded card, one card in
    front of Blue, and coats put under the stack by every seat (two of them by Red)."""
    s = fresh(players=3, variant=variant, seed=4)
    r = s.raw()
    for p, names in OBSERVER_HANDS.items():
        r["players"][p]["hand"] = cards_mask(*names)
    r["players"][1]["front"] = cards_mask("Works of Art II")
    r["discard"] = cards_mask("Works of Art I")
    taken = r["discard"] | r["players"][1]["front"]
    for pl in r["players"]:
        taken |= pl["hand"]
    r["pile"] = ALL_CARDS & ~taken
    r["coat_tail"] = [coat(c) for c, _ in UNDER] + [0] * (len(COATS) - len(UNDER))
    r["coat_tail_by"] = [p for _, p in UNDER] + [0] * (len(COATS) - len(UNDER))
    r["coat_tail_len"] = len(UNDER)
    r["coat_unknown"] = ALL_COATS & ~sum(1 << coat(c) for c, _ in UNDER)
    s.set_raw(r)
    check_invariants(s)
    return s


def card_keep_state() -> ulm.State:
    """Blue (seat 1) to move, looking at 2 cards to keep one (R-ACT-CARD-1)."""
    s = hidden_info_state()
    r = s.raw()
    looked = [CARDS.index("Ulm Sparrow"), CARDS.index("Reformation")]
    r["pile"] &= ~cards_mask("Ulm Sparrow", "Reformation")
    r["looked_cards"] = looked + [0]
    r["n_looked_cards"] = 2
    r["turn_player"] = 1
    r["phase"] = 2
    r["task"][0] = TASK_IDS["card keep"]
    r["n_tasks"] = 1
    s.set_raw(r)
    check_invariants(s)
    return s


def changed(state: ulm.State, fn) -> ulm.State:
    t = state.clone()
    r = t.raw()
    fn(r)
    t.set_raw(r)
    return t


def swap_cards(a: str, b: str):
    """Exchange the places of two cards (hand, in front, pile, discard pile, looked at)."""
    ma, mb = cards_mask(a), cards_mask(b)
    ia, ib = CARDS.index(a), CARDS.index(b)

    def fn(r):
        holders = [r] + r["players"]
        for h in holders:
            for key in ("pile", "discard", "hand", "front"):
                if key in h and bool(h[key] & ma) != bool(h[key] & mb):
                    h[key] ^= ma | mb
        r["looked_cards"] = [ib if c == ia else ia if c == ib else c
                             for c in r["looked_cards"][:r["n_looked_cards"]]] + \
            r["looked_cards"][r["n_looked_cards"]:]
    return fn


def swap_coats(a: str, b: str):
    """Exchange the places of two coats (shuffled part, under the stack)."""
    ia, ib = coat(a), coat(b)

    def fn(r):
        if bool(r["coat_unknown"] >> ia & 1) != bool(r["coat_unknown"] >> ib & 1):
            r["coat_unknown"] ^= (1 << ia) | (1 << ib)
        n = r["coat_tail_len"]
        r["coat_tail"] = [ib if c == ia else ia if c == ib else c
                          for c in r["coat_tail"][:n]] + r["coat_tail"][n:]
    return fn


def assert_seen_by(s: ulm.State, t: ulm.State, seen_by: set[int]):
    """information_state_string(p) differs between s and t exactly for the players in
    seen_by, and so does the observation (the view, R-INFO-4)."""
    assert used(s.raw()) != used(t.raw()), "the two states must differ"
    for p in range(s.num_players()):
        same = s.information_state_string(p) == t.information_state_string(p)
        assert same == (p not in seen_by), (p, seen_by)
        assert (observation(s, p) == observation(t, p)) == same, p


def _set_player(p, **fields):
    def fn(r):
        r["players"][p].update(fields)
    return fn


def _set(**fields):
    def fn(r):
        r.update(fields)
    return fn


def _move_pile_card_to_hand(r):
    c = CARDS.index("Ulm Chronicle")
    r["pile"] &= ~(1 << c)
    r["players"][2]["hand"] |= 1 << c


def _grid_swap(r):
    r["grid"] = r["grid"][1:] + r["grid"][:1]


def _bag_and_dock(r):
    g, w = 0, 1
    r["bag"][g] -= 1
    r["bag"][w] += 1


def _coat_under_by(r):
    r["coat_tail_by"][1] = 2


def _tower_swap(r):
    r["tower_current"], r["tower_next"] = r["tower_next"], r["tower_current"]


PUBLIC_CHANGES = {
    "opponent coins": _set_player(2, coins=7),
    "own coins": _set_player(0, coins=7),
    "sparrows": _set_player(1, sparrows=5),
    "score": _set_player(1, score=9),
    "barge": _set_player(2, barge=3),
    "supply tiles": _set_player(1, supply=[1, 1, 0, 0, 0]),
    "discard pile (same size)": swap_cards("Works of Art I", "Commercial Goods I"),
    "card in front (same count)": swap_cards("Works of Art II", "Commercial Goods II"),
    "hand size": _move_pile_card_to_hand,
    "grid": _grid_swap,
    "bag counts": _bag_and_dock,
    "who put a coat under": _coat_under_by,
    "tower tiles": _tower_swap,
    "turn phase": _set(pushed_out_at=4),
}


@pytest.mark.parametrize("name", sorted(PUBLIC_CHANGES))
def test_public_fields_R_INFO_1(name):
    """A change to anything public (R-INFO-1) changes every player's information state."""
    s = hidden_info_state()
    assert_seen_by(s, changed(s, PUBLIC_CHANGES[name]), {0, 1, 2})


# The bag, the draw pile, the shuffled part of the coat stack and the tower stack are sets
# in the state (their order is never stored; each draw is a chance event), so the only
# hidden order the state holds is that of the coats put under the stack.
HIDDEN_FROM_ALL = {
    "shuffled coat vs a coat Green put under": (swap_coats("G-Tillage", "S-2"), {2}),
    "coats Blue and Green put under": (swap_coats("G-Garden", "S-2"), {1, 2}),
}


@pytest.mark.parametrize("name", sorted(HIDDEN_FROM_ALL))
def test_hidden_order_of_stacks_R_INFO_2(name):
    """The coat stack's order is hidden (R-INFO-2): only the player who put a coat under
    knows it (R-COAT-4); Red, who put neither, cannot tell the two states apart."""
    fn, seen_by = HIDDEN_FROM_ALL[name]
    s = hidden_info_state()
    assert_seen_by(s, changed(s, fn), seen_by)


def test_unordered_stacks_R_INFO_2():
    """The orders of the bag, the draw pile and the tower stack are no part of any
    position (R-INFO-2): the position files give the bag as counts, the pile and the
    shuffled coats as sets (views: sizes), and never name the unseen tower tiles or the
    unused Descendants."""
    s = hidden_info_state()
    full = state_to_position(s)
    assert isinstance(full["bag"], dict)
    assert full["draw pile"] == sorted(full["draw pile"], key=CARDS.index)
    r = s.raw()
    hidden_tower = {ulm.TOWER_TILES[t] for t in range(12) if r["tower_unseen"] >> t & 1}
    unused = {ulm.DESCENDANTS[d] for d in range(8) if r["desc"][d] == -2}
    assert len(hidden_tower) == 10 and len(unused) == 4
    for pos in [full] + [observation(s, p) for p in range(3)]:
        names = set(_strings(pos))
        assert not names & hidden_tower and not names & unused


def test_future_chance_is_hidden_R_INFO_2():
    """The dealer (which tile, card, coat or tower tile comes next) is no part of the
    information state: the same position with another dealer seed looks the same."""
    s = hidden_info_state()
    t = s.clone()
    t.seed_dealer(12345)
    for p in range(3):
        assert s.information_state_string(p) == t.information_state_string(p)
    a, b = s.clone(), t.clone()
    for x in (a, b):
        x.apply_action(ACTION_NAMES.index("draw"))
    assert {x.information_state_string(0) for x in (a, b)} == {a.information_state_string(0)}


PRIVATE_CHANGES = {
    "opponent hand vs pile": (swap_cards("Nave I", "Commercial Goods III"), {1}),
    "two opponents' hands (same sizes)": (swap_cards("Siege", "City Wall"), {1, 2}),
    "own hand vs pile": (swap_cards("Patrician", "Commercial Goods III"), {0}),
    "own hand vs an opponent's hand": (swap_cards("Patrician", "Siege"), {0, 1}),
    "coat Red put under vs shuffled coat": (swap_coats("S-1", "G-Leaning"), {0}),
    "positions of the two coats Red put under (R-COAT-4)": (swap_coats("S-1", "S-3"), {0}),
    "coat Red put under vs coat Green put under": (swap_coats("S-3", "S-2"), {0, 2}),
}


@pytest.mark.parametrize("name", sorted(PRIVATE_CHANGES))
def test_private_knowledge_R_INFO_3(name):
    """Hand cards and the coats put under the stack (with their positions) are known to
    their owner only (R-INFO-3, R-COAT-4)."""
    fn, seen_by = PRIVATE_CHANGES[name]
    s = hidden_info_state()
    assert_seen_by(s, changed(s, fn), seen_by)


def test_looked_at_cards_are_private_R_INFO_3():
    """The cards Blue looks at (card keep) are known to Blue only; the others see how many."""
    s = card_keep_state()
    assert_seen_by(s, changed(s, swap_cards("Ulm Sparrow", "Commercial Goods III")), {1})
    assert_seen_by(s, changed(s, swap_cards("Reformation", "Siege")), {1})
    view = observation(s, 0)
    assert view["looked at"] == {"cards": 2, "coats": 0}
    assert sorted(observation(s, 1)["looked at"]["cards"]) == ["Reformation", "Ulm Sparrow"]


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def unseen_by(state: ulm.State, p: int) -> tuple[set[str], set[str]]:
    """Names of the cards and coats whose place p does not know."""
    r = state.raw()
    cards = r["pile"]
    for q, pl in enumerate(r["players"]):
        if q != p:
            cards |= pl["hand"] & ~pl["known"]  # cards taken face up are known (R-INFO-3a)
    coats = r["coat_unknown"]
    for c, known in zip(r["coat_tail"][:r["coat_tail_len"]], r["coat_tail_known"]):
        if not known >> p & 1:  # R-COAT-4
            coats |= 1 << c
    for c, known in zip(r["looked_coats"][:r["n_looked_coats"]], r["looked_coat_known"]):
        if not known >> p & 1:
            coats |= 1 << c
    if r["turn_player"] != p:
        for c in r["looked_cards"][:r["n_looked_cards"]]:
            cards |= 1 << c
    return set(mask_cards(cards)), {COATS[c] for c in range(len(COATS)) if coats >> c & 1}


def test_observation_holds_exactly_what_p_knows_R_INFO_4():
    """The view of p names no card or coat p cannot see, and it determines p's information
    state: loading it gives back the same information_state_string(p)."""
    checked = 0
    for st in all_random_states()[::3] + [hidden_info_state(), card_keep_state()]:
        for p in range(st.num_players()):
            view = observation(st, p)
            cards, coats = unseen_by(st, p)
            names = set(_strings(view))
            assert not names & cards, "a view names a card its viewer cannot see"
            assert not names & coats, "a view names a coat its viewer cannot see"
            back, _ = position_to_state(view)
            assert back.information_state_string(p) == st.information_state_string(p)
            checked += 1
    assert checked > 100


# ---------------------------------------------------------------------------
# determinization: resample_from_infostate (leak tests)

def test_resample_keeps_the_information_state_R_INFO_4():
    for st in all_random_states():
        for p in range(st.num_players()):
            want = st.information_state_string(p)
            for seed in (1, 2, 3):
                t = st.resample_from_infostate(p, seed)
                assert t.information_state_string(p) == want
                check_invariants(t)


def _hands(state):
    return tuple(pl["hand"] for pl in state.raw()["players"])


def test_resample_redeals_opponents_hands_and_the_pile():
    """A resampler that returns the true state fails this: the opponents' hands and the
    pile change between resamples, and the true deal is not favoured."""
    s = hidden_info_state()
    true_hands = _hands(s)
    deals, piles, true_deals = set(), set(), 0
    for seed in range(200):
        t = s.resample_from_infostate(0, seed)
        hands = _hands(t)
        assert hands[0] == true_hands[0], "own hand kept"
        assert [bin(h).count("1") for h in hands] == [bin(h).count("1") for h in true_hands]
        deals.add(hands[1:])
        piles.add(t.raw()["pile"])
        true_deals += hands[1:] == true_hands[1:]
    assert len(deals) > 150 and len(piles) > 100
    assert true_deals <= 2


def test_resample_redeals_in_random_games():
    """In game states where an opponent holds cards, the opponents' hands vary."""
    states = 0
    for st in all_random_states():
        r = st.raw()
        for p in range(st.num_players()):
            opp = sum(bin(pl["hand"]).count("1") for q, pl in enumerate(r["players"]) if q != p)
            if not opp or not r["pile"]:
                continue
            deals = {_hands(st.resample_from_infostate(p, seed)) for seed in range(20)}
            assert len(deals) > 1
            states += 1
    assert states >= 10


def test_resample_card_distribution_chi_square():
    """Each unseen card lands in an opponent's hand with probability hand_size/unseen."""
    s = hidden_info_state()
    cards, _ = unseen_by(s, 0)
    unseen = [CARDS.index(c) for c in sorted(cards)]
    n_unseen = len(unseen)
    assert n_unseen == 33 - 2 - 1 - 1
    sizes = {1: 3, 2: 2}
    draws = 4000
    counts = {q: {c: 0 for c in unseen} for q in sizes}
    for seed in range(draws):
        r = s.resample_from_infostate(0, seed).raw()
        for q in sizes:
            h = r["players"][q]["hand"]
            for c in unseen:
                counts[q][c] += h >> c & 1
    for q, size in sizes.items():
        p = size / n_unseen
        expected = draws * p
        # Pearson's statistic over the cards; its mean is n_unseen * (1 - p)
        stat = sum((o - expected) ** 2 / expected for o in counts[q].values()) / (1 - p)
        assert stat < n_unseen + 6 * math.sqrt(2 * n_unseen), (q, stat)
        assert stat > n_unseen - 6 * math.sqrt(2 * n_unseen), (q, stat)  # not rigged either
        assert sum(counts[q].values()) == draws * size


def test_resample_keeps_coats_put_under_R_COAT_4():
    """Coats p put under stay at their known positions; the others' are redealt."""
    s = hidden_info_state()
    r0 = s.raw()
    for p in range(3):
        mine = [(i, c) for i, (c, by) in enumerate(zip(r0["coat_tail"], r0["coat_tail_by"][:4]))
                if by == p]
        others = [i for i in range(4) if r0["coat_tail_by"][i] != p]
        seen_at = {i: set() for i in others}
        for seed in range(100):
            r = s.resample_from_infostate(p, seed).raw()
            assert r["coat_tail_by"] == r0["coat_tail_by"]
            assert r["coat_tail_len"] == 4
            for i, c in mine:
                assert r["coat_tail"][i] == c
            for i in others:
                seen_at[i].add(r["coat_tail"][i])
        assert all(len(v) > 3 for v in seen_at.values()), p


def test_resample_redeals_hidden_looked_at_cards():
    s = card_keep_state()
    for seed in range(20):  # the player looking keeps them
        r = s.resample_from_infostate(1, seed).raw()
        assert sorted(r["looked_cards"][:2]) == sorted(s.raw()["looked_cards"][:2])
    looked = {tuple(sorted(s.resample_from_infostate(0, seed).raw()["looked_cards"][:2]))
              for seed in range(50)}
    assert len(looked) > 10


def test_resample_does_not_carry_the_true_dealer():
    """After a resample, the next bag draw must not be the one the real game will make."""
    st = Game(players=3).new_game(7)
    truth = st.clone()
    truth.apply_action(ACTION_NAMES.index("draw"))
    truth.resolve_chance()
    drawn = set()
    for seed in range(40):
        t = st.resample_from_infostate(1, seed)
        t.apply_action(ACTION_NAMES.index("draw"))
        t.resolve_chance()
        drawn.add(t.raw()["drawn"][0])
    assert len(drawn) > 1


