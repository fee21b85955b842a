"""Bot-vs-bot games and tournaments whose results can be trusted.

Design (duplicate play): a tournament is a list of *deals* (seeds). The N
seats of a game are filled from the bot list in order, cyclically when there
are fewer bots than seats (`ismcts greedy greedy greedy` gives one ismcts in a
field of three greedy bots). Each deal is played N times with that line-up
rotated one seat at a time, so every bot sits in every seat on the same deal
and luck of the deal and of the seat cancels out.

Games run in worker processes, or as tasks on a Dask cluster (mcts.play.pool,
mcts.play.cluster); each finished game is appended to `games.jsonl` in the output
folder at once, so an interrupted tournament keeps its games and resumes where
it stopped; the output folder is held by a lock while a run writes to it.

This module holds the tournament itself: its settings and schedule, the
output folder (lock, resume) and the run. One game is mcts.play.bot_game, the
statistics mcts.play.stats, the pool mcts.play.pool, the results mcts.play.reports.
"""
from __future__ import annotations

import json
import math
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from ulm import derive_seed
from ulm.errors import OptionError
from ulm.jsonfile import loads, read_json, write_atomically

from mcts.play.pool import play_games
from mcts.play.reports import summarize, write_results


# the most games of one tournament: its schedule is a list in memory
MAX_GAMES = 1_000_000


class TournamentError(OptionError):
    """Bad tournament settings (`field`: the setting of TournamentConfig, or
    out_dir), or an output folder of another tournament."""


@dataclass
class TournamentConfig:
    bots: list[str]
    players: int
    games: int
    seed: int = 0
    variant: str = "basic"
    board: str | None = None
    # NAME -> COMMAND of the engine programs the bots name (engine:NAME; docs/engines.md)
    engines: dict | None = None

    def lineup(self) -> list[str]:
        """The bots in seats 0..N-1 before rotation (cyclic fill)."""
        return [self.bots[i % len(self.bots)] for i in range(self.players)]

    def deals(self) -> int:
        return max(1, math.ceil(self.games / self.players))

    def schedule(self) -> list[tuple[int, int, int, list[str]]]:
        """(game id, deal seed, rotation, seat specs) of every game."""
        out = []
        lineup = self.lineup()
        for d in range(self.deals()):
            deal_seed = derive_seed(self.seed, d)
            for r in range(self.players):
                seats = lineup[r:] + lineup[:r]  # rotation r: bot of seat i moves to seat i-r
                out.append((d * self.players + r, deal_seed, r, seats))
        return out

    def to_dict(self) -> dict:
        out = {"bots": self.bots, "players": self.players, "games": self.games,
               "seed": self.seed, "variant": self.variant, "board": self.board}
        if self.engines:        # a resumed tournament runs the same programs
            out["engines"] = dict(self.engines)
        return out


def validate_config(cfg: TournamentConfig) -> None:
    from mcts.play.bots import make_bot
    if not 2 <= cfg.players <= 4:
        raise TournamentError("players", message=f"must be 2, 3 or 4, got {cfg.players}")
    if len(cfg.bots) < 2 and cfg.players > 1 and len(set(cfg.bots)) < 2:
        raise TournamentError("bots", message="name at least two bots (they may be the same spec twice)")
    if len(cfg.bots) > cfg.players:
        raise TournamentError("bots", message=f"{len(cfg.bots)} bots for {cfg.players} seats; "
                              "name at most one bot per seat")
    if cfg.games < 1:
        raise TournamentError("games", message=f"must be >= 1, got {cfg.games}")
    if cfg.games > MAX_GAMES:
        raise TournamentError("games", message=f"at most {MAX_GAMES:,}, got {cfg.games:,}")
    if cfg.engines:
        from mcts.play.engines import EngineError, register_engine
        for name, command in cfg.engines.items():
            try:
                register_engine(name, command)
            except EngineError as exc:
                raise TournamentError("engines", message=str(exc)) from None
    for spec in cfg.bots:
        try:
            make_bot(spec, cfg.players)
        except ValueError as exc:
            raise TournamentError("bots", message=f"{exc}") from None
    if cfg.board is not None:
        # before out_dir gets a tournament.json: a typo in the path must not
        # leave a folder that refuses the corrected command as "another tournament"
        from ulm.board import BoardError, load_board
        try:
            load_board(cfg.board)
        except BoardError as exc:
            raise TournamentError("board", message=f"{exc}") from None


LOCK_FILE = "tournament.lock"


def _lock(out: Path):
    """Hold the lock of an output folder, or raise TournamentError: two runs
    appending to one games.jsonl would mix and rewrite each other's games."""
    import fcntl
    path = out / LOCK_FILE
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise TournamentError("out_dir", message=f"{out} is in use by another tournament run (it holds "
                              f"{path}); wait for it to finish, or use another folder") from None
    return fd


ROW_FIELDS = ("game", "deal", "seed", "bots", "scores", "returns", "ranks", "seconds")


