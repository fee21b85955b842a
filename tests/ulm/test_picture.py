"""The board as a picture (ulm/picture/): one SVG element per board object,
drawn from the board table, highlights of a suggested turn, clickable targets,
and the PNG."""
import json
import struct
import xml.etree.ElementTree as ET

import pytest

import ulm
from ulm import ACTION_NAMES
from ulm._fastcore import PUSH_ENTRIES
from ulm.picture import action_target, board_png, board_svg
from ulm.positions import position_to_state, state_to_position
from helpers import ROOT

EXAMPLES = ROOT / "examples"
NS = "{http://www.w3.org/2000/svg}"


def elements(svg: str, cls: str) -> list:
    root = ET.fromstring(svg)
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def known_position() -> dict:
    """The 4-player mid-game example with these cards in hands, in front and discarded
    (the example's own cards go back to the draw pile first)."""
    data = json.loads((EXAMPLES / "midgame-4p.json").read_text())
    pile = data["draw pile"]
    for p in data["players"]:
        pile += p["hand"] + p["in front"]
        p["hand"], p["in front"] = [], []
    pile += data["discard pile"]
    take = lambda name: pile.remove(name) or name  # noqa: E731
    data["players"][0]["hand"] = [take("Siege"), take("Nave I")]
    data["players"][1]["hand"] = [take("Patrician")]
    data["players"][0]["in front"] = [take("Works of Art V")]
    data["players"][2]["in front"] = [take("Choir II")]
    data["discard pile"] = [take("Ulm Sparrow"), take("Fustian I")]
    for p in data["players"]:                          # vp by source must stay consistent
        p.pop("vp", None)
    return data


def test_svg_has_one_element_per_board_object():
    data = known_position()
    state, _ = position_to_state(data)
    svg = board_svg(state)
    ET.fromstring(svg)  # a well-formed XML document
    assert svg.startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in svg
    count = lambda cls: len(elements(svg, cls))  # noqa: E731
    assert count("cell") == 9
    assert count("outer") == 12
    assert count("entry") == 12
    assert count("side") == 4
    assert count("dock") == 5
    assert count("river-space") == 22
    assert count("quarter") == 8
    assert count("barge") == 4
    assert count("player") == 4
    assert count("bag") == 1
    assert count("supply") == 4 * 5
    assert count("tower") == 0                         # basic game
    seals_in_quarters = sum(sum(p["seals"].values()) for p in data["players"])
    marked = sum(len(p["coats"]) - len(p.get("unmarked coats", [])) for p in data["players"])
    seals = elements(svg, "seal")
    assert len([e for e in seals if e.get("data-quarter")]) == seals_in_quarters
    assert len([e for e in seals if e.get("data-outer")]) == marked
    owned = sum(len(p["descendants"]) for p in data["players"])
    assert count("descendant") == len(data["descendants on board"]) + owned == 4 + owned
    cards = {(e.get("data-card"), e.get("data-place"), e.get("data-seat"))
             for e in elements(svg, "card")}
    assert cards == {("Siege", "hand", "Red"), ("Nave I", "hand", "Red"),
                     ("Patrician", "hand", "Blue"), ("Works of Art V", "front", "Red"),
                     ("Choir II", "front", "Green"), ("Ulm Sparrow", "discard", None),
                     ("Fustian I", "discard", None)}
    # the values drawn are the position's
    cells = {int(e.get("data-cell")): e.get("data-colour") for e in elements(svg, "cell")}
    assert [cells[i] for i in range(9)] == [c for row in data["grid"] for c in row]
    barges = {e.get("data-seat"): int(e.get("data-index")) for e in elements(svg, "barge")}
    assert barges == {p["name"]: p["barge"] for p in data["players"]}


def test_view_hides_opponents_hands_and_shows_its_own():
    state, _ = position_to_state(known_position())
    svg = board_svg(state, viewer=1)                   # Blue's view
    cards = {(e.get("data-card"), e.get("data-place")) for e in elements(svg, "card")}
    assert ("Patrician", "hand") in cards
    assert ("Siege", "hand") not in cards and ("Nave I", "hand") not in cards
    backs = [e.get("data-seat") for e in elements(svg, "card-back")]
    assert backs == ["Red", "Red"]
    assert "view of Blue" in svg


