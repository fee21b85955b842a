"""Position files, game records, the information state and determinization.

RULES section 12 (R-INFO-1..4) and the file formats of docs/positions.md:

- round trips: full positions give back the same raw() state and the same position; views
  give back the same information_state_string(viewer) and the same view; every file of
  examples/ loads and saves byte-identically; the examples match examples/generate.py;
- information-state tests, one group per rule R-INFO-1..4: two states that differ only in
  what p cannot see give the same string for p, and a difference p can see changes it;
- leak tests (the OpenSpiel bug class): resample_from_infostate(p, seed) keeps p's
  information state, really redeals what p cannot see (a resampler that returns the true
  state fails them), deals uniformly (chi-square check) and keeps the coats p put under
  the stack where they are (R-COAT-4);
- a table of bad position files: load_position raises PositionError naming the field and the
  reason; `ulm validate` and `ulm show` exit 2 with `Error: <message>` and no traceback;
- game records (`ulm replay`), and the commands new, show, validate and their help texts.
"""
from __future__ import annotations

import copy
import importlib.util
import json
import math
import random
from functools import lru_cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from helpers import cards_mask, check_invariants, coat, fresh, mask_cards
import ulm
from ulm import ACTION_NAMES, CARDS, COATS
from ulm._fastcore import SEATS, TASKS
from ulm.game import Game
from ulm.positions import (PositionError, dumps, load_position, observation, position_to_state,
                           save_position, state_to_position)
from ulm.records import GameRecord, RecordError, load_record, replay

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
EXAMPLE_FILES = sorted(p.name for p in EXAMPLES.glob("*.json"))
POSITION_FILES = [n for n in EXAMPLE_FILES if not n.startswith("record")]
CONFIGS = [(n, v) for n in (2, 3, 4) for v in ("basic", "advanced")]
ALL_CARDS = (1 << len(CARDS)) - 1
ALL_COATS = (1 << len(COATS)) - 1
TASK_IDS = {name: code for code, name in TASKS.items()}


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def used(raw: dict) -> dict:
    """raw() with looked_cards / looked_coats cut to their used lengths."""
    raw = dict(raw)
    raw["looked_cards"] = raw["looked_cards"][:raw["n_looked_cards"]]
    raw["looked_coats"] = raw["looked_coats"][:raw["n_looked_coats"]]
    raw["looked_coat_known"] = raw["looked_coat_known"][:raw["n_looked_coats"]]
    return raw


@lru_cache(maxsize=None)
def _random_states(players: int, variant: str, games: int = 4, rate: float = 0.05):
    """Decision points of seeded random games: the set-up, every point with a pending
    sub-decision, the end, and a share of the other points (mid-turn ones included)."""
    out = []
    for g in range(games):
        seed = 1000 * players + 100 * (variant == "advanced") + g
        rng = random.Random(seed)
        st = Game(players=players, variant=variant).new_game(seed)
        out.append(st.clone())
        while not st.is_terminal():
            st.apply_action(rng.choice(st.legal_actions()))
            st.resolve_chance()
            if st.raw()["n_tasks"] or st.is_terminal() or rng.random() < rate:
                out.append(st.clone())
    return tuple(out)


def random_states(players, variant):
    return [s.clone() for s in _random_states(players, variant)]


def all_random_states():
    return [s for n, v in CONFIGS for s in random_states(n, v)]


def test_random_states_cover_the_turn():
    """The sample holds every phase, pending sub-decisions and looked-at cards and coats."""
    seen = set()
    for s in all_random_states():
        r = s.raw()
        seen.add(("phase", r["phase"]))
        seen.update(("task", TASKS[t]) for t in r["task"][:r["n_tasks"]])
        seen.add(("looked cards", r["n_looked_cards"] > 0))
        seen.add(("looked coats", r["n_looked_coats"] > 0))
        seen.add(("coats under", r["coat_tail_len"] > 0))
    for phase in range(4):
        assert ("phase", phase) in seen
    for task in ("card keep", "coat choice", "barge move", "dock choice", "descendant choice",
                 "tower payment"):
        assert ("task", task) in seen
    for what in ("looked cards", "looked coats", "coats under"):
        assert (what, True) in seen


# ---------------------------------------------------------------------------
# round trips

@pytest.mark.parametrize("players,variant", CONFIGS)
def test_full_position_round_trip(players, variant):
    for st in random_states(players, variant):
        pos = state_to_position(st)
        back, seat = position_to_state(json.loads(dumps(pos)))
        assert used(back.raw()) == used(st.raw())
        assert state_to_position(back) == pos
        assert seat == st.raw()["turn_player"]


@pytest.mark.parametrize("players,variant", CONFIGS)
def test_view_round_trip(players, variant):
    for st in random_states(players, variant):
        for p in range(players):
            view = state_to_position(st, p)
            back, seat = position_to_state(json.loads(dumps(view)))
            assert seat == p
            assert back.information_state_string(p) == st.information_state_string(p)
            assert state_to_position(back, p) == view
            check_invariants(back)


