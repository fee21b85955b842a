# cython: language_level=3
"""The compiled core of Ulm (see _fastcore.pxd for the state and the enums).

Everything from ``state_init`` to ``random_playout`` is plain C (nogil): the
state is one struct, a clone is a struct copy, and no step of a game touches a
Python object. The Python classes ``Game`` and ``State`` at the bottom wrap it.
Rule IDs refer to docs/rules.md.
"""

from libc.string cimport memset, memcpy
from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint32_t, uint64_t

cdef extern from *:
    int popcount64 "__builtin_popcountll"(unsigned long long) nogil
    int ctz64 "__builtin_ctzll"(unsigned long long) nogil

# BMI2's pdep deposits the low bits of its first operand at the set bits of the
# second: pdep(1 << k, w) keeps just the k-th set bit of w. setup.py enables it
# only on CPUs where it is fast (see cpu_flags there).
cdef extern from *:
    """
    #if defined(__BMI2__)
    #include <immintrin.h>
    #define ULM_PDEP 1
    #define ulm_pdep64(x, mask) _pdep_u64((x), (mask))
    #else
    #define ULM_PDEP 0
    #define ulm_pdep64(x, mask) 0
    #endif
    """
    const int ULM_PDEP
    unsigned long long pdep64 "ulm_pdep64"(unsigned long long, unsigned long long) nogil

# ---------------------------------------------------------------------------
# Names, in enum order (the Python side of the one place for each fact)

COLOURS = ("gray", "white", "brown", "turquoise", "orange")
COLOUR_ACTIONS = ("Money", "Clear-away", "Card", "River", "Seal")
QUARTERS = ("Tillage", "Leaning House", "Garden", "Oath House", "Town Hall",
            "Shipyard", "Reichenauer Hof", "Goose Tower")
DESCENDANTS = ("Abbot", "Builder", "Scholar", "Merchant", "Mint Master",
               "Councilman", "City Guard", "Barge Driver")
_ROMAN = ("I", "II", "III", "IV", "V")
CARDS = tuple(
    [f"{part} {_ROMAN[i]}" for part in ("Steeple", "Nave", "Choir") for i in range(3)]
    + [f"{kind} {_ROMAN[i]}" for kind in ("Works of Art", "Commercial Goods", "Fustian")
       for i in range(5)]
    + ["Ulm Chronicle", "City Wall", "Construction Freeze", "Fishermen's Jousting",
       "Patrician", "Reformation", "Siege", "Swabian League", "Ulm Sparrow"])
COATS = ("G-Tillage", "G-Leaning", "G-Garden", "G-Oath", "G-TownHall", "G-Shipyard",
         "G-Reichenau", "G-Goose", "S-1", "S-2", "S-3", "S-4")
TOWER_TILES = tuple(f"T{i + 1}" for i in range(NUM_TOWER))
SIDES = ("top", "right", "bottom", "left")
SOURCES = ("start", "City Guard", "Reichenauer Hof", "coats of arms", "crests",
           "cathedral cards (upper)", "trade cards (upper)", "Siege", "tower penalties",
           "sparrows", "river", "cathedral cards", "trade cards", "chronicle cards")
NUM_PLAY_SOURCES = SRC_END_SPARROWS
RIVER_BONUSES = ("none", "coin", "sparrow", "dock tile", "card")
PUSH_ENTRIES = tuple(
    [f"row {r + 1} from left" for r in range(3)] + [f"row {r + 1} from right" for r in range(3)]
    + [f"column {c + 1} from top" for c in range(3)]
    + [f"column {c + 1} from bottom" for c in range(3)])
