"""How much of Ulm is skill: the matches behind docs/skill.md, their table and
their plot.

    python bench/skill.py --players 3 --games 150 --seed 2026 --only 8x --out skill
    python bench/skill.py --report --out skill

The base is the default search at a fixed number of iterations (--iterations,
2,000: the same games on any machine). Each match is an ordinary duplicate-deal
tournament in OUT/<N>p_<match>/ (resumed or extended when run again):

- self: the base in every seat, each seat's bot with its own seed (so the
  rotations of a deal are different games): who wins from which seat, and by
  how many points;
- random, greedy: one base seat against that bot in every other seat;
- 8x: one seat searching eight times the base's iterations against the base
  in every other seat;
- cheat: one seat of `cheat` (the same search, seeing every hidden card) at the
  base's iterations against the base in every other seat.

Every run ends with the report of every match in OUT, of the deals played in
every rotation: OUT/skill.json, the printed table and OUT/skill.png.
Intervals are 95%, with deals as clusters (mcts.play.stats). A game's margin is the
winner's final score minus the runner-up's (0 for a shared win); a seat's
lead, its final score minus the mean of the other seats'.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

try:        # run as a script: the checkout's ulm if built in place, else the installed one
    import _ulm_path  # noqa: E402,F401
except ModuleNotFoundError:     # imported as bench.NAME (the tests): the checkout is on the path
    pass

from mcts.play.stats import cluster_win_interval, mean_interval  # noqa: E402
from mcts.play.tournament import TournamentConfig, run_tournament  # noqa: E402
from ulm.numbers import seed_argument, whole_argument  # noqa: E402

MATCHES = ("self", "random", "greedy", "8x", "cheat")
ONE_SEAT = MATCHES[1:]
CLOSE = (2, 5)          # margins counted as close games, in points
MATCH_LABELS = {"random": "base vs random", "greedy": "base vs greedy",
                "8x": "8x thinking vs base", "cheat": "sees every card vs base"}


def lineup(match: str, players: int, iterations: int) -> list[str]:
    """The seats of a match before rotation (seat 1 is the one seat)."""
    base = f"ismcts:iterations={iterations}"
    if match == "self":
        return [f"{base},seed={i + 1}" for i in range(players)]
    if match in ("random", "greedy"):
        return [base] + [match] * (players - 1)
    if match == "8x":
        return [f"ismcts:iterations={8 * iterations}"] + [base] * (players - 1)
    if match == "cheat":
        return [f"cheat:iterations={iterations}"] + [base] * (players - 1)
    raise ValueError(f"match: one of {', '.join(MATCHES)}, got {match!r}")


def folder(out: Path, players: int, match: str) -> Path:
    return out / f"{players}p_{match}"


def play(args) -> None:
    for match in args.only or MATCHES:
        cfg = TournamentConfig(bots=lineup(match, args.players, args.iterations),
                               players=args.players, games=args.games, seed=args.seed)
        summary = run_tournament(cfg, folder(Path(args.out), args.players, match),
                                 workers=args.workers, progress=False)
        print(f"{args.players}p {match}: {summary['games']} games played", flush=True)


def margin(scores: list) -> int:
    """The winner's final score minus the runner-up's."""
    top = sorted(scores, reverse=True)
    return top[0] - top[1]


def by_deal(rows: list[dict], value) -> list[float]:
    """The mean of value(row) over each deal's games, one number a deal."""
    deals: dict = {}
    for row in rows:
        deals.setdefault(row["deal"], []).append(value(row))
    return [sum(v) / len(v) for v in deals.values()]


def quantile(values: list, q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def win_figures(rows: list[dict], seat_of) -> tuple[float, float, float]:
    """The win rate [95%] of the seat `seat_of(row)` of each game, deals as clusters."""
    deals: dict = {}
    for row in rows:
        w, g = deals.get(row["deal"], (0.0, 0))
        deals[row["deal"]] = (w + row["returns"][seat_of(row)], g + 1)
    lo, hi = cluster_win_interval(list(deals.values()))
    return sum(w for w, _ in deals.values()) / len(rows), lo, hi


def seat_figures(rows: list[dict], players: int) -> list[dict]:
    """Each seat's win rate [95%] over the games of `rows`."""
    out = []
    for seat in range(players):
        rate, lo, hi = win_figures(rows, lambda row, seat=seat: seat)
        out.append({"seat": seat + 1, "win_rate": rate, "low": lo, "high": hi})
    return out


def margin_figures(rows: list[dict]) -> dict:
    margins = [margin(r["scores"]) for r in rows]
    mean, lo, hi = mean_interval(by_deal(rows, lambda r: margin(r["scores"])))
    return {"mean": mean, "low": lo, "high": hi, "median": quantile(margins, 0.5),
            "quartiles": [quantile(margins, 0.25), quantile(margins, 0.75)],
            "close": {str(c): sum(m <= c for m in margins) / len(margins) for c in CLOSE},
            "margins": sorted(margins)}


def one_seat_figures(rows: list[dict], spec: str, players: int) -> dict:
    """The win rate [95%] of the one seat playing `spec`, its excess over the
    fair share in points, and its lead: its final score minus the mean of the
    other seats' (0 between equals)."""
    def lead(row):
        seat = row["bots"].index(spec)
        others = [s for i, s in enumerate(row["scores"]) if i != seat]
        return row["scores"][seat] - sum(others) / len(others)
    rate, lo, hi = win_figures(rows, lambda row: row["bots"].index(spec))
    fair = 1 / players
    return {"bot": spec, "win_rate": rate, "low": lo, "high": hi, "fair": fair,
            "points": [100 * (x - fair) for x in (rate, lo, hi)],
            "lead": list(mean_interval(by_deal(rows, lead)))}


def whole_deals(rows: list[dict], players: int) -> list[dict]:
    """The games of the deals played in every rotation: a run stopped midway
    leaves its last deal with some seats unplayed, which would tilt the seats."""
    count: dict = {}
    for row in rows:
        count[row["deal"]] = count.get(row["deal"], 0) + 1
    return [row for row in rows if count[row["deal"]] == players]


def read_rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in (path / "games.jsonl").read_text().splitlines()
            if line.strip()]


