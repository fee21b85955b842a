# A seat's observation as numbers (included by _fastcore.pyx after _hidden.pxi):
# one flat float32 tensor, the same for every state the seat cannot tell apart
# (R-INFO-4). What the seat may know is read where every other output reads it:
# hidden_cards() for the cards, the coats' known bits (R-COAT-4) for the coats,
# the seat to move for the cards being looked at (R-INFO-3). Seats are counted
# from the viewer: slot 0 is the viewer, slot 1 the next seat in turn order, ...
# docs/environments.md has the table of slices (OBSERVATION_SLICES below).

cdef enum:
    # within one place under the coat stack
    OB_T_PRESENT = 0            # 1: a coat lies here
    OB_T_COAT = 1               # one-hot coat, when the viewer knows it (R-COAT-4)
    OB_T_BY = OB_T_COAT + NUM_COATS               # slot of the seat that put it there
    OB_T_KNOWN = OB_T_BY + MAX_PLAYERS            # slots of the seats that know it
    OB_T_END = OB_T_KNOWN + MAX_PLAYERS

    # within one seat's slot
    OB_P_PRESENT = 0            # 1: this slot is a seat of the game
    OB_P_SCORE = 1              # points / 100
    OB_P_COINS = 2              # / 20
    OB_P_SPARROWS = 3           # / 10
    OB_P_BARGE = 4              # one-hot river space (22)
    OB_P_SEALS_LEFT = OB_P_BARGE + RIVER_LEN      # / 12
    OB_P_CRESTS_LEFT = OB_P_SEALS_LEFT + 1        # / 3
    OB_P_SUPPLY = OB_P_CRESTS_LEFT + 1            # tiles per colour / 5
    OB_P_SEALS_IN = OB_P_SUPPLY + NUM_COLOURS     # seals per quarter / 3
    OB_P_HAND_KNOWN = OB_P_SEALS_IN + NUM_QUARTERS  # 33: hand cards the viewer knows
    OB_P_HAND_PUBLIC = OB_P_HAND_KNOWN + NUM_CARDS  # 33: hand cards every seat knows (R-INFO-3a)
    OB_P_HAND_HIDDEN = OB_P_HAND_PUBLIC + NUM_CARDS  # unknown hand cards: latest group, older / 10
    OB_P_HAND_SIZE = OB_P_HAND_HIDDEN + 2         # / 10
    OB_P_FRONT = OB_P_HAND_SIZE + 1               # 33 cards in front of the seat
    OB_P_COATS = OB_P_FRONT + NUM_CARDS           # 12 coats of arms
    OB_P_VP = OB_P_COATS + NUM_COATS              # points by source (SOURCES) / 20
    OB_P_END = OB_P_VP + NUM_SOURCES
    OB_PLAYER_SLOT = OB_P_END       # the numbers of one seat

    # the slices, each starting where the one before ends
    OB_NUM_TASKS = TK_ABBOT_DOCK + 1              # task kinds, TK_NONE included
    OB_NUM_PLAYERS = 0                            # one-hot: 2, 3, 4 players
    OB_VARIANT = OB_NUM_PLAYERS + 3               # 1: the advanced game
    OB_ROUND = OB_VARIANT + 1                     # one-hot: round 1..10, 11 after the end
    OB_PHASE = OB_ROUND + 11                      # one-hot: PHASES
    OB_TO_MOVE = OB_PHASE + 4                     # one-hot slot of the seat whose turn it is
    OB_NODE = OB_TO_MOVE + MAX_PLAYERS            # the viewer decides, a chance event, game over
    OB_GRID = OB_NODE + 3                         # 9 spaces x colour one-hot (row-major)
    OB_OUTER = OB_GRID + 9 * NUM_COLOURS          # 12 outer spaces x colour one-hot
    OB_OUTER_MARK = OB_OUTER + NUM_OUTER * NUM_COLOURS   # 12 coat images x slot of its seal
    OB_DOCKS = OB_OUTER_MARK + NUM_OUTER * MAX_PLAYERS   # tiles per colour / 10
    OB_BAG = OB_DOCKS + NUM_COLOURS               # tiles per colour / 10
    OB_TILES_ADDED = OB_BAG + NUM_COLOURS         # / 10
    OB_DRAWN = OB_TILES_ADDED + 1                 # 2 drawn tiles x colour one-hot
    OB_PILE = OB_DRAWN + 2 * NUM_COLOURS          # cards in the draw pile / 33
    OB_DISCARD = OB_PILE + 1                      # 33 cards
    OB_RESHUFFLES = OB_DISCARD + NUM_CARDS        # / 4
    OB_CARD_GROUP = OB_RESHUFFLES + 1             # 33 cards: reshuffle group / 4 (R-INFO-3b)
    OB_UNSEEN = OB_CARD_GROUP + NUM_CARDS         # 33 cards whose place the viewer does not know
    OB_LOOKED_CARDS = OB_UNSEEN + NUM_CARDS       # 33: cards being looked at, when the viewer looks
    OB_LOOKED_COUNT = OB_LOOKED_CARDS + NUM_CARDS  # cards being looked at / 3
    OB_COAT_STACK = OB_LOOKED_COUNT + 1           # coats on the shuffled stack / 12
    OB_COAT_TAIL = OB_COAT_STACK + 1              # 12 places under the stack x OB_T_END (OB_T_*)
    OB_LOOKED_COATS = OB_COAT_TAIL + NUM_COATS * OB_T_END  # 12 coats being looked at the viewer knows
    OB_LOOKED_COAT_COUNT = OB_LOOKED_COATS + NUM_COATS  # coats being looked at / 2
    OB_COAT_OWNER = OB_LOOKED_COAT_COUNT + 1      # 12 coats x slot of the owner
    OB_QUARTER_SEALS = OB_COAT_OWNER + NUM_COATS * MAX_PLAYERS  # seals per quarter / 4
    OB_CREST_OWNER = OB_QUARTER_SEALS + NUM_QUARTERS  # 8 quarters x slot of the crest's owner
    OB_DESCENDANTS = OB_CREST_OWNER + NUM_QUARTERS * MAX_PLAYERS  # 8 x (unseen, on board, 4 slots)
    OB_TOWER_UNSEEN = OB_DESCENDANTS + NUM_DESCENDANTS * (2 + MAX_PLAYERS)  # 12 tower tiles
    OB_TOWER_CURRENT = OB_TOWER_UNSEEN + NUM_TOWER  # one-hot tower tile in force
    OB_TOWER_NEXT = OB_TOWER_CURRENT + NUM_TOWER  # one-hot next tower tile (advanced)
    OB_ACTIONS = OB_TOWER_NEXT + NUM_TOWER        # unused actions per colour / 3
    OB_EXTRA = OB_ACTIONS + NUM_COLOURS           # unused extra actions per colour / 3
    OB_TURN_FLAGS = OB_EXTRA + NUM_COLOURS        # free play, T5 seal, swap, merchant, T10 used
    OB_RIVER_EXTRA = OB_TURN_FLAGS + 5            # extra river steps / 3
    OB_PUSHED_OUT_AT = OB_RIVER_EXTRA + 1         # one-hot outer space of the pushed-out tile
    OB_TOP_TASK = OB_PUSHED_OUT_AT + NUM_OUTER    # one-hot task on top of the stack (0: none)
    OB_TOP_TASK_ARG = OB_TOP_TASK + OB_NUM_TASKS            # its argument / 32
    OB_TASKS = OB_TOP_TASK_ARG + 1                # pending tasks of each kind / 4
    OB_SEATS = OB_TASKS + OB_NUM_TASKS                      # 4 slots x OB_PLAYER_SLOT
    OB_SIZE = OB_SEATS + MAX_PLAYERS * OB_PLAYER_SLOT

