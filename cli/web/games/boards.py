"""The boards the games of `ulm serve` show: a position drawn for a viewer (the
text picture while a set-up is being entered), a record's board after some
decisions, and its history in the words that viewer may read."""
from __future__ import annotations


from ulm import SEATS

from cli.web.checks import WebError, quoted


def history(record, viewer) -> list[dict]:
    """The decisions of a record in the words `viewer` may read, each with the chance
    events after it (ulm.decisions.record_events: an opponent's hidden keep is said by its
    discards, a card it drew unseen as "Blue drew a card")."""
    from ulm.decisions import record_events
    return [{"index": k, "seat": SEATS[e["seat"]], "name": e["words"], "chance": e["chance"]}
            for k, e in enumerate(record_events(record, viewer))]


def record_board(record, upto: int, viewer) -> dict:
    """The board of a record after `upto` decisions, seen by `viewer`, the turns since
    its last decision marked."""
    from ulm.decisions import record_steps, since_viewer
    if isinstance(upto, bool) or not isinstance(upto, int) \
            or not 0 <= upto <= len(record.decisions):
        raise WebError(f"index: must be a whole number from 0 to {len(record.decisions)}, "
                       f"got {quoted(upto)}")
    steps = record_steps(record, upto)
    state = record.game.new_game(record.seed)
    for action in record.decisions[:upto]:
        state.apply_action(action)
        state.resolve_chance()
    return {"index": upto, "total": len(record.decisions),
            "svg": draw(state, viewer, None, False, since_viewer(steps, viewer))}


def draw(state, viewer, highlight, interactive, last=None, ranked=None) -> str:
    from ulm.picture import board_svg
    try:
        return board_svg(state, viewer=viewer, highlight=highlight or None,
                         interactive=interactive, last=last or None, ranked=ranked or None)
    except Exception:  # e.g. a set-up still being entered: show the text picture instead
        from xml.sax.saxutils import escape

        from ulm.render import render_state
        lines = render_state(state, viewer).splitlines()
        rows = "".join(f'<text x="16" y="{24 + 17 * k}">{escape(line)}</text>'
                       for k, line in enumerate(lines))
        return (f'<svg xmlns="http://www.w3.org/2000/svg" class="text-board" width="1300" '
                f'height="{40 + 17 * len(lines)}" viewBox="0 0 1300 {40 + 17 * len(lines)}" '
                f'font-family="DejaVu Sans Mono, monospace" font-size="14" '
                f'xml:space="preserve">{rows}</svg>')


def target_of(state, action):
    from ulm.picture import action_target
    return action_target(state, action)
