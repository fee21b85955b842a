"""The `ulm` command, every subcommand, through click's CliRunner.

Bad input of any kind must end with `Error: ...` on stderr naming what is
wrong, exit status 2 and no traceback; help texts must work and mention every
option. Cheap bots only (random, greedy, ismcts with 30 iterations).
"""
import json
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from cli.main import main
from helpers import assert_input_error, ROOT
from signatures import SIGNATURE, V02_SIGNATURE

EXAMPLES = ROOT / "examples"
COMMANDS = ["new", "show", "validate", "replay", "suggest", "play", "tournament", "bench",
            "apply", "annotate", "ladder", "tune"]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def assert_ok(res):
    assert res.exit_code == 0, (res.exit_code, res.output, res.exception)
    return res


# ---------------------------------------------------------------------------
# help


def test_every_command_is_registered_and_listed():
    assert set(COMMANDS) <= set(main.commands)
    res = assert_ok(run("--help"))
    for name in COMMANDS:
        assert re.search(rf"^\s+{name}\s", res.stdout, re.M), name


@pytest.mark.parametrize("name", COMMANDS)
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_mentions_every_option(name, flag):
    cmd = main.commands[name]
    res = assert_ok(run(name, flag))
    out = res.stdout
    assert f"Usage: main {name}" in out or f"{name} [OPTIONS]" in out
    first_line = cmd.help.strip().splitlines()[0]
    assert " ".join(first_line.split()[:4]) in " ".join(out.split())
    for param in cmd.params:
        if isinstance(param, click.Option):
            assert any(opt in out for opt in param.opts), (name, param.opts)
        else:
            assert param.name.upper() in out, (name, param.name)
    assert res.stderr == ""


@pytest.mark.parametrize("name, words", [
    ("play", ["--bots", "--seed", "--record", "--quiet", "ismcts:iterations"]),
    ("tournament", ["--bots", "--players", "--games", "--workers", "--out", "--json",
                    "resumes", "rotated"]),
    ("bench", ["--quick", "--json", "signature"]),
    ("suggest", ["--iterations", "--time", "--workers", "--seed", "--rollout", "--svg", "--png"]),
    ("show", ["--svg", "--png", "--highlight"]),
    ("play", ["--human", "--hint-iterations", "--players"]),
    ("apply", ["standard input", "drew white", "Red drew a card", "-o"]),
    ("annotate", ["--as", "--iterations", "--time", "--json", "--plot", "--top"]),
])
def test_help_explains_the_main_options(name, words):
    out = " ".join(assert_ok(run(name, "--help")).stdout.split())
    for w in words:
        assert w in out, w


# ---------------------------------------------------------------------------
# new, show, validate, replay


def test_new_show_validate_replay_work(tmp_path):
    pos = tmp_path / "p.json"
    assert_ok(run("new", "--players", 3, "--seed", 2, "-o", pos))
    assert "a valid position, 3 players" in assert_ok(run("validate", pos)).stdout
    assert "Score breakdown" in assert_ok(run("show", pos)).stdout
    view = tmp_path / "v.json"
    assert_ok(run("new", "--players", 3, "--seed", 2, "--as", "Blue", "-o", view))
    assert "Blue viewing" in assert_ok(run("validate", view)).stdout
    out = assert_ok(run("replay", EXAMPLES / "record-2p.json", "--at", 10)).stdout
    assert out.startswith("After 10 decisions:")


@pytest.mark.parametrize("args, words", [
    (["new", "--players", 5], ["--players", "5"]),
    (["new", "--players", 1], ["--players"]),
    (["new", "--variant", "expert"], ["--variant", "expert"]),
    (["new", "--players", 2, "--as", "Green"], ["--as", "Green"]),
    (["new", "--as", "Purple"], ["--as", "Purple"]),
    (["new", "--seed", -3], ["--seed"]),
    (["new", "--board", "/no/such/board.json"], ["/no/such/board.json"]),
    (["new", "--bogus"], ["--bogus"]),
    (["show", "/no/such/position.json"], ["/no/such/position.json"]),
    (["show", EXAMPLES / "new-2p.json", "--as", "Yellow"], ["--as", "Yellow"]),
    (["show", EXAMPLES / "midgame-4p-view.json", "--as", "Red"], ["--as"]),
    (["show"], ["POSITION"]),
    (["validate", "/no/such/file.json"], ["/no/such/file.json"]),
    (["validate"], ["FILE"]),
    (["replay", "/no/such/record.json"], ["/no/such/record.json"]),
    (["replay", EXAMPLES / "record-2p.json", "--at", -1], ["--at"]),
    (["replay", EXAMPLES / "record-2p.json", "--as", "Green"], ["--as", "Green"]),
    (["replay", EXAMPLES / "record-2p.json", "--at", "ten"], ["--at", "ten"]),
    (["new", "-o", ""], ["--output: no file name given"]),
    (["replay", EXAMPLES / "record-2p.json", "-o", ""], ["--output: no file name given"]),
    (["new", "-o", "/no/such/folder/p.json"], ["/no/such/folder/p.json"]),
    (["new", "--board", "/dev/zero"], ["/dev/zero", "larger than 16 MiB"]),
    (["validate", "/dev/zero"], ["/dev/zero", "larger than 16 MiB"]),
    (["show", "/dev/zero"], ["/dev/zero", "larger than 16 MiB"]),
    (["replay", "/dev/zero"], ["/dev/zero", "larger than 16 MiB"]),
    (["suggest", "/dev/zero"], ["/dev/zero", "larger than 16 MiB"]),
])
def test_bad_input_for_files_and_positions(args, words):
    assert_input_error(run(*args), *words)


