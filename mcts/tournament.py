"""Bot-vs-bot games and tournaments whose results can be trusted.

Design (duplicate play): a tournament is a list of *deals* (seeds). The N
seats of a game are filled from the bot list in order, cyclically when there
are fewer bots than seats (`ismcts greedy greedy greedy` gives one ismcts in a
field of three greedy bots). Each deal is played N times with that line-up
rotated one seat at a time, so every bot sits in every seat on the same deal
and luck of the deal and of the seat cancels out.

Games run in worker processes, or as tasks on a Dask cluster (mcts.cluster);
each finished game is appended to `games.jsonl` in the output folder at once,
so an interrupted tournament keeps its games and resumes where it stopped.
"""
from __future__ import annotations

import csv
import json
import math
import multiprocessing as mp
import os
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from ulm import ACTION_NAMES, derive_seed
from ulm._fastcore import SEATS
from ulm.jsonfile import loads, read_json, write_atomically
from ulm.records import GameRecord

Z95 = 1.959963984540054


# the most games of one tournament: its schedule is a list in memory
MAX_GAMES = 1_000_000


class TournamentError(ValueError):
    """Bad tournament settings, or an output folder of another tournament."""


# ---------------------------------------------------------------------------
# one game

def bot_seed(spec_seed: int, game_seed: int, seat: int) -> int:
    """The seed a bot plays one game with: its spec's seed (0 unless written)
    mixed with the deal's seed and its seat. Games stay reproducible, and a
    seed written in a spec does not replay one random stream in every game."""
    return derive_seed(spec_seed, game_seed, seat)


def play_game(specs: list[str], seed: int, variant: str = "basic", board=None,
              log=None, record_path=None) -> dict:
    """Play one game; `specs[i]` plays seat i. Returns the game's result row.

    `log(text)`, if given, receives a readable line per turn."""
    from mcts.bots import make_bot
    bots = [make_bot(spec) for spec in specs]
    for seat, bot in enumerate(bots):
        bot.reseed(bot_seed(bot.seed, seed, seat))
    rec = GameRecord(players=len(specs), variant=variant, seed=seed, board=board, bots=specs)
    state = rec.state
    thinking = [0.0] * len(specs)
    turn_actions: list[str] = []
    while not state.is_terminal():
        p = state.current_player()
        t0 = time.perf_counter()
        action = bots[p].choose(state.clone())
        thinking[p] += time.perf_counter() - t0
        before = state.raw()
        rec.apply(action)
        if log is not None:
            turn_actions.append(ACTION_NAMES[action])
            after = state.raw()
            if state.is_terminal() or (after["turn_player"], after["round"]) != (
                    before["turn_player"], before["round"]):
                log(f"round {before['round'] + 1:2d} {SEATS[p]:<6} ({specs[p]}): "
                    + "; ".join(turn_actions) + f"  -> {state.scores()[p]} VP")
                turn_actions = []
    if record_path:
        rec.save(record_path)
    scores = state.scores()
    returns = state.returns()
    return {"seed": seed, "bots": list(specs), "scores": scores, "returns": returns,
            "ranks": ranks_of(scores, returns), "decisions": len(rec.decisions),
            "seconds": [round(t, 3) for t in thinking],
            "breakdown": [state.score_breakdown(p) for p in range(len(specs))]}


def ranks_of(scores: list[int], returns: list[float]) -> list[float]:
    """Rank 1 = winner; the others by score. Ties share the average of their
    places (fractional ranking): two shared winners both get 1.5, so the ranks
    of a game always add up to 1 + 2 + ... + N."""
    n = len(scores)
    key = [(returns[p] > 0, scores[p]) for p in range(n)]
    ranks = []
    for p in range(n):
        better = sum(1 for q in range(n) if key[q] > key[p])
        equal = sum(1 for q in range(n) if key[q] == key[p])
        ranks.append(better + (equal + 1) / 2)
    return ranks


# ---------------------------------------------------------------------------
# statistics

def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (successes may be fractional: shared wins)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # exact ends for 0 and n wins (rounding would leave e.g. 5e-17 above a rate of 0)
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return low, high


