"""No guess is shown as a certain step: the principal line of a search (and so
`ulm suggest`, the web's hint) stops at a step that shows the player something
hidden, and a web variation stops there too, instead of going on in one world's
deal. The leak oracle covers the line: it names nothing the player cannot know,
and it is the same for two worlds the player cannot tell apart."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import ulm
from cli.main import main
from constructed import UNDER, coats_under_the_stack
from helpers import do
from leaks import Secrets, assert_same_for_worlds
from mcts import search
from ulm.positions import dumps, state_to_position





def names(line) -> list:
    return [step.name for step in line]


def test_the_line_stops_where_the_coats_drawn_decide_the_next_step():
    """The search's line was "seal in Leaning House, keep coat G-Garden, end turn":
    G-Garden is one guess of the coats drawn from under the stack (in about half the
    worlds searched it was not there). Now the line ends with the seal, marked as
    showing Red something hidden."""
    s = coats_under_the_stack()
    result = search(s, iterations=3000, seed=1)
    assert result.best_action_name == "seal in Leaning House"
    line = result.principal_line()
    assert names(line) == ["seal in Leaning House"]
    assert line[-1].reveals and not line[-1].chance_after
    assert result.to_dict()["principal_line"][-1]["reveals"] is True
    secrets = Secrets(s, 0)
    assert secrets.leaks(names(line)) == []
    assert secrets.leaks(result.to_dict()) == []


def test_a_line_that_shows_nothing_hidden_goes_on_to_the_end_of_the_turn():
    """Where nothing hidden is shown, the line is the tree's most visited path as
    before: the first step is the search's choice and the line goes past it."""
    s = ulm.Game(players=3).new_game(seed=7)
    s.apply_action_string("draw")
    s.resolve_chance()
    result = search(s, iterations=2000, seed=3)
    line = result.principal_line()
    assert line[0].action == result.best_action
    assert not any(step.reveals for step in line)
    walked, children = [], result.turn_tree
    while children:
        key, node = max(children.items(), key=lambda kv: (kv[1][0], kv[1][1] / kv[1][0], -kv[0]))
        if node[4] != result.player:
            break
        walked.append(key)
        if node[3]:
            break
        children = node[5]
    assert [step.action for step in line] == walked


@pytest.mark.parametrize("viewer_seed", [1, 2, 3])
def test_the_line_is_the_same_in_worlds_the_player_cannot_tell_apart(viewer_seed, tmp_path):
    """`ulm suggest --json` on Red's view of two worlds that differ only in what Red
    cannot see (Yellow's coats under the stack): the same line, naming no hidden coat."""
    s = coats_under_the_stack()

    def suggested(world):
        path = tmp_path / "view.json"
        path.write_text(dumps(state_to_position(world, 0)))
        res = CliRunner().invoke(main, ["suggest", str(path), "--iterations", "1500",
                                        "--seed", str(viewer_seed), "--json"])
        assert res.exit_code == 0, res.output
        return json.loads(res.stdout)["principal_line"]

    assert_same_for_worlds(s, 0, suggested, seed=viewer_seed)


def test_suggest_text_says_what_the_step_shows_and_names_no_guess(tmp_path):
    s = coats_under_the_stack()
    path = tmp_path / "view.json"
    path.write_text(dumps(state_to_position(s, 0)))
    res = CliRunner().invoke(main, ["suggest", str(path), "--iterations", "3000", "--seed", "1"])
    assert res.exit_code == 0, res.output
    assert "keep coat" not in res.stdout
    assert "shows you what was hidden" in res.stdout
    assert Secrets(s, 0).leaks(res.stdout) == []


def test_a_line_through_a_reveal_is_checked_in_every_world_not_one():
    """The drawn coats are the same in every world when the player knows them all:
    then the keep is no guess and the line goes on past the seal."""
    s = coats_under_the_stack()
    r = s.raw()
    r["coat_tail_known"] = [(1 << 3) | 1] * len(UNDER) + [0] * (12 - len(UNDER))
    s.set_raw(r)
    result = search(s, iterations=3000, seed=1)
    line = result.principal_line()
    assert line[0].name == "seal in Leaning House" and not line[0].reveals
    assert len(line) >= 2 and line[1].name.startswith("keep coat ")
    do(s.clone(), *names(line))                 # legal as the line says, in the real world
