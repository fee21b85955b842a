"""Engines: bots that are programs in any language, spoken to by a JSON-lines
protocol over their standard input and output (docs/engines.md).

    >>> register_engine("mine", "python3 examples/engines/first_legal.py")
    >>> bot = make_engine_bot("mine:time=0.5")       # the spec engine:mine:time=0.5

Only programs registered here can be seated: the command line registers those
of `--engine NAME=COMMAND` and `--engines FILE`; a spec names a program by its
NAME, never by its command, so a web request cannot start a program of its own.
"""
from __future__ import annotations

import math
import os
import re
import tempfile
from pathlib import Path

from ulm.jsonfile import read_json
from ulm.numbers import parse_seed, shown

from mcts.play.engines import protocol
from mcts.play.engines.bot import EngineBot
from mcts.play.engines.faults import FAULT_KINDS, BotFault
from mcts.play.engines.host import end_all

__all__ = ["ENGINES", "EngineBot", "EngineError", "BotFault", "FAULT_KINDS", "end_all",
           "engine_options", "make_engine_bot", "parse_engine", "read_engines_file",
           "register_engine", "set_log_dir"]

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
MAX_COMMAND = 4096          # characters of one command
MAX_TIME = 3600.0           # seconds per decision an engine may be given
MAX_GRACE = 60.0

ENGINES: dict[str, str] = {}    # NAME -> COMMAND, the programs that may be seated
# where each engine's standard error goes, a file per engine, game and seat (a
# tournament with an output folder: its engine-logs/)
DEFAULT_LOG_DIR = Path(tempfile.gettempdir()) / f"ulm-engine-logs-{os.getuid()}"
_LOG_DIR: list = [DEFAULT_LOG_DIR]


class EngineError(ValueError):
    """A bad engine name, command or file of engines; the message says where."""


def parse_engine(text: str, where: str = "--engine") -> tuple[str, str]:
    """NAME=COMMAND -> (name, command), checked."""
    if not isinstance(text, str) or "=" not in text:
        raise EngineError(f"{where}: expected NAME=COMMAND, got {shown(text)}")
    name, _, command = text.partition("=")
    return check_engine(name.strip(), command.strip(), where)


def check_engine(name, command, where: str) -> tuple[str, str]:
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise EngineError(f"{where}: engine name {shown(name)}: 1 to 40 letters, digits, "
                          "'_', '.' or '-', starting with a letter or digit")
    if not isinstance(command, str) or not command.strip():
        raise EngineError(f"{where}: engine {name}: no command given")
    if len(command) > MAX_COMMAND or "\x00" in command:
        raise EngineError(f"{where}: engine {name}: the command must be at most "
                          f"{MAX_COMMAND} characters of text")
    return name, command.strip()


def read_engines_file(path: str | Path) -> dict[str, str]:
    """A file of engines: a JSON object {"engines": {"NAME": "COMMAND", ...}}."""
    data = read_json(path, EngineError)
    if not isinstance(data, dict) or set(data) != {"engines"} or \
            not isinstance(data["engines"], dict):
        raise EngineError(f"{path}: expected a JSON object {{\"engines\": {{\"NAME\": "
                          "\"COMMAND\", ...}}")
    out = {}
    for name, command in data["engines"].items():
        name, command = check_engine(name, command, f"{path}: engines")
        out[name] = command
    return out


def register_engine(name: str, command: str) -> None:
    """Let the spec engine:NAME seat COMMAND (a name given twice keeps the last command)."""
    name, command = check_engine(name, command, "engine")
    ENGINES[name] = command


def set_log_dir(path: str | Path) -> None:
    """Where the engines' standard error goes: NAME.game-G.SEAT.log files in `path`."""
    _LOG_DIR[0] = Path(path)


def log_dir() -> Path:
    return _LOG_DIR[0]


def _time(text: str, name: str, most: float) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value <= most:
        raise ValueError(f"{name} must be a number of seconds above 0 and at most {most:g}, "
                         f"got {shown(text)}")
    return value


def _seed(text: str) -> int:
    try:
        return parse_seed(text, None)
    except ValueError as exc:
        raise ValueError(f"seed {exc}") from None


# the options of an engine's spec: name -> (parser, meaning)
OPTIONS = {
    "time": (lambda t: _time(t, "time", MAX_TIME),
             f"seconds per decision the engine is told it has (default {protocol.DEFAULT_TIME:g})"),
    "grace": (lambda t: _time(t, "grace", MAX_GRACE),
              f"seconds past the time before a late answer forfeits (default "
              f"{protocol.DEFAULT_GRACE:g})"),
    "seed": (_seed, "the seed the engine is given (mixed with the deal and the seat in a game)"),
}


def engine_options(text: str, table: dict | None = None, what: str = "an engine") -> dict:
    """OPTION=VALUE,... -> the options read (`table`: name -> (parser, meaning),
    an engine's OPTIONS when None; `what` takes them, in the messages)."""
    table = OPTIONS if table is None else table
    options: dict = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        key, eq, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key or not value:
            raise ValueError(f"bad option {shown(part)}; write OPTION=VALUE")
        if key not in table:
            raise ValueError(f"unknown option {shown(key)}; {what} takes "
                             f"{', '.join(table)}")
        if key in options:
            raise ValueError(f"option {shown(key)} given twice")
        options[key] = table[key][0](value)
    return options


def make_engine_bot(rest: str) -> EngineBot:
    """The bot of the spec engine:REST (REST: NAME or NAME:OPTION=VALUE,...)."""
    name, _, options = rest.strip().partition(":")
    name = name.strip()
    if name not in ENGINES:
        known = ", ".join(sorted(ENGINES)) or "none (give --engine NAME=COMMAND)"
        raise ValueError(f"no engine {shown(name)} was given; engines: {known}")
    return EngineBot(name, ENGINES[name], log_dir=_LOG_DIR[0], **engine_options(options))
