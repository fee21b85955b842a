"""Property tests with Hypothesis.

1. An independent check of end-of-game scoring (R-END-2): a small plain-Python model,
   written from docs/rules.md (sections 9 and 11), against the engine's score breakdown
   over generated holdings: cards in front, sparrows, barges, coins, coats, seals, tiles.
2. A RuleBasedStateMachine that plays random decisions and chance outcomes and checks the
   knowledge invariants (R-INFO-3 (a)-(c), R-COAT-4) after every step, against its own
   record of what happened; and that every resample keeps the observer's information
   state, the known cards and coats, and the reshuffle groups.

The example counts are kept small (settings below) so the suite stays fast.
"""
from __future__ import annotations

from functools import lru_cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from helpers import check_invariants
import ulm
from ulm import ACTION_NAMES, CARDS, COATS, QUARTERS

# ---------------------------------------------------------------------------
# 1. scoring model

STEEPLE, NAVE, CHOIR = range(0, 3), range(3, 6), range(6, 9)
ART, GOODS, FUSTIAN = range(9, 14), range(14, 19), range(19, 24)
CHRONICLE = {name: CARDS.index(name) for name in CARDS[24:]}


def river_value(index: int) -> int:
    """R-BOARD-1: -11..-1 on 0..10, +1..+11 on 11..21."""
    return index - 11 if index <= 10 else index - 10


@lru_cache(maxsize=None)
def best_trade_sets(a: int, g: int, f: int) -> int:
    """R-CARD-TRADE-LOWER: the best total of set bonuses, by trying every set to form."""
    best = 0
    for i, n in enumerate((a, g, f)):
        if n >= 3:
            left = [a, g, f]
            left[i] -= 3
            best = max(best, 6 + best_trade_sets(*left))
    if min(a, g, f) >= 1:
        best = max(best, 3 + best_trade_sets(a - 1, g - 1, f - 1))
    return best


def model_end_scores(front: set[int], sparrows: int, barges: list[int], coins: int,
                     coats: int, seals: list[list[int]], supply: list[int]) -> dict:
    """Seat 0's end-game points by source, from the rules alone."""
    out = {}
    if CHRONICLE["Ulm Sparrow"] in front:            # R-CH-SPARROW lower
        out["sparrows"] = 2 * min(sparrows, 5) + max(sparrows - 5, 0)
    else:                                            # R-END-2
        out["sparrows"] = sparrows
    out["river"] = river_value(barges[0])
    n = {k: len(front & set(r)) for k, r in
         (("steeple", STEEPLE), ("nave", NAVE), ("choir", CHOIR),
          ("art", ART), ("goods", GOODS), ("fustian", FUSTIAN))}
    cathedral = n["steeple"] + n["nave"] + n["choir"]
    out["cathedral cards"] = 3 * cathedral + 9 * min(n["steeple"], n["nave"], n["choir"])
    out["trade cards"] = 3 * (n["art"] + n["goods"] + n["fustian"]) + best_trade_sets(
        n["art"], n["goods"], n["fustian"])
    v = 0
    if CHRONICLE["Ulm Chronicle"] in front:
        v += 2 * bin(coats).count("1")
    if CHRONICLE["City Wall"] in front:
        v += 2 * sum(1 for q in range(len(QUARTERS)) if seals[0][q] > 0
                     and all(seals[0][q] > other[q] for other in seals[1:]))
    if CHRONICLE["Construction Freeze"] in front:
        v += min(coins, 6)
    if CHRONICLE["Fishermen's Jousting"] in front:
        rank = 1 + sum(1 for b in barges[1:] if b > barges[0])
        v += {1: 6, 2: 3}.get(rank, 0)
    if CHRONICLE["Patrician"] in front:
        v += 4
    if CHRONICLE["Reformation"] in front:
        v += 2 * cathedral
    if CHRONICLE["Siege"] in front:
        v += len(front)
    if CHRONICLE["Swabian League"] in front:
        v += 2 * sum(1 for k in supply if k > 0)
    out["chronicle cards"] = v
    return out


