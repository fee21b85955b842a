"""The coat stack: the coats put under it, and the rest dealt in a view."""
from __future__ import annotations

from ulm._fastcore import COATS, SEATS
from ulm.position_reader.reading import _Sections


class _CoatSections(_Sections):
    """The coat stack."""

    def coat_stack(self) -> None:
        """The coats put under the stack (by whom, known to whom) and the shuffled
        rest: listed in a full position, counted in a view."""
        rd, r = self.rd, self.r
        stack = rd.field(self.data, "coat stack", "", dict)
        rd.unknown_keys(stack, ("shuffled", "under"), "coat stack")
        tail, tail_by, tail_known = self.coats_under(rd.field(stack, "under", "coat stack", list))
        if self.is_view:
            shuffled = self.deal_unseen_coats(stack, tail)
        else:
            shuffled = rd.names(stack, "shuffled", "coat stack", COATS, "coat of arms")
            for c in shuffled:
                self.claim_coat(c, "coat stack.shuffled")
            missing = [COATS[c] for c in range(len(COATS)) if c not in self.coat_place]
            if missing:
                rd.fail("coat stack", f"{len(COATS)} coats in all; missing: {', '.join(missing)}")
        r["coat_unknown"] = sum(1 << c for c in shuffled)
        r["coat_tail"] = tail + [0] * (len(COATS) - len(tail))
        r["coat_tail_by"] = tail_by + [0] * (len(COATS) - len(tail_by))
        r["coat_tail_known"] = tail_known + [0] * (len(COATS) - len(tail_known))
        r["looked_coat_known"] = (self.looked_known + [0, 0])[:2]
        r["coat_tail_len"] = len(tail)
        r["looked_coats"] = (self.looked_coats + [0, 0])[:2]
        r["n_looked_coats"] = self.n_looked_coats

    def coats_under(self, under: list) -> tuple[list, list[int], list[int]]:
        """The coats under the stack, the seat that put each there and who knows
        it (R-COAT-4); a coat the viewer does not know is None until dealt."""
        rd, seats, viewer = self.rd, self.seats, self.viewer
        tail: list[int | None] = []     # None: a coat the viewer does not know
        tail_by: list[int] = []
        tail_known: list[int] = []
        for i, entry in enumerate(under):
            where = f"coat stack.under[{i}]"
            if not isinstance(entry, dict):
                rd.fail(where, "must be an object like {\"coat\": \"S-1\", \"by\": \"Red\"}")
            rd.unknown_keys(entry, ("coat", "by", "known to"), where)
            by = rd.name(rd.field(entry, "by", where, str), seats, f"{where}.by", "player")
            tail_by.append(by)
            known = 0
            for j, name in enumerate(rd.field(entry, "known to", where, list, [SEATS[by]])):
                known |= 1 << rd.name(name, seats, f"{where}.known to[{j}]", "player")
            if not known >> by & 1:
                rd.fail(f"{where}.known to", f"{SEATS[by]}, who put the coat there, knows it (R-COAT-4)")
            tail_known.append(known)
            if self.is_view and not known >> viewer & 1:
                if "coat" in entry:
                    rd.fail(f"{where}.coat", f"{SEATS[viewer]} cannot know a coat {SEATS[by]} put "
                            "under (it is not known to them, R-COAT-4)")
                tail.append(None)
            else:
                c = rd.name(rd.field(entry, "coat", where, str), COATS, f"{where}.coat", "coat of arms")
                self.claim_coat(c, where)
                tail.append(c)
        return tail, tail_by, tail_known

    def deal_unseen_coats(self, stack: dict, tail: list) -> list[int]:
        """A view: the coats the viewer has not seen fill the unknown places under
        the stack and among the looked-at coats; the rest are shuffled."""
        coats_unseen = [c for c in range(len(COATS)) if c not in self.coat_place]
        shuffled_n = self.rd.count(stack, "shuffled", "coat stack", hi=len(COATS))
        hidden_n = shuffled_n + tail.count(None) + self.looked_coats.count(None)
        if hidden_n != len(coats_unseen):
            self.rd.fail("coat stack.shuffled", f"{len(coats_unseen)} coats are unseen by "
                         f"{SEATS[self.viewer]}, but the stack and the looked-at coats hold {hidden_n}")
        k = 0
        for coats in (tail, self.looked_coats):
            for i, c in enumerate(coats):
                if c is None:
                    coats[i] = coats_unseen[k]
                    k += 1
        return coats_unseen[k:]
