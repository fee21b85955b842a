"""Decisions and chance events in ordinary words, for following a real game.

The engine names every decision (`state.action_to_string`, e.g. "push row 2
from left"); chance outcomes have technical names ("chance: tile white").
This module is the one place for the words people use at the table:

    drew white            (also "drew a white tile", "white tile")   a tile from the bag
    drew Siege            (also "Red drew Siege")                    a card one can see
    Red drew a card       (also "drew a card")                       a card one cannot see
    drew coat S-1 / Red drew a coat                                  a coat of arms
    revealed T4 / revealed Abbot                                     tower tile, descendant

    kept one, discarded Siege   an opponent's keep of a card looked at (the keep is hidden)

`decision_words(state, action, viewer)` says a decision for one viewer (what
it cannot see is not named); `apply_decision(state, text, viewer)` applies
words, following the game from the viewer's knowledge (ulm.follow).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from ulm._fastcore import (ACTION_NAMES, CARDS, COATS, COLOURS, DESCENDANTS, SEATS, TASKS,
                           TOWER_TILES, State, action_fields)
from ulm.names import closest

if TYPE_CHECKING:
    from ulm.records import GameRecord

__all__ = ["DecisionError", "UnknownWords", "abbreviations", "action_from_words", "chance_name",
           "decision_label", "decision_words", "hidden_from", "last_turn", "record_events", "since_viewer",
           "record_steps", "record_words", "shown_whole"]

_IDS = {name: i for i, name in enumerate(ACTION_NAMES)}
_TASK = {name: code for code, name in TASKS.items()}
_CARD_DRAWS = (_TASK["card to hand"], _TASK["look at card"])
_COAT_DRAW = _TASK["coat draw"]
_CARD_KEEP = _TASK["card keep"]
HIDDEN_CARD, HIDDEN_COAT = "a card", "a coat"


class DecisionError(ValueError):
    """A decision that cannot be applied here; the message names the legal ones."""


class UnknownWords(DecisionError):
    """Words that name no decision or chance event at all (they may abbreviate one:
    ulm.follow.expand_words)."""


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", str(text)).strip().lower()


def decision_label(action: int) -> str:
    """A decision in players' words, for advice and menus ("play Siege (upper)" is
    "play Siege (immediate bonus)", "play Siege (lower)" is "lay Siege in front
    (end-game points)", R-CARD-PLAY-1); every other decision keeps the engine's name.
    parse_decision reads both."""
    fields = action_fields(action)
    if fields["kind"] != "play":
        return ACTION_NAMES[action]
    if fields["row"] == "upper":
        return f"play {fields['card']} (immediate bonus)"
    return f"lay {fields['card']} in front (end-game points)"


_LOWER = {_norm(n): n for n in ACTION_NAMES}
_LOWER.update({_norm(decision_label(a)): n for a, n in enumerate(ACTION_NAMES)})
_CARD_BY = {_norm(c): c for c in CARDS}
_DOCK_REFILL = _TASK["dock refill"]
REFILLED = "the docks were refilled: "      # from the bag at once (R-DOCK-1), not a draw
_REFILLED = re.compile(r"^(?:the )?docks? (?:were |was |is |are )?refill(?:ed|s)?(?: with)?:? ")
_COAT_BY = {_norm(c): c for c in COATS}


def _pending_task(state: State) -> int | None:
    stack = state.task_stack()
    return stack[-1][0] if stack else None


def hidden_from(state: State, viewer: int | None) -> bool:
    """Does the pending chance event (a card or a coat) go where `viewer` cannot see it?"""
    return viewer is not None and state.turn_player() != viewer and _pending_task(
        state) in _CARD_DRAWS + (_COAT_DRAW,)


def chance_name(state: State, action: int, viewer: int | None = None) -> str:
    """The ordinary name of a chance outcome ("drew white", "Red drew a card")."""
    fields = action_fields(action)
    kind = fields["kind"]
    if kind not in _CHANCE_SAID:
        raise ValueError(f"action: {ACTION_NAMES[action]!r} is not a chance outcome")
    mover = SEATS[state.turn_player()]
    if kind in ("chance_card", "chance_coat") and hidden_from(state, viewer):
        return f"{mover} drew {HIDDEN_CARD if kind == 'chance_card' else HIDDEN_COAT}"
    field, said = _CHANCE_SAID[kind]
    if kind == "chance_tile" and _pending_task(state) == _DOCK_REFILL:
        said = REFILLED
    return said + fields[field]


# each kind of chance outcome: the field that says what came, and the words before it
_CHANCE_SAID = {"chance_tile": ("colour", "drew "), "chance_card": ("card", "drew "),
                "chance_coat": ("coat", "drew coat "),
                "chance_descendant": ("descendant", "revealed "),
                "chance_tower": ("tile", "revealed ")}


def _chance_alias(state: State, text: str, viewer: int | None) -> str | None:
    """A chance outcome in ordinary words -> its action name; "card", "coat" or "tile" for
    a draw whose outcome is not said; None when the words are not a chance outcome."""
    t = _norm(text)
    mover = state.turn_player()
    seat_named = None
    for s, seat in enumerate(SEATS):
        if t.startswith(seat.lower() + " "):
            seat_named, t = s, t[len(seat) + 1:]
    t = _REFILLED.sub("", t)
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



def norm_words(text: str) -> str:
    """Words compared without case and extra blanks."""
    return _norm(text)


_LETTERS_DIGITS = re.compile(r"(?<=[a-z])(?=\d)|(?<=\d)(?=[a-z])")


def _tokens(text: str) -> list[str]:
    """The words of a name for abbreviations: no case, brackets or punctuation between
    words; letters and digits apart ("r2" is "r 2", "T4" is "t 4")."""
    return _LETTERS_DIGITS.sub(" ", re.sub(r"[(),;:+]", " ", _norm(text))).split()


def _abbreviates(typed: list[str], words: list[str]) -> bool:
    """Each typed word begins a word of `words`, in their order (words may be left out)."""
    i = 0
    for tok in typed:
        while i < len(words) and not words[i].startswith(tok):
            i += 1
        if i == len(words):
            return False
        i += 1
    return bool(typed)


def abbreviations(text: str, names: list[str]) -> list[str]:
    """The names `text` may stand for: each word typed begins a word of the name, in
    order, and words may be left out ("push r2 l" is "push row 2 from left", "money",
    "lay nave i" is "lay Nave I in front (end-game points)"). A name whose words are
    exactly those typed is the only one."""
    typed = _tokens(text)
    exact = [n for n in names if _tokens(n) == typed]
    if exact:
        return exact[:1]
    return [n for n in names if _abbreviates(typed, _tokens(n))]


def did_you_mean(text: str, names: Iterable[str]) -> str:
    """"; did you mean 'X'?" for the name of `names` closest to `text` (compared
    without case or extra blanks: ulm.names.closest), or ""."""
    by = {_norm(n): n for n in names}
    near = closest(_norm(text), by, cutoff=0.6)
    return f"; did you mean {by[near]!r}?" if near is not None else ""


def action_from_words(text: str) -> int:
    """An action id from its name without a position: the engine's name or the players'
    words of the command line, without case or extra blanks ("draw", "play Nave I
    (immediate bonus)", "lay Nave I in front (end-game points)", "push row 2 from
    left"); chance outcomes as "chance: tile white", "drew white", "drew Siege", "drew
    coat S-1", "revealed T4", "the docks were refilled: white". State.string_to_action
    reads names with it. Words that depend on the position (a hidden draw, an
    abbreviation, "did you mean" among the legal decisions) are ulm.follow's."""
    t = _norm(text)
    if t in _LOWER:
        return _IDS[_LOWER[t]]
    m = _REFILLED.match(t)
    if m:
        t = "drew " + t[m.end():]
    m = re.fullmatch(r"drew (coat )?(.+)|revealed (.+)", t)
    if m:
        kinds = (("coat",) if m.group(1) else ("tile", "card")) if m.group(2) else (
            "descendant", "tower")
        what = m.group(2) or m.group(3)
        for kind in kinds:
            name = _LOWER.get(f"chance: {kind} {what}")
            if name:
                return _IDS[name]
    raise UnknownWords(f"unknown action {text!r}{did_you_mean(text, list(_LOWER.values()))}")


def parse_words(state: State, text: str, viewer: int | None, hidden: bool,
                legal_text: Callable[[], str],
                names: Callable[[], Iterable[str]] | None = None) -> int | str:
    """Words -> an action id (not yet checked to be legal: ulm.follow does, in the worlds
    of the viewer's knowledge); "card"/"coat"/"tile" for a chance draw whose outcome is
    not said. `hidden`: the pending draw goes where the viewer cannot see it;
    `legal_text()`: what may happen, for the messages; `names()`: the words of what may
    happen, the only ones "did you mean" offers (None: every decision's name)."""
    t = _norm(text)
    if state.is_chance_node():
        alias = _LOWER.get(t) if t.startswith("chance: ") else _chance_alias(state, text, viewer)
        if alias is None:
            near = did_you_mean(text, names()) if names is not None else ""
            raise UnknownWords(f"{text!r}: a chance event is pending; say what happened"
                                f"{near} (possible: {legal_text()})")
        if alias in ("card", "coat", "tile"):
            pending = _pending_task(state)
            kind = ("card" if pending in _CARD_DRAWS else "coat" if pending == _COAT_DRAW
                    else "tile" if any(action_fields(a)["kind"] == "chance_tile"
                                       for a in state.legal_actions()) else "other")
            if kind != alias:
                raise DecisionError(f"{text!r}: the pending chance event is not a {alias} draw "
                                    f"(possible: {legal_text()})")
            if viewer is not None and not hidden:
                raise DecisionError(f"{text!r}: {SEATS[viewer]} sees this {alias}; say which "
                                    f"(possible: {legal_text()})")
            return alias
        action = _IDS[alias]
        kind = action_fields(action)["kind"]
        if hidden and viewer is not None and kind in ("chance_card", "chance_coat"):
            mover = SEATS[state.turn_player()]
            what = "card" if kind == "chance_card" else "coat"
            raise DecisionError(f"{text!r}: {SEATS[viewer]} cannot see {mover}'s {what}; "
                                f"say '{mover} drew a {what}'")
        return action
    if t not in _LOWER:
        hint = did_you_mean(text, names() if names is not None else list(_LOWER.values()))
        raise UnknownWords(f"unknown decision {text!r}{hint} (legal: {legal_text()})")
    return _IDS[_LOWER[t]]


def decision_words(state: State, action: int, viewer: int | None = None) -> str:
    """A decision or chance outcome in words *for a viewer* (`state`: before it; None:
    everything is shown). What the viewer cannot see is not named: an opponent's keep of
    a card looked at reads "kept one, discarded Siege" (the discards are public), an
    opponent's hidden draw "Blue drew a card". Every channel that tells a player what
    happened (the terminal's log, the web's history) says it with these words; `ulm
    apply` reads them back."""
    if state.is_chance_node():
        return chance_name(state, action, viewer)
    fields = action_fields(action)
    if viewer is None or fields["kind"] != "keep_card":
        return decision_label(action)
    raw = state.raw()
    if raw["turn_player"] != viewer and _pending_task(state) == _CARD_KEEP:
        kept = CARDS.index(fields["card"])
        gone = [CARDS[c] for c in raw["looked_cards"][:raw["n_looked_cards"]] if c != kept]
        return "kept one, discarded " + " and ".join(gone) if gone else "kept one"
    return decision_label(action)


def record_words(record: GameRecord, viewer: int | None = None) -> list[tuple[int, str]]:
    """Each decision of a game record (ulm.records.GameRecord) as (seat, words for
    `viewer`), replayed from the record's seed."""
    state = record.game.new_game(record.seed)
    out = []
    for action in record.decisions:
        out.append((state.current_player(), decision_words(state, action, viewer)))
        state.apply_action(action)
        state.resolve_chance()
    return out


def record_events(record: GameRecord, viewer: int | None = None,
                  upto: int | None = None) -> list[dict]:
    """Each decision of a game record (the first `upto` of them) for `viewer`, with the
    chance events drawn right after it: {"seat": p, "words": ..., "chance": [words, ...]}.
    The chance events are said as `viewer` may know them ("Blue drew a card"); the
    record's dealer draws them exactly as `resolve_chance` does."""
    state = record.game.new_game(record.seed)
    out = []
    for action in record.decisions[:upto]:
        chance: list[str] = []
        entry = {"seat": state.current_player(),
                 "words": decision_words(state, action, viewer), "chance": chance}
        state.apply_action(action)
        while state.is_chance_node():
            outcome = state.sample_chance_outcome()
            chance.append(chance_name(state, outcome, viewer))
            state.apply_action(outcome)
        out.append(entry)
    return out


def shown_whole(state: State, action: int, viewer: int | None = None) -> bool:
    """Does `viewer` see this decision as it is (not an opponent's hidden keep, not a
    draw it cannot see)? Only such a decision may be marked on the viewer's board."""
    if state.is_chance_node():
        return not hidden_from(state, viewer)
    return decision_words(state, action, viewer) == decision_label(action)


def last_turn(steps: Sequence[tuple[State, int]]) -> list[tuple[State, int]]:
    """The last mover's decisions of the current turn, from `steps` (each a pair of the
    state before a decision and the decision, oldest first): the trailing run of
    decisions of one seat. Returns those pairs."""
    steps = [(st, a) for st, a in steps if not st.is_chance_node()]
    if not steps:
        return []
    seat = steps[-1][0].current_player()
    run = []
    for st, a in reversed(steps):
        if st.current_player() != seat:
            break
        run.append((st, a))
    return run[::-1]


def since_viewer(steps: Sequence[tuple[State, int]],
                 viewer: int | None) -> list[tuple[State, int]]:
    """The decisions to mark for `viewer`, from `steps` (pairs of the state before a
    decision and the decision, oldest first): every turn of the others since the
    viewer's last decision, or the last turn when that was the viewer's own (or no
    viewer is named). Returns those pairs, oldest first."""
    steps = [(st, a) for st, a in steps if not st.is_chance_node()]
    if viewer is None or not steps or steps[-1][0].current_player() == viewer:
        return last_turn(steps)
    k = len(steps)
    while k > 0 and steps[k - 1][0].current_player() != viewer:
        k -= 1
    return steps[k:]


def record_steps(record: GameRecord, upto: int | None = None) -> list[tuple[State, int]]:
    """(the state before, decision) for each of the first `upto` decisions of a record."""
    return record.steps(upto)
