"""`ulm serve` on a phone: Chromium with a phone's viewport (390×844 CSS px, device
scale 3, touch), driven by taps alone (Playwright, as tests/cli/web/test_serve_browser.py).

The page shows the part of the board where the decision is made, zoomed: every
target of the decision shown is at least 40×40 CSS px, every word shown at least
9 px (its font size times the picture's scale, measured in the page), and the
decision buttons are on the first screen. The screenshots go where
tests/cli/web/test_serve_browser.py puts its own (ULM_SCREENSHOTS=docs/images refreshes
the docs' pictures)."""
from __future__ import annotations

import json

import pytest

from browser_helpers import EXAMPLES, start_play
from browser_helpers import view_with_a_card_to_play_two_ways as _view_with_a_card_to_play_two_ways

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3,
         "is_mobile": True, "has_touch": True}

# what is shown of the board: the targets and the words inside the picture's window
# (the part zoomed), each word's size its font size times the picture's scale there
MEASURE = """(buttons) => {
  const svg = document.querySelector('#board svg');
  const area = svg.getBoundingClientRect();
  const inside = (r) => r.width > 0 && r.right > area.left && r.left < area.right
    && r.bottom > area.top && r.top < area.bottom;
  const targets = [...svg.querySelectorAll('.clickable')]
    .map((t) => [t.getAttribute('data-actions'), t.getBoundingClientRect()])
    .filter(([, r]) => inside(r)).map(([a, r]) => [a, r.width, r.height]);
  const words = [...svg.querySelectorAll('text')].filter((t) => inside(t.getBoundingClientRect()))
    .map((t) => { const m = t.getScreenCTM();
      return [t.textContent, parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b)]; });
  window.scrollTo(0, 0);
  const first = document.querySelector(buttons);
  const board = document.querySelector('#board');
  return {part: svg.dataset.part, targets, words, offered: svg.querySelectorAll('.clickable').length,
          frame: [board.clientHeight, parseFloat(getComputedStyle(board).maxHeight)],
          buttonBottom: first ? first.getBoundingClientRect().bottom : null,
          screen: window.innerHeight, pageWidth: document.documentElement.scrollWidth};
}"""


@pytest.fixture
def phone(browser):  # noqa: F811
    context = browser.new_context(**PHONE)
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def _shown(page, picked=False, buttons="#decisions button.decision") -> dict:
    """The board's part shown, measured: its targets a thumb's size, its words readable,
    the first of the `buttons` on the first screen, nothing wider than the phone; unless
    the part was `picked` on the bar, it holds targets of the decision."""
    m = page.evaluate(MEASURE, buttons)
    small = [t for t in m["targets"] if t[1] < 40 or t[2] < 40]
    assert not small, f"targets under 40×40 px in {m['part']}: {small}"
    tiny = [w for w in m["words"] if w[1] < 9]
    assert not tiny, f"words under 9 px in {m['part']}: {tiny[:5]}"
    assert m["words"], f"the part shown ({m['part']}) has words"
    if m["offered"] and not picked:
        assert m["targets"], f"the part shown ({m['part']}) holds none of the decision's targets"
    assert m["buttonBottom"] is not None and m["buttonBottom"] <= m["screen"], m
    assert m["pageWidth"] <= 390, "the page itself does not scroll sideways"
    return m


def _tap_and_wait(page, selector, at_edge=False):
    """Tap `selector` (`at_edge`: near the right edge of its part on the screen, where a
    menu opened would go off it), its menu's first choice if it opens one; one decision
    more is entered."""
    count = page.evaluate("game.history.length")
    if at_edge:
        target = page.locator(selector)
        target.scroll_into_view_if_needed()
        box = target.bounding_box()
        page.touchscreen.tap(min(box["x"] + box["width"] - 4, 386), box["y"] + box["height"] / 2)
    else:
        page.tap(selector)
    if page.locator("#menu:not([hidden])").count():      # a place that offers several
        _whole_on_the_screen(page.locator("#menu button"))
        page.tap("#menu button >> nth=0")
    page.wait_for_function(f"game.history.length === {count + 1}")


