"""Train a small policy on the observation tensor, through the PettingZoo environment.

    pip install -e '.[rl]'                  # PettingZoo; add '.[plot]' for the curve
    python examples/train_policy.py --games 3000 --then-games 3000 --plot curve.png

A two-layer network (numpy only) reads a seat's observation tensor
(``State.observation_tensor``, docs/environments.md) and gives a probability to
each legal decision (the observation's action mask). It plays one seat of
``ulm.pettingzoo.env``; the other seats are played by a bot of mcts.play, first
``random`` for --games games, then ``greedy`` for --then-games more. It learns
by REINFORCE with a running baseline: after each game, every decision the
policy made is pushed towards (target - baseline). The target is the seat's
win share, the environment's reward, plus (--target margin, the default)
tanh(margin / 10) / 2, where the margin is the seat's points minus the best
other seat's, read from the seat's own last observation: against a bot it
almost never beats, a win share alone is 0 after every game and teaches
nothing. The learner's seat changes every game.

It prints, every --report games, the win rate of the last --report games; at
the end it plays --eval games with the policy's most likely decision against
each opponent, and the same games with uniformly random decisions in its
place, so that what the policy learned is measured against what a seat gets
by chance. --plot draws the curve (the plot extra, matplotlib).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from mcts import make_bot  # noqa: E402
from ulm import derive_seed  # noqa: E402
from ulm import OBSERVATION_SEAT_FIELDS, OBSERVATION_SLICES  # noqa: E402
from ulm.pettingzoo import env as make_env  # noqa: E402


class Policy:
    """obs -> ReLU(W1 obs + b1) -> W2 h + b2: one logit per decision, softmax over the legal."""

    def __init__(self, n_obs: int, n_actions: int, hidden: int, rng: np.random.Generator):
        self.params = {
            "W1": rng.normal(0, 1 / np.sqrt(n_obs), (hidden, n_obs)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "W2": np.zeros((n_actions, hidden), np.float32),    # uniform over the legal at first
            "b2": np.zeros(n_actions, np.float32),
        }
        self.adam = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in self.params.items()}
        self.t = 0

    def probabilities(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p = self.params
        h = np.maximum(p["W1"] @ obs + p["b1"], 0.0)
        logits = p["W2"] @ h + p["b2"]
        logits = np.where(mask > 0, logits, -np.inf)
        e = np.exp(logits - logits.max())
        return e / e.sum(), h

    def update(self, steps: list, advantages: list[float], lr: float, entropy: float) -> None:
        """One Adam step on the policy gradient of a batch of games."""
        p = self.params
        grads = {k: np.zeros_like(v) for k, v in p.items()}
        n = 0
        for game, adv in zip(steps, advantages):
            for obs, mask, action in game:
                probs, h = self.probabilities(obs, mask)
                # d log pi(a) / d logits = onehot(a) - pi; plus the entropy's gradient
                d = -probs
                d[action] += 1.0
                d *= adv
                logp = np.log(np.where(probs > 0, probs, 1.0))
                d += entropy * probs * (-(logp) - (probs * -logp).sum())
                grads["W2"] += np.outer(d, h)
                grads["b2"] += d
                dh = (p["W2"].T @ d) * (h > 0)
                grads["W1"] += np.outer(dh, obs)
                grads["b1"] += dh
                n += 1
        self.t += 1
        for k in p:
            g = -grads[k] / max(n, 1)                 # gradient ascent on the return
            m, v = self.adam[k]
            m[:] = 0.9 * m + 0.1 * g
            v[:] = 0.999 * v + 0.001 * g * g
            mh, vh = m / (1 - 0.9 ** self.t), v / (1 - 0.999 ** self.t)
            p[k] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)


SEATS_AT = next(start for name, start, _, _ in OBSERVATION_SLICES if name == "seats")
SLOT = next(shape for name, _, shape, _ in OBSERVATION_SLICES if name == "seats")[1]
POINTS_AT = next(start for name, start, _ in OBSERVATION_SEAT_FIELDS if name == "points")


def margin(final_obs: np.ndarray, players: int) -> float:
    """The seat's points minus the best other seat's, read from its last observation
    (the "seats" slice: slot 0 is the seat, points / 100)."""
    points = [final_obs[SEATS_AT + k * SLOT + POINTS_AT] * 100 for k in range(players)]
    return float(points[0] - max(points[1:]))


def play(e, seed: int, seat: int, opponent, choose) -> tuple[float, float, list]:
    """One game: `choose(obs, mask)` decides for `seat`, `opponent` for the others.
    Returns the seat's reward, its final points margin and its (observation, mask,
    action) steps."""
    e.reset(seed=seed)
    opponent.reseed(derive_seed(seed, 7))
    mine = f"player_{seat}"
    reward = 0.0
    lead = 0.0
    steps = []
    for agent in e.agent_iter():
        obs, r, term, trunc, _ = e.last()
        if agent == mine:
            reward += r
            if term:
                lead = margin(obs["observation"], len(e.possible_agents))
        if term or trunc:
            e.step(None)
        elif agent == mine:
            action = choose(obs["observation"], obs["action_mask"])
            steps.append((obs["observation"].copy(), obs["action_mask"].copy(), action))
            e.step(action)
        else:          # the bot plays from the game's state, as in a tournament
            e.step(opponent.choose(e.unwrapped.game_state))
    return reward, lead, steps


def evaluate(e, policy, opponent, games: int, seed: int, players: int, rng) -> dict:
    """Win rate of the policy's most likely decision and of random decisions, same deals."""
    def best(obs, mask):
        return int(np.argmax(policy.probabilities(obs, mask)[0]))

    def uniform(obs, mask):
        return int(rng.choice(np.flatnonzero(mask)))

    out = {}
    for name, choose in (("policy", best), ("random", uniform)):
        games_played = [play(e, derive_seed(seed, 99, g), g % players, opponent, choose)[:2]
                        for g in range(games)]
        out[name] = float(np.mean([w for w, _ in games_played]))
        out[name + "_margin"] = float(np.mean([m for _, m in games_played]))
    return out


