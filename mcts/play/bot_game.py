"""One game between bots: the seeds the bots play it with, the game itself, and
the ranks of its result (mcts.play.tournament plays many; mcts.play.pool dispatches them)."""
from __future__ import annotations

import time

from ulm import ACTION_NAMES, SEATS, derive_seed
from ulm.records import GameRecord

from mcts.play.engines.faults import BotFault

FORFEIT_STREAM = 0x464f524645495400   # the seed stream of a forfeited seat's random bot


def bot_seed(spec_seed: int, game_seed: int, seat: int) -> int:
    """The seed a bot plays one game with: its spec's seed (0 unless written)
    mixed with the deal's seed and its seat. Games stay reproducible, and a
    seed written in a spec does not replay one random stream in every game."""
    return derive_seed(spec_seed, game_seed, seat)


def play_game(specs: list[str], seed: int, variant: str = "basic", board=None,
              log=None, record_path=None, game: int | None = None) -> dict:
    """Play one game; `specs[i]` plays seat i. Returns the game's result row.

    `log(text)`, if given, receives a readable line per turn. `game`, the game's
    number in a tournament, names the engines' log files.

    A guest bot (an engine program or a Python plug-in: docs/engines.md) that
    faults forfeits the game: it is ranked last and wins nothing. In 3 and 4
    players the game goes on for the others, the forfeited seat's decisions made
    by the `random` bot with the seat's seed (so a replay plays the same game);
    in 2 players the game ends there and the other seat wins. The row's
    `forfeits` says who forfeited, when and why; every guest's process is ended
    before this returns, also on an interruption."""
    from mcts.play.bots import RandomBot, make_bot
    bots = [make_bot(spec) for spec in specs]
    n = len(specs)
    guests = [getattr(bot, "guest", False) for bot in bots]
    observers = [b for b in bots if getattr(b, "guest", False) and hasattr(b, "observe")]
    rec = GameRecord(players=n, variant=variant, seed=seed, board=board, bots=specs)
    state = rec.state
    thinking = [0.0] * n
    moves = [0] * n
    longest = [0.0] * n
    forfeits: dict[int, dict] = {}
    turn_actions: list[str] = []

    def forfeit(p: int, fault) -> None:
        forfeits[p] = dict(fault.to_dict(), decision=len(rec.decisions) + 1)
        close = getattr(bots[p], "close", None)
        if close is not None:
            close()
        if bots[p] in observers:
            observers.remove(bots[p])
        # the seat plays on with the random bot of its own seed (the same in a replay)
        bots[p] = RandomBot(seed=bot_seed(FORFEIT_STREAM, seed, p))
        if log is not None:
            log(f"{SEATS[p]} ({specs[p]}) forfeits: {fault.reason}")

    for seat, bot in enumerate(bots):
        try:
            bot.reseed(bot_seed(bot.seed, seed, seat))
            if guests[seat] and hasattr(bot, "begin_game"):
                label = f"game-{game}.{SEATS[seat]}" if game is not None else SEATS[seat]
                bot.begin_game(n, seat, variant, label)
        except BotFault as fault:       # a plug-in's reseed that raised
            forfeit(seat, fault)
    try:
        while not state.is_terminal() and not (n == 2 and forfeits):
            p = state.current_player()
            t0 = time.perf_counter()
            try:
                action = bots[p].choose(state.clone())
            except Exception as exc:
                if not guests[p] or p in forfeits:
                    raise
                forfeit(p, exc if isinstance(exc, BotFault) else BotFault(
                    "exception", f"{type(exc).__name__}: {str(exc)[:200]}"))
                if n == 2:
                    break
                continue
            took = time.perf_counter() - t0
            # an engine's own measure leaves out its start-up before the first decision
            took = getattr(bots[p], "last_seconds", None) or took
            if p not in forfeits:
                thinking[p] += took
                moves[p] += 1
                longest[p] = max(longest[p], took)
            before = state.raw()
            if observers:
                for bot in observers:
                    bot.observe(state, action)
                state.apply_action(action)
                rec.decisions.append(action)
                while state.is_chance_node():   # as GameRecord.apply draws them
                    outcome = state.sample_chance_outcome()
                    for bot in observers:
                        bot.observe(state, outcome)
                    state.apply_action(outcome)
            else:
                rec.apply(action)
            if log is not None:
                turn_actions.append(ACTION_NAMES[action])
                after = state.raw()
                if state.is_terminal() or (after["turn_player"], after["round"]) != (
                        before["turn_player"], before["round"]):
                    log(f"round {before['round'] + 1:2d} {SEATS[p]:<6} ({specs[p]}): "
                        + "; ".join(turn_actions) + f"  -> {state.scores()[p]} VP")
                    turn_actions = []
        for p, bot in enumerate(bots):
            if guests[p] and p not in forfeits and hasattr(bot, "end_game"):
                try:
                    bot.end_game(state, forfeits)
                except BotFault as fault:
                    forfeit(p, fault)
    finally:
        for bot in bots:
            close = getattr(bot, "close", None)
            if close is not None:
                close()
    infos = {SEATS[p]: found for p, bot in enumerate(bots)
             if (found := getattr(bot, "infos", None))}
    if record_path:
        rec.forfeits = {SEATS[p]: f for p, f in sorted(forfeits.items())} or None
        rec.info = infos or None
        rec.save(record_path)
    scores = state.scores()
    returns = state.returns()
    if forfeits:
        returns = returns_after_forfeits(scores, returns, set(forfeits))
    row = {"seed": seed, "bots": list(specs), "scores": scores, "returns": returns,
           "ranks": ranks_of(scores, returns, set(forfeits)), "decisions": len(rec.decisions),
           # to the microsecond: a bot or an engine that answers at once takes well under
           # 1 ms a decision, and the report's time per decision is summed from these
           "seconds": [round(t, 6) for t in thinking],
           "moves": moves, "longest": [round(t, 6) for t in longest],
           "forfeits": [forfeits.get(p) for p in range(n)],
           "breakdown": [state.score_breakdown(p) for p in range(n)]}
    if infos:
        row["info"] = infos
    return row


def returns_after_forfeits(scores: list[int], returns: list[float],
                           forfeited: set[int]) -> list[float]:
    """A forfeited seat wins nothing; when it held the win, the seats that did not
    forfeit with the best result (a win, then the score) share it."""
    n = len(scores)
    kept = [p for p in range(n) if p not in forfeited]
    if not kept:
        return [0.0] * n
    if any(returns[p] > 0 for p in kept):
        return [0.0 if p in forfeited else returns[p] for p in range(n)]
    best = max(scores[p] for p in kept)
    winners = [p for p in kept if scores[p] == best]
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(n)]


def ranks_of(scores: list[int], returns: list[float],
             forfeited: set[int] | frozenset[int] = frozenset()) -> list[float]:
    """Rank 1 = winner; the others by score; a seat that forfeited after all the
    others. Ties share the average of their places (fractional ranking): two
    shared winners both get 1.5, so the ranks of a game always add up to
    1 + 2 + ... + N."""
    n = len(scores)
    key = [(p not in forfeited, returns[p] > 0, scores[p]) for p in range(n)]
    ranks = []
    for p in range(n):
        better = sum(1 for q in range(n) if key[q] > key[p])
        equal = sum(1 for q in range(n) if key[q] == key[p])
        ranks.append(better + (equal + 1) / 2)
    return ranks
