"""Numbers and seeds wherever people give them, and workers that end quietly.

Every reader of JSON (positions, views, records, tournament folders) refuses a
number with thousands of digits naming the file and the field; every `--seed`
and every bot spec's `seed=` takes 0..2**64 - 1 and nothing else, through one
validator (ulm.numbers); every numeric option of a bot spec is bounded and
named; `show --highlight` needs a picture to draw on. Bad input ends with
`Error: <where>: <what>`, exit status 2, no traceback and nothing written.

The last tests start `ulm` for real, kill its main process with SIGKILL and
check that its worker processes end without a word on stderr.
"""
import importlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from cli import WholeRange
from cli.suggest_cmd import OptionType
from cli.main import main
from helpers import assert_input_error, ROOT
from mcts.play.bots import BOTS, make_bot
from mcts.searcher.params import MAX_WEIGHT, whole_text
from mcts.searcher.params import MAX_HORIZON, MAX_HORIZON_ROUNDS
from ulm.board import BoardError, parse_board
from ulm.game import parse_seat
from ulm.jsonfile import MAX_DIGITS, loads
from ulm.numbers import (MAX_SEED, check_seed, is_whole_text, parse_seed, parse_whole,
                         seed_argument, shown, whole_argument)

EXAMPLES = ROOT / "examples"
DIGITS_5000 = "9" * 5000


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def assert_no_traceback(res):
    assert "Traceback" not in res.output and "OverflowError" not in res.output
    assert not isinstance(res.exception, (ValueError, OverflowError)), res.exception


# ---------------------------------------------------------------------------
# JSON files: numbers of thousands of digits


def test_loads_names_the_place_of_a_number_with_too_many_digits():
    text = '{"players": [{"coins": 1}, {"coins": %s}]}' % DIGITS_5000
    with pytest.raises(ValueError, match=r"^f\.json: players\[1\]\.coins: a whole number of "
                                         r"5,000 digits; the numbers of these files have at "
                                         r"most 40$"):
        loads(text, "f.json", ValueError)
    with pytest.raises(ValueError, match=r"^f: document: a whole number of 5,001 digits"):
        loads("-1" + DIGITS_5000, "f", ValueError)
    with pytest.raises(ValueError, match=r"^f: \[2\]: a whole number of 41 digits"):
        loads("[1, 2, %s]" % ("1" * (MAX_DIGITS + 1)), "f", ValueError)


def test_loads_keeps_numbers_up_to_the_limit_and_floats():
    assert loads("[%s, -%s]" % ("9" * MAX_DIGITS, "9" * MAX_DIGITS), "f", ValueError) == [
        10 ** MAX_DIGITS - 1, -(10 ** MAX_DIGITS - 1)]
    assert loads('{"seed": 18446744073709551615, "x": 1.5}', "f", ValueError) == {
        "seed": 2 ** 64 - 1, "x": 1.5}


RECORD = ('{"format": "ulm-record/1", "players": 2, "variant": "basic", "seed": %s, '
          '"bots": ["human", "random"], "decisions": []}')


def _position(name: str, value: str) -> str:
    text = (EXAMPLES / name).read_text()
    assert '"round": ' in text
    return text.replace('"round": 1,' if name == "new-2p.json" else '"round": 4,',
                        f'"round": {value},', 1)


# (what, file text or a builder of it, words the error names): the bad-input table
# of a number in a file; "FILE" stands for the file's name
NUMBER_IN_A_FILE = [
    ("huge", "5000-digit", ["FILE", "a whole number of 5,000 digits"]),
    ("negative-huge", "-5000-digit", ["FILE", "a whole number of 5,000 digits"]),
    ("2**64", str(2 ** 64), ["FILE"]),
    ("negative", "-1", ["FILE"]),
    ("wrong type", '"7"', ["FILE"]),
    ("NaN", "NaN", ["FILE", "nan"]),
    ("float", "1e400", ["FILE", "inf"]),
    ("empty", "", ["FILE", "not valid JSON"]),
    ("truncated", "TRUNCATED", ["FILE", "not valid JSON"]),
]


