"""Review a finished (or unfinished) game: the searcher's view of one seat's decisions.

    >>> from mcts.annotate import annotate
    >>> report = annotate(record_data, seat=0, iterations=2000)
    >>> for note in report.mistakes()[:3]:
    ...     print(note.index, note.played, note.best, note.loss)
    >>> report.plot("red.png")

For every decision of the seat, a search from what that player knew then (the
searcher redeals what the player could not see) gives the searcher's choice and
its win probability, the win probability of the decision played, and the loss
between them (0 when the played decision is the searcher's). Each decision's
search has its own seed, derived from `seed` and the decision's index, so a
report repeats exactly for the same record, seat, budget and seed.

The win probabilities are the searcher's estimates. The decision played is
judged by the search's own statistics when the search tried it often enough
(at least a quarter of the visits of its choice); otherwise by a search of the
same budget from the position after it (when a chance event follows, it has
only the root statistics, however few, and none if never tried: loss None).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Callable, Optional

from ulm import ACTION_NAMES
from ulm.records import GameRecord, RecordError, replay

from ulm import derive_seed
from mcts.search import search

__all__ = ["Annotation", "AnnotationReport", "annotate", "decision_seed"]


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
    played_win: Optional[float]      # ... after the decision played (None: never tried)
    played_visits: int
    best_visits: int
    legal: int                       # number of legal decisions
    played_estimate: str = "root"    # "root": the search's statistics of the decision;
    #                                  "search after": a search from the position after it

    @property
    def loss(self) -> Optional[float]:
        """Win probability given away by the decision played (0 for the searcher's own)."""
        if self.played == self.best:
            return 0.0
        if self.played_win is None:
            return None
        return max(0.0, self.best_win - self.played_win)

    def to_dict(self) -> dict:
        data = asdict(self)
        data["loss"] = self.loss
        return data


@dataclass
class AnnotationReport:
    seat: int
    players: int
    iterations: Optional[int]
    time: Optional[float]
    seed: int
    notes: list = field(default_factory=list)
    final_returns: Optional[list] = None      # win shares at the end (None if unfinished)

    def mistakes(self) -> list:
        """Decisions with a loss, the biggest first."""
        bad = [n for n in self.notes if n.loss]
        return sorted(bad, key=lambda n: (-n.loss, n.index))

    def total_loss(self) -> float:
        return sum(n.loss or 0.0 for n in self.notes)

    def to_dict(self) -> dict:
        return {"seat": self.seat, "players": self.players, "iterations": self.iterations,
                "time": self.time, "seed": self.seed, "final_returns": self.final_returns,
                "total_loss": self.total_loss(),
                "decisions": [n.to_dict() for n in self.notes],
                "mistakes": [n.index for n in self.mistakes()]}

    def plot(self, path, title: str | None = None, mark: int = 3) -> None:
        """A PNG of the seat's win probability over the game (matplotlib); the `mark`
        biggest mistakes are labelled."""
        from ulm.extras import require
        matplotlib = require("matplotlib", "plot", "the plot of an annotation")
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        from ulm._fastcore import SEATS
        xs = [n.index + 1 for n in self.notes]
        fig, ax = plt.subplots(figsize=(9, 4), dpi=110)
        ax.plot(xs, [100 * n.win_before for n in self.notes], "-o", ms=3, lw=1.6,
                label="before the decision", color="#1f5fbf")
        played = [(n.index + 1, 100 * n.played_win) for n in self.notes if n.played_win is not None]
        ax.plot([x for x, _ in played], [y for _, y in played], "x", ms=5,
                label="after the decision played", color="#d62728")
        for n in self.mistakes()[:mark]:
            ax.annotate(f"{n.played}\n(win -{100 * n.loss:.0f}%)", (n.index + 1, 100 * n.played_win),
                        textcoords="offset points", xytext=(0, -28), ha="center", fontsize=7,
                        color="#d62728", arrowprops=dict(arrowstyle="-", color="#d62728", lw=0.6))
        rounds = {}
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
        budget = f"{self.iterations} iterations" if self.iterations else f"{self.time} s"
        ax.set_title(title or f"{SEATS[self.seat]}'s win probability, searcher {budget} a decision",
                     fontsize=10)
        ax.legend(fontsize=7, loc="lower left")
        fig.tight_layout()
        _save_figure(fig, path)
        plt.close(fig)


def _save_figure(fig, path) -> None:
    """Save a figure whole or not at all."""
    import io

    from ulm.jsonfile import write_atomically
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    write_atomically(path, buf.getvalue())


def annotate(record, seat: int, iterations: Optional[int] = None, time: Optional[float] = None,
             seed: int = 0, progress: Optional[Callable[[int, int], None]] = None,
             **search_options) -> AnnotationReport:
    """Annotate every decision of `seat` in `record` (a GameRecord or parsed record data).

    progress(done, total) is called after each decision searched."""
    if isinstance(record, dict):
        record = replay(record)
    if not isinstance(record, GameRecord):
        raise TypeError("record: a GameRecord or the parsed JSON of a record")
    n = record.game.num_players
    if not 0 <= seat < n:
        raise RecordError(f"seat: no seat {seat} in a {n}-player game")
    if iterations is None and time is None:
        iterations = 2000
    game = GameRecord(players=n, variant=record.game.variant, seed=record.seed,
                      board=record.board)
    state = game.state
    todo = sum(1 for _ in _own_decisions(record, seat))
    report = AnnotationReport(seat, n, iterations, time, seed)
    done = 0
    for index, action in enumerate(record.decisions):
        if state.current_player() == seat:
            result = search(state, iterations=iterations, time=time,
                            seed=decision_seed(seed, index), **search_options)
            stats = {a.action: a for a in result.actions}
            best = result.best
            played = stats.get(action)
            played_win = played.win_probability[seat] if played and played.visits else None
            estimate = "root"
            if action != best.action and (played is None or played.visits < best.visits / 4):
                # rarely tried at the root: a search of its own from the position after it
                after = state.clone()
                after.apply_action(action)
                if after.current_player() >= 0:
                    again = search(after, iterations=iterations, time=time,
                                   seed=decision_seed(seed, index + 1_000_003), **search_options)
                    played_win, estimate = again.win_probability[seat], "search after"
            report.notes.append(Annotation(
                index=index, round=state.raw()["round"] + 1, played=ACTION_NAMES[action],
                best=best.name, win_before=result.win_probability[seat],
                best_win=best.win_probability[seat], played_win=played_win,
                played_visits=played.visits if played else 0, best_visits=best.visits,
                legal=len(state.legal_actions()), played_estimate=estimate))
            done += 1
            if progress is not None:
                progress(done, todo)
        game.apply(action)
    if state.is_terminal():
        report.final_returns = state.returns()
    return report


def _own_decisions(record: GameRecord, seat: int):
    """The indices of `seat`'s decisions (replaying the record once more: cheap)."""
    game = GameRecord(players=record.game.num_players, variant=record.game.variant,
                      seed=record.seed, board=record.board)
    for index, action in enumerate(record.decisions):
        if game.state.current_player() == seat:
            yield index
        game.apply(action)
