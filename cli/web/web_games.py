"""The games of `ulm serve`: play against bots, follow a real game, review a
record. Each holds its state on the server; the page only ever sends
decisions by id or name and gets back the whole picture, built from the
viewer's observation (`WebGame.to_json`). Plain library calls, no HTTP."""
from __future__ import annotations


import json
import secrets
import threading
import time

from ulm import ACTION_NAMES, NUM_ROUNDS, SEATS
from ulm.positions import PositionError, position_to_state, state_to_position
from ulm.records import replay



from cli.web.checks import WebError, label, parse_seat, quoted, seat_name
from cli.web.jobs import Cancelled

# ---------------------------------------------------------------------------
# Sessions

class WebGame:
    mode = "?"

    def __init__(self, server):
        self.server = server
        self.id = secrets.token_urlsafe(9)
        self.lock = threading.RLock()
        self.version = 0
        self.touched = time.monotonic()
        self.changed_at = time.time()   # its last change, as the list of games shows it
        self.hint = None                # {"version", "seat", "result", "highlight"}

    stopped = False                 # dropped by the server: its bots stop searching

    def stop(self) -> None:
        """Stop this game's bots (their search ends within about 0.1 s)."""
        with self.lock:
            self.stopped = True

    # subclasses: state, viewer, options(), decide(), undo(), history, export()
    def changed(self) -> None:
        self.version += 1
        self.changed_at = time.time()
        self.hint = None
        self.server.persist(self)

    def saved(self) -> tuple[dict, dict]:
        """(summary for the list of games, what rebuilds the game: GameRegistry.restore)."""
        raise NotImplementedError

    def follow_hint(self, action, mover: int) -> None:
        """After changed(): the decision just made was the hint's next step and the same
        seat is still to move: the rest of the hint's line stays, step by step (the
        alternatives were for the step taken and go)."""
        old = getattr(self, "_hint_before", None)
        self._hint_before = None
        if old is None or not old["result"].get("principal_line") or action is None:
            return
        line = old["result"]["principal_line"]
        if line[0]["action"] != action or line[0].get("chance_after") or len(line) < 2 \
                or self.state.current_player() != mover:
            return
        rest = dict(old["result"], principal_line=line[1:], actions=[],
                    best_action=line[1]["action"], best_action_name=line[1]["name"],
                    points_breakdown=None, step=old["result"].get("step", 1) + 1)
        self.hint = {"version": self.version, "result": rest,
                     "highlight": [s["action"] for s in line[1:]], "ranked": None}

    def keep_hint(self) -> None:
        """Before a decision: remember the hint shown (follow_hint looks at it)."""
        self._hint_before = self.hint if (self.hint is not None
                                           and self.hint["version"] == self.version) else None

    @property
    def state(self):
        raise NotImplementedError

    _kept: list | None = None       # [version, hint, answer, JSON]: that version's answer

    def to_json(self) -> dict:
        """The game's answer (GET /api/games/{id}), made once for each version of the
        game and hint shown (drawing the board is most of its cost) and kept: many
        pages asking for a game that has not changed are answered without drawing it
        again. What changes without a new version (a bot thinking) is added by live()."""
        with self.lock:
            return self.live(dict(self._answer_now()[2]))

    def to_json_bytes(self) -> bytes:
        """to_json() as the JSON text of an answer, the kept part written once."""
        with self.lock:
            kept = self._answer_now()
            if kept[3] is None:
                kept[3] = json_bytes(kept[2])
            live = self.live({})
        return kept[3] if not live else kept[3][:-1] + b"," + json_bytes(live)[1:]

    def _answer_now(self) -> list:
        """[version, hint, answer, its JSON text or None] of the game as it is now."""
        kept = self._kept
        if kept is None or kept[0] != self.version or kept[1] is not self.hint:
            kept = self._kept = [self.version, self.hint, self.answer(), None]
        return kept

    def kept_json_bytes(self) -> bytes | None:
        """to_json_bytes() when it costs no drawing and no wait (the answer of the game
        as it is now is kept, and no thread holds the game), else None: what the event
        loop may answer at once."""
        if not self.lock.acquire(blocking=False):
            return None
        try:
            kept = self._kept
            if kept is None or kept[0] != self.version or kept[1] is not self.hint:
                return None
            return self.to_json_bytes()
        finally:
            self.lock.release()

    def answer(self) -> dict:
        """The answer of this version of the game (subclasses)."""
        raise NotImplementedError

    def live(self, out: dict) -> dict:
        """`out` with what changes without a new version of the game."""
        return out

    def viewer(self):
        return None

    def hint_seat(self, st=None) -> int:
        """The seat a hint is for now (in `st`: a point looked back at), or WebError
        saying why there is none."""
        st = self.state if st is None else st
        if st.is_terminal():
            raise WebError("hint: the game is over", 409)
        if st.is_chance_node():
            raise WebError("hint: a chance event comes first (enter what was drawn)", 409)
        return st.current_player()

    def can_hint(self) -> bool:
        """May the viewer ask for a hint now (the page's Hint button)?"""
        try:
            self.hint_seat()
        except WebError:
            return False
        return True

    def search_state(self):
        return self.state.clone()

    def live_index(self) -> int:
        """The point of the game now: the number of its decisions (a review: the one shown)."""
        return len(self.history_words())

    def hint_point(self, index=None, line=None) -> dict:
        """What a hint at a point searches: the game now (`index` None), the position after
        `index` decisions, or a variation's `line` from there, from what the viewer knew
        there (a world it cannot tell from the real one) and only for its own decisions.
        {"index", "line", "seat", "state", "live", "board": what draws it (state, viewer,
        interactive, last steps)}; WebError saying why not."""
        live = self.live_index()
        line = [] if line is None else line
        if index is None:
            if line:
                raise WebError("index: a line is tried from a point: give its index too")
            index = live
        total = len(self.history_words())
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= total:
            raise WebError(f"index: must be a whole number from 0 to {total}, "
                           f"got {quoted(index)}")
        if isinstance(line, bool) or not isinstance(line, list):
            raise WebError(f"line: a list of decision ids, got {quoted(line)}")
        if index == live and not line:
            seat = self.hint_seat()
            return {"index": index, "line": [], "seat": seat, "state": self.search_state(),
                    "live": True, "board": None}
        return self._point(index, line)

    def can_vary(self, state) -> bool:
        """May the viewer try another line from `state` (it decides there)?"""
        from mcts.play.variations import VariationError, variation_seat
        try:
            variation_seat(state, self.viewer())
        except VariationError:
            return False
        return True

    def can_vary_at(self, index: int) -> bool:
        """May the viewer try another line after the first `index` decisions?"""
        with self.lock:
            try:
                return self.can_vary(self.state_at(index))
            except WebError:                # a game without variations
                return False

    def can_hint_at(self, index, line=None) -> bool:
        """May the viewer ask for a hint at that point (the page's Hint button there)?"""
        try:
            self.hint_point(index, line)
        except WebError:
            return False
        return True

    def _point(self, index: int, line: list) -> dict:
        """A point other than the game now: looked back at, or a variation from it."""
        from mcts.play.variations import VariationError, play_variation
        with self.lock:
            real = self.state_at(index)
            viewer = self.viewer()
        if not line:
            seat = self.hint_seat(real)
            world = real if viewer is None else real.resample_from_infostate(seat, index)
            return {"index": index, "line": [], "seat": seat, "state": world, "live": False,
                    "board": (real, viewer, False, self.last_steps(index))}
        try:
            v = play_variation(real, viewer, line, seed=index)
        except VariationError as exc:
            raise WebError(str(exc), 409 if exc.conflict else 400) from None
        if v.ask or v.ended:
            raise WebError(f"hint: the variation asks what was drawn or has ended "
                           f"({v.ended or 'what was drawn comes first'})", 409)
        seat = self.hint_seat(v.state)
        return {"index": index, "line": list(line), "seat": seat, "state": v.state,
                "live": False, "board": (v.state, viewer, True, v.steps[-40:])}

    def options(self) -> list[dict]:
        return []

    def base_json(self) -> dict:
        st = self.state
        mover = st.current_player()
        viewer = self.viewer()
        out = {
            "id": self.id, "mode": self.mode, "version": self.version,
            "players": st.num_players(), "variant": st.game.variant,
            "viewer": None if viewer is None else SEATS[viewer],
            "to_move": seat_name(mover), "terminal": st.is_terminal(),
            "round": min(st.round() + 1, NUM_ROUNDS),
            "scores": dict(zip(SEATS, st.scores())),
            "winners": [SEATS[p] for p in st.winners()] if st.is_terminal() else [],
        }
        highlight = ranked = None
        if self.hint is not None and self.hint["version"] == self.version:
            out["hint"] = self.hint["result"]
            highlight = self.hint["highlight"]
            ranked = self.hint.get("ranked")
        else:
            out["hint"] = None
        out["options"] = self.options()
        out["can_hint"] = self.can_hint()
        out["can_vary"] = self.can_vary(st)
        out["svg"] = draw(st, viewer, highlight, bool(out["options"]), self.last_steps(),
                          ranked)
        return out

    def last_steps(self, upto: int | None = None) -> list:
        """(state before, decision) pairs of the turns since the viewer's last decision up
        to decision `upto` (ulm.decisions.since_viewer), for the last-move marks (the
        picture leaves out what the viewer cannot see)."""
        return []

    def board_at(self, index) -> dict:
        """The board after the first `index` entries of the history, through the viewer's
        eyes (looking back; the game itself is not changed)."""
        raise WebError("index: this game cannot be looked back through", 409)

    def state_at(self, index: int):
        """The state after the first `index` entries of the history (a full state)."""
        raise WebError("variation: this game has no variations", 409)

    def explore(self, index, line) -> dict:
        """A variation (mcts.play.variations): the position after `index` decisions of the
        game, then the decisions of `line` instead of what was played, through the
        viewer's eyes; where it asks what was drawn, the possible answers are its
        `options`. The game itself is not changed."""
        total = len(self.history_words())
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= total:
            raise WebError(f"index: must be a whole number from 0 to {total}, "
                           f"got {quoted(index)}")
        with self.lock:
            real = self.state_at(index)
            viewer = self.viewer()
        from mcts.play.variations import VariationError, play_variation
        try:
            v = play_variation(real, viewer, line, seed=index)
        except VariationError as exc:
            raise WebError(str(exc), 409 if exc.conflict else 400) from None
        out = {"index": index, "line": list(line), "names": v.names, "seat": SEATS[v.seat],
               "ended": v.ended, "ask": None}
        if v.ask:                   # asked, as Follow asks: the board before the draw
            return dict(out, ask=f"which coats did {SEATS[v.seat]} draw?",
                        options=[{"decision": w, "name": w, "target": None} for w in v.ask],
                        svg=draw(v.steps[-1][0], viewer, None, False, v.steps[-41:-1]))
        options = [_option(v.state, a) for a in v.options]
        return dict(out, options=options,
                    svg=draw(v.state, viewer, None, bool(options), v.steps[-40:]))

    def history_words(self) -> list:
        return []


