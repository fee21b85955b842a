# The Python face of the core (included by _fastcore.pyx): CoreGame holds
# the board table as a C struct, State holds one GameState and a dealer RNG.

class IllegalActionError(ValueError):
    """An action that is not legal in this state."""


BOARD_FIELDS = ("river_value", "river_bonus", "north_of", "south_of", "capacity",
                "coat_quarter", "coat_vp", "coat_later_vp", "quarter_coat",
                "outer_coat", "coat_outer", "cathedral_colours", "trade_cost")


def _action_names():
    names = ["end turn", "draw"]
    names += [f"push {e}" for e in PUSH_ENTRIES]
    names += [f"joker: take {c} from the docks" for c in COLOURS]
    names += [f"scholar: push {c} from supply" for c in COLOURS]
    names += ["money"]
    names += [f"clear {side}" for side in SIDES]
    names += [f"buy card paying {COLOURS[a]}+{COLOURS[b]}" for a, b in PAIRS]
    names += ["buy card paying 1 coin"]
    names += [f"buy card paying {c}" for c in COLOURS]
    names += ["river step"]
    names += [f"seal in {q}" for q in QUARTERS]
    names += [f"seal in {q} with City Wall" for q in QUARTERS]
    names += [f"merchant: give {g}, take {t}" for g in COLOURS for t in COLOURS]
    names += ["take the pushed-out tile"]
    names += [f"play {c} (upper)" for c in CARDS]
    names += [f"play {c} (lower)" for c in CARDS]
    names += [f"pick {c}" for c in COLOURS]
    names += [f"take {c} from the docks" for c in COLOURS]
    names += ["take a coin"]
    names += [f"keep {c}" for c in CARDS]
    names += [f"take {c} from the discard pile" for c in CARDS]
    names += ["look at the top 3 cards"]
    names += [f"move barge {k}" for k in range(5)]
    names += [f"keep coat {c}" for c in COATS]
    names += ["put the coat back"]
    names += [f"take {d}" for d in DESCENDANTS]
    names += [f"chronicle seal in {q}" for q in QUARTERS]
    names += [f"amount {k}" for k in range(6)]
    names += ["freeze: 2 coins", "freeze: 2 tiles"]
    names += [f"take outer tile {o}" for o in range(NUM_OUTER)]
    names += ["stop"]
    names += [f"tower: give {COLOURS[a]}+{COLOURS[b]}" for a, b in PAIRS]
    names += ["tower: pay 2 coins", "tower: lose 5 VP"]
    names += [f"chance: tile {c}" for c in COLOURS]
    names += [f"chance: card {c}" for c in CARDS]
    names += [f"chance: coat {c}" for c in COATS]
    names += [f"chance: descendant {d}" for d in DESCENDANTS]
    names += [f"chance: tower {t}" for t in TOWER_TILES]
    assert len(names) == NUM_ACTIONS, len(names)
    return tuple(names)


ACTION_NAMES = _action_names()


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
_ACTION_IDS = {name: i for i, name in enumerate(ACTION_NAMES)}


