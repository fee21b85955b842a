# cython: language_level=3
# The compiled core of Ulm: one plain C struct for the game state and the
# nogil functions that act on it. The search (mcts/searcher/_search.pyx) cimports this.
# Every enum below is the one place its fact is defined; the Python names of
# the same things are the tuples at the top of _fastcore.pyx, in this order.

from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint32_t, uint64_t

# The facts Python reads as they are (ulm.NUM_ROUNDS, ulm.position_format): a
# cpdef enum is a C constant here and a module-level int of ulm._fastcore.
cpdef enum:
    NUM_ROUNDS = 10             # a game is 10 rounds (R-END-1)
    TILES_PER_COLOUR = 10
    DESC_LAID_OUT = 4           # R-SETUP-2: on the Oath House's spaces
    DESC_UNSEEN = -2            # not on the board: out of the game (or not yet laid out)
    DESC_ON_BOARD = -1          # >= 0: the seat that owns it
    # the rule variants, a state's `variant` (their names: VARIANTS, in this order)
    VARIANT_BASIC = 0
    VARIANT_ADVANCED = 1        # the basic game with tower tiles (R-TOWER)

cdef enum:
    # colours; the action a tile gives is its colour's index
    GRAY = 0        # Money
    WHITE = 1       # Clear-away
    BROWN = 2       # Card
    TURQUOISE = 3   # River
    ORANGE = 4      # Seal
    NUM_COLOURS = 5
    NO_TILE = -1

    # quarters (RULES section 6 order)
    TILLAGE = 0
    LEANING = 1
    GARDEN = 2
    OATH = 3
    TOWN_HALL = 4
    SHIPYARD = 5
    REICHENAU = 6
    GOOSE = 7
    NUM_QUARTERS = 8

    # descendants (section 8)
    ABBOT = 0
    BUILDER = 1
    SCHOLAR = 2
    MERCHANT = 3
    MINT_MASTER = 4
    COUNCILMAN = 5
    CITY_GUARD = 6
    BARGE_DRIVER = 7
    NUM_DESCENDANTS = 8

    # cards: 0..8 cathedral, 9..23 trade (5 Works of Art, 5 Goods, 5 Fustian),
    # 24..32 chronicle
    NUM_CARDS = 33
    CARD_STEEPLE = 0    # Steeple I..III = 0..2, Nave 3..5, Choir 6..8
    CARD_NAVE = 3
    CARD_CHOIR = 6
    CARD_ART = 9        # copies I..V = 9..13
    CARD_GOODS = 14
    CARD_FUSTIAN = 19
    CARD_ULM_CHRONICLE = 24
    CARD_CITY_WALL = 25
    CARD_FREEZE = 26
    CARD_JOUST = 27
    CARD_PATRICIAN = 28
    CARD_REFORMATION = 29
    CARD_SIEGE = 30
    CARD_SWABIAN = 31
    CARD_SPARROW = 32

    NUM_COATS = 12
    NUM_OUTER = 12
    NUM_TOWER = 12      # T1..T12 are 0..11
    TOWER_T1 = 0
    TOWER_T2 = 1
    TOWER_T3 = 2
    TOWER_T4 = 3
    TOWER_T5 = 4
    TOWER_T6 = 5
    TOWER_T7 = 6
    TOWER_T8 = 7
    TOWER_T9 = 8
    TOWER_T10 = 9
    TOWER_T11 = 10
    TOWER_T12 = 11
    NO_TOWER = -1
    MAX_PLAYERS = 4
    RIVER_LEN = 22
    SEALS_PER_PLAYER = 12
    CRESTS_PER_PLAYER = 3

    # river bonus spaces (R-BOARD-2)
    BONUS_NONE = 0
    BONUS_COIN = 1
    BONUS_SPARROW = 2
    BONUS_DOCK_TILE = 3
    BONUS_CARD = 4

    # main phases of a turn (R-TURN-1); sub-decisions live on the task stack
    PH_BEFORE_DRAW = 0
    PH_PUSH = 1
    PH_ACTIONS = 2
    PH_GAME_OVER = 3

    # sources of victory points (R-END-4); the first ones accrue during play
    SRC_START = 0
    SRC_CITY_GUARD = 1
    SRC_REICHENAU = 2
    SRC_COATS = 3
    SRC_CRESTS = 4
    SRC_CATHEDRAL_UPPER = 5
    SRC_TRADE_UPPER = 6
    SRC_SIEGE = 7
    SRC_TOWER_PENALTY = 8
    SRC_END_SPARROWS = 9
    SRC_END_RIVER = 10
    SRC_END_CATHEDRAL = 11
    SRC_END_TRADE = 12
    SRC_END_CHRONICLE = 13
    NUM_SOURCES = 14

    CHANCE_PLAYER = -1
    TERMINAL_PLAYER = -4

    # ---- the action space: decisions, then chance outcomes ----
    A_END_TURN = 0
    A_DRAW = 1
    A_PUSH = 2              # 12 entry points
    A_JOKER = 14            # sparrow joker, by dock colour (5)
    A_SCHOLAR = 19          # push a supply tile of this colour (5)
    A_MONEY = 24
    A_CLEAR = 25            # sides: top, right, bottom, left (4)
    A_BUY_PAIR = 29         # buy a card paying a colour pair (15)
    A_BUY_COIN = 44         # T3
    A_BUY_TILE = 45         # T4, by colour (5)
    A_RIVER = 50
    A_SEAL = 51             # by quarter (8)
    A_SEAL_WALL = 59        # City Wall + seal, by quarter (8)
    A_MERCHANT = 67         # give colour * 5 + take dock colour (25)
    A_TAKE_PUSHED_OUT = 92  # T10
    A_PLAY_UPPER = 93       # by card (33)
    A_PLAY_LOWER = 126      # by card (33)
    A_PICK_COLOUR = 159     # (5)
    A_PICK_DOCK = 164       # a loading-dock tile by colour (5)
    A_TAKE_COIN = 169       # Town Hall: a coin instead of a dock tile
    A_KEEP_CARD = 170       # (33)
    A_TAKE_DISCARD = 203    # Goose Tower (33)
    A_GOOSE_LOOK = 236      # Goose Tower: look at 3
    A_BARGE = 237           # move 0..4 spaces (5)
    A_KEEP_COAT = 242       # (12)
    A_RETURN_COAT = 254
    A_DESCENDANT = 255      # (8)
    A_QUARTER = 263         # (8)
    A_AMOUNT = 271          # 0..5 (6)
    A_FREEZE_COINS = 277
    A_FREEZE_TILES = 278
    A_OUTER = 279           # Reformation: a tile from an outer space (12)
    A_STOP = 291
    A_TOWER_PAY_PAIR = 292  # T8 (15)
    A_TOWER_PAY_COINS = 307  # T9
    A_TOWER_PENALTY = 308
    A_DRAW_TWO = 309        # Builder: draw 2 tiles, keep 1 (R-DRAW-3)
    A_TAKE_TOP_CARD = 310   # a buy that may look at 2: take the top card instead (R-ACT-CARD-1)
    A_LOOK_TWO = 311        # ... or look at the top 2 and keep 1
    A_NO_DOCK_TILE = 312    # Abbot: decline the dock tile (R-ACT-CLEAR-2)
    NUM_DECISIONS = 313
    C_TILE = 313            # a tile of this colour (5)
    C_CARD = 318            # (33)
    C_COAT = 351            # (12)
    C_DESCENDANT = 363      # (8)
    C_TOWER = 371           # (12)
    NUM_ACTIONS = 383
    HIDDEN_CARD_KEEP = 383  # an opponent's card keep, as the observer sees it
    MAX_LEGAL = NUM_DECISIONS  # each decision once at most, whatever the state
    LEGAL_WORDS = 5         # 64-bit words of a legal-decision bit set (>= NUM_DECISIONS bits)

    NUM_PAIRS = 15
    MAX_TASKS = 24

    # tasks: sub-decisions and chance events queued by an effect
    TK_NONE = 0
    # chance
    TK_GRID_FILL = 1        # arg: cell
    TK_PLAYER_TILE = 2      # arg: seat
    TK_DESC_REVEAL = 3
    TK_TOWER_REVEAL = 4
    TK_DRAW_PUSH_TILE = 5   # arg: slot 0/1 of the drawn tiles
    TK_DOCK_REFILL = 6
    TK_CARD_TO_HAND = 7
    TK_CARD_LOOK = 8
    TK_COAT_DRAW = 9
    TK_BAG_TO_SUPPLY = 10
    TK_LAST_CHANCE = 10
    # automatic
    TK_ROUND_START = 11
    # decisions
    TK_BUILDER_KEEP = 12
    TK_DOCK_CHOICE = 13
    TK_BARGE_MOVE = 14      # arg: most spaces
    TK_CARD_KEEP = 15
    TK_COAT_CHOICE = 16
    TK_DESC_CHOICE = 17
    TK_TOWNHALL_CHOICE = 18
    TK_GOOSE_CHOICE = 19
    TK_CHRONICLE_QUARTER = 20
    TK_AMOUNT = 21          # arg: card (Siege or Ulm Sparrow)
    TK_FREEZE_CHOICE = 22
    TK_REFORM_PICK = 23     # arg: tiles still to take
    TK_PAY_COLOUR = 24      # arg: cathedral card
    TK_SWABIAN_COLOUR = 25
    TK_PATRICIAN_COLOUR = 26
    TK_TOWER_PAYMENT = 27
    TK_BUY_MODE = 28        # take the top card or look at 2 (R-ACT-CARD-1)
    TK_ABBOT_DOCK = 29      # a dock tile, or none (R-ACT-CLEAR-2)


