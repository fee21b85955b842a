"""Positions that follow a real game: `ulm apply` and ulm/decisions.py.

A game followed from one seat's view, event by event in ordinary words, must
stay that seat's view of the real game at every step (hidden draws of the
opponents stay hidden; cards and coats they reveal later are swapped in)."""
import json
import random

import pytest
from click.testing import CliRunner

import ulm
from cli.main import main
from ulm import ACTION_NAMES, CARDS, COATS
from ulm._fastcore import PUSH_ENTRIES, SEATS
from ulm.decisions import DecisionError, chance_name
from ulm.follow import apply_decision, decision_names
from ulm.positions import PositionError, dumps, position_to_state, state_to_position
from ulm.records import load_record
from helpers import ROOT

EXAMPLES = ROOT / "examples"


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def record_events(data: dict) -> tuple[ulm.State, list[str]]:
    """The start of a record (after set-up) and every decision and chance event after it."""
    state = ulm.Game(players=data["players"], variant=data["variant"]).new_game(data["seed"])
    start = state.clone()
    events = []
    for name in data["decisions"]:
        state.apply_action(ulm.State.string_to_action(name))
        events.append(name)
        while state.is_chance_node():
            a = state.sample_chance_outcome()
            events.append(chance_name(state, a))
            state.apply_action(a)
    return start, events


def test_apply_round_trips_with_replay(tmp_path):
    data = json.loads((EXAMPLES / "record-2p.json").read_text())
    start, events = record_events(data)
    (tmp_path / "start.json").write_text(dumps(state_to_position(start)))
    res = run("apply", tmp_path / "start.json", *events, "-o", tmp_path / "end.json")
    assert res.exit_code == 0, res.output
    end = json.loads((tmp_path / "end.json").read_text())
    assert end == state_to_position(load_record(EXAMPLES / "record-2p.json").state)
    assert "the game is over" in res.stderr


def test_apply_refuses_an_illegal_decision_naming_the_legal_ones(tmp_path):
    path = EXAMPLES / "push-4p-view.json"
    state, seat = position_to_state(json.loads(path.read_text()))
    legal = [name for name, _ in decision_names(state, seat)]
    illegal = next(f"push {e}" for e in PUSH_ENTRIES if f"push {e}" not in legal)
    res = run("apply", path, illegal, "-o", tmp_path / "out.json")
    assert res.exit_code == 2
    assert "Traceback" not in res.output
    assert f"decision 1 ({illegal!r})" in res.stderr
    assert f"legal: {', '.join(legal)})" in res.stderr
    assert not (tmp_path / "out.json").exists()
    push = next(n for n in legal if n.startswith("push "))
    res = run("apply", path, push.replace("push", "psuh"))
    assert res.exit_code == 2 and f"did you mean {push!r}?" in res.stderr


def test_commands_chain_through_standard_input():
    new = run("new", "--players", "2", "--as", "Red", "--seed", "4")
    drawn = run("apply", "-", "draw", "--quiet", input=new.stdout)
    assert drawn.exit_code == 0, drawn.output
    assert json.loads(drawn.stdout)["pending"] == [{"task": "draw tile to push", "arg": 0}]
    pushed = run("apply", "-", "drew white", "push row 2 from left", "-o", "-",
                 input=drawn.stdout)
    assert pushed.exit_code == 0, pushed.output
    pos = json.loads(pushed.stdout)
    assert pos["kind"] == "view" and pos["phase"] == "actions"
    assert pos["grid"][1][0] == "white"
    shown = run("show", "-", input=pushed.stdout)
    assert shown.exit_code == 0 and "view of Red" in shown.stdout


def test_a_chance_event_must_be_said():
    state = ulm.Game(players=2).new_game(seed=4)
    apply_decision(state, "draw")
    with pytest.raises(DecisionError, match="a chance event is pending.*drew white"):
        apply_decision(state, "push row 1 from left")
    empty = state.clone()                        # no gray tile left in the bag
    raw = empty.raw()
    raw["bag"][ulm.COLOURS.index("gray")] = 0
    empty.set_raw(raw)
    with pytest.raises(DecisionError, match="'drew gray' cannot happen here"):
        apply_decision(empty, "drew gray")
    with pytest.raises(DecisionError, match="the pending chance event is not a card draw"):
        apply_decision(state, "drew a card")
    for text in ("drew a white tile", "white tile", "Drew  White", "chance: tile white"):
        st = state.clone()
        assert ACTION_NAMES[apply_decision(st, text)] == "chance: tile white"


