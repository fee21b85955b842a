"""Bot levels (mcts.play.levels): the spec level:N wherever a bot spec is taken,
`ulm play --level N` (also with --human), `ulm bots`, the web's set-up, and
the table of docs/levels.md that rated exactly these specs, each level at
least 100 Elo above the one below."""
from __future__ import annotations

import json
import math
import re

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from cli.main import main
from cli.web.app import create_app
from mcts.play.bots import make_bot
from mcts.play.elo import elo_fit, pair_results
from mcts.play.levels import ANCHORS, HIGHEST, LEVELS, LOWEST, RATINGS, described, level_spec
from web_helpers import error_of
from helpers import ROOT

DOCS = ROOT / "docs"


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


# the bad values of a level, as text: zero, above the top, negative, NaN, huge, empty,
# truncated, foreign digits, text, a level with options
BAD_LEVELS = ["0", str(HIGHEST + 1), "-1", "nan", "9" * 5000, "", " ", "3.", "３", "three",
              "1e1"]


def test_levels_are_numbered_from_the_first_game_to_the_strongest():
    assert [lv.number for lv in LEVELS] == list(range(LOWEST, HIGHEST + 1))
    assert LOWEST == 1 and HIGHEST >= 4
    assert LEVELS[-1].spec == "ismcts:time=0.25"      # the top: the default at 0.25 s


@pytest.mark.parametrize("level", LEVELS, ids=lambda lv: str(lv.number))
def test_the_spec_level_n_is_the_bot_of_that_level(level):
    bot = make_bot(f"level:{level.number}", 2)
    assert bot.spec == make_bot(level.spec, 2).spec
    assert level_spec(f" {level.number} ") == level.spec


def test_levels_below_the_top_search_a_fixed_number_of_iterations():
    """Fewer iterations, the same search: the same decisions on any machine (their
    speed, well under 0.1 s a decision, is measured in docs/levels.md)."""
    budgets = []
    for level in LEVELS[:-1]:
        bot = make_bot(level.spec)
        assert bot.config.get("time") is None and bot.name == "ismcts"
        budgets.append(bot.config["iterations"])
    assert budgets == sorted(set(budgets))


@pytest.mark.parametrize("text", BAD_LEVELS)
def test_a_bad_level_spec_is_refused_with_the_levels_named(text):
    with pytest.raises(ValueError) as err:
        make_bot(f"level:{text}")
    message = str(err.value)
    assert message.startswith("bot spec ") and "level: must be a whole number from 1 to " \
        f"{HIGHEST}" in message
    assert len(message) < 400


@pytest.mark.parametrize("text", ["3,seed=2", "2,time=0.05", "1,"])
def test_a_level_takes_no_options(text):
    """A level is one spec: options are written into that spec, not added to the level."""
    with pytest.raises(ValueError) as err:
        make_bot(f"level:{text}")
    message = str(err.value)
    number = text.split(",")[0]
    assert "level: a level takes no options" in message
    assert f"level:{number} is {level_spec(number)}" in message


def test_a_level_spec_of_the_wrong_type_is_refused():
    for value in (None, 3, 3.0, math.nan):
        with pytest.raises(ValueError):
            make_bot(value)             # a spec is text
    with pytest.raises(ValueError, match="level: must be"):
        make_bot("level")


def test_a_level_plays_a_tournament_under_its_name(tmp_path):
    res = run("tournament", "--bots", "level:1", "greedy", "--games", 2, "--workers", 1,
              "--quiet", "--json")
    assert res.exit_code == 0, res.output
    assert [b["bot"] for b in json.loads(res.stdout)["bots"]] == ["level:1", "greedy"]


# --- ulm play --level ---------------------------------------------------------------------

def test_play_level_fills_every_seat():
    res = run("play", "--level", 1, "--players", 3, "--seed", 2, "--quiet")
    assert res.exit_code == 0, res.output
    assert re.search(r"(Winner|Shared win): .*\(level:1, first game\)", res.stdout), res.stdout


