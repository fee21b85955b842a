"""`ulm apply`: a position that follows a real game, decision by decision."""
from __future__ import annotations

import json

import click

from cli import HELP, InputError, fail_on_input_errors, needs_extra
from cli.picture_opts import write_pictures
from cli.position_input import read_position_arg
from ulm import ACTION_NAMES, SEATS
from ulm.decisions import DecisionError
from ulm.follow import apply_decision, hidden_keep_words, keep_is_hidden, options, setup_draw
from ulm.positions import dumps, state_to_position
from ulm.render import plural


@click.command("apply", context_settings=HELP)
@click.argument("position", type=click.Path(dir_okay=False, allow_dash=True))
@click.argument("decisions", nargs=-1)
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True, allow_dash=True),
              default=None, help="Write the new position here (default, or `-`: standard output).")
@click.option("--svg", "svg_out", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also draw the new position as an SVG picture.")
@click.option("--png", "png_out", type=click.Path(dir_okay=False, writable=True), default=None,
              callback=needs_extra("cairosvg", "picture"),
              help="Also draw the new position as a PNG picture.")
@click.option("--list", "as_list", is_flag=True,
              help="List what may happen next (after DECISIONS, if any) as the position's "
                   "viewer knows the game: the legal decisions or the chance events, in the "
                   "words to type. The position is written only with -o.")
@click.option("--json", "as_json", is_flag=True, help="With --list: the list as JSON.")
@click.option("--quiet", is_flag=True, help="No summary on standard error.")
@fail_on_input_errors
def apply(position, decisions, output, svg_out, png_out, as_list, as_json, quiet):
    """Apply DECISIONS (and chance events) to POSITION and write the new position.

    Decisions are named as `ulm suggest` and `ulm play` name them ("draw",
    "push row 2 from left", "money", "end turn"); chance events in ordinary
    words: "drew white" (a tile from the bag), "drew Siege" (a card one sees),
    "Red drew a card" (a card the viewer cannot see), "drew coat S-1",
    "revealed T4", "the docks were refilled: gray". In a view, what the
    viewer cannot see stays hidden. An opponent's hidden keep: "kept a card,
    discarded Nave I". A unique abbreviation is enough ("push r2 l", "mon").
    --list shows what may be entered next.

    POSITION `-` reads standard input, so commands chain:

        ulm new --players 2 --as Red | ulm apply - draw "drew white" | ulm show -
    """
    if as_json and not as_list:
        raise InputError("--json: only with --list (the position itself is JSON)")
    if not decisions and not as_list:
        raise InputError("DECISIONS: give the decisions to apply (or --list to see the "
                         "possible ones)")
    data, state, seat = read_position_arg(position)
    viewer = seat if data["kind"] == "view" else None
    for k, text in enumerate(decisions, 1):
        try:
            apply_decision(state, text, viewer)
        except DecisionError as exc:
            raise InputError(f"decision {k} ({text!r}): {exc}") from None
    out = state_to_position(state, viewer)
    if "board" in data:
        out["board"] = data["board"]
    text = dumps(out)
    write_pictures(state, viewer, (), svg_out, png_out)
    if as_list:
        listing = _listing(state, viewer, out)
        click.echo(json.dumps(listing, indent=1) if as_json else _listing_text(listing))
        if output not in (None, "-"):
            from ulm.jsonfile import write_atomically
            write_atomically(output, text)
        if not decisions:
            return
    elif output in (None, "-"):
        click.echo(text, nl=False)
    else:
        from ulm.jsonfile import write_atomically
        write_atomically(output, text)
    if not quiet:
        if state.is_terminal():
            now = "the game is over"
        elif setup_draw(state):
            now = f"the set-up's draw of {setup_draw(state)} is next (say what was drawn)"
        elif state.is_chance_node():
            now = "a chance event is next (say what happened, e.g. 'drew white')"
        else:
            now = f"{SEATS[state.current_player()]} to decide ({out['phase']})"
        click.echo(f"Applied {plural(len(decisions), 'decision')}; {now}.", err=True)


def _listing(state, viewer, position: dict) -> dict:
    """What may happen next as `viewer` knows the game (ulm.follow.options): each entry's
    `name` is the words the text list shows and `ulm apply` takes; `action` the action id,
    or None for words that stand for several (a draw the viewer cannot see, a keep by
    its discards)."""
    entries = [{"name": words, "action": a if isinstance(a, int) else None,
                "engine_name": ACTION_NAMES[a] if isinstance(a, int) else None}
               for words, a in options(state, viewer)]
    if keep_is_hidden(state, viewer) and state.looked_card_count() > 2:
        entries.append({"name": hidden_keep_words(state, viewer), "action": None,
                        "engine_name": None})    # the discards of 3+ cards looked at: in words
    chance = state.is_chance_node()
    mover = state.current_player()
    return {"viewer": SEATS[viewer] if viewer is not None else None,
            "to_move": SEATS[mover] if mover >= 0 else None,
            "chance": chance, "game_over": state.is_terminal(), "phase": position["phase"],
            "setup_draw": setup_draw(state), "options": entries}


def _listing_text(listing: dict) -> str:
    n = len(listing["options"])
    known = f", as {listing['viewer']} knows the game" if listing["viewer"] else ""
    if listing["game_over"]:
        return "The game is over: nothing more happens."
    if listing["setup_draw"]:
        head = (f"The set-up's draw of {listing['setup_draw']} is next "
                f"({plural(n, 'possible event')}{known}):")
    elif listing["chance"]:
        head = f"A chance event is next ({plural(n, 'possible event')}{known}):"
    else:
        head = (f"{listing['to_move']} to decide, phase {listing['phase']} "
                f"({plural(n, 'possible decision')}{known}):")
    return "\n".join([head] + [f"  {e['name']}" for e in listing["options"]])
