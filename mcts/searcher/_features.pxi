# The rich features of a position, from the C struct (mcts.searcher.features documents
# the layout, version ulm-features/1), and the learned evaluation over them.
# (included by _search.pyx: one compilation unit)
#
# One encoder serves both the training data (mcts.searcher.features.encode calls
# encode_features) and the search (learned_win), so what a model was fitted
# to is what the search shows it.

cdef enum:
    F_GLOBAL = 357          # numbers of the global block
    F_PLAYER = 187          # numbers of a seat's block
    F_GAME_LEFT = 14        # index of "game left" in the global block
    NUM_TASK_KINDS = 29
    MAX_HIDDEN = 64         # hidden units of a learned model the search evaluates
    F_MAX = F_GLOBAL + MAX_PLAYERS * F_PLAYER


cdef struct Numbers:
    # a block's nonzero numbers only, by ascending index: the blocks are mostly
    # zeros (one-hots and card bits), and the search reads the seats' sparsely
    int count
    int index[F_GLOBAL]         # the larger block (a seat's is F_PLAYER)
    double value[F_GLOBAL]      # each a float (the layout's precision), kept as a double


cdef inline void put_number(Numbers* out, int at, float value) noexcept nogil:
    if value != 0.0:
        out.index[out.count] = at
        out.value[out.count] = <double>value
        out.count += 1


cdef inline int put_one_hot(Numbers* out, int at, int index, int count) noexcept nogil:
    if 0 <= index < count:
        put_number(out, at + index, 1.0)
    return at + count


cdef inline int put_bits(Numbers* out, int at, uint64_t mask, int count) noexcept nogil:
    if count < 64:
        mask &= bit(count) - 1
    while mask:
        put_number(out, at + ctz64(mask), 1.0)
        mask &= mask - 1
    return at + count


cdef inline int put_counts(Numbers* out, int at, const uint8_t* values, int count) noexcept nogil:
    cdef int i
    for i in range(count):
        put_number(out, at + i, values[i])
    return at + count


cdef inline int write_block(const Numbers* numbers, int length, float* out) noexcept nogil:
    """The block of `length` numbers whose nonzero ones are `numbers`, into
    `out` (the training data's dense layout); returns `length`."""
    cdef int m
    memset(out, 0, length * sizeof(float))
    for m in range(numbers.count):
        out[numbers.index[m]] = <float>numbers.value[m]
    return length


cdef inline double game_left(const GameState* s) noexcept nogil:
    """The share of the game's turns not yet started."""
    cdef int n = s.num_players
    cdef int t = s.round * n + s.turn_player
    if t > NUM_ROUNDS * n:
        t = NUM_ROUNDS * n
    return 1.0 - t / <double>(NUM_ROUNDS * n)


cdef int global_features(const GameState* s, float* out) noexcept nogil:
    """The global block (F_GLOBAL numbers); returns its length."""
    cdef Numbers numbers
    return write_block(&numbers, global_numbers(s, &numbers), out)


