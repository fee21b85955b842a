# The turn: its start and end, the rounds, the set-up, who is to move, settling the tasks.
# (included by _fastcore.pyx: one compilation unit, so the C compiler inlines across files)

# ---------------------------------------------------------------------------
# Turn structure

cdef void draw_time_check(GameState* s) noexcept nogil:
    # R-DRAW-1: nothing can be pushed -> the outer tiles go back into the bag
    cdef int o
    if pushable_lines(s):
        return
    for o in range(NUM_OUTER):
        if s.outer[o] != NO_TILE:
            s.bag[s.outer[o]] += 1
            s.outer[o] = NO_TILE

cdef void refill_empty_bag(GameState* s) noexcept nogil:
    # R-DRAW-8
    cdef int c
    for c in range(NUM_COLOURS):
        s.bag[c] += 1
    s.tiles_added += NUM_COLOURS

cdef void start_turn(GameState* s, int p) noexcept nogil:
    s.turn_player = p
    s.phase = PH_BEFORE_DRAW
    s.free_play = 1
    memset(s.avail, 0, sizeof(s.avail))
    memset(s.extra, 0, sizeof(s.extra))  # unused extra actions lapse (R-TURN-3)
    s.t5_seal = 1 if tower_in_force(s, TOWER_T5) else 0
    s.river_extra = 0
    s.draw_swap_used = 0
    s.merchant_used = 0
    s.t10_used = 0
    s.pushed_out_at = -1
    s.drawn[0] = NO_TILE
    s.drawn[1] = NO_TILE

cdef void game_over(const Board* b, GameState* s) noexcept nogil:
    cdef int p, c
    cdef int16_t src[NUM_SOURCES]
    s.phase = PH_GAME_OVER
    for p in range(s.num_players):
        end_bonus(b, s, p, src)
        for c in range(SRC_END_SPARROWS, NUM_SOURCES):
            add_vp(s, p, c, src[c])

cdef void finish_turn(const Board* b, GameState* s) noexcept nogil:
    if s.turn_player + 1 < s.num_players:
        start_turn(s, s.turn_player + 1)
        return
    s.round += 1
    if s.round >= NUM_ROUNDS:  # R-END-1
        game_over(b, s)
    else:
        push_task(s, TK_ROUND_START, 0)

cdef void round_start(GameState* s) noexcept nogil:
    # R-ROUND-1: the next tower tile goes onto the Cathedral, the one after is shown
    if has_towers(s):
        s.tower_current = s.tower_next
        s.tower_next = NO_TOWER
        if s.round < NUM_ROUNDS - 1:
            push_task(s, TK_TOWER_REVEAL, 0)
    start_turn(s, 0)

cdef bint can_pay_tower(const GameState* s, int p) noexcept nogil:
    if tower_in_force(s, TOWER_T8):
        return supply_total(&s.players[p]) >= 2
    return s.players[p].coins >= 2

cdef void state_init(GameState* s, int num_players, int variant) noexcept nogil:
    """The state before set-up: the set-up's random draws are its first chance events."""
    cdef int p, i
    memset(s, 0, sizeof(GameState))
    s.num_players = num_players
    s.variant = variant
    s.tower_current = NO_TOWER
    s.tower_next = NO_TOWER
    s.pushed_out_at = -1
    for i in range(9):
        s.grid[i] = NO_TILE
    for i in range(NUM_OUTER):
        s.outer[i] = NO_TILE
        s.outer_mark[i] = -1
    for i in range(NUM_COLOURS):
        s.bag[i] = BAG_START[i]
        s.docks[i] = 1
    s.pile = bit(NUM_CARDS) - 1           # R-SETUP-1
    s.coat_unknown = (1 << NUM_COATS) - 1  # R-SETUP-3
    for i in range(NUM_COATS):
        s.coat_owner[i] = -1
    for i in range(NUM_QUARTERS):
        s.crest_owner[i] = -1
    for i in range(NUM_DESCENDANTS):
        s.desc[i] = DESC_UNSEEN
    s.tower_unseen = (1 << NUM_TOWER) - 1
    s.drawn[0] = NO_TILE
    s.drawn[1] = NO_TILE
    for p in range(num_players):  # R-SETUP-5
        s.players[p].coins = 2
        s.players[p].sparrows = 2
        s.players[p].seals_left = SEALS_PER_PLAYER
        s.players[p].crests_left = CRESTS_PER_PLAYER
        add_vp(s, p, SRC_START, 5)
    # set-up draws, run from the top of the stack down
    push_task(s, TK_ROUND_START, 0)
    if has_towers(s):
        push_task(s, TK_TOWER_REVEAL, 0)  # R-SETUP-6: the tile for round 1
    for i in range(DESC_LAID_OUT):
        push_task(s, TK_DESC_REVEAL, 0)   # R-SETUP-2
    for p in range(num_players - 1, -1, -1):
        push_task(s, TK_PLAYER_TILE, p)
    for i in range(8, -1, -1):
        push_task(s, TK_GRID_FILL, i)     # R-SETUP-4

