"""The public API is typed and the code linted: mypy over ulm, mcts and cli (with
the stubs of the compiled modules) and ruff find nothing, with the versions the
test extra pins (pyproject.toml has both tools' settings)."""
import ast
import re
import subprocess
import sys
import tomllib

import pytest
from helpers import ROOT

TOOLS = ("mypy", "ruff")


def _pinned(tool: str) -> str:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    (pin,) = [r for r in extras["test"] if re.match(rf"{tool}\b", r)]
    return pin.split("==")[1]


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


@pytest.mark.parametrize("tool", TOOLS)
def test_the_tools_are_the_pinned_versions(tool):
    """The test extra pins each tool, and the one installed is that version (a new
    release with new checks cannot fail a build that passed)."""
    out = _run(tool, "--version")
    assert out.returncode == 0, out.stderr
    assert re.search(rf"\b{re.escape(_pinned(tool))}\b", out.stdout), (out.stdout, _pinned(tool))


def test_ruff_finds_nothing():
    out = _run("ruff", "check", "--no-cache", "--output-format", "concise")
    assert out.returncode == 0, out.stdout[-5000:] + out.stderr[-2000:]


def test_mypy_finds_nothing():
    """mypy, with the files and settings of pyproject.toml ([tool.mypy])."""
    out = _run("mypy")
    assert out.returncode == 0, out.stdout[-5000:] + out.stderr[-2000:]
    assert "no issues found" in out.stdout


def _stubbed(stub: ast.Module) -> set:
    names = set()
    for node in stub.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {n for n in names if not n.startswith("_")}


def test_the_search_stub_lists_every_public_name_of_the_compiled_search():
    """mcts/searcher/_search.pyi stays in step with the compiled module: its names, and
    the Searcher's methods and attributes."""
    from mcts.searcher import _search
    stub = ast.parse((ROOT / "mcts" / "searcher" / "_search.pyi").read_text(encoding="utf-8"))
    assert _stubbed(stub) == {n for n in dir(_search) if not n.startswith("_")}
    searcher = next(n for n in stub.body if isinstance(n, ast.ClassDef) and n.name == "Searcher")
    members = {n.name for n in searcher.body if isinstance(n, ast.FunctionDef)}
    members |= {n.target.id for n in searcher.body
                if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
    public = {n for n in dir(_search.Searcher) if not n.startswith("_")}
    assert {m for m in members if not m.startswith("_")} == public
