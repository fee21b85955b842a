# Evaluating a position: the greedy bot's score and the calibrated evaluation at the cut-off.
# (included by _search.pyx: one compilation unit)

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
# weights are data (mcts/searcher/eval_weights.json, fitted by lab/calibrate_eval.py
# on rollouts from self-play positions), one set per player count.

FEATURE_NAMES = ("constant", "score", "end-game points now", "coins", "supply tiles",
                 "hand cards", "quarters with a seal", "seals placed", "descendants",
                 "barge space", "sparrows", "coats", "turns until own turn", "crests placed")


cdef void eval_features(const Board* b, const GameState* s, int p, double* f) noexcept nogil:
    """The N_FEATURES features of p's position; the evaluation weighs each
    twice: as it is and times the share of the game left (`left`)."""
    cdef int16_t src[NUM_SOURCES]
    seat_eval_features(s, p, end_bonus(b, s, p, src), f)


cdef inline void seat_eval_features(const GameState* s, int p, int bonus,
                                    double* f) noexcept nogil:
    """eval_features with p's end-game points now (`end_bonus`) given."""
    cdef const Player* pl = &s.players[p]
    cdef int i, nd = 0
    cdef double left = (NUM_ROUNDS - s.round) / <double>NUM_ROUNDS
    for i in range(NUM_DESCENDANTS):
        if s.desc[i] == p:
            nd += 1
    f[0] = 1.0
    f[1] = pl.score
    f[2] = bonus
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


cdef inline void seat_bonuses(const Board* b, const GameState* s, int16_t* src,
                              int* bonus) noexcept nogil:
    """Every seat's end-game points now (`end_bonus`, which writes every
    source): by source in `src` (NUM_SOURCES numbers a seat) and in all in
    `bonus`, computed once for the score head and the learned model's
    features."""
    cdef int p
    for p in range(s.num_players):
        bonus[p] = end_bonus(b, s, p, &src[p * NUM_SOURCES])


cdef void eval_outcome(const Board* b, const GameState* s, const double* w_score,
                       const double* w_win, double* pred, double* win) noexcept nogil:
    """Every player's predicted final score (weights `w_score`) and win chance:
    the softmax of the players' win logits (weights `w_win`)."""
    cdef int16_t src[MAX_PLAYERS * NUM_SOURCES]
    cdef int bonus[MAX_PLAYERS]
    seat_bonuses(b, s, src, bonus)
    eval_outcome_from(s, bonus, w_score, w_win, pred, win)


cdef void eval_outcome_from(const GameState* s, const int* bonus, const double* w_score,
                            const double* w_win, double* pred, double* win) noexcept nogil:
    """eval_outcome with every player's end-game points now given."""
    cdef double f[N_WEIGHTS]
    cdef double top = -INFINITY, z = 0.0
    cdef int p, i
    for p in range(s.num_players):
        seat_eval_features(s, p, bonus[p], f)
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
