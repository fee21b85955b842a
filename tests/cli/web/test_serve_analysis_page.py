"""The web companion's analysis of what is on screen, in Debian's Chromium (Playwright;
the server and browser fixtures of tests/browser_helpers.py): the hint analyses the
board shown (looked back at, or a variation)."""
from __future__ import annotations

import time

import pytest
from browser_helpers import game_now as _game
from browser_helpers import start_play
from browser_helpers import wait_for_human as _wait_for_human
from helpers import EXAMPLES


def _start(page, server, seats, seed):
    page.goto(server + "/?mode=play")
    page.select_option("#form-play select[name=players]", str(len(seats)))
    for k, spec in enumerate(seats):
        page.fill(f"#form-play input[name=seat{k}]", spec)
    page.fill("#form-play input[name=seed]", str(seed))
    page.click("#start-play")
    return _wait_for_human(page)


def _decide_last(page, times):
    for _ in range(times):
        n = page.evaluate("game.history.length")
        page.locator("#decisions button.decision").last.click()
        page.wait_for_function(f"game.history.length > {n}")
        _wait_for_human(page)


def _offered(page, index, line=()):
    """The names of the decisions the viewer has at that point (the server's variation)."""
    gid = page.evaluate("game.id")
    body = {"index": index, "line": list(line)}
    v = page.evaluate("([gid, body]) => fetch(`/api/games/${gid}/variation`, {method: 'POST', "
                      "headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)})"
                      ".then(r => r.json())", [gid, body])
    return {o["name"] for o in v["options"]}


def _advised(page) -> set:
    page.wait_for_selector("#advice table.alts", timeout=20000)
    page.wait_for_selector("#hint:not([disabled])", timeout=20000)
    return {row.locator("td").nth(1).text_content()
            for row in page.locator("#advice tr.alt").all()}


def test_the_hint_analyses_the_board_looked_back_at_and_the_variation(server, page):
    _start(page, server, ["human", "greedy"], 3)
    _decide_last(page, 4)
    now = {o["name"] for o in _game(page)["options"]}
    # looking back at decision 1: the hint is about that board, drawn on it
    page.click("#history li.h[data-after='1']")
    page.wait_for_function("looking && looking.index === 1")
    page.select_option("#hint-seconds", "0.5")
    page.click("#hint")
    then = _offered(page, 1)
    assert then != now
    assert _advised(page) == then
    assert "Advice for Red" in page.text_content("#advice")
    assert page.locator("#board svg .highlight").count() >= 1
    assert page.locator("#board svg g.rank").count() == 3
    assert _game(page)["hint"] is None              # the game now was not analysed
    # another board: that hint is not shown there
    page.keyboard.press("ArrowRight")
    page.wait_for_function("looking && looking.index === 2")
    assert page.text_content("#advice").strip() == ""
    assert page.locator("#board svg .highlight").count() == 0
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("looking && looking.index === 1")
    assert _advised(page) == then                   # kept for its board

    # a variation from there, one decision in: the hint is about the variation
    page.click("#try-line")
    page.wait_for_function("exploring && exploring.upto === 0")
    first = page.locator("#variation-options button").first
    first.click()
    page.wait_for_function("exploring && exploring.upto === 1")
    line = page.evaluate("[exploring.data.line[0]]")
    inside = _offered(page, 1, line)
    assert inside != then
    page.click("#hint")
    page.wait_for_function("document.querySelector('#advice h3') !== null")
    assert _advised(page) == inside
    assert page.locator("#board svg .highlight").count() >= 1
    # the board of the variation with its advice still takes the next decision
    targets = page.locator("#board .clickable:not([aria-label*=' or '])")
    assert targets.count() > 0
    targets.first.click()
    page.wait_for_function("exploring && exploring.upto === 2")
    page.click("#back-to-game")
    page.wait_for_selector("#back-to-game", state="hidden")
    assert page.locator("#board svg .highlight").count() == 0
    assert page.text_content("#advice").strip() == ""


def _targets(page) -> int:
    return page.locator("#board .clickable").count()


def test_another_line_after_a_hint_on_the_same_point_has_its_targets(server, page):
    """A hint on a board looked back at, then "Try another line here" from it: the
    variation's board takes its first decision by a click, as it does without the hint."""
    _start(page, server, ["human", "greedy"], 3)
    _decide_last(page, 4)
    page.click("#history li.h[data-after='2']")
    page.wait_for_function("looking && looking.index === 2")
    page.click("#try-line")
    page.wait_for_function("exploring && exploring.upto === 0")
    without = _targets(page)
    assert without > 0
    page.click("#back-to-game")
    page.wait_for_selector("#back-to-game", state="hidden")
    page.click("#history li.h[data-after='2']")
    page.wait_for_function("looking && looking.index === 2")
    page.select_option("#hint-seconds", "0.5")
    page.click("#hint")
    _advised(page)
    assert page.locator("#board svg g.rank").count() == 3
    page.click("#try-line")
    page.wait_for_function("exploring && exploring.upto === 0")
    assert _targets(page) == without
    page.locator("#board .clickable").first.click()
    if page.locator("#menu:not([hidden]) button").count():
        page.locator("#menu button").first.click()
    page.wait_for_function("exploring && exploring.upto === 1")


