"""Review a finished (or unfinished) game: the searcher's view of one seat's decisions.

    >>> from mcts.play.annotate import annotate
    >>> report = annotate(record_data, seat=0, iterations=2000)
    >>> for note in report.mistakes()[:3]:
    ...     print(note.index, note.played, note.best, note.loss)
    >>> report.plot("red.png")

For every decision of the seat, a search from what that player knew then (the
searcher redeals what the player could not see) gives the searcher's choice and
its estimate, the estimate of the decision played, and the loss between them (0
when the played decision is the searcher's). Each decision's
search has its own seed, derived from `seed` and the decision's index, so a
report repeats exactly for the same record, seat, budget and seed.

A decision is judged by the figure the search ranks decisions by, its
estimate (`mcts.searcher.search.decision_estimate`: the mean result through the
decision, about the chance to win plus a little for the score margin, mixed
with its implicit minimax value), so that a review agrees with a hint of the
same budget. Where the searcher chose the decision played, or tried it about
as often (at least SAME_SEARCH_SHARE of its choice's visits), its estimate
comes from that same search ("same search"): the same tree and worlds judge
both. Otherwise the decision played gets a search of its own with the same
budget from the same root, searching that decision alone there ("own
search", `search(..., root_action=...)`): whatever follows it, forced steps,
chance or other seats, is searched as the searcher's choice was. The loss is
the searcher's estimate minus the played decision's; `Annotation.uncertainty`
is its standard error (`mcts.searcher.search.estimate_error` of each).
The win probabilities (`win_before`, `best_win`, `played_win`) are the mean
win shares of the iterations, for the picture of the game.

A mistake is a loss beyond noise: more than `mistake_points` percentage points
(default 1) and more than `mistake_errors` times its standard error (default
2). A smaller loss is "within noise": listed with the decisions, not among the
mistakes. A decision with one legal choice (forced) is never a mistake: loss 0.

Each decision's loss is also given in points of the score sheet
(`Annotation.points_loss`): the searcher's choice's expected margin over the
best other seat minus the decision played's (`ActionStats.margin`), with its
standard error. With by="points" the mistakes are found and ranked by it: a
loss of more than MISTAKE_SCORE points and more than `mistake_errors` times
its standard error. So a game already decided, where every alternative wins
(or loses) in every iteration, still shows what its mistakes cost.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Callable, Optional

import math

from ulm import derive_seed
from ulm.records import GameRecord, RecordError, replay

from mcts.searcher.search import action_name, search, search_params

__all__ = ["Annotation", "AnnotationReport", "annotate", "decision_seed", "check_thresholds",
           "check_by", "BY", "MISTAKE_POINTS", "MISTAKE_ERRORS", "MISTAKE_SCORE"]

SAME_SEARCH_SHARE = 0.1    # a decision played with this share of the choice's visits is
#                            judged in the same search
MISTAKE_POINTS = 1.0    # a mistake loses more than this many percentage points ...
MISTAKE_ERRORS = 2.0    # ... and more than this many standard errors of the loss
MAX_MISTAKE_POINTS = 100.0
BY = ("chance", "points")   # what a review finds and ranks mistakes by: the loss in the
#                             estimate (about the win chance) or in points of the score sheet
MISTAKE_SCORE = 1.0         # by points: a mistake loses more than this many points ...


def check_by(by) -> str:
    """`by` if it is one of BY, else ValueError naming it."""
    if not isinstance(by, str) or by not in BY:
        raise ValueError(f"by: expected one of {', '.join(BY)}, got {by!r}")
    return by
MAX_MISTAKE_ERRORS = 100.0


def check_thresholds(points, errors) -> tuple:
    """(points, errors) as floats if each is a number from 0 to its bound (a loss
    is at most 100 points), else ValueError naming it."""
    for name, value, top in (("mistake_points", points, MAX_MISTAKE_POINTS),
                             ("mistake_errors", errors, MAX_MISTAKE_ERRORS)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not 0 <= value <= top:
            raise ValueError(f"{name}: must be a number from 0 to {top:g}, got {value!r}")
    return float(points), float(errors)


def decision_seed(seed: int, index: int) -> int:
    """The seed of the search at decision `index` of a record."""
    return derive_seed(seed, index)


@dataclass
class Annotation:
    """The searcher's view of one decision of the seat."""
    index: int                       # position in the record's decisions (0-based)
    round: int                       # 1..10
    played: str
    best: str                        # the searcher's choice (most visited)
    win_before: float                # the seat's win probability before the decision
    best_win: float                  # ... after the searcher's choice
    played_win: float                # ... after the decision played
    played_visits: int               # the iterations behind played_win
    best_visits: int                 # ... behind best_win
    legal: int                       # number of legal decisions
    played_action: int               # the decisions' numbers (ulm.ACTION_NAMES)
    best_action: int
    played_estimate: str = "same search"    # or "own search": the decision played searched
    #                                          alone at the root with the same budget
    best_value: Optional[float] = None      # the searcher's choice's estimate (the figure
    played_value: Optional[float] = None    # the search ranks by), and the decision played's;
    best_error: Optional[float] = None      # their standard errors (None: from the win
    played_error: Optional[float] = None    # shares, as a report made before had them)
    best_margin: Optional[float] = None     # the searcher's choice's and the decision played's
    played_margin: Optional[float] = None   # expected margin over the best other seat in
    best_margin_error: Optional[float] = None    # points, with their standard errors (None:
    played_margin_error: Optional[float] = None  # a report made before had none)

    @property
    def forced(self) -> bool:
        return self.legal == 1

    @property
    def loss(self) -> float:
        """What the decision played gives away by the searcher's estimate (0 for the
        searcher's own choice and for a forced decision)."""
        if self.played_action == self.best_action or self.forced:
            return 0.0
        best = self.best_win if self.best_value is None else self.best_value
        played = self.played_win if self.played_value is None else self.played_value
        return max(0.0, best - played)

    @property
    def uncertainty(self) -> float:
        """The standard error of the loss from the visits behind each estimate (a
        result per iteration lies about in [0, 1]: its variance is at most p(1 - p));
        0 where the two estimates are one."""
        if self.played_action == self.best_action or self.forced:
            return 0.0
        best = self.best_error if self.best_error is not None else \
            math.sqrt(_variance(self.best_win, self.best_visits))
        played = self.played_error if self.played_error is not None else \
            math.sqrt(_variance(self.played_win, self.played_visits))
        return math.sqrt(best * best + played * played)

    @property
    def points_loss(self) -> Optional[float]:
        """What the decision played gives away in points of the score sheet: the
        searcher's choice's expected margin over the best other seat minus the
        decision played's (0 for the searcher's own choice and for a forced
        decision; None without the margins)."""
        if self.played_action == self.best_action or self.forced:
            return 0.0
        if self.best_margin is None or self.played_margin is None:
            return None
        return max(0.0, self.best_margin - self.played_margin)

    @property
    def points_uncertainty(self) -> Optional[float]:
        """The standard error of `points_loss` (the margins' errors added as
        independent ones; None without the margins)."""
        if self.played_action == self.best_action or self.forced:
            return 0.0
        if self.points_loss is None:
            return None
        return math.hypot(self.best_margin_error or 0.0, self.played_margin_error or 0.0)

    def lost(self, by: str = "chance") -> float:
        """The loss `by` the estimate (\"chance\") or in points (0 without them)."""
        return self.loss if by == "chance" else (self.points_loss or 0.0)

    def is_mistake(self, points: float = MISTAKE_POINTS, errors: float = MISTAKE_ERRORS,
                   by: str = "chance") -> bool:
        """A loss beyond noise: more than `points` percentage points and more than
        `errors` times its standard error; by="points", more than MISTAKE_SCORE
        points of the score sheet and `errors` times its standard error."""
        if by == "points":
            loss, error = self.points_loss, self.points_uncertainty   # both None or neither
            return loss is not None and error is not None and loss > MISTAKE_SCORE and \
                loss > errors * error
        return self.loss > points / 100.0 and self.loss > errors * self.uncertainty

    def to_dict(self, points: float = MISTAKE_POINTS, errors: float = MISTAKE_ERRORS,
                by: str = "chance") -> dict:
        data = asdict(self)
        mistake = self.is_mistake(points, errors, by)
        data.update(loss=self.loss, uncertainty=self.uncertainty, forced=self.forced,
                    points_loss=self.points_loss, points_uncertainty=self.points_uncertainty,
                    mistake=mistake, within_noise=self.lost(by) > 0 and not mistake)
        return data


