"""Engines and plug-ins on the command line: --engine / --engines on the commands that
seat bots, their bad-input table, `ulm bots` listing installed plug-ins, and a
tournament of engines stopped by Ctrl-C or SIGKILL: nothing of the engines outlives
the command, and a resumed tournament plays the games an uninterrupted one plays."""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from helpers import ROOT
from mcts.play import engines
from mcts.play.engines import host
from process_helpers import interrupt, processes_below

ENGINES_DIR = ROOT / "examples" / "engines"
PY_ENGINE = f"{sys.executable} {ENGINES_DIR / 'random_engine.py'}"
FAULTY = f"{sys.executable} {ENGINES_DIR / 'faulty_engine.py'}"
ULM = [sys.executable, "-m", "cli"]


@pytest.fixture(autouse=True)
def clean_registry(tmp_path):
    saved = dict(engines.ENGINES)
    engines.ENGINES.clear()
    engines.set_log_dir(tmp_path / "default-logs")
    yield
    engines.ENGINES.clear()
    engines.ENGINES.update(saved)
    engines.set_log_dir(engines.DEFAULT_LOG_DIR)


def run(args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_a_tournament_seats_an_engine_given_on_the_command_line(tmp_path):
    out = tmp_path / "out"
    res = run(["tournament", "--engine", f"py={PY_ENGINE}", "--bots", "engine:py:time=0.5",
               "level:2", "--games", 2, "--workers", 1, "--out", out, "--quiet"])
    assert res.exit_code == 0, res.output
    assert "s/decision" in res.output and "engine:py:time=0.5" in res.output
    config = json.loads((out / "tournament.json").read_text())
    assert config["engines"] == {"py": PY_ENGINE}
    # the same folder with another program is another tournament
    res = run(["tournament", "--engine", f"py={FAULTY} none", "--bots", "engine:py:time=0.5",
               "level:2", "--games", 2, "--workers", 1, "--out", out, "--quiet"])
    assert res.exit_code == 2 and "holds another tournament" in res.output


def test_a_file_of_engines(tmp_path):
    listed = tmp_path / "engines.json"
    listed.write_text(json.dumps({"engines": {"py": PY_ENGINE}}))
    res = run(["play", "--engines", listed, "--bots", "engine:py,random", "--quiet",
               "--record", tmp_path / "game.json"])
    assert res.exit_code == 0, res.output
    assert "Final scores" in res.output
    assert json.loads((tmp_path / "game.json").read_text())["bots"] == ["engine:py", "random"]


def test_play_records_a_forfeit(tmp_path):
    res = run(["play", "--engine", f"bad={FAULTY} illegal 2", "--bots",
               "random,engine:bad,greedy", "--record", tmp_path / "g.json"])
    assert res.exit_code == 0, res.output
    assert "Blue (engine:bad) forfeits: answered" in res.output
    record = json.loads((tmp_path / "g.json").read_text())
    assert record["forfeits"]["Blue"]["kind"] == "illegal"


BAD = [
    (["--engine", "noequals"], "--engine: expected NAME=COMMAND, got 'noequals'"),
    (["--engine", "bad name=cmd"], "--engine: engine name 'bad name'"),
    (["--engine", "x="], "--engine: engine x: no command given"),
    (["--engine", "x=" + "a" * 5000], "at most 4096 characters"),
    (["--engines", "{missing}"], "missing.json"),
    (["--engines", "{not_json}"], "not_json.json"),
    (["--engines", "{a_list}"], 'expected a JSON object {"engines"'),
    (["--engines", "{bad_command}"], "engines: engine x: no command given"),
    (["--bots", "engine:nope"], "no engine 'nope' was given; engines: none"),
    (["--engine", "x=cmd", "--bots", "engine:x:time=nan"], "time must be a number of seconds"),
    (["--engine", "x=cmd", "--bots", "engine:x:time=-1"], "time must be a number of seconds"),
    (["--engine", "x=cmd", "--bots", "engine:x:time=1e309"], "time must be a number of seconds"),
    (["--engine", "x=cmd", "--bots", "engine:x:grace=0"], "grace must be a number of seconds"),
    (["--engine", "x=cmd", "--bots", "engine:x:seed=abc"], "seed"),
    (["--engine", "x=cmd", "--bots", "engine:x:iterations=5"],
     "unknown option 'iterations'; an engine takes time, grace, seed"),
    (["--bots", "python:no_such_module:Bot"], "cannot import 'no_such_module'"),
    (["--bots", "python:/no/such/file.py:Bot"], "no file '/no/such/file.py'"),
    (["--bots", "python:"], "name a plug-in"),
]


@pytest.mark.parametrize("extra,message", BAD, ids=[str(i) for i in range(len(BAD))])
def test_bad_engines_and_plugins_are_named_with_exit_status_2(extra, message, tmp_path):
    files = {"missing": tmp_path / "missing.json", "not_json": tmp_path / "not_json.json",
             "a_list": tmp_path / "a_list.json", "bad_command": tmp_path / "bad_command.json"}
    files["not_json"].write_text('{"engines": {"x": ')
    files["a_list"].write_text("[1, 2]")
    files["bad_command"].write_text('{"engines": {"x": "  "}}')
    extra = [e.format(**{k: str(v) for k, v in files.items()}) for e in extra]
    if "--bots" not in extra:
        extra += ["--bots", "random"]
    res = run(["tournament", *extra, "greedy", "--games", 2, "--quiet"])
    assert res.exit_code == 2, res.output
    assert message in res.output
    assert "Traceback" not in res.output


def test_engines_and_a_scheduler_do_not_go_together():
    res = run(["tournament", "--engine", f"py={PY_ENGINE}", "--bots", "engine:py", "random",
               "--scheduler", "tcp://127.0.0.1:1", "--quiet"])
    assert res.exit_code == 2
    assert "--scheduler: engines (engine:NAME) play on this machine only" in res.output


def test_ulm_bots_lists_the_installed_plugins_with_their_origin(tmp_path):
    (tmp_path / "mybots.py").write_text("class Bot:\n    def choose(self, s):\n"
                                        "        return s.legal_actions()[0]\n")
    dist = tmp_path / "mybots-0.3.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: mybots\nVersion: 0.3\n")
    (dist / "entry_points.txt").write_text("[ulm.bots]\nfirst-legal = mybots:Bot\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    listed = subprocess.run(ULM + ["bots"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert listed.returncode == 0, listed.stderr
    assert re.search(r"first-legal\s+mybots:Bot\s+\(from mybots 0\.3\)", listed.stdout)
    as_json = subprocess.run(ULM + ["bots", "--json"], cwd=ROOT, env=env, capture_output=True,
                             text=True)
    assert {"name": "first-legal", "target": "mybots:Bot", "origin": "mybots 0.3"} in \
        json.loads(as_json.stdout)["plugins"]
    played = subprocess.run(ULM + ["play", "--bots", "python:first-legal,random", "--quiet"],
                            cwd=ROOT, env=env, capture_output=True, text=True)
    assert played.returncode == 0, played.stderr


# --- interruptions ------------------------------------------------------------------------

def _engine_pids(folder: Path) -> list[int]:
    pids = []
    for path in folder.rglob("*.log"):
        pids += [int(p) for p in re.findall(r"(?:engine|child) (\d+)", path.read_text())]
    return pids


def _wait_gone(pids, seconds=3.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        alive = [p for p in pids if host._alive(p)]
        if not alive:
            return []
        time.sleep(0.05)
    return alive


def _start(args, cwd):
    return subprocess.Popen(ULM + [str(a) for a in args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True, text=True)


def _wait_for(predicate, seconds=20.0):
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "the engines did not start"
        time.sleep(0.05)


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_ends_a_tournament_and_every_engine_within_a_second(workers, tmp_path):
    out = tmp_path / "out"
    proc = _start(["tournament", "--engine", f"h={FAULTY} children", "--engine",
                   f"w={FAULTY} hang", "--bots", "engine:h:time=60", "engine:w:time=60",
                   "--games", 4, "--workers", workers, "--out", out, "--quiet"], ROOT)
    try:
        # the first game: h (and its child) and the hanging w; the second (workers 2):
        # w hangs at once, before h starts
        _wait_for(lambda: len(_engine_pids(out)) >= (3 if workers == 1 else 4))
        time.sleep(0.3)
    finally:
        err, took = interrupt(proc)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert took < 2.0, took                 # a second, and a busy test machine's slack
    assert _wait_gone(_engine_pids(out), 1.0) == []


def test_a_tournament_of_engines_killed_outright_resumes_to_the_same_games(tmp_path):
    args = ["tournament", "--engine", f"e={FAULTY} none", "--engine", f"p={PY_ENGINE}",
            "--bots", "engine:e", "engine:p", "greedy", "--players", 3, "--games", 6,
            "--workers", 2, "--quiet", "--out"]
    killed = tmp_path / "killed"
    proc = _start(args + [killed], ROOT)
    try:
        _wait_for(lambda: (killed / "games.jsonl").exists()
                  and len((killed / "games.jsonl").read_text().splitlines()) >= 2)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    # the workers end with the command (SIGTERM from the kernel), and their engines with them
    assert _wait_gone(_engine_pids(killed)) == []
    done_before = len((killed / "games.jsonl").read_text().splitlines())
    assert done_before < 6
    resumed = subprocess.run(ULM + [str(a) for a in args + [killed]], cwd=ROOT,
                             capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    whole = subprocess.run(ULM + [str(a) for a in args + [tmp_path / "whole"]], cwd=ROOT,
                           capture_output=True, text=True, timeout=120)
    assert whole.returncode == 0, whole.stderr

    def games(folder):
        rows = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]
        return sorted(({k: v for k, v in r.items() if k not in ("seconds", "longest")}
                       for r in rows), key=lambda r: r["game"])
    assert games(killed) == games(tmp_path / "whole")
    assert len(games(killed)) == 6


def test_a_host_killed_outright_takes_its_engines_and_their_children_along(tmp_path):
    """SIGKILL leaves the host no time to end anything: the kernel ends each engine
    (its parent-death signal) and the host's watchdog ends their process groups."""
    logs = tmp_path / "logs"
    env = dict(os.environ, TMPDIR=str(logs))
    proc = subprocess.Popen(ULM + ["play", "--engine", f"h={FAULTY} children", "--engine",
                                   f"w={FAULTY} hang", "--bots", "engine:h,engine:w:time=60",
                                   "--quiet"], cwd=ROOT, env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    logs.mkdir()
    try:
        _wait_for(lambda: len(_engine_pids(logs)) >= 3)
        os.kill(proc.pid, signal.SIGKILL)      # the host alone, as the OOM killer does
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert _wait_gone(_engine_pids(logs), 2.0) == []


def test_a_host_that_ends_normally_leaves_no_pipe_to_its_watchdog_open():
    """The watchdog's pipe lives as long as the host; at its end the host closes it
    itself, so Python's warnings (shown here, as pytest shows them) report nothing."""
    res = subprocess.run(ULM + ["play", "--engine", f"p={PY_ENGINE}", "--bots",
                                "engine:p,random", "--seed", "3", "--quiet"], cwd=ROOT,
                         env=dict(os.environ, PYTHONWARNINGS="default"),
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert "Warning" not in res.stderr, res.stderr


# --- the web ------------------------------------------------------------------------------

def test_the_web_offers_the_engines_given_at_its_start_and_runs_no_other(tmp_path):
    from starlette.testclient import TestClient

    from cli.web.app import create_app
    from web_helpers import error_of, wait_for
    engines.register_engine("py", PY_ENGINE)
    with TestClient(headers={"content-type": "application/json"},
                    app=create_app(max_seconds=5)) as client:
        info = client.get("/api/info").json()
        assert info["engines"] == ["engine:py"] and "engine:py" in info["examples"]
        for seats, message in (
                (["engine:other", "random"], "no engine 'other' was given; engines: py"),
                ([f"engine:{PY_ENGINE}", "random"], "no engine"),
                (["engine:py:time=60", "random"], "time must be at most 5 s on this server"),
                (["python:os:Thing", "random"], "never a module or a file"),
                ([f"python:{tmp_path / 'x.py'}:Bot", "random"], "never a module or a file")):
            r = client.post("/api/games", json={"mode": "play", "seats": seats, "seed": 1})
            assert message in error_of(r, 400), seats
        r = client.post("/api/games", json={"mode": "play", "seats": ["engine:py", "random"],
                                            "seed": 2})
        assert r.status_code == 201, r.text
        game = wait_for(client, f"/api/games/{r.json()['id']}", lambda d: d["terminal"], 120)
        assert game["winners"]
    assert _wait_gone(_engine_pids_of("random_engine.py")) == []


def test_the_web_runs_an_installed_plugin_in_a_process_of_its_own(tmp_path, monkeypatch):
    """Apart from the server's games and bounded in time: process=own is added to its
    spec, and a request asking for the server's process is refused."""
    from starlette.testclient import TestClient

    from cli.web.app import create_app
    from web_helpers import error_of, wait_for
    (tmp_path / "firstbots.py").write_text("class First:\n"
                                           "    def choose(self, state):\n"
                                           "        return state.legal_actions()[0]\n")
    dist = tmp_path / "firstbots-1.2.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: firstbots\nVersion: 1.2\n")
    (dist / "entry_points.txt").write_text("[ulm.bots]\nfirst = firstbots:First\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), str(ROOT)]))
    with TestClient(headers={"content-type": "application/json"},
                    app=create_app(max_seconds=5)) as client:
        for spec in ("python:first:process=host", "python:first:seed=2,process=host"):
            r = client.post("/api/games", json={"mode": "play", "seats": [spec, "random"]})
            assert "runs plug-ins in a process of their own (process=own)" in \
                error_of(r, 400), spec
        for spec, message in (("python:first:process=maybe", "process must be host or own"),
                              ("python:first:process=", "bad option 'process='"),
                              ("python:first:iterations=9", "unknown option 'iterations'")):
            r = client.post("/api/games", json={"mode": "play", "seats": [spec, "random"]})
            assert message in error_of(r, 400), spec
        r = client.post("/api/games", json={"mode": "play", "seed": 3,
                                            "seats": ["python:first:time=2", "random"]})
        assert r.status_code == 201, r.text
        game = wait_for(client, f"/api/games/{r.json()['id']}", lambda d: d["terminal"], 120)
        assert game["seats"][0]["spec"] == "python:first:time=2,process=own", game["seats"]
    assert _wait_gone(_engine_pids_of("plugin_process")) == []


def _engine_pids_of(script: str) -> list[int]:
    return processes_below(script)


@pytest.mark.parametrize("command", ["tournament", "ladder", "tune", "play", "serve"])
def test_every_command_that_seats_bots_takes_engines(command):
    res = run([command, "--help"])
    assert res.exit_code == 0
    assert "--engine NAME=COMMAND" in res.output and "--engines FILE" in res.output