SEATS = ("Red", "Blue", "Green", "Yellow")  # the players' colours, by seat
PHASES = ("before draw", "push", "actions", "game over")
TASKS = {TK_GRID_FILL: "grid fill", TK_PLAYER_TILE: "player tile", TK_DESC_REVEAL: "descendant reveal",
         TK_TOWER_REVEAL: "tower reveal", TK_DRAW_PUSH_TILE: "draw tile to push",
         TK_DOCK_REFILL: "dock refill", TK_CARD_TO_HAND: "card to hand", TK_CARD_LOOK: "look at card",
         TK_COAT_DRAW: "coat draw", TK_BAG_TO_SUPPLY: "bag tile to supply",
         TK_ROUND_START: "round start", TK_BUILDER_KEEP: "builder keep", TK_DOCK_CHOICE: "dock choice",
         TK_BARGE_MOVE: "barge move", TK_CARD_KEEP: "card keep", TK_COAT_CHOICE: "coat choice",
         TK_DESC_CHOICE: "descendant choice", TK_TOWNHALL_CHOICE: "town hall choice",
         TK_GOOSE_CHOICE: "goose tower choice", TK_CHRONICLE_QUARTER: "chronicle quarter",
         TK_AMOUNT: "amount", TK_FREEZE_CHOICE: "freeze choice", TK_REFORM_PICK: "reformation pick",
         TK_PAY_COLOUR: "cathedral payment", TK_SWABIAN_COLOUR: "swabian colour",
         TK_PATRICIAN_COLOUR: "patrician colour", TK_TOWER_PAYMENT: "tower payment",
         TK_BUY_MODE: "buy mode", TK_ABBOT_DOCK: "abbot dock choice"}
CHANCE_TASKS = tuple(range(1, TK_LAST_CHANCE + 1))
CHANCE = CHANCE_PLAYER
TERMINAL = TERMINAL_PLAYER
ACTION_COUNT = NUM_ACTIONS
RIVER_LENGTH = RIVER_LEN
STATE_BYTES = sizeof(GameState)  # a clone copies this much
DESC_ON_BOARD_ = DESC_ON_BOARD
DESC_UNSEEN_ = DESC_UNSEEN
TILES_PER_COLOUR_ = TILES_PER_COLOUR
DESCENDANTS_LAID_OUT = DESC_LAID_OUT
DECISION_COUNT = NUM_DECISIONS

# ---------------------------------------------------------------------------
# Static tables

cdef int8_t PAIR_A[NUM_PAIRS]
cdef int8_t PAIR_B[NUM_PAIRS]
cdef int8_t PAIR_INDEX[5][5]
cdef int8_t PUSH_CELLS[12][3]   # entry cell first, far end last
cdef int8_t PUSH_IN[12]         # outer space at the entry end
cdef int8_t PUSH_OUT[12]        # outer space the far tile is pushed onto
cdef int8_t LINES[8][3]         # rows, columns, diagonals (R-PUSH-6)
# the 9 tiles laid in the grid at set-up (R-SETUP-4), by colour
cdef uint8_t GRID_START[NUM_COLOURS]
# the bag at set-up: 10 of each colour less the grid and the 5 docks
cdef uint8_t BAG_START[NUM_COLOURS]

cdef void _init_tables():
    cdef int a, b, k = 0, r, c, e
    for a in range(5):
        for b in range(a, 5):
            PAIR_A[k] = a
            PAIR_B[k] = b
            PAIR_INDEX[a][b] = k
            PAIR_INDEX[b][a] = k
            k += 1
    for e in range(12):
        for k in range(3):
            PUSH_CELLS[e][k] = push_cell(e, k)
    for r in range(3):
        # outer spaces are numbered clockwise from the top-left (section 7)
        PUSH_IN[r] = 11 - r; PUSH_OUT[r] = 3 + r
        PUSH_IN[3 + r] = 3 + r; PUSH_OUT[3 + r] = 11 - r
    for c in range(3):
        PUSH_IN[6 + c] = c; PUSH_OUT[6 + c] = 8 - c
        PUSH_IN[9 + c] = 8 - c; PUSH_OUT[9 + c] = c
    for r in range(3):
        LINES[r][0] = 3 * r; LINES[r][1] = 3 * r + 1; LINES[r][2] = 3 * r + 2
        LINES[3 + r][0] = r; LINES[3 + r][1] = 3 + r; LINES[3 + r][2] = 6 + r
    LINES[6][0] = 0; LINES[6][1] = 4; LINES[6][2] = 8
    LINES[7][0] = 2; LINES[7][1] = 4; LINES[7][2] = 6
    GRID_START[GRAY] = 2; GRID_START[WHITE] = 2; GRID_START[BROWN] = 1
    GRID_START[TURQUOISE] = 2; GRID_START[ORANGE] = 2
    for c in range(NUM_COLOURS):
        BAG_START[c] = TILES_PER_COLOUR - GRID_START[c] - 1

