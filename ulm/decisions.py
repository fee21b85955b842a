"""Decisions and chance events in ordinary words, for following a real game.

The engine names every decision (`state.action_to_string`, e.g. "push row 2
from left"); chance outcomes have technical names ("chance: tile white").
This module is the one place for the words people use at the table:

    drew white            (also "drew a white tile", "white tile")   a tile from the bag
    drew Siege            (also "Red drew Siege")                    a card one can see
    Red drew a card       (also "drew a card")                       a card one cannot see
    drew coat S-1 / Red drew a coat                                  a coat of arms
    revealed T4 / revealed Abbot                                     tower tile, descendant

`apply_decision(state, text, viewer)` applies one of them. With a viewer (the
state was built from that seat's view), what the viewer cannot see stays
hidden: an opponent's hidden draw takes a card the viewer does not know of,
and when an opponent then plays a card or keeps a coat the viewer had not
seen, that card or coat is first swapped into the opponent's hidden hand or
drawn coats, so the state stays a valid world of the viewer's view.
"""
from __future__ import annotations

import difflib
import re

from ulm._fastcore import (ACTION_NAMES, CARDS, COATS, COLOURS, DESCENDANTS, SEATS, TASKS,
                           TOWER_TILES)

__all__ = ["DecisionError", "apply_decision", "chance_name", "decision_label", "decision_names",
           "parse_decision", "parse_line"]

_IDS = {name: i for i, name in enumerate(ACTION_NAMES)}
_TASK = {name: code for code, name in TASKS.items()}
_CARD_DRAWS = (_TASK["card to hand"], _TASK["look at card"])
_COAT_DRAW = _TASK["coat draw"]
_CARD_KEEP = _TASK["card keep"]
_COAT_CHOICE = _TASK["coat choice"]
HIDDEN_CARD, HIDDEN_COAT = "a card", "a coat"


class DecisionError(ValueError):
    """A decision that cannot be applied here; the message names the legal ones."""


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", str(text)).strip().lower()


def decision_label(action: int) -> str:
    """A decision in players' words, for advice and menus ("play Siege (upper)" is
    "play Siege (immediate bonus)", "play Siege (lower)" is "lay Siege in front
    (end-game points)", R-CARD-PLAY-1); every other decision keeps the engine's name.
    parse_decision reads both."""
    name = ACTION_NAMES[action]
    m = re.fullmatch(r"play (.+) \((upper|lower)\)", name)
    if m:
        if m.group(2) == "upper":
            return f"play {m.group(1)} (immediate bonus)"
        return f"lay {m.group(1)} in front (end-game points)"
    return name


# decisions that name a card or coat an opponent may hold unseen by the viewer
_REVEALING = [a for a, n in enumerate(ACTION_NAMES)
              if re.fullmatch(r"play .+ \((upper|lower)\)", n) or n.endswith(" with City Wall")
              or n.startswith("keep coat ")]

_LOWER = {_norm(n): n for n in ACTION_NAMES}
_LOWER.update({_norm(decision_label(a)): n for a, n in enumerate(ACTION_NAMES)})
_CARD_BY = {_norm(c): c for c in CARDS}
_COAT_BY = {_norm(c): c for c in COATS}


def _pending_task(state) -> int | None:
    stack = state.task_stack()
    return stack[-1][0] if stack else None


def _hidden_from(state, viewer) -> bool:
    """Does the pending chance event (a card or a coat) go where `viewer` cannot see it?"""
    return viewer is not None and state.raw()["turn_player"] != viewer and _pending_task(
        state) in _CARD_DRAWS + (_COAT_DRAW,)


def chance_name(state, action: int, viewer: int | None = None) -> str:
    """The ordinary name of a chance outcome ("drew white", "Red drew a card")."""
    name = ACTION_NAMES[action]
    kind, _, what = name.removeprefix("chance: ").partition(" ")
    mover = SEATS[state.raw()["turn_player"]]
    if kind in ("card", "coat") and _hidden_from(state, viewer):
        return f"{mover} drew {HIDDEN_CARD if kind == 'card' else HIDDEN_COAT}"
    if kind == "tile":
        return f"drew {what}"
    if kind == "card":
        return f"drew {what}"
    if kind == "coat":
        return f"drew coat {what}"
    return f"revealed {what}"