def _variance(p: float, visits: int) -> float:
    """The variance of a mean win share over `visits` iterations, at most p(1 - p)
    / visits, with p pulled towards 1/2 as by one won and one lost iteration
    more: an estimate of 0 or 1 from few visits is not certain."""
    p = (p * visits + 1.0) / (visits + 2.0)
    return p * (1.0 - p) / max(visits, 1)


@dataclass
class AnnotationReport:
    seat: int
    players: int
    iterations: Optional[int]
    time: Optional[float]
    seed: int
    notes: list = field(default_factory=list)
    final_returns: Optional[list] = None      # win shares at the end (None if unfinished)
    mistake_points: float = MISTAKE_POINTS    # a mistake: a loss of more points than this
    mistake_errors: float = MISTAKE_ERRORS    # and of more standard errors than this
    by: str = "chance"                        # mistakes by the estimate's loss, or "points"

    def _is_mistake(self, note) -> bool:
        return note.is_mistake(self.mistake_points, self.mistake_errors, self.by)

    def mistakes(self) -> list:
        """Decisions with a loss beyond noise (`Annotation.is_mistake` with this
        report's thresholds and `by`), the biggest first (never a forced one)."""
        bad = [n for n in self.notes if self._is_mistake(n)]
        return sorted(bad, key=lambda n: (-n.lost(self.by), n.index))

    def within_noise(self) -> list:
        """Decisions with a loss that is no mistake (within noise), in order."""
        return [n for n in self.notes if n.lost(self.by) > 0 and not self._is_mistake(n)]

    def total_loss(self) -> float:
        """The losses of the mistakes, summed (a loss within noise is not counted)."""
        return sum(n.loss for n in self.mistakes())

    def total_points_loss(self) -> float:
        """The mistakes' losses in points of the score sheet, summed."""
        return sum(n.points_loss or 0.0 for n in self.mistakes())

    def to_dict(self) -> dict:
        return {"seat": self.seat, "players": self.players, "iterations": self.iterations,
                "time": self.time, "seed": self.seed, "final_returns": self.final_returns,
                "mistake_points": self.mistake_points, "mistake_errors": self.mistake_errors,
                "total_loss": self.total_loss(), "by": self.by,
                "total_points_loss": self.total_points_loss(),
                "decisions": [n.to_dict(self.mistake_points, self.mistake_errors, self.by)
                              for n in self.notes],
                "mistakes": [n.index for n in self.mistakes()],
                "within_noise": [n.index for n in self.within_noise()]}

    def plot(self, path, title: str | None = None, mark: int = 3) -> None:
        """A PNG of the seat's win probability over the game (matplotlib); the `mark`
        biggest mistakes are labelled."""
        from ulm.extras import require
        matplotlib = require("matplotlib", "plot", "the plot of an annotation")
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        from ulm import SEATS
        xs = [n.index + 1 for n in self.notes]
        fig, ax = plt.subplots(figsize=(9, 4), dpi=110)
        ax.plot(xs, [100 * n.win_before for n in self.notes], "-o", ms=3, lw=1.6,
                label="before the decision", color="#1f5fbf")
        played = [(n.index + 1, 100 * n.played_win) for n in self.notes if n.played_action != n.best_action]
        ax.plot([x for x, _ in played], [y for _, y in played], "x", ms=5,
                label="after the decision played", color="#d62728")
        labels = [ax.annotate(f"{n.played}\n(loss {100 * n.loss:.0f} points{_vp(n)})",
                              (n.index + 1, 100 * n.played_win), textcoords="offset points",
                              xytext=(0, -14), ha="center", va="top", fontsize=7,
                              color="#d62728",
                              arrowprops=dict(arrowstyle="-", color="#d62728", lw=0.6))
                  for n in self.mistakes()[:mark]]
        rounds: dict[int, int] = {}
        for n in self.notes:
            rounds.setdefault(n.round, n.index + 1)
        for r, x in rounds.items():
            ax.axvline(x - 0.5, color="#dddddd", lw=0.6, zorder=0)
            ax.text(x - 0.3, 101, f"R{r}", fontsize=7, color="#888888", va="bottom")
        if self.final_returns is not None and xs:
            ax.plot([xs[-1] + 2], [100 * self.final_returns[self.seat]], "*", ms=11,
                    color="#2e9e3e", label="result (win share)")
        ax.axhline(100 / self.players, color="#999999", lw=0.8, ls="--",
                   label=f"1/{self.players} (even chances)")
        ax.set_ylim(0, 108)
        ax.set_xlabel("decision number in the record")
        ax.set_ylabel(f"{SEATS[self.seat]}'s win probability (%)")
        budget = (f"{self.iterations} iteration{'s' if self.iterations != 1 else ''}"
                  if self.iterations else f"{self.time} s")
        ax.set_title(title or f"{SEATS[self.seat]}'s win probability, searcher {budget} a decision",
                     fontsize=10)
        legend = ax.legend(fontsize=7, loc="lower left")
        fig.tight_layout()
        _place_labels(fig, ax, labels, [legend])
        _save_figure(fig, path)
        plt.close(fig)


