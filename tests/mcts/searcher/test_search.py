"""The ISMCTS search (mcts/searcher/_search.pyx, mcts/searcher/search.py)."""
import pytest
from constructed import hidden_variants, joker_wastes, river_wins, seal_wins
from helpers import ACTIONS, ROOT, edit, edit_player, fresh, give_descendant, legal, set_grid

import ulm
from mcts import NODE_BYTES, search
from mcts.play.bots import make_bot
from mcts.searcher._search import HIDDEN_KEY, Searcher, heuristic_action_for, playout_scores
from mcts.searcher.params import PRESETS
from mcts.searcher.search import VALUE_BYTES


def comparable(result):
    """A result without its timings."""
    d = result.to_dict()
    for k in ("seconds", "iterations_per_second"):
        d["stats"].pop(k)
    return d


# ---------------------------------------------------------------------------

def test_node_bytes_is_small():
    assert NODE_BYTES == 32


def test_result_fields():
    s = fresh(players=4, seed=1)
    s.apply_action(1)
    s.resolve_chance()          # the first push
    r = search(s, iterations=300, seed=2)
    assert r.player == 0 and r.num_players == 4
    assert r.iterations == 300 and not r.forced
    assert r.tree_nodes >= 2
    assert r.best_action in s.legal_actions()
    assert sum(a.visits for a in r.actions) == 300
    assert all(a.availability >= a.visits for a in r.actions)
    assert len(r.win_probability) == 4 and abs(sum(r.win_probability) - 1) < 1e-9
    assert len(r.expected_score) == 4
    assert r.iterations_per_second > 0
    d = r.to_dict()
    assert set(d) >= {"best_action", "principal_line", "actions", "win_probability",
                      "expected_score", "stats"}
    assert d["stats"]["node_bytes"] == NODE_BYTES + VALUE_BYTES     # the default's minimax values
    assert d["stats"]["minimax"] > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_forced_decision_carries_the_estimate_of_the_position_behind_it(players):
    s = fresh(players=players, seed=1)
    assert s.legal_actions() == [1]             # only "draw" is legal
    r = search(s, iterations=2000, seed=2)
    assert r.forced and r.to_dict()["stats"]["forced"] is True
    assert r.iterations == 2000 and r.best.visits == 2000 and r.best_action_name == "draw"
    # real win chances: each strictly between 0 and 1, summing to 1
    assert all(0 < w < 1 for w in r.win_probability), r.win_probability
    assert sum(r.win_probability) == pytest.approx(1.0)
    assert sum(r.best.win_probability) == pytest.approx(1.0)
    assert all(score > 0 for score in r.expected_score)
    assert [step.name for step in r.principal_line()] == ["draw"]
    # the same as searching the position: every visit goes through the draw
    s.apply_action(1)
    s.resolve_chance()
    assert not search(s, iterations=50, seed=2).forced


def test_forced_decision_of_a_view_and_at_the_end_of_the_game():
    from ulm.positions import load_position
    view, seat = load_position(ROOT / "examples" / "new-2p.json")
    r = search(view, iterations=500, seed=1)
    assert r.forced and all(0 < w < 1 for w in r.win_probability)
    # the last forced decisions of a game: the estimates still sum to 1
    s = fresh(players=2, seed=5)
    bot = make_bot("random:seed=5")
    seen = 0
    while not s.is_terminal():
        if s.current_player() < 0:
            s.resolve_chance()
            continue
        if len(s.legal_actions()) == 1 and s.raw()["round"] == 9:
            r = search(s, iterations=200, seed=seen)
            assert r.forced and r.iterations == 200
            assert sum(r.win_probability) == pytest.approx(1.0)
            seen += 1
        s.apply_action(bot.choose(s))
    assert seen > 0