def decision_names(state, viewer: int | None = None) -> list[tuple[str, list[int]]]:
    """The legal decisions (or chance outcomes) as (ordinary name, action ids): a hidden
    draw is one entry standing for every card or coat it can be. In a view, an opponent's
    decisions include playing (or sealing with, or keeping) any card or coat the viewer
    has not seen: the view's deal of the hidden cards is only one of the possible ones."""
    if state.is_terminal():
        return []
    if not state.is_chance_node():
        legal = state.legal_actions()
        out = [(decision_label(a), [a]) for a in legal]
        if viewer is not None and state.raw()["turn_player"] != viewer:
            for a in _REVEALING:
                if a not in legal and _swap_in(state.clone(), a, viewer):
                    out.append((decision_label(a), [a]))
        return out
    out: dict[str, list[int]] = {}
    for a in state.legal_actions():
        out.setdefault(chance_name(state, a, viewer), []).append(a)
    return list(out.items())


def _legal_text(state, viewer) -> str:
    names = [n for n, _ in decision_names(state, viewer)]
    if len(names) > 40:
        names = names[:40] + [f"... {len(names) - 40} more"]
    return ", ".join(names) or "none"


def _chance_alias(state, text: str, viewer) -> str | None:
    """A chance outcome in ordinary words -> its action name; "card", "coat" or "tile" for
    a draw whose outcome is not said; None when the words are not a chance outcome."""
    t = _norm(text)
    mover = state.raw()["turn_player"]
    seat_named = None
    for s, seat in enumerate(SEATS):
        if t.startswith(seat.lower() + " "):
            seat_named, t = s, t[len(seat) + 1:]
    t = re.sub(r"^(chance: |drew |draws |drawn |revealed |reveals )", "", t)
    t = re.sub(r"^(a |an |the )", "", t)
    if (seat_named is not None and seat_named != mover
            and _pending_task(state) in _CARD_DRAWS + (_COAT_DRAW,)):
        raise DecisionError(f"{text!r}: it is {SEATS[mover]}'s draw, not {SEATS[seat_named]}'s")
    if t in ("card", "coat", "tile"):
        return t                               # a draw whose outcome is not said
    t = re.sub(r" tile$", "", t)
    t = re.sub(r"^tile ", "", t)
    if t in COLOURS:
        return f"chance: tile {t}"
    t2 = re.sub(r"^card ", "", t)
    if t2 in _CARD_BY:
        return f"chance: card {_CARD_BY[t2]}"
    t2 = re.sub(r"^coat (of arms )?", "", t)
    if t2 in _COAT_BY:
        return f"chance: coat {_COAT_BY[t2]}"
    t2 = re.sub(r"^(tower tile |tower |descendant )", "", t)
    for d in DESCENDANTS:
        if t2 == d.lower():
            return f"chance: descendant {d}"
    for tw in TOWER_TILES:
        if t2 == tw.lower():
            return f"chance: tower {tw}"
    return None


