"""State.information_state_key(p): the compact, compiled form of
information_state_string(p) (OpenSpiel's ISMCTS keys its nodes by it, through
ulm/openspiel.py). Two states must have equal keys exactly when
they have equal strings, for every observer, along whole random games of every
size and variant and on the worlds resampled from each player's information."""
import random

import pytest

import ulm


@pytest.mark.parametrize("players,variant", [(2, "basic"), (3, "advanced"), (4, "basic"),
                                             (4, "advanced")])
def test_key_and_string_tell_the_same_states_apart_R_INFO_4(players, variant):
    by_string, by_key = {}, {}
    checked = 0
    for g in range(2):
        s = ulm.Game(players=players, variant=variant).new_game(g)
        rng = random.Random(g)
        while not s.is_terminal():
            if s.is_chance_node():
                s.resolve_chance()
                continue
            for p in range(players):
                for st in (s, s.resample_from_infostate(p, rng.getrandbits(64))):
                    text, key = st.information_state_string(p), st.information_state_key(p)
                    assert by_string.setdefault(text, key) == key, "one string, two keys"
                    assert by_key.setdefault(key, text) == text, "one key, two strings"
                    checked += 1
            s.apply_action(rng.choice(s.legal_actions()))
    assert checked > 500
    # resampled worlds share the key with the true state, so keys repeat
    assert len(by_key) < checked


def test_key_is_compact_and_checks_the_player():
    s = ulm.Game(players=2).new_game(1)
    key = s.information_state_key(0)
    assert isinstance(key, bytes) and len(key) < len(s.information_state_string(0))
    assert key != s.information_state_key(1)
    with pytest.raises(ValueError, match="no seat 2"):
        s.information_state_key(2)