@st.composite
def holdings(draw):
    players = draw(st.integers(2, 4))
    # only the start space holds several barges (R-RIVER-2)
    barges = draw(st.lists(st.integers(0, 21), min_size=players, max_size=players).filter(
        lambda b: all(i == 0 or b.count(i) == 1 for i in b)))
    return {
        "players": players,
        "front": draw(st.sets(st.integers(0, len(CARDS) - 1))),
        "sparrows": draw(st.integers(0, 20)),
        "barges": barges,
        "coins": draw(st.integers(0, 15)),
        "coats": draw(st.integers(0, (1 << len(COATS)) - 1)),
        "seals": [draw(st.lists(st.integers(0, 4), min_size=8, max_size=8)) for _ in range(players)],
        "supply": draw(st.lists(st.integers(0, 3), min_size=5, max_size=5)),
    }


@settings(max_examples=300, deadline=None, derandomize=True)
@given(holdings())
def test_end_scoring_matches_a_model_of_the_rules_R_END_2(h):
    """R-END-2 with R-CARD-CATH-LOWER, R-CARD-TRADE-LOWER, the chronicle lower bonuses,
    R-CH-SPARROW and R-BOARD-1: the engine's end-game items equal the model's."""
    s = ulm.Game(players=h["players"]).new_game(0)
    r = s.raw()
    for p, pl in enumerate(r["players"]):
        pl["barge"] = h["barges"][p]
        pl["seals_in"] = h["seals"][p]
        pl["front"] = 0
        pl["hand"] = 0
    me = r["players"][0]
    me["front"] = sum(1 << c for c in h["front"])
    me["sparrows"], me["coins"], me["coats"] = h["sparrows"], h["coins"], h["coats"]
    me["supply"] = h["supply"]
    s.set_raw(r)
    got = s.score_breakdown(0)
    want = model_end_scores(set(h["front"]), h["sparrows"], h["barges"], h["coins"], h["coats"],
                            h["seals"], h["supply"])
    assert {k: got[k] for k in want} == want


# ---------------------------------------------------------------------------
# 2. knowledge invariants in random play

GOOSE_PICK = {ACTION_NAMES.index(f"take {c} from the discard pile"): i for i, c in enumerate(CARDS)}


def bits(mask: int) -> set[int]:
    return {i for i in range(64) if mask >> i & 1}


