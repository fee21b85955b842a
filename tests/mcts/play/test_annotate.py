"""Reviewing a game (mcts/play/annotate.py, `ulm annotate`): the searcher's own choices
lose nothing, a deliberately bad decision loses a lot and is listed first."""
import json
import re

import pytest

from click.testing import CliRunner

from cli.main import main
from mcts import action_name, search
from mcts.play.annotate import SAME_SEARCH_SHARE, annotate, decision_seed
from mcts.play.bots import make_bot
from ulm import ACTION_NAMES
from ulm.records import GameRecord
from helpers import ROOT

EXAMPLES = ROOT / "examples"
ITERATIONS = 500


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def engine_game(seed: int, bad_round: int, players: int = 2) -> tuple[GameRecord, int]:
    """Red plays the searcher's choice (same budget and seeds as annotate uses), except
    once: in `bad_round`, right after the push, it ends the turn with 3 actions unused.
    The other seats are the greedy bot."""
    rec = GameRecord(players=players, seed=seed)
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
    assert [d["played_action"] for d in data["decisions"]] == [
        ACTION_NAMES.index(record["decisions"][k]) for k in own]
    # one name everywhere: the players' words of mcts.action_name
    assert [d["played"] for d in data["decisions"]] == [
        action_name(ACTION_NAMES.index(record["decisions"][k])) for k in own]
    losses = {d["index"]: d["loss"] for d in data["decisions"]}
    beyond = {d["index"] for d in data["decisions"]
              if d["loss"] > 0.01 and d["loss"] > 2 * d["uncertainty"]}
    assert [losses[i] for i in data["mistakes"]] == sorted(
        (losses[i] for i in beyond), reverse=True)
    assert set(data["within_noise"]) == {i for i, v in losses.items() if v} - beyond
    png = plot.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000


def test_annotate_command_text():
    res = run("annotate", EXAMPLES / "record-2p.json", "--as", "Blue", "--iterations", 500,
              "--quiet", "--top", 2)
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "Blue's" in out and "searched with 500 iterations each" in out
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


def live_neighbours_never_certain(report):
    """No estimate of a whole budget (the position's, the decision played's in a search
    of its own) is exactly 0 or 1 between two decisions whose chances are open."""
    notes = report.notes
    for a, b, c in zip(notes, notes[1:], notes[2:]):
        if 0.05 < a.win_before < 0.95 and 0.05 < c.win_before < 0.95:
            own = (b.played_win,) if b.played_estimate == "own search" else ()
            for value in (b.win_before, *own):
                assert 0.0 < value < 1.0, b


def played_records():
    """The example record and freshly played 3- and 4-player records."""
    from ulm.records import load_record
    yield load_record(EXAMPLES / "record-2p.json")
    for players in (3, 4):
        rec = GameRecord(players=players, seed=40 + players)
        bots = [make_bot(f"ismcts:iterations=60,seed={p}") if p % 2 else
                make_bot(f"greedy:seed={p}") for p in range(players)]
        while not rec.state.is_terminal():
            rec.apply(bots[rec.state.current_player()].choose(rec.state.clone()))
        yield rec


def test_forced_decisions_carry_estimates_and_are_never_mistakes():
    from ulm.records import load_record
    report = annotate(load_record(EXAMPLES / "record-2p.json"), seat=0, iterations=300, seed=0)
    forced = [n for n in report.notes if n.forced]
    assert len(forced) >= 10
    for n in forced:
        assert n.loss == 0.0 and n.uncertainty == 0.0 and n.played == n.best
        assert n.index not in [m.index for m in report.mistakes()]
        assert n.best_visits == 300 and n.played_estimate == "same search"
        if n.round < 10:
            assert 0.0 < n.win_before < 1.0, n
    live_neighbours_never_certain(report)
    data = report.to_dict()
    assert all(d["forced"] == (d["legal"] == 1) for d in data["decisions"])


@pytest.mark.parametrize("players", [3, 4])
def test_no_estimate_drops_to_certainty_in_fresh_records(players):
    records = list(played_records())
    rec = records[players - 2]
    for seat in (0, 1):
        live_neighbours_never_certain(annotate(rec, seat=seat, iterations=300, seed=1))


def test_the_decision_played_is_judged_by_a_search_of_equal_budget():
    from ulm.records import load_record
    report = annotate(load_record(EXAMPLES / "record-2p.json"), seat=1, iterations=200, seed=3)
    others = [n for n in report.notes if n.played_action != n.best_action]
    assert any(n.played_estimate == "own search" for n in others)
    for n in report.notes:
        if n.played_action == n.best_action:
            assert n.played_estimate == "same search" and n.played_win == n.best_win
        elif n.played_visits < SAME_SEARCH_SHARE * n.best_visits or n.played_visits == 200:
            assert n.played_estimate == "own search" and n.played_visits == 200
            assert 0 < n.uncertainty < 0.2
        else:       # tried about as often as the searcher's choice: the same search judges it
            assert n.played_estimate == "same search"
            assert n.played_visits + n.best_visits <= 200
            assert 0 < n.uncertainty < 0.3


def test_a_decision_played_that_the_search_tried_often_is_judged_in_the_same_search():
    """Its estimate and the searcher's come from the same tree and worlds: a review of the
    same budget then agrees with the search on its close calls (a search of its own
    judged such a decision by another tree, 3 to 6 points off)."""
    from ulm.records import load_record
    report = annotate(load_record(EXAMPLES / "record-2p.json"), seat=0, iterations=2000,
                      seed=0)
    same = [n for n in report.notes
            if n.played_action != n.best_action and n.played_estimate == "same search"]
    assert same
    for n in same:
        assert SAME_SEARCH_SHARE * n.best_visits <= n.played_visits <= n.best_visits
        assert n.played_visits + n.best_visits <= 2000


def test_the_sum_of_losses_is_stable_across_seeds():
    from ulm.records import load_record
    rec = load_record(EXAMPLES / "record-2p.json")
    totals = []
    for seed in (0, 1, 2):
        report = annotate(rec, seat=0, iterations=400, seed=seed)
        spread = sum(n.uncertainty ** 2 for n in report.notes) ** 0.5
        totals.append((report.total_loss(), spread))
    for (t1, s1), (t2, s2) in zip(totals, totals[1:]):
        assert abs(t1 - t2) <= 4 * (s1 ** 2 + s2 ** 2) ** 0.5 + 0.05, totals


@pytest.mark.parametrize("players, seed", [(3, 5), (4, 7)])
def test_a_planted_bad_decision_is_found_in_3_and_4_players(players, seed):
    rec, bad_at = engine_game(seed=seed, bad_round=5, players=players)
    report = annotate(rec, seat=0, iterations=ITERATIONS, seed=0)
    mistakes = report.mistakes()
    assert mistakes and mistakes[0].index == bad_at, [(m.index, m.loss) for m in mistakes[:3]]
    assert mistakes[0].loss > 2 * mistakes[0].uncertainty
