"""One set of search options, `SearchParams`, declared once: behind
`mcts.searcher.search`, the bots and their presets, `ulm suggest`, the web
and the docs' option table.

    >>> from mcts.searcher.params import PRESETS, SearchParams
    >>> params = SearchParams(iterations=2000, c=1.2, seed=3)
    >>> params = SearchParams.from_spec("ismcts:preset=v0.2,c=1.2")
    >>> params.to_spec()
    'ismcts:c=1.2,eval=linear,horizon=8,iterations=1000,minimax=0.3,weights=pinned'
    >>> result = search(state, params=params)

The fields are grouped as in KataGo's SearchParams: the budget, the
selection in the tree, the playouts below it, the evaluation where a playout
is cut off (an `Evaluation`, chosen once, as OpenSpiel's Evaluator), the
tree itself and the seed. Each field is declared once, with its `Option`
(as Stockfish's engine declares each option with its bounds in one line):
its check and bounds, its name in a bot spec, the parser of a spec's text,
its help text and `ulm suggest`'s shorthand. `OPTIONS` is the table of
them all, by spec name; the bots' options, `ulm bots`, the shorthands, the
web's checks and the docs' table are read from it. Adding a search option is
one declaration here (and its use in the compiled Searcher).

Every field is checked once, on construction (`validate`); a bad one raises
`OptionError` (a ValueError) with the field, the value and the message as
data: ``horizon: must be -1 (to the end), ...``. A bot spec names the same
options in its own words (``margin=`` for margin_weight, ``eval=`` for the
evaluation's kind); `to_spec` writes one and `from_spec` reads one.

None in c, minimax and horizon means "by the other options" (`default_c`,
`default_minimax`, the evaluation's `default_horizon`), resolved when a
search starts (a horizon in rounds, "2r", needs the player count).
"""
from __future__ import annotations

import dataclasses
import functools
import math
import os
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, Optional, Union

from ulm import NUM_ROUNDS
from ulm.errors import OptionError
from ulm.names import did_you_mean
from ulm.numbers import check_seed, parse_seed, parse_whole, shown

from mcts.searcher._search import CHANCE_MODES, DEFAULT_MAX_NODES, EXPLORE_MODES, ROLLOUTS
from mcts.searcher._search import FORMS, PRIORS
from mcts.searcher.evaluation import EVALUATIONS, RESIDUAL_WEIGHTS, WEIGHT_SETS, eval_parameters
from mcts.searcher.learned import learned_weights

__all__ = ["OptionError", "Option", "OPTIONS", "SearchParams", "Evaluation", "PRESETS"]

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
# the largest horizon: a whole game, NUM_ROUNDS rounds of at most 4 players
MAX_HORIZON_ROUNDS = NUM_ROUNDS
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


def _count(value) -> str:
    """A whole number as a message writes it: with thousands' commas, or its
    length when it is huge."""
    return f"{value:,}" if value.bit_length() <= 128 else shown(value)


# ---------------------------------------------------------------------------
# The checks of one value: (field, value) -> the value as the params keep it,
# or OptionError naming the field.

def _iterations(name: str, value):
    if value is None:
        return None
    if not _is_whole(value) or value < 1:
        raise OptionError(name, value, f"must be a positive whole number, got {shown(value)}")
    if value > MAX_ITERATIONS:
        raise OptionError(name, value, f"at most {MAX_ITERATIONS:,} (the search counts visits "
                                       f"in 32 bits), got {_count(value)}")
    return value


def _seconds(name: str, value):
    if value is None:
        return None
    if not _is_number(value) or not value > 0 or math.isinf(value):
        raise OptionError(name, value, f"must be a positive number of seconds, got {shown(value)}")
    if value > MAX_SECONDS:
        raise OptionError(name, value, f"at most {MAX_SECONDS:g} seconds, got {value:g}")
    return float(value)


def _workers(name: str, value):
    if not _is_whole(value) or value < 1:
        raise OptionError(name, value, f"must be a positive whole number, got {shown(value)}")
    if value > MAX_WORKERS:
        raise OptionError(name, value, f"at most {MAX_WORKERS} (this machine has {_cpus()} "
                                       f"CPUs; more trees than cores only slice the budget "
                                       f"thinner), got {shown(value)}")
    return value


