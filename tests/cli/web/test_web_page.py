"""The page of `ulm serve` as ES modules (cli/web/static/*.js): served as JavaScript,
every import a file of the page, checked by TypeScript (`// @ts-check`, JSDoc
types; tsconfig.json, package.json: `npm ci` installs the pinned compiler), and
what the server knows (seats, bots, whether a hint may be asked) read from it
rather than written into the page. The page's behaviour: tests/cli/web/test_serve_browser.py."""
from __future__ import annotations

import mimetypes
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from cli.web.app import create_app
from helpers import ROOT

STATIC = ROOT / "cli" / "web" / "static"
MODULES = sorted(STATIC.glob("*.js"))
TSC = ROOT / "node_modules" / ".bin" / "tsc"
IMPORT = re.compile(r"""^\s*(?:import|export)\b[^"';]*?\bfrom\s+["']([^"']+)["']"""
                    r"""|import\(["']([^"']+)["']\)""", re.M)
JSON = {"content-type": "application/json"}


def _imports(module: Path) -> list[str]:
    return [a or b for a, b in IMPORT.findall(module.read_text())]


def test_the_page_runs_its_script_as_es_modules_each_checked():
    page = (STATIC / "index.html").read_text()
    scripts = re.findall(r"<script\b[^>]*>", page)
    assert scripts == ['<script type="module" src="/static/app.js">']
    assert len(MODULES) >= 8
    reached, todo = set(), [STATIC / "app.js"]
    while todo:                                     # every module reached from app.js
        module = todo.pop()
        if module in reached:
            continue
        reached.add(module)
        for name in _imports(module):
            assert name.startswith("./") and name.endswith(".js"), (module.name, name)
            target = (module.parent / name).resolve()
            assert target.parent == STATIC and target.is_file(), (module.name, name)
            todo.append(target)
    assert reached == set(MODULES), "a module no other imports"
    for module in MODULES:
        assert module.read_text().startswith("// @ts-check\n"), module.name
        assert "\n// @ts-nocheck" not in module.read_text() and "@ts-ignore" not in module.read_text()


def test_the_modules_are_served_as_javascript_whatever_the_systems_table_says():
    old = mimetypes.guess_type("x.js")[0]
    mimetypes.add_type("text/plain", ".js")         # as a Windows registry may have it
    try:
        with TestClient(create_app(max_seconds=5)) as client:
            for module in MODULES:
                r = client.get(f"/static/{module.name}")
                assert r.status_code == 200, module.name
                assert r.headers["content-type"].split(";")[0] == "text/javascript", module.name
    finally:
        mimetypes.add_type(old or "text/javascript", ".js")


def test_seats_and_bots_come_from_the_server_not_the_page():
    with TestClient(create_app(max_seconds=5)) as client:
        info = client.get("/api/info").json()
    assert info["seats"] == ["Red", "Blue", "Green", "Yellow"]
    assert info["default_bot"] in info["examples"] and "human" in info["examples"]
    for module in MODULES:
        text = module.read_text()
        for written in ("Red", "Yellow", "ismcts:iterations", '"greedy"'):
            assert written not in text, (module.name, written)


def _tsc(config: Path) -> subprocess.CompletedProcess:
    assert TSC.is_file(), "the TypeScript compiler is missing: run `npm ci` in the repository"
    return subprocess.run([str(TSC), "-p", str(config)], capture_output=True, text=True,
                          timeout=300, cwd=config.parent)


def test_the_page_script_passes_the_type_check():
    done = _tsc(ROOT / "tsconfig.json")
    assert done.returncode == 0, done.stdout + done.stderr
    config = (ROOT / "tsconfig.json").read_text()
    for option in ('"checkJs": true', '"strict": true', '"noEmit": true',
                   '"include": ["cli/web/static/*.js"]'):
        assert option in config
    assert re.search(r'"typescript": "\d+\.\d+\.\d+"', (ROOT / "package.json").read_text())
    assert "node_modules/" in (ROOT / ".gitignore").read_text().split()


PLANTED = [
    ("moves.js", "export const planted = ui.game.id;\n", "TS18047"),        # maybe null
    ("moves.js", 'export const planted = () => showAt("3");\n', "TS2345"),  # a wrong type
    ("advice.js", "export const planted = ui.job.kind === 'hints';\n", "TS"),
]


@pytest.mark.parametrize("module, line, code", PLANTED)
def test_a_type_error_planted_in_the_page_fails_the_check(tmp_path, module, line, code):
    shutil.copytree(STATIC, tmp_path / "static", ignore=shutil.ignore_patterns("*.html",
                                                                              "*.css", "*.svg"))
    with open(tmp_path / "static" / module, "a") as f:
        f.write(line)
    (tmp_path / "tsconfig.json").write_text(
        '{"extends": "%s", "include": ["static/*.js"]}' % (ROOT / "tsconfig.json"))
    done = _tsc(tmp_path / "tsconfig.json")
    assert done.returncode != 0 and code in done.stdout, done.stdout + done.stderr
    assert f"static/{module}" in done.stdout


# --- whether a hint may be asked: the server's rule, sent as can_hint ----------------------

def _hint_agrees(client, game: dict) -> None:
    """A hint asked now is taken (202) exactly when the game said can_hint."""
    r = client.post(f"/api/games/{game['id']}/hint", json={"seconds": 0.2})
    assert r.status_code == (202 if game["can_hint"] else 409), r.text
    if r.status_code == 202:
        client.delete(f"/api/jobs/{r.json()['id']}")


def test_can_hint_is_the_servers_rule_for_each_mode():
    with TestClient(create_app(max_seconds=5), headers=JSON) as c:
        g = c.post("/api/games", json={"mode": "play", "seats": ["human", "human"],
                                       "seed": 3}).json()
        assert g["can_hint"] is True                   # a person to move
        _hint_agrees(c, g)
        bots = c.post("/api/games", json={"mode": "play", "seats": ["greedy", "greedy"],
                                          "seed": 3}).json()
        assert bots["can_hint"] is False               # bots only: no person's decision
        f = c.post("/api/games", json={"mode": "follow", "players": 2, "seat": "Blue"}).json()
        assert f["to_move"] == "chance" and f["can_hint"] is False
        _hint_agrees(c, f)
        data = {"format": "ulm-record/1", "players": 2, "variant": "basic", "seed": 3,
                "decisions": []}
        rv = c.post("/api/games", json={"mode": "review", "record": data}).json()
        assert rv["to_move"] == "Red" and rv["can_hint"] is True     # everything seen
        seen = c.post(f"/api/games/{rv['id']}/goto", json={"index": 0, "as": "Blue"}).json()
        assert seen["viewer"] == "Blue" and seen["can_hint"] is False  # Red's decision
        _hint_agrees(c, seen)
        mine = c.post(f"/api/games/{rv['id']}/goto", json={"index": 0, "as": "Red"}).json()
        assert mine["can_hint"] is True
        _hint_agrees(c, mine)
