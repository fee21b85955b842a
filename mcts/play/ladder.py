"""A skill ladder (as in TAG): each iteration budget against half of it.

Rung N is a tournament ``BOT:iterations=N`` against ``BOT:iterations=N/2``
(duplicate deals, rotated seats; see mcts.play.tournament). While more search still
buys strength, the larger budget wins more than half of the games at every
rung; where the win rate falls to 50% within its interval, the ladder has
flattened. Each rung is its own tournament folder under the ladder's folder,
so an interrupted ladder resumes rung by rung, game by game.
"""
from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import dataclass
from pathlib import Path

from ulm.extras import installed, require
from ulm.jsonfile import write_atomically

from mcts.play.tournament import TournamentConfig, TournamentError, run_tournament


@dataclass
class Rung:
    budget: int
    half: int
    games: int
    win_rate: float
    win_low: float
    win_high: float
    score_margin: float
    seconds_per_game: float

    def to_dict(self) -> dict:
        return dict(self.__dict__)


def budgets(low: int, high: int) -> list[int]:
    """low, 2 low, 4 low, ... up to high (the larger budget of each rung)."""
    if low < 2:
        raise TournamentError("low", message=f"must be >= 2 (its half is the weaker side), got {low}")
    if high < low:
        raise TournamentError("high", message=f"must be at least the low budget ({low}), got {high}")
    out = []
    n = low
    while n <= high:
        out.append(n)
        n *= 2
    return out


def rung_specs(bot: str, budget: int) -> list[str]:
    """The two sides of a rung: `bot` with `budget` iterations and with half of it."""
    from mcts.play.bots import BOTS, GUESTS
    base, _, opts = bot.partition(":")
    name = base.strip()
    searches = sorted(n for n, cls in BOTS.items() if "iterations" in cls.options)
    if name in GUESTS or name == "level" or (name in BOTS and name not in searches):
        guest = " (an engine or plug-in sets its own time=)" if name in GUESTS else ""
        raise TournamentError("bot", message=f"{bot[:80]!r}: the ladder sets each rung's "
                                             f"iterations, which only {', '.join(searches)} "
                                             f"take{guest}")
    parts = [p for p in opts.split(",") if p.strip()]
    if any(p.split("=")[0].strip() in ("iterations", "time") for p in parts):
        raise TournamentError("bot", message=f"{bot!r} sets its own budget; the ladder sets iterations")
    extra = "".join("," + p.strip() for p in parts)
    return [f"{base}:iterations={budget}{extra}", f"{base}:iterations={budget // 2}{extra}"]


def run_ladder(low: int = 250, high: int = 64_000, *, bot: str = "ismcts", players: int = 2,
               games: int = 40, seed: int = 0, out_dir: str | Path | None = None,
               workers: int = 1, progress: bool = True, scheduler=None,
               on_rung=None) -> list[Rung]:
    """Play every rung from `low` to `high` (doubling); returns one Rung per budget.

    `on_rung(rung)` is called after each rung (the CLI prints it). With
    `out_dir`, each rung's games go to ``out_dir/rung-N/`` and the ladder's table
    to ladder.json, ladder.csv and ladder.png."""
    rungs = []
    for n in budgets(low, high):
        specs = rung_specs(bot, n)
        # the rung's deals depend on its budget only, so any --low gives the same rung
        cfg = TournamentConfig(bots=specs, players=players, games=games,
                               seed=seed * 1_000_000 + n)
        sub = None if out_dir is None else Path(out_dir) / f"rung-{n}"
        summary = run_tournament(cfg, sub, workers=workers, progress=progress,
                                 scheduler=scheduler)
        strong, weak = summary["bots"][0], summary["bots"][1]
        rung = Rung(budget=n, half=n // 2, games=summary["games"], win_rate=strong["win_rate"],
                    win_low=strong["win_low"], win_high=strong["win_high"],
                    score_margin=strong["score"] - weak["score"],
                    seconds_per_game=strong["seconds_per_game"])
        rungs.append(rung)
        if on_rung is not None:
            on_rung(rung)
        if out_dir is not None:
            write_ladder(Path(out_dir), rungs, players)
    return rungs


def format_ladder(rungs: list[Rung]) -> str:
    lines = [f"{'budget':>8} {'vs':>7} {'games':>6}  {'win rate [95%]':<22} {'VP margin':>9} "
             f"{'s/game':>7}"]
    for r in rungs:
        flag = " +" if r.win_low > 0.5 else (" -" if r.win_high < 0.5 else "")
        rate = f"{r.win_rate:.1%} [{r.win_low:.0%}, {r.win_high:.0%}]{flag}"
        lines.append(f"{r.budget:>8} {r.half:>7} {r.games:>6}  {rate:<22} "
                     f"{r.score_margin:>+9.1f} {r.seconds_per_game:>7.1f}")
    return "\n".join(lines)


def write_ladder(out: Path, rungs: list[Rung], players: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    write_atomically(out / "ladder.json",
                     json.dumps({"players": players, "rungs": [r.to_dict() for r in rungs]},
                                indent=1) + "\n")
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(Rung.__dataclass_fields__))
    w.writeheader()
    for r in rungs:
        w.writerow(r.to_dict())
    write_atomically(out / "ladder.csv", buf.getvalue())
    if installed("matplotlib"):  # the plot extra; the command says so when it is missing
        plot_ladder(rungs, out / "ladder.png", players)


def plot_ladder(rungs: list[Rung], path: Path, players: int = 2) -> None:
    matplotlib = require("matplotlib", "plot", "ladder.png")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 3.6), dpi=110)
    xs = [r.budget for r in rungs]
    ys = [r.win_rate for r in rungs]
    err = [[r.win_rate - r.win_low for r in rungs], [r.win_high - r.win_rate for r in rungs]]
    ax.errorbar(xs, ys, yerr=err, fmt="o-", color="#4a7ab5", capsize=5)
    ax.axhline(0.5, color="#b5524a", linestyle="--", label="level (50%)")
    ax.set_xscale("log", base=2)
    ax.set_xticks(xs)
    ax.set_xticklabels([f"{x:,}" for x in xs], fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_xlabel("iterations per decision (against half of them)")
    ax.set_ylabel("win rate (95% interval)")
    ax.set_title(f"Skill ladder, {players} players, "
                 f"{min(r.games for r in rungs)}+ games per rung")
    ax.legend(fontsize=8)
    fig.tight_layout()
    tmp = path.with_suffix(".tmp.png")
    fig.savefig(tmp)
    plt.close(fig)
    os.replace(tmp, path)