ctypedef struct Board:
    int8_t river_value[RIVER_LEN]
    int8_t river_bonus[RIVER_LEN]
    int8_t north_of[RIVER_LEN]       # quarter north of each river index
    int8_t south_of[RIVER_LEN]
    int8_t capacity[NUM_QUARTERS]    # seal spaces
    int8_t coat_quarter[NUM_COATS]   # -1: silver
    int8_t coat_vp[NUM_COATS]
    int8_t coat_later_vp[NUM_COATS]
    int8_t quarter_coat[NUM_QUARTERS]  # the golden coat of each quarter
    int8_t outer_coat[NUM_OUTER]     # coat image on each outer space
    int8_t coat_outer[NUM_COATS]     # inverse of outer_coat
    int8_t cathedral_colours[9][2]
    int8_t trade_cost[5]             # copy I..V


ctypedef struct Player:
    int16_t score
    int16_t coins
    int16_t sparrows
    int8_t barge
    int8_t seals_left
    int8_t crests_left
    uint8_t supply[NUM_COLOURS]
    uint8_t seals_in[NUM_QUARTERS]
    uint64_t hand
    uint64_t known          # hand cards every player knows (taken face up, R-INFO-3a)
    uint64_t front
    uint16_t coats
    int16_t vp[NUM_SOURCES]


