"""The checks that span sections: the turn and the pending tasks against the phase,
the round, what is owned and in force, and that the position waits for something."""
from __future__ import annotations

from ulm import _fastcore as core
from ulm._fastcore import (CARDS, COLOURS, DESCENDANTS, PHASES, SEATS, TASKS, TOWER_TILES, TOWER_VARIANTS,
                           VARIANTS)
from ulm.position_format import (AMOUNT_CARDS, LOOKED_CARDS, LOOKED_COATS, NEVER_PENDING,
                                 NUM_ROUNDS, PHASE_BEFORE_DRAW, PHASE_GAME_OVER, PHASE_PUSH,
                                 TASK_ARGS, TASK_IDS, TASK_PHASES)
from ulm.position_reader.reading import _Reader

_T = TASK_IDS


def _task_arg(rd: _Reader, task: dict, t: int, where: str) -> int:
    """The argument of pending task `t`, checked against what the core reads it as."""
    name = TASKS[t]
    if t in NEVER_PENDING:
        rd.fail(f"{where}.task", f"{name!r} is {NEVER_PENDING[t]}: it never waits in a position")
    arg = rd.field(task, "arg", where, int, 0)
    if t in TASK_ARGS:
        lo, hi, meaning = TASK_ARGS[t]
        if not lo <= arg <= hi:
            rd.fail(f"{where}.arg", f"{name!r} takes {meaning}: {lo}..{hi}, got {arg}")
    elif t == _T["amount"]:
        if arg not in AMOUNT_CARDS:
            rd.fail(f"{where}.arg", "'amount' takes the card being played: "
                    + " or ".join(f"{c} ({CARDS[c]})" for c in AMOUNT_CARDS) + f", got {arg}")
    elif arg != 0:
        rd.fail(f"{where}.arg", f"{name!r} takes no argument (0), got {arg}")
    return arg


def _check_phase_tasks(rd: _Reader, phase: int, tasks: list[int]) -> None:
    """Tasks that only one phase can hold; nothing waits once the game is over."""
    if phase == PHASE_GAME_OVER and tasks:
        rd.fail("pending", "a finished game has no pending tasks")
    for i, t in enumerate(tasks):
        if t in TASK_PHASES and phase not in TASK_PHASES[t]:
            rd.fail(f"pending[{i}]", f"{TASKS[t]!r} waits only in phase "
                    + " or ".join(repr(PHASES[p]) for p in TASK_PHASES[t])
                    + f", not in {PHASES[phase]!r}")


def _check_drawn(rd: _Reader, phase: int, tasks: list[int], args: list[int], drawn: list[int]) -> None:
    """The drawn tile(s): drawn at the draw, pushed at the push (R-DRAW-1..3)."""
    phase_name = PHASES[phase]
    if phase == PHASE_PUSH:
        slots = 2 if _T["builder keep"] in tasks else 1
        waiting = sorted(a for t, a in zip(tasks, args) if t == _T["draw tile to push"])
        if len(drawn) > slots or waiting != list(range(len(drawn), slots)):
            if not drawn and not waiting:
                rd.fail("turn.drawn", "phase 'push' needs the drawn tile")
            rd.fail("turn.drawn", f"{len(drawn)} drawn tile(s), but the pending 'draw tile to "
                    f"push' tasks (slots {waiting}) need {slots} in all"
                    + (" (a Builder's 2 tiles while 'builder keep' is pending)" if slots == 2 else ""))
    elif drawn:
        if phase == PHASE_BEFORE_DRAW:
            rd.fail("turn.drawn", "no tile is drawn before the draw (phase 'before draw')")
        rd.fail("turn.drawn", f"the drawn tile is pushed before the actions (phase {phase_name!r})")


def _owns(r: dict, descendant: str) -> bool:
    """The player to move owns `descendant`."""
    return r["desc"][DESCENDANTS.index(descendant)] == r["turn_player"]


def _in_force(r: dict, tile: str) -> bool:
    return r["tower_current"] == TOWER_TILES.index(tile)


def _pending(tasks: list[int], name: str) -> list[int]:
    """Where task `name` waits in the pending list."""
    return [i for i, t in enumerate(tasks) if t == _T[name]]


def _check_turn(rd: _Reader, r: dict, tasks: list[int], t5_seal, phase: int) -> bool:
    """The turn fields against the phase, the pending tasks, the tower tile in
    force and the mover's Descendants (the values the core can reach); returns
    the T5 seal flag (default: available when T5 is in force)."""
    for i in _pending(tasks, "builder keep"):
        if not _owns(r, "Builder"):
            rd.fail(f"pending[{i}]", f"'builder keep' needs the Builder, and "
                    f"{SEATS[r['turn_player']]} does not own it (R-DRAW-3)")
    _check_turn_phase(rd, r, phase)
    _check_turn_owned(rd, r)
    if t5_seal is None:
        t5_seal = _in_force(r, "T5")
    if t5_seal and not _in_force(r, "T5"):
        rd.fail("turn.T5 seal", "tower tile T5 is not in force")
    # R-TURN-3: the T5 seal may be used in any phase, so a used one fits every phase
    _check_round_tasks(rd, r, tasks)
    _check_look_tasks(rd, r, tasks)
    return bool(t5_seal)


