# The Python face of the core (included by _fastcore.pyx): CoreGame holds
# the board table as a C struct, State holds one GameState and a dealer RNG.

class IllegalActionError(ValueError):
    """An action that is not legal in this state."""


BOARD_FIELDS = ("river_value", "river_bonus", "north_of", "south_of", "capacity",
                "coat_quarter", "coat_vp", "coat_later_vp", "quarter_coat",
                "outer_coat", "coat_outer", "cathedral_colours", "trade_cost")


def derive_seed(seed, stream, *streams):
    """The seed of a sub-stream: `seed` mixed with `stream`, then with each of
    `streams` in turn (splitmix64's finaliser, see `mix_seed`). Every random
    choice of the project takes its seed from a user's seed through this.
    Seeds are taken modulo 2**64; the result is in 0 .. 2**64-1."""
    cdef uint64_t h = mix_seed(<uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF),
                               <uint64_t>(int(stream) & 0xFFFFFFFFFFFFFFFF))
    for s in streams:
        h = mix_seed(h, <uint64_t>(int(s) & 0xFFFFFFFFFFFFFFFF))
    return int(h)


def check_variant(value):
    """`value` if it names a rule variant (VARIANTS); OptionError("variant", ...)
    naming the choices otherwise. The one reading of a variant's name: a game,
    a record, a position file and the web companion use it."""
    if isinstance(value, str) and value in VARIANTS:
        return value
    from ulm.errors import OptionError
    shown = repr(value)
    if len(shown) > 40:         # a message never echoes a whole upload back
        shown = shown[:39] + "…"
    raise OptionError("variant", value,
                      f"must be {' or '.join(map(repr, VARIANTS))}, got {shown}")


cdef class CoreGame:
    """Player count, variant and board table of a game; makes its states."""

    def __init__(self, int num_players, variant, dict table):
        if num_players < 2 or num_players > MAX_PLAYERS:  # R-COMP-6
            raise ValueError(f"players: Ulm is for 2, 3 or 4 players, got {num_players}")
        from ulm.board import check_table
        table = check_table(table)      # nothing the core indexes with is out of range
        self.variant_value = VARIANTS.index(check_variant(variant))
        self.num_players = num_players
        self.variant = VARIANTS[self.variant_value]
        self.table = table
        self.board = {k: table[k] for k in BOARD_FIELDS}

    def new_initial_state(self):
        """The state before set-up; its first events are the set-up's chance draws."""
        cdef State st = State.__new__(State)
        st.game = self
        state_init(&st.s, self.num_players, self.variant_value)
        rng_seed(&st.dealer, 0)
        return st

    def new_game(self, seed=0):
        """A set-up game (R-SETUP-8): chance draws come from a dealer seeded with `seed`."""
        cdef State st = self.new_initial_state()
        rng_seed(&st.dealer, <uint64_t>seed)
        st.resolve_chance()
        return st