NESTED = "[" * 100_000
DUPLICATE_KEY = '{"format": "ulm-record/1", "players": 2, "seed": 1, "seed": 2, "decisions": []}'


@pytest.mark.parametrize("command", ["show", "validate", "replay", "suggest", "new --board",
                                     "play --bots random,random --board"])
@pytest.mark.parametrize("text, words", [
    (NESTED, ["nested more than 64 levels deep"]),
    ("[" * 65 + "]" * 65, ["[0]" * 64, "nested more than 64 levels deep"]),
    (DUPLICATE_KEY, ["seed: the key is given twice in one object"]),
], ids=["100000 levels", "65 levels", "duplicate key"])
def test_nested_or_duplicate_json_is_refused(tmp_path, command, text, words):
    """No RecursionError from deep nesting; a key given twice is not silently dropped."""
    path = tmp_path / "f.json"
    path.write_text(text)
    res = assert_input_error(run(*command.split(), path), str(path), *words)
    assert "round " not in res.stdout


def test_output_into_a_device_or_pipe_is_written_not_replaced(tmp_path):
    """-o into something that is not a regular file writes into it (a named pipe of
    our own first, so that a writer that replaces such files fails before it could
    replace a device node of the system)."""
    import os
    import stat
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        assert_ok(run("new", "--players", 2, "-o", fifo))
        assert json.loads(os.read(reader, 1 << 16))["format"] == "ulm-position/1"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and os.listdir(tmp_path) == ["pipe"]
    assert_input_error(run("new", "-o", "/dev/full"), "/dev/full", "No space left on device")
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


needs_dev_full = pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")


@needs_dev_full
@pytest.mark.parametrize("args", [
    ["suggest", EXAMPLES / "push-4p-view.json", "--iterations", 30, "--quiet"],
    ["suggest", EXAMPLES / "push-4p-view.json", "--iterations", 30, "--json"],
    ["show", EXAMPLES / "new-2p.json"],
    ["new", "--players", 2],
    ["validate", EXAMPLES / "record-2p.json"],
    ["annotate", EXAMPLES / "record-2p.json", "--as", "Red", "--iterations", 5, "--quiet"],
    ["play", "--bots", "random,random", "--quiet"],
    ["--help"],
    ["--version"],
    ["apply", "--help"],
], ids=lambda a: " ".join(Path(str(x)).name for x in a[:2])
    + (" --json" if "--json" in a else ""))
def test_standard_output_on_a_full_device_is_a_clean_error(args):
    """`ulm ... > /dev/full`: the failed write to standard output is named, no traceback."""
    import subprocess
    import sys
    with open("/dev/full", "w") as full:
        res = subprocess.run([sys.executable, "-m", "cli", *map(str, args)], stdout=full,
                             stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=300)
    assert res.returncode == 2, res.stderr
    assert res.stderr.strip().splitlines()[-1] == \
        "Error: standard output: No space left on device", res.stderr
    assert "Traceback" not in res.stderr and "None" not in res.stderr


@needs_dev_full
@pytest.mark.parametrize("args", [
    ["new", "-o", "/dev/full"],
    ["apply", EXAMPLES / "new-2p.json", "draw", "-o", "/dev/full"],
    ["replay", EXAMPLES / "record-2p.json", "-o", "/dev/full"],
    ["show", EXAMPLES / "new-2p.json", "--svg", "/dev/full"],
    ["suggest", EXAMPLES / "push-4p-view.json", "--iterations", 30, "--quiet", "--svg",
     "/dev/full"],
    ["annotate", EXAMPLES / "record-2p.json", "--as", "Red", "--iterations", 5, "--quiet",
     "--plot", "/dev/full"],
    ["play", "--bots", "random,random", "--quiet", "--record", "/dev/full"],
], ids=lambda a: a[0])
def test_an_output_file_on_a_full_device_is_a_clean_error(args):
    res = assert_input_error(run(*args), "/dev/full: No space left on device")
    assert "None" not in res.stderr


