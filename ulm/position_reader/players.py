"""The players: points, seals, coats, hands (shown or hidden), and the totals of
descendants and seals across them."""
from __future__ import annotations

from ulm import _fastcore as core
from ulm._fastcore import CARDS, COATS, DESCENDANTS, QUARTERS, SEATS, SOURCES
from ulm.position_format import (CRESTS, DESC_ON_BOARD, DESC_UNSEEN, LAID_OUT, MAX_POINTS,
                                 PHASE_GAME_OVER, PLAYER_FIELDS, SEALS, TASK_IDS)
from ulm.position_reader.reading import _Sections


class _PlayerSections(_Sections):
    """The players, one after another, then their totals."""

    def players(self) -> None:
        self.outer_mark = [-1] * 12
        self.coat_owner = [-1] * len(COATS)
        self.crest_owner = [-1] * len(QUARTERS)
        self.quarter_seals = [0] * len(QUARTERS)
        for p, pd in enumerate(self.player_data):
            self.player(p, pd)
        self.descendant_and_seal_totals()
        r = self.r
        r["desc"] = self.desc
        r["outer_mark"] = self.outer_mark
        r["coat_owner"] = self.coat_owner
        r["crest_owner"] = self.crest_owner
        r["quarter_seals"] = self.quarter_seals
        barges = [pl["barge"] for pl in r["players"]]
        for p, i in enumerate(barges):
            if i > 0 and barges.index(i) != p:
                self.rd.fail(f"players[{p}].barge", f"river space {i} already holds "
                             f"{SEATS[barges.index(i)]}'s barge (only the start space holds "
                             "several, R-RIVER-2)")

    def player(self, p: int, pd) -> None:
        rd = self.rd
        where = f"players[{p}]"
        if not isinstance(pd, dict):
            rd.fail(where, "must be an object")
        rd.unknown_keys(pd, PLAYER_FIELDS, where)
        name = rd.field(pd, "name", where, str)
        if name != SEATS[p]:
            rd.fail(f"{where}.name", f"seat {p} is {SEATS[p]!r}, got {name!r}")
        pl = self.r["players"][p]
        pl["score"] = rd.count(pd, "score", where, lo=-MAX_POINTS, hi=MAX_POINTS)
        pl["vp"] = self.player_points(pd, where, pl["score"])
        pl["coins"] = rd.count(pd, "coins", where, hi=999)
        pl["sparrows"] = rd.count(pd, "sparrows", where, hi=999)
        pl["barge"] = rd.count(pd, "barge", where, hi=core.RIVER_LENGTH - 1)
        pl["supply"] = rd.colour_counts(pd, "supply", where)
        pl["seals_in"] = self.player_seals(pd, where)
        self.player_coats(p, pd, pl, where)
        for d in rd.names(pd, "descendants", where, DESCENDANTS, "descendant"):
            if self.desc[d] != DESC_UNSEEN:
                owner = self.desc[d]  # on the board, or a seat
                rd.fail(f"{where}.descendants", f"{DESCENDANTS[d]} is already "
                        f"{'on the board' if owner == DESC_ON_BOARD else 'owned by ' + SEATS[owner]}")
            self.desc[d] = p
        front = rd.names(pd, "in front", where, CARDS, "card")
        self.claim_cards(front, f"{where}.in front")
        pl["front"] = sum(1 << c for c in front)
        known = rd.names(pd, "known cards", where, CARDS, "card", [])
        if self.is_view and p != self.viewer:
            pl["hand"] = self.hidden_hand(p, pd, where, known)
        else:
            pl["hand"] = self.shown_hand(pd, where, known)
        pl["known"] = sum(1 << c for c in known)

    def player_points(self, pd: dict, where: str, score: int) -> list[int]:
        """The points by source; without them, all of the score is 'play'."""
        rd = self.rd
        vp = [0] * len(SOURCES)
        vp_in = rd.field(pd, "vp", where, dict, None)
        if vp_in is None:
            vp[0] = score
        else:
            for src, v in vp_in.items():
                i = rd.name(src, SOURCES, f"{where}.vp", "source")
                if isinstance(v, bool) or not isinstance(v, int):
                    rd.fail(f"{where}.vp.{src}", f"must be a whole number, got {v!r}")
                if not -MAX_POINTS <= v <= MAX_POINTS:
                    rd.fail(f"{where}.vp.{src}", f"must be between {-MAX_POINTS} and {MAX_POINTS}, "
                            f"got {v}")
                vp[i] = v
            if sum(vp) != score:
                rd.fail(f"{where}.vp", f"the sources add up to {sum(vp)}, but the score is {score}")
        if self.phase != PHASE_GAME_OVER and any(vp[core.NUM_PLAY_SOURCES:]):
            rd.fail(f"{where}.vp", "end-game sources are only scored when the game is over")
        return vp

    def player_seals(self, pd: dict, where: str) -> list[int]:
        """The player's seals in each quarter, added to the quarters' totals."""
        rd = self.rd
        seals_in = [0] * len(QUARTERS)
        for qname, k in rd.field(pd, "seals", where, dict).items():
            q = rd.name(qname, QUARTERS, f"{where}.seals", "quarter")
            if isinstance(k, bool) or not isinstance(k, int) or k < 0:
                rd.fail(f"{where}.seals.{qname}", f"must be a whole number >= 0, got {k!r}")
            seals_in[q] = k
            self.quarter_seals[q] += k
        return seals_in

    def player_coats(self, p: int, pd: dict, pl: dict, where: str) -> None:
        """The coats of arms, their seals on the outer spaces (unless unmarked)
        and the crests on the golden ones; the seals and crests left."""
        rd, b = self.rd, self.table
        coats = rd.names(pd, "coats", where, COATS, "coat of arms")
        unmarked = rd.names(pd, "unmarked coats", where, COATS, "coat of arms", [])
        for i, c in enumerate(unmarked):
            if c not in coats:
                rd.fail(f"{where}.unmarked coats[{i}]", f"{COATS[c]} is not among the player's coats")
        marks = 0
        golden = 0
        for c in coats:
            self.claim_coat(c, f"{where}.coats")
            self.coat_owner[c] = p
            if c not in unmarked:
                self.outer_mark[b["coat_outer"][c]] = p
                marks += 1
            if b["coat_quarter"][c] >= 0:
                golden += 1
                self.crest_owner[b["coat_quarter"][c]] = p
        pl["coats"] = sum(1 << c for c in coats)
        if golden > CRESTS:
            rd.fail(f"{where}.coats", f"{golden} golden coats, but a player has only {CRESTS} crests")
        pl["crests_left"] = CRESTS - golden
        used = sum(pl["seals_in"]) + marks
        if used > SEALS:
            rd.fail(f"{where}.seals", f"{used} seals on the board and on coats, but a player has {SEALS}")
        pl["seals_left"] = SEALS - used

    def hidden_hand(self, p: int, pd: dict, where: str, known: list[int]) -> int:
        """Another player's hand in a view: its size and the cards taken face up
        (R-INFO-3a); the hidden cards are dealt with the draw pile."""
        rd = self.rd
        if "hand" in pd:
            rd.fail(f"{where}.hand", f"a view of {SEATS[self.viewer]} cannot know {SEATS[p]}'s "
                    "hand; give 'hand size' (and the cards taken face up as 'known cards')")
        size = rd.count(pd, "hand size", where, hi=len(CARDS))
        if len(known) > size:
            rd.fail(f"{where}.known cards", f"{len(known)} known cards, but the hand holds {size}")
        self.claim_cards(known, f"{where}.known cards")
        self.hidden_by_group[p] = self.group_counts(pd, "hidden cards by reshuffle", where,
                                                    size - len(known), "hand cards")
        return sum(1 << c for c in known)

    def shown_hand(self, pd: dict, where: str, known: list[int]) -> int:
        """A hand listed card by card: every hand of a full position, the viewer's own."""
        rd = self.rd
        if "hand size" in pd:
            rd.fail(f"{where}.hand size", "give the cards themselves ('hand') for this player")
        if "hidden cards by reshuffle" in pd:
            rd.fail(f"{where}.hidden cards by reshuffle", "only for another player's hand in a view")
        hand = rd.names(pd, "hand", where, CARDS, "card")
        self.claim_cards(hand, f"{where}.hand")
        for i, c in enumerate(known):
            if c not in hand:
                rd.fail(f"{where}.known cards[{i}]", f"{CARDS[c]} is not in the hand")
        return sum(1 << c for c in hand)

    def descendant_and_seal_totals(self) -> None:
        """Across the players: the Descendants laid out, the Oath House seals
        that took them, and the spaces of each quarter."""
        rd, on_board, tasks = self.rd, self.on_board, self.tasks
        owned = sum(1 for d in self.desc if d >= 0)
        if len(on_board) + owned != LAID_OUT:
            rd.fail("descendants on board", f"{LAID_OUT} descendants are laid out at set-up; "
                    f"{len(on_board)} on the board + {owned} owned = {len(on_board) + owned}")
        oath = QUARTERS.index("Oath House")
        choosing = tasks.count(TASK_IDS["descendant choice"])  # seal placed, descendant not yet taken
        if self.quarter_seals[oath] != owned + choosing:
            rd.fail("players", f"{self.quarter_seals[oath]} seals in the Oath House but {owned} "
                    "descendants taken" + (f" and {choosing} being chosen" if choosing else "")
                    + " (each Oath House seal takes one, R-PRIV-OATH)")
        for q, k in enumerate(self.quarter_seals):
            if k > self.table["capacity"][q]:
                rd.fail("players", f"{k} seals in {QUARTERS[q]}, which has "
                        f"{self.table['capacity'][q]} spaces")