def _check_turn_phase(rd: _Reader, r: dict, phase: int) -> None:
    """What only the push and the actions give."""
    phase_name = PHASES[phase]
    if phase in (PHASE_BEFORE_DRAW, PHASE_PUSH):
        for c, k in enumerate(r["avail"]):
            if k:
                rd.fail(f"turn.actions.{COLOURS[c]}", f"actions come from the push; none in "
                        f"phase {phase_name!r}")
        if r["river_extra"]:
            rd.fail("turn.extra river steps", f"they come from a river action; none in phase "
                    f"{phase_name!r}")
        if r["pushed_out_at"] >= 0:
            rd.fail("turn.pushed out at", f"no tile is pushed out before the push (phase "
                    f"{phase_name!r})")
        if r["t10_used"]:
            rd.fail("turn.T10 used", f"T10 takes the tile pushed out this turn; none in phase "
                    f"{phase_name!r}")
    if phase == PHASE_BEFORE_DRAW and r["draw_swap_used"]:
        rd.fail("turn.draw swap used", "the joker and the Scholar swap the drawn tile; nothing "
                "is drawn in phase 'before draw' (R-DRAW-5, R-DRAW-6)")


def _check_turn_owned(rd: _Reader, r: dict) -> None:
    """What the mover's Descendants and the tower tile in force allow."""
    if r["merchant_used"] and not _owns(r, "Merchant"):
        rd.fail("turn.merchant used", f"{SEATS[r['turn_player']]} does not own the Merchant "
                "(R-DESC-MERCHANT)")
    most = _owns(r, "Barge Driver") + _in_force(r, "T1")
    if r["river_extra"] > most:
        rd.fail("turn.extra river steps", f"at most {most} here (1 with the Barge Driver, 1 with "
                f"tower tile T1, R-ACT-RIVER-1), got {r['river_extra']}")
    if r["t10_used"]:
        if not _in_force(r, "T10"):
            rd.fail("turn.T10 used", "tower tile T10 is not in force")
        if r["pushed_out_at"] < 0:
            rd.fail("turn.T10 used", "T10 takes the tile pushed out this turn: give 'pushed out at'")


def _check_round_tasks(rd: _Reader, r: dict, tasks: list[int]) -> None:
    """Tasks bound to the tower or to the start of a round."""
    for i in _pending(tasks, "tower reveal"):
        if VARIANTS[r["variant"]] not in TOWER_VARIANTS:
            rd.fail(f"pending[{i}]", "tower tiles are revealed only in the advanced game")
        if r["tower_next"] >= 0:
            rd.fail(f"pending[{i}]", "'tower reveal' shows the next tower tile, but tower.next "
                    "is already shown")
        if r["round"] >= NUM_ROUNDS - 1:
            rd.fail(f"pending[{i}]", "round 10 has no next tower tile to reveal")
        if r["turn_player"] != 0 or len(tasks) != 1:
            rd.fail(f"pending[{i}]", f"'tower reveal' happens alone at the start of a round, "
                    f"with {SEATS[0]} to move (R-ROUND-1)")
    for i in _pending(tasks, "tower payment"):
        if not (_in_force(r, "T8") or _in_force(r, "T9")):
            rd.fail(f"pending[{i}]", "'tower payment' is due only while T8 or T9 is in force")
        if len(tasks) != 1:
            rd.fail(f"pending[{i}]", "'tower payment' comes alone, after 'end turn' (R-TOWER-1)")


def _check_look_tasks(rd: _Reader, r: dict, tasks: list[int]) -> None:
    """Draws for looked-at cards and coats: below their keep, within the limit."""
    for look, keep, limit, field in (("look at card", "card keep", LOOKED_CARDS, "n_looked_cards"),
                                     ("coat draw", "coat choice", LOOKED_COATS, "n_looked_coats")):
        looks = _pending(tasks, look)
        for i in looks:
            if not any(j < i for j in _pending(tasks, keep)):
                rd.fail(f"pending[{i}]", f"{look!r} draws for a {keep!r} pending below it")
        if looks and r[field] + len(looks) > limit:
            rd.fail(f"pending[{looks[0]}]", f"{r[field]} looked at and {len(looks)} more to draw: "
                    f"at most {limit} are looked at")


def _check_waits_for_something(rd: _Reader, st: core.State, tasks: list[int]) -> None:
    """A position waits for a decision with a legal choice, or a chance event
    with an outcome; the engine never stops anywhere else."""
    if st.is_terminal() or st.legal_actions():
        return
    if tasks:
        what = "nothing to draw" if st.is_chance_node() else "no legal choice"
        rd.fail(f"pending[{len(tasks) - 1}]", f"{TASKS[tasks[-1]]!r} has {what} in this "
                "position (the engine settles such a task at once)")
    rd.fail("phase", f"the player to move has no legal decision in phase "
            f"{PHASES[st.raw()['phase']]!r} here")
