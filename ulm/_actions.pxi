# The action table (included by _fastcore.pyx): every action id's kind and
# fields, in the order of the A_* and C_* enums of _fastcore.pxd. The names
# (ACTION_NAMES) are made from it, so a name and its fields cannot disagree.
#
# Fields name things by their names (colour, card, coat, quarter, side,
# descendant, tile) and places by their numbers (entry 0..11, outer 0..11);
# `pay` is the colours of a payment, `coins` and `vp` its amounts.


def _action_table():
    t = [("end_turn", {}), ("draw", {})]
    t += [("push", {"entry": e}) for e in range(len(PUSH_ENTRIES))]
    t += [("joker", {"colour": c}) for c in COLOURS]
    t += [("scholar", {"colour": c}) for c in COLOURS]
    t += [("money", {})]
    t += [("clear", {"side": side}) for side in SIDES]
    t += [("buy_card", {"pay": (COLOURS[a], COLOURS[b])}) for a, b in PAIRS]
    t += [("buy_card", {"coins": 1})]
    t += [("buy_card", {"pay": (c,)}) for c in COLOURS]
    t += [("river_step", {})]
    t += [("seal", {"quarter": q}) for q in QUARTERS]
    t += [("seal", {"quarter": q, "card": "City Wall"}) for q in QUARTERS]
    t += [("merchant", {"give": g, "take": k}) for g in COLOURS for k in COLOURS]
    t += [("take_pushed_out", {})]
    t += [("play", {"card": c, "row": "upper"}) for c in CARDS]
    t += [("play", {"card": c, "row": "lower"}) for c in CARDS]
    t += [("pick_colour", {"colour": c}) for c in COLOURS]
    t += [("take_dock_tile", {"colour": c}) for c in COLOURS]
    t += [("take_coin", {})]
    t += [("keep_card", {"card": c}) for c in CARDS]
    t += [("take_discard", {"card": c}) for c in CARDS]
    t += [("look_at_top", {"count": 3})]
    t += [("move_barge", {"spaces": k}) for k in range(5)]
    t += [("keep_coat", {"coat": c}) for c in COATS]
    t += [("return_coat", {})]
    t += [("take_descendant", {"descendant": d}) for d in DESCENDANTS]
    t += [("chronicle_seal", {"quarter": q}) for q in QUARTERS]
    t += [("amount", {"amount": k}) for k in range(6)]
    t += [("freeze", {"gain": "coins"}), ("freeze", {"gain": "tiles"})]
    t += [("take_outer_tile", {"outer": o}) for o in range(NUM_OUTER)]
    t += [("stop", {})]
    t += [("tower_payment", {"pay": (COLOURS[a], COLOURS[b])}) for a, b in PAIRS]
    t += [("tower_payment", {"coins": 2}), ("tower_payment", {"vp": 5})]
    assert len(t) == A_DRAW_TWO
    t += [("draw_two", {}), ("take_top_card", {}), ("look_at_top", {"count": 2}),
          ("no_dock_tile", {})]
    assert len(t) == NUM_DECISIONS == C_TILE
    t += [("chance_tile", {"colour": c}) for c in COLOURS]
    t += [("chance_card", {"card": c}) for c in CARDS]
    t += [("chance_coat", {"coat": c}) for c in COATS]
    t += [("chance_descendant", {"descendant": d}) for d in DESCENDANTS]
    t += [("chance_tower", {"tile": tile}) for tile in TOWER_TILES]
    assert len(t) == NUM_ACTIONS, len(t)
    return tuple((kind, tuple(fields.items())) for kind, fields in t)


def _paid(f):
    if "coins" in f:
        return f"{f['coins']} coin" + ("s" if f["coins"] != 1 else "")
    return "+".join(f["pay"])


