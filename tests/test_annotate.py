"""Reviewing a game (mcts/annotate.py, `ulm annotate`): the searcher's own choices
lose nothing, a deliberately bad decision loses a lot and is listed first."""
import json
import re
from pathlib import Path

from click.testing import CliRunner

from cli.main import main
from mcts import search
from mcts.annotate import annotate, decision_seed
from mcts.bots import make_bot
from ulm import ACTION_NAMES
from ulm.records import GameRecord

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
ITERATIONS = 200


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def engine_game(seed: int, bad_round: int) -> tuple[GameRecord, int]:
    """Red plays the searcher's choice (same budget and seeds as annotate uses), except
    once: in `bad_round`, right after the push, it ends the turn with 3 actions unused.
    Blue is the greedy bot."""
    rec = GameRecord(players=2, seed=seed)
    blue = make_bot(f"greedy:seed={seed}")
    end = ACTION_NAMES.index("end turn")
    bad_at = None
    while not rec.state.is_terminal():
        state, index = rec.state, len(rec.decisions)
        if state.current_player() == 0:
            raw = state.raw()
            if (bad_at is None and raw["round"] + 1 == bad_round and raw["phase"] == 2
                    and sum(raw["avail"]) == 3):
                action, bad_at = end, index
            else:
                action = search(state, iterations=ITERATIONS,
                                seed=decision_seed(0, index)).best_action
        else:
            action = blue.choose(state.clone())
        rec.apply(action)
    assert bad_at is not None
    return rec, bad_at


def test_own_choices_lose_nothing_and_a_bad_decision_loses_much():
    rec, bad_at = engine_game(seed=0, bad_round=6)
    report = annotate(rec, seat=0, iterations=ITERATIONS, seed=0)
    assert len(report.notes) > 30
    for note in report.notes:
        if note.index != bad_at:
            assert note.played == note.best and note.loss == 0.0, note
    mistakes = report.mistakes()
    assert [m.index for m in mistakes] == [bad_at]
    bad = mistakes[0]
    assert bad.played == "end turn" and bad.best != "end turn"
    assert bad.loss >= 0.10, bad                    # at least 10 percentage points
    assert report.total_loss() == bad.loss
    # the same record, seat, budget and seed: the same report
    again = annotate(rec, seat=0, iterations=ITERATIONS, seed=0)
    assert [n.to_dict() for n in again.notes] == [n.to_dict() for n in report.notes]


def test_annotate_command_json_and_plot(tmp_path):
    plot = tmp_path / "red.png"
    res = run("annotate", EXAMPLES / "record-2p.json", "--as", "Red", "--iterations", 100,
              "--json", "--plot", plot)
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    record = json.loads((EXAMPLES / "record-2p.json").read_text())
    rec = GameRecord(players=2, seed=record["seed"])
    own = []
    for k, name in enumerate(record["decisions"]):
        if rec.state.current_player() == 0:
            own.append(k)
        rec.apply(ACTION_NAMES.index(name))
    assert [d["index"] for d in data["decisions"]] == own
    assert [d["played"] for d in data["decisions"]] == [record["decisions"][k] for k in own]
    losses = {d["index"]: d["loss"] for d in data["decisions"]}
    assert [losses[i] for i in data["mistakes"]] == sorted(
        (v for v in losses.values() if v), reverse=True)
    png = plot.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000


def test_annotate_command_text():
    res = run("annotate", EXAMPLES / "record-2p.json", "--as", "Blue", "--iterations", 50,
              "--quiet", "--top", 2)
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "Blue's" in out and "searched with 50 iterations each" in out
    assert "Biggest mistakes:" in out
    assert len(re.findall(r"^  #\d", out, re.M)) == 2   # --top 2
    assert "(same)" in out


def test_annotate_command_errors(tmp_path):
    res = run("annotate", EXAMPLES / "record-2p.json", "--as", "Green")
    assert res.exit_code == 2 and "--as: no seat Green in a 2-player game" in res.stderr
    res = run("annotate", EXAMPLES / "record-2p.json", "--as", "Red", "--time", 1,
              "--iterations", 5)
    assert res.exit_code == 2 and "either --iterations or --time" in res.stderr
    res = run("annotate", tmp_path / "none.json", "--as", "Red")
    assert res.exit_code == 2 and "none.json" in res.stderr
    res = run("annotate", EXAMPLES / "midgame-4p.json", "--as", "Red")
    assert res.exit_code == 2 and "format" in res.stderr