_init_tables()

PAIRS = tuple((int(PAIR_A[k]), int(PAIR_B[k])) for k in range(NUM_PAIRS))
PUSH_LINE_CELLS = tuple(tuple(int(PUSH_CELLS[e][i]) for i in range(3)) for e in range(12))
PUSH_ENTRY_OUTER = tuple(int(PUSH_IN[e]) for e in range(12))
PUSH_EXIT_OUTER = tuple(int(PUSH_OUT[e]) for e in range(12))

# ---------------------------------------------------------------------------
# Random numbers: splitmix64 (one 64-bit word of state, so states clone freely)

cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    """splitmix64's finaliser: a bijection that scrambles every bit into every other."""
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)

cdef uint64_t mix_seed(uint64_t seed, uint64_t stream) noexcept nogil:
    """The one seed-mixing function: the seed of sub-stream `stream` of `seed`.
    Neighbouring seeds and neighbouring streams give unrelated results."""
    return mix64(mix64(seed + <uint64_t>0x9E3779B97F4A7C15)
                 + <uint64_t>0xD1B54A32D192ED03 * (stream + 1))

cdef void rng_seed(Rng* r, uint64_t seed) noexcept nogil:
    # mixed: with `seed * phi + c`, seed n+1's stream was seed n's one step on
    r.s = mix_seed(seed, 0)

cdef uint64_t rng_next(Rng* r) noexcept nogil:
    r.s += <uint64_t>0x9E3779B97F4A7C15
    return mix64(r.s)

cdef uint32_t rng_below(Rng* r, uint32_t n) noexcept nogil:
    return <uint32_t>(((rng_next(r) >> 32) * <uint64_t>n) >> 32)

# SELECT_IN_BYTE[x][k]: the index of the k-th set bit of the byte x (k < popcount(x))
cdef uint8_t SELECT_IN_BYTE[256][8]

cdef void _init_select_table():
    cdef int x, k, i
    for x in range(256):
        k = 0
        for i in range(8):
            SELECT_IN_BYTE[x][i] = 0
        for i in range(8):
            if (x >> i) & 1:
                SELECT_IN_BYTE[x][k] = i
                k += 1

_init_select_table()

cdef inline int select_bit(uint64_t w, int k) noexcept nogil:
    """The index of the k-th set bit of w (k < popcount(w)). The decision a
    playout applies waits for it, so its latency counts: pdep where the build
    has it, else halving down to a byte without branches (a random k makes
    them coin tosses), then a table."""
    cdef int pos = 0, c, step
    if ULM_PDEP:  # a constant: the compiler keeps one of the two ways
        return ctz64(pdep64((<uint64_t>1) << k, w))
    c = popcount64(w & <uint64_t>0xFFFFFFFF)
    step = (<int>(k >= c)) << 5
    k -= c & -(<int>(k >= c))
    w >>= step
    pos += step
    c = popcount64(w & 0xFFFF)
    step = (<int>(k >= c)) << 4
    k -= c & -(<int>(k >= c))
    w >>= step
    pos += step
    c = popcount64(w & 0xFF)
    step = (<int>(k >= c)) << 3
    k -= c & -(<int>(k >= c))
    w >>= step
    pos += step
    return pos + SELECT_IN_BYTE[w & 0xFF][k & 7]

cdef inline int nth_bit(uint64_t bits, int n) noexcept nogil:
    if n >= popcount64(bits):  # nothing to draw: only in a state no game reaches
        return 0
    return select_bit(bits, n)

cdef inline uint64_t bit(int i) noexcept nogil:
    return (<uint64_t>1) << i

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

cdef inline bint is_chance_task(int t) noexcept nogil:
    return 0 < t <= TK_LAST_CHANCE

