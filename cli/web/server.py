"""The server of `ulm serve` without HTTP (cli.web.app is the HTTP face): the
games in memory and in the games file, the jobs, the bots' search slots.

Bots and searches run in threads: the compiled search releases the GIL, so
the event loop stays responsive. A bot decision found for a state that has
changed meanwhile (an undo) is thrown away.
"""
from __future__ import annotations


import contextlib
import threading
import time
from typing import TYPE_CHECKING, Any

from ulm import SEATS
from ulm.errors import OptionError
from ulm.game import Game, check_variant
from ulm.numbers import SEED_RANGE, check_seed
from ulm.positions import PositionError, position_to_state
from ulm.records import GameRecord, RecordError, replay


from cli.web.checks import (MAX_BOT_SEARCHES, MAX_GAMES, MAX_RUNNING_JOBS, SERVED_SEARCH_SECONDS, WebError,
                            capped, check_bot, check_seconds, parse_seat, quoted, served_spec)
from cli.web.games import FollowGame, PlayGame, ReviewGame, WebGame, boards
from cli.web.jobs import Cancelled, Job, hint_entry, run_search

if TYPE_CHECKING:
    from cli.web.store import Store

# ---------------------------------------------------------------------------
# The server's registry of games and jobs

class GameRegistry:
    """Games and jobs of one running server, with its limits."""

    store: Store | None = None          # the games kept on disk (--games-file)
    restoring = False

    def __init__(self, max_seconds: float = SERVED_SEARCH_SECONDS, max_games: int = MAX_GAMES,
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

    changes = 0                         # bumped at every change of a game (the list's key)

    def persist(self, session: WebGame) -> None:
        """Write a game to the store (after every change)."""
        self.changes += 1
        if self.store is None or self.restoring:
            return
        summary, data = session.saved()
        self.store.save(session.id, session.mode, summary, data)

    def list_games(self) -> list[dict]:
        """The games kept (the store's, else those in memory), the latest change first."""
        if self.store is not None:
            out = self.store.list()
        else:
            out = []
            for session in sorted(self.games.values(), key=lambda s: -s.changed_at):
                summary, _ = session.saved()
                out.append(dict(summary, id=session.id, mode=session.mode,
                                changed=session.changed_at))
        return out

    def restore(self, game_id: str) -> WebGame | None:
        """A kept game rebuilt from the store (None when there is none by that id; a
        WebError 422 when its row cannot be read or rebuilt)."""
        from cli.web.store import DamagedGame
        try:
            found = self.store.load(game_id) if self.store is not None else None
        except DamagedGame as exc:
            raise _damaged(game_id, exc) from None
        if found is None:
            return None
        mode, data = found
        self.restoring = True
        session: Any    # a PlayGame, FollowGame or ReviewGame, each rebuilt its own way
        try:
            if mode == "play":
                from mcts.play.session import PlaySession as Table
                rec = replay(data["record"])
                if rec.bots is None:
                    raise ValueError("the record names no seats")
                session = PlayGame(self, list(rec.bots), rec.game.variant, rec.seed)
                session.table = Table.resume(rec, secret_seed=data.get("secret_seed") is True)
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
        except Exception as exc:    # a row changed outside the server: that game alone
            raise _damaged(game_id, exc) from None
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
        seats = list(seats)
        for k, spec in enumerate(seats):
            if spec != "human":
                seats[k] = served_spec(spec, f"seats[{k}]")     # a plug-in: process=own
                check_bot(seats[k], self.max_seconds, f"seats[{k}]", players=len(seats))
        record = body.get("record")
        if record is not None:          # a saved game played on from its last decision
            rec = _checked_record(record)
            if rec.game.num_players != len(seats):
                raise WebError(f"seats: the record is a {rec.game.num_players}-player game; "
                               f"give {rec.game.num_players} seats")
            if rec.state.is_terminal():
                raise WebError("record: the game is over; nothing to play on", 409)
            from mcts.play.session import PlaySession as Table
            rec.bots = list(seats)
            session = PlayGame(self, list(seats), rec.game.variant, rec.seed)
            session.table = Table.resume(rec)
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

    def stop_searches(self) -> tuple[list, list]:
        """The server is stopping: every search and bot is told to stop and event streams
        end (without waiting; close() waits for the threads). Returns (jobs, games)."""
        self.closing = True
        with self.lock:
            jobs = list(self.jobs.values())
            games = list(self.games.values())
        for job in jobs:
            job.cancel_event.set()
        for game in games:
            game.stopped = True     # no game lock here: this runs in the signal handler
        return jobs, games

    def close(self, timeout: float = 60.0) -> None:
        """Stop every search and bot and wait for their threads (the server is ending:
        no thread may still run, e.g. when the process later forks)."""
        jobs, games = self.stop_searches()
        runners = [game.runner for game in games if isinstance(game, PlayGame)]
        deadline = time.monotonic() + timeout
        for thread in [j.thread for j in jobs] + runners:
            if thread is not None:
                thread.join(max(0.0, deadline - time.monotonic()))

    def hint(self, session: WebGame, seconds, index=None, line=None) -> Job:
        """A hint at the point shown: the game now, or after `index` decisions and the
        variation's `line` from there (WebGame.hint_point); its answer names the point."""
        seconds = check_seconds(seconds, self.max_seconds)
        with session.lock:
            point = session.hint_point(index, line)
            version = session.version
        state = point["state"]     # its mover is the seat advised (hint_point)
        where = {"index": point["index"], "variation": point["line"]}
        job = Job("hint", session.id, seconds)

        def work(job):
            def partial(result):
                job.partial = dict(result.to_dict(), **where)
                job.seq += 1
            result = run_search(state, seconds, job, seed=version, partial=partial)
            advice = dict(result.to_dict(), **where)   # the answer's one shape
            entry = hint_entry(version, advice)
            if not point["live"]:           # drawn on the board of the point it analysed
                board, viewer, interactive, last = point["board"]
                return dict(advice, svg=boards.draw(board, viewer, entry["highlight"], interactive,
                                             last, entry["ranked"]))
            with session.lock:
                if session.version == version:
                    session.hint = entry
            return advice
        return self.start_job(job, work)

    def chance(self, session: WebGame, seconds) -> Job:
        """The person's chance of winning at the game now, searched as a hint is (from
        their knowledge, at their own decision) and kept for the graph of their chances
        under the board (Play)."""
        if not isinstance(session, PlayGame):
            raise WebError("chance: a person's chances are followed in Play", 409)
        seconds = check_seconds(seconds, self.max_seconds)
        with session.lock:
            point = session.hint_point()
            version = session.version
        state, seat = point["state"], point["seat"]
        job = Job("chance", session.id, seconds)

        def work(job):
            result = run_search(state, seconds, job, seed=version)
            out = {"index": point["index"], "seat": SEATS[seat],
                   "win": round(result.win_probability[seat], 4)}
            session.chance_seen(version, out)
            return out
        return self.start_job(job, work)

    def annotate(self, session: WebGame, seat, seconds, by="chance") -> Job:
        """mcts.play.annotate over a record under review, `seconds` a decision, the
        mistakes found and ranked `by` the loss in the estimate ("chance") or in
        victory points ("points")."""
        from mcts.play.annotate import check_by
        if not isinstance(session, ReviewGame):
            raise WebError("annotate: only a record under review can be annotated", 409)
        seat = session.annotation_seat(seat)
        per = check_seconds(seconds, self.max_seconds, "seconds")
        try:
            by = check_by(by)
        except ValueError as exc:
            raise WebError(str(exc)) from None
        moves = sum(1 for p in session.movers if p == seat)
        if not moves:
            raise WebError(f"seat: {SEATS[seat]} made no decision in this record")
        # a rarely tried decision gets a second search of its own: at most twice the time
        job = Job("annotate", session.id, 2 * per * moves)
        data = session.data

        def work(job):
            from mcts.play.annotate import annotate
            report = annotate(data, seat, time=per, by=by,
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


def _damaged(game_id: str, exc: Exception) -> WebError:
    """The answer for a kept game whose row cannot be rebuilt (the others are served)."""
    return WebError(f"game: the kept game {quoted(game_id)} cannot be rebuilt from the games "
                    f"file: {exc or type(exc).__name__}", 422)


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
    try:
        check_variant(variant)
    except OptionError as exc:
        raise WebError(str(exc)) from None
    return variant


def _seed(body):
    """The seed the person chose, or None: the server deals with a secret seed."""
    if "seed" not in body:
        return None
    seed = body["seed"]
    try:
        return check_seed(seed, "seed")
    except ValueError:      # the range is the library's; the page's quoting is the web's
        raise WebError(f"seed: must be {SEED_RANGE}, got {quoted(seed)}") from None


def _no_paths(data: dict, field: str):
    """Uploaded files may not name files on the server (a board table by path)."""
    if "board" in data:
        raise WebError(f"{field}: board: this server does not read files named in an upload; "
                       "use a file without 'board' (the default board table)")