cdef class State:
    """One position. Follows OpenSpiel's State contract in snake_case."""

    # --- OpenSpiel contract -------------------------------------------------
    def current_player(self):
        return current_player(&self.s)

    def is_terminal(self):
        return current_player(&self.s) == TERMINAL_PLAYER

    def is_chance_node(self):
        return current_player(&self.s) == CHANCE_PLAYER

    def legal_actions(self, player=None):
        cdef int16_t buf[MAX_LEGAL]
        cdef double prob[NUM_CARDS]
        cdef int n, i
        if player is not None and player != current_player(&self.s):
            return []
        if current_player(&self.s) == CHANCE_PLAYER:
            n = chance_outcomes(&self.s, buf, prob)
        else:
            n = legal_actions(&self.game.board, &self.s, buf)
        return [buf[i] for i in range(n)]

    def chance_outcomes(self):
        cdef int16_t buf[MAX_LEGAL]
        cdef double prob[NUM_CARDS]
        cdef int n = chance_outcomes(&self.s, buf, prob), i
        return [(buf[i], prob[i]) for i in range(n)]

    def apply_action(self, int action):
        if not 0 <= action < NUM_ACTIONS or not is_legal(&self.game.board, &self.s, action):
            raise IllegalActionError(self._illegal_message(action))
        apply_action(&self.game.board, &self.s, action)

    def _illegal_message(self, action):
        name = ACTION_NAMES[action] if 0 <= action < NUM_ACTIONS else "out of range"
        if self.is_terminal():
            return f"action {action} ({name}) is illegal: the game is over"
        legal = ", ".join(ACTION_NAMES[a] for a in self.legal_actions())
        return f"action {action} ({name}) is illegal here; legal: {legal}"

    def apply_action_string(self, str text):
        self.apply_action(self.string_to_action(text))

    def clone(self):
        cdef State st = State.__new__(State)
        st.s = self.s
        st.dealer = self.dealer
        st.game = self.game
        return st

    def __copy__(self):
        return self.clone()

    def num_players(self):
        return self.s.num_players

    def round(self):
        """The round, counted from 0 (a game has NUM_ROUNDS; R-END-1), and
        NUM_ROUNDS once the game is over."""
        return self.s.round

    def phase(self):
        """The phase of the turn, an index of PHASES (R-TURN-1)."""
        return self.s.phase

    def turn_player(self):
        """The seat whose turn it is, also during its chance events (where
        current_player() is CHANCE)."""
        return self.s.turn_player

    def looked_card_count(self):
        """How many cards the player to move is looking at (0 but during a
        look): the count is seen by everyone, the cards only by that player."""
        return self.s.n_looked_cards

    def returns(self):
        """Win shares at the end (ties share, R-END-3); zeros before."""
        cdef int won[MAX_PLAYERS]
        cdef int n, p
        if not self.is_terminal():
            return [0.0] * self.s.num_players
        n = winners(&self.game.board, &self.s, won)
        return [won[p] / <double>n for p in range(self.s.num_players)]

    def winners(self):
        """The seats that won (R-END-3; several share a tie); empty before the end."""
        cdef int won[MAX_PLAYERS]
        if not self.is_terminal():
            return []
        winners(&self.game.board, &self.s, won)
        return [p for p in range(self.s.num_players) if won[p]]

    def scores(self):
        """Victory points so far (final scores once the game is over)."""
        return [self.s.players[p].score for p in range(self.s.num_players)]

    def projected_scores(self):
        """Scores if the game ended now (end-game items added)."""
        cdef int16_t src[NUM_SOURCES]
        if self.is_terminal():
            return self.scores()
        return [self.s.players[p].score + end_bonus(&self.game.board, &self.s, p, src)
                for p in range(self.s.num_players)]

    def score_breakdown(self, int player):
        """VP by source (R-END-4). Before the end, end-game items are what they would give now."""
        cdef int16_t src[NUM_SOURCES]
        cdef int i
        if not 0 <= player < self.s.num_players:
            raise ValueError(f"player: no seat {player} in a {self.s.num_players}-player game")
        out = {SOURCES[i]: self.s.players[player].vp[i] for i in range(NUM_SOURCES)}
        if not self.is_terminal():
            end_bonus(&self.game.board, &self.s, player, src)
            for i in range(SRC_END_SPARROWS, NUM_SOURCES):
                out[SOURCES[i]] = src[i]
        out["total"] = sum(out.values())
        return out

    def action_to_string(self, int action, player=None):
        if not 0 <= action < NUM_ACTIONS:
            raise IllegalActionError(f"action {action} is out of range 0..{NUM_ACTIONS - 1}")
        return ACTION_NAMES[action]

    def action_fields(self, action):
        """An action as data in this position: the module's action_fields (its
        kind and fields) with "by", the seat that decides it (the seat whose turn
        it is; None for a chance outcome), and what the position adds: for
        "river_step" and "move_barge" the river spaces the mover's barge is on
        ("river_from") and lands on ("river_to", by the core's own movement rule;
        None when it cannot move), for "take_pushed_out" the outer space of this
        turn's pushed-out tile ("outer"; None before a push), for "chance_tile" in
        the set-up the grid space it fills ("cell") or the seat whose supply it
        goes to ("seat")."""
        cdef int mover = self.s.turn_player, steps, to, top
        fields = action_fields(action)
        kind = fields["kind"]
        fields["by"] = mover if action < NUM_DECISIONS else None
        if kind == "river_step" or kind == "move_barge":
            steps = fields.get("spaces", 1)
            to = barge_landing(&self.s, mover, steps)
            fields["river_from"] = self.s.players[mover].barge
            fields["river_to"] = None if steps and to == self.s.players[mover].barge else to
        elif kind == "take_pushed_out":
            fields["outer"] = self.s.pushed_out_at if self.s.pushed_out_at >= 0 else None
        elif kind == "chance_tile" and self.s.n_tasks > 0:
            top = self.s.n_tasks - 1
            if self.s.task[top] == TK_GRID_FILL:
                fields["cell"] = self.s.task_arg[top]
            elif self.s.task[top] == TK_PLAYER_TILE:
                fields["seat"] = self.s.task_arg[top]
        return fields

    @staticmethod
    def string_to_action(str text):
        """An action id from its name: the engine's ("play Siege (upper)") or the words
        of the command line ("play Siege (immediate bonus)", "lay Siege in front
        (end-game points)", "drew white", "revealed T4"), without case or extra blanks
        (ulm.decisions.action_from_words). Unknown: IllegalActionError."""
        try:
            return _ACTION_IDS[text]
        except KeyError:
            pass
        from ulm.decisions import DecisionError, action_from_words
        try:
            return action_from_words(text)
        except DecisionError as exc:
            raise IllegalActionError(str(exc)) from None

    # --- chance and playouts ------------------------------------------------
    def seed_dealer(self, seed):
        rng_seed(&self.dealer, <uint64_t>seed)

    def resolve_chance(self):
        """Draw every pending chance event with this state's dealer RNG."""
        while current_player(&self.s) == CHANCE_PLAYER:
            apply_action(&self.game.board, &self.s, sample_chance(&self.s, &self.dealer))

    def sample_chance_outcome(self):
        """One chance outcome drawn with the dealer RNG (not applied)."""
        if current_player(&self.s) != CHANCE_PLAYER:
            raise IllegalActionError("not a chance node")
        return sample_chance(&self.s, &self.dealer)

    def information_state_string(self, int player):
        """What `player` knows now (R-INFO-4), as text: two states give the same
        string iff they are the same to that player. The state with what the
        player cannot see blanked out, and the reshuffle groups of the cards it
        cannot see in others' hands (the blanking of information_state_key)."""
        cdef GameState v
        if not 0 <= player < self.s.num_players:
            raise ValueError(f"player: no seat {player} in a {self.s.num_players}-player game")
        memcpy(&v, &self.s, sizeof(GameState))
        groups = _blank_unseen(&v, player)
        return (f"observer {player}: " + repr(sorted(_struct_to_dict(&v).items()))
                + f" groups of the unseen cards: {groups}")

    def observation_tensor(self, player, out=None):
        """What `player` knows now (R-INFO-4) as OBSERVATION_SIZE float32 numbers
        (the slices: OBSERVATION_SLICES, docs/environments.md), built in compiled
        code: equal for every state the player cannot tell apart. Into `out` (a
        writable float32 buffer of that size) when given, else a new numpy array."""
        return _observation_into(self, player, out)

    @staticmethod
    def observation_tensor_shape():
        """The shape of observation_tensor(): (OBSERVATION_SIZE,)."""
        return (OB_SIZE,)

    def hidden_cards(self, int player):
        """The cards whose place `player` does not know, as a bitmask (bit c: CARDS[c]):
        the draw pile, the opponents' hand cards drawn face down, the cards an opponent
        is looking at (R-INFO-3). resample_from_infostate redeals exactly these, each
        among the places its reshuffle group can be (card_group)."""
        if not 0 <= player < self.s.num_players:
            raise ValueError(f"player: no seat {player} in a {self.s.num_players}-player game")
        return hidden_cards(&self.s, player)

    def information_state_key(self, int player):
        """What `player` knows now, compactly: the state's bytes with what the
        player cannot see blanked out, plus the reshuffle groups of the hidden
        cards (the blanking of information_state_string: equal keys iff equal
        strings; tests/ulm/test_information_key.py checks both ways). Built in
        compiled code: a cheap dictionary key for searchers that key nodes by
        information state (OpenSpiel's ISMCTS, through ulm/openspiel.py)."""
        cdef GameState v
        if not 0 <= player < self.s.num_players:
            raise ValueError(f"player: no seat {player} in a {self.s.num_players}-player game")
        # a whole-struct copy: padding bytes are zero from state_init and copied along
        memcpy(&v, &self.s, sizeof(GameState))
        looked, hands = _blank_unseen(&v, player)
        extra = bytearray(looked)
        for groups in hands:
            extra += bytes((255, len(groups))) + bytes(groups)
        return bytes((player,)) + (<char*>&v)[:sizeof(GameState)] + bytes(extra)

    def resample_from_infostate(self, int player, seed):
        """A full state `player` cannot tell from this one, drawn uniformly (R-INFO-4)."""
        cdef State st = self.clone()
        cdef Rng r
        if not 0 <= player < self.s.num_players:
            raise ValueError(f"player: no seat {player} in a {self.s.num_players}-player game")
        rng_seed(&r, <uint64_t>seed)
        determinize(&st.s, player, &r)
        # the dealer decides future chance events: a resampled world gets its own
        rng_seed(&st.dealer, mix_seed(<uint64_t>seed, 1))
        return st

    def random_playout(self, seed):
        """Play this state to the end with uniformly random decisions; returns the scores."""
        cdef Rng r
        rng_seed(&r, <uint64_t>seed)
        with nogil:
            random_playout(&self.game.board, &self.s, &r)
        return self.scores()

    # --- inspection ---------------------------------------------------------
    def raw(self):
        """The C struct as a dict of ints and lists (field names as in _fastcore.pxd)."""
        return _struct_to_dict(&self.s)

    def set_raw(self, dict d):
        """Change the C struct: `d` holds fields as returned by raw(), any subset
        (players: all of them, each with any subset of its fields). Every value
        is checked against the range the core relies on, the task stack and the
        tiles the core reads as colours too, so no value can make the core read
        or write outside its arrays; ValueError names the field, and then
        nothing is changed. The game's conservation laws (50 tiles, 33 cards,
        ...) are not checked here: rule tests build such states on purpose;
        ulm.positions checks them for position files."""
        _dict_to_struct(d, &self.s)

    def task_stack(self):
        return [(int(self.s.task[i]), int(self.s.task_arg[i])) for i in range(self.s.n_tasks)]

    def __reduce__(self):
        return (_rebuild_state, (self.game, self.raw(), self.dealer.s))

    def __str__(self):
        if _renderer is None:
            return f"<ulm State: round {self.s.round + 1}, player {self.s.turn_player} to move>"
        return _renderer(self)