_NAME_OF_KIND = {  # kind -> the engine's name of an action of that kind, from its fields
    "end_turn": lambda f: "end turn",
    "draw": lambda f: "draw",
    "push": lambda f: f"push {PUSH_ENTRIES[f['entry']]}",
    "joker": lambda f: f"joker: take {f['colour']} from the docks",
    "scholar": lambda f: f"scholar: push {f['colour']} from supply",
    "money": lambda f: "money",
    "clear": lambda f: f"clear {f['side']}",
    "buy_card": lambda f: f"buy card paying {_paid(f)}",
    "river_step": lambda f: "river step",
    "seal": lambda f: f"seal in {f['quarter']}" + (" with City Wall" if "card" in f else ""),
    "merchant": lambda f: f"merchant: give {f['give']}, take {f['take']}",
    "take_pushed_out": lambda f: "take the pushed-out tile",
    "play": lambda f: f"play {f['card']} ({f['row']})",
    "pick_colour": lambda f: f"pick {f['colour']}",
    "take_dock_tile": lambda f: f"take {f['colour']} from the docks",
    "take_coin": lambda f: "take a coin",
    "keep_card": lambda f: f"keep {f['card']}",
    "take_discard": lambda f: f"take {f['card']} from the discard pile",
    "look_at_top": lambda f: f"look at the top {f['count']} cards",
    "move_barge": lambda f: f"move barge {f['spaces']}",
    "keep_coat": lambda f: f"keep coat {f['coat']}",
    "return_coat": lambda f: "put the coat back",
    "take_descendant": lambda f: f"take {f['descendant']}",
    "chronicle_seal": lambda f: f"chronicle seal in {f['quarter']}",
    "amount": lambda f: f"amount {f['amount']}",
    "freeze": lambda f: f"freeze: 2 {f['gain']}",
    "take_outer_tile": lambda f: f"take outer tile {f['outer']}",
    "stop": lambda f: "stop",
    "tower_payment": lambda f: (f"tower: lose {f['vp']} VP" if "vp" in f
                                else f"tower: pay {_paid(f)}" if "coins" in f
                                else f"tower: give {_paid(f)}"),
    "draw_two": lambda f: "draw 2 (Builder)",
    "take_top_card": lambda f: "take the top card",
    "no_dock_tile": lambda f: "take no dock tile",
    "chance_tile": lambda f: f"chance: tile {f['colour']}",
    "chance_card": lambda f: f"chance: card {f['card']}",
    "chance_coat": lambda f: f"chance: coat {f['coat']}",
    "chance_descendant": lambda f: f"chance: descendant {f['descendant']}",
    "chance_tower": lambda f: f"chance: tower {f['tile']}",
}

_ACTION_TABLE = _action_table()
ACTION_KINDS = tuple(_NAME_OF_KIND)
ACTION_NAMES = tuple(_NAME_OF_KIND[kind](dict(fields)) for kind, fields in _ACTION_TABLE)
_ACTION_IDS = {name: i for i, name in enumerate(ACTION_NAMES)}
_ACTION_BY_FIELDS = {(kind, frozenset(fields)): i for i, (kind, fields) in enumerate(_ACTION_TABLE)}


def _checked_action(action):
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action: must be an action id 0..{NUM_ACTIONS - 1}, got {action!r}")
    return action


def action_fields(action):
    """An action as data: {"kind": ..., and its fields} ("push row 2 from left" is
    {"kind": "push", "entry": 1}); a new dict each call. The fields that depend on
    the position (where a barge lands, who decides) are State.action_fields'."""
    kind, fields = _ACTION_TABLE[_checked_action(action)]
    return {"kind": kind, **dict(fields)}


def action_id(kind, **fields):
    """The action of this kind and these fields (the inverse of action_fields):
    action_id("push", entry=1) is the id of "push row 2 from left". The fields
    State.action_fields adds from the position are ignored. ValueError when
    there is no such action."""
    if kind not in _NAME_OF_KIND:
        raise ValueError(f"kind: no action kind {kind!r}")
    ignored = _POSITION_FIELDS.get(kind, ()) + ("by",)
    static = {k: tuple(v) if isinstance(v, list) else v
              for k, v in fields.items() if k not in ignored}
    try:
        return _ACTION_BY_FIELDS[(kind, frozenset(static.items()))]
    except (KeyError, TypeError):
        raise ValueError(f"no {kind} action with {static!r}") from None


# the fields State.action_fields adds from the position, besides "by" (who decides):
# the river space a barge moves from and lands on, the outer space of the tile pushed
# out this turn, where a drawn set-up tile goes (a grid cell, a seat's supply)
_POSITION_FIELDS = {"river_step": ("river_from", "river_to"),
                    "move_barge": ("river_from", "river_to"),
                    "take_pushed_out": ("outer",),
                    "chance_tile": ("cell", "seat")}
