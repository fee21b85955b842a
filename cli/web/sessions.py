"""The games of `ulm serve`: play, follow a real game, review a record.

Everything here is plain library code (no HTTP): the server (cli.web.app)
turns a `WebError` into a 4xx answer with its message. A session holds the
state on the server; the page only ever sends decisions by id or name and
gets back the whole picture (`WebGame.to_json`).

Bots and searches run in threads: the compiled search releases the GIL, so
the event loop stays responsive. A bot decision found for a state that has
changed meanwhile (an undo) is thrown away.
"""
from __future__ import annotations

import contextlib
import os
import re
import secrets
import threading
import time

import ulm
from ulm import ACTION_NAMES, SEATS
from ulm.game import VARIANTS, Game
from ulm.positions import PositionError, position_to_state, state_to_position
from ulm.records import GameRecord, RecordError, replay

from mcts import make_bot, search

# Limits of one server (settable per server; see create_app).
MAX_SECONDS = 30.0          # longest search of one hint, one annotated decision or one bot move
MAX_ITERATIONS = 500_000    # iteration budget of a bot spec
MAX_GAMES = 200             # games kept in memory; the least recently used go first
MAX_RUNNING_JOBS = 2        # searches at once (hints, annotations)
# bots searching at once, all games together (the others wait their turn): half the
# machine's CPUs, so that bots of many games cannot starve a hint
MAX_BOT_SEARCHES = max(1, (os.cpu_count() or 1) // 2)


QUOTE_LIMIT = 60            # characters of the user's input quoted back in an error message
MESSAGE_LIMIT = 1000        # characters of an error message


def quoted(value, limit: int = QUOTE_LIMIT) -> str:
    """`value` as an error message quotes it (repr), cut to `limit` characters with an
    ellipsis: an answer never echoes a whole upload back."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


# a quoted string inside a message (the library's messages quote with repr): an
# opening quote not inside a word (Red's) up to the same quote not followed by one
_QUOTED = re.compile(r"""(?<![\w'"])(['"])(?:\\.|(?!\1).)*?\1(?![\w'"])""", re.S)


def capped(message: str, limit: int = QUOTE_LIMIT) -> str:
    """`message` with every quoted string in it cut to `limit` characters as `quoted`
    cuts it (messages of the library quote what they were given), and at most
    MESSAGE_LIMIT characters in all."""
    def cut(m):
        whole = m.group(0)
        return whole if len(whole) <= limit else whole[:limit - 1] + "…"
    message = _QUOTED.sub(cut, message)
    return message if len(message) <= MESSAGE_LIMIT else message[:MESSAGE_LIMIT - 1] + "…"


class WebError(ValueError):
    """A request that cannot be served; `status` is the HTTP status (4xx)."""
    status = 400

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        if status is not None:
            self.status = status


def _seat_name(p: int) -> str:
    return SEATS[p] if p >= 0 else ("chance" if p == -1 else "nobody")


def parse_seat(value, players: int, field: str) -> int:
    """A seat by colour name or number (ulm.parse_seat); WebError naming `field` otherwise."""
    try:
        return ulm.parse_seat(value, players)
    except ValueError as exc:
        raise WebError(f"{field}: {exc}") from None


def check_seconds(value, limit: float, field: str = "seconds") -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 \
            or value != value:
        raise WebError(f"{field}: must be a positive number of seconds, got {quoted(value)}")
    if value > limit:
        raise WebError(f"{field}: at most {limit:g} seconds on this server, got {quoted(value)}")
    return float(value)


def check_bot(spec, limit_seconds: float, field: str):
    """A bot from its spec, with make_bot's messages, and a budget this server allows."""
    if not isinstance(spec, str):
        raise WebError(f"{field}: a bot spec must be a string like 'ismcts:iterations=2000', "
                       f"got {quoted(spec)}")
    try:
        bot = make_bot(spec)
    except ValueError as exc:
        raise WebError(f"{field}: {exc}") from None
    cfg = bot.config
    if cfg.get("time") is not None and cfg["time"] > limit_seconds:
        raise WebError(f"{field}: bot spec {quoted(spec)}: time must be at most "
                       f"{limit_seconds:g} s on this server")
    work = (cfg.get("iterations") or 0) * cfg.get("determinizations", 1)
    if work > MAX_ITERATIONS:
        raise WebError(f"{field}: bot spec {quoted(spec)}: at most {MAX_ITERATIONS:,} "
                       "iterations per decision on this server")
    if cfg.get("workers", 1) > (os.cpu_count() or 1):
        raise WebError(f"{field}: bot spec {quoted(spec)}: at most {os.cpu_count() or 1} "
                       "workers on this machine")
    return bot


def label(action: int) -> str:
    """A decision in players' words ("lay Siege in front (end-game points)")."""
    from ulm.decisions import decision_label

    from mcts import action_name
    return decision_label(action) if 0 <= action < len(ACTION_NAMES) else action_name(action)


# ---------------------------------------------------------------------------
# Jobs: hints and annotations off the event loop

class Cancelled(Exception):
    """Raised inside a search's progress callback to stop it."""


class Job:
    """A search running in a thread, with progress, a result and a cancel switch."""

    def __init__(self, kind: str, game_id: str, budget: float):
        self.id = secrets.token_urlsafe(9)
        self.kind = kind
        self.game_id = game_id
        self.budget = budget            # total seconds this job may take
        self.status = "running"         # running, done, cancelled, failed
        self.done = 0.0                 # fraction 0..1
        self.iterations = 0
        self.started = time.monotonic()
        self.result = None
        self.error = None
        self.cancel_event = threading.Event()
        self.thread = None
        self.partial = None             # the estimate so far (a hint's advice while it runs)
        self.seq = 0                    # bumped at every change (the event stream's cue)
        self.finished_at = None

    def progress(self, fraction: float, iterations: int = 0) -> None:
        if self.cancel_event.is_set():
            raise Cancelled()
        self.done = max(0.0, min(1.0, fraction))
        self.iterations = iterations
        self.seq += 1

    def to_json(self) -> dict:
        return {"id": self.id, "kind": self.kind, "game": self.game_id, "status": self.status,
                "progress": round(self.done, 3), "iterations": self.iterations,
                "elapsed": round(time.monotonic() - self.started, 2),
                "budget": self.budget, "result": self.result, "error": self.error,
                "partial": self.partial if self.status == "running" else None}


# ---------------------------------------------------------------------------
# Sessions

class WebGame:
    mode = "?"

    def __init__(self, server: "Server"):
        self.server = server
        self.id = secrets.token_urlsafe(9)
        self.lock = threading.RLock()
        self.version = 0
        self.touched = time.monotonic()
        self.hint = None                # {"version", "seat", "result", "highlight"}

    stopped = False                 # dropped by the server: its bots stop searching

    def stop(self) -> None:
        """Stop this game's bots (their search ends within about 0.1 s)."""
        with self.lock:
            self.stopped = True

    # subclasses: state, viewer, options(), decide(), undo(), history, export()
    def changed(self) -> None:
        self.version += 1
        self.hint = None
        self.server.persist(self)

    def saved(self) -> tuple[dict, dict]:
        """(summary for the list of games, what rebuilds the game: Server.restore)."""
        raise NotImplementedError

    def follow_hint(self, action, mover: int) -> None:
        """After changed(): the decision just made was the hint's next step and the same
        seat is still to move: the rest of the hint's line stays, step by step (the
        alternatives were for the step taken and go)."""
        old = getattr(self, "_hint_before", None)
        self._hint_before = None
        if old is None or not old["result"].get("line") or action is None:
            return
        line = old["result"]["line"]
        if line[0]["action"] != action or line[0].get("chance_after") or len(line) < 2 \
                or self.state.current_player() != mover:
            return
        rest = dict(old["result"], line=line[1:], alternatives=[], best=line[1]["name"],
                    step=old["result"].get("step", 1) + 1)
        self.hint = {"version": self.version, "result": rest,
                     "highlight": [s["action"] for s in line[1:]], "ranked": None}

    def keep_hint(self) -> None:
        """Before a decision: remember the hint shown (follow_hint looks at it)."""
        self._hint_before = self.hint if (self.hint is not None
                                           and self.hint["version"] == self.version) else None

    @property
    def state(self):
        raise NotImplementedError

    def viewer(self):
        return None

    def hint_seat(self) -> int:
        """The seat a hint is for now, or WebError saying why there is none."""
        st = self.state
        if st.is_terminal():
            raise WebError("hint: the game is over", 409)
        if st.is_chance_node():
            raise WebError("hint: a chance event comes first (enter what was drawn)", 409)
        return st.current_player()

    def search_state(self):
        return self.state.clone()

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
            "to_move": _seat_name(mover), "terminal": st.is_terminal(),
            "round": min(st.raw()["round"] + 1, 10),
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
        out["svg"] = draw(st, viewer, highlight, bool(out["options"]), self.last_steps(),
                          ranked)
        return out

    def last_steps(self, upto: int | None = None) -> list:
        """(state before, decision) pairs of the last turn up to decision `upto`, for the
        last-move marks (the picture leaves out what the viewer cannot see)."""
        return []

    def board_at(self, index) -> dict:
        """The board after the first `index` entries of the history, through the viewer's
        eyes (looking back; the game itself is not changed)."""
        raise WebError("index: this game cannot be looked back through", 409)

    def state_at(self, index: int):
        """The state after the first `index` entries of the history (a full state)."""
        raise WebError("variation: this game has no variations", 409)

    def explore(self, index, line) -> dict:
        """A variation: the position after `index` decisions of the game, then the
        decisions of `line` (ids) instead of what was played, in a world the viewer cannot
        tell from the real one (nothing hidden from the viewer is used). A variation is a
        turn of the player to move there: it ends at a chance event or when another seat
        is to move. The game itself is not changed."""
        if isinstance(line, bool) or not isinstance(line, list) or len(line) > 60:
            raise WebError("line: a list of at most 60 decision ids")
        total = len(self.history_words())
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= total:
            raise WebError(f"index: must be a whole number from 0 to {total}, "
                           f"got {quoted(index)}")
        with self.lock:
            real = self.state_at(index)
            viewer = self.viewer()
        mover = real.current_player()
        if mover < 0 or real.is_terminal():
            raise WebError("variation: nobody decides here (a chance event or the end)", 409)
        if viewer is not None and mover != viewer:
            raise WebError(f"variation: it is {SEATS[mover]}'s decision here; variations are "
                           f"for {SEATS[viewer]}'s own decisions", 409)
        world = real if viewer is None else real.resample_from_infostate(viewer, index)
        names, steps, stop = [], [], None
        for k, action in enumerate(line):
            if world.current_player() != mover or world.is_chance_node() \
                    or world.is_terminal():
                raise WebError(f"line[{k}]: the variation ended before it", 409)
            if isinstance(action, bool) or not isinstance(action, int):
                raise WebError(f"line[{k}]: must be a decision id (a whole number)")
            if action not in world.legal_actions():
                raise WebError(f"line[{k}]: decision {action} is not legal there")
            steps.append((world.clone(), action))
            names.append(label(action))
            world.apply_action(action)
        if world.is_terminal():
            stop = "the game ends"
        elif world.is_chance_node():
            stop = "a chance event follows"
        elif world.current_player() != mover:
            stop = f"{SEATS[world.current_player()]} is to move"
        options = [] if stop else [_option(world, a) for a in world.legal_actions()]
        return {"index": index, "line": list(line), "names": names, "seat": SEATS[mover],
                "ended": stop, "options": options,
                "svg": draw(world, viewer, None, bool(options), steps[-40:])}

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
    """The board of a record after `upto` decisions, seen by `viewer`, its last turn
    marked."""
    from ulm.decisions import last_turn, record_steps
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
            "svg": draw(state, viewer, None, False, last_turn(steps))}


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
    """A game against bots (or between people at one screen), on mcts.session.PlaySession:
    the server holds the full state; each person sees only their own view."""
    mode = "play"

    def __init__(self, server, specs: list, variant: str, seed: int):
        from mcts.session import HUMAN, PlaySession as Table
        super().__init__(server)
        self.specs = specs              # per seat: "human" or a bot spec
        self.table = Table(specs, seed=seed, variant=variant)
        self.human = [s == HUMAN for s in specs]
        self.movers: list[int] = []     # who made each decision of the record
        self.thinking = None            # {"seat", "spec", "since"} while a bot thinks
        self.runner = None
        self.stopped = False            # the server is closing: no more bot decisions
        self.last_human = next((p for p, h in enumerate(self.human) if h), None)

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

    def hint_seat(self) -> int:
        seat = super().hint_seat()
        if not self.human[seat]:         # a bot's knowledge is not the person's (R-INFO-4)
            raise WebError(f"hint: it is {SEATS[seat]}'s turn ({self.specs[seat]}); hints are "
                           "for a person's own decisions", 409)
        return seat

    def decide(self, value):
        with self.lock:
            opt = _find_decision(value, self.options())
            mover = self.state.current_player()
            self.movers.append(mover)
            self.keep_hint()
            self.table.play(opt["decision"])
            self.changed()
            self.follow_hint(opt["decision"], mover)
        self.start_bots()

    def undo(self):
        with self.lock:
            if self.table.undo() is None:
                raise WebError("undo: no decision of a human player to take back", 409)
            del self.movers[len(self.table.record.decisions):]
            self.thinking = None
            self.changed()
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
                    return
                version = self.version
                world = self.state.clone()
                bot = self.table.bots[mover]
                self.thinking = {"seat": SEATS[mover], "spec": self.specs[mover],
                                 "since": time.monotonic(), "queued": False}

            def check(done=0, elapsed=0.0):
                """Called by the search about every 0.1 s: stop when the game is dropped or
                undone meanwhile (its decision would be thrown away)."""
                if self.stopped or self.version != version:
                    raise Cancelled()
            try:
                # outside the lock: the page stays served; one of the server's bot slots
                with self.server.bot_slot(check, self.thinking):
                    bot.progress = check
                    action = bot.choose(world)
            except Cancelled:
                continue                        # undone (look again) or stopped (ends above)
            except Exception as exc:  # shown on the page; the game stays usable (undo)
                with self.lock:
                    self.thinking = {"seat": SEATS[mover], "spec": self.specs[mover],
                                     "error": f"the bot failed: {exc}"}
                return
            with self.lock:
                if self.version == version:     # not undone meanwhile
                    self.table.record.apply(action)
                    self.movers.append(mover)
                    self.changed()

    def to_json(self):
        with self.lock:
            out = self.base_json()
            out["seats"] = [{"seat": SEATS[p], "kind": "human" if h else "bot",
                             "spec": None if h else self.specs[p]}
                            for p, h in enumerate(self.human)]
            think = self.thinking
            out["thinking"] = None if think is None else dict(
                think, seconds=round(time.monotonic() - think.get("since", time.monotonic()), 1))
            rec = self.table.record
            out["seed"] = rec.seed
            out["history"] = history(rec, self.viewer())
            out["can_undo"] = self.table.can_undo()
            return out

    def saved(self):
        rec = self.table.record
        summary = {"players": len(self.specs), "seats": list(self.specs),
                   "variant": rec.game.variant, "decisions": len(rec.decisions),
                   "over": self.state.is_terminal()}
        return summary, {"record": rec.to_dict()}

    def last_steps(self, upto=None):
        from ulm.decisions import last_turn, record_steps
        rec = self.table.record
        return last_turn(record_steps(rec, upto)[-40:])

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
            del self.movers[len(self.table.record.decisions):]
            self.thinking = None
            self.changed()
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
        from ulm.follow import keep_is_hidden
        st = self.state
        mover = st.current_player()
        if keep_is_hidden(st, self.seat):       # no card named: an example is not knowledge
            gone = " and ".join(["<card>"] * (st.raw()["n_looked_cards"] - 1))
            return (f"{SEATS[mover]} keeps one of the cards looked at: type what "
                    f"{SEATS[mover]} discarded: \"kept a card, discarded {gone}\"")
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
            self.events.append({"seat": _seat_name(mover), "name": name})
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

    def hint_seat(self):
        seat = super().hint_seat()
        if seat != self.seat:
            raise WebError(f"hint: it is {SEATS[seat]}'s turn; hints are for "
                           f"{SEATS[self.seat]} (the view's player)", 409)
        return seat

    def to_json(self):
        with self.lock:
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
        from ulm.decisions import last_turn
        upto = len(self.events) if upto is None else upto
        return last_turn([(st, a) for st, a in zip(self.stack[:upto], self.actions[:upto])
                          if a is not None][-40:])

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
        self.movers = []
        rec = GameRecord(full.game.num_players, full.game.variant, full.seed)
        for a in full.decisions:
            self.movers.append(rec.state.current_player())
            rec.apply(a)
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

    def hint_seat(self) -> int:
        seat = super().hint_seat()
        if self.seat is not None and seat != self.seat:   # its advice names what it sees
            raise WebError(f"hint: it is {SEATS[seat]}'s turn; seen by {SEATS[self.seat]}, "
                           f"hints are for {SEATS[self.seat]}", 409)
        return seat

    def options(self):
        return []

    def undo(self):
        if self.index == 0:
            raise WebError("undo: already at the start of the record", 409)
        self.goto(self.index - 1)

    def decide(self, value):
        raise WebError("decision: a record under review cannot be changed; "
                       "step through it instead", 409)

    def to_json(self):
        with self.lock:
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
        from ulm.decisions import last_turn, record_steps
        return last_turn(record_steps(self.full, self.index)[-40:])

    def board_at(self, index):
        with self.lock:
            return record_board(self.full, index, self.seat)

    def history_words(self):
        return self.decisions

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


