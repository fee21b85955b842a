"""One set of search options, `SearchParams`: behind `mcts.searcher.search`, the bots
and their presets, `ulm suggest` and the web.

    >>> from mcts.searcher.params import PRESETS, SearchParams
    >>> params = SearchParams(iterations=2000, c=1.2, seed=3)
    >>> params = params_from_spec("ismcts:preset=v0.2,c=1.2")      # mcts.play.bots
    >>> params.to_spec()
    'ismcts:c=1.2,eval=linear,horizon=8,iterations=1000,minimax=0.3,weights=pinned'
    >>> result = search(state, params=params)

The fields are grouped as in KataGo's SearchParams: the budget, the
selection in the tree, the playouts below it, the evaluation where a playout
is cut off (an `Evaluation`, chosen once, as OpenSpiel's Evaluator), the
tree itself and the seed. Every field is checked once, on construction
(`validate`); a bad one raises ValueError naming the field:
``horizon: must be -1 (to the end), ...``. A bot spec names the same options
in its own words (``margin=`` for margin_weight, ``eval=`` for the
evaluation's kind; `SPEC_NAMES`); `to_spec` writes one, and
`mcts.play.bots.params_from_spec` reads one as `make_bot` does.

None in c, minimax and horizon means "by the other options" (`default_c`,
`default_minimax`, the evaluation's `default_horizon`), resolved when a
search starts (a horizon in rounds, "2r", needs the player count).
"""
from __future__ import annotations

import dataclasses
import math
import os
from dataclasses import dataclass
from typing import Any, NamedTuple, Optional, Union

from ulm.numbers import check_seed, shown

from mcts.searcher._search import CHANCE_MODES, DEFAULT_MAX_NODES, EXPLORE_MODES, ROLLOUTS
from mcts.searcher._search import FORMS, PRIORS
from mcts.searcher.evaluation import EVALUATIONS, RESIDUAL_WEIGHTS, WEIGHT_SETS, eval_parameters
from mcts.searcher.learned import learned_weights

# UCB's exploration constant suits the spread of the rewards: rollouts played
# to the end are won or lost (0/1), the cut-off's win chances lie much closer
# together (docs/strength.md, "The evaluation"). The default search scales
# its exploration by the spread it sees (explore="scaled"); with a fixed one,
# c=None picks by the horizon.
DEFAULT_EXPLORE = "scaled"
SCALED_C = 2.0                  # explore="scaled": c x the rewards' standard deviation
DEFAULT_C = 0.25                # explore="fixed", rollouts cut off and evaluated
FULL_ROLLOUT_C = 0.7            # explore="fixed", rollouts to the end: the baseline preset, pimc
DEFAULT_ITERATIONS = 1000
# The bounds of a budget. Iterations: the compiled tree counts visits in 32-bit
# integers (mcts/searcher/_search.pxd), so one search stops short of 2**31 iterations.
# Time: an hour is past any advice a player waits for; the tree itself stops
# growing at max_nodes (DEFAULT_MAX_NODES: 512 MiB of nodes a tree, 768 with
# minimax values), so memory stays bounded however long a search runs.
MAX_ITERATIONS = 2 ** 31 - 1
MAX_SECONDS = 3600.0
DEFAULT_MARGIN_WEIGHT = 0.1
DEFAULT_ROLLOUT = "heuristic"   # stronger than "random" at equal time (8-2 in 2-player games)
DEFAULT_CHANCE = "open"
# Where rollouts are cut off and scored, by the evaluation that scores them:
# the learned models are fitted to the position two turns after a turn start
# (docs/training.md); the linear evaluation plays best at 8 turns, 2 rounds of
# 4 players or 4 of 2 (docs/strength.md).
DEFAULT_HORIZONS = {"learned": 2, "linear": 8}
DEFAULT_FINAL = "visits"
DEFAULT_FORM = "ucb1"            # the exploration term (FORMS); "puct": the polynomial one
DEFAULT_PRIOR = "uniform"       # form="puct": the prior over the decisions (PRIORS)
DEFAULT_MINIMAX = 0.3           # implicit minimax's weight, with a horizon (docs/defaults.md)
DEFAULT_EVALUATION = "learned"  # the win chances at the horizon (mcts.searcher.evaluation.EVALUATIONS)
FINALS = ("visits", "value", "lcb")
# the largest horizon: a whole game is 10 rounds of at most 4 players
MAX_HORIZON_ROUNDS = 10
MAX_HORIZON = 4 * MAX_HORIZON_ROUNDS
# the largest c, margin weight and bias: far beyond any useful weight, and the
# search's sums of them stay finite
MAX_WEIGHT = 1000.0
MAX_NODES = 2 ** 31 - 1         # the compiled tree indexes its nodes in 32 bits


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


