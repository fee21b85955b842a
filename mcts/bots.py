"""Bots with one interface, built from a spec string.

    >>> bot = make_bot("ismcts:iterations=2000,c=0.7,rollout=heuristic,workers=2,seed=3")
    >>> action = bot.choose(state)          # a decision of the player to move

Specs: ``NAME`` or ``NAME:OPTION=VALUE,OPTION=VALUE``. Bots:

* ``random`` - uniform among the legal decisions.
* ``greedy`` - one ply: each decision is applied to a copy, the chance events
  after it are resolved with one fixed sample, and the mover's position is
  scored (projected VP + resources + unused actions; see ``_search.evaluate``).
* ``ismcts`` - Information Set MCTS (mcts.search) for the player to move.
* ``pimc`` - Perfect Information Monte Carlo: `determinizations` redeals of the
  hidden information, a perfect-information UCT search on each, root visit
  counts summed ("votes").
* ``cheat`` - UCT on the true state, hidden information included: an upper
  reference for experiments only, never for advice.

Every bot is seeded (``seed=``, default 0): the same seed and the same
sequence of states give the same decisions. Decision k draws from the stream
``ulm.derive_seed(seed, k)``. In a game (mcts.tournament.play_game) the bot's
seed is first mixed with the deal's seed and the seat, so a seed written in a
spec keeps games reproducible while every game gets its own stream.
"""
from __future__ import annotations

import difflib

from ulm import derive_seed

from mcts import _search
from mcts.search import (DEFAULT_C, DEFAULT_MARGIN_WEIGHT, DEFAULT_ROLLOUT, ROLLOUTS,
                         check_workers, search)


def _positive_int(name):
    def parse(text):
        try:
            value = int(text)
        except (TypeError, ValueError):
            value = None
        if value is None or value < 1:
            raise ValueError(f"{name} must be a positive whole number, got {text!r}")
        return value
    return parse


def _seed(text):
    try:
        return int(text)
    except (TypeError, ValueError):
        raise ValueError(f"seed must be a whole number, got {text!r}") from None


def _non_negative_float(name):
    def parse(text):
        try:
            value = float(text)
        except (TypeError, ValueError):
            value = None
        if value is None or not value >= 0 or value == float("inf"):
            raise ValueError(f"{name} must be a number >= 0, got {text!r}")
        return value
    return parse


def _positive_float(name):
    def parse(text):
        try:
            value = float(text)
        except (TypeError, ValueError):
            value = None
        if value is None or not value > 0 or value == float("inf"):
            raise ValueError(f"{name} must be a positive number of seconds, got {text!r}")
        return value
    return parse


def _workers(text):
    value = _positive_int("workers")(text)
    try:
        return check_workers(value)
    except ValueError as exc:
        raise ValueError(str(exc).replace("workers: ", "workers must be ", 1)) from None


def _rollout(text):
    if text not in ROLLOUTS:
        raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}, got {text!r}")
    return text


_SEARCH_OPTIONS = {
    "iterations": _positive_int("iterations"),
    "time": _positive_float("time"),
    "c": _non_negative_float("c"),
    "rollout": _rollout,
    "margin": _non_negative_float("margin"),
    "seed": _seed,
}


class Bot:
    """A player: `choose(state)` returns a legal decision of the player to move."""
    name = "bot"
    options: dict = {"seed": _seed}
    defaults: dict = {"seed": 0}

    def __init__(self, **options):
        self.config = dict(self.defaults)
        self.config.update(options)
        self.seed = self.config["seed"]
        self.calls = 0

    def reseed(self, seed: int) -> None:
        """Start again from `seed` (the decisions' streams derive from it)."""
        self.config["seed"] = self.seed = seed
        self.calls = 0

    @property
    def spec(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in sorted(self.config.items()) if v is not None)
        return f"{self.name}:{opts}" if opts else self.name

    def __repr__(self):
        return f"<{type(self).__name__} {self.spec}>"

    def _next_seed(self) -> int:
        """A fresh seed for each decision, derived from the bot's seed."""
        self.calls += 1
        return derive_seed(self.seed, self.calls)

    def choose(self, state) -> int:
        if state.current_player() < 0:
            raise ValueError(f"{self.name}: choose() needs a decision of a player, "
                             "not a chance node or the end of the game")
        return self._choose(state)

    def _choose(self, state) -> int:  # pragma: no cover - abstract
        raise NotImplementedError


class RandomBot(Bot):
    """Uniform among the legal decisions."""
    name = "random"

    def _choose(self, state):
        legal = state.legal_actions()
        # the top 32 bits scaled to the count: uniform to within 2**-25
        return legal[((self._next_seed() >> 32) * len(legal)) >> 32]


