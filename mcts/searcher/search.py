"""The Python face of the search: `search(state, ...) -> SearchResult`.

    >>> import ulm
    >>> from mcts import search
    >>> state = ulm.Game(players=4).new_game(seed=1)
    >>> result = search(state, iterations=2000, seed=3)
    >>> result.best_action_name, result.win_probability[result.player]
    >>> [step.name for step in result.principal_line()]

The tree search itself is compiled (mcts/searcher/_search.pyx): Python calls it once
per search, or once per chunk of about 0.1 s when a `progress` callback is
given. With ``workers=K`` (root parallelism) K processes (forked) each grow an
independent tree with the seed ``ulm.derive_seed(seed, worker)``, and the root
statistics are summed. An iteration budget is the total over all workers; a
time budget is the wall time of the whole search: every worker stops at one
deadline, so starting the workers and merging their trees is inside it.
``workers`` is at most MAX_WORKERS (the machine's CPUs, but at least 8):
more trees than cores only slice the budget thinner.

Ctrl-C (SIGINT) stops a search within a few milliseconds: the compiled loop
looks for signals every SIGNAL_CHECK_SECONDS, KeyboardInterrupt propagates,
and the workers of a root-parallel search are ended (they ignore SIGINT
themselves, so a Ctrl-C at the terminal prints nothing from them).

The searcher uses only the knowledge of the player to move: the root is
re-determinized on every iteration (hidden cards and coats are redealt), so
the hidden parts of the given State do not change the result.
"""
from __future__ import annotations

import math
import multiprocessing
import os
import signal
import time as _time
import traceback
from dataclasses import dataclass, field
from multiprocessing.connection import wait as _wait_connections
from typing import Callable, Optional

from ulm import SEATS, SOURCES, State, derive_seed
from ulm.decisions import decision_label

from mcts.searcher._search import POINT_SOURCE_COUNT
from mcts.searcher._search import (CHANCE_MODES, DEFAULT_MAX_NODES, EXPLORE_MODES, HIDDEN_KEY,  # noqa: F401
                          NODE_BYTES, ROLLOUTS, SIGNAL_CHECK_SECONDS, VALUE_BYTES, Searcher)
# the options of a search, their defaults and bounds live in mcts.searcher.params (one
# SearchParams); they are named here too, where callers have found them
from mcts.searcher.params import (DEFAULT_C, DEFAULT_CHANCE, DEFAULT_EVALUATION,  # noqa: F401
                         DEFAULT_EXPLORE, DEFAULT_FINAL, DEFAULT_HORIZONS, DEFAULT_ITERATIONS,
                         DEFAULT_MARGIN_WEIGHT, DEFAULT_MINIMAX, DEFAULT_ROLLOUT, FINALS,
                         FULL_ROLLOUT_C, MAX_ITERATIONS, MAX_SECONDS, MAX_WORKERS, SCALED_C,
                         Evaluation, SearchParams, check_minimax, check_workers, default_c,
                         default_horizon, default_minimax, horizon_turns, searcher_options)

VALUE_MIN_SHARE = 0.1           # final="value": only decisions with >= 10% of the top visits
# final="lcb" (KataGo's choice by lower confidence bound): among the decisions with
# at least LCB_MIN_SHARE of the top visits (KataGo's minVisitPropForLCB), the one
# whose estimate less LCB_STDEVS standard errors (`estimate_error`) is highest
LCB_MIN_SHARE = 0.15
LCB_STDEVS = 3.0
# What put the recommended decision first (`SearchResult.decided_by`)
DECIDED_BY = ("visits", "value", "lcb", "forced")
PROGRESS_CHUNK_SECONDS = 0.1
MERGE_RESERVE = 0.05   # part of a time budget (at most 50 ms) left for collecting the trees


