"""A bot that is an engine program: `engine:NAME` seats the program registered as
NAME (`--engine NAME=COMMAND`, or a file of engines: mcts.play.engines.registry).

The bot has the interface of the shipped bots (`choose(state)`, `reseed`,
`seed`, `spec`), and the hooks of a guest that mcts.play.bot_game calls:
`begin_game` before the first decision, `observe` for every decision and chance
outcome (kept as the seat's events until its next decision), `end_game` and
`close`. A fault of any kind raises BotFault and ends the program.
"""
from __future__ import annotations

import json
import time as _time
from pathlib import Path

from ulm import ACTION_NAMES, SEATS

from mcts.play.engines import protocol
from mcts.play.engines.faults import BotFault
from mcts.play.engines.host import EngineProcess

MAX_INFO_BYTES = 2000       # an info message kept in the game's record, at most (as JSON)
_NAME_IDS = {name.lower(): a for a, name in enumerate(ACTION_NAMES)}


class EngineBot:
    """An engine program in one seat; a new process for every game."""
    guest = True                # its faults forfeit the game (mcts.play.bot_game)
    name = "engine"
    players: int | None = None
    seat: int | None = None
    label: str | None = None
    engine_name: str | None = None      # as the engine names itself
    last_seconds: float | None = None   # the wall time of the last decision (not the start-up)

    def __init__(self, engine: str, command: str, time: float = protocol.DEFAULT_TIME,
                 grace: float = protocol.DEFAULT_GRACE, seed: int = 0, log_dir=None):
        self.engine = engine
        self.command = command
        self.time = time
        self.grace = grace
        self.seed = seed
        self.log_dir = None if log_dir is None else Path(log_dir)
        self.config = {"time": time, "grace": grace, "seed": seed}
        self.tap = None             # tap(direction, message): a transcript (tests, docs)
        self.process: EngineProcess | None = None
        self._new_game()

    def _new_game(self) -> None:
        self.players = self.seat = None
        self.variant = "basic"
        self.label = None
        self.events: list[dict] = []
        self.decisions = 0
        self.infos: list[list] = []     # [decision number, the last info message] per decision
        self.engine_name = None

    # --- the Bot interface --------------------------------------------------
    @property
    def spec(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in sorted(self.config.items()))
        return f"engine:{self.engine}:{opts}"

    def __repr__(self):
        return f"<EngineBot {self.spec}>"

    def reseed(self, seed: int) -> None:
        """A new game: the program of the last one is ended."""
        self.close()
        self.config["seed"] = self.seed = seed
        self._new_game()

    def check_players(self, players: int) -> None:
        """Any game: the engine learns the player count from the game message."""

    def begin_game(self, players: int, seat: int, variant: str, label: str | None = None) -> None:
        self.players, self.seat, self.variant, self.label = players, seat, variant, label

    def observe(self, state, action: int) -> None:
        """A decision or chance outcome about to be applied to `state` (the true state:
        only its words for this seat are kept)."""
        if self.seat is not None:
            self.events.append(protocol.event(state, action, self.seat))

    def choose(self, state) -> int:
        seat = state.current_player()
        if seat < 0:
            raise ValueError("engine: choose() needs a decision of a player, not a chance "
                             "node or the end of the game")
        if self.seat is None:       # not seated by a game that told it (the web, a test)
            self.begin_game(state.num_players(), seat, state.game.variant)
        if self.process is None:
            self._start(protocol.board(state.game))
        self.decisions += 1
        events, self.events = self.events, []
        message = protocol.decide(state, seat, self.decisions, self.time, events)
        legal = {d["id"] for d in message["legal"]}
        start = _time.monotonic()
        action = self._fenced(lambda: self._decision(message, legal, start + self.time
                                                     + self.grace))
        # the engine's wall time: from the question sent to the answer read
        self.last_seconds = _time.monotonic() - start
        return action

    # --- the game's course --------------------------------------------------
    def _start(self, table: dict | None) -> None:
        assert self.seat is not None and self.players is not None
        name = self.label or f"seat-{SEATS[self.seat]}"
        log = None if self.log_dir is None else self.log_dir / f"{self.engine}.{name}.log"
        self.process = EngineProcess(self.engine, self.command, log, tap=self._heard)
        try:
            self.process.start()
            deadline = _time.monotonic() + protocol.START_SECONDS
            self.process.send(protocol.hello(), deadline)
            answer = self.process.receive(deadline, "its hello")
            if answer.get("type") != "hello":
                raise BotFault("garbage", f"answered {_shown(answer)} to hello")
            if answer.get("protocol") != protocol.PROTOCOL:
                raise BotFault("garbage", f"speaks protocol {_shown(answer.get('protocol'))}; "
                                          f"this host speaks {protocol.PROTOCOL}")
            said = answer.get("name")
            self.engine_name = said[:100] if isinstance(said, str) else None
            self.process.send(protocol.game(self.players, self.seat, self.variant, self.seed,
                                            self.time, self.grace, table), deadline)
        except BotFault as fault:
            self.close()
            raise BotFault("start", f"did not start: {fault.reason}") from None
        except BaseException:
            self.close()
            raise

    def _heard(self, direction: str, message: dict) -> None:
        if self.tap is not None:
            self.tap(direction, message)

    def _fenced(self, talk):
        """Run a talk with the engine; a fault (or an interruption) ends the engine."""
        try:
            return talk()
        except BaseException:
            self.close()
            raise

    def _decision(self, message: dict, legal: set, deadline: float) -> int:
        process = self.process
        assert process is not None
        for early in process.unasked():     # an info after its answer is dropped
            if early["type"] != "info":
                raise BotFault("garbage", f"wrote {_shown(early)} before it was asked for "
                                          f"decision {message['decision']}")
        process.lines = 0
        process.send(message, deadline)
        info = None
        while True:
            try:
                answer = process.receive(deadline, f"decision {message['decision']}")
            except BotFault as fault:
                if fault.kind != "time":
                    raise
                raise BotFault("time", f"gave no decision {message['decision']} within its "
                                       f"time {self.time:g} s and grace {self.grace:g} s"
                               ) from None
            kind = answer["type"]
            if kind == "info":
                info = answer
                continue
            if kind != "decision":
                raise BotFault("garbage", f"answered {_shown(answer)} to decide (a decision "
                                          "or info)")
            number = answer.get("decision", message["decision"])
            if isinstance(number, bool) or not isinstance(number, int) \
                    or number != message["decision"]:   # true is no 1, nor 1.0
                raise BotFault("garbage", f"answered decision {_shown(number)} "
                               f"when asked for decision {message['decision']}")
            if info is not None:
                self._keep_info(info)
            return self._read_decision(answer, legal)

    def _keep_info(self, info: dict) -> None:
        info = {k: v for k, v in info.items() if k != "type"}
        text = json.dumps(info)
        if len(text) > MAX_INFO_BYTES:
            info = {"cut": text[:MAX_INFO_BYTES]}
        self.infos.append([self.decisions, info])

    def _read_decision(self, answer: dict, legal: set) -> int:
        if "id" in answer:
            action = answer["id"]
            if isinstance(action, bool) or not isinstance(action, int):
                raise BotFault("garbage", f"answered a decision id {_shown(action)}, not a "
                                          "whole number")
            if not 0 <= action < len(ACTION_NAMES):
                raise BotFault("unknown", f"answered decision id {action}: no such decision")
        elif isinstance(answer.get("name"), str):
            name = " ".join(answer["name"].split()).lower()
            if name not in _NAME_IDS:
                raise BotFault("unknown", f"answered {_shown(answer['name'])}: no such decision")
            action = _NAME_IDS[name]
        else:
            raise BotFault("garbage", f"answered {_shown(answer)}: a decision has an \"id\" "
                                      "or a \"name\"")
        if action not in legal:
            raise BotFault("illegal", f"answered {ACTION_NAMES[action]!r} (id {action}), not "
                                      "a legal decision here")
        return action

    def end_game(self, state, forfeits: dict) -> None:
        """Tell a running engine the game's end, then quit; BotFault if it does not
        end then, or leaves processes behind."""
        process = self.process
        if process is None or self.seat is None:
            return
        events, self.events = self.events, []
        deadline = _time.monotonic() + self.grace + protocol.DEFAULT_GRACE

        def talk():
            strays = process.descendants()
            process.send(protocol.end(state, self.seat, events, forfeits), deadline)
            process.send(protocol.quit_(), deadline)
            process.finish(strays, self.grace + protocol.DEFAULT_GRACE)
        try:
            self._fenced(talk)
        except BotFault as fault:
            if fault.kind in ("crash", "closed"):
                return          # it ended on its own at the end: no harm done
            raise
        finally:
            self.process = None

    def close(self) -> None:
        """End the engine's processes (nothing if none runs)."""
        if self.process is not None:
            self.process.kill()
            self.process = None


def _shown(value, limit: int = 80) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text[:limit] + ("..." if len(text) > limit else "")
