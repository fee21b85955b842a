# Cards: playing them, reshuffles, and the end-game scoring.
# (included by _fastcore.pyx: one compilation unit, so the C compiler inlines across files)

# ---------------------------------------------------------------------------
# Cards

cdef inline bint can_play_card(const GameState* s) noexcept nogil:
    # R-CARD-PLAY-2: the free play, or a card action (option b)
    return s.free_play or action_count(s, BROWN) > 0

cdef inline void use_card_play(GameState* s) noexcept nogil:
    if s.free_play:
        s.free_play = 0
    else:
        use_colour_action(s, BROWN)

cdef inline bint cards_left(const GameState* s) noexcept nogil:
    return s.pile != 0 or s.discard != 0

cdef inline void leave_hand(Player* pl, int c) noexcept nogil:
    pl.hand &= ~bit(c)
    pl.known &= ~bit(c)

cdef void reshuffle(GameState* s) noexcept nogil:
    # R-CARD-GET-2: the discard pile becomes the draw pile; everyone knows its
    # cards, so they form a new group (R-INFO-3b)
    cdef uint64_t bits = s.discard
    if s.reshuffles < 255:  # (never reached in a real game; older groups would merge)
        s.reshuffles += 1
    while bits:
        s.card_group[ctz64(bits)] = s.reshuffles
        bits &= bits - 1
    s.pile = s.discard
    s.discard = 0

cdef bint upper_playable(const Board* b, const GameState* s, int p, int c) noexcept nogil:
    cdef const Player* pl = &s.players[p]
    cdef int i = pl.barge
    if c < CARD_ART:
        return pl.supply[b.cathedral_colours[c][0]] > 0 or pl.supply[b.cathedral_colours[c][1]] > 0
    if c < CARD_ULM_CHRONICLE:
        return pl.supply[b.trade_cost[(c - CARD_ART) % 5]] > 0
    if c == CARD_ULM_CHRONICLE:
        return can_seal_basics(s, p, 1) and (quarter_free(b, s, b.north_of[i])
                                             or quarter_free(b, s, b.south_of[i]))
    if c == CARD_CITY_WALL:
        return False  # played only with a seal action: A_SEAL_WALL
    if c == CARD_PATRICIAN:
        return s.phase == PH_BEFORE_DRAW
    if c == CARD_SWABIAN:
        return supply_total(pl) > 0
    return True

cdef void play_upper(const Board* b, GameState* s, int p, int c) noexcept nogil:
    cdef Player* pl = &s.players[p]
    cdef int colour, kind
    if c < CARD_ART:  # R-CARD-CATH-UPPER
        push_task(s, TK_PAY_COLOUR, c)
        return
    if c < CARD_ULM_CHRONICLE:
        kind = (c - CARD_ART) // 5
        colour = b.trade_cost[(c - CARD_ART) % 5]
        pl.supply[colour] -= 1
        s.bag[colour] += 1
        if kind == 0:    # R-CARD-ART
            pl.coins += 1
            add_vp(s, p, SRC_TRADE_UPPER, 2)
            push_task(s, TK_BARGE_MOVE, 2)
        elif kind == 1:  # R-CARD-GOODS
            pl.coins += 3
            push_task(s, TK_BARGE_MOVE, 2)
        else:            # R-CARD-FUSTIAN
            pl.coins += 2
            add_vp(s, p, SRC_TRADE_UPPER, 1)
            push_task(s, TK_BARGE_MOVE, 3)
        return
    if c == CARD_ULM_CHRONICLE:
        push_task(s, TK_CHRONICLE_QUARTER, 0)
    elif c == CARD_FREEZE:
        push_task(s, TK_FREEZE_CHOICE, 0)
    elif c == CARD_JOUST:
        push_task(s, TK_BARGE_MOVE, 4)
    elif c == CARD_PATRICIAN:
        draw_time_check(s)
        push_task(s, TK_PATRICIAN_COLOUR, 0)
    elif c == CARD_REFORMATION:
        push_task(s, TK_REFORM_PICK, 2)
    elif c == CARD_SIEGE or c == CARD_SPARROW:
        push_task(s, TK_AMOUNT, c)
    elif c == CARD_SWABIAN:
        push_task(s, TK_SWABIAN_COLOUR, 0)

