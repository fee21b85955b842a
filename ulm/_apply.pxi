# Chance events, applying a decision (pushing, taking, buying, the tasks) and playouts.
# (included by _fastcore.pyx: one compilation unit, so the C compiler inlines across files)

# ---------------------------------------------------------------------------
# Chance

cdef void grid_pool(const GameState* s, uint8_t* pool) noexcept nogil:
    cdef int c, i
    for c in range(NUM_COLOURS):
        pool[c] = GRID_START[c]
    for i in range(9):
        if s.grid[i] != NO_TILE:
            pool[s.grid[i]] -= 1

cdef int chance_outcomes(const GameState* s, int16_t* out, double* prob) noexcept nogil:
    cdef int t, n = 0, c, total = 0
    cdef uint8_t pool[NUM_COLOURS]
    cdef uint64_t bits
    if s.n_tasks == 0:
        return 0
    t = s.task[s.n_tasks - 1]
    if not is_chance_task(t):
        return 0
    if t == TK_GRID_FILL:
        grid_pool(s, pool)
    if t == TK_GRID_FILL or draws_from_bag(t):
        for c in range(NUM_COLOURS):
            if t != TK_GRID_FILL:
                pool[c] = s.bag[c]
            total += pool[c]
        for c in range(NUM_COLOURS):
            if pool[c] > 0:
                out[n] = C_TILE + c
                prob[n] = pool[c] / <double>total
                n += 1
        return n
    if t == TK_CARD_TO_HAND or t == TK_CARD_LOOK:
        bits = s.pile
        c = C_CARD
    elif t == TK_COAT_DRAW:
        bits = s.coat_unknown
        c = C_COAT
    elif t == TK_DESC_REVEAL:
        bits = 0
        for total in range(NUM_DESCENDANTS):
            if s.desc[total] == DESC_UNSEEN:
                bits |= bit(total)
        c = C_DESCENDANT
    else:  # TK_TOWER_REVEAL
        bits = s.tower_unseen
        c = C_TOWER
    total = popcount64(bits)
    while bits:
        out[n] = c + ctz64(bits)
        prob[n] = 1.0 / total
        n += 1
        bits &= bits - 1
    return n

cdef int sample_chance(const GameState* s, Rng* r) noexcept nogil:
    cdef int t = s.task[s.n_tasks - 1], c, x, s0, s1, s2, s3
    cdef uint8_t pool[NUM_COLOURS]
    cdef uint64_t bits
    if t == TK_GRID_FILL or draws_from_bag(t):
        if t == TK_GRID_FILL:
            grid_pool(s, pool)
        else:
            memcpy(pool, s.bag, sizeof(pool))
        # colour c is drawn when x falls in [pool[0] + .. + pool[c-1], .. + pool[c]):
        # c is then the number of running totals that are <= x (branch-free)
        s0 = pool[0]
        s1 = s0 + pool[1]
        s2 = s1 + pool[2]
        s3 = s2 + pool[3]
        x = rng_below(r, s3 + pool[4])
        return C_TILE + (x >= s0) + (x >= s1) + (x >= s2) + (x >= s3)
    if t == TK_CARD_TO_HAND or t == TK_CARD_LOOK:
        return C_CARD + nth_bit(s.pile, rng_below(r, popcount64(s.pile)))
    if t == TK_COAT_DRAW:
        return C_COAT + nth_bit(s.coat_unknown, rng_below(r, popcount64(s.coat_unknown)))
    if t == TK_DESC_REVEAL:
        bits = 0
        for c in range(NUM_DESCENDANTS):
            if s.desc[c] == DESC_UNSEEN:
                bits |= bit(c)
        return C_DESCENDANT + nth_bit(bits, rng_below(r, popcount64(bits)))
    return C_TOWER + nth_bit(s.tower_unseen, rng_below(r, popcount64(s.tower_unseen)))

