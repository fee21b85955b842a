# The legal decisions: one generator of a bit set, listed or sampled.
# (included by _fastcore.pyx: one compilation unit, so the C compiler inlines across files)

# ---------------------------------------------------------------------------
# Legal actions
#
# One generator, `legal_set`, marks every legal decision in a bit set of
# NUM_DECISIONS bits (LEGAL_WORDS words; bit a = action a). `legal_actions`
# lists the set bits, so the list comes out sorted; `sample_legal` draws the
# k-th set bit for a uniform k without listing anything, so a playout step is
# one popcount per word. Rules are checked with bit masks and small tables
# where the lists used to test one candidate at a time.

# pushable lines (bit e) for each set of empty outer spaces (bit o)
cdef uint16_t PUSHABLE_LINES[1 << NUM_OUTER]
# payable colour pairs (bit k) for each supply: bit c = at least one tile of
# colour c, bit 5 + c = at least two
cdef uint16_t PAYABLE_PAIRS[1 << (2 * NUM_COLOURS)]

cdef void _init_legal_tables():
    cdef int m, e, k, a, b
    for m in range(1 << NUM_OUTER):
        PUSHABLE_LINES[m] = 0
        for e in range(12):
            if (m >> PUSH_IN[e]) & 1 and (m >> PUSH_OUT[e]) & 1:  # R-PUSH-3
                PUSHABLE_LINES[m] |= 1 << e
    for m in range(1 << (2 * NUM_COLOURS)):
        PAYABLE_PAIRS[m] = 0
        for k in range(NUM_PAIRS):
            a = PAIR_A[k]
            b = PAIR_B[k]
            if (m >> a) & 1 and (m >> b) & 1 and (a != b or (m >> (5 + a)) & 1):
                PAYABLE_PAIRS[m] |= 1 << k

_init_legal_tables()
if NUM_DECISIONS > 64 * LEGAL_WORDS:
    raise ImportError("LEGAL_WORDS is too small for NUM_DECISIONS")

cdef inline void add(uint64_t* w, int a) noexcept nogil:
    w[a >> 6] |= (<uint64_t>1) << (a & 63)

cdef inline void add_mask(uint64_t* w, int base, uint64_t m) noexcept nogil:
    """Mark base + i for every bit i of m (m may straddle two words)."""
    cdef int off = base & 63
    w[base >> 6] |= m << off
    if off and (m >> (64 - off)):
        w[(base >> 6) + 1] |= m >> (64 - off)

cdef inline uint64_t nonzero_colours(const uint8_t* counts) noexcept nogil:
    """Bit c set for every colour c with a tile in `counts`."""
    return ((counts[0] > 0) | ((counts[1] > 0) << 1) | ((counts[2] > 0) << 2)
            | ((counts[3] > 0) << 3) | ((counts[4] > 0) << 4))

cdef inline uint64_t payable_pairs(const uint8_t* supply) noexcept nogil:
    cdef int m = <int>nonzero_colours(supply)
    m |= ((supply[0] > 1) | ((supply[1] > 1) << 1) | ((supply[2] > 1) << 2)
          | ((supply[3] > 1) << 3) | ((supply[4] > 1) << 4)) << 5
    return PAYABLE_PAIRS[m]

cdef inline uint64_t empty_bytes(uint64_t x) noexcept nogil:
    """Bit i set where byte i of x is NO_TILE (0xFF), branch-free (SWAR)."""
    cdef uint64_t v = ~x, t
    t = (v & <uint64_t>0x7F7F7F7F7F7F7F7F) + <uint64_t>0x7F7F7F7F7F7F7F7F
    t = ~(t | v | <uint64_t>0x7F7F7F7F7F7F7F7F)  # high bit of each zero byte of v
    return ((t >> 7) * <uint64_t>0x0102040810204080) >> 56

cdef inline int empty_outer(const GameState* s) noexcept nogil:
    """Bit o set when outer space o holds no tile."""
    cdef uint64_t lo = 0, hi = 0
    memcpy(&lo, &s.outer[0], 8)
    memcpy(&hi, &s.outer[8], NUM_OUTER - 8)
    return <int>(empty_bytes(lo) | (empty_bytes(hi) << 8))

cdef inline int pushable_lines(const GameState* s) noexcept nogil:
    """Bit e set when line e can be pushed (R-PUSH-3)."""
    return PUSHABLE_LINES[empty_outer(s)]

