"""What the browser tests of `ulm serve` share: the app served by uvicorn in a
thread on a free port of 127.0.0.1 (never the machine's network address),
Debian's Chromium driven by Playwright (nothing downloaded), a fresh page that
fails its test on a JavaScript error, and the waits every page test needs.

The fixtures are imported by the test modules that use them
(`from browser_helpers import browser, page, server`)."""
from __future__ import annotations

import contextlib
import os
import random
import socket
import threading
import time
from pathlib import Path

import pytest
import uvicorn

from cli.web.app import create_app

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def served(app, port: int = 0):
    """`app` served on 127.0.0.1 (`port`, else a free one) while the block runs: its URL."""
    port = port or free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(60)
    assert not thread.is_alive(), "the server stops"


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    """Where the screenshots go: the folder ULM_SCREENSHOTS names
    (`ULM_SCREENSHOTS=docs/images` refreshes the docs' pictures), else a temporary one."""
    folder = os.environ.get("ULM_SCREENSHOTS")
    return Path(folder) if folder else tmp_path_factory.mktemp("screenshots")


@pytest.fixture(scope="module")
def server():
    """`ulm serve`'s app on a free local port; its shutdown stops its bots and searches."""
    with served(create_app(max_seconds=10)) as url:
        yield url
    left = [t.name for t in threading.enumerate()
            if t.is_alive() and t.name.startswith(("bots-", "job-"))]
    assert left == [], "the server's shutdown stops its bots and searches"


@contextlib.contextmanager
def chromium():
    """Debian's Chromium, headless, driven by Playwright."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture
def page(browser):
    """A fresh page of a desktop's size; a JavaScript error on it fails the test."""
    context = browser.new_context(viewport={"width": 1600, "height": 1000})
    pg = context.new_page()
    errors: list = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def game_now(page) -> dict:
    """The game as the server has it now (the page's own id)."""
    page.wait_for_function("game !== null")
    gid = page.evaluate("game.id")
    return page.evaluate(f"fetch('/api/games/{gid}').then(r => r.json())")


def wait_for_human(page, timeout=30) -> dict:
    """Wait until a person is to decide (no bot thinking) and the buttons are drawn."""
    deadline = time.monotonic() + timeout
    while True:
        g = game_now(page)
        if g["options"] and not g["thinking"]:
            page.wait_for_selector("#decisions button.decision")
            return g
        assert time.monotonic() < deadline, f"still waiting: {g['to_move']} {g['thinking']}"
        time.sleep(0.2)


def view_with_a_card_to_play_two_ways():
    """Red's view in a random 2-player game where Red may play a card for its bonus or
    lay it in front, and that card."""
    from ulm import ACTION_NAMES, Game
    from ulm.positions import state_to_position
    for seed in range(200):
        state, rng = Game(players=2).new_game(seed), random.Random(seed)
        for _ in range(600):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.resolve_chance()
                continue
            names = [ACTION_NAMES[a] for a in state.legal_actions()]
            both = ({n[5:-8] for n in names if n.endswith("(upper)")}
                    & {n[5:-8] for n in names if n.endswith("(lower)")})
            if both and state.current_player() == 0:
                return state_to_position(state, 0), sorted(both)[0]
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no such position in 200 random games")


def start_play(page, server: str, seats, seed=None, query: str = "") -> None:
    """Open the Play set-up of `server` and start a game of len(seats)
    players: each seat's spec ("human", "greedy", ...) and the deal's seed."""
    page.goto(f"{server}/?mode=play{query}")
    page.select_option("#form-play select[name=players]", str(len(seats)))
    for i, spec in enumerate(seats):
        page.fill(f"#form-play input[name=seat{i}]", spec)
    if seed is not None:
        page.fill("#form-play input[name=seed]", str(seed))
    page.click("#start-play")