__all__ = ["ActionStats", "LineStep", "SearchResult", "search", "principal_line", "shows_hidden",
           "action_name", "NODE_BYTES", "MAX_ITERATIONS", "MAX_WORKERS", "SIGNAL_CHECK_SECONDS",
           "ROLLOUTS", "DEFAULT_C", "FULL_ROLLOUT_C", "SCALED_C", "DEFAULT_ITERATIONS",
           "DEFAULT_MARGIN_WEIGHT", "DEFAULT_ROLLOUT", "SearchParams", "Evaluation"]


def action_name(action: int) -> str:
    """A decision or tree key in players' words (ulm.decisions.decision_label;
    HIDDEN_KEY: an opponent's hidden card keep): the one name every output
    uses."""
    if action == HIDDEN_KEY:
        return "keep a card (hidden)"
    return decision_label(action)


@dataclass(frozen=True)
class ActionStats:
    """Statistics of one decision at the root."""
    action: int
    name: str
    visits: int
    availability: int               # iterations in which it was legal (since it was added)
    share: float                    # visits / all root visits
    value: float                    # mean reward of the searching player
    mean_reward: tuple              # mean reward vector, one per player
    win_probability: tuple          # mean win share per player after this decision
    estimate: Optional[float] = None    # the figure the search ranks by (`decision_estimate`)
    estimate_error: float = 0.0         # its standard error (at most, from the visits)
    expected_score: tuple = ()          # per player, the mean final score of the iterations
    #                                     through it (`points`: a cut-off's forecast)
    margin: Optional[float] = None      # the searching player's mean margin over the best
    margin_error: float = 0.0           # other player in points, and its standard error
    points_by_source: tuple = ()        # the searching player's mean points by POINT_SOURCES

    def to_dict(self) -> dict:
        return {"action": self.action, "name": self.name, "visits": self.visits,
                "availability": self.availability, "share": self.share, "value": self.value,
                "estimate": self.estimate, "estimate_error": self.estimate_error,
                "mean_reward": list(self.mean_reward),
                "win_probability": list(self.win_probability),
                "expected_score": list(self.expected_score), "margin": self.margin,
                "margin_error": self.margin_error}


def decision_estimate(value: float, minimax_value: Optional[float], minimax: float) -> float:
    """The figure the search ranks a decision by: what UCB's selection maximises
    and so where the visits go, the decision's mean reward (win share plus
    margin_weight x the score-margin term) mixed with its implicit minimax
    value by the minimax weight (the mean alone where it has none)."""
    if minimax_value is None or minimax <= 0:
        return value
    return (1.0 - minimax) * value + minimax * minimax_value


# Two searches of one decision with the same budget differ by more than the
# visits say once the budget is large: the tree's path and the minimax value (a
# maximum over evaluations of single worlds) do not average out. That part,
# ESTIMATE_FLOOR, was measured by bench/estimate_noise.py (docs/player-tools.md).
ESTIMATE_FLOOR = 0.01


def estimate_error(value: float, visits: int, margin_weight: float = DEFAULT_MARGIN_WEIGHT,
                   floor: float = ESTIMATE_FLOOR) -> float:
    """The standard error of a decision's estimate: its bound from the visits and
    the `floor` that more visits do not lower, added as independent errors. A
    reward is a win share (in [0, 1], whose standard deviation is at most
    sqrt(p(1 - p)) for a mean p, pulled towards 1/2 as by one won and one lost
    iteration more: an estimate of 0 or 1 from few visits is not certain) plus
    margin_weight x a term in [-1, 1] (at most margin_weight more)."""
    p = min(max((value * visits + 1.0) / (visits + 2.0), 0.0), 1.0)
    sampled = (math.sqrt(p * (1.0 - p)) + margin_weight) / math.sqrt(max(visits, 1))
    return math.hypot(sampled, floor)


# The sources of a decision's points (`ActionStats.points_by_source`): the
# scoring sources of the score sheet (ulm.SOURCES; the end-game items as they
# stand at a cut-off), then what the evaluation forecasts beyond them at a
# cut-off (0 for the iterations that reach the end of the game).
POINT_SOURCES = tuple(SOURCES) + ("forecast",)
assert len(POINT_SOURCES) == POINT_SOURCE_COUNT


