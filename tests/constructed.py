"""Constructed positions the search must read right (a seal that wins the
game, a river step over the bridge, a joker with nothing to buy, hidden
cards in play, coats under the stack, a decided game), shared by the tests
of the search, of the advice, of what players know and of `ulm suggest`."""
from helpers import (ACTIONS, PUSH, cards_mask, chance, check_invariants, coat, colour, do, edit,
                     edit_player, fresh, player, quarter, set_barges, set_docks)

import ulm
from ulm import CARDS, COATS
from ulm._fastcore import TASKS


def final_turn(seed=3):
    """2 players, the last turn of the game (round 10, seat 1), after the push."""
    s = fresh(players=2, seed=seed)
    edit(s, round=9, turn_player=1, phase=ACTIONS, free_play=0, avail=[0, 0, 0, 0, 0])
    return s


def lead_by(s, p, margin):
    """Set seat 1-p's score so that p's projected score leads by `margin`."""
    proj = s.projected_scores()
    o = 1 - p
    delta = (proj[p] - proj[o]) - margin
    vp = player(s, o)["vp"]
    vp[0] += delta          # as points from the start, so that the sources add up
    edit_player(s, o, score=player(s, o)["score"] + delta, vp=vp)
    return s


def seal_wins():
    """Seat 1 is 1 VP behind with one seal action and 2 coins; the Leaning House is
    full, so only a seal in Tillage is possible: its privilege (R-PRIV-TILLAGE) moves the
    barge, and the extra quarter wins a VP tie (R-END-3). Ending the turn loses."""
    s = final_turn()
    seals = [0] * 8
    seals[quarter("Leaning House")] = 4
    edit(s, quarter_seals=seals, avail=[0, 0, 0, 0, 1])
    for p in (0, 1):
        edit_player(s, p, seals_in={"Leaning House": 2}, seals_left=10, coins=2, barge=0)
    return lead_by(s, 1, -1)


def river_wins():
    """Seat 1 is 1 VP behind; a river step crosses the bridge (-1 -> +1)."""
    s = final_turn()
    edit(s, avail=[1, 0, 0, 1, 0])
    set_barges(s, 5, 10)
    return lead_by(s, 1, -1)


def joker_wastes():
    """Seat 1 leads by 1 VP before the last push of the game. No action can gain
    anything (no seal left, barge at the end, no cards), so the sparrow joker
    (R-DRAW-5) only throws away the sparrow that wins the game."""
    s = final_turn()
    edit(s, phase=PUSH, drawn=[colour("gray"), -1], draw_swap_used=0)
    set_docks(s, {"gray": 1, "white": 1, "orange": 1, "brown": 1, "turquoise": 1})
    edit_player(s, 1, sparrows=3, coins=0, seals_left=0, barge=21, hand=0,
                seals_in={"Tillage": 1})
    edit_player(s, 0, barge=5, seals_in={"Tillage": 1, "Garden": 1})
    return lead_by(s, 1, 1)


def hidden_variants(players=4):
    """Two full states of seat 0's turn that differ only in what seat 0 cannot see:
    which cards the opponents hold (vs the draw pile), and which coat an opponent
    put under the coat stack (R-INFO-2, R-INFO-3)."""
    states = []
    for variant in (0, 1):
        s = fresh(players=players, seed=11)
        hands = {1: ["Siege", "Nave I"], 2: ["Patrician"], 3: ["Works of Art II", "Choir III"]}
        if variant:
            hands = {1: ["Swabian League", "Steeple II"], 2: ["Fustian I"],
                     3: ["Siege", "Ulm Chronicle"]}
        mine = ["Commercial Goods I", "Reformation"]
        taken = cards_mask(*mine)
        for p, names in hands.items():
            if p >= players:
                continue
            edit_player(s, p, hand=names)
            taken |= cards_mask(*names)
        edit_player(s, 0, hand=mine, supply={"gray": 1, "brown": 2, "orange": 1}, coins=4)
        under = coat("S-2") if variant == 0 else coat("G-Goose")
        unknown = (1 << 12) - 1 & ~(1 << under)
        tail = [under] + [0] * 11
        by = [players - 1] + [0] * 11
        edit(s, pile=((1 << 33) - 1) & ~taken, coat_unknown=unknown, coat_tail_len=1,
             coat_tail=tail, coat_tail_by=by)
        states.append(s)
    return states


