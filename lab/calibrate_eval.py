"""Fit the evaluation's weights (mcts/searcher/eval_weights.json) on rollouts.

    python lab/calibrate_eval.py                 # fit, print the report, write the file
    python lab/calibrate_eval.py --games 600 --check   # fit and report only

It needs numpy, a dependency of the package.

The cut-off evaluation stands in for the rest of a rollout, so it is fitted to
what rollouts give. Games are played by a rollout policy (`--rollout`, by
default the default search's), half in the basic and half in the advanced
variant. At a share (`--sample`) of the turn starts the features of every
player are recorded, and `--rollouts` playouts of the same policy are played
from there: each player's mean final score and mean win share (R-END-3) are
the targets. Per player count, on the positions of 80% of the games:

* score weights: least squares (a little ridge) of the mean final score;
* win weights: the softmax of the players' linear logits that best predicts
  the mean win shares (maximum likelihood by Newton's method, a little ridge);
  the logits' scale is fitted with them, so no temperature is needed.

The report, on the positions of the 20% of games held out, by game stage:
R^2 and mean absolute error of the predicted scores against the rollouts'
mean; the cross-entropy of the win chances against the rollouts' win shares
(next to the targets' own entropy, the least any prediction can reach up to
the rollouts' sampling noise, and to a uniform guess), and the mean win share
of the player with the highest win chance.
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
from ulm.numbers import seed_argument  # noqa: E402
from mcts.searcher import _search  # noqa: E402
from mcts.searcher.evaluation import EVAL_WEIGHTS, FEATURE_NAMES, WEIGHTS_FILE  # noqa: E402
from mcts.searcher.search import DEFAULT_ROLLOUT  # noqa: E402
from mcts.learning.selfplay import kept_turn_start  # noqa: E402

RIDGE = 1e-3
WIN_RIDGE = 1e-4
STAGES = (("early (rounds 1-3)", 0.7, 1.01), ("middle (rounds 4-7)", 0.3, 0.7),
          ("late (rounds 8-10)", -0.01, 0.3))


def play_game(players: int, variant: str, seed: int, rollout: str = "heuristic",
              sample: float = 1.0, rollouts: int = 0):
    """One self-play game of a rollout policy. At turn starts (each kept with
    chance `sample`): the features of every player [positions, players, W], and
    the mean final scores and win shares of `rollouts` playouts from there
    (None without rollouts). Also the game's own final scores and win shares."""
    state = ulm.Game(players=players, variant=variant).new_game(seed)
    rows, mean_scores, mean_shares = [], [], []
    for step in ulm.decision_steps(state):
        if kept_turn_start(state, seed, step, sample):
            rows.append([_search.eval_features_of(state, p) for p in range(players)])
            if rollouts:
                out = [_search.playout_outcome(state, derive_seed(seed, step, k), rollout)
                       for k in range(rollouts)]
                mean_scores.append(np.mean([o[0] for o in out], axis=0))
                mean_shares.append(np.mean([o[1] for o in out], axis=0))
        state.apply_action(_search.heuristic_action_for(state, derive_seed(seed, step), rollout))
    won = state.winners()
    share = np.array([1.0 / len(won) if p in won else 0.0 for p in range(players)])
    feats = np.array(rows).reshape(len(rows), players, EVAL_WEIGHTS)
    means = (np.array(mean_scores), np.array(mean_shares)) if rollouts else None
    return feats, np.array(state.scores(), dtype=float), share, means


def collect(players: int, games: int, seed: int, rollout: str, sample: float, rollouts: int):
    feats, scores, shares, game_ids = [], [], [], []
    for g in range(games):
        variant = "basic" if g % 2 == 0 else "advanced"
        f, _, _, (s, w) = play_game(players, variant, derive_seed(seed, players, g), rollout,
                                    sample, rollouts)
        if len(f):
            feats.append(f)
            scores.append(s)
            shares.append(w)
            game_ids.append(np.full(len(f), g))
    return (np.concatenate(feats), np.concatenate(scores), np.concatenate(shares),
            np.concatenate(game_ids))


