"""`ulm serve` at a phone's size (390×844, touch) and a laptop's (1366×768), in
Chromium: everything a player needs is on the screen without a sideways swipe or a
hover (the advice's points, the hint's best decision, the grid's labels, the docks,
the review graph's points and words), and nothing says what it does not mean."""
from __future__ import annotations

import time

from browser_helpers import EXAMPLES, browser, server, start_play, wait_for_human  # noqa: F401

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3,
         "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}


def _page(browser, kind):  # noqa: F811
    context = browser.new_context(**kind)
    page = context.new_page()
    errors: list = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, errors


def _hint(page):
    page.select_option("#hint-seconds", "0.5")
    page.locator("#hint").click()
    page.wait_for_selector("#advice table.alts", timeout=20000)
    page.wait_for_selector("#hint:not([disabled])", timeout=20000)
    page.wait_for_selector("#advice h3:not(:has(.live))", timeout=20000)


FITS = """() => {
  const advice = document.querySelector('#advice'), table = advice.querySelector('table.alts');
  const card = advice.getBoundingClientRect();
  const points = [...table.querySelectorAll('td.points, th:last-child')]
    .map((c) => c.getBoundingClientRect());
  return {page: document.documentElement.scrollWidth, screen: innerWidth,
          table: table.scrollWidth, card: advice.clientWidth, cardRight: card.right,
          pointsRight: Math.max(...points.map((r) => r.right))};
}"""


def test_the_advice_table_fits_a_phone_and_a_laptop(server, browser):  # noqa: F811
    for kind in (PHONE, LAPTOP):
        context, page, errors = _page(browser, kind)
        start_play(page, server, ("human", "greedy"), seed=5)
        wait_for_human(page)
        _hint(page)
        m = page.evaluate(FITS)
        assert m["page"] <= m["screen"], (kind, m)          # the page does not scroll sideways
        assert m["table"] <= m["card"], (kind, m)           # nor the table in its card
        assert m["pointsRight"] <= m["cardRight"] + 0.5, (kind, m)   # the points are seen
        context.close()
        assert not errors


def test_the_hints_best_decision_is_in_sight_on_a_phone(server, browser):  # noqa: F811
    context, page, errors = _page(browser, PHONE)
    start_play(page, server, ("human", "random"), seed=8)
    seen = 0
    for _ in range(12):
        g = wait_for_human(page)
        if len(g["options"]) > 1:
            _hint(page)
        # the best decision drawn on the board (not one without a place there)
        if len(g["options"]) > 1 and page.locator("#board .ranked .rank[data-rank='1'] circle").count():
            best = page.locator("#board .ranked .rank[data-rank='1'] circle").bounding_box()
            frame = page.evaluate("(() => { const r = document.querySelector('#board')"
                                  ".getBoundingClientRect(); return {x: r.left, y: r.top, "
                                  "width: r.width, height: r.height}; })()")
            assert best["x"] >= frame["x"] - 0.5 and best["y"] >= frame["y"] - 0.5, (best, frame)
            assert best["x"] + best["width"] <= frame["x"] + frame["width"] + 0.5, (best, frame)
            assert best["y"] + best["height"] <= frame["y"] + frame["height"] + 0.5, (best, frame)
            seen += 1
        n = len(g["history"])
        page.locator("#decisions button.decision").last.tap()
        page.wait_for_function(f"game.history.length > {n}")
    assert seen >= 4
    context.close()
    assert not errors


def test_the_grid_opens_with_its_labels_and_the_docks_without_a_blank(server, browser):  # noqa: F811
    context, page, errors = _page(browser, PHONE)
    start_play(page, server, ("human", "greedy"), seed=5)
    wait_for_human(page)
    page.tap("#parts button[data-part=grid]")
    page.wait_for_function("document.querySelector('#board svg').dataset.part === 'grid'")
    # the grid opens at its start, its row and column labels seen
    assert page.evaluate("[document.querySelector('#board').scrollLeft, "
                         "document.querySelector('#board').scrollTop]") == [0, 0]
    page.tap("#parts button[data-part=docks]")
    page.wait_for_function("document.querySelector('#board svg').dataset.part === 'docks'")
    blank = page.evaluate("""() => {
      const board = document.querySelector('#board'), frame = board.getBoundingClientRect();
      const svg = board.querySelector('svg'), shown = svg.getBoundingClientRect();
      const drawn = [...svg.querySelectorAll('rect, text, circle, path')]
        .map((e) => e.getBoundingClientRect())
        .filter((r) => r.width > 0 && r.width < shown.width && r.bottom > frame.top && r.top < frame.bottom);
      const bottom = Math.max(...drawn.map((r) => r.bottom));
      return {below: Math.min(frame.bottom, shown.bottom) - bottom, height: frame.height};
    }""")
    assert blank["below"] < 0.15 * blank["height"], blank
    context.close()
    assert not errors