def _read_games(games_file: Path, cfg: "TournamentConfig") -> list[dict]:
    """The games already played in the folder. Only the last line may be cut
    (an interruption while it was written): that game is played again. Any other
    bad line, or a game that this tournament's schedule does not hold, is an
    error: dropping it silently would drop the games after it too."""
    schedule = {g: (seed, seats) for g, seed, _, seats in cfg.schedule()}
    try:
        lines = games_file.read_bytes().splitlines()
    except OSError as exc:
        raise TournamentError(None, message=f"{games_file}: cannot read the file ({exc.strerror})") from None
    while lines and not lines[-1].strip():
        lines.pop()
    rows: list[dict] = []
    seen = set()
    for k, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        where = f"{games_file} line {k}"
        try:
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise TournamentError(None, message=f"{where}: not UTF-8 text (byte {raw[exc.start]:#04x} "
                                      f"at column {exc.start + 1})") from None
            row = loads(line, where, TournamentError)
        except TournamentError:
            if k == len(lines):
                break
            raise
        if not isinstance(row, dict) or any(f not in row for f in ROW_FIELDS):
            raise TournamentError(None, message=f"{where}: not a game of a tournament (fields "
                                  f"{', '.join(ROW_FIELDS)})")
        g = row["game"]
        if g in schedule and (row["seed"], row["bots"]) != schedule[g]:
            raise TournamentError(None, message=f"{where}: game {g} was not played with this tournament's "
                                  "deals and seats")
        if g not in seen:
            seen.add(g)
            rows.append(row)
    return rows


def run_tournament(cfg: TournamentConfig, out_dir: str | Path | None = None, workers: int = 1,
                   progress: bool = True, log=None, scheduler=None) -> dict:
    """Play the games not yet in `out_dir` and return the summary.

    A folder of the same tournament (same settings except --games) is resumed
    or extended: games already in games.jsonl are kept and not played again.
    `log(text)`, if given, hears that a run resumes.

    Games are played by `play_games` (see there): `scheduler`, if given, is an
    executor whose ``map(fn, games)`` yields fn(game) for every game in any
    order (mcts.play.cluster.DaskExecutor for a Dask cluster; its `describe()` and
    `status()` feed the progress display); by default a local pool of
    `workers` processes."""
    validate_config(cfg)
    if cfg.engines and scheduler is not None:
        raise TournamentError("scheduler", message="engines (engine:NAME) play on this machine "
                              "only; leave out the scheduler")
    if out_dir is None:
        return _play(cfg, None, [], workers, progress, scheduler)
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
        lock = _lock(out)
    except OSError as exc:
        raise TournamentError("out_dir", message=f"{out}: {exc.strerror}") from None
    try:
        conf_path = out / "tournament.json"
        if conf_path.exists():
            old = read_json(conf_path, TournamentError)
            same = {k: v for k, v in cfg.to_dict().items() if k != "games"}
            if not isinstance(old, dict) or {k: v for k, v in old.items() if k != "games"} != same:
                raise TournamentError(
                    "out_dir", message=f"{out} holds another tournament ({conf_path}); "
                    "use a new folder, or the same settings (the games may grow) to resume")
        games_file = out / "games.jsonl"
        if cfg.engines:         # each engine's standard error, a file per game and seat
            from mcts.play.engines import set_log_dir
            set_log_dir(out / "engine-logs")
        # read (and check) the games played before anything is rewritten
        rows = _read_games(games_file, cfg) if games_file.exists() else []
        write_atomically(conf_path, json.dumps(cfg.to_dict(), indent=1) + "\n")
        # rewrite without a torn last line
        write_atomically(games_file, "".join(json.dumps(r) + "\n" for r in rows))
        scheduled = {g for g, _, _, _ in cfg.schedule()}
        done = [r for r in rows if r["game"] in scheduled]
        if done and log is not None:
            log(f"resuming: {len(done)} of {len(scheduled)} games already played (in {out})")
        summary = _play(cfg, games_file, done, workers, progress, scheduler)
        write_results(out, cfg, done, summary)  # _play added the new games to done
        return summary
    finally:
        os.close(lock)  # closing releases the lock


def _play(cfg: TournamentConfig, games_file, rows: list[dict], workers: int,
          progress: bool, scheduler=None) -> dict:
    """Play the scheduled games not in `rows`, appending each to `rows` (and to
    `games_file` at once); returns the summary."""
    done = {r["game"] for r in rows}
    board: object = cfg.board     # the file's name, or the board itself for other machines
    if scheduler is not None and cfg.board is not None:
        from ulm.board import load_board
        board = load_board(cfg.board)  # workers on other machines have no copy of the file
    todo = [(g, s, r, seats, cfg.variant, board) for g, s, r, seats in cfg.schedule()
            if g not in done]
    bar = None
    if progress and todo:
        import tqdm as tqdm_module
        from tqdm import tqdm
        tqdm_module.tqdm.monitor_interval = 0  # no monitor thread before the workers fork
        if scheduler is None:
            n = min(workers, len(todo))
            where = f"playing on {n} local worker process{'es' if n > 1 else ''}"
        else:
            where = scheduler.describe() if hasattr(scheduler, "describe") else \
                f"playing on {type(scheduler).__name__}"
        print(where, file=sys.stderr)
        bar = tqdm(total=len(cfg.schedule()), initial=len(done), unit="game",
                   desc="tournament", dynamic_ncols=True)
    sink = open(games_file, "a", encoding="utf-8") if games_file else None
    if bar and hasattr(scheduler, "on_status"):    # the worker count, also between games
        scheduler.on_status = bar.set_postfix_str
    try:
        for row in play_games(todo, workers, scheduler):
            _keep(row, rows, sink, bar, done)
            if bar and hasattr(scheduler, "status"):
                bar.set_postfix_str(scheduler.status(), refresh=False)
    finally:
        if sink:
            sink.close()
        if bar:
            bar.close()
        if hasattr(scheduler, "on_status"):
            scheduler.on_status = None
    rows.sort(key=lambda r: r["game"])
    return summarize(cfg, rows)


def _keep(row, rows, sink, bar, done):
    if row["game"] in done:  # a game run twice (a worker lost after finishing it): keep one
        return
    done.add(row["game"])
    rows.append(row)
    if sink:
        sink.write(json.dumps(row) + "\n")
        sink.flush()
        os.fsync(sink.fileno())
    if bar:
        bar.update(1)


