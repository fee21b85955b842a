"""Numbers wherever people give them.

Every reader of JSON (positions, views, records, tournament folders) refuses a
number with thousands of digits naming the file and the field. Bad input ends
with `Error: <where>: <what>`, exit status 2, no traceback and nothing written.
"""
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from helpers import assert_input_error
from ulm.jsonfile import MAX_DIGITS, loads

ROOT = Path(__file__).resolve().parent.parent
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
    before = games.read_bytes()
    res = assert_input_error(run(*base, "--games", 6), f"{games} line 1", "seconds",
                             "a whole number of 5,000 digits")
    assert_no_traceback(res)
    assert games.read_bytes() == before, "the games played are kept as they were"
