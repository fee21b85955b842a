"""ulm.pettingzoo: Ulm as a PettingZoo AEC environment, checked by the tests
PettingZoo ships for AEC environments (api_test, seed_test, render_test) in
2, 3 and 4 players, and by our own: the observation is
the seat's tensor, the mask its legal decisions, rewards the win shares at the
end, a seed repeats the game, and a seat's view of the picture leaks nothing.

PettingZoo's parallel, max_cycles and state tests do not apply: Ulm is turn-based
(not parallelizable), has no cycle limit and offers no global state(). Its
bombardment_test cannot take an observation that is a dict (it reads .shape of
the first observation, a dict, for every environment with an action mask,
PettingZoo's classic games included); api_test checks the same observations.
test_save_obs is for image observations and performance_benchmark only prints a rate."""
import os
import warnings

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo") if not os.environ.get("CI") else __import__("pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from leaks import Secrets  # noqa: E402
from ulm import ACTION_NAMES, IllegalActionError  # noqa: E402
from ulm import DECISION_COUNT, OBSERVATION_SIZE  # noqa: E402
from ulm.extras import installed  # noqa: E402
from ulm.pettingzoo import env, raw_env  # noqa: E402


def play(e, seed, pick=None):
    """One game with uniformly random legal decisions (or `pick(obs)`); returns the
    rewards each agent collected and the number of decisions."""
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    total = {a: 0.0 for a in e.possible_agents}
    decisions = 0
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(pick(obs) if pick else rng.choice(legal)))
        decisions += 1
    return total, decisions


# api_test's advice for an environment whose observation is a dict: it knows PettingZoo's
# own classic games (leduc_holdem_v4, chess_v6, ...) by name and advises the others
KNOWN_ADVICE = {"Observation is not a NumPy array",
                "Observation space for each agent probably should be gymnasium.spaces.box or "
                "gymnasium.spaces.discrete"}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_api_test(players):
    with warnings.catch_warnings(record=True) as advice:
        warnings.simplefilter("always")
        api_test(env(players=players), num_cycles=1000)
    assert {str(w.message) for w in advice} <= KNOWN_ADVICE


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_seed_test(players):
    seed_test(lambda: env(players=players), num_cycles=500)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_render_test(players):
    render_test(lambda render_mode=None: env(players=players, render_mode=render_mode))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rewards_are_win_shares_at_the_end(players):
    e = env(players=players)
    total, decisions = play(e, seed=players)
    assert decisions > 10 * players
    state = e.unwrapped.game_state
    assert state.is_terminal()
    assert [total[f"player_{p}"] for p in range(players)] == state.returns()
    assert sum(total.values()) == pytest.approx(1.0)
    assert not e.agents                         # every seat was stepped off


def test_observation_is_the_seats_tensor_and_the_mask_its_legal_decisions():
    e = env(players=3)
    e.reset(seed=5)
    for _ in range(40):
        agent = e.agent_selection
        seat = int(agent.split("_")[1])
        state = e.unwrapped.game_state
        for other in e.agents:
            obs = e.observe(other)
            p = int(other.split("_")[1])
            assert obs["observation"].dtype == np.float32
            assert obs["observation"].shape == (OBSERVATION_SIZE,)
            assert np.array_equal(obs["observation"], state.observation_tensor(p))
            assert e.observation_space(other).contains(obs)
            expected = state.legal_actions() if p == seat else []
            assert np.flatnonzero(obs["action_mask"]).tolist() == expected
        assert state.current_player() == seat
        e.step(int(np.flatnonzero(e.observe(agent)["action_mask"])[0]))


def test_a_seed_repeats_the_game_and_another_seed_deals_another():
    a, b, c = env(players=4), env(players=4), env(players=4)
    assert play(a, 11) == play(b, 11)
    assert a.unwrapped.game_state.raw() == b.unwrapped.game_state.raw()
    play(c, 12)
    assert c.unwrapped.game_state.raw() != a.unwrapped.game_state.raw()
    # reset() without a seed goes on from the last seed given, the same way each time
    for x in (a, b):
        x.reset()
    assert a.unwrapped.game_seed == b.unwrapped.game_seed != 11
    assert a.unwrapped.game_state.raw() == b.unwrapped.game_state.raw()