def plot_with_comparison(summary: dict, args) -> None:
    """The curve to --plot, beside the summary of --compare (a blind run's) if given."""
    other = None
    if args.compare:
        with open(args.compare) as f:
            other = json.load(f)
    plot(summary, args.plot, other)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--games", type=int, default=3000, help="training games against random")
    ap.add_argument("--then-games", type=int, default=3000, help="training games against greedy")
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--batch", type=int, default=16, help="games per update")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--entropy", type=float, default=0.003)
    ap.add_argument("--report", type=int, default=200, help="games per printed win rate")
    ap.add_argument("--eval", type=int, default=200, help="evaluation games against each opponent")
    ap.add_argument("--target", choices=("win", "margin"), default="margin",
                    help="what a game teaches: the win share alone, or the win share plus "
                         "tanh(points margin / 10) / 2 (read from the seat's last observation)")
    ap.add_argument("--blind", action="store_true",
                    help="an ablation: the policy sees an all-zero observation (the mask only), "
                         "to measure what the tensor adds")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--plot", help="draw the curve into this PNG (needs matplotlib)")
    ap.add_argument("--json", help="write the curve and the figures as JSON")
    ap.add_argument("--compare", help="also draw the curve of another run (its --json file), dashed")
    ap.add_argument("--redraw", metavar="RUN_JSON",
                    help="train nothing: draw --plot from a finished run's --json file")
    args = ap.parse_args(argv)
    for name in ("games", "then_games", "eval"):
        if getattr(args, name) < 0:
            ap.error(f"--{name.replace('_', '-')} must be 0 or more")
    for name in ("hidden", "batch", "report"):
        if getattr(args, name) < 1:
            ap.error(f"--{name} must be 1 or more")
    if not (np.isfinite(args.lr) and args.lr > 0 and np.isfinite(args.entropy) and args.entropy >= 0):
        ap.error("--lr must be positive and --entropy 0 or more (finite)")

    if args.redraw:
        if not args.plot:
            ap.error("--redraw needs --plot")
        with open(args.redraw) as f:
            summary = json.load(f)
        plot_with_comparison(summary, args)
        return 0

    rng = np.random.default_rng(args.seed)
    e = make_env(players=args.players)
    e.reset(seed=args.seed)
    n_obs = e.observation_space("player_0")["observation"].shape[0]
    n_actions = e.action_space("player_0").n
    policy = Policy(n_obs, n_actions, args.hidden, rng)

    if args.blind:
        blank = np.zeros(n_obs, np.float32)
        see = policy.probabilities
        policy.probabilities = lambda obs, mask: see(blank, mask)

    def sample(obs, mask):
        return int(rng.choice(n_actions, p=policy.probabilities(obs, mask)[0]))

    start = time.time()
    curve = []
    results = {}
    played = 0
    for phase, games in (("random", args.games), ("greedy", args.then_games)):
        if not games:
            continue
        opponent = make_bot(phase)
        baseline = 1.0 / args.players if args.target == "win" else 0.0
        batch, rewards, window = [], [], []
        for _ in range(games):
            seed = derive_seed(args.seed, played)
            reward, lead, steps = play(e, seed, played % args.players, opponent, sample)
            played += 1
            batch.append(steps)
            rewards.append(reward + (0.5 * np.tanh(lead / 10) if args.target == "margin" else 0.0))
            window.append((reward, lead))
            if len(batch) == args.batch:
                policy.update(batch, [r - baseline for r in rewards], args.lr, args.entropy)
                baseline = 0.95 * baseline + 0.05 * float(np.mean(rewards))
                batch, rewards = [], []
            if len(window) == args.report:
                rate = float(np.mean([w for w, _ in window]))
                lead = float(np.mean([m for _, m in window]))
                curve.append({"games": played, "opponent": phase, "win_rate": rate,
                              "margin": lead, "seconds": round(time.time() - start, 1)})
                print(f"{played:6d} games  vs {phase:<6}  win rate {rate:.3f}  "
                      f"points margin {lead:+6.1f}  ({time.time() - start:.0f} s)", flush=True)
                window = []
        if args.eval:
            results[phase] = evaluate(e, policy, opponent, args.eval, args.seed, args.players, rng)
            r = results[phase]
            print(f"after training vs {phase}: the policy's best decision wins {r['policy']:.3f} "
                  f"of {args.eval} games (points margin {r['policy_margin']:+.1f}); random "
                  f"decisions win {r['random']:.3f} (margin {r['random_margin']:+.1f})", flush=True)
    seconds = time.time() - start
    print(f"{played} training games in {seconds:.0f} s")
    summary = {"args": vars(args), "curve": curve, "evaluation": results, "seconds": round(seconds, 1)}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(summary, f, indent=1)
    if args.plot:
        plot_with_comparison(summary, args)
    return 0


