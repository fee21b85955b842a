"""Each root decision in points (mcts/searcher/_tree.pxi `root_points`, mcts/searcher/search.py
ActionStats.expected_score / margin / points_by_source): the figures are the
means over the iterations through the decision of the final scores (at a
cut-off: the evaluation's predicted final scores), recounted here one
iteration at a time."""
import math
import random

import pytest

import ulm
from mcts.searcher.search import POINT_SOURCES, action_name, search

from constructed import decided_game
from helpers import EXAMPLES, edit

FULL = {"horizon": -1}      # rollouts to the end of the game: final scores
CUT = {}                    # the default search: rollouts cut off, scored by the evaluation


def opening(players: int = 2, seed: int = 1):
    state = ulm.Game(players=players, variant="basic").new_game(seed)
    state.apply_action(1)           # the draw (forced)
    state.resolve_chance()
    return state


def recount(tree, iterations: int) -> dict:
    """Grow `tree` one iteration at a time; per root decision, the scores of
    the iterations through it, read from the growth of the search's totals
    (`totals`: the scores of every iteration) and of the decision's count."""
    def counts():
        return {row[0]: row[5] for row in tree.root_stats()}
    seen: dict = {}
    scores, n = tree.totals()[1], counts()
    for _ in range(iterations):
        assert tree.run(1) == 1
        after, n_after = tree.totals()[1], counts()
        grown = [k for k in n_after if n_after[k] != n.get(k, 0)]
        assert len(grown) == 1
        seen.setdefault(grown[0], []).append([a - b for a, b in zip(after, scores)])
        scores, n = after, n_after
    return seen


def margin(scores, me):
    return scores[me] - max(s for p, s in enumerate(scores) if p != me)


@pytest.mark.parametrize("options", [FULL, CUT], ids=["to the end", "cut off"])
@pytest.mark.parametrize("players", [2, 4])
def test_the_point_sums_are_those_of_the_iterations_through_each_decision(options, players):
    state = opening(players)
    tree = search(state, iterations=1, seed=5, **options).tree
    me = tree.root_player
    before = tree.root_points()
    seen = recount(tree, 300)
    after = tree.root_points()
    assert len(seen) > 1
    for key, rows in seen.items():
        scores0, margin0, square0, _ = before.get(key, [[0.0] * players, 0.0, 0.0, None])
        scores, margin_sum, square_sum, _ = after[key]
        assert [a - b for a, b in zip(scores, scores0)] == pytest.approx(
            [sum(r[p] for r in rows) for p in range(players)], rel=1e-9, abs=1e-6)
        assert margin_sum - margin0 == pytest.approx(sum(margin(r, me) for r in rows), abs=1e-6)
        assert square_sum - square0 == pytest.approx(sum(margin(r, me) ** 2 for r in rows),
                                                     rel=1e-9, abs=1e-6)
        if options is FULL:         # the end of the game: whole points
            assert all(float(x).is_integer() for r in rows for x in r)
    if options is CUT:              # the evaluation's predicted scores, not whole points
        assert not all(float(x).is_integer() for rows in seen.values() for r in rows for x in r)


