"""`ulm play --human SEAT`: a person plays against bots in the terminal.

The loop only reads and prints; the game itself (bots, undo, chance events,
the record) is mcts.play.session.PlaySession.
"""
from __future__ import annotations

import os
import shutil

import click

from cli import InputError
from cli.suggest_cmd import _progress_bar
from mcts.play.levels import DEFAULT_LEVEL, described
from mcts.play.session import PlaySession
from ulm import SEATS
from ulm.decisions import DecisionError, decision_label, decision_words
from ulm.follow import parse_decision
from ulm.numbers import is_whole_text
from ulm.positions import state_to_position
from ulm.render import plural, render_position

DEFAULT_RECORD = "ulm-game.json"
COMMANDS_HELP = ("Type the number or the name of a decision; ? asks the searcher for a hint, "
                 "u undoes your last decision, b shows the board, q stops (the game is saved).")


def default_record_path(folder: str = ".") -> str:
    """ulm-game.json, or ulm-game-2.json ... when it exists: never overwrite a game."""
    path = os.path.join(folder, DEFAULT_RECORD)
    k = 2
    while os.path.exists(path):
        path = os.path.join(folder, f"ulm-game-{k}.json")
        k += 1
    return path


def seat_plan(humans: list[int], specs: list[str], players: int | None) -> list[str]:
    """The seats: people where asked, bot specs in the others (in order, repeated)."""
    specs = specs or [f"level:{DEFAULT_LEVEL}"]
    n = players or max(max(humans) + 1, len(humans) + len(specs), 2)
    if not 2 <= n <= 4:
        raise InputError(f"--players: Ulm is for 2, 3 or 4 players, got {n}")
    for h in humans:
        if h >= n:
            raise InputError(f"--human: no seat {SEATS[h]} in a {n}-player game")
    seats, k = [], 0
    for p in range(n):
        if p in humans:
            seats.append("human")
        else:
            seats.append(specs[k % len(specs)])
            k += 1
    return seats


