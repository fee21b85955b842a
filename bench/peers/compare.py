"""Our ISMCTS (mcts.searcher.search) side by side with OpenSpiel's Python ISMCTSBot.

    python bench/peers/compare.py [--positions N] [--seconds S] [--games G]

(a) Speed: iterations per second of both searchers on the same fixed
    4-player mid-game positions (ulm.benchmarks.midgame_state with the first
    N seeds 1, 2, ... whose position has two or more legal actions),
    each searched --repeats times for S seconds of wall time per engine.
    Ours is measured with random rollouts (like OpenSpiel's
    RandomRolloutEvaluator) and, in an extra column, with its default rollout.
(b) Strength at equal time: a 2-player tournament, S seconds of wall time per
    decision for both, G games with the seats alternated (game 2k and 2k+1
    share a chance seed), wins of ours with a 95% Wilson interval. Ours is the
    ``ismcts`` bot with its defaults (its default rollout unless --rollout is
    given).
(c) Strength at equal iterations: the same, with --iterations simulations per
    decision for both instead of a time (--iteration-games games).

Both searchers run single-threaded in this one process, one after the other.
OpenSpiel's side is open_spiel.python.algorithms.ismcts.ISMCTSBot (stock
selection, expansion, backup, final policy MAX_VISIT_COUNT, a fresh
determinization per iteration) with mcts.RandomRolloutEvaluator (one random
rollout); the only change is that its simulation loop stops on wall time
instead of a simulation count (TimedISMCTSBot below). Ours is mcts.searcher.search /
the ``ismcts`` bot, workers=1. Decisions with a single legal action are played
without searching, for both bots. Both use the same UCT constant (--c).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import sys
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
for _p in (_HERE, os.path.dirname(_HERE)):
    if _p not in sys.path:
        sys.path.insert(0, _p)
import _ulm_path  # noqa: E402,F401  (the checkout's ulm if built in place, else the installed one)

import numpy as np  # noqa: E402

try:
    import pyspiel  # noqa: E402
    from open_spiel.python.algorithms import ismcts as os_ismcts  # noqa: E402
    from open_spiel.python.algorithms import mcts as os_mcts  # noqa: E402
except ImportError:  # pragma: no cover - depends on the environment
    sys.exit("compare.py needs OpenSpiel: pip install 'open-spiel>=1.5' "
             "(or pip install -e '.[peers]')")

import ulm.openspiel as ulm_openspiel  # noqa: E402  (registers python_ulm)
from ulm import derive_seed  # noqa: E402
from ulm.numbers import seed_argument  # noqa: E402
from ulm.benchmarks import midgame_state  # noqa: E402

try:
    import mcts  # noqa: E402
    from mcts import FULL_ROLLOUT_C, make_bot, search  # noqa: E402
except ImportError as exc:  # pragma: no cover - mcts/ is written elsewhere
    sys.exit(f"compare.py needs our searcher (mcts/): {exc}")
DEFAULT_ROLLOUT = getattr(mcts, "DEFAULT_ROLLOUT", "random")


class TimedISMCTSBot(os_ismcts.ISMCTSBot):
    """OpenSpiel's ISMCTSBot with its simulation loop bounded by wall time.

    run_search is ISMCTSBot.run_search with `for _ in range(max_simulations)`
    replaced by "until `seconds` have passed (at least 2 simulations: the first
    only expands the root)". Everything it calls is the stock code."""

    def __init__(self, game, evaluator, uct_c, seconds, random_state, simulations=None):
        super().__init__(game, evaluator, uct_c, max_simulations=2, random_state=random_state)
        self.seconds = seconds
        self.simulations = simulations   # a count instead of a time: (c)
        self.last_simulations = 0
        self.last_seconds = 0.0

    def run_search(self, state):
        self.reset()
        start = time.perf_counter()
        legal_actions = state.legal_actions()
        if len(legal_actions) == 1:
            self.last_simulations, self.last_seconds = 0, 0.0
            return [(legal_actions[0], 1.0)]
        self._root_node = self.create_new_node(state)
        root_infostate_key = self.get_state_key(state)
        deadline = start + (self.seconds or 0.0)
        done = 0
        while (done < self.simulations if self.simulations
               else done < 2 or time.perf_counter() < deadline):
            sampled_root_state = self.sample_root_state(state)
            assert root_infostate_key == self.get_state_key(sampled_root_state)
            self.run_simulation(sampled_root_state)
            done += 1
        self.last_simulations = done
        self.last_seconds = time.perf_counter() - start
        return self.get_final_policy(state, self._root_node)