_renderer = None


def set_renderer(fn):
    """Install the text rendering used by str(state) (ulm.render sets it)."""
    global _renderer
    _renderer = fn


def _rebuild_state(CoreGame game, dict raw, dealer):
    cdef State st = game.new_initial_state()
    st.set_raw(raw)
    st.dealer.s = dealer
    return st


def bench_determinize(State state, int player, int count, uint64_t seed):
    """Determinize copies of `state` for `player` `count` times in compiled code."""
    cdef GameState s
    cdef Rng r
    cdef int i
    rng_seed(&r, seed)
    with nogil:
        for i in range(count):
            s = state.s
            determinize(&s, player, &r)
    return count


def bench_playouts(CoreGame game, int games, uint64_t seed):
    """Play `games` random games from fresh set-ups, all in compiled code."""
    cdef GameState s
    cdef Rng r
    cdef int g
    rng_seed(&r, seed)
    with nogil:
        for g in range(games):
            state_init(&s, game.num_players, game.variant_value)
            random_playout(&game.board, &s, &r)
    return games


def sample_legal_counts(State state, int draws, uint64_t seed):
    """How often the playouts' sampler draws each decision in `draws` draws
    from `state` ({action: count}); for testing that it is uniform over
    legal_actions(). Empty at chance nodes and at the end."""
    cdef Rng r
    cdef int i, a
    cdef int counts[NUM_DECISIONS]
    cdef int16_t buf[MAX_LEGAL]
    if legal_actions(&state.game.board, &state.s, buf) == 0:
        return {}
    memset(counts, 0, sizeof(counts))
    rng_seed(&r, seed)
    with nogil:
        for i in range(draws):
            a = sample_legal(&state.game.board, &state.s, &r)
            if 0 <= a < NUM_DECISIONS:
                counts[a] += 1
    return {a: counts[a] for a in range(NUM_DECISIONS) if counts[a]}