def _weight(most: float = MAX_WEIGHT, what: str = "a number", optional: bool = False):
    def check(name: str, value):
        if value is None and optional:
            return None
        if not _is_number(value) or not 0 <= value <= most:     # nan and inf fail too
            raise OptionError(name, value, f"must be {what} from 0 to {most:g}, "
                                           f"got {shown(value)}")
        return value
    return check


def _exploration(name: str, value):
    if value is not None and (not _is_number(value) or not 0 <= value <= MAX_WEIGHT):
        raise OptionError(name, value, f"the exploration constant must be a number from 0 to "
                                       f"{MAX_WEIGHT:g}, got {shown(value)}")
    return value


def _choice(choices):
    def check(name: str, value):
        if not isinstance(value, str) or value not in choices:
            raise OptionError(name, value, f"expected one of {', '.join(choices)}, "
                                           f"got {shown(value)}{did_you_mean(value, choices)}")
        return value
    return check


def _flag(name: str, value):
    if not isinstance(value, bool):
        raise OptionError(name, value, f"must be on or off (True or False), got {shown(value)}")
    return value


def _horizon(name: str, value):
    if value is not None:
        check_horizon(value)
    return value


def _max_nodes(name: str, value):
    if not _is_whole(value) or not 2 <= value <= MAX_NODES:
        raise OptionError(name, value, f"must be a whole number from 2 to {MAX_NODES:,}, "
                                       f"got {shown(value)}")
    return value


def _seed(name: str, value):
    try:
        return check_seed(value, None)
    except ValueError as exc:
        raise OptionError(name, value, str(exc)) from None


def _evaluation(name: str, value):
    if not isinstance(value, Evaluation):
        raise OptionError(name, value, f"must be an Evaluation, got {shown(value)}")
    return value


def _model(name: str, value):
    if value is not None and (not isinstance(value, str) or not value.strip()):
        raise OptionError(name, value, f"must be a model file or a shipped model's name, "
                                       f"got {shown(value)}")
    return value


# ---------------------------------------------------------------------------
# The parsers of a spec's text: text -> a value for the check (text that is no
# value of the kind stays text, for the check to refuse and quote).

def _text(text: str):
    return text


def whole_text(text: str):
    """A whole number in the docs' digits (ulm.numbers' one grammar: no "+3",
    "1_000" or "١٢"); any other text stays text, for the check to quote."""
    try:
        return parse_whole(text)
    except ValueError:          # no number in those digits, or more than 4,300 digits
        return text


def _number_text(text: str):
    """A finite number; "nan", "inf" and other text stay text."""
    try:
        value = float(text)
    except ValueError:
        return text
    return value if math.isfinite(value) else text


def _flag_text(text: str):
    return {"1": True, "true": True, "yes": True, "on": True,
            "0": False, "false": False, "no": False, "off": False}.get(text.lower(), text)


def _seed_text(text: str):
    return parse_seed(text, None)


def _horizon_text(text: str):
    """Turns (-1: to the end) or rounds as "Nr", as SearchParams takes them. A
    number that is no whole one stays a number and any other text stays text,
    for the check (`check_horizon`) to refuse and quote."""
    rounds = text.endswith("r")
    value = whole_text(text[:-1] if rounds else text)
    if isinstance(value, int):
        return f"{value}r" if rounds else value
    return text if rounds else _number_text(text)


def _model_text(text: str):
    """A model file, or a shipped model by name (mcts.searcher.learned.shipped_model):
    its path, the file read and checked (the search reads it again when it changes)."""
    from mcts.searcher.learned import search_weights, shipped_model
    from mcts.searcher.model import TrainError, load_model
    path = shipped_model(text) or text
    try:
        search_weights(load_model(path))
    except (TrainError, ValueError) as exc:
        raise OptionError("model", text, str(exc)) from None
    return path


# ---------------------------------------------------------------------------
# One option, declared once

