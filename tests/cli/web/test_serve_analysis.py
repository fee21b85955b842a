"""The web companion analyses the point shown: a hint at a board looked back at and in a
variation (`POST /api/games/{id}/hint` with `index` and `line`), through the viewer's
eyes and only for its own decisions; its answer names the point it analysed."""
from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

from cli.web.app import create_app
from leaks import assert_no_leak, seen_cards
from mcts.searcher.search import POINT_SOURCES
from ulm import ACTION_NAMES
from ulm.records import replay
from web_helpers import error_of, wait_for
from helpers import EXAMPLES

JSON = {"content-type": "application/json"}


def _threads():
    import threading
    return [t.name for t in threading.enumerate() if t.is_alive() and t.name.startswith("job-")]


@pytest.fixture(autouse=True)
def no_search_outlives_its_server():
    yield
    assert _threads() == []


@pytest.fixture
def client():
    with TestClient(headers=JSON, app=create_app(max_seconds=5),
                    raise_server_exceptions=False) as c:
        yield c


def _people_to_move(client, gid):
    return wait_for(client, f"/api/games/{gid}", lambda d: d["options"] or d["terminal"])


def _played(client, seats, seed, decisions):
    """A game of Play with `decisions` decisions of the person (its last option each time)."""
    g = client.post("/api/games", json={"mode": "play", "seats": list(seats),
                                        "seed": seed}).json()
    for _ in range(decisions):
        g = _people_to_move(client, g["id"])
        g = client.post(f"/api/games/{g['id']}/decide",
                        json={"decision": g["options"][-1]["decision"]}).json()
    return _people_to_move(client, g["id"])


def _hint(client, gid, **body):
    r = client.post(f"/api/games/{gid}/hint", json=dict(seconds=0.2, **body))
    assert r.status_code == 202, r.text
    job = wait_for(client, f"/api/jobs/{r.json()['id']}", lambda j: j["status"] != "running")
    assert job["status"] == "done", job
    return job["result"]


def _legal_names(client, gid, index, line=()):
    v = client.post(f"/api/games/{gid}/variation", json={"index": index, "line": list(line)})
    assert v.status_code == 200, v.text
    return {o["name"] for o in v.json()["options"]}, v.json()


# --- a hint at the point shown ------------------------------------------------------------

def test_a_hint_at_a_board_looked_back_at_analyses_that_board(client):
    g = _played(client, ("human", "greedy"), 3, 4)
    gid, live = g["id"], len(g["history"])
    assert g["history"][1]["seat"] == "Red"
    board = client.get(f"/api/games/{gid}/board?index=1").json()
    assert board["can_hint"] is True
    advice = _hint(client, gid, index=1)
    assert advice["index"] == 1 and advice["variation"] == []
    assert advice["seats"][advice["player"]] == "Red"
    then, _ = _legal_names(client, gid, 1)
    now = {o["name"] for o in g["options"]}
    assert then != now
    assert {a["name"] for a in advice["actions"]} == then
    assert advice["principal_line"][0]["name"] == advice["best_action_name"]
    # drawn on that board, not on the game's: the game now has no hint
    assert 'class="highlight"' in advice["svg"] and advice["svg"].count('class="rank"') == 3
    g = client.get(f"/api/games/{gid}").json()
    assert g["hint"] is None and len(g["history"]) == live
    # the game now: the answer names it, as the live hint it is
    advice = _hint(client, gid)
    assert advice["index"] == live and "svg" not in advice
    assert client.get(f"/api/games/{gid}").json()["hint"]["index"] == live


def test_a_hint_in_a_variation_analyses_the_variation(client):
    g = _played(client, ("human", "greedy"), 3, 4)
    gid = g["id"]
    first, v = _legal_names(client, gid, 1)
    line = [v["options"][0]["decision"]]
    then, v = _legal_names(client, gid, 1, line)
    assert v["can_hint"] is True and then != first
    advice = _hint(client, gid, index=1, line=line)
    assert advice["index"] == 1 and advice["variation"] == line
    assert {a["name"] for a in advice["actions"]} == then
    assert "<svg" in advice["svg"]


