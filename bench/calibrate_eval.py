"""Fit the evaluation's weights (mcts/eval_weights.json) on self-play.

    python bench/calibrate_eval.py                 # fit, print the report, write the file
    python bench/calibrate_eval.py --games 600 --check   # fit and report only

It needs numpy (the `peers` extra), which the package itself does not.

Games are played by a rollout policy (`--rollout`, by default the default
search's: the play the cut-off replaces), half in the basic and half in the
advanced variant. At every turn start the evaluation's features of every
player are recorded with that player's final score and win share. Per player
count:

* the weights: least squares (a little ridge) of the final score on the
  features, on 80% of the games;
* the temperature: the softmax of predicted scores that best predicts the
  winners (maximum likelihood, over a grid);
* the report, on the 20% held out (whole games): R^2 and mean absolute error
  of the predicted final scores, how often the predicted leader wins, and the
  same for the plain projection (score + end-game points now) for reference.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

try:
    import numpy as np
except ImportError:  # pragma: no cover - numpy comes with the peers extra
    sys.exit("Error: numpy: the calibration needs numpy (pip install -e '.[peers]')")

import ulm  # noqa: E402
from ulm import derive_seed  # noqa: E402
from mcts import _search  # noqa: E402
from mcts.evaluation import EVAL_WEIGHTS, FEATURE_NAMES, WEIGHTS_FILE  # noqa: E402
from mcts.search import DEFAULT_ROLLOUT  # noqa: E402

RIDGE = 1e-3
TEMPERATURES = np.exp(np.linspace(np.log(0.3), np.log(30.0), 80))


def play_game(players: int, variant: str, seed: int, rollout: str = "heuristic"):
    """One self-play game of a rollout policy: (features [turns, players, W],
    final scores, win shares)."""
    state = ulm.Game(players=players, variant=variant).new_game(seed)
    rows = []
    step = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.resolve_chance()
            continue
        if _search.is_turn_start(state):
            rows.append([_search.eval_features_of(state, p) for p in range(players)])
        step += 1
        state.apply_action(_search.heuristic_action_for(state, derive_seed(seed, step), rollout))
    won = state.winners()
    share = np.array([1.0 / len(won) if p in won else 0.0 for p in range(players)])
    return np.array(rows), np.array(state.scores(), dtype=float), share


def collect(players: int, games: int, seed: int, rollout: str):
    feats, scores, shares, game_ids = [], [], [], []
    for g in range(games):
        variant = "basic" if g % 2 == 0 else "advanced"
        f, s, w = play_game(players, variant, derive_seed(seed, players, g), rollout)
        feats.append(f)
        scores.append(np.repeat(s[None, :], len(f), axis=0))
        shares.append(np.repeat(w[None, :], len(f), axis=0))
        game_ids.append(np.full(len(f), g))
    return (np.concatenate(feats), np.concatenate(scores), np.concatenate(shares),
            np.concatenate(game_ids))


def fit_weights(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Ridge least squares (the constant not penalised)."""
    penalty = RIDGE * len(x) * np.eye(x.shape[1])
    penalty[0, 0] = 0.0
    return np.linalg.solve(x.T @ x + penalty, x.T @ y)


def log_likelihood(pred: np.ndarray, share: np.ndarray, temperature: float) -> float:
    z = pred / temperature
    z = z - z.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return float((share * logp).sum())


def metrics(pred: np.ndarray, final: np.ndarray, share: np.ndarray) -> dict:
    resid = final - pred
    r2 = 1.0 - (resid ** 2).sum() / ((final - final.mean()) ** 2).sum()
    leader = pred.argmax(axis=1)
    return {"r2": round(float(r2), 4), "mae": round(float(np.abs(resid).mean()), 3),
            "winner_accuracy": round(float(share[np.arange(len(share)), leader].mean()), 4)}


def calibrate(players: int, games: int, seed: int, rollout: str = "heuristic") -> dict:
    feats, final, share, gid = collect(players, games, seed, rollout)
    test = gid >= int(0.8 * games)
    train = ~test
    x_train = feats[train].reshape(-1, EVAL_WEIGHTS)
    w = fit_weights(x_train, final[train].reshape(-1))
    pred = feats @ w                                  # [positions, players]
    temps = [log_likelihood(pred[train], share[train], t) for t in TEMPERATURES]
    temperature = float(TEMPERATURES[int(np.argmax(temps))])
    projection = feats[:, :, 1] + feats[:, :, 2]      # score + end-game points now
    rounds_left = feats[:, 0, EVAL_WEIGHTS // 2]      # the share of the game left
    report = {"games": games, "positions": int(len(feats)), "held_out_positions": int(test.sum()),
              "held_out": metrics(pred[test], final[test], share[test]),
              "projection_held_out": metrics(projection[test], final[test], share[test]),
              "by_stage": {}}
    for name, lo, hi in (("early (rounds 1-3)", 0.7, 1.01), ("middle (rounds 4-7)", 0.3, 0.7),
                         ("late (rounds 8-10)", -0.01, 0.3)):
        sel = test & (rounds_left > lo) & (rounds_left <= hi)
        if sel.any():
            report["by_stage"][name] = metrics(pred[sel], final[sel], share[sel])
    return {"weights": [round(float(v), 6) for v in w], "temperature": round(temperature, 4),
            "fit": report}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1500, help="self-play games per player count")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--rollout", choices=_search.ROLLOUTS, default=DEFAULT_ROLLOUT,
                    help="the policy of the self-play games: the default search's rollouts")
    ap.add_argument("--check", action="store_true", help="report only; do not write the file")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                                  "mcts", WEIGHTS_FILE))
    args = ap.parse_args(argv)
    if args.games < 10:
        print("Error: --games: at least 10 games are needed", file=sys.stderr)
        return 2
    table = {"format": "ulm-eval-weights/1",
             "features": list(FEATURE_NAMES) + [f"{n} x left" for n in FEATURE_NAMES],
             "generated_by": f"python bench/calibrate_eval.py --games {args.games} "
                             f"--seed {args.seed} --rollout {args.rollout}",
             "rollout": args.rollout,
             "players": {}}
    for players in (2, 3, 4):
        start = time.monotonic()
        entry = calibrate(players, args.games, args.seed, args.rollout)
        table["players"][str(players)] = entry
        fit = entry["fit"]
        print(f"{players} players: {fit['positions']} positions from {args.games} games "
              f"({time.monotonic() - start:.0f} s); temperature {entry['temperature']}")
        print(f"  held out: {fit['held_out']}")
        print(f"  projection (score + end-game points now): {fit['projection_held_out']}")
        for stage, m in fit["by_stage"].items():
            print(f"  {stage}: {m}")
    if not args.check:
        tmp = args.out + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(table, f, indent=1)
            f.write("\n")
        os.replace(tmp, args.out)
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
