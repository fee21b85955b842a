"""A game between people and bots, one decision at a time, with undo and hints.

    >>> from mcts.play.session import PlaySession
    >>> game = PlaySession(["human", "ismcts:iterations=2000"], seed=3)
    >>> while not game.state.is_terminal():
    ...     if game.human_to_move():
    ...         game.play(game.state.legal_actions()[0])   # a person's choice
    ...     else:
    ...         game.bot_move()
    >>> game.record.save("game.json")

The chance events after each decision are drawn by the game's dealer (seeded
by `seed`; without one, by a secret seed drawn here) exactly as
`GameRecord.apply` draws them, so the saved record replays with `ulm replay`;
`events` lists them in ordinary words as each seat may see them
(ulm.decisions.decision_words).

Everything a session will do is fixed by its record: bot k's decision n is
searched with the stream `derive_seed(bot_seed(spec seed, game seed, k), n)`
(mcts.play.bots, mcts.play.bot_game.bot_seed), undo takes the bots' streams back with their
decisions, and a hint does not draw from them. So a game stopped and saved
goes on exactly as it would have, and the same record with the same answers
of the people is the same game:

    >>> game = PlaySession.resume(load_record("game.json"))

The seed deals every card, so while the game is played it is the dealer's
secret unless the person chose it: `shown_seed()` is what a person at the table
may be told (their own seed, or any seed once the game is over; the record names
it then, and a stopped game's record names it too, to go on with).
"""
from __future__ import annotations

import secrets
from typing import Any

from ulm import ACTION_NAMES
from ulm.decisions import decision_words
from ulm.records import GameRecord

HUMAN = "human"