def decision_points(sums: Optional[list], counted: int) -> dict:
    """A root decision's points from its sums over `counted` iterations
    (`Searcher.root_points`): ActionStats' expected_score, margin (the mean of
    the searching player's score minus the best other's, per iteration),
    margin_error (its standard error) and points_by_source. None of them
    without sums (a search without points, or a decision never counted)."""
    if not sums or counted <= 0:
        return {}
    scores, margin, margin_sq, sources = sums
    mean = margin / counted
    spread = max(margin_sq / counted - mean * mean, 0.0)
    return {"expected_score": tuple(s / counted for s in scores), "margin": mean,
            "margin_error": math.sqrt(spread / counted),
            "points_by_source": tuple(s / counted for s in sources)}


@dataclass(frozen=True)
class LineStep:
    """One recommended decision of the principal line."""
    action: int
    name: str
    visits: int
    share: float                    # visits / visits of all the alternatives here
    value: float                    # mean reward of the searching player
    chance_after: bool = False      # a chance event follows (the line stops here)
    reveals: bool = False           # it shows the player something hidden before (coats
    #                                 drawn from under the stack): the line stops here

    def to_dict(self) -> dict:
        return {"action": self.action, "name": self.name, "visits": self.visits,
                "share": self.share, "value": self.value, "chance_after": self.chance_after,
                "reveals": self.reveals}


# A line is checked in this many worlds the searching player cannot tell apart
# (State.resample_from_infostate, seeds derived from LINE_SEED): a step is shown
# only if it is legal in all of them, and the line stops after a step that shows
# the player something hidden (its information differs between the worlds).
LINE_WORLDS = 24
LINE_SEED = 0x6C696E65