def test_advanced_game_draws_tower_tiles():
    state, _ = position_to_state(json.loads((EXAMPLES / "advanced-3p-view.json").read_text()))
    pos = state_to_position(state, 1)
    svg = board_svg(state, viewer=1)
    roles = {e.get("data-role"): e.get("data-tile") for e in elements(svg, "tower")
             if e.get("data-role") != "past"}
    assert roles == {"current": pos["tower"]["current"], "next": pos["tower"]["next"]}
    past = [e.get("data-tile") for e in elements(svg, "tower") if e.get("data-role") == "past"]
    assert past == pos["tower"]["past"]


def test_replaced_board_file_changes_the_picture(tmp_path):
    table = json.loads((ROOT / "ulm" / "data" / "board.json").read_text())
    table["river"]["values"] = list(range(-10, 0)) + list(range(0, 12))
    table["river"]["bonus"] = {"3": "coin", "12": "card"}
    table["quarters"]["Leaning House"]["river"] = [0, 2]
    table["quarters"]["Oath House"]["river"] = [3, 10]
    table["quarters"]["Tillage"]["seal spaces"] = 6
    path = tmp_path / "board.json"
    path.write_text(json.dumps(table))
    state = ulm.Game(players=2, board=str(path)).new_game(seed=3)
    svg = board_svg(state)
    values = [int(e.get("data-value")) for e in
              sorted(elements(svg, "river-space"), key=lambda e: int(e.get("data-index")))]
    assert values == table["river"]["values"]
    bonus = {int(e.get("data-index")): e.get("data-bonus") for e in elements(svg, "river-space")
             if e.get("data-bonus")}
    assert bonus == {3: "coin", 12: "card"}
    assert len(elements(svg, "bridge")) == 0             # no space goes from - to +
    spaces = [e.get("data-quarter") for e in elements(svg, "seal-space")]
    assert spaces.count("Tillage") == 6 and spaces.count("Garden") == 4
    # the quarters' widths follow their river ranges
    default = board_svg(ulm.Game(players=2).new_game(seed=3))

    def width(svg_text, name):
        quarter = next(e for e in elements(svg_text, "quarter") if e.get("data-quarter") == name)
        return float(quarter.find(f"{NS}rect").get("width"))
    assert width(svg, "Leaning House") < width(default, "Leaning House")
    assert width(svg, "Oath House") > width(default, "Oath House")
    assert len(elements(default, "bridge")) == 1


def test_action_targets_of_a_push_position():
    state, seat = position_to_state(json.loads((EXAMPLES / "push-4p-view.json").read_text()))
    expected = {}
    for a in state.legal_actions():
        name = ACTION_NAMES[a]
        if name.startswith("push "):                   # entries in the order of the names
            key = ("entry", str(PUSH_ENTRIES.index(name[5:])))
        elif name.startswith("joker: take "):
            key = ("dock", name.split()[2])
        elif name.startswith("play "):
            key = ("card", name[5:].rsplit(" (", 1)[0])
        else:
            continue
        assert action_target(state, a) == {"kind": key[0], "value": int(key[1])
                                           if key[0] == "entry" else key[1]}
        expected.setdefault(key, []).append(str(a))
    assert any(k[0] == "entry" for k in expected)
    assert action_target(state, ulm.State.string_to_action("push row 1 from left")) == {
        "kind": "entry", "value": 0}
    assert action_target(state, ulm.State.string_to_action("push column 1 from bottom")) == {
        "kind": "entry", "value": 9}
    svg = board_svg(state, viewer=seat, interactive=True)
    targets = {(e.get("class").split()[0], e.get("data-entry") or e.get("data-colour")
                or e.get("data-card")): e.get("data-actions").split()
               for e in elements(svg, "target")}
    assert targets == expected
    # not interactive: nothing is marked
    assert not elements(board_svg(state, viewer=seat), "target")


def test_the_scholars_push_from_supply_frames_the_movers_supply_tile_R_DRAW_6():
    """The Scholar's push from the own supply is offered on that seat's supply tile
    (its frame and data-actions), like every other decision drawn on the board."""
    from helpers import chance, do, edit_player, fresh, give_descendant
    state = fresh(players=2)
    give_descendant(state, "Scholar", 0)
    edit_player(state, 0, supply={"brown": 1, "white": 2})
    do(state, "draw")
    chance(state, "tile gray")
    push = ulm.State.string_to_action("scholar: push white from supply")
    assert action_target(state, push) == {"kind": "supply", "value": "white", "seat": "Red"}
    svg = board_svg(state, viewer=0, interactive=True)
    framed = {(e.get("data-seat"), e.get("data-colour")): e.get("data-actions").split()
              for e in elements(svg, "supply") if e.get("data-actions")}
    assert framed[("Red", "white")] == [str(push)]
    assert str(ulm.State.string_to_action("scholar: push brown from supply")) in \
        framed[("Red", "brown")]


