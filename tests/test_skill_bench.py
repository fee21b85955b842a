"""bench/skill.py: the line-ups of the skill page's matches and the figures
read from their games (docs/skill.md)."""
import json

import pytest

from bench import skill


def _row(deal, bots, scores, returns):
    return {"deal": deal, "bots": bots, "scores": scores, "returns": returns,
            "seconds": [0.0] * len(bots)}


def test_each_match_puts_one_seat_against_the_others():
    assert skill.lineup("8x", 4, 2000) == ["ismcts:iterations=16000"] + ["ismcts:iterations=2000"] * 3
    assert skill.lineup("cheat", 3, 2000) == ["cheat:iterations=2000"] + ["ismcts:iterations=2000"] * 2
    assert skill.lineup("greedy", 3, 500) == ["ismcts:iterations=500", "greedy", "greedy"]
    assert skill.lineup("random", 2, 500) == ["ismcts:iterations=500", "random"]
    # against itself every seat has its own seed, so the rotations of a deal differ
    seats = skill.lineup("self", 4, 2000)
    assert len(set(seats)) == 4 and all(s.startswith("ismcts:iterations=2000,seed=") for s in seats)
    with pytest.raises(ValueError):
        skill.lineup("level", 2, 2000)


def test_the_margin_is_the_winner_over_the_runner_up():
    assert skill.margin([40, 52, 47]) == 5
    assert skill.margin([50, 50, 30, 20]) == 0


def test_a_deal_not_played_in_every_rotation_is_left_out():
    rows = [_row(d, ["a", "b"], [1, 0], [1.0, 0.0]) for d in (0, 0, 1)]
    assert [r["deal"] for r in skill.whole_deals(rows, 2)] == [0, 0]


def test_the_one_seat_figures():
    bots = ["x", "b", "b"]
    rows = [_row(0, bots, [50, 40, 45], [1.0, 0.0, 0.0]),
            _row(0, ["b", "x", "b"], [30, 30, 36], [0.0, 0.0, 1.0]),
            _row(0, ["b", "b", "x"], [40, 44, 44], [0.0, 0.5, 0.5])]
    e = skill.one_seat_figures(rows, "x", 3)
    assert e["win_rate"] == pytest.approx(0.5)
    assert e["points"][0] == pytest.approx(100 * (0.5 - 1 / 3))
    assert e["lead"][0] == pytest.approx((7.5 - 3 + 2) / 3)   # one deal: its mean
    seats = skill.seat_figures(rows, 3)
    assert [s["win_rate"] for s in seats] == pytest.approx([1 / 3, 1 / 6, 1 / 2])


def test_a_tiny_run_writes_the_report(tmp_path, capsys):
    out = tmp_path / "skill"
    assert skill.main(["--players", "2", "--games", "2", "--iterations", "5", "--seed", "3",
                       "--only", "self", "--only", "greedy", "--out", str(out)]) == 0
    table = json.loads((out / "skill.json").read_text())
    assert set(table["2"]) == {"self", "greedy"}
    assert table["2"]["self"]["games"] == 2
    assert sum(s["win_rate"] for s in table["2"]["self"]["seats"]) == pytest.approx(1.0)
    assert "base vs greedy" in capsys.readouterr().out
    pytest.importorskip("matplotlib")
    assert (out / "skill.png").stat().st_size > 0