class GreedyBot(Bot):
    """One ply with a heuristic evaluation of the mover's position."""
    name = "greedy"

    def _choose(self, state):
        return _search.greedy_action(state, self._next_seed())


class _SearchBot(Bot):
    """A bot with a search budget: a time budget alone means no iteration limit."""

    def __init__(self, **options):
        if "time" in options and "iterations" not in options:
            options = dict(options, iterations=None)
        super().__init__(**options)


class IsmctsBot(_SearchBot):
    """Information Set MCTS (SO-ISMCTS) with the player's knowledge only."""
    name = "ismcts"
    determinize = True
    options = dict(_SEARCH_OPTIONS, workers=_workers)
    defaults = {"iterations": 1000, "c": DEFAULT_C, "rollout": DEFAULT_ROLLOUT,
                "margin": DEFAULT_MARGIN_WEIGHT, "workers": 1, "seed": 0}
    last_result = None

    def _choose(self, state):
        cfg = self.config
        self.last_result = search(state, iterations=cfg["iterations"], time=cfg.get("time"),
                                  c=cfg["c"], rollout=cfg["rollout"], seed=self._next_seed(),
                                  workers=cfg["workers"], margin_weight=cfg["margin"],
                                  determinize=self.determinize)
        return self.last_result.best_action


class CheatBot(IsmctsBot):
    """UCT on the true state (sees the hidden information): reference only."""
    name = "cheat"
    determinize = False


class PimcBot(_SearchBot):
    """Perfect Information Monte Carlo: UCT on several determinizations, votes summed."""
    name = "pimc"
    options = dict(_SEARCH_OPTIONS, determinizations=_positive_int("determinizations"))
    defaults = {"determinizations": 10, "iterations": 200, "c": DEFAULT_C,
                "rollout": DEFAULT_ROLLOUT, "margin": DEFAULT_MARGIN_WEIGHT, "seed": 0}
    last_votes = None

    def _choose(self, state):
        cfg = self.config
        player = state.current_player()
        base = self._next_seed()
        votes: dict = {}
        value: dict = {}
        per_tree_time = None if cfg.get("time") is None else cfg["time"] / cfg["determinizations"]
        for d in range(cfg["determinizations"]):
            world = state.resample_from_infostate(player, derive_seed(base, d, 0))
            tree = _search.Searcher(world, c=cfg["c"], rollout=cfg["rollout"],
                                    seed=derive_seed(base, d, 1),
                                    margin_weight=cfg["margin"], determinize=False)
            tree.run(cfg["iterations"], per_tree_time)
            for key, visits, _avail, rewards, _wins in tree.root_stats():
                votes[key] = votes.get(key, 0) + visits
                value[key] = value.get(key, 0.0) + rewards[player]
        self.last_votes = votes
        return max(votes, key=lambda k: (votes[k], value[k] / max(votes[k], 1), -k))


BOTS = {cls.name: cls for cls in (RandomBot, GreedyBot, IsmctsBot, PimcBot, CheatBot)}


def _closest(word, choices):
    near = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.4)
    return f" (did you mean {near[0]!r}?)" if near else ""


def make_bot(spec: str) -> Bot:
    """A bot from a spec like ``ismcts:iterations=2000,c=0.7,seed=3`` or ``random``.

    Raises ValueError naming the bad part: an unknown bot (with the known ones),
    an unknown option (with the closest valid one), a malformed or bad value."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"bot spec: expected NAME or NAME:OPTION=VALUE,..., got {spec!r}; "
                         f"known bots: {', '.join(sorted(BOTS))}")
    name, _, rest = spec.strip().partition(":")
    name = name.strip()
    if name not in BOTS:
        raise ValueError(f"bot spec {spec!r}: unknown bot {name!r}{_closest(name, BOTS)}; "
                         f"known bots: {', '.join(sorted(BOTS))}")
    cls = BOTS[name]
    options = {}
    if rest.strip():
        for part in rest.split(","):
            part = part.strip()
            key, eq, text = part.partition("=")
            key, text = key.strip(), text.strip()
            if not eq or not key or not text:
                raise ValueError(f"bot spec {spec!r}: {name}: bad option {part!r}; "
                                 "write OPTION=VALUE")
            if key not in cls.options:
                raise ValueError(f"bot spec {spec!r}: {name}: unknown option {key!r}"
                                 f"{_closest(key, cls.options)}; options: "
                                 f"{', '.join(sorted(cls.options))}")
            if key in options:
                raise ValueError(f"bot spec {spec!r}: {name}: option {key!r} given twice")
            try:
                options[key] = cls.options[key](text)
            except ValueError as exc:
                raise ValueError(f"bot spec {spec!r}: {name}: {exc}") from None
    return cls(**options)
