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

from ulm._fastcore cimport *

cdef extern from *:
    int popcount64 "__builtin_popcountll"(unsigned long long) nogil
    int ctz64 "__builtin_ctzll"(unsigned long long) nogil


NODE_BYTES = sizeof(Node)
VALUE_BYTES = MAX_PLAYERS * sizeof(float)   # a node's heuristic values (minimax > 0)
ROLLOUTS = ("random", "heuristic", "lookahead")
CHANCE_MODES = ("open", "closed")     # index = CHANCE_OPEN, CHANCE_CLOSED
EXPLORE_MODES = ("fixed", "scaled")   # UCB's exploration term: c, or c x the rewards' spread
# "scaled" starts from this variance of the rewards (a standard deviation of about 0.22),
# weighted as if 10 iterations had shown it, until the search's own are in
cdef double SPREAD_PRIOR_VARIANCE = 0.05
cdef double SPREAD_PRIOR_ITERATIONS = 10.0
EVAL_WEIGHTS = N_WEIGHTS
KEY_COUNT = NUM_KEYS
HIDDEN_KEY = HIDDEN_CARD_KEEP
cdef double SIGNAL_CHECK = 0.005   # how often (s) the GIL-free loop looks for Ctrl-C and other signals
SIGNAL_CHECK_SECONDS = SIGNAL_CHECK
DEFAULT_MAX_NODES = 1 << 24      # 512 MiB of nodes (768 with minimax values) at most; then the tree stops growing
INITIAL_NODES = 1 << 12

# ---------------------------------------------------------------------------
# Small helpers



# log(n) for UCB's counts, looked up below LOG_TABLE_SIZE (the same doubles as log())
cdef enum:
    LOG_TABLE_SIZE = 4096
cdef double LOG_TABLE[LOG_TABLE_SIZE]


cdef void fill_log_table() noexcept nogil:
    cdef int n
    LOG_TABLE[0] = -INFINITY
    for n in range(1, LOG_TABLE_SIZE):
        LOG_TABLE[n] = log(<double>n)


fill_log_table()


cdef inline double log_count(int n) noexcept nogil:
    return LOG_TABLE[n] if n < LOG_TABLE_SIZE else log(<double>n)


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
    """The push whose line is worth most (`line_value`), with a little noise.

    The terms of `line_value` depend on the line only through its colour
    counts, so they are tabulated once per call (by count 0..3) and summed per
    push, in the same order as `line_value` adds them: the same choices, at a
    fraction of the cost (the policy computed `line_value` 12 times per push)."""
    cdef const Player* pl = &s.players[p]
    cdef double left = (NUM_ROUNDS - s.round) / <double>NUM_ROUNDS
    cdef double gray_t[4]
    cdef double white_t[4]
    cdef double brown_t[4]
    cdef double river_t[4]
    cdef double river_bridge_t[4]
    cdef double seal_t[4][4]             # [gray count][orange count]
    cdef int counts[NUM_COLOURS]
    cdef int i, e, k, g, o, coins, cost, seals, mpa = money_per_action(s, p), best = -1
    cdef double v, best_v = -1e9
    cdef bint cards = supply_total(pl) >= 2 and (s.pile != 0 or s.discard != 0)
    cdef bint river_ok = next_free_space(s, p, pl.barge) >= 0
    cdef bint seal_ok = pl.seals_left > 0 and free_quarter_beside(b, s, p)
    k = outer_best_side(s) + 1
    if k > 3:
        k = 3
    cost = seal_cost(s)
    for i in range(4):
        gray_t[i] = i * (0.3 + 0.5 * left) * mpa
        white_t[i] = 0.35 * k * left + 0.2 * (i - 1) * left if i > 0 else 0.0
        if i == 0:
            brown_t[i] = 0.0
        elif cards:
            brown_t[i] = 1.3 * i * (0.4 + 0.6 * left)
        else:
            brown_t[i] = 0.8 if pl.hand != 0 else 0.0
        river_t[i] = 1.0 * i if i > 0 and river_ok else 0.0
        river_bridge_t[i] = 1.0 if i > 0 and river_ok and pl.barge == 10 else 0.0
        for o in range(4):
            seal_t[i][o] = 0.0
            if o > 0 and seal_ok:
                coins = pl.coins + i * mpa
                seals = coins // cost if cost > 0 else o
                if seals > o:
                    seals = o
                if seals > pl.seals_left:
                    seals = pl.seals_left
                seal_t[i][o] = 2.5 * seals
    for i in range(n):
        if legal[i] < A_PUSH or legal[i] >= A_PUSH + 12:
            continue
        e = legal[i] - A_PUSH
        counts[0] = 0
        counts[1] = 0
        counts[2] = 0
        counts[3] = 0
        counts[4] = 0
        counts[s.drawn[0]] += 1
        counts[s.grid[push_cell(e, 0)]] += 1
        counts[s.grid[push_cell(e, 1)]] += 1
        g = counts[GRAY]
        v = 0.0
        v += gray_t[g]
        v += white_t[counts[WHITE]]
        v += brown_t[counts[BROWN]]
        v += river_t[counts[TURQUOISE]]
        v += river_bridge_t[counts[TURQUOISE]]
        v += seal_t[g][counts[ORANGE]]
        # a little noise keeps the rollouts varied and breaks ties at random
        v = v + 0.4 * (rng_next(r) >> 11) * (1.0 / 9007199254740992.0)
        if v > best_v:
            best_v = v
            best = legal[i]
    return best


cdef int best_push_by_lines(const Board* b, const GameState* s, int p, const int16_t* legal,
                            int n, Rng* r) noexcept nogil:
    """`best_push` computed line by line with `line_value` (the reference the
    tabulated version is tested against)."""
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