MAX_WORKERS = max(_cpus(), 8)


def _is_number(value) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float))


def _is_whole(value) -> bool:
    return not isinstance(value, bool) and isinstance(value, int)


def check_budget(iterations, time) -> tuple:
    """(iterations, time) if they are a budget (neither: DEFAULT_ITERATIONS),
    time as a float; else ValueError naming the one that is not."""
    if iterations is None and time is None:
        iterations = DEFAULT_ITERATIONS
    if iterations is not None:
        if not _is_whole(iterations) or iterations < 1:
            raise ValueError(f"iterations: must be a positive whole number, got {shown(iterations)}")
        if iterations > MAX_ITERATIONS:
            raise ValueError(f"iterations: at most {MAX_ITERATIONS:,} (the search counts visits "
                             f"in 32 bits), got {iterations:,}")
    if time is not None:
        if not _is_number(time) or not time > 0 or math.isinf(time):
            raise ValueError(f"time: must be a positive number of seconds, got {shown(time)}")
        if time > MAX_SECONDS:
            raise ValueError(f"time: at most {MAX_SECONDS:g} seconds, got {time:g}")
        time = float(time)
    return iterations, time


def check_workers(workers) -> int:
    """`workers` if it is a whole number from 1 to MAX_WORKERS, else ValueError."""
    if not _is_whole(workers) or workers < 1:
        raise ValueError(f"workers: must be a positive whole number, got {shown(workers)}")
    if workers > MAX_WORKERS:
        raise ValueError(f"workers: at most {MAX_WORKERS} (this machine has {_cpus()} CPUs; "
                         f"more trees than cores only slice the budget thinner), got {workers}")
    return workers


def check_horizon(horizon) -> None:
    """ValueError unless `horizon` is -1 (to the end), turns up to MAX_HORIZON or
    rounds "Nr" up to MAX_HORIZON_ROUNDS: the one check of a horizon (a bot
    spec's horizon= is checked here too, as a field of its SearchParams)."""
    if isinstance(horizon, str) and horizon.endswith("r"):
        digits = horizon[:-1]
        # a number of more digits than int() reads is beyond the bound as well
        if digits.isdecimal() and len(digits.lstrip("0")) <= len(str(MAX_HORIZON_ROUNDS)) \
                and int(digits) <= MAX_HORIZON_ROUNDS:
            return
    if _is_whole(horizon) and -1 <= horizon <= MAX_HORIZON:
        return
    raise ValueError(f"horizon: must be -1 (to the end), a number of turns from 0 to "
                     f"{MAX_HORIZON} or rounds from 0r to {MAX_HORIZON_ROUNDS}r (2r: two "
                     f"rounds), got {shown(horizon)}")


def horizon_turns(horizon, players: int) -> int:
    """The rollout horizon in turns: an int is turns (-1: to the end), "Nr" is N
    rounds (N times the number of players)."""
    check_horizon(horizon)
    return _turns(horizon, players)


def _turns(horizon, players: int) -> int:
    """horizon_turns of a horizon already checked."""
    if isinstance(horizon, str):
        return int(horizon[:-1]) * players
    return horizon


def default_horizon(evaluation=DEFAULT_EVALUATION) -> int:
    """The rollout horizon in turns when none is given: the one the evaluation
    scores best (DEFAULT_HORIZONS)."""
    return DEFAULT_HORIZONS[evaluation]


