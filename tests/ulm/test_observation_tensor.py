"""State.observation_tensor(p): what seat p knows, as numbers (R-INFO-4).

The leak tests: every state the seat cannot tell apart (the worlds
resample_from_infostate draws, the same information-state key) gives the same
tensor, along whole random games in 2, 3 and 4 players and both variants; and
the tensor tells apart what the seat can tell apart (one tensor per key)."""
import random
import re

import numpy as np
import pytest

import ulm
from ulm import OBSERVATION_SEAT_FIELDS, OBSERVATION_SIZE, OBSERVATION_SLICES
from ulm.benchmarks import run_observations
from helpers import card, edit, edit_player, player


def _slice(name):
    for n, start, shape, _ in OBSERVATION_SLICES:
        if n == name:
            return start, shape
    raise KeyError(name)


def piece(tensor, name):
    start, shape = _slice(name)
    return tensor[start:start + int(np.prod(shape))].reshape(shape)


SEAT = {name: start for name, start, _ in OBSERVATION_SEAT_FIELDS}
KNOWN, PUBLIC = SEAT["hand_known"], SEAT["hand_public"]


def test_slices_cover_the_tensor_one_after_another():
    at = 0
    for name, start, shape, meaning in OBSERVATION_SLICES:
        assert start == at, name
        assert meaning and all(d > 0 for d in shape)
        at += int(np.prod(shape))
    assert at == OBSERVATION_SIZE == ulm.State.observation_tensor_shape()[0]
    assert len({n for n, *_ in OBSERVATION_SLICES}) == len(OBSERVATION_SLICES)
    at = 0
    for name, start, size in OBSERVATION_SEAT_FIELDS:
        assert start == at, name
        at += size
    assert at == _slice("seats")[1][1]


@pytest.mark.parametrize("players,variant", [(2, "basic"), (2, "advanced"), (3, "basic"),
                                             (3, "advanced"), (4, "basic"), (4, "advanced")])
def test_worlds_a_seat_cannot_tell_apart_give_one_tensor_R_INFO_4(players, variant):
    """Along two random games: for every seat at every decision, the true state and
    three resampled worlds give the same tensor; one information-state key gives one
    tensor and one tensor one key (the tensor keeps what the seat knows)."""
    by_key, by_tensor = {}, {}
    redealt = 0
    for g in range(2):
        s = ulm.Game(players=players, variant=variant).new_game(g)
        rng = random.Random(g)
        while not s.is_terminal():
            if s.is_chance_node():
                s.resolve_chance()
                continue
            for p in range(players):
                truth = s.observation_tensor(p)
                for _ in range(3):
                    w = s.resample_from_infostate(p, rng.getrandbits(64))
                    assert np.array_equal(w.observation_tensor(p), truth)
                    redealt += w.raw() != s.raw()
                key, tensor = s.information_state_key(p), truth.tobytes()
                assert by_key.setdefault(key, tensor) == tensor, "one key, two tensors"
                assert by_tensor.setdefault(tensor, key) == key, "one tensor, two keys"
            s.apply_action(rng.choice(s.legal_actions()))
    assert redealt > 100        # the worlds were different worlds


def _midgame(players, seed=3):
    s = ulm.Game(players=players).new_game(seed)
    rng = random.Random(seed)
    for _ in range(60):
        if s.is_chance_node():
            s.resolve_chance()
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    s.resolve_chance()
    return s


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_opponents_hidden_card_swapped_with_the_pile_is_not_seen(players):
    s = _midgame(players)
    opp = 1
    pile = s.raw()["pile"]
    a, b = [c for c in range(33) if pile >> c & 1][:2]       # one reshuffle group: the pile's
    hand = player(s, opp)["hand"]
    s = edit(edit_player(s, opp, hand=hand | 1 << a), pile=pile & ~(1 << a))
    other = edit(edit_player(s.clone(), opp, hand=hand | 1 << b), pile=pile & ~(1 << b))
    assert other.information_state_key(0) == s.information_state_key(0)
    assert np.array_equal(other.observation_tensor(0), s.observation_tensor(0))
    # the opponent itself tells the two apart, and so does its tensor
    assert not np.array_equal(other.observation_tensor(opp), s.observation_tensor(opp))
    assert piece(other.observation_tensor(opp), "seats")[0][KNOWN + a] == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_world_the_seat_tells_apart_gives_another_tensor(players):
    s = _midgame(players)
    own = player(s, 0)["hand"]
    pile = s.raw()["pile"]
    a = next(c for c in range(33) if own >> c & 1) if own else None
    b = next(c for c in range(33) if pile >> c & 1)
    if a is None:
        other = edit_player(s.clone(), 0, hand=1 << b)
    else:
        other = edit_player(s.clone(), 0, hand=own & ~(1 << a) | (1 << b))
    other = edit(other, pile=pile & ~(1 << b) | ((1 << a) if a is not None else 0))
    assert not np.array_equal(other.observation_tensor(0), s.observation_tensor(0))
    hand = piece(other.observation_tensor(0), "seats")[0]
    assert hand[KNOWN + b] == 1