def test_illegal_and_bad_actions_are_refused_with_the_legal_ones_named():
    e = env(players=2)
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match="legal: "):
        e.step(illegal)
    for bad in (-1, DECISION_COUNT, 10 ** 30):
        with pytest.raises(IllegalActionError, match="out of range"):
            e.step(bad)
    for bad in ("end turn", 1.5, float("nan"), True, None, [1]):
        with pytest.raises(ValueError, match="action: a decision id"):
            e.step(bad)
    e.step(np.int64(np.flatnonzero(mask)[0]))   # numpy integers are decision ids too
    assert ACTION_NAMES[int(np.flatnonzero(mask)[0])]


def test_bad_arguments_name_what_is_wrong():
    for kwargs, word in (({"players": 5}, "2, 3 or 4"), ({"players": 1}, "2, 3 or 4"),
                         ({"variant": "expert"}, "variant"),
                         ({"render_mode": "video"}, "render_mode"),
                         ({"view": 4}, "view"), ({"view": -1}, "view"), ({"view": "0"}, "view"),
                         ({"view": True}, "view")):
        with pytest.raises(ValueError, match=word):
            raw_env(**kwargs)
    e = env(players=2)
    for bad in ("1", 1.5, True):
        with pytest.raises(ValueError, match="seed"):
            e.reset(seed=bad)
    with pytest.raises(Exception, match="reset"):
        env(players=2).step(0)                  # PettingZoo's order check


def test_render_text_and_a_seats_view_leaks_nothing_R_INFO_4():
    e = env(players=3, render_mode="ansi", view=1)
    e.reset(seed=3)
    for _ in range(60):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    text = e.render()
    state = e.unwrapped.game_state
    assert Secrets(state, 1).leaks(text) == []
    full = env(players=3, render_mode="ansi")
    full.reset(seed=3)
    assert isinstance(full.render(), str) and "view" not in full.render().splitlines()[0]


@pytest.mark.skipif(not installed("cairosvg"), reason="the picture extra")
def test_rgb_array_is_the_board_picture():
    e = env(players=2, render_mode="rgb_array")
    e.reset(seed=2)
    img = e.render()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert img.shape[0] > 300 and img.shape[1] > 300 and img.std() > 10


def test_without_the_rl_extra_the_import_names_it():
    import subprocess
    import sys
    code = ("import sys; sys.modules['pettingzoo'] = None\n"
            "try:\n    import ulm.pettingzoo\nexcept ImportError as exc:\n    print(exc)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "ulm.pettingzoo needs the rl extra: pip install 'ulm-engine[rl]'"


def _train(tmp_path, *args):
    import json
    import subprocess
    import sys
    from helpers import ROOT
    out = tmp_path / "run.json"
    proc = subprocess.run([sys.executable, str(ROOT / "examples" / "train_policy.py"), *args,
                           "--json", str(out)], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc, json.loads(out.read_text())


def test_the_training_example_runs_both_phases(tmp_path):
    proc, run = _train(tmp_path, "--games", "8", "--then-games", "4", "--batch", "4",
                       "--report", "4", "--eval", "2")
    assert [c["opponent"] for c in run["curve"]] == ["random", "random", "greedy"]
    assert set(run["evaluation"]) == {"random", "greedy"}
    assert "12 training games" in proc.stdout
    for bad in (["--games", "-1"], ["--batch", "0"], ["--lr", "nan"], ["--players", "5"]):
        import subprocess
        import sys
        from helpers import ROOT
        res = subprocess.run([sys.executable, str(ROOT / "examples" / "train_policy.py"), *bad],
                             capture_output=True, text=True, cwd=ROOT)
        assert res.returncode == 2 and "error:" in res.stderr and "Traceback" not in res.stderr


@pytest.mark.slow
def test_the_policy_learns_to_beat_random_from_the_tensor(tmp_path):
    """300 games against random each (about 30 s in all): the policy's most likely
    decision then wins far more often than random decisions on the same deals; and
    the policy as it plays in training (sampling its decisions) wins far more of its
    last 100 games than the same policy trained blind (an all-zero observation, the
    action mask only): what it learned beyond a fixed liking for some decisions, it
    learned from the tensor."""
    args = ("--games", "300", "--then-games", "0", "--eval", "40", "--report", "100")
    _, run = _train(tmp_path, *args)
    _, blind = _train(tmp_path, *args, "--blind")
    seeing = run["evaluation"]["random"]
    assert seeing["policy"] >= seeing["random"] + 0.25, seeing
    last, last_blind = run["curve"][-1]["win_rate"], blind["curve"][-1]["win_rate"]
    assert last >= last_blind + 0.15, (run["curve"], blind["curve"])
