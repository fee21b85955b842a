"""Bots with one interface, built from a spec string.

    >>> bot = make_bot("ismcts:time=0.05,seed=3")
    >>> action = bot.choose(state)          # a decision of the player to move

Specs: ``NAME`` or ``NAME:OPTION=VALUE,OPTION=VALUE``; every option is in one
table, `OPTIONS` (``ulm bots`` lists them). Bots:

* ``random`` - uniform among the legal decisions.
* ``greedy`` - one ply: each decision is applied to a copy, the chance events
  after it are resolved with one fixed sample, and the mover's position is
  scored (projected VP + resources + unused actions; see ``_search.evaluate``).
* ``ismcts`` - Information Set MCTS (mcts.searcher.search) for the player to move;
  ``preset=baseline`` is the previous release's search, ``preset=v0.2`` the
  default search of release 0.2 pinned (its options and evaluation weights
  written out, so later changes to the defaults do not move it); both are
  fixed references for comparisons.
* ``pimc`` - Perfect Information Monte Carlo: `determinizations` redeals of the
  hidden information, a perfect-information UCT search on each, root visit
  counts summed ("votes").
* ``cheat`` - UCT on the true state, hidden information included: an upper
  reference for experiments only, never for advice.

Every bot is seeded (``seed=``, default 0): the same seed and the same
sequence of states give the same decisions. Decision k draws from the stream
``ulm.derive_seed(seed, k)``. In a game (mcts.play.tournament.play_game) the bot's
seed is first mixed with the deal's seed and the seat, so a seed written in a
spec keeps games reproducible while every game gets its own stream. A
decision with a single legal choice is returned without a search (a bot
needs no estimate of it; `IsmctsBot.last_result` is then None).
"""
from __future__ import annotations

import time as _time

from ulm import derive_seed
from ulm.errors import OptionError
from ulm.names import did_you_mean
from ulm.numbers import shown

from mcts.searcher import _search
from mcts.searcher.learned import learned_weights
from mcts.searcher.params import (DEFAULT_MARGIN_WEIGHT, DEFAULT_ROLLOUT, FULL_ROLLOUT_C,
                                  MAX_ITERATIONS, SEARCH_BOTS, SPEC_OPTIONS, Option, SearchParams,
                                  implied, read_spec, spec_name, spec_parts, whole_text)
from mcts.searcher.params import PRESETS as PRESET_PARAMS
from mcts.searcher.search import search


SHOWN_SPEC_CHARS = 200      # a longer spec is quoted by its start in messages


def _determinizations(name, value):
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ITERATIONS:
        raise OptionError(name, value, f"must be a whole number from 1 to {MAX_ITERATIONS:,}, "
                                       f"got {shown(value)}")
    return value


# Every option of the bots, in one table: spec name -> Option (its parser,
# check and meaning). The search's options are SearchParams' own
# (mcts.searcher.params.OPTIONS, with preset=); pimc adds determinizations. A
# bot lists the names it takes (`Bot.options`); defaults come from PRESET_OPTIONS.
OPTIONS: dict[str, Option] = {
    **SPEC_OPTIONS,
    "determinizations": Option(_determinizations, name="determinizations",
                               spec="determinizations", parse=whole_text,
                               help="PIMC: worlds searched"),
}

# Named sets of defaults of the ismcts bot (`preset=NAME`), in spec words: the
# SearchParams of mcts.searcher.params.PRESETS, the one table.
PRESET_OPTIONS = {name: params.spec_options() for name, params in PRESET_PARAMS.items()}


def _options(*names) -> dict:
    return {name: OPTIONS[name] for name in names}


class Bot:
    """A player: `choose(state)` returns a legal decision of the player to move."""
    name = "bot"
    options: dict = _options("seed")
    defaults: dict = {"seed": 0}

    def __init__(self, **options):
        self.config = dict(self.defaults)
        if "preset" in options:
            self.config.update(PRESET_OPTIONS[options["preset"]])
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

    def check_players(self, players: int) -> None:
        """Refuse a game of `players` this bot cannot play (ValueError)."""

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
    """A bot with a search budget: a time budget alone means no iteration limit.

    `progress`, if set, is called as progress(iterations_done, seconds) about
    every 0.1 s of a search (mcts.searcher.search); an exception raised in it stops the
    search and leaves `choose` (a server stops the bots of a game it drops)."""
    progress = None

    def __init__(self, **options):
        super().__init__(**implied(options))


