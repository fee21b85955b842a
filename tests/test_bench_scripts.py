"""The bench scripts after the README's install (`pip install .`): the
checkout's ulm/ then has no compiled core, and a script that put the
checkout first on its path failed with "ulm's compiled core is not built".
Each script imports the installed package unless the checkout is built in
place (bench/_ulm_path.py)."""
import shutil
import subprocess
import sys

import pytest

from helpers import ROOT

SCRIPTS = sorted(p.name for p in (ROOT / "bench").glob("*.py") if p.name != "_ulm_path.py")


@pytest.fixture(scope="module")
def unbuilt_checkout(tmp_path_factory):
    """A copy of the checkout's bench/ and of its ulm/ and mcts/ sources
    without their compiled cores, as `pip install .` leaves a clone."""
    root = tmp_path_factory.mktemp("clone")
    shutil.copytree(ROOT / "bench", root / "bench",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    for package in ("ulm", "mcts"):
        shutil.copytree(ROOT / package, root / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.c", "*.html"))
    return root


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_bench_script_imports_the_installed_ulm_from_an_unbuilt_clone(script,
                                                                           unbuilt_checkout):
    bench = unbuilt_checkout / "bench"
    # the path of `python bench/SCRIPT`: the script's folder first, not the working one
    code = ("import runpy, sys; sys.path[0] = sys.argv[1]; "
            "runpy.run_path(sys.argv[2], run_name='imported'); "
            "import ulm; print(ulm.__file__)")
    res = subprocess.run([sys.executable, "-c", code, str(bench), str(bench / script)],
                         capture_output=True, text=True, timeout=120, cwd=bench)
    assert res.returncode == 0, res.stderr[-2000:]
    assert "compiled core" not in res.stderr
    assert not res.stdout.strip().startswith(str(unbuilt_checkout)), "the clone's unbuilt ulm"


def test_a_checkout_built_in_place_is_used_first(unbuilt_checkout):
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import _ulm_path
    finally:
        sys.path.remove(str(ROOT / "bench"))
    assert not _ulm_path.built_in_place(str(unbuilt_checkout))
    assert _ulm_path.built_in_place(str(ROOT)) == any((ROOT / "ulm").glob("_fastcore.*.so"))
