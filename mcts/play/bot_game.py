"""One game between bots: the seeds the bots play it with, the game itself, and
the ranks of its result (mcts.play.tournament plays many; mcts.play.pool dispatches them)."""
from __future__ import annotations

import time

from ulm import ACTION_NAMES, SEATS, derive_seed
from ulm.records import GameRecord


def bot_seed(spec_seed: int, game_seed: int, seat: int) -> int:
    """The seed a bot plays one game with: its spec's seed (0 unless written)
    mixed with the deal's seed and its seat. Games stay reproducible, and a
    seed written in a spec does not replay one random stream in every game."""
    return derive_seed(spec_seed, game_seed, seat)


def play_game(specs: list[str], seed: int, variant: str = "basic", board=None,
              log=None, record_path=None) -> dict:
    """Play one game; `specs[i]` plays seat i. Returns the game's result row.

    `log(text)`, if given, receives a readable line per turn."""
    from mcts.play.bots import make_bot
    bots = [make_bot(spec) for spec in specs]
    for seat, bot in enumerate(bots):
        bot.reseed(bot_seed(bot.seed, seed, seat))
    rec = GameRecord(players=len(specs), variant=variant, seed=seed, board=board, bots=specs)
    state = rec.state
    thinking = [0.0] * len(specs)
    turn_actions: list[str] = []
    while not state.is_terminal():
        p = state.current_player()
        t0 = time.perf_counter()
        action = bots[p].choose(state.clone())
        thinking[p] += time.perf_counter() - t0
        before = state.raw()
        rec.apply(action)
        if log is not None:
            turn_actions.append(ACTION_NAMES[action])
            after = state.raw()
            if state.is_terminal() or (after["turn_player"], after["round"]) != (
                    before["turn_player"], before["round"]):
                log(f"round {before['round'] + 1:2d} {SEATS[p]:<6} ({specs[p]}): "
                    + "; ".join(turn_actions) + f"  -> {state.scores()[p]} VP")
                turn_actions = []
    if record_path:
        rec.save(record_path)
    scores = state.scores()
    returns = state.returns()
    return {"seed": seed, "bots": list(specs), "scores": scores, "returns": returns,
            "ranks": ranks_of(scores, returns), "decisions": len(rec.decisions),
            "seconds": [round(t, 3) for t in thinking],
            "breakdown": [state.score_breakdown(p) for p in range(len(specs))]}


def ranks_of(scores: list[int], returns: list[float]) -> list[float]:
    """Rank 1 = winner; the others by score. Ties share the average of their
    places (fractional ranking): two shared winners both get 1.5, so the ranks
    of a game always add up to 1 + 2 + ... + N."""
    n = len(scores)
    key = [(returns[p] > 0, scores[p]) for p in range(n)]
    ranks = []
    for p in range(n):
        better = sum(1 for q in range(n) if key[q] > key[p])
        equal = sum(1 for q in range(n) if key[q] == key[p])
        ranks.append(better + (equal + 1) / 2)
    return ranks