@dataclass
class SearchResult:
    """What a search found. `actions` is sorted by visits, most visited first."""
    player: int
    num_players: int
    actions: list
    win_probability: tuple          # per player, mean over iterations of the win share
    expected_score: tuple           # per player, mean final score of the playouts
    iterations: int
    seconds: float                  # wall time of the search
    tree_nodes: int                 # summed over the workers' trees
    workers: int = 1
    seed: int = 0
    c: float = SCALED_C             # the default search's (explore="scaled")
    rollout: str = DEFAULT_ROLLOUT
    explore: str = DEFAULT_EXPLORE  # "scaled": c times the spread of the rewards
    minimax: float = 0.0            # implicit minimax's weight (search() sets it)
    turn_tree: dict = field(default_factory=dict, repr=False)
    forced: bool = False            # the only legal decision (searched all the same, for
    #                                 the estimates of the position behind it)
    reused_visits: int = 0          # visits the root kept from the previous search (reuse)
    tree: Optional[Searcher] = field(default=None, repr=False, compare=False)   # workers=1
    max_nodes: Optional[int] = None  # each tree's node bound (search() sets it)
    root: Optional[State] = field(default=None, repr=False, compare=False)  # the position searched
    #                                 (search() sets it; the principal line is checked in it)
    decided_by: str = "visits"      # what put the first decision first (DECIDED_BY): the
    #                                 most visits; final="value" or "lcb" choosing another
    #                                 than the most visited; "forced": the only legal one

    @property
    def best(self) -> ActionStats:
        return self.actions[0]

    @property
    def best_action(self) -> int:
        return self.actions[0].action

    @property
    def best_action_name(self) -> str:
        return self.actions[0].name

    @property
    def iterations_per_second(self) -> float:
        return self.iterations / self.seconds if self.seconds > 0 else float("inf")

    @property
    def stats(self) -> dict:
        return {"iterations": self.iterations, "seconds": self.seconds,
                "iterations_per_second": self.iterations_per_second,
                "tree_nodes": self.tree_nodes,
                "node_bytes": NODE_BYTES + (VALUE_BYTES if self.minimax > 0 else 0),
                "workers": self.workers, "seed": self.seed, "c": self.c,
                "explore": self.explore, "minimax": self.minimax, "rollout": self.rollout,
                "forced": self.forced, "tree_full": self.tree_full,
                "reused_visits": self.reused_visits}

    @property
    def tree_full(self) -> bool:
        """The tree reached its node bound and stopped growing (the statistics
        still gathered iterations)."""
        return self.max_nodes is not None and self.tree_nodes >= self.max_nodes * self.workers

    def principal_line(self, max_steps: Optional[int] = None) -> list:
        """The searching player's recommended decisions for the rest of the turn:
        the recommended decision (`best_action`), then the most visited child,
        followed while the decision is the searching player's and no chance
        event comes between (a decision followed by a
        chance event, or the end of the turn, is the last one). A step's share
        is its visits over the visits of the decision before it (the first
        step's: over all root visits, the share of `actions`).

        No guess is shown as a step: each step is checked in LINE_WORLDS worlds
        the player cannot tell from the position searched (`root`). The line
        stops before a step that is not legal in all of them, and after a step
        that shows the player something hidden (`reveals`: e.g. the coats drawn
        from under the stack, which decide what may be kept next)."""
        line: list[LineStep] = []
        children = self.turn_tree
        total = sum(a.visits for a in self.actions)
        worlds = self._line_worlds()
        while children and (max_steps is None or len(line) < max_steps):
            key, (visits, reward, _avail, chance_after, mover, kids) = min(
                children.items(),
                key=lambda kv: _rank(kv[0], kv[1][0], kv[1][1] / max(kv[1][0], 1)))
            if not line and self.actions and self.best_action in children:
                # the first step is the recommendation, whatever decided it (final)
                key = self.best_action
                visits, reward, _avail, chance_after, mover, kids = children[key]
            if mover != self.player or visits == 0:
                break
            sure, reveals, ends = _step_in_worlds(worlds, key, self.player)
            if not sure:
                break
            line.append(LineStep(key, action_name(key), visits, visits / max(total, 1),
                                 reward / visits, chance_after, reveals))
            if chance_after or reveals or ends:
                break
            children = kids
            total = visits
        return line

    def _line_worlds(self) -> list:
        """The worlds a line is checked in (none without the position searched)."""
        if self.root is None or self.root.current_player() != self.player:
            return []
        return _line_worlds(self.root, self.player)

    def to_dict(self) -> dict:
        """The answer of the search as JSON-ready data: the one shape every output
        draws from (`ulm suggest --json` and its text, the web's hints), its fields
        documented in docs/library.md ("The answer of a search").
        Every figure comes from the searching player's observation (the search
        redeals what it cannot see); the position searched is not in it."""
        stats = dict(self.stats, max_nodes=self.max_nodes)
        if not math.isfinite(stats["iterations_per_second"]):
            stats["iterations_per_second"] = None       # no time measured: JSON has no inf
        return {
            "player": self.player,
            "seats": list(SEATS[:self.num_players]),
            "best_action": self.best_action,
            "best_action_name": self.best_action_name,
            "principal_line": [s.to_dict() for s in self.principal_line()],
            "actions": [a.to_dict() for a in self.actions],
            "win_probability": list(self.win_probability),
            "expected_score": list(self.expected_score),
            "points_breakdown": self.points_breakdown(),
            "decided_by": self.decided_by,
            "stats": stats,
        }

    def points_breakdown(self) -> Optional[dict]:
        """Why the recommended decision scores more (or less) than the best
        rival one (the next in `actions`): the searching player's expected
        points of each by source (POINT_SOURCES, the sources where either
        scores), their difference, and the totals. None with fewer than two
        decisions with points."""
        ranked = [a for a in self.actions if a.points_by_source]
        if len(ranked) < 2 or ranked[0] is not self.actions[0]:
            return None
        best, rival = ranked[0], ranked[1]
        rows = [{"source": name, "decision": b, "rival": r, "difference": b - r}
                for name, b, r in zip(POINT_SOURCES, best.points_by_source,
                                      rival.points_by_source) if b or r]
        return {"decision": best.name, "rival": rival.name,
                "decision_points": best.expected_score[self.player],
                "rival_points": rival.expected_score[self.player], "by_source": rows}