def parse_decision(state, text: str, viewer: int | None = None) -> int | str:
    """An ordinary name -> the action id; or "card"/"coat"/"tile" for a chance draw whose
    outcome is not said (drawn by the state's dealer, hidden from a viewer)."""
    if state.is_terminal():
        raise DecisionError(f"{text!r}: the game is over")
    t = _norm(text)
    if state.is_chance_node():
        alias = _LOWER.get(t) if t.startswith("chance: ") else _chance_alias(state, text, viewer)
        if alias is None:
            raise DecisionError(f"{text!r}: a chance event is pending; say what happened "
                                f"(possible: {_legal_text(state, viewer)})")
        if isinstance(alias, str) and alias in ("card", "coat", "tile"):
            pending = _pending_task(state)
            kind = ("card" if pending in _CARD_DRAWS else "coat" if pending == _COAT_DRAW
                    else "tile" if any(ACTION_NAMES[a].startswith("chance: tile")
                                       for a in state.legal_actions()) else "other")
            if kind != alias:
                raise DecisionError(f"{text!r}: the pending chance event is not a {alias} draw "
                                    f"(possible: {_legal_text(state, viewer)})")
            if viewer is not None and not _hidden_from(state, viewer):
                raise DecisionError(f"{text!r}: {SEATS[viewer]} sees this {alias}; say which "
                                    f"(possible: {_legal_text(state, viewer)})")
            return alias
        action = _IDS[alias] if isinstance(alias, str) else alias
        if (_hidden_from(state, viewer) and ACTION_NAMES[action].startswith(
                ("chance: card", "chance: coat"))):
            mover = SEATS[state.raw()["turn_player"]]
            what = "card" if "card" in ACTION_NAMES[action] else "coat"
            raise DecisionError(f"{text!r}: {SEATS[viewer]} cannot see {mover}'s {what}; "
                                f"say '{mover} drew a {what}'")
        if action not in state.legal_actions() and not _swap_in(state.clone(), action, viewer):
            raise DecisionError(f"{text!r} cannot happen here (possible: "
                                f"{_legal_text(state, viewer)})")
        return action
    if t not in _LOWER:
        near = difflib.get_close_matches(t, list(_LOWER), n=1, cutoff=0.6)
        hint = f"; did you mean {_LOWER[near[0]]!r}?" if near else ""
        raise DecisionError(f"unknown decision {text!r}{hint} (legal: "
                            f"{_legal_text(state, viewer)})")
    action = _IDS[_LOWER[t]]
    if action not in state.legal_actions() and not _swap_in(state.clone(), action, viewer):
        raise DecisionError(f"{ACTION_NAMES[action]!r} is illegal here (legal: "
                            f"{_legal_text(state, viewer)})")
    return action


# --- keeping a view consistent when an opponent's hidden card or coat shows up -------------

def _card_places(raw, viewer):
    """The places of cards `viewer` cannot see: (name, key) -> bitmask."""
    places = {("pile", None): raw["pile"]}
    for p, pl in enumerate(raw["players"]):
        if p != viewer:
            places[("hand", p)] = pl["hand"]
    if raw["turn_player"] != viewer:
        places[("looked", None)] = sum(1 << c for c in raw["looked_cards"][:raw["n_looked_cards"]])
    return places


def _move(raw, place, old: int, new: int) -> None:
    """In one place, card `old` is replaced by card `new`."""
    kind, p = place
    if kind == "pile":
        raw["pile"] = raw["pile"] & ~(1 << old) | (1 << new)
    elif kind == "hand":
        hand = raw["players"][p]["hand"]
        raw["players"][p]["hand"] = hand & ~(1 << old) | (1 << new)
    else:                                          # the looked-at cards keep their order
        raw["looked_cards"][raw["looked_cards"][:raw["n_looked_cards"]].index(old)] = new


def _swap_card(state, card: int, into: tuple, viewer) -> bool:
    """Move `card` from a place hidden from the viewer into `into` (also hidden), giving
    one of the cards there back in exchange; the view does not change."""
    raw = state.raw()
    places = _card_places(raw, viewer)
    if into not in places:
        return False
    if places[into] >> card & 1:
        return True
    source = next((pl for pl, m in places.items() if m >> card & 1), None)
    if source is None or not places[into]:
        return False
    back = (places[into] & -places[into]).bit_length() - 1
    _move(raw, source, card, back)
    _move(raw, into, back, card)
    state.set_raw(raw)
    return True


def _swap_coat(state, coat: int, viewer) -> bool:
    """Make `coat` one of the mover's drawn coats, exchanging it with one of them."""
    raw = state.raw()
    looked = raw["looked_coats"][:raw["n_looked_coats"]]
    if coat in looked:
        return True
    if not looked:
        return False
    out = looked[0]
    if raw["coat_unknown"] >> coat & 1:
        raw["coat_unknown"] = raw["coat_unknown"] & ~(1 << coat) | (1 << out)
    else:
        tail = raw["coat_tail"][:raw["coat_tail_len"]]
        k = next((i for i, c in enumerate(tail)
                  if c == coat and raw["coat_tail_by"][i] != viewer), None)
        if k is None:
            return False
        raw["coat_tail"][k] = out
    looked[0] = coat
    raw["looked_coats"] = (looked + [0, 0])[:2]
    state.set_raw(raw)
    return True