cdef int open_push_lines(const GameState* s) noexcept nogil:
    """pushable_lines for the other modules (the search's features)."""
    return pushable_lines(s)

cdef inline uint64_t sides_to_clear(const GameState* s) noexcept nogil:
    """Bit e set when side e (3 outer spaces) holds a tile to clear away."""
    cdef int full = ~empty_outer(s)
    return (((full & 7) != 0) | (((full & 0x38) != 0) << 1) | (((full & 0x1C0) != 0) << 2)
            | (((full & 0xE00) != 0) << 3))

cdef void add_card_plays(const Board* b, const GameState* s, int p, uint64_t* w) noexcept nogil:
    cdef uint64_t hand = s.players[p].hand, h, upper = 0
    cdef int c
    if hand == 0 or not can_play_card(s):
        return
    h = hand
    while h:
        c = ctz64(h)
        h &= h - 1
        if upper_playable(b, s, p, c):
            upper |= bit(c)
    add_mask(w, A_PLAY_UPPER, upper)
    add_mask(w, A_PLAY_LOWER, hand)

cdef void add_merchant(const GameState* s, int p, uint64_t* w) noexcept nogil:
    # R-DESC-MERCHANT: give a supply colour, take another colour from the docks
    cdef int give
    cdef uint64_t docks
    if not owns(s, p, MERCHANT) or s.merchant_used:
        return
    docks = nonzero_colours(s.docks)
    for give in range(NUM_COLOURS):
        if s.players[p].supply[give] > 0:
            add_mask(w, A_MERCHANT + give * 5, docks & ~bit(give))

cdef void bag_at_draw(const GameState* s, uint8_t* bag) noexcept nogil:
    """The bag as it will be at the draw: R-DRAW-1, then R-DRAW-8."""
    cdef int c, o
    for c in range(NUM_COLOURS):
        bag[c] = s.bag[c]
    if not pushable_lines(s):
        for o in range(NUM_OUTER):
            if s.outer[o] != NO_TILE:
                bag[s.outer[o]] += 1
    if bag[0] + bag[1] + bag[2] + bag[3] + bag[4] == 0:
        for c in range(NUM_COLOURS):
            bag[c] = 1

cdef uint64_t quarters_to_seal(const Board* b, const GameState* s, int p, bint wide) noexcept nogil:
    """Free quarters in reach (R-ACT-SEAL-1; within 3 spaces with T12)."""
    cdef uint64_t m = 0
    cdef int q, i = s.players[p].barge, north = b.north_of[i], south = b.south_of[i]
    if not wide:  # the two beside the barge (ulm/board.py: every space has both), by masks
        return ((bit(north) & -<uint64_t>quarter_free(b, s, north))
                | (bit(south) & -<uint64_t>quarter_free(b, s, south)))
    for q in range(NUM_QUARTERS):
        if quarter_free(b, s, q) and quarter_in_reach(b, s, p, q, True):
            m |= bit(q)
    return m

cdef void colour_actions_set(const Board* b, const GameState* s, int p, uint64_t* w) noexcept nogil:
    """The five actions (section 4.3), for the activated tiles after the push and
    for the extra actions in any phase (R-TURN-3)."""
    cdef const Player* pl = &s.players[p]
    cdef uint64_t m
    cdef int q
    if action_count(s, GRAY) > 0:
        add(w, A_MONEY)
    if action_count(s, WHITE) > 0:
        add_mask(w, A_CLEAR, sides_to_clear(s))
    if action_count(s, BROWN) > 0 and cards_left(s):
        if tower_in_force(s, TOWER_T3):      # R-TOWER-T3
            if pl.coins >= 1:
                add(w, A_BUY_COIN)
        elif tower_in_force(s, TOWER_T4):    # R-TOWER-T4
            add_mask(w, A_BUY_TILE, nonzero_colours(pl.supply))
        else:
            add_mask(w, A_BUY_PAIR, payable_pairs(pl.supply))
    if (s.river_extra > 0 or action_count(s, TURQUOISE) > 0) and next_free_space(s, p, pl.barge) >= 0:
        add(w, A_RIVER)
    if has_seal_action(s) and can_seal_basics(s, p, seal_cost(s)):
        add_mask(w, A_SEAL, quarters_to_seal(b, s, p, tower_in_force(s, TOWER_T12)))  # R-TOWER-T12
        # R-ACT-SEAL-2: City Wall as a modifier of this seal action
        if (pl.hand & bit(CARD_CITY_WALL)) and can_play_card(s):
            m = 0
            for q in range(NUM_QUARTERS):
                if quarter_free(b, s, q):
                    m |= bit(q)
            add_mask(w, A_SEAL_WALL, m)