def _number_text(value: str) -> str:
    return {"5000-digit": DIGITS_5000, "-5000-digit": "-" + DIGITS_5000}.get(value, value)


def _file_with(template, value: str) -> str:
    if value == "TRUNCATED":
        return template(DIGITS_5000)[:200]
    return template(_number_text(value))


READERS = {   # command -> (file template, the field that holds the number, how it runs)
    "validate record": (lambda v: RECORD % v, "seed", lambda f: ("validate", f)),
    "validate - record": (lambda v: RECORD % v, "seed", lambda f: ("validate", "-")),
    "replay": (lambda v: RECORD % v, "seed", lambda f: ("replay", f)),
    "play --resume": (lambda v: RECORD % v, "seed", lambda f: ("play", "--resume", f)),
    "validate - position": (lambda v: _position("new-2p.json", v), "round",
                            lambda f: ("validate", "-")),
    "show": (lambda v: _position("new-2p.json", v), "round", lambda f: ("show", f)),
    "show view": (lambda v: _position("push-4p-view.json", v), "round", lambda f: ("show", f)),
    "apply --list": (lambda v: _position("push-4p-view.json", v), "round",
                     lambda f: ("apply", "--list", f, "-o", Path(f).parent / "out.json")),
    "apply - view": (lambda v: _position("push-4p-view.json", v), "round",
                     lambda f: ("apply", "-", "draw", "-o", Path(f).parent / "out.json")),
}


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("what, value, words", NUMBER_IN_A_FILE,
                         ids=[row[0] for row in NUMBER_IN_A_FILE])
def test_every_json_reader_refuses_bad_numbers_naming_the_field(reader, what, value, words,
                                                               tmp_path):
    template, field, args = READERS[reader]
    path = tmp_path / "in.json"
    text = _file_with(template, value)
    path.write_text(text)
    argv = args(str(path))
    stdin = text if "-" in argv else None
    res = run(*argv, input=stdin)
    name = "<stdin>" if stdin is not None else str(path)
    expected = [name if w == "FILE" else w for w in words]
    if what not in ("empty", "truncated"):
        expected.append(field)
    assert_input_error(res, *expected)
    assert_no_traceback(res)
    assert path.read_text() == text, "the file read is left as it was"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.json"], "nothing written"


def test_a_foreign_file_is_refused_by_the_readers(tmp_path):
    board = ROOT / "ulm" / "data" / "board.json"
    for args in (("replay", board), ("play", "--resume", board), ("show", board),
                 ("apply", "--list", board)):
        res = assert_input_error(run(*args), str(board))
        assert_no_traceback(res)


def test_a_tournament_folder_with_a_huge_number_is_refused_naming_the_line(tmp_path):
    out = tmp_path / "t"
    base = ["tournament", "--bots", "random", "greedy", "--workers", 1, "--quiet", "--out", out]
    assert run(*base, "--games", 4).exit_code == 0
    games = out / "games.jsonl"
    lines = games.read_text().splitlines()
    lines[0] = lines[0].replace('"seconds": ', f'"seconds": {DIGITS_5000}, "was": ', 1)
    games.write_text("\n".join(lines) + "\n")
    before, settings = games.read_bytes(), (out / "tournament.json").read_bytes()
    res = assert_input_error(run(*base, "--games", 6), f"{games} line 1", "seconds",
                             "a whole number of 5,000 digits")
    assert_no_traceback(res)
    assert games.read_bytes() == before, "the games played are kept as they were"
    assert (out / "tournament.json").read_bytes() == settings, "the settings are not rewritten"


# ---------------------------------------------------------------------------
# seeds: one validator for every command, file and bot spec

# what Python's int() would read but the docs' digits do not write (ulm.numbers' grammar)
NOT_THE_DOCS_DIGITS = [("underscore", "1_000"), ("plus", "+3"), ("spaces", " 3 "),
                       ("tab", "3\t"), ("Arabic-Indic", "\u0663"), ("fullwidth", "\uff13"),
                       ("Devanagari", "\u0969\u0966")]