@pytest.mark.parametrize("name, words", [
    ("record-2p.json", ["<stdin>: a valid game record, 93 decisions"]),
    ("midgame-4p-view.json", ["<stdin>: a valid position, 4 players, Blue"]),
    ("new-2p.json", ["<stdin>: a valid position, 2 players"]),
])
def test_validate_reads_standard_input(name, words):
    res = assert_ok(CliRunner().invoke(main, ["validate", "-"],
                                       input=(EXAMPLES / name).read_bytes()))
    for w in words:
        assert w in res.stdout


@pytest.mark.parametrize("data, words", [
    (b'{"format": "ulm-record/1", "players": 5, "seed": 1, "decisions": []}',
     ["<stdin>: players: must be 2, 3 or 4, got 5"]),
    (b"{not json", ["<stdin>: not valid JSON"]),
    (b'{"format": "ulm-position/1"}\xff', ["<stdin>: not a UTF-8 text file (byte 0xff"]),
    (b"", ["<stdin>: not valid JSON"]),
])
@pytest.mark.parametrize("command", [["validate", "-"], ["show", "-"], ["apply", "-", "draw"]])
def test_bad_standard_input_names_stdin(command, data, words):
    if command[0] != "validate" and b"ulm-record" in data:
        words = ["<stdin>: format"]
    assert_input_error(CliRunner().invoke(main, command, input=data), *words)


def test_bad_files_name_the_file(tmp_path):
    junk = tmp_path / "junk.json"
    junk.write_text("{ not json")
    for command in ("show", "validate", "replay", "suggest"):
        assert_input_error(run(command, junk), str(junk))
    empty = tmp_path / "record.json"
    empty.write_text('{"format": "ulm-record/1"}')
    assert_input_error(run("replay", empty), str(empty))


HUGE = "99999999999999999999"   # more than a C long holds


@pytest.mark.parametrize("args, words", [
    (["suggest", EXAMPLES / "push-4p-view.json", "--iterations", HUGE], ["--iterations"]),
    (["suggest", EXAMPLES / "push-4p-view.json", "--iterations", 2 ** 31], ["--iterations"]),
    (["annotate", EXAMPLES / "record-2p.json", "--as", "Red", "--iterations", HUGE, "--quiet"],
     ["--iterations"]),
    (["annotate", EXAMPLES / "record-2p.json", "--as", "Red", "--iterations", 5, "--seed",
      2 ** 64, "--quiet"], ["--seed"]),
    (["play", "--bots", "random,random", "--seed", HUGE], ["--seed"]),
    (["play", "--human", "Red", "--bots", "random", "--hint-iterations", HUGE],
     ["--hint-iterations"]),
    (["ladder", "--low", HUGE, "--high", HUGE, "--games", 2, "--workers", 1, "--quiet"],
     ["--low"]),
    (["ladder", "--low", 2, "--high", HUGE, "--games", 2, "--workers", 1, "--quiet"],
     ["--high"]),
    (["tune", "--bot", f"ismcts:iterations={HUGE}", "--param", "c=0.1:1", "--against", "random",
      "--quiet"], ["--bot", "iterations: at most 2,147,483,647"]),
    (["tune", "--bot", "pimc:iterations=5", "--param", f"determinizations=1:{HUGE}", "--against",
      "random", "--quiet"], ["--param", "determinizations: must be a whole number from 1 to"]),
], ids=["suggest", "suggest-2**31", "annotate", "annotate-seed", "play-seed", "hint-iterations",
        "ladder-low", "ladder-high", "tune-bot", "tune-param"])
def test_integers_beyond_what_the_search_takes_are_refused(args, words, tmp_path, monkeypatch):
    """Every whole number that reaches the compiled core is bounded (no OverflowError):
    iterations by MAX_ITERATIONS (visit counts are 32-bit), seeds by 2**64 - 1."""
    monkeypatch.chdir(tmp_path)
    res = assert_input_error(run(*args), *words)
    assert "OverflowError" not in res.output
    assert list(tmp_path.iterdir()) == []


def test_max_iterations_is_the_compiled_limit():
    from mcts import MAX_ITERATIONS, search
    from mcts.play.tournament import MAX_GAMES, TournamentConfig, TournamentError, validate_config
    from ulm.game import Game
    assert MAX_ITERATIONS == 2 ** 31 - 1
    state = Game(players=2).new_game(1)
    state.apply_action_string("draw")
    state.resolve_chance()
    with pytest.raises(ValueError, match="iterations: at most 2,147,483,647"):
        search(state, iterations=MAX_ITERATIONS + 1)
    with pytest.raises(TournamentError, match="^games: at most"):
        validate_config(TournamentConfig(bots=["random", "greedy"], players=2,
                                        games=MAX_GAMES + 1))
    assert_input_error(run("tournament", "--bots", "random", "greedy", "--games", HUGE), "--games")