cdef int global_numbers(const GameState* s, Numbers* out) noexcept nogil:
    """The global block as its nonzero numbers; returns its length."""
    cdef int k = 0, i, t
    cdef uint64_t stack = s.coat_unknown
    cdef uint64_t on_board = 0, unseen = 0, kinds = 0
    out.count = 0
    k = put_one_hot(out, k, s.num_players - 2, 3)
    put_number(out, k, has_towers(s))
    k += 1
    k = put_one_hot(out, k, s.round, NUM_ROUNDS)
    put_number(out, k, <float>game_left(s))
    k += 1
    k = put_one_hot(out, k, s.phase, 4)
    for i in range(9):
        k = put_one_hot(out, k, s.grid[i], NUM_COLOURS)
    for i in range(NUM_OUTER):
        k = put_one_hot(out, k, s.outer[i], NUM_COLOURS)
    k = put_bits(out, k, <uint64_t>open_push_lines(s), 12)
    k = put_counts(out, k, s.bag, NUM_COLOURS)
    k = put_counts(out, k, s.docks, NUM_COLOURS)
    put_number(out, k, s.tiles_added)
    k += 1
    k = put_bits(out, k, s.pile, NUM_CARDS)
    put_number(out, k, popcount64(s.pile))
    k += 1
    k = put_bits(out, k, s.discard, NUM_CARDS)
    put_number(out, k, popcount64(s.discard))
    k += 1
    put_number(out, k, s.reshuffles)
    k += 1
    for i in range(s.coat_tail_len):
        stack |= bit(s.coat_tail[i])
    k = put_bits(out, k, stack, NUM_COATS)
    put_number(out, k, popcount64(stack))
    k += 1
    k = put_one_hot(out, k, s.tower_current, NUM_TOWER)
    k = put_one_hot(out, k, s.tower_next, NUM_TOWER)
    k = put_bits(out, k, s.tower_unseen, NUM_TOWER)
    for i in range(NUM_DESCENDANTS):
        if s.desc[i] == DESC_ON_BOARD:
            on_board |= bit(i)
        elif s.desc[i] == DESC_UNSEEN:
            unseen |= bit(i)
    k = put_bits(out, k, on_board, NUM_DESCENDANTS)
    k = put_bits(out, k, unseen, NUM_DESCENDANTS)
    k = put_counts(out, k, s.quarter_seals, NUM_QUARTERS)
    k = put_one_hot(out, k, s.drawn[0], NUM_COLOURS)
    k = put_one_hot(out, k, s.drawn[1], NUM_COLOURS)
    k = put_counts(out, k, s.avail, NUM_COLOURS)
    k = put_counts(out, k, s.extra, NUM_COLOURS)
    put_number(out, k, s.free_play)
    put_number(out, k + 1, s.t5_seal)
    put_number(out, k + 2, s.river_extra)
    put_number(out, k + 3, s.draw_swap_used)
    put_number(out, k + 4, s.merchant_used)
    put_number(out, k + 5, s.t10_used)
    k += 6
    k = put_one_hot(out, k, s.pushed_out_at, NUM_OUTER)
    put_number(out, k, s.n_tasks)
    k += 1
    for i in range(s.n_tasks):
        t = s.task[i]
        if 1 <= t <= NUM_TASK_KINDS:
            kinds |= bit(t - 1)
    k = put_bits(out, k, kinds, NUM_TASK_KINDS)
    return k


cdef int seat_features(const Board* b, const GameState* s, int p, float* out) noexcept nogil:
    """Seat p's block (F_PLAYER numbers); returns its length."""
    cdef int16_t src[NUM_SOURCES]
    cdef Numbers numbers
    return write_block(&numbers, seat_numbers(s, p, src, end_bonus(b, s, p, src), &numbers),
                       out)


cdef int seat_numbers(const GameState* s, int p, const int16_t* src, int bonus,
                      Numbers* out) noexcept nogil:
    """Seat p's block as its nonzero numbers, p's end-game points now
    (`end_bonus`: by source `src`, in all `bonus`) given; returns the
    block's length (F_PLAYER)."""
    cdef const Player* pl = &s.players[p]
    cdef int n = s.num_players
    cdef int k = 0, i, known = 0
    cdef bint over = current_player(s) == TERMINAL_PLAYER
    cdef uint64_t crests = 0, marks = 0, descs = 0
    cdef double f[N_WEIGHTS]
    out.count = 0
    k = put_one_hot(out, k, p, MAX_PLAYERS)
    put_number(out, k, p == s.turn_player and s.phase < PH_GAME_OVER)
    put_number(out, k + 1, (p - s.turn_player + n) % n)
    put_number(out, k + 2, pl.score)
    put_number(out, k + 3, pl.score + (0 if over else bonus))
    k += 4
    for i in range(NUM_SOURCES):
        put_number(out, k + i, src[i] if i >= SRC_END_SPARROWS and not over else pl.vp[i])
    k += NUM_SOURCES
    put_number(out, k, pl.coins)
    put_number(out, k + 1, pl.sparrows)
    put_number(out, k + 2, pl.barge)
    put_number(out, k + 3, pl.seals_left)
    put_number(out, k + 4, pl.crests_left)
    k += 5
    k = put_one_hot(out, k, pl.barge, RIVER_LEN)
    k = put_counts(out, k, pl.supply, NUM_COLOURS)
    put_number(out, k, supply_total(pl))
    k += 1
    k = put_counts(out, k, pl.seals_in, NUM_QUARTERS)
    put_number(out, k, quarters_with_seal(s, p))
    k += 1
    k = put_bits(out, k, pl.hand, NUM_CARDS)
    put_number(out, k, popcount64(pl.hand))
    k += 1
    k = put_bits(out, k, pl.front, NUM_CARDS)
    put_number(out, k, popcount64(pl.front))
    k += 1
    k = put_bits(out, k, pl.coats, NUM_COATS)
    put_number(out, k, popcount64(pl.coats))
    k += 1
    for i in range(NUM_QUARTERS):
        if s.crest_owner[i] == p:
            crests |= bit(i)
    for i in range(NUM_OUTER):
        if s.outer_mark[i] == p:
            marks |= bit(i)
    for i in range(NUM_DESCENDANTS):
        if s.desc[i] == p:
            descs |= bit(i)
    k = put_bits(out, k, crests, NUM_QUARTERS)
    k = put_bits(out, k, marks, NUM_OUTER)
    k = put_bits(out, k, descs, NUM_DESCENDANTS)
    for i in range(s.coat_tail_len):
        known += (s.coat_tail_known[i] >> p) & 1
    put_number(out, k, known)
    k += 1
    # the 14-feature evaluation's inputs (eval_features), without its constant
    seat_eval_features(s, p, bonus, f)
    for i in range(1, N_FEATURES):
        put_number(out, k + i - 1, <float>f[i])
    return k + N_FEATURES - 1


