"""The bench and lab scripts read their arguments in one way (bench/_args.py, or
argparse of their own): --help prints the usage and runs nothing; a bad value is
named, with exit status 2 and no traceback, before any work."""
from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys

import pytest

from helpers import ROOT

# bench/_args.py by its path: bench/ is not put on the tests' import path
_spec = importlib.util.spec_from_file_location("bench_args", ROOT / "bench" / "_args.py")
assert _spec is not None and _spec.loader is not None
_args = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_args)

SCRIPTS = sorted(str(p.relative_to(ROOT)) for folder in ("bench", "bench/peers", "lab")
                 for p in (ROOT / folder).glob("*.py")
                 if 'if __name__ == "__main__":' in p.read_text(encoding="utf-8"))


def _run(script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, script, *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)


def test_every_script_is_found():
    assert len(SCRIPTS) >= 20
    assert "bench/iterations_per_decision.py" in SCRIPTS and "lab/exploration_cost.py" in SCRIPTS


@pytest.mark.parametrize("script", SCRIPTS)
def test_help_prints_the_usage_and_runs_nothing(script):
    run = _run(script, "--help")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("usage: "), run.stdout[:200]
    assert "Traceback" not in run.stderr


BAD = [
    ("bench/iterations_per_decision.py", ["nan"], "argument SECONDS: must be a number of seconds"),
    ("bench/iterations_per_decision.py", ["inf"], "argument SECONDS: must be a number of seconds"),
    ("bench/iterations_per_decision.py", ["-1"], "argument SECONDS: must be a number of seconds"),
    ("bench/iterations_per_decision.py", ["0.1", "5"], "argument PLAYERS: must be 2, 3 or 4"),
    ("bench/iterations_per_decision.py", ["0.1", "2", "0"], "argument GAMES: must be a whole"),
    ("bench/iterations_per_decision.py", ["0.1", "2", "1", "9"], "unrecognized arguments: 9"),
    ("bench/bench_search.py", [""], "argument SECONDS: must be a number of seconds"),
    ("bench/bench_cluster.py", ["1.5"], "argument GAMES: must be a whole number"),
    ("bench/estimate_noise.py", ["3", "500,,2000"], "argument BUDGETS: must be whole numbers"),
    ("bench/iteration_cost.py", ["1e9"], "argument ITERATIONS: must be a whole number"),
    ("bench/reuse_agreement.py", ["10", "-3"], "argument ITERATIONS: must be a whole number"),
    ("bench/reward_spread.py", [], "the following arguments are required: PLAYERS"),
    ("bench/bench_eval.py", ["--model"], "argument --model: expected one argument"),
    ("bench/points_cost.py", ["--instructions", "x"], "argument ITERATIONS: must be a whole"),
    ("bench/bench_core.py", ["extra"], "unrecognized arguments: extra"),
    ("lab/exploration_cost.py", ["9" * 5000], "argument ITERATIONS: must be a whole number"),
    ("lab/frozen_alternatives.py", ["3", "-1"], "argument SEED: must be a whole number from 0"),
    ("lab/decision_agreement.py", ["ismcts", "4", "-5"], "argument REFERENCE: must be a whole"),
]


@pytest.mark.parametrize("script,args,message", BAD, ids=[f"{s}:{' '.join(a)[:12]}"
                                                          for s, a, _ in BAD])
def test_a_bad_value_is_named_with_status_2(script, args, message):
    run = _run(script, *args)
    assert run.returncode == 2, (run.stdout[:300], run.stderr[:300])
    assert message in run.stderr, run.stderr
    assert "Traceback" not in run.stderr and run.stdout == ""
    assert len(run.stderr) < 2000


@pytest.mark.parametrize("reader,good,bad", [
    (_args.whole, {"1": 1, "1000000000": 10**9, " 7 ": 7}, ["0", "-1", "1.5", "x", "", "1e3",
                                                          "1000000001", "9" * 5000]),
    (_args.natural, {"0": 0, "3": 3}, ["-1", "", "x"]),
    (_args.seed, {"0": 0, str(2**64 - 1): 2**64 - 1}, ["-1", str(2**64), "x", ""]),
    (_args.players, {"2": 2, "4": 4}, ["1", "5", "two", ""]),
    (_args.seconds, {"0.25": 0.25, "86400": 86400.0, "1e-9": 1e-9},
     ["0", "-1", "nan", "inf", "1e308", "x", ""]),
    (_args.wholes, {"5": [5], "500,2000": [500, 2000]}, ["", "5,", ",5", "5,x", "0,5"]),
    (_args.text, {"ismcts": "ismcts"}, ["", "   ", "x" * 1001]),
])
def test_each_reader_takes_what_it_names_and_nothing_else(reader, good, bad):
    for given, value in good.items():
        assert reader(given) == value
    for given in bad:
        with pytest.raises(argparse.ArgumentTypeError) as err:
            reader(given)
        assert len(str(err.value)) < 200