def test_view_round_trip_through_files(tmp_path):
    st = random_states(4, "advanced")[20]
    for p in range(4):
        path = tmp_path / f"view-{p}.json"
        save_position(st, path, viewer=p)
        back, seat = load_position(path)
        assert seat == p
        assert back.information_state_string(p) == st.information_state_string(p)


@pytest.mark.parametrize("name", EXAMPLE_FILES)
def test_example_file_round_trip_is_byte_identical(name, tmp_path):
    path = EXAMPLES / name
    text = path.read_text(encoding="utf-8")
    if name.startswith("record"):
        assert dumps(load_record(path).to_dict()) == text
        return
    state, seat = load_position(path)
    viewer = seat if json.loads(text)["kind"] == "view" else None
    assert dumps(state_to_position(state, viewer)) == text
    out = tmp_path / name
    save_position(state, out, viewer)
    assert out.read_bytes() == path.read_bytes()


def _generator():
    spec = importlib.util.spec_from_file_location("ulm_examples_generate", EXAMPLES / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_examples_match_their_generator():
    """As `python examples/generate.py --check`: the files are what the generator writes."""
    files = _generator().examples()
    assert sorted(files) == EXAMPLE_FILES
    differ = [name for name, text in files.items()
              if (EXAMPLES / name).read_text(encoding="utf-8") != text]
    assert not differ, f"differ from examples/generate.py: {differ}"


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


# ---------------------------------------------------------------------------
# bad position files

def example(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))


def at(data, path):
    for k in path:
        data = data[k]
    return data


def set_(path, value):
    def fn(d):
        at(d, path[:-1])[path[-1]] = value
    return fn


def del_(path):
    def fn(d):
        del at(d, path[:-1])[path[-1]]
    return fn


def both(*fns):
    def fn(d):
        for f in fns:
            f(d)
    return fn


def _golden_coats(d):
    for c in ("G-Leaning", "G-Garden", "G-TownHall", "G-Shipyard"):
        d["coat stack"]["shuffled"].remove(c)
        d["players"][1]["coats"].append(c)


def _colour_count(d):
    """19 gray tiles, but still 50 in all."""
    d["players"][0]["supply"] = {"gray": 9, "turquoise": 1}
    d["bag"].update(brown=d["bag"]["brown"] - 5, orange=d["bag"]["orange"] - 4)


def _add(path, key, delta):
    def fn(d):
        at(d, path)[key] = at(d, path)[key] + delta
    return fn


