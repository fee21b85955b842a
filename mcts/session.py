"""A game between people and bots, one decision at a time, with undo and hints.

    >>> from mcts.session import PlaySession
    >>> game = PlaySession(["human", "ismcts:iterations=2000"], seed=3)
    >>> while not game.state.is_terminal():
    ...     if game.human_to_move():
    ...         game.play(game.state.legal_actions()[0])   # a person's choice
    ...     else:
    ...         game.bot_move()
    >>> game.record.save("game.json")

The chance events after each decision are drawn by the game's dealer (seeded
by `seed`) exactly as `GameRecord.apply` draws them, so the saved record
replays with `ulm replay`; `events` lists them in ordinary words as each
seat may see them (ulm.decisions.decision_words).
"""
from __future__ import annotations

from ulm import ACTION_NAMES
from ulm.decisions import decision_words
from ulm.records import GameRecord

HUMAN = "human"


class PlaySession:
    """Seats are bot specs or "human"; people move with play(), bots with bot_move()."""

    def __init__(self, seats: list[str], seed: int = 0, variant: str = "basic",
                 board: str | None = None, record: GameRecord | None = None):
        from mcts.bots import make_bot
        from mcts.games import bot_seed
        self.seats = list(seats)
        self.record = record or GameRecord(players=len(seats), variant=variant, seed=seed,
                                           board=board, bots=self.seats)
        self.record.bots = self.seats
        self.bots = []
        for seat, spec in enumerate(self.seats):   # seeded as in a bot game (play_game)
            bot = None if spec == HUMAN else make_bot(spec)
            if bot is not None:
                bot.reseed(bot_seed(bot.seed, self.record.seed, seat))
            self.bots.append(bot)
        self._undo: list[tuple] = []          # (state, decisions so far) before a person's move

    @property
    def state(self):
        return self.record.state

    def human_to_move(self) -> bool:
        p = self.state.current_player()
        return p >= 0 and self.seats[p] == HUMAN

    def _apply(self, action: int, viewer: int | None = None) -> list[str]:
        """Apply a decision and draw the chance events after it; returns those events as
        `viewer` may see them."""
        state = self.state
        state.apply_action(action)
        self.record.decisions.append(action)
        events = []
        while state.is_chance_node():
            a = state.sample_chance_outcome()     # the dealer, as GameRecord.apply
            events.append(decision_words(state, a, viewer))
            state.apply_action(a)
        return events

    def play(self, action: int, viewer: int | None = None) -> list[str]:
        """A person's decision (checked); returns the chance events that followed."""
        if not self.human_to_move():
            raise ValueError("it is not a person's turn to decide")
        if action not in self.state.legal_actions():
            raise ValueError(self.state._illegal_message(action))
        self._undo.append((self.state.clone(), len(self.record.decisions)))
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
        """Take back the last decision of a person (and the bots' decisions after it);
        returns the action taken back, or None when there is none."""
        if not self._undo:
            return None
        state, n = self._undo.pop()
        action = self.record.decisions[n]
        self.record.state = state
        del self.record.decisions[n:]
        return action

    def hint(self, iterations: int | None = 2000, time: float | None = None, seed: int = 0):
        """The searcher's advice for the player to move (from that player's knowledge)."""
        from mcts.search import search
        return search(self.state, iterations=iterations, time=time, seed=seed)

    def name(self, action: int) -> str:
        return ACTION_NAMES[action]