def _whole_on_the_screen(buttons):
    """Each of a menu's choices a thumb's height, whole within the phone's width."""
    for k in range(buttons.count()):
        box = buttons.nth(k).bounding_box()
        assert box["height"] >= 40 and box["x"] >= 0 and box["x"] + box["width"] <= 390, box


def _tap_button(page, name=None, last=False):
    which = f":text-is(\"{name}\")" if name else (" >> nth=-1" if last else " >> nth=0")
    _tap_and_wait(page, f"#decisions button.decision{which}")


def test_a_whole_round_of_follow_entered_by_touch_at_phone_size(server, phone, shots):  # noqa: F811
    page = phone
    page.goto(server + "/?mode=follow")
    page.select_option("#form-follow select[name=players]", "2")
    page.select_option("#form-follow select[name=seat]", "Blue")
    page.tap("#start-follow")
    page.wait_for_selector("#decisions button.decision")
    # the set-up on the board: each grid space, zoomed to the grid, its colour from a menu
    for cell in range(9):
        m = _shown(page)
        assert m["part"] == "grid" and len(m["targets"]) == 1
        assert m["frame"][0] >= m["frame"][1] - 1, "the grid, taller, fills the board's frame"
        if cell == 0:
            page.screenshot(path=str(shots / "serve-phone-setup.png"), scale="css")
            assert (shots / "serve-phone-setup.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        _tap_and_wait(page, f"#board .cell.clickable[data-cell='{cell}']", at_edge=True)
    # a player's tile in that player's supply: the seats' areas come first
    assert _shown(page)["part"] == "seats"
    _tap_and_wait(page, "#board .supply.clickable[data-seat='Red'][data-colour='white']")
    _tap_and_wait(page, "#board .supply.clickable[data-seat='Blue'][data-colour='gray']")
    # the descendant revealed in the Oath House: the quarters
    assert _shown(page)["part"] == "quarters"
    _tap_and_wait(page, "#board .quarter.clickable[data-quarter='Oath House']")
    while page.evaluate("game.to_move") == "chance":    # the rest of the set-up: buttons
        _shown(page)
        _tap_button(page)
    assert page.evaluate("game.round") == 1

    # round 1: each seat draws from the bag (the docks), pushes at an arrow (the grid),
    # takes money and ends the turn (buttons); the tile drawn is a button too
    for seat in ("Red", "Blue"):
        assert page.evaluate("game.to_move") == seat
        assert _shown(page)["part"] == "docks"
        _tap_and_wait(page, "#board .bag.clickable")
        _shown(page)
        _tap_button(page)                               # what was drawn
        m = _shown(page)
        pushes = page.locator("#board .entry.clickable").count()
        assert m["part"] == "grid" and len(m["targets"]) == pushes >= 10, (seat, m)
        if seat == "Blue":
            page.screenshot(path=str(shots / "serve-phone-push.png"), scale="css")
            assert (shots / "serve-phone-push.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        entry, push = {"Red": (0, "push row 1 from left"), "Blue": (6, "push column 1 from top")}[seat]
        _tap_and_wait(page, f"#board .entry.clickable[data-entry='{entry}']")
        assert page.evaluate("game.history[game.history.length - 1].name") == push
        prefix = "Red: " if seat == "Red" else ""
        _shown(page)
        _tap_button(page, prefix + "money")
        _tap_button(page, prefix + "end turn")
    g = page.evaluate("game")
    assert g["round"] == 2 and g["to_move"] == "Red"
    movers = [h["seat"] for h in g["history"] if h["seat"] != "chance"]
    assert set(movers) == {"Red", "Blue"}


def test_every_part_is_a_tap_away_and_readable(server, phone, shots):  # noqa: F811
    page = phone
    page.goto(server + "/?mode=play")
    page.select_option("#form-play select[name=players]", "3")
    for k, spec in enumerate(("human", "greedy", "greedy")):
        page.fill(f"#form-play input[name=seat{k}]", spec)
    page.fill("#form-play input[name=seed]", "5")
    page.tap("#start-play")
    page.wait_for_selector("#board .bag.clickable")
    page.tap("#board .bag.clickable")
    page.wait_for_selector("#board .entry.clickable")
    bar = page.locator("#parts button")
    assert bar.all_text_contents() == ["Grid 12", "Docks 4", "River", "Quarters", "Seats"]
    for name in ("docks", "river", "quarters", "seats", "grid"):
        page.tap(f"#parts button[data-part={name}]")
        page.wait_for_function(f"document.querySelector('#board svg').dataset.part === '{name}'")
        assert page.get_attribute(f"#parts button[data-part={name}]", "aria-pressed") == "true"
        m = _shown(page, picked=True)
        if name == "seats":
            page.screenshot(path=str(shots / "serve-phone-seats.png"), scale="css")
            assert (shots / "serve-phone-seats.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
            assert any(w[0].startswith("Red") for w in m["words"])
            # the person's own area (Red's) opens in the board's window
            red = page.locator("#board .player[data-seat=Red]").bounding_box()
            frame = page.locator("#board").bounding_box()
            assert frame["x"] - 1 <= red["x"] < frame["x"] + frame["width"], (red, frame)
    box = page.locator("#chances label").bounding_box()         # Play's switch under the board
    assert box["height"] >= 40 and box["x"] + box["width"] <= 390, box
    # the seats' summary and the move list are folded, a tap opens them
    assert not page.evaluate("document.querySelector('#seats-fold').open")
    assert page.locator("#summary").is_hidden() and page.locator("#history").is_hidden()
    page.tap("#moves-fold > summary")
    assert page.locator("#history").is_visible()
    # the part picked is kept until the decision is taken; the next decision's part, the
    # one with the most targets, comes first then
    page.tap("#parts button[data-part=river]")
    page.tap("#decisions button.decision:text-is('push row 2 from left')")
    page.wait_for_function("game.history.some(h => h.name.startsWith('push'))")
    page.wait_for_selector("#board .clickable")
    counts = {b.get_attribute("data-part"): int((b.text_content().split() + ["0"])[1])
              for b in bar.all()}
    pressed = page.get_attribute("#parts button[aria-pressed=true]", "data-part")
    assert counts[pressed] == max(counts.values()) > 0, (pressed, counts)


def test_a_card_in_hand_is_a_thumb_s_size_and_its_menu_on_the_screen(server, phone, tmp_path):  # noqa: F811
    view, card = _view_with_a_card_to_play_two_ways()
    path = tmp_path / "red.json"
    path.write_text(json.dumps(view))
    page = phone
    page.goto(server + "/?mode=follow")
    page.wait_for_function("document.querySelector('#upload-view').onchange !== null")  # wired
    page.set_input_files("#upload-view", str(path))
    hand = f"#board .card.clickable[data-card=\"{card}\"][data-place=hand]"
    page.wait_for_selector(hand)
    _shown(page)
    page.tap("#parts button[data-part=seats]")
    m = _shown(page, picked=True)
    assert page.get_attribute(hand, "data-actions") in [t[0] for t in m["targets"]]
    # the card at the right edge of the board's window, tapped there: its menu stays on
    # the screen
    page.evaluate("""(sel) => { const board = document.querySelector('#board');
      const card = document.querySelector(sel).getBoundingClientRect();
      board.scrollLeft += card.right - board.getBoundingClientRect().right + 2; }""", hand)
    box = page.locator(hand).bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] - 6, box["y"] + box["height"] / 2)
    menu = page.locator("#menu button")
    assert sorted(menu.all_text_contents()) == [f"lay {card} in front (end-game points)",
                                                f"play {card} (immediate bonus)"]
    _whole_on_the_screen(menu)
    page.tap(f"#menu button:text-is('lay {card} in front (end-game points)')")
    page.wait_for_function("game.history.length === 1")
    assert page.evaluate("game.history[0].name") == f"lay {card} in front (end-game points)"


def test_a_hint_on_a_phone_is_drawn_readable_in_the_part_shown(server, phone):  # noqa: F811
    page = phone
    page.goto(server + "/?mode=play")
    page.select_option("#form-play select[name=players]", "2")
    page.fill("#form-play input[name=seat0]", "human")
    page.fill("#form-play input[name=seat1]", "greedy")
    page.fill("#form-play input[name=seed]", "3")
    page.tap("#start-play")
    page.wait_for_selector("#board .bag.clickable")
    page.tap("#board .bag.clickable")
    page.wait_for_selector("#board .entry.clickable")
    page.select_option("#hint-seconds", "0.5")
    page.tap("#hint")
    page.wait_for_selector("#board svg .ranked .rank", timeout=20000)
    m = _shown(page)
    # the part shown is the one of the best decision, its mark "#1" in the board's window
    best = page.locator("#board .ranked .rank[data-rank='1']").bounding_box()
    frame = page.locator("#board").bounding_box()
    assert frame["x"] <= best["x"] + best["width"] / 2 <= frame["x"] + frame["width"], (best, m)
    assert frame["y"] <= best["y"] + best["height"] / 2 <= frame["y"] + frame["height"], (best, m)
    assert page.locator("#advice table.alts tr").count() >= 2


def test_a_review_steps_by_touch_at_phone_size(server, phone):  # noqa: F811
    page = phone
    page.goto(server + "/?mode=review")
    page.wait_for_function("document.querySelector('#upload-record').onchange !== null")  # wired
    page.set_input_files("#upload-record", str(EXAMPLES / "record-2p.json"))
    page.wait_for_selector("#review-controls:not([hidden])")
    page.tap("#rv-first")
    page.wait_for_function("game.index === 0")
    for step in range(1, 4):
        page.tap("#rv-next")
        page.wait_for_function(f"game.index === {step}")
        m = _shown(page, buttons="#rv-next")
        assert m["offered"] == 0 and m["part"] == "grid"
    for sel in ("#rv-first", "#rv-prev", "#rv-next", "#rv-last"):
        box = page.locator(sel).bounding_box()
        assert box["width"] >= 40 and box["height"] >= 40, (sel, box)
    page.tap("#parts button[data-part=river]")
    _shown(page, picked=True, buttons="#rv-next")


def test_a_wide_window_shows_the_whole_board_as_before(server, browser):  # noqa: F811
    context = browser.new_context(viewport={"width": 1600, "height": 1000})
    page = context.new_page()
    start_play(page, server, ("human", "greedy"))
    page.wait_for_selector("#board .bag.clickable")
    whole = page.evaluate("document.querySelector('#board svg').viewBox.baseVal.width")
    assert whole == 1300 and page.locator("#parts").is_hidden()
    assert page.locator("#summary").is_visible() and page.locator("#history").is_visible()
    assert page.locator("details.fold > summary").first.is_hidden()
    # narrowed to a phone's width, the board zooms; widened again, it is whole
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function("document.querySelector('#board svg').dataset.part === 'docks'")
    page.set_viewport_size({"width": 1600, "height": 1000})
    page.wait_for_function("!document.querySelector('#board svg').dataset.part")
    assert page.evaluate("document.querySelector('#board svg').viewBox.baseVal.width") == 1300
    assert page.locator("#history").is_visible()
    context.close()


def test_the_board_drawn_again_while_a_bot_thinks_keeps_the_place_looked_at(server, phone):  # noqa: F811
    page = phone
    page.goto(server + "/?mode=play")
    page.select_option("#form-play select[name=players]", "2")
    page.fill("#form-play input[name=seat0]", "ismcts:time=4")
    page.fill("#form-play input[name=seat1]", "human")
    page.tap("#start-play")
    # (the last test here: the module's server, stopped after it, stops the bot)
    # Red drew, and thinks about its push: the board the same at every asking
    page.wait_for_function("game && game.thinking && game.history.length === 2")
    page.evaluate("window.before = document.querySelector('#board svg')")
    page.wait_for_function("document.querySelector('#board svg') !== window.before")
    assert page.get_attribute("#board svg", "data-part") == "grid"
    # opened on the grid's middle (no seat's area in it), swiped to its right edge; the
    # board is asked for again and drawn the same
    place = page.evaluate("""() => { const board = document.querySelector('#board');
      const middle = (board.scrollWidth - board.clientWidth) / 2;
      const opened = board.scrollLeft; board.scrollLeft = board.scrollWidth;
      window.before = board.querySelector('svg');
      return [opened, middle, board.scrollLeft]; }""")
    assert abs(place[0] - place[1]) <= 1 and place[2] > place[0] + 20, place
    place = place[2]
    page.wait_for_function("document.querySelector('#board svg') !== window.before")
    assert page.evaluate("game.thinking !== null"), "drawn again while the bot thinks"
    assert page.evaluate("document.querySelector('#board').scrollLeft") == place
