"""The `ulm suggest` command (cli/suggest_cmd.py): advice for a position file,
as text and JSON, with a stand-in for ulm.positions (a position file here is
JSON {"players", "seat", "raw"}) and with real position files."""
import json

import pytest
from click.testing import CliRunner
from constructed import river_wins, seal_wins
from helpers import fresh

import ulm


class StandInPositionError(ValueError):
    pass


def _stand_in_load_position(path):
    try:
        with open(path) as f:
            data = json.load(f)
        state = ulm.Game(players=data["players"]).new_initial_state()
        state.set_raw(data["raw"])
        return state, data["seat"]
    except (OSError, ValueError, KeyError) as exc:
        raise StandInPositionError(f"{path}: not a position file ({exc})") from None


@pytest.fixture
def positions(monkeypatch, tmp_path):
    import cli.suggest_cmd
    monkeypatch.setattr(cli.suggest_cmd, "load_position", _stand_in_load_position)
    monkeypatch.setattr(cli.suggest_cmd, "PositionError", StandInPositionError)

    def write(state, seat, name="position.json"):
        path = tmp_path / name
        path.write_text(json.dumps({"players": state.num_players(), "seat": seat,
                                    "raw": state.raw()}))
        return str(path)
    return write


def _suggest(*args):
    from cli.suggest_cmd import suggest
    return CliRunner().invoke(suggest, [str(a) for a in args])


def test_suggest_prints_advice(positions):
    path = positions(seal_wins(), 1)
    res = _suggest(path, "--iterations", 400, "--seed", 1, "--quiet")
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "Recommended decisions for the rest of the turn:" in out
    assert "1. seal in Tillage" in out
    assert "a chance event follows" in out
    assert "Top alternatives for the first decision:" in out and "end turn" in out
    assert "Blue (to move)" in out
    assert "Search: 400 iterations" in out
    assert res.stderr == ""


def test_suggest_json(positions):
    path = positions(seal_wins(), 1)
    res = _suggest(path, "--iterations", 400, "--json", "--rollout", "random", "--workers", 2)
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["seat"] == 1 and data["player"] == 1
    assert data["principal_line"][0]["name"] == "seal in Tillage"
    assert data["best_action_name"] == "seal in Tillage"
    assert {a["name"] for a in data["actions"]} == {"seal in Tillage", "end turn"}
    assert len(data["win_probability"]) == 2 and len(data["expected_score"]) == 2
    assert data["stats"]["iterations"] == 400 and data["stats"]["workers"] == 2
    assert res.stderr == ""


def test_suggest_same_seed_same_advice(positions):
    path = positions(river_wins(), 1)
    a = json.loads(_suggest(path, "--iterations", 300, "--seed", 4, "--json").stdout)
    b = json.loads(_suggest(path, "--iterations", 300, "--seed", 4, "--json").stdout)
    for d in (a, b):
        d["stats"].pop("seconds")
        d["stats"].pop("iterations_per_second")
    assert a == b


