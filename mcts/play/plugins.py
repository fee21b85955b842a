"""Python bots from elsewhere (plug-ins): `python:module:Class`,
`python:path/to/file.py:Class`, or `python:NAME` for a bot an installed package
registers under the entry-point group ``ulm.bots`` (`ulm bots` lists them).

A plug-in class is built with no arguments; before each game the host sets its
`seed` and `time` attributes (and calls its `reseed(seed)` if it has one); its
`choose(state)` returns the id of a legal decision of the player to move, as
`mcts.Bot` does. The state it is handed is its seat's view with the hidden
cards dealt anew (mcts.play.engines.protocol.seat_view read back as `ulm suggest`
reads a view, then State.resample_from_infostate with a seed of the bot's
stream): reading an opponent's hand from it tells nothing. An exception in
`choose`, an answer that is not a legal decision, or a decision that took longer
than its time and grace forfeits the game (mcts.play.bot_game), not the
tournament. Options: ``python:mod:Class:time=0.5,seed=3,grace=1,process=own``;
`process=own` runs it in a process of its own that speaks the engine protocol
(mcts.play.plugin_process), bounded in time and ended as an engine is.
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.util
import operator
import re
import shlex
import sys
import time as _time
from importlib import metadata
from pathlib import Path

from ulm import ACTION_NAMES, derive_seed
from ulm.numbers import shown
from ulm.positions import PositionError, position_to_state

from mcts.play.engines import OPTIONS, EngineBot, engine_options, log_dir, protocol
from mcts.play.engines.faults import BotFault

GROUP = "ulm.bots"          # the entry-point group of installed plug-ins
_FILES: dict[str, object] = {}  # a plug-in file's resolved path -> its module, loaded once
PROCESSES = ("host", "own")     # where a plug-in runs: the host's process, or its own


def _process(text: str) -> str:
    if text not in PROCESSES:
        raise ValueError(f"process must be host or own, got {shown(text)}")
    return text


# a plug-in's options: an engine's, and where it runs
PLUGIN_OPTIONS = {**OPTIONS, "process": (
    _process, "host: in this process (the default); own: in a process of its own, "
              "bounded in time and ended as an engine is")}


def plugins() -> list[dict]:
    """The installed plug-ins: name, target (module:Class) and origin (package and
    version), sorted by name."""
    out = []
    for ep in metadata.entry_points(group=GROUP):
        dist = getattr(ep, "dist", None)
        origin = f"{dist.name} {dist.version}" if dist is not None else "unknown package"
        out.append({"name": ep.name, "target": ep.value, "origin": origin})
    return sorted(out, key=lambda p: p["name"])


def _entry_point(name: str):
    for ep in metadata.entry_points(group=GROUP):
        if ep.name == name:
            return ep
    known = ", ".join(p["name"] for p in plugins()) or "none installed"
    raise ValueError(f"no plug-in {shown(name)} is installed (entry points {GROUP}: {known}); "
                     "or write python:module:Class or python:path/file.py:Class")


def _module(target: str):
    if target.endswith(".py"):
        path = Path(target).expanduser()
        try:
            key = str(path.resolve(strict=True))
        except (OSError, RuntimeError):
            raise ValueError(f"no file {shown(target)}") from None
        if key not in _FILES:
            name = "ulm_plugin_" + hashlib.sha1(key.encode()).hexdigest()[:12]
            spec = importlib.util.spec_from_file_location(name, key)
            if spec is None or spec.loader is None:
                raise ValueError(f"{shown(target)} cannot be loaded as Python")
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            try:
                spec.loader.exec_module(module)
            except Exception as exc:
                sys.modules.pop(name, None)
                raise ValueError(f"{target}: {type(exc).__name__}: {exc}") from None
            _FILES[key] = module
        return _FILES[key]
    try:
        return importlib.import_module(target)
    except ImportError as exc:
        raise ValueError(f"cannot import {shown(target)}: {exc}") from None
    except Exception as exc:
        raise ValueError(f"importing {target}: {type(exc).__name__}: {exc}") from None


def load_class(target: str):
    """module:Class or path/file.py:Class -> the class."""
    where, colon, cls_name = target.rpartition(":")
    if not colon or not where or not cls_name.isidentifier():
        raise ValueError(f"expected module:Class or path/file.py:Class, got {shown(target)}")
    module = _module(where)
    cls = getattr(module, cls_name, None)
    if not isinstance(cls, type):
        raise ValueError(f"{where} has no class {cls_name}")
    if not callable(getattr(cls, "choose", None)):
        raise ValueError(f"{where}:{cls_name} has no choose(state) method")
    return cls


def split_spec(rest: str) -> tuple[str, str]:
    """REST of python:REST -> (the plug-in: NAME, module:Class or file.py:Class; options)."""
    parts = rest.strip().split(":")
    if len(parts) > 1 and "=" in parts[-1]:
        return ":".join(parts[:-1]), parts[-1]
    return ":".join(parts), ""


def make_plugin_bot(rest: str) -> "PluginBot | PluginProcessBot":
    """The bot of the spec python:REST."""
    target, options = split_spec(rest)
    if not target:
        raise ValueError("name a plug-in: python:NAME, python:module:Class or "
                         "python:path/file.py:Class")
    label = target
    if ":" not in target:
        target = _entry_point(target).value
    chosen = engine_options(options, PLUGIN_OPTIONS, "a plug-in")
    cls = load_class(target)        # here too when it runs elsewhere: its errors, now
    if chosen.pop("process", "host") == "own":
        where, _, name = target.rpartition(":")
        if where.endswith(".py"):   # the child may start elsewhere: the file by its path
            where = str(Path(where).expanduser().resolve())
        return PluginProcessBot(label, f"{where}:{name}", **chosen)
    try:
        plugin = cls()
    except Exception as exc:
        raise ValueError(f"{label}: building {cls.__name__}() raised "
                         f"{type(exc).__name__}: {exc}") from None
    try:
        return PluginBot(label, plugin, **chosen)
    except BotFault as fault:
        raise ValueError(f"{label}: {fault.reason}") from None


def whole_id(action) -> int | None:
    """A plug-in's answer as a decision id: a whole number (numpy's too, as an
    argmax gives it), never a bool, a float or text; else None."""
    if isinstance(action, bool) or not hasattr(action, "__index__"):
        return None
    try:
        return operator.index(action)
    except TypeError:
        return None


def reseed_plugin(plugin, seed: int, time: float) -> None:
    """Before a game: the plug-in's `seed` and `time`, and its `reseed(seed)` if any."""
    plugin.seed = seed
    plugin.time = time
    if callable(getattr(plugin, "reseed", None)):
        plugin.reseed(seed)