ctypedef struct GameState:
    int8_t num_players
    int8_t variant          # VARIANT_*
    int8_t round            # 0..9
    int8_t turn_player
    int8_t phase
    int8_t grid[9]          # row-major, NO_TILE only during set-up
    int8_t outer[NUM_OUTER]
    int8_t outer_mark[NUM_OUTER]   # seat whose seal is on this coat image, or -1
    uint8_t bag[NUM_COLOURS]
    uint8_t docks[NUM_COLOURS]
    uint8_t tiles_added     # R-DRAW-8 refills
    uint64_t pile
    uint64_t discard
    # R-INFO-3b: card_group[c] is the number of the last reshuffle that put card c
    # into the draw pile (0: none); the pile holds only cards of group `reshuffles`,
    # and a card drawn face down keeps its group while it is hidden in a hand
    uint8_t reshuffles
    uint8_t card_group[NUM_CARDS]
    uint16_t coat_unknown   # the shuffled top of the coat stack
    int8_t coat_tail_len    # coats put under, bottom part of the stack, top first
    int8_t coat_tail[NUM_COATS]
    int8_t coat_tail_by[NUM_COATS]     # who put it there (public)
    uint8_t coat_tail_known[NUM_COATS]  # bit p: seat p knows this coat (R-COAT-4)
    int8_t coat_owner[NUM_COATS]
    int8_t crest_owner[NUM_QUARTERS]
    uint8_t quarter_seals[NUM_QUARTERS]
    int8_t desc[NUM_DESCENDANTS]    # DESC_UNSEEN, DESC_ON_BOARD or the owner
    uint16_t tower_unseen
    int8_t tower_current
    int8_t tower_next
    # this turn
    int8_t drawn[2]
    uint8_t avail[NUM_COLOURS]      # unused actions of the activated tiles (after the push)
    uint8_t extra[NUM_COLOURS]      # unused extra actions: Swabian League, Shipyard (R-TURN-3)
    uint8_t free_play
    uint8_t t5_seal
    uint8_t river_extra
    uint8_t draw_swap_used          # R-DRAW-7
    uint8_t merchant_used
    uint8_t t10_used
    int8_t pushed_out_at            # outer space of this turn's pushed-out tile
    int8_t looked_cards[3]
    int8_t n_looked_cards
    int8_t looked_coats[2]
    uint8_t looked_coat_known[2]    # as coat_tail_known, for the coats being looked at
    int8_t n_looked_coats
    int8_t n_tasks
    uint8_t task[MAX_TASKS]
    int8_t task_arg[MAX_TASKS]
    Player players[MAX_PLAYERS]