# ---------------------------------------------------------------------------
# suggest


def test_suggest_gives_advice_as_text_and_json():
    path = EXAMPLES / "push-4p-view.json"
    out = assert_ok(run("suggest", path, "--iterations", 60, "--quiet")).stdout
    assert "Recommended decisions" in out and "Search: 60 iterations" in out
    data = json.loads(assert_ok(run("suggest", path, "--iterations", 60, "--json")).stdout)
    assert data["seat"] == 1 and data["stats"]["iterations"] == 60
    assert data["best_action_name"]


@pytest.mark.parametrize("args, words", [
    (["/no/such/position.json"], ["/no/such/position.json"]),
    ([EXAMPLES / "new-2p.json", "--iterations", 0], ["--iterations", "0"]),
    ([EXAMPLES / "new-2p.json", "--iterations", -5], ["--iterations"]),
    ([EXAMPLES / "new-2p.json", "--time", 0], ["--time"]),
    ([EXAMPLES / "new-2p.json", "--workers", 0], ["--workers", "0"]),
    ([EXAMPLES / "new-2p.json", "--rollout", "smart"], ["--rollout", "smart"]),
    ([EXAMPLES / "new-2p.json", "--c", -1], ["--c"]),
    ([EXAMPLES / "new-2p.json", "--c", "nan"], ["--c", "must be a number from 0 to 1000, got 'nan'"]),
    ([EXAMPLES / "new-2p.json", "--c", "inf"], ["--c", "must be a number from 0 to 1000, got 'inf'"]),
    ([EXAMPLES / "new-2p.json", "--time", "nan"], ["--time", "a positive number of seconds, got 'nan'"]),
    ([EXAMPLES / "new-2p.json", "--time", "inf"], ["--time", "a positive number of seconds, got 'inf'"]),
    ([EXAMPLES / "new-2p.json", "--time", "-1"], ["--time"]),
    ([EXAMPLES / "new-2p.json", "--iterations", 5, "--time", 1], ["--iterations", "--time"]),
])
def test_suggest_bad_options(args, words):
    assert_input_error(run("suggest", *args), *words)


def test_suggest_refuses_a_view_of_a_player_not_to_move(tmp_path):
    view = tmp_path / "blue.json"
    assert_ok(run("new", "--players", 2, "--as", "Blue", "-o", view))  # Red moves first
    assert_input_error(run("suggest", view, "--iterations", 10), "not the player to move")


def test_suggest_refuses_a_finished_game(tmp_path):
    end = tmp_path / "end.json"
    assert_ok(run("replay", EXAMPLES / "record-2p.json", "-o", end))
    assert_input_error(run("suggest", end, "--iterations", 10), "game is over")


# ---------------------------------------------------------------------------
# play


def _total_row(text):
    rows = [line for line in text.splitlines() if line.startswith("total")]
    assert rows, text
    return [int(x) for x in rows[-1].split()[1:]]


def test_play_logs_turns_and_the_record_replays_to_the_same_scores(tmp_path):
    record = tmp_path / "R.json"
    res = assert_ok(run("play", "--bots", "random,greedy", "--seed", 3, "--record", record))
    out = res.stdout
    turns = [line for line in out.splitlines() if line.startswith("round ")]
    assert len(turns) == 20, "ten rounds of two turns"
    assert re.match(r"round  1 Red +\(random\): draw; ", turns[0])
    assert re.match(r"round  1 Blue +\(greedy\): draw; ", turns[1])
    assert turns[-1].startswith("round 10 Blue")
    assert all(re.search(r" -> -?\d+ VP$", t) for t in turns)
    assert "Final scores:" in out
    final = out[out.index("Final scores:"):]
    assert re.search(r"^\s+Red\s+Blue$", final, re.M)
    assert re.search(r"^start\s+5\s+5$", final, re.M)
    scores = _total_row(final)
    assert len(scores) == 2
    assert re.search(r"^(Winner|Shared win): .*\((random|greedy)\)", final, re.M)
    assert f"Record saved to {record}" in out

    replay = assert_ok(run("replay", record)).stdout
    assert "Score breakdown:" in replay
    assert _total_row(replay) == scores
    breakdown = final[final.index("\n") + 1:final.index("\ntotal")]
    assert breakdown.strip() in replay, "the same breakdown"
    saved = json.loads(record.read_text())
    assert saved["bots"] == ["random", "greedy"] and saved["seed"] == 3
    assert [saved["result"]["scores"][s] for s in ("Red", "Blue")] == scores
    assert "a valid game record" in assert_ok(run("validate", record)).stdout

    again = assert_ok(run("play", "--bots", "random,greedy", "--seed", 3, "--quiet"))
    assert "round " not in again.stdout
    assert _total_row(again.stdout) == scores, "the same seed plays the same game"


