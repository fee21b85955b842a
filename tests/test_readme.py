"""The README's tour runs: its Python blocks are one doctest, in order, from
the repository root (outputs are seeded; `...` stands for the rest of long text)."""
from __future__ import annotations

import doctest
import re
from helpers import ROOT



def _tour() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, flags=re.M | re.S)
    return "\n".join(b for b in blocks if ">>> " in b)


def test_the_readme_tour_runs_as_written(monkeypatch):
    monkeypatch.chdir(ROOT)               # the examples are named from the root
    source = _tour()
    test = doctest.DocTestParser().get_doctest(source, {}, "README.md", "README.md", 0)
    assert len(test.examples) >= 20, len(test.examples)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out = []
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)


def test_the_library_page_examples_run(monkeypatch):
    """docs/library.md: playing a bot (and a person's session) from Python, as written."""
    monkeypatch.chdir(ROOT)
    text = (ROOT / "docs" / "library.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, flags=re.M | re.S)
    source = "\n".join(b for b in blocks if ">>> " in b)
    test = doctest.DocTestParser().get_doctest(source, {}, "library.md", "docs/library.md", 0)
    assert len(test.examples) >= 10, len(test.examples)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out = []
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)
