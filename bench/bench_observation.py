"""How fast a seat's observation tensor is made (State.observation_tensor).

    python bench/bench_observation.py                       # a table of rates
    pytest bench/bench_observation.py --benchmark-only      # the pytest-benchmark suites

Three rates on a 4-player mid-game position (ulm.benchmarks.midgame_state(4)):
the compiled writer alone (run_observations: a loop in C), the Python call into
a buffer the caller keeps (``observation_tensor(p, out=buf)``), and the Python
call that returns a new numpy array (``observation_tensor(p)``); and a whole
PettingZoo step loop (observe + legal mask + step) for comparison.
"""
import time

import numpy as np

from ulm import OBSERVATION_SIZE
from ulm.benchmarks import midgame_state, run_observations

COMPILED_ROUND = 100_000


def test_compiled_writer(benchmark):
    state = midgame_state(4)
    benchmark.extra_info["tensors_per_round"] = COMPILED_ROUND
    benchmark(run_observations, state, 0, COMPILED_ROUND)


def test_python_call_into_a_buffer(benchmark):
    state = midgame_state(4)
    buf = np.empty(OBSERVATION_SIZE, np.float32)
    benchmark(state.observation_tensor, 0, buf)


def test_python_call_new_array(benchmark):
    state = midgame_state(4)
    benchmark(state.observation_tensor, 0)


def _rate(fn, count: int) -> float:
    start = time.perf_counter()
    fn(count)
    return count / (time.perf_counter() - start)


def _pettingzoo_steps_per_second(games: int = 20) -> float:
    from ulm.pettingzoo import env
    e = env(players=4)
    rng = np.random.default_rng(1)
    steps = 0
    start = time.perf_counter()
    for g in range(games):
        e.reset(seed=g)
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    state = midgame_state(4)
    buf = np.empty(OBSERVATION_SIZE, np.float32)

    def into(n):
        for _ in range(n):
            state.observation_tensor(0, buf)

    def new(n):
        for _ in range(n):
            state.observation_tensor(0)

    print(f"observation tensor: {OBSERVATION_SIZE} float32 numbers, 4-player mid-game position")
    compiled = _rate(lambda n: run_observations(state, 0, n), 1_000_000)
    print(f"compiled writer (a loop in C):       {compiled:12,.0f} tensors/s")
    print(f"observation_tensor(p, out=buf):      {_rate(into, 200_000):12,.0f} tensors/s")
    print(f"observation_tensor(p) (new array):   {_rate(new, 200_000):12,.0f} tensors/s")
    try:
        print(f"PettingZoo env, random play, 4 pl.:  {_pettingzoo_steps_per_second():12,.0f} agent steps/s")
    except ImportError as exc:
        print(f"PettingZoo env: {exc}")


if __name__ == "__main__":
    from _args import read_args
    import sys
    read_args(__doc__, sys.argv[1:])        # none; --help
    main()