BAD_SEEDS = [("negative", "-1"), ("2**64", str(2 ** 64)), ("10**40", str(10 ** 40)),
             ("5000-digit", DIGITS_5000), ("NaN", "nan"), ("empty", ""), ("wrong type", "x"),
             ("float", "1.5"), ("expression", "2**64"), ("inf", "inf"), ("minus zero", "-0"),
             ("hexadecimal", "0x10")] + NOT_THE_DOCS_DIGITS


def test_the_seed_validator():
    assert check_seed(0) == 0 and check_seed(MAX_SEED) == MAX_SEED == 2 ** 64 - 1
    assert parse_seed("7") == 7 and parse_seed(str(MAX_SEED), "--seed") == MAX_SEED
    assert parse_seed("007") == 7 and parse_seed(12) == 12
    for bad in (-1, 2 ** 64, 10 ** 5000, 1.5, float("nan"), None, True, "7"):
        with pytest.raises(ValueError, match=r"^seed: must be a whole number from 0 to "
                                             r"2\*\*64 - 1, got "):
            check_seed(bad)
    for _, text in BAD_SEEDS:
        with pytest.raises(ValueError, match=r"^--seed: must be a whole number from 0 to "):
            parse_seed(text, "--seed")
    assert shown(DIGITS_5000) == "'99999999999999999999'... (5,000 characters)"
    assert shown(10 ** 5000) == "a whole number of about 5,001 digits"


def _seed_commands(tmp_path):
    data = tmp_path / "data.npz"
    data.write_bytes(b"")
    position = EXAMPLES / "push-4p-view.json"
    record = EXAMPLES / "record-2p.json"
    out = tmp_path / "out"
    return {
        "new": ["new", "--players", 2, "-o", out],
        "suggest": ["suggest", position, "--iterations", 10, "--quiet"],
        "play": ["play", "--bots", "random,random", "--quiet", "--record", out],
        "tournament": ["tournament", "--bots", "random", "random", "--games", 2, "--workers", 1,
                       "--quiet", "--out", out],
        "ladder": ["ladder", "--low", 2, "--high", 4, "--games", 2, "--workers", 1, "--quiet",
                   "--out", out],
        "tune": ["tune", "--bot", "ismcts:iterations=5", "--param", "c=0.1:1", "--against",
                 "random", "--trials", 1, "--quiet", "--out", out],
        "annotate": ["annotate", record, "--as", "Red", "--iterations", 5, "--quiet"],
        "train selfplay": ["train", "selfplay", "--games", 1, "--out", out],
        "train fit": ["train", "fit", data, "--out", out],
        "train rounds": ["train", "rounds", "--rounds", 1, "--games", 2, "--out", out],
    }


SEED_COMMANDS = ["new", "suggest", "play", "tournament", "ladder", "tune", "annotate",
                 "train selfplay", "train fit", "train rounds"]