# (id, example, edit, expected message substring: the field path and the reason)
BAD = [
    ("negative coins", "midgame-4p", set_(["players", 2, "coins"], -1),
     "players[2].coins: must be >= 0, got -1"),
    ("too many coins", "midgame-4p", set_(["players", 0, "coins"], 1000),
     "players[0].coins: must be <= 999, got 1000"),
    ("tile count", "midgame-4p", _add(["bag"], "gray", 2),
     "tiles: 52 counted (grid, outer spaces, docks, bag, supplies, drawn), expected 50"),
    ("too many of a colour", "midgame-4p", _colour_count, "tiles: 19 gray tiles, more than the game has"),
    ("refill not by fives", "midgame-4p", set_(["tiles added"], 3),
     "tiles added: the bag is refilled 5 tiles at a time (R-DRAW-8), got 3"),
    ("view hand sizes vs unseen cards", "midgame-4p-view", set_(["players", 0, "hand size"], 3),
     "draw pile size: 32 cards are unseen by Blue, but the draw pile (32) and the other hands "
     "(Red 3, Green 0, Yellow 0) hold 35"),
    ("view coats vs unseen coats", "midgame-4p-view", set_(["coat stack", "shuffled"], 7),
     "coat stack.shuffled: 11 coats are unseen by Blue, but the stack and the looked-at coats hold 8"),
    ("unknown card", "midgame-4p", set_(["draw pile", 0], "Steeple 1"),
     "draw pile[0]: unknown card 'Steeple 1'; did you mean 'Steeple I'?"),
    ("unknown card in front", "midgame-4p", set_(["players", 0, "in front"], ["Work of Art V"]),
     "players[0].in front[0]: unknown card 'Work of Art V'; did you mean 'Works of Art V'?"),
    ("unknown quarter", "midgame-4p", set_(["players", 1, "seals"], {"Leaning Hose": 1}),
     "players[1].seals: unknown quarter 'Leaning Hose'; did you mean 'Leaning House'?"),
    ("unknown colour", "midgame-4p", set_(["grid", 0, 0], "grey"),
     "grid[0][0]: unknown colour 'grey'; did you mean 'gray'?"),
    ("unknown colour in a count", "midgame-4p", set_(["players", 0, "supply"], {"grey": 1}),
     "players[0].supply: unknown colour 'grey'; did you mean 'gray'?"),
    ("unknown coat", "midgame-4p", set_(["players", 1, "coats"], ["G-Oth"]),
     "players[1].coats[0]: unknown coat of arms 'G-Oth'; did you mean 'G-Oath'?"),
    ("unknown player", "midgame-4p", set_(["to move"], "Yelow"),
     "to move: unknown player 'Yelow'; did you mean 'Yellow'?"),
    ("unknown field", "midgame-4p", set_(["players", 0, "coin"], 1),
     "players[0].coin: unknown field; did you mean 'coins'?"),
    ("unknown task", "midgame-4p", set_(["pending"], [{"task": "dock choise", "arg": 0}]),
     "pending[0].task: unknown task 'dock choise'; did you mean 'dock choice'?"),
    ("text for a number", "midgame-4p", set_(["players", 0, "coins"], "2"),
     "players[0].coins: must be a whole number, got '2'"),
    ("true for a number", "midgame-4p", set_(["players", 0, "sparrows"], True),
     "players[0].sparrows: must be a whole number, got True"),
    ("object for a list", "midgame-4p", set_(["players"], {}), "players: must be a list, got dict"),
    ("missing field", "midgame-4p", del_(["players", 1, "coins"]), "players[1].coins: missing"),
    ("missing draw pile size", "midgame-4p-view", del_(["draw pile size"]), "draw pile size: missing"),
    ("wrong format", "midgame-4p", set_(["format"], "ulm-position/2"),
     "format: expected 'ulm-position/1', got 'ulm-position/2'"),
    ("wrong kind", "midgame-4p", set_(["kind"], "partial"),
     "kind: must be 'full' or 'view', got 'partial'"),
    ("five players", "midgame-4p", lambda d: d["players"].append(copy.deepcopy(d["players"][0])),
     "players: Ulm is for 2, 3 or 4 players, got 5"),
    ("round 11", "midgame-4p", set_(["round"], 11), "round: must be <= 10, got 11"),
    ("unknown phase", "midgame-4p", set_(["phase"], "draw"),
     "phase: must be one of before draw, push, actions, game over, got 'draw'"),
    ("push without a drawn tile", "midgame-4p", set_(["phase"], "push"),
     "turn.drawn: phase 'push' needs the drawn tile"),
    ("drawn tile before the draw", "midgame-4p", set_(["turn", "drawn"], ["gray"]),
     "turn.drawn: no tile is drawn before the draw (phase 'before draw')"),
    ("game over before round 10", "midgame-4p", set_(["phase"], "game over"),
     "round: a finished game is in round 10, got 4"),
    ("full position missing a card", "midgame-4p", lambda d: d["draw pile"].remove("Patrician"),
     "draw pile: 33 cards in all, 32 placed; missing: Patrician"),
    ("card listed twice", "midgame-4p", lambda d: d["discard pile"].append("Steeple I"),
     "draw pile[0]: Steeple I is already in discard pile"),
    ("card twice in one list", "midgame-4p", lambda d: d["draw pile"].append("Steeple I"),
     "draw pile[32]: 'Steeple I' is listed twice"),
    ("coat missing", "midgame-4p", lambda d: d["coat stack"]["shuffled"].remove("S-4"),
     "coat stack: 12 coats in all; missing: S-4"),
    ("coat twice", "midgame-4p", lambda d: d["players"][0]["coats"].append("S-2"),
     "coat stack.shuffled: coat S-2 is already in players[0].coats"),
    ("two barges on one river space", "midgame-4p", set_(["players", 2, "barge"], 5),
     "players[2].barge: river space 5 already holds Red's barge"),
    ("barge off the river", "midgame-4p", set_(["players", 0, "barge"], 22),
     "players[0].barge: must be <= 21, got 22"),
    ("too many golden coats", "midgame-4p", _golden_coats,
     "players[1].coats: 4 golden coats, but a player has only 3 crests"),
    ("too many seals", "midgame-4p", set_(["players", 0, "seals"], {"Tillage": 12}),
     "players[0].seals: 13 seals on the board and on coats, but a player has 12"),
    ("quarter over capacity", "midgame-4p", set_(["players", 0, "seals"], {"Tillage": 3}),
     "players: 6 seals in Tillage, which has 4 spaces"),
    ("Oath House seal without a descendant", "midgame-4p",
     set_(["players", 0, "seals"], {"Oath House": 1}),
     "players: 1 seals in the Oath House but 0 descendants taken"),
    ("descendant on the board and owned", "midgame-4p",
     set_(["players", 0, "descendants"], ["Merchant"]),
     "players[0].descendants: Merchant is already on the board"),
    ("descendants laid out", "midgame-4p", lambda d: d["descendants on board"].pop(),
     "descendants on board: 4 descendants are laid out at set-up; 3 on the board + 0 owned = 3"),
    ("wrong tower past count", "advanced-3p", lambda d: d["tower"]["past"].pop(),
     "tower.past: round 4 has 3 earlier tower tiles, got 2"),
    ("tower tile twice", "advanced-3p", lambda d: d["tower"].update(next=d["tower"]["past"][0]),
     "appears twice"),
    ("no tower tile in force", "advanced-3p", set_(["tower", "current"], None),
     "tower.current: the advanced game has a tower tile in force every round"),
    ("tower in the basic game", "midgame-4p", set_(["tower"], {"current": "T1"}),
     "tower: tower tiles have effects only in the advanced variant"),
    ("docks", "midgame-4p", both(_add(["docks"], "white", 1), _add(["bag"], "white", -1)),
     "docks: the 5 loading docks hold 5 tiles here, got 6"),
    ("outer spaces", "midgame-4p", lambda d: d["outer spaces"].pop(),
     "outer spaces: must list the 12 outer spaces (null when empty), got 11"),
    ("grid shape", "midgame-4p", lambda d: d["grid"].pop(), "grid: must be 3 rows of 3 colours"),
    ("score vs sources", "midgame-4p", set_(["players", 0, "score"], 10),
     "players[0].vp: the sources add up to 9, but the score is 10"),
    ("end-game points during play", "midgame-4p", set_(["players", 1, "vp"], {"start": 3, "river": 2}),
     "players[1].vp: end-game sources are only scored when the game is over"),
    ("seat name", "midgame-4p", set_(["players", 0, "name"], "Blue"),
     "players[0].name: seat 0 is 'Red', got 'Blue'"),
    ("view names an opponent's hand", "midgame-4p-view", set_(["players", 0, "hand"], []),
     "players[0].hand: a view of Blue cannot know Red's hand; give 'hand size'"),
    ("view names a coat another put under", "midgame-4p-view",
     set_(["coat stack", "under", 0, "coat"], "S-2"),
     "coat stack.under[0].coat: Blue cannot know a coat Red put under"),
    ("view lists the draw pile", "midgame-4p-view", set_(["draw pile"], []),
     "draw pile: a view gives only the 'draw pile size'"),
    ("full position with a viewer", "midgame-4p", set_(["viewer"], "Red"),
     "viewer: only a view has a viewer (kind is 'full')"),
    ("looked-at cards without a card keep", "midgame-4p",
     set_(["looked at"], {"cards": ["Steeple I"], "coats": []}),
     "looked at.cards: cards are looked at only while a 'card keep' is pending"),
    ("unmarked coat not owned", "midgame-4p", set_(["players", 0, "unmarked coats"], ["S-2"]),
     "players[0].unmarked coats[0]: S-2 is not among the player's coats"),
    ("board of the wrong type", "midgame-4p", set_(["board"], {}),
     "board: must be the path of a board table file, got dict"),
    ("board file missing", "midgame-4p", set_(["board"], "/nonexistent/board.json"),
     "board: /nonexistent/board.json: cannot read the file"),
    ("not an object", "midgame-4p", lambda d: Replace([]),
     "position: must be a JSON object, got list"),
    # every pending task's argument as the core reads it
    ("barge move beyond its actions", "midgame-4p",
     set_(["pending"], [{"task": "barge move", "arg": 40}]),
     "pending[0].arg: 'barge move' takes the most river spaces the barge may move: 1..4, got 40"),
    ("amount for another card", "midgame-4p", set_(["pending"], [{"task": "amount", "arg": 5}]),
     "pending[0].arg: 'amount' takes the card being played: 30 (Siege) or 32 (Ulm Sparrow), got 5"),
    ("cathedral payment for a trade card", "midgame-4p",
     set_(["pending"], [{"task": "cathedral payment", "arg": 9}]),
     "pending[0].arg: 'cathedral payment' takes the cathedral card paid for, by number"),
    ("reformation pick of three", "midgame-4p",
     set_(["pending"], [{"task": "reformation pick", "arg": 3}]),
     "pending[0].arg: 'reformation pick' takes the tiles still to take from outer spaces: 1..2, got 3"),
    ("argument of a task without one", "midgame-4p",
     set_(["pending"], [{"task": "dock choice", "arg": 3}]),
     "pending[0].arg: 'dock choice' takes no argument (0), got 3"),
    ("negative argument", "midgame-4p", set_(["pending"], [{"task": "card keep", "arg": -1}]),
     "pending[0].arg: 'card keep' takes no argument (0), got -1"),
    ("set-up draw pending", "midgame-4p", set_(["pending"], [{"task": "grid fill", "arg": 4}]),
     "pending[0].task: 'grid fill' is a set-up draw: it never waits in a position"),
    ("round start pending", "midgame-4p", set_(["pending"], [{"task": "round start"}]),
     "pending[0].task: 'round start' is run at once when a round ends"),
    # the turn against the phase and the pending tasks
    ("drawn tile in the actions phase", "midgame-4p",
     both(set_(["phase"], "actions"), set_(["turn", "drawn"], ["gray"]), _add(["bag"], "gray", -1)),
     "turn.drawn: the drawn tile is pushed before the actions (phase 'actions')"),
    ("second drawn tile without a Builder", "midgame-4p",
     both(set_(["phase"], "push"), set_(["turn", "drawn"], ["gray", "white"]),
          _add(["bag"], "gray", -1), _add(["bag"], "white", -1)),
     "turn.drawn: 2 drawn tile(s), but the pending 'draw tile to push' tasks (slots []) need 1"),
    ("builder keep without the Builder", "midgame-4p",
     both(set_(["phase"], "push"), set_(["turn", "drawn"], ["gray", "white"]),
          _add(["bag"], "gray", -1), _add(["bag"], "white", -1),
          set_(["pending"], [{"task": "builder keep"}])),
     "pending[0]: 'builder keep' needs the Builder, and Blue does not own it"),
    ("draw slot 1 without a builder keep", "midgame-4p",
     both(set_(["phase"], "push"), set_(["turn", "drawn"], ["gray"]), _add(["bag"], "gray", -1),
          set_(["pending"], [{"task": "draw tile to push", "arg": 1}])),
     "turn.drawn: 1 drawn tile(s), but the pending 'draw tile to push' tasks (slots [1]) need 1"),
    ("actions before the push", "midgame-4p", set_(["turn", "actions"], {"gray": 1}),
     "turn.actions.gray: actions come from the push; none in phase 'before draw'"),
    ("actions beyond a byte", "midgame-4p",
     both(set_(["phase"], "actions"), set_(["turn", "actions"], {"gray": 300})),
     "turn.actions.gray: must be <= 20, got 300"),
    ("extra river steps before the push", "midgame-4p", set_(["turn", "extra river steps"], 1),
     "turn.extra river steps: they come from a river action; none in phase 'before draw'"),
    ("extra river steps without a source", "midgame-4p",
     both(set_(["phase"], "actions"), set_(["turn", "extra river steps"], 1)),
     "turn.extra river steps: at most 0 here (1 with the Barge Driver, 1 with tower tile T1"),
    ("pushed out before the push", "midgame-4p", set_(["turn", "pushed out at"], 3),
     "turn.pushed out at: no tile is pushed out before the push (phase 'before draw')"),
    ("draw swap before the draw", "midgame-4p", set_(["turn", "draw swap used"], True),
     "turn.draw swap used: the joker and the Scholar swap the drawn tile"),
    ("merchant used without the Merchant", "midgame-4p", set_(["turn", "merchant used"], True),
     "turn.merchant used: Blue does not own the Merchant"),
    ("T5 seal without T5", "midgame-4p", set_(["turn", "T5 seal"], True),
     "turn.T5 seal: tower tile T5 is not in force"),
    ("T10 used without T10", "advanced-3p",
     both(set_(["phase"], "actions"), set_(["turn", "T10 used"], True),
          set_(["turn", "pushed out at"], 3)),
     "turn.T10 used: tower tile T10 is not in force"),
    ("T10 used before the push", "midgame-4p", set_(["turn", "T10 used"], True),
     "turn.T10 used: T10 takes the tile pushed out this turn; none in phase 'before draw'"),
    ("tower payment before the draw", "midgame-4p",
     set_(["pending"], [{"task": "tower payment"}]),
     "pending[0]: 'tower payment' waits only in phase 'actions', not in 'before draw'"),
    ("tower payment without T8 or T9", "advanced-3p",
     both(set_(["phase"], "actions"), set_(["pending"], [{"task": "tower payment"}])),
     "pending[0]: 'tower payment' is due only while T8 or T9 is in force"),
    ("tower reveal with the next tile shown", "advanced-3p",
     set_(["pending"], [{"task": "tower reveal"}]),
     "pending[0]: 'tower reveal' shows the next tower tile, but tower.next is already shown"),
    ("tower reveal in the basic game", "midgame-4p", set_(["pending"], [{"task": "tower reveal"}]),
     "pending[0]: tower tiles are revealed only in the advanced game"),
    ("patrician colour after the draw", "midgame-4p",
     both(set_(["phase"], "push"), set_(["turn", "drawn"], ["gray"]), _add(["bag"], "gray", -1),
          set_(["pending"], [{"task": "patrician colour"}])),
     "pending[0]: 'patrician colour' waits only in phase 'before draw', not in 'push'"),
    ("pending tasks after the game", "midgame-4p",
     both(set_(["round"], 10), set_(["phase"], "game over"),
          set_(["pending"], [{"task": "dock choice"}])),
     "pending: a finished game has no pending tasks"),
    ("card look without a card keep", "midgame-4p", set_(["pending"], [{"task": "look at card"}]),
     "pending[0]: 'look at card' draws for a 'card keep' pending below it"),
    ("four cards looked at", "midgame-4p",
     set_(["pending"], [{"task": "card keep"}] + [{"task": "look at card"}] * 4),
     "pending[1]: 0 looked at and 4 more to draw: at most 3 are looked at"),
    ("three coats drawn", "midgame-4p",
     set_(["pending"], [{"task": "coat choice"}] + [{"task": "coat draw"}] * 3),
     "pending[1]: 0 looked at and 3 more to draw: at most 2 are looked at"),
    ("a choice with nothing to choose", "midgame-4p", set_(["pending"], [{"task": "coat choice"}]),
     "pending[0]: 'coat choice' has no legal choice in this position"),
    ("score beyond the points a game gives", "midgame-4p",
     both(set_(["players", 0, "score"], 40000), set_(["players", 0, "vp"], {"start": 40000})),
     "players[0].score: must be <= 999, got 40000"),
    ("points of a source beyond the game", "midgame-4p",
     set_(["players", 0, "vp"], {"start": 40000, "coats of arms": -39995}),
     "players[0].vp.start: must be between -999 and 999, got 40000"),
]
BAD_JSON = ('{\n  "format": "ulm-position/1",\n  "kind": "full",\n}\n',
            "not valid JSON (line 4, column 1: Expecting property name")


