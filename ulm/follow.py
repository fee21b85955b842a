"""Following a real game from one seat's knowledge.

A followed game is held as one full state, a *world*: the view's hidden part
is dealt arbitrarily (ulm.positions). When something happens that the
viewer sees but that world's deal cannot make (an opponent plays a card the
viewer has not seen, the viewer draws a card that lies in another hidden
place of this deal, an opponent keeps a coat), the world is changed into
another one the viewer cannot tell from it, in which the event can happen:

    >>> from ulm.follow import apply_decision, options
    >>> apply_decision(state, "lay Nave I in front (end-game points)", viewer=1)
    >>> [words for words, _ in options(state, viewer=1)]

The core decides what the viewer knows: `State.hidden_cards` names the cards
whose place the viewer does not know, `card_group` the reshuffle group a card
can only be dealt among (R-INFO-3b), and every change of world is checked to
keep `State.information_state_key(viewer)` the same (R-INFO-4). What cannot
be is refused with the reason ("Siege is known to be in Blue's hand",
"Nave I is on the discard pile"; IllegalHere when the decision is illegal in
every such world). What each decision shows is read from its fields
(ulm.action_fields), never from its name. `ulm apply`, the web companion's Follow
mode and Python callers all follow games through this module.
"""
from __future__ import annotations

import re

from ulm._fastcore import ACTION_NAMES, CARDS, COATS, SEATS, TASKS, action_fields, action_id
from ulm.decisions import (HIDDEN_CARD, HIDDEN_COAT, DecisionError, UnknownWords,
                           abbreviations, chance_name, decision_label, hidden_from, norm_words,
                           parse_words)

__all__ = ["HIDDEN_CARD", "HIDDEN_COAT", "DecisionError", "IllegalHere", "apply_decision",
           "decision_names", "expand_words", "fit", "hidden_from", "hidden_keeps",
           "keep_is_hidden", "options", "parse_decision", "parse_line", "place_card",
           "place_coat", "setup_draw"]

_IDS = {name: i for i, name in enumerate(ACTION_NAMES)}
_TASK = {name: code for code, name in TASKS.items()}
_CARD_DRAWS = (_TASK["card to hand"], _TASK["look at card"])
_COAT_DRAW = _TASK["coat draw"]
_CARD_KEEP = _TASK["card keep"]
_COAT_CHOICE = _TASK["coat choice"]


class IllegalHere(DecisionError):
    """A decision illegal in every world the viewer cannot tell from this one."""


def _of_kind(kind: str) -> list[int]:
    return [a for a in range(len(ACTION_NAMES)) if action_fields(a)["kind"] == kind]


def _shown(action: int) -> tuple | None:
    """What an opponent's decision shows it held unseen by the viewer: ("card", card)
    for a card it plays or seals with (City Wall), ("coat", coat) for a coat it keeps
    of those it drew; None for any other decision."""
    fields = action_fields(action)
    if fields["kind"] in ("play", "seal") and "card" in fields:
        return "card", CARDS.index(fields["card"])
    if fields["kind"] == "keep_coat":
        return "coat", COATS.index(fields["coat"])
    return None


_KEEP_CARD = frozenset(_of_kind("keep_card"))
_CHANCE_CARD, _CHANCE_COAT = frozenset(_of_kind("chance_card")), frozenset(_of_kind("chance_coat"))
# decisions that name a card or coat an opponent may hold unseen by the viewer
_REVEALING = [a for a in range(len(ACTION_NAMES)) if _shown(a)]


def _pending(state) -> int | None:
    stack = state.task_stack()
    return stack[-1][0] if stack else None


def keep_is_hidden(state, viewer) -> bool:
    """Is an opponent of `viewer` keeping one of the cards it looked at (which is hidden)?"""
    return (viewer is not None and not state.is_chance_node() and not state.is_terminal()
            and state.turn_player() != viewer and _pending(state) == _CARD_KEEP)


def hidden_keep_words(state, viewer, card: str = "<card>") -> str | None:
    """The words of an opponent's keep that `viewer` cannot see, said by its
    discards, one `card` for each card given back ("kept a card, discarded
    <card> and <card>"); None unless such a keep is pending (keep_is_hidden)."""
    if not keep_is_hidden(state, viewer):
        return None
    return "kept a card, discarded " + " and ".join([card] * (state.looked_card_count() - 1))


