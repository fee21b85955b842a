"""How each bot level errs, judged by a stronger search: games of every level
against itself, every decision of both seats annotated (mcts.play.annotate) with
`--judge` iterations; per level the mean loss per decision with a choice (in
percentage points of the win estimate), the share of those decisions losing
more than 10 points, and the level's thinking time per decision: the mean and
99th percentile of its CPU time (time.thread_time, which a busy machine does
not inflate) and the most wall time.

    python bench/levels_loss.py --games 8 --judge 4000 --seed 1

The same seed plays and judges the same games.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

from ulm import derive_seed
from ulm.records import GameRecord
from ulm.numbers import seed_argument, whole_argument

from mcts.play.annotate import annotate
from mcts.play.bots import make_bot
from mcts.play.bot_game import bot_seed
from mcts.play.levels import LEVELS

BIG_LOSS = 10.0     # percentage points of the win estimate


def play(spec: str, seed: int) -> tuple[GameRecord, list[tuple[float, float]]]:
    """A 2-player game of `spec` against itself; the (CPU, wall) seconds of each
    searched decision."""
    bots = [make_bot(spec, 2) for _ in range(2)]
    for seat, bot in enumerate(bots):
        bot.reseed(bot_seed(bot.seed, seed, seat))
    rec = GameRecord(players=2, seed=seed, bots=[spec, spec])
    seconds = []
    while not rec.state.is_terminal():
        state = rec.state
        choices = len(state.legal_actions())
        cpu, wall = time.thread_time(), time.perf_counter()
        action = bots[state.current_player()].choose(state.clone())
        if choices > 1:
            seconds.append((time.thread_time() - cpu, time.perf_counter() - wall))
        rec.apply(action)
    return rec, seconds


def losses(rec: GameRecord, judge: int, seed: int) -> list[float]:
    out = []
    for seat in range(2):
        report = annotate(rec, seat, iterations=judge, seed=derive_seed(seed, seat))
        out += [100 * note.loss for note in report.notes if not note.forced]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=whole_argument, default=8, help="games per level")
    parser.add_argument("--judge", type=whole_argument, default=4000,
                        help="iterations of the judge (0: no judging, the times only)")
    parser.add_argument("--seed", type=seed_argument, default=1)
    parser.add_argument("--out", default=None, help="write the table as JSON here")
    args = parser.parse_args()
    rows = []
    for level in LEVELS:
        lost, seconds = [], []
        for g in range(args.games):
            seed = derive_seed(args.seed, g)
            rec, secs = play(f"level:{level.number}", seed)
            seconds += secs
            lost += losses(rec, args.judge, seed) if args.judge else []
        row = {"level": level.number, "spec": level.spec, "decisions": len(lost)}
        if lost:
            row |= {"mean_loss": statistics.fmean(lost),
                    "loss_error": statistics.stdev(lost) / len(lost) ** 0.5,
                    "big_share": sum(x > BIG_LOSS for x in lost) / len(lost)}
        row |= {"mean_cpu": statistics.fmean(c for c, _ in seconds),
                "p99_cpu": sorted(c for c, _ in seconds)[int(0.99 * len(seconds))],
                "max_wall": max(w for _, w in seconds)}
        rows.append(row)
        judged = (f"{row['decisions']} decisions, mean loss {row['mean_loss']:.2f} ± "
                  f"{row['loss_error']:.2f} points, {row['big_share']:.1%} over {BIG_LOSS:g}; "
                  if lost else "")
        print(f"level {level.number} ({level.spec}): {judged}CPU {1000 * row['mean_cpu']:.1f} ms a "
              f"decision, 99% within {1000 * row['p99_cpu']:.1f} ms (wall at most "
              f"{1000 * row['max_wall']:.0f} ms)", flush=True)
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"games": args.games, "judge": args.judge, "seed": args.seed,
                       "levels": rows}, f, indent=1)


if __name__ == "__main__":
    main()
