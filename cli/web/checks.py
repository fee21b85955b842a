"""What a request to `ulm serve` may ask for: the server's limits, the checks
of a request's fields (a `WebError` names the field; cli.web.app turns it into
a 4xx JSON answer), and the quoting of input in messages."""
from __future__ import annotations


import os
import re

import ulm
from ulm import SEATS

from mcts import make_bot


# Limits of one server (settable per server; see create_app).
# (a served request's bounds, far below the search's own MAX_SECONDS and MAX_ITERATIONS)
SERVED_SEARCH_SECONDS = 30.0    # longest search of one hint, one annotated decision or one bot move
SERVED_BOT_ITERATIONS = 500_000  # iteration budget of a bot spec
MAX_GAMES = 200             # games kept in memory; the least recently used go first
MAX_RUNNING_JOBS = 2        # searches at once (hints, annotations)
# bots searching at once, all games together (the others wait their turn): half the
# machine's CPUs, so that bots of many games cannot starve a hint
MAX_BOT_SEARCHES = max(1, (os.cpu_count() or 1) // 2)


QUOTE_LIMIT = 60            # characters of the user's input quoted back in an error message
MESSAGE_LIMIT = 1000        # characters of an error message


def quoted(value, limit: int = QUOTE_LIMIT) -> str:
    """`value` as an error message quotes it (repr), cut to `limit` characters with an
    ellipsis: an answer never echoes a whole upload back."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


# a quoted string inside a message (the library's messages quote with repr): an
# opening quote not inside a word (Red's) up to the same quote not followed by one
_QUOTED = re.compile(r"""(?<![\w'"])(['"])(?:\\.|(?!\1).)*?\1(?![\w'"])""", re.S)


def capped(message: str, limit: int = QUOTE_LIMIT) -> str:
    """`message` with every quoted string in it cut to `limit` characters as `quoted`
    cuts it (messages of the library quote what they were given), and at most
    MESSAGE_LIMIT characters in all."""
    def cut(m):
        whole = m.group(0)
        return whole if len(whole) <= limit else whole[:limit - 1] + "…"
    message = _QUOTED.sub(cut, message)
    return message if len(message) <= MESSAGE_LIMIT else message[:MESSAGE_LIMIT - 1] + "…"


class WebError(ValueError):
    """A request that cannot be served; `status` is the HTTP status (4xx)."""
    status = 400

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        if status is not None:
            self.status = status


def seat_name(p: int) -> str:
    return SEATS[p] if p >= 0 else ("chance" if p == -1 else "nobody")


def parse_seat(value, players: int, field: str) -> int:
    """A seat by colour name or number (ulm.parse_seat); WebError naming `field` otherwise."""
    try:
        return ulm.parse_seat(value, players)
    except ValueError as exc:
        raise WebError(f"{field}: {exc}") from None


def check_seconds(value, limit: float, field: str = "seconds") -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 \
            or value != value:
        raise WebError(f"{field}: must be a positive number of seconds, got {quoted(value)}")
    if value > limit:
        raise WebError(f"{field}: at most {limit:g} seconds on this server, got {quoted(value)}")
    return float(value)


def check_bot(spec, limit_seconds: float, field: str, players: int | None = None):
    """A bot from its spec, with make_bot's messages, and a budget this server allows
    (and, given `players`, a bot that can play a game of that many)."""
    if not isinstance(spec, str):
        raise WebError(f"{field}: a bot spec must be a string like 'ismcts:iterations=2000', "
                       f"got {quoted(spec)}")
    _shipped_models_only(spec, field, players)
    spec = served_spec(spec, field)
    try:
        bot = make_bot(spec, players)
    except ValueError as exc:
        raise WebError(f"{field}: {exc}") from None
    cfg = bot.config
    if cfg.get("time") is not None and cfg["time"] > limit_seconds:
        raise WebError(f"{field}: bot spec {quoted(spec)}: time must be at most "
                       f"{limit_seconds:g} s on this server")
    work = (cfg.get("iterations") or 0) * cfg.get("determinizations", 1)
    if work > SERVED_BOT_ITERATIONS:
        raise WebError(f"{field}: bot spec {quoted(spec)}: at most {SERVED_BOT_ITERATIONS:,} "
                       "iterations per decision on this server")
    if cfg.get("workers", 1) > (os.cpu_count() or 1):
        raise WebError(f"{field}: bot spec {quoted(spec)}: at most {os.cpu_count() or 1} "
                       "workers on this machine")
    return bot


def served_spec(spec: str, field: str) -> str:
    """No request names code on the server: a plug-in is one an installed package
    registers (python:NAME), never a module or a file (python:module:Class). An
    engine (engine:NAME) is one given to `ulm serve` at its start, or none.
    A plug-in runs in a process of its own (process=own, added to the spec
    returned): bounded in time, and apart from the server's games and their
    hidden cards."""
    if not isinstance(spec, str):
        return spec             # check_bot names the wrong type
    name, _, rest = spec.strip().partition(":")
    if name.strip() != "python":
        return spec
    from mcts.play.engines import engine_options
    from mcts.play.plugins import PLUGIN_OPTIONS, split_spec
    target, options = split_spec(rest)
    if ":" in target:
        raise WebError(f"{field}: bot spec: python: this server seats installed plug-ins "
                       "by name (python:NAME), never a module or a file")
    try:
        process = engine_options(options, PLUGIN_OPTIONS, "a plug-in").get("process")
    except ValueError as exc:
        raise WebError(f"{field}: bot spec: python: {exc}") from None
    if process == "host":
        raise WebError(f"{field}: bot spec: python: this server runs plug-ins in a "
                       "process of their own (process=own)")
    if process == "own":
        return spec
    return f"python:{target}:" + (f"{options},process=own" if options.strip() else "process=own")


def _shipped_models_only(spec: str, field: str, players: int | None) -> None:
    """No request names a file on the server: a bot spec's model= is the name of a shipped
    model (mcts/searcher/models/), with one message for anything else, whether or not such a file
    exists (the answer tells nothing about the server's files)."""
    from mcts.searcher.learned import LEARNED_MODELS, shipped_model
    _, _, options = spec.partition(":")
    for option in options.split(","):
        key, _, value = option.partition("=")
        if key.strip() != "model":
            continue
        value = value.strip()
        names = ", ".join(name.removesuffix(".npz") for name in LEARNED_MODELS.values())
        if shipped_model(value) is None:
            raise WebError(f"{field}: bot spec: model: this server takes a shipped model by "
                           f"name ({names}), never a file")
        own = LEARNED_MODELS.get(players) if players is not None else None
        if own is not None and value.removesuffix(".npz") != own.removesuffix(".npz"):
            raise WebError(f"{field}: bot spec: model: {own.removesuffix('.npz')} is the "
                           f"shipped model of a {players}-player game")


def label(action: int) -> str:
    """A decision (or a search's tree key) in players' words, as every output says it
    (mcts.action_name: "lay Siege in front (end-game points)")."""
    from mcts import action_name
    return action_name(action)