# Struct <-> dict by hand: Cython would turn the int8 arrays into bytes.


cdef tuple _blank_unseen(GameState* v, int player):
    """Blank in `v`, a copy of a state, what `player` cannot see (R-INFO-4), the one
    reading of it that the information-state key and string share: the draw pile
    and the unknown coats as counts (R-INFO-2), a coat under the stack only where
    the player knows it (R-COAT-4), the cards another seat looks at and the others'
    hidden hand cards (R-INFO-3, 3a) removed; the order of what the player looks at
    (no knowledge) sorted; the unused entries of the fixed arrays and seats made
    equal. Returns what the player may know of the removed cards, their reshuffle
    groups (R-INFO-3b): those of the looked-at cards, and per opponent in turn."""
    cdef int p, i, n
    cdef int8_t c
    cdef uint8_t k
    cdef uint64_t hidden
    v.pile = popcount64(v.pile)                                 # R-INFO-2
    v.coat_unknown = popcount64(v.coat_unknown)
    for i in range(NUM_COATS):                                  # R-COAT-4
        if i >= v.coat_tail_len:
            v.coat_tail[i] = -2
            v.coat_tail_by[i] = -2
            v.coat_tail_known[i] = 0
        elif not v.coat_tail_known[i] >> player & 1:
            v.coat_tail[i] = -1
    for i in range(2):
        if i >= v.n_looked_coats:
            v.looked_coats[i] = -2
            v.looked_coat_known[i] = 0
        elif not v.looked_coat_known[i] >> player & 1:
            v.looked_coats[i] = -1
    looked = []
    n = v.n_looked_cards
    if v.turn_player != player:                                 # R-INFO-3, 3b
        looked = sorted(v.card_group[v.looked_cards[i]] for i in range(n))
        for i in range(n):
            v.looked_cards[i] = -1
    else:
        sort8(v.looked_cards, n)
        if v.n_looked_coats == 2 and v.looked_coats[1] < v.looked_coats[0]:
            c = v.looked_coats[0]; v.looked_coats[0] = v.looked_coats[1]; v.looked_coats[1] = c
            k = v.looked_coat_known[0]
            v.looked_coat_known[0] = v.looked_coat_known[1]
            v.looked_coat_known[1] = k
    for i in range(n, 3):
        v.looked_cards[i] = -2
    for i in range(v.n_tasks, MAX_TASKS):
        v.task[i] = 0
        v.task_arg[i] = 0
    hands = []
    for p in range(MAX_PLAYERS):
        if p >= v.num_players:
            memset(&v.players[p], 0, sizeof(Player))
        elif p != player:                                       # R-INFO-3a, 3b
            hidden = v.players[p].hand & ~v.players[p].known
            hands.append(sorted(v.card_group[i] for i in range(NUM_CARDS) if hidden >> i & 1))
            v.players[p].hand = 0
    return looked, hands