def _step_in_worlds(worlds: list, action: int, player: int) -> tuple:
    """(legal in every world, shows `player` something hidden, the player's turn
    of decisions ends) for `action` taken in each of `worlds` (changed: the
    action applied where it is legal)."""
    if any(action not in w.legal_actions() for w in worlds):
        return False, False, True
    for w in worlds:
        w.apply_action(action)
    reveals = len({w.information_state_key(player) for w in worlds}) > 1
    ends = any(w.is_terminal() or w.is_chance_node() or w.current_player() != player
               for w in worlds)
    return True, reveals, ends


def _line_worlds(state, player: int) -> list:
    """The LINE_WORLDS worlds `player` cannot tell from `state` that a step is checked in."""
    return [state.resample_from_infostate(player, derive_seed(LINE_SEED, k))
            for k in range(LINE_WORLDS)]


def shows_hidden(state, action: int, player: int) -> bool:
    """Does `action`, the decision of `player` (to move in `state`), show it
    something hidden, so that what may follow depends on what it sees (coats
    drawn from under the stack that others put there)? Checked in LINE_WORLDS
    worlds the player cannot tell from `state`: the player's information after
    the action differs between them. `state` is not changed."""
    worlds = _line_worlds(state, player)
    return _step_in_worlds(worlds, action, player)[1]


def principal_line(result: SearchResult, max_steps: Optional[int] = None) -> list:
    """The searching player's recommended decisions for the rest of the turn, up to
    the next chance event (see SearchResult.principal_line)."""
    return result.principal_line(max_steps)


# ---------------------------------------------------------------------------
# Merging the exports of one or more trees

def _rank(action, visits, value):
    """Sort key of the recommendation: most visits, then best mean value, then action id."""
    return (-visits, -value, action)


def _rank_by_value(actions: list) -> list:
    """final="value": the best mean value among the decisions with at least
    VALUE_MIN_SHARE of the top visits first (a rarely tried decision's mean is
    noise), then the rest by visits."""
    top = max((a.visits for a in actions), default=0)
    sure = [a for a in actions if a.visits >= VALUE_MIN_SHARE * top and a.visits > 0]
    sure.sort(key=lambda a: (-a.value, -a.visits, a.action))
    rest = [a for a in actions if a not in sure]
    return sure + rest


def _rank_by_lcb(actions: list) -> list:
    """final="lcb": the decision of the highest lower confidence bound (estimate
    less LCB_STDEVS x its standard error) among those with at least
    LCB_MIN_SHARE of the top visits first, then the rest by visits. A rival
    overtakes the most visited only when its estimate is higher by more than
    the bounds' difference: by noise alone, rarely."""
    top = max((a.visits for a in actions), default=0)
    sure = [a for a in actions if a.visits >= LCB_MIN_SHARE * top and a.visits > 0]
    if not sure:
        return actions
    best = max(sure, key=lambda a: (_lower_bound(a), a.visits, -a.action))
    return [best] + [a for a in actions if a is not best]


def _lower_bound(a: ActionStats) -> float:
    value = a.value if a.estimate is None else a.estimate
    return value - LCB_STDEVS * a.estimate_error


def _merge_trees(trees: list) -> dict:
    if len(trees) == 1:
        return trees[0]         # one worker: its tree is already in this format
    out: dict = {}
    for tree in trees:
        for key, (visits, reward, avail, chance_after, mover, kids) in tree.items():
            if key not in out:
                out[key] = [0, 0.0, 0, False, mover, []]
            m = out[key]
            m[0] += visits
            m[1] += reward
            m[2] += avail
            m[3] = m[3] or chance_after
            m[5].append(kids)
    for m in out.values():
        m[5] = _merge_trees(m[5]) if any(m[5]) else {}
    return out


def _export(searcher: Searcher) -> dict:
    """A tree's export with the implicit minimax values of the root's decisions
    (`root_values`: action -> values per player; none without minimax)."""
    data = searcher.export()
    try:
        values = searcher.heuristic_values(1)
    except ValueError:              # no minimax weight: no values
        values = {}
    data["root_values"] = {key: v[1] for key, v in values.items() if v[1] is not None}
    return data


