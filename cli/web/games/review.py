"""Reviewing a recorded game on `ulm serve`, annotated by a search."""
from __future__ import annotations


from ulm import SEATS
from ulm.positions import state_to_position
from ulm.records import replay

from cli.web.checks import WebError, parse_seat, quoted
from cli.web.games import boards
from cli.web.games.base import WebGame


class ReviewGame(WebGame):
    """A recorded game, stepped through; annotated by a search at every decision."""
    mode = "review"

    def __init__(self, server, data: dict):
        super().__init__(server)
        self.data = data
        full = replay(data)
        self.total = len(full.decisions)
        self.movers = full.movers()     # who made each decision (annotations count them)
        self.decisions = list(full.decisions)
        self.index = self.total
        self.rec = self.full = full
        self.seat = None                 # whose eyes: None shows everything
        self.annotation = None           # {"seat", "moves": [...]}
        self.annotations: dict = {}      # every seat checked: seat name -> its annotation

    @property
    def state(self):
        return self.rec.state

    def viewer(self):
        return self.seat

    def goto(self, index, seat=None):
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= self.total:
            raise WebError(f"index: must be a whole number from 0 to {self.total}, "
                           f"got {quoted(index)}")
        with self.lock:
            if seat is not None:
                self.seat = None if seat == "all" else parse_seat(seat, self.rec.game.num_players,
                                                                  "as")
            self.rec = replay(self.data, index)
            self.index = index
            self.changed()
            self.show_annotation()

    def show_annotation(self):
        """At an annotated decision, the searcher's choice is drawn on the board."""
        notes = (self.annotation or {}).get("decisions", [])
        here = next((n for n in notes if n["index"] == self.index), None)
        if here is not None and self._annotation_shown():
            self.hint = {"version": self.version, "result": dict(here, kind="annotation",
                                                                 seat=self.annotation["seat"]),
                         "highlight": [here["best_action"]]}

    def _annotation_shown(self) -> bool:
        """An annotation is a search from its seat's knowledge: shown through that seat's
        eyes or with everything shown, not to another seat."""
        return self.annotation is not None and (
            self.seat is None or SEATS[self.seat] == self.annotation.get("seat"))

    def hint_seat(self, st=None) -> int:
        seat = super().hint_seat(st)
        if self.seat is not None and seat != self.seat:   # its advice names what it sees
            raise WebError(f"hint: it is {SEATS[seat]}'s turn; seen by {SEATS[self.seat]}, "
                           f"hints are for {SEATS[self.seat]}", 409)
        return seat

    def annotation_seat(self, seat) -> int:
        """The seat an annotation may be asked for now: any with everything shown, else
        only the seat whose eyes the review is seen through (another seat's review names
        its hidden hand, as a hint would)."""
        p = parse_seat(seat, self.rec.game.num_players, "seat")
        with self.lock:
            if self.seat is not None and p != self.seat:
                raise WebError(f"seat: seen by {SEATS[self.seat]}, the review to annotate is "
                               f"{SEATS[self.seat]}'s (show everyone's cards to review "
                               f"{SEATS[p]})", 409)
        return p

    def options(self):
        return []

    def undo(self):
        if self.index == 0:
            raise WebError("undo: already at the start of the record", 409)
        self.goto(self.index - 1)

    def decide(self, value):
        raise WebError("decision: a record under review cannot be changed; "
                       "step through it instead", 409)

    def answer(self):
        out = self.base_json()
        n = self.rec.game.num_players
        bots = self.data.get("bots") or []
        out["seats"] = [{"seat": SEATS[p], "kind": "record",
                         "spec": bots[p] if p < len(bots) else None} for p in range(n)]
        out["thinking"] = None
        out["history"] = boards.history(self.full, self.seat)
        out["index"] = self.index
        out["total"] = self.total
        out["can_undo"] = self.index > 0
        out["annotation"] = self.annotation if self._annotation_shown() else None
        # the chances of every seat checked, for the graph (each through its own eyes)
        out["annotations"] = [a for seat, a in sorted(self.annotations.items())
                              if self.seat is None or SEATS[self.seat] == seat]
        return out

    def saved(self):
        summary = {"players": self.rec.game.num_players,
                   "seats": list(self.data.get("bots") or ["record"] * self.rec.game.num_players),
                   "variant": self.rec.game.variant, "decisions": self.total,
                   "over": self.full.state.is_terminal()}
        return summary, {"record": self.data, "index": self.index,
                         "as": "all" if self.seat is None else SEATS[self.seat]}

    def last_steps(self, upto=None):
        from ulm.decisions import record_steps, since_viewer
        return since_viewer(record_steps(self.full, self.index if upto is None else upto),
                            self.seat)

    def board_at(self, index):
        with self.lock:
            return boards.record_board(self.full, index, self.seat)

    def history_words(self):
        return self.decisions

    def live_index(self):
        return self.index

    def state_at(self, index):
        return replay(self.data, index).state

    def export(self):
        return "record", self.data

    def continued(self, seat) -> dict:
        """What continues this record from the position shown: the record up to it (Play;
        only with everything shown: a record names every decision, an opponent's keep too),
        and `seat`'s view of it (Follow; a seat named, else None)."""
        with self.lock:
            data = None
            if self.seat is None:
                data = dict(self.data, decisions=list(self.data["decisions"][:self.index]))
                data.pop("result", None)
            view = None
            if seat is not None:
                p = parse_seat(seat, self.rec.game.num_players, "seat")
                if self.seat is not None and p != self.seat:   # as "Seen by" shows it
                    raise WebError(f"seat: seen by {SEATS[self.seat]}, the view to follow "
                                   f"is {SEATS[self.seat]}'s", 409)
                view = state_to_position(self.rec.state, p)
            return {"record": data, "view": view, "index": self.index}