cdef dict _struct_to_dict(const GameState* s):
    cdef int p, i
    d = {
        "num_players": s.num_players, "variant": s.variant, "round": s.round,
        "turn_player": s.turn_player, "phase": s.phase, "tiles_added": s.tiles_added,
        "pile": s.pile, "discard": s.discard, "reshuffles": s.reshuffles,
        "card_group": [s.card_group[i] for i in range(NUM_CARDS)],
        "coat_unknown": s.coat_unknown,
        "coat_tail_len": s.coat_tail_len, "tower_unseen": s.tower_unseen,
        "tower_current": s.tower_current, "tower_next": s.tower_next,
        "free_play": s.free_play, "t5_seal": s.t5_seal, "river_extra": s.river_extra,
        "draw_swap_used": s.draw_swap_used, "merchant_used": s.merchant_used,
        "t10_used": s.t10_used, "pushed_out_at": s.pushed_out_at,
        "n_looked_cards": s.n_looked_cards, "n_looked_coats": s.n_looked_coats,
        "n_tasks": s.n_tasks,
        "grid": [s.grid[i] for i in range(9)],
        "outer": [s.outer[i] for i in range(NUM_OUTER)],
        "outer_mark": [s.outer_mark[i] for i in range(NUM_OUTER)],
        "bag": [s.bag[i] for i in range(NUM_COLOURS)],
        "docks": [s.docks[i] for i in range(NUM_COLOURS)],
        "coat_tail": [s.coat_tail[i] for i in range(NUM_COATS)],
        "coat_tail_by": [s.coat_tail_by[i] for i in range(NUM_COATS)],
        "coat_tail_known": [s.coat_tail_known[i] for i in range(NUM_COATS)],
        "coat_owner": [s.coat_owner[i] for i in range(NUM_COATS)],
        "crest_owner": [s.crest_owner[i] for i in range(NUM_QUARTERS)],
        "quarter_seals": [s.quarter_seals[i] for i in range(NUM_QUARTERS)],
        "desc": [s.desc[i] for i in range(NUM_DESCENDANTS)],
        "drawn": [s.drawn[0], s.drawn[1]],
        "avail": [s.avail[i] for i in range(NUM_COLOURS)],
        "extra": [s.extra[i] for i in range(NUM_COLOURS)],
        "looked_cards": [s.looked_cards[i] for i in range(3)],
        "looked_coats": [s.looked_coats[i] for i in range(2)],
        "looked_coat_known": [s.looked_coat_known[i] for i in range(2)],
        "task": [s.task[i] for i in range(MAX_TASKS)],
        "task_arg": [s.task_arg[i] for i in range(MAX_TASKS)],
        "players": [],
    }
    for p in range(s.num_players):
        pl = &s.players[p]
        d["players"].append({
            "score": pl.score, "coins": pl.coins, "sparrows": pl.sparrows,
            "barge": pl.barge, "seals_left": pl.seals_left, "crests_left": pl.crests_left,
            "hand": pl.hand, "known": pl.known, "front": pl.front, "coats": pl.coats,
            "supply": [pl.supply[i] for i in range(NUM_COLOURS)],
            "seals_in": [pl.seals_in[i] for i in range(NUM_QUARTERS)],
            "vp": [pl.vp[i] for i in range(NUM_SOURCES)],
        })
    return d


# Every field set_raw may write, with its range: what the C core relies on
# never to read or write outside its arrays (not the game's conservation laws;
# ulm.positions checks those for position files).
def _mask(int n):
    return (1 << <object>n) - 1     # in Python ints: 1 << 33 overflows a C int