# ---------------------------------------------------------------------------
# The server's registry of games and jobs

class Server:
    """Games and jobs of one running server, with its limits."""

    store = None                        # cli.web.store.Store: the games kept on disk
    restoring = False

    def __init__(self, max_seconds: float = MAX_SECONDS, max_games: int = MAX_GAMES,
                 max_jobs: int = MAX_RUNNING_JOBS, max_bots: int = MAX_BOT_SEARCHES):
        self.max_seconds = max_seconds
        self.max_games = max_games
        self.max_jobs = max_jobs
        self.max_bots = max_bots
        self.games: dict[str, WebGame] = {}
        self.jobs: dict[str, Job] = {}
        self.lock = threading.Lock()
        self.closing = False            # the server is stopping: event streams end
        self.bot_slots = threading.BoundedSemaphore(max_bots)
        self.bots_searching = 0         # bot searches running now
        self.most_bots_searching = 0    # the most seen at once

    @contextlib.contextmanager
    def bot_slot(self, check, thinking: dict | None = None):
        """Hold one of the `max_bots` slots of a bot search, waiting for one if need be;
        check() is called while waiting (raising in it gives up)."""
        if thinking is not None:
            thinking["queued"] = True
        while not self.bot_slots.acquire(timeout=0.1):
            check()
        try:
            if thinking is not None:
                thinking.update(queued=False, since=time.monotonic())
            with self.lock:
                self.bots_searching += 1
                self.most_bots_searching = max(self.most_bots_searching, self.bots_searching)
            yield
        finally:
            with self.lock:
                self.bots_searching -= 1
            self.bot_slots.release()

    def add(self, session: WebGame) -> WebGame:
        with self.lock:
            dropped = None
            if len(self.games) >= self.max_games:
                dropped = min(self.games.values(), key=lambda s: s.touched)
                del self.games[dropped.id]
                for job in self.jobs.values():
                    if job.game_id == dropped.id:
                        job.cancel_event.set()
            self.games[session.id] = session
        if dropped is not None:     # its bots stop searching; their thread ends
            dropped.stop()
        self.persist(session)
        return session

    def persist(self, session: WebGame) -> None:
        """Write a game to the store (after every change)."""
        if self.store is None or self.restoring:
            return
        summary, data = session.saved()
        self.store.save(session.id, session.mode, summary, data)

    def list_games(self) -> list[dict]:
        """The games kept (the store's, else those in memory), the latest change first."""
        if self.store is not None:
            return self.store.list()
        out = []
        for session in sorted(self.games.values(), key=lambda s: -s.touched):
            summary, _ = session.saved()
            out.append(dict(summary, id=session.id, mode=session.mode))
        return out

    def restore(self, game_id: str) -> WebGame | None:
        """A kept game rebuilt from the store (None when there is none by that id)."""
        found = self.store.load(game_id) if self.store is not None else None
        if found is None:
            return None
        mode, data = found
        self.restoring = True
        try:
            if mode == "play":
                from mcts.session import PlaySession as Table
                rec = replay(data["record"])
                session = PlayGame(self, list(rec.bots), rec.game.variant, rec.seed)
                session.table = Table.resume(rec)
                session.movers = []
                st = rec.game.new_game(rec.seed)
                for action in rec.decisions:
                    session.movers.append(st.current_player())
                    st.apply_action(action)
                    st.resolve_chance()
            elif mode == "follow":
                session = self.new_follow(dict(data["origin"]))
                with self.lock:
                    self.games.pop(session.id, None)
                session.origin = data["origin"]
                for entry in data["entries"]:
                    if "text" in entry:
                        session.decide(text=entry["text"])
                    else:
                        session.decide(entry["decision"])
            else:
                session = self.new_review({"record": data["record"]})
                with self.lock:
                    self.games.pop(session.id, None)
                session.goto(data.get("index", session.total), data.get("as"))
            session.id = game_id
            self.add(session)
        except (WebError, RecordError, ValueError, KeyError, TypeError):
            return None             # a game this version cannot rebuild is not offered
        finally:
            self.restoring = False
        if isinstance(session, PlayGame):
            session.start_bots()
        return session

    def game(self, game_id: str) -> WebGame:
        session = self.games.get(game_id) if isinstance(game_id, str) else None
        if session is None and isinstance(game_id, str):
            session = self.restore(game_id)
        if session is None:
            raise WebError(f"game: no game {quoted(game_id)} on this server (it may have been "
                           "closed when the server restarted)", 404)
        session.touched = time.monotonic()
        return session

    def job(self, job_id: str) -> Job:
        job = self.jobs.get(job_id)
        if job is None:
            raise WebError(f"job: no search {quoted(job_id)} on this server", 404)
        return job

    # -- creating games ---------------------------------------------------

    def new_play(self, body: dict) -> WebGame:
        seats = body.get("seats")
        if not isinstance(seats, list) or not 2 <= len(seats) <= 4:
            raise WebError("seats: Ulm is for 2, 3 or 4 players; give a list of 2-4 seats, each "
                           "'human' or a bot spec")
        for k, spec in enumerate(seats):
            if spec != "human":
                check_bot(spec, self.max_seconds, f"seats[{k}]")
        record = body.get("record")
        if record is not None:          # a saved game played on from its last decision
            rec = _checked_record(record)
            if rec.game.num_players != len(seats):
                raise WebError(f"seats: the record is a {rec.game.num_players}-player game; "
                               f"give {rec.game.num_players} seats")
            if rec.state.is_terminal():
                raise WebError("record: the game is over; nothing to play on", 409)
            from mcts.session import PlaySession as Table
            rec.bots = list(seats)
            session = PlayGame(self, list(seats), rec.game.variant, rec.seed)
            session.table = Table.resume(rec)
            st = rec.game.new_game(rec.seed)
            for action in rec.decisions:
                session.movers.append(st.current_player())
                st.apply_action(action)
                st.resolve_chance()
        else:
            session = PlayGame(self, list(seats), _variant(body), _seed(body))
        self.add(session)
        session.start_bots()
        return session

    def new_follow(self, body: dict) -> WebGame:
        view = body.get("view")
        if view is not None:
            if not isinstance(view, dict):
                raise WebError("view: must be a position file (a JSON object)")
            _no_paths(view, "view")
            try:
                state, seat = position_to_state(view, "view")
            except PositionError as exc:
                raise WebError(f"view: {exc}") from None
            if view.get("kind") != "view":
                raise WebError("view: kind: a followed game starts from one player's view "
                               "('kind': 'view'); write one with `ulm new --as SEAT`")
            session = FollowGame(self, state, seat)
            session.origin = {"view": view}
            return self.add(session)
        players = body.get("players")
        if isinstance(players, bool) or players not in (2, 3, 4):
            raise WebError(f"players: must be 2, 3 or 4, got {quoted(players)}")
        seat = parse_seat(body.get("seat"), players, "seat")
        game = Game(players=players, variant=_variant(body))
        session = FollowGame(self, game.new_initial_state(), seat)
        session.origin = {"players": players, "seat": SEATS[seat], "variant": _variant(body)}
        return self.add(session)

    def new_review(self, body: dict) -> WebGame:
        record = body.get("record")
        if not isinstance(record, dict):
            raise WebError("record: must be a game record (a JSON object with "
                           "\"format\": \"ulm-record/1\")")
        _no_paths(record, "record")
        try:
            replay(record)
        except RecordError as exc:
            raise WebError(f"record: {exc}") from None
        return self.add(ReviewGame(self, record))

    # -- searches -----------------------------------------------------------

    def start_job(self, job: Job, work) -> Job:
        with self.lock:
            running = sum(1 for j in self.jobs.values() if j.status == "running")
            if running >= self.max_jobs:
                raise WebError(f"search: {running} searches are running already; wait for one "
                               "or cancel it", 429)
            self.jobs[job.id] = job
            if len(self.jobs) > 4 * self.max_games:
                for old in [j for j in self.jobs.values() if j.status != "running"][:50]:
                    del self.jobs[old.id]

        def run():
            try:
                job.result = work(job)
                job.status = "done"
                job.done = 1.0
            except Cancelled:
                job.status = "cancelled"
            except WebError as exc:
                job.status, job.error = "failed", capped(str(exc))
            except Exception as exc:  # reported to the page, not as a traceback
                job.status, job.error = "failed", capped(f"search failed: {exc}")
            finally:
                job.finished_at = time.monotonic()
                job.seq += 1

        job.thread = threading.Thread(target=run, daemon=True, name=f"job-{job.id}")
        job.thread.start()
        return job

    def stop_searches(self) -> None:
        """The server is stopping: every search and bot is told to stop and event streams
        end (without waiting; close() waits for the threads)."""
        self.closing = True
        with self.lock:
            jobs = list(self.jobs.values())
            games = list(self.games.values())
        for job in jobs:
            job.cancel_event.set()
        for game in games:
            if isinstance(game, PlayGame):
                game.stopped = True

    def close(self, timeout: float = 60.0) -> None:
        """Stop every search and bot and wait for their threads (the server is ending:
        no thread may still run, e.g. when the process later forks)."""
        self.closing = True
        with self.lock:
            jobs = list(self.jobs.values())
            games = list(self.games.values())
        for job in jobs:
            job.cancel_event.set()
        runners = []
        for game in games:
            game.stop()
            if isinstance(game, PlayGame):
                runners.append(game.runner)
        deadline = time.monotonic() + timeout
        for thread in [j.thread for j in jobs] + runners:
            if thread is not None:
                thread.join(max(0.0, deadline - time.monotonic()))

    def hint(self, session: WebGame, seconds) -> Job:
        seconds = check_seconds(seconds, self.max_seconds)
        with session.lock:
            seat = session.hint_seat()
            state = session.search_state()
            version = session.version
        job = Job("hint", session.id, seconds)

        def work(job):
            def partial(result):
                job.partial = advice_json(result, state, seat, top=None)
                job.seq += 1
            result = run_search(state, seconds, job, seed=version, partial=partial)
            advice = advice_json(result, state, seat, top=None)
            with session.lock:
                if session.version == version:
                    session.hint = hint_entry(version, advice)
            return advice
        return self.start_job(job, work)

    def annotate(self, session: WebGame, seat, seconds) -> Job:
        """mcts.annotate over a record under review, `seconds` a decision."""
        if not isinstance(session, ReviewGame):
            raise WebError("annotate: only a record under review can be annotated", 409)
        n = session.rec.game.num_players
        seat = parse_seat(seat, n, "seat")
        per = check_seconds(seconds, self.max_seconds, "seconds")
        moves = sum(1 for p in session.movers if p == seat)
        if not moves:
            raise WebError(f"seat: {SEATS[seat]} made no decision in this record")
        # a rarely tried decision gets a second search of its own: at most twice the time
        job = Job("annotate", session.id, 2 * per * moves)
        data = session.data

        def work(job):
            from mcts.annotate import annotate
            report = annotate(data, seat, time=per,
                              progress=lambda done, total: job.progress(done / total))
            out = report.to_dict()
            out["seat"] = SEATS[seat]
            with session.lock:
                session.annotation = out
                session.annotations[out["seat"]] = out
                session.changed()
                session.show_annotation()
            return out
        return self.start_job(job, work)