cdef void learned_win(const Board* b, const GameState* s, const double* lw, int hidden,
                      bint residual, double* win) noexcept nogil:
    """Every seat's win chance by a learned model (`learned_win_from`, the
    end-game points computed here)."""
    cdef int16_t src[MAX_PLAYERS * NUM_SOURCES]
    cdef int bonus[MAX_PLAYERS]
    seat_bonuses(b, s, src, bonus)
    learned_win_from(s, src, bonus, lw, hidden, residual, win)


cdef inline int learned_size(int players, int hidden) noexcept nogil:
    """How many numbers the search's weights of a learned model hold: the
    linear part (U, V), then for `hidden` > 0 units the hidden layer (c, v, G,
    U', V'; `learned_win_from`)."""
    cdef int linear = 2 * players * F_PLAYER
    if hidden == 0:
        return linear
    return linear + hidden * (2 + F_GLOBAL + 2 * players * F_PLAYER)


cdef void learned_win_from(const GameState* s, const int16_t* src, const int* bonus,
                           const double* lw, int hidden, bint residual,
                           double* win) noexcept nogil:
    """Every seat's win chance by a learned model: the softmax of the seats'
    logits. The linear part of seat q's logit is the sum over k of (U_k +
    left x V_k) . block((q + k) mod N); `lw` holds U then V, each N blocks
    of F_PLAYER weights (the fitted weights divided by the inputs' standard
    deviations; the global block and the means add the same to every seat's
    logit, so they cancel in the softmax). The blocks are read by their
    nonzero numbers only. With `hidden` > 0 units a hidden layer adds to it
    (`hidden_logit`), its numbers following the linear part. With `residual`
    the logits add to the logarithms of the chances `win` holds on entry (the
    14-feature win head: the model is a correction of it)."""
    cdef Numbers numbers[MAX_PLAYERS]
    cdef double shared[MAX_HIDDEN]
    cdef int n = s.num_players
    cdef double left = <double><float>game_left(s)
    cdef double top = -INFINITY, z = 0.0, logit
    cdef const double* u
    cdef const double* v
    cdef const Numbers* x
    cdef int q, j, k, m
    for q in range(n):
        seat_numbers(s, q, &src[q * NUM_SOURCES], bonus[q], &numbers[q])
    if hidden > 0:
        hidden_shared(s, lw + 2 * n * F_PLAYER, hidden, shared)
    for q in range(n):
        logit = 0.0
        for k in range(n):
            x = &numbers[(q + k) % n]
            u = lw + k * F_PLAYER
            v = lw + (n + k) * F_PLAYER
            for m in range(x.count):
                j = x.index[m]
                logit += (u[j] + left * v[j]) * x.value[m]
        if hidden > 0:
            logit += hidden_logit(numbers, q, n, left, lw + 2 * n * F_PLAYER, hidden, shared)
        if residual:
            logit += log(win[q]) if win[q] > 0.0 else -700.0
        win[q] = logit
        if logit > top:
            top = logit
    for q in range(n):
        win[q] = exp(win[q] - top)
        z += win[q]
    for q in range(n):
        win[q] /= z


cdef void hidden_shared(const GameState* s, const double* hw, int hidden,
                        double* shared) noexcept nogil:
    """The part of every seat's hidden units that does not depend on the seat:
    c + G . global block. `hw` holds the hidden layer: c and v (`hidden`
    numbers each), then G (F_GLOBAL inputs), U' and V' (N x F_PLAYER inputs
    each), the units of one input together (mcts.searcher.learned.search_weights; the
    standardisation is folded into c and the weights)."""
    cdef Numbers glob
    cdef const double* row
    cdef const double* g = hw + 2 * hidden
    cdef double xv
    cdef int m, h
    global_numbers(s, &glob)
    for h in range(hidden):
        shared[h] = hw[h]
    for m in range(glob.count):
        row = g + glob.index[m] * hidden
        xv = glob.value[m]
        for h in range(hidden):
            shared[h] += row[h] * xv