_SCALAR_RANGES = {
    "num_players": (2, MAX_PLAYERS), "variant": (0, len(VARIANTS) - 1), "round": (0, NUM_ROUNDS),
    "turn_player": (0, MAX_PLAYERS - 1), "phase": (PH_BEFORE_DRAW, PH_GAME_OVER),
    "tiles_added": (0, 250), "pile": (0, _mask(NUM_CARDS)),
    "discard": (0, _mask(NUM_CARDS)), "coat_unknown": (0, _mask(NUM_COATS)),
    "coat_tail_len": (0, NUM_COATS), "tower_unseen": (0, _mask(NUM_TOWER)),
    "tower_current": (NO_TOWER, NUM_TOWER - 1), "tower_next": (NO_TOWER, NUM_TOWER - 1),
    "free_play": (0, 1), "t5_seal": (0, 1), "river_extra": (0, 9), "draw_swap_used": (0, 1),
    "merchant_used": (0, 1), "t10_used": (0, 1), "pushed_out_at": (-1, NUM_OUTER - 1),
    "n_looked_cards": (0, 3), "n_looked_coats": (0, 2), "n_tasks": (0, MAX_TASKS),
    "reshuffles": (0, 255),
}
_SEAT_OR_NONE = (-1, MAX_PLAYERS - 1)
_ARRAY_RANGES = {  # name: (length, lo, hi)
    "grid": (9, NO_TILE, NUM_COLOURS - 1), "outer": (NUM_OUTER, NO_TILE, NUM_COLOURS - 1),
    "outer_mark": (NUM_OUTER,) + _SEAT_OR_NONE, "bag": (NUM_COLOURS, 0, 250),
    "docks": (NUM_COLOURS, 0, 50), "coat_tail": (NUM_COATS, -1, NUM_COATS - 1),
    "coat_tail_by": (NUM_COATS,) + _SEAT_OR_NONE, "coat_owner": (NUM_COATS,) + _SEAT_OR_NONE,
    "crest_owner": (NUM_QUARTERS,) + _SEAT_OR_NONE, "quarter_seals": (NUM_QUARTERS, 0, 48),
    "desc": (NUM_DESCENDANTS, DESC_UNSEEN, MAX_PLAYERS - 1), "drawn": (2, NO_TILE, NUM_COLOURS - 1),
    "avail": (NUM_COLOURS, 0, 9), "looked_cards": (3, -1, NUM_CARDS - 1),
    "looked_coats": (2, -1, NUM_COATS - 1), "task": (MAX_TASKS, TK_NONE, TK_ABBOT_DOCK),
    "task_arg": (MAX_TASKS, -128, 127),
    "card_group": (NUM_CARDS, 0, 255), "extra": (NUM_COLOURS, 0, 9),
    "coat_tail_known": (NUM_COATS, 0, _mask(MAX_PLAYERS)),
    "looked_coat_known": (2, 0, _mask(MAX_PLAYERS)),
}
_PLAYER_RANGES = {
    "score": (-999, 999), "coins": (0, 999), "sparrows": (0, 999), "barge": (0, RIVER_LEN - 1),
    "seals_left": (0, SEALS_PER_PLAYER), "crests_left": (0, CRESTS_PER_PLAYER),
    "hand": (0, _mask(NUM_CARDS)), "front": (0, _mask(NUM_CARDS)),
    "coats": (0, _mask(NUM_COATS)), "known": (0, _mask(NUM_CARDS)),
}
_PLAYER_ARRAYS = {"supply": (NUM_COLOURS, 0, 50), "seals_in": (NUM_QUARTERS, 0, SEALS_PER_PLAYER),
                  "vp": (NUM_SOURCES, -999, 999)}
# the argument each task carries (others carry 0)
_TASK_ARGS = {TK_GRID_FILL: (0, 8), TK_PLAYER_TILE: (0, MAX_PLAYERS - 1),
              TK_DRAW_PUSH_TILE: (0, 1), TK_BARGE_MOVE: (0, 4),
              TK_REFORM_PICK: (0, 2), TK_PAY_COLOUR: (0, CARD_CHOIR + 2)}


def _whole(value, where, lo, hi):
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{where}: must be a whole number, got {value!r}")
    if not lo <= value <= hi:
        raise ValueError(f"{where}: must be between {lo} and {hi}, got {value}")
    return value


def _whole_list(values, where, n, lo, hi):
    if not isinstance(values, (list, tuple)):
        raise ValueError(f"{where}: must be a list of {n} whole numbers, got {type(values).__name__}")
    if len(values) != n:
        raise ValueError(f"{where}: expected {n} values, got {len(values)}")
    return [_whole(v, f"{where}[{i}]", lo, hi) for i, v in enumerate(values)]


