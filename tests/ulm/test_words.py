"""Advice in players' words: card plays named by what they do (R-CARD-PLAY-1), the
advice's columns explained, plurals right."""

import pytest
from click.testing import CliRunner

import ulm
from cli.main import main
from ulm.decisions import decision_label
from ulm.follow import parse_decision
from ulm.render import plural
from helpers import ROOT



def test_card_plays_in_players_words_R_CARD_PLAY_1():
    upper = ulm.State.string_to_action("play Siege (upper)")
    lower = ulm.State.string_to_action("play Siege (lower)")
    assert decision_label(upper) == "play Siege (immediate bonus)"
    assert decision_label(lower) == "lay Siege in front (end-game points)"
    assert decision_label(ulm.State.string_to_action("push row 2 from left")) == \
        "push row 2 from left"


def test_both_names_are_read():
    state = ulm.Game(players=2).new_game(seed=1)
    raw = state.raw()
    raw["players"][0]["hand"] = 1 << ulm.CARDS.index("Nave I")
    raw["pile"] &= ~(1 << ulm.CARDS.index("Nave I"))
    state.set_raw(raw)
    lower = ulm.State.string_to_action("play Nave I (lower)")
    assert parse_decision(state, "lay Nave I in front (end-game points)") == lower
    assert parse_decision(state, "play Nave I (lower)") == lower


@pytest.mark.parametrize("n,word,text", [(0, "coin", "0 coins"), (1, "coin", "1 coin"),
                                         (2, "sparrow", "2 sparrows"), (1, "card", "1 card")])
def test_plurals(n, word, text):
    assert plural(n, word) == text


def test_suggest_explains_its_columns():
    res = CliRunner().invoke(main, ["suggest", str(ROOT / "examples" / "push-4p-view.json"),
                                    "--iterations", "200", "--quiet"])
    assert res.exit_code == 0, res.output
    assert "share: how often the search chose the decision where it stood" in res.stdout
    assert ("estimate: the figure the search ranks by (its visits go to the best): Blue's "
            "mean result after the decision" in res.stdout and "±: its standard error"
            in res.stdout)


def test_suggest_draws_its_advice(tmp_path):
    svg = tmp_path / "advice.svg"
    res = CliRunner().invoke(main, ["suggest", str(ROOT / "examples" / "push-4p-view.json"),
                                    "--iterations", "300", "--quiet", "--svg", str(svg)])
    assert res.exit_code == 0, res.output
    text = svg.read_text()
    first = res.stdout.split("Recommended decisions for the rest of the turn:\n")[1]
    first = first.split("\n")[0].split("1. ")[1].split("  share")[0].strip()
    assert f"1. {first}" in text and 'class="highlight"' in text