def history(record, viewer) -> list[dict]:
    """The decisions of a record in the words `viewer` may read, each with the chance
    events after it (ulm.decisions.record_events: an opponent's hidden keep is said by its
    discards, a card it drew unseen as "Blue drew a card")."""
    from ulm.decisions import record_events
    return [{"index": k, "seat": SEATS[e["seat"]], "name": e["words"], "chance": e["chance"]}
            for k, e in enumerate(record_events(record, viewer))]


def record_board(record, upto: int, viewer) -> dict:
    """The board of a record after `upto` decisions, seen by `viewer`, the turns since
    its last decision marked."""
    from ulm.decisions import record_steps, since_viewer
    if isinstance(upto, bool) or not isinstance(upto, int) \
            or not 0 <= upto <= len(record.decisions):
        raise WebError(f"index: must be a whole number from 0 to {len(record.decisions)}, "
                       f"got {quoted(upto)}")
    steps = record_steps(record, upto)
    state = record.game.new_game(record.seed)
    for action in record.decisions[:upto]:
        state.apply_action(action)
        state.resolve_chance()
    return {"index": upto, "total": len(record.decisions),
            "svg": draw(state, viewer, None, False, since_viewer(steps, viewer))}


def draw(state, viewer, highlight, interactive, last=None, ranked=None) -> str:
    from ulm.picture import board_svg
    try:
        return board_svg(state, viewer=viewer, highlight=highlight or None,
                         interactive=interactive, last=last or None, ranked=ranked or None)
    except Exception:  # e.g. a set-up still being entered: show the text picture instead
        from xml.sax.saxutils import escape

        from ulm.render import render_state
        lines = render_state(state, viewer).splitlines()
        rows = "".join(f'<text x="16" y="{24 + 17 * k}">{escape(line)}</text>'
                       for k, line in enumerate(lines))
        return (f'<svg xmlns="http://www.w3.org/2000/svg" class="text-board" width="1300" '
                f'height="{40 + 17 * len(lines)}" viewBox="0 0 1300 {40 + 17 * len(lines)}" '
                f'font-family="DejaVu Sans Mono, monospace" font-size="14" '
                f'xml:space="preserve">{rows}</svg>')