def test_at_a_cut_off_the_points_are_the_evaluation_s_predicted_scores():
    """A decision whose position is a turn start (the next seat's draw), the
    rollout cut off there (horizon 0), searched in one known world with a tree
    of the root and that decision only: every iteration ends in the same
    position, and its points are the evaluation's predicted final scores there,
    its sources the points banked and the end-game items as they stand, the
    rest forecast."""
    from mcts.searcher._search import Searcher, eval_outcome_of, is_turn_start
    from mcts.searcher.params import PRESETS
    state, rnd = opening(2), random.Random(1)
    end = ulm.ACTION_NAMES.index("end turn")
    while True:
        if state.is_chance_node():
            state.resolve_chance()
            continue
        if end in state.legal_actions():
            after = state.clone()
            after.apply_action(end)
            if is_turn_start(after):
                break
        state.apply_action(rnd.choice(state.legal_actions()))
    me = state.current_player()
    params = PRESETS["baseline"].replace(seed=1, determinize=False, horizon=0, max_nodes=2,
                                         evaluation="learned")
    tree = Searcher(state, params, root_action=end)
    tree.run(50)
    scores, margin_sum, _, sources = tree.root_points()[end]
    numbers = params.evaluation.numbers(2)
    predicted, _ = eval_outcome_of(after, numbers.eval_weights, numbers.eval_win_weights)
    assert [s / 50 for s in scores] == pytest.approx(predicted, rel=1e-9)
    assert margin_sum / 50 == pytest.approx(margin(predicted, me), rel=1e-9)
    now = after.score_breakdown(me)
    assert [s / 50 for s in sources[:-1]] == [now[name] for name in POINT_SOURCES[:-1]]
    assert sources[-1] / 50 == pytest.approx(predicted[me] - now["total"], rel=1e-9)


@pytest.mark.parametrize("options", [FULL, CUT], ids=["to the end", "cut off"])
def test_each_decision_shows_its_mean_points_margin_and_sources(options):
    result = search(opening(2), iterations=600, seed=2, **options)
    tree, me = result.tree, result.player
    sums = tree.root_points()
    counted = {row[0]: row[5] for row in tree.root_stats()}
    for a in result.actions:
        n = counted[a.action]
        scores, margin_sum, square_sum, sources = sums[a.action]
        assert a.expected_score == pytest.approx([s / n for s in scores])
        assert a.margin == pytest.approx(margin_sum / n)
        spread = square_sum / n - (margin_sum / n) ** 2
        assert a.margin_error == pytest.approx(math.sqrt(max(spread, 0.0) / n))
        assert len(a.points_by_source) == len(POINT_SOURCES)
        # the sources add up to the decision's points; nothing forecast at the end
        assert sum(a.points_by_source) == pytest.approx(a.expected_score[me])
        if options is FULL:
            assert a.points_by_source[-1] == pytest.approx(0.0, abs=1e-9)
        data = a.to_dict()
        assert data["expected_score"] == list(a.expected_score)
        assert data["margin"] == a.margin and data["margin_error"] == a.margin_error
    data = result.to_dict()["points_breakdown"]
    best, rival = result.actions[0], result.actions[1]
    assert (data["decision"], data["rival"]) == (best.name, rival.name)
    for row in data["by_source"]:
        i = POINT_SOURCES.index(row["source"])
        assert row["decision"] == best.points_by_source[i]
        assert row["difference"] == pytest.approx(best.points_by_source[i] - rival.points_by_source[i])


def test_a_search_without_points_is_the_same_search():
    from mcts.searcher._search import Searcher
    from mcts.searcher.params import PRESETS
    state = opening(2)
    params = PRESETS["baseline"].replace(seed=3)
    with_points, without = Searcher(state, params), Searcher(state, params, points=False)
    with_points.run(400)
    without.run(400)
    assert with_points.root_stats() == without.root_stats()
    assert without.root_points() == {} and with_points.root_points()


# ---------------------------------------------------------------------------
# A decision that scores at once, and a game already decided

def scoring_position():
    """Blue's decision in a random 2-player game (seed 3) where a seal scores 2
    crests at once, put in the last round: the game ends after this round."""
    state = ulm.Game(players=2, variant="basic").new_game(3)
    rnd = random.Random(3)
    while True:
        if state.is_chance_node():
            state.resolve_chance()
            continue
        names = {action_name(a): a for a in state.legal_actions()}
        if "seal in Oath House" in names and _scores(state, names["seal in Oath House"]):
            break
        state.apply_action(rnd.choice(list(names.values())))
    return edit(state, round=9), names


def _scores(state, action) -> int:
    """The points the mover scores at once by `action`."""
    after = state.clone()
    after.apply_action(action)
    me = state.current_player()
    return after.scores()[me] - state.scores()[me]


