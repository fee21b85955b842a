"""Following a real game from one seat on `ulm serve`."""
from __future__ import annotations


from ulm import SEATS

from cli.web.checks import WebError, quoted, seat_name
from cli.web.games import boards
from cli.web.games.base import WebGame, find_decision, offered_option, state_to_position_checked


class FollowGame(WebGame):
    """A real game followed by one player: the state is a world of that player's view
    (the hidden part dealt arbitrarily). What may happen and what is entered go through
    ulm.follow, which knows what the viewer knows (the same as `ulm apply`); this class
    only names the options for the page and keeps the entries for undo."""
    mode = "follow"

    def __init__(self, server, state, seat: int):
        super().__init__(server)
        self.seat = seat
        self.stack = [state]            # states after each entered event; undo pops
        self.events: list[dict] = []    # {"seat", "name"}
        self.actions: list = []         # the decision applied for each event (for the marks)
        self.entries: list = []         # what was entered for each event (to rebuild it)
        self.origin: dict = {}          # how it started (the body of its POST /api/games)

    @property
    def state(self):
        return self.stack[-1]

    def viewer(self):
        return self.seat

    def options(self):
        from ulm.follow import options
        st = self.state
        mover = st.current_player()
        out = []
        for words, decision in options(st, self.seat):
            if mover >= 0 and mover != self.seat:   # an opponent's decision, named with the seat
                words = f"{SEATS[mover]}: {words}"
            if isinstance(decision, str):           # entered by words: a hidden draw or keep
                out.append({"decision": decision, "name": words, "target": None})
            else:
                out.append(offered_option(st, decision, words))
        return out

    def words_hint(self) -> str | None:
        """What to type when the decision cannot be offered as a button."""
        from ulm.follow import hidden_keep_words, keep_is_hidden
        st = self.state
        mover = st.current_player()
        if keep_is_hidden(st, self.seat):       # no card named: an example is not knowledge
            return (f"{SEATS[mover]} keeps one of the cards looked at: type what "
                    f"{SEATS[mover]} discarded: \"{hidden_keep_words(st, self.seat)}\"")
        return None

    def decide(self, value=None, text=None):
        """An offered option (by id or name), or anything in words (`text`, as `ulm apply`
        takes it: "Red kept a card, discarded Siege and Patrician")."""
        from ulm.follow import DecisionError, apply_decision
        with self.lock:
            st = self.state
            mover = st.current_player()
            if text is not None:
                if not isinstance(text, str) or not text.strip():
                    raise WebError(f"text: a decision in words, got {quoted(text)}")
                name, entered, field = text.strip(), text, "text"
            else:
                opt = find_decision(value, self.options())
                name = opt["name"].removeprefix(f"{SEATS[mover]}: ") if mover >= 0 \
                    else opt["name"]
                entered, field = opt["decision"], "decision"
            nxt = st.clone()
            try:
                done = apply_decision(nxt, entered, self.seat)
            except DecisionError as exc:
                raise WebError(f"{field}: {exc}") from None
            self.stack.append(nxt)
            self.events.append({"seat": seat_name(mover), "name": name})
            self.actions.append(done if isinstance(done, int) else None)
            self.entries.append({"text": text} if text is not None else {"decision": entered})
            self.keep_hint()
            self.changed()
            self.follow_hint(done if isinstance(done, int) else None, mover)

    def undo(self):
        with self.lock:
            if len(self.stack) == 1:
                raise WebError("undo: nothing entered yet", 409)
            self.stack.pop()
            self.events.pop()
            self.actions.pop()
            self.entries.pop()
            self.changed()

    def hint_seat(self, st=None):
        seat = super().hint_seat(st)
        if seat != self.seat:
            raise WebError(f"hint: it is {SEATS[seat]}'s turn; hints are for "
                           f"{SEATS[self.seat]} (the view's player)", 409)
        return seat

    def answer(self):
        out = self.base_json()
        out["seats"] = [{"seat": SEATS[p], "kind": "you" if p == self.seat else "table"}
                        for p in range(self.state.num_players())]
        out["thinking"] = None
        out["history"] = [dict(e, index=k) for k, e in enumerate(self.events)]
        out["can_undo"] = len(self.stack) > 1
        out["can_save"] = self._savable()
        out["words_hint"] = self.words_hint()
        return out

    def saved(self):
        st = self.state
        summary = {"players": st.num_players(), "seats": [
            "you" if p == self.seat else "table" for p in range(st.num_players())],
            "viewer": SEATS[self.seat], "variant": st.game.variant,
            "decisions": len(self.events), "over": st.is_terminal()}
        return summary, {"origin": self.origin, "entries": list(self.entries)}

    def last_steps(self, upto=None):
        from ulm.decisions import since_viewer
        upto = len(self.events) if upto is None else upto
        return since_viewer([(st, a) for st, a in zip(self.stack[:upto], self.actions[:upto])
                             if a is not None], self.seat)

    def history_words(self):
        return self.events

    def state_at(self, index):
        return self.stack[index].clone()

    def board_at(self, index):
        with self.lock:
            if isinstance(index, bool) or not isinstance(index, int) \
                    or not 0 <= index <= len(self.events):
                raise WebError(f"index: must be a whole number from 0 to {len(self.events)}, "
                               f"got {quoted(index)}")
            return {"index": index, "total": len(self.events),
                    "svg": boards.draw(self.stack[index], self.seat, None, False,
                                self.last_steps(index))}

    def _savable(self):
        try:
            state_to_position_checked(self.state, self.seat)
            return True
        except WebError:
            return False

    def export(self):
        with self.lock:
            return "view", state_to_position_checked(self.state, self.seat)