def report(out: Path) -> dict:
    """The figures of every match in `out`, by player count and match."""
    table: dict = {}
    for path in sorted(out.glob("*p_*/tournament.json")):
        cfg = json.loads(path.read_text())
        players, match = cfg["players"], path.parent.name.split("_", 1)[1]
        rows = whole_deals(read_rows(path.parent), players)
        if match not in MATCHES or not rows:
            continue
        entry: dict = {"games": len(rows), "deals": len({r["deal"] for r in rows}),
                       "seed": cfg["seed"], "bots": cfg["bots"],
                       "seconds_per_game": sum(sum(r["seconds"]) for r in rows) / len(rows)}
        if match == "self":
            entry["seats"] = seat_figures(rows, players)
            entry["margin"] = margin_figures(rows)
        else:
            entry |= one_seat_figures(rows, cfg["bots"][0], players)
        table.setdefault(str(players), {})[match] = entry
    return table


def print_table(table: dict) -> None:
    for players, matches in sorted(table.items()):
        print(f"{players} players")
        for match in ONE_SEAT:
            if match in matches:
                e = matches[match]
                p = e["points"]
                print(f"  {MATCH_LABELS[match]:<24} {e['games']:>4} games  "
                      f"{e['win_rate']:6.1%} [{e['low']:.1%}, {e['high']:.1%}]  "
                      f"vs fair {p[0]:+5.1f} [{p[1]:+.1f}, {p[2]:+.1f}] points  "
                      f"score lead {e['lead'][0]:+.1f} [{e['lead'][1]:+.1f}, {e['lead'][2]:+.1f}]  "
                      f"{e['seconds_per_game']:.1f} s/game")
        if "self" in matches:
            e = matches["self"]
            seats = "  ".join(f"seat {s['seat']} {s['win_rate']:.1%} [{s['low']:.1%}, "
                              f"{s['high']:.1%}]" for s in e["seats"])
            m = e["margin"]
            close = ", ".join(f"<= {c}: {share:.0%}" for c, share in m["close"].items())
            print(f"  {'base vs itself':<24} {e['games']:>4} games  {seats}")
            print(f"  {'':<24} margin mean {m['mean']:.1f} [{m['low']:.1f}, {m['high']:.1f}], "
                  f"median {m['median']}, quartiles {m['quartiles']}, {close}")


def plot(table: dict, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.6), gridspec_kw={"width_ratios": [3, 2]})
    counts = sorted(table)
    colours = {"random": "#9bbbd9", "greedy": "#4a7ab5", "8x": "#d99b4a", "cheat": "#b5524a"}
    width = 0.8 / len(ONE_SEAT)
    for g, players in enumerate(counts):
        fair = 1 / int(players)
        left.hlines(100 * fair, g - 0.45, g + 0.45, colors="black", linestyles="--", linewidth=1,
                    label="fair share (1/N)" if g == 0 else None)
        for k, match in enumerate(ONE_SEAT):
            e = table[players].get(match)
            if e is None:
                continue
            x = g - 0.4 + width * (k + 0.5)
            left.bar(x, 100 * e["win_rate"], width * 0.9, color=colours[match],
                     label=MATCH_LABELS[match] if not any(
                         match in table[p] for p in counts[:g]) else None,
                     yerr=[[100 * (e["win_rate"] - e["low"])], [100 * (e["high"] - e["win_rate"])]],
                     capsize=3)
    left.set_xticks(range(len(counts)), [f"{p} players" for p in counts])
    left.set_ylim(0, 105)
    left.set_ylabel("one seat's win rate, % (95% interval)")
    left.set_title("Who wins: one seat against the others")
    left.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=3)
    left.grid(axis="y", alpha=0.3)
    for players in counts:
        e = table[players].get("self")
        if e is None:
            continue
        margins = e["margin"]["margins"]
        xs = sorted(set(margins))
        right.step(xs, [100 * sum(m <= x for m in margins) / len(margins) for x in xs],
                   where="post", label=f"{players} players ({len(margins)} games)")
    right.set_xlabel("winner's margin over the runner-up, points")
    right.set_ylabel("games decided by at most that, %")
    right.set_title("How close games are: the base against itself")
    right.set_xlim(0, 30)
    right.set_ylim(0, 100)
    right.grid(alpha=0.3)
    if right.lines:
        right.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=whole_argument, choices=(2, 3, 4))
    parser.add_argument("--games", type=whole_argument, default=100, help="games per match")
    parser.add_argument("--seed", type=seed_argument, default=2026)
    parser.add_argument("--iterations", type=whole_argument, default=2000, help="the base's iterations")
    parser.add_argument("--only", action="append", choices=MATCHES, default=[],
                        help="play only this match (repeat; default: all five)")
    parser.add_argument("--workers", type=whole_argument, default=1)
    parser.add_argument("--report", action="store_true", help="play nothing, report OUT")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    if not args.report:
        if args.players is None:
            parser.error("--players is needed to play (or --report)")
        play(args)
    out = Path(args.out)
    table = report(out)
    (out / "skill.json").write_text(json.dumps(table, indent=1) + "\n")
    print_table(table)
    if table:
        plot(table, out / "skill.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