def test_hidden_draw_of_an_opponent_stays_hidden_R_INFO_3():
    """Blue follows a game: Red's card draws are 'Red drew a card'; naming the card is
    refused; the view stays valid and Blue's knowledge unchanged."""
    def first_card_draw(seed):
        """A random game up to its first card drawn from the pile (None if there is none)."""
        rng = random.Random(seed)
        state = ulm.Game(players=2).new_game(seed=seed)
        while not state.is_terminal():
            if state.is_chance_node():
                if ACTION_NAMES[state.legal_actions()[0]].startswith("chance: card"):
                    return state
                state.apply_action(state.sample_chance_outcome())
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        return None
    full = next(s for s in map(first_card_draw, range(100)) if s is not None)
    mover = full.raw()["turn_player"]
    viewer = 1 - mover
    drawer, seer = SEATS[mover], SEATS[viewer]
    view, _ = position_to_state(state_to_position(full, viewer))
    before = state_to_position(view, viewer)
    assert [n for n, _ in decision_names(view, viewer)] == [f"{drawer} drew a card"]
    card = ACTION_NAMES[full.legal_actions()[0]].removeprefix("chance: card ")
    with pytest.raises(DecisionError, match=f"{seer} cannot see {drawer}'s card; "
                                            f"say '{drawer} drew a card'"):
        apply_decision(view, f"drew {card}", viewer)
    with pytest.raises(DecisionError, match=f"it is {drawer}'s draw, not {seer}'s"):
        apply_decision(view, f"{seer} drew a card", viewer)
    apply_decision(view, f"{drawer} drew a card", viewer)
    full.apply_action(full.legal_actions()[0])
    after = state_to_position(view, viewer)
    assert after == state_to_position(full, viewer)
    assert after["draw pile size"] == before["draw pile size"] - 1
    assert "hand" not in after["players"][mover]
    position_to_state(json.loads(dumps(after)))       # still a valid view


def follow(players: int, seed: int, viewer: int, variant: str, reread: bool) -> int:
    """Play a random game on a full state and follow it from `viewer`'s view in ordinary
    words; the two views must agree after every event. With `reread`, the view goes
    through its file after every event (it must stay a valid view file)."""
    rng = random.Random(seed)
    full = ulm.Game(players=players, variant=variant).new_game(seed)
    view, _ = position_to_state(state_to_position(full, viewer))
    keep_card = ulm.State.string_to_action(f"keep {CARDS[0]}")
    steps = 0
    while not full.is_terminal():
        if full.is_chance_node():
            a = full.sample_chance_outcome()
            text = chance_name(full, a, viewer)
        else:
            a = rng.choice(full.legal_actions())
            text = ACTION_NAMES[a]
            raw = full.raw()
            looked = raw["looked_cards"][:raw["n_looked_cards"]]
            if text.startswith("keep ") and looked and raw["turn_player"] != viewer:
                kept = a - keep_card
                text = "kept a card, discarded " + " and ".join(
                    CARDS[c] for c in looked if c != kept)
        full.apply_action(a)
        apply_decision(view, text, viewer)
        # coats put under by others and drawn again by the viewer are said by name
        rf, rv = full.raw(), view.raw()
        lf = rf["looked_coats"][:rf["n_looked_coats"]]
        lv = rv["looked_coats"][:rv["n_looked_coats"]]
        if rf["turn_player"] == viewer and lf != lv and not full.is_chance_node():
            k = next(i for i in range(len(lf)) if lf[i] != lv[i])
            apply_decision(view, "drew coats " + " and ".join(COATS[c] for c in lf[k:]), viewer)
        steps += 1
        expected = state_to_position(full, viewer)
        assert state_to_position(view, viewer) == expected, (seed, steps, text)
        if reread:                               # as `ulm apply` does, one call at a time
            view, _ = position_to_state(json.loads(dumps(expected)))
    return steps


@pytest.mark.parametrize("players,seed", [(2, 0), (3, 1), (4, 2), (2, 10), (3, 19), (4, 5)])
def test_following_a_game_from_a_view_keeps_it_that_view_R_INFO_4(players, seed):
    variant = "advanced" if seed % 2 else "basic"
    assert follow(players, seed, seed % players, variant, reread=seed % 3 == 1) > 100


def test_what_the_viewer_sees_must_be_said():
    st = ulm.Game(players=2).new_game(seed=4)
    view, _ = position_to_state(state_to_position(st, 0))
    apply_decision(view, "draw", 0)
    with pytest.raises(DecisionError, match="Red sees this tile; say which"):
        apply_decision(view, "drew a tile", 0)
    full = st.clone()
    apply_decision(full, "draw")
    apply_decision(full, "drew a tile")          # a full position: the dealer draws it
    assert full.raw()["phase"] == 1