def test_a_point_the_viewer_may_not_analyse_is_refused(client):
    g = _played(client, ("human", "greedy"), 2, 6)
    gid = g["id"]
    blue = next(h["index"] for h in g["history"] if h["seat"] == "Blue")
    assert client.get(f"/api/games/{gid}/board?index={blue}").json()["can_hint"] is False
    msg = error_of(client.post(f"/api/games/{gid}/hint", json={"seconds": 0.1, "index": blue}),
                   409)
    assert msg == "hint: it is Blue's turn (greedy); hints are for a person's own decisions"
    # a variation played to the end of the person's turn: nothing left to advise there
    red = next(h["index"] for h in g["history"] if h["seat"] == "Red" and h["index"] > 0)
    line, v = [], _legal_names(client, gid, red)[1]
    while v["options"] and not v["ended"] and len(line) < 20:
        line.append(v["options"][0]["decision"])
        v = _legal_names(client, gid, red, line)[1]
    assert v["ended"] and v["can_hint"] is False
    msg = error_of(client.post(f"/api/games/{gid}/hint",
                               json={"seconds": 0.1, "index": red, "line": line}), 409)
    assert msg.startswith("hint: the variation") and v["ended"] in msg
    assert client.app.state.server.jobs == {}


def test_a_review_seen_by_one_seat_hints_only_at_its_decisions(client):
    data = json.loads((EXAMPLES / "record-2p.json").read_text())
    rv = client.post("/api/games", json={"mode": "review", "record": data}).json()
    gid = rv["id"]
    rv = client.post(f"/api/games/{gid}/goto", json={"index": 0, "as": "Red"}).json()
    movers = replay(data).movers()
    blue = movers.index(1)
    msg = error_of(client.post(f"/api/games/{gid}/hint", json={"seconds": 0.1, "index": blue}),
                   409)
    assert msg == "hint: it is Blue's turn; seen by Red, hints are for Red"
    red = max(k for k, p in enumerate(movers[:blue + 8]) if p == 0)
    advice = _hint(client, gid, index=red)
    assert advice["index"] == red and advice["seats"][advice["player"]] == "Red"


@pytest.mark.parametrize("body, message", [
    ({"index": "1"}, "index: must be a whole number from 0 to 4, got '1'"),
    ({"index": [1]}, "index: must be a whole number from 0 to 4, got [1]"),
    ({"index": True}, "index: must be a whole number from 0 to 4, got True"),
    ({"index": 1.5}, "index: must be a whole number from 0 to 4, got 1.5"),
    ({"index": 10 ** 30}, "index: must be a whole number from 0 to 4, got 1000000000000"),
    ({"index": -1}, "index: must be a whole number from 0 to 4, got -1"),
    ({"index": ""}, "index: must be a whole number from 0 to 4, got ''"),
    ({"index": {"Red": 1}}, "index: must be a whole number from 0 to 4, got {'Red': 1}"),
    ({"line": [3]}, "index: a line is tried from a point: give its index too"),
    ({"index": 1, "line": "3"}, "line: a list of decision ids, got '3'"),
    ({"index": 1, "line": {"0": 3}}, "line: a list of decision ids, got {'0': 3}"),
    ({"index": 1, "line": [-1]}, "line[0]: decision -1 is not legal there"),
    ({"index": 1, "line": [10 ** 30]}, "line[0]: decision 1000000000000000000000000000000 is"),
    ({"index": 1, "line": [""]}, "line[0]: must be a decision id (a whole number)"),
    ({"index": 1, "line": ["push"]}, "line[0]: must be a decision id (a whole number)"),
    ({"index": 1, "line": [[2]]}, "line[0]: must be a decision id (a whole number)"),
    ({"index": 1, "line": [2] * 61}, "line: a list of at most 60 decision ids"),
])
def test_bad_points_are_refused_naming_the_field(client, body, message):
    g = _played(client, ("human", "greedy"), 3, 4)
    assert len(g["history"]) == 4
    r = client.post(f"/api/games/{g['id']}/hint", json=dict(seconds=0.1, **body))
    assert message in error_of(r, 400)
    assert client.app.state.server.jobs == {}          # nothing started


