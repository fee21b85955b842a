"""Trial (not kept): fit the evaluation's win weights to the outcomes of the
search's own self-play instead of the heuristic rollouts'.

    python docs/trials/selfplay_eval.py --players 2 --games 8000 --out weights_sp2.json

Plays `--games` games of `--bot` against itself (half basic, half advanced),
records the features of every player at every turn start and the game's final
win shares, fits the win weights by the same maximum likelihood as
bench/calibrate_eval.py on the first 80% of the games, reports the
cross-entropy on the rest next to the current weights', and writes a copy of
mcts/eval_weights.json whose win weights for that player count are refitted
on all games. Put that file in place of mcts/eval_weights.json to search with
it (docs/strength.md, fifth session). It needs numpy.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

import ulm  # noqa: E402
from ulm import derive_seed  # noqa: E402
from mcts import _search  # noqa: E402
from mcts.bots import make_bot  # noqa: E402
from mcts.evaluation import EVAL_WEIGHTS, WEIGHTS_FILE, eval_parameters  # noqa: E402
from bench.calibrate_eval import STAGES, cross_entropy, fit_win_weights, softmax  # noqa: E402

WEIGHTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "mcts",
                       WEIGHTS_FILE)


def self_play(players: int, variant: str, seed: int, spec: str):
    """Features of every player at each turn start [positions, players, W], and
    the final win shares."""
    state = ulm.Game(players=players, variant=variant).new_game(seed)
    bots = [make_bot(spec) for _ in range(players)]
    for seat, bot in enumerate(bots):
        bot.reseed(derive_seed(seed, 77, seat))
    rows = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.resolve_chance()
            continue
        if _search.is_turn_start(state):
            rows.append([_search.eval_features_of(state, p) for p in range(players)])
        state.apply_action(bots[state.current_player()].choose(state))
    won = state.winners()
    share = np.array([1.0 / len(won) if p in won else 0.0 for p in range(players)])
    return np.array(rows).reshape(-1, players, EVAL_WEIGHTS), share


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=8000)
    ap.add_argument("--bot", default="ismcts:iterations=300")
    ap.add_argument("--seed", type=int, default=4242)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    feats, shares, game = [], [], []
    for g in range(args.games):
        f, s = self_play(args.players, "basic" if g % 2 == 0 else "advanced",
                         derive_seed(args.seed, args.players, g), args.bot)
        feats.append(f)
        shares.append(np.repeat(s[None], len(f), axis=0))
        game.append(np.full(len(f), g))
    feats, shares, game = np.concatenate(feats), np.concatenate(shares), np.concatenate(game)
    test = game >= int(0.8 * args.games)
    w = fit_win_weights(feats[~test], shares[~test])
    current = np.array(eval_parameters(args.players)[1])
    left = feats[:, 0, EVAL_WEIGHTS // 2]
    print(f"{len(feats)} positions from {args.games} games; cross-entropy on the held-out "
          f"games (refitted / current / uniform {np.log(args.players):.4f}):")
    stages = [("all", test)] + [(name, test & (left > lo) & (left <= hi))
                                for name, lo, hi in STAGES]
    for name, sel in stages:
        print(f"  {name:20s} {cross_entropy(softmax(feats[sel] @ w), shares[sel]):.4f}"
              f"  {cross_entropy(softmax(feats[sel] @ current), shares[sel]):.4f}")
    with open(WEIGHTS, encoding="utf-8") as f:
        table = json.load(f)
    w_all = fit_win_weights(feats, shares)
    table["players"][str(args.players)]["win_weights"] = [round(float(v), 6) for v in w_all]
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(table, f, indent=1)
        f.write("\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
