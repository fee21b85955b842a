# cython: language_level=3
# The compiled search: Information Set MCTS over the core's GameState.
# Nodes live in one malloc'd array of `Node` (32 bytes each); the loop
# (determinize, select, expand, roll out, back up) runs without the GIL.

from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint64_t
from ulm._fastcore cimport Board, GameState, Rng, MAX_PLAYERS, NUM_ACTIONS

cdef enum:
    ROLLOUT_RANDOM = 0
    ROLLOUT_HEURISTIC = 1
    # node flags
    NODE_CHANCE_AFTER = 1   # a chance event followed this decision (seen at least once)
    # tree keys: every core action, plus HIDDEN_CARD_KEEP (= NUM_ACTIONS)
    NUM_KEYS = NUM_ACTIONS + 1
    KEY_WORDS = (NUM_KEYS + 63) // 64   # 64-bit words of a key set
    MAX_DEPTH = 2048        # deepest path followed inside the tree


ctypedef struct Node:
    int32_t first_child     # -1: none; children form a singly linked list
    int32_t next_sibling
    int32_t visits
    int32_t avail           # iterations in which this key was legal at its parent
    double reward           # sum of the rewards of `mover` through this node
    int16_t key             # the action as the searching player observes it
    int8_t mover            # the player who chose this action
    uint8_t flags


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
    cdef readonly int num_players
    cdef bint determinize_each
    cdef int rollout
    cdef double c
    cdef double margin_weight
    cdef readonly long long iterations
    cdef readonly double seconds
    cdef double win_sum[MAX_PLAYERS]
    cdef double score_sum[MAX_PLAYERS]
    cdef double root_reward[NUM_KEYS][MAX_PLAYERS]
    cdef double root_win[NUM_KEYS][MAX_PLAYERS]

    cdef int new_node(self, int parent, int key, int mover) noexcept nogil
    cdef void iterate(self) noexcept nogil
    cdef long long run_loop(self, long long max_iterations, double max_seconds) except -1 nogil
    cdef dict _subtree(self, int node, int depth, double min_share, bint whole)


cdef int heuristic_action(const Board* b, const GameState* s, const int16_t* legal, int n,
                          Rng* r) noexcept nogil
cdef void heuristic_playout(const Board* b, GameState* s, Rng* r) noexcept nogil
cdef double evaluate(const Board* b, const GameState* s, int p) noexcept nogil
cdef int greedy_choice(const Board* b, const GameState* s, uint64_t seed) noexcept nogil
