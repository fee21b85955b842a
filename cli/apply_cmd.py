"""`ulm apply`: a position that follows a real game, decision by decision."""
from __future__ import annotations

import click

from cli import HELP, InputError, fail_on_input_errors, needs_extra


@click.command("apply", context_settings=HELP)
@click.argument("position", type=click.Path(dir_okay=False, allow_dash=True))
@click.argument("decisions", nargs=-1, required=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True, allow_dash=True),
              default=None, help="Write the new position here (default, or `-`: standard output).")
@click.option("--svg", "svg_out", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Also draw the new position as an SVG picture.")
@click.option("--png", "png_out", type=click.Path(dir_okay=False, writable=True), default=None,
              callback=needs_extra("cairosvg", "picture"),
              help="Also draw the new position as a PNG picture.")
@click.option("--quiet", is_flag=True, help="No summary on standard error.")
@fail_on_input_errors
def apply(position, decisions, output, svg_out, png_out, quiet):
    """Apply DECISIONS (and chance events) to POSITION and write the new position.

    Decisions are named as `ulm suggest` and `ulm play` name them ("draw",
    "push row 2 from left", "money", "end turn"); chance events in ordinary
    words: "drew white" (a tile from the bag), "drew Siege" (a card one sees),
    "Red drew a card" (a card the viewer cannot see), "drew coat S-1",
    "revealed T4". In a view, what the viewer cannot see stays hidden.
    An opponent's hidden keep: "kept a card, discarded Nave I".

    POSITION `-` reads standard input, so commands chain:

        ulm new --players 2 --as Red | ulm apply - draw "drew white" | ulm show -
    """
    from cli.picture_opts import read_position_arg, write_pictures
    from ulm import SEATS
    from ulm.decisions import DecisionError
    from ulm.follow import apply_decision
    from ulm.positions import dumps, state_to_position
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
    if output in (None, "-"):
        click.echo(text, nl=False)
    else:
        from ulm.jsonfile import write_atomically
        write_atomically(output, text)
    if not quiet:
        if state.is_terminal():
            now = "the game is over"
        elif state.is_chance_node():
            now = "a chance event is next (say what happened, e.g. 'drew white')"
        else:
            now = f"{SEATS[state.current_player()]} to decide ({out['phase']})"
        click.echo(f"Applied {len(decisions)} decision{'s' if len(decisions) != 1 else ''}; "
                   f"{now}.", err=True)