ctypedef struct Rng:
    uint64_t s


cdef class CoreGame:
    cdef Board board
    cdef readonly int num_players
    cdef readonly str variant       # its name, one of VARIANTS
    cdef int variant_value          # VARIANT_*
    cdef readonly dict table


cdef class State:
    cdef GameState s
    cdef Rng dealer
    cdef readonly CoreGame game


# Small rules shared with the search, compiled inline into both.

cdef inline bint variant_has_towers(int variant) noexcept nogil:
    return variant == VARIANT_ADVANCED       # R-TOWER: tower tiles in the advanced game

cdef inline bint has_towers(const GameState* s) noexcept nogil:
    return variant_has_towers(s.variant)

cdef inline bint tower_in_force(const GameState* s, int t) noexcept nogil:
    """Is tower tile T(t+1) in force this round? (never in the basic game)"""
    return s.tower_current == t

cdef inline int supply_total(const Player* pl) noexcept nogil:
    return pl.supply[0] + pl.supply[1] + pl.supply[2] + pl.supply[3] + pl.supply[4]

cdef inline int seal_cost(const GameState* s) noexcept nogil:
    # R-ACT-SEAL-1, R-TOWER-T6/T7
    if tower_in_force(s, TOWER_T6):
        return 1
    if tower_in_force(s, TOWER_T7):
        return 3
    return 2

cdef inline int money_per_action(const GameState* s, int p) noexcept nogil:
    # R-ACT-MONEY-1: +1, Mint Master +1, tower T2 +1
    return 1 + (s.desc[MINT_MASTER] == p) + tower_in_force(s, TOWER_T2)

cdef inline int push_cell(int e, int i) noexcept nogil:
    """The grid cell (row-major) at place i of push entry e: 0 is the entry end,
    2 the far end (R-PUSH-1; entries: rows from the left, rows from the right,
    columns from the top, columns from the bottom)."""
    cdef int k = e % 3
    if e < 3:
        return 3 * k + i
    if e < 6:
        return 3 * k + 2 - i
    if e < 9:
        return k + 3 * i
    return k + 6 - 3 * i