cdef class CoreGame:
    """Player count, variant and board table of a game; makes its states."""

    def __init__(self, int num_players, bint advanced, dict table):
        if num_players < 2 or num_players > MAX_PLAYERS:  # R-COMP-6
            raise ValueError(f"players: Ulm is for 2, 3 or 4 players, got {num_players}")
        self.num_players = num_players
        self.advanced = advanced
        self.table = table
        self.board = {k: table[k] for k in BOARD_FIELDS}

    def new_initial_state(self):
        """The state before set-up; its first events are the set-up's chance draws."""
        cdef State st = State.__new__(State)
        st.game = self
        state_init(&st.s, self.num_players, self.advanced)
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

    def returns(self):
        """Win shares at the end (ties share, R-END-3); zeros before."""
        cdef int won[MAX_PLAYERS]
        cdef int n, p
        if not self.is_terminal():
            return [0.0] * self.s.num_players
        n = winners(&self.game.board, &self.s, won)
        return [won[p] / <double>n for p in range(self.s.num_players)]

    def winners(self):
        cdef int won[MAX_PLAYERS]
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

    @staticmethod
    def string_to_action(str text):
        try:
            return _ACTION_IDS[text]
        except KeyError:
            import difflib
            near = difflib.get_close_matches(text, ACTION_NAMES, n=1)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            raise IllegalActionError(f"unknown action {text!r}{hint}") from None

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
        string iff they are the same to that player."""
        cdef int p, i
        if not 0 <= player < self.s.num_players:
            raise ValueError(f"player: no seat {player} in a {self.s.num_players}-player game")
        d = _struct_to_dict(&self.s)
        d["pile"] = bin(d["pile"]).count("1")                    # R-INFO-2
        d["coat_unknown"] = bin(d["coat_unknown"]).count("1")
        for i in range(self.s.coat_tail_len):                    # R-COAT-4
            if d["coat_tail_by"][i] != player:
                d["coat_tail"][i] = -1
        d["coat_tail"] = d["coat_tail"][:self.s.coat_tail_len]
        d["coat_tail_by"] = d["coat_tail_by"][:self.s.coat_tail_len]
        if self.s.turn_player != player:                         # R-INFO-3
            d["looked_cards"] = [-1] * self.s.n_looked_cards
            d["looked_coats"] = [-1] * self.s.n_looked_coats
        else:
            d["looked_cards"] = sorted(d["looked_cards"][:self.s.n_looked_cards])
            d["looked_coats"] = sorted(d["looked_coats"][:self.s.n_looked_coats])
        d["task"] = d["task"][:self.s.n_tasks]
        d["task_arg"] = d["task_arg"][:self.s.n_tasks]
        for p in range(self.s.num_players):
            if p != player:
                d["players"][p]["hand"] = -bin(d["players"][p]["hand"]).count("1")
        return f"observer {player}: " + repr(sorted(d.items()))

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
        """Replace the C struct by a dict as returned by raw() (no validation)."""
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
            state_init(&s, game.num_players, game.advanced)
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
_SCALARS = ("num_players", "advanced", "round", "turn_player", "phase", "tiles_added",
            "pile", "discard", "coat_unknown", "coat_tail_len", "tower_unseen",
            "tower_current", "tower_next", "free_play", "t5_seal", "river_extra",
            "draw_swap_used", "merchant_used", "t10_used", "pushed_out_at",
            "n_looked_cards", "n_looked_coats", "n_tasks")
_PLAYER_SCALARS = ("score", "coins", "sparrows", "barge", "seals_left", "crests_left",
                   "hand", "front", "coats")


cdef dict _struct_to_dict(const GameState* s):
    cdef int p, i
    d = {
        "num_players": s.num_players, "advanced": s.advanced, "round": s.round,
        "turn_player": s.turn_player, "phase": s.phase, "tiles_added": s.tiles_added,
        "pile": s.pile, "discard": s.discard, "coat_unknown": s.coat_unknown,
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
        "coat_owner": [s.coat_owner[i] for i in range(NUM_COATS)],
        "crest_owner": [s.crest_owner[i] for i in range(NUM_QUARTERS)],
        "quarter_seals": [s.quarter_seals[i] for i in range(NUM_QUARTERS)],
        "desc": [s.desc[i] for i in range(NUM_DESCENDANTS)],
        "drawn": [s.drawn[0], s.drawn[1]],
        "avail": [s.avail[i] for i in range(NUM_COLOURS)],
        "looked_cards": [s.looked_cards[i] for i in range(3)],
        "looked_coats": [s.looked_coats[i] for i in range(2)],
        "task": [s.task[i] for i in range(MAX_TASKS)],
        "task_arg": [s.task_arg[i] for i in range(MAX_TASKS)],
        "players": [],
    }
    for p in range(s.num_players):
        pl = &s.players[p]
        d["players"].append({
            "score": pl.score, "coins": pl.coins, "sparrows": pl.sparrows,
            "barge": pl.barge, "seals_left": pl.seals_left, "crests_left": pl.crests_left,
            "hand": pl.hand, "front": pl.front, "coats": pl.coats,
            "supply": [pl.supply[i] for i in range(NUM_COLOURS)],
            "seals_in": [pl.seals_in[i] for i in range(NUM_QUARTERS)],
            "vp": [pl.vp[i] for i in range(NUM_SOURCES)],
        })
    return d


cdef void _fill(void* arr, int size, int n, values, str name) except *:
    cdef int i
    values = list(values)
    if len(values) != n:
        raise ValueError(f"{name}: expected {n} values, got {len(values)}")
    for i in range(n):
        if size == 1:
            (<int8_t*>arr)[i] = values[i]
        else:
            (<int16_t*>arr)[i] = values[i]


cdef void _dict_to_struct(dict d, GameState* s) except *:
    cdef GameState t = s[0]
    cdef int p
    for k in d:
        if k not in _SCALARS and k not in ("grid", "outer", "outer_mark", "bag", "docks",
                                           "coat_tail", "coat_tail_by", "coat_owner",
                                           "crest_owner", "quarter_seals", "desc", "drawn",
                                           "avail", "looked_cards", "looked_coats", "task",
                                           "task_arg", "players"):
            raise ValueError(f"{k}: not a field of the game state")
    t.num_players = d.get("num_players", t.num_players)
    t.advanced = d.get("advanced", t.advanced)
    t.round = d.get("round", t.round)
    t.turn_player = d.get("turn_player", t.turn_player)
    t.phase = d.get("phase", t.phase)
    t.tiles_added = d.get("tiles_added", t.tiles_added)
    t.pile = d.get("pile", t.pile)
    t.discard = d.get("discard", t.discard)
    t.coat_unknown = d.get("coat_unknown", t.coat_unknown)
    t.coat_tail_len = d.get("coat_tail_len", t.coat_tail_len)
    t.tower_unseen = d.get("tower_unseen", t.tower_unseen)
    t.tower_current = d.get("tower_current", t.tower_current)
    t.tower_next = d.get("tower_next", t.tower_next)
    t.free_play = d.get("free_play", t.free_play)
    t.t5_seal = d.get("t5_seal", t.t5_seal)
    t.river_extra = d.get("river_extra", t.river_extra)
    t.draw_swap_used = d.get("draw_swap_used", t.draw_swap_used)
    t.merchant_used = d.get("merchant_used", t.merchant_used)
    t.t10_used = d.get("t10_used", t.t10_used)
    t.pushed_out_at = d.get("pushed_out_at", t.pushed_out_at)
    t.n_looked_cards = d.get("n_looked_cards", t.n_looked_cards)
    t.n_looked_coats = d.get("n_looked_coats", t.n_looked_coats)
    t.n_tasks = d.get("n_tasks", t.n_tasks)
    if "grid" in d: _fill(t.grid, 1, 9, d["grid"], "grid")
    if "outer" in d: _fill(t.outer, 1, NUM_OUTER, d["outer"], "outer")
    if "outer_mark" in d: _fill(t.outer_mark, 1, NUM_OUTER, d["outer_mark"], "outer_mark")
    if "bag" in d: _fill(t.bag, 1, NUM_COLOURS, d["bag"], "bag")
    if "docks" in d: _fill(t.docks, 1, NUM_COLOURS, d["docks"], "docks")
    if "coat_tail" in d: _fill(t.coat_tail, 1, NUM_COATS, d["coat_tail"], "coat_tail")
    if "coat_tail_by" in d: _fill(t.coat_tail_by, 1, NUM_COATS, d["coat_tail_by"], "coat_tail_by")
    if "coat_owner" in d: _fill(t.coat_owner, 1, NUM_COATS, d["coat_owner"], "coat_owner")
    if "crest_owner" in d: _fill(t.crest_owner, 1, NUM_QUARTERS, d["crest_owner"], "crest_owner")
    if "quarter_seals" in d: _fill(t.quarter_seals, 1, NUM_QUARTERS, d["quarter_seals"], "quarter_seals")
    if "desc" in d: _fill(t.desc, 1, NUM_DESCENDANTS, d["desc"], "desc")
    if "drawn" in d: _fill(t.drawn, 1, 2, d["drawn"], "drawn")
    if "avail" in d: _fill(t.avail, 1, NUM_COLOURS, d["avail"], "avail")
    if "looked_cards" in d: _fill(t.looked_cards, 1, 3, d["looked_cards"], "looked_cards")
    if "looked_coats" in d: _fill(t.looked_coats, 1, 2, d["looked_coats"], "looked_coats")
    if "task" in d: _fill(t.task, 1, MAX_TASKS, d["task"], "task")
    if "task_arg" in d: _fill(t.task_arg, 1, MAX_TASKS, d["task_arg"], "task_arg")
    for p, pd in enumerate(d.get("players", [])):
        pl = &t.players[p]
        pl.score = pd.get("score", pl.score)
        pl.coins = pd.get("coins", pl.coins)
        pl.sparrows = pd.get("sparrows", pl.sparrows)
        pl.barge = pd.get("barge", pl.barge)
        pl.seals_left = pd.get("seals_left", pl.seals_left)
        pl.crests_left = pd.get("crests_left", pl.crests_left)
        pl.hand = pd.get("hand", pl.hand)
        pl.front = pd.get("front", pl.front)
        pl.coats = pd.get("coats", pl.coats)
        if "supply" in pd: _fill(pl.supply, 1, NUM_COLOURS, pd["supply"], "supply")
        if "seals_in" in pd: _fill(pl.seals_in, 1, NUM_QUARTERS, pd["seals_in"], "seals_in")
        if "vp" in pd: _fill(pl.vp, 2, NUM_SOURCES, pd["vp"], "vp")
    s[0] = t
