# Small queries of the state; the river, seals, privileges and coats of arms.
# (included by _fastcore.pyx: one compilation unit, so the C compiler inlines across files)

# ---------------------------------------------------------------------------
# Small queries

cdef inline bint owns(const GameState* s, int p, int d) noexcept nogil:
    return s.desc[d] == p

cdef inline int bag_total(const GameState* s) noexcept nogil:
    return s.bag[0] + s.bag[1] + s.bag[2] + s.bag[3] + s.bag[4]

cdef inline int dock_total(const GameState* s) noexcept nogil:
    return s.docks[0] + s.docks[1] + s.docks[2] + s.docks[3] + s.docks[4]

cdef inline int coats_in_stack(const GameState* s) noexcept nogil:
    return popcount64(s.coat_unknown) + s.coat_tail_len

cdef inline void add_vp(GameState* s, int p, int src, int n) noexcept nogil:
    s.players[p].score += n
    s.players[p].vp[src] += n

cdef inline void push_task(GameState* s, int t, int arg) noexcept nogil:
    if s.n_tasks >= MAX_TASKS:  # no game gets near; a state set by hand must not overrun
        return
    s.task[s.n_tasks] = t
    s.task_arg[s.n_tasks] = arg
    s.n_tasks += 1

cdef inline void pop_task(GameState* s) noexcept nogil:
    s.n_tasks -= 1
    s.task[s.n_tasks] = TK_NONE
    s.task_arg[s.n_tasks] = 0

cdef inline bint draws_from_bag(int t) noexcept nogil:
    return (t == TK_PLAYER_TILE or t == TK_DRAW_PUSH_TILE or t == TK_DOCK_REFILL
            or t == TK_BAG_TO_SUPPLY or t == TK_PATRICIAN_COLOUR)

cdef int monochrome_lines(const GameState* s) noexcept nogil:
    """Bit i set when line i of the grid holds 3 tiles of one colour."""
    cdef int i, m = 0
    for i in range(8):
        if s.grid[LINES[i][0]] == s.grid[LINES[i][1]] and s.grid[LINES[i][1]] == s.grid[LINES[i][2]]:
            m |= 1 << i
    return m

# ---------------------------------------------------------------------------
# River (R-RIVER-*)

cdef int free_spaces_ahead(const GameState* s, int p, int most) noexcept nogil:
    cdef int n = 0, i = s.players[p].barge
    while n < most:
        i = next_free_space(s, p, i)
        if i < 0:
            break
        n += 1
    return n

cdef void river_bonus(const Board* b, GameState* s, int p) noexcept nogil:
    # R-BOARD-2: the space the barge ends on
    cdef int bonus = b.river_bonus[s.players[p].barge]
    if bonus == BONUS_COIN:
        s.players[p].coins += 1
    elif bonus == BONUS_SPARROW:
        s.players[p].sparrows += 1
    elif bonus == BONUS_DOCK_TILE:
        push_task(s, TK_DOCK_CHOICE, 0)
    elif bonus == BONUS_CARD:
        push_task(s, TK_CARD_TO_HAND, 0)

cdef int barge_landing(const GameState* s, int p, int k) noexcept nogil:
    """The river index p's barge lands on after k free spaces, or as far as it
    can go (R-RIVER-1, R-RIVER-2): its own index when it cannot move."""
    cdef int i, idx, at = s.players[p].barge
    for i in range(k):
        idx = next_free_space(s, p, at)
        if idx < 0:
            break
        at = idx
    return at

cdef void move_barge(const Board* b, GameState* s, int p, int k) noexcept nogil:
    """Advance k free spaces at once; only the final space's bonus applies (R-RIVER-3)."""
    cdef int idx = barge_landing(s, p, k)
    if idx != s.players[p].barge:
        s.players[p].barge = idx
        river_bonus(b, s, p)

# ---------------------------------------------------------------------------
# Seals, privileges, coats of arms

cdef void take_coat(const Board* b, GameState* s, int p, int c) noexcept nogil:
    # R-COAT-1
    cdef Player* pl = &s.players[p]
    s.coat_owner[c] = p
    pl.coats |= <uint16_t>(1 << c)
    add_vp(s, p, SRC_COATS, b.coat_vp[c])
    if pl.seals_left > 0:
        pl.seals_left -= 1
        s.outer_mark[b.coat_outer[c]] = p
    if b.coat_quarter[c] >= 0:
        pl.crests_left -= 1
        s.crest_owner[b.coat_quarter[c]] = p

