"""Ctrl-C, worker limits and nested workers, tried for real.

The interrupt tests start `ulm` as a subprocess in its own session, send SIGINT
after about a second (to the process group, as a terminal's Ctrl-C does, or to
the process alone, as `kill -INT` does) and check that it stops well before its
30 s budget: exit status 130, a short note, no traceback, no process left.
The bounds are generous behaviour checks, not speed measurements.
"""
import json
import multiprocessing.context
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import ulm
from cli.main import main
from mcts import MAX_WORKERS, make_bot, search
from helpers import ROOT

NEW_2P = str(ROOT / "examples" / "new-2p.json")
PUSH_4P = str(ROOT / "examples" / "push-4p-view.json")   # a choice: forced decisions are not searched
ULM = [sys.executable, "-m", "cli"]
STOP_WITHIN = 5.0      # seconds after SIGINT; the budgets are 30 s


def _group_members(pgid: int) -> list[int]:
    pids = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                stat = Path(f"/proc/{d}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[2]) == pgid:
                pids.append(int(d))
    return pids


def interrupt(args, to_group=True, after=1.0):
    proc = subprocess.Popen(ULM + [str(a) for a in args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True, text=True)
    try:
        time.sleep(after)
        assert proc.poll() is None, ("ended before the interrupt", proc.communicate())
        sent = time.monotonic()
        if to_group:
            os.killpg(proc.pid, signal.SIGINT)
        else:
            os.kill(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=STOP_WITHIN)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    deadline = time.monotonic() + 2
    while _group_members(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)      # a terminated worker may take a moment to be reaped
    return proc.returncode, out, err, took, _group_members(proc.pid)


CASES = {
    "suggest quiet": ["suggest", PUSH_4P, "--time", 30, "--quiet"],
    "suggest json": ["suggest", PUSH_4P, "--time", 30, "--json"],
    "suggest 2 workers": ["suggest", PUSH_4P, "--time", 30, "--workers", 2, "--quiet"],
    "play ismcts": ["play", "--bots", "ismcts:time=30,random", "--quiet"],
    "play pimc": ["play", "--bots", "pimc:time=30,random", "--quiet"],
    "tournament nested workers": ["tournament", "--bots", "ismcts:time=30,workers=2", "random",
                                  "--games", 2, "--workers", 2, "--quiet"],
}


@pytest.mark.parametrize("name, to_group", [(name, True) for name in CASES] + [
    (name, False) for name in ("suggest quiet", "suggest 2 workers", "tournament nested workers")
], ids=lambda v: v if isinstance(v, str) else ("ctrl-c" if v else "kill -INT"))
def test_sigint_stops_every_search_at_once(name, to_group):
    code, out, err, took, left = interrupt(CASES[name], to_group)
    assert code == 130, (code, out, err)
    assert err.strip().endswith("Interrupted.")
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert left == [], "processes left behind"
    assert took < STOP_WITHIN


def test_sigint_in_the_library_raises_keyboard_interrupt_and_the_search_can_run_again():
    code = ("import os, signal, threading, time, ulm\n"
            "from mcts import search\n"
            "s = ulm.Game(players=2).new_game(1)\n"
            "s.apply_action(1)\n"
            "s.resolve_chance()\n"
            "threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()\n"
            "t = time.monotonic()\n"
            "try:\n"
            "    search(s, time=30)\n"
            "except KeyboardInterrupt:\n"
            "    print('interrupted', time.monotonic() - t < 10)\n"
            "print(search(s, iterations=50).iterations)\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    assert res.stdout.split() == ["interrupted", "True", "50"]


# ---------------------------------------------------------------------------
# how many workers


def test_workers_are_bounded():
    s = ulm.Game(players=2).new_game(1)
    with pytest.raises(ValueError, match=f"workers: at most {MAX_WORKERS}"):
        search(s, iterations=2000, workers=MAX_WORKERS + 1)
    with pytest.raises(ValueError, match="workers: at most"):
        make_bot(f"ismcts:workers={MAX_WORKERS + 1}")
    assert MAX_WORKERS >= 8 and MAX_WORKERS >= len(os.sched_getaffinity(0))


@pytest.mark.parametrize("args", [
    ["suggest", NEW_2P, "--workers", 1000],
    ["tournament", "--bots", "random", "greedy", "--workers", 1000],
    ["tournament", "--bots", "ismcts:workers=1000", "greedy"],
    ["play", "--bots", "ismcts:workers=1000,greedy"],
])
def test_cli_refuses_a_thousand_workers(args):
    res = CliRunner().invoke(main, [str(a) for a in args])
    assert res.exit_code == 2, res.output
    assert "Error: " in res.stderr and "workers" in res.stderr and "1000" in res.stderr
    assert "Traceback" not in res.output


def test_a_time_budget_covers_starting_the_workers(monkeypatch):
    """Each worker searches until one common deadline: when starting the workers
    is slow, they search less, and the search still ends near its budget."""
    start = multiprocessing.context.ForkProcess.start

    def slow_start(self):
        time.sleep(0.3)
        start(self)

    monkeypatch.setattr(multiprocessing.context.ForkProcess, "start", slow_start)
    s = ulm.Game(players=2).new_game(1)
    s.apply_action(1)           # the draw is forced: search the push
    s.resolve_chance()
    t = time.monotonic()
    r = search(s, time=0.7, workers=3, rollout="random")
    took = time.monotonic() - t
    # starting takes 0.9 s; each worker used to search 0.7 s after its own start (1.6 s)
    assert took < 1.35, took
    assert r.workers == 3 and r.iterations >= 3


# ---------------------------------------------------------------------------
# a bot's own workers inside a tournament's worker processes


def test_tournament_workers_may_run_bots_with_workers(tmp_path):
    """`--bots ismcts:iterations=50,workers=2 random --workers 2` works: a bot's
    search workers fork from the tournament's workers (no "daemonic processes are
    not allowed to have children")."""
    rows = {}
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        res = CliRunner().invoke(main, ["tournament", "--bots", "ismcts:iterations=50,workers=2",
                                        "random", "--games", 4, "--seed", 3,
                                        "--workers", str(workers), "--out", str(out), "--json"])
        assert res.exit_code == 0, res.output
        assert json.loads(res.stdout)["games"] == 4
        lines = (out / "games.jsonl").read_text().splitlines()
        rows[workers] = sorted((r["game"], r["scores"], r["decisions"])
                               for r in map(json.loads, lines))
    assert rows[1] == rows[2]     # the same games as in one process