@pytest.mark.parametrize("name,kind,value", [
    ("clear top", "side", "top"), ("seal in Town Hall", "quarter", "Town Hall"),
    ("seal in Garden with City Wall", "quarter", "Garden"), ("play Siege (upper)", "card", "Siege"),
    ("play Nave I (lower)", "card", "Nave I"), ("take Abbot", "descendant", "Abbot"),
    ("take white from the docks", "dock", "white"), ("keep coat S-1", "coat", "S-1"),
    ("take Siege from the discard pile", "card", "Siege"), ("take outer tile 4", "outer", 4),
    ("draw", "bag", "bag"), ("end turn", None, None), ("money", None, None),
    ("amount 2", None, None), ("chance: tile white", None, None)])
def test_action_target_names(name, kind, value):
    state = ulm.Game(players=2).new_game(seed=1)
    target = action_target(state, ulm.State.string_to_action(name))
    assert (target and target["kind"], target and target["value"]) == (kind, value)


def test_river_step_target_skips_occupied_spaces_R_RIVER_1():
    state = ulm.Game(players=3).new_game(seed=1)
    raw = state.raw()
    raw["players"][0]["barge"], raw["players"][1]["barge"], raw["players"][2]["barge"] = 4, 5, 6
    state.set_raw(raw)
    assert action_target(state, ulm.State.string_to_action("river step")) == {
        "kind": "river-space", "value": 7}
    assert action_target(state, ulm.State.string_to_action("move barge 2")) == {
        "kind": "river-space", "value": 8}


def test_highlight_draws_the_suggested_turn():
    state, seat = position_to_state(json.loads((EXAMPLES / "push-4p-view.json").read_text()))
    line = [ulm.State.string_to_action(n) for n in
            ("joker: take white from the docks", "push column 1 from top", "river step",
             "clear right", "end turn")]
    svg = board_svg(state, viewer=seat, highlight=line)
    layer = elements(svg, "highlight")
    assert len(layer) == 1
    texts = "".join(layer[0].itertext()) + "".join(elements(svg, "highlight-caption")[0].itertext())
    for i, n in enumerate(("joker: take white from the docks", "push column 1 from top",
                           "river step", "clear right", "end turn"), 1):
        assert f"{i}. {n}" in texts
    # four decisions have a place on the board: four numbered marks (end turn has none)
    marks = [e for e in layer[0].iter(f"{NS}circle")]
    assert len(marks) == 4
    assert svg.count("url(#arrowhead)") == 1            # the river step as an arrow


def test_png_is_written(tmp_path):
    state, _ = position_to_state(known_position())
    out = tmp_path / "board.png"
    board_png(state, out, viewer=0)
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (1300, pytest.approx(1154, abs=60))
    assert len(data) > 20_000                          # a drawn picture, not an empty one
    assert not list(tmp_path.glob(".board.png.*"))     # no temporary file left behind


@pytest.mark.parametrize("players,variant,seed", [(4, "advanced", 1), (3, "basic", 2)])
def test_every_position_of_a_game_draws(players, variant, seed):
    """Random games: every few decisions the full picture and a view parse, show every
    visible card once, and the interactive targets are exactly the legal decisions that
    have a place on the board."""
    import random
    rng = random.Random(seed)
    state = ulm.Game(players=players, variant=variant).new_game(seed)
    step = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome())
            continue
        step += 1
        if step % 7 == 0:
            viewer = step % players
            pos = state_to_position(state, viewer)
            svg = board_svg(state, viewer=viewer, interactive=True)
            seen = [e.get("data-card") for e in elements(svg, "card")]
            visible = (pos["discard pile"] + [c for p in pos["players"] for c in p["in front"]]
                       + pos["players"][viewer]["hand"]
                       + [c for p in pos["players"] if "hand" not in p
                          for c in p.get("known cards", [])]
                       + (pos.get("looked at", {}).get("cards", [])
                          if isinstance(pos.get("looked at", {}).get("cards", []), list) else []))
            assert sorted(seen) == sorted(visible)
            assert len(elements(svg, "card-back")) == sum(
                p.get("hand size", 0) - len(p.get("known cards", [])) for p in pos["players"]
                if "hand" not in p)
            marked = {int(a) for e in elements(svg, "target") for a in e.get("data-actions").split()}
            with_place = {a for a in state.legal_actions() if action_target(state, a)}
            # an element can be missing only when hidden from the viewer (e.g. another's card)
            assert marked <= with_place
            if state.current_player() == viewer:
                assert marked == with_place, [ACTION_NAMES[a] for a in with_place - marked]
            ET.fromstring(board_svg(state))
        state.apply_action(rng.choice(state.legal_actions()))
    ET.fromstring(board_svg(state))                  # the end of the game draws too