class PlaySession:
    """Seats are bot specs or "human"; people move with play(), bots with bot_move()."""

    def __init__(self, seats: list[str], seed: int | None = None, variant: str = "basic",
                 board: str | None = None, record: GameRecord | None = None):
        """`seed` None: the dealer's secret seed (shown_seed() is None until the end)."""
        from mcts.play.bots import make_bot
        from mcts.play.bot_game import bot_seed
        self.seats = list(seats)
        self.secret_seed = seed is None and record is None
        self.record = record or GameRecord(
            players=len(seats), variant=variant, board=board, bots=self.seats,
            seed=secrets.randbits(64) if seed is None else seed)
        self.record.bots = self.seats
        self.bots = []
        for seat, spec in enumerate(self.seats):   # seeded as in a bot game (play_game)
            bot = None if spec == HUMAN else make_bot(spec, len(seats))
            if bot is not None:
                bot.reseed(bot_seed(bot.seed, self.record.seed, seat))
                if getattr(bot, "guest", False) and hasattr(bot, "begin_game"):
                    bot.begin_game(len(seats), seat, self.record.game.variant)
            self.bots.append(bot)
        # the guests that keep the events as their seat saw them (engines: docs/engines.md)
        self._observers: list[Any] = [b for b in self.bots
                                      if getattr(b, "guest", False) and hasattr(b, "observe")]
        # (state, decisions so far, the bots' decision counts) before each person's move
        self._undo: list[tuple] = []

    @classmethod
    def resume(cls, record: GameRecord, secret_seed: bool = False) -> "PlaySession":
        """The session of a saved game (a record with the seats in `bots`: specs and
        "human"), going on exactly as if it had not been stopped: each bot's stream is
        where its last decision left it, and the people's decisions can be undone.
        `secret_seed`: the record's seed is still the dealer's secret (a record kept by
        a server, not one the person holds)."""
        seats = record.bots
        if not seats or len(seats) != record.game.num_players:
            raise ValueError("the record does not name the seats (bots) of the game")
        game = cls(seats, seed=record.seed, variant=record.game.variant, board=record.board,
                   record=GameRecord(players=len(seats), variant=record.game.variant,
                                     seed=record.seed, board=record.board, bots=seats))
        game.secret_seed = secret_seed
        for action in record.decisions:
            p = game.state.current_player()
            if seats[p] == HUMAN:
                game._undo.append(game._snapshot())
            else:
                if hasattr(game.bots[p], "calls"):  # its stream moves on as choose() moved it
                    game.bots[p].calls += 1
            game._apply(action)
        return game

    def _snapshot(self) -> tuple:
        return (self.state.clone(), len(self.record.decisions),
                # a bot's decision count (its random stream); a guest keeps none
                [getattr(b, "calls", None) for b in self.bots])

    @property
    def state(self):
        return self.record.state

    def shown_seed(self) -> int | None:
        """The seed of the deal as the people at the table may see it: the seed they
        chose, or the dealer's once the game is over; None while it deals the cards in
        secret (it tells every card to come: R-INFO-2)."""
        if self.secret_seed and not self.state.is_terminal():
            return None
        return self.record.seed

    def human_to_move(self) -> bool:
        p = self.state.current_player()
        return p >= 0 and self.seats[p] == HUMAN

    def _apply(self, action: int, viewer: int | None = None) -> list[str]:
        """Apply a decision and draw the chance events after it; returns those events as
        `viewer` may see them."""
        state = self.state
        for bot in self._observers:
            bot.observe(state, action)
        state.apply_action(action)
        self.record.decisions.append(action)
        events = []
        while state.is_chance_node():
            a = state.sample_chance_outcome()     # the dealer, as GameRecord.apply
            events.append(decision_words(state, a, viewer))
            for bot in self._observers:
                bot.observe(state, a)
            state.apply_action(a)
        return events

    def play(self, action: int, viewer: int | None = None) -> list[str]:
        """A person's decision (checked); returns the chance events that followed."""
        if not self.human_to_move():
            raise ValueError("it is not a person's turn to decide")
        if action not in self.state.legal_actions():
            raise ValueError(self.state._illegal_message(action))
        self._undo.append(self._snapshot())
        return self._apply(action, viewer)

    def bot_move(self, viewer: int | None = None) -> tuple[int, int, list[str]]:
        """Let the bot to move decide; returns (seat, action, chance events after it)."""
        p = self.state.current_player()
        if p < 0 or self.bots[p] is None:
            raise ValueError("it is not a bot's turn to decide")
        action = self.bots[p].choose(self.state.clone())
        return p, action, self._apply(action, viewer)

    def can_undo(self) -> bool:
        return bool(self._undo)

    def undo(self) -> int | None:
        """Take back the last decision of a person (and the bots' decisions after it, with
        their streams: played again, they are the same); returns the action taken back,
        or None when there is none."""
        from mcts.play.bots import IsmctsBot
        if not self._undo:
            return None
        state, n, calls = self._undo.pop()
        action = self.record.decisions[n]
        self.record.state = state
        del self.record.decisions[n:]
        for bot, k in zip(self.bots, calls):
            if bot is not None and k is not None:
                bot.calls = k
                if isinstance(bot, IsmctsBot):   # a reused tree belongs to the undone line
                    bot._tree = bot._expected = None
        for bot in self._observers:     # an engine's own state followed the undone line:
            bot.close()                 # it starts afresh, its events from here on
            bot.events = []
        return action

    def hint(self, iterations: int | None = 2000, time: float | None = None,
             seed: int | None = None, progress=None):
        """The searcher's advice for the player to move (from that player's knowledge).
        The seed is the number of decisions so far unless given; `progress(iterations,
        seconds)` as mcts.searcher.search calls it. Ctrl-C (KeyboardInterrupt) stops it at once;
        the game is not changed."""
        from mcts.searcher.search import search
        if seed is None:
            seed = len(self.record.decisions)
        return search(self.state, iterations=iterations, time=time, seed=seed,
                      progress=progress)

    def name(self, action: int) -> str:
        return ACTION_NAMES[action]
