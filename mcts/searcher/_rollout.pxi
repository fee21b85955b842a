# Rollout policies: small helpers and the cheap rule-based policy ("heuristic" rollouts).
# (included by _search.pyx: one compilation unit)

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
