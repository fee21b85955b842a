"""The cards: the reshuffles, the discard pile, the cards and coats being looked at,
the draw pile (listed, or counted in a view and dealt from the unseen cards)."""
from __future__ import annotations

from ulm._fastcore import CARDS, COATS, SEATS
from ulm.position_format import TASK_IDS
from ulm.position_reader.reading import _Sections


class _CardSections(_Sections):
    """The sections of the cards, in the order of their checks."""

    def reshuffles(self) -> None:
        """R-INFO-3b: group g holds the cards the g-th reshuffle put into the draw
        pile and no later one did; group 0 the cards drawn before the first."""
        rd = self.rd
        reshuffled = rd.field(self.data, "reshuffles", "", list, [])
        if len(reshuffled) > 255:
            rd.fail("reshuffles", f"at most 255 reshuffles, got {len(reshuffled)}")
        groups = [0] * len(CARDS)
        group_of: dict[int, str] = {}
        for g, cards in enumerate(reshuffled):
            if not isinstance(cards, list):
                rd.fail(f"reshuffles[{g}]", f"must be a list of cards, got {type(cards).__name__}")
            for i, name in enumerate(cards):
                c = rd.name(name, CARDS, f"reshuffles[{g}][{i}]", "card")
                if c in group_of:
                    rd.fail(f"reshuffles[{g}][{i}]", f"{CARDS[c]} is already in {group_of[c]} "
                            "(a card belongs to the last reshuffle that put it into the pile)")
                group_of[c] = f"reshuffles[{g}]"
                groups[c] = g + 1
        self.r["reshuffles"] = len(reshuffled)
        self.r["card_group"] = groups
        self.groups = groups
        self.n_groups = len(reshuffled) + 1

    def discard_pile(self) -> None:
        discard = self.rd.names(self.data, "discard pile", "", CARDS, "card")
        self.claim_cards(discard, "discard pile")
        self.r["discard"] = sum(1 << c for c in discard)

    def looked_at(self) -> None:
        """The cards and coats the mover is looking at (R-PRIV-GOOSE, the coat
        draws): named for the mover, counted for the others."""
        rd = self.rd
        looked = rd.field(self.data, "looked at", "", dict, {})
        rd.unknown_keys(looked, ("cards", "coats", "cards by reshuffle", "coats known to"), "looked at")
        self.looked_hidden = self.is_view and self.viewer != self.mover
        self.looked_by_group = [0] * self.n_groups
        if self.looked_hidden:
            self.looked_at_counted(looked)
        else:
            self.looked_at_named(looked)
        n_cards, n_coats = self.n_looked_cards, self.n_looked_coats
        if n_cards > 3:
            rd.fail("looked at.cards", f"at most 3 cards are looked at, got {n_cards}")
        if n_coats > 2:
            rd.fail("looked at.coats", f"at most 2 coats are looked at, got {n_coats}")
        if n_cards and TASK_IDS["card keep"] not in self.tasks:
            rd.fail("looked at.cards", "cards are looked at only while a 'card keep' is pending")
        if n_coats and TASK_IDS["coat choice"] not in self.tasks:
            rd.fail("looked at.coats", "coats are looked at only while a 'coat choice' is pending")
        self.looked_coats_known(looked)

    def looked_at_counted(self, looked: dict) -> None:
        """Another player looks: the viewer knows how many, and the coats shown to
        them (R-COAT-4); the unknown ones are None until they are dealt."""
        rd = self.rd
        self.n_looked_cards = rd.count(looked, "cards", "looked at", 0, hi=3)
        self.looked_by_group = self.group_counts(looked, "cards by reshuffle", "looked at",
                                                 self.n_looked_cards, "looked-at cards")
        self.looked_cards: list[int] = []
        if isinstance(looked.get("coats"), list):  # some of them known to the viewer (R-COAT-4)
            self.looked_coats = [None if name is None else
                                 rd.name(name, COATS, f"looked at.coats[{i}]", "coat of arms")
                                 for i, name in enumerate(looked["coats"])]
            for i, c in enumerate(self.looked_coats):
                if c is not None:
                    self.claim_coat(c, f"looked at.coats[{i}]")
        else:
            self.looked_coats = [None] * rd.count(looked, "coats", "looked at", 0, hi=2)
        self.n_looked_coats = len(self.looked_coats)

    def looked_at_named(self, looked: dict) -> None:
        """A full position, or the mover's own view: the cards and coats by name."""
        rd = self.rd
        if "cards by reshuffle" in looked:
            rd.fail("looked at.cards by reshuffle", "only in the view of another player")
        self.looked_cards = rd.names(looked, "cards", "looked at", CARDS, "card", [])
        coats = rd.names(looked, "coats", "looked at", COATS, "coat of arms", [])
        self.claim_cards(self.looked_cards, "looked at.cards")
        for c in coats:
            self.claim_coat(c, "looked at.coats")
        self.looked_coats = coats
        self.n_looked_cards, self.n_looked_coats = len(self.looked_cards), len(self.looked_coats)

    def looked_coats_known(self, looked: dict) -> None:
        """Who knows each looked-at coat: the mover, and whoever was shown it (R-COAT-4)."""
        rd, mover, viewer, n_coats = self.rd, self.mover, self.viewer, self.n_looked_coats
        self.looked_known = []
        known_lists = rd.field(looked, "coats known to", "looked at", list, [[SEATS[mover]]] * n_coats)
        if len(known_lists) != n_coats:
            rd.fail("looked at.coats known to", f"must list who knows each of the {n_coats} "
                    f"looked-at coats, got {len(known_lists)}")
        for i, names in enumerate(known_lists):
            where = f"looked at.coats known to[{i}]"
            if not isinstance(names, list):
                rd.fail(where, f"must be a list of players, got {type(names).__name__}")
            mask = 0
            for j, name in enumerate(names):
                mask |= 1 << rd.name(name, self.seats, f"{where}[{j}]", "player")
            if not mask >> mover & 1:
                rd.fail(where, f"{SEATS[mover]}, who is looking at the coat, knows it")
            if self.looked_hidden and (self.looked_coats[i] is not None) != bool(mask >> viewer & 1):
                rd.fail(f"looked at.coats[{i}]", f"{SEATS[viewer]} " + (
                    "knows this coat: name it" if mask >> viewer & 1 else "cannot know this coat: null")
                    + " (R-COAT-4)")
            self.looked_known.append(mask)

    def draw_pile(self) -> None:
        """A full position lists the draw pile; a view gives its size, and the
        cards the viewer has not seen are dealt to the hidden places."""
        if self.is_view:
            self.draw_pile_size()
        else:
            self.draw_pile_cards()
        self.r["looked_cards"] = (self.looked_cards + [0, 0, 0])[:3]
        self.r["n_looked_cards"] = self.n_looked_cards

    def draw_pile_size(self) -> None:
        rd, viewer = self.rd, self.viewer
        unseen = [c for c in range(len(CARDS)) if c not in self.cards_seen]
        pile_size = rd.count(self.data, "draw pile size", "", hi=len(CARDS))
        if "draw pile" in self.data:
            rd.fail("draw pile", "a view gives only the 'draw pile size'")
        others = [p for p in range(self.n) if p != viewer]
        hidden_in = {p: sum(self.hidden_by_group[p]) for p in others}
        looked = self.n_looked_cards if self.looked_hidden else 0
        hidden = pile_size + looked + sum(hidden_in.values())
        if hidden != len(unseen):
            rd.fail("draw pile size", f"{len(unseen)} cards are unseen by {SEATS[viewer]}, but the "
                    f"draw pile ({pile_size}) and the other hands ("
                    f"{', '.join(f'{SEATS[p]} {hidden_in[p]}' for p in others)})"
                    + (f" and the {self.n_looked_cards} looked-at cards" if self.looked_hidden else "")
                    + f" hold {hidden}")
        self.deal_unseen_cards(unseen, pile_size, others)

    def deal_unseen_cards(self, unseen: list[int], pile_size: int, others: list[int]) -> None:
        """Any consistent deal will do: the searcher redeals every iteration; each
        reshuffle group is dealt among the places its cards can be (R-INFO-3b)."""
        r, n_groups = self.r, self.n_groups
        r["pile"] = 0
        for g in range(n_groups):
            cards_g = [c for c in unseen if self.groups[c] == g]
            want = (sum(self.hidden_by_group[p][g] for p in others) + self.looked_by_group[g]
                    + (pile_size if g == n_groups - 1 else 0))
            if want != len(cards_g):
                what = "before the first reshuffle" if g == 0 else f"of reshuffles[{g - 1}]"
                self.rd.fail("reshuffles", f"{len(cards_g)} cards {what} are unseen by "
                             f"{SEATS[self.viewer]}, but the hands, looked-at cards and draw pile "
                             f"hold {want} of them")
            k = 0
            for p in others:
                take = self.hidden_by_group[p][g]
                r["players"][p]["hand"] |= sum(1 << c for c in cards_g[k:k + take])
                k += take
            self.looked_cards += cards_g[k:k + self.looked_by_group[g]]
            k += self.looked_by_group[g]
            r["pile"] |= sum(1 << c for c in cards_g[k:])

    def draw_pile_cards(self) -> None:
        rd = self.rd
        if "draw pile size" in self.data:
            rd.fail("draw pile size", "a full position lists the 'draw pile' itself")
        pile = rd.names(self.data, "draw pile", "", CARDS, "card")
        self.claim_cards(pile, "draw pile")
        for i, c in enumerate(pile):
            if self.groups[c] != self.n_groups - 1:
                rd.fail(f"draw pile[{i}]", f"{CARDS[c]} is not among the cards of the last "
                        "reshuffle, the only ones the draw pile holds (R-INFO-3b)")
        self.r["pile"] = sum(1 << c for c in pile)
        missing = [CARDS[c] for c in range(len(CARDS)) if c not in self.cards_seen]
        if missing:
            rd.fail("draw pile", f"{len(CARDS)} cards in all, {len(self.cards_seen)} placed; "
                    "missing: " + ", ".join(missing))