@pytest.mark.parametrize("command", SEED_COMMANDS)
@pytest.mark.parametrize("what, text", BAD_SEEDS, ids=[row[0] for row in BAD_SEEDS])
def test_every_seed_option_takes_0_to_2_64_minus_1_only(command, what, text, tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    args = _seed_commands(work)[command]
    res = assert_input_error(run(*args, "--seed", text), "--seed",
                             "must be a whole number from 0 to 2**64 - 1")
    assert_no_traceback(res)
    assert len(res.stderr) < 400, "a long number is not written back whole"
    assert sorted(p.name for p in work.iterdir()) == ["data.npz"], "nothing written"


@pytest.mark.parametrize("script", ["lab.calibrate_eval", "bench.peers.compare"])
@pytest.mark.parametrize("what, text", BAD_SEEDS, ids=[row[0] for row in BAD_SEEDS])
def test_the_bench_scripts_take_the_same_seeds(script, what, text, capsys):
    module = importlib.import_module(script)
    # the smallest run that writes nothing, should a bad seed ever be taken again
    small = {"lab.calibrate_eval": ["--games", "1", "--check"],
             "bench.peers.compare": ["--positions", "1", "--games", "1", "--repeats", "1",
                               "--iteration-games", "1"]}[script]
    with pytest.raises(SystemExit) as info:
        module.main([f"--seed={text}", *small])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "argument --seed: must be a whole number from 0 to 2**64 - 1" in err, err
    assert len(err) < 1000


def test_the_largest_seed_is_taken(tmp_path):
    res = run("new", "--players", 2, "--seed", MAX_SEED)
    assert res.exit_code == 0, res.output
    res = run("play", "--bots", f"random:seed={MAX_SEED},random", "--seed", MAX_SEED,
              "--quiet")
    assert res.exit_code == 0, res.output


# a spec's parts are stripped ("ismcts: seed = 3, c=1"): spaces around a value belong
# to the spec's grammar, not to the number's
SPEC_SEEDS = [row for row in BAD_SEEDS if row[1].strip() == row[1]]


@pytest.mark.parametrize("bot", sorted(BOTS))
@pytest.mark.parametrize("what, text", SPEC_SEEDS, ids=[row[0] for row in SPEC_SEEDS])
def test_every_bot_spec_seed_takes_0_to_2_64_minus_1_only(bot, what, text):
    spec = f"{bot}:seed={text}"
    if text == "":
        with pytest.raises(ValueError, match="write OPTION=VALUE"):
            make_bot(spec)
        return
    with pytest.raises(ValueError, match=r"seed: must be a whole number from 0 to 2\*\*64 - 1"):
        make_bot(spec)


def test_a_bot_spec_seed_is_refused_by_the_commands(tmp_path):
    for spec in ("ismcts:seed=-1", f"random:seed={2 ** 64}"):
        res = assert_input_error(run("play", "--bots", f"{spec},random", "--quiet", "--record",
                                     tmp_path / "r.json"), "--bots", "seed: must be")
        assert_no_traceback(res)
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------------
# the numeric options of the bot specs: bounded and named

def _takes_numbers(parse) -> bool:
    for text in ("0.5", "1", "2"):
        try:
            value = parse(text)
        except ValueError:
            continue
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return False


def _numeric_options():
    """(bot, option) for every option of every bot whose value is a number."""
    return [(name, key) for name, cls in sorted(BOTS.items()) for key in sorted(cls.options)
            if key != "seed" and _takes_numbers(cls.options[key].read)]


BAD_NUMBERS = [("negative", "-2"), ("2**64", str(2 ** 64)), ("10**30", str(10 ** 30)),
               ("5000-digit", DIGITS_5000), ("negative 5000-digit", "-" + DIGITS_5000),
               ("NaN", "nan"), ("inf", "inf"), ("1e308", "1e308"), ("wrong type", "x")]


def test_every_numeric_option_is_in_the_table():
    assert sorted({key for _, key in _numeric_options()}) == [
        "bias", "c", "determinizations", "horizon", "iterations", "margin", "mast", "minimax",
        "time", "workers"]


@pytest.mark.parametrize("bot, option", _numeric_options())
@pytest.mark.parametrize("what, text", BAD_NUMBERS, ids=[row[0] for row in BAD_NUMBERS])
def test_every_numeric_bot_option_is_bounded_and_named(bot, option, what, text):
    with pytest.raises(ValueError) as info:
        make_bot(f"{bot}:{option}={text}")
    message = str(info.value)
    assert f"{bot}: {option}: " in message, message
    assert len(message) < 500, "a long number is not written back whole"


@pytest.mark.parametrize("spec, words", [
    (f"ismcts:horizon={MAX_HORIZON + 1}", ["horizon: must be", "from 0 to 40"]),
    (f"ismcts:horizon={MAX_HORIZON_ROUNDS + 1}r", ["horizon: must be", "from 0r to 10r"]),
    (f"ismcts:horizon={10 ** 30}", ["horizon: must be"]),
    (f"ismcts:horizon={DIGITS_5000}r", ["horizon: must be"]),
    ("ismcts:c=1000.5", ["c: the exploration constant must be a number from 0 to 1000"]),
    ("ismcts:margin=1e308", ["margin: must be a number from 0 to 1000"]),
    ("ismcts:bias=1001", ["bias: must be a number from 0 to 1000"]),
    (f"ismcts:workers={10 ** 30}", ["workers: at most"]),
])
def test_the_bounds_of_the_bot_options(spec, words):
    with pytest.raises(ValueError) as info:
        make_bot(spec)
    for w in words:
        assert w in str(info.value)


def test_a_horizon_beyond_a_game_is_refused_before_the_game_starts(tmp_path):
    record = tmp_path / "r.json"
    res = assert_input_error(run("play", "--bots", f"ismcts:horizon={10 ** 30},random",
                                 "--record", record), "--bots", "horizon: must be")
    assert_no_traceback(res)
    assert "Red to move" not in res.stdout and not record.exists()


def test_the_largest_values_of_the_bot_options_play_a_game():
    spec = (f"ismcts:iterations=20,horizon={MAX_HORIZON},c={MAX_WEIGHT:g},"
            f"margin={MAX_WEIGHT:g},bias={MAX_WEIGHT:g},mast=1,seed={MAX_SEED}")
    assert make_bot(f"ismcts:horizon={MAX_HORIZON_ROUNDS}r").config["horizon"] == "10r"
    res = run("play", "--bots", f"{spec},pimc:iterations=5,determinizations=2", "--quiet")
    assert res.exit_code == 0, res.output
    assert "Winner" in res.stdout or "Shared win" in res.stdout


# ---------------------------------------------------------------------------
# show --highlight


def test_show_highlight_without_a_picture_is_refused(tmp_path):
    position = EXAMPLES / "new-2p.json"
    for names in (["fly"], ["draw"]):
        args = [a for n in names for a in ("--highlight", n)]
        assert_input_error(run("show", position, *args), "--highlight", "--svg or --png")


BAD_HIGHLIGHTS = [("foreign", "fly"), ("empty", ""), ("negative", "-1"), ("NaN", "nan"),
                  ("2**64", str(2 ** 64)), ("5000-digit", DIGITS_5000),
                  ("illegal here", "money"), ("truncated", "push row 2 from")]


@pytest.mark.parametrize("what, name", BAD_HIGHLIGHTS, ids=[row[0] for row in BAD_HIGHLIGHTS])
def test_show_bad_highlight_with_a_picture_writes_nothing(what, name, tmp_path):
    svg = tmp_path / "b.svg"
    res = assert_input_error(run("show", EXAMPLES / "new-2p.json", "--highlight", name,
                                 "--svg", svg), "--highlight")
    assert_no_traceback(res)
    assert not svg.exists()


def test_show_highlight_draws_on_the_picture(tmp_path):
    svg = tmp_path / "b.svg"
    res = run("show", EXAMPLES / "new-2p.json", "--highlight", "draw", "--svg", svg)
    assert res.exit_code == 0, res.output
    assert "1. draw" in svg.read_text() and "class=\"highlight\"" in svg.read_text()


# ---------------------------------------------------------------------------
# workers whose main process is killed end quietly (real processes)

ULM = [sys.executable, "-m", "cli"]
WAIT_SECONDS = 60       # generous bounds of a wait, not speed measurements


def _group_members(pgid: int) -> list[int]:
    """The live processes of a process group (zombies are gone already)."""
    pids = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                stat = Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[2]) == pgid and stat[0] != "Z":
                pids.append(int(d))
    return pids