def test_play_splits_specs_with_options_and_plays_four_seats():
    specs = "ismcts:iterations=30,rollout=random,greedy,random,greedy"
    res = assert_ok(run("play", "--bots", specs, "--seed", 1, "--quiet"))
    assert "Red" in res.stdout and "Yellow" in res.stdout
    assert len(_total_row(res.stdout)) == 4
    res = assert_ok(run("play", "--bots", "greedy,greedy,greedy", "--variant", "advanced",
                        "--quiet"))
    assert len(_total_row(res.stdout)) == 3


BAD_SPECS = [
    ("foo", ["--bots", "unknown bot 'foo'", "random"]),
    ("randon", ["unknown bot 'randon'", "did you mean 'random'"]),
    ("ismcts:iterations=-5", ["--bots", "ismcts", "iterations", "got -5"]),
    ("ismcts:iterations=lots", ["iterations", "'lots'"]),
    ("ismcts:iteratons=5", ["unknown option 'iteratons'", "did you mean 'iterations'"]),
    ("ismcts:iterations", ["'iterations'", "OPTION=VALUE"]),
    ("greedy:seed=x", ["seed", "'x'"]),
    ("ismcts:rollout=smart", ["rollout", "'smart'"]),
    ("ismcts:c=-1", ["c: the exploration constant must be", "got -1.0"]),
    ("ismcts:c=nan", ["c: the exploration constant must be", "'nan'"]),
    ("ismcts:c=inf", ["c: the exploration constant must be", "'inf'"]),
    ("ismcts:time=nan", ["time: must be", "'nan'"]),
    ("ismcts:margin=inf", ["margin: must be", "'inf'"]),
    ("ismcts:iterations=99999999999999999999", ["iterations: at most 2,147,483,647"]),
    ("pimc:iterations=2147483648", ["iterations: at most 2,147,483,647"]),
    ("pimc:determinizations=99999999999999999999", ["determinizations: must be a whole number from 1 to"]),
]


@pytest.mark.parametrize("spec, words", BAD_SPECS)
def test_play_bad_bot_specs(spec, words):
    assert_input_error(run("play", "--bots", f"{spec},random"), *words)


@pytest.mark.parametrize("args, words", [
    (["--bots", "random"], ["--bots", "2, 3 or 4", "got 1"]),
    (["--bots", "random,greedy,random,greedy,random"], ["--bots", "got 5"]),
    ([], ["--bots"]),
    (["--bots", "random,greedy", "--seed", -1], ["--seed"]),
    (["--bots", "random,greedy", "--variant", "expert"], ["--variant"]),
    (["--bots", "random,greedy", "--board", "/no/such/board.json"], ["/no/such/board.json"]),
])
def test_play_bad_options(args, words, tmp_path):
    res = assert_input_error(run("play", *args, "--record", tmp_path / "r.json"), *words)
    assert "round " not in res.stdout
    assert not (tmp_path / "r.json").exists()


@pytest.mark.parametrize("name, words", [
    ("no/r.json", ["does not exist"]),
    ("x" * 300 + ".json", ["File name too long"]),   # a folder that exists, a file it cannot hold
    ("", ["--record: no file name given"]),
])
def test_play_record_that_cannot_be_written_is_refused_before_playing(tmp_path, name, words):
    path = tmp_path / name if name else ""
    res = assert_input_error(run("play", "--bots", "random,greedy", "--record", path),
                             "--record", str(path), *words)
    assert "round " not in res.stdout and "Final scores" not in res.stdout
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------------
# tournament


def test_tournament_table_json_and_files(tmp_path):
    out = tmp_path / "t"
    res = assert_ok(run("tournament", "--bots", "greedy", "random", "--players", 3, "--games", 5,
                        "--workers", 1, "--seed", 3, "--out", out, "--quiet"))
    text = res.stdout
    assert "6 games on 2 deals, 3 players" in text, "rounded up to whole rotations"
    assert re.search(r"^greedy\s+12\s", text, re.M) and re.search(r"^random\s+6\s", text, re.M)
    assert "win rate by seat" in text and f"Results in {out}/ (results.json" in text
    for name in ("games.jsonl", "games.csv", "results.json", "win_rates.png", "tournament.json"):
        assert (out / name).is_file(), name
    # the same settings again: everything is there, nothing is played, same results
    res = assert_ok(run("tournament", "--bots", "greedy", "random", "--players", 3, "--games", 5,
                        "--workers", 2, "--seed", 3, "--out", out, "--json"))
    data = json.loads(res.stdout)
    assert data["games"] == 6 and data["deals"] == 2
    assert [b["bot"] for b in data["bots"]] == ["greedy", "random"]
    assert data == json.loads((out / "results.json").read_text())
    assert len((out / "games.jsonl").read_text().splitlines()) == 6


