"""A tournament's results: per-bot summaries with intervals, OpenSkill ratings,
the table, the files (results.json, games.csv) and the win-rate plot."""
from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ulm.extras import installed, require
from ulm.jsonfile import write_atomically

from mcts.play.stats import cluster_win_interval, mean_interval


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
    # wall time per decision (mean and longest) and the games lost by forfeit, by kind
    seconds_per_decision: float = 0.0
    longest_decision: float = 0.0
    forfeits: int = 0
    forfeit_kinds: dict = field(default_factory=dict)


def summarize(cfg, rows: list[dict]) -> dict:
    """Per-bot results of the tournament `cfg` (mcts.play.tournament.TournamentConfig):
    wins with intervals against the 1/N baseline, score, rank, rating."""
    names = list(dict.fromkeys(cfg.bots))
    n = cfg.players
    per: dict[str, dict[str, Any]] = {
        b: {"wins": 0.0, "games": 0, "scores": [], "ranks": [], "deals": {}, "seconds": 0.0,
            "seat": [[0.0, 0] for _ in range(n)], "moves": 0, "longest": 0.0,
            "forfeits": {}} for b in names}
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
            if "moves" in row:          # rows of earlier releases count no decisions
                d["moves"] += row["moves"][seat]
                d["longest"] = max(d["longest"], row["longest"][seat])
            fault = (row.get("forfeits") or [None] * n)[seat]
            if fault:
                d["forfeits"][fault["kind"]] = d["forfeits"].get(fault["kind"], 0) + 1
    ratings = rate(names, rows)
    bots = []
    for b in names:
        d = per[b]
        lo, hi = cluster_win_interval(list(d["deals"].values()))
        s, slo, shi = mean_interval(d["scores"])
        k, klo, khi = mean_interval(d["ranks"])
        klo, khi = max(klo, 1.0), min(khi, float(n))    # a rank runs from 1 to the players
        mu, sigma = ratings[b]
        bots.append(BotSummary(
            bot=b, games=d["games"], wins=d["wins"],
            win_rate=d["wins"] / d["games"] if d["games"] else 0.0, win_low=lo, win_high=hi,
            score=s, score_low=slo, score_high=shi, rank=k, rank_low=klo, rank_high=khi,
            rating=mu - 3 * sigma, rating_mu=mu, rating_sigma=sigma,
            seat_win_rates=[w / g if g else None for w, g in d["seat"]],
            seconds_per_game=d["seconds"] / d["games"] if d["games"] else 0.0,
            seconds_per_decision=d["seconds"] / d["moves"] if d["moves"] else 0.0,
            longest_decision=d["longest"], forfeits=sum(d["forfeits"].values()),
            forfeit_kinds=dict(sorted(d["forfeits"].items()))))
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
    lines += ["(+ / -: the interval lies above / below the baseline; rank: the mean finishing "
              "place, 1 the best;",
              " rating: OpenSkill's estimate of a bot's skill less three times its uncertainty "
              "(mu - 3 sigma):",
              " a cautious figure that more games raise as the estimate firms up; compare it "
              "within one tournament;",
              " s/game: a bot's thinking time per game, to check that budgets are matched)"]
    lines.append("")
    lines.append(f"{'wall time':<{w}} {'ms/decision':>11} {'longest ms':>10}  forfeits")
    for b in summary["bots"]:
        kinds = ", ".join(f"{k} {v}" for k, v in b.get("forfeit_kinds", {}).items())
        lines.append(f"{b['bot']:<{w}} {b.get('seconds_per_decision', 0.0) * 1e3:>11.3f} "
                     f"{b.get('longest_decision', 0.0) * 1e3:>10.1f}  {b.get('forfeits', 0)}"
                     + (f" ({kinds})" if kinds else ""))
    seats = summary["config"]["players"]
    lines.append("")
    lines.append(f"{'win rate by seat':<{w}} " + "".join(f"{'seat ' + str(i + 1):>8}" for i in range(seats)))
    for b in summary["bots"]:
        lines.append(f"{b['bot']:<{w}} " + "".join(
            f"{'-' if r is None else format(r, '.0%'):>8}" for r in b["seat_win_rates"]))
    return "\n".join(lines)


def write_results(out: Path, cfg, rows: list[dict], summary: dict) -> None:
    write_atomically(out / "results.json", json.dumps(summary, indent=1) + "\n")
    fields = ["game", "deal", "rotation", "seed", "decisions"]
    n = cfg.players
    header = fields + [f"seat{i + 1}_{k}" for i in range(n)
                       for k in ("bot", "score", "win", "rank", "seconds")]
    import io
    buf = io.StringIO()
    w = csv.writer(buf)
    header += [f"seat{i + 1}_forfeit" for i in range(n)]
    w.writerow(header)
    for r in rows:
        line = [r[k] for k in fields]
        for i in range(n):
            line += [r["bots"][i], r["scores"][i], r["returns"][i], r["ranks"][i], r["seconds"][i]]
        line += [f["kind"] if f else "" for f in r.get("forfeits") or [None] * n]
        w.writerow(line)
    write_atomically(out / "games.csv", buf.getvalue())
    if installed("matplotlib"):  # the plot extra; the command says so when it is missing
        plot_win_rates(summary, out / "win_rates.png")


def plot_win_rates(summary: dict, path: Path) -> None:
    matplotlib = require("matplotlib", "plot", "win_rates.png")
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
