"""`ulm serve` in a real browser: Debian's Chromium driven by Playwright.

The server runs in a thread on a free localhost port (uvicorn, the same app as
`ulm serve`); nothing is downloaded: Chromium is /usr/bin/chromium (installed
by .ci/run). Each mode's screenshot is written to serve-*.png in the folder
ULM_SCREENSHOTS names (`ULM_SCREENSHOTS=docs/images` refreshes the pictures of
the docs), or else to the test's own temporary folder, so a test run leaves
the working tree as it was.
"""
from __future__ import annotations

import json
import re
from pathlib import Path



from cli.web.app import create_app

from browser_helpers import EXAMPLES, free_port, served, start_play
from browser_helpers import game_now as _game
from browser_helpers import view_with_a_card_to_play_two_ways as _view_with_a_card_to_play_two_ways
from browser_helpers import wait_for_human as _wait_for_human


def test_play_against_a_bot_push_by_clicking_hint_undo_reload(server, page, shots):
    start_play(page, server, ("human", "greedy"), seed=5)
    g = _wait_for_human(page)
    assert g["mode"] == "play" and g["to_move"] == "Red"
    # draw: the bag on the board, then push a tile by clicking its entry arrow
    page.click("#board .clickable.bag, #board .bag.clickable")
    page.wait_for_selector("#board .entry.clickable")
    before = _game(page)
    assert any(o["name"].startswith("push") for o in before["options"])
    page.click("#board .entry.clickable[data-entry='1']")
    page.wait_for_function("game.history.some(h => h.name.startsWith('push'))")
    g = _game(page)
    assert g["history"][-1]["name"] == "push row 2 from left"
    assert g["history"][-1]["seat"] == "Red"

    # a hint: searched, then drawn on the board and listed
    page.select_option("#hint-seconds", "0.5")
    page.click("#hint")
    page.wait_for_selector("#board svg .highlight", timeout=20000)
    assert "Advice for Red" in page.text_content("#advice")
    assert page.locator("#board svg .highlight").count() == 1
    assert page.locator("#advice table.alts tr").count() >= 2
    page.screenshot(path=str(shots / "serve-play.png"), full_page=True)
    assert (shots / "serve-play.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    # finish the turn from the list; the bot answers, with its indicator meanwhile
    page.click("#decisions button.decision:text-is('end turn')")
    g = _wait_for_human(page)
    assert any(h["seat"] == "Blue" for h in g["history"])
    n = len(g["history"])

    # undo: back to before Red's last decision (the bot's answer goes too)
    page.click("#undo")
    page.wait_for_function(f"game.history.length < {n}")
    g = _game(page)
    assert g["history"][-1]["name"] == "push row 2 from left"
    assert g["to_move"] == "Red"

    # reload: the same game, same history
    url = page.url
    assert "game=" + g["id"] in url
    page.reload()
    page.wait_for_selector("#board svg")
    assert page.evaluate("game.id") == g["id"]
    assert page.evaluate("game.history.length") == len(g["history"])
    # and from the remembered id, without the address
    page.goto(server + "/")
    page.wait_for_selector("#board svg")
    assert page.evaluate("game.id") == g["id"]


def test_a_thinking_bot_is_shown_and_a_long_hint_can_be_cancelled(server, page):
    start_play(page, server, ("ismcts:time=0.4", "human"))
    # Red, a bot, moves first: the indicator says so while it thinks
    page.wait_for_selector("#thinking:not([hidden])")
    assert "Red (ismcts:time=0.4) is thinking" in page.text_content("#thinking")
    assert page.locator("#decisions button.decision").count() == 0
    _wait_for_human(page)
    assert page.locator("#thinking").is_hidden()
    assert page.evaluate("game.viewer") == "Blue"
    # the draw is forced (a hint would not search): draw, then ask about the push
    page.click("#decisions button.decision:text-is('draw')")
    page.wait_for_function("game.history.length > 0 && "
                           "game.history[game.history.length - 1].name === 'draw'")
    _wait_for_human(page)
    # a long hint: progress shown, cancelled, the page usable at once
    page.select_option("#hint-seconds", "10")
    page.click("#hint")
    page.wait_for_selector("#progress:not([hidden])")
    page.click("#cancel")
    page.wait_for_function("document.querySelector('#status').textContent === 'Search cancelled.'")
    assert page.locator("#progress").is_hidden() and page.text_content("#advice") == ""
    page.click("#decisions button.decision >> nth=0")
    page.wait_for_function("game.history.length > 0 && "
                           "game.history[game.history.length - 1].name !== 'draw'")


def test_follow_a_game_for_a_full_round(server, page, shots):
    page.goto(server + "/?mode=follow")
    page.select_option("#form-follow select[name=players]", "2")
    page.select_option("#form-follow select[name=seat]", "Blue")
    page.click("#start-follow")
    page.wait_for_selector("#decisions button.decision")
    # the set-up entered on the board: the grid space being filled is a target whose menu
    # names the colours; a player's tile is picked in that player's supply
    assert page.locator("#board svg text.text-board, #board svg.text-board").count() == 0
    page.click("#board .cell.clickable[data-cell='0']")
    page.click("#menu button:text-is('drew orange')")
    page.wait_for_function("game.history.length === 1")
    assert page.locator("#board .cell[data-cell='0']").get_attribute("data-colour") == "orange"
    for cell in range(1, 9):
        count = page.evaluate("game.history.length")
        page.click(f"#board .cell.clickable[data-cell='{cell}']")
        if page.locator("#menu:not([hidden])").count():    # (one colour left: no menu)
            page.locator("#menu button").first.click()
        page.wait_for_function(f"game.history.length === {count + 1}")
    page.click("#board .supply.clickable[data-seat='Red'][data-colour='white']")
    page.wait_for_function("game.history.length === 10")
    assert page.evaluate("game.history[9].name") == "drew white"
    # a descendant is revealed in the Oath House: the quarter offers them
    page.click("#board .supply.clickable[data-seat='Blue'][data-colour='gray']")
    page.wait_for_function("game.history.length === 11")
    page.click("#board .quarter.clickable[data-quarter='Oath House']")
    assert page.locator("#menu:not([hidden]) button").first.text_content().startswith("revealed ")
    page.locator("#menu button").first.click()
    page.wait_for_function("game.history.length === 12")
    # the rest of the set-up by the buttons: each time the first of the outcomes offered
    setup = []
    while page.evaluate("game.to_move") == "chance":
        count = page.evaluate("game.history.length")
        button = page.locator("#decisions button.decision").first
        setup.append(button.text_content())
        button.click()
        page.wait_for_function(f"game.history.length === {count + 1}")
    assert len(setup) == 3
    assert all(name.startswith(("drew ", "revealed ")) for name in setup)
    assert page.evaluate("game.round") == 1 and page.evaluate("game.to_move") == "Red"

    # round 1 at the table: Red's turn entered, then our own turn (a hint drawn on the way)
    def enter(name):
        count = page.evaluate("game.history.length")
        page.click(f"#decisions button.decision:text-is(\"{name}\")")
        page.wait_for_function(f"game.history.length === {count + 1}")

    # typed in words, as `ulm apply` takes them
    page.fill("#words-text", "draw")
    page.press("#words-text", "Enter")
    page.wait_for_function("game.history.length === 16")
    assert page.evaluate("game.history[15]") == {"seat": "Red", "name": "draw", "index": 15}
    enter(page.locator("#decisions button.decision").first.text_content())
    enter("Red: push row 1 from left")
    enter("Red: money")
    enter("Red: end turn")
    assert page.evaluate("game.to_move") == "Blue"
    enter("draw")
    enter(page.locator("#decisions button.decision").last.text_content())
    # our push by clicking on the board
    count = page.evaluate("game.history.length")
    page.click("#board .entry.clickable[data-entry='6']")
    page.wait_for_function(f"game.history.length === {count + 1}")
    assert page.evaluate("game.history[game.history.length-1].name") == "push column 1 from top"
    page.select_option("#hint-seconds", "0.5")
    page.click("#hint")
    page.wait_for_selector("#board svg .highlight", timeout=20000)
    assert "Advice for Blue" in page.text_content("#advice")
    page.screenshot(path=str(shots / "serve-follow.png"), full_page=True)
    assert (shots / "serve-follow.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    enter("money")
    enter("end turn")
    g = _game(page)
    assert g["round"] == 2 and g["to_move"] == "Red"

    # undo the last entry, then enter it again
    page.click("#undo")
    page.wait_for_function("game.to_move === 'Blue'")
    enter("end turn")

    # save the view; load it again as a new followed game
    with page.expect_download() as dl:
        page.click("#download")
    view = json.loads(Path(dl.value.path()).read_text())
    assert view["kind"] == "view" and view["viewer"] == "Blue" and view["round"] == 2
    page.click("#new-game")
    page.set_input_files("#upload-view", str(Path(dl.value.path())))
    page.wait_for_function("game && game.mode === 'follow' && game.history.length === 0")
    assert page.evaluate("game.round") == 2 and page.evaluate("game.viewer") == "Blue"


def test_a_card_played_by_clicking_asks_how(server, page, tmp_path):
    view, card = _view_with_a_card_to_play_two_ways()
    path = tmp_path / "red.json"
    path.write_text(json.dumps(view))
    page.goto(server + "/?mode=follow")
    page.set_input_files("#upload-view", str(path))
    page.wait_for_selector(f"#board .card.clickable[data-card=\"{card}\"]")
    page.click(f"#board .card.clickable[data-card=\"{card}\"][data-place=hand]")
    menu = page.locator("#menu button")
    assert sorted(menu.all_text_contents()) == [f"lay {card} in front (end-game points)",
                                                f"play {card} (immediate bonus)"]
    page.click(f"#menu button:text-is('lay {card} in front (end-game points)')")
    page.wait_for_function("game.history.length === 1")
    assert page.evaluate("game.history[0].name") == f"lay {card} in front (end-game points)"
    assert page.locator("#menu").is_hidden()


def test_review_a_record_annotate_and_step(server, page, shots):
    record = EXAMPLES / "record-2p.json"
    page.goto(server + "/?mode=review")
    page.set_input_files("#upload-record", str(record))
    page.wait_for_selector("#review-controls:not([hidden])")
    total = page.evaluate("game.total")
    assert total == len(json.loads(record.read_text())["decisions"])
    page.click("#rv-first")
    page.wait_for_function("game.index === 0")
    page.click("#rv-next")
    page.wait_for_function("game.index === 1")
    page.select_option("#an-seat", "Red")
    page.select_option("#an-seconds", "0.2")
    page.click("#annotate")
    page.wait_for_selector("#plot svg circle", timeout=240000)
    dots = page.locator("#plot svg circle").count()
    assert dots == sum(1 for h in page.evaluate("game.history") if h["seat"] == "Red")
    # a click on a move of the plot goes there and shows the advice drawn on the board
    index = page.locator("#plot svg circle").nth(3).get_attribute("data-index")
    page.locator(f"#plot svg rect.hit[data-index='{index}']").click()     # the point's hit area
    page.wait_for_function("game.hint !== null")
    assert page.locator("#board svg .highlight").count() == 1
    assert "Decision" in page.text_content("#advice")
    assert "biggest mistakes" in page.text_content("#annotation-note")
    # a second seat checked: both curves in the graph, each point a link
    page.select_option("#an-seat", "Blue")
    page.click("#annotate")
    page.wait_for_selector("#plot svg circle[data-seat=Blue]", timeout=240000)
    assert page.locator("#plot svg path.curve").count() == 2
    assert page.locator("#plot svg circle[data-seat=Red]").count() == dots
    page.screenshot(path=str(shots / "serve-review.png"), full_page=True)
    assert (shots / "serve-review.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the record goes on in Play from the position shown, Blue a person
    index = page.evaluate("game.index")
    page.select_option("#cont-seat", "Blue")
    page.click("#cont-play")
    page.wait_for_function("game.mode === 'play'")
    assert page.evaluate("game.history.length") >= index
    assert page.evaluate("game.seats.map(s => s.kind)") == ["bot", "human"]


def test_last_move_marked_move_list_looks_back_and_takes_back(server, page, shots):
    start_play(page, server, ("greedy", "human"), seed=7)
    g = _wait_for_human(page)
    # the bot's turn is marked on the board: its push in and out, and what else it did
    red = [h for h in g["history"] if h["seat"] == "Red"]
    assert red and g["to_move"] == "Blue"
    marks = page.locator("#board svg .last-move rect")
    assert marks.count() >= 2
    assert page.locator("#board svg .last-move .last-push").count() == 1
    # the move list says what each seat did, with the chance events after it
    items = page.locator("#history li.h:not(.start)")
    assert items.count() == len(g["history"])
    assert "Red" in items.first.text_content() and "draw" in items.first.text_content()
    assert page.locator("#history .chance").count() >= 1
    page.screenshot(path=str(shots / "serve-last-move.png"), full_page=True)

    # the hint and last-move marks never take a click: draw by the bag, push by an arrow
    page.click("#board .bag.clickable")
    page.wait_for_selector("#board .entry.clickable")
    page.locator("#board .entry.clickable").first.focus()   # and by keyboard
    n = page.evaluate("game.history.length")
    page.keyboard.press("Enter")
    page.wait_for_function(f"game.history.length === {n + 1}")
    assert page.evaluate("game.history[game.history.length - 1].name").startswith("push")
    here = page.evaluate("game.history.length")

    # back through the move list: a click, then the arrow keys
    page.click("#history li.h[data-after='1']")
    # the box is always shown; its text follows once the earlier board has arrived
    page.wait_for_function("looking && looking.index === 1")
    assert "after decision 1 of" in page.text_content("#looking")
    assert page.locator("#board .clickable").count() == 0
    assert page.locator("#history li.current").get_attribute("data-after") == "1"
    page.keyboard.press("ArrowRight")
    page.wait_for_function("looking && looking.index === 2")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("looking && looking.index === 0")
    page.keyboard.press("End")
    page.wait_for_selector("#back-to-game", state="hidden")
    assert page.locator("#board .clickable").count() > 0

    # take back to before Blue's draw: the game goes on from there
    page.click(f"#history li.h[data-after='{here - 2}']")
    page.wait_for_selector("#take-back:not([hidden])")
    page.once("dialog", lambda d: d.accept())
    page.click("#take-back")
    page.wait_for_function(f"game.history.length === {here - 2}")
    assert page.locator("#back-to-game").is_hidden()
    assert _game(page)["to_move"] == "Blue"

    # a variation: another line from an earlier decision, the game's own line kept
    page.click("#decisions button.decision:text-is('draw')")
    page.wait_for_function(f"game.history.length === {here - 1}")
    _wait_for_human(page)
    played = page.evaluate("game.history.length")
    page.click("#try-line")                  # from here (after Blue's draw)
    page.wait_for_selector("#history li.variation")
    pushes = page.locator("#board .entry.clickable")
    assert pushes.count() > 0
    pushes.first.click()
    page.wait_for_function("exploring && exploring.upto === 1")
    assert page.locator("#history li.variation .var-step").count() == 2
    step = page.locator("#history li.variation .var-step[data-upto='1']").text_content()
    assert step.startswith("push") and "A variation from decision" in page.text_content("#looking")
    page.locator("#variation-options button").first.click()
    page.wait_for_function("exploring && exploring.upto === 2")
    page.click("#history li.variation .var-step[data-upto='1']")     # back inside it
    page.wait_for_function("exploring && exploring.upto === 1")
    page.screenshot(path=str(shots / "serve-variation.png"), full_page=True)
    page.click("#back-to-game")                                       # the main line again
    page.wait_for_selector("#back-to-game", state="hidden")
    assert page.evaluate("game.history.length") == played
    assert page.locator("#history li.variation").count() == 1        # kept beside it
    assert page.locator("#board .clickable").count() > 0


def test_a_live_hint_draws_the_best_three_and_ends_on_time(server, page, shots):
    start_play(page, server, ("human", "greedy"), seed=3)
    _wait_for_human(page)
    page.click("#board .bag.clickable")
    page.wait_for_selector("#board .entry.clickable")
    page.select_option("#hint-seconds", "2")
    page.click("#hint")
    # the estimate shows while the search runs, with the visits of every alternative
    page.wait_for_selector("#advice .live", timeout=5000)
    assert page.locator("#advice table.alts tr.alt").count() >= 3
    assert not re.search(r"(^|\s)0 (playouts|iterations)", page.text_content("#status"))
    page.wait_for_function("window.hintArrived !== undefined", timeout=20000)
    took = page.evaluate("(window.hintArrived - window.hintAsked) / 1000")
    print(f"hint of 2 s: the answer on the page {took:.3f} s after the click")
    assert took < 2 + 0.5          # generous here (a busy machine); the docs give a measure
    page.wait_for_selector("#board svg .ranked .rank")
    ranks = page.locator("#board svg .ranked .rank")
    assert [ranks.nth(k).get_attribute("data-rank") for k in range(ranks.count())] == \
        [str(k) for k in range(1, ranks.count() + 1)] and ranks.count() >= 2
    assert page.locator("#board svg .ranked text").first.text_content() == "#1"
    assert "live" not in page.text_content("#advice h3")
    cells = page.locator("#advice table.alts tr.alt").first.locator("td")
    assert cells.nth(2).text_content().replace(",", "").isdigit()       # visits
    page.screenshot(path=str(shots / "serve-hint.png"), full_page=True)
    # the hint's turn, step by step: its first step taken, the rest stays
    g = _game(page)
    line = [s["name"] for s in g["hint"]["principal_line"]]
    if len(line) > 1 and not g["hint"]["principal_line"][0]["chance_after"]:
        page.click(f"#decisions button.decision:text-is(\"{line[0]}\")")
        page.wait_for_function("game.hint && game.hint.step === 2")
        assert [s["name"] for s in _game(page)["hint"]["principal_line"]] == line[1:]
        assert page.locator("#board svg .highlight").count() == 1


def test_a_game_survives_a_server_restart_and_is_listed(page, tmp_path):
    games, port = tmp_path / "games.sqlite", free_port()
    with served(create_app(max_seconds=10, games_file=games), port) as url:
        start_play(page, url, ("human", "greedy"))
        _wait_for_human(page)
        page.click("#decisions button.decision:text-is('draw')")
        page.wait_for_function("game.history.length === 1")
        gid = page.evaluate("game.id")
    with served(create_app(max_seconds=10, games_file=games), port) as url:   # the same port, file
        page.goto(url + "/")                     # the remembered game is opened again
        page.wait_for_function(f"game && game.id === '{gid}'")
        assert page.evaluate("game.history.length") == 1
        page.click("#new-game")                  # kept: nothing to confirm
        page.wait_for_selector("#saved:not([hidden])")
        rows = page.locator("#saved-list li.saved-game")
        assert rows.count() == 1 and rows.first.get_attribute("data-id") == gid
        assert "1 decision ·" in rows.first.text_content()
        rows.first.locator("button").click()
        page.wait_for_function(
            f"game && game.id === '{gid}' && !document.querySelector('#game').hidden")


def test_leaving_an_unfinished_game_asks_first_when_games_are_not_kept(server, page):
    start_play(page, server, ("human", "human"))
    page.wait_for_selector("#decisions button.decision")
    page.click("#decisions button.decision:text-is('draw')")
    page.wait_for_function("game.history.length === 1")
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.click(".tab[data-mode=review]")
    assert asked and "throws it away" in asked[0]
    assert page.locator("#game").is_visible()          # dismissed: the game stays
    page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    page.click("#new-game")
    page.wait_for_selector("#setup:not([hidden])")
    assert len(asked) == 2


# every target on the board, the point in its middle: the element there belongs to it
_TARGETS_FREE = """() => {
  const bad = [];
  for (const el of document.querySelectorAll('#board .clickable')) {
    const r = el.getBoundingClientRect();
    for (const [fx, fy] of [[0.5, 0.5], [0.2, 0.2], [0.8, 0.8]]) {
      const hit = document.elementFromPoint(r.left + fx * r.width, r.top + fy * r.height);
      if (!hit || hit.closest('.clickable') !== el)
        bad.push(`${el.getAttribute('class')} ${el.dataset.actions} at ${fx},${fy}: ` +
                 (hit ? `${hit.tagName}.${hit.getAttribute('class') || ''} in ` +
                        (hit.parentNode.getAttribute('class') || hit.parentNode.tagName)
                      : 'nothing'));
    }
  }
  return bad;
}"""


def test_every_target_of_a_game_is_clicked_with_the_marks_on_the_board(server, page):
    """A game against a bot played by clicking the board wherever a decision has a target
    (by the mouse at the target's own place, and every few by the keyboard), with the last
    turn and a hint drawn: no mark covers any part of a target."""
    import random
    rng = random.Random(5)
    page.set_viewport_size({"width": 1400, "height": 1300})
    start_play(page, server, ("human", "random"), seed=11)
    clicked, kinds = 0, set()
    for step in range(400):
        g = _wait_for_human(page) if not _game(page)["terminal"] else None
        if g is None:
            break
        if step % 25 == 3 and len(g["options"]) > 1:         # a hint on the board now and then
            page.select_option("#hint-seconds", "0.5")
            page.click("#hint")
            page.wait_for_selector("#board svg .highlight", timeout=20000)
        assert page.evaluate(_TARGETS_FREE) == []
        targets = page.locator("#board .clickable")
        n = page.evaluate("game.history.length")
        if targets.count():
            el = targets.nth(rng.randrange(targets.count()))
            kinds.add(el.get_attribute("class").split()[0])
            if step % 5 == 0:
                el.focus()
                page.keyboard.press("Enter")
            else:
                box = el.bounding_box()
                page.mouse.click(box["x"] + box["width"] * rng.uniform(0.15, 0.85),
                                 box["y"] + box["height"] * rng.uniform(0.15, 0.85))
            if page.locator("#menu:not([hidden]) button").count():
                page.locator("#menu button").first.click()
            clicked += 1
        else:
            page.locator("#decisions button.decision").nth(
                rng.randrange(len(g["options"]))).click()
        page.wait_for_function(f"game.history.length > {n} || game.terminal")
    assert _game(page)["terminal"], "the game ends"
    assert clicked > 25 and {"bag", "entry"} <= kinds, (clicked, kinds)
    # the finished game opens in Review, for its graph of the chances and its mistakes
    total = len(_game(page)["history"])
    page.wait_for_selector("#review-this")
    page.click("#review-this")
    page.wait_for_function("game.mode === 'review'")
    assert page.evaluate("game.total") == total and page.evaluate("game.index") == total
    assert page.locator("#an-seat").input_value() == "Red"


def test_a_narrow_window_has_one_column_and_no_sideways_scrolling(server, browser):
    context = browser.new_context(viewport={"width": 420, "height": 900})
    page = context.new_page()
    try:
        page.goto(server + "/?mode=play")
        page.wait_for_selector("#form-play")
        assert page.evaluate("document.documentElement.scrollWidth") <= 420
        page.select_option("#form-play select[name=players]", "2")
        page.fill("#form-play input[name=seat1]", "greedy")
        page.click("#start-play")
        page.wait_for_selector("#board svg")
        assert page.evaluate("document.documentElement.scrollWidth") <= 420
        board = page.locator("#board-wrap").bounding_box()
        panel = page.locator("#panel").bounding_box()
        assert panel["y"] >= board["y"] + board["height"] - 1      # below the board
        assert page.request.get(server + "/favicon.ico").ok
    finally:
        context.close()
