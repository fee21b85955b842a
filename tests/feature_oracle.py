"""The feature vector of mcts.searcher.features computed from the public API only
(``state.raw()``, ``score_breakdown``, ``projected_scores`` and the 14
features of ``mcts.searcher._search.eval_features_of``): an independent reading of the
documented layout, to check the compiled encoder against."""
import numpy as np

from ulm import (CARDS, COATS, COLOURS, PHASES, PUSH_ENTRY_OUTER, PUSH_EXIT_OUTER, RIVER_LENGTH,
                 SOURCES, TOWER_TILES, TOWER_VARIANTS, VARIANTS)

from mcts.searcher.features import (DESC_ON_BOARD, DESC_UNSEEN, GLOBAL_SIZE, NUM_OUTER, NUM_TASK_KINDS,
                           PLAYER_SIZE, ROUNDS, TURN_FLAGS)


def _bits(mask: int, count: int) -> list[int]:
    return [(mask >> i) & 1 for i in range(count)]


def _one_hot(index: int, count: int) -> list[int]:
    out = [0] * count
    if 0 <= index < count:
        out[index] = 1
    return out


def encode(state) -> np.ndarray:
    """The neutral feature vector of `state`, read through the public API."""
    from mcts.searcher._search import eval_features_of
    r = state.raw()
    n = r["num_players"]
    assert n in (2, 3, 4)
    g: list = []
    g += _one_hot(n - 2, 3)
    g.append(VARIANTS[r["variant"]] in TOWER_VARIANTS)
    g += _one_hot(r["round"], ROUNDS)
    g.append(1.0 - min(r["round"] * n + r["turn_player"], ROUNDS * n) / (ROUNDS * n))
    g += _one_hot(r["phase"], len(PHASES))
    for tile in r["grid"]:
        g += _one_hot(tile, len(COLOURS))
    for tile in r["outer"]:
        g += _one_hot(tile, len(COLOURS))
    outer = r["outer"]
    g += [int(outer[a] < 0 and outer[b] < 0) for a, b in zip(PUSH_ENTRY_OUTER, PUSH_EXIT_OUTER)]
    g += r["bag"]
    g += r["docks"]
    g.append(r["tiles_added"])
    pile, discard = _bits(r["pile"], len(CARDS)), _bits(r["discard"], len(CARDS))
    g += pile + [sum(pile)] + discard + [sum(discard)]
    g.append(r["reshuffles"])
    stack = _bits(r["coat_unknown"], len(COATS))
    for coat in r["coat_tail"][:r["coat_tail_len"]]:
        stack[coat] = 1
    g += stack + [sum(stack)]
    g += _one_hot(r["tower_current"], len(TOWER_TILES))
    g += _one_hot(r["tower_next"], len(TOWER_TILES))
    g += _bits(r["tower_unseen"], len(TOWER_TILES))
    g += [int(d == DESC_ON_BOARD) for d in r["desc"]]
    g += [int(d == DESC_UNSEEN) for d in r["desc"]]
    g += r["quarter_seals"]
    for tile in r["drawn"]:
        g += _one_hot(tile, len(COLOURS))
    g += r["avail"]
    g += r["extra"]
    g += [r[f] for f in TURN_FLAGS]
    g += _one_hot(r["pushed_out_at"], NUM_OUTER)
    tasks = r["task"][:r["n_tasks"]]
    g.append(len(tasks))
    g += [int(k in tasks) for k in range(1, NUM_TASK_KINDS + 1)]
    assert len(g) == GLOBAL_SIZE

    projected = state.projected_scores()
    turn_player = r["turn_player"]
    vec = g
    for p, pl in enumerate(r["players"]):
        b: list = []
        b += _one_hot(p, 4)
        b.append(int(p == turn_player and r["phase"] < 3))
        b.append((p - turn_player) % n)
        b.append(pl["score"])
        b.append(projected[p])
        breakdown = state.score_breakdown(p)
        b += [breakdown[source] for source in SOURCES]
        b += [pl["coins"], pl["sparrows"], pl["barge"], pl["seals_left"], pl["crests_left"]]
        b += _one_hot(pl["barge"], RIVER_LENGTH)
        b += pl["supply"] + [sum(pl["supply"])]
        b += pl["seals_in"] + [sum(1 for s in pl["seals_in"] if s > 0)]
        hand, front = _bits(pl["hand"], len(CARDS)), _bits(pl["front"], len(CARDS))
        b += hand + [sum(hand)] + front + [sum(front)]
        coats = _bits(pl["coats"], len(COATS))
        b += coats + [sum(coats)]
        b += [int(o == p) for o in r["crest_owner"]]
        b += [int(m == p) for m in r["outer_mark"]]
        b += [int(d == p) for d in r["desc"]]
        b.append(sum((k >> p) & 1 for k in r["coat_tail_known"][:r["coat_tail_len"]]))
        b += list(eval_features_of(state, p)[1:14])
        assert len(b) == PLAYER_SIZE
        vec += b
    return np.asarray(vec, dtype=np.float32)