# --- where a card or coat can be, from the viewer's knowledge ---------------------------------

def _card_places(raw, viewer) -> dict:
    """The places of this world that hold cards hidden from `viewer`: place -> bitmask."""
    places: dict[tuple[str, int | None], int] = {("pile", None): raw["pile"]}
    for p, pl in enumerate(raw["players"]):
        if p != viewer:
            places[("hand", p)] = pl["hand"] & ~pl["known"]
    if raw["turn_player"] != viewer:
        places[("looked", None)] = sum(1 << c for c in raw["looked_cards"][:raw["n_looked_cards"]])
    return places


def _place_words(place) -> str:
    kind, p = place
    if kind == "hand":
        return f"{SEATS[p]}'s hidden hand"
    return "the draw pile" if kind == "pile" else "the cards looked at"


def _known_card(raw, viewer, card: int) -> str:
    """Where `card` is, for a card whose place the viewer knows."""
    name = CARDS[card]
    b = 1 << card
    for p, pl in enumerate(raw["players"]):
        if pl["hand"] & b:
            if p == viewer:
                return f"{name} is in {SEATS[p]}'s own hand"
            return f"{name} is known to be in {SEATS[p]}'s hand (taken face up)"
        if pl["front"] & b:
            return f"{name} lies in front of {SEATS[p]}"
    if raw["discard"] & b:
        return f"{name} is on the discard pile"
    if card in raw["looked_cards"][:raw["n_looked_cards"]]:
        return f"{name} is among the cards {SEATS[raw['turn_player']]} is looking at"
    return f"{name} is out of the game"


def _group_reason(raw, card: int, place, places) -> str:
    """Why `card` (hidden) cannot be in `place`: no hidden card there is of its group."""
    g, last = raw["card_group"][card], raw["reshuffles"]
    name = CARDS[card]
    if not places[place]:
        return f"{_place_words(place)} holds no card {name} could be"
    if g < last and place[0] == "pile":
        return (f"{name} was drawn before the discard pile was shuffled into the draw pile, "
                "so it is not in the draw pile")
    when = ("drawn before the first reshuffle" if g == 0
            else f"shuffled into the draw pile at reshuffle {g}")
    return (f"{name} is one of the cards {when}, and {_place_words(place)} holds none of "
            "them (R-INFO-3b)")


def _swap(raw, place, old: int, new: int) -> None:
    """In one place, card `old` is replaced by card `new`."""
    kind, p = place
    if kind == "pile":
        raw["pile"] = raw["pile"] & ~(1 << old) | (1 << new)
    elif kind == "hand":
        raw["players"][p]["hand"] = raw["players"][p]["hand"] & ~(1 << old) | (1 << new)
    else:                                          # the looked-at cards keep their order
        looked = raw["looked_cards"]
        looked[looked[:raw["n_looked_cards"]].index(old)] = new


def _commit(state, raw, viewer) -> None:
    """Make `raw` the state's world, checking the viewer cannot tell it from the old one."""
    key = state.information_state_key(viewer)
    old = state.raw()
    state.set_raw(raw)
    if state.information_state_key(viewer) != key:     # a bug of ours: never a wrong view
        state.set_raw(old)
        raise AssertionError("a change of world changed the viewer's knowledge")


def place_card(state, viewer: int, card: int, place, avoid: int = 0) -> None:
    """Change `state` into a world `viewer` cannot tell from it in which `card` is in
    `place` (("pile", None), ("hand", seat) or ("looked", None)), giving back a card of
    the same reshuffle group (not one of `avoid`, a bitmask). DecisionError says why
    there is none."""
    raw = state.raw()
    if not state.hidden_cards(viewer) >> card & 1:
        raise DecisionError(_known_card(raw, viewer, card))
    places = _card_places(raw, viewer)
    if place not in places:
        raise DecisionError(f"{SEATS[viewer]} sees {_place_words(place)}")
    if places[place] >> card & 1:
        return
    group = raw["card_group"]
    back = [c for c in range(len(CARDS)) if places[place] >> c & 1
            and group[c] == group[card] and not avoid >> c & 1]
    if not back:
        raise DecisionError(_group_reason(raw, card, place, places))
    source = next(pl for pl, m in places.items() if m >> card & 1)
    _swap(raw, source, card, back[0])
    _swap(raw, place, back[0], card)
    _commit(state, raw, viewer)


