"""Seeds: one mixing function (ulm.derive_seed), independent streams for
neighbouring seeds, and bots whose spec seed still gives each game its own stream."""
import pytest

import ulm
from mcts.play.bots import make_bot
from mcts.play.bot_game import play_game
from mcts.play.tournament import TournamentConfig, run_tournament

MASK = 2 ** 64 - 1


def chance_draws(seed, k=12):
    """The first k draws of a dealer seeded with `seed`, all at the same chance node."""
    state = ulm.Game(players=4).new_initial_state()
    state.seed_dealer(seed)
    return [state.sample_chance_outcome() for _ in range(k)]


def test_neighbouring_seeds_are_not_shifted_copies_of_one_stream():
    """With `seed*phi + c` seeding, seed n+1's draws were seed n's moved one step."""
    draws = [chance_draws(n) for n in range(101)]
    shifted = sum(draws[n + 1][:-1] == draws[n][1:] for n in range(100))
    assert shifted == 0


def test_first_set_up_draws_of_neighbouring_seeds_are_independent():
    """The first draw of seed n+1 must not follow the second draw of seed n: over
    400 seeds their agreement is near what independent draws give."""
    draws = [chance_draws(n, 2) for n in range(401)]
    same_as_shifted = sum(draws[n + 1][0] == draws[n][1] for n in range(400))
    same_as_unrelated = sum(draws[n + 7][0] == draws[n][1] for n in range(394))
    # independent draws among ~5 colours agree about 1 time in 5; copies always
    assert same_as_shifted < 0.4 * 400
    assert abs(same_as_shifted - same_as_unrelated) < 0.15 * 400


def test_derive_seed_is_one_64_bit_function_of_seed_and_streams():
    assert ulm.derive_seed(5, 0) == ulm.derive_seed(5, 0)
    values = {ulm.derive_seed(s, t) for s in range(30) for t in range(30)}
    assert len(values) == 900
    assert all(0 <= v <= MASK for v in values)
    assert ulm.derive_seed(1, 2, 3) != ulm.derive_seed(1, 3, 2)
    assert ulm.derive_seed(1, 2, 3) == ulm.derive_seed(ulm.derive_seed(1, 2), 3)
    assert ulm.derive_seed(-1, 0) == ulm.derive_seed(MASK, 0)      # seeds are taken mod 2**64
    with pytest.raises(TypeError):
        ulm.derive_seed(1)
    # the bits of consecutive seeds' sub-seeds are balanced (a mixed, not a linear, map)
    ones = sum(bin(ulm.derive_seed(n, 0) ^ ulm.derive_seed(n + 1, 0)).count("1")
               for n in range(500)) / 500
    assert 30 < ones < 34


def test_a_spec_seed_gives_each_game_its_own_stream_and_stays_reproducible():
    a = play_game(["random:seed=7", "random:seed=7"], 1)
    b = play_game(["random:seed=7", "random:seed=7"], 1)
    c = play_game(["random:seed=7", "random:seed=7"], 2)
    assert a["scores"] == b["scores"] and a["decisions"] == b["decisions"]
    assert (a["scores"], a["decisions"]) != (c["scores"], c["decisions"])


def test_one_bot_draws_a_new_stream_for_each_decision():
    state = ulm.Game(players=2).new_game(3)
    state.apply_action_string("draw")
    state.resolve_chance()
    assert len(state.legal_actions()) > 1
    bot = make_bot("random:seed=7")
    picks = {bot.choose(state) for _ in range(40)}
    assert len(picks) > 1


def test_two_random_bots_with_different_seeds_are_level():
    """Two uniform random bots with different seeds are level (a seed must be
    mixed with the deal and the seat, not replay one stream in every game)."""
    cfg = TournamentConfig(bots=["random:seed=7", "random:seed=1000"], players=2, games=800,
                           seed=9)
    summary = run_tournament(cfg, progress=False)
    for bot in summary["bots"]:
        assert bot["win_low"] < 0.5 < bot["win_high"], bot
        assert not bot["beats_baseline"] and not bot["below_baseline"]