def target_of(state, action):
    from ulm.picture import action_target
    return action_target(state, action)


def _option(state, action, name=None) -> dict:
    return {"decision": action, "name": name or label(action),
            "target": target_of(state, action)}


def _find_decision(value, options: list[dict], field: str = "decision") -> dict:
    """The offered option named by `value` (an action id, its name, or 'hidden')."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise WebError(f"{field}: expected an action id or name, got {quoted(value)}")
    for opt in options:
        if value == opt["decision"] or (isinstance(value, str) and value.strip().lower() in (
                opt["name"].lower(), str(opt["decision"]).lower(),
                ACTION_NAMES[opt["decision"]].lower() if isinstance(opt["decision"], int)
                else "")):
            return opt
    if not options:
        raise WebError(f"{field}: no decision is open to you now", 409)
    shown = ", ".join(o["name"] for o in options[:12]) + (" ..." if len(options) > 12 else "")
    what = (ACTION_NAMES[value] if isinstance(value, int) and 0 <= value < len(ACTION_NAMES)
            else value)
    raise WebError(f"{field}: {quoted(what)} is not legal here (legal: {shown})")


class PlayGame(WebGame):
    """A game against bots (or between people at one screen), on mcts.play.session.PlaySession:
    the server holds the full state; each person sees only their own view."""
    mode = "play"

    def __init__(self, server, specs: list, variant: str, seed: int | None):
        """`seed` None: the server deals with a secret seed (shown when the game is over)."""
        from mcts.play.session import HUMAN, PlaySession as Table
        super().__init__(server)
        self.specs = specs              # per seat: "human" or a bot spec
        self.table = Table(specs, seed=seed, variant=variant)
        self.human = [s == HUMAN for s in specs]
        self.thinking = None            # {"seat", "spec", "since"} while a bot thinks
        self.runner = None
        self.stopped = False            # the server is closing: no more bot decisions
        self.last_human = next((p for p, h in enumerate(self.human) if h), None)
        self.chances: dict[int, dict] = {}  # point -> a person's chance there (their graph)

    @property
    def state(self):
        return self.table.state

    def viewer(self):
        if self.last_human is None:
            return None                 # bots only: everything is shown
        mover = self.state.current_player()
        if mover >= 0 and self.human[mover]:
            self.last_human = mover     # people at one screen: the one to move
        return self.last_human

    def options(self):
        if not self.table.human_to_move():
            return []
        st = self.state
        return [_option(st, a) for a in st.legal_actions()]

    def hint_seat(self, st=None) -> int:
        seat = super().hint_seat(st)
        if not self.human[seat]:         # a bot's knowledge is not the person's (R-INFO-4)
            raise WebError(f"hint: it is {SEATS[seat]}'s turn ({self.specs[seat]}); hints are "
                           "for a person's own decisions", 409)
        viewer = self.viewer()
        if st is not None and viewer is not None and seat != viewer:
            raise WebError(f"hint: it is {SEATS[seat]}'s decision there; hints are for "
                           f"{SEATS[viewer]}'s own decisions", 409)
        return seat

    def decide(self, value):
        with self.lock:
            opt = _find_decision(value, self.options())
            mover = self.state.current_player()
            self.keep_hint()
            self.table.play(opt["decision"])
            self.changed()
            self.follow_hint(opt["decision"], mover)
        self.start_bots()

    def undo(self):
        with self.lock:
            if self.table.undo() is None:
                raise WebError("undo: no decision of a human player to take back", 409)
            self.thinking = None
            self.changed()
            self.chances_shown()            # the chances after it go with it
        self.start_bots()

    def start_bots(self):
        """Let the bots move, in a thread, until a person is to move or the game ends."""
        with self.lock:
            if self.stopped or (self.runner is not None and self.runner.is_alive()):
                return
            mover = self.state.current_player()
            if mover < 0 or self.human[mover]:
                return
            self.thinking = {"seat": SEATS[mover], "spec": self.specs[mover],
                             "since": time.monotonic()}
            self.runner = threading.Thread(target=self._run_bots, daemon=True,
                                           name=f"bots-{self.id}")
            self.runner.start()

    def _run_bots(self):
        while True:
            with self.lock:
                mover = self.state.current_player()
                if mover < 0 or self.human[mover] or self.stopped:
                    self.thinking = None
                    if mover < 0 or self.stopped:   # an engine's program ends with its game
                        for seated in self.table.bots:
                            getattr(seated, "close", lambda: None)()
                    return
                version = self.version
                world = self.state.clone()
                bot = self.table.bots[mover]
                self.thinking = {"seat": SEATS[mover], "spec": self.specs[mover],
                                 "since": time.monotonic(), "queued": False}

            def check(done=0, elapsed=0.0, version=version):
                """Called by the search about every 0.1 s: stop when the game is dropped or
                undone meanwhile (its decision would be thrown away); `version` is
                this decision's, bound when it is asked for."""
                if self.stopped or self.version != version:
                    raise Cancelled()
            # outside the lock: the page stays served. The decision is made and played in
            # one of the server's bot slots, so that the bots of many games take turns
            # (a few threads at work, not one a game, leave the event loop its share)
            try:
                with self.server.bot_slot(check, self.thinking):
                    bot.progress = check
                    action = bot.choose(world)
                    with self.lock:
                        if self.version == version:     # not undone meanwhile
                            self.table.record.apply(action)
                            self.changed()
            except Cancelled:
                continue                        # undone (look again) or stopped (ends above)
            except Exception as exc:  # shown on the page; the game stays usable (undo)
                with self.lock:
                    self.thinking = {"seat": SEATS[mover], "spec": self.specs[mover],
                                     "error": f"the bot failed: {exc}"}
                return

    def chance_seen(self, version: int, chance: dict) -> None:
        """A person's chance at a point of the game now (its `version`), for their graph."""
        with self.lock:
            if self.version == version:
                self.chances[chance["index"]] = chance

    def chances_shown(self) -> list[dict]:
        """The viewer's chances at the points of the game as it is now (those after a
        decision taken back are gone)."""
        n, viewer = len(self.table.record.decisions), self.viewer()
        self.chances = {k: c for k, c in self.chances.items() if k <= n}
        return [c for k, c in sorted(self.chances.items())
                if viewer is not None and c["seat"] == SEATS[viewer]]

    def answer(self):
        out = self.base_json()
        out["seats"] = [{"seat": SEATS[p], "kind": "human" if h else "bot",
                         "spec": None if h else self.specs[p]}
                        for p, h in enumerate(self.human)]
        rec = self.table.record
        # the seed deals every card: the server's secret while the game is played,
        # unless the person chose it (then anyone with it knows the cards)
        out["seed"] = self.table.shown_seed()
        out["seed_chosen"] = not self.table.secret_seed
        out["history"] = history(rec, self.viewer())
        out["can_undo"] = self.table.can_undo()
        return out

    def live(self, out):
        out["chances"] = self.chances_shown()       # a chance searched arrives at any time
        think = self.thinking
        out["thinking"] = None if think is None else dict(
            think, seconds=round(time.monotonic() - think.get("since", time.monotonic()), 1))
        return out

    def saved(self):
        rec = self.table.record
        summary = {"players": len(self.specs), "seats": list(self.specs),
                   "variant": rec.game.variant, "decisions": len(rec.decisions),
                   "over": self.state.is_terminal()}
        return summary, {"record": rec.to_dict(), "secret_seed": self.table.secret_seed}

    def last_steps(self, upto=None):
        from ulm.decisions import record_steps, since_viewer
        return since_viewer(record_steps(self.table.record, upto), self.viewer())

    def board_at(self, index):
        with self.lock:
            return record_board(self.table.record, index, self.viewer())

    def history_words(self):
        return self.table.record.decisions

    def state_at(self, index):
        return replay(self.table.record.to_dict(), index).state

    def take_back(self, index):
        """Take back decisions until at most `index` are left (stopping at a decision of a
        person: a bot to move moves again)."""
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            raise WebError(f"index: must be a whole number, got {quoted(index)}")
        with self.lock:
            if index >= len(self.table.record.decisions):
                raise WebError("index: nothing to take back after that decision", 409)
            while len(self.table.record.decisions) > index:
                if self.table.undo() is None:
                    break
            self.thinking = None
            self.changed()
            self.chances_shown()            # the chances after it go with it
        self.start_bots()

    def export(self):
        with self.lock:
            if not self.state.is_terminal() and self.viewer() is not None:
                # a record names every decision (a bot's keep too) and replays every card
                raise WebError("download: the record shows every seat's hidden cards; it "
                               "can be saved when the game is over", 409)
            return "record", self.table.record.to_dict()


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
                out.append(_option(st, decision, words))
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
                opt = _find_decision(value, self.options())
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
                    "svg": draw(self.stack[index], self.seat, None, False,
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


def json_bytes(data: dict) -> bytes:
    """JSON text as Starlette's JSONResponse writes it."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False, indent=None,
                      separators=(",", ":")).encode("utf-8")


def state_to_position_checked(state, seat):
    """The view file of `state`; WebError while the set-up is still being entered."""
    data = state_to_position(state, seat)
    try:
        position_to_state(data, "view")
    except PositionError:
        raise WebError("save: the position cannot be saved until the set-up is complete "
                       "(enter the remaining set-up draws)", 409) from None
    return data


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
        out["history"] = history(self.full, self.seat)
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
            return record_board(self.full, index, self.seat)

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