def default_c(horizon, explore=DEFAULT_EXPLORE) -> float:
    """UCB's constant: SCALED_C with explore="scaled"; with "fixed", DEFAULT_C
    for rollouts cut off (turns or "Nr" rounds), FULL_ROLLOUT_C for rollouts
    to the end (-1)."""
    if explore == "scaled":
        return SCALED_C
    return FULL_ROLLOUT_C if horizon == -1 else DEFAULT_C


def default_minimax(horizon) -> float:
    """Implicit minimax's weight when none is given: DEFAULT_MINIMAX where
    rollouts are cut off and evaluated (a horizon in turns or as "Nr"), 0
    where they play to the end (-1: there is no evaluation to back up)."""
    return 0.0 if horizon == -1 else DEFAULT_MINIMAX


def check_minimax(minimax, horizon) -> float:
    """`minimax` as a float if it is a weight from 0 to 1 that goes with
    `horizon` (a positive weight needs the evaluation, so a horizon), else
    ValueError."""
    if not _is_number(minimax) or not 0 <= minimax <= 1:
        raise ValueError(f"minimax: must be a weight from 0 to 1, got {shown(minimax)}")
    if minimax > 0 and horizon == -1:
        raise ValueError("minimax: implicit minimax needs the evaluation, so a horizon "
                         "(not -1)")
    return float(minimax)


def _check_weight(name: str, value, most: float = MAX_WEIGHT) -> None:
    if not _is_number(value) or not 0 <= value <= most:     # nan and inf fail too
        raise ValueError(f"{name}: must be a number from 0 to {most:g}, got {shown(value)}")


def _check_choice(name: str, value, choices) -> None:
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name}: expected one of {', '.join(choices)}, got {shown(value)}")


def _check_flag(name: str, value) -> None:
    if not isinstance(value, bool):
        raise ValueError(f"{name}: must be True or False, got {shown(value)}")


class EvaluationNumbers(NamedTuple):
    """The numbers the compiled Searcher scores a cut-off rollout with: those
    of one Evaluation for one player count (`Evaluation.numbers`)."""
    eval_weights: Any                   # EVAL_WEIGHTS numbers: a player's predicted final
    #                                     score (the reward's margin term, the points)
    eval_win_weights: Any               # EVAL_WEIGHTS numbers: a player's win logit (the
    #                                     win chances: their softmax)
    learned_weights: Any = None         # a learned model's search weights
    #                                     (mcts.searcher.learned.search_weights): the win
    #                                     chances from it instead; None: the linear ones
    learned_residual: bool = False      # the model's logits correct eval_win_weights'


@dataclass(frozen=True)
class Evaluation:
    """What gives the win chances where a rollout is cut off (OpenSpiel's
    Evaluator): chosen once, with its weights or model, and handed to the
    Searcher as its numbers (`numbers`)."""
    kind: str = DEFAULT_EVALUATION      # "learned" (a model fitted to self-play) or
    #                                     "linear" (the 14-feature function of `weights`)
    weights: str = "default"            # the linear evaluation's named weights (WEIGHT_SETS;
    #                                     a residual model corrects RESIDUAL_WEIGHTS's instead)
    model: Optional[str] = None         # kind "learned": a model file of `ulm train fit` or
    #                                     a shipped model by name; None: the shipped one

    def __post_init__(self):
        self.validate()

    def validate(self) -> None:
        _check_choice("evaluation", self.kind, EVALUATIONS)
        _check_choice("weights", self.weights, tuple(WEIGHT_SETS))
        if self.model is None:
            return
        if not isinstance(self.model, str) or not self.model.strip():
            raise ValueError(f"model: must be a model file or a shipped model's name, "
                             f"got {shown(self.model)}")
        if self.kind != "learned":
            raise ValueError(f"model: a model is a learned evaluation, not {self.kind}")

    @property
    def default_horizon(self) -> int:
        return default_horizon(self.kind)

    def numbers(self, players: int) -> EvaluationNumbers:
        """The numbers of this evaluation in a game of `players`, from files
        read once and kept (mcts.searcher.evaluation.eval_parameters,
        mcts.searcher.learned.learned_weights: a model file again when it
        changes). The learned kind takes its predicted scores from the linear
        weights; a residual model corrects the win chances of RESIDUAL_WEIGHTS,
        the weights it was fitted against, whatever `weights` are."""
        score_weights, win_weights = eval_parameters(players, self.weights)
        if self.kind != "learned":
            return EvaluationNumbers(score_weights, win_weights)
        model_weights, residual = learned_weights(players, self.model)
        if residual:
            win_weights = eval_parameters(players, RESIDUAL_WEIGHTS)[1]
        return EvaluationNumbers(score_weights, win_weights, model_weights, residual)