@pytest.mark.parametrize("raw, message", [
    ('{"seconds": 0.1, "index": NaN}', "index: must be a whole number from 0 to 4, got nan"),
    ('{"seconds": 0.1, "index": 1, "line": [NaN]}', "line[0]: must be a decision id"),
    ('{"seconds": 0.1, "index": 1, "line": [3', "request: not valid JSON"),
    ('{"seconds": 0.1, "index": ', "request: not valid JSON"),
])
def test_nan_and_truncated_points_are_refused(client, raw, message):
    g = _played(client, ("human", "greedy"), 3, 4)
    r = client.post(f"/api/games/{g['id']}/hint", content=raw)
    assert message in error_of(r, 400)
    assert client.app.state.server.jobs == {}


def test_a_line_of_another_game_is_refused(client):
    g = _played(client, ("human", "greedy"), 3, 4)
    other = _played(client, ("human", "greedy"), 9, 4)
    foreign = next(o["decision"] for o in other["options"]
                   if o["name"] not in _legal_names(client, g["id"], 4)[0])
    r = client.post(f"/api/games/{g['id']}/hint",
                    json={"seconds": 0.1, "index": 4, "line": [foreign]})
    assert f"line[0]: decision {foreign} is not legal there" in error_of(r, 400)


# --- what the person knew then ------------------------------------------------------------

@pytest.mark.parametrize("players, seed", [(2, 21), (3, 22), (4, 23)])
def test_a_hint_looked_back_names_only_what_the_person_knew_then(players, seed):
    """Hints at the person's earlier decisions, against the game as it was then: no card or
    coat the person could not know at that point (tests/leaks.py), the live estimates too."""
    with TestClient(headers=JSON, app=create_app(max_seconds=5)) as c:
        g = c.post("/api/games", json={"mode": "play", "seed": seed,
                                       "seats": ["human"] + ["random"] * (players - 1)}).json()
        gid = g["id"]
        while True:
            g = _people_to_move(c, gid)
            if g["terminal"] or g["round"] >= 6:
                break
            c.post(f"/api/games/{gid}/decide", json={"decision": g["options"][0]["decision"]})
        data = c.app.state.server.games[gid].table.record.to_dict()
        state, seen, choices, asked = replay(data, 0).state, set(), 0, 0
        for k, name in enumerate(data["decisions"]):
            seen |= seen_cards(state, 0)
            if state.current_player() == 0 and len(state.legal_actions()) > 1:
                choices += 1
                if choices % 2 == 1 and asked < 6:
                    _check_hint_then(c, gid, k, state, seen)
                    asked += 1
            elif state.current_player() != 0:
                error_of(c.post(f"/api/games/{gid}/hint", json={"seconds": 0.1, "index": k}),
                         409)
            state.apply_action(ACTION_NAMES.index(name))
            state.resolve_chance()
        assert asked >= 3


def _check_hint_then(c, gid, k, state, seen):
    job = c.post(f"/api/games/{gid}/hint", json={"seconds": 0.3, "index": k}).json()
    with c.stream("GET", f"/api/jobs/{job['id']}/events") as r:
        events = [json.loads(line[5:]) for line in r.iter_lines() if line.startswith("data:")]
    assert events[-1]["status"] == "done", events[-1]
    for e in events:
        assert_no_leak(state, 0, _without_score_sheet(e), f"hint at {k}", seen)
    assert events[-1]["result"]["index"] == k


def _without_score_sheet(job: dict) -> dict:
    """A hint's job without the labels of its points' scoring sources: they are the score
    sheet's fixed rows (mcts.searcher.search.POINT_SOURCES, where "Siege" is a row, not a card seen), as the
    coats printed on the board are its furniture; every figure stays."""
    out = json.loads(json.dumps(job))
    for advice in (out.get("partial"), out.get("result")):
        breakdown = (advice or {}).get("points_breakdown") or {}
        for row in breakdown.get("by_source", []):
            assert row.pop("source") in POINT_SOURCES
    return out


# --- every turn since the person's last decision is marked ----------------------------------

def _marks(svg: str) -> list[tuple[str, str]]:
    """(seat, colour) of each last-move mark of a board picture."""
    import re
    group = svg.split('class="last-move"', 1)[1].split("</g>", 1)[0]
    return [(m.group(2), m.group(1)) for m in re.finditer(
        r'(?:stroke|fill)="(#[0-9a-f]{6})"[^>]*?data-seat="(\w+)"', group)]


