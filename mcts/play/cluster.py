"""Tournament games on a Dask cluster: `--scheduler tcp://HOST:8786` or `local:N`.

Needs the optional extra: `pip install 'ulm-engine[cluster]'` (Dask's
`distributed`). A game is a pure function of its seats, deal seed, variant
and board table; games go to the workers as Dask tasks of one or a few
games (TaskSizer), so a task lost with a worker is played again elsewhere
(Dask reschedules it; `retries` covers a task that raised) and gives the
same rows. Only the client keeps state: it writes each row to `games.jsonl`
as it arrives (mcts.play.tournament), and counts a game once even if it should
arrive twice.

    with DaskExecutor("local:2") as ex:
        run_tournament(cfg, "out/", scheduler=ex)
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import re
import signal
import threading
import time
import uuid
from contextlib import contextmanager, nullcontext
from typing import Any

from mcts.play.tournament import TournamentError

CONNECT_TIMEOUT = 10.0  # seconds to reach a scheduler before giving up
RETRIES = 3             # re-runs of a task that raised (a lost worker is not counted here)
STATUS_EVERY = 2.0      # seconds between worker counts for the progress bar
TASK_SECONDS = 0.25     # games per task: as many as take this long (1 for games of seconds)
MAX_BATCH = 64

KEPT = "the games finished so far are kept (with --out): run the same command again to resume"
# run on every worker before it gets a game (with eval: no function of ours needs to be
# unpickled there): the engine's functions that the games need can be imported
ENGINE_CHECK = ("__import__('mcts.play.cluster', fromlist=['_play_batch'])._play_batch and "
                "__import__('mcts.play.pool', fromlist=['_run_one'])._run_one and None")
ENGINE_HINT = ("install the engine there, the same version as here (pip install "
               "'ulm-engine[cluster]')")
_ADDRESS = re.compile(r"[a-z][a-z0-9+.-]*://\S+|[\w.-]+:\d+")  # tcp://HOST:PORT, HOST:PORT


class ClusterError(RuntimeError):
    """The cluster failed a game for good (e.g. it killed every worker that ran it)."""


def parse_scheduler(text: str) -> tuple[str, str | int]:
    """`local:N` -> ("local", N); a Dask address (tcp://HOST:PORT, HOST:PORT, tls://...)
    -> ("address", text). Raises TournamentError naming the scheduler otherwise."""
    text = text.strip()
    if text == "local" or text.startswith("local:"):
        m = re.fullmatch(r"local:(\d+)", text)
        if not m or int(m.group(1)) < 1:
            raise TournamentError("scheduler", message=f"{text!r}: a local cluster is local:N with "
                                  "N >= 1 worker processes, e.g. local:2")
        return "local", int(m.group(1))
    if not _ADDRESS.fullmatch(text):
        raise TournamentError("scheduler", message=f"{text!r}: expected a Dask scheduler address "
                              "such as tcp://HOST:8786, or local:N")
    return "address", text


def _import_distributed():
    """Dask's distributed (the cluster extra), or MissingExtra naming it."""
    from ulm.extras import require
    return require("distributed", "cluster", "--scheduler")


class DaskExecutor:
    """Plays games as Dask tasks. A context manager: entering connects to the
    scheduler (or starts the local cluster), leaving closes what it opened.

    One executor can run many tournaments (`ulm tune` plays many matches)."""

    def __init__(self, scheduler: str, connect_timeout: float = CONNECT_TIMEOUT):
        self.kind, self.target = parse_scheduler(scheduler)
        self.scheduler = scheduler
        self.connect_timeout = connect_timeout
        self.client: Any = None         # a distributed.Client once entered
        self.cluster: Any = None        # the distributed.LocalCluster of local:N
        self._own_client = True
        self._status = ""
        self._status_at: float | None = None
        self._threads_seen = 1
        self._quiet: Any = None         # the quieted logs while connected to an address
        self._checked: set = set()      # workers known to have the engine
        self.on_status = None           # on_status(text): the worker count, refreshed
        _import_distributed()  # fail early and clearly without the extra

    @classmethod
    def from_client(cls, client) -> "DaskExecutor":
        """An executor on a Client the caller opened (and closes), e.g. one on a
        dask-jobqueue SLURMCluster started in the same script."""
        ex = cls(client.scheduler.address)
        ex.client = client
        ex._own_client = False
        return ex

    def __enter__(self) -> "DaskExecutor":
        if self.client is not None:  # from_client: already connected
            return self
        distributed = _import_distributed()
        if self.kind == "local":
            # processes, one thread each: the games hold the GIL in Python code.
            # The workers are started ignoring SIGINT (kept across their exec):
            # Ctrl-C is this process's to handle, and closing the cluster ends them.
            with _sigint_ignored():
                self.cluster = distributed.LocalCluster(
                    n_workers=self.target, threads_per_worker=1, processes=True,
                    host="127.0.0.1", dashboard_address=None,
                    silence_logs=logging.CRITICAL)  # no shutdown chatter between our lines
            self.client = distributed.Client(self.cluster)
        else:
            # a scheduler lost mid-run makes Dask's background tasks log their own
            # tracebacks; the run reports the loss itself (ClusterError), so the
            # handlers stay quiet while this executor holds the connection
            self._quiet = _quiet_logs("distributed")
            self._quiet.__enter__()
            try:
                _check_scheduler(str(self.target), self.connect_timeout)
                self.client = distributed.Client(self.target, timeout=self.connect_timeout)
            except TournamentError:
                self._quiet.__exit__(None, None, None)
                self._quiet = None
                raise
            except (OSError, TimeoutError) as exc:
                self._quiet.__exit__(None, None, None)
                self._quiet = None
                raise TournamentError(
                    "scheduler", message=f"cannot reach the Dask scheduler at {self.target} within "
                    f"{self.connect_timeout:g} s ({_reason(exc)}); is `dask scheduler` running "
                    "there, and is the port open?") from None
        return self

    def __exit__(self, *exc_info) -> None:
        if not self._own_client:
            return
        try:
            # after a lost scheduler, Dask logs its cancelled reconnection as an
            # error while closing: the run has already said what went wrong
            with _quiet_logs("distributed") if exc_info[0] is not None else nullcontext():
                if self.client is not None:
                    self.client.close()
                if self.cluster is not None:
                    self.cluster.close()
        except (OSError, TimeoutError):
            if exc_info[0] is None:  # a failing close only matters when nothing else failed
                raise
        finally:
            self.client = self.cluster = None
            if self._quiet is not None:
                self._quiet.__exit__(None, None, None)
                self._quiet = None

    # -- what the progress display shows

    def workers(self) -> tuple[int, int]:
        """(workers, threads) connected now; a worker that joined is first checked to
        have the engine (ClusterError if it has not: it could not play a game)."""
        try:
            nthreads = self.client.nthreads()
            new = [w for w in nthreads if w not in self._checked]
            failed = self.client.run(eval, ENGINE_CHECK, workers=new, on_error="return") \
                if new else {}
        except (OSError, TimeoutError) as exc:
            raise ClusterError(f"lost the Dask scheduler: {_reason(exc)}; {KEPT}") from None
        for worker, error in failed.items():
            if isinstance(error, OSError):  # the worker left while checked (a nanny
                continue                    # restarting it): checked when it is back
            if error is not None:
                raise ClusterError(
                    f"the Dask worker at {worker} cannot play the games: the engine is not "
                    f"installed there or differs ({type(error).__name__}: {_reason(error)}); "
                    f"{ENGINE_HINT}; {KEPT}")
            self._checked.add(worker)
        return len(nthreads), sum(nthreads.values())

    def describe(self) -> str:
        """The line saying where games run."""
        workers, threads = self.workers()
        where = (f"a local Dask cluster ({self.client.scheduler.address})" if self.kind == "local"
                 else f"the Dask scheduler at {self.target}")
        line = f"playing on {where}: {_count(workers, 'worker')}, {_count(threads, 'thread')}"
        if workers == 0:
            line += " (waiting for workers to join)"
        return line

    def status(self) -> str:
        """A short worker count for the progress bar, refreshed every few seconds (also
        while no game arrives: then passed to `on_status`, if set)."""
        now = time.monotonic()
        if self._status_at is None or now - self._status_at >= STATUS_EVERY:
            workers, self._threads_seen = self.workers()
            self._status = _count(workers, "worker") + (" (waiting for workers to join)"
                                                         if workers == 0 else "")
            self._status_at = now
            if self.on_status is not None:
                self.on_status(self._status)
        return self._status

    # -- running games

    def map(self, fn, items, name: str = "ulm-game"):
        """Yield fn(item) for every item, in the order they finish.

        Items are sent in tasks of a few at a time: one at first, then as many
        as take about TASK_SECONDS, so that games of milliseconds do not pay
        Dask's per-task cost each (see docs/cluster.md). A task on a worker
        that dies is run again on another one. Leaving early (Ctrl-C, an
        error) cancels what is left."""
        distributed = _import_distributed()
        items = list(items)
        run = uuid.uuid4().hex[:8]  # keys unique to this run: other clients may share the cluster
        sizer = TaskSizer()
        next_item = 0

        def submit():
            nonlocal next_item
            k = sizer.size(len(items) - next_item, self._threads())
            batch = items[next_item:next_item + k]
            fut = self.client.submit(_play_batch, fn, batch, key=f"{name}-{run}-{next_item}",
                                     retries=RETRIES)
            next_item += k
            return fut

        def fill():
            while next_item < len(items) and pending.count() < sizer.window(self._threads()):
                pending.add(submit())

        if not items:
            return
        self._status_at = None  # a fresh count of threads (and engine check) first
        self.status()
        pending = distributed.as_completed([submit()])
        try:
            fill()
            while not pending.is_empty():
                while not pending.has_ready():
                    # nothing finished yet: keep the worker count fresh and check the
                    # workers that join
                    try:
                        distributed.wait(list(pending.futures), timeout=STATUS_EVERY,
                                         return_when="FIRST_COMPLETED")
                    except (TimeoutError, distributed.TimeoutError):
                        pass
                    except (concurrent.futures.CancelledError, asyncio.CancelledError) as exc:
                        # the scheduler died while we waited: wait() itself raises
                        raise _cancelled(exc) from None
                    self.status()
                    if pending.is_empty():
                        break
                if pending.is_empty():
                    break
                fut = next(pending)
                try:
                    results, seconds = fut.result()
                except distributed.KilledWorker as exc:
                    raise ClusterError(
                        f"task {exc.task} brought down every worker that ran it "
                        f"({exc.allowed_failures + 1} workers; see their logs); {KEPT}") from None
                except (concurrent.futures.CancelledError, asyncio.CancelledError) as exc:
                    # e.g. the scheduler died: Dask cancels every task of the client
                    raise _cancelled(exc) from None
                except (OSError, TimeoutError) as exc:  # the connection to it, while waiting
                    raise ClusterError(f"lost the Dask scheduler: {_reason(exc)}; "
                                       f"{KEPT}") from None
                except Exception as exc:  # e.g. the scheduler cannot read our tasks
                    raise ClusterError(
                        f"the cluster failed a task ({type(exc).__name__}: {_reason(exc)}); "
                        f"is the engine installed on the scheduler and the workers, the same "
                        f"version as here? {KEPT}") from None
                fut.release()
                sizer.observe(len(results), seconds)
                fill()
                yield from results
        finally:
            try:
                self.client.cancel(list(pending.futures))
            except (OSError, TimeoutError):
                pass  # no scheduler to cancel them on: they are gone with it

    def _threads(self) -> int:
        self.status()  # refreshes the count every few seconds
        return max(1, self._threads_seen)


class TaskSizer:
    """How many games go into the next task, from the time games have taken.

    A task should take about TASK_SECONDS (Dask costs some milliseconds per
    task), hold at most MAX_BATCH games, and leave work for every thread to
    the end: no task takes more than its share of what is left."""

    def __init__(self):
        self.items = 0
        self.seconds = 0.0

    def observe(self, items: int, seconds: float) -> None:
        self.items += items
        self.seconds += seconds

    def size(self, left: int, threads: int) -> int:
        if self.items == 0 or left <= 0:
            return 1
        per_item = self.seconds / self.items
        want = int(TASK_SECONDS / per_item) if per_item > 0 else MAX_BATCH
        share = -(-left // (2 * threads))  # ceil: two tasks a thread for the rest
        return max(1, min(want, MAX_BATCH, share))

    @staticmethod
    def window(threads: int) -> int:
        """Tasks kept submitted: enough that no thread waits for the client."""
        return 2 * threads + 2


def _play_batch(fn, items):
    """Runs on a worker: fn on each item, and the seconds it took."""
    # Dask's worker processes are daemonic, and multiprocessing refuses
    # children to those; a bot's root-parallel search (ismcts:workers=2) forks
    # its own. The flag only guards that check here (as in the local pool).
    multiprocessing.current_process().daemon = False
    t0 = time.perf_counter()
    results = [fn(item) for item in items]
    return results, time.perf_counter() - t0


@contextmanager
def _quiet_logs(name: str):
    # Dask sets levels on its child loggers: silence the handlers they reach
    handlers = logging.getLogger(name).handlers
    levels = [h.level for h in handlers]
    for h in handlers:
        h.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for h, level in zip(handlers, levels):
            h.setLevel(level)


@contextmanager
def _sigint_ignored():
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _check_scheduler(address: str, timeout: float) -> None:
    """Connect to `address` and ask who answers, all within `timeout` seconds:
    TournamentError if it is not a Dask scheduler. (Dask's own connection waits
    for ever on a service that accepts and says nothing, and fails with a
    traceback on one that answers in another protocol.)"""
    import distributed.comm

    async def identity():
        start = time.monotonic()
        # Dask retries a refused connection until its timeout, then raises OSError
        comm = await distributed.comm.connect(address, timeout=timeout)
        try:
            await comm.write({"op": "identity", "reply": True})
            left = max(timeout - (time.monotonic() - start), 1.0)
            return await asyncio.wait_for(comm.read(), left)    # silence: TimeoutError
        finally:
            comm.abort()

    def ask():
        return asyncio.run(asyncio.wait_for(identity(), 2 * timeout))   # a last guard

    where = address
    with concurrent.futures.ThreadPoolExecutor(1) as pool:   # a loop of its own
        try:
            answer = pool.submit(ask).result()
        except (TimeoutError, asyncio.TimeoutError):
            raise TournamentError(
                "scheduler", message=f"{where}: no answer as a Dask scheduler within "
                f"{timeout:g} s (something "
                "accepts connections there but says nothing); is it the address of "
                "`dask scheduler` (port 8786 by default)?") from None
        except OSError as exc:
            raise TournamentError(
                "scheduler", message=f"cannot reach the Dask scheduler at {address} within "
                f"{timeout:g} s ({_reason(exc)}); is `dask scheduler` running there, and is "
                "the port open?") from None
        except Exception as exc:  # garbage where Dask's messages were expected
            raise TournamentError(
                "scheduler", message=f"{where}: what answers there is not a Dask scheduler "
                "(it does not speak "
                f"Dask's protocol: {type(exc).__name__}: {_reason(exc)})") from None
    kind = answer.get("type") if isinstance(answer, dict) else None
    if kind != "Scheduler":
        raise TournamentError("scheduler", message=f"{where}: what answers there is not a Dask scheduler (it "
                              f"says it is {str(kind or type(answer).__name__)[:40]!r}); "
                              "give the scheduler's address, not a worker's")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _cancelled(exc: BaseException) -> ClusterError:
    """The error of a run whose games Dask cancelled (the scheduler died, say)."""
    return ClusterError(f"lost the Dask scheduler: it cancelled the games ({_reason(exc)}); "
                        f"{KEPT}")


def task_bytes(fn, item) -> int:
    """Bytes of one task as the client ships it: the function (by reference)
    and its argument, pickled the way Dask pickles them."""
    from distributed.protocol import pickle
    return len(pickle.dumps(fn)) + len(pickle.dumps(item))


@contextmanager
def open_executor(scheduler: str | None):
    """A DaskExecutor for `--scheduler`, or None (the local process pool) without one."""
    if scheduler is None:
        yield None
        return
    with DaskExecutor(scheduler) as executor:
        yield executor