cdef void coat_under_stack(GameState* s, int c, int p, uint8_t known) noexcept nogil:
    # R-COAT-4: the coat goes to the bottom, known to p and to all who knew it
    if s.coat_tail_len >= NUM_COATS:  # only an inconsistent set_raw state gets here
        return
    s.coat_tail[s.coat_tail_len] = c
    s.coat_tail_by[s.coat_tail_len] = p
    s.coat_tail_known[s.coat_tail_len] = known | (1 << p)
    s.coat_tail_len += 1

cdef inline bint coat_keepable(const Board* b, const GameState* s, int p, int c) noexcept nogil:
    # R-COAT-2: a golden coat needs a crest
    return b.coat_quarter[c] < 0 or s.players[p].crests_left > 0

cdef void privilege(const Board* b, GameState* s, int p, int q) noexcept nogil:
    cdef int n
    if q == TILLAGE:
        s.players[p].coins += 1
        push_task(s, TK_BARGE_MOVE, 2)
        push_task(s, TK_DOCK_CHOICE, 0)
    elif q == LEANING or q == GARDEN:
        n = coats_in_stack(s)
        if n > 2:
            n = 2
        if n > 0:
            push_task(s, TK_COAT_CHOICE, 0)
            while n > 0:
                push_task(s, TK_COAT_DRAW, 0)
                n -= 1
    elif q == OATH:
        push_task(s, TK_DESC_CHOICE, 0)
    elif q == TOWN_HALL:
        push_task(s, TK_TOWNHALL_CHOICE, 0)
        push_task(s, TK_CARD_TO_HAND, 0)
    elif q == SHIPYARD:
        s.extra[BROWN] += 1  # an extra action, usable at once (R-TURN-3)
        push_task(s, TK_DOCK_CHOICE, 0)
    elif q == REICHENAU:
        add_vp(s, p, SRC_REICHENAU, quarters_with_seal(s, p))
    elif q == GOOSE:
        push_task(s, TK_GOOSE_CHOICE, 0)

cdef void place_seal(const Board* b, GameState* s, int p, int q, int cost) noexcept nogil:
    cdef Player* pl = &s.players[p]
    cdef int owner
    pl.coins -= cost
    pl.seals_left -= 1
    pl.seals_in[q] += 1
    s.quarter_seals[q] += 1
    owner = s.crest_owner[q]
    if owner >= 0:  # R-ACT-SEAL-3, R-COAT-3
        add_vp(s, owner, SRC_CRESTS, b.coat_later_vp[b.quarter_coat[q]])
    privilege(b, s, p, q)

cdef bint quarter_in_reach(const Board* b, const GameState* s, int p, int q, bint wide) noexcept nogil:
    """Beside the barge (R-ACT-SEAL-1), or within 3 river spaces with T12."""
    cdef int i = s.players[p].barge, j, lo, hi
    if not wide:
        return b.north_of[i] == q or b.south_of[i] == q
    lo = i - 3 if i >= 3 else 0
    hi = i + 3 if i + 3 < RIVER_LEN else RIVER_LEN - 1
    for j in range(lo, hi + 1):
        if b.north_of[j] == q or b.south_of[j] == q:
            return True
    return False

cdef inline bint can_seal_basics(const GameState* s, int p, int cost) noexcept nogil:
    return s.players[p].seals_left > 0 and s.players[p].coins >= cost

cdef inline int action_count(const GameState* s, int c) noexcept nogil:
    """Unused actions of colour c: the activated tiles' (after the push) and the
    extra ones (at any moment of the own turn, R-TURN-3)."""
    return (s.avail[c] if s.phase == PH_ACTIONS else 0) + s.extra[c]

cdef inline bint use_colour_action(GameState* s, int c) noexcept nogil:
    """Use one action of colour c; True if it was an activated tile's. An
    activated one goes first: it is never worth less (R-ACT-MONEY-1, R-ACT-RIVER-1)."""
    if s.phase == PH_ACTIONS and s.avail[c] > 0:
        s.avail[c] -= 1
        return True
    s.extra[c] -= 1
    return False

cdef inline bint has_seal_action(const GameState* s) noexcept nogil:
    return action_count(s, ORANGE) > 0 or s.t5_seal

cdef inline void use_seal_action(GameState* s) noexcept nogil:
    if action_count(s, ORANGE) > 0:
        use_colour_action(s, ORANGE)
    else:
        s.t5_seal = 0  # R-TOWER-T5, an extra action too