cdef void apply_chance(const Board* b, GameState* s, int a) noexcept nogil:
    cdef int t = s.task[s.n_tasks - 1], arg = s.task_arg[s.n_tasks - 1], p = s.turn_player, x
    pop_task(s)
    if t == TK_GRID_FILL:
        s.grid[arg] = a - C_TILE
        return
    if draws_from_bag(t):
        x = a - C_TILE
        s.bag[x] -= 1
        if t == TK_PLAYER_TILE:
            s.players[arg].supply[x] += 1
        elif t == TK_DRAW_PUSH_TILE:
            s.drawn[arg] = x
        elif t == TK_DOCK_REFILL:  # R-DOCK-1
            s.docks[x] += 1
        else:  # TK_BAG_TO_SUPPLY
            s.players[p].supply[x] += 1
        return
    if t == TK_CARD_TO_HAND or t == TK_CARD_LOOK:
        x = a - C_CARD
        s.pile &= ~bit(x)
        if t == TK_CARD_TO_HAND:
            s.players[p].hand |= bit(x)
        elif s.n_looked_cards < 3:     # always, unless the state was set by hand
            s.looked_cards[s.n_looked_cards] = x
            s.n_looked_cards += 1
    elif t == TK_COAT_DRAW:
        x = a - C_COAT
        s.coat_unknown &= ~(1 << x)
        if s.n_looked_coats < 2:
            s.looked_coats[s.n_looked_coats] = x
            s.looked_coat_known[s.n_looked_coats] = 1 << p
            s.n_looked_coats += 1
    elif t == TK_DESC_REVEAL:
        s.desc[a - C_DESCENDANT] = DESC_ON_BOARD
    else:
        x = a - C_TOWER
        s.tower_unseen &= ~(1 << x)
        s.tower_next = x

# ---------------------------------------------------------------------------
# Applying a decision

cdef void take_from_dock(GameState* s, int p, int c) noexcept nogil:
    s.docks[c] -= 1
    s.players[p].supply[c] += 1
    push_task(s, TK_DOCK_REFILL, 0)

cdef void look_at_cards(GameState* s, int n) noexcept nogil:
    push_task(s, TK_CARD_KEEP, 0)
    while n > 0:
        push_task(s, TK_CARD_LOOK, 0)
        n -= 1

cdef void buy_card(GameState* s, int p, bint two) noexcept nogil:
    # R-ACT-CARD-1 / R-ACT-CARD-3: with two tiles of one colour, or with the
    # Councilman, the buyer may look at 2 (a choice once 2 cards are left)
    use_colour_action(s, BROWN)
    if (two or owns(s, p, COUNCILMAN)) and popcount64(s.pile | s.discard) >= 2:
        push_task(s, TK_BUY_MODE, 0)
    else:
        push_task(s, TK_CARD_TO_HAND, 0)

cdef void push_tile(GameState* s, int p, int e) noexcept nogil:
    # R-PUSH-2 .. R-PUSH-6
    cdef int before = 0, out_tile, i, c
    if owns(s, p, CITY_GUARD):
        before = monochrome_lines(s)
    out_tile = s.grid[PUSH_CELLS[e][2]]
    s.grid[PUSH_CELLS[e][2]] = s.grid[PUSH_CELLS[e][1]]
    s.grid[PUSH_CELLS[e][1]] = s.grid[PUSH_CELLS[e][0]]
    s.grid[PUSH_CELLS[e][0]] = s.drawn[0]
    s.drawn[0] = NO_TILE
    s.outer[PUSH_OUT[e]] = out_tile
    s.pushed_out_at = PUSH_OUT[e]
    if s.outer_mark[PUSH_OUT[e]] >= 0:
        s.players[s.outer_mark[PUSH_OUT[e]]].sparrows += 1
    if owns(s, p, CITY_GUARD) and (monochrome_lines(s) & ~before):
        add_vp(s, p, SRC_CITY_GUARD, 2)
    for i in range(3):
        c = s.grid[PUSH_CELLS[e][i]]
        s.avail[c] += 1
    s.phase = PH_ACTIONS

