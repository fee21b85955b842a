"""An engine program as a guest: started in a session of its own, spoken to one
JSON line at a time with a size and a time limit, ended with its children.

Every way the program can misbehave ends in a `BotFault` (mcts.play.engines.faults)
and the process group's end; nothing it does can block the host past the
deadline of the message it owes, fill the host's memory, or outlive the host:

* it runs in a new session (its own process group), so the terminal's Ctrl-C
  reaches the host alone and the host ends the whole group (`close`);
* the kernel sends it SIGKILL when the thread that started it ends
  (PR_SET_PDEATHSIG), so a host killed outright does not leave it running;
* a watchdog process ends the engine groups of a host that ended without
  ending them (a pool's worker ended by SIGTERM, a host killed by SIGKILL);
* its standard error goes to a log file of its own, never to the host's terminal,
  at most MAX_LOG bytes of it (the rest is read and dropped, so it never blocks);
* a line longer than MAX_LINE bytes, or more than MAX_LINES lines for one
  decision, is a flood; reads and writes wait at most until the deadline.
"""
from __future__ import annotations

import atexit
import json
import os
import select
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from mcts.play.engines.faults import BotFault

MAX_LINE = 1 << 20          # bytes of one line from an engine (a decision is a few dozen)
MAX_LINES = 1000            # lines an engine may write for one decision (info lines and all)
READ_CHUNK = 1 << 16
MAX_LOG = 16 << 20          # bytes of an engine's standard error kept in its log, a game
QUIT_SECONDS = 1.0          # how long an engine told to quit may take to end

_PRCTL: Any = None
try:                        # loaded before any fork: the child only makes the call
    import ctypes
    _PRCTL = ctypes.CDLL(None, use_errno=True).prctl
except (OSError, AttributeError):  # pragma: no cover - not Linux
    pass

_LIVE: set = set()          # the engines of this process not yet ended
_LIVE_LOCK = threading.Lock()


def _in_child() -> None:
    """In the engine's process, before the program starts: die with the host's thread."""
    if _PRCTL is not None:
        _PRCTL(1, signal.SIGKILL)       # PR_SET_PDEATHSIG


def _keep_log(pipe, log, most: int) -> None:
    """Copy an engine's standard error into its log, at most `most` bytes, then a
    line saying the rest was dropped; read to its end either way, so an engine
    that writes without end neither blocks nor fills the disk."""
    kept = 0
    with pipe, log:
        while chunk := pipe.read(READ_CHUNK):
            if kept < most:
                log.write(chunk[:most - kept])
                kept += len(chunk)
                if kept >= most:
                    log.write(f"\n[the log stops here: the engine wrote more than "
                              f"{most:,} bytes to its standard error]\n".encode())
                log.flush()


def end_all() -> None:
    """End every engine group this process started and has not ended yet."""
    with _LIVE_LOCK:
        engines = list(_LIVE)
    for engine in engines:
        engine.kill()


# A watchdog process per host process: it holds the engine process groups the host
# started and not yet ended, and ends them when the host is gone, however it ended
# (SIGTERM from a pool, SIGKILL): it reads their numbers from a pipe whose other end
# only the host holds, and the end of that pipe is the host's end. (A Python signal
# handler cannot do this: one that comes just before a blocking call waits for it.)
_WATCHDOG_CODE = """
import os, signal, sys
groups = set()
for line in sys.stdin:
    sign, pgid = line[:1], int(line[1:])
    (groups.add if sign == "+" else groups.discard)(pgid)
for pgid in groups:
    for kill in (os.killpg, os.kill):
        try:
            kill(pgid, signal.SIGKILL)
        except OSError:
            pass
"""
_WATCHDOG: list = [None, None]      # [the process that started it, the watchdog's Popen]
_WATCHDOG_LOCK = threading.Lock()


def _watch(pgid: int, sign: str) -> None:
    """Tell this process's watchdog of an engine group started (+) or ended (-)."""
    with _WATCHDOG_LOCK:
        if _WATCHDOG[0] != os.getpid():     # none yet, or the parent's (a forked worker)
            if sign == "-":
                return
            try:
                dog = subprocess.Popen([sys.executable, "-S", "-c", _WATCHDOG_CODE],
                                       stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL, start_new_session=True,
                                       close_fds=True)
            except OSError:     # pragma: no cover - no process to spare: ended as before
                return
            _WATCHDOG[:] = [os.getpid(), dog]
        try:
            _WATCHDOG[1].stdin.write(f"{sign}{pgid}\n".encode())
            _WATCHDOG[1].stdin.flush()
        except OSError:         # pragma: no cover - the watchdog ended
            pass