def _columns(items: list[str], width: int | None = None) -> list[str]:
    """The menu in columns as wide as its longest entry and two blanks apart, as many
    as fit the terminal's width (at most 100 characters): entries never run together."""
    if width is None:
        width = min(shutil.get_terminal_size((100, 24)).columns, 100) - 2
    col = max((len(s) for s in items), default=0) + 2
    per_row = max(1, (width + 2) // col)
    rows = []
    for i in range(0, len(items), per_row):
        rows.append("".join(f"{s:<{col}}" for s in items[i:i + per_row]).rstrip())
    return rows


def deal_words(game: PlaySession, resumed: bool = False) -> str:
    """How the cards are dealt, as the person may be told: the seed deals every card, so
    it is named only when they gave it (--seed, or the record they go on with)."""
    seed = game.shown_seed()
    if seed is None:
        return "a secret deal (the record names its seed when the game is over)"
    if resumed or game.state.is_terminal():
        return f"seed {seed}"
    return f"seed {seed} (a seed given, not secret: anyone with it knows every card to come)"


def play_human(seats, seed, variant, board, record_path, hint_iterations, resume=None):
    """The terminal game; `seed` None deals with a secret seed; `resume`: a saved game's
    record (its seats are `seats`; the person holds it, seed and all)."""

    if resume is not None:
        game = PlaySession.resume(resume)
        seats, variant = game.seats, game.record.game.variant
    else:
        game = PlaySession(seats, seed=seed, variant=variant, board=board)
    humans = [p for p, s in enumerate(seats) if s == "human"]
    record_path = record_path or default_record_path()
    resumed = (f", resumed after {plural(len(game.record.decisions), 'decision')}"
               if resume is not None else "")
    deal = deal_words(game, resume is not None)
    click.echo(f"Ulm, {len(seats)} players, {variant} game, {deal}{resumed}.")
    for p, s in enumerate(seats):
        click.echo(f"  {SEATS[p]}: {'you' if s == 'human' else described(s)}")
    click.echo(COMMANDS_HELP)
    click.echo(f"The game will be saved to {record_path}.")
    shown = None
    bot_turn: list[str] = []

    def show_board(p):
        pos = state_to_position(game.state, p)
        click.echo("")
        click.echo(render_position(pos, game.state.game.table))

    def flush_bot_turn(p, rnd):
        if bot_turn:
            click.echo(f"round {rnd:2d} {SEATS[p]} ({seats[p]}): " + "; ".join(bot_turn)
                       + f"  -> {game.state.scores()[p]} VP")
            bot_turn.clear()

    def saved(how):
        game.record.save(record_path)
        return (f"Game {how} after {plural(len(game.record.decisions), 'decision')}; record "
                f"saved to {record_path} (go on with `ulm play --resume {record_path}`, look "
                f"at it with `ulm replay {record_path}`).")

    try:
        while not game.state.is_terminal():
            raw = game.state.raw()
            p = game.state.current_player()
            if not game.human_to_move():
                before = game.state.clone()
                seat, action, events = game.bot_move(viewer=humans[0])
                # in the person's words: what they cannot see is not named (R-INFO-3)
                said = decision_words(before, action, humans[0])
                bot_turn.append(said + (f" ({', '.join(events)})" if events else ""))
                after = game.state.raw()
                if game.state.is_terminal() or (after["turn_player"], after["round"]) != (
                        raw["turn_player"], raw["round"]):
                    flush_bot_turn(seat, raw["round"] + 1)
                continue
            key = (raw["round"], raw["turn_player"], raw["phase"])
            if key != shown:
                show_board(p)
                shown = key
            legal = game.state.legal_actions()
            click.echo("")
            click.echo(f"{SEATS[p]}, your decision:")
            for row in _columns([f"{i:2d}. {_name(a)}" for i, a in enumerate(legal, 1)]):
                click.echo("  " + row)
            text = click.prompt(f"{SEATS[p]}", prompt_suffix="> ", default="",
                                show_default=False).strip()
            if not text:
                continue
            if text == "?":
                _hint(game, p, hint_iterations)
                continue
            if text.lower() == "u":
                taken = game.undo()
                if taken is None:
                    click.echo("Nothing of yours to undo.")
                else:
                    click.echo(f"Undone: {_name(taken)}")
                    shown = None
                continue
            if text.lower() == "b":
                show_board(p)
                continue
            if text.lower() == "q":
                click.echo(saved("stopped"))
                raise SystemExit(0)
            if is_whole_text(text):
                k = int(text)
                if not 1 <= k <= len(legal):
                    click.echo(f"No decision {k}: choose 1..{len(legal)}.")
                    continue
                action = legal[k - 1]
            else:
                try:
                    action = parse_decision(game.state, text)
                except DecisionError as exc:
                    click.echo(f"Not possible: {exc}")
                    continue
            events = game.play(action, viewer=p)
            for e in events:
                click.echo(f"  {e}")
    except (KeyboardInterrupt, click.Abort, EOFError):   # Ctrl-C, or the input ended
        click.echo("")
        click.echo(saved("interrupted"))
        raise SystemExit(130) from None
    game.record.save(record_path)
    click.echo(f"The deal's seed was {game.record.seed} (the record names it).")
    return game, record_path


def _hint(game, p, iterations) -> None:
    """The searcher's advice, with a progress bar on standard error; Ctrl-C cancels the
    hint (the search stops at once), not the game. The names are those of `ulm suggest
    --json` (mcts.searcher.search.action_name)."""
    bar = _progress_bar(iterations, None, True)
    progress = None
    if bar is not None:
        def progress(done, elapsed):
            if done > bar.n:
                bar.update(min(done, bar.total) - bar.n)
    try:
        result = game.hint(iterations=iterations, progress=progress)
    except KeyboardInterrupt:
        if bar is not None:
            bar.close()
        click.echo("")
        click.echo(f"Hint cancelled; {SEATS[p]} to decide.")
        return
    if bar is not None:
        bar.close()
    steps = result.principal_line()
    line = " -> ".join(s.name for s in steps)
    if steps and steps[-1].reveals:
        line += " (it shows you what was hidden: ask again once you see it)"
    if result.forced:
        line = f"{result.best_action_name} (the only legal decision)"
    click.echo(f"Hint ({plural(iterations, 'iteration')}): {line}")
    width = max(len(a.name) for a in result.actions[:5])
    for a in result.actions[:5]:    # the figure the search ranks by (mcts.searcher.search.decision_estimate)
        click.echo(f"  {a.name:<{width}}  estimate {100 * a.estimate:5.1f}% "
                   f"± {100 * a.estimate_error:.1f}  ({plural(a.visits, 'visit')})")


def _name(a: int) -> str:
    """A decision in players' words (what the menu shows; typing it works too)."""
    return decision_label(a)