def _wait_for(condition, what: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():
        assert time.monotonic() < deadline, f"waited {WAIT_SECONDS} s for {what}"
        time.sleep(0.1)


def _kill_main_and_wait(args, tmp_path, ready, processes: int):
    """Start `ulm args` in its own session, wait until `ready()` and `processes`
    processes (the main one included) run, SIGKILL the main process; return the
    stderr of the whole group once every process of it has ended."""
    err_path = tmp_path / "stderr.txt"
    with open(err_path, "wb") as err:
        proc = subprocess.Popen(ULM + [str(a) for a in args], cwd=tmp_path, stderr=err,
                                stdout=subprocess.DEVNULL, start_new_session=True)
    try:
        _wait_for(lambda: len(_group_members(proc.pid)) >= processes and ready(),
                  f"{processes} processes at work")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        _wait_for(lambda: not _group_members(proc.pid), "the workers to end")
    finally:
        for pid in _group_members(proc.pid):     # the test's own processes, by id
            os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return err_path.read_text()


def test_a_killed_tournament_leaves_no_worker_and_no_traceback(tmp_path):
    games = tmp_path / "t" / "games.jsonl"

    def two_games_done():
        return games.exists() and games.read_text().count("\n") >= 2

    err = _kill_main_and_wait(["tournament", "--bots", "greedy", "random", "--games", 2000,
                               "--workers", 2, "--quiet", "--out", "t"], tmp_path,
                              two_games_done, 3)
    assert "Traceback" not in err and "BrokenPipeError" not in err, err


def test_a_killed_play_leaves_no_search_worker_and_no_traceback(tmp_path):
    err = _kill_main_and_wait(["play", "--bots", "ismcts:workers=2,time=30,random", "--quiet"],
                              tmp_path, lambda: True, 3)
    assert "Traceback" not in err and "BrokenPipeError" not in err, err


# ---------------------------------------------------------------------------
# whole numbers as text: one grammar, the docs' digits (ulm.numbers.parse_whole)


def test_the_one_grammar_of_a_whole_number():
    for text, value in (("0", 0), ("7", 7), ("007", 7), ("-12", -12), (str(2 ** 64), 2 ** 64)):
        assert is_whole_text(text) and parse_whole(text, "n") == value
    assert parse_whole(5) == 5, "a default given as a number"
    for _, text in NOT_THE_DOCS_DIGITS + [("empty", ""), ("sign only", "-"), ("float", "1.0"),
                                          ("exponent", "1e3"), ("5000-digit", DIGITS_5000),
                                          ("superscript", "\u00b3"), ("double minus", "--3")]:
        assert not is_whole_text(text) or text == DIGITS_5000
        with pytest.raises(ValueError, match=r"^--games: must be a whole number written with "
                                             r"the digits 0-9, got "):
            parse_whole(text, "--games")
    for bad in (None, 1.0, True, b"3", ["3"]):
        assert not is_whole_text(bad)
        with pytest.raises(ValueError):
            parse_whole(bad)


def _whole_number_params():
    """(command path, parameter) for every whole-number parameter of every command."""
    found = []

    def walk(command, path):
        for param in command.params:
            if isinstance(param.type, click.IntRange) or param.type is click.INT or (
                    isinstance(param.type, OptionType) and param.type.option.parse is whole_text):
                found.append((path, param))
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, path + [name])
    walk(main, [])
    return found