def test_root_action_searches_one_decision_alone():
    s = fresh(players=2, seed=1)
    s.apply_action(1)
    s.resolve_chance()
    legal = s.legal_actions()
    full = search(s, iterations=2000, seed=3)
    worst = full.actions[-1].action
    own = search(s, iterations=2000, seed=3, root_action=worst)
    assert [a.action for a in own.actions] == [worst]
    assert own.best.visits == 2000 and sum(own.win_probability) == pytest.approx(1.0)
    assert own.win_probability == pytest.approx(own.best.win_probability)
    # its estimate is its own, not the full search's
    assert own.best.win_probability[0] < full.best.win_probability[0]
    with pytest.raises(ValueError, match="root_action"):
        search(s, iterations=10, root_action=max(legal) + 1 if max(legal) + 1 not in legal else 0)
    with pytest.raises(ValueError, match="root_action"):
        Searcher(s, root_action=0 if 0 not in legal else 999)


def test_a_deadline_passed_stops_the_search():
    s = fresh(players=4, seed=1)
    s.apply_action(1)
    s.resolve_chance()
    # time left of zero or less: one iteration, then stop (it once meant "no limit")
    tree = Searcher(s, PRESETS["baseline"].replace(seed=1))
    assert tree.run(5000, -0.5) == 1
    assert tree.run(5000, 0.0) == 1
    assert search(s, time=1e-9, seed=1).iterations == 1
    r = search(s, time=1e-9, seed=1, workers=2)
    assert 1 <= r.iterations <= 2 and r.best.visits >= 1
    calls = []
    r = search(s, time=1e-9, seed=1, progress=lambda done, elapsed: calls.append(done))
    assert r.iterations == 1 and calls == [1]


def test_budgets_are_bounded():
    from mcts.play.bots import make_bot
    from mcts.searcher.search import MAX_ITERATIONS, MAX_SECONDS
    s = fresh(players=2, seed=1)
    with pytest.raises(ValueError, match="time: at most 3600 seconds"):
        search(s, time=1e308)
    with pytest.raises(ValueError, match="iterations: at most 2,147,483,647"):
        search(s, iterations=99999999999999999999)
    with pytest.raises(ValueError, match="iterations: at most"):
        make_bot("ismcts:iterations=99999999999999999999")
    with pytest.raises(ValueError, match="time: at most"):
        make_bot("ismcts:time=1e308")
    assert MAX_SECONDS == 3600 and MAX_ITERATIONS == 2 ** 31 - 1
    make_bot(f"ismcts:iterations={MAX_ITERATIONS}")         # the bound itself is allowed


def test_same_seed_same_result():
    s = fresh(players=3, seed=4)
    ulm_draw = s.legal_actions()[0]
    s.apply_action(ulm_draw)
    s.resolve_chance()          # a push decision with 12+ choices
    a = search(s, iterations=1500, seed=7)
    b = search(s, iterations=1500, seed=7)
    assert comparable(a) == comparable(b)
    c = search(s, iterations=1500, seed=8)
    assert [x.visits for x in c.actions] != [x.visits for x in a.actions]


def test_same_seed_same_result_heuristic_rollouts_and_workers():
    s = fresh(players=2, seed=5)
    s.apply_action(1)
    s.resolve_chance()
    a = search(s, iterations=800, seed=3, rollout="heuristic", workers=2)
    b = search(s, iterations=800, seed=3, rollout="heuristic", workers=2)
    assert a.iterations == 800 and a.workers == 2
    assert comparable(a) == comparable(b)


def test_no_peeking_at_hidden_information():
    """R-INFO-4: the searcher uses only the mover's knowledge."""
    a, b = hidden_variants()
    assert a.raw() != b.raw()
    ra = search(a, iterations=2000, seed=5)
    rb = search(b, iterations=2000, seed=5)
    assert comparable(ra) == comparable(rb)


def test_no_peeking_mid_turn_with_heuristic_rollouts():
    a, b = hidden_variants(players=3)
    for s in (a, b):
        s.apply_action(1)
        s.seed_dealer(9)
        s.resolve_chance()
    assert a.legal_actions() == b.legal_actions()
    ra = search(a, iterations=1000, seed=1, rollout="heuristic")
    rb = search(b, iterations=1000, seed=1, rollout="heuristic")
    assert comparable(ra) == comparable(rb)


