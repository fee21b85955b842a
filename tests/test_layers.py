"""The layers of the house: ulm <- mcts <- cli, and inside mcts the search <-
play <- learning (mcts.searcher <- mcts.play <- mcts.learning, with the
package's own __init__ on top, naming the public API). A module imports only
from its own layer and the ones below; nothing outside ulm/ reaches into its private
modules (ulm._fastcore and the like: `ulm` exports what others need); and no
two modules import each other, directly or round a cycle. Imports inside
functions count as much as those at the top."""
import ast
from pathlib import Path
from helpers import ROOT

LAYERS = {"ulm": 0, "mcts": 1, "cli": 2}
# mcts's subpackages, lowest first; `mcts` itself (its __init__) stands on all three
MCTS_LAYERS = ("mcts.searcher", "mcts.play", "mcts.learning")


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, known: set) -> set:
    """The project modules `path` imports (a `from X import y` names X.y when X.y is a
    module of the project, else X)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                found.add(sub if sub in known else node.module)
    return {m for m in found if m.split(".")[0] in LAYERS or m.split(".")[0] == "bench"}


def project_graph(root: Path = ROOT) -> dict:
    paths = [p for package in (*LAYERS, "bench") for p in (root / package).rglob("*.py")]
    known = {module_name(p, root) for p in paths}
    known |= {module_name(p, root) for package in LAYERS for p in (root / package).glob("*.pyx")}
    return {module_name(p, root): imports_of(p, known) for p in paths}


def private_imports(graph: dict) -> list:
    return sorted(f"{m} -> {d}" for m, deps in graph.items() if not m.startswith("ulm")
                  for d in deps if d.startswith("ulm._"))


def layer(module: str) -> tuple:
    """Where `module` stands: its package's layer, then, inside mcts, its
    subpackage's (bench/ stands on top of everything)."""
    top = LAYERS.get(module.split(".")[0], len(LAYERS))
    if top != LAYERS["mcts"]:
        return (top, 0)
    for rank, sub in enumerate(MCTS_LAYERS):
        if module == sub or module.startswith(sub + "."):
            return (top, rank)
    return (top, len(MCTS_LAYERS))


def against_the_layers(graph: dict) -> list:
    return sorted(f"{m} -> {d}" for m, deps in graph.items() for d in deps
                  if layer(d) > layer(m))


def cycles(graph: dict) -> list:
    edges = {m: {d for d in deps if d in graph and d != m} for m, deps in graph.items()}
    found, state = [], {}

    def visit(m, stack):
        state[m] = "open"
        stack.append(m)
        for d in sorted(edges[m]):
            if state.get(d) == "open":
                found.append(" -> ".join(stack[stack.index(d):] + [d]))
            elif d not in state:
                visit(d, stack)
        stack.pop()
        state[m] = "done"

    for m in sorted(edges):
        if m not in state:
            visit(m, [])
    return found


def test_nothing_outside_ulm_imports_its_private_modules():
    assert private_imports(project_graph()) == []


def test_no_import_goes_against_the_layers():
    assert against_the_layers(project_graph()) == []


def test_no_import_cycles():
    assert cycles(project_graph()) == []


def test_the_checks_find_what_they_look_for(tmp_path):
    """Each check catches a planted fault (so the three tests above can fail)."""
    for package in ("ulm", "mcts", "cli"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    for sub in ("searcher", "play", "learning"):
        (tmp_path / "mcts" / sub).mkdir()
        (tmp_path / "mcts" / sub / "__init__.py").write_text("")
    (tmp_path / "ulm" / "_core.pyx").write_text("")
    (tmp_path / "ulm" / "rules.py").write_text("def f():\n    import mcts.searcher.search\n")
    (tmp_path / "mcts" / "searcher" / "search.py").write_text(
        "from ulm import _core\nimport mcts.play.bots\n")
    (tmp_path / "mcts" / "play" / "bots.py").write_text(
        "from mcts.searcher.search import x\nfrom mcts.learning import train\n")
    (tmp_path / "mcts" / "learning" / "train.py").write_text("from mcts import play\n")
    graph = project_graph(tmp_path)
    assert private_imports(graph) == ["mcts.searcher.search -> ulm._core"]
    assert against_the_layers(graph) == ["mcts.play.bots -> mcts.learning.train",
                                         "mcts.searcher.search -> mcts.play.bots",
                                         "ulm.rules -> mcts.searcher.search"]
    assert cycles(graph) == ["mcts.play.bots -> mcts.searcher.search -> mcts.play.bots"]


def test_mcts_modules_live_in_its_subpackages():
    """mcts/ holds its __init__ and the three subpackages, no loose modules: a
    module's folder says which concern it serves."""
    loose = sorted(p.name for p in (ROOT / "mcts").iterdir()
                   if p.suffix in (".py", ".pyx", ".pxd", ".pxi") and p.name != "__init__.py")
    assert loose == []
    assert sorted(p.name for p in (ROOT / "mcts").iterdir() if p.is_dir()
                  and (p / "__init__.py").exists()) == ["learning", "play", "searcher"]
