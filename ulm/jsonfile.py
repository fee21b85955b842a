"""JSON files of the project (boards, positions, records, tournaments): read with
errors that name the file, written whole or not at all, laid out for people.

Reading refuses what json.loads would take silently or choke on: files over
MAX_BYTES (a device such as /dev/zero is not read until memory runs out),
nesting deeper than MAX_DEPTH, a whole number of more than MAX_DIGITS digits
(Python would refuse one of over 4,300 digits with a ValueError naming no
place) and a key given twice in one object (JSON would keep the last one
without a word). Each of these errors names the place in the document.

Writing (`write_atomically`) goes through a temporary file in the same folder
that is flushed to disk and renamed over the target, so a reader sees the old
file or the new one, never half of it. The new file gets the usual permissions
(0666 less the umask) or, when it replaces a file, that file's permissions. A
target that is not a regular file (a device such as /dev/null or /dev/stdout,
a named pipe) is written directly and never replaced, and so is a name of an
open stream (/dev/stdout, /dev/fd/N, /proc/self/fd/N: the file the shell
opened is written into, appended to as `>>` asks); a reader that has gone (a
pipe into `head` closed early) ends the writing without an error, as `cat`
does. A symbolic link keeps pointing where it did and the file it points to is
replaced.
"""
from __future__ import annotations

import errno
import json
import os
import re
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any

MAX_BYTES = 16 * 2 ** 20   # the largest file read: positions and records are a few kB
MAX_DEPTH = 64             # our formats nest 4 levels deep
MAX_DIGITS = 40            # our largest numbers are seeds below 2**64: 20 digits


class _Duplicate(dict):
    """An object in which a key was given twice (marked while parsing)."""
    duplicate: str = ""


class _LongNumber:
    """A whole number written with more than MAX_DIGITS digits (marked while
    parsing, refused with its place by _check_tree): only its count of digits."""

    def __init__(self, digits: int):
        self.digits = digits


def _whole_number(text: str) -> int | _LongNumber:
    digits = len(text.lstrip("-"))
    return _LongNumber(digits) if digits > MAX_DIGITS else int(text)


def _object(pairs: list[tuple[str, Any]]) -> dict:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            duplicate = _Duplicate(pairs)
            duplicate.duplicate = key
            return duplicate
        obj[key] = value
    return obj


