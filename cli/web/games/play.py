"""Playing against bots (or between people at one screen) on `ulm serve`."""
from __future__ import annotations

import threading
import time

from ulm import SEATS
from ulm.records import replay

from cli.web.checks import WebError, quoted
from cli.web.jobs import Cancelled
from cli.web.games import boards
from cli.web.games.base import WebGame, find_decision, offered_option


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
        return [offered_option(st, a) for a in st.legal_actions()]

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
            opt = find_decision(value, self.options())
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
            self._taken_back()
        self.start_bots()

    def _taken_back(self) -> None:
        """After decisions were taken back: no bot is thinking, a new version of the game."""
        self.thinking = None
        self.changed()
        self.chances_shown()                # the chances after them go with them

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
        out["history"] = boards.history(rec, self.viewer())
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
            return boards.record_board(self.table.record, index, self.viewer())

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
            self._taken_back()
        self.start_bots()

    def export(self):
        with self.lock:
            if not self.state.is_terminal() and self.viewer() is not None:
                # a record names every decision (a bot's keep too) and replays every card
                raise WebError("download: the record shows every seat's hidden cards; it "
                               "can be saved when the game is over", 409)
            return "record", self.table.record.to_dict()