def test_play_human_against_a_level(tmp_path):
    record = tmp_path / "game.json"
    res = run("play", "--human", "Red", "--level", 2, "--players", 3, "--seed", 4,
              "--record", record, input="q\n")
    assert res.exit_code == 0, res.output
    assert json.loads(record.read_text())["bots"] == ["human", "level:2", "level:2"]
    # the seats are introduced with the level's name, as `ulm bots` lists them
    assert "  Blue: level:2, beginner\n  Green: level:2, beginner\n" in res.stdout


def test_a_human_game_with_no_bot_chosen_meets_the_default_level(tmp_path):
    """What a player meets first is a level, by its name: `ulm play --human` with
    neither --bots nor --level seats the default level, as the web's Play does."""
    from mcts.play.levels import DEFAULT_LEVEL, level_of
    record = tmp_path / "game.json"
    res = run("play", "--human", "Red", "--players", 3, "--seed", 4, "--record", record,
              input="q\n")
    assert res.exit_code == 0, res.output
    spec = f"level:{DEFAULT_LEVEL}"
    assert json.loads(record.read_text())["bots"] == ["human", spec, spec]
    assert f"  Blue: {spec}, {level_of(DEFAULT_LEVEL).name}\n" in res.stdout
    client = TestClient(create_app())
    assert client.get("/api/info").json()["default_bot"] == spec


def test_a_seat_is_described_by_its_level_name():
    assert described("level:1") == "level:1, first game"
    assert described(" level : 4 ") == "level:4, strongest"
    for spec in ("greedy", "ismcts:iterations=5", "level:9", "level:", "levels:1"):
        assert described(spec) == spec


@pytest.mark.parametrize("text", [t for t in BAD_LEVELS if t.strip()] + ["", " "])
def test_play_refuses_a_bad_level(text, tmp_path):
    record = tmp_path / "game.json"
    res = run("play", "--level", text, "--record", record)
    assert res.exit_code == 2, res.output
    assert res.output.startswith("Error: --level: must be a whole number from 1 to ")
    assert "Traceback" not in res.output and not record.exists()


def test_play_level_goes_with_neither_bots_nor_resume(tmp_path):
    res = run("play", "--level", 2, "--bots", "greedy,greedy")
    assert res.exit_code == 2 and res.output.startswith("Error: --level: give --bots or --level")
    res = run("play", "--level", 2, "--resume", tmp_path / "none.json")
    assert res.exit_code == 2 and "leave out --level" in res.output


# --- ulm bots -----------------------------------------------------------------------------

def test_bots_lists_the_levels_with_their_ratings():
    res = run("bots")
    assert res.exit_code == 0
    lines = res.stdout.split("Levels (")[1].splitlines()[1:]
    for level, line in zip(LEVELS, lines):
        assert line.split()[0] == str(level.number) and level.spec in line
        for players, table in RATINGS.items():
            rated = table.get(f"level:{level.number}")
            assert (f"{players}p {rated[0]:+d} [{rated[1]:+d}, {rated[2]:+d}]" in line
                    if rated else f"{players}p " not in line)
    listed = json.loads(run("bots", "--json").stdout)["levels"]
    assert [(x["level"], x["spec"]) for x in listed] == [(lv.number, lv.spec) for lv in LEVELS]
    assert all(x["elo"] == {str(n): list(t[f"level:{x['level']}"]) for n, t in RATINGS.items()
                            if f"level:{x['level']}" in t} for x in listed)
    assert listed[0]["elo"]["2"] == list(RATINGS[2]["level:1"])


# --- the rating and its table in the docs --------------------------------------------------

def test_the_levels_are_rated_in_two_players_at_least():
    rated = set(ANCHORS) | {f"level:{lv.number}" for lv in LEVELS}
    assert set(RATINGS[2]) == rated
    for table in RATINGS.values():
        assert set(ANCHORS) <= set(table) <= rated
        assert table["greedy"] == (0, 0, 0)
        for elo, low, high in table.values():
            assert low <= elo <= high


def test_each_level_is_rated_at_least_100_elo_above_the_one_below():
    """In every player count rated (2 and 4 at least), a level's measured Elo
    is 100 or more above the level below it: a step a person notices (the
    stronger wins about 64% of the games between two levels)."""
    assert {2, 4} <= set(RATINGS)
    for players, table in RATINGS.items():
        elos = [table[f"level:{lv.number}"][0] for lv in LEVELS]
        gaps = [high - low for low, high in zip(elos, elos[1:])]
        assert min(gaps) >= 100, (players, gaps)


