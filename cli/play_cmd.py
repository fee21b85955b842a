"""`ulm play` (one bot game) and `ulm tournament` (many, with statistics)."""
from __future__ import annotations

import json
import os

import click

from cli import (
    HELP,
    SEAT,
    SEED,
    InputError,
    check_workers_or_scheduler,
    engines_named,
    engines_option,
    fail_on_input_errors,
    iterations_option_type,
    json_option,
    players_option,
    plot_note,
    quiet_option,
    scheduler_option,
    seed_option,
    worded,
    workers_option,
)
from mcts.play.bots import BOTS, OPTIONS, PRESET_OPTIONS, make_bot
from mcts.play.bot_game import play_game
from mcts.play.levels import DEFAULT_LEVEL, HIGHEST, LEVELS, LOWEST, described, level_of, rating
from mcts.play.reports import format_table
from mcts.play.tournament import (
    MAX_GAMES,
    TournamentConfig,
    TournamentError,
    run_tournament,
    validate_config,
)
from ulm import SEATS
from ulm.errors import OptionError
from ulm.game import VARIANTS
from ulm.records import RecordError, load_record

# The tournament's settings (mcts.play.tournament) -> the options that give them.
TOURNAMENT_OPTIONS = {"players": "--players", "bots": "--bots", "games": "--games",
                      "board": "--board", "out_dir": "--out", "scheduler": "--scheduler",
                      "engines": "--engine"}


def _seats(ctx, param, values):
    """Seat names or numbers, read as every command reads a seat (cli.SEAT)."""
    return tuple(SEAT.convert(v, param, ctx) for v in values)


def _check_specs(specs: list[str], players: int | None = None) -> None:
    for spec in specs:
        try:
            make_bot(spec, players)
        except ValueError as exc:
            raise InputError(f"--bots: {exc}") from None


@click.command("play", context_settings=HELP)
@click.option("--bots", "bots", default=None,
              help="Comma-separated bot specs, one per seat (2-4), e.g. ismcts:iterations=2000,greedy. "
                   f"With --human: the bots of the other seats (repeated if fewer; default "
                   f"level:{DEFAULT_LEVEL}, {level_of(DEFAULT_LEVEL).name}).")
@click.option("--level", default=None, metavar="N",
              help=f"The bots of every seat (with --human: of the other seats) at level N, "
                   f"{LOWEST} (first game) to {HIGHEST} (strongest): the bot spec level:N "
                   "(`ulm bots` lists the levels).")
@click.option("--human", "humans", multiple=True, callback=_seats, metavar="SEAT",
              help="Play this seat yourself in the terminal (Red, Blue, ... or 0..3; repeat for "
                   "several people). The game is saved to --record, or else to ulm-game.json "
                   "(ulm-game-2.json ... if it exists), also when stopped with q or Ctrl-C.")
@click.option("--players", type=click.IntRange(2, 4), default=None,
              help="Number of players with --human or --level (default: the people and the "
                   "bots given; 2 with --level alone).")
@click.option("--hint-iterations", type=iterations_option_type(), default=2000, show_default=True,
              help="Iterations of the searcher when you ask for a hint (?).")
@click.option("--seed", type=SEED, default=None,
              help="Seed of the deal (default 0; with --human a secret seed, named in the "
                   "record when the game is over: a seed you give deals cards you can know).")