def test_a_followed_set_up_names_no_empty_turn(server, browser):  # noqa: F811
    context, page, errors = _page(browser, PHONE)
    page.goto(server + "/?mode=follow")
    page.select_option("#form-follow select[name=players]", "2")
    page.select_option("#form-follow select[name=seat]", "Blue")
    page.tap("#start-follow")
    for _ in range(3):                          # set-up draws entered: chance's, no seat's
        page.wait_for_selector("#decisions button.decision")
        n = page.evaluate("game.history.length")
        page.locator("#decisions button.decision").first.tap()
        if page.locator("#menu:not([hidden]) button").count():
            page.locator("#menu button").first.tap()
        page.wait_for_function(f"game.history.length > {n}")
        text = page.text_content("#looking-text") or ""
        assert "decision: (" not in text and "decision:  (" not in text, text
        assert not text.strip() or any(s in text for s in ("Red", "Blue")), text
    context.close()
    assert not errors


def test_the_review_graph_is_tapped_where_its_points_are_and_read(server, browser):  # noqa: F811
    from test_serve_analysis_page import _annotated_review
    context, page, errors = _page(browser, PHONE)
    _annotated_review(page, server)
    page.locator("#plot").scroll_into_view_if_needed()
    m = page.evaluate("""() => {
      const svg = document.querySelector('#plot svg');
      const m = svg.getScreenCTM(), scale = Math.hypot(m.a, m.b);
      return {strips: [...svg.querySelectorAll('rect.hit')].map((r) => r.getBoundingClientRect().width),
              words: [...svg.querySelectorAll('text.axis')]
                .map((t) => parseFloat(getComputedStyle(t).fontSize) * scale),
              labels: [...svg.querySelectorAll('rect.hit')].map((r) => r.getAttribute('aria-label') || ''),
              titles: [...svg.querySelectorAll('rect.hit title')].map((t) => t.textContent)};
    }""")
    assert min(m["strips"]) >= 10, sorted(m["strips"])[:5]
    assert min(m["words"]) >= 9, m["words"]
    assert m["labels"] == m["titles"]       # what the hover says is said without one too
    dots = page.locator("#plot svg circle.pt")
    n = dots.count()
    missed = []
    for k in range(0, n, max(1, n // 12)):
        dot = dots.nth(k)
        index = int(dot.get_attribute("data-index"))
        dot.scroll_into_view_if_needed()
        box = dot.bounding_box()
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        deadline = time.monotonic() + 10
        while page.evaluate("game.index") != index and time.monotonic() < deadline:
            time.sleep(0.05)
        if page.evaluate("game.index") != index:
            missed.append(index)
    assert missed == []
    # each point's verdict is drawn, not only hovered: the mistakes ringed, a loss
    # within noise in a dashed ring, and the note says which is which
    notes = page.evaluate("game.annotations.flatMap((a) => a.decisions)")
    for note in notes:
        mark = page.get_attribute(f"#plot svg circle.pt[data-index='{note['index']}']", "class")
        if note["mistake"] is not False and note["loss"] >= 0.1:
            assert "mistake" in mark
        elif note.get("within_noise"):
            assert "noise" in mark
    assert "within noise" in page.text_content("#annotation-note")
    context.close()
    assert not errors


def test_the_games_kept_in_memory_are_listed_with_a_date(server, browser):  # noqa: F811
    """The server of these tests keeps its games in memory (`ulm serve --forget`)."""
    context, page, errors = _page(browser, LAPTOP)
    start_play(page, server, ("human", "greedy"), seed=5)
    wait_for_human(page)
    page.goto(server + "/?mode=play")
    page.wait_for_selector("#saved-list li")
    text = page.text_content("#saved-list")
    assert "Invalid Date" not in text and "1970" not in text, text
    context.close()
    assert not errors