def test_tournament_bots_may_be_repeated_or_comma_separated():
    a = json.loads(assert_ok(run("tournament", "--bots", "greedy", "--bots", "random",
                                 "--games", 2, "--workers", 1, "--json")).stdout)
    b = json.loads(assert_ok(run("tournament", "--bots", "greedy,random",
                                 "--games", 2, "--workers", 1, "--json")).stdout)
    c = json.loads(assert_ok(run("tournament", "--bots", "ismcts:iterations=30,c=0.5,random",
                                 "--games", 2, "--workers", 1, "--json")).stdout)
    assert [x["bot"] for x in a["bots"]] == [x["bot"] for x in b["bots"]] == ["greedy", "random"]
    assert [x["bot"] for x in c["bots"]] == ["ismcts:iterations=30,c=0.5", "random"]


@pytest.mark.parametrize("spec, words", BAD_SPECS)
def test_tournament_bad_bot_specs(spec, words, tmp_path):
    assert_input_error(run("tournament", "--bots", spec, "random", "--games", 2, "--workers", 1,
                           "--out", tmp_path / "t"), *words)
    assert not (tmp_path / "t").exists(), "nothing written for a refused tournament"


@pytest.mark.parametrize("args, words", [
    (["--bots", "random", "greedy", "--players", 5], ["--players", "5"]),
    (["--bots", "random", "greedy", "--players", 1], ["--players", "1"]),
    (["--bots", "random", "greedy", "--games", 0], ["--games", "0"]),
    (["--bots", "random", "greedy", "--games", -4], ["--games"]),
    (["--bots", "random", "greedy", "--workers", 0], ["--workers", "0"]),
    (["--bots", "random", "greedy", "random", "--players", 2], ["--bots", "3 bots", "2 seats"]),
    (["--bots", "random,greedy,random,greedy,random", "--players", 4], ["--bots", "5 bots"]),
    (["--bots", "random"], ["--bots", "two bots"]),
    (["--players", 2], ["--bots"]),
    (["--bots", "random", "greedy", "--variant", "expert"], ["--variant"]),
    (["--bots", "random", "greedy", "--board", "/no/such/board.json"],
     ["--board", "/no/such/board.json"]),
    (["--bots", "random", "greedy", "--seed", -1], ["--seed"]),
])
def test_tournament_bad_options(args, words, tmp_path):
    assert_input_error(run("tournament", *args, "--out", tmp_path / "t", "--quiet"), *words)
    assert not (tmp_path / "t").exists(), "nothing written for a refused tournament"


def test_tournament_out_must_be_a_folder(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    assert_input_error(run("tournament", "--bots", "random", "greedy", "--games", 2,
                           "--workers", 1, "--out", f), str(f))


def _rows_by_game(folder):
    rows = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]
    return {r["game"]: r for r in rows}, [r["game"] for r in rows]


def test_tournament_resumes_only_the_missing_games(tmp_path, monkeypatch):
    import mcts.play.bot_game as games
    out = tmp_path / "t"
    args = ["tournament", "--bots", "greedy", "ismcts:iterations=30", "--players", 2,
            "--games", 10, "--seed", 7, "--workers", 1, "--out", out, "--quiet"]
    assert_ok(run(*args))
    complete, _ = _rows_by_game(out)
    assert sorted(complete) == list(range(10))

    # interrupted after 6 games, in the middle of writing the 7th
    lines = (out / "games.jsonl").read_text().splitlines(keepends=True)
    (out / "games.jsonl").write_text("".join(lines[:6]) + lines[6][:40])
    kept = {json.loads(line)["game"] for line in lines[:6]}
    for name in ("results.json", "games.csv", "win_rates.png"):
        (out / name).unlink()

    played = []
    real = games.play_game

    def counting(specs, seed, *a, **kw):
        played.append(seed)
        return real(specs, seed, *a, **kw)

    monkeypatch.setattr(games, "play_game", counting)
    assert_ok(run(*args))
    assert len(played) == 10 - len(kept) == 4
    rows, order = _rows_by_game(out)
    assert sorted(order) == list(range(10)), "every game exactly once"
    for g, row in complete.items():
        for key in ("bots", "seed", "scores", "returns", "ranks", "decisions"):
            assert rows[g][key] == row[key]
    for name in ("results.json", "games.csv", "win_rates.png"):
        assert (out / name).stat().st_size > 0, name
    assert json.loads((out / "results.json").read_text())["games"] == 10

    # another tournament into the same folder is refused, and the folder is left alone
    before = (out / "games.jsonl").read_text()
    for change in (["--seed", 8], ["--bots", "random"], ["--players", 3]):
        other = list(args)
        i = other.index(change[0])
        other[i + 1] = change[1]
        assert_input_error(run(*other), "--out", "another tournament")
    assert_input_error(run(*args, "--variant", "advanced"), "--out", "another tournament")
    assert (out / "games.jsonl").read_text() == before
    assert len(played) == 4