def test_cheat_mode_does_see_hidden_information():
    """determinize=False searches the given state as if it were known (reference bot)."""
    a, b = hidden_variants()
    ra = search(a, iterations=2000, seed=5, determinize=False)
    rb = search(b, iterations=2000, seed=5, determinize=False)
    assert comparable(ra) != comparable(rb)


def _walk(children, depth=0, out=None):
    """(key, mover, depth) of every node of an exported tree."""
    out = [] if out is None else out
    for key, (_visits, _reward, _avail, _chance, mover, kids) in children.items():
        out.append((key, mover, depth))
        _walk(kids, depth + 1, out)
    return out


def _is_card_keep(key):
    name = ulm.ACTION_NAMES[key] if key < len(ulm.ACTION_NAMES) else ""
    return name.startswith("keep ") and name[5:] in ulm.CARDS


def test_opponent_card_keep_is_one_hidden_child():
    """Seat 0 ends the turn; seat 1 (Councilman, R-DESC-COUNCIL) pushes into an all-brown
    grid, buys and keeps 1 of 2 cards. Seen by seat 0 that keep is one child keyed
    HIDDEN_KEY (action_for_observer), never the concrete card."""
    s = fresh(players=2, seed=2)
    set_grid(s, "brown brown brown / brown brown brown / brown brown brown")
    edit(s, phase=ACTIONS, avail=[0, 0, 0, 0, 0])
    edit_player(s, 0, hand=0)
    edit_player(s, 1, hand=0, supply={"gray": 2})
    give_descendant(s, "Councilman", 1)
    assert legal(s) == ["end turn"]
    tree = Searcher(s, PRESETS["baseline"].replace(seed=3))
    tree.run(5000)
    nodes = _walk(tree.tree_dict(max_depth=8))
    keeps = [(k, m) for k, m, _ in nodes
             if k == HIDDEN_KEY or _is_card_keep(k)]
    assert keeps and all(k == HIDDEN_KEY and m == 1 for k, m in keeps)
    # the same search seen by seat 1 itself (perfect information): concrete keeps
    cheat = Searcher(s, PRESETS["baseline"].replace(seed=3, determinize=False))
    cheat.run(5000)
    keeps = [k for k, m, _ in _walk(cheat.tree_dict(max_depth=8))
             if k == HIDDEN_KEY or _is_card_keep(k)]
    assert keeps and HIDDEN_KEY not in keeps


def test_seal_that_wins_the_game_is_found():
    s = seal_wins()
    assert legal(s) == ["end turn", "seal in Tillage"]
    r = search(s, iterations=400, seed=0)
    assert r.best_action_name == "seal in Tillage"
    assert r.best.win_probability[1] > 0.95
    line = [step.name for step in r.principal_line()]
    assert line[0] == "seal in Tillage"
    # the seal is followed by the Tillage privilege's dock choice (then a chance refill)
    assert line[1].startswith("take ") and r.principal_line()[-1].chance_after


def test_river_step_over_the_bridge_is_found():
    s = river_wins()
    r = search(s, iterations=600, seed=0)
    line = [step.name for step in r.principal_line()]
    assert "river step" in line and line[-1] == "end turn"
    assert r.best_action_name != "end turn"
    assert r.win_probability[1] > 0.6


def test_no_sparrow_wasted_on_an_unusable_action():
    s = joker_wastes()
    assert any(n.startswith("joker") for n in legal(s))
    r = search(s, iterations=800, seed=0)
    assert not r.best_action_name.startswith("joker")
    assert sum(a.share for a in r.actions if a.name.startswith("joker")) < 0.15
    assert not any(step.name.startswith("joker") for step in r.principal_line())
    assert r.best.win_probability[1] == 1.0


def test_principal_line_stops_at_chance_and_end_of_turn():
    s = fresh(players=2, seed=1)
    s.apply_action(1)
    s.resolve_chance()
    r = search(s, iterations=3000, seed=0)
    line = r.principal_line()
    assert line and line[0].action == r.best_action
    assert not any(step.chance_after for step in line[:-1])
    t = s.clone()
    for step in line:           # the line is the mover's own, all inside this turn
        assert t.current_player() == 0
        t.apply_action(step.action)
    assert line[-1].chance_after or t.current_player() != 0 or t.is_terminal()
    assert all(0 <= step.value <= 1.2 for step in line)