def test_a_view_may_leave_the_bag_out():
    data = json.loads((EXAMPLES / "push-4p-view.json").read_text())
    bag = data.pop("bag")
    state, _ = position_to_state(data)
    assert state_to_position(state, 1)["bag"] == bag
    full = json.loads((EXAMPLES / "midgame-4p.json").read_text())
    full.pop("bag")
    with pytest.raises(PositionError, match="bag: missing"):
        position_to_state(full)


def test_the_documented_example_works(tmp_path):
    """docs/player-tools.md: a view from the set-up, Red's turn as it happened, Blue's draw."""
    game = tmp_path / "game.json"
    assert run("new", "--players", 3, "--seed", 0, "--as", "Blue", "-o", game).exit_code == 0
    res = run("apply", game, "draw", "drew orange", "push row 2 from left", "seal in Tillage",
              "take white from the docks", "drew brown", "move barge 2", "end turn", "-o", game)
    assert res.exit_code == 0, res.output
    res = run("apply", game, "draw", "drew gray", "-o", game)
    assert res.exit_code == 0, res.output
    pos = json.loads(game.read_text())
    assert (pos["kind"], pos["to move"], pos["phase"]) == ("view", "Blue", "push")
    assert pos["players"][0]["seals"] == {"Tillage": 1}
    assert run("suggest", game, "--iterations", 50, "--quiet").exit_code == 0


def test_an_opponent_may_play_any_card_the_viewer_has_not_seen():
    """In Blue's view Red's one hand card is one possible deal; Red may play any card
    Blue has not seen, and Red's own list offers only Red's own card."""
    full = ulm.Game(players=2).new_game(seed=1)
    raw = full.raw()
    siege = CARDS.index("Siege")
    raw["players"][0]["hand"] = 1 << siege
    raw["pile"] &= ~(1 << siege)
    full.set_raw(raw)
    view, _ = position_to_state(state_to_position(full, 1))
    names = [n for n, _ in decision_names(view, 1)]
    for card in ("Siege", "Nave I", "Choir III"):
        assert f"lay {card} in front (end-game points)" in names, card
    apply_decision(view, "lay Nave I in front (end-game points)", 1)
    pos = state_to_position(view, 1)
    assert pos["players"][0]["in front"] == ["Nave I"] and pos["players"][0]["hand size"] == 0
    position_to_state(json.loads(dumps(pos)))         # still a valid view
    own = [n for n, _ in decision_names(full, 0) if n.startswith(("play ", "lay "))]
    assert own == ["play Siege (immediate bonus)", "lay Siege in front (end-game points)"]


def _first_coat_correction(players: int, seed: int, viewer: int, variant: str):
    """Follow a random game from `viewer`'s view until the viewer draws coats another
    seat put under the stack: (the view then, the words that say them), or None."""
    rng = random.Random(seed)
    full = ulm.Game(players=players, variant=variant).new_game(seed)
    view, _ = position_to_state(state_to_position(full, viewer))
    keep_card = ulm.State.string_to_action(f"keep {CARDS[0]}")
    while not full.is_terminal():
        if full.is_chance_node():
            a = full.sample_chance_outcome()
            text = chance_name(full, a, viewer)
        else:
            a = rng.choice(full.legal_actions())
            text = ACTION_NAMES[a]
            raw = full.raw()
            looked = raw["looked_cards"][:raw["n_looked_cards"]]
            if text.startswith("keep ") and looked and raw["turn_player"] != viewer:
                text = "kept a card, discarded " + " and ".join(
                    CARDS[c] for c in looked if c != a - keep_card)
        full.apply_action(a)
        apply_decision(view, text, viewer)
        rf, rv = full.raw(), view.raw()
        lf = rf["looked_coats"][:rf["n_looked_coats"]]
        lv = rv["looked_coats"][:rv["n_looked_coats"]]
        if rf["turn_player"] == viewer and lf != lv and not full.is_chance_node():
            k = next(i for i in range(len(lf)) if lf[i] != lv[i])
            return view, "drew coats " + " and ".join(COATS[c] for c in lf[k:])
    return None


def test_a_line_with_a_coat_correction_lists_only_decisions():
    """parse_line: the viewer saying which coats it drew from under the stack changes
    what the view knows but is no decision, so the line's ids leave it out (no None)."""
    from ulm.follow import parse_line
    found = next(f for f in (_first_coat_correction(4, s, s % 4, "advanced") for s in range(40))
                 if f is not None)
    view, words = found
    viewer = view.raw()["turn_player"]
    assert parse_line(view, [words], viewer) == []
    said = view.clone()
    assert apply_decision(said, words, viewer) is None
    first = said.legal_actions()[0]
    assert parse_line(view, [words, ACTION_NAMES[first]], viewer) == [first]