UNDER = ["S-1", "G-Garden", "S-3", "S-4"]       # Yellow's coats under the stack


def coats_under_the_stack(players: int = 4, mover: int = 0, by: int = 3) -> ulm.State:
    """`mover` in its action phase beside the Leaning House (a seal there draws 2
    coats, R-PRIV-LEANING); the shuffled part of the coat stack is empty and the
    coats under it (UNDER, top first) were put there by `by`, known to it alone
    (R-COAT-4). The other coats belong to the other players."""
    s = ulm.Game(players=players).new_game(4)
    r = s.raw()
    r["coat_unknown"] = 0
    r["coat_tail_len"] = len(UNDER)
    r["coat_tail"] = [coat(c) for c in UNDER] + [0] * (12 - len(UNDER))
    r["coat_tail_by"] = [by] * len(UNDER) + [0] * (12 - len(UNDER))
    r["coat_tail_known"] = [1 << by] * len(UNDER) + [0] * (12 - len(UNDER))
    board = ulm.Game(players=players).table
    others = [p for p in range(players) if p != mover]
    for i, name in enumerate(COATS):
        if name in UNDER:
            continue
        q = board["coat_quarter"][i]
        owner = others[i % len(others)]
        if q >= 0:
            owner = max(others, key=lambda p: r["players"][p]["crests_left"])
            r["players"][owner]["crests_left"] -= 1
            r["crest_owner"][q] = owner
        r["coat_owner"][i] = owner
        r["players"][owner]["coats"] |= 1 << i
    r["turn_player"], r["phase"] = mover, ACTIONS
    r["avail"] = [0, 0, 0, 0, 1]
    r["players"][mover]["barge"] = 0                # beside the Leaning House
    s.set_raw(r)
    return s


def decided_game(seed: int = 1):
    """Red (the greedy bot) far ahead of Blue (random moves), but in the last
    round it ends a turn with its 3 actions unused; the index of that decision."""
    from mcts.play.bots import make_bot
    from ulm.records import GameRecord
    rec = GameRecord(players=2, seed=seed)
    red, blue = make_bot(f"greedy:seed={seed}"), make_bot(f"random:seed={seed}")
    bad_at = None
    while not rec.state.is_terminal():
        state = rec.state
        raw = state.raw()
        if state.current_player() != 0:
            action = blue.choose(state.clone())
        elif bad_at is None and raw["round"] == 9 and raw["phase"] == 2 and sum(raw["avail"]) == 3:
            action, bad_at = ulm.ACTION_NAMES.index("end turn"), len(rec.decisions)
        else:
            action = red.choose(state.clone())
        rec.apply(action)
    return rec, bad_at


TASK = {name: code for code, name in TASKS.items()}


ALL_CARDS = (1 << len(CARDS)) - 1


def with_task(s: ulm.State, player: int, *tasks: str) -> ulm.State:
    """Seat `player` in its action phase with these tasks pending (last one on top)."""
    r = s.raw()
    r["turn_player"] = player
    r["phase"] = ACTIONS
    r["free_play"] = 0
    for i, t in enumerate(tasks):
        r["task"][i] = TASK[t]
        r["task_arg"][i] = 0
    r["n_tasks"] = len(tasks)
    s.set_raw(r)
    return s