cdef void apply_task_decision(const Board* b, GameState* s, int a) noexcept nogil:
    cdef int t = s.task[s.n_tasks - 1], arg = s.task_arg[s.n_tasks - 1]
    cdef int p = s.turn_player, c, i, j
    cdef Player* pl = &s.players[p]
    pop_task(s)
    if t == TK_BUILDER_KEEP:  # R-DRAW-3
        c = a - A_PICK_COLOUR
        if s.drawn[0] == c:
            s.bag[s.drawn[1]] += 1
        else:
            s.bag[s.drawn[0]] += 1
        s.drawn[0] = c
        s.drawn[1] = NO_TILE
    elif t == TK_DOCK_CHOICE:
        take_from_dock(s, p, a - A_PICK_DOCK)
    elif t == TK_ABBOT_DOCK:  # R-ACT-CLEAR-2
        if a != A_NO_DOCK_TILE:
            take_from_dock(s, p, a - A_PICK_DOCK)
    elif t == TK_BUY_MODE:  # R-ACT-CARD-1
        if a == A_LOOK_TWO:
            look_at_cards(s, 2)
        else:
            push_task(s, TK_CARD_TO_HAND, 0)
    elif t == TK_TOWNHALL_CHOICE:
        if a == A_TAKE_COIN:
            pl.coins += 1
        else:
            take_from_dock(s, p, a - A_PICK_DOCK)
    elif t == TK_BARGE_MOVE:
        move_barge(b, s, p, a - A_BARGE)
    elif t == TK_CARD_KEEP:
        c = a - A_KEEP_CARD
        pl.hand |= bit(c)
        for i in range(s.n_looked_cards):
            if s.looked_cards[i] != c:
                s.discard |= bit(s.looked_cards[i])
        s.n_looked_cards = 0
    elif t == TK_GOOSE_CHOICE:
        if a == A_GOOSE_LOOK:
            look_at_cards(s, 3)
        else:
            c = a - A_TAKE_DISCARD
            s.discard &= ~bit(c)
            pl.hand |= bit(c)
            pl.known |= bit(c)  # taken face up (R-INFO-3a)
    elif t == TK_COAT_CHOICE:
        j = a - A_KEEP_COAT if a != A_RETURN_COAT else -1
        for i in range(s.n_looked_coats):
            if s.looked_coats[i] != j:
                coat_under_stack(s, s.looked_coats[i], p, s.looked_coat_known[i])
        s.n_looked_coats = 0
        if j >= 0:
            take_coat(b, s, p, j)
    elif t == TK_DESC_CHOICE:  # R-PRIV-OATH
        s.desc[a - A_DESCENDANT] = p
    elif t == TK_CHRONICLE_QUARTER:  # R-CH-ULMCHRON
        place_seal(b, s, p, a - A_QUARTER, 1)
    elif t == TK_AMOUNT:
        i = a - A_AMOUNT
        if arg == CARD_SIEGE:
            pl.coins -= i
            add_vp(s, p, SRC_SIEGE, 2 * i)
        else:
            pl.sparrows -= i
            pl.coins += i
    elif t == TK_FREEZE_CHOICE:
        if a == A_FREEZE_COINS:
            pl.coins += 2
        else:
            push_task(s, TK_BAG_TO_SUPPLY, 0)
            push_task(s, TK_BAG_TO_SUPPLY, 0)
    elif t == TK_REFORM_PICK:
        if a != A_STOP:
            i = a - A_OUTER
            pl.supply[s.outer[i]] += 1
            s.outer[i] = NO_TILE
            if arg > 1:
                push_task(s, TK_REFORM_PICK, arg - 1)
    elif t == TK_PAY_COLOUR:
        c = a - A_PICK_COLOUR
        pl.supply[c] -= 1
        s.bag[c] += 1
        add_vp(s, p, SRC_CATHEDRAL_UPPER, 6)
    elif t == TK_SWABIAN_COLOUR:  # R-CH-SWABIAN: an extra action (R-TURN-3)
        s.extra[a - A_PICK_COLOUR] += 1
    elif t == TK_PATRICIAN_COLOUR:  # R-DRAW-4
        c = a - A_PICK_COLOUR
        s.bag[c] -= 1
        s.drawn[0] = c
        s.phase = PH_PUSH
    elif t == TK_TOWER_PAYMENT:  # R-TOWER-1
        if a == A_TOWER_PENALTY:
            add_vp(s, p, SRC_TOWER_PENALTY, -5)
        elif a == A_TOWER_PAY_COINS:
            pl.coins -= 2
        else:
            i = a - A_TOWER_PAY_PAIR
            pl.supply[PAIR_A[i]] -= 1
            pl.supply[PAIR_B[i]] -= 1
            s.bag[PAIR_A[i]] += 1
            s.bag[PAIR_B[i]] += 1
        finish_turn(b, s)