def _swap_coat_to_stack(state, coat: int, viewer) -> bool:
    """Make `coat` one of the shuffled coats of the stack (the ones drawn next), exchanging
    it with one of them, when it lies under the stack unseen by the viewer."""
    raw = state.raw()
    if raw["coat_unknown"] >> coat & 1:
        return True
    tail = raw["coat_tail"][:raw["coat_tail_len"]]
    k = next((i for i, c in enumerate(tail) if c == coat and raw["coat_tail_by"][i] != viewer),
             None)
    if k is None or not raw["coat_unknown"]:
        return False
    out = (raw["coat_unknown"] & -raw["coat_unknown"]).bit_length() - 1
    raw["coat_unknown"] = raw["coat_unknown"] & ~(1 << out) | (1 << coat)
    raw["coat_tail"][k] = out
    state.set_raw(raw)
    return True


def _swap_in(state, action: int, viewer) -> bool:
    """For an opponent's decision that names a card or coat the viewer has not seen:
    swap it into place. True when the decision is legal afterwards (state changed)."""
    if viewer is None:
        return False
    raw = state.raw()
    mover = raw["turn_player"]
    name = ACTION_NAMES[action]
    m = re.fullmatch(r"play (.+) \((upper|lower)\)", name)
    ok = False
    if name.startswith("chance: card "):          # a card the viewer sees drawn
        ok = _swap_card(state, CARDS.index(name[len("chance: card "):]), ("pile", None), viewer)
    elif name.startswith("chance: coat "):
        ok = _swap_coat_to_stack(state, COATS.index(name[len("chance: coat "):]), viewer)
    elif mover == viewer:
        return False
    elif m:
        ok = _swap_card(state, CARDS.index(m.group(1)), ("hand", mover), viewer)
    elif name.endswith(" with City Wall"):        # the seal is made with a hand card
        ok = _swap_card(state, CARDS.index("City Wall"), ("hand", mover), viewer)
    elif name.startswith("keep coat "):
        ok = _swap_coat(state, COATS.index(name[len("keep coat "):]), viewer)
    elif name.startswith("keep ") and name[5:] in CARDS:
        ok = _swap_card(state, CARDS.index(name[5:]), ("looked", None), viewer)
    return ok and action in state.legal_actions()


# --- applying ---------------------------------------------------------------------------------

_DISCARDED = re.compile(r"^(?:(?:kept|keep|keeps) a card,? )?(?:and )?(?:discarded|discards|discard) "
                        r"(.+)$")


def _hidden_keep(state, text: str, viewer) -> int | None:
    """"kept a card, discarded X (and Y)": an opponent's keep seen from a view."""
    m = _DISCARDED.match(_norm(text))
    if not m or _pending_task(state) != _CARD_KEEP:
        return None
    names = [n.strip() for n in re.split(r",| and ", m.group(1)) if n.strip()]
    try:
        gone = [CARDS.index(_CARD_BY[n]) for n in names]
    except KeyError as exc:
        raise DecisionError(f"{text!r}: unknown card {exc.args[0]!r}") from None
    raw = state.raw()
    looked = raw["looked_cards"][:raw["n_looked_cards"]]
    if len(gone) != len(looked) - 1:
        raise DecisionError(f"{text!r}: {len(looked)} cards are looked at, so "
                            f"{len(looked) - 1} are discarded")
    if viewer is not None and raw["turn_player"] != viewer:
        for c in gone:
            if c not in state.raw()["looked_cards"][:raw["n_looked_cards"]]:
                keep_out = [x for x in state.raw()["looked_cards"][:raw["n_looked_cards"]]
                            if x not in gone]
                _replace_looked(state, keep_out[0], c, viewer)
    looked = state.raw()["looked_cards"][:raw["n_looked_cards"]]
    if any(c not in looked for c in gone):
        raise DecisionError(f"{text!r}: {', '.join(CARDS[c] for c in gone if c not in looked)} "
                            "is not among the cards looked at")
    kept = next(c for c in looked if c not in gone)
    return _IDS[f"keep {CARDS[kept]}"]