def _root_values(exports: list, player: int) -> dict:
    """The minimax value of each root decision for `player`, over the trees that
    have one (weighted by the decision's visits in each tree)."""
    sums: dict = {}
    for e in exports:
        visits = {key: v for key, v, *_ in e["root"]}
        for key, values in e.get("root_values", {}).items():
            weight = max(visits.get(key, 0), 1)
            m = sums.setdefault(key, [0.0, 0])
            m[0] += weight * values[player]
            m[1] += weight
    return {key: total / weight for key, (total, weight) in sums.items()}


def _merge_points(exports: list) -> dict:
    """The root decisions' point sums (`Searcher.root_points`) over the trees."""
    out: dict = {}
    for e in exports:
        for key, (scores, margin, margin_sq, sources) in e.get("points", {}).items():
            m = out.setdefault(key, [[0.0] * len(scores), 0.0, 0.0, [0.0] * len(sources)])
            m[0] = [a + b for a, b in zip(m[0], scores)]
            m[1] += margin
            m[2] += margin_sq
            m[3] = [a + b for a, b in zip(m[3], sources)]
    return out


def merge_exports(exports: list, *, seconds: float, seed: int, c: float,
                  rollout: str, explore: str, final: str = DEFAULT_FINAL,
                  minimax: float = 0.0,
                  margin_weight: float = DEFAULT_MARGIN_WEIGHT) -> SearchResult:
    """Sum the root statistics of independent trees (root parallelism)."""
    first = exports[0]
    n = first["num_players"]
    player = first["player"]
    iterations = sum(e["iterations"] for e in exports)
    win_sum = [sum(e["win_sum"][p] for e in exports) for p in range(n)]
    score_sum = [sum(e["score_sum"][p] for e in exports) for p in range(n)]
    root: dict = {}
    points = _merge_points(exports)
    for e in exports:
        for key, visits, avail, rewards, wins, counted, own in e["root"]:
            m = root.setdefault(key, [0, 0, [0.0] * n, [0.0] * n, 0, 0.0])
            m[0] += visits
            m[1] += avail
            for p in range(n):
                m[2][p] += rewards[p]
                m[3][p] += wins[p]
            m[4] += counted
            m[5] += own
    total = sum(m[0] for m in root.values()) or 1
    values = _root_values(exports, player)
    actions = []
    for key, (visits, avail, rewards, wins, counted, own) in root.items():
        v = max(visits, 1)
        k = max(counted, 1)
        actions.append(ActionStats(
            action=key, name=action_name(key), visits=visits, availability=avail,
            share=visits / total, value=own / v,
            mean_reward=tuple(r / k for r in rewards), win_probability=tuple(w / k for w in wins),
            estimate=decision_estimate(own / v, values.get(key), minimax),
            estimate_error=estimate_error(own / v, visits, margin_weight),
            **decision_points(points.get(key), counted)))
    actions.sort(key=lambda a: _rank(a.action, a.visits, a.value))
    most_visited = actions[0] if actions else None
    if final == "value":
        actions = _rank_by_value(actions)
    elif final == "lcb":
        actions = _rank_by_lcb(actions)
    decided_by = "visits" if not actions or actions[0] is most_visited else final
    it = max(iterations, 1)
    return SearchResult(
        player=player, num_players=n, actions=actions,
        win_probability=tuple(w / it for w in win_sum),
        expected_score=tuple(s / it for s in score_sum),
        iterations=iterations, seconds=seconds,
        tree_nodes=sum(e["tree_nodes"] for e in exports), workers=len(exports),
        seed=seed, c=c, explore=explore, rollout=rollout,
        turn_tree=_merge_trees([e["turn_tree"] for e in exports]),
        reused_visits=sum(e.get("reused_visits", 0) for e in exports), decided_by=decided_by)


# ---------------------------------------------------------------------------
# Running trees