@dataclass(frozen=True)
class Option:
    """One option of a search, declared with its field (`option`)."""
    check: Callable[[str, Any], Any]    # (field, value) -> the value kept, or OptionError
    help: str                           # what it does: `ulm bots`, the docs' table
    spec: Optional[str] = None          # its name in a bot spec; None: no option of a spec
    parse: Callable[[str], Any] = _text     # a spec's text -> a value for `check`
    shorthand: Optional[str] = None     # `ulm suggest`'s option giving it ("--c")
    in_presets: bool = True             # written out by every preset (`spec_options`);
    #                                     False: only where it is not the default
    name: str = ""                      # the field (set from the declaration)
    default: Any = None                 # the field's default (set from the declaration)

    def read(self, text: str):
        """A spec's text (its parts already stripped by spec_parts) or a command
        line's as the value of this option, checked (OptionError); the text is
        read as given, so " 3 " is no whole number here as on the command line."""
        try:
            value = self.parse(text)
        except OptionError:
            raise
        except ValueError as exc:
            raise OptionError(self.name, text, str(exc)) from None
        return self.check(self.name, value)


def option(default, check, help: str, **declared) -> Any:
    """A field of SearchParams (or Evaluation) with its Option (see Option's fields)."""
    return dataclasses.field(default=default, metadata={
        "option": Option(check=check, help=help, default=default, **declared)})


@functools.cache
def _declared(cls) -> tuple:
    """The Options of the fields of `cls`, each named by its field (the
    evaluation's kind: "evaluation"), read once."""
    names = EVALUATION_FIELDS if cls is Evaluation else {}
    return tuple(dataclasses.replace(f.metadata["option"], name=names.get(f.name, f.name))
                 for f in dataclasses.fields(cls) if "option" in f.metadata)


def check_budget(iterations, time) -> tuple:
    """(iterations, time) if they are a budget (neither: DEFAULT_ITERATIONS),
    time as a float; else OptionError naming the one that is not."""
    if iterations is None and time is None:
        iterations = DEFAULT_ITERATIONS
    return _iterations("iterations", iterations), _seconds("time", time)


def check_workers(workers) -> int:
    """`workers` if it is a whole number from 1 to MAX_WORKERS, else OptionError."""
    return _workers("workers", workers)


