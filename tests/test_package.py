"""Packaging facts: the compiled core, its clear error when missing, the CLI entry point."""
import subprocess
import sys
from pathlib import Path



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
    tests = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("*.py")
                      if p.name != "test_package.py")
    untested = [i for i in ids if i not in tests and i.replace("-", "_") not in tests]
    assert not untested, untested


# ---------------------------------------------------------------------------
# the distribution: sdist, wheel contents, licence, dependencies

import ast  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import tarfile  # noqa: E402
import tomllib  # noqa: E402

import pytest  # noqa: E402
from helpers import ROOT  # noqa: E402

BUILD_PRODUCTS = shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", "__pycache__",
                                        "*.pyc", "*.so", "*.o", ".pytest_cache", ".benchmarks")
SHIPPED_FOLDERS = ("tests", "docs", "examples", "bench", "lab")


def _copy_of_the_tree(dest: Path) -> Path:
    """The source tree without build products (the generated .c is copied only so
    that Cython need not run again; the manifest leaves it out)."""
    shutil.copytree(ROOT, dest, ignore=BUILD_PRODUCTS)
    return dest


def _setup(tree: Path, *args: str) -> str:
    out = subprocess.run([sys.executable, "setup.py", "-q", *args], cwd=tree,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stderr


@pytest.fixture(scope="module")
def sdist(tmp_path_factory):
    """(names in the sdist relative to its top folder, its PKG-INFO text)."""
    tree = _copy_of_the_tree(tmp_path_factory.mktemp("src") / "ulm-engine")
    dist = tmp_path_factory.mktemp("dist")
    _setup(tree, "sdist", "-d", str(dist))
    (archive,) = dist.glob("*.tar.gz")
    with tarfile.open(archive) as tar:
        names = {m.name.split("/", 1)[1] for m in tar.getmembers() if "/" in m.name and m.isfile()}
        top = tar.getmembers()[0].name.split("/")[0]
        info = tar.extractfile(f"{top}/PKG-INFO").read().decode()
    return names, info


def _source_files(folder: str) -> set[str]:
    base = ROOT / folder
    return {str(p.relative_to(ROOT)) for p in base.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and ".benchmarks" not in p.parts
            and p.suffix not in (".pyc", ".so", ".c", ".o")}


def test_sdist_holds_what_its_tests_need(sdist):
    """tests (with their golden files), docs, examples and bench/ are in the sdist,
    so that its tests run; no generated C or compiled module is."""
    names, _ = sdist
    for folder in SHIPPED_FOLDERS:
        missing = _source_files(folder) - names
        assert not missing, (folder, sorted(missing))
    for name in ("LICENSE", "README.md", "CHANGELOG.md", "pyproject.toml", "setup.py", "MANIFEST.in",
                 "ulm/_fastcore.pyx", "ulm/_fastcore.pxd", "ulm/_api.pxi", "ulm/data/board.json",
                 "mcts/searcher/_search.pyx", "mcts/searcher/_search.pyi", "mcts/py.typed",
                 "mcts/searcher/_features.pxi", "mcts/searcher/models/learned-2p-v2.npz",
                 "tests/golden/legal_counts.txt", "examples/generate.py"):
        assert name in names, name
    built = sorted(n for n in names if n.endswith((".c", ".so", ".o", ".pyc"))
                   and n != "examples/engines/random_engine.c")    # a source the tests build
    assert "examples/engines/random_engine.c" in names
    assert not built, built
    # the docs describe the product: no patches of trials that were not kept
    assert not [n for n in names if n.endswith(".patch") or n.startswith("docs/trials/")]


def test_licence_and_metadata(sdist):
    _, info = sdist
    assert "License-Expression: MIT" in info and "License-File: LICENSE" in info
    assert "Classifier: Programming Language :: Cython" in info
    licence = (ROOT / "LICENSE").read_text()
    assert licence.startswith("MIT License") and "Copyright (c) 2026 the ulm-engine authors" in licence


def test_wheel_carries_no_generated_c(tmp_path):
    """What the wheel gets besides the compiled modules (build_py, from a tree in
    which Cython has left its .c files): the sources and data, no .c."""
    tree = _copy_of_the_tree(tmp_path / "src")
    egg = tmp_path / "egg"
    egg.mkdir()
    warnings = _setup(tree, "egg_info", "--egg-base", str(egg), "build_py", "--build-lib",
                      str(tmp_path / "lib"))
    # a package setuptools copies only as data, with a warning, until it stops copying it
    assert "absent from the `packages` configuration" not in warnings, warnings[-3000:]
    assert (tree / "ulm" / "_fastcore.c").is_file(), "setup.py cythonizes: the .c lies in the tree"
    files = {str(p.relative_to(tmp_path / "lib")) for p in (tmp_path / "lib").rglob("*")
             if p.is_file()}
    assert not [f for f in files if f.endswith(".c")], sorted(files)
    for name in ("ulm/_fastcore.pyx", "ulm/_fastcore.pxd", "ulm/_fastcore.pyi", "ulm/py.typed",
                 "ulm/data/board.json", "mcts/searcher/_search.pxd", "mcts/searcher/_search.pyi",
                 "mcts/py.typed",
                 "cli/main.py",
                 "mcts/searcher/models/learned-2p-v2.npz", "mcts/searcher/models/learned-3p-v2.npz",
                 "mcts/searcher/models/learned-4p-v2.npz"):
        assert name in files, name
    sources = {str(p.relative_to(ROOT)) for package in ("ulm", "mcts", "cli")
               for p in (ROOT / package).rglob("*.py")}
    sources |= {str(p.relative_to(ROOT)) for folder in ("cli/web/static", "mcts/searcher/models")
                for p in (ROOT / folder).iterdir() if p.is_file()}
    assert not sorted(sources - files), "every module is installed"


def _imported_modules() -> set[str]:
    found = set()
    for package in ("ulm", "mcts", "cli"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    found.update(a.name.split(".")[0] for a in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    found.add(node.module.split(".")[0])
                elif (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "require"
                      and node.args and isinstance(node.args[0], ast.Constant)):
                    found.add(node.args[0].value.split(".")[0])  # ulm.extras.require
    return found


def _names(requirements: list[str]) -> set[str]:
    return {re.split(r"[<>=!~ \[;]", d)[0].lower() for d in requirements}


def test_dependencies_are_what_the_package_imports():
    """The core depends on click, tqdm, openskill and numpy (`ulm train`); every
    other third-party import is declared in an extra (ulm/extras.py names them
    when they are missing); `all` gathers the extras and `test` installs all of
    them."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = _names(project["dependencies"])
    assert declared == {"click", "tqdm", "openskill", "numpy"}
    extras = project["optional-dependencies"]
    modules = {"web": {"starlette", "uvicorn", "httptools", "segno"},
               "picture": {"cairosvg", "pillow"},
               "plot": {"matplotlib"}, "tune": {"optuna"}, "cluster": {"distributed"},
               "rl": {"pettingzoo", "gymnasium"}, "openspiel": {"open-spiel"}}
    # the modules of a distribution named otherwise
    imports = {"pillow": {"PIL"}, "open-spiel": {"pyspiel"}}
    for extra, names in modules.items():
        assert _names(extras[extra]) == names, extra
    assert extras["all"] == [f"ulm-engine[{','.join(modules)}]"]
    assert "ulm-engine[all]" in extras["test"]
    imported = _imported_modules()
    third_party = {m for m in imported - {"ulm", "mcts", "cli"} if m not in sys.stdlib_module_names}
    expected = {m for n in declared | set().union(*modules.values()) for m in imports.get(n, {n})}
    assert third_party == expected, third_party
    assert "numpy" in _names(extras["peers"]) and "numpy" in declared
    assert 'version = "0.2.0"' in (ROOT / "pyproject.toml").read_text()