def _grow(searcher: Searcher, iterations, seconds, report) -> None:
    """Grow one tree to its budget, calling report(done) after each chunk if given."""
    start = _time.monotonic()
    done = 0
    while True:
        left_it = None if iterations is None else iterations - done
        left_s = None if seconds is None else seconds - (_time.monotonic() - start)
        if left_it is not None and left_it <= 0:
            return
        if left_s is not None and left_s <= 0 and done > 0:
            return
        if report is None:
            done += searcher.run(left_it, left_s)
            return
        chunk = PROGRESS_CHUNK_SECONDS
        if left_s is not None:
            chunk = min(left_s, PROGRESS_CHUNK_SECONDS)     # <= 0: one iteration, then stop
        done += searcher.run(left_it, chunk)
        report(done)


def _end_with_parent(parent: int) -> None:
    """Have the kernel end this process when its parent ends (Linux), so that no
    worker outlives a search whose process was terminated."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)   # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        return
    if os.getppid() != parent:      # it ended before the request was in place
        os._exit(1)


def _worker_main(conn, state, params, root_action, iterations, deadline, counter, index,
                 parent):
    # the parent handles Ctrl-C and ends its workers with SIGTERM: a worker
    # neither prints a KeyboardInterrupt of its own nor outlives the search
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    _end_with_parent(parent)
    try:
        searcher = Searcher(state, params, root_action=root_action)

        def report(done):
            counter[index] = done

        seconds = None if deadline is None else max(deadline - _time.monotonic(), 0.0)
        _grow(searcher, iterations, seconds, report)
        conn.send(("ok", _export(searcher)))
    except BaseException:  # pragma: no cover - reported to the parent
        conn.send(("error", traceback.format_exc()))
    finally:
        conn.close()
        # a forked child ends here, skipping exit handlers and stdio flushes: a
        # lock another thread of the parent held at the fork would block them
        os._exit(0)


def search_params(params: Optional[SearchParams] = None, iterations: Optional[int] = None,
                  time: Optional[float] = None, **options) -> SearchParams:
    """`params` (default: SearchParams()) with the options given as keyword
    arguments (SearchParams' fields; evaluation= may name the evaluation's
    kind, weights= and model= its weights and model), checked once. A budget
    given (iterations or time) replaces the params' budget."""
    if params is None:
        params = SearchParams(iterations=iterations, time=time)
    elif not isinstance(params, SearchParams):
        raise ValueError(f"params: must be a SearchParams, got {type(params).__name__}")
    elif iterations is not None or time is not None:
        options.update(iterations=iterations, time=time)
    return params.replace(**options) if options else params


