"""Fair play: what a person sees while playing or reviewing is what their seat knows.

- The deal is secret while a game is played: the seed deals every card, so a Play
  answer (JSON, board, history) and the terminal's `ulm play --human` never name it or
  any number that deals the same game (tests/leaks.py: DealSecret) unless the person
  chose it; the record names it once the game is over, and replays it exactly.
- A review seen through one seat annotates only that seat's decisions (another seat's
  review names that seat's hidden hand: tests/leaks.py: annotation_leaks).
- The web board shows what the view holds: the cards an opponent took face up, the coats
  the viewer knows under the stack (the picture's own tests: tests/ulm/test_picture.py).
"""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from cli.main import main
from cli.web.app import create_app
from helpers import assert_input_error, EXAMPLES
from leaks import DealSecret, Secrets, annotation_leaks, assert_deal_secret
from mcts.play.annotate import annotate
from ulm import Game
from ulm.positions import observation
from ulm.records import load_record, replay
from web_helpers import error_of as _error, wait_for as _wait



@pytest.fixture
def client():
    with TestClient(create_app(max_seconds=5), raise_server_exceptions=False) as c:
        yield c


def _dealer_seed(client, gid) -> int:
    """The seed the server deals game `gid` with (its secret: read from the server)."""
    return client.app.state.server.games[gid].table.record.seed


# --- the deal is secret while a game is played -----------------------------------------------

def test_the_oracle_finds_the_seed_in_any_spelling():
    """The oracle itself: the seed in JSON, in decimal and hexadecimal text is found; numbers
    that deal another game are not."""
    game, seed = Game(players=2), 2 ** 63 + 12345
    secret = DealSecret(game, seed)
    assert secret.leaks({"seed": seed}) and secret.leaks([1, {"x": seed}])
    assert secret.leaks(f"seed {seed}.") and secret.leaks(f"seed {hex(seed)}")
    assert secret.leaks(f"deal {seed:x}")
    assert secret.leaks("Ulm, 2 players, seed 5") == []
    assert DealSecret(game, 0).leaks({"seed": 0})          # the default seed deals it too


def test_a_game_without_a_seed_is_dealt_in_secret_until_it_ends(client):
    """No seed given: every answer while the game is played (the game, each decision, the
    boards looked back at) names no number that deals it; two such games are dealt
    differently; when the game is over the answer and the record name the seed, and the
    record replays to the same end."""
    r = client.post("/api/games", json={"mode": "play", "seats": ["human", "random"]})
    assert r.status_code == 201, r.text
    g = r.json()
    gid = g["id"]
    seed = _dealer_seed(client, gid)
    game = Game(players=2)
    secret = DealSecret(game, seed)
    assert g["seed"] is None and g["seed_chosen"] is False
    other = client.post("/api/games", json={"mode": "play", "seats": ["human", "random"]})
    assert _dealer_seed(client, other.json()["id"]) != seed
    answers = 0
    while not g["terminal"]:
        assert secret.leaks(g) == [], (answers, secret.leaks(g))
        if not g["options"]:                      # the bot is thinking
            g = _wait(client, f"/api/games/{gid}", lambda d: d["options"] or d["terminal"])
            continue
        if answers % 25 == 0:
            board = client.get(f"/api/games/{gid}/board?index={len(g['history'])}").json()
            assert_deal_secret(game, seed, board, "board")
            assert "when the game is over" in _error(client.get(f"/api/games/{gid}/download"),
                                                     409)
            index = len(g["history"])
            tried = client.post(f"/api/games/{gid}/variation",
                                json={"index": index, "line": [g["options"][0]["decision"]]})
            assert tried.status_code == 200, tried.text
            assert_deal_secret(game, seed, tried.json(), "variation")
            job = client.post(f"/api/games/{gid}/hint", json={"seconds": 0.05}).json()
            job = _wait(client, f"/api/jobs/{job['id']}", lambda j: j["status"] != "running")
            assert job["status"] == "done", job
            assert_deal_secret(game, seed, job, "hint")
            assert_deal_secret(game, seed, client.get("/api/games").json(), "list of games")
        r = client.post(f"/api/games/{gid}/decide", json={"decision": g["options"][0]["decision"]})
        assert r.status_code == 200, r.text
        g = r.json()
        answers += 1
    assert answers > 20
    assert g["seed"] == seed and secret.leaks(g)     # over: the seed is named
    record = client.get(f"/api/games/{gid}/download").json()
    assert record["seed"] == seed
    again = replay(record)
    assert again.state.is_terminal() and again.state.scores() == list(g["scores"].values())