def fit_weights(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Ridge least squares (the constant not penalised)."""
    penalty = RIDGE * len(x) * np.eye(x.shape[1])
    penalty[0, 0] = 0.0
    return np.linalg.solve(x.T @ x + penalty, x.T @ y)


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def fit_win_weights(feats: np.ndarray, shares: np.ndarray, steps: int = 30) -> np.ndarray:
    """Maximum likelihood of the win shares under softmax(feats @ w) (Newton's
    method on the features scaled to unit spread; the softmax ignores what all
    players share, such as the constant, so a little ridge fixes those)."""
    n, players, dim = feats.shape
    scale = feats.reshape(-1, dim).std(axis=0)
    scale[scale == 0] = 1.0
    x = feats / scale
    w = np.zeros(dim)
    for _ in range(steps):
        p = softmax(x @ w)
        grad = np.einsum("npd,np->d", x, p - shares) / n + WIN_RIDGE * w
        mean_x = np.einsum("npd,np->nd", x, p)
        hess = (np.einsum("npd,np,npe->de", x, p, x) - mean_x.T @ mean_x) / n
        step = np.linalg.solve(hess + WIN_RIDGE * np.eye(dim), grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w / scale


def cross_entropy(p: np.ndarray, target: np.ndarray) -> float:
    return float(-(target * np.log(np.clip(p, 1e-12, 1.0))).sum(axis=1).mean())


def metrics(pred: np.ndarray, win: np.ndarray, mean_score: np.ndarray,
            mean_share: np.ndarray) -> dict:
    resid = mean_score - pred
    r2 = 1.0 - (resid ** 2).sum() / ((mean_score - mean_score.mean()) ** 2).sum()
    players = win.shape[1]
    return {"score_r2": round(float(r2), 4), "score_mae": round(float(np.abs(resid).mean()), 3),
            "win_cross_entropy": round(cross_entropy(win, mean_share), 4),
            "targets_entropy": round(cross_entropy(mean_share, mean_share), 4),
            "uniform_cross_entropy": round(float(np.log(players)), 4),
            "favourite_win_share": round(float(
                mean_share[np.arange(len(win)), win.argmax(axis=1)].mean()), 4)}


def load_weights(path: str, players: int):
    """(score weights, win weights) for `players` from a weights file: this
    format, or the first one (one weight set and a softmax temperature)."""
    with open(path, encoding="utf-8") as f:
        entry = json.load(f)["players"][str(players)]
    if "weights" in entry:                            # ulm-eval-weights/1
        w = np.array(entry["weights"])
        return w, w / entry["temperature"]
    return np.array(entry["score_weights"]), np.array(entry["win_weights"])


def report_of(feats, mean_score, mean_share, test, w, w_win) -> dict:
    """The metrics of weights (w, w_win) on the held-out positions, in all and by stage."""
    pred = feats @ w                                  # [positions, players]
    win = softmax(feats @ w_win)
    left = feats[:, 0, EVAL_WEIGHTS // 2]             # the share of the game left
    out = {"held_out": metrics(pred[test], win[test], mean_score[test], mean_share[test]),
           "by_stage": {}}
    for name, lo, hi in STAGES:
        sel = test & (left > lo) & (left <= hi)
        if sel.any():
            out["by_stage"][name] = metrics(pred[sel], win[sel], mean_score[sel], mean_share[sel])
    return out


def calibrate(players: int, games: int, seed: int, rollout: str = "heuristic",
              sample: float = 0.35, rollouts: int = 32, compare: str | None = None) -> dict:
    feats, mean_score, mean_share, gid = collect(players, games, seed, rollout, sample, rollouts)
    test = gid >= int(0.8 * games)
    train = ~test
    w = fit_weights(feats[train].reshape(-1, EVAL_WEIGHTS), mean_score[train].reshape(-1))
    w_win = fit_win_weights(feats[train], mean_share[train])
    report = {"games": games, "rollouts_per_position": rollouts,
              "positions": int(len(feats)), "held_out_positions": int(test.sum()),
              **report_of(feats, mean_score, mean_share, test, w, w_win)}
    if compare:
        report["compared"] = {"file": os.path.basename(compare),
                              **report_of(feats, mean_score, mean_share, test,
                                          *load_weights(compare, players))}
    return {"score_weights": [round(float(v), 6) for v in w],
            "win_weights": [round(float(v), 6) for v in w_win], "fit": report}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=6000, help="self-play games per player count")
    ap.add_argument("--seed", type=seed_argument, default=2026)
    ap.add_argument("--rollout", choices=_search.ROLLOUTS, default=DEFAULT_ROLLOUT,
                    help="the policy of the self-play games and rollouts: the default search's")
    ap.add_argument("--sample", type=float, default=0.35,
                    help="share of the turn starts that become positions")
    ap.add_argument("--rollouts", type=int, default=32, help="playouts from each position")
    ap.add_argument("--check", action="store_true", help="report only; do not write the file")
    ap.add_argument("--compare", metavar="FILE",
                    help="also report another weights file's evaluation on the same positions")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                                  "mcts", "searcher", WEIGHTS_FILE))
    args = ap.parse_args(argv)
    if args.games < 10:
        print("Error: --games: at least 10 games are needed", file=sys.stderr)
        return 2
    if not 0 < args.sample <= 1:
        print("Error: --sample: must be in (0, 1]", file=sys.stderr)
        return 2
    if args.rollouts < 1:
        print("Error: --rollouts: at least 1 playout per position is needed", file=sys.stderr)
        return 2
    if args.compare:
        try:
            for players in (2, 3, 4):
                load_weights(args.compare, players)
        except (OSError, ValueError, KeyError, TypeError) as e:
            print(f"Error: --compare: {args.compare}: not a weights file ({e})", file=sys.stderr)
            return 2
    table = {"format": "ulm-eval-weights/2",
             "features": list(FEATURE_NAMES) + [f"{n} x left" for n in FEATURE_NAMES],
             "generated_by": f"python lab/calibrate_eval.py --games {args.games} "
                             f"--seed {args.seed} --rollout {args.rollout} "
                             f"--sample {args.sample} --rollouts {args.rollouts}",
             "rollout": args.rollout,
             "players": {}}
    for players in (2, 3, 4):
        start = time.monotonic()
        entry = calibrate(players, args.games, args.seed, args.rollout, args.sample,
                          args.rollouts, args.compare)
        table["players"][str(players)] = entry
        fit = entry["fit"]
        print(f"{players} players: {fit['positions']} positions from {args.games} games, "
              f"{args.rollouts} rollouts each ({time.monotonic() - start:.0f} s)")
        print(f"  held out: {fit['held_out']}")
        for stage, m in fit["by_stage"].items():
            print(f"  {stage}: {m}")
        if "compared" in fit:
            print(f"  {args.compare}, held out: {fit['compared']['held_out']}")
            for stage, m in fit["compared"]["by_stage"].items():
                print(f"    {stage}: {m}")
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