class IsmctsBot(_SearchBot):
    """Information Set MCTS (SO-ISMCTS) with the player's knowledge only."""
    name = "ismcts"
    determinize = True
    options = dict(SPEC_OPTIONS)        # every option of a search, and preset=
    defaults = dict(PRESET_OPTIONS["default"], workers=1, seed=0)
    last_result = None          # the SearchResult of the last decision searched

    def check_players(self, players: int) -> None:
        """A model file of its own must be one of this player count."""
        if self.config.get("model"):
            learned_weights(players, self.config["model"])

    def __init__(self, **options):
        super().__init__(**options)
        # the options are checked as the params are built (SearchParams, the one
        # check): values out of bounds and options that do not go together
        try:
            SearchParams.from_spec_options(self.config, determinize=self.determinize)
        except OptionError as exc:      # named as the spec names it (margin_weight: margin)
            raise OptionError(spec_name(exc.field), exc.value, exc.message) from None
        self._tree = None           # reuse: the last tree and where it is expected to go on
        self._expected = None
        self._action = None

    @property
    def params(self) -> SearchParams:
        """The bot's search (mcts.searcher.params.SearchParams; seed: the bot's, which
        each decision derives its own from)."""
        return SearchParams.from_spec_options(self.config, determinize=self.determinize)

    def reseed(self, seed: int) -> None:
        super().reseed(seed)
        self._tree = self._expected = None      # a new game: nothing to reuse

    def _reused_tree(self, state, seed):
        """The last search's subtree for this state, re-rooted (reuse), or None."""
        if self._tree is None or self._expected is None:
            return None
        player = state.current_player()
        if state.information_state_string(player) != self._expected:
            return None
        if not self._tree.reroot(self._action, state, seed):
            return None
        return self._tree

    def _choose(self, state):
        params = self.params.replace(seed=self._next_seed())
        seed = params.seed
        reuse = params.reuse and params.workers == 1
        tree = self._reused_tree(state, seed) if reuse else None
        self._tree = self._expected = None
        legal = state.legal_actions()
        if len(legal) == 1:         # a bot needs no estimate of a forced decision
            self.last_result = None
            return legal[0]
        self.last_result = search(state, params=params, tree=tree, progress=self.progress)
        action = self.last_result.best_action
        if reuse and self.last_result.tree is not None:
            after = state.clone()
            after.apply_action(action)
            player = state.current_player()
            if after.current_player() == player:      # no chance event, still this player
                self._tree = self.last_result.tree
                self._expected = after.information_state_string(player)
                self._action = action
        self.last_result.tree = None
        return action


class CheatBot(IsmctsBot):
    """UCT on the true state (sees the hidden information): reference only."""
    name = "cheat"
    determinize = False


class PimcBot(_SearchBot):
    """Perfect Information Monte Carlo: UCT on several determinizations, votes summed."""
    name = "pimc"
    options = _options("seed", "iterations", "time", "c", "rollout", "margin", "determinizations")
    defaults = {"determinizations": 10, "iterations": 200, "c": FULL_ROLLOUT_C,
                "rollout": DEFAULT_ROLLOUT, "margin": DEFAULT_MARGIN_WEIGHT, "seed": 0}
    last_votes = None

    def _choose(self, state):
        cfg = self.config
        player = state.current_player()
        base = self._next_seed()
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        votes: dict = {}
        value: dict = {}
        budget = cfg.get("time")
        start = _time.monotonic()
        for d in range(cfg["determinizations"]):
            if self.progress is not None:
                self.progress(sum(votes.values()), _time.monotonic() - start)
            # each tree runs to its share of the decision's deadline, so a tree
            # that overran (a busy machine) shortens the next, not the decision
            per_tree_time = None
            if budget is not None:
                per_tree_time = max(start + budget * (d + 1) / cfg["determinizations"]
                                    - _time.monotonic(), 1e-6)
            world = state.resample_from_infostate(player, derive_seed(base, d, 0))
            tree = _search.Searcher(world, SearchParams(
                c=cfg["c"], explore="fixed", rollout=cfg["rollout"], horizon=-1,
                margin_weight=cfg["margin"], determinize=False, seed=derive_seed(base, d, 1)))
            tree.run(cfg["iterations"], per_tree_time)
            for key, visits, _avail, rewards, _wins, _n, _own in tree.root_stats():
                votes[key] = votes.get(key, 0) + visits
                value[key] = value.get(key, 0.0) + rewards[player]
        self.last_votes = votes
        return max(votes, key=lambda k: (votes[k], value[k] / max(votes[k], 1), -k))