@pytest.mark.parametrize("players", [3, 4])
def test_every_turn_since_the_persons_last_decision_is_marked_in_its_seats_colour(client,
                                                                                  players):
    from ulm.picture import SEAT_FILL
    bots = ["greedy"] * (players - 1)
    g = _played(client, ["human"] + bots, 5, 0)
    g = client.post(f"/api/games/{g['id']}/decide", json={"decision": "draw"}).json()
    # the person's first turn to its end (not on into the next, once the bots are quick)
    while g["to_move"] == "Red" and all(h["seat"] == "Red" for h in g["history"]):
        g = client.post(f"/api/games/{g['id']}/decide",
                        json={"decision": g["options"][-1]["decision"]}).json()
    g = _people_to_move(client, g["id"])
    others = [s for s in ("Blue", "Green", "Yellow")[:players - 1]]
    assert [h["seat"] for h in g["history"]][-1] == others[-1]
    marks = _marks(g["svg"])
    assert {seat for seat, _ in marks} == set(others)
    assert all(colour == SEAT_FILL[seat] for seat, colour in marks)
    # a board looked back at: the turns since the person's decision before it
    first_blue = next(h["index"] for h in g["history"] if h["seat"] == "Blue")
    board = client.get(f"/api/games/{g['id']}/board?index={first_blue + 2}").json()
    assert {seat for seat, _ in _marks(board["svg"])} == {"Blue"}
    # the person's own turn going on: that turn is marked, in its colour
    g = client.post(f"/api/games/{g['id']}/decide", json={"decision": "draw"}).json()
    assert {seat for seat, _ in _marks(g["svg"])} == {"Red"}


# --- variations only where the person may choose ----------------------------------------------

def test_another_line_is_offered_only_where_the_viewer_decides(client):
    g = _played(client, ("human", "greedy"), 2, 6)
    gid = g["id"]
    assert g["can_vary"] is True                        # the person to move now
    for h in g["history"]:
        board = client.get(f"/api/games/{gid}/board?index={h['index']}").json()
        assert board["can_vary"] is (h["seat"] == "Red"), h
        if not board["can_vary"]:
            r = client.post(f"/api/games/{gid}/variation", json={"index": h["index"]})
            assert "variations are for Red's own decisions" in error_of(r, 409)
    bot = _played(client, ("greedy", "human"), 4, 0)
    assert bot["can_vary"] is True
    over = client.post("/api/games", json={"mode": "play", "seats": ["random", "random"],
                                           "seed": 2}).json()
    over = wait_for(client, f"/api/games/{over['id']}", lambda d: d["terminal"])
    assert over["can_vary"] is False


# --- marks that do not collide -------------------------------------------------------------

def _badges(svg: str, group: str, r: str) -> list[tuple[float, float]]:
    import re
    part = svg.split(f'<g class="{group}">', 1)[1]
    return [(float(m.group(1)), float(m.group(2))) for m in
            re.finditer(rf'<circle cx="([\d.]+)" cy="([\d.-]+)" r="{r}"', part)]


def test_the_ranks_never_sit_on_the_advised_lines_step_numbers():
    """A hint draws its line's steps numbered (1, 2, 3 at an element's top right) and its
    best three ranked (#1, #2, #3): on elements side by side (dock tiles, cards, the sides)
    no rank badge covers a step number or another rank."""
    import random

    import ulm
    from ulm.picture import board_svg
    rng, drawn = random.Random(1), 0
    for seed in range(40):
        state = ulm.Game(rng.choice([2, 3, 4])).new_game(seed)
        for _ in range(rng.randrange(5, 200)):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.resolve_chance()
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal() or state.is_chance_node():
            continue
        best = rng.sample(state.legal_actions(), min(3, len(state.legal_actions())))
        svg = board_svg(state, highlight=best, ranked=best)
        steps, ranks = _badges(svg, "highlight", "9"), _badges(svg, "ranked", "10")
        drawn += bool(steps and ranks)
        for k, (x, y) in enumerate(ranks):
            assert all((x - a) ** 2 + (y - b) ** 2 >= 19 ** 2 for a, b in steps), (seed, best)
            assert all((x - a) ** 2 + (y - b) ** 2 >= 20 ** 2 for a, b in ranks[:k]), seed
    assert drawn >= 10


