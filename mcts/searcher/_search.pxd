# cython: language_level=3
# The compiled search: Information Set MCTS over the core's GameState.
# Nodes live in one malloc'd array of `Node` (32 bytes each); the loop
# (determinize, select, expand, roll out, back up) runs without the GIL.

cimport cython
from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint64_t
from ulm._fastcore cimport (Board, GameState, Rng, MAX_PLAYERS, NUM_ACTIONS, NUM_DECISIONS,
                            NUM_SOURCES)

cdef enum:
    ROLLOUT_RANDOM = 0
    ROLLOUT_HEURISTIC = 1
    ROLLOUT_LOOKAHEAD = 2   # the heuristic, with one ply on `evaluate` for seals and coats
    CHANCE_OPEN = 0         # chance outcomes merged in the node before them
    CHANCE_CLOSED = 1       # an outcome the searcher observes gets its own child
    FINAL_VISITS = 0        # the recommendation: most visited root decision
    FINAL_VALUE = 1         # best mean value among the well-visited ones
    N_FEATURES = 14         # evaluation features per player (eval_features)
    N_WEIGHTS = 28          # each feature alone and times the share of the game left
    MAST_SLOTS = NUM_DECISIONS   # MAST statistics per (player, decision)
    ROLLOUT_LOG = 4096      # decisions of one iteration remembered for MAST
    # node flags
    NODE_CHANCE_AFTER = 1   # a chance event followed this decision (seen at least once)
    NODE_VALUE = 2          # the node has a heuristic value (implicit minimax)
    # tree keys: every core action, plus HIDDEN_CARD_KEEP (= NUM_ACTIONS)
    NUM_KEYS = NUM_ACTIONS + 1
    KEY_WORDS = (NUM_KEYS + 63) // 64   # 64-bit words of a key set
    MAX_DEPTH = 2048        # deepest path followed inside the tree
    POINT_SOURCES = NUM_SOURCES + 1     # the scoring sources, then the evaluation's forecast


ctypedef struct Node:
    int32_t first_child     # -1: none; children form a singly linked list
    int32_t next_sibling
    int32_t visits
    int32_t avail           # iterations in which this key was legal at its parent
    double reward           # sum of the rewards of `mover` through this node
    int16_t key             # the action as the searching player observes it
    int8_t mover            # the player who chose this action
    uint8_t flags