def points_of(result, name):
    return next(a for a in result.actions if a.name == name)


def test_a_decision_that_scores_at_once_shows_its_points():
    state, names = scoring_position()
    me = state.current_player()
    after = state.clone()
    after.apply_action(names["seal in Oath House"])
    assert after.score_breakdown(me)["crests"] == state.score_breakdown(me)["crests"] + 2
    crests = POINT_SOURCES.index("crests")
    seal, end = (points_of(search(state, iterations=300, seed=1, horizon=-1,
                                  root_action=names[name]), name)
                 for name in ("seal in Oath House", "end turn"))
    assert seal.expected_score[me] >= end.expected_score[me] + 2
    assert seal.points_by_source[crests] >= end.points_by_source[crests] + 2


def test_where_every_alternative_wins_the_points_still_differ():
    state, _ = scoring_position()
    me = state.current_player()
    result = search(state, iterations=2000, seed=1, horizon=-1)
    garden, oath = points_of(result, "seal in Garden"), points_of(result, "seal in Oath House")
    assert garden.win_probability[me] == oath.win_probability[me] == 1.0
    assert garden.margin - oath.margin > 3 * math.hypot(garden.margin_error, oath.margin_error)
    rows = {row["source"]: row for row in result.to_dict()["points_breakdown"]["by_source"]}
    assert result.best.name == "seal in Garden"
    assert rows["coats of arms"]["difference"] > 0 > rows["crests"]["difference"]




def test_a_decided_game_s_review_shows_its_losses_in_points():
    from mcts.play.annotate import annotate
    rec, bad_at = decided_game()
    report = annotate(rec, seat=0, iterations=300, seed=0, by="points")
    note = next(n for n in report.notes if n.index == bad_at)
    # the win chances are flat: no loss by them ...
    assert note.win_before == note.best_win == note.played_win == 1.0
    assert not note.is_mistake()
    # ... but the points it gave away are a mistake
    assert note.points_loss > 1.0 and note.is_mistake(by="points")
    assert note.points_loss == pytest.approx(note.best_margin - note.played_margin)
    assert bad_at in [n.index for n in report.mistakes()]
    losses = [n.points_loss for n in report.mistakes()]
    assert losses == sorted(losses, reverse=True)
    data = report.to_dict()
    assert data["by"] == "points" and bad_at in data["mistakes"]
    assert data["decisions"][[n.index for n in report.notes].index(bad_at)]["points_loss"] \
        == note.points_loss
    by_chance = annotate(rec, seat=0, iterations=300, seed=0)
    assert bad_at not in [n.index for n in by_chance.mistakes()]


def run(*args):
    from click.testing import CliRunner
    from cli.main import main
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def decided_record(tmp_path_factory):
    rec, bad_at = decided_game()
    path = tmp_path_factory.mktemp("points") / "decided.json"
    rec.save(path)
    return path, bad_at


