"""Where `ulm serve` keeps its games: a SQLite file (Python's sqlite3).

    >>> store = Store(default_path())        # $XDG_DATA_HOME/ulm/games.sqlite
    >>> store.save(id, mode, summary, data)  # after every change of a game
    >>> store.load(id) -> (mode, data) | None; store.list() -> [summary, ...]

Each game is one row: what rebuilds it (`data`: a play game's record with its seats,
a followed game's starting view and the entries made since, a reviewed record and
where it stands) and a summary for the list of games (mode, players, seats, last
change). A game is written whole or not at all (one transaction).
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


class Store:
    """The games of a server in one SQLite file, safe to use from several threads."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.lock = threading.Lock()
        self.db = sqlite3.connect(str(self.path), check_same_thread=False, timeout=5)
        with self.lock, self.db:
            self.db.execute("CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, "
                            "mode TEXT NOT NULL, summary TEXT NOT NULL, data TEXT NOT NULL, "
                            "changed REAL NOT NULL)")

    def save(self, game_id: str, mode: str, summary: dict, data: dict) -> None:
        now = time.time()
        row = (game_id, mode, json.dumps(dict(summary, changed=now)), json.dumps(data), now)
        with self.lock, self.db:
            self.db.execute("INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?)", row)

    def load(self, game_id: str) -> tuple[str, dict] | None:
        with self.lock:
            row = self.db.execute("SELECT mode, data FROM games WHERE id = ?",
                                  (game_id,)).fetchone()
        return None if row is None else (row[0], json.loads(row[1]))

    def delete(self, game_id: str) -> None:
        with self.lock, self.db:
            self.db.execute("DELETE FROM games WHERE id = ?", (game_id,))

    def list(self, limit: int = 200) -> list[dict]:
        """The games, the most recently changed first."""
        with self.lock:
            rows = self.db.execute("SELECT id, mode, summary FROM games ORDER BY changed DESC "
                                   "LIMIT ?", (limit,)).fetchall()
        return [dict(json.loads(summary), id=gid, mode=mode) for gid, mode, summary in rows]

    def close(self) -> None:
        with self.lock:
            self.db.close()