cdef inline int seat_slot(const GameState* s, int viewer, int seat) noexcept nogil:
    """The slot of `seat` as the viewer counts: 0 itself, 1 the next seat, ..."""
    return (seat - viewer + s.num_players) % s.num_players


cdef inline void write_cards(float* out, uint64_t cards) noexcept nogil:
    while cards:
        out[ctz64(cards)] = 1.0
        cards &= cards - 1


cdef inline void write_seats(float* out, const GameState* s, int viewer, int seats) noexcept nogil:
    """Slots of a bit set of seats."""
    cdef int p
    for p in range(s.num_players):
        if (seats >> p) & 1:
            out[seat_slot(s, viewer, p)] = 1.0


cdef inline void write_owner(float* out, const GameState* s, int viewer, int seat) noexcept nogil:
    if 0 <= seat < s.num_players:
        out[seat_slot(s, viewer, seat)] = 1.0


cdef void write_observation(const GameState* s, int viewer, float* out) noexcept nogil:
    """What seat `viewer` knows of `s`, as OB_SIZE floats into `out`
    (R-INFO-4: a function of the viewer's information state alone)."""
    cdef uint64_t unseen = hidden_cards(s, viewer), hid, cards
    cdef int i, p, c, latest, older, who = current_player(s)
    cdef const Player* pl
    cdef float* slot
    cdef float* place
    memset(out, 0, OB_SIZE * sizeof(float))
    out[OB_NUM_PLAYERS + s.num_players - 2] = 1.0
    out[OB_VARIANT] = has_towers(s)
    out[OB_ROUND + s.round] = 1.0
    out[OB_PHASE + s.phase] = 1.0
    out[OB_TO_MOVE + seat_slot(s, viewer, s.turn_player)] = 1.0
    if who == viewer:
        out[OB_NODE] = 1.0
    elif who == CHANCE_PLAYER:
        out[OB_NODE + 1] = 1.0
    elif who == TERMINAL_PLAYER:
        out[OB_NODE + 2] = 1.0
    # the board
    for i in range(9):
        if s.grid[i] >= 0:
            out[OB_GRID + i * NUM_COLOURS + s.grid[i]] = 1.0
    for i in range(NUM_OUTER):
        if s.outer[i] >= 0:
            out[OB_OUTER + i * NUM_COLOURS + s.outer[i]] = 1.0
        write_owner(out + OB_OUTER_MARK + i * MAX_PLAYERS, s, viewer, s.outer_mark[i])
    for c in range(NUM_COLOURS):
        out[OB_DOCKS + c] = s.docks[c] / 10.0
        out[OB_BAG + c] = s.bag[c] / 10.0
        out[OB_ACTIONS + c] = s.avail[c] / 3.0
        out[OB_EXTRA + c] = s.extra[c] / 3.0
    out[OB_TILES_ADDED] = s.tiles_added / 10.0
    for i in range(2):
        if s.drawn[i] >= 0:
            out[OB_DRAWN + i * NUM_COLOURS + s.drawn[i]] = 1.0
    # the cards (R-INFO-2, 3): the pile's size, the public discard pile and groups
    out[OB_PILE] = popcount64(s.pile) / 33.0
    write_cards(out + OB_DISCARD, s.discard)
    out[OB_RESHUFFLES] = s.reshuffles / 4.0
    for c in range(NUM_CARDS):
        out[OB_CARD_GROUP + c] = s.card_group[c] / 4.0
    write_cards(out + OB_UNSEEN, unseen)
    cards = 0
    for i in range(s.n_looked_cards):
        cards |= bit(s.looked_cards[i])
    write_cards(out + OB_LOOKED_CARDS, cards & ~unseen)
    out[OB_LOOKED_COUNT] = s.n_looked_cards / 3.0
    # the coats (R-COAT-4): a coat's name only where the viewer knows it
    out[OB_COAT_STACK] = popcount64(s.coat_unknown) / 12.0
    for i in range(s.coat_tail_len):
        place = out + OB_COAT_TAIL + i * OB_T_END
        place[OB_T_PRESENT] = 1.0
        if (s.coat_tail_known[i] >> viewer) & 1:
            place[OB_T_COAT + s.coat_tail[i]] = 1.0
        write_owner(place + OB_T_BY, s, viewer, s.coat_tail_by[i])
        write_seats(place + OB_T_KNOWN, s, viewer, s.coat_tail_known[i])
    for i in range(s.n_looked_coats):
        if (s.looked_coat_known[i] >> viewer) & 1:
            out[OB_LOOKED_COATS + s.looked_coats[i]] = 1.0
    out[OB_LOOKED_COAT_COUNT] = s.n_looked_coats / 2.0
    for i in range(NUM_COATS):
        write_owner(out + OB_COAT_OWNER + i * MAX_PLAYERS, s, viewer, s.coat_owner[i])
    # quarters, Descendants, the tower
    for i in range(NUM_QUARTERS):
        out[OB_QUARTER_SEALS + i] = s.quarter_seals[i] / 4.0
        write_owner(out + OB_CREST_OWNER + i * MAX_PLAYERS, s, viewer, s.crest_owner[i])
    for i in range(NUM_DESCENDANTS):
        if s.desc[i] == DESC_UNSEEN:
            out[OB_DESCENDANTS + i * (2 + MAX_PLAYERS)] = 1.0
        elif s.desc[i] == DESC_ON_BOARD:
            out[OB_DESCENDANTS + i * (2 + MAX_PLAYERS) + 1] = 1.0
        else:
            write_owner(out + OB_DESCENDANTS + i * (2 + MAX_PLAYERS) + 2, s, viewer, s.desc[i])
    for i in range(NUM_TOWER):
        if (s.tower_unseen >> i) & 1:
            out[OB_TOWER_UNSEEN + i] = 1.0
    if s.tower_current >= 0:
        out[OB_TOWER_CURRENT + s.tower_current] = 1.0
    if s.tower_next >= 0:
        out[OB_TOWER_NEXT + s.tower_next] = 1.0
    # this turn and the pending tasks (public)
    out[OB_TURN_FLAGS] = s.free_play != 0
    out[OB_TURN_FLAGS + 1] = s.t5_seal != 0
    out[OB_TURN_FLAGS + 2] = s.draw_swap_used != 0
    out[OB_TURN_FLAGS + 3] = s.merchant_used != 0
    out[OB_TURN_FLAGS + 4] = s.t10_used != 0
    out[OB_RIVER_EXTRA] = s.river_extra / 3.0
    if s.pushed_out_at >= 0:
        out[OB_PUSHED_OUT_AT + s.pushed_out_at] = 1.0
    if s.n_tasks > 0:
        out[OB_TOP_TASK + s.task[s.n_tasks - 1]] = 1.0
        out[OB_TOP_TASK_ARG] = s.task_arg[s.n_tasks - 1] / 32.0
    else:
        out[OB_TOP_TASK] = 1.0
    for i in range(s.n_tasks):
        out[OB_TASKS + s.task[i]] += 0.25
    # the seats, from the viewer's (R-INFO-3a, 3b: hidden hand cards by group)
    for p in range(s.num_players):
        pl = &s.players[p]
        slot = out + OB_SEATS + seat_slot(s, viewer, p) * OB_PLAYER_SLOT
        slot[OB_P_PRESENT] = 1.0
        slot[OB_P_SCORE] = pl.score / 100.0
        slot[OB_P_COINS] = pl.coins / 20.0
        slot[OB_P_SPARROWS] = pl.sparrows / 10.0
        slot[OB_P_BARGE + pl.barge] = 1.0
        slot[OB_P_SEALS_LEFT] = pl.seals_left / 12.0
        slot[OB_P_CRESTS_LEFT] = pl.crests_left / 3.0
        for c in range(NUM_COLOURS):
            slot[OB_P_SUPPLY + c] = pl.supply[c] / 5.0
        for i in range(NUM_QUARTERS):
            slot[OB_P_SEALS_IN + i] = pl.seals_in[i] / 3.0
        hid = pl.hand & unseen if p != viewer else 0
        write_cards(slot + OB_P_HAND_KNOWN, pl.hand & ~hid)
        write_cards(slot + OB_P_HAND_PUBLIC, pl.hand & pl.known)
        latest = 0
        older = 0
        while hid:
            if s.card_group[ctz64(hid)] == s.reshuffles:
                latest += 1
            else:
                older += 1
            hid &= hid - 1
        slot[OB_P_HAND_HIDDEN] = latest / 10.0
        slot[OB_P_HAND_HIDDEN + 1] = older / 10.0
        slot[OB_P_HAND_SIZE] = popcount64(pl.hand) / 10.0
        write_cards(slot + OB_P_FRONT, pl.front)
        for i in range(NUM_COATS):
            if (pl.coats >> i) & 1:
                slot[OB_P_COATS + i] = 1.0
        for i in range(NUM_SOURCES):
            slot[OB_P_VP + i] = pl.vp[i] / 20.0