def _end_at_exit() -> None:
    """End this process's engines, then close its watchdog's pipe: the watchdog,
    holding no group now, ends too, and is waited for (neither the pipe nor the
    process is left to the collector, which would warn of both)."""
    end_all()
    with _WATCHDOG_LOCK:
        if _WATCHDOG[0] == os.getpid():
            dog = _WATCHDOG[1]
            _WATCHDOG[:] = [None, None]
            try:
                dog.stdin.close()
                dog.wait(timeout=1.0)
            except (OSError, subprocess.TimeoutExpired):    # pragma: no cover - left to init
                pass


atexit.register(_end_at_exit)


def descendants(pid: int) -> list[int]:
    """The processes below `pid` (Linux /proc), children first: those that left
    the engine's process group (a new session) are ended by their number."""
    children: dict[int, list[int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:  # pragma: no cover - no /proc
        return []
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        # the command name is in parentheses and may hold spaces: fields follow the last ")"
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) > 1:
            children.setdefault(int(fields[1]), []).append(int(name))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def _alive(pid: int) -> bool:
    """Is `pid` a process that has not ended (a zombie has)?"""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rfind(b")") + 2:][:1] not in (b"Z", b"X")


def _end(pid: int) -> None:
    """SIGKILL the process group `pid` leads, and `pid` itself."""
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