def test_a_seed_the_person_chooses_is_shown_with_its_warning(client):
    """A chosen seed deals a game the person can replay: it is answered back, marked chosen
    (the page then says that anyone with it knows the cards)."""
    g = client.post("/api/games", json={"mode": "play", "seats": ["human", "random"],
                                        "seed": 42}).json()
    assert g["seed"] == 42 and g["seed_chosen"] is True
    assert _dealer_seed(client, g["id"]) == 42


@pytest.mark.parametrize("what, body", [
    ("wrong type", '"7"'), ("wrong type", "true"), ("float", "7.5"), ("null", "null"),
    ("huge", str(2 ** 64)), ("huge", "1" + "0" * 4000), ("negative", "-1"), ("NaN", "NaN"),
    ("infinite", "Infinity"), ("empty", '""'), ("foreign", '{"$gt": 0}'), ("list", "[7]"),
])
def test_a_bad_seed_is_refused_naming_the_field(client, what, body):
    """Only a seed left out deals in secret; a seed given must be one (400 naming it)."""
    text = '{"mode": "play", "seats": ["human", "random"], "seed": %s}' % body
    r = client.post("/api/games", content=text, headers={"Content-Type": "application/json"})
    assert r.status_code == 400, (what, r.text)
    message = r.json()["error"]
    assert message.startswith(("seed: ", "request: seed: ", "request: not valid JSON")), message
    assert "Traceback" not in message and len(message) < 300
    assert client.get("/api/games").json()["games"] == []       # nothing was made