def _checked_raw(dict d, dict current):
    """`current` (a raw() dict) updated by `d`, every field checked: ValueError
    names the first field out of range, of the wrong length or inconsistent."""
    out = dict(current)
    for k, v in d.items():
        if k in _SCALAR_RANGES:
            out[k] = _whole(v, k, *_SCALAR_RANGES[k])
        elif k in _ARRAY_RANGES:
            out[k] = _whole_list(v, k, *_ARRAY_RANGES[k])
        elif k != "players":
            raise ValueError(f"{k}: not a field of the game state")
    n = out["num_players"]
    players = [dict(p) for p in current["players"]]
    players += [dict(players[len(players) - 1]) for _ in range(MAX_PLAYERS - len(players))]
    if "players" in d:
        given = d["players"]
        if not isinstance(given, (list, tuple)) or len(given) != n:
            raise ValueError(f"players: expected a list of {n} players (num_players), got "
                             f"{len(given) if isinstance(given, (list, tuple)) else type(given).__name__}")
        for p, pd in enumerate(given):
            if not isinstance(pd, dict):
                raise ValueError(f"players[{p}]: must be a dict, got {type(pd).__name__}")
            for k, v in pd.items():
                where = f"players[{p}].{k}"
                if k in _PLAYER_RANGES:
                    players[p][k] = _whole(v, where, *_PLAYER_RANGES[k])
                elif k in _PLAYER_ARRAYS:
                    players[p][k] = _whole_list(v, where, *_PLAYER_ARRAYS[k])
                else:
                    raise ValueError(f"{where}: not a field of a player")
    out["players"] = players[:n]
    # seats must exist in this game
    if out["turn_player"] >= n:
        raise ValueError(f"turn_player: no seat {out['turn_player']} in a {n}-player game")
    for name in ("outer_mark", "coat_tail_by", "coat_owner", "crest_owner", "desc"):
        for i, v in enumerate(out[name]):
            if v >= n:
                raise ValueError(f"{name}[{i}]: no seat {v} in a {n}-player game")
    for i, g in enumerate(out["card_group"]):   # R-INFO-3b: groups of past reshuffles
        if g > out["reshuffles"]:
            raise ValueError(f"card_group[{i}]: reshuffle {g}, but only {out['reshuffles']} happened")
    for i in range(out["coat_tail_len"]):
        if out["coat_tail"][i] < 0:
            raise ValueError(f"coat_tail[{i}]: a coat of the {out['coat_tail_len']} under the stack")
        if out["coat_tail_by"][i] < 0:      # R-COAT-4: the seat that put it there knows it
            raise ValueError(f"coat_tail_by[{i}]: the seat that put coat {i} under the stack, "
                             f"got {out['coat_tail_by'][i]}")
    for name, count in (("looked_cards", out["n_looked_cards"]), ("looked_coats", out["n_looked_coats"])):
        for i in range(count):
            if out[name][i] < 0:
                raise ValueError(f"{name}[{i}]: one of the {count} looked at, got {out[name][i]}")
    # each coat in one place at most: the stack's arrays hold NUM_COATS entries
    seen = {}
    places = [(c, "coat_unknown") for c in range(NUM_COATS) if out["coat_unknown"] >> c & 1]
    places += [(out["coat_tail"][i], f"coat_tail[{i}]") for i in range(out["coat_tail_len"])]
    places += [(out["looked_coats"][i], f"looked_coats[{i}]") for i in range(out["n_looked_coats"])]
    places += [(c, f"coat_owner[{c}]") for c in range(NUM_COATS) if out["coat_owner"][c] >= 0]
    for c, where in places:
        if c in seen:
            raise ValueError(f"{where}: coat {c} is already in {seen[c]}")
        seen[c] = where
    # the task stack: known tasks below n_tasks, their arguments in range
    nt = out["n_tasks"]
    pending_fill = set()
    for i in range(nt):
        t, a = out["task"][i], out["task_arg"][i]
        if t == TK_NONE:
            raise ValueError(f"task[{i}]: one of the {nt} pending tasks, got none (0)")
        lo, hi = _TASK_ARGS.get(t, (0, 0))
        if t == TK_PLAYER_TILE:
            hi = n - 1
        if t == TK_AMOUNT:
            if a not in (CARD_SIEGE, CARD_SPARROW):
                raise ValueError(f"task_arg[{i}]: the amount task's card is Siege ({CARD_SIEGE}) "
                                 f"or Ulm Sparrow ({CARD_SPARROW}), got {a}")
        elif not lo <= a <= hi:
            raise ValueError(f"task_arg[{i}]: task {TASKS[t]!r} takes {lo}..{hi}, got {a}")
        if t == TK_GRID_FILL:
            pending_fill.add(a)
    for task, name, room in ((TK_CARD_LOOK, "looked_cards", 3), (TK_COAT_DRAW, "looked_coats", 2)):
        coming = sum(1 for i in range(nt) if out["task"][i] == task)
        if out["n_" + name] + coming > room:
            raise ValueError(f"n_{name}: {out['n_' + name]} looked at and {coming} more to come "
                             f"({TASKS[task]!r} pending), more than the {room} there is room for")
    # tiles the core reads as colours
    for i, c in enumerate(out["grid"]):
        if c == NO_TILE and i not in pending_fill:
            raise ValueError(f"grid[{i}]: empty, but no grid fill of cell {i} is pending")
    drawn_later = {out["task_arg"][i] for i in range(nt) if out["task"][i] == TK_DRAW_PUSH_TILE}
    needs = set()
    if out["phase"] == PH_PUSH and not any(out["task"][i] == TK_DRAW_PUSH_TILE for i in range(nt)):
        needs.add(0)
    if any(out["task"][i] == TK_BUILDER_KEEP for i in range(nt)):
        needs.update((0, 1))
    for k in sorted(needs - drawn_later):
        if out["drawn"][k] == NO_TILE:
            raise ValueError(f"drawn[{k}]: a tile is needed here (phase {PHASES[out['phase']]}, "
                             f"tasks {[TASKS[t] for t in out['task'][:nt]]})")
    return out


