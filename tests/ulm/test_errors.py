"""Errors that carry their field (ulm.errors.OptionError): the command line and
the bot specs word an error by its field, never by reading its message."""
import pickle

import pytest

from ulm.errors import OptionError


def test_the_field_value_and_message_are_data():
    exc = OptionError("games", 0, "must be >= 1, got 0")
    assert (exc.field, exc.value, exc.message) == ("games", 0, "must be >= 1, got 0")
    assert str(exc) == "games: must be >= 1, got 0"
    assert isinstance(exc, ValueError)
    assert exc.in_words({"games": "--games"}) == "--games: must be >= 1, got 0"
    assert exc.in_words(name="--count") == "--count: must be >= 1, got 0"
    assert exc.in_words({}) == "games: must be >= 1, got 0"
    plain = OptionError("a file that is no model")       # no one field
    assert plain.field is None and str(plain) == "a file that is no model"
    assert plain.in_words({"games": "--games"}) == "a file that is no model"


def test_an_error_of_a_worker_process_keeps_its_field():
    from mcts.play.tournament import TournamentError
    exc = pickle.loads(pickle.dumps(TournamentError("games", 7, "at most 6")))
    assert type(exc) is TournamentError
    assert (exc.field, exc.value, exc.message, str(exc)) == ("games", 7, "at most 6",
                                                             "games: at most 6")


def test_the_command_line_words_an_error_by_its_field_not_its_text():
    """A message that starts with another setting's name is still the error of
    its own field (the command line read the first word of the message)."""
    from cli import worded
    from mcts.play.tournament import TournamentError
    options = {"players": "--players", "games": "--games"}
    exc = TournamentError("games", message="players would wait: at most 6 games")
    assert worded(exc, options).message == "--games: players would wait: at most 6 games"
    assert worded(ValueError("players: x"), options).message == "players: x"


@pytest.mark.parametrize("fields, field", [
    (dict(c=-1), "c"), (dict(margin_weight=-1), "margin_weight"),
    (dict(horizon=99), "horizon"), (dict(seed=-1), "seed"), (dict(time=0), "time"),
    (dict(horizon=-1, minimax=0.5), "minimax"),
])
def test_search_params_raise_the_field(fields, field):
    from mcts import SearchParams
    with pytest.raises(OptionError) as info:
        SearchParams(**fields)
    assert info.value.field == field
    assert str(info.value) == f"{field}: {info.value.message}"


def test_a_bot_spec_names_the_option_by_its_spec_name():
    from mcts import make_bot
    with pytest.raises(OptionError) as info:
        make_bot("ismcts:margin=-1")
    assert "ismcts: margin: must be a number from 0 to 1000" in str(info.value)
    assert "margin_weight" not in str(info.value)