# The slices in order: (name, start, shape, what each number is). The one table of the
# layout: docs/environments.md shows it, the OpenSpiel observer names its pieces by it.
OBSERVATION_SLICES = (
    ("num_players", OB_NUM_PLAYERS, (3,), "one-hot: 2, 3, 4 players"),
    ("variant", OB_VARIANT, (1,), "1: the advanced game"),
    ("round", OB_ROUND, (11,), "one-hot: round 1 .. 10; the last after the end"),
    ("phase", OB_PHASE, (4,), "one-hot: " + ", ".join(PHASES)),
    ("to_move", OB_TO_MOVE, (MAX_PLAYERS,), "one-hot: the slot whose turn it is"),
    ("node", OB_NODE, (3,), "the viewer decides now; a chance event is next; the game is over"),
    ("grid", OB_GRID, (9, NUM_COLOURS), "each grid space (row-major): colour one-hot"),
    ("outer", OB_OUTER, (NUM_OUTER, NUM_COLOURS), "each outer space: colour one-hot"),
    ("outer_mark", OB_OUTER_MARK, (NUM_OUTER, MAX_PLAYERS), "each coat image: the slot whose seal is on it"),
    ("docks", OB_DOCKS, (NUM_COLOURS,), "tiles of each colour on the loading docks / 10"),
    ("bag", OB_BAG, (NUM_COLOURS,), "tiles of each colour in the bag / 10"),
    ("tiles_added", OB_TILES_ADDED, (1,), "tiles added to the bag (R-DRAW-8) / 10"),
    ("drawn", OB_DRAWN, (2, NUM_COLOURS), "the tiles drawn this turn: colour one-hot"),
    ("pile", OB_PILE, (1,), "cards in the draw pile / 33"),
    ("discard", OB_DISCARD, (NUM_CARDS,), "the discard pile, by card"),
    ("reshuffles", OB_RESHUFFLES, (1,), "reshuffles of the discard pile / 4"),
    ("card_group", OB_CARD_GROUP, (NUM_CARDS,), "each card's reshuffle group / 4 (R-INFO-3b)"),
    ("unseen", OB_UNSEEN, (NUM_CARDS,), "cards whose place the viewer does not know (pile, others' hidden hands)"),
    ("looked_cards", OB_LOOKED_CARDS, (NUM_CARDS,), "cards being looked at, when the viewer is the one looking"),
    ("looked_count", OB_LOOKED_COUNT, (1,), "cards being looked at / 3"),
    ("coat_stack", OB_COAT_STACK, (1,), "coats in the shuffled stack / 12"),
    ("coat_tail", OB_COAT_TAIL, (NUM_COATS, OB_T_END), "each place under the stack, top first: a coat lies there; "
                                   "the coat (12, one-hot) when the viewer knows it (R-COAT-4); "
                                   "the slot that put it there (4); the slots that know it (4)"),
    ("looked_coats", OB_LOOKED_COATS, (NUM_COATS,), "coats being looked at that the viewer knows"),
    ("looked_coat_count", OB_LOOKED_COAT_COUNT, (1,), "coats being looked at / 2"),
    ("coat_owner", OB_COAT_OWNER, (NUM_COATS, MAX_PLAYERS), "each coat of arms: the slot that owns it"),
    ("quarter_seals", OB_QUARTER_SEALS, (NUM_QUARTERS,), "seals in each quarter / 4"),
    ("crest_owner", OB_CREST_OWNER, (NUM_QUARTERS, MAX_PLAYERS), "each quarter: the slot whose crest is there"),
    ("descendants", OB_DESCENDANTS, (NUM_DESCENDANTS, 2 + MAX_PLAYERS),
     "each Descendant: unseen; on the board; the slot that owns it (4)"),
    ("tower_unseen", OB_TOWER_UNSEEN, (NUM_TOWER,), "tower tiles not yet revealed"),
    ("tower_current", OB_TOWER_CURRENT, (NUM_TOWER,), "one-hot: the tower tile in force"),
    ("tower_next", OB_TOWER_NEXT, (NUM_TOWER,), "one-hot: the next tower tile (advanced game)"),
    ("actions", OB_ACTIONS, (NUM_COLOURS,), "unused actions of the activated tiles, per colour / 3"),
    ("extra_actions", OB_EXTRA, (NUM_COLOURS,), "unused extra actions, per colour / 3"),
    ("turn_flags", OB_TURN_FLAGS, (5,), "free card play; T5 seal; draw swap used; merchant used; T10 used"),
    ("river_extra", OB_RIVER_EXTRA, (1,), "extra river steps / 3"),
    ("pushed_out_at", OB_PUSHED_OUT_AT, (NUM_OUTER,), "one-hot: the outer space of this turn's pushed-out tile"),
    ("top_task", OB_TOP_TASK, (OB_NUM_TASKS,), "one-hot: the task on top of the stack (TASKS; 0 none)"),
    ("top_task_arg", OB_TOP_TASK_ARG, (1,), "its argument / 32"),
    ("tasks", OB_TASKS, (OB_NUM_TASKS,), "pending tasks of each kind / 4"),
    ("seats", OB_SEATS, (MAX_PLAYERS, OB_PLAYER_SLOT),
     "each slot (0 the viewer, then in turn order): present; points / 100; coins / 20; "
     "sparrows / 10; barge's river space (22, one-hot); seals left / 12; crests left / 3; "
     "supply tiles per colour / 5 (5); seals per quarter / 3 (8); hand cards the viewer "
     "knows (33); hand cards every seat knows (33); unknown hand cards of the latest "
     "reshuffle group and of older ones / 10 (2); hand size / 10; cards in front (33); "
     "coats of arms (12); points by source / 20 (14)"),
)
OBSERVATION_SIZE = OB_SIZE    # the numbers of one observation
# The numbers of one seat's slot in "seats": (name, start, size).
OBSERVATION_SEAT_FIELDS = (
    ("present", OB_P_PRESENT, 1), ("points", OB_P_SCORE, 1), ("coins", OB_P_COINS, 1),
    ("sparrows", OB_P_SPARROWS, 1), ("barge", OB_P_BARGE, RIVER_LEN),
    ("seals_left", OB_P_SEALS_LEFT, 1), ("crests_left", OB_P_CRESTS_LEFT, 1),
    ("supply", OB_P_SUPPLY, NUM_COLOURS), ("seals_in", OB_P_SEALS_IN, NUM_QUARTERS),
    ("hand_known", OB_P_HAND_KNOWN, NUM_CARDS), ("hand_public", OB_P_HAND_PUBLIC, NUM_CARDS),
    ("hand_hidden", OB_P_HAND_HIDDEN, 2), ("hand_size", OB_P_HAND_SIZE, 1),
    ("front", OB_P_FRONT, NUM_CARDS), ("coats", OB_P_COATS, NUM_COATS),
    ("points_by_source", OB_P_VP, NUM_SOURCES),
)