@click.option("--variant", type=click.Choice(VARIANTS), default=VARIANTS[0], show_default=True)
@click.option("--board", type=click.Path(dir_okay=False), default=None, help="A corrected board table.")
@click.option("--record", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Save the game record here (replay it with `ulm replay`).")
@click.option("--resume", type=click.Path(dir_okay=False), default=None, metavar="RECORD",
              help="Go on with a game stopped with q or Ctrl-C (its record: the seats, seed, "
                   "variant and board come from it); it is saved back to RECORD (or --record). "
                   "The bots decide as they would have without the stop.")
@click.option("--quiet", is_flag=True, help="Only the final result.")
@engines_option()
@fail_on_input_errors
def play(bots, level, humans, players, hint_iterations, seed, variant, board, record, resume,
         quiet, engines):
    """Play one game between bots, with a log of every turn and the final scores.

    With --human SEAT you play that seat against the bots: the legal decisions
    are listed by number and name; type one (or enough of its name to tell it
    from the others: "push r2 l"), or ? for a hint (Ctrl-C cancels it), u to
    undo your last decision, b for the board, q to stop (--resume RECORD goes
    on later).
    """
    saved = None
    if level is not None:
        bots = _level_bots(level, bots, humans, players, resume)
    if resume is not None:
        saved, humans = _resumed(resume)
        specs = list(saved.bots)
        record = record or resume
    elif humans:
        from cli.human_cmd import seat_plan
        specs = seat_plan(sorted(set(humans)), _split_specs(bots) if bots else [], players)
        _check_specs([s for s in specs if s != "human"], len(specs))
    else:
        if not bots:
            raise InputError("--bots: give the bots of every seat (or play yourself with --human)")
        specs = _split_specs(bots)
        if not 2 <= len(specs) <= 4:
            raise InputError(f"--bots: Ulm is for 2, 3 or 4 players; got {len(specs)} bot specs")
        _check_specs(specs, len(specs))
    if record is not None:
        # checked before the game, not after it has been played
        from ulm.jsonfile import check_writable
        try:
            check_writable(record)
        except OSError as exc:
            raise InputError(f"--record: {record + ': ' if record else ''}{exc.strerror}") from None
    if humans:
        from cli.human_cmd import play_human
        game, record = play_human(specs, seed, variant, board, record, hint_iterations,
                                  resume=saved)
        state = game.state
        row = {"breakdown": [state.score_breakdown(p) for p in range(len(specs))],
               "returns": state.returns()}
    else:
        log = None if quiet else click.echo
        seed = 0 if seed is None else seed
        row = play_game(specs, seed, variant, board, log=log, record_path=record)
    click.echo("")
    click.echo("Final scores:")
    names = [SEATS[i] for i in range(len(specs))]
    keys = list(row["breakdown"][0])
    width = max(len(k) for k in keys)
    click.echo(" " * width + "".join(f"{n:>8}" for n in names))
    for k in keys:
        if k != "total" and not any(b[k] for b in row["breakdown"]):
            continue
        click.echo(f"{k:<{width}}" + "".join(f"{b[k]:>8}" for b in row["breakdown"]))
    winners = [f"{names[p]} ({described(specs[p])})" for p in range(len(specs))
               if row["returns"][p] > 0]
    click.echo(("Winner: " if len(winners) == 1 else "Shared win: ") + ", ".join(winners))
    if record:
        click.echo(f"Record saved to {record}")


def _level_bots(level: str, bots, humans, players, resume) -> str:
    """The bots of --level N: the spec level:N, in every seat without --human."""
    if resume is not None:
        raise InputError("--resume: the record decides the seats; leave out --level")
    if bots:
        raise InputError("--level: give --bots or --level, not both")
    try:
        level_of(level)
    except OptionError as exc:
        raise InputError(exc.in_words(name="--level")) from None
    return ",".join([f"level:{level.strip()}"] * (1 if humans else players or 2))


def _resumed(path: str):
    """The record of a stopped game to go on with, and its people's seats; the options
    the record decides may not be given."""
    ctx = click.get_current_context()
    given = [f"--{name.replace('_', '-')}" for name in ("bots", "humans", "players", "seed",
                                                        "variant", "board")
             if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE]
    if given:
        shown = ", ".join("--human" if g == "--humans" else g for g in given)
        raise InputError(f"--resume: the record decides the seats, seed, variant and board; "
                         f"leave out {shown}")
    try:
        saved = load_record(path)
    except (RecordError, OSError) as exc:
        raise InputError(f"--resume: {exc}") from None
    seats = saved.bots or []
    if len(seats) != saved.game.num_players or "human" not in seats:
        raise InputError(f"--resume: {path}: not a game of `ulm play --human` (its bots "
                         f"field names no person's seat)")
    if saved.state.is_terminal():
        raise InputError(f"--resume: {path}: the game is over (look at it with "
                         f"`ulm replay {path}`)")
    _check_specs([s for s in seats if s != "human"], len(seats))
    return saved, tuple(p for p, s in enumerate(seats) if s == "human")


def _split_specs(text: str) -> list[str]:
    """Split 'a:x=1,y=2,b,c:z=3' into bot specs: a comma starts a new spec only
    when what follows is not OPTION=VALUE."""
    parts = [p.strip() for p in text.split(",")]
    specs: list[str] = []
    for part in parts:
        if specs and "=" in part and ":" not in part:
            specs[-1] += "," + part
        elif part:
            specs.append(part)
    return specs


@click.command("tournament", context_settings=HELP)
@click.option("--bots", "bots", required=True, multiple=True,
              help="Bot specs (repeat, list after one --bots, or separate with commas as in "
                   "`ulm play`): seats are filled in this order, cyclically, then rotated.")
@click.argument("more_bots", nargs=-1)
@players_option()
@click.option("--games", type=click.IntRange(1, MAX_GAMES), default=20, show_default=True,
              help="Games in all, rounded up to whole rotations of the seats.")
@workers_option()
@scheduler_option()
@seed_option()
@click.option("--variant", type=click.Choice(VARIANTS), default=VARIANTS[0], show_default=True)
@click.option("--board", type=click.Path(dir_okay=False), default=None)
@click.option("--out", "out", type=click.Path(file_okay=False), default=None,
              help="Folder for games.jsonl, games.csv, results.json and win_rates.png; "
                   "an interrupted tournament resumes from it.")
@json_option("the results")
@quiet_option()
@engines_option()
@fail_on_input_errors
def tournament(bots, more_bots, players, games, workers, scheduler, seed, variant, board, out,
               as_json, quiet, engines):
    """Play many games between bots (duplicate deals, rotated seats) and report who is stronger.

    Example: ulm tournament --bots ismcts:iterations=2000 greedy --players 2 --games 100
    """
    from mcts.play.cluster import ClusterError, open_executor
    specs = [spec for text in list(bots) + list(more_bots) for spec in _split_specs(text)]
    cfg = TournamentConfig(bots=specs, players=players, games=games, seed=seed, variant=variant,
                           board=board, engines=engines_named(engines, specs) or None)
    if out == "":
        raise InputError("--out: no folder name given")
    check_workers_or_scheduler(scheduler)
    if cfg.engines and scheduler:
        raise InputError("--scheduler: engines (engine:NAME) play on this machine only")
    try:
        validate_config(cfg)  # before reaching or starting a cluster
        with open_executor(scheduler) as executor:
            summary = run_tournament(cfg, out, workers=workers, progress=not (quiet or as_json),
                                     log=lambda text: click.echo(text, err=True),
                                     scheduler=executor)
    except TournamentError as exc:
        raise worded(exc, TOURNAMENT_OPTIONS) from None
    except ClusterError as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        click.echo(json.dumps(summary, indent=1))
    else:
        click.echo(format_table(summary))
        if out:
            plot = plot_note("win_rates.png")
            click.echo(f"Results in {os.path.join(out, '')} (results.json, games.csv, games.jsonl"
                       f"{', ' + plot if plot else ''})")



@click.command("bots", context_settings=HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the bots and options as JSON.")
@click.option("--markdown", is_flag=True,
              help="Print the options as a Markdown table (the one in docs/commands.md).")
def bots_cmd(as_json, markdown):
    """List the levels, the bots and their options (a bot spec is NAME or
    NAME:OPTION=VALUE,..., or level:N).

    Example: ulm play --bots ismcts:iterations=5000,seed=2,greedy
    """
    table = {}
    for name, cls in BOTS.items():
        doc = (cls.__doc__ or "").strip().split("\n")[0]
        table[name] = {"about": doc, "options": {
            opt: _default_text(cls, opt) for opt in cls.options}}
    if markdown:
        click.echo(options_markdown(table))
        return
    from mcts.play.plugins import plugins
    if as_json:
        click.echo(json.dumps({"bots": table, "options": {k: v.help for k, v in OPTIONS.items()},
                               "presets": PRESET_OPTIONS, "levels": _levels(),
                               "plugins": plugins()}, indent=1))
        return
    _echo_levels()      # what a player meets first: the levels, by name
    click.echo("")
    width = max(len(n) for n in table)
    click.echo("Bots (`ulm play --bots NAME:OPTION=VALUE,...`, `ulm tournament`, "
               "`ulm play --human`):")
    for name, entry in table.items():
        click.echo(f"  {name:<{width}}  {entry['about']}")
    click.echo("")
    click.echo("Options (the bots that take each, with its default there):")
    owidth = max(len(o) for o in OPTIONS)
    for opt, declared in OPTIONS.items():
        takers = ", ".join(f"{name} {entry['options'][opt]}" for name, entry in table.items()
                           if opt in entry["options"])
        click.echo(f"  {opt:<{owidth}}  {declared.help}")
        click.echo(f"  {'':<{owidth}}  [{takers}]")
    click.echo("")
    click.echo("Presets of ismcts (preset=NAME): " + ", ".join(PRESET_OPTIONS))
    click.echo("")
    _echo_guests(plugins())


def options_markdown(table: dict) -> str:
    """The bots' options as a Markdown table: each option with its meaning, the
    bots that take it with their defaults, and `ulm suggest`'s shorthand."""
    rows = ["| option | meaning | bots (default) | `ulm suggest` |", "|---|---|---|---|"]
    for opt, declared in OPTIONS.items():
        takers = ", ".join(f"{name} {entry['options'][opt]}" for name, entry in table.items()
                           if opt in entry["options"])
        short = f"`{declared.shorthand}`" if declared.shorthand else ""
        rows.append(f"| `{opt}` | {declared.help} | {takers} | {short} |")
    return "\n".join(rows)


def _echo_guests(found: list[dict]) -> None:
    """The bots from outside: engines, plug-ins and the installed plug-ins' origins."""
    click.echo("Bots from outside (docs/engines.md): engine:NAME (a program given with "
               "--engine NAME=COMMAND), python:module:Class or python:path/file.py:Class; "
               "options time=, grace=, seed=, and for a plug-in process=own (its own process, "
               "bounded as an engine) or host (the default).")
    if not found:
        click.echo("Installed plug-ins (python:NAME, entry points ulm.bots): none")
        return
    click.echo("Installed plug-ins (python:NAME, entry points ulm.bots):")
    width = max(len(p["name"]) for p in found)
    for p in found:
        click.echo(f"  {p['name']:<{width}}  {p['target']}  (from {p['origin']})")


def _levels() -> list[dict]:
    """The levels, each with its spec and measured Elo [95%] by player count."""
    return [{"level": lv.number, "name": lv.name, "spec": lv.spec,
             "elo": {str(n): list(rating(lv, n)) for n in (2, 3, 4) if rating(lv, n)}}
            for lv in LEVELS]


def _echo_levels() -> None:
    click.echo("Levels (`ulm play --level N`, or the bot spec level:N anywhere); Elo with "
               "its 95% interval, greedy = 0 (docs/levels.md):")
    width = max(len(lv.name) for lv in LEVELS)
    swidth = max(len(lv.spec) for lv in LEVELS)
    for lv in LEVELS:
        elo = "  ".join(f"{n}p {e:+d} [{lo:+d}, {hi:+d}]" for n in (2, 3, 4)
                        if (r := rating(lv, n)) for e, lo, hi in [r])
        click.echo(f"  {lv.number}  {lv.name:<{width}}  {lv.spec:<{swidth}}  "
                   f"{elo or 'not rated'}".rstrip())


def _default_text(cls, option: str) -> str:
    """A bot's default of an option in words: its value, 'auto' (chosen by the others,
    as mcts.searcher.search's defaults are), or 'none'."""
    if option == "preset":
        return "default"
    value = cls.defaults.get(option, OPTIONS[option].default)     # the option's own default
    if option == "time" and value is None:
        return "none"
    if value is None:
        return "auto"
    return str(value).lower() if isinstance(value, bool) else str(value)
