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