BOTS = {cls.name: cls for cls in (RandomBot, GreedyBot, IsmctsBot, PimcBot, CheatBot)}


def params_from_spec(spec: str, players: int | None = None) -> SearchParams:
    """The SearchParams of a search bot's spec ("ismcts:preset=v0.2,c=1.2";
    cheat: determinize off), parsed as `make_bot` parses it (the inverse of
    SearchParams.to_spec); OptionError naming the bad part."""
    bot = make_bot(spec, players)
    if not isinstance(bot, IsmctsBot):
        raise OptionError(None, spec, f"bot spec {shown(spec, SHOWN_SPEC_CHARS)}: {bot.name} is no search; "
                         f"give {' or '.join(SEARCH_BOTS)}")
    return bot.params


def written_options(spec: str) -> tuple:
    """(the spec, {option: text}) of the options a well-formed spec writes; for
    level:N those of the level's spec (the level sets its budget)."""
    name, _, rest = spec.strip().partition(":")
    if name.strip() == "level":
        from mcts.play.levels import level_of
        spec = level_of(rest).spec
    return spec.strip(), dict(spec_parts(spec)[1])


def _engine_bot(rest: str):
    from mcts.play.engines import make_engine_bot
    return make_engine_bot(rest)


def _plugin_bot(rest: str):
    from mcts.play.plugins import make_plugin_bot
    return make_plugin_bot(rest)


# the bots from outside the project (docs/engines.md): spec prefix -> its maker
GUESTS = {"engine": _engine_bot, "python": _plugin_bot}


def make_bot(spec: str, players: int | None = None) -> Bot:
    """A bot from a spec like ``ismcts:iterations=2000,c=0.7,seed=3`` or ``random``.

    Raises OptionError (a ValueError) naming the bad part: an unknown bot (with
    the known ones), an unknown option (with the closest valid one), a
    malformed or bad value, or (given `players`) a game it cannot play (a model
    of another player count)."""
    if not isinstance(spec, str) or not spec.strip():
        raise OptionError(None, spec, f"bot spec: expected NAME or NAME:OPTION=VALUE,..., got "
                                      f"{shown(spec)}; known bots: {', '.join(sorted(BOTS))}")
    quoted = shown(spec, SHOWN_SPEC_CHARS)
    name, _, rest = spec.strip().partition(":")
    name = name.strip()
    if name in GUESTS:              # a program (engine:NAME) or a Python plug-in (python:...)
        try:
            return GUESTS[name](rest)
        except ValueError as exc:
            raise ValueError(f"bot spec {quoted}: {name}: {exc}") from None
    if name == "level":             # level:N is the spec of that level (mcts.play.levels)
        from mcts.play.levels import level_of
        number, comma, more = rest.partition(",")
        try:
            level = level_of(number)
            if comma:
                raise OptionError("level", rest, f"a level takes no options, got "
                                                 f"{shown(more.strip())}; level:{level.number} "
                                                 f"is {level.spec}: write that spec with "
                                                 "the options instead")
            return make_bot(level.spec, players)
        except OptionError as exc:
            raise OptionError(None, spec, f"bot spec {quoted}: {exc}") from None
    if name not in BOTS:
        raise OptionError(None, spec, f"bot spec {quoted}: unknown bot {shown(name)}"
                                      f"{did_you_mean(name, BOTS, cutoff=0.4)}; known bots: "
                                      f"{', '.join(sorted(BOTS))}")
    cls = BOTS[name]
    try:
        options = read_spec(spec, cls.options)[1]
        bot = cls(**options)
        if players is not None:
            bot.check_players(players)
    except OptionError as exc:      # a bad part, options that do not go together, or the game
        raise OptionError(None, spec, f"bot spec {quoted}: {name}: "
                                      f"{exc.in_words(name=spec_name(exc.field))}") from None
    except ValueError as exc:       # a game it cannot play
        raise OptionError(None, spec, f"bot spec {quoted}: {name}: {exc}") from None
    return bot
