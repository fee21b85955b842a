"""The points on the web page (Chromium driven by Playwright, as
tests/cli/web/test_serve_browser.py): the advice's column "points", the best three on
the board with their points, the reason in points, a review by points."""
from __future__ import annotations

import re

from constructed import decided_game
from browser_helpers import game_now as _game
from browser_helpers import start_play
from browser_helpers import wait_for_human as _wait_for_human


def test_a_hint_shows_each_alternative_s_points_and_the_best_three_on_the_board(server, page):
    start_play(page, server, ("human", "greedy"), seed=3)
    _wait_for_human(page)
    page.click("#board .bag.clickable")
    page.wait_for_selector("#board .entry.clickable")
    page.select_option("#hint-seconds", "0.5")
    page.click("#hint")
    page.wait_for_function("window.hintArrived !== undefined", timeout=20000)
    page.wait_for_selector("#board svg .ranked .rank .rank-points")
    hint = _game(page)["hint"]
    headers = page.locator("#advice table.alts th").all_text_contents()
    assert headers[-1] == "points"
    rows = page.locator("#advice table.alts tr.alt")
    me = hint["player"]
    assert rows.count() == len(hint["actions"])
    for k, alt in enumerate(hint["actions"]):
        cell = rows.nth(k).locator("td.points").text_content()
        shown = re.fullmatch(r"(\d+\.\d) \(([+−])(\d+\.\d) ± (\d+\.\d)\)", cell)
        assert shown, cell
        points, sign, lead, error = shown.groups()
        lead = float(lead) * (-1 if sign == "−" else 1)
        # one decimal each (rounded by the page, half up)
        for said, figure in ((points, alt["expected_score"][me]), (lead, alt["margin"]),
                             (error, alt["margin_error"])):
            assert abs(float(said) - figure) <= 0.05 + 1e-9, (cell, alt)
    by_action = {str(a["action"]): a for a in hint["actions"]}
    ranks = page.locator("#board svg .ranked .rank")
    assert ranks.count() >= 2
    for k in range(ranks.count()):
        rank = ranks.nth(k)
        alt = by_action[rank.get_attribute("data-action")]
        said = rank.locator(".rank-points").text_content()
        assert said.endswith(" VP") and abs(float(said[:-3]) - alt["expected_score"][me]) <= 0.05 + 1e-9
    said = page.text_content("#advice .points-breakdown")
    breakdown = hint["points_breakdown"]
    assert said.startswith(f"In points, {breakdown['decision']} against {breakdown['rival']}: ")
    assert re.search(r": [+−]\d+\.\d VP \(", said)


def test_a_review_finds_the_mistakes_by_points(server, page, tmp_path):
    rec, bad_at = decided_game()
    path = tmp_path / "decided.json"
    rec.save(path)
    page.goto(server + "/?mode=review")
    page.set_input_files("#upload-record", str(path))
    page.wait_for_selector("#review-controls:not([hidden])")
    page.select_option("#an-seat", "Red")
    page.select_option("#an-seconds", "0.2")
    page.select_option("#an-by", "points")
    page.click("#annotate")
    page.wait_for_selector("#plot svg circle", timeout=240000)
    annotation = _game(page)["annotation"]
    assert annotation["by"] == "points"
    note = page.text_content("#annotation-note")
    assert "Red's biggest mistakes in points:" in note
    first = next(n for n in annotation["decisions"] if n["index"] == annotation["mistakes"][0])
    assert f"{first['index'] + 1}. {first['played']} (−{first['points_loss']:.1f} VP, " in note
    # at a decision: its loss in VP beside the loss in chance
    page.click(f"#annotation-note a[data-index='{first['index']}']")
    page.wait_for_function("game.hint !== null && game.hint.kind === 'annotation'")
    assert f"and {first['points_loss']:.1f} VP (±" in page.text_content("#advice")