def wilson(successes: float, n: int, z: float = 1.959964) -> tuple:
    """95% Wilson score interval for a proportion (successes may be fractional: draws count 1/2)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _position_seeds(count):
    """The first `count` seeds k = 1, 2, ... whose midgame_state(4, k) is a real
    decision (two or more legal actions: a forced move is not searched)."""
    seeds, k = [], 0
    while len(seeds) < count:
        k += 1
        core = midgame_state(4, seed=k)
        if core.current_player() >= 0 and len(core.legal_actions()) >= 2:
            seeds.append(k)
    return seeds


def openspiel_bot(game, seconds, c, seed, simulations=None):
    rng = np.random.RandomState(seed >> 32)  # it takes 32-bit seeds
    return TimedISMCTSBot(game, os_mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
                          c, seconds, rng, simulations)


# ---------------------------------------------------------------------------
# (a) speed

def speed(positions: int, seconds: float, repeats: int, c: float, seed: int,
          rollout: str = DEFAULT_ROLLOUT) -> dict:
    game = pyspiel.load_game(ulm_openspiel.GAME_NAME, {"players": 4})
    rows = []
    print(f"(a) iterations per second, 4 players, {seconds:g} s per search, "
          f"{repeats} searches per position and engine")
    extra = rollout != "random"
    print("ours: mcts.searcher.search, random rollouts (and, last column, its default rollout); "
          "OpenSpiel: ISMCTSBot + RandomRolloutEvaluator")
    print(f"{'position':>10} {'round':>5} {'to move':>7} {'legal':>5} "
          f"{'ours it/s':>12} {'OpenSpiel it/s':>15} {'ratio':>8}"
          + (f" {'ours it/s, ' + rollout:>22}" if extra else ""))
    # warm-up (imports, first-call costs), not counted
    warm = midgame_state(4, seed=1)
    search(warm.clone(), time=0.05, seed=seed)
    openspiel_bot(game, 0.05, c, seed).run_search(game.state_from_core(warm))
    for k in _position_seeds(positions):
        core = midgame_state(4, seed=k)
        ours_it = ours_s = os_it = os_s = def_it = def_s = 0.0
        for r in range(repeats):
            res = search(core.clone(), time=seconds, c=c, rollout="random",
                         seed=seed * 1000 + 10 * k + r, workers=1)
            ours_it += res.iterations
            ours_s += res.seconds
            if extra:
                res = search(core.clone(), time=seconds, c=c, rollout=rollout,
                             seed=seed * 1000 + 10 * k + r, workers=1)
                def_it += res.iterations
                def_s += res.seconds
            bot = openspiel_bot(game, seconds, c, seed * 1000 + 10 * k + r)
            bot.run_search(game.state_from_core(core))
            os_it += bot.last_simulations
            os_s += bot.last_seconds
        row = {"seed": k, "round": core.raw()["round"] + 1, "player": core.current_player(),
               "legal": len(core.legal_actions()),
               "ours_iterations": int(ours_it), "ours_seconds": ours_s,
               "openspiel_iterations": int(os_it), "openspiel_seconds": os_s,
               "ours_per_second": ours_it / ours_s, "openspiel_per_second": os_it / os_s}
        row["ratio"] = row["ours_per_second"] / row["openspiel_per_second"]
        if extra:
            row.update({"ours_default_rollout": rollout, "ours_default_iterations": int(def_it),
                        "ours_default_seconds": def_s, "ours_default_per_second": def_it / def_s})
        rows.append(row)
        print(f"{'midgame ' + str(k):>10} {row['round']:>5} {row['player']:>7} {row['legal']:>5} "
              f"{row['ours_per_second']:>12,.0f} {row['openspiel_per_second']:>15,.0f} "
              f"{row['ratio']:>7,.0f}x"
              + (f" {row['ours_default_per_second']:>22,.0f}" if extra else ""))
    total = {
        "ours_per_second": sum(r["ours_iterations"] for r in rows) / sum(r["ours_seconds"] for r in rows),
        "openspiel_per_second": sum(r["openspiel_iterations"] for r in rows)
        / sum(r["openspiel_seconds"] for r in rows),
        "ratio_geomean": math.exp(sum(math.log(r["ratio"]) for r in rows) / len(rows)),
    }
    if extra:
        total["ours_default_per_second"] = (sum(r["ours_default_iterations"] for r in rows)
                                            / sum(r["ours_default_seconds"] for r in rows))
    print(f"{'all':>10} {'':>5} {'':>7} {'':>5} {total['ours_per_second']:>12,.0f} "
          f"{total['openspiel_per_second']:>15,.0f} {total['ratio_geomean']:>7,.0f}x"
          + (f" {total['ours_default_per_second']:>22,.0f}" if extra else "")
          + "   (ratio: geometric mean)")
    return {"seconds": seconds, "repeats": repeats, "positions": rows, "total": total}


# ---------------------------------------------------------------------------
# (b) tournament

def play_game(game, seconds, c, chance_seed, ours_seat, bot_seed, rollout=DEFAULT_ROLLOUT,
              iterations=None):
    """One 2-player game, ours in seat `ours_seat`; returns (returns, scores, stats).
    Both bots get `seconds` per decision, or `iterations` simulations if given."""
    budget = f"iterations={iterations}" if iterations else f"time={seconds}"
    ours = make_bot(f"ismcts:{budget},c={c},rollout={rollout},seed={bot_seed}")
    theirs = openspiel_bot(game, seconds, c, bot_seed, simulations=iterations)
    rng = random.Random(derive_seed(chance_seed, 0))
    state = game.new_initial_state()
    st = {"ours_decisions": 0, "ours_iterations": 0, "ours_seconds": 0.0,
          "openspiel_decisions": 0, "openspiel_iterations": 0, "openspiel_seconds": 0.0,
          "forced": 0}
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        legal = state.legal_actions()
        if len(legal) == 1:
            st["forced"] += 1
            action = legal[0]
        elif state.current_player() == ours_seat:
            action = ours.choose(state.core.clone())
            st["ours_decisions"] += 1
            st["ours_iterations"] += ours.last_result.iterations
            st["ours_seconds"] += ours.last_result.seconds
        else:
            action = int(theirs.step(state))
            st["openspiel_decisions"] += 1
            st["openspiel_iterations"] += theirs.last_simulations
            st["openspiel_seconds"] += theirs.last_seconds
        state.apply_action(action)
    return state.returns(), state.core.scores(), st


def tournament(games: int, seconds: float, c: float, seed: int,
               rollout: str = DEFAULT_ROLLOUT, iterations: int | None = None) -> dict:
    game = pyspiel.load_game(ulm_openspiel.GAME_NAME, {"players": 2})
    budget = (f"{iterations:,} iterations" if iterations else f"{seconds:g} s") + " per decision"
    print(f"\n({'c' if iterations else 'b'}) tournament, 2 players, {budget} for both, "
          f"{games} games, seats alternated; ours: ismcts with {rollout} rollouts, "
          "OpenSpiel: ISMCTSBot + RandomRolloutEvaluator")
    records = []
    totals = {"ours_decisions": 0, "ours_iterations": 0, "ours_seconds": 0.0,
              "openspiel_decisions": 0, "openspiel_iterations": 0, "openspiel_seconds": 0.0,
              "forced": 0}
    t0 = time.perf_counter()
    for i in range(games):
        ours_seat = i % 2
        chance_seed = derive_seed(seed, i // 2)     # both seatings of a deal share it
        returns, scores, st = play_game(game, seconds, c, chance_seed, ours_seat,
                                        bot_seed=derive_seed(seed, i, 1), rollout=rollout,
                                        iterations=iterations)
        for k in totals:
            totals[k] += st[k]
        share = returns[ours_seat]
        rec = {"game": i + 1, "ours_seat": ours_seat, "chance_seed": chance_seed,
               "ours_share": share, "scores": scores, **st}
        records.append(rec)
        result = {1.0: "win", 0.0: "loss"}.get(share, "draw")
        print(f"  game {i + 1:>3}: ours in seat {ours_seat}, {result:<4} "
              f"scores ours {scores[ours_seat]:>3} - {scores[1 - ours_seat]:>3} OpenSpiel; "
              f"iterations/decision ours {st['ours_iterations'] / max(st['ours_decisions'], 1):,.0f}, "
              f"OpenSpiel {st['openspiel_iterations'] / max(st['openspiel_decisions'], 1):,.0f} "
              f"[{time.perf_counter() - t0:.0f} s]", flush=True)
    wins = sum(1 for r in records if r["ours_share"] == 1.0)
    draws = sum(1 for r in records if 0.0 < r["ours_share"] < 1.0)
    losses = games - wins - draws
    points = sum(r["ours_share"] for r in records)
    lo, hi = wilson(points, games)
    summary = {"games": games, "ours_rollout": rollout,
               "seconds_per_decision": None if iterations else seconds,
               "iterations_per_decision": iterations,
               "wins": wins, "draws": draws,
               "losses": losses, "score": points / games if games else 0.0,
               "wilson95": [lo, hi], "totals": totals,
               "ours_iterations_per_decision": totals["ours_iterations"] / max(totals["ours_decisions"], 1),
               "openspiel_iterations_per_decision":
                   totals["openspiel_iterations"] / max(totals["openspiel_decisions"], 1),
               "mean_margin": sum(r["scores"][r["ours_seat"]] - r["scores"][1 - r["ours_seat"]]
                                  for r in records) / max(games, 1)}
    print(f"ours (ismcts) vs OpenSpiel ISMCTSBot: {wins} wins, {draws} draws, {losses} losses "
          f"of {games}; score {summary['score']:.3f}, 95% Wilson interval [{lo:.3f}, {hi:.3f}]; "
          f"mean VP margin {summary['mean_margin']:+.1f}")
    print(f"iterations per decision: ours {summary['ours_iterations_per_decision']:,.0f}, "
          f"OpenSpiel {summary['openspiel_iterations_per_decision']:,.0f}; "
          f"forced (single legal action) decisions played without search: {totals['forced']}")
    return {"summary": summary, "games": records}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=4,
                    help="(a) number of mid-game positions (default 4)")
    ap.add_argument("--seconds", type=float, default=0.25,
                    help="wall time of one search: per position and repeat in (a), "
                         "per decision in (b) (default 0.25)")
    ap.add_argument("--games", type=int, default=16,
                    help="(b) tournament games, seats alternated (default 16; 0 skips (b))")
    ap.add_argument("--iterations", type=int, default=200,
                    help="(c) simulations per decision for both (default 200)")
    ap.add_argument("--iteration-games", type=int, default=16,
                    help="(c) tournament games at equal iterations (default 16; 0 skips (c))")
    ap.add_argument("--repeats", type=int, default=8,
                    help="(a) searches per position and engine (default 8)")
    ap.add_argument("--c", type=float, default=FULL_ROLLOUT_C,
                    help=f"UCT exploration constant of both searchers (default {FULL_ROLLOUT_C}, "
                         "ours for won/lost rewards)")
    ap.add_argument("--rollout", default=DEFAULT_ROLLOUT, choices=list(mcts.ROLLOUTS),
                    help=f"ours' rollout in (b) and in (a)'s extra column "
                         f"(default {DEFAULT_ROLLOUT}, ours' default)")
    ap.add_argument("--seed", type=seed_argument, default=1, help="base seed (default 1)")
    ap.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    args = ap.parse_args(argv)
    if (args.positions < 0 or args.games < 0 or args.iteration_games < 0 or args.repeats < 1
            or args.iterations < 2 or not args.seconds > 0):
        ap.error("--positions, --games and --iteration-games must be >= 0, --repeats >= 1, "
                 "--iterations >= 2, --seconds > 0")
    started = time.perf_counter()
    fingerprint = _mcts_fingerprint()
    versions = {"open_spiel": _version("open_spiel"), "numpy": np.__version__,
                "python": sys.version.split()[0]}
    print(f"open_spiel {versions['open_spiel']}, numpy {versions['numpy']}, "
          f"python {versions['python']}, {os.cpu_count()} CPUs, load average {_loadavg()}; "
          f"mcts sources {fingerprint}")
    out = {"args": vars(args), "mcts_fingerprint": fingerprint, **versions}
    if args.positions:
        out["speed"] = speed(args.positions, args.seconds, args.repeats, args.c, args.seed,
                             args.rollout)
    if args.games:
        out["tournament"] = tournament(args.games, args.seconds, args.c, args.seed, args.rollout)
    if args.iteration_games:
        out["tournament_equal_iterations"] = tournament(
            args.iteration_games, args.seconds, args.c, args.seed, args.rollout,
            iterations=args.iterations)
    out["wall_seconds"] = time.perf_counter() - started
    print(f"\ntotal wall time {out['wall_seconds']:.0f} s; load average {_loadavg()}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=1)
    return out


def _mcts_fingerprint():
    """First 10 hex digits of the SHA-1 of the searcher's sources (mcts/__init__.py,
    search.py, bots.py, _search.pyx, _search.pxd): which searcher was measured."""
    folder = os.path.dirname(os.path.abspath(mcts.__file__))
    h = hashlib.sha1()
    for name in ("__init__.py", "search.py", "bots.py", "_search.pyx", "_search.pxd"):
        if os.path.exists(os.path.join(folder, name)):
            with open(os.path.join(folder, name), "rb") as fh:
                h.update(name.encode() + b"\0" + fh.read())
    return h.hexdigest()[:10]


def _version(dist):
    try:
        from importlib.metadata import version
        return version(dist.replace("_", "-"))
    except Exception:  # pragma: no cover
        return "?"


def _loadavg():
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover
        return "?"


if __name__ == "__main__":
    main()
