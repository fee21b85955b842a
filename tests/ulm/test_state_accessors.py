"""The State's public accessors (round, phase, the player whose turn it is, the
count of cards looked at) and the game facts read from the core: each the same
as the raw data, which is for positions and tests, not for every caller."""
import random

import pytest

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


BAD_VARIANTS = [("wrong type", 1), ("none", None), ("bytes", b"basic"), ("a list", ["basic"]),
                ("empty", ""), ("foreign", "expert"), ("another case", "Advanced"),
                ("huge", "x" * 1_000_000), ("truncated", "advan")]


def test_a_variant_is_a_value_the_core_names_and_reads_once():
    """The state holds the variant as the core's value (raw's `variant` indexes
    VARIANTS), tower tiles belong to TOWER_VARIANTS, and every reader of a
    variant's name (a game, a record, a position file, self-play, the web) refuses
    a bad one with the one wording, naming the field and never echoing an upload."""
    from ulm.errors import OptionError
    from ulm.game import check_variant
    from ulm.positions import PositionError, position_to_state, state_to_position
    from ulm.records import RecordError, replay
    from mcts.learning.selfplay import SelfplayConfig
    assert ulm.TOWER_VARIANTS == ("advanced",)
    for variant in ulm.VARIANTS:
        state = ulm.Game(players=2, variant=variant).new_game(seed=3)
        assert ulm.VARIANTS[state.raw()["variant"]] == variant == state.game.variant
        assert (state.raw()["tower_current"] >= 0) == (variant in ulm.TOWER_VARIANTS)
        assert position_to_state(state_to_position(state))[0].game.variant == variant
    for what, bad in BAD_VARIANTS:
        with pytest.raises(OptionError) as err:
            check_variant(bad)
        message = str(err.value)
        assert err.value.field == "variant" and message.startswith(
            "variant: must be 'basic' or 'advanced', got "), (what, message)
        assert len(message) < 120, what
        position = state_to_position(ulm.Game(players=2).new_game(seed=3))
        position["variant"] = bad
        readers = [(ulm.Game, {"players": 2, "variant": bad}),
                   (replay, {"data": {"format": "ulm-record/1", "players": 2, "variant": bad,
                                        "seed": 1, "decisions": []}}),
                   (lambda **kw: SelfplayConfig(**kw).validate(), {"players": 2, "games": 1,
                                                                   "variant": bad}),
                   (position_to_state, {"data": position})]
        for read, args in readers:
            with pytest.raises((OptionError, RecordError, PositionError)) as err:
                read(**args)
            # a position file's fields are typed first ("must be a text"): its one wording
            shared = message if isinstance(bad, str) else "variant: must be "
            assert str(err.value).startswith(shared[:80]) and len(str(err.value)) < 160, (
                what, str(err.value))