def check_horizon(horizon) -> None:
    """OptionError unless `horizon` is -1 (to the end), turns up to MAX_HORIZON or
    rounds "Nr" up to MAX_HORIZON_ROUNDS: the one check of a horizon (a bot
    spec's horizon= is checked here too, as a field of its SearchParams)."""
    if isinstance(horizon, str) and horizon.endswith("r"):
        digits = horizon[:-1]
        # a number of more digits than int() reads is beyond the bound as well
        if digits.isascii() and digits.isdigit() and len(digits.lstrip("0")) <= len(str(MAX_HORIZON_ROUNDS)) \
                and int(digits) <= MAX_HORIZON_ROUNDS:
            return
    if _is_whole(horizon) and -1 <= horizon <= MAX_HORIZON:
        return
    raise OptionError("horizon", horizon,
                      f"must be -1 (to the end), a number of turns from 0 to "
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
    OptionError."""
    _weight(1.0, "a weight")("minimax", minimax)
    if minimax > 0 and horizon == -1:
        raise OptionError("minimax", minimax, "implicit minimax needs the evaluation, so a "
                                              "horizon (not -1)")
    return float(minimax)


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
    Searcher as its numbers (`numbers`). Its fields are options of a search
    too (named evaluation=, weights= and model= in `SearchParams.replace`)."""
    kind: str = option(
        DEFAULT_EVALUATION, _choice(EVALUATIONS), spec="eval",
        help="the win chances at the horizon: learned (the default: the model fitted to "
             "self-play, mcts/searcher/models/) or linear (the 14-feature evaluation)")
    weights: str = option(
        "default", _choice(tuple(WEIGHT_SETS)), spec="weights", in_presets=False,
        help="the cut-off evaluation's weights: default (mcts/searcher/eval_weights.json) or "
             "a pinned copy (pinned: that of preset=v0.2); a residual model corrects "
             "the pinned ones whatever these are")
    model: Optional[str] = option(
        None, _model, spec="model", parse=_model_text, in_presets=False,
        help="a model file of `ulm train fit` to evaluate with in place of the shipped one "
             "(needs eval=learned, which it implies), or a shipped model by name "
             "(learned-2p-v2)")

    def __post_init__(self):
        self.validate()

    def validate(self) -> None:
        for opt in _declared(Evaluation):
            opt.check(opt.name, getattr(self, EVALUATION_NAMES[opt.name]))
        if self.model is not None and self.kind != "learned":
            raise OptionError("model", self.model, f"a model is a learned evaluation, "
                                                   f"not {self.kind}")

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


# The evaluation's fields as options of a search name its kind "evaluation"
# (search(evaluation="linear"), the errors), its weights and model as they are.
EVALUATION_FIELDS = {"kind": "evaluation"}
EVALUATION_NAMES = {"evaluation": "kind", "weights": "weights", "model": "model"}


@dataclass(frozen=True)
class SearchParams:
    """Every option of one search, each declared once with its Option, and
    checked once (`validate`, on construction)."""
    # --- budget: how long a decision is searched
    iterations: Optional[int] = option(
        None, _iterations, spec="iterations", parse=whole_text, shorthand="--iterations",
        help="iterations per decision, total over the workers (at most 2**31 - 1)")
    time: Optional[float] = option(
        None, _seconds, spec="time", parse=_number_text, shorthand="--time", in_presets=False,
        help=f"seconds per decision, at most {MAX_SECONDS:g} (alone: no iteration limit; "
             "with iterations: whichever ends first)")
    workers: int = option(
        1, _workers, spec="workers", parse=whole_text, shorthand="--workers", in_presets=False,
        help="processes growing independent trees (root parallel), at most the machine's "
             "CPUs (at least 8 allowed)")
    # --- selection: where the tree grows
    c: Optional[float] = option(
        None, _exploration, spec="c", parse=_number_text, shorthand="--c",
        help="UCB's exploration constant (default: 2 times the rewards' spread when "
             "explore=scaled; fixed: 0.25 with a horizon, 0.7 to the end)")
    explore: str = option(
        DEFAULT_EXPLORE, _choice(EXPLORE_MODES), spec="explore",
        help="UCB's exploration: scaled (c x the spread of the rewards) or fixed (c)")
    form: str = option(
        DEFAULT_FORM, _choice(FORMS), spec="form",
        help="the exploration term: ucb1 (c sqrt(ln N / n)) or puct (c P sqrt(N) / (1 + n), "
             "AlphaZero's and KataGo's)")
    prior: str = option(
        DEFAULT_PRIOR, _choice(PRIORS), spec="prior",
        help="form=puct's prior P: uniform, or heuristic (half of it on the heuristic "
             "policy's decision)")
    bias: float = option(
        0.0, _weight(), spec="bias", parse=_number_text,
        help="progressive bias towards the heuristic policy")
    minimax: Optional[float] = option(
        None, _weight(1.0, "a weight", optional=True), spec="minimax", parse=_number_text,
        help="weight of implicit minimax backups of the evaluation in the tree, 0 to 1 "
             f"(needs a horizon; default {DEFAULT_MINIMAX:g} with one, 0 without)")
    chance: str = option(
        DEFAULT_CHANCE, _choice(CHANCE_MODES), spec="chance",
        help="chance outcomes the searcher sees: closed (own children) or open (merged)")
    final: str = option(
        DEFAULT_FINAL, _choice(FINALS), spec="final",
        help="the recommendation: most visits, best value, or lcb (the best lower "
             "confidence bound of the well-visited decisions, as KataGo)")
    # --- playout: below the tree
    rollout: str = option(
        DEFAULT_ROLLOUT, _choice(ROLLOUTS), spec="rollout", shorthand="--rollout",
        help="rollout policy below the tree: heuristic, lookahead (one ply for seals and "
             "coats) or random")
    horizon: Union[int, str, None] = option(
        None, _horizon, spec="horizon", parse=_horizon_text,
        help="rollout turns (or rounds: 2r) before the evaluation scores the position "
             "(default: 2 with eval=learned, 8 with linear); -1: play to the end")
    mast: float = option(
        0.0, _weight(1.0), spec="mast", parse=_number_text,
        help="share of rollout decisions chosen by MAST statistics, 0 to 1")
    margin_weight: float = option(
        DEFAULT_MARGIN_WEIGHT, _weight(), spec="margin", parse=_number_text,
        help="weight of the score-margin term of the reward")
    # --- evaluation: where a rollout is cut off (its options are the Evaluation's)
    evaluation: Evaluation = option(Evaluation(), _evaluation, help="the cut-off's evaluation")
    # --- the tree
    reuse: bool = option(
        False, _flag, spec="reuse", parse=_flag_text,
        help="keep the subtree of the own decision for the next one of the turn (workers=1)")
    max_nodes: int = option(
        DEFAULT_MAX_NODES, _max_nodes,
        help="each tree stops growing here (its statistics go on)")
    determinize: bool = option(
        True, _flag,
        help="False: search the state as if all were known (a cheat, for reference only; "
             "the cheat bot)")
    # --- seed
    seed: int = option(
        0, _seed, spec="seed", parse=_seed_text, shorthand="--seed", in_presets=False,
        help="seed of the bot's or the search's random choices (each decision of a bot "
             "derives its own); the same seed and iterations give the same search")

    def __post_init__(self):
        if self.iterations is None and self.time is None:
            object.__setattr__(self, "iterations", DEFAULT_ITERATIONS)
        self.validate()

    def validate(self) -> None:
        """OptionError naming the first field that is not an option of a search."""
        for opt in _declared(SearchParams):
            object.__setattr__(self, opt.name, opt.check(opt.name, getattr(self, opt.name)))
        if self.prior != DEFAULT_PRIOR and self.form != "puct":
            raise OptionError("prior", self.prior, f"a prior is a term of form=puct, not {self.form}")
        if self.minimax is not None:
            check_minimax(self.minimax, self.horizon)

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
    def value_of(self, opt: Option):
        """The value of an option (`OPTIONS`) in these params."""
        if opt.name in EVALUATION_NAMES:
            return getattr(self.evaluation, EVALUATION_NAMES[opt.name])
        return getattr(self, opt.name)

    def spec_options(self) -> dict:
        """The options of a bot spec (by their spec names) that give these
        params: every option a preset writes out, the others where they are
        not their default."""
        return {opt.spec: value for opt in OPTIONS.values()
                if (value := self.value_of(opt)) is not None or opt.in_presets
                if opt.in_presets or value != opt.default}

    @classmethod
    def from_spec_options(cls, options: dict, determinize: bool = True) -> "SearchParams":
        """SearchParams from options by their spec names, values read (a bot's
        config); the options not given have their defaults, and a budget of
        time alone has no iteration limit."""
        fields: dict[str, Any] = {}
        evaluation: dict[str, Any] = {}
        for spec, value in options.items():
            opt = OPTIONS.get(spec)
            if opt is None:
                continue
            if opt.name in EVALUATION_NAMES:
                evaluation[EVALUATION_NAMES[opt.name]] = value
            else:
                fields[opt.name] = value
        fields.setdefault("time", None)
        return cls(evaluation=Evaluation(**evaluation), determinize=determinize, **fields)

    @classmethod
    def from_spec(cls, spec: str) -> "SearchParams":
        """The params of a search bot's spec ("ismcts:preset=v0.2,c=1.2"; cheat:
        determinize off), the inverse of `to_spec`; OptionError naming the bad
        part (the bots read specs the same way: mcts.play.bots.make_bot)."""
        name, given = read_spec(spec, SPEC_OPTIONS)
        if name not in SEARCH_BOTS:
            raise OptionError("bot", name, f"{name} is no search; give "
                                           f"{' or '.join(SEARCH_BOTS)}")
        options = dict(PRESETS[given.pop("preset", "default")].spec_options())
        options.update(implied(given))
        return cls.from_spec_options(options, determinize=SEARCH_BOTS[name])

    def to_spec(self) -> str:
        """A bot spec that `from_spec` turns back into these params (max_nodes
        is no option of a spec: only its default is written)."""
        if self.max_nodes != DEFAULT_MAX_NODES:
            raise OptionError("max_nodes", self.max_nodes,
                              f"a bot spec has no such option (only {DEFAULT_MAX_NODES:,}), "
                              f"got {self.max_nodes:,}")
        defaults = SearchParams().spec_options()
        options = {k: v for k, v in self.spec_options().items()
                   if v is not None and (k in ("iterations", "time") or v != defaults.get(k))}
        name = next(bot for bot, determinize in SEARCH_BOTS.items()
                    if determinize == self.determinize)
        text = ",".join(f"{k}={_spec_value(v)}" for k, v in sorted(options.items()))
        return f"{name}:{text}" if text else name


def _spec_value(value) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


# The table: every option of a search that a bot spec names, by that name, in
# the order declared (the evaluation's where its field stands).
def _table() -> dict:
    options: list = []
    for opt in _declared(SearchParams):
        options += _declared(Evaluation) if opt.name == "evaluation" else (opt,)
    return {opt.spec: opt for opt in options if opt.spec is not None}


OPTIONS: dict[str, Option] = _table()
BY_FIELD: dict[str, Option] = {opt.name: opt for opt in OPTIONS.values()}
SHORTHANDS: dict[str, Option] = {opt.shorthand: opt for opt in OPTIONS.values() if opt.shorthand}
SEARCH_BOTS = {"ismcts": True, "cheat": False}      # the search bots: name -> determinize


def spec_name(field: Optional[str]) -> Optional[str]:
    """The name a bot spec gives the field (margin_weight: margin)."""
    opt = BY_FIELD.get(field or "")
    return opt.spec if opt is not None else field


def _check_preset(name: str, value):
    if value not in PRESETS:
        raise OptionError(name, value, f"expected one of {', '.join(PRESETS)}, "
                                       f"got {shown(value)}{did_you_mean(value, PRESETS)}")
    return value


PRESET_OPTION = Option(_check_preset, name="preset", spec="preset",
                       help="a named set of defaults: default, baseline (the previous "
                            "release's search), v0.2 (the default search of release 0.2, "
                            "pinned) or 2026-12 (the default search of December 2026, "
                            "written out)")
SPEC_OPTIONS = {**OPTIONS, "preset": PRESET_OPTION}   # what the search bots' specs take


def implied(given: dict) -> dict:
    """The options a spec gives, with what they imply: a time without
    iterations has no iteration limit; a model is a learned evaluation."""
    given = dict(given)
    if "time" in given and "iterations" not in given:
        given["iterations"] = None
    if given.get("model") and "eval" not in given:
        given["eval"] = "learned"
    return given


def spec_parts(spec: str) -> tuple:
    """(bot name, [(option, text), ...]) of a spec "NAME:OPTION=VALUE,...";
    OptionError for a part that is no OPTION=VALUE."""
    if not isinstance(spec, str):
        raise OptionError(None, spec, f"a bot spec must be text, got {shown(spec)}")
    name, _, rest = spec.strip().partition(":")
    parts = []
    for part in rest.split(",") if rest.strip() else ():
        key, eq, text = (p.strip() for p in part.strip().partition("="))
        if not eq or not key or not text:
            raise OptionError(None, part, f"bad option {shown(part.strip())}; write "
                                          "OPTION=VALUE")
        parts.append((key, text))
    return name.strip(), parts


def read_spec(spec: str, options: dict) -> tuple:
    """(bot name, {option: value}) of a spec, each value read by its Option of
    `options` (spec name -> Option); OptionError naming the unknown option
    (with the closest), one given twice or the bad value."""
    name, parts = spec_parts(spec)
    given: dict[str, Any] = {}
    for key, text in parts:
        if key not in options:
            raise OptionError(None, key, f"unknown option {shown(key)}"
                                         f"{did_you_mean(key, options, cutoff=0.4)}; options: "
                                         f"{', '.join(sorted(options))}")
        if key in given:
            raise OptionError(key, text, "given twice")
        given[key] = options[key].read(text)
    return name, given


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
