"""Game records (ulm/records.py, `ulm replay`): a record replays to the same
final state and to any step of it, the replay command's views and files, and
a table of bad records refused with the field and the reason."""
from __future__ import annotations

import json
import random

import pytest

from ulm._fastcore import SEATS
from ulm.positions import (dumps, load_position, state_to_position)
from ulm.records import GameRecord, RecordError, load_record, replay

from samples import EXAMPLES, run, used


# ---------------------------------------------------------------------------
# game records

@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A 3-player advanced game played with random decisions, its record saved, and the
    state after every decision."""
    rec = GameRecord(players=3, variant="advanced", seed=9)
    rng = random.Random(9)
    after = [rec.state.clone()]
    while not rec.state.is_terminal():
        rec.apply(rng.choice(rec.state.legal_actions()))
        after.append(rec.state.clone())
    path = tmp_path_factory.mktemp("records") / "game.json"
    rec.save(path)
    return rec, after, path


def test_record_replays_to_the_same_final_state(played):
    rec, after, path = played
    back = load_record(path)
    assert back.state.is_terminal()
    assert back.state.raw() == rec.state.raw()
    assert back.decisions == rec.decisions
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["result"]["scores"] == dict(zip(SEATS, rec.state.scores()))
    assert dumps(back.to_dict()) == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("k", [0, 1, 17, 100])
def test_record_at_k(played, k):
    rec, after, path = played
    assert load_record(path, at=k).state.raw() == after[k].raw()
    assert len(load_record(path, at=k).decisions) == k


@pytest.mark.parametrize("k,seat", [(0, "Red"), (40, "Blue"), (101, "Green")])
def test_replay_cli_prints_the_view(played, k, seat):
    rec, after, path = played
    res = run("replay", path, "--at", k, "--as", seat, "--json")
    assert res.exit_code == 0, res.output
    view = json.loads(res.output)
    assert view["kind"] == "view" and view["viewer"] == seat
    assert res.output == dumps(state_to_position(after[k], SEATS.index(seat)))


def test_replay_cli_text_and_output_file(played, tmp_path):
    rec, after, path = played
    res = run("replay", path, "--at", 30)
    assert res.exit_code == 0
    assert res.output.startswith("After 30 decisions:")
    assert "Score breakdown:" in res.output
    out = tmp_path / "at30.json"
    res = run("replay", path, "--at", 30, "-o", out)
    assert res.exit_code == 0
    state, _ = load_position(out)
    assert used(state.raw()) == used(after[30].raw())


def test_replay_of_the_example_record():
    res = run("replay", EXAMPLES / "record-2p.json", "--json")
    assert res.exit_code == 0
    assert json.loads(res.output)["phase"] == "game over"


BAD_RECORDS = [
    ("unknown action", {"decisions": ["draw", "push row 1 from left", "end turn", "fly"]}, None,
     "decisions[3]: unknown action 'fly'"),
    ("illegal decision", {"decisions": ["draw", "end turn"]}, None,
     "decisions[1]: 'end turn' is illegal at this point (legal: push row 1 from left"),
    ("negative seed", {"seed": -1}, None, "seed: must be a whole number from 0 to 2**64 - 1, got -1"),
    ("text seed", {"seed": "7"}, None, "seed: must be a whole number from 0 to 2**64 - 1, got '7'"),
    ("seed too large", {"seed": 2 ** 64}, None,
     "seed: must be a whole number from 0 to 2**64 - 1, got 18446744073709551616"),
    ("five players", {"players": 5}, None, "players: must be 2, 3 or 4, got 5"),
    ("fractional players", {"players": 2.0}, None, "players: must be 2, 3 or 4, got 2.0"),
    ("board of the wrong type", {"board": 5}, None,
     "board: must be the path of a board table file, got int"),

    ("bad variant", {"variant": "expert"}, None,
     "variant: must be 'basic' or 'advanced', got 'expert'"),
    ("decisions not a list", {"decisions": "draw"}, None,
     "decisions: missing, or not a list of action names"),
    ("unknown field", {"moves": []}, None, "moves: unknown field"),
    ("--at beyond the end", {}, 99, "--at: the record has 3 decisions, got 99"),
]


@pytest.mark.parametrize("case", BAD_RECORDS, ids=[b[0] for b in BAD_RECORDS])
def test_bad_record(case, tmp_path):
    _, change, at_k, message = case
    data = {"format": "ulm-record/1", "players": 2, "variant": "basic", "seed": 5,
            "decisions": ["draw", "push row 1 from left", "end turn"]}
    data.update(change)
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RecordError) as err:
        load_record(path, at=at_k)
    assert message in str(err.value)
    args = ["replay", path] + (["--at", at_k] if at_k is not None else [])
    commands = [args] + ([["validate", path]] if at_k is None else [])
    for cmd in commands:
        res = run(*cmd)
        assert res.exit_code == 2, (cmd, res.output)
        assert "Error: " in res.output and message in res.output
        assert "Traceback" not in res.output


def test_record_that_is_not_an_object():
    with pytest.raises(RecordError, match="record: must be a JSON object, got list"):
        replay([])