def test_tournament_extends_a_finished_run_and_says_it_resumes(tmp_path):
    """More --games on the same --out plays only the new games; the first ones stay
    those of a run that had all the games from the start."""
    args = ["tournament", "--bots", "greedy", "random", "--players", 2, "--seed", 4,
            "--workers", 1, "--quiet"]
    first = assert_ok(run(*args, "--games", 4, "--out", tmp_path / "t"))
    assert "resuming" not in first.stderr
    more = assert_ok(run(*args, "--games", 8, "--out", tmp_path / "t"))
    assert "resuming: 4 of 8 games already played" in more.stderr
    assert "8 games on 4 deals" in more.stdout
    assert_ok(run(*args, "--games", 8, "--out", tmp_path / "fresh"))
    extended, order = _rows_by_game(tmp_path / "t")
    fresh, _ = _rows_by_game(tmp_path / "fresh")
    assert sorted(order) == list(range(8))
    for g in range(8):
        for key in ("bots", "seed", "scores", "returns", "ranks", "decisions", "breakdown"):
            assert extended[g][key] == fresh[g][key], (g, key)
    config = json.loads((tmp_path / "t" / "tournament.json").read_text())
    assert config["games"] == 8
    assert json.loads((tmp_path / "t" / "results.json").read_text())["games"] == 8


def test_tournament_refuses_a_folder_in_use(tmp_path):
    """A second run on the --out of a running tournament is refused, the folder untouched."""
    import subprocess
    import sys
    out = tmp_path / "t"
    args = ["tournament", "--bots", "greedy", "random", "--workers", 1, "--out", out, "--quiet"]
    assert_ok(run(*args, "--games", 2))
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import fcntl, sys, time\n"
         f"f = open({str(out / 'tournament.lock')!r}, 'a')\n"
         "fcntl.flock(f, fcntl.LOCK_EX)\nprint('locked', flush=True)\ntime.sleep(60)\n"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        res = assert_input_error(run(*args, "--games", 4),
                                 "--out", str(out), "in use by another tournament run")
        assert "resuming" not in res.stderr
    finally:
        holder.kill()
        holder.wait()
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert "resuming: 2 of 4" in assert_ok(run(*args, "--games", 4)).stderr


def test_tournament_two_workers_reproduce_one(tmp_path):
    results = []
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        res = assert_ok(run("tournament", "--bots", "ismcts:iterations=30", "greedy", "random",
                            "--players", 3, "--games", 6, "--seed", 9, "--workers", workers,
                            "--out", out, "--json"))
        rows, _ = _rows_by_game(out)
        results.append((json.loads(res.stdout), rows))
    (s1, r1), (s2, r2) = results
    assert sorted(r1) == sorted(r2) == list(range(6))
    for g in r1:
        for key in ("bots", "seed", "scores", "returns", "ranks", "decisions", "breakdown"):
            assert r1[g][key] == r2[g][key], (g, key)
    for a, b in zip(s1["bots"], s2["bots"]):
        for key in ("bot", "wins", "win_low", "win_high", "score", "rank", "rating"):
            assert a[key] == b[key], key


# ---------------------------------------------------------------------------
# bench


def test_bench_quick_json_has_the_documented_keys():
    res = assert_ok(run("bench", "--quick", "--json"))
    data = json.loads(res.stdout)
    cores = data["cores"]
    assert isinstance(cores, int) and cores >= 1
    keys = {"cores", "playouts_per_second_2p", "playouts_per_second_3p",
            "playouts_per_second_4p", "determinizations_per_second",
            "ismcts_iterations_per_second_opening_1core",
            "ismcts_iterations_per_second_midgame_1core",
            "ismcts_default_iterations_per_second_opening",
            "ismcts_baseline_iterations_per_second_opening",
            "ismcts_default_iterations_per_second_midgame",
            "ismcts_baseline_iterations_per_second_midgame", "bytes_per_tree_node",
            "bytes_per_tree_node_with_minimax", "bytes_per_game_state", "signature"}
    if cores > 1:
        keys |= {f"ismcts_iterations_per_second_opening_{cores}cores", "parallel_speedup"}
    assert set(data) == keys
    for k in keys - {"cores", "signature", "parallel_speedup"}:
        assert isinstance(data[k], int) and data[k] > 0, k
    if cores > 1:
        assert data["parallel_speedup"] > 0
    assert data["signature"] == SIGNATURE
    # each text line names its players, its position and its rollout, as
    # docs/speed.md explains them
    from cli.bench_cmd import _labels
    labels = _labels(data)
    assert set(labels) >= set(data)
    for key in keys - {"cores", "bytes_per_tree_node", "bytes_per_tree_node_with_minimax",
                       "bytes_per_game_state", "parallel_speedup"}:
        assert re.search(r"\b[234]-player\b", labels[key]), labels[key]
        if "ismcts" in key or key == "signature":
            assert re.search(r"random rollouts|the default search|preset=baseline",
                             labels[key]), labels[key]
    assert labels["ismcts_iterations_per_second_opening_1core"] == (
        "ISMCTS iterations/s, 4-player opening push, random rollouts to 2 turns on, 1 core")
    speed = (ROOT / "docs" / "speed.md").read_text()
    for key, label in labels.items():
        if key in data and not key.endswith("cores"):   # "N cores": this machine's count
            assert label in speed, f"docs/speed.md does not explain {label!r}"


