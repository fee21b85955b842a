"""Rate the bot levels (mcts.play.levels) and the anchors random and greedy on the
Elo scale: duplicate-deal matches between every two bots at most `--reach`
apart in the order random, greedy, level:1, level:2, ..., a Bradley-Terry fit
(greedy at 0) and 95% intervals from resampling each match's deals, of each
rating and of each level's gap above the level below.

    python bench/levels_rating.py --players 2 --games 100 --seed 1 --out levels2p

Each match is an ordinary tournament in OUT/<a>_vs_<b>/ (resumed when run
again, the same games from the same seed); the table, of every match in OUT
(--only and --skip let matches of different lengths share a folder), goes to OUT/ratings.json
and OUT/ratings.png. With --players 3 or 4 the other seats are filled by the
two bots in turn (mcts.play.tournament's cyclic fill) and every two seats of a game
count as one comparison. --scheduler runs the games on a Dask cluster.
"""
from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from mcts.play.cluster import open_executor
from mcts.play.elo import elo_fit, pair_results
from mcts.play.levels import ANCHORS, LEVELS
from mcts.play.tournament import TournamentConfig, run_tournament
from ulm.numbers import seed_argument, whole_argument

RESAMPLES = 400


def lineup() -> list[str]:
    return list(ANCHORS) + [f"level:{lv.number}" for lv in LEVELS]


def matches(reach: int, skip: set, only: set) -> list[tuple[str, str]]:
    bots = lineup()
    return [(bots[i], bots[j]) for i in range(len(bots)) for j in range(i + 1, len(bots))
            if j - i <= reach and not skip & {bots[i], bots[j]}
            and (not only or only & {bots[i], bots[j]})]


def play(args) -> None:
    with open_executor(args.scheduler) as executor:
        for a, b in matches(args.reach, set(args.skip), set(args.only)):
            cfg = TournamentConfig(bots=[a, b], players=args.players, games=args.games,
                                   seed=args.seed)
            out = Path(args.out) / f"{a}_vs_{b}".replace(":", "")
            summary = run_tournament(cfg, out, workers=args.workers, progress=False,
                                     scheduler=executor)
            print(f"{a} vs {b}: {summary['bots'][0]['win_rate']:.1%} of {summary['games']}",
                  flush=True)


def played(out: Path) -> list[dict]:
    """The games of every match in `out`, of this and of earlier runs."""
    return [json.loads(line) | {"match": folder.parent.name}
            for folder in sorted(out.glob("*/games.jsonl"))
            for line in folder.read_text().splitlines() if line.strip()]


def totals(pairs: dict) -> dict:
    return {pair: (sum(w for w, _ in deals.values()), sum(g for _, g in deals.values()))
            for pair, deals in pairs.items()}


def interval(values: list[float]) -> tuple[int, int]:
    d = sorted(values)
    return round(d[int(0.025 * len(d))]), round(d[int(0.975 * len(d)) - 1])


def ratings(rows: list[dict], seed: int) -> tuple[dict, dict]:
    """Each bot's Elo and 95% interval (deals of each match resampled), and each
    level's gap above the level below with its own 95% interval (of the same
    resamples)."""
    for row in rows:        # deals of different matches are different samples
        row["deal"] = f"{row['match']}/{row['deal']}"
    pairs = pair_results(rows)
    point = elo_fit(totals(pairs), "greedy")
    rng = random.Random(seed)
    draws: dict = {n: [] for n in point}
    for _ in range(RESAMPLES):
        sample = {}
        for pair, deals in pairs.items():
            keys = list(deals)
            picked = [deals[rng.choice(keys)] for _ in keys]
            sample[pair] = (sum(w for w, _ in picked), sum(g for _, g in picked))
        for n, elo in elo_fit(sample, "greedy").items():
            draws[n].append(elo)
    table = {n: (round(point[n]), *interval(draws[n])) for n in lineup() if n in point}
    levels = [n for n in lineup() if n.startswith("level:") and n in point]
    gaps = {f"{b} - {a}": (round(point[b] - point[a]),
                           *interval([y - x for x, y in zip(draws[a], draws[b])]))
            for a, b in zip(levels, levels[1:])}
    return table, gaps


def plot(table: dict, players: int, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = [n for n in table if n != "random"]       # far below: named, not drawn
    elo = [table[n][0] for n in names]
    low = [table[n][0] - table[n][1] for n in names]
    high = [table[n][2] - table[n][0] for n in names]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.errorbar(range(len(names)), elo, yerr=[low, high], fmt="o", capsize=4)
    ax.set_xticks(range(len(names)), names, rotation=30)
    ax.set_ylabel("Elo (greedy = 0)")
    off = f"; random {table['random'][0]:+d}, off the scale" if "random" in table else ""
    ax.set_title(f"Bot levels, {players} players (95% intervals{off})")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=whole_argument, default=2, choices=(2, 3, 4))
    parser.add_argument("--games", type=whole_argument, default=100, help="games per match")
    parser.add_argument("--seed", type=seed_argument, default=1)
    parser.add_argument("--reach", type=whole_argument, default=2,
                        help="matches between bots at most this far apart in the lineup")
    parser.add_argument("--skip", action="append", default=[], help="leave out this bot")
    parser.add_argument("--only", action="append", default=[],
                        help="play only the matches of this bot (the table takes every "
                             "match in OUT)")
    parser.add_argument("--workers", type=whole_argument, default=1)
    parser.add_argument("--scheduler", default=None, help="tcp://HOST:8786 or local:N")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    play(args)
    out = Path(args.out)
    rows = played(out)
    table, gaps = ratings(rows, args.seed)
    (out / "ratings.json").write_text(json.dumps(
        {"players": args.players, "games": len(rows), "ratings": table, "gaps": gaps},
        indent=1) + "\n")
    plot(table, args.players, out / "ratings.png")
    print(f"{len(rows)} games, {args.players} players; Elo [95%], greedy = 0")
    for name, (elo, lo, hi) in table.items():
        print(f"{name:<10} {elo:>6} [{lo}, {hi}]")
    print("each level above the one below, Elo [95%]")
    for name, (gap, lo, hi) in gaps.items():
        print(f"{name:<19} {gap:>+5} [{lo:+d}, {hi:+d}]")


if __name__ == "__main__":
    main()
