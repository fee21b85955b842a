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
  ``avail`` counts the iterations in which the child was legal;
* each node stores the reward of the player who chose it (max^n with reward
  vectors): win share (ties shared) + ``margin_weight * tanh(margin / 20)``,
  margin = own score - best other score;
* chance events are sampled with the search RNG and not stored as nodes
  (a node only records that a chance event followed it, for the principal line);
* one node is added per iteration, then a rollout ("random": uniform legal
  actions, the core's ``random_playout``; "heuristic": ``heuristic_playout``
  below) plays to the end of the game.

Nodes are ``Node`` structs in one malloc'd array that doubles when full (up to
``max_nodes``, after which the tree stops growing); NODE_BYTES = 32 bytes per
node. The whole loop runs without the GIL; Python calls ``Searcher.run`` once
per search (or once per chunk when progress is reported).
"""

from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memset, memcpy
from libc.math cimport sqrt, log, tanh, INFINITY
from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint16_t, uint32_t, uint64_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

cdef extern from "Python.h":
    int PyErr_CheckSignals()     # -1 with the exception set (KeyboardInterrupt) if a handler raised

from ulm._fastcore cimport *

cdef extern from *:
    int popcount64 "__builtin_popcountll"(unsigned long long) nogil
    int ctz64 "__builtin_ctzll"(unsigned long long) nogil


NODE_BYTES = sizeof(Node)
ROLLOUTS = ("random", "heuristic")
KEY_COUNT = NUM_KEYS
HIDDEN_KEY = HIDDEN_CARD_KEEP
cdef double SIGNAL_CHECK = 0.005   # how often (s) the GIL-free loop looks for Ctrl-C and other signals
SIGNAL_CHECK_SECONDS = SIGNAL_CHECK
DEFAULT_MAX_NODES = 1 << 24      # 512 MiB of nodes at most; the tree stops growing there
INITIAL_NODES = 1 << 12

# ---------------------------------------------------------------------------
# Small helpers



cdef inline double now_seconds() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline bint free_quarter_beside(const Board* b, const GameState* s, int p) noexcept nogil:
    cdef int i = s.players[p].barge
    return quarter_free(b, s, b.north_of[i]) or quarter_free(b, s, b.south_of[i])


cdef int outer_best_side(const GameState* s) noexcept nogil:
    cdef int side, i, n, best = 0
    for side in range(4):
        n = 0
        for i in range(3 * side, 3 * side + 3):
            if s.outer[i] != NO_TILE:
                n += 1
        if n > best:
            best = n
    return best


cdef inline bint has_action(const int16_t* legal, int n, int a) noexcept nogil:
    cdef int i
    for i in range(n):
        if legal[i] == a:
            return True
    return False


cdef int random_in_range(const int16_t* legal, int n, int lo, int hi, Rng* r) noexcept nogil:
    """A uniformly chosen legal action in [lo, hi), or -1."""
    cdef int i, k = 0, pick
    for i in range(n):
        if lo <= legal[i] < hi:
            k += 1
    if k == 0:
        return -1
    pick = rng_below(r, k)
    for i in range(n):
        if lo <= legal[i] < hi:
            if pick == 0:
                return legal[i]
            pick -= 1
    return -1


cdef int last_in_range(const int16_t* legal, int n, int lo, int hi) noexcept nogil:
    cdef int i
    for i in range(n - 1, -1, -1):
        if lo <= legal[i] < hi:
            return legal[i]
    return -1


# ---------------------------------------------------------------------------
# A cheap rule-based default policy ("heuristic" rollouts)

cdef double line_value(const Board* b, const GameState* s, int p,
                       const int* colours) noexcept nogil:
    """Rough worth in VP of activating these 3 colours this turn for p."""
    cdef const Player* pl = &s.players[p]
    cdef int counts[NUM_COLOURS]
    cdef int i, k, coins, cost, seals
    cdef double v = 0.0, left = (NUM_ROUNDS - s.round) / <double>NUM_ROUNDS
    memset(counts, 0, sizeof(counts))
    for i in range(3):
        counts[colours[i]] += 1
    # Money: coins are worth most while there is time to spend them
    v += counts[GRAY] * (0.3 + 0.5 * left) * money_per_action(s, p)
    # Clear-away: the tiles lying on the best sides (the pushed-out tile adds one)
    if counts[WHITE] > 0:
        k = outer_best_side(s) + 1
        v += 0.35 * (k if k < 3 else 3) * left + 0.2 * (counts[WHITE] - 1) * left
    # Card: buying needs 2 spare tiles; otherwise an extra card play
    if counts[BROWN] > 0:
        if supply_total(pl) >= 2 and (s.pile != 0 or s.discard != 0):
            v += 1.3 * counts[BROWN] * (0.4 + 0.6 * left)
        elif pl.hand != 0:
            v += 0.8
    # River: every step is a VP at the end (two across the bridge)
    if counts[TURQUOISE] > 0 and next_free_space(s, p, pl.barge) >= 0:
        v += 1.0 * counts[TURQUOISE]
        if pl.barge == 10:
            v += 1.0
    # Seal: needs the coins (after the Money actions of this line) and a free space
    if counts[ORANGE] > 0 and pl.seals_left > 0 and free_quarter_beside(b, s, p):
        cost = seal_cost(s)
        coins = pl.coins + counts[GRAY] * money_per_action(s, p)
        seals = coins // cost if cost > 0 else counts[ORANGE]
        if seals > counts[ORANGE]:
            seals = counts[ORANGE]
        if seals > pl.seals_left:
            seals = pl.seals_left
        v += 2.5 * seals
    return v


cdef double colour_value(const Board* b, const GameState* s, int p, int c) noexcept nogil:
    cdef int colours[3]
    colours[0] = c
    colours[1] = c
    colours[2] = c
    return line_value(b, s, p, colours) / 3.0


cdef int best_push(const Board* b, const GameState* s, int p, const int16_t* legal, int n,
                   Rng* r) noexcept nogil:
    cdef int i, e, best = -1
    cdef int colours[3]
    cdef double v, best_v = -1e9
    for i in range(n):
        if legal[i] < A_PUSH or legal[i] >= A_PUSH + 12:
            continue
        e = legal[i] - A_PUSH
        colours[0] = s.drawn[0]
        colours[1] = s.grid[push_cell(e, 0)]
        colours[2] = s.grid[push_cell(e, 1)]
        # a little noise keeps the rollouts varied and breaks ties at random
        v = line_value(b, s, p, colours) + 0.4 * (rng_next(r) >> 11) * (1.0 / 9007199254740992.0)
        if v > best_v:
            best_v = v
            best = legal[i]
    return best


cdef int card_priority(const Board* b, const GameState* s, int c, bint upper_ok, bint last_round,
                       int* action) noexcept nogil:
    """How much playing card c now is worth (0: keep it) and how to play it."""
    if c < CARD_ART:                        # cathedral: 6 VP upper for one tile
        if upper_ok:
            action[0] = A_PLAY_UPPER + c
            return 6
        action[0] = A_PLAY_LOWER + c
        return 3
    if c < CARD_ULM_CHRONICLE:              # trade: coins and river early, sets late
        if upper_ok and s.round <= 6:
            action[0] = A_PLAY_UPPER + c
            return 4
        action[0] = A_PLAY_LOWER + c
        return 3
    if c == CARD_ULM_CHRONICLE and upper_ok and not last_round:
        action[0] = A_PLAY_UPPER + c
        return 5
    if c == CARD_CITY_WALL:                 # kept for a seal anywhere, played late
        action[0] = A_PLAY_LOWER + c
        return 2 if s.round >= 7 else 0
    if c == CARD_FREEZE and upper_ok and s.round <= 6:
        action[0] = A_PLAY_UPPER + c
        return 3
    action[0] = A_PLAY_LOWER + c
    return 4 if c == CARD_PATRICIAN else 2


cdef int choose_card_play(const Board* b, const GameState* s, int p, const int16_t* legal,
                          int n) noexcept nogil:
    cdef uint64_t hand = s.players[p].hand, h = hand
    cdef int c, prio, best = 0, best_a = -1, a = -1
    cdef bint last_round = s.round == NUM_ROUNDS - 1
    while h:
        c = ctz64(h)
        h &= h - 1
        if not has_action(legal, n, A_PLAY_LOWER + c):
            continue
        prio = card_priority(b, s, c, has_action(legal, n, A_PLAY_UPPER + c), last_round, &a)
        if last_round and prio == 0:
            prio = 1
        if prio > best:
            best = prio
            best_a = a
    return best_a


cdef int task_choice(const Board* b, const GameState* s, int p, int t, const int16_t* legal, int n,
                     Rng* r) noexcept nogil:
    cdef int i, a, best, c
    cdef double v, best_v
    if t == TK_BARGE_MOVE:
        return legal[n - 1]                 # the farthest move
    if t == TK_COAT_CHOICE:                  # keep a coat, silver (most VP) first
        a = last_in_range(legal, n, A_KEEP_COAT, A_KEEP_COAT + NUM_COATS)
        return a if a >= 0 else legal[0]
    if t == TK_REFORM_PICK or t == TK_TOWER_PAYMENT or t == TK_ABBOT_DOCK:
        return legal[0]                     # take a tile / pay rather than stop / lose VP
    if t == TK_BUY_MODE:
        return A_LOOK_TWO                   # never worse than the top card
    if t == TK_BUILDER_KEEP:
        best = legal[0]
        best_v = -1.0
        for i in range(n):
            v = colour_value(b, s, p, legal[i] - A_PICK_COLOUR)
            if v > best_v:
                best_v = v
                best = legal[i]
        return best
    if t == TK_AMOUNT and s.task_arg[s.n_tasks - 1] == CARD_SIEGE and s.round >= NUM_ROUNDS - 2:
        return legal[n - 1]
    return legal[rng_below(r, n)]


cdef int heuristic_action(const Board* b, const GameState* s, const int16_t* legal, int n,
                          Rng* r) noexcept nogil:
    """A sensible decision for the player to move, cheaply: push the line whose
    actions are the most useful, use Money, Seal and River when available, clear
    the fullest side, buy cards with spare tiles, play cards (upper when it pays),
    then end the turn."""
    cdef int p = s.turn_player, a, i, c, best
    cdef double v, best_v
    cdef const Player* pl = &s.players[p]
    if n == 1:
        return legal[0]
    if s.n_tasks > 0:
        return task_choice(b, s, p, s.task[s.n_tasks - 1], legal, n, r)
    if s.phase == PH_BEFORE_DRAW:
        # T11: pick the most useful colour instead of drawing; a Builder draws 2
        best = A_DRAW_TWO if has_action(legal, n, A_DRAW_TWO) else A_DRAW
        best_v = 0.6
        for i in range(n):
            if A_PICK_COLOUR <= legal[i] < A_PICK_COLOUR + NUM_COLOURS:
                v = colour_value(b, s, p, legal[i] - A_PICK_COLOUR)
                if v > best_v:
                    best_v = v
                    best = legal[i]
        return best
    if s.phase == PH_PUSH:
        a = best_push(b, s, p, legal, n, r)
        return a if a >= 0 else legal[rng_below(r, n)]
    # the actions of the pushed line
    if has_action(legal, n, A_TAKE_PUSHED_OUT):
        return A_TAKE_PUSHED_OUT
    if has_action(legal, n, A_MONEY):
        return A_MONEY
    a = random_in_range(legal, n, A_SEAL, A_SEAL + NUM_QUARTERS, r)
    if a >= 0:
        return a
    a = random_in_range(legal, n, A_SEAL_WALL, A_SEAL_WALL + NUM_QUARTERS, r)
    if a >= 0:
        return a
    if has_action(legal, n, A_RIVER):
        return A_RIVER
    a = choose_card_play(b, s, p, legal, n)
    if a >= 0 and s.free_play:
        return a
    best = -1
    c = 0
    for i in range(n):
        if A_CLEAR <= legal[i] < A_CLEAR + 4:
            a = 0
            for c in range(3 * (legal[i] - A_CLEAR), 3 * (legal[i] - A_CLEAR) + 3):
                if s.outer[c] != NO_TILE:
                    a += 1
            if best < 0 or a > best_v:
                best_v = a
                best = legal[i]
    if best >= 0:
        return best
    if s.round < NUM_ROUNDS - 1 or s.free_play:
        a = random_in_range(legal, n, A_BUY_PAIR, A_RIVER, r)   # pairs, T3 coin, T4 tile
        if a >= 0:
            return a
    a = choose_card_play(b, s, p, legal, n)   # the card action as an extra play
    if a >= 0:
        return a
    return A_END_TURN


cdef void heuristic_playout(const Board* b, GameState* s, Rng* r) noexcept nogil:
    """Play to the end with `heuristic_action` for every decision."""
    cdef int16_t buf[MAX_LEGAL]
    cdef int n, p
    while True:
        p = current_player(s)
        if p == CHANCE_PLAYER:
            apply_action(b, s, sample_chance(s, r))
            continue
        if p == TERMINAL_PLAYER:
            return
        n = legal_actions(b, s, buf)
        if n == 0:      # stuck: only a state set by hand gets here
            return
        apply_action(b, s, heuristic_action(b, s, buf, n, r))


# ---------------------------------------------------------------------------
# Position evaluation (the greedy bot)

cdef double task_value(const GameState* s, int t, int arg, double left) noexcept nogil:
    """What a pending decision of the mover is roughly worth."""
    if t == TK_COAT_CHOICE:
        return 3.0
    if t == TK_DESC_CHOICE:
        return 2.0 * left + 0.5
    if t == TK_BARGE_MOVE:
        return 0.9 * arg
    if t == TK_DOCK_CHOICE or t == TK_TOWNHALL_CHOICE or t == TK_ABBOT_DOCK:
        return 0.6 * left
    if (t == TK_CARD_KEEP or t == TK_GOOSE_CHOICE or t == TK_CARD_TO_HAND or t == TK_CARD_LOOK
            or t == TK_BUY_MODE):
        return 0.5 + 1.5 * left if t != TK_CARD_LOOK else 0.0
    if t == TK_CHRONICLE_QUARTER:
        return 2.0
    if t == TK_PAY_COLOUR:
        return 5.5
    if t == TK_REFORM_PICK:
        return 0.6 * left * arg
    if t == TK_SWABIAN_COLOUR:
        return 1.0
    return 0.0


cdef double evaluate(const Board* b, const GameState* s, int p) noexcept nogil:
    """p's position in VP: the projected score (score + end-game items now) plus
    resources weighted by the part of the game left, the unused actions of p's
    turn and p's pending decisions."""
    cdef int16_t src[NUM_SOURCES]
    cdef const Player* pl = &s.players[p]
    cdef double v, left, k
    cdef int i, q, cost, coins, seals, nq = 0
    cdef int act[NUM_COLOURS]
    if s.phase == PH_GAME_OVER and s.n_tasks == 0:
        return pl.score
    v = pl.score + end_bonus(b, s, p, src)
    left = (NUM_ROUNDS - s.round) / <double>NUM_ROUNDS
    v += left * (0.8 * pl.coins + 0.6 * supply_total(pl) + 1.5 * popcount64(pl.hand))
    for q in range(NUM_QUARTERS):
        if pl.seals_in[q] > 0:
            nq += 1
    v += 0.7 * nq                                   # R-END-3 tie-break, majorities
    for i in range(NUM_DESCENDANTS):
        if s.desc[i] == p:
            v += 1.5 * left
    if s.turn_player != p:
        return v
    for i in range(s.n_tasks):
        v += task_value(s, s.task[i], s.task_arg[i], left)
    # the unused actions of this turn (activated tiles after the push, extra
    # actions at any time), a little below what using them gives
    v += 0.9 * 0.8 * left * (s.extra[GRAY] + (s.avail[GRAY] * money_per_action(s, p)
                                               if s.phase == PH_ACTIONS else 0))
    if s.phase != PH_ACTIONS:
        for i in range(NUM_COLOURS):
            act[i] = s.extra[i]
    else:
        for i in range(NUM_COLOURS):
            act[i] = s.avail[i] + s.extra[i]
    k = outer_best_side(s)
    if act[WHITE] > 0 and k > 0:
        v += 0.9 * 0.6 * left * k
    if act[BROWN] > 0 and supply_total(pl) >= 2:
        v += 0.9 * 1.5 * left
    if act[TURQUOISE] + s.river_extra > 0 and next_free_space(s, p, pl.barge) >= 0:
        v += 0.9 * (act[TURQUOISE] + s.river_extra)
    if (act[ORANGE] > 0 or s.t5_seal) and pl.seals_left > 0 and free_quarter_beside(b, s, p):
        cost = seal_cost(s)
        coins = pl.coins
        seals = act[ORANGE] + s.t5_seal
        if cost > 0 and coins // cost < seals:
            seals = coins // cost
        v += 0.9 * 2.5 * seals
    if s.free_play and pl.hand != 0 and s.phase == PH_ACTIONS:
        v += 0.5
    return v