def test_no_hint_at_a_bots_decision_looked_back_at(server, page):
    _start(page, server, ["human", "greedy"], 2)
    _decide_last(page, 6)
    g = _game(page)
    blue = next(h["index"] for h in g["history"] if h["seat"] == "Blue")
    page.click(f"#history li.h[data-after='{blue}']")
    page.wait_for_function(f"looking && looking.index === {blue}")
    assert page.locator("#hint").is_disabled()
    page.keyboard.press("End")
    page.wait_for_selector("#back-to-game", state="hidden")
    assert page.locator("#hint").is_enabled()


@pytest.mark.parametrize("players", [3, 4])
def test_every_turn_since_the_persons_is_marked_and_stepped_through(server, page, players):
    from ulm.picture import SEAT_FILL
    others = ["Blue", "Green", "Yellow"][:players - 1]
    _start(page, server, ["human"] + ["greedy"] * (players - 1), 5)
    page.click("#decisions button.decision:text-is('draw')")
    page.wait_for_function("game.history.length === 1")
    # the person's first turn to its end (not on into the next, once the bots are quick)
    while page.evaluate("game.to_move === 'Red' && game.history.every(h => h.seat === 'Red')"):
        n = page.evaluate("game.history.length")
        page.locator("#decisions button.decision").last.click()
        page.wait_for_function(f"game.history.length > {n}")
    g = _wait_for_human(page)
    page.wait_for_function(f"game.history.length === {len(g['history'])}")
    marks = page.locator("#board svg .last-move [data-seat]")
    seats = [m.get_attribute("data-seat") for m in marks.all()]
    assert set(seats) == set(others), seats
    for m in marks.all():
        colour = m.get_attribute("stroke") if m.get_attribute("fill") in (None, "none") \
            else m.get_attribute("fill")
        assert colour == SEAT_FILL[m.get_attribute("data-seat")]
    # said above the board, each entry since marked in the move list, stepped through
    text = page.text_content("#looking")
    assert "Since your last decision" in text and all(s in text for s in others)
    first = next(h["index"] for h in g["history"] if h["seat"] != "Red")
    since = page.locator("#history li.h.since")
    assert since.count() == len(g["history"]) - first
    page.click("#step-since")
    page.wait_for_function(f"looking && looking.index === {first + 1}")
    assert {m.get_attribute("data-seat")
            for m in page.locator("#board svg .last-move [data-seat]").all()} == {"Blue"}
    for k in range(first + 2, len(g["history"]) + 1):
        page.keyboard.press("ArrowRight")
        if k < len(g["history"]):
            page.wait_for_function(f"looking && looking.index === {k}")
    page.wait_for_selector("#back-to-game", state="hidden")
    assert set(m.get_attribute("data-seat")
               for m in page.locator("#board svg .last-move [data-seat]").all()) == set(others)


def test_arrow_keys_move_within_the_variation_and_it_is_offered_only_to_the_person(server,
                                                                                   page):
    _start(page, server, ["human", "greedy"], 2)
    _decide_last(page, 6)
    g = _game(page)
    blue = next(h["index"] for h in g["history"] if h["seat"] == "Blue")
    page.click(f"#history li.h[data-after='{blue}']")          # a bot's decision: no line
    page.wait_for_function(f"looking && looking.index === {blue}")
    assert page.locator("#try-line").is_hidden()
    page.click("#history li.h[data-after='1']")                # the person's: a line
    page.wait_for_function("looking && looking.index === 1")
    page.click("#try-line")
    page.wait_for_function("exploring && exploring.upto === 0")
    for k in (1, 2):
        page.locator("#variation-options button").first.click()
        page.wait_for_function(f"exploring && exploring.upto === {k}")
    page.keyboard.press("ArrowLeft")                           # back along the line
    page.wait_for_function("exploring && exploring.upto === 1")
    page.keyboard.press("ArrowRight")                          # and on again
    page.wait_for_function("exploring && exploring.upto === 2")
    page.keyboard.press("ArrowRight")                          # nothing further in it
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("exploring && exploring.upto === 0")
    assert "A variation from decision 1" in page.text_content("#looking")
    page.keyboard.press("ArrowLeft")                           # from its start: the main line
    page.wait_for_function("exploring === null && looking && looking.index === 0")


