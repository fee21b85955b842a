"""The searches of `ulm serve` (hints, annotations) as jobs in threads: the
compiled search releases the GIL, so the event loop stays responsive; a job
reports its progress, streams its estimate and can be cancelled."""
from __future__ import annotations


import secrets
import threading
import time

from mcts import SearchParams, search

# ---------------------------------------------------------------------------
# Jobs: hints and annotations off the event loop

class Cancelled(Exception):
    """Raised inside a search's progress callback to stop it."""


class Job:
    """A search running in a thread, with progress, a result and a cancel switch."""

    def __init__(self, kind: str, game_id: str, budget: float):
        self.id = secrets.token_urlsafe(9)
        self.kind = kind
        self.game_id = game_id
        self.budget = budget            # total seconds this job may take
        self.status = "running"         # running, done, cancelled, failed
        self.done = 0.0                 # fraction 0..1
        self.iterations = 0
        self.started = time.monotonic()
        self.result = None
        self.error = None
        self.cancel_event = threading.Event()
        self.thread: threading.Thread | None = None
        self.partial = None             # the estimate so far (a hint's advice while it runs)
        self.seq = 0                    # bumped at every change (the event stream's cue)
        self.finished_at = None

    def progress(self, fraction: float, iterations: int = 0) -> None:
        if self.cancel_event.is_set():
            raise Cancelled()
        self.done = max(0.0, min(1.0, fraction))
        self.iterations = iterations
        self.seq += 1

    def to_json(self) -> dict:
        return {"id": self.id, "kind": self.kind, "game": self.game_id, "status": self.status,
                "progress": round(self.done, 3), "iterations": self.iterations,
                "elapsed": round(time.monotonic() - self.started, 2),
                "budget": self.budget, "result": self.result, "error": self.error,
                "partial": self.partial if self.status == "running" else None}




# ---------------------------------------------------------------------------
# Search helpers

LIVE_SECONDS = 0.25      # a live estimate this often while a hint searches


def run_search(state, seconds: float, job: Job, seed: int = 0, partial=None,
               params: SearchParams | None = None):
    """One time-limited search reporting its progress to `job` (and stopped by it),
    ending `seconds` after the job started: `params` (default: the default search) with
    that time as its budget and `seed`. With `partial`, the search grows one tree in
    slices of LIVE_SECONDS (mcts.searcher.search reusing its tree) and partial(result) gets the
    estimate after each slice."""
    params = (params or SearchParams()).replace(seed=seed)
    end = job.started + seconds
    result = None
    while True:
        left = end - time.monotonic()
        if result is not None and left <= 0.002:
            return result
        base = result.iterations if result is not None else 0

        def progress(done, elapsed, base=base):
            job.progress(min((time.monotonic() - job.started) / seconds, 1.0), base + done)
        slice_ = max(left, 0.001) if partial is None else min(max(left, 0.001), LIVE_SECONDS)
        result = search(state, params=params.replace(iterations=None, time=slice_),
                        progress=progress, tree=None if result is None else result.tree)
        result.seconds = time.monotonic() - job.started     # the whole search, not the slice
        job.progress(min((time.monotonic() - job.started) / seconds, 1.0), result.iterations)
        if partial is not None and end - time.monotonic() > 0.002:
            partial(result)


def hint_entry(version: int, advice: dict, top: int = 3) -> dict:
    """A session's hint: the advice (a search's answer, SearchResult.to_dict), its
    principal line drawn step by step and its best `top` first decisions drawn
    numbered by rank."""
    return {"version": version, "result": advice,
            "highlight": [s["action"] for s in advice["principal_line"]],
            "ranked": [a["action"] for a in advice["actions"][:top]]}