def mean_interval(values: list[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean with a normal-approximation 95% interval."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    m = sum(values) / n
    if n == 1:
        return m, m, m
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    half = z * sd / math.sqrt(n)
    return m, m - half, m + half


def cluster_win_interval(per_deal: list[tuple[float, int]], z: float = Z95) -> tuple[float, float]:
    """95% interval of a win rate from duplicate play, with deals as clusters.

    Games on one deal are not independent (same cards, same tiles), so the
    spread is taken between deals: each deal contributes (win shares, games).
    The interval is never narrower than Wilson's on the pooled games."""
    wins = sum(w for w, _ in per_deal)
    games = sum(g for _, g in per_deal)
    lo_w, hi_w = wilson_interval(wins, games, z)
    d = len(per_deal)
    if d < 2 or games == 0:
        return lo_w, hi_w
    p = wins / games
    # ratio estimator variance over clusters
    mean_g = games / d
    var = sum((w - p * g) ** 2 for w, g in per_deal) / (d - 1) / (d * mean_g ** 2)
    half = z * math.sqrt(var)
    return min(lo_w, max(0.0, p - half)), max(hi_w, min(1.0, p + half))


# ---------------------------------------------------------------------------
# the tournament

@dataclass
class TournamentConfig:
    bots: list[str]
    players: int
    games: int
    seed: int = 0
    variant: str = "basic"
    board: str | None = None

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
        return {"bots": self.bots, "players": self.players, "games": self.games,
                "seed": self.seed, "variant": self.variant, "board": self.board}


def validate_config(cfg: TournamentConfig) -> None:
    from mcts.bots import make_bot
    if not 2 <= cfg.players <= 4:
        raise TournamentError(f"--players: must be 2, 3 or 4, got {cfg.players}")
    if len(cfg.bots) < 2 and cfg.players > 1 and len(set(cfg.bots)) < 2:
        raise TournamentError("--bots: name at least two bots (they may be the same spec twice)")
    if len(cfg.bots) > cfg.players:
        raise TournamentError(f"--bots: {len(cfg.bots)} bots for {cfg.players} seats; "
                              "name at most one bot per seat")
    if cfg.games < 1:
        raise TournamentError(f"--games: must be >= 1, got {cfg.games}")
    if cfg.games > MAX_GAMES:
        raise TournamentError(f"--games: at most {MAX_GAMES:,}, got {cfg.games:,}")
    for spec in cfg.bots:
        try:
            make_bot(spec)
        except ValueError as exc:
            raise TournamentError(f"--bots: {exc}") from None
    if cfg.board is not None:
        # before --out gets a tournament.json: a typo in the path must not
        # leave a folder that refuses the corrected command as "another tournament"
        from ulm.board import BoardError, load_board
        try:
            load_board(cfg.board)
        except BoardError as exc:
            raise TournamentError(f"--board: {exc}") from None


def _pool_worker_init():
    """Set up a process of the tournament's pool.

    A bot may run a root-parallel search (``ismcts:workers=2``): its workers
    are forked from this process, so it must not be daemonic (multiprocessing
    refuses children of daemonic processes). The games and their results are
    the same as when one process plays them. Ctrl-C is the parent's to handle:
    it ends the pool (SIGTERM), and a search's workers end with the process
    that started them (mcts.search)."""
    mp.current_process().daemon = False
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_one(args):
    game_id, deal_seed, rotation, seats, variant, board = args
    row = play_game(seats, deal_seed, variant, board)
    row.update({"game": game_id, "deal": game_id // len(seats), "rotation": rotation})
    return row


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
        raise TournamentError(f"--out: {out} is in use by another tournament run (it holds "
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
        raise TournamentError(f"{games_file}: cannot read the file ({exc.strerror})") from None
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
                raise TournamentError(f"{where}: not UTF-8 text (byte {raw[exc.start]:#04x} "
                                      f"at column {exc.start + 1})") from None
            row = loads(line, where, TournamentError)
        except TournamentError:
            if k == len(lines):
                break
            raise
        if not isinstance(row, dict) or any(f not in row for f in ROW_FIELDS):
            raise TournamentError(f"{where}: not a game of a tournament (fields "
                                  f"{', '.join(ROW_FIELDS)})")
        g = row["game"]
        if g in schedule and (row["seed"], row["bots"]) != schedule[g]:
            raise TournamentError(f"{where}: game {g} was not played with this tournament's "
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
    order (mcts.cluster.DaskExecutor for a Dask cluster; its `describe()` and
    `status()` feed the progress display); by default a local pool of
    `workers` processes."""
    validate_config(cfg)
    if out_dir is None:
        return _play(cfg, None, [], workers, progress, scheduler)
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
        lock = _lock(out)
    except OSError as exc:
        raise TournamentError(f"--out: {out}: {exc.strerror}") from None
    try:
        conf_path = out / "tournament.json"
        if conf_path.exists():
            old = read_json(conf_path, TournamentError)
            same = {k: v for k, v in cfg.to_dict().items() if k != "games"}
            if not isinstance(old, dict) or {k: v for k, v in old.items() if k != "games"} != same:
                raise TournamentError(
                    f"--out: {out} holds another tournament ({conf_path}); "
                    "use a new folder, or the same settings (--games may grow) to resume")
        write_atomically(conf_path, json.dumps(cfg.to_dict(), indent=1) + "\n")
        games_file = out / "games.jsonl"
        rows = _read_games(games_file, cfg) if games_file.exists() else []
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
    board = cfg.board
    if scheduler is not None and board is not None:
        from ulm.board import load_board
        board = load_board(board)  # workers on other machines have no copy of the file
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


def play_games(todo: list, workers: int = 1, scheduler=None):
    """Yield the result row of every game in `todo` (tuples as `_run_one` takes).

    The one place where games are dispatched: `scheduler.map(_run_one, todo)`
    when a scheduler is given (any concurrent.futures-style executor, or a
    Dask cluster: mcts.cluster.DaskExecutor), else a local fork pool of
    `workers` processes, else this process."""
    if scheduler is not None:
        yield from scheduler.map(_run_one, todo)
    elif workers > 1 and len(todo) > 1:
        ctx = mp.get_context("fork")
        with ctx.Pool(workers, initializer=_pool_worker_init) as pool:
            yield from pool.imap_unordered(_run_one, todo)
    else:
        for args in todo:
            yield _run_one(args)


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


@dataclass
class BotSummary:
    bot: str
    games: int = 0
    wins: float = 0.0
    win_rate: float = 0.0
    win_low: float = 0.0
    win_high: float = 0.0
    score: float = 0.0
    score_low: float = 0.0
    score_high: float = 0.0
    rank: float = 0.0
    rank_low: float = 0.0
    rank_high: float = 0.0
    rating: float = 0.0
    rating_mu: float = 0.0
    rating_sigma: float = 0.0
    seat_win_rates: list = field(default_factory=list)
    seconds_per_game: float = 0.0


def summarize(cfg: TournamentConfig, rows: list[dict]) -> dict:
    """Per-bot results: wins with intervals against the 1/N baseline, score, rank, rating."""
    names = list(dict.fromkeys(cfg.bots))
    n = cfg.players
    per = {b: {"wins": 0.0, "games": 0, "scores": [], "ranks": [], "deals": {}, "seconds": 0.0,
               "seat": [[0.0, 0] for _ in range(n)]} for b in names}
    for row in rows:
        for seat, spec in enumerate(row["bots"]):
            d = per[spec]
            d["games"] += 1
            d["wins"] += row["returns"][seat]
            d["scores"].append(row["scores"][seat])
            d["ranks"].append(row["ranks"][seat])
            d["seconds"] += row["seconds"][seat]
            w, g = d["deals"].get(row["deal"], (0.0, 0))
            d["deals"][row["deal"]] = (w + row["returns"][seat], g + 1)
            d["seat"][seat][0] += row["returns"][seat]
            d["seat"][seat][1] += 1
    ratings = rate(names, rows)
    bots = []
    for b in names:
        d = per[b]
        lo, hi = cluster_win_interval(list(d["deals"].values()))
        s, slo, shi = mean_interval(d["scores"])
        k, klo, khi = mean_interval(d["ranks"])
        mu, sigma = ratings[b]
        bots.append(BotSummary(
            bot=b, games=d["games"], wins=d["wins"],
            win_rate=d["wins"] / d["games"] if d["games"] else 0.0, win_low=lo, win_high=hi,
            score=s, score_low=slo, score_high=shi, rank=k, rank_low=klo, rank_high=khi,
            rating=mu - 3 * sigma, rating_mu=mu, rating_sigma=sigma,
            seat_win_rates=[w / g if g else None for w, g in d["seat"]],
            seconds_per_game=d["seconds"] / d["games"] if d["games"] else 0.0))
    baseline = 1 / n
    return {
        "config": cfg.to_dict(),
        "games": len(rows),
        "deals": len({r["deal"] for r in rows}),
        "baseline": baseline,
        "bots": [b.__dict__ | {"beats_baseline": b.win_low > baseline,
                               "below_baseline": b.win_high < baseline} for b in bots],
    }


def rate(names: list[str], rows: list[dict]) -> dict:
    """OpenSkill Plackett-Luce ratings, game by game in game order.

    A bot that holds several seats of one game enters it once per seat with its
    current rating; its new rating is the mean of those seats' updates."""
    from openskill.models import PlackettLuce
    model = PlackettLuce()
    current = {b: model.rating(name=b) for b in names}
    for row in rows:
        teams = [[model.rating(mu=current[s].mu, sigma=current[s].sigma)] for s in row["bots"]]
        new = model.rate(teams, ranks=row["ranks"])
        for b in set(row["bots"]):
            seats = [i for i, s in enumerate(row["bots"]) if s == b]
            mu = sum(new[i][0].mu for i in seats) / len(seats)
            sigma = sum(new[i][0].sigma for i in seats) / len(seats)
            current[b] = model.rating(mu=mu, sigma=sigma, name=b)
    return {b: (r.mu, r.sigma) for b, r in current.items()}


def format_table(summary: dict) -> str:
    lines = [f"{summary['games']} games on {summary['deals']} deals, "
             f"{summary['config']['players']} players; baseline win rate "
             f"{summary['baseline']:.0%}; intervals are 95%"]
    w = max([3] + [len(b["bot"]) for b in summary["bots"]])
    head = (f"{'bot':<{w}} {'games':>5} {'wins':>6}  {'win rate [95%]':<22} {'score [95%]':<20} "
            f"{'rank':>5} {'rating':>7} {'s/game':>7}")
    lines.append(head)
    lines.append("-" * len(head))
    for b in summary["bots"]:
        flag = " +" if b["beats_baseline"] else (" -" if b["below_baseline"] else "")
        rate = f"{b['win_rate']:.1%} [{b['win_low']:.0%}, {b['win_high']:.0%}]{flag}"
        score = f"{b['score']:.1f} [{b['score_low']:.1f}, {b['score_high']:.1f}]"
        lines.append(f"{b['bot']:<{w}} {b['games']:>5} {b['wins']:>6.1f}  {rate:<22} "
                     f"{score:<20} {b['rank']:>5.2f} {b['rating']:>7.2f} "
                     f"{b['seconds_per_game']:>7.2f}")
    lines.append("(+ / -: the interval lies above / below the baseline; s/game: a bot's "
                 "thinking time per game, to check that budgets are matched)")
    seats = summary["config"]["players"]
    lines.append("")
    lines.append(f"{'win rate by seat':<{w}} " + "".join(f"{'seat ' + str(i + 1):>8}" for i in range(seats)))
    for b in summary["bots"]:
        lines.append(f"{b['bot']:<{w}} " + "".join(
            f"{'-' if r is None else format(r, '.0%'):>8}" for r in b["seat_win_rates"]))
    return "\n".join(lines)


def write_results(out: Path, cfg: TournamentConfig, rows: list[dict], summary: dict) -> None:
    write_atomically(out / "results.json", json.dumps(summary, indent=1) + "\n")
    fields = ["game", "deal", "rotation", "seed", "decisions"]
    n = cfg.players
    header = fields + [f"seat{i + 1}_{k}" for i in range(n)
                       for k in ("bot", "score", "win", "rank", "seconds")]
    import io
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(header)
    for r in rows:
        line = [r[k] for k in fields]
        for i in range(n):
            line += [r["bots"][i], r["scores"][i], r["returns"][i], r["ranks"][i], r["seconds"][i]]
        w.writerow(line)
    write_atomically(out / "games.csv", buf.getvalue())
    plot_win_rates(summary, out / "win_rates.png")


def plot_win_rates(summary: dict, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    bots = summary["bots"]
    fig, ax = plt.subplots(figsize=(max(4, 1.6 * len(bots) + 2), 3.6), dpi=110)
    xs = range(len(bots))
    rates = [b["win_rate"] for b in bots]
    err = [[r - b["win_low"] for r, b in zip(rates, bots)],
           [b["win_high"] - r for r, b in zip(rates, bots)]]
    ax.bar(xs, rates, color="#4a7ab5", yerr=err, capsize=6)
    ax.axhline(summary["baseline"], color="#b5524a", linestyle="--",
               label=f"baseline 1/{summary['config']['players']}")
    ax.set_xticks(list(xs))
    ax.set_xticklabels([b["bot"].replace(":", ":\n").replace(",", ",\n") for b in bots],
                       fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% interval)")
    ax.set_title(f"{summary['games']} games, {summary['config']['players']} players")
    ax.legend(fontsize=8)
    fig.tight_layout()
    import io
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    write_atomically(path, buf.getvalue())
