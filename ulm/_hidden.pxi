# Hidden information (RULES section 12): what an observer cannot see, determinization.
# (included by _fastcore.pyx: one compilation unit, so the C compiler inlines across files)

# ---------------------------------------------------------------------------
# Hidden information (RULES section 12)

cdef void shuffle8(int8_t* a, int n, Rng* r) noexcept nogil:
    cdef int i, j
    cdef int8_t x
    for i in range(n - 1, 0, -1):
        j = rng_below(r, i + 1)
        x = a[i]; a[i] = a[j]; a[j] = x

cdef void sort8(int8_t* a, int n) noexcept nogil:
    cdef int i, j
    cdef int8_t x
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x

cdef uint64_t hidden_cards(const GameState* s, int observer) noexcept nogil:
    """The cards whose place `observer` does not know: the draw pile, the opponents'
    hand cards drawn face down, the cards an opponent is looking at (R-INFO-3)."""
    cdef uint64_t bits = s.pile
    cdef int p, i
    for p in range(s.num_players):
        if p != observer:
            bits |= s.players[p].hand & ~s.players[p].known
    if s.turn_player != observer:
        for i in range(s.n_looked_cards):
            bits |= bit(s.looked_cards[i])
    return bits

cdef void determinize(GameState* s, int observer, Rng* r) noexcept nogil:
    """Redeal what `observer` cannot see, uniformly among the states it cannot
    tell apart (R-INFO-3): each hidden card only among the places a card of its
    reshuffle group can be (the pile holds the last group; a hand keeps the
    group counts of its hidden cards); cards taken face up stay where they are;
    the coat stack except the coats the observer knows (R-COAT-4). The bag, the
    tower stack and the unused Descendants are sets whose draws are chance
    events, so they need no redeal."""
    cdef int8_t pool[NUM_CARDS]
    cdef int n, p, k, i, take, g
    cdef uint64_t rest = hidden_cards(s, observer), group, bits, hid
    cdef bint looked_hidden = s.turn_player != observer and s.n_looked_cards > 0
    # cards, one reshuffle group at a time
    while rest:
        g = s.card_group[ctz64(rest)]
        group = rest
        if s.reshuffles > 0:  # more than one group may be hidden
            group = 0
            bits = rest
            while bits:
                i = ctz64(bits)
                if s.card_group[i] == g:
                    group |= bit(i)
                bits &= bits - 1
        rest &= ~group
        n = 0
        bits = group
        while bits:
            pool[n] = ctz64(bits)
            n += 1
            bits &= bits - 1
        shuffle8(pool, n, r)
        k = 0
        for p in range(s.num_players):
            if p == observer:
                continue
            hid = s.players[p].hand & ~s.players[p].known & group
            take = popcount64(hid)
            s.players[p].hand &= ~hid
            for i in range(take):
                s.players[p].hand |= bit(pool[k])
                k += 1
        if looked_hidden:
            for i in range(s.n_looked_cards):
                if group & bit(s.looked_cards[i]):
                    s.looked_cards[i] = pool[k]
                    k += 1
        if s.pile & group:
            s.pile &= ~group
            while k < n:
                s.pile |= bit(pool[k])
                k += 1
    # coats: the unknown top, coats under the stack and coats being looked at
    # that the observer does not know
    n = 0
    bits = s.coat_unknown
    while bits:
        pool[n] = ctz64(bits)
        n += 1
        bits &= bits - 1
    for i in range(s.coat_tail_len):
        if not (s.coat_tail_known[i] >> observer) & 1:
            pool[n] = s.coat_tail[i]
            n += 1
    for i in range(s.n_looked_coats):
        if not (s.looked_coat_known[i] >> observer) & 1:
            pool[n] = s.looked_coats[i]
            n += 1
    sort8(pool, n)  # the pool's order must not tell where the hidden coats were
    shuffle8(pool, n, r)
    k = 0
    for i in range(s.coat_tail_len):
        if not (s.coat_tail_known[i] >> observer) & 1:
            s.coat_tail[i] = pool[k]
            k += 1
    for i in range(s.n_looked_coats):
        if not (s.looked_coat_known[i] >> observer) & 1:
            s.looked_coats[i] = pool[k]
            k += 1
    s.coat_unknown = 0
    while k < n:
        s.coat_unknown |= <uint16_t>(1 << pool[k])
        k += 1