cdef inline bint draws_from_bag(int t) noexcept nogil:
    return (t == TK_PLAYER_TILE or t == TK_DRAW_PUSH_TILE or t == TK_DOCK_REFILL
            or t == TK_BAG_TO_SUPPLY or t == TK_PATRICIAN_COLOUR)

cdef int quarters_with_seal(const GameState* s, int p) noexcept nogil:
    cdef int q, n = 0
    for q in range(NUM_QUARTERS):
        if s.players[p].seals_in[q] > 0:
            n += 1
    return n

cdef bint quarter_free(const Board* b, const GameState* s, int q) noexcept nogil:
    return s.quarter_seals[q] < b.capacity[q]

cdef int monochrome_lines(const GameState* s) noexcept nogil:
    """Bit i set when line i of the grid holds 3 tiles of one colour."""
    cdef int i, m = 0
    for i in range(8):
        if s.grid[LINES[i][0]] == s.grid[LINES[i][1]] and s.grid[LINES[i][1]] == s.grid[LINES[i][2]]:
            m |= 1 << i
    return m

# ---------------------------------------------------------------------------
# River (R-RIVER-*)

cdef int next_free_space(const GameState* s, int p, int idx) noexcept nogil:
    """The next river index after idx that holds no other barge, or -1: one
    mask of the other barges, without branches (where they are is a coin toss
    in a random game)."""
    cdef uint64_t taken = 0, free
    cdef int q
    for q in range(s.num_players):
        taken |= bit(s.players[q].barge) & -<uint64_t>(q != p)
    free = ~taken & (bit(RIVER_LEN) - 1) & ~(bit(idx + 1) - 1)
    return ctz64(free) if free else -1

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

cdef void move_barge(const Board* b, GameState* s, int p, int k) noexcept nogil:
    """Advance k free spaces at once; only the final space's bonus applies (R-RIVER-3)."""
    cdef int i, moved = 0, idx
    for i in range(k):
        idx = next_free_space(s, p, s.players[p].barge)
        if idx < 0:
            break
        s.players[p].barge = idx
        moved += 1
    if moved > 0:
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
    if s.advanced:
        s.tower_current = s.tower_next
        s.tower_next = NO_TOWER
        if s.round < NUM_ROUNDS - 1:
            push_task(s, TK_TOWER_REVEAL, 0)
    start_turn(s, 0)

cdef bint can_pay_tower(const GameState* s, int p) noexcept nogil:
    if tower_in_force(s, TOWER_T8):
        return supply_total(&s.players[p]) >= 2
    return s.players[p].coins >= 2

cdef void state_init(GameState* s, int num_players, int advanced) noexcept nogil:
    """The state before set-up: the set-up's random draws are its first chance events."""
    cdef int p, i
    memset(s, 0, sizeof(GameState))
    s.num_players = num_players
    s.advanced = advanced
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
    if advanced:
        push_task(s, TK_TOWER_REVEAL, 0)  # R-SETUP-6: the tile for round 1
    for i in range(DESC_LAID_OUT):
        push_task(s, TK_DESC_REVEAL, 0)   # R-SETUP-2
    for p in range(num_players - 1, -1, -1):
        push_task(s, TK_PLAYER_TILE, p)
    for i in range(8, -1, -1):
        push_task(s, TK_GRID_FILL, i)     # R-SETUP-4

cdef int current_player(const GameState* s) noexcept nogil:
    if s.n_tasks > 0:
        if is_chance_task(s.task[s.n_tasks - 1]):
            return CHANCE_PLAYER
        return s.turn_player
    if s.phase == PH_GAME_OVER:
        return TERMINAL_PLAYER
    return s.turn_player

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
        if s.advanced and (tower_in_force(s, TOWER_T8) or tower_in_force(s, TOWER_T9)):  # R-TOWER-T8/T9
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

cdef int action_for_observer(const GameState* s, int action, int observer) noexcept nogil:
    """A decision as `observer` sees it: which card an opponent keeps is hidden."""
    if (action >= A_KEEP_CARD and action < A_KEEP_CARD + NUM_CARDS
            and s.turn_player != observer):
        return HIDDEN_CARD_KEEP
    return action

include "_api.pxi"
