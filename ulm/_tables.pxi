# Names, static tables, random numbers and bit helpers of the core.
# (included by _fastcore.pyx: one compilation unit, so the C compiler inlines across files)

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
# the rule variants' names, by their VARIANT_* value (R-TOWER: tower tiles in the advanced game)
VARIANTS = ("basic", "advanced")
assert VARIANTS.index("advanced") == VARIANT_ADVANCED
TOWER_VARIANTS = tuple(v for i, v in enumerate(VARIANTS) if variant_has_towers(i))  # R-TOWER
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
