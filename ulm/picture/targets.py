"""The decisions and the drawn elements they belong to (`action_target`)."""
from __future__ import annotations

from ulm._fastcore import SEATS


# the element a decision of each kind belongs to, and the field of the decision's data
# (State.action_fields) that is the element's main data attribute
_ELEMENT_OF_KIND = {
    "push": ("entry", "entry"), "joker": ("dock", "colour"), "take_dock_tile": ("dock", "colour"),
    "scholar": ("supply", "colour"), "clear": ("side", "side"), "seal": ("quarter", "quarter"),
    "chronicle_seal": ("quarter", "quarter"), "play": ("card", "card"),
    "keep_card": ("card", "card"), "take_discard": ("card", "card"), "keep_coat": ("coat", "coat"),
    "take_outer_tile": ("outer", "outer"), "take_pushed_out": ("outer", "outer"),
    "take_descendant": ("descendant", "descendant"),
    "river_step": ("river-space", "river_to"), "move_barge": ("river-space", "river_to"),
}


def action_target(state, action: int) -> dict | None:
    """The drawn element a decision belongs to, or None for decisions that are only
    listed (end turn, money, amounts, chance outcomes ...).

    The result is {"kind": <element class>, "value": <its main data attribute>},
    with "seat" for a player's supply tile. It is read from the decision's data
    (State.action_fields): a barge's move goes where the core's movement rule lands it."""
    fields = state.action_fields(action)
    kind = fields["kind"]
    if kind == "draw":
        return {"kind": "bag", "value": "bag"}
    if kind == "chance_descendant":            # revealed in the Oath House (set-up)
        return {"kind": "quarter", "value": "Oath House"}
    if kind == "chance_tile":
        # the set-up entered on the board: the grid space being filled, a player's tile
        # in that player's supply (R-SETUP)
        if "cell" in fields:
            return {"kind": "cell", "value": fields["cell"]}
        if "seat" in fields:
            return {"kind": "supply", "value": fields["colour"], "seat": SEATS[fields["seat"]]}
        return None
    if kind not in _ELEMENT_OF_KIND:
        return None
    element, field = _ELEMENT_OF_KIND[kind]
    if fields[field] is None:                  # a barge that cannot move, nothing pushed out
        return None
    target = {"kind": element, "value": fields[field]}
    if element == "supply":                    # supply tiles are keyed by the seat's name
        target["seat"] = SEATS[fields["by"]]
    return target


def _key(target: dict) -> tuple:
    return (target["kind"], target["value"], target.get("seat"))
