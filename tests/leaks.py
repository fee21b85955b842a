"""The leak oracle: does something shown to a viewer name a card or coat it cannot know?

    secrets = Secrets(state, viewer)         # from the true full state
    assert secrets.leaks(text_or_json) == []

What is secret is computed from the true state by the core: the cards whose
place the viewer does not know (`State.hidden_cards`) and the coats no one
showed it (the shuffled coat stack, coats under the stack or drawn that it
does not know, R-COAT-4). A name is searched as a whole name ("Nave I" is not
found in "Nave III", "S-1" not in "S-10").

Naming a hidden card is a leak only when it tells the viewer something: a
list that names every hidden card the viewer cannot tell it from (the hidden
cards of its reshuffle group, every hidden coat) tells nothing, e.g. the
possible draws of an error message, the cards of a reshuffle, a menu of what
an opponent may play. So the output is cut into units (a line of text; a
value of a JSON object; a whole JSON list) and a unit leaks a name when it
names a hidden card or coat but not all of its look-alikes. A card the viewer
saw earlier in the game (`seen`, e.g. one it discarded before a reshuffle) may
be named in a record of the past and is not searched for. The board picture's
furniture (the coat printed at each outer space) is not searched either.
"""
from __future__ import annotations

import json
import re

from ulm import CARDS, COATS

def hidden_coats(state, viewer: int) -> set[int]:
    raw = state.raw()
    out = {c for c in range(len(COATS)) if raw["coat_unknown"] >> c & 1}
    out |= {raw["coat_tail"][i] for i in range(raw["coat_tail_len"])
            if not raw["coat_tail_known"][i] >> viewer & 1}
    out |= {raw["looked_coats"][i] for i in range(raw["n_looked_coats"])
            if not raw["looked_coat_known"][i] >> viewer & 1}
    return out


class Secrets:
    """What `viewer` cannot know in the true state `state`, as names with their
    look-alikes (the hidden names it cannot tell them from)."""

    def __init__(self, state, viewer: int, seen: set[str] = frozenset()):
        raw = state.raw()
        hidden = [c for c in range(len(CARDS)) if state.hidden_cards(viewer) >> c & 1]
        group = raw["card_group"]
        self.alike: dict[str, frozenset] = {}
        for c in hidden:
            self.alike[CARDS[c]] = frozenset(CARDS[x] for x in hidden if group[x] == group[c])
        coats = frozenset(COATS[c] for c in hidden_coats(state, viewer))
        for name in coats:
            self.alike[name] = coats
        for name in seen:                         # seen before: no longer searched for
            self.alike.pop(name, None)
        self.alike = {n: alike - set(seen) for n, alike in self.alike.items()}

    def leaks(self, shown) -> list[str]:
        """The leaks in `shown` (text, SVG, or parsed JSON): "<name> in <unit>"."""
        if not self.alike:
            return []
        names = sorted(self.alike, key=len, reverse=True)     # "Nave III" before "Nave I"
        pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, names)) + r")(?![\w-])")
        out = []
        for unit in _units(shown):
            named = set(pattern.findall(unit))
            for n in sorted(named):
                if not self.alike[n] <= named:
                    out.append(f"{n} in {unit[:300]!r}")
        return out


# the board's furniture: each outer space is printed with its coat (the picture's group of
# an outer space holds no other name; the text's "coat X" of an outer space)
_FURNITURE = re.compile(r'<g class="outer"[^>]*>.*?</g>|outer space \d+: coat [\w-]+', re.S)


def _units(shown) -> list[str]:
    if isinstance(shown, str):
        shown = _FURNITURE.sub("", shown)
        return shown.splitlines() or [shown]
    if isinstance(shown, dict):
        return [u for v in shown.values() for u in _units(v)]
    if isinstance(shown, list):
        return [json.dumps(shown)]
    return []


def seen_cards(state, viewer: int) -> set[str]:
    """The names of the cards and coats whose place `viewer` knows now (to add to a game's
    `seen` as it goes)."""
    hidden = state.hidden_cards(viewer)
    coats = hidden_coats(state, viewer)
    return ({CARDS[c] for c in range(len(CARDS)) if not hidden >> c & 1}
            | {COATS[c] for c in range(len(COATS)) if c not in coats})