# --- what the view knows of a hidden hand and the coat stack (R-INFO-3, R-COAT-4) ---------

def _hand_drawn(svg: str, seat: str) -> tuple[list, list, int]:
    """(the cards drawn in `seat`'s hand, those marked known to all, its card backs)."""
    cards = [e for e in elements(svg, "card")
             if e.get("data-place") == "hand" and e.get("data-seat") == seat]
    backs = [e for e in elements(svg, "card-back") if e.get("data-seat") == seat]
    return ([e.get("data-card") for e in cards],
            [e.get("data-card") for e in cards if e.get("data-known") == "all"], len(backs))


def _coats_drawn(svg: str, place: str) -> list:
    return [e.get("data-coat") for e in elements(svg, "coat") if e.get("data-place") == place]


def test_a_card_taken_face_up_is_drawn_in_the_hand_it_went_to_R_INFO_3a():
    """Blue took Works of Art I face up from the discard pile: Red's and Green's pictures
    draw it in Blue's hand, marked known to all, beside a back for each hidden card (as
    `ulm show` says: "3 cards: Works of Art I (known to all) and 2 hidden"); Blue's own
    marks it too. No card a viewer cannot know is named (the leak oracle)."""
    from leaks import assert_no_leak
    from constructed import knowledge_state
    state = knowledge_state()
    for viewer in (0, 2):
        svg = board_svg(state, viewer=viewer)
        assert _hand_drawn(svg, "Blue") == (["Works of Art I"], ["Works of Art I"], 2)
        assert "Hand: 3 cards, known to all:" in svg and "and 2 hidden" in svg
        assert_no_leak(state, viewer, svg, f"viewer {viewer}")
    cards, known, backs = _hand_drawn(board_svg(state, viewer=1), "Blue")
    assert len(cards) == 3 and known == ["Works of Art I"] and backs == 0
    assert "Works of Art I (hand, known to all)" in board_svg(state, viewer=1)


def test_the_coats_a_viewer_knows_under_the_stack_are_drawn_R_COAT_4():
    """Red put S-1 under (known to Red and Blue), Blue put G-Garden under (known to Blue):
    each picture draws the coats its viewer knows there, no other."""
    from leaks import assert_no_leak
    from constructed import coat_state
    state = coat_state(["S-2", "S-4", "G-Goose"], [("S-1", 0, [0, 1]), ("G-Garden", 1, [1])])
    both = ["S-1", "G-Garden"]
    for viewer, shown in ((0, ["S-1"]), (1, both), (2, []), (None, both)):
        svg = board_svg(state, viewer=viewer)
        assert _coats_drawn(svg, "under") == shown, viewer
        if viewer is not None:
            assert_no_leak(state, viewer, svg, f"viewer {viewer}")
    svg = board_svg(state, viewer=0)
    assert "coat S-1 (under the stack, put by Red, known to Red, Blue)" in svg


def test_a_coat_being_looked_at_that_the_viewer_knows_is_drawn_R_COAT_4():
    """Blue draws S-2 and then S-1 (which Red put under the stack): Red sees that Blue looks
    at 2 coats and which of them is S-1; Green sees only the count."""
    from helpers import chance, coat
    from leaks import assert_no_leak
    from constructed import coat_state, leaning
    s = leaning(coat_state(["S-2", "S-3", "G-Oath"], [("S-1", 0, [0])]))
    r = s.raw()
    r["coat_unknown"] = 1 << coat("S-2")
    r["players"][2]["coats"] |= (1 << coat("S-3")) | (1 << coat("G-Oath"))
    r["coat_owner"][coat("S-3")] = r["coat_owner"][coat("G-Oath")] = 2
    s.set_raw(r)
    chance(s, "coat S-2")
    for viewer, shown in ((0, ["S-1"]), (2, [])):
        svg = board_svg(s, viewer=viewer)
        assert "Blue is looking at 2 coats<" in svg
        assert _coats_drawn(svg, "looked") == shown
        assert_no_leak(s, viewer, svg, f"viewer {viewer}")
    assert _coats_drawn(board_svg(s, viewer=1), "looked") == ["S-2", "S-1"]


