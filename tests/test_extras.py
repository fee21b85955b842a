"""The optional extras (pyproject.toml, ulm/extras.py): the core commands import
none of them; a command or option that needs a missing one says which extra to
install (`Error: ... needs the web extra: pip install 'ulm-engine[web]'`, exit
status 2, nothing written). A missing module is simulated by a None in
sys.modules, which makes `import name` fail."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest
from click.testing import CliRunner

from cli.main import main
from helpers import ROOT

EXAMPLES = ROOT / "examples"
# the modules of the extras web, picture, plot, tune and cluster (numpy is of the core:
# `ulm train`)
EXTRA_MODULES = ("starlette", "uvicorn", "segno", "cairosvg", "matplotlib", "optuna",
                 "distributed", "httpx", "PIL", "pettingzoo", "gymnasium", "pyspiel", "open_spiel")
# the entry points of an extra, which import it when they are imported
EXTRA_ENTRY_MODULES = ("ulm.pettingzoo", "ulm.openspiel")


def test_the_core_imports_no_extra_and_suggests_without_them():
    """Every module of ulm, mcts and cli (but the web companion, cli.web) imports
    with the extras blocked, and `ulm suggest` answers."""
    code = textwrap.dedent(f"""
        import importlib, json, pkgutil, sys
        for name in {EXTRA_MODULES!r}:
            sys.modules[name] = None
        import cli, mcts, ulm
        for pkg in (ulm, mcts, cli):
            for mod in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
                if (not mod.name.startswith("cli.web") and not mod.name.endswith("__main__")
                        and mod.name not in {EXTRA_ENTRY_MODULES!r}):
                    importlib.import_module(mod.name)
        from cli.main import main
        try:
            main(["suggest", {str(EXAMPLES / "push-4p-view.json")!r}, "--iterations", "300",
                  "--seed", "1", "--json"])
        except SystemExit as exc:
            assert not exc.code, exc.code
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-3000:]
    answer = json.loads(out.stdout)
    assert answer["seat"] == 1 and answer["best_action_name"], answer


def _blocked(monkeypatch, *modules):
    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)


@pytest.mark.parametrize("module, args, message", [
    ("uvicorn", ["serve", "--port", "0"], "ulm serve needs the web extra"),
    ("starlette", ["serve", "--port", "0"], "ulm serve needs the web extra"),
    ("segno", ["serve", "--port", "0", "--host", "127.0.0.1", "--lan", "--games", "OUT"],
     "ulm serve --lan needs the web extra"),
    ("cairosvg", ["show", "POSITION", "--png", "OUT"], "--png needs the picture extra"),
    ("cairosvg", ["suggest", "POSITION", "--iterations", "50", "--png", "OUT"],
     "--png needs the picture extra"),
    ("cairosvg", ["apply", "POSITION", "draw", "--png", "OUT"], "--png needs the picture extra"),
    ("matplotlib", ["annotate", "RECORD", "--as", "Red", "--iterations", "20", "--plot", "OUT"],
     "--plot needs the plot extra"),
    ("optuna", ["tune", "--bot", "ismcts:iterations=20", "--param", "c=0.1:1", "--against",
                "random", "--trials", "1", "--games-per-trial", "2", "--out", "OUT"],
     "ulm tune needs the tune extra"),
    ("distributed", ["tournament", "--bots", "greedy", "random", "--games", "2", "--scheduler",
                     "local:1", "--out", "OUT"], "--scheduler needs the cluster extra"),
])
def test_a_missing_extra_is_named_with_its_install_command(monkeypatch, tmp_path, module, args,
                                                            message):
    _blocked(monkeypatch, module)
    extra = message.split(" the ")[1].split()[0]
    out = tmp_path / "out"
    args = [{"POSITION": str(EXAMPLES / "push-4p-view.json"),
             "RECORD": str(EXAMPLES / "record-2p.json"), "OUT": str(out)}.get(a, a) for a in args]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2, res.output
    assert res.stderr == f"Error: {message}: pip install 'ulm-engine[{extra}]'\n"
    assert res.stdout == "" and "Traceback" not in res.output
    assert not out.exists()


def test_the_library_raises_an_import_error_naming_the_extra(monkeypatch, tmp_path):
    import ulm
    from ulm.extras import MissingExtra
    from ulm.picture import board_png
    _blocked(monkeypatch, "cairosvg")
    state = ulm.Game(players=2).new_game(seed=1)
    with pytest.raises(ImportError, match=r"pip install 'ulm-engine\[picture\]'") as info:
        board_png(state, tmp_path / "b.png")
    assert isinstance(info.value, MissingExtra) and info.value.name == "cairosvg"
    assert not (tmp_path / "b.png").exists()


def test_tournament_and_ladder_without_the_plot_extra_skip_their_plot(monkeypatch, tmp_path):
    """The plots that tournaments and ladders write on their own are left out, with a note."""
    _blocked(monkeypatch, "matplotlib")
    res = CliRunner().invoke(main, ["tournament", "--bots", "greedy", "random", "--games", "2",
                                    "--workers", "1", "--quiet", "--out", str(tmp_path / "t")])
    assert res.exit_code == 0, res.output
    assert ("Note: win_rates.png needs the plot extra: pip install 'ulm-engine[plot]'; "
            "it is not drawn") in res.stderr
    assert (tmp_path / "t" / "results.json").is_file()
    assert not (tmp_path / "t" / "win_rates.png").exists()
    assert "win_rates.png" not in res.stdout
    res = CliRunner().invoke(main, ["ladder", "--low", "8", "--high", "16", "--games", "2",
                                    "--workers", "1", "--quiet", "--out", str(tmp_path / "l")])
    assert res.exit_code == 0, res.output
    assert "Note: ladder.png needs the plot extra" in res.stderr
    assert (tmp_path / "l" / "ladder.json").is_file()
    assert not (tmp_path / "l" / "ladder.png").exists()