def _vp(note) -> str:
    """', 1.5 VP': a note's loss in victory points for a label ('' without it)."""
    return "" if note.points_loss is None else f", {note.points_loss:.1f} VP"


# where a label may go, in points from its mistake: below or above it, then further away
# and to the sides, nearest first
_LABEL_OFFSETS = sorted(((dx, dy) for dy in (-14, 14, -40, 40, -66, 66, -92, 92, 118, 144, 170)
                         for dx in (0, -60, 60, -120, 120)),
                        key=lambda o: (abs(o[1]), abs(o[0])))


def _place_labels(fig, ax, labels, obstacles) -> None:
    """Move each label (biggest mistake first) to the nearest place where it covers no
    label placed before nor an obstacle (the legend), inside the axes when it can be;
    measured on the drawn figure (label boxes in display units)."""
    from matplotlib.text import Text
    fig.canvas.draw()                     # the legend is placed when drawn
    renderer = fig.canvas.get_renderer()
    area = ax.get_window_extent(renderer)
    taken = [o.get_window_extent(renderer) for o in obstacles]

    def box_at(label, offset):
        label.xyann = offset
        label.set_verticalalignment("top" if offset[1] < 0 else "bottom")
        return Text.get_window_extent(label, renderer)     # the text, not its line

    for label in labels:
        choice = None
        for offset in _LABEL_OFFSETS:
            box = box_at(label, offset)
            if any(box.overlaps(t) for t in taken):
                continue
            if area.x0 <= box.x0 and box.x1 <= area.x1 and area.y0 <= box.y0 and \
                    box.y1 <= area.y1:
                choice = offset
                break
            if choice is None:
                choice = offset                   # free, though outside the axes
        taken.append(box_at(label, choice or _LABEL_OFFSETS[0]))