def _coat_slots(raw, viewer) -> list:
    """The coats' places hidden from `viewer`: ("stack", coat) for each shuffled coat,
    ("under", i) and ("looked", i) for coats under the stack or drawn it does not know."""
    slots = [("stack", c) for c in range(len(COATS)) if raw["coat_unknown"] >> c & 1]
    slots += [("under", i) for i in range(raw["coat_tail_len"])
              if not raw["coat_tail_known"][i] >> viewer & 1]
    slots += [("looked", i) for i in range(raw["n_looked_coats"])
              if not raw["looked_coat_known"][i] >> viewer & 1]
    return slots


def _coat_at(raw, slot) -> int:
    kind, i = slot
    return i if kind == "stack" else raw["coat_tail" if kind == "under" else "looked_coats"][i]


def _set_coat(raw, slot, coat: int) -> None:
    kind, i = slot
    if kind == "stack":
        raw["coat_unknown"] = raw["coat_unknown"] & ~(1 << i) | (1 << coat)
    else:
        raw["coat_tail" if kind == "under" else "looked_coats"][i] = coat


def _known_coat(raw, viewer, coat: int) -> str:
    name = COATS[coat]
    if raw["coat_owner"][coat] >= 0:
        return f"{name} belongs to {SEATS[raw['coat_owner'][coat]]}"
    if coat in raw["looked_coats"][:raw["n_looked_coats"]]:
        return f"{name} is one of the coats {SEATS[raw['turn_player']]} drew"
    if coat in raw["coat_tail"][:raw["coat_tail_len"]]:
        return f"{SEATS[viewer]} knows {name} lies under the coat stack"
    return f"{name} is out of the game"


def place_coat(state, viewer: int, coat: int, kind: str) -> None:
    """Change `state` into a world `viewer` cannot tell from it in which `coat` is in the
    shuffled stack (`kind` "stack") or among the drawn coats ("looked")."""
    raw = state.raw()
    slots = _coat_slots(raw, viewer)
    here = next((s for s in slots if _coat_at(raw, s) == coat), None)
    if here is None:
        raise DecisionError(_known_coat(raw, viewer, coat))
    if here[0] == kind:
        return
    target = next((s for s in slots if s[0] == kind), None)
    if target is None:
        raise DecisionError(f"{COATS[coat]} cannot be " + (
            "in the shuffled coat stack: it is empty" if kind == "stack"
            else f"among the coats drawn: {SEATS[viewer]} knows them"))
    other = _coat_at(raw, target)
    if here[0] == "stack":               # the stack is a set: swap the bits
        raw["coat_unknown"] &= ~(1 << coat)
        _set_coat(raw, target, coat)
        raw["coat_unknown"] |= 1 << other
    elif target[0] == "stack":
        raw["coat_unknown"] = raw["coat_unknown"] & ~(1 << other) | (1 << coat)
        _set_coat(raw, here, other)
    else:
        _set_coat(raw, target, coat)
        _set_coat(raw, here, other)
    _commit(state, raw, viewer)


def fit(state, action: int, viewer: int | None) -> None:
    """Change `state` into a world `viewer` cannot tell from it where `action` (a decision
    or a chance outcome) is legal; DecisionError says why there is none."""
    mover = state.turn_player()
    if action in _KEEP_CARD and viewer is not None and keep_is_hidden(state, viewer):
        raise DecisionError(f"{SEATS[viewer]} cannot see which card {SEATS[mover]} keeps; say "
                            f"what {SEATS[mover]} discarded ('kept a card, discarded ...')")
    if action in state.legal_actions():
        return
    fields = action_fields(action)
    shown = _shown(action)
    if viewer is None:
        pass
    elif action in _CHANCE_CARD and state.is_chance_node():
        place_card(state, viewer, CARDS.index(fields["card"]), ("pile", None))
    elif action in _CHANCE_COAT and state.is_chance_node():
        place_coat(state, viewer, COATS.index(fields["coat"]), "stack")
    elif mover == viewer or state.is_chance_node() or shown is None:
        pass
    elif shown[0] == "card":              # a card played, or the City Wall sealed with
        place_card(state, viewer, shown[1], ("hand", mover))
    else:
        place_coat(state, viewer, shown[1], "looked")
    if action not in state.legal_actions():
        raise IllegalHere(f"{ACTION_NAMES[action]!r} is illegal here")


def _fits(state, action: int, viewer) -> bool:
    try:
        fit(state.clone(), action, viewer)
        return True
    except DecisionError:
        return False


