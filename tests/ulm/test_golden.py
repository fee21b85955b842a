"""Golden legal-action counts (perft-style) along fixed seeded lines of play.

For each (players, variant, seed) in GAMES a game is played from `Game(...).new_game(seed)`:
at each decision the number of legal actions is recorded and the action is chosen with
`random.Random(seed).choice(legal_actions())`; chance outcomes come from
`state.sample_chance_outcome()` (the state's own dealer, seeded by new_game). The counts
are stored in tests/golden/legal_counts.txt, one line per game:

    players=2 variant=basic seed=11 decisions=143 scores=3,8: 1 12 7 ...

The test replays every line and compares. A change in move generation, in the order or
number of chance outcomes, or in scoring shows up as a mismatch (the message names the first
decision that differs). After an INTENDED rule change, rewrite the file with

    python tests/ulm/test_golden.py --regenerate

(from the repository root) and review the diff before committing it.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

if __name__ == "__main__":  # run as a script: the package and the tests' helpers importable
    sys.path[:0] = [str(Path(__file__).resolve().parents[2]), str(Path(__file__).resolve().parents[1])]

import pytest  # noqa: E402

import ulm  # noqa: E402
from helpers import TESTS  # noqa: E402

GOLDEN = TESTS / "golden" / "legal_counts.txt"

GAMES = [
    (2, "basic", 11),
    (2, "advanced", 12),
    (3, "basic", 13),
    (3, "advanced", 14),
    (4, "basic", 15),
    (4, "advanced", 16),
    (4, "advanced", 2024),
]


def header(players: int, variant: str, seed: int) -> str:
    return f"players={players} variant={variant} seed={seed}"


def play_line(players: int, variant: str, seed: int):
    """The fixed line of play: (legal-action counts at each decision, actions, final scores)."""
    s = ulm.Game(players=players, variant=variant).new_game(seed)
    rng = random.Random(seed)
    counts, actions = [], []
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(s.sample_chance_outcome())
            continue
        legal = s.legal_actions()
        counts.append(len(legal))
        a = rng.choice(legal)
        actions.append(a)
        s.apply_action(a)
    return counts, actions, s.scores()


def render(players: int, variant: str, seed: int) -> str:
    counts, _, scores = play_line(players, variant, seed)
    return (f"{header(players, variant, seed)} decisions={len(counts)} "
            f"scores={','.join(map(str, scores))}: {' '.join(map(str, counts))}")


def read_golden() -> dict[str, str]:
    lines = {}
    for line in GOLDEN.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        key = " ".join(line.split()[:3])
        assert key not in lines, f"{key} appears twice in {GOLDEN}"
        lines[key] = line
    return lines


def regenerate() -> None:
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    out = ["# Legal-action counts along fixed seeded lines (see tests/ulm/test_golden.py).",
           "# Regenerate: python tests/ulm/test_golden.py --regenerate"]
    out += [render(*g) for g in GAMES]
    GOLDEN.write_text("\n".join(out) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN} ({len(GAMES)} games)")


# --- tests ---------------------------------------------------------------------------------

def test_golden_file_lists_the_games():
    """The golden file holds exactly one line for each game of GAMES."""
    assert set(read_golden()) == {header(*g) for g in GAMES}


def _ids(g):
    return f"{g[0]}p-{g[1]}-{g[2]}"


@pytest.mark.parametrize("game", GAMES, ids=[_ids(g) for g in GAMES])
def test_legal_action_counts_match_golden(game):
    """Replaying the fixed line gives the stored counts, decision count and final scores."""
    expected = read_golden()[header(*game)]
    got = render(*game)
    if got == expected:
        return
    exp_head, exp_counts = expected.split(": ", 1)
    got_head, got_counts = got.split(": ", 1)
    exp_counts, got_counts = exp_counts.split(), got_counts.split()
    first = next((i for i, (x, y) in enumerate(zip(exp_counts, got_counts)) if x != y),
                 min(len(exp_counts), len(got_counts)))
    # name the decision that differs
    players, variant, seed = game
    s = ulm.Game(players=players, variant=variant).new_game(seed)
    rng = random.Random(seed)
    n = 0
    where = "end of game"
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(s.sample_chance_outcome())
            continue
        legal = s.legal_actions()
        if n == first:
            r = s.raw()
            where = (f"round {r['round'] + 1}, seat {r['turn_player']}, phase {r['phase']}, "
                     f"tasks {s.task_stack()}; legal now: "
                     + ", ".join(ulm.ACTION_NAMES[a] for a in legal))
            break
        s.apply_action(rng.choice(legal))
        n += 1
    pytest.fail(f"{header(*game)}: first difference at decision {first} "
                f"(golden {exp_counts[first] if first < len(exp_counts) else '-'}, "
                f"now {got_counts[first] if first < len(got_counts) else '-'}) at {where}. "
                f"Golden header: {exp_head!r}, now: {got_head!r}. If the change is intended, "
                f"run: python tests/ulm/test_golden.py --regenerate")


def test_line_is_reproducible():
    """The line of play depends only on (players, variant, seed): two replays agree."""
    for game in GAMES[:3]:
        assert play_line(*game) == play_line(*game)


if __name__ == "__main__":
    if sys.argv[1:] == ["--regenerate"]:
        regenerate()
    else:
        print(__doc__)
        print("usage: python tests/ulm/test_golden.py --regenerate")
        sys.exit(2)
