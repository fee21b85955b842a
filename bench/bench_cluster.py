"""What Dask costs a tournament: games per minute on the local process pool
and on a local Dask cluster with as many workers, and the bytes of one task.

    python bench/bench_cluster.py [GAMES] [ROUNDS] [WORKERS]   # plain figures
    pytest bench/bench_cluster.py --benchmark-only              # pytest-benchmark

greedy x 4 (4 players, about 10 ms a game) is the worst case for the
overhead: the cheaper a game, the larger the share of shipping it. The
backends run interleaved (ROUNDS times) on the same cores: the local pool,
Dask as `--scheduler` uses it (games batched into tasks of about
TASK_SECONDS) and Dask with one game per task. The Dask cluster is started
once, before the clock (its start-up is printed apart).
Needs the cluster extra: pip install -e '.[cluster]'.
"""
from __future__ import annotations

import pickle
import resource
import statistics
import sys
import time

try:        # run as a script: the checkout's ulm if built in place, else the installed one
    import _ulm_path  # noqa: E402,F401
except ModuleNotFoundError:     # imported as bench.NAME (the tests): the checkout is on the path
    pass

from mcts.play import cluster, tournament  # noqa: E402
from mcts.play.cluster import TASK_SECONDS, DaskExecutor, task_bytes  # noqa: E402
from mcts.play.tournament import TournamentConfig, run_tournament  # noqa: E402


def config(games: int, seed: int = 0) -> TournamentConfig:
    return TournamentConfig(bots=["greedy"] * 4, players=4, games=games, seed=seed)


def shipping(cfg: TournamentConfig) -> dict:
    """Bytes one game costs on the wire: the task (function by reference and
    its argument) and the row that comes back."""
    g, s, r, seats = cfg.schedule()[0]
    args = (g, s, r, seats, cfg.variant, None)
    row = tournament._run_one(args)
    batch = [(g, s, r, seats, cfg.variant, None) for g, s, r, seats in cfg.schedule()[:32]]
    return {"task_bytes": task_bytes(tournament._run_one, args),
            "task_bytes_32_games": task_bytes(cluster._play_batch, (tournament._run_one, batch)),
            "result_bytes": len(pickle.dumps(row, protocol=pickle.HIGHEST_PROTOCOL))}


def _self_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run_pool(cfg: TournamentConfig, workers: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process and its reaped pool workers)."""
    c0, t0 = _self_cpu() + _children_cpu(), time.perf_counter()
    run_tournament(cfg, None, workers=workers, progress=False)
    return time.perf_counter() - t0, _self_cpu() + _children_cpu() - c0


def run_dask(cfg: TournamentConfig, ex: DaskExecutor) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process (client and scheduler) and the workers)."""
    w0 = sum(ex.client.run(_self_cpu).values())
    c0, t0 = _self_cpu(), time.perf_counter()
    run_tournament(cfg, None, progress=False, scheduler=ex)
    wall = time.perf_counter() - t0
    return wall, _self_cpu() - c0 + sum(ex.client.run(_self_cpu).values()) - w0


def main(games: int = 400, rounds: int = 3, workers: int = 2) -> None:
    cfg = config(games)
    n = len(cfg.schedule())
    print(f"greedy x 4, {n} games a run, {workers} workers, {rounds} interleaved rounds")
    print("shipping one game:", shipping(cfg))
    t0 = time.perf_counter()
    with DaskExecutor(f"local:{workers}") as ex:
        print(f"local Dask cluster of {workers} started in {time.perf_counter() - t0:.1f} s")
        run_dask(config(4 * workers, seed=99), ex)  # warm-up: imports on the workers
        results = {"pool": [], "dask": [], "dask-1": []}
        for r in range(rounds):
            for name in results:
                if name == "pool":
                    wall, cpu = run_pool(cfg, workers)
                else:
                    # dask-1: one game per task, to show what batching saves
                    cluster.TASK_SECONDS = 0.0 if name == "dask-1" else TASK_SECONDS
                    wall, cpu = run_dask(cfg, ex)
                results[name].append((wall, cpu))
                print(f"round {r + 1} {name:<6}: {n / wall * 60:8.0f} games/min  "
                      f"wall {wall:6.2f} s  CPU {cpu:6.2f} s")
    med = {name: (statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs))
           for name, runs in results.items()}
    for name, (wall, cpu) in med.items():
        print(f"{name:<6} median: {n / wall * 60:8.0f} games/min, "
              f"{wall / n * 1000:6.2f} ms wall and {cpu / n * 1000:6.2f} ms CPU per game")
    for name in ("dask", "dask-1"):
        print(f"{name} overhead per game against the pool: "
              f"{(med[name][0] - med['pool'][0]) / n * 1000:+.2f} ms wall, "
              f"{(med[name][1] - med['pool'][1]) / n * 1000:+.2f} ms CPU")


# ---------------------------------------------------------------------------
# pytest-benchmark

def test_dask_local_cluster_greedy_x4(benchmark):
    cfg = config(200)
    with DaskExecutor("local:2") as ex:
        run_dask(config(8, seed=99), ex)
        benchmark.pedantic(run_tournament, args=(cfg, None),
                           kwargs=dict(progress=False, scheduler=ex), rounds=3, iterations=1)
    benchmark.extra_info["games_per_minute"] = round(
        len(cfg.schedule()) / benchmark.stats.stats.mean * 60)
    benchmark.extra_info.update(shipping(cfg))


def test_local_pool_greedy_x4(benchmark):
    cfg = config(200)
    benchmark.pedantic(run_tournament, args=(cfg, None), kwargs=dict(workers=2, progress=False),
                       rounds=3, iterations=1)
    benchmark.extra_info["games_per_minute"] = round(
        len(cfg.schedule()) / benchmark.stats.stats.mean * 60)


if __name__ == "__main__":
    from _args import read_args, whole
    main(*read_args(__doc__, sys.argv[1:], ("GAMES", whole, 400), ("ROUNDS", whole, 3),
                    ("WORKERS", whole, 2)))
