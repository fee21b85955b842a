"""The Dask backend (mcts.play.cluster, `--scheduler`): same games as the local pool,
faults (a worker killed mid-run, a client killed mid-run), clear errors.

A scheduler and two workers run as separate processes on localhost (loopback
only), started by the fixtures below and killed even when a test fails.
Cheap bots only (greedy, random, ismcts with a few iterations). Needs `pip install -e '.[cluster]'`; the
Dask tests are skipped without it (CI installs it), the error messages for
a missing extra are tested either way.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import mcts.play.pool as pool
from cli.main import main
from mcts.play.cluster import DaskExecutor, parse_scheduler, task_bytes
from mcts.play.tournament import TournamentConfig, TournamentError, run_tournament
from helpers import ROOT

try:
    import distributed
except ImportError:  # pragma: no cover - CI installs the extra
    distributed = None

# skipped only outside CI (a developer without the extra); in CI a missing extra fails
needs_dask = pytest.mark.skipif(distributed is None and not os.environ.get("CI"),
                                reason="needs the cluster extra: pip install -e '.[cluster]'")
TIMING = ("seconds", "seconds_per_game", "longest", "seconds_per_decision", "longest_decision")


# ---------------------------------------------------------------------------
# processes on localhost


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _spawn(args, log):
    # a session of its own: killing its group takes a worker's nanny and its child together
    return subprocess.Popen([sys.executable, "-m", *args], stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True, cwd=ROOT)


def _kill(proc, sig=signal.SIGTERM):
    if proc.poll() is None:  # only a group whose leader we started and still have
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


class LocalhostCluster:
    """`dask scheduler` and `dask worker` processes on 127.0.0.1."""

    def __init__(self, folder: Path, workers: int = 2):
        self.folder = folder
        self.procs: list[subprocess.Popen] = []
        self.workers: list[subprocess.Popen] = []
        self.log = open(folder / "dask.log", "w")
        port = _free_port()
        self.address = f"tcp://127.0.0.1:{port}"
        self.procs.append(_spawn(["distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                  "--port", str(port), "--no-dashboard"], self.log))
        for i in range(workers):
            self.add_worker(f"w{i}")
        if workers:
            self.wait_for_workers(workers)

    def add_worker(self, name, *extra):
        proc = _spawn(["distributed.cli.dask_worker", self.address, "--name", name,
                       "--nthreads", "1", "--nworkers", "1", "--host", "127.0.0.1",
                       "--no-dashboard", *extra], self.log)
        self.procs.append(proc)
        self.workers.append(proc)
        return proc

    def wait_for_workers(self, n, timeout=120):
        with distributed.Client(self.address, timeout=timeout) as client:
            client.wait_for_workers(n, timeout=timeout)

    def close(self):
        for proc in reversed(self.procs):
            _kill(proc)
        self.log.close()

    def logs(self) -> str:
        self.log.flush()
        return (self.folder / "dask.log").read_text()


@pytest.fixture(scope="module", autouse=True)
def no_dask_threads_left_behind():
    """Later test modules fork (local pools, search workers): let the Dask
    client threads of this process end first. Threads that were running
    before this module (of tests that ran earlier) are not its to wait for."""
    before = set(_busy_threads())
    yield
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and _busy_threads(before):
        time.sleep(0.1)
    assert not _busy_threads(before)


def _busy_threads(before=frozenset()):
    import threading
    # Dask-Offload: an idle pool thread of distributed that lives as long as the process
    return [t for t in threading.enumerate()
            if t is not threading.main_thread() and not t.name.startswith("Dask-Offload")
            and t not in before]


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory):
    """One scheduler, two workers, shared by the tests that do not kill anything."""
    c = None
    try:
        c = LocalhostCluster(tmp_path_factory.mktemp("dask"))
        yield c
    finally:
        if c is not None:
            c.close()


@pytest.fixture
def own_cluster(tmp_path):
    """A scheduler and two workers for a test that kills one of them."""
    c = None
    try:
        c = LocalhostCluster(tmp_path)
        yield c
    finally:
        if c is not None:
            c.close()


# ---------------------------------------------------------------------------
# comparing runs


def _games(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]


def _complete_lines(path: Path) -> int:
    """Lines of games.jsonl that a kill did not cut."""
    n = 0
    for line in path.read_text().splitlines():
        try:
            json.loads(line)
        except json.JSONDecodeError:
            break
        n += 1
    return n


def _without_timing(value):
    if isinstance(value, dict):
        return {k: _without_timing(v) for k, v in value.items() if k not in TIMING}
    if isinstance(value, list):
        return [_without_timing(v) for v in value]
    return value


def _assert_same_tournament(a: Path, b: Path, games: int):
    ga, gb = _games(a), _games(b)
    assert sorted(r["game"] for r in gb) == list(range(games)), "every game exactly once"
    assert sorted(r["game"] for r in ga) == list(range(games))
    by_game = {r["game"]: _without_timing(r) for r in ga}
    assert all(by_game[r["game"]] == _without_timing(r) for r in gb)
    ra = json.loads((a / "results.json").read_text())
    rb = json.loads((b / "results.json").read_text())
    assert _without_timing(ra) == _without_timing(rb)
    assert ra["games"] == games


CFG = dict(bots=["greedy", "random", "greedy"], players=3, games=12, seed=7)


@pytest.fixture(scope="module")
def local_run(tmp_path_factory):
    """The reference: CFG on the local process pool (two processes)."""
    out = tmp_path_factory.mktemp("local") / "t"
    _local_pool(TournamentConfig(**CFG), out, workers=2)
    return out


def _local_pool(cfg: TournamentConfig, out: Path, workers: int):
    """`ulm tournament --workers N` in a process of its own: the pool forks its
    workers, and this process may hold Dask's threads, which a fork must not copy
    mid-work. (References in this process use workers=1: no fork.)"""
    res = subprocess.run(
        [sys.executable, "-m", "cli.main", "tournament", "--bots", *cfg.bots, "--players",
         str(cfg.players), "--games", str(cfg.games), "--seed", str(cfg.seed),
         "--workers", str(workers), "--out", str(out), "--quiet"],
        capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert res.returncode == 0, res.stderr


# ---------------------------------------------------------------------------
# settings and errors (no cluster needed)


@pytest.mark.parametrize("text, expected", [
    ("local:2", ("local", 2)),
    ("tcp://10.1.2.3:8786", ("address", "tcp://10.1.2.3:8786")),
    ("tls://sched.example:8786", ("address", "tls://sched.example:8786")),
    ("localhost:8786", ("address", "localhost:8786")),
])
def test_scheduler_addresses(text, expected):
    assert parse_scheduler(text) == expected


@pytest.mark.parametrize("text, words", [
    ("local:0", ["local:N", "N >= 1"]),
    ("local", ["local:N"]),
    ("local:two", ["local:N"]),
    ("my scheduler", ["tcp://HOST:8786"]),
    ("", ["tcp://HOST:8786"]),
])
def test_bad_scheduler_is_refused(text, words):
    with pytest.raises(TournamentError) as err:
        parse_scheduler(text)
    assert str(err.value).startswith("scheduler: ")
    for w in words:
        assert w in str(err.value)


@pytest.mark.parametrize("command", [
    ["tournament", "--bots", "greedy", "random", "--games", "2"],
    ["tune", "--bot", "ismcts", "--param", "c=0.2:2", "--against", "greedy"],
    ["train", "selfplay", "--games", "2"],
    ["train", "rounds", "--rounds", "1"]], ids=lambda c: " ".join(c[:2]))
def test_bad_scheduler_on_the_command_line_exits_2(tmp_path, command):
    res = CliRunner().invoke(main, [*command, "--scheduler", "local:0",
                                    "--out", str(tmp_path / "t")])
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert res.stderr.startswith("Error: --scheduler: 'local:0'"), res.stderr
    assert "Traceback" not in res.output
    assert not (tmp_path / "t").exists()


def test_without_the_extra_scheduler_says_what_to_install(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` fails
    res = CliRunner().invoke(main, ["tournament", "--bots", "greedy", "random", "--games", "2",
                                    "--scheduler", "local:2", "--out", str(tmp_path / "t")])
    assert res.exit_code == 2, res.output
    assert ("Error: --scheduler needs the cluster extra: pip install 'ulm-engine[cluster]'"
            in res.stderr)
    assert "Traceback" not in res.output
    assert not (tmp_path / "t").exists()
    # without --scheduler nothing needs Dask
    res = CliRunner().invoke(main, ["tournament", "--bots", "greedy", "random", "--games", "2",
                                    "--workers", "1", "--json"])
    assert res.exit_code == 0, res.output


class TwiceExecutor:
    """An executor that delivers every game twice, as a cluster may after a lost worker."""

    def map(self, fn, items):
        for item in items:
            row = fn(item)
            yield row
            yield dict(row)

    def describe(self):
        return "twice"

    def status(self):
        return ""


def test_a_game_delivered_twice_is_written_and_counted_once(tmp_path):
    cfg = TournamentConfig(**CFG)
    s = run_tournament(cfg, tmp_path / "t", progress=False, scheduler=TwiceExecutor())
    assert s["games"] == 12
    assert sorted(r["game"] for r in _games(tmp_path / "t")) == list(range(12))


# ---------------------------------------------------------------------------
# a scheduler and two workers on localhost


@needs_dask
def test_dask_cluster_gives_the_same_games_and_results_as_the_local_pool(
        dask_cluster, local_run, tmp_path):
    with DaskExecutor(dask_cluster.address) as ex:
        assert ex.workers() == (2, 2)
        assert "2 workers" in ex.describe() and dask_cluster.address in ex.describe()
        run_tournament(TournamentConfig(**CFG), tmp_path / "dask", progress=False, scheduler=ex)
    _assert_same_tournament(local_run, tmp_path / "dask", 12)


@needs_dask
def test_local_cluster_from_the_command_line_gives_the_same_results(local_run, tmp_path):
    out = tmp_path / "t"
    res = subprocess.run(
        [sys.executable, "-m", "cli.main", "tournament", "--bots", *CFG["bots"], "--players", "3",
         "--games", "12", "--seed", "7", "--scheduler", "local:1", "--out", str(out)],
        capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert res.returncode == 0, res.stderr
    assert "playing on a local Dask cluster" in res.stderr and "1 worker, 1 thread" in res.stderr
    assert "tournament: 100%" in res.stderr  # the progress bar
    _assert_same_tournament(local_run, out, 12)


@needs_dask
def test_a_custom_board_is_shipped_to_the_workers_as_a_table(dask_cluster, tmp_path):
    from ulm.board import load_board
    table = json.loads((ROOT / "ulm" / "data" / "board.json").read_text())
    board = tmp_path / "board.json"
    board.write_text(json.dumps(table))
    cfg = TournamentConfig(bots=["greedy", "random"], players=2, games=4, seed=3, board=str(board))
    local = run_tournament(cfg, None, workers=1, progress=False)
    shipped = []

    class Recording(DaskExecutor):
        def map(self, fn, items):
            shipped.extend(item[5] for item in items)
            return super().map(fn, items)

    with Recording(dask_cluster.address) as ex:
        remote = run_tournament(cfg, None, progress=False, scheduler=ex)
    assert shipped and all(b == load_board(str(board)) for b in shipped)
    assert _without_timing(local) == _without_timing(remote)


@needs_dask
def test_killing_a_worker_part_way_still_plays_every_game_once(own_cluster, tmp_path):
    """A worker (nanny and process) dies mid-run: its games are played again on
    the other worker, none is lost and none is written twice."""
    n = 150
    reference = tmp_path / "ref"
    run_tournament(TournamentConfig(**dict(CFG, games=n)), reference, workers=1, progress=False)
    out = tmp_path / "t"
    client = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "tournament", "--bots", *CFG["bots"], "--players", "3",
         "--games", str(n), "--seed", "7", "--scheduler", own_cluster.address, "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            games = out / "games.jsonl"
            if games.exists() and len(games.read_text().splitlines()) >= 3:
                break
            time.sleep(0.02)
        _kill(own_cluster.workers[0], signal.SIGKILL)
        written = len((out / "games.jsonl").read_text().splitlines())
        assert client.poll() is None and written < n, "the tournament ended before the kill"
        stdout, stderr = client.communicate(timeout=300)
    finally:
        _kill(client, signal.SIGKILL)
    assert client.returncode == 0, stderr
    assert own_cluster.workers[0].returncode is not None
    print(f"{written} of {n} games written when the worker was killed")
    _assert_same_tournament(reference, out, n)
    assert "Remove worker" in own_cluster.logs()  # the scheduler saw it go


@needs_dask
def test_a_killed_client_resumes_from_games_jsonl(dask_cluster, tmp_path):
    """The client dies (kill -9) mid-run: the same command plays only the rest."""
    n = 150
    reference = tmp_path / "ref"
    run_tournament(TournamentConfig(**dict(CFG, games=n)), reference, workers=1, progress=False)
    out = tmp_path / "t"
    args = [sys.executable, "-m", "cli.main", "tournament", "--bots", *CFG["bots"], "--players",
            "3", "--games", str(n), "--seed", "7", "--scheduler", dask_cluster.address,
            "--out", str(out)]
    client = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              cwd=ROOT, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and client.poll() is None:
            games = out / "games.jsonl"
            if games.exists() and len(games.read_text().splitlines()) >= 2:
                break
            time.sleep(0.01)
        alive = client.poll() is None
    finally:
        _kill(client, signal.SIGKILL)
    kept = _complete_lines(out / "games.jsonl")
    assert alive and 2 <= kept < n, "the client was not killed part way"
    res = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert res.returncode == 0, res.stderr
    print(f"{kept} of {n} games kept from the killed client")
    _assert_same_tournament(reference, out, n)


@needs_dask
def test_unreachable_scheduler_is_a_clear_error_within_seconds(tmp_path):
    port = _free_port()  # nothing listens there
    t0 = time.monotonic()
    res = subprocess.run(
        [sys.executable, "-m", "cli.main", "tournament", "--bots", "greedy", "random",
         "--games", "2", "--scheduler", f"tcp://127.0.0.1:{port}", "--out", str(tmp_path / "t")],
        capture_output=True, text=True, cwd=ROOT, timeout=120)
    elapsed = time.monotonic() - t0
    assert res.returncode == 2, res.stderr
    assert f"Error: --scheduler: cannot reach the Dask scheduler at tcp://127.0.0.1:{port}" \
        in res.stderr
    assert "Traceback" not in res.stderr
    assert elapsed < 60  # the connect timeout is 10 s; the rest is start-up on a busy machine


class ListeningNotDask:
    """A TCP server on 127.0.0.1 that accepts connections and then says nothing, or
    answers garbage (an HTTP page), never what a Dask scheduler says."""

    def __init__(self, answer: bytes):
        import threading
        self.answer = answer
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.port = self.sock.getsockname()[1]
        self.conns = []
        self.stopped = False
        self.thread = threading.Thread(target=self.serve, name="not-dask", daemon=True)
        self.thread.start()

    def serve(self):
        self.sock.settimeout(0.1)
        while not self.stopped:
            try:
                conn, _ = self.sock.accept()
            except OSError:     # a timeout: look at `stopped` again
                continue
            self.conns.append(conn)
            if self.answer:
                try:
                    conn.sendall(self.answer)
                except OSError:
                    pass

    def close(self):
        self.stopped = True
        self.thread.join(timeout=10)
        self.sock.close()
        for conn in self.conns:
            conn.close()


@needs_dask
@pytest.mark.parametrize("answer", [
    b"",
    b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello" * 4,
    b"\x00" * 64,
], ids=["silent", "http", "zeros"])
def test_a_service_that_is_not_a_dask_scheduler_is_a_clear_error(tmp_path, answer):
    """docs/cluster.md: an address where no Dask scheduler answers is an error within
    about 10 s, also when something there accepts the connection."""
    server = ListeningNotDask(answer)
    try:
        res = subprocess.run(
            [sys.executable, "-m", "cli.main", "tournament", "--bots", "greedy", "random",
             "--games", "2", "--scheduler", f"tcp://127.0.0.1:{server.port}",
             "--out", str(tmp_path / "t")],
            capture_output=True, text=True, cwd=ROOT, timeout=120)
    finally:
        server.close()
    assert res.returncode == 2, res.stderr
    assert res.stderr.startswith(f"Error: --scheduler: tcp://127.0.0.1:{server.port}: "), \
        res.stderr
    assert "not a Dask scheduler" in res.stderr or "no answer as a Dask scheduler" in res.stderr
    assert "Traceback" not in res.stderr
    assert not (tmp_path / "t" / "games.jsonl").exists()


@needs_dask
def test_a_worker_without_the_engine_is_a_clear_error(tmp_path):
    """A worker that cannot import the engine cannot play a game: the run says so at
    once, naming the worker (Dask itself would wait for ever)."""
    blocker = tmp_path / "no_engine.py"
    blocker.write_text("import sys\nsys.modules['mcts'] = None  # no engine here\n")
    c = LocalhostCluster(tmp_path, workers=0)
    try:
        c.add_worker("bare", "--preload", str(blocker))
        c.wait_for_workers(1)
        res = subprocess.run(
            [sys.executable, "-m", "cli.main", "tournament", "--bots", "greedy", "random",
             "--games", "2", "--scheduler", c.address, "--out", str(tmp_path / "t")],
            capture_output=True, text=True, cwd=ROOT, timeout=300)
    finally:
        c.close()
    assert res.returncode == 1, res.stderr
    assert "Error: the Dask worker at tcp://127.0.0.1:" in res.stderr
    assert "cannot play the games: the engine is not installed there" in res.stderr
    assert "mcts" in res.stderr and "Traceback" not in res.stderr


@needs_dask
def test_the_worker_count_is_refreshed_while_no_game_finishes(tmp_path):
    """The progress display's worker count follows the cluster while a long task runs:
    a worker that joins shows up before any game finishes (the task here waits for it)."""
    flag = tmp_path / "seen-two-workers"
    wait = (f"[__import__('time').sleep(0.1) for _ in range(600) "
            f"if not __import__('os').path.exists({str(flag)!r})] and 'released'")
    c = LocalhostCluster(tmp_path, workers=1)
    seen = []

    def on_status(text):
        seen.append(text)
        if text.startswith("2 workers"):
            flag.touch()
    try:
        with DaskExecutor(c.address) as ex:
            ex.on_status = on_status
            c.add_worker("late")
            assert list(ex.map(eval, [wait])) == ["released"]
    finally:
        c.close()
    assert seen[0].startswith("1 worker") and any(s.startswith("2 workers") for s in seen)


@needs_dask
def test_a_task_is_small():
    """What a game costs to ship: the function by reference and a few numbers."""
    cfg = TournamentConfig(bots=["greedy"] * 4, players=4, games=4, seed=1)
    g, s, r, seats = cfg.schedule()[0]
    size = task_bytes(pool._run_one, (g, s, r, seats, cfg.variant, None))
    assert 50 < size < 400


def test_task_sizes_follow_the_time_games_take():
    from mcts.play.cluster import MAX_BATCH, TASK_SECONDS, TaskSizer
    sizer = TaskSizer()
    assert sizer.size(1000, 4) == 1                  # nothing known yet: one game a task
    sizer.observe(10, 10 * 0.005)                    # games of 5 ms
    assert sizer.size(10_000, 4) == min(MAX_BATCH, int(TASK_SECONDS / 0.005))
    assert sizer.size(40, 4) == 5                    # at most two tasks a thread for the rest
    assert sizer.size(1, 4) == 1
    slow = TaskSizer()
    slow.observe(2, 2 * 3.0)                         # games of seconds: one a task
    assert slow.size(10_000, 4) == 1
    assert TaskSizer.window(8) >= 2 * 8              # every thread has its next task queued


@needs_dask
def test_every_game_arrives_once_whatever_the_batching(dask_cluster, monkeypatch):
    import mcts.play.cluster as cluster
    items = list(range(37))
    for seconds in (0.0, 0.25, 100.0):               # one a task, batches, as big as allowed
        monkeypatch.setattr(cluster, "TASK_SECONDS", seconds)
        with DaskExecutor(dask_cluster.address) as ex:
            got = list(ex.map(abs, items))
        assert sorted(got) == items


@needs_dask
def test_an_executor_on_the_callers_client_leaves_it_open(dask_cluster, local_run, tmp_path):
    with distributed.Client(dask_cluster.address) as client:
        with DaskExecutor.from_client(client) as ex:
            run_tournament(TournamentConfig(**CFG), tmp_path / "t", progress=False, scheduler=ex)
        assert client.status == "running"
        assert sum(client.nthreads().values()) == 2
    _assert_same_tournament(local_run, tmp_path / "t", 12)


@needs_dask
def test_games_cancelled_while_waiting_are_a_lost_scheduler(dask_cluster, monkeypatch):
    """When the scheduler dies, Dask may raise the cancellation from wait()
    rather than from a finished game's result: the same clear error."""
    from distributed.client import FuturesCancelledError

    from mcts.play.cluster import ClusterError

    def cancelled(*args, **kwargs):
        raise FuturesCancelledError([])
    monkeypatch.setattr(distributed, "wait", cancelled)
    with DaskExecutor(dask_cluster.address) as ex:
        with pytest.raises(ClusterError, match="lost the Dask scheduler.*run the same command again"):
            list(ex.map(time.sleep, [3]))


