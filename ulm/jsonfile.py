"""JSON files of the project (boards, positions, records, tournaments): read with
errors that name the file, written whole or not at all, laid out for people."""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path


def read_json(path: str | Path, error: type[Exception]):
    """Parse a JSON file; any problem raises `error` with the file and the reason."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"{source}: cannot read the file ({exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise error(f"{source}: not a UTF-8 text file (byte {exc.object[exc.start]:#04x} "
                    f"at position {exc.start})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{source}: not valid JSON (line {exc.lineno}, column {exc.colno}: "
                    f"{exc.msg})") from None


def _compact(value, indent: str = "") -> str:
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


def write_atomically(path: str | Path, text: str) -> None:
    """Write a whole file or nothing: a temporary file renamed into place."""
    path = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or ".")
    except OSError as exc:  # name the file the user asked for, not the temporary one
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


