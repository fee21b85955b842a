# cython: language_level=3
"""Information Set MCTS for Ulm, compiled over the core's C state.

SO-ISMCTS (Cowling, Powley & Whitehouse 2012) for 2-4 players:

* every iteration starts from a fresh determinization of the searching
  player's information set: a struct copy of the root passed through the
  core's ``determinize(&copy, root_player, &rng)``;
* a node's children are keyed by the action *as the searching player observes
  it* (``action_for_observer``): an opponent's card keep is one child,
  HIDDEN_CARD_KEEP, and descending through it picks uniformly among the
  concrete legal keeps of the determinization;
* selection is UCB over the children available in this determinization, with
  the subset-armed exploration term ``c * sqrt(ln(avail) / visits)``, where
  ``avail`` counts the iterations in which the child was legal (UCB1); with
  ``form="puct"`` the polynomial term of AlphaZero and KataGo,
  ``c * P(a) * sqrt(avail) / (1 + visits)``, whose alternatives' visits grow
  with a power of the budget rather than its logarithm; the prior P is uniform
  over the decisions legal in the world, or (``prior="heuristic"``) gives
  HEURISTIC_PRIOR more to the heuristic policy's decision;
* each node stores the reward of the player who chose it (max^n with reward
  vectors): win share (ties shared) + ``margin_weight * tanh(margin / 20)``,
  margin = own score - best other score;
* chance events are sampled with the search RNG and not stored as nodes
  (a node only records that a chance event followed it, for the principal line);
* with ``minimax`` > 0 (implicit minimax backups, Lanctot et al. 2014), each
  node also holds a heuristic value: the evaluation's rewards of the position
  where it was added, backed up max^n (a node takes the values of its child
  best for that child's mover); selection uses
  ``(1 - minimax) * mean reward + minimax * heuristic value`` in place of the
  mean reward;
* one node is added per iteration, then a rollout ("random": uniform legal
  actions, the core's ``random_playout``; "heuristic": ``heuristic_playout``
  below; "lookahead": the same with one ply for seals and coats) plays to the
  end of the game or to the horizon.

Nodes are ``Node`` structs in one malloc'd array that doubles when full (up to
``max_nodes``, after which the tree stops growing); NODE_BYTES = 32 bytes per
node, and VALUE_BYTES = 16 more in a parallel array for the heuristic values
with ``minimax``. The whole loop runs without the GIL; Python calls
``Searcher.run`` once per search (or once per chunk when progress is
reported).
"""

from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memset, memcpy
from libc.math cimport sqrt, log, tanh, exp, INFINITY
from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

cdef extern from "Python.h":
    int PyErr_CheckSignals()     # -1 with the exception set (KeyboardInterrupt) if a handler raised

from ulm._fastcore cimport *    # the state, the enums, and the hot helpers inline


NODE_BYTES = sizeof(Node)
VALUE_BYTES = MAX_PLAYERS * sizeof(float)   # a node's heuristic values (minimax > 0)
ROLLOUTS = ("random", "heuristic", "lookahead")
CHANCE_MODES = ("open", "closed")     # index = CHANCE_OPEN, CHANCE_CLOSED
EXPLORE_MODES = ("fixed", "scaled")   # UCB's exploration term: c, or c x the rewards' spread
FORMS = ("ucb1", "puct")        # the exploration term: c sqrt(ln N / n), or c P sqrt(N) / (1 + n)
PRIORS = ("uniform", "heuristic")     # form="puct": P uniform, or more to the heuristic's decision
# prior="heuristic": the share of the prior on the heuristic policy's decision (the
# rest, and this share's complement, spread evenly over the legal decisions)
cdef double HEURISTIC_PRIOR_SHARE = 0.5
HEURISTIC_PRIOR = HEURISTIC_PRIOR_SHARE
# "scaled" starts from this variance of the rewards (a standard deviation of about 0.22),
# weighted as if 10 iterations had shown it, until the search's own are in
cdef double SPREAD_PRIOR_VARIANCE = 0.05
cdef double SPREAD_PRIOR_ITERATIONS = 10.0
EVAL_WEIGHTS = N_WEIGHTS
KEY_COUNT = NUM_KEYS
POINT_SOURCE_COUNT = POINT_SOURCES   # a root decision's points by source: the sources, the forecast
HIDDEN_KEY = HIDDEN_CARD_KEEP
cdef double SIGNAL_CHECK = 0.005   # how often (s) the GIL-free loop looks for Ctrl-C and other signals
SIGNAL_CHECK_SECONDS = SIGNAL_CHECK
DEFAULT_MAX_NODES = 1 << 24      # 512 MiB of nodes (768 with minimax values) at most; then the tree stops growing
INITIAL_NODES = 1 << 12

# The search in topics, one compilation unit:
include "_rollout.pxi"
include "_evaluation.pxi"
include "_features.pxi"
include "_greedy.pxi"
include "_probe.pxi"
include "_tree.pxi"