cdef void heuristic_playout(const Board* b, GameState* s, Rng* r,
                           bint lookahead=False) noexcept nogil:
    """Play to the end with `heuristic_action` (or `lookahead_action`) for every
    decision."""
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
        if lookahead:
            apply_action(b, s, lookahead_action(b, s, buf, n, r))
        else:
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


# ---------------------------------------------------------------------------
# The calibrated evaluation at the rollout cut-off: two linear functions of
# the same features, a player's predicted final score and win logit. Their
# weights are data (mcts/eval_weights.json, fitted by bench/calibrate_eval.py
# on rollouts from self-play positions), one set per player count.

FEATURE_NAMES = ("constant", "score", "end-game points now", "coins", "supply tiles",
                 "hand cards", "quarters with a seal", "seals placed", "descendants",
                 "barge space", "sparrows", "coats", "turns until own turn", "crests placed")


cdef void eval_features(const Board* b, const GameState* s, int p, double* f) noexcept nogil:
    """The N_FEATURES features of p's position; the evaluation weighs each
    twice: as it is and times the share of the game left (`left`)."""
    cdef const Player* pl = &s.players[p]
    cdef int16_t src[NUM_SOURCES]
    cdef int i, nd = 0
    cdef double left = (NUM_ROUNDS - s.round) / <double>NUM_ROUNDS
    for i in range(NUM_DESCENDANTS):
        if s.desc[i] == p:
            nd += 1
    f[0] = 1.0
    f[1] = pl.score
    f[2] = end_bonus(b, s, p, src)
    f[3] = pl.coins
    f[4] = supply_total(pl)
    f[5] = popcount64(pl.hand)
    f[6] = quarters_with_seal(s, p)
    f[7] = SEALS_PER_PLAYER - pl.seals_left
    f[8] = nd
    f[9] = pl.barge
    f[10] = pl.sparrows
    f[11] = popcount64(pl.coats)
    f[12] = ((p - s.turn_player + s.num_players) % s.num_players) / <double>s.num_players
    f[13] = CRESTS_PER_PLAYER - pl.crests_left
    for i in range(N_FEATURES):
        f[N_FEATURES + i] = f[i] * left


cdef void eval_outcome(const Board* b, const GameState* s, const double* w_score,
                       const double* w_win, double* pred, double* win) noexcept nogil:
    """Every player's predicted final score (weights `w_score`) and win chance:
    the softmax of the players' win logits (weights `w_win`)."""
    cdef double f[N_WEIGHTS]
    cdef double top = -INFINITY, z = 0.0
    cdef int p, i
    for p in range(s.num_players):
        eval_features(b, s, p, f)
        pred[p] = 0.0
        win[p] = 0.0
        for i in range(N_WEIGHTS):
            pred[p] += w_score[i] * f[i]
            win[p] += w_win[i] * f[i]
        if win[p] > top:
            top = win[p]
    for p in range(s.num_players):
        win[p] = exp(win[p] - top)
        z += win[p]
    for p in range(s.num_players):
        win[p] /= z


cdef bint turn_start(const GameState* s) noexcept nogil:
    """The first decision of a turn (draw or pick a colour), nothing pending:
    where the rollout may stop for the evaluation."""
    return s.phase == PH_BEFORE_DRAW and s.n_tasks == 0


cdef bint chance_observed(const GameState* s, int observer) noexcept nogil:
    """Does `observer` see the outcome of the pending chance event? Tiles,
    descendants and tower tiles are public; a card or coat drawn is seen by
    the player drawing it (the player whose turn it is) only."""
    cdef int t = s.task[s.n_tasks - 1]
    if t == TK_CARD_TO_HAND or t == TK_CARD_LOOK or t == TK_COAT_DRAW:
        return s.turn_player == observer
    return True


cdef int greedy_choice(const Board* b, const GameState* s, uint64_t seed) noexcept nogil:
    """One ply: apply each legal decision to a copy, resolve the chance events
    that follow with the same fixed sample, keep the best `evaluate` of the mover."""
    cdef int16_t buf[MAX_LEGAL]
    return greedy_among(b, s, buf, legal_actions(b, s, buf), seed)


cdef int greedy_among(const Board* b, const GameState* s, const int16_t* cand, int m,
                      uint64_t seed) noexcept nogil:
    """The one-ply choice among the m decisions in `cand` (see `greedy_choice`)."""
    cdef int i, p = s.turn_player, best = cand[0]
    cdef double v, best_v = -1e18
    cdef GameState t
    cdef Rng r, r0
    rng_seed(&r0, seed)
    for i in range(m):
        t = s[0]
        apply_action(b, &t, cand[i])
        r = r0                  # the same chance sample for every decision
        while current_player(&t) == CHANCE_PLAYER:
            apply_action(b, &t, sample_chance(&t, &r))
        v = evaluate(b, &t, p)
        if v > best_v + 1e-9:
            best_v = v
            best = cand[i]
    return best


cdef inline bint is_seal(int a) noexcept nogil:
    return A_SEAL <= a < A_SEAL + NUM_QUARTERS or A_SEAL_WALL <= a < A_SEAL_WALL + NUM_QUARTERS