# --- what may happen next, in words -----------------------------------------------------------

def decision_names(state, viewer: int | None = None) -> list[tuple[str, list[int]]]:
    """The decisions (or chance outcomes) that may come next as the viewer knows the game:
    (words, action ids). A hidden draw is one entry standing for every card or coat it can
    be; an opponent may play (or seal with, or keep) any card or coat the viewer has not
    seen where it can be; an opponent's keep of a card looked at is not offered by name
    (options() offers it by what is discarded)."""
    if state.is_terminal():
        return []
    legal = state.legal_actions()
    if not state.is_chance_node():
        mover = state.turn_player()
        if viewer is None or mover == viewer:
            return [(decision_label(a), [a]) for a in legal]
        hidden_keep = keep_is_hidden(state, viewer)
        acts = [a for a in legal if not (hidden_keep and a in _KEEP_CARD)]
        acts += [a for a in _REVEALING if a not in legal and _fits(state, a, viewer)]
        return [(decision_label(a), [a]) for a in sorted(acts)]
    out: dict[str, list[int]] = {}
    for a in legal:
        out.setdefault(chance_name(state, a, viewer), []).append(a)
    if viewer is not None and not hidden_from(state, viewer):
        drawn = (_CHANCE_CARD if _pending(state) in _CARD_DRAWS else
                 _CHANCE_COAT if _pending(state) == _COAT_DRAW else ())
        for a in sorted(drawn):                   # seen drawn: any card or coat it can be
            if a not in legal and _fits(state, a, viewer):
                out.setdefault(chance_name(state, a, viewer), []).append(a)
    return list(out.items())


def hidden_keeps(state, viewer) -> list[str]:
    """An opponent keeps one of two cards looked at: the words for each card it may
    discard ("kept a card, discarded Siege"); [] otherwise (more cards: said in words)."""
    if not keep_is_hidden(state, viewer) or state.looked_card_count() != 2:
        return []
    out = []
    for c in range(len(CARDS)):
        if state.hidden_cards(viewer) >> c & 1:
            try:
                place_card(state.clone(), viewer, c, ("looked", None))
            except DecisionError:
                continue
            out.append(f"kept a card, discarded {CARDS[c]}")
    return out


def setup_draw(state) -> str | None:
    """What the next chance event of the set-up draws for, in words ("the grid
    space in row 1, column 2", "Blue's tile", "Descendant 2 of 4", "the current
    tower tile"), so that a player at a table knows which draw to enter; None
    outside the set-up. The set-up's draws wait above the first round's start."""
    stack = state.task_stack() if state.is_chance_node() else []
    if not stack or _TASK["round start"] not in (task for task, _ in stack):
        return None
    task, arg = stack[-1]
    if task == _TASK["grid fill"]:
        return f"the grid space in row {arg // 3 + 1}, column {arg % 3 + 1}"
    if task == _TASK["player tile"]:
        return f"{SEATS[arg]}'s tile"
    if task == _TASK["descendant reveal"]:
        left = sum(1 for t, _ in stack if t == task)
        return f"a Descendant ({left} still to reveal)"
    if task == _TASK["tower reveal"]:
        return "the current tower tile"
    return None


def options(state, viewer: int | None = None) -> list[tuple[str, int | str]]:
    """What may happen next as `viewer` knows the game: (words, action id), or (words,
    the same words) for what is entered by words only (a hidden draw, a hidden keep)."""
    out = []
    for words, ids in decision_names(state, viewer):
        out.append((words, ids[0] if len(ids) == 1 else words))
    out += [(w, w) for w in hidden_keeps(state, viewer)]
    return out


def _legal_text(state, viewer) -> str:
    names = [n for n, _ in decision_names(state, viewer)]
    if keep_is_hidden(state, viewer):
        names.append("kept a card, discarded ...")
    if len(names) > 40:
        names = names[:40] + [f"... {len(names) - 40} more"]
    return ", ".join(names) or "none"


# --- reading and applying words ---------------------------------------------------------------