cdef void main_set(const Board* b, const GameState* s, uint64_t* w) noexcept nogil:
    """The decisions of the main turn."""
    cdef int p = s.turn_player
    cdef const Player* pl = &s.players[p]
    cdef uint8_t bag[NUM_COLOURS]
    cdef uint64_t m
    # one test of the phase (a bit set: the order of the adds does not matter)
    if s.phase == PH_ACTIONS:
        add(w, A_END_TURN)
        if (tower_in_force(s, TOWER_T10) and not s.t10_used
                and s.pushed_out_at >= 0 and s.outer[s.pushed_out_at] != NO_TILE):
            add(w, A_TAKE_PUSHED_OUT)  # R-PUSH-7
    elif s.phase == PH_BEFORE_DRAW:
        add(w, A_DRAW)
        if tower_in_force(s, TOWER_T11):  # R-TOWER-T11
            bag_at_draw(s, bag)
            add_mask(w, A_PICK_COLOUR, nonzero_colours(bag))
        if owns(s, p, BUILDER):  # R-DRAW-3: 2 instead of 1, if the owner wants
            add(w, A_DRAW_TWO)
    elif s.phase == PH_PUSH:
        add_mask(w, A_PUSH, <uint64_t>pushable_lines(s))
        if not s.draw_swap_used:
            if pl.sparrows > 0:  # R-DRAW-5
                m = nonzero_colours(s.docks)
                if s.drawn[0] >= 0:
                    m &= ~bit(s.drawn[0])
                add_mask(w, A_JOKER, m)
            if owns(s, p, SCHOLAR):  # R-DRAW-6
                add_mask(w, A_SCHOLAR, nonzero_colours(pl.supply))
    else:
        return
    colour_actions_set(b, s, p, w)
    add_merchant(s, p, w)
    add_card_plays(b, s, p, w)

cdef void legal_set(const Board* b, const GameState* s, uint64_t* w) noexcept nogil:
    """Mark the legal decisions in w[LEGAL_WORDS]; none at chance nodes and at the end."""
    cdef int t, p = s.turn_player, c, i, most
    cdef const Player* pl = &s.players[p]
    cdef uint64_t m
    for i in range(LEGAL_WORDS):
        w[i] = 0
    if s.n_tasks == 0:
        main_set(b, s, w)
        return
    t = s.task[s.n_tasks - 1]
    if is_chance_task(t):
        return
    if t == TK_BUILDER_KEEP:
        m = 0
        for i in range(2):
            if s.drawn[i] >= 0:
                m |= bit(s.drawn[i])
        add_mask(w, A_PICK_COLOUR, m)
    elif t == TK_DOCK_CHOICE:
        add_mask(w, A_PICK_DOCK, nonzero_colours(s.docks))
    elif t == TK_TOWNHALL_CHOICE:
        add_mask(w, A_PICK_DOCK, nonzero_colours(s.docks))
        add(w, A_TAKE_COIN)
    elif t == TK_ABBOT_DOCK:
        add_mask(w, A_PICK_DOCK, nonzero_colours(s.docks))
        add(w, A_NO_DOCK_TILE)
    elif t == TK_BUY_MODE:
        add(w, A_TAKE_TOP_CARD)
        add(w, A_LOOK_TWO)
    elif t == TK_BARGE_MOVE:
        most = free_spaces_ahead(s, p, s.task_arg[s.n_tasks - 1])
        add_mask(w, A_BARGE, bit(most + 1) - 1)
    elif t == TK_CARD_KEEP:
        m = 0
        for i in range(s.n_looked_cards):
            m |= bit(s.looked_cards[i])
        add_mask(w, A_KEEP_CARD, m)
    elif t == TK_GOOSE_CHOICE:
        add_mask(w, A_TAKE_DISCARD, s.discard)
        add(w, A_GOOSE_LOOK)
    elif t == TK_COAT_CHOICE:
        m = 0
        for i in range(s.n_looked_coats):
            if coat_keepable(b, s, p, s.looked_coats[i]):
                m |= bit(s.looked_coats[i])
        add_mask(w, A_KEEP_COAT, m)
        if s.n_looked_coats == 1:
            add(w, A_RETURN_COAT)
    elif t == TK_DESC_CHOICE:
        for i in range(NUM_DESCENDANTS):
            if s.desc[i] == DESC_ON_BOARD:
                add(w, A_DESCENDANT + i)
    elif t == TK_CHRONICLE_QUARTER:
        add_mask(w, A_QUARTER, quarters_to_seal(b, s, p, False))
    elif t == TK_AMOUNT:
        if s.task_arg[s.n_tasks - 1] == CARD_SIEGE:
            most = pl.coins if pl.coins < 3 else 3
        else:
            most = pl.sparrows if pl.sparrows < 5 else 5
        add_mask(w, A_AMOUNT, bit(most + 1) - 1)
    elif t == TK_FREEZE_CHOICE:
        add(w, A_FREEZE_COINS)
        add(w, A_FREEZE_TILES)
    elif t == TK_REFORM_PICK:
        for i in range(NUM_OUTER):
            if s.outer[i] != NO_TILE:
                add(w, A_OUTER + i)
        add(w, A_STOP)
    elif t == TK_PAY_COLOUR:
        c = s.task_arg[s.n_tasks - 1]
        m = bit(b.cathedral_colours[c][0]) | bit(b.cathedral_colours[c][1])
        add_mask(w, A_PICK_COLOUR, m & nonzero_colours(pl.supply))
    elif t == TK_SWABIAN_COLOUR:
        add_mask(w, A_PICK_COLOUR, nonzero_colours(pl.supply))
    elif t == TK_PATRICIAN_COLOUR:
        add_mask(w, A_PICK_COLOUR, nonzero_colours(s.bag))
    elif t == TK_TOWER_PAYMENT:
        if tower_in_force(s, TOWER_T8):
            add_mask(w, A_TOWER_PAY_PAIR, payable_pairs(pl.supply))
        else:            # T9
            add(w, A_TOWER_PAY_COINS)
        add(w, A_TOWER_PENALTY)