class KnowledgeMachine(RuleBasedStateMachine):
    """Random play from a game whose draw pile was mostly moved to the discard pile and
    whose barges lie beside the quarters of coats and of the Goose Tower (so that
    reshuffles, picks from the discard pile and coats put under happen early), with an
    outside record of the cards taken face up and of each reshuffle's cards."""

    @initialize(players=st.integers(2, 4), advanced=st.booleans(), seed=st.integers(0, 10**6),
                to_discard=st.integers(15, 33), data=st.data())
    def start(self, players, advanced, seed, to_discard, data):
        self.state = ulm.Game(players=players, variant="advanced" if advanced else "basic") \
            .new_game(seed)
        r = self.state.raw()
        moved = sorted(bits(r["pile"]))[:to_discard]
        for c in moved:
            r["pile"] &= ~(1 << c)
            r["discard"] |= 1 << c
        # barges beside the Leaning House / Garden (coats) or the Goose Tower (picks from
        # the discard pile), with coins for seals
        barges = data.draw(st.lists(st.sampled_from([2, 3, 4, 5, 17, 18, 19, 20]), unique=True,
                                    min_size=players, max_size=players))
        for p, pl in enumerate(r["players"]):
            pl["barge"] = barges[p]
            pl["coins"] = 8
        self.state.set_raw(r)
        self.known = [set() for _ in range(players)]   # cards taken face up, by seat
        self.groups: list[set[int]] = []               # each reshuffle's cards

    @rule(data=st.data())
    def step(self, data):
        s = self.state
        if s.is_terminal():
            return
        before = s.raw()
        if s.is_chance_node():
            action = data.draw(st.sampled_from([a for a, _ in s.chance_outcomes()]))
        else:
            action = data.draw(st.sampled_from(s.legal_actions()))
        p = before["turn_player"]
        s.apply_action(action)
        after = s.raw()
        if action in GOOSE_PICK:                       # R-INFO-3a
            self.known[p].add(GOOSE_PICK[action])
        for q, pl in enumerate(after["players"]):      # known while it stays in the hand
            self.known[q] &= bits(pl["hand"])
        if after["reshuffles"] > before["reshuffles"]:  # R-INFO-3b, R-CARD-GET-2
            # the discard pile as it was, plus what this step put on it before the
            # reshuffle (a card played, looked-at cards discarded); never a card that
            # was in the old pile
            assert after["reshuffles"] == before["reshuffles"] + 1
            new = {c for c in range(len(CARDS)) if after["card_group"][c] == after["reshuffles"]}
            left_hand = before["players"][p]["hand"] & ~after["players"][p]["hand"]
            possible = bits(before["discard"] | left_hand) | set(
                before["looked_cards"][:before["n_looked_cards"]])
            assert bits(before["discard"]) <= new <= possible
            assert not new & bits(before["pile"])
            self.groups.append(new)
        check_invariants(s)

    @invariant()
    def known_cards_are_recorded_R_INFO_3a(self):
        r = self.state.raw()
        for q, pl in enumerate(r["players"]):
            assert bits(pl["known"]) == self.known[q]

    @invariant()
    def reshuffle_groups_are_recorded_R_INFO_3b(self):
        r = self.state.raw()
        assert r["reshuffles"] == len(self.groups)
        for c in range(len(CARDS)):
            last = max((g + 1 for g, cards in enumerate(self.groups) if c in cards), default=0)
            assert r["card_group"][c] == last, CARDS[c]
        assert all(r["card_group"][c] == r["reshuffles"] for c in bits(r["pile"]))

    @invariant()
    def looked_cards_only_while_choosing_R_INFO_3c(self):
        r = self.state.raw()
        if r["n_looked_cards"] and not self.state.is_chance_node():
            assert self.state.task_stack()[-1][0] == TASK_CARD_KEEP

    @invariant()
    def coat_knowledge_R_COAT_4(self):
        r = self.state.raw()
        for i in range(r["coat_tail_len"]):
            assert r["coat_tail_known"][i] >> r["coat_tail_by"][i] & 1
        for i in range(r["n_looked_coats"]):
            assert r["looked_coat_known"][i] >> r["turn_player"] & 1

    @rule(data=st.data())
    def resample(self, data):
        """R-INFO-4 with R-INFO-3 and R-COAT-4: a resample for any seat keeps its
        information state, the known cards, the coats it knows and the groups."""
        s = self.state
        n = s.num_players()
        p = data.draw(st.integers(0, n - 1))
        t = s.resample_from_infostate(p, data.draw(st.integers(0, 2**32)))
        assert t.information_state_string(p) == s.information_state_string(p)
        check_invariants(t)
        r, w = s.raw(), t.raw()
        for q in range(n):
            assert w["players"][q]["known"] == r["players"][q]["known"]
            assert w["players"][q]["hand"] & r["players"][q]["known"] == r["players"][q]["known"]
        assert w["card_group"] == r["card_group"]
        assert all(w["card_group"][c] == w["reshuffles"] for c in bits(w["pile"]))
        for i in range(r["coat_tail_len"]):
            if r["coat_tail_known"][i] >> p & 1:
                assert w["coat_tail"][i] == r["coat_tail"][i]


TASK_CARD_KEEP = {name: code for code, name in ulm._fastcore.TASKS.items()}["card keep"]

KnowledgeMachine.TestCase.settings = settings(
    max_examples=12, stateful_step_count=250, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow])
test_knowledge_invariants_in_random_play_R_INFO_3_R_COAT_4 = KnowledgeMachine.TestCase
