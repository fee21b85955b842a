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

import math
import time as _time

from ulm import derive_seed
from ulm.names import did_you_mean
from ulm.numbers import parse_seed, shown

from mcts.searcher import _search
from mcts.searcher.evaluation import EVALUATIONS, WEIGHT_SETS
from mcts.searcher.learned import learned_weights, search_weights
from mcts.searcher.params import (CHANCE_MODES, DEFAULT_MARGIN_WEIGHT, DEFAULT_ROLLOUT, EXPLORE_MODES,
                         FINALS, FULL_ROLLOUT_C, MAX_ITERATIONS, MAX_SECONDS, MAX_WEIGHT,
                         MAX_WORKERS, ROLLOUTS, SPEC_NAMES, SearchParams, check_workers)
from mcts.searcher.params import PRESETS as PRESET_PARAMS
from mcts.searcher.search import search


SHOWN_SPEC_CHARS = 200      # a longer spec is quoted by its start in messages


def _whole_number(text):
    """int(text); None for text that is no whole number; an infinity of its sign
    for one of more than 4,300 digits (int() refuses those): beyond every bound."""
    try:
        return int(text)
    except (TypeError, ValueError):
        text = str(text).strip()
        digits = text[1:] if text[:1] in ("+", "-") else text
        if not digits.isdecimal():
            return None
        return -math.inf if text.startswith("-") else math.inf


def _positive_int(name, most=None):
    def parse(text):
        value = _whole_number(text)
        if value is None or value < 1:
            raise ValueError(f"{name} must be a positive whole number, got {shown(text)}")
        if most is not None and value > most:
            raise ValueError(f"{name} must be at most {most:,}, got {shown(text)}")
        return value
    return parse


def _seed(text):
    try:
        return parse_seed(text, None)
    except ValueError as exc:
        raise ValueError(f"seed {exc}") from None


def _non_negative_float(name, most=MAX_WEIGHT):
    def parse(text):
        try:
            value = float(text)
        except (TypeError, ValueError):
            value = None
        if value is None or not 0 <= value <= most:     # nan and inf fail too
            raise ValueError(f"{name} must be a number from 0 to {most:g}, got {shown(text)}")
        return value
    return parse


def _positive_float(name, most=None):
    def parse(text):
        try:
            value = float(text)
        except (TypeError, ValueError):
            value = None
        if value is None or not value > 0 or value == float("inf"):
            raise ValueError(f"{name} must be a positive number of seconds, got {shown(text)}")
        if most is not None and value > most:
            raise ValueError(f"{name} must be at most {most:g} seconds, got {shown(text)}")
        return value
    return parse


def _workers(text):
    value = _positive_int("workers", MAX_WORKERS)(text)
    try:
        return check_workers(value)
    except ValueError as exc:
        raise ValueError(str(exc).replace("workers: ", "workers must be ", 1)) from None


def _choice(name, choices):
    def parse(text):
        if text not in choices:
            raise ValueError(f"{name} must be one of {', '.join(choices)}, got {shown(text)}")
        return text
    return parse


def _horizon(text):
    """Turns (-1: to the end) or rounds as "Nr", as SearchParams takes them; the
    bounds are SearchParams' to check (mcts.searcher.params.check_horizon), when
    the bot builds its params. A number that is no whole one stays a number
    and any other text stays text, for that check to refuse and quote."""
    text = str(text).strip()
    rounds = text.endswith("r")
    value = _whole_number(text[:-1] if rounds else text)
    if isinstance(value, int):
        return f"{value}r" if rounds else value
    if value is None and not rounds:
        try:
            return float(text)
        except ValueError:
            pass
    return text


def _probability(name, kind="a probability"):
    def parse(text):
        try:
            return _non_negative_float(name, 1.0)(text)
        except ValueError:
            raise ValueError(f"{name} must be {kind} in [0, 1], got {shown(text)}") from None
    return parse


def _flag(name):
    def parse(text):
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"{name} must be on or off, got {shown(text)}")
    return parse


def _model_file(text):
    """A model file, or a shipped model by name (mcts.searcher.learned.shipped_model): its path."""
    from mcts.searcher.learned import shipped_model
    from mcts.searcher.model import TrainError, load_model
    path = shipped_model(text) or text
    try:
        model = load_model(path)
        search_weights(model)
    except (TrainError, ValueError) as exc:
        raise ValueError(f"model: {exc}") from None
    return path


def _preset(text):
    if text not in PRESETS:
        raise ValueError(f"preset must be one of {', '.join(PRESETS)}, got {shown(text)}")
    return text