# A bot spec's name of an option, where it differs from the field's.
SPEC_NAMES = {"margin_weight": "margin"}
EVALUATION_SPEC = {"kind": "eval", "weights": "weights", "model": "model"}


@dataclass(frozen=True)
class SearchParams:
    """Every option of one search, checked once (`validate`, on construction)."""
    # --- budget: how long a decision is searched
    iterations: Optional[int] = None    # total over the workers (< 2**31); with time None
    #                                     too: DEFAULT_ITERATIONS
    time: Optional[float] = None        # seconds of wall time, at most MAX_SECONDS (both:
    #                                     whichever ends first)
    workers: int = 1                    # root parallel: processes each growing a tree
    # --- selection: where the tree grows
    c: Optional[float] = None           # UCB's exploration constant; None: `default_c`
    explore: str = DEFAULT_EXPLORE      # "scaled": c x the spread of the rewards; "fixed": c
    form: str = DEFAULT_FORM            # the exploration term: "ucb1", c sqrt(ln N / n), or
    #                                     "puct", c P(a) sqrt(N) / (1 + n) (AlphaZero, KataGo)
    prior: str = DEFAULT_PRIOR          # form="puct": P "uniform", or "heuristic" (more to
    #                                     the heuristic policy's decision)
    bias: float = 0.0                   # progressive bias towards the heuristic policy
    minimax: Optional[float] = None     # weight of implicit minimax backups, 0 to 1 (needs a
    #                                     horizon); None: `default_minimax`
    chance: str = DEFAULT_CHANCE        # "open": chance outcomes merged; "closed": each one
    #                                     the searching player sees gets its own child
    final: str = DEFAULT_FINAL          # recommend by "visits", "value" or "lcb" (the best
    #                                     lower confidence bound of the well-visited ones)
    # --- playout: below the tree
    rollout: str = DEFAULT_ROLLOUT      # "heuristic", "lookahead" or "random"
    horizon: Union[int, str, None] = None   # turns before the evaluation scores the position
    #                                     (-1: to the end; "2r": two rounds); None: the
    #                                     evaluation's own (`default_horizon`)
    mast: float = 0.0                   # share of rollout decisions chosen by MAST
    margin_weight: float = DEFAULT_MARGIN_WEIGHT    # weight of the score-margin term of
    #                                     the reward
    # --- evaluation: where a rollout is cut off
    evaluation: Evaluation = Evaluation()
    # --- the tree
    reuse: bool = False                 # a bot keeps the subtree of its own decision for the
    #                                     next one of the turn (workers=1; else not used)
    max_nodes: int = DEFAULT_MAX_NODES  # each tree stops growing here (statistics go on)
    determinize: bool = True            # False: search the state as if all were known (a
    #                                     cheat, for reference only)
    # --- seed
    seed: int = 0                       # the same seed and iteration budget: the same search

    def __post_init__(self):
        if self.iterations is None and self.time is None:
            object.__setattr__(self, "iterations", DEFAULT_ITERATIONS)
        self.validate()

    def validate(self) -> None:
        """ValueError naming the first field that is not an option of a search."""
        iterations, time = check_budget(self.iterations, self.time)
        object.__setattr__(self, "time", time)
        check_workers(self.workers)
        _check_choice("rollout", self.rollout, ROLLOUTS)
        _check_choice("chance", self.chance, CHANCE_MODES)
        _check_choice("final", self.final, FINALS)
        _check_choice("explore", self.explore, EXPLORE_MODES)
        _check_choice("form", self.form, FORMS)
        _check_choice("prior", self.prior, PRIORS)
        if self.prior != DEFAULT_PRIOR and self.form != "puct":
            raise ValueError(f"prior: a prior is a term of form=puct, not {self.form}")
        if not isinstance(self.evaluation, Evaluation):
            raise ValueError(f"evaluation: must be an Evaluation, got {shown(self.evaluation)}")
        if self.horizon is not None:
            check_horizon(self.horizon)
        if self.c is not None and (not _is_number(self.c) or not 0 <= self.c <= MAX_WEIGHT):
            raise ValueError(f"c: the exploration constant must be a number from 0 to "
                             f"{MAX_WEIGHT:g}, got {shown(self.c)}")
        if self.minimax is not None:
            check_minimax(self.minimax, self.horizon)
        _check_weight("margin_weight", self.margin_weight)
        _check_weight("bias", self.bias)
        _check_weight("mast", self.mast, 1.0)
        _check_flag("reuse", self.reuse)
        _check_flag("determinize", self.determinize)
        if not _is_whole(self.max_nodes) or not 2 <= self.max_nodes <= MAX_NODES:
            raise ValueError(f"max_nodes: must be a whole number from 2 to {MAX_NODES:,}, "
                             f"got {shown(self.max_nodes)}")
        check_seed(self.seed)

    def replace(self, **changes) -> "SearchParams":
        """A copy with `changes` (field names; also the evaluation's kind as
        evaluation="linear", its weights= and model=), checked again."""
        evaluation = self.evaluation
        if isinstance(changes.get("evaluation"), str):
            evaluation = dataclasses.replace(evaluation, kind=changes.pop("evaluation"))
        for name in ("weights", "model"):
            if name in changes:
                evaluation = dataclasses.replace(evaluation, **{name: changes.pop(name)})
        changes.setdefault("evaluation", evaluation)
        return dataclasses.replace(self, **changes)

    # --- resolved for one search
    def horizon_turns(self, players: int) -> int:
        return _turns(self.evaluation.default_horizon if self.horizon is None
                      else self.horizon, players)

    def resolved_c(self, players: int) -> float:
        if self.c is not None:
            return float(self.c)
        return default_c(self.horizon_turns(players), self.explore)

    def resolved_minimax(self, players: int) -> float:
        horizon = self.horizon_turns(players)
        if self.minimax is None:
            return default_minimax(horizon)
        return check_minimax(self.minimax, horizon)

    # --- bot specs
    def spec_options(self) -> dict:
        """The options of a bot spec (its words, `SPEC_NAMES`) that give these
        params; the evaluation's weights and model only where they are not the
        default."""
        options: dict[str, object] = {"iterations": self.iterations}
        if self.time is not None:
            options["time"] = self.time
        for name in ("c", "rollout", "margin_weight", "chance", "horizon", "bias", "mast",
                     "final", "reuse", "explore", "minimax", "form", "prior"):
            options[SPEC_NAMES.get(name, name)] = getattr(self, name)
        if self.evaluation.weights != "default":
            options["weights"] = self.evaluation.weights
        options["eval"] = self.evaluation.kind
        if self.evaluation.model is not None:
            options["model"] = self.evaluation.model
        return options

    @classmethod
    def from_options(cls, options: dict, determinize: bool = True) -> "SearchParams":
        """SearchParams from a bot's options in spec words (a bot's config);
        a model of its own implies the learned evaluation."""
        fields = {name: options[SPEC_NAMES.get(name, name)]
                  for name in ("iterations", "c", "rollout", "margin_weight", "chance",
                               "horizon", "bias", "mast", "final", "reuse", "explore",
                               "minimax", "workers", "seed", "form", "prior")
                  if SPEC_NAMES.get(name, name) in options}
        fields["time"] = options.get("time")
        model = options.get("model")
        evaluation = Evaluation(kind="learned" if model else options.get("eval", DEFAULT_EVALUATION),
                                weights=options.get("weights") or "default", model=model or None)
        return cls(evaluation=evaluation, determinize=determinize, **fields)

    def to_spec(self) -> str:
        """A bot spec that mcts.play.bots.params_from_spec turns back into these
        params (max_nodes is no option of a spec: only its default is written)."""
        if self.max_nodes != DEFAULT_MAX_NODES:
            raise ValueError(f"max_nodes: a bot spec has no such option (only "
                             f"{DEFAULT_MAX_NODES:,}), got {self.max_nodes:,}")
        defaults = SearchParams().spec_options()
        options = {k: v for k, v in self.spec_options().items()
                   if v is not None and (k in ("iterations", "time") or v != defaults.get(k))}
        if self.workers != 1:
            options["workers"] = self.workers
        if self.seed != 0:
            options["seed"] = self.seed
        name = "ismcts" if self.determinize else "cheat"
        text = ",".join(f"{k}={_spec_value(v)}" for k, v in sorted(options.items()))
        return f"{name}:{text}" if text else name