def deal(hands: dict[int, list[str]], discard=(), front: dict[int, list[str]] | None = None,
         pile=None) -> ulm.State:
    """3 players (basic), set-up of seed 4, with these hands, discard pile and cards in
    front; the draw pile holds the rest (or `pile`, the rest then in front of Red)."""
    s = fresh(players=3, seed=4)
    r = s.raw()
    taken = cards_mask(*discard)
    for p, names in hands.items():
        r["players"][p]["hand"] = cards_mask(*names)
        taken |= cards_mask(*names)
    for p, names in (front or {}).items():
        r["players"][p]["front"] |= cards_mask(*names)
        taken |= cards_mask(*names)
    r["discard"] = cards_mask(*discard)
    if pile is None:
        r["pile"] = ALL_CARDS & ~taken
    else:
        r["pile"] = cards_mask(*pile)
        r["players"][0]["front"] |= ALL_CARDS & ~taken & ~r["pile"]
    s.set_raw(r)
    check_invariants(s)
    return s


GROUP = ["Steeple II", "Steeple III", "Nave II", "Nave III"]


def reshuffled() -> ulm.State:
    """Green holds 2 cards drawn face down; the pile holds only Ulm Chronicle and the
    discard pile 4 cards. Blue draws 2 cards: Ulm Chronicle, then (the pile is empty, the
    discard pile is shuffled into a new pile, R-CARD-GET-2) Nave II."""
    s = deal({2: ["Choir II", "City Wall"]}, discard=GROUP, pile=["Ulm Chronicle"])
    with_task(s, 1, "card to hand", "card to hand")
    chance(s, "card Ulm Chronicle")
    assert s.is_chance_node() and s.raw()["reshuffles"] == 1
    chance(s, "card Nave II")
    return s


def coat_state(unknown, tail) -> ulm.State:
    """3 players, Blue (seat 1) in its action phase with a seal action beside the Leaning
    House. tail: [(coat, seat who put it, known-to seats)], top first; the other coats
    belong to Red and Green (golden ones with a crest each)."""
    s = fresh(players=3, seed=4)
    r = s.raw()
    r["coat_unknown"] = sum(1 << coat(c) for c in unknown)
    r["coat_tail_len"] = len(tail)
    r["coat_tail"] = [coat(c) for c, _, _ in tail] + [0] * (12 - len(tail))
    r["coat_tail_by"] = [by for _, by, _ in tail] + [0] * (12 - len(tail))
    r["coat_tail_known"] = [sum(1 << k for k in known) for _, _, known in tail] \
        + [0] * (12 - len(tail))
    inside = set(unknown) | {c for c, _, _ in tail}
    board = ulm.Game(players=3).table
    for i, name in enumerate(COATS):
        if name in inside:
            continue
        q = board["coat_quarter"][i]
        owner = 2
        if q >= 0:
            owner = min((0, 2, 1), key=lambda p: 3 - r["players"][p]["crests_left"])
            r["players"][owner]["crests_left"] -= 1
            r["crest_owner"][q] = owner
        r["coat_owner"][i] = owner
        r["players"][owner]["coats"] |= 1 << i
    r["turn_player"], r["phase"] = 1, ACTIONS
    r["avail"] = [0, 0, 0, 0, 1]
    r["players"][1]["barge"] = 0                   # beside the Leaning House
    s.set_raw(r)
    return s


def leaning(s: ulm.State) -> ulm.State:
    """Blue seals in the Leaning House: it draws 2 coats (R-PRIV-LEANING)."""
    return do(s, "seal in Leaning House")


def knowledge_state() -> ulm.State:
    """After `reshuffled()`, Blue also takes Works of Art I face up from the discard pile:
    Blue holds one hidden card of each group and one known card."""
    s = with_task(goose_on(reshuffled()), 1, "goose tower choice")
    return do(s, "take Works of Art I from the discard pile")


def goose_on(s: ulm.State) -> ulm.State:
    r = s.raw()
    r["discard"] |= cards_mask("Works of Art I")
    r["players"][0]["front"] &= ~cards_mask("Works of Art I")
    s.set_raw(r)
    return s