def test_bad_table_is_large_and_distinct():
    assert len(BAD) >= 25
    assert len({b[0] for b in BAD}) == len(BAD)
    assert len({b[3] for b in BAD}) == len(BAD)


class Replace:
    """An edit that replaces the whole document."""

    def __init__(self, value):
        self.value = value


def bad_file(tmp_path, base, edit) -> Path:
    data = example(base)
    result = edit(data)
    if isinstance(result, Replace):
        data = result.value
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def check_rejected(path: Path, message: str):
    with pytest.raises(PositionError) as err:
        load_position(path)
    assert message in str(err.value)
    assert str(err.value).startswith(f"{path}: ")
    for command in ("validate", "show"):
        res = run(command, path)
        assert res.exit_code == 2, (command, res.output)
        assert "Error: " in res.output
        assert message in res.output
        assert "Traceback" not in res.output
        assert res.exception is None or isinstance(res.exception, SystemExit)


@pytest.mark.parametrize("case", BAD, ids=[b[0] for b in BAD])
def test_bad_position(case, tmp_path):
    _, base, edit, message = case
    check_rejected(bad_file(tmp_path, base, edit), message)


def test_bad_json(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(BAD_JSON[0], encoding="utf-8")
    check_rejected(path, BAD_JSON[1])


def test_not_a_text_file(tmp_path):
    path = tmp_path / "bad.json"
    path.write_bytes(b"\xff\xfe{")
    check_rejected(path, "not a UTF-8 text file (byte 0xff at position 0)")
    res = run("replay", path)
    assert res.exit_code == 2 and "not a UTF-8 text file" in res.output


def test_missing_file(tmp_path):
    with pytest.raises(PositionError, match="cannot read the file"):
        load_position(tmp_path / "nope.json")
    for command in ("validate", "show"):
        res = run(command, tmp_path / "nope.json")
        assert res.exit_code == 2 and "Error: " in res.output and "nope.json" in res.output
        assert "Traceback" not in res.output


def test_show_and_replay_name_the_kind_of_file():
    """`validate` tells the kinds apart; `show` and `replay` say which command to use."""
    res = run("show", EXAMPLES / "record-2p.json")
    assert res.exit_code == 2
    assert ("format: expected 'ulm-position/1', got 'ulm-record/1' (a game record: use "
            "`ulm replay`)") in res.output
    res = run("replay", EXAMPLES / "midgame-4p.json")
    assert res.exit_code == 2
    assert ("format: expected 'ulm-record/1', got 'ulm-position/1' (a position: use "
            "`ulm show`)") in res.output


def test_bad_examples_are_otherwise_valid(tmp_path):
    """The table's edits start from files that load: each failure is the edit's."""
    for base in {b[1] for b in BAD}:
        load_position(EXAMPLES / f"{base}.json")


# ---------------------------------------------------------------------------
# a view typed in at the table (the walk-through of docs/positions.md)

def test_walkthrough_view_typed_at_the_table(tmp_path):
    mine = tmp_path / "mine.json"
    res = run("new", "--players", 4, "--as", "Blue", "-o", mine)
    assert res.exit_code == 0 and res.output == ""
    d = json.loads(mine.read_text(encoding="utf-8"))
    d["round"] = 5
    d["to move"] = "Blue"
    d["bag"] = {"gray": 5, "white": 6, "brown": 8, "turquoise": 7, "orange": 6}
    d["draw pile size"] = 26
    d["discard pile"] = ["Siege"]
    d["coat stack"] = {"shuffled": 8, "under": [{"by": "Red"}, {"coat": "S-2", "by": "Blue"}]}
    red, blue, green, yellow = d["players"]
    red.update(score=7, vp={"start": 5, "coats of arms": 2}, coins=0, barge=4,
               supply={"gray": 1}, seals={"Garden": 1}, coats=["G-Tillage"])
    red["hand size"] = 1
    blue.update(score=9, vp={"start": 5, "coats of arms": 4}, coins=1, sparrows=3, barge=2,
                supply={"white": 1, "orange": 1}, seals={"Leaning House": 1}, coats=["S-4"],
                hand=["Patrician", "Nave II"])
    green["in front"] = ["Works of Art III"]
    yellow["supply"] = {}
    yellow["hand size"] = 2
    mine.write_text(json.dumps(d, indent=2), encoding="utf-8")
    state, seat = load_position(mine)
    assert seat == 1 and state.current_player() == 1
    res = run("validate", mine)
    assert res.exit_code == 0
    assert "a valid position, 4 players, Blue to move" in res.output
    # the mistake the page shows: the draw pile size not lowered
    d["draw pile size"] = 33
    mine.write_text(json.dumps(d, indent=2), encoding="utf-8")
    res = run("validate", mine)
    assert res.exit_code == 2
    assert ("draw pile size: 29 cards are unseen by Blue, but the draw pile (33) and the other "
            "hands (Red 1, Green 0, Yellow 2) hold 36") in res.output


# ---------------------------------------------------------------------------
# game records

@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A 3-player advanced game played with random decisions, its record saved, and the
    state after every decision."""
    rec = GameRecord(players=3, variant="advanced", seed=9)
    rng = random.Random(9)
    after = [rec.state.clone()]
    while not rec.state.is_terminal():
        rec.apply(rng.choice(rec.state.legal_actions()))
        after.append(rec.state.clone())
    path = tmp_path_factory.mktemp("records") / "game.json"
    rec.save(path)
    return rec, after, path


def test_record_replays_to_the_same_final_state(played):
    rec, after, path = played
    back = load_record(path)
    assert back.state.is_terminal()
    assert back.state.raw() == rec.state.raw()
    assert back.decisions == rec.decisions
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["result"]["scores"] == dict(zip(SEATS, rec.state.scores()))
    assert dumps(back.to_dict()) == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("k", [0, 1, 17, 100])
def test_record_at_k(played, k):
    rec, after, path = played
    assert load_record(path, at=k).state.raw() == after[k].raw()
    assert len(load_record(path, at=k).decisions) == k


@pytest.mark.parametrize("k,seat", [(0, "Red"), (40, "Blue"), (101, "Green")])
def test_replay_cli_prints_the_view(played, k, seat):
    rec, after, path = played
    res = run("replay", path, "--at", k, "--as", seat, "--json")
    assert res.exit_code == 0, res.output
    view = json.loads(res.output)
    assert view["kind"] == "view" and view["viewer"] == seat
    assert res.output == dumps(state_to_position(after[k], SEATS.index(seat)))


def test_replay_cli_text_and_output_file(played, tmp_path):
    rec, after, path = played
    res = run("replay", path, "--at", 30)
    assert res.exit_code == 0
    assert res.output.startswith("After 30 decisions:")
    assert "Score breakdown:" in res.output
    out = tmp_path / "at30.json"
    res = run("replay", path, "--at", 30, "-o", out)
    assert res.exit_code == 0
    state, _ = load_position(out)
    assert used(state.raw()) == used(after[30].raw())


def test_replay_of_the_example_record():
    res = run("replay", EXAMPLES / "record-2p.json", "--json")
    assert res.exit_code == 0
    assert json.loads(res.output)["phase"] == "game over"


BAD_RECORDS = [
    ("unknown action", {"decisions": ["draw", "push row 1 from left", "end turn", "fly"]}, None,
     "decisions[3]: unknown action 'fly'"),
    ("illegal decision", {"decisions": ["draw", "end turn"]}, None,
     "decisions[1]: 'end turn' is illegal at this point (legal: push row 1 from left"),
    ("negative seed", {"seed": -1}, None, "seed: must be a whole number from 0 to 2**64 - 1, got -1"),
    ("text seed", {"seed": "7"}, None, "seed: must be a whole number from 0 to 2**64 - 1, got '7'"),
    ("seed too large", {"seed": 2 ** 64}, None,
     "seed: must be a whole number from 0 to 2**64 - 1, got 18446744073709551616"),
    ("five players", {"players": 5}, None, "players: must be 2, 3 or 4, got 5"),
    ("fractional players", {"players": 2.0}, None, "players: must be 2, 3 or 4, got 2.0"),
    ("board of the wrong type", {"board": 5}, None,
     "board: must be the path of a board table file, got int"),

    ("bad variant", {"variant": "expert"}, None,
     "variant: must be 'basic' or 'advanced', got 'expert'"),
    ("decisions not a list", {"decisions": "draw"}, None,
     "decisions: missing, or not a list of action names"),
    ("unknown field", {"moves": []}, None, "moves: unknown field"),
    ("--at beyond the end", {}, 99, "--at: the record has 3 decisions, got 99"),
]


@pytest.mark.parametrize("case", BAD_RECORDS, ids=[b[0] for b in BAD_RECORDS])
def test_bad_record(case, tmp_path):
    _, change, at_k, message = case
    data = {"format": "ulm-record/1", "players": 2, "variant": "basic", "seed": 5,
            "decisions": ["draw", "push row 1 from left", "end turn"]}
    data.update(change)
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RecordError) as err:
        load_record(path, at=at_k)
    assert message in str(err.value)
    args = ["replay", path] + (["--at", at_k] if at_k is not None else [])
    commands = [args] + ([["validate", path]] if at_k is None else [])
    for cmd in commands:
        res = run(*cmd)
        assert res.exit_code == 2, (cmd, res.output)
        assert "Error: " in res.output and message in res.output
        assert "Traceback" not in res.output


def test_record_that_is_not_an_object():
    with pytest.raises(RecordError, match="record: must be a JSON object, got list"):
        replay([])


# ---------------------------------------------------------------------------
# the commands new, show, validate

@pytest.mark.parametrize("players", [2, 3, 4])
def test_new(players):
    res = run("new", "--players", players, "--seed", 3)
    assert res.exit_code == 0
    data = json.loads(res.output)
    assert data["kind"] == "full" and len(data["players"]) == players
    assert [p["name"] for p in data["players"]] == list(SEATS[:players])
    assert data["round"] == 1 and data["phase"] == "before draw"
    state, _ = position_to_state(data)
    assert state.raw() == Game(players=players).new_game(3).raw()


def test_new_advanced_and_as():
    res = run("new", "--players", 3, "--variant", "advanced", "--as", "Green")
    assert res.exit_code == 0
    data = json.loads(res.output)
    assert data["variant"] == "advanced" and data["tower"]["past"] == []
    assert data["tower"]["current"] and data["tower"]["next"]
    assert data["kind"] == "view" and data["viewer"] == "Green"
    assert data["draw pile size"] == 33 and data["coat stack"]["shuffled"] == 12
    assert run("new", "--players", 3, "--as", 2).output == run("new", "--players", 3, "--as", "green").output


def test_new_output_file_loads(tmp_path):
    out = tmp_path / "mine.json"
    res = run("new", "--players", 4, "--as", "Blue", "-o", out)
    assert res.exit_code == 0 and res.output == ""
    state, seat = load_position(out)
    assert seat == 1 and state.num_players() == 4
    assert run("validate", out).exit_code == 0


@pytest.mark.parametrize("args,message", [
    (["--players", 5], "Invalid value for '--players'"),
    (["--players", 1], "Invalid value for '--players'"),
    (["--players", 2, "--as", "Yellow"], "--as: no seat Yellow in a 2-player game"),
    (["--as", "Purple"], "'Purple' is not a seat"),
    (["--variant", "expert"], "Invalid value for '--variant'"),
    (["--seed", -1], "Invalid value for '--seed'"),
    (["--seed", 2 ** 64], "Invalid value for '--seed'"),
    (["--board", "/nonexistent/board.json"], "board"),
])
def test_new_bad_option_writes_nothing(args, message, tmp_path):
    out = tmp_path / "out.json"
    res = run("new", *args, "-o", out)
    assert res.exit_code == 2, res.output
    assert "Error" in res.output and message in res.output
    assert "Traceback" not in res.output
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_show_full_position():
    path = EXAMPLES / "midgame-4p.json"
    data = example("midgame-4p")
    res = run("show", path)
    assert res.exit_code == 0
    out = res.output
    assert "Ulm, 4 players, basic game" in out
    assert "Round 4 of 10, Blue to move, phase: before draw" in out
    tile = {"gray": "GR", "white": "WH", "brown": "BR", "turquoise": "TQ", "orange": "OR", None: ".."}
    for row in data["grid"]:
        assert "  ".join(tile[c] for c in row) in out
    for p in data["players"]:
        coins = f"{p['coins']} coin{'' if p['coins'] == 1 else 's'}"   # plurals right
        assert f"{p['name']}: {p['score']} VP, {coins}" in out
        value = p['barge'] - 11 if p['barge'] <= 10 else p['barge'] - 10   # default board
        assert f"barge on {value:+d} (space {p['barge']})" in out
    assert "River: " in out and "Score breakdown" in out
    for r in (1, 2, 3):                                    # rows numbered as in the decisions
        assert f"row {r}  " in out
    assert "column  1   2   3" in out
    assert " 1 coins" not in out and " 1 sparrows" not in out and " 1 cards" not in out


def test_show_view_hides_hands():
    res = run("show", EXAMPLES / "advanced-3p-view.json")
    assert res.exit_code == 0
    assert "view of Blue" in res.output
    assert "hand: " in res.output and " cards" in res.output
    assert "Tower tile in force:" in res.output
    assert "Score breakdown" not in res.output
    res = run("show", EXAMPLES / "advanced-3p-view.json", "--as", "Red")
    assert res.exit_code == 2 and "is the view of Blue" in res.output


def test_show_as_seat_of_a_full_position():
    full = run("show", EXAMPLES / "midgame-4p.json", "--as", "Blue")
    view = run("show", EXAMPLES / "midgame-4p-view.json")
    assert full.exit_code == view.exit_code == 0
    assert full.output == view.output


@pytest.mark.parametrize("name", EXAMPLE_FILES)
def test_validate_examples(name):
    res = run("validate", EXAMPLES / name)
    assert res.exit_code == 0, res.output
    assert "a valid" in res.output


@pytest.mark.parametrize("command,words", [
    (None, ["Ulm", "new", "show", "validate", "replay", "docs/positions.md"]),
    ("new", ["freshly set-up position", "--players", "--variant", "--seed", "--as", "--output"]),
    ("show", ["Print a position as text", "--as"]),
    ("validate", ["Check a position, game record or board file", "exit 2"]),
    ("replay", ["Replay a game record", "--at", "--as", "--json", "--output"]),
])
def test_help_texts(command, words):
    res = run(*([command] if command else []), "--help")
    assert res.exit_code == 0
    for w in words:
        assert w in res.output