def _label(run: dict) -> str:
    return "blind (mask only)" if run["args"].get("blind") else f"target {run['args']['target']}"


def plot(summary: dict, path: str, other: dict | None = None) -> None:
    from ulm.extras import require
    require("matplotlib", "plot", "--plot")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (ax, bx) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    a = summary["args"]
    for phase, colour in (("random", "tab:blue"), ("greedy", "tab:red")):
        pts = [c for c in summary["curve"] if c["opponent"] == phase]
        if not pts:
            continue
        x = [c["games"] for c in pts]
        ax.plot(x, [c["win_rate"] for c in pts], "o-", color=colour, ms=3,
                label=f"against {phase}")
        bx.plot(x, [c["margin"] for c in pts], "o-", color=colour, ms=3, label=f"against {phase}")
        if other:
            ops = [c for c in other["curve"] if c["opponent"] == phase]
            ox = [c["games"] for c in ops]
            ax.plot(ox, [c["win_rate"] for c in ops], "--", color=colour, lw=1,
                    label=f"against {phase}, {_label(other)}")
            bx.plot(ox, [c["margin"] for c in ops], "--", color=colour, lw=1)
        ev = summary["evaluation"].get(phase)
        if ev:
            ax.plot([x[0], x[-1]], [ev["random"]] * 2, ":", color=colour, lw=1.5,
                    label=f"random decisions against {phase}")
            bx.plot([x[0], x[-1]], [ev["random_margin"]] * 2, ":", color=colour, lw=1.5)
    ax.set_ylabel(f"win share (mean of {a['report']} games)")
    ax.set_ylim(-0.02, 1.02)
    bx.axhline(0, color="gray", lw=0.5)
    bx.set_ylabel("points margin")
    bx.set_xlabel("training games")
    ax.set_title(f"examples/train_policy.py: {a['players']} players, {_label(summary)}, "
                 f"{summary['seconds'] / 60:.0f} min")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


if __name__ == "__main__":
    sys.exit(main())