cdef void state_init(GameState* s, int num_players, int variant) noexcept nogil
cdef int legal_actions(const Board* b, const GameState* s, int16_t* out) noexcept nogil
cdef void legal_set(const Board* b, const GameState* s, uint64_t* w) noexcept nogil
cdef int sample_legal(const Board* b, const GameState* s, Rng* r) noexcept nogil
cdef bint is_legal(const Board* b, const GameState* s, int action) noexcept nogil
cdef void apply_action(const Board* b, GameState* s, int action) noexcept nogil
cdef int chance_outcomes(const GameState* s, int16_t* out, double* prob) noexcept nogil
cdef int sample_chance(const GameState* s, Rng* r) noexcept nogil
cdef void random_playout(const Board* b, GameState* s, Rng* r) noexcept nogil
cdef int end_bonus(const Board* b, const GameState* s, int p, int16_t* by_source) noexcept nogil
cdef int open_push_lines(const GameState* s) noexcept nogil   # bit e: line e may be pushed (R-PUSH-3)
cdef int winners(const Board* b, const GameState* s, int* won) noexcept nogil
cdef void determinize(GameState* s, int observer, Rng* r) noexcept nogil
cdef void write_observation(const GameState* s, int viewer, float* out) noexcept nogil  # OB_SIZE floats


# The search's hot helpers, compiled inline into both modules (a call through
# the module boundary would go through a function pointer).

cdef extern from *:
    int popcount64 "__builtin_popcountll"(unsigned long long) nogil
    int ctz64 "__builtin_ctzll"(unsigned long long) nogil

cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    """splitmix64's finaliser: a bijection that scrambles every bit into every other."""
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)

cdef inline uint64_t mix_seed(uint64_t seed, uint64_t stream) noexcept nogil:
    """The one seed-mixing function: the seed of sub-stream `stream` of `seed`.
    Neighbouring seeds and neighbouring streams give unrelated results."""
    return mix64(mix64(seed + <uint64_t>0x9E3779B97F4A7C15)
                 + <uint64_t>0xD1B54A32D192ED03 * (stream + 1))

cdef inline void rng_seed(Rng* r, uint64_t seed) noexcept nogil:
    # mixed: with `seed * phi + c`, seed n+1's stream was seed n's one step on
    r.s = mix_seed(seed, 0)

cdef inline uint64_t rng_next(Rng* r) noexcept nogil:
    r.s += <uint64_t>0x9E3779B97F4A7C15
    return mix64(r.s)

cdef inline uint32_t rng_below(Rng* r, uint32_t n) noexcept nogil:
    return <uint32_t>(((rng_next(r) >> 32) * <uint64_t>n) >> 32)

cdef inline uint64_t bit(int i) noexcept nogil:
    return (<uint64_t>1) << i

cdef inline bint is_chance_task(int t) noexcept nogil:
    return 0 < t <= TK_LAST_CHANCE

cdef inline int current_player(const GameState* s) noexcept nogil:
    if s.n_tasks > 0:
        if is_chance_task(s.task[s.n_tasks - 1]):
            return CHANCE_PLAYER
        return s.turn_player
    if s.phase == PH_GAME_OVER:
        return TERMINAL_PLAYER
    return s.turn_player

cdef inline int quarters_with_seal(const GameState* s, int p) noexcept nogil:
    cdef int q, n = 0
    for q in range(NUM_QUARTERS):
        if s.players[p].seals_in[q] > 0:
            n += 1
    return n

cdef inline bint quarter_free(const Board* b, const GameState* s, int q) noexcept nogil:
    return s.quarter_seals[q] < b.capacity[q]

cdef inline int next_free_space(const GameState* s, int p, int idx) noexcept nogil:
    """The next river index after idx that holds no other barge, or -1: one
    mask of the other barges, without branches (where they are is a coin toss
    in a random game)."""
    cdef uint64_t taken = 0, free
    cdef int q
    for q in range(s.num_players):
        taken |= bit(s.players[q].barge) & -<uint64_t>(q != p)
    free = ~taken & (bit(RIVER_LEN) - 1) & ~(bit(idx + 1) - 1)
    return ctz64(free) if free else -1

cdef inline int action_for_observer(const GameState* s, int action, int observer) noexcept nogil:
    """A decision as `observer` sees it: which card an opponent keeps is hidden."""
    if (action >= A_KEEP_CARD and action < A_KEEP_CARD + NUM_CARDS
            and s.turn_player != observer):
        return HIDDEN_CARD_KEEP
    return action