# --- the person's chances as the game goes (Play) ----------------------------------------

def _chance(client, gid, seconds=0.2):
    r = client.post(f"/api/games/{gid}/chance", json={"seconds": seconds})
    assert r.status_code == 202, r.text
    job = wait_for(client, f"/api/jobs/{r.json()['id']}", lambda j: j["status"] != "running")
    assert job["status"] == "done" and job["kind"] == "chance", job
    return job["result"]


def test_the_persons_chances_are_kept_for_their_graph_and_go_with_an_undo(client):
    g = _played(client, ("human", "greedy"), 3, 0)
    gid = g["id"]
    first = _chance(client, gid)
    assert first["index"] == 0 and first["seat"] == "Red" and 0 < first["win"] < 1
    g = client.post(f"/api/games/{gid}/decide", json={"decision": "draw"}).json()
    second = _chance(client, gid)
    assert second["index"] == 1
    g = client.get(f"/api/games/{gid}").json()
    assert g["chances"] == [first, second] and g["hint"] is None   # nothing drawn
    g = client.post(f"/api/games/{gid}/undo").json()
    assert g["chances"] == [first]


def test_chances_only_at_the_persons_decisions_in_play(client):
    g = client.post("/api/games", json={"mode": "play", "seats": ["ismcts:time=5", "human"],
                                        "seed": 3}).json()
    msg = error_of(client.post(f"/api/games/{g['id']}/chance", json={"seconds": 0.1}), 409)
    assert msg.startswith("hint: it is Red's turn (ismcts:time=5)")
    data = json.loads((EXAMPLES / "record-2p.json").read_text())
    rv = client.post("/api/games", json={"mode": "review", "record": data}).json()
    assert error_of(client.post(f"/api/games/{rv['id']}/chance", json={"seconds": 0.1}),
                    409) == "chance: a person's chances are followed in Play"
    assert client.app.state.server.jobs == {}


@pytest.mark.parametrize("raw, message", [
    ('{"seconds": "1"}', "seconds: must be a positive number of seconds, got '1'"),
    ('{"seconds": [1]}', "seconds: must be a positive number of seconds, got [1]"),
    ('{"seconds": 1e308}', "seconds: at most 5 seconds on this server, got 1e+308"),
    ('{"seconds": -1}', "seconds: must be a positive number of seconds, got -1"),
    ('{"seconds": NaN}', "seconds: must be a positive number of seconds, got nan"),
    ('{"seconds": ""}', "seconds: must be a positive number of seconds, got ''"),
    ('{"seconds": ', "request: not valid JSON"),
    ('{"seconds": {"Red": 1}}', "seconds: must be a positive number of seconds, got {'Red'"),
])
def test_bad_chance_budgets_are_refused(client, raw, message):
    g = _played(client, ("human", "greedy"), 3, 0)
    r = client.post(f"/api/games/{g['id']}/chance", content=raw)
    assert message in error_of(r, 400)
    assert client.app.state.server.jobs == {}


def test_people_at_one_screen_get_hints_looked_back_only_at_their_own_decisions(client):
    """Two people at one screen: the one to move sees their own view, so a hint at the
    other's earlier decision (a search from the other's hand) is refused."""
    g = _played(client, ("human", "human"), 3, 0)
    gid = g["id"]
    g = client.post(f"/api/games/{gid}/decide", json={"decision": "draw"}).json()
    while g["to_move"] == "Red":
        g = client.post(f"/api/games/{gid}/decide",
                        json={"decision": g["options"][-1]["decision"]}).json()
    assert g["viewer"] == "Blue"
    msg = error_of(client.post(f"/api/games/{gid}/hint", json={"seconds": 0.1, "index": 1}),
                   409)
    assert msg == "hint: it is Red's decision there; hints are for Blue's own decisions"
    assert client.get(f"/api/games/{gid}/board?index=1").json()["can_hint"] is False
    advice = _hint(client, gid)
    assert advice["seats"][advice["player"]] == "Blue"
