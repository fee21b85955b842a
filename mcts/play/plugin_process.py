"""A Python plug-in in a process of its own (`python:...:process=own`): this module,
run as ``python -m mcts.play.plugin_process module:Class`` (or ``path/file.py:Class``),
loads the plug-in and speaks the engine protocol for it (docs/engines.md), so the
host bounds it as it bounds an engine: a decision past its time and grace, a hang
or a crash forfeits the game, and Ctrl-C or the game's end ends the process with
whatever it started.

The plug-in gets the state it would get in the host's process (mcts.play.plugins.
PluginBot.world): the view of its seat read back on the game's board, the hidden
cards dealt anew with the seed stream of the game message; so a plug-in plays the
same game in either process. What it prints goes to its log (standard error):
standard output carries the protocol alone.
"""
from __future__ import annotations

import json
import os
import sys
import traceback

from ulm import SEATS, derive_seed
from ulm.positions import position_to_state

from mcts.play.engines.protocol import PROTOCOL
from mcts.play.plugins import load_class, reseed_plugin, whole_id


def _answer(action) -> object:
    """A decision's id as JSON carries it: a whole number (numpy's too) as an int,
    anything else as text (the host refuses it, naming it)."""
    whole = whole_id(action)
    return repr(action)[:200] if whole is None else whole


def serve(plugin, lines, say) -> int:
    """Answer the host's `lines` (JSON text) with `say(message)` until `quit`."""
    seed = calls = 0
    seat = 0
    board = None
    for line in lines:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            say({"type": "hello", "name": f"python plug-in {type(plugin).__name__}"[:100],
                 "protocol": PROTOCOL})
        elif kind == "game":
            seed, seat, board, calls = message["seed"], SEATS.index(message["seat"]), \
                message.get("board"), 0
            reseed_plugin(plugin, seed, message["time"])
        elif kind == "decide":
            known, _ = position_to_state(message["view"], "view", board)
            calls += 1
            world = known.resample_from_infostate(seat, derive_seed(seed, calls))
            say({"type": "decision", "id": _answer(plugin.choose(world)),
                 "decision": message["decision"]})
        elif kind == "quit":
            break
    return 0


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m mcts.play.plugin_process module:Class|path/file.py:Class",
              file=sys.stderr)
        return 2
    # the protocol on a copy of standard output; the plug-in's prints (Python's and a
    # C library's alike, file descriptor 1) go to standard error, its log
    protocol_out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    try:
        plugin = load_class(argv[0])()
    except Exception as exc:        # a bad target, or its constructor raised
        print(f"plug-in {argv[0]}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1

    def say(message: dict) -> None:
        protocol_out.write(json.dumps(message, separators=(",", ":")) + "\n")
        protocol_out.flush()
    try:
        return serve(plugin, sys.stdin, say)
    except Exception:               # the host reads the end as a crash; the log says why
        traceback.print_exc()
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