class EngineProcess:
    """One running engine program: `send` a message, `receive` one, `close`.

    `tap(direction, message)`, if set, hears every message sent ("host") and
    every line received ("engine", the parsed object)."""

    def __init__(self, name: str, command: str, log_path: str | Path | None = None,
                 tap=None):
        self.name = name
        self.command = command
        self.log_path = None if log_path is None else Path(log_path)
        self.tap = tap
        self.proc: subprocess.Popen | None = None
        self._stdin: Any = None
        self._stdout: Any = None
        self._buffer = bytearray()
        self._log_copier: threading.Thread | None = None
        self.lines = 0              # lines read since `count_lines_from_zero`

    # --- the process --------------------------------------------------------
    def start(self) -> None:
        try:
            argv = shlex.split(self.command)
        except ValueError as exc:
            raise BotFault("start", f"cannot read the command {self.command!r}: {exc}") from None
        if not argv:
            raise BotFault("start", "the command is empty")
        log: Any = subprocess.DEVNULL
        if self.log_path is not None:
            try:
                self.log_path.parent.mkdir(parents=True, exist_ok=True)
                log = open(self.log_path, "ab")
            except OSError as exc:
                raise BotFault("start", f"cannot open its log {self.log_path}: "
                                        f"{exc.strerror}") from None
        try:
            # the parent-death signal follows the starting thread: only the main thread's
            # engines get it (a server's bot threads end between decisions)
            main = threading.current_thread() is threading.main_thread()
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL if log is subprocess.DEVNULL
                                         else subprocess.PIPE,
                                         start_new_session=True,
                                         preexec_fn=_in_child if main else None,
                                         close_fds=True, bufsize=0)
        except OSError as exc:
            if log is not subprocess.DEVNULL:
                log.close()
            raise BotFault("start", f"cannot start {argv[0]!r}: {exc.strerror or exc}") from None
        if log is not subprocess.DEVNULL:
            self._log_copier = threading.Thread(
                target=_keep_log, args=(self.proc.stderr, log, MAX_LOG),
                name=f"engine log {self.name}", daemon=True)
            self._log_copier.start()
        with _LIVE_LOCK:
            _LIVE.add(self)
        _watch(self.proc.pid, "+")
        self._stdin, self._stdout = self.proc.stdin, self.proc.stdout
        assert self._stdin is not None and self._stdout is not None
        os.set_blocking(self._stdout.fileno(), False)
        os.set_blocking(self._stdin.fileno(), False)

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def _ended(self) -> str:
        """Why the output ended: the process's exit, or a closed output."""
        assert self.proc is not None
        try:
            code = self.proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            return "closed"
        return f"exited with status {code}" if code >= 0 else \
            f"was ended by signal {signal.Signals(-code).name}"

    def kill(self) -> None:
        """End the engine's process group and whatever else it started."""
        proc = self.proc
        if proc is None:
            return
        strays = descendants(proc.pid) if proc.poll() is None else []
        for target in (proc.pid, *strays):
            _end(target)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL is not refused
            pass
        for pipe in (proc.stdin, proc.stdout):
            try:
                if pipe is not None:
                    pipe.close()
            except OSError:
                pass
        if self._log_copier is not None:    # the log whole once the game is over
            self._log_copier.join(timeout=1.0)
        with _LIVE_LOCK:
            _LIVE.discard(self)
        _watch(proc.pid, "-")

    def descendants(self) -> list[int]:
        """The processes the engine has started and not ended (also those in a session
        of their own, outside its group): `finish` checks them. Taken before `quit`
        is sent: once the engine has ended, they belong to no one."""
        return descendants(self.proc.pid) if self.running and self.proc else []

    def finish(self, strays: list[int], seconds: float = QUIT_SECONDS) -> None:
        """After `quit`: wait for the engine to end; BotFault if it does not, or if
        processes of its group, or `strays` (its `descendants` before quit), outlive
        it. The group is ended in any case."""
        proc = self.proc
        if proc is None:
            return
        try:
            try:
                if proc.stdin is not None:
                    proc.stdin.close()
            except OSError:
                pass
            try:
                proc.wait(timeout=seconds)
            except subprocess.TimeoutExpired:
                raise BotFault("quit", f"still running {seconds:g} s after quit") from None
            left = [pid for pid in strays if _alive(pid)]
            try:
                os.killpg(proc.pid, 0)
                left.append(proc.pid)
            except (ProcessLookupError, PermissionError):
                pass
            if left:
                for pid in left:
                    _end(pid)
                raise BotFault("children", "processes it started were still running after "
                                           "it ended")
        finally:
            self.kill()

    # --- messages -----------------------------------------------------------
    def send(self, message: dict, deadline: float) -> None:
        if self.tap is not None:
            self.tap("host", message)
        data = memoryview((json.dumps(message, separators=(",", ":")) + "\n").encode())
        assert self._stdin is not None
        fd = self._stdin.fileno()
        while data:
            try:
                n = os.write(fd, data)
                data = data[n:]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, ConnectionResetError):
                raise BotFault("crash", f"closed its input ({self._ended()})") from None
            left = deadline - time.monotonic()
            if left <= 0:
                raise BotFault("time", "did not read its input in time")
            select.select([], [fd], [], left)

    def receive(self, deadline: float, waiting_for: str) -> dict:
        """The next message (a JSON object on one line), by `deadline` (time.monotonic)."""
        line = self._line(deadline, waiting_for)
        self.lines += 1
        if self.lines > MAX_LINES:
            raise BotFault("flood", f"wrote more than {MAX_LINES} lines waiting for "
                                    f"{waiting_for}")
        try:
            message = json.loads(line)
        except (UnicodeDecodeError, ValueError):
            raise BotFault("garbage", f"wrote {_quoted(line)}, not a JSON object, "
                                      f"waiting for {waiting_for}") from None
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            raise BotFault("garbage", f"wrote {_quoted(line)}: a message is a JSON object "
                                      "with a \"type\"")
        if self.tap is not None:
            self.tap("engine", message)
        return message

    def unasked(self) -> list[dict]:
        """The messages the engine has written since its last answer, before it was asked
        again (read without waiting; a line not yet ended stays for the next answer)."""
        assert self._stdout is not None
        fd = self._stdout.fileno()
        while len(self._buffer) <= MAX_LINE and select.select([fd], [], [], 0)[0]:
            try:
                chunk = os.read(fd, READ_CHUNK)
            except BlockingIOError:
                break
            if not chunk:           # closed or ended: the next answer's wait says so
                break
            self._buffer += chunk
        written = []
        while any(line.strip() for line in bytes(self._buffer).split(b"\n")[:-1]):
            written.append(self.receive(time.monotonic(), "its next question"))
        return written

    def _line(self, deadline: float, waiting_for: str) -> bytes:
        assert self._stdout is not None
        fd = self._stdout.fileno()
        buffer = self._buffer
        searched = 0
        while True:
            end = buffer.find(b"\n", searched)
            if end >= 0:
                if end > MAX_LINE:
                    raise BotFault("flood", f"wrote a line longer than {MAX_LINE:,} bytes")
                line = bytes(buffer[:end])
                del buffer[:end + 1]
                if line.strip():
                    return line
                searched = 0
                continue
            searched = len(buffer)
            if len(buffer) > MAX_LINE:
                raise BotFault("flood", f"wrote a line longer than {MAX_LINE:,} bytes")
            left = deadline - time.monotonic()
            if left <= 0:
                raise BotFault("time", f"gave no {waiting_for} in time")
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(fd, READ_CHUNK)
            except BlockingIOError:
                continue
            if not chunk:
                why = self._ended()
                kind = "closed" if why == "closed" else "crash"
                raise BotFault(kind, f"{'closed its output' if kind == 'closed' else why} "
                                     f"waiting for {waiting_for}")
            buffer += chunk


def _quoted(line: bytes, limit: int = 80) -> str:
    text = line[:limit].decode("utf-8", "replace")
    return repr(text) + ("..." if len(line) > limit else "")