cdef int trade_sets_bonus(int a, int g, int f) noexcept nogil:
    # R-CARD-TRADE-LOWER: the best partition into sets of one kind (+6) and of
    # three kinds (+3), each card in at most one set
    cdef int d, best = 0, v, most = a
    if g < most:
        most = g
    if f < most:
        most = f
    for d in range(most + 1):
        v = 3 * d + 6 * ((a - d) // 3 + (g - d) // 3 + (f - d) // 3)
        if v > best:
            best = v
    return best

cdef inline int count_range(uint64_t cards, int first, int n) noexcept nogil:
    return popcount64((cards >> first) & ((bit(n)) - 1))

cdef int end_bonus(const Board* b, const GameState* s, int p, int16_t* by_source) noexcept nogil:
    """End-game points of p (R-END-2), by source; returns their sum."""
    cdef const Player* pl = &s.players[p]
    cdef uint64_t front = pl.front
    cdef int total = 0, n, v, q, o, ahead, best, c
    cdef int sp = pl.sparrows
    for c in range(NUM_SOURCES):
        by_source[c] = 0
    # sparrows; the Ulm Sparrow lower bonus doubles up to 5 (R-CH-SPARROW)
    if front & bit(CARD_SPARROW):
        v = 2 * sp if sp <= 5 else 10 + (sp - 5)
    else:
        v = sp
    by_source[SRC_END_SPARROWS] = v
    by_source[SRC_END_RIVER] = b.river_value[pl.barge]
    # R-CARD-CATH-LOWER
    n = count_range(front, 0, 9)
    v = count_range(front, CARD_STEEPLE, 3)
    if count_range(front, CARD_NAVE, 3) < v:
        v = count_range(front, CARD_NAVE, 3)
    if count_range(front, CARD_CHOIR, 3) < v:
        v = count_range(front, CARD_CHOIR, 3)
    by_source[SRC_END_CATHEDRAL] = 3 * n + 9 * v
    # R-CARD-TRADE-LOWER
    n = count_range(front, CARD_ART, 15)
    by_source[SRC_END_TRADE] = 3 * n + trade_sets_bonus(
        count_range(front, CARD_ART, 5), count_range(front, CARD_GOODS, 5),
        count_range(front, CARD_FUSTIAN, 5))
    # chronicle lower bonuses (section 9)
    v = 0
    if front & bit(CARD_ULM_CHRONICLE):
        v += 2 * popcount64(pl.coats)
    if front & bit(CARD_CITY_WALL):
        for q in range(NUM_QUARTERS):
            if pl.seals_in[q] == 0:
                continue
            best = 1
            for o in range(s.num_players):
                if o != p and s.players[o].seals_in[q] >= pl.seals_in[q]:
                    best = 0
            v += 2 * best
    if front & bit(CARD_FREEZE):
        v += pl.coins if pl.coins < 6 else 6
    if front & bit(CARD_JOUST):
        ahead = 0
        for o in range(s.num_players):
            if o != p and s.players[o].barge > pl.barge:
                ahead += 1
        v += 6 if ahead == 0 else (3 if ahead == 1 else 0)
    if front & bit(CARD_PATRICIAN):
        v += 4
    if front & bit(CARD_REFORMATION):
        v += 2 * count_range(front, 0, 9)
    if front & bit(CARD_SIEGE):
        v += popcount64(front)
    if front & bit(CARD_SWABIAN):
        for c in range(NUM_COLOURS):
            if pl.supply[c] > 0:
                v += 2
    by_source[SRC_END_CHRONICLE] = v
    for c in range(SRC_END_SPARROWS, NUM_SOURCES):
        total += by_source[c]
    return total

cdef int winners(const Board* b, const GameState* s, int* won) noexcept nogil:
    """R-END-3: most VP, then most quarters with a seal; ties share."""
    cdef int p, best = -32768, bestq = -1, n = 0, q
    for p in range(s.num_players):
        q = quarters_with_seal(s, p)
        if s.players[p].score > best or (s.players[p].score == best and q > bestq):
            best = s.players[p].score
            bestq = q
    for p in range(s.num_players):
        won[p] = s.players[p].score == best and quarters_with_seal(s, p) == bestq
        n += won[p]
    return n
