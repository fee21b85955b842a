# One ply: the greedy bot and the lookahead rollouts.
# (included by _search.pyx: one compilation unit)

# ---------------------------------------------------------------------------
# Turn starts, chance seen by the searcher, the greedy one-ply choice and the
# lookahead rollout policy


cdef bint turn_start(const GameState* s) noexcept nogil:
    """The first decision of a turn (draw or pick a colour), nothing pending:
    where the rollout may stop for the evaluation."""
    return s.phase == PH_BEFORE_DRAW and s.n_tasks == 0


cdef inline bint at_horizon(const GameState* s, int horizon, int* turns) noexcept nogil:
    """A rollout's cut-off: the (horizon + 1)-th turn start it reaches (its
    first state counts if it is one); `turns` counts those passed. Never with
    horizon -1 (rollouts to the end)."""
    if horizon >= 0 and turn_start(s):
        if turns[0] >= horizon:
            return True
        turns[0] += 1
    return False


cdef inline int policy_action(int kind, const Board* b, const GameState* s, const int16_t* legal,
                              int n, Rng* r) noexcept nogil:
    """The decision of the rollout policy `kind` (ROLLOUT_*) among `legal`."""
    if kind == ROLLOUT_HEURISTIC:
        return heuristic_action(b, s, legal, n, r)
    if kind == ROLLOUT_LOOKAHEAD:
        return lookahead_action(b, s, legal, n, r)
    return legal[rng_below(r, n)]


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
