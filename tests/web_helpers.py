"""Helpers of the HTTP tests of `ulm serve` (Starlette's TestClient)."""
from __future__ import annotations

import time


def error_of(response, status: int) -> str:
    """The error message of a refused request: the status expected, a body holding
    only {"error": ...}, and no traceback in it."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and "Traceback" not in body["error"], body
    return body["error"]


def wait_for(client, path: str, until, timeout: float = 120):
    """GET `path` until `until(answer)` holds; the answer, or a failed assertion
    after `timeout` seconds (a bound on a hung search, not a speed check)."""
    deadline = time.monotonic() + timeout
    while True:
        data = client.get(path).json()
        if until(data):
            return data
        assert time.monotonic() < deadline, data
        time.sleep(0.03)
