"""Where `ulm serve` keeps its games: a SQLite file (Python's sqlite3).

    >>> store = Store(default_path())        # $XDG_DATA_HOME/ulm/games.sqlite
    >>> store.save(id, mode, summary, data)  # after every change of a game
    >>> store.flush()                        # wait until the changes are on disk
    >>> store.load(id) -> (mode, data) | None; store.list() -> [summary, ...]

Each game is one row: what rebuilds it (`data`: a play game's record with its seats,
a followed game's starting view and the entries made since, a reviewed record and
where it stands) and a summary for the list of games (mode, players, seats, last
change). A game is written whole or not at all (one transaction). The summaries are
also kept in memory (read at start, updated by save()), so listing the games never
waits for the disk.

The file is checked when the store opens (`StoreError` says what is wrong: not
writable, not a games file, a newer format) and then held locked while the server
runs (SQLite's exclusive locking mode): a second server on the same file is refused
at its start instead of overwriting the games of the first with stale copies. A row
that cannot be read is reported for that game alone (`DamagedGame`).

save() only queues the row: one writer thread writes what is queued in one
transaction, the latest version of each game, so that bots making many decisions a
second neither wait for the disk nor hold up a request (a request that changes a game
waits for flush() before it answers; load() and list() see what is queued).
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from pathlib import Path

ENV = "ULM_DATA_DIR"        # overrides the folder (tests, a second server)


def default_path() -> Path:
    """games.sqlite in $ULM_DATA_DIR, else $XDG_DATA_HOME/ulm, else ~/.local/share/ulm."""
    folder = os.environ.get(ENV)
    if not folder:
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        folder = str(Path(base) / "ulm")
    return Path(folder) / "games.sqlite"


FORMAT = 1                  # PRAGMA user_version of a games file this version writes
COLUMNS = ["id", "mode", "summary", "data", "changed"]
SUMMARY = {"players": int, "seats": list, "decisions": int, "over": bool}


class StoreError(Exception):
    """A games file this server cannot keep its games in (the message names why)."""


class DamagedGame(Exception):
    """The row of one game cannot be read (the message says what is wrong with it)."""


class Store:
    """The games of a server in one SQLite file, safe to use from several threads."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.lock = threading.Lock()                # the connection
        self.queued = threading.Condition()         # the rows waiting to be written
        self.pending: dict[str, tuple] = {}         # game id -> its latest row
        self.asked = self.written = 0               # saves queued, saves on disk
        self.error: str | None = None               # why the last write failed
        self.closing = False
        _check_writable(self.path)
        _check_is_games_file(self.path)
        self.db = sqlite3.connect(str(self.path), check_same_thread=False, timeout=0.5)
        try:
            self._lock_and_check()
            # the list of games is read from memory, never waiting for the disk: each
            # game's row without its data (id, mode, summary, changed), as read at start
            # and saved since
            self.listed: dict[str, tuple] = {str(row[0]): row for row in self.db.execute(
                "SELECT id, mode, summary, changed FROM games")}
        except StoreError:
            self.db.close()
            raise
        except sqlite3.Error as exc:
            self.db.close()
            raise StoreError(_sqlite_message(exc)) from None
        self.writer = threading.Thread(target=self._write, daemon=True, name="games-file")
        self.writer.start()

    def _lock_and_check(self) -> None:
        """Hold the file (no other connection reads or writes it until close()), then
        check its tables and format, creating them in a new file."""
        self.db.execute("PRAGMA locking_mode=EXCLUSIVE")
        self.db.execute("BEGIN EXCLUSIVE")
        try:
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            if version > FORMAT:
                raise StoreError(f"a games file of a newer format ({version}; this version of "
                                 f"ulm reads format {FORMAT}): use a newer ulm or another file")
            tables = [r[0] for r in self.db.execute("SELECT name FROM sqlite_master")]
            if not tables:
                self.db.execute("CREATE TABLE games (id TEXT PRIMARY KEY, mode TEXT NOT NULL, "
                                "summary TEXT NOT NULL, data TEXT NOT NULL, "
                                "changed REAL NOT NULL)")
            else:
                columns = [r[1] for r in self.db.execute("PRAGMA table_info(games)")]
                if columns != COLUMNS:
                    raise StoreError("not a games file of `ulm serve` (a SQLite database with "
                                     f"the tables {', '.join(sorted(tables))[:200]})")
            self.db.execute(f"PRAGMA user_version = {FORMAT}")
            self.db.commit()
        except BaseException:
            self.db.rollback()
            raise

    def save(self, game_id: str, mode: str, summary: dict, data: dict) -> None:
        """Queue a game's row for the writer (flush() waits until it is written)."""
        now = time.time()
        row = (game_id, mode, json.dumps(dict(summary, changed=now)), json.dumps(data), now)
        with self.queued:
            self.pending[game_id] = row
            self.listed[game_id] = (game_id, mode, row[2], now)
            self.asked += 1
            self.queued.notify_all()

    def flush(self, timeout: float = 30.0) -> None:
        """Wait until every game saved so far is on disk; StoreError when it cannot be."""
        with self.queued:
            target = self.asked
            if not self.queued.wait_for(lambda: self.written >= target or self.error,
                                        timeout):
                raise StoreError("the games file is not written (busy for too long)")
            if self.written < target:
                raise StoreError(f"the games file is not written: {self.error}")

    def _write(self) -> None:
        """The writer thread: the queued rows in one transaction at a time."""
        while True:
            with self.queued:
                self.queued.wait_for(lambda: self.pending or self.closing)
                if not self.pending:
                    return
                rows, self.pending, upto = self.pending, {}, self.asked
            try:
                with self.lock, self.db:
                    self.db.executemany("INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?)",
                                        list(rows.values()))
            except sqlite3.Error as exc:
                with self.queued:       # kept for the next try (newer rows win)
                    self.pending = dict(rows, **self.pending)
                    self.error = str(exc)
                    self.queued.notify_all()
                    if self.closing:
                        return
                time.sleep(0.5)
                continue
            with self.queued:
                self.written, self.error = upto, None
                self.queued.notify_all()

    def load(self, game_id: str) -> tuple[str, dict] | None:
        """(mode, data) of a game, None when there is none by that id; DamagedGame when
        its row cannot be read."""
        with self.queued:
            queued = self.pending.get(game_id)
        if queued is not None:
            row = (queued[1], queued[3])
        else:
            with self.lock:
                row = self.db.execute("SELECT mode, data FROM games WHERE id = ?",
                                      (game_id,)).fetchone()
        if row is None:
            return None
        mode, data = row
        try:
            data = json.loads(data)
        except (TypeError, ValueError, RecursionError) as exc:
            raise DamagedGame(f"its data is not JSON ({type(exc).__name__})") from None
        if mode not in ("play", "follow", "review") or not isinstance(data, dict):
            raise DamagedGame(f"its mode {str(mode)[:20]!r} or its data is not one of a game")
        return mode, data

    def delete(self, game_id: str) -> None:
        self.flush()
        with self.lock, self.db:
            self.db.execute("DELETE FROM games WHERE id = ?", (game_id,))
        with self.queued:
            self.listed.pop(game_id, None)

    def list(self, limit: int = 200) -> list[dict]:
        """The games, the most recently changed first; a row that cannot be read is
        listed with "damaged" saying why (opening it says so too)."""
        with self.queued:
            rows = list(self.listed.values())
        rows.sort(key=lambda r: -r[3] if isinstance(r[3], (int, float)) else 0.0)
        return [_summary(*row) for row in rows[:limit]]

    def close(self) -> None:
        """Write what is queued, then let the file go (another server may open it)."""
        with self.queued:
            self.closing = True
            self.queued.notify_all()
        self.writer.join()
        with self.lock:
            self.db.close()


