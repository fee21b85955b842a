"""The documents: docs/ describe the product as it is; the history of trials is
the dated research log in lab/; every relative link of the documents leads to
a file (and a heading) that exists."""
import re
from pathlib import Path

import pytest
from helpers import ROOT

DOCUMENTS = sorted([ROOT / "README.md", ROOT / "CHANGELOG.md", *(ROOT / "docs").glob("*.md"),
                    *(ROOT / "lab").glob("*.md"), *(ROOT / "bench").rglob("*.md")])
LINK = re.compile(r"\]\(([^)\s]+)\)")
# the headings of a research log, not of a product's description
TRIAL_HEADINGS = re.compile(r"^#+ .*(tried|goals stand|how much room)",
                            flags=re.I | re.M)
LOG_ENTRY = re.compile(r"^\d{4}-\d{2}-\d{2}-[a-z0-9-]+\.md$")


def _anchor(heading: str) -> str:
    """The anchor a heading gets (GitHub's: lower case, punctuation dropped,
    spaces as hyphens)."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _prose(path: Path) -> str:
    """The text of a document without its code blocks (whose lines may start with #)."""
    return re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)


def _anchors(path: Path) -> set:
    text = _prose(path)
    return {_anchor(h) for h in re.findall(r"^#+ (.+)$", text, flags=re.M)}


def _relative_links(path: Path) -> list:
    text = path.read_text(encoding="utf-8")
    return [t for t in LINK.findall(text) if not re.match(r"[a-z]+:", t)]


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_somewhere(document):
    for link in _relative_links(document):
        target, _, anchor = link.partition("#")
        path = (document.parent / target).resolve() if target else document
        assert path.exists(), f"{document.relative_to(ROOT)}: {link}: no such file"
        if anchor and path.suffix == ".md":
            assert anchor in _anchors(path), f"{document.relative_to(ROOT)}: {link}: no such heading"


def test_docs_hold_no_history_of_trials():
    """docs/ say what the product is; what was tried and not kept, where the
    goals stood and what is untried are in lab/."""
    assert not (ROOT / "docs" / "training-results.md").exists()
    for document in (ROOT / "docs").glob("*.md"):
        found = TRIAL_HEADINGS.findall(_prose(document))
        assert not found, (document.name, found)


def test_the_research_log_is_dated_and_listed():
    """Each entry of lab/ is a file named by its date, listed in lab/README.md."""
    index = (ROOT / "lab" / "README.md").read_text(encoding="utf-8")
    entries = [p.name for p in (ROOT / "lab").glob("*.md") if p.name != "README.md"]
    assert entries
    for name in entries:
        assert LOG_ENTRY.match(name), name
        assert f"]({name})" in index, name


def test_the_research_scripts_are_in_lab_not_bench():
    """bench/ holds benchmarks; the research scripts are in lab/, and the
    evaluation's weights name the script that wrote them."""
    import json
    for script in ("calibrate_eval.py", "decision_agreement.py"):
        assert (ROOT / "lab" / script).exists() and not (ROOT / "bench" / script).exists()
    for weights in (ROOT / "mcts").glob("eval_weights*.json"):
        made = json.loads(weights.read_text(encoding="utf-8"))["generated_by"]
        assert made.startswith("python lab/calibrate_eval.py "), (weights.name, made)


# --- the answer of a search: one shape, documented once ------------------------------------

ANSWER_SECTION = "### The answer of a search"
ANSWER_ROW = re.compile(r"^\| ([a-z_\[\]]+) \| `([a-z_]+)` \|", flags=re.M)


def _documented_answer() -> set:
    """(object, field) of every row of the answer's table in docs/library.md."""
    text = (ROOT / "docs" / "library.md").read_text(encoding="utf-8")
    section = text.split(ANSWER_SECTION, 1)[1].split("\n#", 1)[0]
    return set(ANSWER_ROW.findall(section))


def _emitted_answer(answer: dict) -> set:
    """(object, field) of every field of an answer, its lists' items included."""
    step, decision = answer["principal_line"][0], answer["actions"][0]
    breakdown = answer["points_breakdown"]
    return ({("answer", k) for k in answer} | {("principal_line[]", k) for k in step}
            | {("actions[]", k) for k in decision} | {("stats", k) for k in answer["stats"]}
            | {("points_breakdown", k) for k in breakdown}
            | {("by_source[]", k) for k in breakdown["by_source"][0]})


def test_the_answer_s_documented_fields_are_the_fields_it_has():
    """docs/library.md lists each field of SearchResult.to_dict (what suggest --json
    prints and the web's hints carry) once, and nothing else."""
    import ulm
    from mcts import search
    state = ulm.Game(players=2).new_game(seed=3)
    state.apply_action_string("draw")
    state.resolve_chance()
    answer = search(state, iterations=300, seed=1).to_dict()
    assert answer["principal_line"] and answer["points_breakdown"], answer
    documented = _documented_answer()
    assert len(documented) == len(ANSWER_ROW.findall(
        (ROOT / "docs" / "library.md").read_text().split(ANSWER_SECTION, 1)[1]
        .split("\n#", 1)[0])), "a field documented twice"
    assert documented == _emitted_answer(answer)


def test_the_commands_and_the_server_s_documents_point_to_the_answer_s_shape():
    link = "library.md#the-answer-of-a-search"
    for name in ("commands.md", "serve.md", "player-tools.md"):
        assert link in (ROOT / "docs" / name).read_text(encoding="utf-8"), name
