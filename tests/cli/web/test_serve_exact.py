"""Exact numbers on the page of `ulm serve`, in a real browser (Chromium): a seed
beyond 2**53 (a JavaScript number rounds 11499085339751308595 to
11499085339751310000, which deals another game) reaches the page and comes back
exactly, so a game with a secret deal is reviewed ("Review this game", and its
saved record uploaded in Review), as is a finished `ulm play --human` record."""
from __future__ import annotations

import json

from click.testing import CliRunner

from browser_helpers import browser, page, server, start_play, wait_for_human  # noqa: F401

SECRET = 11499085339751308595       # the dealer's secret seed, drawn by secrets.randbits(64)


def _server_json(page, path: str) -> dict:  # noqa: F811
    """The server's answer parsed by Python (the browser's own parse would round)."""
    return json.loads(page.evaluate(f"fetch('{path}').then(r => r.text())"))


def _play_to_the_end(page) -> dict:  # noqa: F811
    for _ in range(500):
        g = _server_json(page, f"/api/games/{page.evaluate('game.id')}")
        if g["terminal"]:
            return g
        g = wait_for_human(page)
        n = len(g["history"])
        page.locator("#decisions button.decision").first.click()
        page.wait_for_function(f"game.history.length > {n} || game.terminal")
    raise AssertionError("the game does not end")


def _reviewed(page, total: int) -> None:  # noqa: F811
    page.wait_for_function("game !== null && game.mode === 'review'")
    assert page.evaluate("game.total") == total
    assert page.locator("#status.error").count() == 0, \
        page.text_content("#status")
    record = _server_json(page, f"/api/games/{page.evaluate('game.id')}/download")
    assert record["seed"] == SECRET


def test_a_secret_deal_played_to_its_end_is_reviewed_both_ways(server, page, monkeypatch,  # noqa: F811
                                                               tmp_path):
    monkeypatch.setattr("mcts.play.session.secrets.randbits", lambda bits: SECRET)
    start_play(page, server, ("human", "random"))       # no seed: the dealer's secret
    page.wait_for_function("game !== null")
    assert page.evaluate("game.seed") is None
    g = _play_to_the_end(page)
    assert g["seed"] == SECRET and not g["seed_chosen"]
    # the seed named at the end is the one dealt, to its last digit
    page.wait_for_function("game.terminal")
    assert str(SECRET) in page.text_content("#deal-note")
    total = len(g["history"])

    with page.expect_download() as dl:
        page.click("#download")
    saved = tmp_path / "secret.json"
    dl.value.save_as(saved)
    assert json.loads(saved.read_text())["seed"] == SECRET

    page.wait_for_selector("#review-this")
    page.click("#review-this")
    _reviewed(page, total)

    page.goto(server + "/?mode=review")
    page.set_input_files("#upload-record", str(saved))
    _reviewed(page, total)


def test_a_finished_terminal_game_with_a_secret_deal_is_reviewed(server, page, monkeypatch,  # noqa: F811
                                                                 tmp_path):
    from cli.main import main
    monkeypatch.setattr("mcts.play.session.secrets.randbits", lambda bits: SECRET)
    record = tmp_path / "terminal.json"
    out = CliRunner().invoke(main, ["play", "--human", "Red", "--bots", "random",
                                    "--record", str(record)], input="1\n" * 500)
    assert out.exit_code == 0, out.output
    data = json.loads(record.read_text())
    assert data["seed"] == SECRET and "result" in data
    page.goto(server + "/?mode=review")
    page.set_input_files("#upload-record", str(record))
    _reviewed(page, len(data["decisions"]))


def test_the_pages_json_keeps_every_whole_number_exact(server, page):  # noqa: F811
    """parseJSON and toJSON (api.js), which every answer and request of the page goes
    through: whole numbers beyond 2**53 come back as they came, in any place; other
    numbers and strings holding digits are untouched."""
    page.goto(server)
    page.wait_for_selector("#form-play")
    text = json.dumps({"seed": SECRET, "ids": [2 ** 53, 2 ** 53 + 1, -(2 ** 63), 2 ** 64 - 1],
                       "small": [0, -1, 2 ** 53 - 1, 1.5, -2.25e-7, 1e300],
                       "words": f"seed {SECRET} \" {2 ** 60}", "nested": {"k": [[SECRET]]}})
    back = page.evaluate("""async (text) => {
        const api = await import('/static/api.js');
        const data = api.parseJSON(text);
        return [api.toJSON(data), String(data.seed),
                api.toJSON({seed: api.wholeNumber(' 18446744073709551615 ')}),
                api.toJSON({seed: api.wholeNumber('12')}), api.toJSON({seed: api.wholeNumber('1e3')})];
    }""", text)
    assert json.loads(back[0]) == json.loads(text)
    assert back[1] == str(SECRET)
    assert back[2:] == ['{"seed":18446744073709551615}', '{"seed":12}', '{"seed":"1e3"}']


def test_a_seed_typed_beyond_2_53_deals_that_seed(server, page):  # noqa: F811
    start_play(page, server, ("human", "random"), seed=str(SECRET))
    page.wait_for_function("game !== null")
    g = _server_json(page, f"/api/games/{page.evaluate('game.id')}")
    assert g["seed"] == SECRET and g["seed_chosen"]
    assert str(SECRET) in page.text_content("#deal-note")



def test_a_bot_seat_is_first_a_level_with_its_name(server, page):  # noqa: F811
    """A newcomer meets the levels first: every bot seat of the set-up starts at a
    level named in a list before the spec, and the game names the level."""
    info = json.loads(page.request.get(server + "/api/info").text())
    assert info["default_bot"] == "level:3"
    assert [lv["spec"] for lv in info["levels"]] == [e for e in info["examples"]
                                                      if e.startswith("level:")]
    page.goto(server + "/?mode=play")
    page.select_option("#form-play select[name=players]", "3")
    for p in (1, 2):
        row = page.locator("#seat-rows .seat-row").nth(p)
        assert row.locator("input").input_value() == "level:3"
        assert row.locator("select option:checked").text_content() == "Level 3: club"
        # the level comes before the spec typed
        assert row.evaluate("r => r.querySelector('select').compareDocumentPosition("
                            "r.querySelector('input')) & Node.DOCUMENT_POSITION_FOLLOWING")
    page.locator("#seat-rows .seat-row").nth(2).locator("select").select_option("level:1")
    assert page.locator("#form-play input[name=seat2]").input_value() == "level:1"
    page.click("#start-play")
    page.wait_for_function("game !== null")
    seats = page.locator("#summary .seat .who").all_text_contents()
    assert seats == ["you", "Level 3: club", "Level 1: first game"], seats