@pytest.mark.parametrize("players, seed", [(3, 5), (4, 6)])
def test_hands_and_coats_drawn_are_those_of_the_view(players, seed):
    """One source: for positions of random games, with a card taken face up put in, every
    viewer's picture draws each hand as its view holds it (the cards seen, the known ones,
    a back for each other) and the coats under the stack the view names."""
    import random
    from ulm import CARDS
    rng = random.Random(seed)
    state = ulm.Game(players=players).new_game(seed)
    for step in range(400):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome())
            continue
        if step % 23 == 5:
            r = state.raw()                     # one card of a hand becomes known to all
            p = rng.randrange(players)
            held = [c for c in range(len(CARDS)) if r["players"][p]["hand"] >> c & 1]
            if held:
                r["players"][p]["known"] = 1 << rng.choice(held)
                state.set_raw(r)
            for viewer in range(players):
                pos = state_to_position(state, viewer)
                svg = board_svg(state, viewer=viewer)
                for pl in pos["players"]:
                    known = pl.get("known cards", [])
                    cards, marked, backs = _hand_drawn(svg, pl["name"])
                    assert sorted(cards) == sorted(pl.get("hand", known))
                    assert sorted(marked) == sorted(known)
                    assert backs == pl.get("hand size", len(cards)) - len(cards)
                under = [e["coat"] for e in pos["coat stack"]["under"] if "coat" in e]
                assert _coats_drawn(svg, "under") == under
                assert len(elements(svg, "reshuffles")) == bool(pos["reshuffles"])
        state.apply_action(rng.choice(state.legal_actions()))


def test_what_a_reshuffle_tells_is_drawn_R_INFO_3b():
    """After a reshuffle the picture says which cards the draw pile can hold (as `ulm
    show` does) and, for an opponent's hidden cards, from which pile each came; the list
    is one element, read whole (it names every card of the reshuffle, so no leak)."""
    from leaks import assert_no_leak
    from constructed import knowledge_state
    state = knowledge_state()
    pos = state_to_position(state, 0)
    svg = board_svg(state, viewer=0)
    [line] = elements(svg, "reshuffles")
    said = " ".join(t.text for t in line)
    assert said.endswith("put there: " + ", ".join(pos["reshuffles"][-1]))
    assert said.startswith("Reshuffled once: the draw pile holds only cards")
    groups = {e.get("data-seat"): e.text for e in elements(svg, "hidden-groups")}
    assert groups == {"Blue": "hidden: 1 from the first pile, 1 from reshuffle 1",
                      "Green": "hidden: 2 from the first pile"}
    assert_no_leak(state, 0, svg, "Red's picture")
    own = board_svg(state, viewer=1)                 # Blue sees its own hand
    assert "Blue" not in {e.get("data-seat") for e in elements(own, "hidden-groups")}


def _random_picture(players, variant, seed, decisions, viewer=None, marks=False) -> str:
    """The board after `decisions` random decisions, drawn as the callers draw it."""
    import random

    from ulm.decisions import last_turn, record_steps
    from ulm.records import GameRecord
    rng = random.Random(seed)
    rec = GameRecord(players=players, variant=variant, seed=seed)
    while not rec.state.is_terminal() and len(rec.decisions) < decisions:
        rec.apply(rng.choice(rec.state.legal_actions()))
    legal = rec.state.legal_actions()
    if not marks:
        return board_svg(rec.state, viewer=viewer)
    return board_svg(rec.state, viewer=viewer, highlight=legal[:2], interactive=True,
                     last=last_turn(record_steps(rec)), ranked=legal[-2:])


@pytest.mark.parametrize("players, variant, seed, decisions, viewer, marks, digest", [
    (2, "basic", 1, 60, None, False, "a2b0e06257ae5d27"),
    (3, "advanced", 2, 150, 1, False, "3ed34ca7c6b43536"),
    (4, "advanced", 3, 300, 0, True, "42e964d25268e212"),
])
def test_pictures_of_fixed_games_are_unchanged(players, variant, seed, decisions, viewer, marks,
                                                digest):
    """The SVG document byte for byte (a change to the drawing changes these digests: on
    purpose, update them; by accident, e.g. while moving code, it is caught here)."""
    import hashlib
    svg = _random_picture(players, variant, seed, decisions, viewer, marks)
    assert hashlib.sha256(svg.encode()).hexdigest()[:16] == digest