def _observation_into(State state, player, out):
    """state.observation_tensor(player, out): the checks and the call."""
    cdef float[::1] view
    cdef int seat
    if isinstance(player, bool) or not isinstance(player, int):
        raise TypeError(f"player: a seat number (int), got {player!r}")
    if not 0 <= player < state.s.num_players:
        raise ValueError(f"player: no seat {player} in a {state.s.num_players}-player game")
    if out is None:
        import numpy
        out = numpy.empty(OB_SIZE, dtype=numpy.float32)
    try:
        view = out
    except (ValueError, TypeError, BufferError) as exc:
        raise ValueError(f"out: a writable contiguous float32 buffer of {OB_SIZE} "
                         f"numbers, got {type(out).__name__} ({exc})") from None
    if view.shape[0] != OB_SIZE:
        raise ValueError(f"out: must hold {OB_SIZE} numbers, got {view.shape[0]}")
    seat = player
    with nogil:
        write_observation(&state.s, seat, &view[0])
    return out


def bench_observation(State state, int player, int count):
    """Write `player`'s observation of `state` `count` times in compiled code."""
    cdef float buf[OB_SIZE]
    cdef int i
    if not 0 <= player < state.s.num_players:
        raise ValueError(f"player: no seat {player} in a {state.s.num_players}-player game")
    with nogil:
        for i in range(count):
            write_observation(&state.s, player, buf)
    return count
