"""One declaration for each option of a search (mcts.searcher.params): the bots'
options, `ulm bots`, `ulm suggest`'s shorthands, the web's checks and the
docs' table are all read from it."""
import json
import subprocess
import sys
import textwrap

from helpers import ROOT

from mcts.searcher.params import OPTIONS, SHORTHANDS

# A field declared in the one place, as an engineer adding an option writes it;
# the rest of the program is imported unchanged around it.
THROWAWAY = '''
    throwaway: float = option(
        0.25, _weight(1.0), spec="throwaway", parse=_number_text, shorthand="--throwaway",
        help="a throwaway option of the test")
'''

PROBE = textwrap.dedent('''
    import importlib.machinery, json, sys
    from click.testing import CliRunner

    class Loader(importlib.machinery.SourceFileLoader):
        def get_data(self, path):
            data = super().get_data(path)
            if path.endswith("params.py"):
                text = data.decode()
                at = text.index("    def __post_init__(self):\\n        if self.iterations")
                data = (text[:at] + THROWAWAY + "\\n" + text[at:]).encode()
            return data

    class Finder:
        def find_spec(self, name, path=None, target=None):
            if name != "mcts.searcher.params":
                return None
            spec = importlib.machinery.PathFinder.find_spec(name, path)
            spec.loader = Loader(name, spec.origin)
            return spec

    sys.meta_path.insert(0, Finder())
    from cli.main import main
    from cli.suggest_cmd import suggest_params
    from cli.web.checks import check_bot
    from mcts import SearchParams, make_bot
    from mcts.play.bots import OPTIONS, IsmctsBot

    run = lambda *args: CliRunner().invoke(main, list(args))
    found = {}
    found["table"] = "throwaway" in OPTIONS and "throwaway" in IsmctsBot.options
    found["spec"] = make_bot("ismcts:throwaway=0.5").params.throwaway
    found["to_spec"] = SearchParams(throwaway=0.75).to_spec()
    found["from_spec"] = SearchParams.from_spec(found["to_spec"]).throwaway
    try:
        SearchParams(throwaway=2.0)
    except ValueError as exc:
        found["checked"] = [exc.field, str(exc)]
    try:
        make_bot("ismcts:throwaway=nan")
    except ValueError as exc:
        found["spec_refused"] = str(exc)
    found["bots"] = run("bots").stdout
    found["bots_json"] = "throwaway" in json.loads(run("bots", "--json").stdout)["options"]
    found["markdown"] = run("bots", "--markdown").stdout
    found["suggest_help"] = run("suggest", "--help").stdout
    found["shorthand"] = suggest_params(None, {"throwaway": 0.5}, 2).throwaway
    found["web"] = check_bot("ismcts:throwaway=0.5,iterations=10", 30, "bot").params.throwaway
    print(json.dumps(found))
''')


def test_an_option_declared_once_reaches_every_surface():
    code = f"THROWAWAY = {THROWAWAY!r}\n" + PROBE
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    found = json.loads(out.stdout)
    assert found["table"]
    assert found["spec"] == 0.5
    assert found["to_spec"] == "ismcts:iterations=1000,throwaway=0.75"
    assert found["from_spec"] == 0.75
    assert found["checked"] == ["throwaway", "throwaway: must be a number from 0 to 1, got 2.0"]
    assert "ismcts: throwaway: must be a number from 0 to 1, got 'nan'" in found["spec_refused"]
    assert "  throwaway " in found["bots"] and "a throwaway option of the test" in found["bots"]
    assert found["bots_json"]
    assert "| `throwaway` | a throwaway option of the test | ismcts 0.25, cheat 0.25 | " \
           "`--throwaway` |" in found["markdown"]
    assert "--throwaway" in found["suggest_help"]
    assert found["shorthand"] == 0.5
    assert found["web"] == 0.5


def test_the_docs_show_the_option_table():
    """docs/commands.md holds the table `ulm bots --markdown` prints."""
    from click.testing import CliRunner

    from cli.main import main
    table = CliRunner().invoke(main, ["bots", "--markdown"]).stdout
    docs = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    start = docs.index("<!-- options: ulm bots --markdown -->\n") + len(
        "<!-- options: ulm bots --markdown -->\n")
    assert docs[start:docs.index("<!-- end of options -->")] == table
    for name in OPTIONS:
        assert f"| `{name}` |" in table


def test_the_shorthands_are_the_declared_ones():
    from click.testing import CliRunner

    from cli.main import main
    help_text = CliRunner().invoke(main, ["suggest", "--help"]).stdout
    assert set(SHORTHANDS) == {"--iterations", "--time", "--workers", "--seed", "--c",
                               "--rollout"}
    for flag in SHORTHANDS:
        assert flag in help_text