cdef void settle(const Board* b, GameState* s) noexcept nogil:
    """Run everything automatic until a decision, a chance event or the end."""
    cdef int t, p, c, i
    cdef Player* pl
    while s.n_tasks > 0:
        t = s.task[s.n_tasks - 1]
        p = s.turn_player
        pl = &s.players[p]
        if t == TK_ROUND_START:
            pop_task(s)
            round_start(s)
        elif draws_from_bag(t):
            if bag_total(s) == 0:
                refill_empty_bag(s)
            return
        elif t == TK_CARD_TO_HAND or t == TK_CARD_LOOK:
            if s.pile == 0 and s.discard != 0:  # R-CARD-GET-2
                reshuffle(s)
            if s.pile != 0:
                return
            pop_task(s)
        elif t == TK_COAT_DRAW:
            if s.coat_unknown != 0:
                return
            if s.coat_tail_len > 0 and s.n_looked_coats < 2:  # only coats put under are left
                s.looked_coats[s.n_looked_coats] = s.coat_tail[0]
                s.looked_coat_known[s.n_looked_coats] = s.coat_tail_known[0] | (1 << p)
                s.n_looked_coats += 1
                s.coat_tail_len -= 1
                for i in range(s.coat_tail_len):
                    s.coat_tail[i] = s.coat_tail[i + 1]
                    s.coat_tail_by[i] = s.coat_tail_by[i + 1]
                    s.coat_tail_known[i] = s.coat_tail_known[i + 1]
                s.coat_tail[s.coat_tail_len] = 0
                s.coat_tail_by[s.coat_tail_len] = 0
                s.coat_tail_known[s.coat_tail_len] = 0
            pop_task(s)
        elif t == TK_CARD_KEEP:
            if s.n_looked_cards > 1:
                return
            if s.n_looked_cards == 1:
                pl.hand |= bit(s.looked_cards[0])
            s.n_looked_cards = 0
            pop_task(s)
        elif t == TK_COAT_CHOICE:
            for i in range(s.n_looked_coats):
                if coat_keepable(b, s, p, s.looked_coats[i]):
                    return
            for i in range(s.n_looked_coats):  # R-COAT-2: keep neither
                coat_under_stack(s, s.looked_coats[i], p, s.looked_coat_known[i])
            s.n_looked_coats = 0
            pop_task(s)
        elif t == TK_DOCK_CHOICE or t == TK_ABBOT_DOCK:
            if dock_total(s) > 0:
                return
            pop_task(s)
        elif t == TK_GOOSE_CHOICE:
            if cards_left(s):
                return
            pop_task(s)
        elif t == TK_REFORM_PICK:
            for i in range(NUM_OUTER):
                if s.outer[i] != NO_TILE:
                    return
            pop_task(s)
        elif t == TK_BARGE_MOVE:
            if free_spaces_ahead(s, p, 1) > 0:
                return
            pop_task(s)
        elif t == TK_DESC_CHOICE:
            for i in range(NUM_DESCENDANTS):
                if s.desc[i] == DESC_ON_BOARD:
                    return
            pop_task(s)
        elif t == TK_TOWER_PAYMENT:
            if can_pay_tower(s, p):
                return
            pop_task(s)
            add_vp(s, p, SRC_TOWER_PENALTY, -5)
            finish_turn(b, s)
        else:
            return