def assert_no_leak(state, viewer: int, shown, where: str = "", seen=frozenset()) -> None:
    found = Secrets(state, viewer, seen).leaks(shown)
    assert not found, f"{where}: shown to viewer {viewer}: " + "; ".join(found[:5])


def assert_same_for_worlds(state, viewer: int, shown_in, seed: int = 0, worlds: int = 2,
                           seen=frozenset()) -> None:
    """What `shown_in(world)` shows `viewer` is the same for `state` and for `worlds`
    other worlds it cannot tell apart (State.resample_from_infostate: the same
    information key, the hidden cards and coats dealt anew), and leaks nothing in any:
    advice such as a principal line may depend only on the viewer's knowledge."""
    key = state.information_state_key(viewer)
    first = shown_in(state.clone())
    assert_no_leak(state, viewer, first, "the true world", seen)
    for k in range(worlds):
        other = state.resample_from_infostate(viewer, seed * 1000 + k + 1)
        assert other.information_state_key(viewer) == key
        shown = shown_in(other.clone())
        assert_no_leak(other, viewer, shown, f"world {k + 1}", seen)
        assert shown == first, (f"shown to viewer {viewer} differs between worlds it cannot "
                                f"tell apart: {first!r} / {shown!r}")


# --- the deal: the dealer's seed of a game being played --------------------------------------

_NUMBER = re.compile(r"(?<!\w)(?:0[xX][0-9a-fA-F]+|[0-9a-fA-F]*[a-fA-F][0-9a-fA-F]*|\d+)(?!\w)")


class DealSecret:
    """The seed that deals a game (`game.new_game(seed)`): it tells every card, tile and coat
    to come (R-INFO-2), so while the game is played, nothing shown may name it, nor any
    number that deals the same game (another spelling of it: hexadecimal, a number equal to
    it). Every whole number in the output, in decimal or hexadecimal, is tried as a seed."""

    def __init__(self, game, seed: int):
        self.game, self.seed = game, seed
        self.dealt = game.new_game(seed).raw()

    def deals(self, n: int) -> bool:
        return 0 <= n < 2 ** 64 and (n == self.seed or self.game.new_game(n).raw() == self.dealt)

    def leaks(self, shown) -> list[str]:
        """The numbers in `shown` (text or parsed JSON) that deal the game."""
        found = {}
        for token in _numbers(shown):
            for n in _readings(token):
                if n not in found:
                    found[n] = token
        return [f"{found[n]!r} deals the game (seed {self.seed})" for n in sorted(found)
                if self.deals(n)]


def _numbers(shown) -> list:
    if isinstance(shown, bool):
        return []
    if isinstance(shown, int):
        return [shown]
    if isinstance(shown, str):
        return _NUMBER.findall(shown)
    if isinstance(shown, dict):
        return [t for k, v in shown.items() for t in _numbers(k) + _numbers(v)]
    if isinstance(shown, list):
        return [t for v in shown for t in _numbers(v)]
    return []


def _readings(token) -> set[int]:
    """A number as it may be read: a whole number, or text in decimal or hexadecimal."""
    if isinstance(token, int):
        return {token}
    out = {int(token, 16)}
    if token.isdigit():
        out.add(int(token))
    return out


def assert_deal_secret(game, seed: int, shown, where: str = "") -> None:
    found = DealSecret(game, seed).leaks(shown)
    assert not found, f"{where}: " + "; ".join(found[:5])


# --- a review's annotation: a search of one seat's decisions ---------------------------------

def annotation_leaks(record: dict, viewer: int, annotation: dict) -> list[str]:
    """The leaks in an annotation shown to `viewer`: each decision's note is read against
    what `viewer` knew just before that decision of the record (`record`: its dict)."""
    from ulm.records import replay
    out = []
    for note in annotation.get("decisions", []):
        state = replay(record, note["index"]).state
        out += [f"decision {note['index']}: {leak}"
                for leak in Secrets(state, viewer).leaks(note)]
    return out