def test_bench_signature_is_pinned():
    from cli.bench_cmd import signature
    assert signature() == SIGNATURE
    for pinned in (SIGNATURE, V02_SIGNATURE):
        assert sum(pinned["root_visits"].values()) == pinned["iterations"]


def test_bench_bad_option():
    assert_input_error(run("bench", "--quick", "--iterations", 5), "--iterations")


# ---------------------------------------------------------------------------
# One figure, one name: the text and the JSON of `ulm suggest` agree

def test_suggest_text_and_json_show_the_same_figures_and_names():
    from mcts import action_name
    args = ["suggest", EXAMPLES / "push-4p-view.json", "--iterations", 3000, "--seed", 4,
            "--quiet"]
    text = run(*args)
    data = json.loads(run(*args, "--json").stdout)
    assert text.exit_code == 0, text.output
    first = data["principal_line"][0]
    best = data["actions"][0]
    assert first["action"] == best["action"]
    assert first["share"] == best["share"]          # one figure for one decision
    shown = re.findall(r"^  1\. (.+?)\s+share\s+([\d.]+)%", text.stdout, re.M)
    assert shown == [(best["name"], f"{100 * best['share']:.1f}")]
    table = re.findall(r"^  (\S.+?)\s+(\d+)\s+([\d.]+)%\s+[\d.]+\s+[\d.]+%$", text.stdout, re.M)
    assert [(name, int(visits)) for name, visits, _ in table] == [
        (a["name"], a["visits"]) for a in data["actions"][:len(table)]]
    assert [share for _, _, share in table] == [
        f"{100 * a['share']:.1f}" for a in data["actions"][:len(table)]]
    # the players' words everywhere: "lay Nave II in front", never the engine's "(lower)"
    assert all(a["name"] == action_name(a["action"]) for a in data["actions"])
    names = {a["name"] for a in data["actions"]}
    assert "lay Nave II in front (end-game points)" in names
    assert "(lower)" not in text.stdout + json.dumps(data)


def test_suggest_forced_decision_shows_real_chances():
    res = run("suggest", EXAMPLES / "new-2p.json", "--iterations", 500, "--json")
    data = json.loads(res.stdout)
    assert data["stats"]["forced"] is True and data["stats"]["iterations"] == 500
    assert all(0 < w < 1 for w in data["win_probability"])
    assert sum(data["win_probability"]) == pytest.approx(1.0)
    assert data["actions"][0]["visits"] == 500
    text = run("suggest", EXAMPLES / "new-2p.json", "--iterations", 500, "--quiet").stdout
    assert "The only legal decision: draw" in text and "500 iterations" in text
    assert re.search(r"Red \(to move\)\s+(\d+\.\d)%", text).group(1) != "0.0"


@pytest.mark.parametrize("args, words", [
    (["--time", "1e308"], ["--time", "3600"]),
    (["--iterations", "99999999999999999999"], ["--iterations", "2,147,483,647"]),
])
def test_suggest_budget_bounds(args, words):
    assert_input_error(run("suggest", EXAMPLES / "push-4p-view.json", *args), *words)


def test_suggest_with_a_deadline_already_passed_returns():
    res = run("suggest", EXAMPLES / "push-4p-view.json", "--time", "1e-9", "--quiet", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["stats"]["iterations"] >= 1 and data["actions"][0]["visits"] >= 1


def test_tournament_names_a_folder_given_with_its_slash_once(tmp_path):
    out = f"{tmp_path / 'results'}/"
    res = assert_ok(run("tournament", "--bots", "greedy", "random", "--games", 2,
                        "--workers", 1, "--out", out, "--quiet"))
    assert f"Results in {out} (results.json" in res.stdout and "//" not in res.stdout