def _summary(game_id, mode, summary, changed) -> dict:
    """A game as the list shows it, from its row (a damaged one as such)."""
    try:
        out = json.loads(summary)
    except (TypeError, ValueError, RecursionError):
        out = None
    if _is_summary(out):
        return dict(out, id=str(game_id), mode=str(mode))
    when = changed if isinstance(changed, (int, float)) else 0.0
    return {"id": str(game_id), "mode": str(mode)[:20], "players": 0, "seats": [],
            "decisions": 0, "over": False, "changed": when,
            "damaged": "its row in the games file cannot be read"}


def _is_summary(out) -> bool:
    """Has `out` the fields of a summary the page lists, of their types?"""
    if not isinstance(out, dict) or not isinstance(out.get("changed"), (int, float)):
        return False
    for key, kind in SUMMARY.items():
        value = out.get(key)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            return False
    return all(isinstance(seat, str) for seat in out["seats"])


def _check_writable(path: Path) -> None:
    """StoreError unless the games can be written to `path` (its folder created)."""
    if path.is_dir():
        raise StoreError("a folder, not a file")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot make its folder: {exc.strerror}") from None
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise StoreError("not writable (the games could not be kept): give a file this "
                         "user may write, or --forget")
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise StoreError(f"its folder {path.parent} is not writable (SQLite writes its "
                         "journal beside the file): give another file, or --forget")


def _check_is_games_file(path: Path) -> None:
    """StoreError unless `path` is missing, empty, or a games file, looked at read-only
    (nothing of a foreign file is written: not a table, not a journal beside it)."""
    try:
        if path.stat().st_size == 0:
            return
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(f"cannot read it ({exc.strerror})") from None
    try:
        db = sqlite3.connect(path.resolve().as_uri() + "?mode=ro&immutable=1", uri=True)
    except sqlite3.Error as exc:
        raise StoreError(_sqlite_message(exc)) from None
    try:
        names = db.execute("SELECT type, name FROM sqlite_master").fetchall()
        columns = [r[1] for r in db.execute("PRAGMA table_info(games)")]
    except sqlite3.Error as exc:
        raise StoreError(_sqlite_message(exc)) from None
    finally:
        db.close()
    if names and columns != COLUMNS:
        kinds = ", ".join(sorted(f"{kind} {name}" for kind, name in names))
        raise StoreError(f"not a games file of `ulm serve` (a SQLite database with {kinds[:200]})"
                         "; it is left as it is: give another file")


def _sqlite_message(exc: sqlite3.Error) -> str:
    text = str(exc)
    if "locked" in text:
        return ("in use by another server (one `ulm serve` keeps its games in a file at a "
                "time): stop it, or give another file")
    if "readonly" in text:
        return "not writable (attempt to write a readonly database): give a file this user " \
               "may write, or --forget"
    if "malformed" in text:
        return ("a damaged games file (database disk image is malformed): give another file, "
                "or move this one away to start anew")
    if "not a database" in text:
        return "not a games file of `ulm serve` (file is not a database)"
    return text
