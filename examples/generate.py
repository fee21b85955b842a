"""Regenerate the example positions and record of this folder.

    python examples/generate.py          # rewrite the files
    python examples/generate.py --check  # exit 1 if a file differs (used by the tests)

Mid-game positions come from seeded random play, so they are reproducible.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

from ulm import derive_seed
from ulm.game import Game
from ulm.positions import dumps, state_to_position
from ulm.records import GameRecord

HERE = Path(__file__).parent


def random_decisions(rec: GameRecord, n: int, seed: int) -> None:
    rng = random.Random(derive_seed(seed, 0))
    for _ in range(n):
        if rec.state.is_terminal():
            break
        rec.apply(rng.choice(rec.state.legal_actions()))


def at_turn_start(rec: GameRecord, seed: int, turns: int) -> None:
    """Play random decisions until `turns` turns have started (a clean 'before draw')."""
    rng = random.Random(derive_seed(seed, 0))
    started = 0
    while started < turns:
        before = rec.state.raw()["turn_player"], rec.state.raw()["round"]
        rec.apply(rng.choice(rec.state.legal_actions()))
        r = rec.state.raw()
        if (r["turn_player"], r["round"]) != before and r["phase"] == 0:
            started += 1


def examples() -> dict[str, str]:
    files = {}
    for n in (2, 3, 4):
        files[f"new-{n}p.json"] = dumps(state_to_position(Game(players=n).new_game(n)))
    rec = GameRecord(players=4, seed=11)
    at_turn_start(rec, 11, 13)
    files["midgame-4p.json"] = dumps(state_to_position(rec.state))
    files["midgame-4p-view.json"] = dumps(state_to_position(rec.state, rec.state.current_player()))
    rec.apply(rec.state.string_to_action("draw"))  # the tile to push is known: push phase
    files["push-4p-view.json"] = dumps(state_to_position(rec.state, rec.state.current_player()))
    adv = GameRecord(players=3, variant="advanced", seed=5)
    at_turn_start(adv, 5, 10)
    files["advanced-3p.json"] = dumps(state_to_position(adv.state))
    files["advanced-3p-view.json"] = dumps(state_to_position(adv.state, adv.state.current_player()))
    game = GameRecord(players=2, seed=3)
    random_decisions(game, 10_000, 3)
    files["record-2p.json"] = dumps(game.to_dict())
    return files


def main(argv: list[str]) -> int:
    check = "--check" in argv
    bad = []
    for name, text in examples().items():
        path = HERE / name
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                bad.append(name)
        else:
            path.write_text(text, encoding="utf-8")
    if bad:
        print("differ from their generator:", ", ".join(bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