def test_a_truncated_body_makes_no_game(client):
    r = client.post("/api/games", content='{"mode": "play", "seats": ["human", "random"], '
                    '"seed": 12', headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["error"].startswith("request: not valid JSON")
    assert client.get("/api/games").json()["games"] == []


def test_a_kept_game_keeps_its_deal_secret_after_a_restart(tmp_path):
    """A server restarted on its games file goes on with the same secret: the game rebuilt
    from the file still answers no seed."""
    games = tmp_path / "games.sqlite"
    with TestClient(create_app(max_seconds=5, games_file=games)) as c:
        g = c.post("/api/games", json={"mode": "play", "seats": ["human", "random"]}).json()
        seed = _dealer_seed(c, g["id"])
    with TestClient(create_app(max_seconds=5, games_file=games)) as c:
        again = c.get(f"/api/games/{g['id']}").json()
        assert again["seed"] is None and again["seed_chosen"] is False
        assert_deal_secret(Game(players=2), seed, again, "restored game")
        assert _dealer_seed(c, g["id"]) == seed


def _run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def test_the_terminal_game_names_no_seed_until_it_ends(tmp_path):
    """`ulm play --human` without --seed: nothing printed while the game is played deals it;
    at the end the seed is named and the record replays the game."""
    record = tmp_path / "game.json"
    res = _run("play", "--human", "Red", "--bots", "random", "--record", record,
               input="1\n" * 400)
    assert res.exit_code == 0, res.output
    rec = load_record(record)
    assert rec.state.is_terminal()
    during, _, after = res.stdout.partition("The deal's seed was")
    assert after, res.stdout[-500:]
    assert "a secret deal" in during.splitlines()[0]
    assert_deal_secret(rec.game, rec.seed, during, "ulm play --human")
    assert DealSecret(rec.game, rec.seed).leaks(after)     # named once the game is over


def test_the_terminal_game_stopped_early_names_no_seed(tmp_path):
    record = tmp_path / "game.json"
    res = _run("play", "--human", "Blue", "--bots", "random", "--record", record,
               input="1\n1\nq\n")
    assert res.exit_code == 0, res.output
    rec = load_record(record)                     # the record holds it, to go on with
    assert_deal_secret(rec.game, rec.seed, res.stdout, "ulm play --human, stopped")


@pytest.mark.parametrize("what, text", [
    ("negative", "-1"), ("huge", str(2 ** 64)), ("huge", "9" * 5000), ("NaN", "nan"),
    ("empty", ""), ("wrong type", "x"), ("float", "1.5"), ("infinite", "inf"),
    ("foreign", "0x10"),
])
def test_the_terminal_refuses_a_bad_seed_before_the_game(tmp_path, what, text):
    res = _run("play", "--human", "Red", "--bots", "random", "--seed", text, "--record",
               tmp_path / "g.json", input="q\n")
    assert_input_error(res, "--seed", "must be a whole number from 0 to 2**64 - 1")
    assert len(res.stderr) < 400
    assert list(tmp_path.iterdir()) == []                       # nothing written


def test_the_terminal_names_a_seed_given_with_its_warning(tmp_path):
    res = _run("play", "--human", "Red", "--bots", "random", "--seed", 5, "--record",
               tmp_path / "g.json", input="q\n")
    assert res.exit_code == 0, res.output
    assert ("seed 5 (a seed given, not secret: anyone with it knows every card to come)"
            in res.stdout.splitlines()[0])


# --- a review seen by one seat ----------------------------------------------------------------

def _review(client, seat=None, decisions=24):
    record = json.loads((EXAMPLES / "record-2p.json").read_text())
    record["decisions"] = record["decisions"][:decisions]
    g = client.post("/api/games", json={"mode": "review", "record": record}).json()
    if seat is not None:
        g = client.post(f"/api/games/{g['id']}/goto", json={"index": 0, "as": seat}).json()
    return record, g


def test_the_oracle_finds_another_seats_annotation():
    """What the old server answered, seen by Red: Blue's annotation names cards hidden in
    Blue's hand (found by the oracle); Red's own names none."""
    record = json.loads((EXAMPLES / "record-2p.json").read_text())
    record["decisions"] = record["decisions"][:40]
    blue = annotate(record, 1, iterations=200).to_dict()
    assert annotation_leaks(record, 0, blue)
    assert annotation_leaks(record, 1, blue) == []


@pytest.mark.parametrize("seen_by, asked", [("Red", "Blue"), ("Blue", "Red")])
def test_a_review_seen_by_one_seat_annotates_only_that_seat(client, seen_by, asked):
    record, g = _review(client, seen_by)
    gid = g["id"]
    msg = _error(client.post(f"/api/games/{gid}/annotate", json={"seat": asked,
                                                                 "seconds": 0.05}), 409)
    assert msg.startswith(f"seat: seen by {seen_by}")
    assert client.app.state.server.jobs == {}       # no search was started
    # a bad seat is still a 400 naming the field
    assert "seat:" in _error(client.post(f"/api/games/{gid}/annotate",
                                         json={"seat": "Purple"}), 400)


def test_a_review_annotates_the_seat_it_is_seen_by_and_any_seat_seen_by_everyone(client):
    record, g = _review(client, "Red")
    job = client.post(f"/api/games/{g['id']}/annotate", json={"seat": "Red", "seconds": 0.02})
    assert job.status_code == 202, job.text
    job = _wait(client, f"/api/jobs/{job.json()['id']}", lambda j: j["status"] != "running")
    assert job["status"] == "done" and job["result"]["decisions"]
    assert annotation_leaks(record, 0, job["result"]) == []
    shown = client.get(f"/api/games/{g['id']}").json()
    assert annotation_leaks(record, 0, shown["annotation"] or {}) == []
    g = client.post(f"/api/games/{g['id']}/goto", json={"index": 0, "as": "all"}).json()
    job = client.post(f"/api/games/{g['id']}/annotate", json={"seat": "Blue", "seconds": 0.02})
    assert job.status_code == 202, job.text
    _wait(client, f"/api/jobs/{job.json()['id']}", lambda j: j["status"] != "running")


# --- the web board shows what the view holds --------------------------------------------------

def test_the_followed_board_shows_a_card_taken_face_up(client):
    """Following as Red a game where Blue took Works of Art I face up: the board names it in
    Blue's hand, known to all, and names no card Red cannot know."""
    from constructed import knowledge_state
    state = knowledge_state()
    r = client.post("/api/games", json={"mode": "follow", "view": observation(state, 0)})
    assert r.status_code == 201, r.text
    svg = r.json()["svg"]
    assert ('data-card="Works of Art I" data-place="hand" data-seat="Blue" data-known="all"'
            in svg)
    assert Secrets(state, 0).leaks(svg) == []


# --- the page -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def served():
    """The app (to read the dealer's seed on the server) served on a free local port."""
    from browser_helpers import served as serving
    app = create_app(max_seconds=5)
    with serving(app) as url:
        yield app, url


def test_the_page_says_whether_the_deal_is_secret(served):
    """Started with the seed left empty, the page says the deal is secret and shows no
    number that deals it; with a seed typed in, it warns that anyone with it knows the
    cards."""
    from browser_helpers import chromium
    app, url = served
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        for seed in ("", "5"):
            page.goto(url + "/?mode=play")
            page.select_option("#form-play select[name=players]", "2")
            page.fill("#form-play input[name=seat0]", "human")
            page.fill("#form-play input[name=seat1]", "random")
            page.fill("#form-play input[name=seed]", seed)
            page.click("#start-play")
            page.wait_for_selector("#deal-note")
            note = page.text_content("#deal-note")
            gid = page.evaluate("game.id")
            dealt = app.state.server.games[gid].table.record.seed
            if seed:
                assert dealt == 5 and "anyone with that seed knows every card" in note
            else:
                assert "The deal is secret" in note
                assert_deal_secret(Game(players=2), dealt, page.inner_text("body"), "page")
                assert_deal_secret(Game(players=2), dealt, page.content(), "page source")
    assert not errors, errors