@cython.final           # no subclasses: its methods are called directly, not through a table
cdef class Searcher:
    cdef Board board
    cdef GameState root
    cdef Rng rng
    cdef Node* nodes
    cdef int32_t* path
    cdef int n_nodes
    cdef int capacity
    cdef int max_nodes
    cdef readonly int root_player
    cdef int root_action            # >= 0: the only decision searched at the root
    cdef readonly int num_players
    cdef bint determinize_each
    cdef int rollout
    cdef double c
    cdef double margin_weight
    cdef int chance_mode
    cdef int horizon
    cdef double bias
    cdef double mast_eps
    cdef double minimax             # weight of the heuristic value in the selection
    cdef float* hv                  # [node][MAX_PLAYERS] heuristic values, if minimax > 0
    cdef double* mast               # [MAX_PLAYERS][MAST_SLOTS][2]: reward sum, count
    cdef int16_t* log_action
    cdef int8_t* log_mover
    cdef int n_log
    cdef double eval_w[N_WEIGHTS]      # predicted final score (VP)
    cdef double eval_win[N_WEIGHTS]    # win chances: softmax of these logits
    cdef double* learned            # the learned model's weights (learned_win), or NULL
    cdef int learned_hidden         # its hidden units (0: a linear model)
    cdef bint learned_residual      # the model corrects the 14-feature win head
    cdef readonly long long reused_visits
    cdef readonly long long iterations
    cdef readonly double seconds
    cdef double win_sum[MAX_PLAYERS]
    cdef double score_sum[MAX_PLAYERS]
    cdef bint scaled                # explore="scaled": c x the spread of the mover's rewards
    cdef bint puct                  # form="puct": the polynomial exploration term
    cdef bint heuristic_prior       # prior="heuristic": more prior on the heuristic's decision
    cdef double reward_sum[MAX_PLAYERS]
    cdef double reward_sq[MAX_PLAYERS]     # both over this search's `iterations`
    cdef double root_reward[NUM_KEYS][MAX_PLAYERS]
    cdef double root_win[NUM_KEYS][MAX_PLAYERS]
    cdef double root_n[NUM_KEYS]    # iterations summed in root_reward/root_win per key
    cdef bint points                # sum the points below (the root's decisions in points)
    cdef double root_score[NUM_KEYS][MAX_PLAYERS]   # final (or forecast) scores per key
    cdef double root_margin[NUM_KEYS]       # the searcher's score - the best other's, summed
    cdef double root_margin_sq[NUM_KEYS]    # ... and its squares
    cdef double root_source[NUM_KEYS][POINT_SOURCES]   # the searcher's points by source

    cdef void _reset_totals(self)
    cdef void _reset_root_stats(self)
    cdef void _reset_root(self)
    cdef int new_node(self, int parent, int key, int mover) noexcept nogil
    cdef void iterate(self) noexcept nogil
    cdef inline int pick_untried(self, uint64_t* untried, int n_untried, int hkey) noexcept nogil
    cdef inline double child_value(self, int child, int p) noexcept nogil
    cdef inline int select_ucb(self, const int* avail_child, int n_avail, int p, double explore,
                               int hkey) noexcept nogil
    cdef inline int select_puct(self, const int* avail_child, int n_avail, int p, double explore,
                                int hkey) noexcept nogil
    cdef inline void leaf_rewards(self, GameState* s, double* r, double* win, double* score,
                                  double* by_source) noexcept nogil
    cdef inline void back_up(self, int depth, const double* r, const double* win,
                             const double* score, const double* by_source) noexcept nogil
    cdef inline void add_points(self, int key, const double* score,
                                const double* by_source) noexcept nogil
    cdef void leaf_sources(self, const GameState* s, const double* score, const int16_t* src,
                           double* out) noexcept nogil
    cdef int chance_child(self, int node, int key) noexcept nogil
    cdef bint play_on(self, GameState* s) noexcept nogil
    cdef int mast_action(self, const GameState* s, const int16_t* legal, int n) noexcept nogil
    cdef inline void eval_outcome(self, const GameState* s, double* pred, double* win,
                                  int16_t* src) noexcept nogil
    cdef void eval_rewards(self, const GameState* s, double* r, double* win, double* pred,
                           int16_t* src) noexcept nogil
    cdef void set_value(self, int node, const GameState* s) noexcept nogil
    cdef void back_up_values(self, int depth) noexcept nogil
    cdef void exploration(self, double* out) noexcept nogil
    cdef long long run_loop(self, long long max_iterations, double max_seconds) except -1 nogil
    cdef dict _subtree(self, int node, int depth, double min_share, bint whole)
    cdef dict _values(self, int node, int depth)


cdef int heuristic_action(const Board* b, const GameState* s, const int16_t* legal, int n,
                          Rng* r) noexcept nogil
cdef void heuristic_playout(const Board* b, GameState* s, Rng* r) noexcept nogil
cdef double evaluate(const Board* b, const GameState* s, int p) noexcept nogil
cdef void eval_features(const Board* b, const GameState* s, int p, double* f) noexcept nogil
cdef void eval_outcome(const Board* b, const GameState* s, const double* w_score,
                       const double* w_win, double* pred, double* win) noexcept nogil
cdef bint turn_start(const GameState* s) noexcept nogil
cdef bint chance_observed(const GameState* s, int observer) noexcept nogil
cdef int greedy_choice(const Board* b, const GameState* s, uint64_t seed) noexcept nogil