def _save_figure(fig, path) -> None:
    """Save a figure whole or not at all."""
    import io

    from ulm.jsonfile import write_atomically
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    write_atomically(path, buf.getvalue())


def annotate(record, seat: int, iterations: Optional[int] = None, time: Optional[float] = None,
             seed: int = 0, progress: Optional[Callable[[int, int], None]] = None,
             mistake_points: float = MISTAKE_POINTS, mistake_errors: float = MISTAKE_ERRORS,
             by: str = "chance", **search_options) -> AnnotationReport:
    """Annotate every decision of `seat` in `record` (a GameRecord or parsed record data).

    The search of each decision: `search_options` (params=SearchParams and/or
    its fields, as mcts.searcher.search takes them) with the budget iterations / time
    (none of them: 2000 iterations), checked before the first search.

    progress(done, total) is called after each decision searched. A mistake is a
    loss of more than `mistake_points` percentage points and more than
    `mistake_errors` standard errors (check_thresholds)."""
    mistake_points, mistake_errors = check_thresholds(mistake_points, mistake_errors)
    by = check_by(by)
    if isinstance(record, dict):
        record = replay(record)
    if not isinstance(record, GameRecord):
        raise TypeError("record: a GameRecord or the parsed JSON of a record")
    n = record.game.num_players
    if not 0 <= seat < n:
        raise RecordError(f"seat: no seat {seat} in a {n}-player game")
    base = search_options.pop("params", None)
    if iterations is None and time is None and base is None:
        iterations = 2000
    params = search_params(base, iterations, time, **search_options)
    iterations, time = params.iterations, params.time
    game = GameRecord(players=n, variant=record.game.variant, seed=record.seed,
                      board=record.board)
    state = game.state
    todo = sum(1 for _ in _own_decisions(record, seat))
    report = AnnotationReport(seat, n, iterations, time, seed, mistake_points=mistake_points,
                              mistake_errors=mistake_errors, by=by)
    done = 0
    for index, action in enumerate(record.decisions):
        if state.current_player() == seat:
            result = search(state, params=params.replace(seed=decision_seed(seed, index)))
            best = result.best
            played, estimate = _same_search(result, action), "same search"
            if played is None:
                # the decision played, searched alone at the same root with the same budget
                own = search(state, params=params.replace(
                    seed=decision_seed(seed, index + 1_000_003)), root_action=action)
                played, estimate = own.best, "own search"
            report.notes.append(Annotation(
                index=index, round=state.round() + 1, played=action_name(action),
                best=best.name, win_before=result.win_probability[seat],
                best_win=best.win_probability[seat], played_win=played.win_probability[seat],
                played_visits=played.visits, best_visits=best.visits,
                legal=len(state.legal_actions()), played_action=action,
                best_action=best.action, played_estimate=estimate,
                best_value=best.estimate, played_value=played.estimate,
                best_error=best.estimate_error, played_error=played.estimate_error,
                best_margin=best.margin, played_margin=played.margin,
                best_margin_error=best.margin_error, played_margin_error=played.margin_error))
            done += 1
            if progress is not None:
                progress(done, todo)
        game.apply(action)
    if state.is_terminal():
        report.final_returns = state.returns()
    return report


def _same_search(result, action: int):
    """The decision played's statistics in the searcher's own search when it was tried
    there about as the searcher's choice was (at least SAME_SEARCH_SHARE of its visits):
    then the two estimates come from the same tree and worlds. None: a rarely tried
    decision, whose estimate there is noise."""
    here = next((a for a in result.actions if a.action == action), None)
    if here is None or here.visits < SAME_SEARCH_SHARE * result.best.visits:
        return None
    return here


def _own_decisions(record: GameRecord, seat: int):
    """The indices of `seat`'s decisions (replaying the record once more: cheap)."""
    game = GameRecord(players=record.game.num_players, variant=record.game.variant,
                      seed=record.seed, board=record.board)
    for index, action in enumerate(record.decisions):
        if game.state.current_player() == seat:
            yield index
        game.apply(action)