def _step(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else str(key)


def _check_number(node: object, path: str) -> None:
    if isinstance(node, _LongNumber):
        raise ValueError(f"{path or 'document'}: a whole number of {node.digits:,} digits; the "
                         f"numbers of these files have at most {MAX_DIGITS}")


def _check_tree(value: object) -> None:
    """Raise ValueError naming the path of a duplicate key, of too deep nesting or
    of a number with too many digits."""
    todo = [(value, "", 1)]  # the document itself is level 1
    while todo:
        node, path, depth = todo.pop()
        _check_number(node, path)
        if depth > MAX_DEPTH:
            raise ValueError(f"{path or 'document'}: nested more than {MAX_DEPTH} levels deep")
        if isinstance(node, _Duplicate):
            raise ValueError(f"{_step(path, node.duplicate)}: the key is given twice in one "
                             "object")
        if isinstance(node, dict):
            items = list(node.items())
        elif isinstance(node, list):
            items = list(enumerate(node))
        else:
            continue
        for key, child in reversed(items):
            if isinstance(child, (dict, list, _LongNumber)):
                todo.append((child, _step(path, key), depth + 1))


def loads(text: str, source: str, error: type[Exception]) -> Any:
    """Parse JSON text; any problem raises `error` naming `source` and where in it."""
    try:
        data = json.loads(text, object_pairs_hook=_object, parse_int=_whole_number)
    except json.JSONDecodeError as exc:
        raise error(f"{source}: not valid JSON (line {exc.lineno}, column {exc.colno}: "
                    f"{exc.msg})") from None
    except RecursionError:
        raise error(f"{source}: nested more than {MAX_DEPTH} levels deep") from None
    try:
        _check_tree(data)
    except ValueError as exc:
        raise error(f"{source}: {exc}") from None
    return data


def read_text(path: str | Path, error: type[Exception]) -> str:
    """The text of a UTF-8 file of at most MAX_BYTES; problems raise `error`."""
    source = str(path)
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise error(f"{source}: cannot read the file ({exc.strerror})") from None
    return decode_text(raw, source, error)


def decode_text(raw: bytes, source: str, error: type[Exception]) -> str:
    """`raw` (read with a limit of MAX_BYTES + 1) as UTF-8 text; a file too large
    or not UTF-8 raises `error` naming `source`."""
    if len(raw) > MAX_BYTES:
        raise error(f"{source}: larger than {MAX_BYTES // 2 ** 20} MiB; not a file of this "
                    "project")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{source}: not a UTF-8 text file (byte {exc.object[exc.start]:#04x} "
                    f"at position {exc.start})") from None


def read_json(path: str | Path, error: type[Exception]) -> Any:
    """Parse a JSON file; any problem raises `error` with the file and the reason."""
    return loads(read_text(path, error), str(path), error)


def _compact(value: object, indent: str = "") -> str:
    """JSON with one field per line, but lists and small objects of plain values
    on one line, so that a person can read and type a position."""
    inner = indent + "  "
    if isinstance(value, dict):
        if not value:
            return "{}"
        flat = all(not isinstance(v, (dict, list)) for v in value.values())
        if flat and len(value) <= 6:
            return json.dumps(value, ensure_ascii=False)
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {_compact(v, inner)}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list):
        if all(not isinstance(v, dict) for v in value) and all(
                not isinstance(v, list) or all(not isinstance(x, (dict, list)) for x in v)
                for v in value):
            return json.dumps(value, ensure_ascii=False)
        items = [f"{inner}{_compact(v, inner)}" for v in value]
        return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    return json.dumps(value, ensure_ascii=False)


def dumps(data: dict) -> str:
    """The canonical text of a position or record (what `save` writes)."""
    return _compact(data) + "\n"


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _fsync_folder(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems cannot sync a folder; the file itself is synced
        pass
    finally:
        os.close(fd)


# the names of a stream the process holds open: its file is written into, never replaced
_STREAM_NAME = re.compile(r"/dev/(stdout|stderr|fd/\d+)|/proc/(self|\d+)/fd/\d+")


def _is_stream(path: str | Path, st: os.stat_result | None) -> bool:
    """Is `path` written into rather than replaced: a device, a pipe, a socket,
    or the name of an open stream (whatever file it leads to)?"""
    if st is not None and not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode):
        return True
    return _STREAM_NAME.fullmatch(os.path.abspath(path)) is not None


def _stat(path: str | Path) -> os.stat_result | None:
    """os.stat of what `path` leads to (None if nothing): /dev/stdout leads through
    /proc/self/fd/1 to a pipe that os.path.realpath cannot name."""
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None


def _write_into(path: str | Path, blob: bytes) -> None:
    """Write into a device, a pipe or an open stream; a reader that has gone ends
    the writing quietly (what it wanted was read)."""
    if sys.stdout is not None and not sys.stdout.closed:
        try:            # what the command printed before comes first in a shared stream
            sys.stdout.flush()
        except (OSError, ValueError):
            pass
    try:
        with open(path, "ab") as f:     # appended: a stream of `>>` keeps what it had
            try:
                f.write(blob)
                f.flush()
            except BrokenPipeError:
                return
    except BrokenPipeError:             # closing flushes what was left
        return
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror, str(path)) from None


def write_atomically(path: str | Path, data: str | bytes) -> None:
    """Write a whole file or nothing (see the module's doc for the details).

    Errors are OSError naming `path`, never the temporary file."""
    if str(path) == "":
        raise OSError(errno.ENOENT, "no file name given", "''")
    blob = data.encode("utf-8") if isinstance(data, str) else data
    st = _stat(path)
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OSError(errno.EISDIR, "is a folder", str(path))
    if _is_stream(path, st):
        # a device, a pipe or an open stream: write into it, never replace it
        _write_into(path, blob)
        return
    target = os.path.realpath(path)  # a symbolic link stays; the file it names is replaced
    folder = os.path.dirname(target)
    mode = stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask()
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", dir=folder)
    except OSError as exc:  # name the file the user asked for, not the temporary one
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    try:
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), mode)  # mkstemp makes 0600
            f.write(blob)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise OSError(exc.errno, exc.strerror, str(path)) from None
        raise
    _fsync_folder(folder)


def check_writable(path: str | Path) -> None:
    """Raise OSError naming `path` if write_atomically(path, ...) would fail for a
    reason known now (no folder, no permission, a folder in the way): checked
    before long work whose result would otherwise be lost."""
    if str(path) == "":
        raise OSError(errno.ENOENT, "no file name given", "''")
    st = _stat(path)
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OSError(errno.EISDIR, "is a folder", str(path))
    if _is_stream(path, st):
        if not os.access(path, os.W_OK):
            raise OSError(errno.EACCES, "permission denied", str(path))
        return
    target = os.path.realpath(path)
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        raise OSError(errno.ENOENT, f"the folder {folder} does not exist", str(path))
    try:  # a real attempt: os.access is not reliable for root or read-only mounts
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", dir=folder)
    except OSError as exc:
        raise OSError(exc.errno, f"cannot write in {folder} ({exc.strerror})", str(path)) from None
    os.close(fd)
    os.unlink(tmp)