# Every option of the bots, in one table: name -> (parser of its text, meaning).
# A bot lists the names it takes (`Bot.options`); defaults come from PRESETS.
OPTIONS = {
    "seed": (_seed, "seed of the bot's random choices (each decision gets a derived seed)"),
    "iterations": (_positive_int("iterations", MAX_ITERATIONS), "iterations per decision"),
    "time": (_positive_float("time", MAX_SECONDS),
             "seconds per decision (alone: no iteration limit)"),
    "c": (_non_negative_float("c"), "UCB exploration constant"),
    "rollout": (_choice("rollout", ROLLOUTS), "rollout policy: heuristic, lookahead (one ply "
                                              "for seals and coats) or random"),
    "margin": (_non_negative_float("margin"), "weight of the score-margin term of the reward"),
    "workers": (_workers, "processes growing independent trees (root parallel)"),
    "determinizations": (_positive_int("determinizations", MAX_ITERATIONS),
                         "PIMC: worlds searched"),
    "preset": (_preset, "a named set of defaults: default, baseline (the previous "
                        "release's search) or v0.2 (the default search of release 0.2, pinned)"),
    "chance": (_choice("chance", CHANCE_MODES),
               "chance outcomes the searcher sees: closed (own children) or open (merged)"),
    "horizon": (_horizon, "rollout turns (or rounds: 2r) before the evaluation scores "
                          "the position (default: 2 with eval=learned, 8 with linear); "
                          "-1: play to the end"),
    "bias": (_non_negative_float("bias"), "progressive bias towards the heuristic policy"),
    "mast": (_probability("mast"), "share of rollout decisions chosen by MAST statistics"),
    "final": (_choice("final", FINALS), "recommendation: most visits, best value, or lcb "
                                        "(the best lower confidence bound, as KataGo)"),
    "explore": (_choice("explore", EXPLORE_MODES),
                "UCB's exploration: scaled (c x the spread of the rewards) or fixed (c)"),
    "form": (_choice("form", _search.FORMS), "the exploration term: ucb1 (c sqrt(ln N / n)) or puct "
                                     "(c P sqrt(N) / (1 + n), AlphaZero's and KataGo's)"),
    "prior": (_choice("prior", _search.PRIORS), "form=puct's prior P: uniform, or heuristic (half "
                                        "of it on the heuristic policy's decision)"),
    "minimax": (_probability("minimax", "a weight"), "weight of implicit minimax backups of the "
                                         "evaluation in the tree (needs a horizon)"),
    "reuse": (_flag("reuse"), "keep the subtree of the own decision for the next one of "
                              "the turn (workers=1)"),
    "weights": (_choice("weights", tuple(WEIGHT_SETS)),
                "the cut-off evaluation's weights: default (mcts/searcher/eval_weights.json) or a "
                "pinned copy (pinned: that of preset=v0.2)"),
    "eval": (_choice("eval", EVALUATIONS),
             "the win chances at the horizon: learned (the default: the model fitted to "
             "self-play, mcts/searcher/models/) or linear (the 14-feature evaluation)"),
    "model": (_model_file, "a model file of `ulm train fit` (linear) to evaluate with in "
                           "place of the shipped one (implies eval=learned), or a shipped "
                           "model by name (learned-2p-v2)"),
}

# Named sets of defaults of the ismcts bot (`preset=NAME`), in spec words: the
# SearchParams of mcts.searcher.params.PRESETS, the one table.
PRESETS = {name: params.spec_options() for name, params in PRESET_PARAMS.items()}


def search_options(config) -> dict:
    """The keyword arguments of `mcts.searcher.search` for a bot config or a preset's
    name (c and minimax resolved as the search resolves them; no budget)."""
    params = PRESET_PARAMS[config] if isinstance(config, str) else SearchParams.from_options(config)
    # c and minimax by the horizon: "Nr" is as much a cut-off as turns, whatever the players
    options = {"c": params.resolved_c(players=1), "rollout": params.rollout,
               "margin_weight": params.margin_weight, "chance": params.chance,
               "horizon": params.horizon, "bias": params.bias, "mast": params.mast,
               "final": params.final, "explore": params.explore,
               "minimax": params.resolved_minimax(players=1),
               "evaluation": params.evaluation.kind}
    if params.evaluation.model:
        options["model"] = params.evaluation.model
    if params.evaluation.weights != "default":
        options["weights"] = params.evaluation.weights
    return options


def _options(*names) -> dict:
    return {name: OPTIONS[name][0] for name in names}


class Bot:
    """A player: `choose(state)` returns a legal decision of the player to move."""
    name = "bot"
    options: dict = _options("seed")
    defaults: dict = {"seed": 0}

    def __init__(self, **options):
        self.config = dict(self.defaults)
        if "preset" in options:
            self.config.update(PRESETS[options["preset"]])
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
        if "time" in options and "iterations" not in options:
            options = dict(options, iterations=None)
        super().__init__(**options)