cdef int lookahead_action(const Board* b, const GameState* s, const int16_t* legal, int n,
                          Rng* r) noexcept nogil:
    """`heuristic_action`, except where it chooses at random among decisions
    whose worth differs most (which quarter to seal in, which coat to keep):
    there one ply on `evaluate` decides. Against the heuristic alone it wins
    about 6 of 10 two-player games, at a few percent more cost per rollout."""
    cdef int16_t cand[MAX_LEGAL]
    cdef int a, i, m = 0
    if n == 1:
        return legal[0]
    if s.n_tasks > 0 and s.task[s.n_tasks - 1] == TK_COAT_CHOICE:
        return greedy_among(b, s, legal, n, rng_next(r))
    a = heuristic_action(b, s, legal, n, r)
    if not is_seal(a):
        return a
    for i in range(n):
        if is_seal(legal[i]):
            cand[m] = legal[i]
            m += 1
    return a if m == 1 else greedy_among(b, s, cand, m, rng_next(r))


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


def eval_features_of(state, int player):
    """The evaluation's N_WEIGHTS features of `player` (see `eval_features`)."""
    cdef GameState s
    cdef Board b
    cdef double f[N_WEIGHTS]
    load_state(state, &s, &b)
    if not 0 <= player < s.num_players:
        raise ValueError(f"player: no seat {player} in a {s.num_players}-player game")
    eval_features(&b, &s, player, f)
    return [f[i] for i in range(N_WEIGHTS)]


def eval_outcome_of(state, score_weights, win_weights):
    """(predicted final scores, win chances) of every player: the evaluation
    that scores a cut-off rollout, with the given N_WEIGHTS weights each."""
    cdef GameState s
    cdef Board b
    cdef double ws[N_WEIGHTS]
    cdef double ww[N_WEIGHTS]
    cdef double pred[MAX_PLAYERS]
    cdef double win[MAX_PLAYERS]
    cdef int i
    if len(score_weights) != N_WEIGHTS or len(win_weights) != N_WEIGHTS:
        raise ValueError(f"eval_outcome_of: expected {N_WEIGHTS} score and win weights")
    for i in range(N_WEIGHTS):
        ws[i] = float(score_weights[i])
        ww[i] = float(win_weights[i])
    load_state(state, &s, &b)
    eval_outcome(&b, &s, ws, ww, pred, win)
    return ([pred[i] for i in range(s.num_players)], [win[i] for i in range(s.num_players)])


def is_turn_start(state):
    """Is this the first decision of a turn (where rollouts may be cut off)?"""
    cdef GameState s
    load_state(state, &s, NULL)
    return bool(turn_start(&s)) and current_player(&s) >= 0


