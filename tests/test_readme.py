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


def test_the_readme_sets_up_a_real_table_as_written(tmp_path, monkeypatch):
    """"At a real table": each command of the block runs as written, and the
    set-up it enters is that of the 2-player game of seed 4 (the table the
    block copies)."""
    import shlex

    from click.testing import CliRunner

    from cli.main import main
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"^### At a real table\n.*?^```bash\n(.*?)^```", text,
                      flags=re.M | re.S).group(1)
    commands = [shlex.split(line, comments=True)
                for line in block.replace("\\\n", " ").splitlines() if line.strip()]
    assert [c[:2] for c in commands] == [["ulm", "new"]] + [["ulm", "apply"]] * 4
    assert "--before-setup" in commands[0]
    monkeypatch.chdir(tmp_path)
    for command in commands:
        res = CliRunner().invoke(main, command[1:])
        assert res.exit_code == 0, (command, res.output)
    assert res.stdout.startswith("Red to decide, phase before draw")
    dealt = CliRunner().invoke(main, ["new", "--players", "2", "--as", "Blue", "--seed", "4"])
    assert (tmp_path / "table.json").read_text() == dealt.stdout