def expand_words(state, text: str, viewer: int | None = None) -> str | None:
    """The words of the one thing that may happen next (options()) that `text`
    abbreviates: each word typed begins a word of it, in order ("push r2 l" is "push
    row 2 from left", "mon" is "money", "lay nave i" is "lay Nave I in front (end-game
    points)"); None when `text` abbreviates none. Several: DecisionError naming them."""
    names = [words for words, _ in options(state, viewer)]
    found = abbreviations(text, names)
    if len(found) > 1:
        if len(found) == 2:
            shown = f"{found[0]!r} or {found[1]!r}"
        else:
            shown = f"any of {len(found)}: " + ", ".join(repr(n) for n in found[:12]) + (
                ", ..." if len(found) > 12 else "")
        raise DecisionError(f"{text!r} could be {shown}; type more of it")
    return found[0] if found else None


def _or_abbreviation(read, state, text, viewer):
    """read(text); words that name nothing (UnknownWords) may abbreviate what may happen
    next (expand_words): read those instead. A name, even of what cannot happen here, is
    never read as an abbreviation of another ("drew Steeple I" is not "drew Steeple II")."""
    try:
        return read(text)
    except UnknownWords:
        if state.is_terminal() or not isinstance(text, str):
            raise
        full = expand_words(state, text, viewer)
        if full is None or norm_words(full) == norm_words(text):
            raise
    return read(full)


def parse_decision(state, text: str, viewer: int | None = None) -> int | str:
    """Words -> the action id; or "card"/"coat"/"tile" for a chance draw whose outcome is
    not said (drawn by the state's dealer, hidden from a viewer). Nothing is changed:
    an action that needs another world of the viewer's knowledge is checked on a copy.
    Words are an action's name or the players' words of it, or their abbreviation where
    only one legal decision fits (expand_words)."""
    return _or_abbreviation(lambda t: _parse_decision(state, t, viewer), state, text, viewer)


def _parse_decision(state, text: str, viewer: int | None = None) -> int | str:
    if state.is_terminal():
        raise DecisionError(f"{text!r}: the game is over")
    action = parse_words(state, text, viewer, hidden_from(state, viewer),
                         lambda: _legal_text(state, viewer),
                         lambda: [n for n, _ in options(state, viewer)])
    if isinstance(action, str):
        return action
    try:
        fit(state.clone(), action, viewer)
    except DecisionError as exc:
        what = (f"{text!r} cannot happen here" if state.is_chance_node()
                else f"{ACTION_NAMES[action]!r} is illegal here")
        why = "" if isinstance(exc, IllegalHere) else f": {exc}"
        raise DecisionError(f"{what}{why} "
                            f"({'possible' if state.is_chance_node() else 'legal'}: "
                            f"{_legal_text(state, viewer)})") from None
    return action


_DISCARDED = re.compile(r"^(?:[a-z]+ )?(?:(?:kept|keep|keeps) (?:a card|one),? )?(?:and )?"
                        r"(?:discarded|discards|discard) (.+)$")


def _hidden_keep(state, text: str, viewer) -> int | None:
    """"kept a card, discarded X (and Y)": an opponent's keep seen from a view (or any
    keep, said by what is discarded). Puts X (and Y) among the cards looked at."""
    m = _DISCARDED.match(norm_words(text))
    if not m or _pending(state) != _CARD_KEEP:
        return None
    gone = _listed(m.group(1), CARDS, "card", text)
    raw = state.raw()
    n_looked = raw["n_looked_cards"]
    if len(gone) != n_looked - 1:
        raise DecisionError(f"{text!r}: {n_looked} cards are looked at, so "
                            f"{n_looked - 1} {'is' if n_looked == 2 else 'are'} discarded")
    if keep_is_hidden(state, viewer):
        world = state.clone()
        for c in gone:
            try:
                place_card(world, viewer, c, ("looked", None), avoid=sum(1 << x for x in gone))
            except DecisionError as exc:
                raise DecisionError(f"{text!r}: {CARDS[c]} cannot be among the cards looked "
                                    f"at: {exc}") from None
        state.set_raw(world.raw())
    looked = state.raw()["looked_cards"][:n_looked]
    if any(c not in looked for c in gone):
        raise DecisionError(f"{text!r}: {', '.join(CARDS[c] for c in gone if c not in looked)} "
                            "is not among the cards looked at")
    kept = next(c for c in looked if c not in gone)
    return action_id("keep_card", card=CARDS[kept])


