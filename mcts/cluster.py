"""Tournament games on a Dask cluster: `--scheduler tcp://HOST:8786` or `local:N`.

Needs the optional extra: `pip install 'ulm-engine[cluster]'` (Dask's
`distributed`). Each game is one Dask task, a pure function of its seats,
deal seed, variant and board table, so a game lost with a worker is played
again elsewhere (Dask reschedules it; `retries` covers a task that raised)
and gives the same row. Only the client keeps state: it writes each row to
`games.jsonl` as it arrives (mcts.tournament), and counts a game once even if
it should arrive twice.

    with DaskExecutor("local:2") as ex:
        run_tournament(cfg, "out/", executor=ex)
"""
from __future__ import annotations

import re
import time
import uuid
from contextlib import contextmanager

from mcts.tournament import TournamentError

INSTALL_HINT = ("install the cluster extra: pip install 'ulm-engine[cluster]' "
                "(in a clone: pip install -e '.[cluster]')")
CONNECT_TIMEOUT = 10.0  # seconds to reach a scheduler before giving up
RETRIES = 3             # re-runs of a game whose task raised (e.g. a worker out of memory)
STATUS_EVERY = 2.0      # seconds between worker counts for the progress bar

_ADDRESS = re.compile(r"[a-z][a-z0-9+.-]*://\S+|[\w.-]+:\d+")  # tcp://HOST:PORT, HOST:PORT


class ClusterError(RuntimeError):
    """The cluster failed a game for good (e.g. it killed every worker that ran it)."""


def parse_scheduler(text: str) -> tuple[str, str | int]:
    """`local:N` -> ("local", N); a Dask address (tcp://HOST:PORT, HOST:PORT, tls://...)
    -> ("address", text). Raises TournamentError naming --scheduler otherwise."""
    text = text.strip()
    if text == "local" or text.startswith("local:"):
        m = re.fullmatch(r"local:(\d+)", text)
        if not m or int(m.group(1)) < 1:
            raise TournamentError(f"--scheduler: {text!r}: a local cluster is local:N with "
                                  "N >= 1 worker processes, e.g. local:2")
        return "local", int(m.group(1))
    if not _ADDRESS.fullmatch(text):
        raise TournamentError(f"--scheduler: {text!r}: expected a Dask scheduler address "
                              "such as tcp://HOST:8786, or local:N")
    return "address", text


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise TournamentError(f"--scheduler: Dask (distributed) is not installed; "
                              f"{INSTALL_HINT}") from None
    return distributed


class DaskExecutor:
    """Plays games as Dask tasks. A context manager: entering connects to the
    scheduler (or starts the local cluster), leaving closes what it opened.

    One executor can run many tournaments (`ulm tune` plays many matches)."""

    def __init__(self, scheduler: str, connect_timeout: float = CONNECT_TIMEOUT):
        self.kind, self.target = parse_scheduler(scheduler)
        self.scheduler = scheduler
        self.connect_timeout = connect_timeout
        self.client = None
        self.cluster = None
        self._status = ""
        self._status_at = 0.0
        _import_distributed()  # fail early and clearly without the extra

    def __enter__(self) -> "DaskExecutor":
        distributed = _import_distributed()
        if self.kind == "local":
            # processes, one thread each: the games hold the GIL in Python code
            self.cluster = distributed.LocalCluster(
                n_workers=self.target, threads_per_worker=1, processes=True,
                host="127.0.0.1", dashboard_address=None)
            self.client = distributed.Client(self.cluster)
        else:
            try:
                self.client = distributed.Client(self.target, timeout=self.connect_timeout)
            except (OSError, TimeoutError) as exc:
                raise TournamentError(
                    f"--scheduler: cannot reach the Dask scheduler at {self.target} within "
                    f"{self.connect_timeout:g} s ({_reason(exc)}); is `dask scheduler` running "
                    "there, and is the port open?") from None
        return self

    def __exit__(self, *exc_info) -> None:
        if self.client is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()
        self.client = self.cluster = None

    # -- what the progress display shows

    def workers(self) -> tuple[int, int]:
        """(workers, threads) connected now."""
        nthreads = self.client.nthreads()
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
        """A short worker count for the progress bar, refreshed every few seconds."""
        now = time.monotonic()
        if now - self._status_at >= STATUS_EVERY:
            self._status = _count(self.workers()[0], "worker")
            self._status_at = now
        return self._status

    # -- running games

    def map_unordered(self, fn, items, name: str = "ulm-game"):
        """Yield fn(item) for every item, in the order they finish.

        Every item is one task; a task on a worker that dies is rerun on
        another one. Leaving early (Ctrl-C, an error) cancels what is left."""
        distributed = _import_distributed()
        run = uuid.uuid4().hex[:8]  # keys unique to this run: other clients may share the cluster
        futures = [self.client.submit(fn, item, key=f"{name}-{run}-{i}", retries=RETRIES)
                   for i, item in enumerate(items)]
        try:
            for fut in distributed.as_completed(futures):
                try:
                    result = fut.result()
                except distributed.KilledWorker as exc:
                    raise ClusterError(
                        f"a game was running on every worker that died ({exc}); the games "
                        "finished so far are kept: run the same command again to resume") from None
                fut.release()
                yield result
        finally:
            self.client.cancel([f for f in futures if not f.done()])


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


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