cdef void _dict_to_struct(dict d, GameState* s) except *:
    """Write a raw() dict into the struct, after `_checked_raw` (nothing is
    written when a field is bad)."""
    cdef GameState t = s[0]
    cdef int p, i
    out = _checked_raw(d, _struct_to_dict(s))
    t.num_players = out["num_players"]
    t.variant = out["variant"]
    t.round = out["round"]
    t.turn_player = out["turn_player"]
    t.phase = out["phase"]
    t.tiles_added = out["tiles_added"]
    t.pile = out["pile"]
    t.discard = out["discard"]
    t.reshuffles = out["reshuffles"]
    t.coat_unknown = out["coat_unknown"]
    t.coat_tail_len = out["coat_tail_len"]
    t.tower_unseen = out["tower_unseen"]
    t.tower_current = out["tower_current"]
    t.tower_next = out["tower_next"]
    t.free_play = out["free_play"]
    t.t5_seal = out["t5_seal"]
    t.river_extra = out["river_extra"]
    t.draw_swap_used = out["draw_swap_used"]
    t.merchant_used = out["merchant_used"]
    t.t10_used = out["t10_used"]
    t.pushed_out_at = out["pushed_out_at"]
    t.n_looked_cards = out["n_looked_cards"]
    t.n_looked_coats = out["n_looked_coats"]
    t.n_tasks = out["n_tasks"]
    for i in range(9): t.grid[i] = out["grid"][i]
    for i in range(NUM_OUTER):
        t.outer[i] = out["outer"][i]
        t.outer_mark[i] = out["outer_mark"][i]
    for i in range(NUM_COLOURS):
        t.bag[i] = out["bag"][i]
        t.docks[i] = out["docks"][i]
        t.avail[i] = out["avail"][i]
        t.extra[i] = out["extra"][i]
    for i in range(NUM_COATS):
        t.coat_tail[i] = out["coat_tail"][i]
        t.coat_tail_by[i] = out["coat_tail_by"][i]
        t.coat_tail_known[i] = out["coat_tail_known"][i]
        t.coat_owner[i] = out["coat_owner"][i]
    for i in range(NUM_QUARTERS):
        t.crest_owner[i] = out["crest_owner"][i]
        t.quarter_seals[i] = out["quarter_seals"][i]
    for i in range(NUM_DESCENDANTS): t.desc[i] = out["desc"][i]
    for i in range(NUM_CARDS): t.card_group[i] = out["card_group"][i]
    for i in range(2):
        t.drawn[i] = out["drawn"][i]
        t.looked_coats[i] = out["looked_coats"][i]
        t.looked_coat_known[i] = out["looked_coat_known"][i]
    for i in range(3): t.looked_cards[i] = out["looked_cards"][i]
    for i in range(MAX_TASKS):
        t.task[i] = out["task"][i] if i < t.n_tasks else TK_NONE
        t.task_arg[i] = out["task_arg"][i] if i < t.n_tasks else 0
    for p, pd in enumerate(out["players"]):
        pl = &t.players[p]
        pl.score = pd["score"]
        pl.coins = pd["coins"]
        pl.sparrows = pd["sparrows"]
        pl.barge = pd["barge"]
        pl.seals_left = pd["seals_left"]
        pl.crests_left = pd["crests_left"]
        pl.hand = pd["hand"]
        pl.known = pd["known"] & pd["hand"]
        pl.front = pd["front"]
        pl.coats = pd["coats"]
        for i in range(NUM_COLOURS): pl.supply[i] = pd["supply"][i]
        for i in range(NUM_QUARTERS): pl.seals_in[i] = pd["seals_in"][i]
        for i in range(NUM_SOURCES): pl.vp[i] = pd["vp"][i]
    # what every state holds by construction: a coat put under is known to the
    # one who put it there, a coat being looked at to the player looking (R-COAT-4)
    for i in range(NUM_COATS):
        if i < t.coat_tail_len and 0 <= t.coat_tail_by[i] < MAX_PLAYERS:
            t.coat_tail_known[i] |= 1 << t.coat_tail_by[i]
        elif i >= t.coat_tail_len:
            t.coat_tail_known[i] = 0
    for i in range(2):
        if i < t.n_looked_coats and 0 <= t.turn_player < MAX_PLAYERS:
            t.looked_coat_known[i] |= 1 << t.turn_player
        elif i >= t.n_looked_coats:
            t.looked_coat_known[i] = 0
    s[0] = t