class IsmctsBot(_SearchBot):
    """Information Set MCTS (SO-ISMCTS) with the player's knowledge only."""
    name = "ismcts"
    determinize = True
    options = _options("seed", "iterations", "time", "c", "rollout", "margin", "workers",
                       "preset", "chance", "horizon", "bias", "mast", "final", "reuse",
                       "explore", "minimax", "weights", "eval", "model", "form", "prior")
    defaults = dict(PRESETS["default"], workers=1, seed=0)
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
            SearchParams.from_options(self.config, determinize=self.determinize)
        except ValueError as exc:
            raise ValueError(_in_spec_words(str(exc))) from None
        self._tree = None           # reuse: the last tree and where it is expected to go on
        self._expected = None
        self._action = None

    @property
    def params(self) -> SearchParams:
        """The bot's search (mcts.searcher.params.SearchParams; seed: the bot's, which
        each decision derives its own from)."""
        return SearchParams.from_options(self.config, determinize=self.determinize)

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


def _in_spec_words(message: str) -> str:
    """A SearchParams error as a spec says it: "horizon: must be ..." is
    "horizon must be ..." as the spec parsers say, and a field is named by its
    spec option (SPEC_NAMES: margin_weight is margin)."""
    field, colon, rest = message.partition(": ")
    if colon and rest.startswith("must be") and field.isidentifier():
        return f"{SPEC_NAMES.get(field, field)} {rest}"
    return message


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
SEARCH_BOTS = ("ismcts", "cheat")       # the bots that search their SearchParams


def params_from_spec(spec: str, players: int | None = None) -> SearchParams:
    """The SearchParams of a search bot's spec ("ismcts:preset=v0.2,c=1.2";
    cheat: determinize off), parsed as `make_bot` parses it (the inverse of
    SearchParams.to_spec); ValueError naming the bad part."""
    bot = make_bot(spec, players)
    if not isinstance(bot, IsmctsBot):
        raise ValueError(f"bot spec {shown(spec, SHOWN_SPEC_CHARS)}: {bot.name} is no search; "
                         f"give {' or '.join(SEARCH_BOTS)}")
    return bot.params


def make_bot(spec: str, players: int | None = None) -> Bot:
    """A bot from a spec like ``ismcts:iterations=2000,c=0.7,seed=3`` or ``random``.

    Raises ValueError naming the bad part: an unknown bot (with the known ones),
    an unknown option (with the closest valid one), a malformed or bad value,
    or (given `players`) a game it cannot play (a model of another player count)."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"bot spec: expected NAME or NAME:OPTION=VALUE,..., got {shown(spec)}; "
                         f"known bots: {', '.join(sorted(BOTS))}")
    quoted = shown(spec, SHOWN_SPEC_CHARS)
    name, _, rest = spec.strip().partition(":")
    name = name.strip()
    if name == "level":             # level:N is the spec of that level (mcts.play.levels)
        from mcts.play.levels import level_spec
        try:
            return make_bot(level_spec(rest), players)
        except ValueError as exc:
            raise ValueError(f"bot spec {quoted}: {exc}") from None
    if name not in BOTS:
        raise ValueError(f"bot spec {quoted}: unknown bot {shown(name)}"
                         f"{did_you_mean(name, BOTS, cutoff=0.4)}; known bots: "
                         f"{', '.join(sorted(BOTS))}")
    cls = BOTS[name]
    options = {}
    if rest.strip():
        for part in rest.split(","):
            part = part.strip()
            key, eq, text = part.partition("=")
            key, text = key.strip(), text.strip()
            if not eq or not key or not text:
                raise ValueError(f"bot spec {quoted}: {name}: bad option {shown(part)}; "
                                 "write OPTION=VALUE")
            if key not in cls.options:
                raise ValueError(f"bot spec {quoted}: {name}: unknown option {shown(key)}"
                                 f"{did_you_mean(key, cls.options, cutoff=0.4)}; options: "
                                 f"{', '.join(sorted(cls.options))}")
            if key in options:
                raise ValueError(f"bot spec {quoted}: {name}: option {shown(key)} given twice")
            try:
                options[key] = cls.options[key](text)
            except ValueError as exc:
                raise ValueError(f"bot spec {quoted}: {name}: {exc}") from None
    try:
        bot = cls(**options)
        if players is not None:
            bot.check_players(players)
    except ValueError as exc:       # options that do not go together, or not with the game
        raise ValueError(f"bot spec {quoted}: {name}: {exc}") from None
    return bot