cdef int legal_actions(const Board* b, const GameState* s, int16_t* out) noexcept nogil:
    """Legal decisions in increasing order; 0 at chance nodes and at the end."""
    cdef uint64_t w[LEGAL_WORDS]
    cdef uint64_t m
    cdef int i, n = 0
    legal_set(b, s, w)
    for i in range(LEGAL_WORDS):
        m = w[i]
        while m:
            out[n] = 64 * i + ctz64(m)
            n += 1
            m &= m - 1
    return n

cdef int sample_legal(const Board* b, const GameState* s, Rng* r) noexcept nogil:
    """A uniformly random legal decision, without listing them: the same action
    and the same draw from r as ``legal_actions(...)[rng_below(r, n)]``; -1
    (and no draw) where there is none (a stuck state set by hand)."""
    cdef uint64_t w[LEGAL_WORDS]
    cdef int before[LEGAL_WORDS]  # set bits in the words before word i
    cdef int n, k, i, lower, offset
    cdef uint64_t word
    legal_set(b, s, w)
    before[0] = 0
    before[1] = popcount64(w[0])
    before[2] = before[1] + popcount64(w[1])
    before[3] = before[2] + popcount64(w[2])
    before[4] = before[3] + popcount64(w[3])
    n = before[4] + popcount64(w[4])
    if n == 0:
        return -1
    k = rng_below(r, n)
    # the word holding the k-th set bit, by conditional moves: not branches (a
    # random k makes them coin tosses), nor loads at a computed index, which
    # delay the decision that comes out (it was 2-3% slower)
    word = w[0]
    lower = 0
    offset = 0
    for i in range(1, LEGAL_WORDS):  # unrolled by the compiler
        if k >= before[i]:
            word = w[i]
            lower = before[i]
            offset = 64 * i
    return offset + select_bit(word, k - lower)

if LEGAL_WORDS != 5:
    raise ImportError("sample_legal counts exactly five words")

cdef bint is_legal(const Board* b, const GameState* s, int action) noexcept nogil:
    cdef int16_t buf[MAX_LEGAL]
    cdef uint64_t w[LEGAL_WORDS]
    cdef int n, i
    cdef double prob[NUM_CARDS]
    if current_player(s) == CHANCE_PLAYER:
        n = chance_outcomes(s, buf, prob)
        for i in range(n):
            if buf[i] == action:
                return True
        return False
    if action < 0 or action >= NUM_DECISIONS:
        return False
    legal_set(b, s, w)
    return (w[action >> 6] >> (action & 63)) & 1