class PluginBot:
    """A plug-in in one seat, in the host's process: told its seat's knowledge only,
    its faults forfeit."""
    guest = True
    name = "python"
    options = PLUGIN_OPTIONS

    def __init__(self, label: str, plugin, time: float = protocol.DEFAULT_TIME,
                 grace: float = protocol.DEFAULT_GRACE, seed: int = 0):
        self.label = label
        self.plugin = plugin
        self.time = time
        self.grace = grace
        self.config = {"time": time, "grace": grace, "seed": seed}
        self.reseed(seed)

    @property
    def spec(self) -> str:
        return f"python:{self.label}:" + ",".join(f"{k}={v}" for k, v in
                                                  sorted(self.config.items()))

    def __repr__(self):
        return f"<PluginBot {self.spec}>"

    def reseed(self, seed: int) -> None:
        self.config["seed"] = self.seed = seed
        self.calls = 0
        try:
            reseed_plugin(self.plugin, seed, self.time)
        except Exception as exc:
            raise BotFault("exception", f"reseed raised {type(exc).__name__}: {exc}") from None

    def check_players(self, players: int) -> None:
        """Any game."""

    def world(self, state):
        """What the seat to move knows of `state`, as a state: its view read back,
        the hidden cards dealt anew from the bot's stream."""
        seat = state.current_player()
        try:
            known, _ = position_to_state(protocol.seat_view(state, seat), "view",
                                         protocol.board(state.game))
        except PositionError as exc:  # pragma: no cover - every view reads back
            raise RuntimeError(f"the view of seat {seat} does not read back: {exc}") from None
        self.calls += 1
        return known.resample_from_infostate(seat, derive_seed(self.seed, self.calls))

    def choose(self, state) -> int:
        if state.current_player() < 0:
            raise ValueError("python: choose() needs a decision of a player, not a chance "
                             "node or the end of the game")
        legal = state.legal_actions()
        world = self.world(state)
        start = _time.monotonic()
        try:
            action = raw = self.plugin.choose(world)
        except Exception as exc:
            raise BotFault("exception", f"choose raised {type(exc).__name__}: "
                                        f"{str(exc)[:200]}") from None
        took = _time.monotonic() - start
        if took > self.time + self.grace:
            raise BotFault("time", f"took {took:.2f} s for a decision; its time is "
                                   f"{self.time:g} s and the grace {self.grace:g} s")
        action = whole_id(action)
        if action is None:
            raise BotFault("garbage", f"choose returned {shown(raw)}, not a decision id")
        if not 0 <= action < len(ACTION_NAMES):
            raise BotFault("unknown", f"choose returned {action}: no such decision")
        if action not in legal:
            raise BotFault("illegal", f"choose returned {ACTION_NAMES[action]!r} (id {action}), "
                                      "not a legal decision here")
        return action


class PluginProcessBot(EngineBot):
    """A plug-in in one seat, in a process of its own (mcts.play.plugin_process), which
    speaks the engine protocol: bounded in time, ended with its children, its faults
    those of an engine."""
    name = "python"
    options = PLUGIN_OPTIONS

    def __init__(self, label: str, target: str, time: float = protocol.DEFAULT_TIME,
                 grace: float = protocol.DEFAULT_GRACE, seed: int = 0):
        self.plugin_label = label
        command = shlex.join([sys.executable, "-m", "mcts.play.plugin_process", target])
        # the engine's name names its log files: the label's letters, at most 40
        super().__init__("python-" + re.sub(r"[^A-Za-z0-9_.-]+", "_", label)[-40:],
                         command, time=time, grace=grace, seed=seed, log_dir=log_dir())

    @property
    def spec(self) -> str:
        options = {**self.config, "process": "own"}
        return f"python:{self.plugin_label}:" + ",".join(f"{k}={v}" for k, v in
                                                         sorted(options.items()))

    def __repr__(self):
        return f"<PluginProcessBot {self.spec}>"
