"""Variations: another line tried from a position of a game, its own line kept.

A variation is a turn of the player to move at the position: it ends at a chance
event, at the end of the game, or when another seat is to move. Seen by a viewer,
it is played in a world that viewer cannot tell from the real one (nothing hidden
from the viewer is used), and only from the viewer's own decisions. After a
decision that shows the viewer what was hidden (coats drawn from under the stack)
it asks, as `ulm.follow` does, what was drawn; the line's next entry says it in
those words.

    >>> from mcts.play.variations import play_variation
    >>> v = play_variation(state, viewer=0, line=[push, "drew coats S-1 and S-3"])
    >>> v.names, v.ended, v.ask        # the line in words; why it stops; what it asks
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations, permutations

from ulm import COATS, SEATS, State
from ulm.follow import DecisionError, apply_decision

MAX_LINE = 60               # decisions of one variation
MAX_COAT_WORDS = 100        # characters of "drew coats X and Y" in a line


class VariationError(ValueError):
    """A line that cannot be played; the message names the entry ("line[2]: ...").
    `conflict` is true when the request is well formed but the position refuses it
    (nobody decides there, another seat's decision, a line going on past its end)."""

    def __init__(self, message: str, conflict: bool = False):
        super().__init__(message)
        self.conflict = conflict


@dataclass
class Variation:
    """A line played: its words, where it stands and why it stops."""
    seat: int                       # the player whose turn it is
    names: list[str]                # each entry of the line in words
    state: State                    # the world after the line
    steps: list = field(default_factory=list)   # (state before, decision) of each decision
    ended: str | None = None        # why no decision follows, or None
    ask: list[str] | None = None    # what may have been drawn, when the line asks it

    @property
    def options(self) -> list[int]:
        """The decisions that may go on with the line (none when it ended or asks)."""
        if self.ended or self.ask:
            return []
        return list(self.state.legal_actions())


def play_variation(real, viewer: int | None, line, seed: int = 0) -> Variation:
    """The line `line` (decision ids, and words where it asks what was drawn) played from
    `real` (not changed) by the player to move there, seen by `viewer` (None: everything
    is seen, the real state is used). `seed` deals the world the viewer cannot tell from
    the real one. VariationError when the line or the position refuses it."""
    if isinstance(line, bool) or not isinstance(line, list) or len(line) > MAX_LINE:
        raise VariationError(f"line: a list of at most {MAX_LINE} decision ids")
    mover = variation_seat(real, viewer)
    world = real.clone() if viewer is None else real.resample_from_infostate(viewer, seed)
    v = Variation(seat=mover, names=[], state=world)
    for k, entry in enumerate(line):
        if v.ask is not None:
            v.names.append(_told(world, k, entry, v.ask, viewer))
            v.ask = None
            continue
        _play_step(v, k, entry, viewer, last=k + 1 == len(line))
    if v.ask is None and v.ended is None:
        v.ended = _why_ended(world, mover)
    return v


def variation_seat(real, viewer: int | None) -> int:
    """The seat a variation from `real` is for; VariationError (conflict) when nobody
    decides there or, seen by `viewer`, another seat does."""
    mover = real.current_player()
    if mover < 0 or real.is_terminal():
        raise VariationError("variation: nobody decides here (a chance event or the end)",
                             conflict=True)
    if viewer is not None and mover != viewer:
        raise VariationError(f"variation: it is {SEATS[mover]}'s decision here; variations "
                             f"are for {SEATS[viewer]}'s own decisions", conflict=True)
    return mover


def _play_step(v: Variation, k: int, entry, viewer, last: bool) -> None:
    """Entry `k`, a decision: applied to the variation's world."""
    from mcts.searcher.search import action_name
    from mcts.searcher.search import shows_hidden
    world = v.state
    action = _decision(world, k, entry, v.seat)
    v.steps.append((world.clone(), action))
    v.names.append(action_name(action))
    shown = viewer is not None and shows_hidden(world, action, v.seat)
    world.apply_action(action)
    if shown:                   # this world's deal of what it shows would be a guess
        v.ask = coats_drawn(world, viewer) or None
        if v.ask is None:
            v.ended = (f"it shows {SEATS[v.seat]} what was hidden: what may follow "
                       "depends on what is seen")
            if not last:
                raise VariationError(f"line[{k + 1}]: the variation ended before it: "
                                     f"{action_name(action)!r} shows {SEATS[v.seat]} what "
                                     "was hidden", conflict=True)


def _decision(world, k: int, action, mover: int) -> int:
    """Entry `k` of a line: a decision id legal in `world`, `mover` to decide."""
    if world.current_player() != mover or world.is_chance_node() or world.is_terminal():
        raise VariationError(f"line[{k}]: the variation ended before it", conflict=True)
    if isinstance(action, bool) or not isinstance(action, int):
        raise VariationError(f"line[{k}]: must be a decision id (a whole number)")
    if action not in world.legal_actions():
        raise VariationError(f"line[{k}]: decision {action} is not legal there")
    return action


def _why_ended(world, mover: int) -> str | None:
    """Why the line stops in `world` (None: `mover` decides on)."""
    if world.is_terminal():
        return "the game ends"
    if world.is_chance_node():
        return "a chance event follows"
    if world.current_player() != mover:
        return f"{SEATS[world.current_player()]} is to move"
    return None


def coats_drawn(world, viewer: int) -> list[str]:
    """After the viewer's decision that drew coats from under the stack, hidden from it
    before: every way to say what it drew ("drew coats S-1 and S-3", as `ulm.follow`
    takes it), one for each set of coats it accepts as drawn; [] for another reveal."""
    raw = world.raw()
    n = raw["n_looked_coats"]
    if world.is_chance_node() or world.is_terminal() or not n:
        return []
    pool = set(raw["looked_coats"][:n]) | {
        raw["coat_tail"][i] for i in range(raw["coat_tail_len"])
        if raw["coat_tail_by"][i] != viewer and not raw["coat_tail_known"][i] >> viewer & 1}
    out = []
    for coats in combinations(sorted(pool), n):
        for order in permutations(coats):
            words = ("drew coat " if n == 1 else "drew coats ") + " and ".join(
                COATS[c] for c in order)
            try:
                apply_decision(world.clone(), words, viewer)
            except (DecisionError, ValueError):
                continue
            out.append(words)
            break
    return out


def _told(world, k: int, words, possible: list[str], viewer: int | None) -> str:
    """Entry `k` of a line where the viewer says what it drew: one of `possible`, applied
    to `world` (ulm.follow) so that the line goes on with it."""
    if isinstance(words, bool) or not isinstance(words, str) or not words.strip() \
            or len(words) > MAX_COAT_WORDS:
        shown = repr(words)[:40]
        raise VariationError(f"line[{k}]: say which coats were drawn, in words such as "
                             f"{possible[0]!r}, got {shown}")
    said = next((p for p in possible if p.lower() == " ".join(words.lower().split())), None)
    if said is None:
        raise VariationError(f"line[{k}]: {words!r} is not what may have been drawn here "
                             f"(possible: {', '.join(possible)})")
    apply_decision(world, said, viewer)
    return said