cdef int greedy_choice(const Board* b, const GameState* s, uint64_t seed) noexcept nogil:
    """One ply: apply each legal decision to a copy, resolve the chance events
    that follow with the same fixed sample, keep the best `evaluate` of the mover."""
    cdef int16_t buf[MAX_LEGAL]
    cdef int n, i, p = s.turn_player, best = -1
    cdef double v, best_v = -1e18
    cdef GameState t
    cdef Rng r
    n = legal_actions(b, s, buf)
    for i in range(n):
        t = s[0]
        apply_action(b, &t, buf[i])
        rng_seed(&r, seed)
        while current_player(&t) == CHANCE_PLAYER:
            apply_action(b, &t, sample_chance(&t, &r))
        v = evaluate(b, &t, p)
        if v > best_v + 1e-9:
            best_v = v
            best = buf[i]
    return best


# ---------------------------------------------------------------------------
# Hidden information

# ---------------------------------------------------------------------------
# From the Python State

cdef int load_state(object state, GameState* out, Board* board) except -1:
    """Copy a ulm State's struct and its board (a struct copy each)."""
    if not isinstance(state, State):
        raise TypeError(f"state: expected a ulm State, got {type(state).__name__}")
    out[0] = (<State>state).s
    if board != NULL:
        board[0] = (<State>state).game.board
    return 0