def _checked_record(record) -> GameRecord:
    """An uploaded record, replayed (WebError saying what is wrong with it)."""
    if not isinstance(record, dict):
        raise WebError("record: must be a game record (a JSON object with "
                       "\"format\": \"ulm-record/1\")")
    _no_paths(record, "record")
    try:
        return replay(record)
    except RecordError as exc:
        raise WebError(f"record: {exc}") from None


def _variant(body):
    variant = body.get("variant", "basic")
    if variant not in VARIANTS:
        raise WebError(f"variant: must be 'basic' or 'advanced', got {quoted(variant)}")
    return variant


def _seed(body):
    seed = body.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 64:
        raise WebError(f"seed: must be a whole number from 0 to 2**64 - 1, got {quoted(seed)}")
    return seed


def _no_paths(data: dict, field: str):
    """Uploaded files may not name files on the server (a board table by path)."""
    if "board" in data:
        raise WebError(f"{field}: board: this server does not read files named in an upload; "
                       "use a file without 'board' (the default board table)")


# ---------------------------------------------------------------------------
# Search helpers

LIVE_SECONDS = 0.25      # a live estimate this often while a hint searches


def run_search(state, seconds: float, job: Job, seed: int = 0, partial=None):
    """One time-limited search reporting its progress to `job` (and stopped by it),
    ending `seconds` after the job started. With `partial`, the search grows one tree in
    slices of LIVE_SECONDS (mcts.search reusing its tree) and partial(result) gets the
    estimate after each slice."""
    end = job.started + seconds
    result = None
    while True:
        left = end - time.monotonic()
        if result is not None and left <= 0.002:
            return result
        base = result.iterations if result is not None else 0

        def progress(done, elapsed, base=base):
            job.progress(min((time.monotonic() - job.started) / seconds, 1.0), base + done)
        slice_ = max(left, 0.001) if partial is None else min(max(left, 0.001), LIVE_SECONDS)
        result = search(state, time=slice_, seed=seed, progress=progress,
                        tree=None if result is None else result.tree)
        result.seconds = time.monotonic() - job.started     # the whole search, not the slice
        job.progress(min((time.monotonic() - job.started) / seconds, 1.0), result.iterations)
        if partial is not None and end - time.monotonic() > 0.002:
            partial(result)


def hint_entry(version: int, advice: dict, top: int = 3) -> dict:
    """A session's hint: the advice, its principal line drawn step by step and its best
    `top` first decisions drawn numbered by rank."""
    return {"version": version, "result": advice,
            "highlight": [s["action"] for s in advice["line"]],
            "ranked": [a["action"] for a in advice["alternatives"][:top]]}


def advice_json(result, state, seat: int, top: int | None = 6) -> dict:
    line = result.principal_line()
    return {
        "seat": SEATS[seat],
        "best": label(result.best_action),
        "line": [{"action": s.action, "name": label(s.action), "share": round(s.share, 3),
                  "chance_after": s.chance_after} for s in line],
        "alternatives": [{"action": a.action, "name": label(a.action), "visits": a.visits,
                          "share": round(a.share, 3),
                          "win": round(a.win_probability[seat], 4),
                          "value": round(a.value, 4)}
                         for a in result.actions[:top]],
        "win_probability": {SEATS[p]: round(w, 4) for p, w in enumerate(result.win_probability)},
        "expected_score": {SEATS[p]: round(s, 2) for p, s in enumerate(result.expected_score)},
        "iterations": result.iterations, "seconds": round(result.seconds, 2),
    }
