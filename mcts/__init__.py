"""Search for Ulm: ISMCTS (compiled, mcts/searcher/_search.pyx), its Python API and bots.

    >>> from mcts import search, make_bot
    >>> result = search(state, iterations=2000, seed=1)
    >>> result = search(state, params=params_from_spec("ismcts:preset=v0.2"))
    >>> bot = make_bot("ismcts:iterations=2000,rollout=heuristic")
    >>> action = bot.choose(state)
"""
try:
    from mcts.searcher import _search  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the build
    raise ImportError(
        "the compiled search (mcts.searcher._search) is not built. Install the project with "
        "`pip install .` (or `pip install -e .`), or build it in place with "
        "`python setup.py build_ext --inplace`; this needs Cython and a C compiler."
    ) from exc

from mcts.searcher.search import (  # noqa: E402
    DEFAULT_C, DEFAULT_ITERATIONS, DEFAULT_MARGIN_WEIGHT, DEFAULT_MINIMAX, DEFAULT_ROLLOUT,
    FULL_ROLLOUT_C,
    MAX_ITERATIONS, MAX_WORKERS, NODE_BYTES, ROLLOUTS, SCALED_C,
    ActionStats, LineStep, SearchResult, action_name, principal_line, search,
)
from mcts.searcher.params import PRESETS, Evaluation, SearchParams  # noqa: E402
from mcts.play.bots import BOTS, Bot, make_bot, params_from_spec  # noqa: E402

__all__ = ["ActionStats", "BOTS", "Bot", "DEFAULT_C", "DEFAULT_ITERATIONS",
           "DEFAULT_MARGIN_WEIGHT", "DEFAULT_MINIMAX", "DEFAULT_ROLLOUT", "FULL_ROLLOUT_C",
           "LineStep", "MAX_ITERATIONS", "MAX_WORKERS", "NODE_BYTES",
           "ROLLOUTS", "SCALED_C",
           "SearchResult", "action_name", "make_bot", "principal_line", "search",
           "Evaluation", "PRESETS", "SearchParams", "params_from_spec"]
