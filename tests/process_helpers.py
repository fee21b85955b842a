"""Processes the tests start and look for: engines, plug-ins in their own process,
`ulm` commands interrupted as a person would (Ctrl-C to the command's group)."""
from __future__ import annotations

import os
import signal
import subprocess
import time

from mcts.play.engines import host


def processes_below(marker: str, pid: int | None = None) -> list[int]:
    """The processes below `pid` (this one by default) whose command line holds
    `marker`."""
    found = []
    for child in host.descendants(os.getpid() if pid is None else pid):
        try:
            with open(f"/proc/{child}/cmdline", "rb") as f:
                if marker.encode() in f.read():
                    found.append(child)
        except OSError:
            pass
    return found


def interrupt(proc: subprocess.Popen, seconds: float = 10.0) -> tuple[str, float]:
    """Ctrl-C to the group of `proc` (started with start_new_session=True): its
    standard error and the seconds it took to end; killed if it does not."""
    try:
        sent = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=seconds)
        return err, time.monotonic() - sent
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
