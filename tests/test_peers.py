"""bench/peers: our ISMCTS next to OpenSpiel's on the game ulm.openspiel ships
(tests/test_openspiel.py checks the game itself).

Skipped as a whole when open-spiel is not installed (pip install -e '.[peers]').
"""
import os
import subprocess
import sys

import pytest
from helpers import ROOT as PROJECT

# skipped only outside CI (a developer without the peers extra); in CI it must be there
pyspiel = pytest.importorskip("pyspiel") if not os.environ.get("CI") else __import__("pyspiel")

ROOT = str(PROJECT)
PEERS = os.path.join(ROOT, "bench", "peers")
for _p in (ROOT, PEERS):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import numpy as np  # noqa: E402


def test_compare_script_smoke(tmp_path):
    """bench/peers/compare.py end to end with tiny budgets."""
    out = tmp_path / "r.json"
    proc = subprocess.run(
        [sys.executable, os.path.join(PEERS, "compare.py"), "--positions", "1", "--seconds",
         "0.02", "--repeats", "1", "--games", "2", "--iterations", "4", "--iteration-games", "2",
         "--json", str(out)],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert "Wilson" in proc.stdout and "iterations per second" in proc.stdout
    import json
    data = json.loads(out.read_text())
    assert data["speed"]["positions"][0]["openspiel_iterations"] >= 2
    assert data["speed"]["positions"][0]["ours_iterations"] >= 1
    s = data["tournament"]["summary"]
    assert s["wins"] + s["draws"] + s["losses"] == 2
    assert 0.0 <= s["wilson95"][0] <= s["score"] <= s["wilson95"][1] <= 1.0
    # (c) at equal iterations: both sides ran exactly 4 simulations per searched decision
    e = data["tournament_equal_iterations"]["summary"]
    assert e["iterations_per_decision"] == 4 and e["seconds_per_decision"] is None
    assert e["ours_iterations_per_decision"] == 4 == e["openspiel_iterations_per_decision"]
    assert data["numpy"] == np.__version__ and data["open_spiel"]


def test_wilson_interval():
    import compare
    lo, hi = compare.wilson(10, 20)
    assert lo == pytest.approx(0.2993, abs=1e-3) and hi == pytest.approx(0.7007, abs=1e-3)
    lo, hi = compare.wilson(20, 20)
    assert hi == 1.0 and lo == pytest.approx(0.8389, abs=1e-3)
    assert compare.wilson(0, 0) == (0.0, 1.0)
