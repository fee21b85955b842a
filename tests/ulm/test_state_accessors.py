"""The State's public accessors (round, phase, the player whose turn it is, the
count of cards looked at) and the game facts read from the core: each the same
as the raw data, which is for positions and tests, not for every caller."""
import random

import ulm
from ulm import NUM_ROUNDS, PHASES
from ulm.follow import hidden_keep_words, keep_is_hidden


def _states(players, seed, steps=4000):
    state = ulm.Game(players=players).new_game(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        yield state
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.resolve_chance()
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_the_accessors_are_the_raw_fields_along_whole_games():
    seen_rounds = set()
    for players in (2, 3, 4):
        for state in _states(players, seed=players):
            raw = state.raw()
            assert state.round() == raw["round"]
            assert state.phase() == raw["phase"] and 0 <= state.phase() < len(PHASES)
            assert state.turn_player() == raw["turn_player"]
            assert state.looked_card_count() == raw["n_looked_cards"]
            seen_rounds.add(state.round())
        assert state.is_terminal() and state.round() == NUM_ROUNDS
    assert seen_rounds == set(range(NUM_ROUNDS + 1))


def test_the_number_of_rounds_has_one_home():
    from mcts.searcher import features
    from mcts.searcher.params import MAX_HORIZON_ROUNDS
    from ulm import position_format
    from ulm._fastcore import NUM_ROUNDS as CORE_ROUNDS
    assert NUM_ROUNDS == CORE_ROUNDS == 10          # R-END-1
    assert position_format.NUM_ROUNDS is NUM_ROUNDS and features.ROUNDS is NUM_ROUNDS
    assert MAX_HORIZON_ROUNDS == NUM_ROUNDS
    assert not hasattr(ulm._fastcore, "DESC_ON_BOARD_")     # no names with a trailing _


def test_an_opponent_s_hidden_keep_is_said_by_its_discards():
    """One function words it for `ulm apply --list` and the web's hint."""
    for seed in range(200):
        for state in _states(3, seed):
            mover = state.current_player()
            if mover < 0 or not state.looked_card_count() or state.is_chance_node():
                continue
            viewer = (mover + 1) % 3
            if keep_is_hidden(state, viewer):
                n = state.looked_card_count()
                assert hidden_keep_words(state, viewer) == \
                    "kept a card, discarded " + " and ".join(["<card>"] * (n - 1))
                assert hidden_keep_words(state, mover) is None     # the mover sees its cards
                return
    raise AssertionError("no hidden keep in 200 games")


def test_the_variants_have_one_home():
    """The core names the variants; the commands, self-play and the web read them,
    and the page takes them from the server (no list of its own)."""
    from click.testing import CliRunner
    from helpers import ROOT
    from starlette.testclient import TestClient

    from cli.main import main
    from cli.web.app import create_app
    from ulm._fastcore import VARIANTS as CORE_VARIANTS
    from ulm.game import VARIANTS
    assert VARIANTS is CORE_VARIANTS and VARIANTS[0] == "basic"
    page = (ROOT / "cli" / "web" / "static" / "index.html").read_text(encoding="utf-8")
    assert not any(f"<option>{v}</option>" in page for v in VARIANTS)
    with TestClient(create_app()) as client:
        assert client.get("/api/info").json()["variants"] == list(VARIANTS)
    for command in (["new"], ["play"], ["tournament"], ["train", "selfplay"]):
        res = CliRunner().invoke(main, command + ["--variant", "third"])
        assert res.exit_code == 2 and "'basic', 'advanced'" in res.output, (command, res.output)