def push_choices(state, seed=0):
    """(tabulated, line by line): the push `best_push` picks for the player to
    move, computed both ways from the same seed (they must agree)."""
    cdef GameState s
    cdef Board b
    cdef Rng r
    cdef int16_t buf[MAX_LEGAL]
    cdef int n, x, y
    load_state(state, &s, &b)
    if s.phase != PH_PUSH or s.n_tasks != 0 or current_player(&s) < 0:
        raise ValueError("push_choices: the state is not a push decision")
    n = legal_actions(&b, &s, buf)
    rng_seed(&r, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
    x = best_push(&b, &s, s.turn_player, buf, n, &r)
    rng_seed(&r, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
    y = best_push_by_lines(&b, &s, s.turn_player, buf, n, &r)
    return x, y


def greedy_action(state, seed=0):
    """The greedy bot's decision for the player to move (one ply, see `evaluate`)."""
    cdef GameState s
    cdef Board b
    load_state(state, &s, &b)
    if current_player(&s) < 0:
        raise ValueError("greedy_action: the state is not a decision of a player")
    return greedy_choice(&b, &s, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))


def heuristic_action_for(state, seed=0, rollout="heuristic"):
    """The decision of a rollout policy (heuristic, lookahead or random) for
    the player to move."""
    cdef GameState s
    cdef Board b
    cdef Rng r
    cdef int16_t buf[MAX_LEGAL]
    cdef int n, kind
    load_state(state, &s, &b)
    if current_player(&s) < 0:
        raise ValueError("heuristic_action_for: the state is not a decision of a player")
    rng_seed(&r, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
    n = legal_actions(&b, &s, buf)
    if n == 0:
        raise ValueError("heuristic_action_for: no legal decision in this state")
    kind = _rollout_kind(rollout)
    if kind == ROLLOUT_LOOKAHEAD:
        return lookahead_action(&b, &s, buf, n, &r)
    if kind == ROLLOUT_RANDOM:
        return buf[rng_below(&r, n)]
    return heuristic_action(&b, &s, buf, n, &r)


def playout_scores(state, seed=0, rollout="random"):
    """Final scores of one playout from `state` (dealer and decisions from `seed`)."""
    return playout_outcome(state, seed, rollout)[0]


def playout_outcome(state, seed=0, rollout="random"):
    """(final scores, win shares) of one playout from `state` (dealer and
    decisions from `seed`); a shared win (R-END-3) is split evenly."""
    cdef GameState s
    cdef Board b
    cdef Rng r
    cdef int kind = _rollout_kind(rollout), p, m
    cdef int won[MAX_PLAYERS]
    load_state(state, &s, &b)
    rng_seed(&r, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
    with nogil:
        if kind == ROLLOUT_HEURISTIC:
            heuristic_playout(&b, &s, &r)
        elif kind == ROLLOUT_LOOKAHEAD:
            heuristic_playout(&b, &s, &r, True)
        else:
            random_playout(&b, &s, &r)
        m = winners(&b, &s, won)
    return ([s.players[p].score for p in range(s.num_players)],
            [won[p] / <double>m for p in range(s.num_players)])


cdef int _rollout_kind(object rollout) except -1:
    if rollout == "random":
        return ROLLOUT_RANDOM
    if rollout == "heuristic":
        return ROLLOUT_HEURISTIC
    if rollout == "lookahead":
        return ROLLOUT_LOOKAHEAD
    raise ValueError(f"rollout: expected one of {', '.join(ROLLOUTS)}, got {rollout!r}")


cdef inline void margin_rewards(int n, double margin_weight, const double* win,
                                const double* score, double* r) noexcept nogil:
    """The search's reward of each player: win share + margin_weight x
    tanh((own score - best other score) / 20)."""
    cdef int p, i
    cdef double other
    for p in range(n):
        other = -1e9
        for i in range(n):
            if i != p and score[i] > other:
                other = score[i]
        r[p] = win[p] + margin_weight * tanh((score[p] - other) / 20.0)


cdef inline void final_outcome(const Board* b, const GameState* s, double* win,
                               double* score) noexcept nogil:
    """Win shares (a shared win split evenly, R-END-3) and final scores."""
    cdef int won[MAX_PLAYERS]
    cdef int p, m = winners(b, s, won)
    for p in range(s.num_players):
        win[p] = won[p] / <double>m
        score[p] = s.players[p].score


# ---------------------------------------------------------------------------
# The search tree

cdef class Searcher:
    """One search tree over one root State.

    ``Searcher(state, c=0.7, rollout="heuristic", seed=0, margin_weight=0.1,
    determinize=True, max_nodes=DEFAULT_MAX_NODES, chance="open", horizon=-1,
    eval_weights=None, eval_win_weights=None, bias=0.0, mast=0.0,
    explore="fixed", minimax=0.0, root_action=-1)``

    determinize=True is SO-ISMCTS for the player to move (only that player's
    knowledge is used); determinize=False searches the given state as if it
    were fully known (perfect-information UCT: the PIMC and cheat bots).
    chance="closed" gives each chance outcome the searching player observes
    its own child (keyed by the outcome); "open" merges them all.
    horizon=H >= 0 stops each rollout at the (H+1)-th turn start it reaches
    (the leaf counts if it is one) and scores it with the evaluation: win
    chances by a softmax of a linear function of the features
    (`eval_win_weights`, N_WEIGHTS numbers) and predicted final scores for the
    score-margin term (`eval_weights`); -1 plays to the end.
    bias: progressive bias towards the heuristic policy's decision
    (bias / (visits + 1) added to its UCB value; it is also expanded first).
    mast: the chance that a rollout decision is the legal one with the best
    MAST average (rewards of each (player, decision) over all iterations)
    instead of the rollout policy's.
    explore="scaled" multiplies UCB's exploration term by the standard
    deviation of the rewards the node's mover got so far in this search, so
    one c suits rewards of any spread: won/lost rewards at the end of the game
    spread widely, a cut-off's win chances little, and less early in the game
    and with fewer players; "fixed" uses c alone.
    minimax: implicit minimax backups (needs a horizon, for the evaluation):
    each added node gets the evaluation's rewards of its position as its
    heuristic value, backed up max^n through the tree, and UCB uses
    (1 - minimax) x mean reward + minimax x heuristic value.
    root_action >= 0 searches that decision alone at the root (the rest of
    the tree as usual): the estimate of one decision from the same root, as
    the review of a game needs for a decision the search did not choose.
    """

    def __cinit__(self, state, double c=0.7, rollout="heuristic", seed=0,
                  double margin_weight=0.1,
                  bint determinize=True, int max_nodes=DEFAULT_MAX_NODES,
                  chance="open", int horizon=-1, eval_weights=None,
                  eval_win_weights=None, double bias=0.0, double mast=0.0,
                  explore="fixed", double minimax=0.0, int root_action=-1):
        cdef int i, n
        cdef int16_t buf[MAX_LEGAL]
        self.nodes = NULL
        self.hv = NULL
        self.path = NULL
        self.mast = NULL
        self.log_action = NULL
        self.log_mover = NULL
        load_state(state, &self.root, &self.board)
        self.root_player = current_player(&self.root)
        if self.root_player < 0:
            raise ValueError("search: the root must be a decision of a player "
                             "(not a chance node or the end of the game)")
        if c < 0:
            raise ValueError(f"c: the exploration constant must be >= 0, got {c}")
        if max_nodes < 2:
            raise ValueError(f"max_nodes: must be at least 2, got {max_nodes}")
        if chance not in CHANCE_MODES:
            raise ValueError(f"chance: expected one of {', '.join(CHANCE_MODES)}, got {chance!r}")
        if horizon < -1:
            raise ValueError(f"horizon: must be -1 (to the end) or a number of turns >= 0, "
                             f"got {horizon}")
        if explore not in EXPLORE_MODES:
            raise ValueError(f"explore: expected one of {', '.join(EXPLORE_MODES)}, "
                             f"got {explore!r}")
        if not bias >= 0:
            raise ValueError(f"bias: must be >= 0, got {bias}")
        if not 0 <= mast <= 1:
            raise ValueError(f"mast: must be a probability in [0, 1], got {mast}")
        if not 0 <= minimax <= 1:
            raise ValueError(f"minimax: must be a weight in [0, 1], got {minimax}")
        if minimax > 0 and horizon < 0:
            raise ValueError("minimax: implicit minimax needs the evaluation, so a horizon "
                             "(not -1)")
        self.root_action = -1
        if root_action >= 0:
            n = legal_actions(&self.board, &self.root, buf)
            if not has_action(buf, n, root_action):
                raise ValueError(f"root_action: {root_action} is not a legal decision here")
            self.root_action = root_action
        self.num_players = self.root.num_players
        self.rollout = _rollout_kind(rollout)
        self.c = c
        self.scaled = explore == "scaled"
        self.margin_weight = margin_weight
        self.determinize_each = determinize
        self.chance_mode = CHANCE_MODES.index(chance)
        self.horizon = horizon
        self.bias = bias
        self.mast_eps = mast
        self.minimax = minimax
        memset(self.eval_w, 0, sizeof(self.eval_w))
        memset(self.eval_win, 0, sizeof(self.eval_win))
        if horizon >= 0:
            for name, given in (("eval_weights", eval_weights),
                                ("eval_win_weights", eval_win_weights)):
                if given is None or len(given) != N_WEIGHTS:
                    raise ValueError(f"{name}: a horizon needs {N_WEIGHTS} evaluation weights")
            for i in range(N_WEIGHTS):
                self.eval_w[i] = float(eval_weights[i])
                self.eval_win[i] = float(eval_win_weights[i])
        rng_seed(&self.rng, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
        self.max_nodes = max_nodes
        self.capacity = INITIAL_NODES if INITIAL_NODES < max_nodes else max_nodes
        self.nodes = <Node*>malloc(self.capacity * sizeof(Node))
        self.path = <int32_t*>malloc(MAX_DEPTH * sizeof(int32_t))
        if self.nodes == NULL or self.path == NULL:
            raise MemoryError()
        if minimax > 0:
            self.hv = <float*>malloc(self.capacity * MAX_PLAYERS * sizeof(float))
            if self.hv == NULL:
                raise MemoryError()
        if mast > 0:
            self.mast = <double*>calloc(MAX_PLAYERS * MAST_SLOTS * 2, sizeof(double))
            self.log_action = <int16_t*>malloc(ROLLOUT_LOG * sizeof(int16_t))
            self.log_mover = <int8_t*>malloc(ROLLOUT_LOG * sizeof(int8_t))
            if self.mast == NULL or self.log_action == NULL or self.log_mover == NULL:
                raise MemoryError()
        self.n_log = 0
        self.n_nodes = 1
        self._reset_root()
        self.iterations = 0
        self.reused_visits = 0
        self.seconds = 0.0
        self._reset_totals()

    cdef void _reset_totals(self):
        """The search's totals: win shares, scores, and the rewards' sums for
        the scaled exploration."""
        memset(self.win_sum, 0, sizeof(self.win_sum))
        memset(self.score_sum, 0, sizeof(self.score_sum))
        memset(self.reward_sum, 0, sizeof(self.reward_sum))
        memset(self.reward_sq, 0, sizeof(self.reward_sq))

    cdef void _reset_root_stats(self):
        memset(self.root_reward, 0, sizeof(self.root_reward))
        memset(self.root_win, 0, sizeof(self.root_win))
        memset(self.root_n, 0, sizeof(self.root_n))

    cdef void _reset_root(self):
        memset(&self.nodes[0], 0, sizeof(Node))
        self.nodes[0].first_child = -1
        self.nodes[0].next_sibling = -1
        self.nodes[0].key = -1
        self.nodes[0].mover = -1
        self._reset_root_stats()

    def __dealloc__(self):
        free(self.nodes)
        free(self.hv)
        free(self.path)
        free(self.mast)
        free(self.log_action)
        free(self.log_mover)

    cdef int new_node(self, int parent, int key, int mover) noexcept nogil:
        cdef int cap, i
        cdef Node* grown
        cdef float* grown_hv
        if self.n_nodes >= self.capacity:
            if self.capacity >= self.max_nodes:
                return -1
            cap = self.capacity * 2
            if cap > self.max_nodes:
                cap = self.max_nodes
            if self.hv != NULL:
                grown_hv = <float*>realloc(self.hv, cap * MAX_PLAYERS * sizeof(float))
                if grown_hv == NULL:
                    self.max_nodes = self.capacity   # out of memory: stop growing
                    return -1
                self.hv = grown_hv
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

    cdef void set_value(self, int node, const GameState* s) noexcept nogil:
        """Implicit minimax: the node's heuristic value is the search's rewards
        for the position `s` where it was added, from the evaluation (from the
        outcome at the end of the game)."""
        cdef double pred[MAX_PLAYERS]
        cdef double win[MAX_PLAYERS]
        cdef double r[MAX_PLAYERS]
        cdef int p
        if current_player(s) == TERMINAL_PLAYER:
            final_outcome(&self.board, s, win, pred)
        else:
            eval_outcome(&self.board, s, self.eval_w, self.eval_win, pred, win)
        margin_rewards(self.num_players, self.margin_weight, win, pred, r)
        for p in range(self.num_players):
            self.hv[node * MAX_PLAYERS + p] = <float>r[p]
        self.nodes[node].flags |= NODE_VALUE

    cdef void back_up_values(self, int depth) noexcept nogil:
        """Max^n backup of the heuristic values along the path, from the parent
        of its last node up to the root's children: a node takes the values of
        its child that is best for that child's mover (children of any
        determinization; chance children, without a mover, do not count)."""
        cdef int i, p, node, child, best
        cdef float v, best_v
        cdef Node* nd
        for i in range(depth - 1, 0, -1):
            node = self.path[i]
            best = -1
            best_v = -INFINITY
            child = self.nodes[node].first_child
            while child >= 0:
                nd = &self.nodes[child]
                if nd.flags & NODE_VALUE and nd.mover >= 0:
                    v = self.hv[child * MAX_PLAYERS + nd.mover]
                    if v > best_v:
                        best_v = v
                        best = child
                child = nd.next_sibling
            if best >= 0:
                for p in range(self.num_players):
                    self.hv[node * MAX_PLAYERS + p] = self.hv[best * MAX_PLAYERS + p]
                self.nodes[node].flags |= NODE_VALUE

    cdef int chance_child(self, int node, int key) noexcept nogil:
        """The child of `node` for chance outcome `key` (made if new; -1: tree full)."""
        cdef int child = self.nodes[node].first_child
        while child >= 0:
            if self.nodes[child].key == key:
                return child
            child = self.nodes[child].next_sibling
        return self.new_node(node, key, -1)

    cdef int mast_action(self, const GameState* s, const int16_t* legal, int n) noexcept nogil:
        """The legal decision with the best MAST average for the mover (untried
        ones first, in order)."""
        cdef int i, a, p = s.turn_player, best = legal[0]
        cdef double v, best_v = -INFINITY
        cdef double* row = &self.mast[p * MAST_SLOTS * 2]
        for i in range(n):
            a = legal[i]
            if row[2 * a + 1] == 0:
                return a
            v = row[2 * a] / row[2 * a + 1]
            if v > best_v:
                best_v = v
                best = a
        return best

    cdef bint play_on(self, GameState* s) noexcept nogil:
        """Play on from the leaf with the rollout policy; True if it stopped at
        the horizon (to be evaluated), False at the end of the game."""
        cdef int16_t buf[MAX_LEGAL]
        cdef int n, p, a, turns = 0
        while True:
            p = current_player(s)
            if p == CHANCE_PLAYER:
                apply_action(&self.board, s, sample_chance(s, &self.rng))
                continue
            if p == TERMINAL_PLAYER:
                return False
            if self.horizon >= 0 and turn_start(s):
                if turns >= self.horizon:
                    return True
                turns += 1
            n = legal_actions(&self.board, s, buf)
            if self.mast_eps > 0 and n > 1 and (rng_next(&self.rng) >> 11) * (
                    1.0 / 9007199254740992.0) < self.mast_eps:
                a = self.mast_action(s, buf, n)
            elif self.rollout == ROLLOUT_HEURISTIC:
                a = heuristic_action(&self.board, s, buf, n, &self.rng)
            elif self.rollout == ROLLOUT_LOOKAHEAD:
                a = lookahead_action(&self.board, s, buf, n, &self.rng)
            else:
                a = buf[rng_below(&self.rng, n)]
            if self.mast != NULL and self.n_log < ROLLOUT_LOG:
                self.log_action[self.n_log] = a
                self.log_mover[self.n_log] = p
                self.n_log += 1
            apply_action(&self.board, s, a)

    cdef void eval_rewards(self, const GameState* s, double* r, double* win) noexcept nogil:
        """Rewards from the evaluation: its win chances + the margin term on
        its predicted scores."""
        cdef double pred[MAX_PLAYERS]
        cdef int p
        eval_outcome(&self.board, s, self.eval_w, self.eval_win, pred, win)
        margin_rewards(self.num_players, self.margin_weight, win, pred, r)
        for p in range(self.num_players):
            self.score_sum[p] += pred[p]

    cdef void iterate(self) noexcept nogil:
        cdef GameState s = self.root
        cdef int16_t buf[MAX_LEGAL]
        cdef int16_t keys[MAX_LEGAL]
        cdef uint64_t untried[KEY_WORDS]
        cdef int node = 0, depth = 0, n, i, p, k = 0, child, best, a, m, w, pick, n_untried
        cdef int hkey, o, n_avail
        cdef int avail_child[MAX_LEGAL]
        cdef double r[MAX_PLAYERS]
        cdef double win[MAX_PLAYERS]
        cdef double score[MAX_PLAYERS]
        cdef double u, q, best_u
        cdef bint expanded = False, full = False
        cdef Node* nd
        cdef double* row
        cdef double explore[MAX_PLAYERS]
        self.exploration(explore)
        if self.determinize_each:
            determinize(&s, self.root_player, &self.rng)
        self.path[0] = 0
        self.n_log = 0
        while depth + 1 < MAX_DEPTH and not full:
            p = current_player(&s)
            if p < 0:           # the end (chance is always resolved below)
                break
            n = legal_actions(&self.board, &s, buf)
            if n == 0:
                break
            if depth == 0 and self.root_action >= 0:
                if not has_action(buf, n, self.root_action):
                    break       # not legal in this world: the root's position is scored
                buf[0] = self.root_action       # the searching player's own decision: its key
                n = 1
            memset(untried, 0, sizeof(untried))
            for i in range(n):
                k = buf[i]
                if self.determinize_each:
                    k = action_for_observer(&s, k, self.root_player)
                keys[i] = k
                untried[k >> 6] |= (<uint64_t>1) << (k & 63)
            hkey = -1
            if self.bias > 0 and n > 1:
                hkey = heuristic_action(&self.board, &s, buf, n, &self.rng)
                if self.determinize_each:
                    hkey = action_for_observer(&s, hkey, self.root_player)
            # children available in this determinization: count them (UCB only if no
            # decision is left untried here, below)
            n_avail = 0
            child = self.nodes[node].first_child
            while child >= 0:
                nd = &self.nodes[child]
                k = nd.key
                if untried[k >> 6] & ((<uint64_t>1) << (k & 63)):
                    untried[k >> 6] &= ~((<uint64_t>1) << (k & 63))
                    nd.avail += 1
                    avail_child[n_avail] = child
                    n_avail += 1
                child = nd.next_sibling
            n_untried = 0
            for w in range(KEY_WORDS):
                n_untried += popcount64(untried[w])
            child = -1
            if n_untried > 0:
                if hkey >= 0 and untried[hkey >> 6] & ((<uint64_t>1) << (hkey & 63)):
                    k = hkey            # progressive bias: the policy's choice first
                else:
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
                best = -1
                best_u = -INFINITY
                for i in range(n_avail):
                    nd = &self.nodes[avail_child[i]]
                    q = nd.reward / nd.visits
                    if self.hv != NULL and nd.flags & NODE_VALUE:
                        q = (1.0 - self.minimax) * q + self.minimax * self.hv[avail_child[i] * MAX_PLAYERS + p]
                    u = q + explore[p] * sqrt(log_count(nd.avail) / nd.visits)
                    if nd.key == hkey:
                        u += self.bias / (nd.visits + 1)
                    if u > best_u:
                        best_u = u
                        best = avail_child[i]
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
            if self.mast != NULL and self.n_log < ROLLOUT_LOG:
                self.log_action[self.n_log] = a
                self.log_mover[self.n_log] = p
                self.n_log += 1
            depth += 1
            self.path[depth] = child
            node = child
            if current_player(&s) == CHANCE_PLAYER:
                self.nodes[child].flags |= NODE_CHANCE_AFTER
                while current_player(&s) == CHANCE_PLAYER:
                    o = sample_chance(&s, &self.rng)
                    # closed loop: an outcome the searcher sees leads to its own child
                    if (self.chance_mode == CHANCE_CLOSED and not expanded and not full
                            and chance_observed(&s, self.root_player)):
                        if depth + 1 < MAX_DEPTH:
                            child = self.chance_child(node, o)
                        else:
                            child = -1
                        if child >= 0:
                            depth += 1
                            self.path[depth] = child
                            node = child
                        else:
                            full = True     # leave the tree: the rest is rollout
                    apply_action(&self.board, &s, o)
            if expanded:
                if self.hv != NULL:
                    self.set_value(child, &s)
                break
        # rollout, to the end or to the horizon
        m = 0
        if current_player(&s) != TERMINAL_PLAYER:
            if self.horizon < 0 and self.mast == NULL:
                if self.rollout == ROLLOUT_HEURISTIC:
                    heuristic_playout(&self.board, &s, &self.rng)
                elif self.rollout == ROLLOUT_LOOKAHEAD:
                    heuristic_playout(&self.board, &s, &self.rng, True)
                else:
                    random_playout(&self.board, &s, &self.rng)
            elif self.play_on(&s):
                m = -1
        if m < 0:
            self.eval_rewards(&s, r, win)
        else:
            # rewards: win share (R-END-3) + a small score-margin term
            final_outcome(&self.board, &s, win, score)
            margin_rewards(self.num_players, self.margin_weight, win, score, r)
            for p in range(self.num_players):
                self.score_sum[p] += score[p]
        for p in range(self.num_players):
            self.win_sum[p] += win[p]
        if self.scaled:
            for p in range(self.num_players):
                self.reward_sum[p] += r[p]
                self.reward_sq[p] += r[p] * r[p]
        if self.hv != NULL:
            self.back_up_values(depth)
        for i in range(1, depth + 1):
            nd = &self.nodes[self.path[i]]
            nd.visits += 1
            if nd.mover >= 0:
                nd.reward += r[nd.mover]
        self.nodes[0].visits += 1
        if depth >= 1:
            k = self.nodes[self.path[1]].key
            self.root_n[k] += 1
            for p in range(self.num_players):
                self.root_reward[k][p] += r[p]
                self.root_win[k][p] += win[p]
        if self.mast != NULL:
            for i in range(self.n_log):
                row = &self.mast[(self.log_mover[i] * MAST_SLOTS + self.log_action[i]) * 2]
                row[0] += r[self.log_mover[i]]
                row[1] += 1
        self.iterations += 1

    cdef void exploration(self, double* out) noexcept nogil:
        """UCB's exploration constant for each player as mover: c, or with
        explore="scaled" c times the standard deviation of the player's
        rewards in this search's iterations (from SPREAD_PRIOR_VARIANCE,
        weighted as SPREAD_PRIOR_ITERATIONS iterations, while they are few)."""
        cdef int p
        cdef double n = self.iterations, var
        if not self.scaled:
            for p in range(self.num_players):
                out[p] = self.c
            return
        for p in range(self.num_players):
            var = 0.0
            if n > 0:
                var = self.reward_sq[p] - self.reward_sum[p] * self.reward_sum[p] / n
            var = (var + SPREAD_PRIOR_ITERATIONS * SPREAD_PRIOR_VARIANCE) / (
                n + SPREAD_PRIOR_ITERATIONS)
            out[p] = self.c * sqrt(var if var > 0 else 0.0)

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
        # a time left of zero or less is a deadline passed: one iteration, then stop
        # (only None means no time limit)
        cdef double sec = -1.0 if seconds is None else max(float(seconds), 0.0)
        cdef long long done
        if iterations is None and seconds is None:
            raise ValueError("run: give iterations and/or seconds")
        if it <= 0:
            return 0
        with nogil:
            done = self.run_loop(it, sec)
        return done

    # --- tree reuse ---------------------------------------------------------
    def reroot(self, int action, state, seed=None):
        """Keep the subtree of the searching player's decision `action` as the
        tree of `state` (the position after it, the same player to move, no
        chance event between). Returns False, changing nothing, when the tree
        has no such subtree; then search `state` with a new Searcher.

        The kept nodes keep their visits and values (so the root's visit counts
        include them); the root's per-player statistics (`root_stats` reward and
        win sums) restart, as do `iterations`, `seconds` and the totals."""
        cdef GameState s
        cdef Board b
        cdef int child, old, new, kid, n, cap, head, last
        cdef Node* fresh
        cdef float* fresh_hv = NULL
        cdef int32_t* order
        cdef int16_t buf[MAX_LEGAL]
        cdef uint64_t legal_bits[KEY_WORDS]
        load_state(state, &s, &b)
        if current_player(&s) != self.root_player:
            return False
        child = self.nodes[0].first_child
        while child >= 0 and self.nodes[child].key != action:
            child = self.nodes[child].next_sibling
        if (child < 0 or self.nodes[child].mover != self.root_player
                or self.nodes[child].flags & NODE_CHANCE_AFTER):
            return False
        # the kept decisions must all be legal here: a decision can reveal hidden
        # information without a chance event (coats taken from under the stack),
        # and then the subtree mixes worlds this position rules out
        memset(legal_bits, 0, sizeof(legal_bits))
        n = legal_actions(&b, &s, buf)
        for kid in range(n):
            legal_bits[buf[kid] >> 6] |= (<uint64_t>1) << (buf[kid] & 63)
        kid = self.nodes[child].first_child
        while kid >= 0:
            if not legal_bits[self.nodes[kid].key >> 6] & ((<uint64_t>1) << (self.nodes[kid].key & 63)):
                return False
            kid = self.nodes[kid].next_sibling
        # copy the subtree breadth-first into a fresh array, children in order
        n = 0
        order = <int32_t*>malloc(self.n_nodes * sizeof(int32_t))
        if order == NULL:
            raise MemoryError()
        order[0] = child
        n = 1
        head = 0
        while head < n:
            kid = self.nodes[order[head]].first_child
            while kid >= 0:
                order[n] = kid
                n += 1
                kid = self.nodes[kid].next_sibling
            head += 1
        cap = INITIAL_NODES
        while cap < n:
            cap *= 2
        if cap > self.max_nodes:
            cap = self.max_nodes if self.max_nodes >= n else n
        fresh = <Node*>malloc(cap * sizeof(Node))
        if self.hv != NULL:
            fresh_hv = <float*>malloc(cap * MAX_PLAYERS * sizeof(float))
        if fresh == NULL or (self.hv != NULL and fresh_hv == NULL):
            free(order)
            free(fresh)
            free(fresh_hv)
            raise MemoryError()
        # old index -> new index: reuse `first_child` of the old array after copying
        for new in range(n):
            fresh[new] = self.nodes[order[new]]
            if fresh_hv != NULL:
                memcpy(&fresh_hv[new * MAX_PLAYERS], &self.hv[order[new] * MAX_PLAYERS],
                       MAX_PLAYERS * sizeof(float))
        for new in range(n):
            self.nodes[order[new]].avail = new      # the new index, stored in place
        for new in range(n):
            old = fresh[new].first_child
            fresh[new].first_child = self.nodes[old].avail if old >= 0 else -1
            old = fresh[new].next_sibling
            fresh[new].next_sibling = self.nodes[old].avail if old >= 0 and new > 0 else -1
        free(order)
        free(self.nodes)
        self.nodes = fresh
        if fresh_hv != NULL:
            free(self.hv)
            self.hv = fresh_hv
        self.n_nodes = n
        self.capacity = cap
        self.nodes[0].key = -1
        self.nodes[0].mover = -1
        self.nodes[0].flags = 0
        self.root = s
        self.board = b
        if seed is not None:
            rng_seed(&self.rng, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
        self.reused_visits = self.nodes[0].visits
        self._reset_root_stats()
        self.iterations = 0
        self.seconds = 0.0
        self._reset_totals()
        return True

    # --- results ------------------------------------------------------------
    @property
    def tree_nodes(self):
        return self.n_nodes

    def totals(self):
        """(win share sums, final score sums) per player, over all iterations."""
        return ([self.win_sum[p] for p in range(self.num_players)],
                [self.score_sum[p] for p in range(self.num_players)])

    def exploration_constants(self):
        """UCB's exploration constant of each player as mover now: c with
        explore="fixed"; c x the spread of the player's rewards so far with
        "scaled"."""
        cdef double out[MAX_PLAYERS]
        self.exploration(out)
        return [out[p] for p in range(self.num_players)]

    def root_stats(self):
        """Per root action: (action, visits, availability, reward sums, win-share
        sums, iterations in those sums, the searcher's reward sum). Visits and the
        searcher's reward include a reused subtree's; the per-player sums cover
        this search's iterations only (`reroot`)."""
        out = []
        cdef int child = self.nodes[0].first_child, k, p
        while child >= 0:
            k = self.nodes[child].key
            out.append((k, self.nodes[child].visits, self.nodes[child].avail,
                        [self.root_reward[k][p] for p in range(self.num_players)],
                        [self.root_win[k][p] for p in range(self.num_players)],
                        int(self.root_n[k]), self.nodes[child].reward))
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
            "root": self.root_stats(), "reused_visits": self.reused_visits,
            "turn_tree": self.turn_tree(max_depth, min_share),
        }

    def turn_tree(self, int max_depth=40, double min_share=0.01):
        """The searching player's decisions until a chance event or the end of the
        turn, as nested dicts {action: [visits, reward sum, avail, chance_after,
        mover, children]}; children under `min_share` of their parent are left out."""
        return self._subtree(0, max_depth, min_share, False)

    def heuristic_values(self, int max_depth=4):
        """Implicit minimax (minimax > 0): the tree to `max_depth` as nested dicts
        {key: [mover, heuristic values per player or None, children]} (for
        tests and inspection)."""
        if self.hv == NULL:
            raise ValueError("heuristic_values: the search has no minimax weight")
        return self._values(0, max_depth)

    cdef dict _values(self, int node, int depth):
        cdef dict out = {}
        cdef int child = self.nodes[node].first_child, p
        while child >= 0:
            values = None
            if self.nodes[child].flags & NODE_VALUE:
                values = [float(self.hv[child * MAX_PLAYERS + p]) for p in range(self.num_players)]
            out[int(self.nodes[child].key)] = [
                int(self.nodes[child].mover), values,
                self._values(child, depth - 1) if depth > 1 else {}]
            child = self.nodes[child].next_sibling
        return out

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