def _replace_looked(state, old: int, new: int, viewer) -> None:
    """Exchange looked-at card `old` with `new` from another hidden place."""
    raw = state.raw()
    places = _card_places(raw, viewer)
    source = next((pl for pl, m in places.items() if m >> new & 1 and pl[0] != "looked"), None)
    if source is None:
        raise DecisionError(f"{CARDS[new]} cannot be among the cards looked at "
                            f"({SEATS[viewer]} knows where it is)")
    _move(raw, source, new, old)
    _move(raw, ("looked", None), old, new)
    state.set_raw(raw)


_DREW_COATS = re.compile(r"^(?:drew|drawn) coats? (.+)$")


def _coat_correction(state, text: str, viewer) -> bool:
    """"drew coat X" / "drew coats X and Y" while the viewer chooses a coat: the last
    drawn coats are X (and Y). When only coats put under the stack are left, they are
    drawn without chance; one another player put under is unknown in a view until its
    drawer says which it is. True when applied."""
    m = _DREW_COATS.match(_norm(text))
    if (not m or viewer is None or state.is_chance_node() or _pending_task(state) != _COAT_CHOICE
            or state.raw()["turn_player"] != viewer):
        return False
    names = [n.strip() for n in re.split(r",| and ", m.group(1)) if n.strip()]
    try:
        coats = [COATS.index(_COAT_BY[n]) for n in names]
    except KeyError as exc:
        raise DecisionError(f"{text!r}: unknown coat of arms {exc.args[0]!r}") from None
    raw = state.raw()
    looked = raw["looked_coats"][:raw["n_looked_coats"]]
    if len(coats) > len(looked):
        raise DecisionError(f"{text!r}: {len(looked)} coats are drawn")
    start = len(looked) - len(coats)
    for k, c in enumerate(coats):
        old = looked[start + k]
        if c == old:
            continue
        tail = raw["coat_tail"][:raw["coat_tail_len"]]
        where = next((i for i, x in enumerate(tail) if x == c and raw["coat_tail_by"][i] != viewer),
                     None)
        if where is None:
            raise DecisionError(f"{text!r}: {COATS[c]} cannot have been drawn ({SEATS[viewer]} "
                                "knows where it is)")
        raw["coat_tail"][where] = old
        looked[start + k] = c
    raw["looked_coats"] = (looked + [0, 0])[:2]
    state.set_raw(raw)
    return True


def apply_decision(state, text: str, viewer: int | None = None) -> int | None:
    """Apply one decision or chance outcome given in ordinary words; returns the action id
    applied (None for a correction of the viewer's own coats drawn from under the stack,
    "drew coat X"). Raises DecisionError (naming the legal ones) when it cannot happen here."""
    if _coat_correction(state, text, viewer):
        return None
    if not state.is_terminal() and not state.is_chance_node():
        keep = _hidden_keep(state, text, viewer)
        if keep is not None:
            state.apply_action(keep)
            return keep
    action = parse_decision(state, text, viewer)
    if isinstance(action, str):                    # "drew a card": the dealer draws it
        action = state.sample_chance_outcome()
    elif action not in state.legal_actions():
        _swap_in(state, action, viewer)
    state.apply_action(action)
    return action


def parse_line(state, names: list[str], viewer: int | None = None) -> list[int]:
    """Decision names in order -> action ids, each checked where it is taken (on a copy);
    checking stops at a chance event whose outcome is not given."""
    st = state.clone()
    out = []
    for text in names:
        if st.is_chance_node() and not _norm(text).startswith(("drew", "chance:", "revealed")):
            t = _norm(text)
            if t not in _LOWER:
                raise DecisionError(f"unknown decision {text!r}")
            out.append(_IDS[_LOWER[t]])
            continue
        out.append(apply_decision(st, text, viewer))
    return out
