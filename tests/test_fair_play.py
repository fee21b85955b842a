"""Fair play: what a person sees while playing or reviewing is what their seat knows.

- A review seen through one seat annotates only that seat's decisions (another seat's
  review names that seat's hidden hand: tests/leaks.py: annotation_leaks).
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from cli.web.app import create_app
from leaks import annotation_leaks
from mcts.annotate import annotate

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture
def client():
    with TestClient(create_app(max_seconds=5), raise_server_exceptions=False) as c:
        yield c


def _wait(client, path, until, timeout=120):
    deadline = time.monotonic() + timeout
    while True:
        data = client.get(path).json()
        if until(data):
            return data
        assert time.monotonic() < deadline, data
        time.sleep(0.02)


def _error(response, status):
    assert response.status_code == status, response.text
    return response.json()["error"]


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
