"""What every game of `ulm serve` shares: `WebGame`, the base of playing,
following and reviewing (its answer made once for each version, hints, looking back,
variations), the options offered and the reading of a decision sent."""
from __future__ import annotations

import json
import secrets
import threading
import time

from ulm import ACTION_NAMES, NUM_ROUNDS, SEATS
from ulm.positions import PositionError, position_to_state, state_to_position

from cli.web.checks import WebError, label, quoted, seat_name
from cli.web.games import boards


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
        out["svg"] = boards.draw(st, viewer, highlight, bool(out["options"]), self.last_steps(),
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
                        svg=boards.draw(v.steps[-1][0], viewer, None, False, v.steps[-41:-1]))
        options = [offered_option(v.state, a) for a in v.options]
        return dict(out, options=options,
                    svg=boards.draw(v.state, viewer, None, bool(options), v.steps[-40:]))

    def history_words(self) -> list:
        return []


def offered_option(state, action, name=None) -> dict:
    """A decision offered to the viewer: its id, its name and the drawn element it belongs to."""
    return {"decision": action, "name": name or label(action),
            "target": boards.target_of(state, action)}


def find_decision(value, options: list[dict], field: str = "decision") -> dict:
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
