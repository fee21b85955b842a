"""The search's options: closed-loop chance, the rollout cut-off and its
evaluation, tree reuse, progressive bias, MAST, the final choice, presets."""
import json

import pytest
from helpers import edit, fresh, ROOT

import ulm
from mcts import make_bot, search
from mcts.searcher import _search
from mcts.play.bots import OPTIONS, IsmctsBot
from mcts.play.bots import PRESET_OPTIONS as PRESETS
from mcts.searcher.evaluation import EVAL_WEIGHTS, eval_parameters, predict, win_chances
from mcts.searcher.search import ActionStats, _rank_by_value
from mcts.searcher._search import Searcher
from mcts.searcher.params import PRESETS as SEARCH_PRESETS
from mcts.searcher.params import EvaluationNumbers

NAMES = ulm.ACTION_NAMES
C_TILE = NAMES.index("chance: tile gray")
CARD_OR_COAT = {i for i, n in enumerate(NAMES) if n.startswith(("chance: card", "chance: coat"))}
BUY = {i for i, n in enumerate(NAMES) if n.startswith("buy card")}
DRAW = 1


def baseline(**changes):
    """The baseline preset's search (the compiled Searcher's own defaults before it
    took a SearchParams: c 0.7 fixed, heuristic rollouts to the end, no minimax)
    with `changes`; with a horizon, the linear evaluation of the default weights."""
    return SEARCH_PRESETS["baseline"].replace(**changes)


def first_push(players=2, seed=3):
    s = fresh(players=players, seed=seed)
    s.apply_action(DRAW)
    s.resolve_chance()
    return s


def walk(children, decider=None, out=None):
    """(key, node, the nearest decision node above) of every node of a tree_dict."""
    out = [] if out is None else out
    for key, node in children.items():
        out.append((key, node, decider))
        walk(node[5], node if node[4] >= 0 else decider, out)
    return out


# ---------------------------------------------------------------------------
# Closed-loop chance

def test_closed_loop_draws_of_different_colours_lead_to_different_children():
    s = fresh(players=2, seed=3)                 # seat 0 before the draw
    tree = Searcher(s, baseline(seed=1, chance="closed"))
    tree.run(600)
    draw = tree.tree_dict(3)[DRAW]
    kids = draw[5]
    assert draw[3]                               # a chance event follows the draw
    assert len(kids) >= 3                        # several colours drawn ...
    for key, node in kids.items():               # ... each its own chance child
        assert C_TILE <= key < C_TILE + 5 and node[4] == -1
        assert node[5]                           # the pushes below each colour
    assert sum(node[0] for node in kids.values()) == draw[0] - 1   # all but its expansion
    # open loop: the pushes hang directly below the draw, merged over colours
    tree = Searcher(s, baseline(seed=1, chance="open"))
    tree.run(600)
    assert all(k < C_TILE for k in tree.tree_dict(3)[DRAW][5])


def _end_of_first_turn(seed=3):
    """Seat 0 at the end of its first turn (the heuristic policy's choices)."""
    s = first_push(seed=seed)
    k = 0
    while True:
        if s.is_chance_node():
            s.resolve_chance()
            continue
        a = _search.heuristic_action_for(s, k)
        k += 1
        if a == 0 and s.current_player() == 0:      # end turn
            return s
        s.apply_action(a)


def test_closed_loop_keeps_hidden_outcomes_merged():
    """An opponent's card draw is unseen: no chance child; own draws get one."""
    tree = Searcher(_end_of_first_turn(), baseline(seed=2, chance="closed"))
    tree.run(6000)
    own_draws = opponent_card_steps = 0
    for key, node, decider in walk(tree.tree_dict(60)):
        if node[4] == -1 and key in CARD_OR_COAT:
            assert decider[4] == 0                   # only under the searcher's own decisions
            own_draws += 1
        if node[4] == 1 and node[3] and node[5]:    # an opponent's decision, chance after
            assert not CARD_OR_COAT & set(node[5])
            if NAMES[key].startswith(("buy card", "look at")):
                opponent_card_steps += 1
    assert own_draws > 0 and opponent_card_steps > 0


def test_closed_loop_is_deterministic_and_chance_nodes_carry_no_reward():
    s = first_push()
    a = search(s, iterations=1500, seed=5, chance="closed")
    b = search(s, iterations=1500, seed=5, chance="closed")
    assert a.to_dict()["actions"] == b.to_dict()["actions"]
    tree = Searcher(s, baseline(seed=5, chance="closed"))
    tree.run(1500)
    for _, node, _ in walk(tree.tree_dict(40)):
        if node[4] == -1:
            assert node[1] == 0.0


# ---------------------------------------------------------------------------
# The evaluation and the rollout cut-off

def test_eval_weights_are_data_for_every_player_count():
    for n in (2, 3, 4):
        score_weights, win_weights = eval_parameters(n)
        assert len(score_weights) == len(win_weights) == EVAL_WEIGHTS
        assert score_weights != win_weights
    with pytest.raises(ValueError, match="players"):
        eval_parameters(5)
    assert len(_search.eval_features_of(fresh(), 0)) == EVAL_WEIGHTS


def _calibration():
    import sys
    sys.path.insert(0, str(ROOT))
    from lab import calibrate_eval
    return calibrate_eval