cdef double hidden_logit(const Numbers* numbers, int q, int n, double left, const double* hw,
                         int hidden, const double* shared) noexcept nogil:
    """Seat q's logit from the hidden layer `hw` (`hidden_shared`): v .
    tanh(a), a = `shared` + sum over k of (U'_k + left x V'_k) .
    block((q + k) mod N), read by the blocks' nonzero numbers."""
    cdef double a[MAX_HIDDEN]
    cdef const double* out = hw + hidden
    cdef const double* hu = hw + (2 + F_GLOBAL) * hidden
    cdef const double* hs = hu + n * F_PLAYER * hidden
    cdef const double* ru
    cdef const double* rs
    cdef const Numbers* x
    cdef double xv, logit = 0.0
    cdef int k, m, j, h
    for h in range(hidden):
        a[h] = shared[h]
    for k in range(n):
        x = &numbers[(q + k) % n]
        for m in range(x.count):
            j = k * F_PLAYER + x.index[m]
            ru = hu + j * hidden
            rs = hs + j * hidden
            xv = x.value[m]
            for h in range(hidden):
                a[h] += (ru[h] + left * rs[h]) * xv
    for h in range(hidden):
        logit += out[h] * tanh(a[h])
    return logit


# ---------------------------------------------------------------------------
# For Python: the encoder and the learned evaluation of one State

FEATURE_GLOBAL = F_GLOBAL
FEATURE_PLAYER = F_PLAYER
MAX_HIDDEN_UNITS = MAX_HIDDEN


def hidden_units(int players, Py_ssize_t count, name="learned_weights"):
    """The hidden units of the search's weights of a learned model of `count`
    numbers for `players` (`learned_size`); ValueError naming `name` if no
    model has that many."""
    cdef int h
    cdef int linear = learned_size(players, 0)
    for h in range(MAX_HIDDEN + 1):
        if learned_size(players, h) == count:
            return h
    raise ValueError(f"{name}: {count} numbers are no learned model's for {players} players "
                     f"(a linear model has {linear}; each of up to {MAX_HIDDEN} hidden units "
                     f"adds {learned_size(players, 1) - linear})")


def encode_features(state, float[::1] out):
    """Write the neutral feature vector of `state` (mcts.searcher.features) into `out`
    (float32, F_GLOBAL + players x F_PLAYER numbers)."""
    cdef GameState s
    cdef Board b
    cdef int p, k
    load_state(state, &s, &b)
    if out.shape[0] != F_GLOBAL + s.num_players * F_PLAYER:
        raise ValueError(f"out: expected {F_GLOBAL + s.num_players * F_PLAYER} numbers, "
                         f"got {out.shape[0]}")
    with nogil:
        k = global_features(&s, &out[0])
        for p in range(s.num_players):
            k += seat_features(&b, &s, p, &out[k])


def learned_win_of(state, double[::1] weights, base=None, long repeats=1):
    """The learned evaluation's win chances of every seat in `state` with the
    search's weights (`learned_win`; 2 x players x F_PLAYER numbers); a
    residual model's corrects the chances `base` (one per seat). `repeats`
    evaluates the position that many times without the GIL, for timing it
    (bench/bench_eval.py); the chances are the same."""
    cdef GameState s
    cdef Board b
    cdef double win[MAX_PLAYERS]
    cdef double given[MAX_PLAYERS]
    cdef bint residual = base is not None
    cdef int p, hidden
    cdef long r
    if repeats < 1:
        raise ValueError(f"repeats: must be at least 1, got {repeats}")
    load_state(state, &s, &b)
    hidden = hidden_units(s.num_players, weights.shape[0], "weights")
    memset(given, 0, sizeof(given))
    if residual:
        if len(base) != s.num_players:
            raise ValueError(f"base: expected {s.num_players} win chances, got {len(base)}")
        for p in range(s.num_players):
            given[p] = float(base[p])
    with nogil:
        for r in range(repeats):
            memcpy(win, given, sizeof(win))
            learned_win(&b, &s, &weights[0], hidden, residual, win)
    return [win[p] for p in range(s.num_players)]