def test_every_whole_number_option_of_every_command_reads_the_docs_digits():
    params = _whole_number_params()
    names = {(" ".join(path), param.name) for path, param in params}
    assert {("new", "players"), ("replay", "at"), ("tournament", "games"),
            ("train fit", "epochs"), ("suggest", "iterations"), ("train selfplay", "games")} <= names
    for path, param in params:
        # a search option's shorthand is read by its declaration (mcts.searcher.params),
        # whose parser holds to the same grammar; the rest are the command line's WholeRange
        assert isinstance(param.type, (WholeRange, OptionType)), (path, param.name)
        words = ("must be a whole number written with the digits 0-9"
                 if isinstance(param.type, WholeRange) else "must be a .*whole number, got")
        for _, text in NOT_THE_DOCS_DIGITS:
            with pytest.raises(click.BadParameter, match=words):
                param.type.convert(text, param, None)


@pytest.mark.parametrize("args", [["new", "--players"], ["replay", "EXAMPLE", "--at"],
                                  ["tournament", "--bots", "random", "greedy", "--games"],
                                  ["train", "fit", "DATA", "--epochs"],
                                  ["suggest", "EXAMPLE", "--iterations"],
                                  ["train", "selfplay", "--games"]])
@pytest.mark.parametrize("what, text", NOT_THE_DOCS_DIGITS,
                         ids=[row[0] for row in NOT_THE_DOCS_DIGITS])