def test_suggest_time_budget(positions):
    s = fresh(players=2)
    s.apply_action(1)
    s.resolve_chance()
    path = positions(s, 0)
    res = _suggest(path, "--time", 0.2, "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["stats"]["iterations"] > 10


def test_suggest_bad_position_file(positions, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{ nope")
    res = _suggest(str(bad))
    assert res.exit_code == 2
    assert res.stderr.startswith("Error: ") and "not a position file" in res.stderr
    assert "Traceback" not in res.output


def test_suggest_wrong_seat(positions):
    path = positions(seal_wins(), 0)
    res = _suggest(path, "--iterations", 10)
    assert res.exit_code == 2
    assert "Red is not the player to move (Blue is)" in res.stderr


def test_suggest_iterations_or_time(positions):
    path = positions(seal_wins(), 1)
    res = _suggest(path, "--iterations", 10, "--time", 1)
    assert res.exit_code == 2
    assert "either --iterations or --time" in res.output


def test_suggest_with_real_position_files(tmp_path):
    """The command with ulm.positions itself (when it is installed)."""
    positions = pytest.importorskip("ulm.positions")
    path = tmp_path / "seal.json"
    positions.save_position(seal_wins(), path)
    res = _suggest(path, "--iterations", 400, "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["principal_line"][0]["name"] == "seal in Tillage"
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "nonsense"}')
    res = _suggest(bad)
    assert res.exit_code == 2
    assert res.stderr.startswith("Error: ") and "Traceback" not in res.output


def test_suggest_says_which_figure_is_which_where_it_stands():
    """The table's "... more" stands under its rows, each figure of a decision is
    named in the legend beside it (estimate, points, lead), the chances
    below are said to be the whole search's, and a ± shows the precision it has
    (never "0.0" for an error above 0)."""
    from cli.suggest_cmd import _error, format_result
    from mcts import search
    state = fresh(players=4, seed=1)
    state.apply_action(1)           # the draw: the first push follows, 16 decisions
    state.resolve_chance()
    seat = state.current_player()
    text = format_result(search(state, iterations=3000, seed=1), state, seat, "p.json")
    table = text.split("Top alternatives for the first decision:\n")[1].splitlines()
    header, rows = table[0], table[1:6]
    assert header.split() == ["decision", "visits", "share", "estimate", "±", "points", "lead",
                              "±"]
    assert table[6].startswith("  ... and ") and table[6].endswith("(--json lists them all)")
    assert [line.split(":")[0].strip() for line in table[7:9]] == ["estimate", "points"]
    assert "so not the chance to win shown below" in table[7]
    for row in rows:
        assert not row.endswith(" 0.0"), row
    assert "Chances to win and expected final scores over the whole search" in text
    assert "Win probability" not in text
    assert [_error(x) for x in (1.46, 0.1, 0.0316, 0.004, 0.0, 0.00002)] == \
        ["  1.5", "  0.1", "0.032", "0.004", "    0", "2e-05"]


def test_the_text_is_drawn_from_the_answer_json_prints(positions):
    """One answer: the text of `suggest` is the --json answer worded (the same seeded
    search, read back from its JSON, gives the same lines; the time figures aside)."""
    from cli.suggest_cmd import format_result
    state = seal_wins()
    path = positions(state, 1)
    args = (path, "--iterations", 300, "--seed", 4, "--quiet")
    text = _suggest(*args).stdout
    data = json.loads(_suggest(*args, "--json").stdout)
    from mcts import search
    answer = search(state, iterations=10, seed=1).to_dict()     # docs/library.md's fields
    assert set(data) == {"position", "seat"} | set(answer)
    again = format_result(data, state, 1, path)
    drop_times = lambda t: [ln for ln in t.splitlines() if not ln.startswith("Search: ")]  # noqa: E731
    assert drop_times(again) == drop_times(text) and "Search: 300 iterations" in again
    assert data["seats"] == ["Red", "Blue"] and data["seats"][data["player"]] == "Blue"


def test_the_answer_is_strict_json_even_without_a_measured_time():
    """An engine's `info` or a browser reads it: no Infinity or NaN in it."""
    from mcts import search
    result = search(seal_wins(), iterations=50, seed=1)
    result.seconds = 0.0
    answer = result.to_dict()
    assert answer["stats"]["iterations_per_second"] is None
    assert json.loads(json.dumps(answer, allow_nan=False)) == answer


def test_the_text_says_what_chose_the_first_decision_when_visits_did_not():
    """The table ranks by visits; where a final rule other than visits put the first
    decision first (the answer's decided_by), the text says so beside the line."""
    from cli.suggest_cmd import format_result
    from mcts import search
    state = seal_wins()
    answer = search(state, iterations=300, seed=4).to_dict()
    assert answer["decided_by"] == "visits"
    assert "was chosen by" not in format_result(answer, state, 1, "p.json")
    for rule, words in (("lcb", "chosen by its lower confidence bound"),
                        ("value", "chosen by its estimate (final=value)")):
        text = format_result(dict(answer, decided_by=rule), state, 1, "p.json")
        assert f"  the first decision was {words}" in text, text