def _wait_job(page, job):
    """Until the search job has ended (a bound on a hung search, not a speed check)."""
    deadline = time.monotonic() + 240
    while page.evaluate(f"fetch('/api/jobs/{job['id']}').then(r => r.json())"
                        ".then(j => j.status)") == "running":
        assert time.monotonic() < deadline
        time.sleep(0.1)


def _annotated_review(page, server):
    """The 2-player example record under review with both seats checked (short searches)."""
    record = EXAMPLES / "record-2p.json"
    page.goto(server + "/?mode=review")
    page.set_input_files("#upload-record", str(record))
    page.wait_for_selector("#review-controls:not([hidden])")
    for seat in ("Red", "Blue"):
        job = page.evaluate("""seat => fetch(`/api/games/${game.id}/annotate`, {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({seat, seconds: 0.01})}).then(r => r.json())""", seat)
        _wait_job(page, job)
    page.click("#rv-first")                  # the page shows the game as the server has it
    page.wait_for_function("game.index === 0 && game.annotations.length === 2")
    page.wait_for_selector("#plot svg circle[data-seat=Blue]")


def test_every_point_of_the_graph_has_its_own_hit_area_and_a_click_keeps_the_page(server,
                                                                                  browser):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    _annotated_review(page, server)
    total = page.evaluate("game.total")
    dots = page.evaluate("""[...document.querySelectorAll('#plot svg circle')].map(c => {
        const r = c.getBoundingClientRect();
        return {index: c.dataset.index, x: r.left + r.width / 2, y: r.top + r.height / 2};
      })""")
    assert len(dots) == total
    page.locator("#plot").scroll_into_view_if_needed()
    dots = page.evaluate("""[...document.querySelectorAll('#plot svg circle')].map(c => {
        const r = c.getBoundingClientRect();
        return {index: c.dataset.index, x: r.left + r.width / 2, y: r.top + r.height / 2};
      })""")
    missed = page.evaluate("""dots => dots.filter(d => {
        const el = document.elementFromPoint(d.x, d.y);
        return !el || !el.matches('#plot rect.hit') || el.dataset.index !== d.index;
      }).map(d => d.index)""", dots)
    assert missed == []
    # a click on a point goes there and the page stays where it is
    before = page.evaluate("window.scrollY")
    for d in (dots[40], dots[5], dots[-1]):
        page.mouse.click(d["x"], d["y"])
        page.wait_for_function(f"game.index === {d['index']}")
        assert page.evaluate("window.scrollY") == before
    context.close()


def test_errors_are_said_in_the_pages_words_and_a_stale_one_goes(server, browser):
    context = browser.new_context(viewport={"width": 1600, "height": 1000})
    page = context.new_page()
    start_play(page, server, ("human", "alphago"))
    page.wait_for_selector("#status.error")
    said = page.text_content("#status")
    assert said.startswith("Blue: bot spec 'alphago'") and "seats[" not in said
    # a decision refused because the game moved on in another tab: said, and gone once
    # the game moves on again (the bot's answer), with nothing done in this tab
    page.fill("#form-play input[name=seat1]", "ismcts:time=1")
    page.fill("#form-play input[name=seed]", "5")
    page.click("#start-play")
    _wait_for_human(page)
    page.click("#board .bag.clickable")
    page.wait_for_selector("#board .entry.clickable")
    page.click("#board .entry.clickable[data-entry='1']")
    page.wait_for_selector("#decisions button.decision:text-is('end turn')")
    other = context.new_page()
    other.goto(page.url)
    other.click("#decisions button.decision:text-is('end turn')")
    other.wait_for_function("game.to_move === 'Blue'")
    page.click("#decisions button.decision:text-is('end turn')")   # this tab still offers it
    page.wait_for_selector("#status.error")
    assert "no decision is open to you now" in page.text_content("#status")
    page.wait_for_function("game.history.some(h => h.seat === 'Blue')", timeout=60000)
    page.wait_for_function("!document.querySelector('#status').classList.contains('error')")
    context.close()


def test_the_persons_chances_under_the_board_when_they_want_them(server, page):
    _start(page, server, ["human", "greedy"], 3)
    assert page.locator("#chances-plot svg").count() == 0           # off until asked
    page.check("#chances-on")
    page.wait_for_function("game.chances && game.chances.length === 1", timeout=20000)
    page.wait_for_selector("#chances-plot svg circle.chance-pt")
    assert "Red's chance of winning now" in page.text_content("#chances")
    assert _game(page)["hint"] is None                              # no advice drawn
    _decide_last(page, 1)
    page.wait_for_function("game.chances && game.chances.length === 2", timeout=20000)
    assert page.locator("#chances-plot svg circle.chance-pt").count() == 2
    page.reload()                                                   # the choice is kept
    page.wait_for_selector("#chances-plot svg circle.chance-pt")
    page.uncheck("#chances-on")
    assert page.locator("#chances-plot svg").count() == 0