def search(state, iterations: Optional[int] = None, time: Optional[float] = None, *,
           params: Optional[SearchParams] = None,
           progress: Optional[Callable[[int, float], None]] = None,
           tree: Optional[Searcher] = None, root_action: Optional[int] = None,
           **options) -> SearchResult:
    """Search the decision of the player to move in `state` (ISMCTS).

    params: every option of the search, a `mcts.searcher.params.SearchParams` (its
    fields are commented there: budget, selection, playout, evaluation, tree,
    seed); default SearchParams(). The options may also be given as keyword
    arguments (`search(state, 2000, seed=3, c=1.2)`), with the budget
    iterations / time first: they replace those of `params`, and all are
    checked once (ValueError naming the option). With the same seed,
    iteration budget and workers the result is the same exactly.

    progress(iterations_done, seconds_elapsed) is called about every 0.1 s.
    tree: a Searcher re-rooted at `state` (`Searcher.reroot`) to grow further
    instead of a new one (tree reuse; workers=1 only).
    root_action: search only this decision at the root (its estimate from the
    same root and budget; the review of a game judges a decision played by it).

    Each tree stops growing at max_nodes (`SearchResult.tree_full`) while its
    statistics go on to the budget. A decision with one legal choice is
    searched all the same (`forced` is set): its estimates are those of the
    position behind it.
    """
    params = search_params(params, iterations, time, **options)
    iterations, time = params.iterations, params.time
    players = state.num_players()
    if tree is not None and params.workers != 1:
        raise ValueError("tree: reuse needs workers=1")
    legal = state.legal_actions() if state.current_player() >= 0 else []
    if root_action is not None and root_action not in legal:
        raise ValueError(f"root_action: {root_action!r} is not a legal decision here")
    workers, seed = params.workers, params.seed
    if iterations is not None and workers > iterations:
        workers = iterations
    start = _time.monotonic()
    root = -1 if root_action is None else int(root_action)
    searcher = None
    if workers == 1:
        searcher = tree if tree is not None else Searcher(state, params, root_action=root)
        report = None
        if progress is not None:
            def report(done):
                progress(done, _time.monotonic() - start)
        _grow(searcher, iterations, time, report)
        exports = [_export(searcher)]
    else:
        exports = _run_workers(state, params, root, iterations, time, workers, progress, start)
    minimax = params.resolved_minimax(players)
    result = merge_exports(exports, seconds=_time.monotonic() - start, seed=seed,
                           c=params.resolved_c(players), rollout=params.rollout,
                           final=params.final, explore=params.explore, minimax=minimax,
                           margin_weight=float(params.margin_weight))
    result.minimax = minimax
    result.forced = len(legal) == 1
    if result.forced:
        result.decided_by = "forced"
    if params.determinize:          # searched from the player's knowledge: check its line
        result.root = state.clone()
    result.max_nodes = params.max_nodes
    if tree is not None:
        # a reused subtree may hold decisions of worlds where the kept decision
        # revealed something else (coats taken from under the stack are no chance
        # event): recommend only what is legal here
        allowed = set(legal)
        kept = [a for a in result.actions if a.action in allowed]
        if kept and len(kept) < len(result.actions) and not result.forced:
            # what decided, among the decisions kept
            most = max(kept, key=lambda a: (a.visits, a.value, -a.action))
            result.decided_by = "visits" if kept[0] is most else params.final
        result.actions = kept or result.actions
    result.tree = searcher
    return result


WORKER_EXIT_SECONDS = 2.0


def _run_workers(state, params, root_action, iterations, time, workers, progress, start):
    Searcher(state, params, root_action=root_action)    # check the root here, not in the children
    ctx = multiprocessing.get_context("fork")
    counter = ctx.RawArray("q", workers)
    # one deadline for all: the time budget covers forking, searching and merging
    deadline = None if time is None else start + time - min(MERGE_RESERVE * time, 0.05)
    procs, conns = [], []
    results: dict = {}
    try:
        for i in range(workers):
            share = None if iterations is None else iterations // workers + (i < iterations % workers)
            tree_params = params.replace(seed=derive_seed(params.seed, i))
            recv, send = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_worker_main,
                               args=(send, state, tree_params, root_action, share, deadline,
                                     counter, i, os.getpid()),
                               daemon=True)
            procs.append(proc)
            conns.append(recv)
            # SIGINT held back while forking: the child ignores it before it can arrive
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            try:
                proc.start()
            finally:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
            send.close()
        pending = {conn: i for i, conn in enumerate(conns)}
        while pending:
            ready = _wait_connections(list(pending), timeout=PROGRESS_CHUNK_SECONDS)
            for conn in ready:
                i = pending.pop(conn)
                try:
                    status, payload = conn.recv()
                except EOFError:
                    status, payload = "error", f"worker {i} ended without a result"
                if status != "ok":
                    raise RuntimeError(f"search worker {i} failed:\n{payload}")
                results[i] = payload
                counter[i] = payload["iterations"]
            if progress is not None:
                progress(sum(counter), _time.monotonic() - start)
    finally:
        for proc in procs:
            if proc.pid is None:        # interrupted before it started
                continue
            if proc.is_alive() and len(results) < workers:
                proc.terminate()
            proc.join(timeout=WORKER_EXIT_SECONDS)
            if proc.is_alive():     # its result is in (or the search is over): never wait on it
                proc.kill()
                proc.join()
        for conn in conns:
            conn.close()
    return [results[i] for i in range(workers)]