def test_evaluation_predicts_late_winners_and_scores():
    """Held-out games (seeds the calibration did not use): in the last three
    rounds the predicted leader wins most games and scores are close."""
    import numpy as np
    weights, _ = eval_parameters(2)
    right = total = 0
    errors = []
    for seed in range(900_000, 900_030):
        feats, final, share, _ = _calibration().play_game(2, "basic", seed)
        pred = feats @ np.array(weights)
        late = feats[:, 0, EVAL_WEIGHTS // 2] <= 0.3     # share of the game left
        right += share[pred[late].argmax(axis=1)].sum()
        total += late.sum()
        errors.extend(np.abs(pred[late] - final).ravel())
    assert right / total > 0.7                           # chance: 0.5
    assert np.mean(errors) < 5.0


@pytest.mark.parametrize("players", [2, 4])
def test_win_chances_predict_the_rollouts_outcome(players):
    """On held-out positions the win chances are close to the mean win share of
    16 rollouts from there: far better than a uniform guess, and better than
    the softmax of the predicted scores that the first evaluation used."""
    import numpy as np
    cal = _calibration()
    score_w, win_w = (np.array(w) for w in eval_parameters(players))
    feats, shares = [], []
    for seed in range(910_000, 910_016):
        f, _, _, (_, w) = cal.play_game(players, "advanced", seed, "heuristic", 0.35, 16)
        feats.append(f)
        shares.append(w)
    feats, shares = np.concatenate(feats), np.concatenate(shares)
    ce = cal.cross_entropy(cal.softmax(feats @ win_w), shares)
    by_score = min(cal.cross_entropy(cal.softmax(feats @ score_w / t), shares)
                   for t in (2.0, 3.7, 6.0))
    entropy = cal.cross_entropy(shares, shares)
    assert len(feats) > 50
    assert ce < by_score
    assert ce - entropy < 0.5 * (np.log(players) - entropy)


def test_win_weights_fit_recovers_known_logits():
    """Newton's method finds the weights that generated the win shares."""
    import numpy as np
    cal = _calibration()
    rng = np.random.default_rng(7)
    x = rng.normal(size=(3000, 3, EVAL_WEIGHTS)) * rng.uniform(0.5, 20, EVAL_WEIGHTS)
    x[:, :, 0] = 1.0                                     # a constant: the softmax ignores it
    true = rng.normal(size=EVAL_WEIGHTS) / x.reshape(-1, EVAL_WEIGHTS).std(axis=0).clip(1e-9)
    true[0] = 0.0
    shares = cal.softmax(x @ true)
    fitted = cal.fit_win_weights(x, shares)
    assert np.allclose(cal.softmax(x @ fitted), shares, atol=0.02)
    assert abs(fitted[0]) < 1e-3


def test_playout_outcome_gives_scores_and_win_shares():
    s = first_push(players=3)
    for seed in range(5):
        scores, shares = _search.playout_outcome(s, seed, "heuristic")
        assert scores == _search.playout_scores(s, seed, "heuristic")
        winners = [p for p in range(3) if shares[p] > 0]
        assert abs(sum(shares) - 1) < 1e-12
        assert all(shares[p] == 1 / len(winners) for p in winners)      # a shared win is split
        assert all(scores[p] == max(scores) for p in winners)


def test_predict_and_win_chances_apply_the_weights_to_the_features():
    import numpy as np
    s = first_push(players=3)
    pred, win = predict(s), win_chances(s)
    assert len(pred) == 3 and all(10 < v < 80 for v in pred)
    assert abs(sum(win) - 1) < 1e-9 and all(0 < x < 1 for x in win)
    feats = np.array([_search.eval_features_of(s, p) for p in range(3)])
    score_w, win_w = (np.array(w) for w in eval_parameters(3))
    assert np.allclose(pred, feats @ score_w)
    logits = feats @ win_w
    assert np.allclose(win, np.exp(logits) / np.exp(logits).sum())


def test_horizon_cuts_rollouts_and_uses_the_evaluation():
    s = first_push(players=4, seed=1)
    full = search(s, iterations=400, seed=1)
    cut = search(s, iterations=400, seed=1, horizon=0)
    assert full.iterations == cut.iterations == 400
    # the cut-off's win chances are a softmax, not 0/1 results
    assert abs(sum(cut.win_probability) - 1) < 1e-9
    assert cut.expected_score != full.expected_score
    with pytest.raises(ValueError, match="horizon"):
        search(s, iterations=10, horizon=-2)
    with pytest.raises(ValueError, match="eval_weights"):
        Searcher(s, baseline(horizon=3), numbers=EvaluationNumbers(None, None))
    with pytest.raises(ValueError, match="eval_win_weights"):
        Searcher(s, baseline(horizon=3), numbers=EvaluationNumbers(eval_parameters(4)[0], None))


def test_rollouts_stop_at_turn_starts():
    s = first_push()
    assert not _search.is_turn_start(s)
    assert _search.is_turn_start(fresh())


# ---------------------------------------------------------------------------
# The cheaper rollout policy

def test_tabulated_push_policy_equals_line_by_line_policy():
    checked = 0
    for seed in range(15):
        s = fresh(players=2 + seed % 3, seed=seed)
        for step in range(400):
            if s.is_terminal():
                break
            if s.is_chance_node():
                s.resolve_chance()
                continue
            if s.raw()["phase"] == 1 and not s.task_stack():       # a push decision
                fast, slow = _search.push_choices(s, seed * 1000 + step)
                assert fast == slow
                checked += 1
            s.apply_action(_search.heuristic_action_for(s, seed + step))
    assert checked > 100


# ---------------------------------------------------------------------------
# The lookahead rollout policy

SEALS = {i for i, n in enumerate(NAMES) if n.startswith("seal in")}
COAT_KEEPS = {i for i, n in enumerate(NAMES) if n.startswith("keep coat")}


def _decisions(players, seeds, steps=400):
    """Every decision point of heuristic self-play games (state, step)."""
    for seed in seeds:
        s = fresh(players=players, seed=seed)
        for step in range(steps):
            if s.is_terminal():
                break
            if s.is_chance_node():
                s.resolve_chance()
                continue
            yield s, seed * 1000 + step
            s.apply_action(_search.heuristic_action_for(s, seed * 1000 + step))


def test_lookahead_policy_is_the_heuristic_except_seals_and_coats():
    differ = same = 0
    for s, seed in _decisions(2, range(12)):
        h = _search.heuristic_action_for(s, seed)
        look = _search.heuristic_action_for(s, seed, rollout="lookahead")
        if h in SEALS:
            assert look in SEALS and look in s.legal_actions()
            differ += look != h
        elif s.task_stack() and set(s.legal_actions()) & COAT_KEEPS:
            assert look in s.legal_actions()
        else:
            assert look == h
            same += 1
    assert same > 500 and differ > 5


def test_lookahead_policy_seals_where_the_evaluation_is_best():
    """Where no chance event follows any seal, the lookahead's quarter is one
    whose position `evaluate` (the greedy bot's evaluation) rates highest."""
    checked = 0
    for s, seed in _decisions(2, range(20)):
        if _search.heuristic_action_for(s, seed) not in SEALS:
            continue
        p = s.current_player()
        values = {}
        for a in set(s.legal_actions()) & SEALS:
            t = s.clone()
            t.apply_action(a)
            if t.is_chance_node():
                break
            values[a] = _search.evaluate_position(t, p)
        else:
            if len(values) > 1:
                look = _search.heuristic_action_for(s, seed, rollout="lookahead")
                assert values[look] == pytest.approx(max(values.values()))
                checked += 1
    assert checked > 10


def test_lookahead_policy_beats_the_heuristic_in_self_play():
    """The stronger rollout policy: about 61% of 2,000 two-player games against
    the heuristic (duplicate deals, each policy in both seats); 55% is the bar."""
    wins = 0.0
    games = 0
    for deal in range(400):
        for seat in range(2):
            s = fresh(players=2, seed=5000 + deal)
            step = 0
            while not s.is_terminal():
                if s.is_chance_node():
                    s.resolve_chance()
                    continue
                step += 1
                rollout = "lookahead" if s.current_player() == seat else "heuristic"
                s.apply_action(_search.heuristic_action_for(s, deal * 1000 + step, rollout))
            wins += s.returns()[seat]
            games += 1
    assert wins / games > 0.55


def test_lookahead_rollouts_in_the_search_and_playouts():
    s = first_push()
    a = search(s, iterations=300, seed=4, rollout="lookahead")
    b = search(s, iterations=300, seed=4, rollout="lookahead")
    c = search(s, iterations=300, seed=4, rollout="heuristic")
    assert [(x.action, x.visits) for x in a.actions] == [(x.action, x.visits) for x in b.actions]
    assert [x.visits for x in a.actions] != [x.visits for x in c.actions]
    scores = _search.playout_scores(s, seed=3, rollout="lookahead")
    assert len(scores) == 2 and all(v >= 0 for v in scores)
    with pytest.raises(ValueError, match="rollout"):
        _search.heuristic_action_for(s, 1, rollout="smart")


# ---------------------------------------------------------------------------
# Tree reuse

def _subtree_shape(children, depth):
    if depth == 0:
        return {}
    return {k: (v[0], v[2], _subtree_shape(v[5], depth - 1)) for k, v in children.items()}


def test_reroot_keeps_the_chosen_subtree_exactly():
    s = first_push(seed=4)
    tree = Searcher(s, baseline(seed=3))
    tree.run(3000)
    before = tree.tree_dict(5)
    best = max(before, key=lambda k: before[k][0])
    after = s.clone()
    after.apply_action(best)
    assert after.current_player() == 0 and not after.is_chance_node()
    kept = before[best]
    assert tree.reroot(best, after, 9)
    assert tree.reused_visits == kept[0] and tree.iterations == 0
    assert _subtree_shape(tree.tree_dict(4), 4) == _subtree_shape(kept[5], 4)
    tree.run(500)
    assert tree.iterations == 500
    stats = tree.root_stats()
    assert sum(row[1] for row in stats) == kept[0] - 1 + 500   # kept visits go on
    assert sum(row[5] for row in stats) == 500           # per-player sums: new iterations only


def test_reroot_refuses_other_players_and_chance():
    s = first_push(seed=4)
    tree = Searcher(s, baseline(seed=3))
    tree.run(500)
    best = max(tree.root_stats(), key=lambda row: row[1])[0]
    assert not tree.reroot(1000, s, 1)                   # no such child
    other = s.clone()
    other.apply_action(best)
    edit(other, turn_player=1)                           # another player to move
    assert not tree.reroot(best, other, 1)
    changed = s.clone()
    changed.apply_action(best)
    edit(changed, avail=[0, 0, 0, 0, 0])                 # the kept decisions are not legal here
    assert tree.tree_dict(2)[best][5] and not tree.reroot(best, changed, 1)
    start = fresh(players=2, seed=4)                     # the draw: a chance event follows
    tree = Searcher(start, baseline(seed=3))
    tree.run(50)
    after = start.clone()
    after.apply_action(DRAW)
    after.resolve_chance()
    assert not tree.reroot(DRAW, after, 1)
    assert tree.tree_dict(1)[DRAW][0] == 50              # the tree is untouched


def test_bot_reuses_its_tree_within_a_turn_and_is_deterministic():
    def play_turn(spec):
        bot = make_bot(spec)
        s = first_push(seed=6)
        reused = []
        picks = []
        while s.current_player() == 0 and not s.is_chance_node():
            a = bot.choose(s)
            picks.append(a)
            reused.append(bot.last_result.reused_visits)
            s.apply_action(a)
        return picks, reused

    picks, reused = play_turn("ismcts:iterations=1500,reuse=on,seed=2")
    assert len(picks) >= 2 and reused[0] == 0 and reused[1] > 0
    assert play_turn("ismcts:iterations=1500,reuse=on,seed=2") == (picks, reused)
    fresh_picks, fresh_reused = play_turn("ismcts:iterations=1500,reuse=off,seed=2")
    assert fresh_reused == [0] * len(fresh_reused)


# ---------------------------------------------------------------------------
# Progressive bias, MAST, final choice

def _actions_state():
    """Seat 0 after its push, with the line's actions to use."""
    s = first_push(seed=5)
    s.apply_action(_search.heuristic_action_for(s, 1))
    while s.is_chance_node():
        s.resolve_chance()
    return s


def test_progressive_bias_follows_the_heuristic_policy():
    s = _actions_state()
    choices = {_search.heuristic_action_for(s, seed) for seed in range(20)}
    assert len(choices) == 1 and len(s.legal_actions()) > 1
    policy = choices.pop()
    r = search(s, iterations=300, seed=1, c=0.0, bias=1000.0)
    assert r.best_action == policy and r.best.share > 0.9
    r = search(s, iterations=300, seed=1, bias=0.0)
    assert len(r.actions) == len(s.legal_actions())


def test_mast_changes_rollouts_and_stays_deterministic():
    s = first_push(seed=5)
    a = search(s, iterations=600, seed=2, mast=0.5)
    b = search(s, iterations=600, seed=2, mast=0.5)
    c = search(s, iterations=600, seed=2)
    assert a.to_dict()["actions"] == b.to_dict()["actions"]
    assert [x.visits for x in a.actions] != [x.visits for x in c.actions]
    with pytest.raises(ValueError, match="mast"):
        Searcher(s, baseline(mast=1.5))


def test_final_choice_by_value_among_well_visited_decisions():
    def st(action, visits, value):
        return ActionStats(action, str(action), visits, visits, 0.0, value, (), ())
    actions = [st(1, 100, 0.50), st(2, 60, 0.55), st(3, 5, 0.99)]
    assert [a.action for a in _rank_by_value(actions)] == [2, 1, 3]
    s = first_push(seed=5)
    r = search(s, iterations=800, seed=2, final="value")
    top = max(a.visits for a in r.actions)
    sure = [a for a in r.actions if a.visits >= 0.1 * top]
    assert r.best.value == max(a.value for a in sure)


# ---------------------------------------------------------------------------
# Presets and the option table

def test_presets_and_options_in_one_table():
    bot = make_bot("ismcts:preset=baseline,time=0.05")
    cfg = bot.config
    assert cfg["iterations"] is None and cfg["time"] == 0.05
    assert (cfg["chance"], cfg["horizon"], cfg["c"], cfg["reuse"]) == ("open", -1, 0.7, False)
    assert set(PRESETS["baseline"]) <= set(OPTIONS)
    assert set(IsmctsBot.options) <= set(OPTIONS)
    default = make_bot("ismcts").config
    for key, value in PRESETS["default"].items():
        assert default[key] == value
    assert make_bot("ismcts:preset=baseline,horizon=3").config["horizon"] == 3
    for spec, words in (("ismcts:preset=fast", "preset"), ("ismcts:chance=half", "chance"),
                        ("ismcts:horizon=-3", "horizon"), ("ismcts:mast=2", "mast"),
                        ("ismcts:final=best", "final"), ("ismcts:reuse=maybe", "reuse")):
        with pytest.raises(ValueError, match=words):
            make_bot(spec)


def test_baseline_preset_is_the_previous_search():
    """The baseline preset runs the release's search: open loop, full rollouts,
    a fixed exploration constant, recommendation by visits (the same numbers
    as plain `search` with those settings)."""
    s = first_push(seed=7)
    bot = make_bot("ismcts:preset=baseline,iterations=700,seed=4")
    bot.choose(s)
    seed = ulm.derive_seed(4, 1)
    plain = search(s, iterations=700, seed=seed, c=0.7, chance="open", horizon=-1,
                   explore="fixed")
    assert bot.last_result.to_dict()["actions"] == plain.to_dict()["actions"]
    assert json.dumps(bot.last_result.to_dict()["actions"])


# The root statistics (action, visits, availability) of the 0.1.0 search for
# one seeded search of a 2-player first push, on the current core (the 0.1.0
# core itself gave other numbers: its rules and random numbers differed). The
# baseline preset must repeat them exactly;
# they change when the rules, the core's random numbers or the baseline's
# algorithm change: regenerate them with Searcher(state, PRESETS["baseline"]).run(1500) on a
# build without this branch's search.
RELEASE_ROOT_STATS = [
    (2, 180, 1490), (3, 177, 1488), (4, 35, 1494), (5, 132, 1487), (6, 33, 1493),
    (7, 58, 1498), (8, 51, 1489), (9, 180, 1495), (10, 36, 1496), (11, 63, 1486),
    (12, 107, 1499), (13, 95, 1500), (14, 142, 1492), (16, 45, 1497), (17, 38, 1485),
    (18, 128, 1491)]


def test_baseline_preset_repeats_the_release_search_exactly():
    tree = Searcher(fresh_push(), SEARCH_PRESETS["baseline"])
    tree.run(1500)
    assert [tuple(row[:3]) for row in tree.root_stats()] == RELEASE_ROOT_STATS


# The root visits of the default search of release 0.2 (`ismcts:iterations=600,
# seed=5`) on three fixed positions (2, 3 and 4 players; `walked` below), taken
# from that release's code. The v0.2 preset must repeat them exactly, whatever
# the default becomes; they change only when the rules, the core's random
# numbers or the search's algorithm change.
V02_ROOT_VISITS = {
    (2, 3, 1): [(2, 29), (3, 39), (4, 34), (5, 53), (6, 32), (7, 31), (8, 50), (9, 17),
                (10, 62), (11, 23), (12, 47), (13, 56), (14, 32), (15, 25), (16, 30), (18, 40)],
    (3, 11, 50): [(2, 29), (3, 113), (4, 56), (5, 40), (6, 21), (7, 44), (8, 48), (9, 23),
                  (10, 37), (11, 40), (12, 50), (13, 18), (14, 14), (15, 21), (18, 46)],
    (4, 5, 90): [(2, 107), (5, 8), (14, 446), (18, 39)],
}


def walked(players, seed, steps):
    """A fixed position: `steps` decisions (the (7k)-th legal one, cyclically)
    from the deal of `seed`, its chance events resolved by the dealer."""
    s = ulm.Game(players=players).new_game(seed)
    k = 0
    while k < steps and not s.is_terminal():
        if s.is_chance_node():
            s.resolve_chance()
            continue
        legal = s.legal_actions()
        s.apply_action(legal[(7 * k) % len(legal)])
        k += 1
    while s.is_chance_node():
        s.resolve_chance()
    return s


def preset_root_visits(preset: str, position: tuple) -> list:
    """(action, visits) at the root of a 600-iteration search of `preset` at the
    walked `position` (players, seed, steps): what a pinned preset repeats."""
    bot = make_bot(f"ismcts:preset={preset},iterations=600,seed=5")
    bot.choose(walked(*position))
    return [(a.action, a.visits) for a in sorted(bot.last_result.actions,
                                                 key=lambda a: a.action)]


def preset_bench_search(preset: str):
    """The search of `ulm bench`'s signature (4 players, deal 1 after its draw, 5,000
    iterations, seed 12345) with `preset`'s options and random rollouts."""
    from mcts.searcher.params import PRESETS as PRESET_PARAMS
    state = ulm.Game(players=4).new_game(1)
    state.apply_action_string("draw")
    state.resolve_chance()
    params = PRESET_PARAMS[preset].replace(rollout="random")
    return params, search(state, iterations=5000, seed=12345, workers=1, params=params)


@pytest.mark.parametrize("position", sorted(V02_ROOT_VISITS))
def test_v02_preset_repeats_the_release_default_search(position):
    assert preset_root_visits("v0.2", position) == V02_ROOT_VISITS[position]


def test_v02_preset_gives_the_pinned_bench_signature():
    """The bench signature (tests/cli/test_cli.py, pinned for the default search of
    release 0.2) from the v0.2 preset's options with random rollouts."""
    from signatures import V02_SIGNATURE as SIGNATURE
    params, r = preset_bench_search("v0.2")
    assert params.evaluation.weights == "pinned"
    assert r.tree_nodes == SIGNATURE["tree_nodes"]
    assert {a.name: a.visits for a in r.actions} == SIGNATURE["root_visits"]


def test_v02_preset_writes_every_option_out():
    """Every search option of the preset is a value, not "by the default", and
    its weights are its own copy."""
    preset = PRESETS["v0.2"]
    assert set(PRESETS["default"]) <= set(preset)
    assert all(v is not None for v in preset.values())
    assert eval_parameters(4, "pinned") and preset["weights"] == "pinned"
    with pytest.raises(ValueError, match="weights"):
        make_bot("ismcts:weights=v9")
    with pytest.raises(ValueError, match="weights"):
        search(first_push(), iterations=10, weights="v9")


def test_weights_of_the_wrong_length_name_their_file(monkeypatch):
    import mcts.searcher.evaluation as ev
    bad = {"players": {"2": {"score_weights": [0.0] * 3, "win_weights": [0.0] * 3}}}
    monkeypatch.setattr(ev, "_table", lambda name="default": bad)
    with pytest.raises(ValueError, match="eval_weights_pinned.json: 2 players: score_weights"):
        ev.eval_parameters(2, "pinned")


def fresh_push():
    s = ulm.Game(players=2).new_game(0)
    s.apply_action(DRAW)
    s.resolve_chance()
    return s


def test_iterations_per_decision_bench_compares_both_presets(capsys):
    """bench/iterations_per_decision.py: both presets searched on the same
    positions; the default runs more iterations in the same time."""
    import sys
    sys.path.insert(0, str(ROOT))
    from bench.iterations_per_decision import main
    assert main(0.01, 2, 1) == 0
    out = capsys.readouterr().out.splitlines()
    means = {line.split()[0]: float(line.split()[2].replace(",", "")) for line in out[1:3]}
    assert set(means) == {"default", "baseline"} and means["baseline"] > 0
    assert out[3].split()[0] == "ratio" and means["default"] > means["baseline"]


def test_decision_agreement_bench_compares_with_the_reference(capsys):
    """lab/decision_agreement.py: a row per budget up to the reference's; the
    reference's own search (its budget and seed) takes every one of its
    decisions and gives up nothing, a small search does not."""
    from mcts import search
    from mcts.searcher.params import PRESETS as PRESET_PARAMS
    from lab import decision_agreement as bench
    found = bench.positions(6)
    assert len(found) == 6 and all(len(s.legal_actions()) >= 2 for s in found)
    assert bench.budgets(4000) == [250, 1000, 4000] and bench.budgets(300) == [250, 300]
    opts = {"params": PRESET_PARAMS["v0.2"]}
    ref = [search(s, iterations=2000, seed=bench.REFERENCE_SEED, **opts) for s in found]
    assert bench.compare(found, ref, 2000, opts, seed=bench.REFERENCE_SEED) == (1.0, 0.0)
    same, lost = bench.compare(found, ref, 20, opts)
    assert same < 1.0 and lost > 0
    assert bench.main("ismcts:preset=v0.2", 3, 300) == 0
    rows = capsys.readouterr().out.splitlines()[2:]
    assert [int(r.split()[0].replace(",", "")) for r in rows] == [250, 300]


def test_decision_agreement_bench_compares_another_search(capsys):
    """lab/decision_agreement.py OTHER: the same search as OTHER repeats the
    noise floor's row (the reference budget, seed 1); another search gives
    its own; a spec that is no bot, or a count that is not a whole number of at
    least 1, is refused with status 2 and a message, without a traceback."""
    from lab import decision_agreement as bench

    def figures(line):
        return [x for x in line.replace("%", " ").split() if x.lstrip("-").replace(".", "").isdigit()]

    assert bench.main("ismcts:preset=v0.2", 8, 300, "ismcts:preset=v0.2") == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[-1].startswith("ismcts:preset=v0.2 at 300: ")
    assert figures(rows[-1].split(" at 300: ")[1]) == figures(rows[-2])[1:]
    assert bench.main("ismcts:preset=v0.2", 8, 300, "ismcts") == 0
    other = capsys.readouterr().out.splitlines()[-1]
    assert other.startswith("ismcts at 300: ")
    assert figures(other.split(" at 300: ")[1]) != figures(rows[-1].split(" at 300: ")[1])
    assert bench.main("ismcts:preset=v0.2", 8, 300, "ismcts:nonsense=1") == 2
    assert "ismcts:nonsense=1" in capsys.readouterr().err
    import subprocess
    import sys
    script = str(ROOT / "lab" / "decision_agreement.py")
    for bad in (["ismcts", "0"], ["ismcts", "4", "-5"], ["ismcts", "x"]):
        run = subprocess.run([sys.executable, script, *bad], capture_output=True, text=True)
        assert run.returncode == 2 and "must be a whole number from 1 to" in run.stderr
        assert "Traceback" not in run.stderr and run.stdout == ""


@pytest.mark.parametrize("mode", [["--games", "300"], ["--search", "baseline", "--iterations", "300"]])
def test_ab_core_compares_two_builds(capsys, mode):
    """bench/ab_core.py times playouts (or a preset's search) of two trees in
    fresh interpreters; the same tree against itself gives two rates."""
    import sys
    root = str(ROOT)
    sys.path.insert(0, root)
    from bench.ab_core import main
    main([root, root, "--pairs", "1", "--players", "2"] + mode)
    out = capsys.readouterr().out.splitlines()
    unit = "games" if mode[0] == "--games" else "iterations"
    assert out[0].startswith("pair 1:") and f"cpu {unit}/s" in out[0]
    assert out[-1].startswith("median, ") and "B/A" in out[-1]
    rates = [float(x.replace(",", "")) for x in out[-1].split(":")[1].split()
             if x.replace(",", "").replace(".", "").isdigit()]
    assert len(rates) >= 4 and all(r > 0 for r in rates[:4])


def test_c_defaults_by_the_exploration_and_the_horizon():
    """The default search scales its exploration by the spread of the rewards
    (SCALED_C); with a fixed constant the cut-off's win chances, which lie
    closer together than won/lost rewards, take DEFAULT_C and rollouts to the
    end FULL_ROLLOUT_C."""
    from mcts import DEFAULT_C, FULL_ROLLOUT_C, SCALED_C
    from mcts.searcher.params import PRESETS as PRESET_PARAMS
    assert DEFAULT_C < FULL_ROLLOUT_C
    assert PRESET_PARAMS["default"].resolved_c(4) == SCALED_C
    assert PRESET_PARAMS["default"].explore == "scaled"
    assert PRESET_PARAMS["baseline"].resolved_c(4) == FULL_ROLLOUT_C
    assert PRESET_PARAMS["baseline"].explore == "fixed"
    fixed = PRESET_PARAMS["default"].replace(explore="fixed")
    assert fixed.resolved_c(2) == DEFAULT_C
    assert fixed.replace(horizon=-1, minimax=None).resolved_c(2) == FULL_ROLLOUT_C
    assert PRESET_PARAMS["default"].replace(horizon=-1).resolved_c(3) == SCALED_C
    assert PRESET_PARAMS["default"].replace(c=1.5).resolved_c(3) == 1.5
    s = fresh_push()
    assert search(s, iterations=20, seed=1).c == SCALED_C
    assert search(s, iterations=20, seed=1).stats["explore"] == "scaled"
    assert search(s, iterations=20, seed=1, explore="fixed").stats["explore"] == "fixed"
    assert search(s, iterations=20, seed=1, explore="fixed").c == DEFAULT_C
    assert search(s, iterations=20, seed=1, explore="fixed", horizon=-1).c == FULL_ROLLOUT_C
    assert make_bot("pimc").config["c"] == FULL_ROLLOUT_C
    assert make_bot("ismcts:explore=fixed").config["explore"] == "fixed"
    with pytest.raises(ValueError, match="explore"):
        make_bot("ismcts:explore=wide")
    with pytest.raises(ValueError, match="explore"):
        search(s, iterations=20, explore="wide")
    # the options build a tree directly too (the benches do)
    Searcher(s, PRESET_PARAMS["default"].replace(seed=1, horizon=4, evaluation="linear")).run(20)


def test_scaled_exploration_follows_the_spread_of_the_rewards():
    """explore="scaled": UCB's constant is c times the standard deviation of
    the mover's rewards so far, from a prior variance of 0.05 (as if from 10
    iterations) before any. Won/lost rewards of rollouts to the end spread
    more than the cut-off's win chances, so one c explores more there."""
    import math
    s = fresh_push()
    assert Searcher(s, baseline(c=0.7, seed=1)).exploration_constants() == [0.7, 0.7]
    full = Searcher(s, baseline(c=2.0, seed=1, explore="scaled", margin_weight=0.0))
    assert full.exploration_constants() == pytest.approx([2.0 * math.sqrt(0.05)] * 2)
    full.run(2000)
    cut = Searcher(s, baseline(c=2.0, seed=1, explore="scaled", margin_weight=0.0, horizon=4))
    cut.run(2000)
    f, k = full.exploration_constants(), cut.exploration_constants()
    # 2 players without the margin term: one's reward is 1 minus the other's
    assert f[0] == pytest.approx(f[1]) and k[0] == pytest.approx(k[1])
    # won/lost (or shared): a standard deviation of at most 0.5, near it at the opening
    assert 2.0 * 0.4 < f[0] <= 2.0 * 0.5
    assert k[0] < 0.6 * f[0]
    # the spread steers the search: same c, other visits than a fixed c; repeatable
    a = search(s, iterations=600, seed=4, c=0.5)
    b = search(s, iterations=600, seed=4, c=0.5)
    fixed = search(s, iterations=600, seed=4, c=0.5, explore="fixed")
    assert [x.visits for x in a.actions] == [x.visits for x in b.actions]
    assert [x.visits for x in a.actions] != [x.visits for x in fixed.actions]
    with pytest.raises(ValueError, match="explore"):
        Searcher(s, baseline(explore="wide"))


def test_reward_spread_bench_cut_off_spreads_less_than_rollouts(capsys):
    """bench/reward_spread.py: from the same positions, the cut-off's win
    chances spread less than the win shares of rollouts to the end."""
    import sys
    sys.path.insert(0, str(ROOT))
    from bench.reward_spread import main
    main(2, 3)
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("2 players, 3 games")
    total = out[-1].split()
    assert total[0] == "all" and int(total[1]) > 0
    cut, full = float(total[2]), float(total[4])
    assert 0 < cut < full <= 0.5


# ---------------------------------------------------------------------------
# Implicit minimax backups

def _margin_rewards(win, score, margin=0.1):
    import math
    return [w + margin * math.tanh((score[p] - max(x for i, x in enumerate(score) if i != p)) / 20)
            for p, w in enumerate(win)]


def _minimax_searcher(state, seed, minimax=0.3, determinize=True):
    return Searcher(state, baseline(seed=seed, horizon=4, minimax=minimax,
                                    determinize=determinize))


def test_minimax_leaf_value_is_the_evaluation_of_its_position():
    """A node gets the search's rewards of the position where it was added,
    from the evaluation: win chance + the margin term on predicted scores."""
    s = _actions_state()
    weights, win_weights = eval_parameters(2)
    checked = 0
    for seed in range(12):
        tree = _minimax_searcher(s, seed, determinize=False)
        tree.run(1)                        # the first iteration adds one root child
        values = tree.heuristic_values(1)
        assert len(values) == 1
        (key, (mover, hv, _kids)), = values.items()
        after = s.clone()
        after.apply_action(key)
        if after.is_chance_node():         # its outcome was sampled: not repeatable here
            continue
        pred, win = _search.eval_outcome_of(after, weights, win_weights)
        assert mover == 0
        assert hv == pytest.approx(_margin_rewards(win, pred), abs=1e-6)
        checked += 1
    assert checked >= 3


def _check_max_n(children):
    """Every node with valued children holds the values of its child best for
    that child's mover; returns the nodes checked."""
    checked = 0
    for _, hv, kids in children.values():
        valued = [k for k in kids.values() if k[1] is not None and k[0] >= 0]
        if valued:
            best = max(valued, key=lambda k: k[1][k[0]])
            assert hv == best[1]
            checked += 1
        checked += _check_max_n(kids)
    return checked


@pytest.mark.parametrize("players", [2, 4])
def test_minimax_backs_values_up_max_n(players):
    s = first_push(players=players, seed=7)
    tree = _minimax_searcher(s, 3)
    tree.run(3000)
    values = tree.heuristic_values(6)
    assert all(v[1] is not None and len(v[1]) == players for v in values.values())
    assert _check_max_n(values) > 20


def test_minimax_steers_the_search_and_stays_deterministic():
    from mcts import DEFAULT_MINIMAX
    s = first_push(seed=5)
    a = search(s, iterations=800, seed=2, minimax=0.3)
    b = search(s, iterations=800, seed=2, minimax=0.3)
    plain = search(s, iterations=800, seed=2, minimax=0.0)
    assert a.to_dict()["actions"] == b.to_dict()["actions"]
    assert [x.visits for x in a.actions] != [x.visits for x in plain.actions]
    # the default search is the one with DEFAULT_MINIMAX; rollouts to the end have none
    assert search(s, iterations=800, seed=2).to_dict()["actions"] == search(
        s, iterations=800, seed=2, minimax=DEFAULT_MINIMAX).to_dict()["actions"]
    assert search(s, iterations=50, seed=2, horizon=-1).minimax == 0.0
    # with all weight on the backed-up values and no exploration, the root's
    # choice follows them: the most visited decision is the best valued one
    tree = _minimax_searcher(s, 4, minimax=1.0)
    tree.run(2000)
    values = tree.heuristic_values(1)
    top = max(tree.root_stats(), key=lambda row: row[1])[0]
    assert values[top][1][0] >= max(v[1][0] for v in values.values()) - 0.05


def test_minimax_options_are_checked():
    s = first_push(seed=5)
    with pytest.raises(ValueError, match="minimax.*horizon"):
        Searcher(s, baseline(minimax=0.5))            # no evaluation without a horizon
    with pytest.raises(ValueError, match="minimax"):
        _minimax_searcher(s, 1, minimax=1.5)
    with pytest.raises(ValueError, match="minimax.*horizon"):
        search(s, iterations=20, horizon=-1, minimax=0.3)
    with pytest.raises(ValueError, match="minimax"):
        search(s, iterations=20, minimax=-0.1)
    with pytest.raises(ValueError, match="heuristic_values"):
        Searcher(s, baseline()).heuristic_values()
    with pytest.raises(ValueError, match="minimax.*horizon"):
        make_bot("ismcts:preset=baseline,minimax=0.3")
    with pytest.raises(ValueError, match="minimax: must be a weight"):
        make_bot("ismcts:minimax=2")
    assert make_bot("ismcts:horizon=-1").config["horizon"] == -1    # minimax follows it to 0


def test_reroot_keeps_the_heuristic_values():
    s = first_push(seed=4)
    tree = _minimax_searcher(s, 3)
    tree.run(3000)
    before = tree.heuristic_values(5)
    best = max(tree.root_stats(), key=lambda row: row[1])[0]
    after = s.clone()
    after.apply_action(best)
    assert after.current_player() == 0 and not after.is_chance_node()
    assert tree.reroot(best, after, 9)
    kept = tree.heuristic_values(4)

    def cut(children, depth):
        return {} if depth == 0 else {k: (v[0], v[1], cut(v[2], depth - 1))
                                      for k, v in children.items()}
    assert cut(kept, 3) == cut(before[best][2], 3)
    tree.run(500)
    assert _check_max_n(tree.heuristic_values(6)) > 0


def test_default_horizon_follows_the_evaluation():
    """The learned models are fitted 2 turns on, so the default search cuts its
    rollouts there; the linear evaluation keeps 8 turns: the earlier 2r in 4
    players (its figures hold) and four rounds in 2 players (docs/strength.md)."""
    from mcts.play.bots import make_bot
    from mcts.searcher.search import DEFAULT_EVALUATION, default_horizon, horizon_turns
    assert DEFAULT_EVALUATION == "learned" and default_horizon() == 2
    assert horizon_turns(default_horizon("linear"), 4) == horizon_turns("2r", 4) == 8
    assert horizon_turns(default_horizon("linear"), 2) == horizon_turns("4r", 2)
    s = fresh_push()
    visits = lambda r: [(a.action, a.visits) for a in r.actions]     # noqa: E731
    assert (visits(search(s, iterations=300, seed=4))
            == visits(search(s, iterations=300, seed=4, evaluation="learned", horizon=2)))
    assert (visits(search(s, iterations=300, seed=4, evaluation="linear"))
            == visits(search(s, iterations=300, seed=4, evaluation="linear", horizon=8)))
    # a bot's options leave the horizon to the evaluation unless they name one
    assert make_bot("ismcts:eval=linear").params.horizon is None
    assert make_bot("ismcts:horizon=3").params.horizon == 3
    # the default bot is the search whose strength docs/strength.md measures
    measured = make_bot("ismcts:preset=v0.2,eval=learned,horizon=2,minimax=0.3,"
                        "iterations=300,seed=4")
    default = make_bot("ismcts:iterations=300,seed=4")
    assert measured.choose(s) == default.choose(s)
    assert visits(measured.last_result) == visits(default.last_result)