def test_commands_refuse_what_int_alone_would_read(args, what, text, tmp_path):
    args = [str(EXAMPLES / "record-2p.json") if a == "EXAMPLE" and args[0] == "replay"
            else str(EXAMPLES / "push-4p-view.json") if a == "EXAMPLE"
            else str(tmp_path / "d.npz") if a == "DATA" else a for a in args]
    res = run(*args, text)
    assert res.exit_code == 2, res.output
    assert ("must be a whole number written with the digits 0-9" in res.output
            or "--iterations': must be a positive whole number, got" in res.output), res.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("what, text", NOT_THE_DOCS_DIGITS + [("negative", "-1"),
                                                               ("too many digits", "0001")],
                         ids=[row[0] for row in NOT_THE_DOCS_DIGITS] + ["negative", "long"])
def test_a_seat_by_its_number_is_written_in_the_docs_digits(what, text):
    assert parse_seat("1", 2) == 1 and parse_seat(" blue ", 2) == 1
    with pytest.raises(ValueError, match="is not a seat"):
        parse_seat(text, 4)
    res = run("new", "--players", 4, "--as", text)
    assert res.exit_code == 2 and "is not a seat" in res.output, res.output


def test_a_board_tables_river_index_is_written_in_the_docs_digits(tmp_path):
    board = json.loads((ROOT / "ulm" / "data" / "board.json").read_text())
    bonus = board["river"]["bonus"]
    key = next(iter(bonus))
    for written in ("\u0660" * (len(key) - 1) + chr(0x0660 + int(key[-1])), f"+{key}"):
        changed = dict(board, river=dict(board["river"], bonus={
            (written if k == key else k): v for k, v in bonus.items()}))
        with pytest.raises(BoardError, match="not a river index"):
            parse_board(changed, "b.json")


@pytest.mark.parametrize("what, text", NOT_THE_DOCS_DIGITS + [("negative", "-1")],
                         ids=[row[0] for row in NOT_THE_DOCS_DIGITS] + ["negative"])
def test_the_bench_scripts_counts_read_the_docs_digits(what, text, capsys):
    from bench import levels_rating
    assert whole_argument("12") == 12 and seed_argument("12") == 12
    with pytest.raises(SystemExit) as info:
        levels_rating.main(["--games", text]) if text != "-1" else \
            levels_rating.main(["--seed", text])
    assert info.value.code == 2
    assert "must be a whole number" in capsys.readouterr().err


@pytest.mark.parametrize("what, text", [row for row in NOT_THE_DOCS_DIGITS if row[1].strip() == row[1]],
                         ids=[row[0] for row in NOT_THE_DOCS_DIGITS if row[1].strip() == row[1]])
@pytest.mark.parametrize("spec", ["ismcts:iterations={}", "ismcts:workers={}", "ismcts:horizon={}",
                                  "ismcts:horizon={}r", "pimc:determinizations={}"])
def test_a_bot_specs_whole_numbers_are_written_in_the_docs_digits(spec, what, text):
    """A spec's whole numbers follow the one grammar (ulm.numbers) as the command
    line's do: what int() alone would read is refused, naming the option."""
    make_bot(spec.format(3))
    option = spec.split(":")[1].split("=")[0]
    with pytest.raises(ValueError, match=f"{option}: must be"):
        make_bot(spec.format(text))