def test_annotate_by_points_on_the_command_line(decided_record):
    import json
    path, bad_at = decided_record
    res = run("annotate", path, "--as", "Red", "--iterations", 300, "--by", "points", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["by"] == "points" and bad_at in data["mistakes"]
    res = run("annotate", path, "--as", "Red", "--iterations", 300, "--by", "points", "--quiet")
    assert res.exit_code == 0, res.output
    assert "VP" in res.output and "A mistake loses more than 1 VP" in res.output
    line = next(row for row in res.output.splitlines() if row.startswith(f"  #{bad_at}"))
    assert "'end turn'" in line and " VP" in line


@pytest.mark.parametrize("value", ["1", pytest.param("9" * 400, id="huge"), "-1", "nan", "", "poi", "Punkte",
                                   "points,chance", "POINTS "])
def test_annotate_refuses_a_bad_by(decided_record, value):
    from helpers import assert_input_error
    path, _ = decided_record
    res = run("annotate", path, "--as", "Red", "--iterations", 10, "--by", value)
    assert_input_error(res, "--by")


@pytest.mark.parametrize("value", [1, None, float("nan"), "", "poi", "Points", ["points"]])
def test_the_library_refuses_a_bad_by(value):
    from mcts.play.annotate import annotate, check_by
    with pytest.raises(ValueError, match="by: expected one of chance, points"):
        check_by(value)
    rec, _ = decided_game()
    with pytest.raises(ValueError, match="^by: "):
        annotate(rec, seat=0, iterations=10, by=value)


# ---------------------------------------------------------------------------
# ulm suggest: the points column, the JSON, what the viewer may know

def test_suggest_shows_the_points_of_each_alternative(tmp_path):
    import json
    from ulm.positions import state_to_position
    state, _ = scoring_position()
    me = state.current_player()
    path = tmp_path / "view.json"
    path.write_text(json.dumps(state_to_position(state, me)))
    res = run("suggest", path, "--iterations", 2000, "--seed", 1, "--quiet")
    assert res.exit_code == 0, res.output
    header = next(row for row in res.output.splitlines() if "decision" in row and "visits" in row)
    assert header.split()[-3:] == ["points", "lead", "±"]
    rows = {row.split("  ")[1].strip(): row.split() for row in res.output.splitlines()
            if row.startswith("  seal in") or row.startswith("  end turn")}
    assert float(rows["seal in Oath House"][-3]) >= float(rows["end turn"][-3]) + 2
    said = res.output.split("In points, ")[1].splitlines()[0]
    best, rival = _top_two(res.output)
    assert said.startswith(f"{best} against {rival}: ") and " VP (" in said
    res = run("suggest", path, "--iterations", 2000, "--seed", 1, "--json")
    data = json.loads(res.stdout)
    by_name = {a["name"]: a for a in data["actions"]}
    assert by_name["seal in Oath House"]["expected_score"][me] >= \
        by_name["end turn"]["expected_score"][me] + 2
    assert {"margin", "margin_error"} <= set(by_name["end turn"])
    assert data["points_breakdown"]["rival"] == data["actions"][1]["name"]


def _top_two(output: str) -> list:
    """The first two decisions of suggest's table of alternatives."""
    lines = output.split("Top alternatives")[1].splitlines()[2:4]
    return [line.split("  ")[1].strip() for line in lines]


@pytest.mark.parametrize("players", [2, 4])
def test_the_points_come_from_the_viewer_s_knowledge_only(players, tmp_path):
    import json
    from leaks import assert_no_leak, assert_same_for_worlds
    from ulm.positions import state_to_position
    state = opening(players, seed=7)
    viewer = state.current_player()

    def points(world):
        result = search(world, iterations=300, seed=4)
        return [[a.name, a.expected_score, a.margin, a.points_by_source]
                for a in result.actions], result.points_breakdown()
    assert_same_for_worlds(state, viewer, points)
    path = tmp_path / "view.json"
    path.write_text(json.dumps(state_to_position(state, viewer)))
    res = run("suggest", path, "--iterations", 300, "--json")
    assert res.exit_code == 0, res.output
    assert_no_leak(state, viewer, json.loads(res.stdout), "ulm suggest --json")


# ---------------------------------------------------------------------------
# The web companion: the advice in points, a review by points

def test_the_answer_carries_each_decision_s_points():
    state = opening(2)
    result = search(state, iterations=500, seed=1)
    data = result.to_dict()        # the one answer: suggest --json and the web's hints
    for row, a in zip(data["actions"], result.actions):
        assert row["expected_score"] == list(a.expected_score) and len(row["expected_score"]) == 2
        assert (row["margin"], row["margin_error"]) == (a.margin, a.margin_error)
    breakdown = data["points_breakdown"]
    assert (breakdown["decision"], breakdown["rival"]) == (result.actions[0].name,
                                                           result.actions[1].name)
    assert {row["source"] for row in breakdown["by_source"]} <= set(POINT_SOURCES)


@pytest.fixture
def client():
    from starlette.testclient import TestClient
    from cli.web.app import create_app
    with TestClient(headers={"content-type": "application/json"},
                    app=create_app(max_seconds=5, max_upload=400_000),
                    raise_server_exceptions=False) as c:
        yield c


def _review(client, record):
    r = client.post("/api/games", json={"mode": "review", "record": record})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def test_the_web_review_ranks_mistakes_by_points(client):
    from web_helpers import wait_for
    rec, bad_at = decided_game()
    gid = _review(client, rec.to_dict())
    job = client.post(f"/api/games/{gid}/annotate",
                      json={"seat": "Red", "seconds": 0.02, "by": "points"}).json()
    job = wait_for(client, f"/api/jobs/{job['id']}", lambda j: j["status"] != "running")
    assert job["status"] == "done", job
    report = job["result"]
    assert report["by"] == "points"
    notes = {n["index"]: n for n in report["decisions"]}
    assert notes[bad_at]["points_loss"] > 0 and notes[bad_at]["played_win"] == 1.0
    losses = [notes[i]["points_loss"] for i in report["mistakes"]]
    assert losses == sorted(losses, reverse=True)


@pytest.mark.parametrize("value", [1, True, pytest.param("x" * 10_000, id="huge"), -1, "NaN",
                                   "", "poi", "Punkte", ["points"], {"by": "points"}])
def test_the_web_review_refuses_a_bad_by(client, value):
    from web_helpers import error_of
    gid = _review(client, json_record())
    message = error_of(client.post(f"/api/games/{gid}/annotate",
                                   json={"seat": "Red", "seconds": 0.05, "by": value}), 400)
    assert message.startswith("by: expected one of chance, points")


def test_the_web_review_refuses_a_nan_by(client):
    from web_helpers import error_of
    gid = _review(client, json_record())
    body = '{"seat": "Red", "seconds": 0.05, "by": NaN}'
    message = error_of(client.post(f"/api/games/{gid}/annotate", content=body), 400)
    assert message.startswith("by: expected one of chance, points")


def json_record() -> dict:
    import json
    return json.loads((EXAMPLES /
                       "record-2p.json").read_text())


def test_the_review_s_plot_labels_a_mistake_by_points_with_its_loss_in_vp(monkeypatch, tmp_path):
    pytest.importorskip("matplotlib")
    import mcts.play.annotate
    from mcts.play.annotate import annotate
    rec, bad_at = decided_game()
    report = annotate(rec, seat=0, iterations=300, seed=0, by="points")
    figures = []
    monkeypatch.setattr(mcts.play.annotate, "_save_figure", lambda fig, path: figures.append(fig))
    monkeypatch.setattr("matplotlib.pyplot.close", lambda fig=None: None)
    report.plot(tmp_path / "plot.png", mark=len(report.mistakes()))
    labels = [t.get_text() for t in figures[0].axes[0].texts if "(loss " in t.get_text()]
    note = next(n for n in report.notes if n.index == bad_at)
    assert f"end turn\n(loss {100 * note.loss:.0f} points, {note.points_loss:.1f} VP)" in labels


def test_root_parallel_workers_sum_their_points():
    """With workers=2 each worker's tree is the search of its derived seed alone;
    the decisions' points are the sums of both trees over their iterations."""
    state = opening(2)
    merged = search(state, iterations=400, seed=3, workers=2)
    trees = [search(state, iterations=200, seed=ulm.derive_seed(3, i)).tree for i in range(2)]
    me = merged.player
    for a in merged.actions:
        sums = [t.root_points().get(a.action) for t in trees]
        counted = sum(n for t in trees for k, *_, n, _own in t.root_stats() if k == a.action)
        scores = [sum(s[0][p] for s in sums if s) for p in range(2)]
        assert a.expected_score == pytest.approx([s / counted for s in scores])
        assert a.margin == pytest.approx(sum(s[1] for s in sums if s) / counted)
        assert sum(a.points_by_source) == pytest.approx(a.expected_score[me])