def test_forced_decision_is_reported_by_suggest_format():
    s = fresh(players=2, seed=1)
    r = search(s, iterations=300, seed=0)
    assert [step.name for step in r.principal_line()] == ["draw"]
    from cli.suggest_cmd import format_result
    text = format_result(r, s, 0, "p.json")
    assert "only legal decision: draw" in text
    # the estimates of the position behind it are shown, never 0%
    for p in range(2):
        assert f"{100 * r.win_probability[p]:5.1f}%" in text
    assert "  0.0%" not in text and "300 iterations" in text


def test_time_budget_and_progress():
    s = fresh(players=4, seed=1)
    s.apply_action(1)
    s.resolve_chance()
    calls = []
    r = search(s, time=0.3, seed=0, progress=lambda done, elapsed: calls.append((done, elapsed)))
    assert r.iterations > 100
    assert 0.25 < r.seconds < 1.5
    assert len(calls) >= 2
    assert calls[-1][0] == r.iterations
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_progress_with_iterations_is_deterministic():
    s = fresh(players=2, seed=1)
    s.apply_action(1)
    s.resolve_chance()
    calls = []
    a = search(s, iterations=3000, seed=4, progress=lambda d, e: calls.append(d))
    b = search(s, iterations=3000, seed=4)
    assert comparable(a) == comparable(b)
    assert calls[-1] == 3000


def test_workers_merge_root_statistics():
    s = fresh(players=4, seed=2)
    s.apply_action(1)
    s.resolve_chance()
    calls = []
    r = search(s, iterations=2001, seed=1, workers=2, progress=lambda d, e: calls.append(d))
    assert r.workers == 2 and r.iterations == 2001
    assert sum(a.visits for a in r.actions) == 2001
    assert calls and calls[-1] == 2001


def test_tree_stops_growing_when_full():
    s = fresh(players=2, seed=1)
    s.apply_action(1)
    s.resolve_chance()
    r = search(s, iterations=2000, seed=0, max_nodes=50)
    assert r.iterations == 2000
    assert r.tree_nodes == 50
    assert r.tree_full and r.stats["tree_full"] is True
    assert not search(s, iterations=20, seed=0).tree_full


@pytest.mark.parametrize("kwargs, message", [
    (dict(iterations=0), "iterations"),
    (dict(iterations=1.5), "iterations"),
    (dict(time=-1), "time"),
    (dict(rollout="smart"), "rollout"),
    (dict(workers=0), "workers"),
    (dict(c=-0.1), "c"),
    (dict(c=float("nan")), "c: the exploration constant"),
    (dict(c=float("inf")), "c: the exploration constant"),
    (dict(time=float("nan")), "time"),
    (dict(margin_weight=float("nan")), "margin_weight"),
    (dict(margin_weight=-1.0), "margin_weight"),
])
def test_bad_arguments(kwargs, message):
    s = fresh(players=2)
    with pytest.raises(ValueError, match=message):
        search(s, **kwargs)


def test_root_must_be_a_decision():
    s = ulm.Game(players=2).new_initial_state()
    assert s.is_chance_node()
    with pytest.raises(ValueError, match="decision"):
        search(s, iterations=10)


def test_heuristic_policy_plays_sensible_turns():
    s = river_wins()
    # uses the available Money and River actions before ending the turn
    assert ulm.ACTION_NAMES[heuristic_action_for(s, 0)] in ("money", "river step")
    s = seal_wins()
    assert ulm.ACTION_NAMES[heuristic_action_for(s, 0)] == "seal in Tillage"


def test_heuristic_playouts_score_more_than_random_ones():
    s = fresh(players=4, seed=3)
    random_total = sum(sum(playout_scores(s, k, "random")) for k in range(40))
    heuristic_total = sum(sum(playout_scores(s, k, "heuristic")) for k in range(40))
    assert heuristic_total > 2 * random_total