def test_coats_under_the_stack_are_named_only_to_the_seats_that_know_them_R_COAT_4():
    s = ulm.Game(players=3).new_game(2)
    raw = s.raw()
    coats = [c for c in range(12) if raw["coat_unknown"] >> c & 1]
    top, under = coats[0], coats[1]
    s = edit(s, coat_unknown=raw["coat_unknown"] & ~(1 << under), coat_tail_len=1,
             coat_tail=[under] + [0] * 11, coat_tail_by=[1] + [-1] * 11,
             coat_tail_known=[0b010] + [0] * 11)
    swapped = edit(s.clone(), coat_unknown=raw["coat_unknown"] & ~(1 << top),
                   coat_tail=[top] + [0] * 11)
    assert piece(s.observation_tensor(1), "coat_tail")[0][1 + under] == 1
    assert piece(s.observation_tensor(0), "coat_tail")[0][1:13].sum() == 0
    for p, tells in ((0, False), (1, True), (2, False)):
        differs = not np.array_equal(s.observation_tensor(p), swapped.observation_tensor(p))
        assert differs == tells, p
    # who put it there is public: slot 1 for seat 0, slot 0 for seat 1
    assert piece(s.observation_tensor(0), "coat_tail")[0][13 + 1] == 1
    assert piece(s.observation_tensor(1), "coat_tail")[0][13 + 0] == 1


def test_slots_count_from_the_viewer_and_name_the_public_facts():
    s = _midgame(4, seed=5)
    raw = s.raw()
    for p in range(4):
        t = s.observation_tensor(p)
        assert piece(t, "num_players").tolist() == [0, 0, 1]
        assert piece(t, "round")[raw["round"]] == 1 and piece(t, "round").sum() == 1
        assert piece(t, "to_move")[(raw["turn_player"] - p) % 4] == 1
        seats = piece(t, "seats")
        for q in range(4):
            slot = seats[(q - p) % 4]
            assert slot[0] == 1
            assert slot[SEAT["points"]] == pytest.approx(raw["players"][q]["score"] / 100)
            assert slot[SEAT["barge"] + raw["players"][q]["barge"]] == 1
        grid = piece(t, "grid")
        for i, c in enumerate(raw["grid"]):
            assert grid[i].argmax() == c and grid[i].sum() == 1
        assert piece(t, "pile")[0] == pytest.approx(bin(raw["pile"]).count("1") / 33)
        assert piece(t, "unseen").sum() == bin(s.hidden_cards(p)).count("1")
    # a 2-player game leaves slots 2 and 3 empty
    t = _midgame(2).observation_tensor(1)
    assert piece(t, "seats")[2:].sum() == 0 and piece(t, "num_players").tolist() == [1, 0, 0]


def test_a_card_taken_face_up_is_known_to_all_R_INFO_3a():
    s = _midgame(3)
    c = card("Siege")
    s = edit_player(s, 2, hand=player(s, 2)["hand"] | (1 << c), known=1 << c)
    s = edit(s, pile=s.raw()["pile"] & ~(1 << c), discard=s.raw()["discard"] & ~(1 << c))
    for p in range(3):
        slot = piece(s.observation_tensor(p), "seats")[(2 - p) % 3]
        assert slot[KNOWN + c] == 1 and slot[PUBLIC + c] == 1


def test_states_at_chance_nodes_and_the_end_have_tensors():
    s = ulm.Game(players=2).new_initial_state()
    assert s.is_chance_node()
    t = s.observation_tensor(0)
    assert piece(t, "node").tolist() == [0, 1, 0] and np.isfinite(t).all()
    s = ulm.Game(players=2).new_game(4)
    s.random_playout(4)
    t = s.observation_tensor(1)
    assert piece(t, "node").tolist() == [0, 0, 1]


def test_out_buffer_and_bad_inputs():
    s = _midgame(2)
    buf = np.full(OBSERVATION_SIZE, 7.0, dtype=np.float32)
    assert s.observation_tensor(1, out=buf) is buf
    assert np.array_equal(buf, s.observation_tensor(1))
    for p in (-1, 2, 4):
        with pytest.raises(ValueError, match=f"no seat {p}"):
            s.observation_tensor(p)
    for bad in ("0", float("nan"), 1.0, True, None):
        with pytest.raises(TypeError, match="player: a seat number"):
            s.observation_tensor(bad)
    with pytest.raises(ValueError, match="no seat"):
        s.observation_tensor(2 ** 70)
    for bad, word in ((np.zeros(OBSERVATION_SIZE, np.float64), "float32"),
                      (np.zeros(OBSERVATION_SIZE - 1, np.float32), "must hold"),
                      (np.zeros(0, np.float32), "must hold"),
                      (np.zeros((2, OBSERVATION_SIZE), np.float32)[:, 0], "float32"),
                      ([0.0] * OBSERVATION_SIZE, "float32"), ("text", "float32")):
        with pytest.raises(ValueError, match=word):
            s.observation_tensor(0, out=bad)
    ro = np.zeros(OBSERVATION_SIZE, np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="float32"):
        s.observation_tensor(0, out=ro)


def test_bench_helper_counts_and_checks_the_seat():
    s = _midgame(4)
    run_observations(s, 3, 10)
    with pytest.raises(ValueError, match="no seat 4"):
        run_observations(s, 4, 1)


def test_the_documented_table_is_the_layout():
    from helpers import ROOT
    text = (ROOT / "docs" / "environments.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| ([\d×]+) \| \S", text, flags=re.M)
    assert rows == [(n, str(s), "×".join(map(str, shape))) for n, s, shape, _ in OBSERVATION_SLICES]
    fields = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+) \|$", text, flags=re.M)
    assert fields == [(n, str(s), str(k)) for n, s, k in OBSERVATION_SEAT_FIELDS]