def _listed(words: str, names, what: str, text: str) -> list[int]:
    """The indices of the names listed in `words` ("X", "X and Y", "X, Y"); an
    unknown one raises UnknownWords quoting `text`."""
    listed = [n.strip() for n in re.split(r",| and ", words) if n.strip()]
    by = {norm_words(c): k for k, c in enumerate(names)}
    for n in listed:
        if n not in by:
            raise UnknownWords(f"{text!r}: unknown {what} {n!r}")
    return [by[n] for n in listed]


_DREW_COATS = re.compile(r"^(?:drew|drawn) coats? (.+)$")


def _coat_correction(state, text: str, viewer) -> bool:
    """"drew coat X" / "drew coats X and Y" while the viewer chooses a coat: the last
    drawn coats are X (and Y). When only coats put under the stack are left, they are
    drawn without chance; one another player put under is unknown in a view until its
    drawer says which it is. True when applied."""
    m = _DREW_COATS.match(norm_words(text))
    if (not m or viewer is None or state.is_chance_node() or _pending(state) != _COAT_CHOICE
            or state.turn_player() != viewer):
        return False
    coats = _listed(m.group(1), COATS, "coat of arms", text)
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
        where = next((i for i, x in enumerate(tail) if x == c and raw["coat_tail_by"][i] != viewer
                      and not raw["coat_tail_known"][i] >> viewer & 1), None)
        if where is None:
            raise DecisionError(f"{text!r}: {COATS[c]} cannot have been drawn: "
                                f"{_known_coat(raw, viewer, c)}")
        raw["coat_tail"][where] = old
        looked[start + k] = c
    raw["looked_coats"] = (looked + [0, 0])[:2]
    state.set_raw(raw)
    return True


def apply_decision(state, text: str | int, viewer: int | None = None) -> int | None:
    """Apply one decision or chance outcome (words, or an action id) as `viewer` follows
    the game (None: a full state). Returns the action id applied (None for a correction
    of the viewer's own coats drawn from under the stack, "drew coat X"). Words may be
    abbreviated where only one thing that may happen fits (expand_words). What the viewer
    cannot know is refused with the reason (DecisionError); `state` is then unchanged."""
    return _or_abbreviation(lambda t: _apply_decision(state, t, viewer), state, text, viewer)


def _apply_decision(state, text: str | int, viewer: int | None = None) -> int | None:
    if isinstance(text, int) and not isinstance(text, bool):
        action = text
        if not 0 <= action < len(ACTION_NAMES):
            raise DecisionError(f"no action {action}")
        if viewer is not None and hidden_from(state, viewer) and (
                action in _CHANCE_CARD or action in _CHANCE_COAT):
            raise DecisionError(f"{SEATS[viewer]} cannot see which; say "
                                f"'{chance_name(state, action, viewer)}'")
        world = state.clone()
        try:
            fit(world, action, viewer)
        except DecisionError as exc:
            raise DecisionError(f"{ACTION_NAMES[action]!r}: {exc} (possible: "
                                f"{_legal_text(state, viewer)})") from None
        state.set_raw(world.raw())
        state.apply_action(action)
        return action
    text = str(text)    # words (an action id is an int, not a bool)
    if _coat_correction(state, text, viewer):
        return None
    if not state.is_terminal() and not state.is_chance_node():
        keep = _hidden_keep(state, text, viewer)
        if keep is not None:
            state.apply_action(keep)
            return keep
    parsed = _parse_decision(state, text, viewer)
    if isinstance(parsed, str):                    # "drew a card": the dealer draws it
        action = state.sample_chance_outcome()
    else:
        action = parsed
        fit(state, action, viewer)
    state.apply_action(action)
    return action


def parse_line(state, names: list[str], viewer: int | None = None) -> list[int]:
    """Decision names in order -> action ids, each checked where it is taken (on a copy);
    checking stops at a chance event whose outcome is not given. A correction of the
    viewer's own coats drawn from under the stack is taken, but is no decision."""
    st = state.clone()
    out: list[int] = []
    for text in names:
        t = norm_words(text)
        if st.is_chance_node() and not t.startswith(("drew", "chance:", "revealed")):
            if t not in _LOWER:
                raise DecisionError(f"unknown decision {text!r}")
            out.append(_IDS[_LOWER[t]])
            continue
        action = apply_decision(st, text, viewer)
        if action is not None:     # None: a correction of the viewer's own coats, no decision
            out.append(action)
    return out


_LOWER = {norm_words(n): n for n in ACTION_NAMES}
_LOWER.update({norm_words(decision_label(a)): n for a, n in enumerate(ACTION_NAMES)})
