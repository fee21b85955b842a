"""Packaging facts: the compiled core, its clear error when missing, the CLI entry point."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_missing_core_gives_build_instructions():
    """Importing ulm without the compiled core says how to build it."""
    code = ("import sys; sys.modules['ulm._fastcore'] = None\n"
            "try:\n    import ulm\nexcept ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert "not built" in out.stdout
    assert "pip install ." in out.stdout
    assert "build_ext --inplace" in out.stdout


def test_core_state_is_a_plain_struct_copy():
    """clone() copies the whole state: changing the clone leaves the original alone."""
    import ulm
    s = ulm.Game(players=3).new_game(1)
    c = s.clone()
    c.apply_action(c.string_to_action("draw"))
    assert s.string_to_action("draw") in s.legal_actions()
    assert c.is_chance_node() and not s.is_chance_node()


def test_python_m_cli_runs():
    out = subprocess.run([sys.executable, "-m", "cli", "--help"], capture_output=True, text=True,
                         cwd=ROOT)
    assert out.returncode == 0
    for command in ("new", "show", "validate", "replay", "suggest", "play", "tournament", "bench"):
        assert command in out.stdout


def test_type_stub_lists_every_public_name_of_the_core():
    """ulm/_fastcore.pyi stays in step with the compiled module."""
    import ast

    from ulm import _fastcore
    tree = ast.parse((ROOT / "ulm" / "_fastcore.pyi").read_text())
    stubbed = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            stubbed.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            stubbed.add(node.target.id)
    public = {n for n in dir(_fastcore) if not n.startswith("_")}
    assert stubbed == public
    for cls in ("State", "CoreGame"):
        methods = {n for n in dir(getattr(_fastcore, cls)) if not n.startswith("_")}
        stub_cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
        stub_methods = {n.name for n in stub_cls.body
                        if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")}
        stub_methods |= {n.target.id for n in stub_cls.body if isinstance(n, ast.AnnAssign)}
        assert methods == stub_methods, cls


def test_every_rule_is_named_by_a_test():
    """Every rule ID of docs/rules.md is named by a test (in the ID's form or with
    underscores), and docs/rules.md lists every ID once."""
    import re
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    ids = re.findall(r"^- \*\*(R-[A-Z0-9-]+)\*\*", text, flags=re.M)
    assert len(ids) > 100 and len(set(ids)) == len(ids)
    tests = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").glob("*.py")
                      if p.name != "test_package.py")
    untested = [i for i in ids if i not in tests and i.replace("-", "_") not in tests]
    assert not untested, untested
