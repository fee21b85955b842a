"""The layers of the house: ulm <- mcts <- cli. A module imports only from its
own layer and the ones below; nothing outside ulm/ reaches into its private
modules (ulm._fastcore and the like: `ulm` exports what others need); and no
two modules import each other, directly or round a cycle. Imports inside
functions count as much as those at the top."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = {"ulm": 0, "mcts": 1, "cli": 2}


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


def against_the_layers(graph: dict) -> list:
    def layer(m):
        return LAYERS.get(m.split(".")[0], len(LAYERS))     # bench/ stands on top
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
    (tmp_path / "ulm" / "_core.pyx").write_text("")
    (tmp_path / "ulm" / "rules.py").write_text("def f():\n    import mcts.search\n")
    (tmp_path / "mcts" / "search.py").write_text("from ulm import _core\nimport mcts.bots\n")
    (tmp_path / "mcts" / "bots.py").write_text("from mcts.search import x\n")
    graph = project_graph(tmp_path)
    assert private_imports(graph) == ["mcts.search -> ulm._core"]
    assert against_the_layers(graph) == ["ulm.rules -> mcts.search"]
    assert cycles(graph) == ["mcts.bots -> mcts.search -> mcts.bots"]