def evaluate_position(state, int player):
    """The greedy bot's evaluation of `player`'s position (in VP)."""
    cdef GameState s
    cdef Board b
    load_state(state, &s, &b)
    if not 0 <= player < s.num_players:
        raise ValueError(f"player: no seat {player} in a {s.num_players}-player game")
    return evaluate(&b, &s, player)


def greedy_action(state, seed=0):
    """The greedy bot's decision for the player to move (one ply, see `evaluate`)."""
    cdef GameState s
    cdef Board b
    load_state(state, &s, &b)
    if current_player(&s) < 0:
        raise ValueError("greedy_action: the state is not a decision of a player")
    return greedy_choice(&b, &s, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))


def heuristic_action_for(state, seed=0):
    """The heuristic rollout policy's decision for the player to move."""
    cdef GameState s
    cdef Board b
    cdef Rng r
    cdef int16_t buf[MAX_LEGAL]
    cdef int n
    load_state(state, &s, &b)
    if current_player(&s) < 0:
        raise ValueError("heuristic_action_for: the state is not a decision of a player")
    rng_seed(&r, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
    n = legal_actions(&b, &s, buf)
    if n == 0:
        raise ValueError("heuristic_action_for: no legal decision in this state")
    return heuristic_action(&b, &s, buf, n, &r)


def playout_scores(state, seed=0, rollout="random"):
    """Final scores of one playout from `state` (dealer and decisions from `seed`)."""
    cdef GameState s
    cdef Board b
    cdef Rng r
    cdef int kind = _rollout_kind(rollout), p
    load_state(state, &s, &b)
    rng_seed(&r, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
    with nogil:
        if kind == ROLLOUT_HEURISTIC:
            heuristic_playout(&b, &s, &r)
        else:
            random_playout(&b, &s, &r)
    return [s.players[p].score for p in range(s.num_players)]


cdef int _rollout_kind(object rollout) except -1:
    if rollout == "random":
        return ROLLOUT_RANDOM
    if rollout == "heuristic":
        return ROLLOUT_HEURISTIC
    raise ValueError(f"rollout: expected one of {', '.join(ROLLOUTS)}, got {rollout!r}")


# ---------------------------------------------------------------------------
# The search tree

cdef class Searcher:
    """One search tree over one root State.

    ``Searcher(state, c=0.7, rollout="heuristic", seed=0, margin_weight=0.1,
    determinize=True, max_nodes=DEFAULT_MAX_NODES)``

    determinize=True is SO-ISMCTS for the player to move (only that player's
    knowledge is used); determinize=False searches the given state as if it
    were fully known (perfect-information UCT: the PIMC and cheat bots).
    """

    def __cinit__(self, state, double c=0.7, rollout="heuristic", seed=0,
                  double margin_weight=0.1,
                  bint determinize=True, int max_nodes=DEFAULT_MAX_NODES):
        self.nodes = NULL
        self.path = NULL
        load_state(state, &self.root, &self.board)
        self.root_player = current_player(&self.root)
        if self.root_player < 0:
            raise ValueError("search: the root must be a decision of a player "
                             "(not a chance node or the end of the game)")
        if c < 0:
            raise ValueError(f"c: the exploration constant must be >= 0, got {c}")
        if max_nodes < 2:
            raise ValueError(f"max_nodes: must be at least 2, got {max_nodes}")
        self.num_players = self.root.num_players
        self.rollout = _rollout_kind(rollout)
        self.c = c
        self.margin_weight = margin_weight
        self.determinize_each = determinize
        rng_seed(&self.rng, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
        self.max_nodes = max_nodes
        self.capacity = INITIAL_NODES if INITIAL_NODES < max_nodes else max_nodes
        self.nodes = <Node*>malloc(self.capacity * sizeof(Node))
        self.path = <int32_t*>malloc(MAX_DEPTH * sizeof(int32_t))
        if self.nodes == NULL or self.path == NULL:
            raise MemoryError()
        self.n_nodes = 1
        memset(&self.nodes[0], 0, sizeof(Node))
        self.nodes[0].first_child = -1
        self.nodes[0].next_sibling = -1
        self.nodes[0].key = -1
        self.nodes[0].mover = -1
        self.iterations = 0
        self.seconds = 0.0
        memset(self.win_sum, 0, sizeof(self.win_sum))
        memset(self.score_sum, 0, sizeof(self.score_sum))
        memset(self.root_reward, 0, sizeof(self.root_reward))
        memset(self.root_win, 0, sizeof(self.root_win))

    def __dealloc__(self):
        free(self.nodes)
        free(self.path)

    cdef int new_node(self, int parent, int key, int mover) noexcept nogil:
        cdef int cap, i
        cdef Node* grown
        if self.n_nodes >= self.capacity:
            if self.capacity >= self.max_nodes:
                return -1
            cap = self.capacity * 2
            if cap > self.max_nodes:
                cap = self.max_nodes
            grown = <Node*>realloc(self.nodes, cap * sizeof(Node))
            if grown == NULL:
                self.max_nodes = self.capacity   # out of memory: stop growing
                return -1
            self.nodes = grown
            self.capacity = cap
        i = self.n_nodes
        self.n_nodes += 1
        self.nodes[i].first_child = -1
        self.nodes[i].next_sibling = self.nodes[parent].first_child
        self.nodes[parent].first_child = i
        self.nodes[i].visits = 0
        self.nodes[i].avail = 1
        self.nodes[i].reward = 0.0
        self.nodes[i].key = key
        self.nodes[i].mover = mover
        self.nodes[i].flags = 0
        return i

    cdef void iterate(self) noexcept nogil:
        cdef GameState s = self.root
        cdef int16_t buf[MAX_LEGAL]
        cdef int16_t keys[MAX_LEGAL]
        cdef uint64_t untried[KEY_WORDS]
        cdef int node = 0, depth = 0, n, i, p, k = 0, child, best, a, m, w, pick, n_untried
        cdef int won[MAX_PLAYERS]
        cdef double r[MAX_PLAYERS]
        cdef double u, best_u, other
        cdef bint expanded = False
        cdef Node* nd
        if self.determinize_each:
            determinize(&s, self.root_player, &self.rng)
        self.path[0] = 0
        while depth + 1 < MAX_DEPTH:
            p = current_player(&s)
            if p < 0:           # the end (chance is always resolved below)
                break
            n = legal_actions(&self.board, &s, buf)
            if n == 0:
                break
            memset(untried, 0, sizeof(untried))
            for i in range(n):
                k = buf[i]
                if self.determinize_each:
                    k = action_for_observer(&s, k, self.root_player)
                keys[i] = k
                untried[k >> 6] |= (<uint64_t>1) << (k & 63)
            # children available in this determinization: count them, pick the best by UCB
            best = -1
            best_u = -INFINITY
            child = self.nodes[node].first_child
            while child >= 0:
                nd = &self.nodes[child]
                k = nd.key
                if untried[k >> 6] & ((<uint64_t>1) << (k & 63)):
                    untried[k >> 6] &= ~((<uint64_t>1) << (k & 63))
                    nd.avail += 1
                    u = nd.reward / nd.visits + self.c * sqrt(log(<double>nd.avail) / nd.visits)
                    if u > best_u:
                        best_u = u
                        best = child
                child = nd.next_sibling
            n_untried = 0
            for w in range(KEY_WORDS):
                n_untried += popcount64(untried[w])
            child = -1
            if n_untried > 0:
                pick = rng_below(&self.rng, n_untried)
                for w in range(KEY_WORDS):
                    m = popcount64(untried[w])
                    if pick < m:
                        while pick > 0:
                            untried[w] &= untried[w] - 1
                            pick -= 1
                        k = w * 64 + ctz64(untried[w])
                        break
                    pick -= m
                child = self.new_node(node, k, p)
                if child >= 0:
                    expanded = True
            if child < 0:
                if best < 0:
                    break       # the tree is full and nothing here is expanded yet
                child = best
            # the concrete action behind the key (several for an opponent's hidden keep)
            k = self.nodes[child].key
            m = 0
            for i in range(n):
                if keys[i] == k:
                    m += 1
            a = -1
            pick = rng_below(&self.rng, m) if m > 1 else 0
            for i in range(n):
                if keys[i] == k:
                    if pick == 0:
                        a = buf[i]
                        break
                    pick -= 1
            apply_action(&self.board, &s, a)
            if current_player(&s) == CHANCE_PLAYER:
                self.nodes[child].flags |= NODE_CHANCE_AFTER
                while current_player(&s) == CHANCE_PLAYER:
                    apply_action(&self.board, &s, sample_chance(&s, &self.rng))
            depth += 1
            self.path[depth] = child
            node = child
            if expanded:
                break
        # rollout
        if current_player(&s) != TERMINAL_PLAYER:
            if self.rollout == ROLLOUT_HEURISTIC:
                heuristic_playout(&self.board, &s, &self.rng)
            else:
                random_playout(&self.board, &s, &self.rng)
        # rewards: win share (R-END-3) + a small score-margin term
        m = winners(&self.board, &s, won)
        for p in range(self.num_players):
            other = -1e9
            for i in range(self.num_players):
                if i != p and s.players[i].score > other:
                    other = s.players[i].score
            r[p] = (won[p] / <double>m
                    + self.margin_weight * tanh((s.players[p].score - other) / 20.0))
            self.win_sum[p] += won[p] / <double>m
            self.score_sum[p] += s.players[p].score
        for i in range(1, depth + 1):
            nd = &self.nodes[self.path[i]]
            nd.visits += 1
            nd.reward += r[nd.mover]
        self.nodes[0].visits += 1
        if depth >= 1:
            k = self.nodes[self.path[1]].key
            for p in range(self.num_players):
                self.root_reward[k][p] += r[p]
                self.root_win[k][p] += won[p] / <double>m
        self.iterations += 1

    cdef long long run_loop(self, long long max_iterations, double max_seconds) except -1 nogil:
        cdef long long done = 0
        cdef double start = now_seconds(), deadline = start + max_seconds
        cdef double check_at = start + SIGNAL_CHECK, t
        cdef int failed
        while done < max_iterations:
            t = now_seconds()
            if max_seconds >= 0 and t >= deadline and done > 0:
                break
            if t >= check_at:
                # Ctrl-C: Python's handler runs only when asked, so ask every few ms
                check_at = t + SIGNAL_CHECK
                with gil:
                    failed = PyErr_CheckSignals()
                if failed:
                    self.seconds += now_seconds() - start
                    return -1
            self.iterate()
            done += 1
        self.seconds += now_seconds() - start
        return done

    def run(self, iterations=None, seconds=None):
        """Run up to `iterations` more iterations and/or for up to `seconds`;
        returns the number run (at least one unless iterations == 0)."""
        cdef long long it = (1 << 62) if iterations is None else int(iterations)
        cdef double sec = -1.0 if seconds is None else float(seconds)
        cdef long long done
        if iterations is None and seconds is None:
            raise ValueError("run: give iterations and/or seconds")
        if it <= 0:
            return 0
        with nogil:
            done = self.run_loop(it, sec)
        return done

    # --- results ------------------------------------------------------------
    @property
    def tree_nodes(self):
        return self.n_nodes

    def totals(self):
        """(win share sums, final score sums) per player, over all iterations."""
        return ([self.win_sum[p] for p in range(self.num_players)],
                [self.score_sum[p] for p in range(self.num_players)])

    def root_stats(self):
        """Per root action: (action, visits, availability, reward sums, win-share sums)."""
        out = []
        cdef int child = self.nodes[0].first_child, k, p
        while child >= 0:
            k = self.nodes[child].key
            out.append((k, self.nodes[child].visits, self.nodes[child].avail,
                        [self.root_reward[k][p] for p in range(self.num_players)],
                        [self.root_win[k][p] for p in range(self.num_players)]))
            child = self.nodes[child].next_sibling
        out.sort()
        return out

    def export(self, int max_depth=40, double min_share=0.01):
        """Everything a merge needs, as plain Python data (picklable)."""
        wins, scores = self.totals()
        return {
            "player": self.root_player, "num_players": self.num_players,
            "iterations": self.iterations, "seconds": self.seconds,
            "tree_nodes": self.n_nodes, "win_sum": wins, "score_sum": scores,
            "root": self.root_stats(),
            "turn_tree": self.turn_tree(max_depth, min_share),
        }

    def turn_tree(self, int max_depth=40, double min_share=0.01):
        """The searching player's decisions until a chance event or the end of the
        turn, as nested dicts {action: [visits, reward sum, avail, chance_after,
        mover, children]}; children under `min_share` of their parent are left out."""
        return self._subtree(0, max_depth, min_share, False)

    def tree_dict(self, int max_depth=4, double min_share=0.0):
        """The whole tree to `max_depth` in the format of `turn_tree` (for tests and
        inspection; every player's decisions, also past chance events)."""
        return self._subtree(0, max_depth, min_share, True)

    cdef dict _subtree(self, int node, int depth, double min_share, bint whole):
        cdef dict out = {}
        cdef int child = self.nodes[node].first_child
        cdef Node* nd
        cdef int parent_visits = self.nodes[node].visits, most = 0
        while child >= 0:               # the most visited child is always kept
            if self.nodes[child].visits > most:
                most = self.nodes[child].visits
            child = self.nodes[child].next_sibling
        child = self.nodes[node].first_child
        while child >= 0:
            nd = &self.nodes[child]
            if nd.visits > 0 and (nd.visits >= min_share * parent_visits or nd.visits == most):
                kids = {}
                if depth > 1 and (whole or (nd.mover == self.root_player
                                            and not (nd.flags & NODE_CHANCE_AFTER))):
                    kids = self._subtree(child, depth - 1, min_share, whole)
                out[int(nd.key)] = [int(nd.visits), float(nd.reward), int(nd.avail),
                                    bool(nd.flags & NODE_CHANCE_AFTER), int(nd.mover), kids]
            child = nd.next_sibling
        return out