cdef void apply_main_decision(const Board* b, GameState* s, int a) noexcept nogil:
    cdef int p = s.turn_player, c, d, i, k
    cdef Player* pl = &s.players[p]
    if a == A_DRAW or a == A_DRAW_TWO:
        draw_time_check(s)
        s.phase = PH_PUSH
        if a == A_DRAW_TWO:  # R-DRAW-3
            push_task(s, TK_BUILDER_KEEP, 0)
            push_task(s, TK_DRAW_PUSH_TILE, 1)
        push_task(s, TK_DRAW_PUSH_TILE, 0)
    elif a < A_JOKER:
        push_tile(s, p, a - A_PUSH)
    elif a < A_SCHOLAR:  # R-DRAW-5
        d = a - A_JOKER
        pl.sparrows -= 1
        s.docks[d] -= 1
        s.docks[s.drawn[0]] += 1
        s.drawn[0] = d
        s.draw_swap_used = 1
    elif a < A_MONEY:  # R-DRAW-6
        c = a - A_SCHOLAR
        pl.supply[c] -= 1
        pl.supply[s.drawn[0]] += 1
        s.drawn[0] = c
        s.draw_swap_used = 1
    elif a == A_MONEY:  # R-ACT-MONEY-1: the bonuses only for an activated tile
        pl.coins += money_per_action(s, p) if use_colour_action(s, GRAY) else 1
    elif a < A_BUY_PAIR:  # R-ACT-CLEAR-1
        d = a - A_CLEAR
        use_colour_action(s, WHITE)
        for i in range(3 * d, 3 * d + 3):
            if s.outer[i] != NO_TILE:
                pl.supply[s.outer[i]] += 1
                s.outer[i] = NO_TILE
        if owns(s, p, ABBOT):  # R-ACT-CLEAR-2
            push_task(s, TK_ABBOT_DOCK, 0)
    elif a < A_BUY_COIN:
        k = a - A_BUY_PAIR
        pl.supply[PAIR_A[k]] -= 1
        pl.supply[PAIR_B[k]] -= 1
        s.bag[PAIR_A[k]] += 1
        s.bag[PAIR_B[k]] += 1
        buy_card(s, p, PAIR_A[k] == PAIR_B[k])
    elif a == A_BUY_COIN:
        pl.coins -= 1
        buy_card(s, p, False)
    elif a < A_RIVER:
        c = a - A_BUY_TILE
        pl.supply[c] -= 1
        s.bag[c] += 1
        buy_card(s, p, False)
    elif a == A_RIVER:  # R-ACT-RIVER-1, R-RIVER-4
        if s.river_extra > 0:
            s.river_extra -= 1
        elif use_colour_action(s, TURQUOISE):  # the bonuses only for an activated tile
            s.river_extra += owns(s, p, BARGE_DRIVER) + tower_in_force(s, TOWER_T1)
        move_barge(b, s, p, 1)
    elif a < A_SEAL_WALL:
        use_seal_action(s)
        place_seal(b, s, p, a - A_SEAL, seal_cost(s))
    elif a < A_MERCHANT:
        use_card_play(s)
        leave_hand(pl, CARD_CITY_WALL)
        s.discard |= bit(CARD_CITY_WALL)
        use_seal_action(s)
        place_seal(b, s, p, a - A_SEAL_WALL, seal_cost(s))
    elif a < A_TAKE_PUSHED_OUT:
        c = (a - A_MERCHANT) // 5
        d = (a - A_MERCHANT) % 5
        pl.supply[c] -= 1
        s.docks[c] += 1
        s.docks[d] -= 1
        pl.supply[d] += 1
        s.merchant_used = 1
    elif a == A_TAKE_PUSHED_OUT:
        pl.supply[s.outer[s.pushed_out_at]] += 1
        s.outer[s.pushed_out_at] = NO_TILE
        s.t10_used = 1
    elif a < A_PLAY_LOWER:  # R-CARD-PLAY-1
        c = a - A_PLAY_UPPER
        use_card_play(s)
        leave_hand(pl, c)
        s.discard |= bit(c)
        play_upper(b, s, p, c)
    elif a < A_PICK_COLOUR:
        c = a - A_PLAY_LOWER
        use_card_play(s)
        leave_hand(pl, c)
        pl.front |= bit(c)
    elif a >= A_PICK_COLOUR and a < A_PICK_DOCK:  # T11 in the draw phase
        draw_time_check(s)
        if bag_total(s) == 0:
            refill_empty_bag(s)
        c = a - A_PICK_COLOUR
        s.bag[c] -= 1
        s.drawn[0] = c
        s.phase = PH_PUSH
    elif a == A_END_TURN:
        pass

cdef void apply_action(const Board* b, GameState* s, int a) noexcept nogil:
    """Apply a legal decision or chance outcome (unchecked: see is_legal)."""
    if s.n_tasks > 0:
        if is_chance_task(s.task[s.n_tasks - 1]):
            apply_chance(b, s, a)
        else:
            apply_task_decision(b, s, a)
    elif a == A_END_TURN:
        if has_towers(s) and (tower_in_force(s, TOWER_T8) or tower_in_force(s, TOWER_T9)):  # R-TOWER-T8/T9
            push_task(s, TK_TOWER_PAYMENT, 0)
        else:
            finish_turn(b, s)
    else:
        apply_main_decision(b, s, a)
    if s.n_tasks > 0:  # settle has nothing to do otherwise
        settle(b, s)

cdef void random_playout(const Board* b, GameState* s, Rng* r) noexcept nogil:
    cdef int a
    while True:
        if s.n_tasks > 0:
            if is_chance_task(s.task[s.n_tasks - 1]):  # apply_action, for a chance event
                apply_chance(b, s, sample_chance(s, r))
                if s.n_tasks > 0:
                    settle(b, s)
                continue
        elif s.phase == PH_GAME_OVER:
            return
        a = sample_legal(b, s, r)
        if a < 0:       # stuck: only a state set by hand gets here
            return
        apply_action(b, s, a)