@needs_dask
def test_a_game_that_kills_every_worker_it_runs_on_ends_the_run_clearly(own_cluster):
    """A task that brings its worker down each time (here os._exit) is given up
    after Dask's allowed failures, with a message saying the games are kept."""
    from mcts.play.cluster import ClusterError
    with DaskExecutor(own_cluster.address) as ex:
        with pytest.raises(ClusterError, match="brought down every worker.*run the same command again"):
            list(ex.map(os._exit, [3]))


def test_workers_and_scheduler_together_are_refused(tmp_path):
    res = CliRunner().invoke(main, ["tournament", "--bots", "greedy", "random", "--games", "2",
                                    "--workers", "2", "--scheduler", "local:2"])
    assert res.exit_code == 2, res.output
    assert "Error: --workers: " in res.stderr and "--scheduler" in res.stderr


@needs_dask
def test_a_bot_with_its_own_worker_processes_plays_on_dask(dask_cluster, tmp_path):
    """ismcts:workers=2 forks search processes inside a Dask worker (which Dask
    starts as a daemonic process): same games as the local pool."""
    cfg = TournamentConfig(bots=["ismcts:iterations=4,workers=2", "random"], players=2, games=2,
                           seed=3)
    _local_pool(cfg, tmp_path / "local", workers=1)  # the search forks: not in this process
    with DaskExecutor(dask_cluster.address) as ex:
        run_tournament(cfg, tmp_path / "dask", progress=False, scheduler=ex)
    _assert_same_tournament(tmp_path / "local", tmp_path / "dask", 2)