def test_the_docs_table_is_the_rated_specs_and_ratings():
    """docs/levels.md's table of levels names each level's spec and the Elo of
    RATINGS: the specs rated are the ones played."""
    text = (DOCS / "levels.md").read_text()
    rows = [r for r in text.splitlines() if re.match(r"\| \d+ \| [a-z ]+ \| `", r)]
    assert len(rows) == len(LEVELS)
    for level, row in zip(LEVELS, rows):
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[0] == str(level.number) and cells[1] == level.name
        assert cells[2] == f"`{level.spec}`"
        for players, cell in ((2, cells[3]), (4, cells[4])):
            rated = RATINGS.get(players, {}).get(f"level:{level.number}")
            assert cell == (f"{rated[0]:+d} [{rated[1]:+d}, {rated[2]:+d}]" if rated
                            else "not measured")


def test_elo_fit_of_known_results():
    fit = elo_fit({("a", "b"): (64, 100), ("b", "c"): (64, 100)}, "b")
    assert fit["b"] == 0 and 95 < fit["a"] < 105 and -105 < fit["c"] < -95
    lopsided = elo_fit({("a", "b"): (100, 100)}, "b")      # finite with the prior's draw
    assert 600 < lopsided["a"] < 1500


def test_pair_results_counts_every_two_seats_once():
    rows = [{"bots": ["x", "y", "x"], "ranks": [1.0, 2.0, 2.0], "deal": 0},
            {"bots": ["y", "x"], "ranks": [1.5, 1.5], "deal": 1}]
    assert pair_results(rows) == {("x", "y"): {0: (1.5, 2), 1: (0.5, 1)}}


# --- the web's set-up ------------------------------------------------------------------------

@pytest.fixture
def client():
    with TestClient(headers={"content-type": "application/json"},
                    app=create_app(max_seconds=5, max_upload=200_000),
                    raise_server_exceptions=False) as c:
        yield c


def test_info_sends_the_levels(client):
    levels = client.get("/api/info").json()["levels"]
    assert [(x["level"], x["name"], x["spec"], x["search"]) for x in levels] == \
        [(lv.number, lv.name, f"level:{lv.number}", lv.spec) for lv in LEVELS]


def test_a_web_seat_takes_a_level(client):
    r = client.post("/api/games", json={"mode": "play", "seats": ["human", "level:1"],
                                        "seed": 3})
    assert r.status_code == 201, r.text
    assert r.json()["seats"][1]["spec"] == "level:1"


@pytest.mark.parametrize("text", BAD_LEVELS)
def test_a_web_seat_refuses_a_bad_level(client, text):
    r = client.post("/api/games", json={"mode": "play", "seats": ["human", f"level:{text}"]})
    assert "seats[1]" in error_of(r, 400) and "level: must be" in error_of(r, 400)


def test_the_page_offers_a_level_per_bot_seat_beside_a_free_spec(server, page):  # noqa: F811
    """Play's set-up in a browser: a level chosen writes its spec into the seat, a
    spec typed shows its level (or none), and the game starts with that level."""
    page.goto(server + "/?mode=play")
    page.select_option("#form-play select[name=players]", "3")
    levels = page.eval_on_selector_all("#form-play select[name=level1] option",
                                       "os => os.map(o => o.value)")
    assert levels == [""] + [f"level:{lv.number}" for lv in LEVELS]
    page.select_option("#form-play select[name=level1]", "level:2")
    assert page.input_value("#form-play input[name=seat1]") == "level:2"
    page.fill("#form-play input[name=seat1]", "greedy")
    assert page.input_value("#form-play select[name=level1]") == ""
    page.fill("#form-play input[name=seat2]", "level:1")
    assert page.input_value("#form-play select[name=level2]") == "level:1"
    page.fill("#form-play input[name=seat0]", "human")
    page.select_option("#form-play select[name=level1]", "level:3")
    page.click("#start-play")
    page.wait_for_function("game !== null")
    gid = page.evaluate("game.id")
    seats = page.evaluate(f"fetch('/api/games/{gid}').then(r => r.json())")["seats"]
    assert [s.get("spec") for s in seats] == [None, "level:3", "level:1"]