def searcher_options(params: SearchParams, players: int) -> dict:
    """The settings of the compiled Searcher (mcts.searcher._search.Searcher)
    for `params` in a game of `players`, resolved in this one place: c, minimax
    and the horizon in turns, and where rollouts are cut off (a horizon of 0
    turns or more) the evaluation's numbers (`Evaluation.numbers`)."""
    horizon = params.horizon_turns(players)
    options = dict(c=params.resolved_c(players), rollout=params.rollout,
                   margin_weight=float(params.margin_weight), determinize=params.determinize,
                   max_nodes=params.max_nodes, chance=params.chance, horizon=horizon,
                   bias=float(params.bias), mast=float(params.mast), explore=params.explore,
                   minimax=params.resolved_minimax(players), seed=params.seed)
    if horizon >= 0:
        options.update(params.evaluation.numbers(players)._asdict())
    return options


def _spec_value(value) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


# Named sets of options of the ismcts bot (`preset=NAME`), in one table.
# "baseline" is the search of the previous release exactly (open-loop chance,
# full heuristic rollouts, c 0.7, no reuse); every strength claim is measured
# against it in one run. "default" follows the defaults above. "v0.2" is the
# default search of release 0.2, every value written out (not taken from the
# defaults, which may change) and its own copy of the evaluation's weights
# (mcts/searcher/eval_weights_pinned.json): a fixed reference for strength figures.
# tests/mcts/searcher/test_search_options.py checks that both repeat their searches exactly.
PRESETS = {
    "baseline": SearchParams(iterations=1000, c=FULL_ROLLOUT_C, rollout="heuristic",
                             margin_weight=0.1, chance="open", horizon=-1, bias=0.0, mast=0.0,
                             final="visits", reuse=False, explore="fixed", minimax=0.0,
                             evaluation=Evaluation("linear")),
    "default": SearchParams(iterations=DEFAULT_ITERATIONS),
    "v0.2": SearchParams(iterations=1000, c=2.0, rollout="heuristic", margin_weight=0.1,
                         chance="open", horizon=8, bias=0.0, mast=0.0, final="visits",
                         reuse=False, explore="scaled", minimax=0.3,
                         evaluation=Evaluation("linear", weights="pinned")),
    # The default search of December 2026, written out as v0.2 is: the learned
    # evaluation (the shipped models of LEARNED_MODELS) two turns on, c 2 scaled,
    # UCB1, minimax 0.3. A reference the exploration studies compare against
    # while the default may change (tests/mcts/searcher/test_search_options.py pins it).
    "2026-12": SearchParams(iterations=1000, c=2.0, rollout="heuristic", margin_weight=0.1,
                            chance="open", horizon=2, bias=0.0, mast=0.0, final="visits",
                            reuse=False, explore="scaled", minimax=0.3, form="ucb1",
                            prior="uniform", evaluation=Evaluation("learned")),
}