# ---------------------------------------------------------------------------
# ulm tune on the cluster

TUNE = ["tune", "--bot", "ismcts:iterations=8", "--param", "c=0.2:2.0",
        "--against", "greedy", "--players", "2", "--games-per-trial", "4", "--trials", "3",
        "--seed", "5"]


@needs_dask
def test_tune_on_the_cluster_gives_the_same_trials_as_locally(dask_cluster, tmp_path):
    """A few trials of `ulm tune` with --scheduler (the scheduler and two workers
    on localhost): the same trials, win rates and best spec as the local pool."""
    base = [sys.executable, "-m", "cli.main", *TUNE]
    remote = subprocess.run(base + ["--scheduler", dask_cluster.address, "--out",
                                    str(tmp_path / "dask")],
                            capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert remote.returncode == 0, remote.stderr
    assert f"playing on the Dask scheduler at {dask_cluster.address}: 2 workers" in remote.stderr
    local = subprocess.run(base + ["--workers", "1", "--out", str(tmp_path / "local")],
                           capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert local.returncode == 0, local.stderr
    trials = [(tmp_path / d / "trials.csv").read_text() for d in ("dask", "local")]
    assert trials[0] == trials[1] and len(trials[0].splitlines()) == 1 + 3
    best = [json.loads((tmp_path / d / "best.json").read_text()) for d in ("dask", "local")]
    assert best[0] == best[1]
    # "Best of 3 trials ...", "Bot spec: ..." (the last line names the folder)
    assert remote.stdout.splitlines()[:-1] == local.stdout.splitlines()[:-1]


def test_tune_refuses_workers_with_scheduler_and_a_bad_scheduler():
    res = CliRunner().invoke(main, TUNE + ["--workers", "2", "--scheduler", "local:2"])
    assert res.exit_code == 2 and "Error: --workers: " in res.stderr, res.output
    res = CliRunner().invoke(main, TUNE + ["--scheduler", "nowhere"])
    assert res.exit_code == 2 and "Error: --scheduler: 'nowhere'" in res.stderr, res.output


@needs_dask
def test_a_lost_scheduler_ends_the_run_clearly_and_the_games_resume(own_cluster, tmp_path):
    """The scheduler dies mid-run: exit 1 with a message, the games so far kept;
    the same tournament then finishes on the local pool with the same results."""
    n = 150
    reference = tmp_path / "ref"
    run_tournament(TournamentConfig(**dict(CFG, games=n)), reference, workers=1, progress=False)
    out = tmp_path / "t"
    args = [sys.executable, "-m", "cli.main", "tournament", "--bots", *CFG["bots"], "--players",
            "3", "--games", str(n), "--seed", "7", "--out", str(out)]
    client = subprocess.Popen(args + ["--scheduler", own_cluster.address], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, cwd=ROOT, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and client.poll() is None:
            if _lines(out / "games.jsonl") >= 3:
                break
            time.sleep(0.02)
        _kill(own_cluster.procs[0], signal.SIGKILL)  # the scheduler
        written = _complete_lines(out / "games.jsonl")
        assert written < n, "the tournament ended before the kill"
        _, stderr = client.communicate(timeout=120)
    finally:
        _kill(client, signal.SIGKILL)
    assert client.returncode == 1, stderr
    assert "Error: lost the Dask scheduler: " in stderr
    assert "run the same command again to resume" in stderr and "Traceback" not in stderr
    kept = _complete_lines(out / "games.jsonl")
    assert written <= kept < n
    res = subprocess.run(args + ["--workers", "1"], capture_output=True, text=True, cwd=ROOT,
                         timeout=300)
    assert res.returncode == 0, res.stderr
    assert f"resuming: {kept} of {n} games already played" in res.stderr
    _assert_same_tournament(reference, out, n)


def _lines(path: Path) -> int:
    return len(path.read_text().splitlines()) if path.exists() else 0
