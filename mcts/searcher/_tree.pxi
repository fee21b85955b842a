# The search tree: rewards, selection, expansion, rollouts, backups, reuse and export.
# (included by _search.pyx: one compilation unit)

# ---------------------------------------------------------------------------
# Rewards and the search tree

cdef int _rollout_kind(object rollout) except -1:
    if rollout == "random":
        return ROLLOUT_RANDOM
    if rollout == "heuristic":
        return ROLLOUT_HEURISTIC
    if rollout == "lookahead":
        return ROLLOUT_LOOKAHEAD
    raise ValueError(f"rollout: expected one of {', '.join(ROLLOUTS)}, got {rollout!r}")


cdef inline void margin_rewards(int n, double margin_weight, const double* win,
                                const double* score, double* r) noexcept nogil:
    """The search's reward of each player: win share + margin_weight x
    tanh((own score - best other score) / 20)."""
    cdef int p, i
    cdef double other
    for p in range(n):
        other = -1e9
        for i in range(n):
            if i != p and score[i] > other:
                other = score[i]
        r[p] = win[p] + margin_weight * tanh((score[p] - other) / 20.0)


cdef inline void final_outcome(const Board* b, const GameState* s, double* win,
                               double* score) noexcept nogil:
    """Win shares (a shared win split evenly, R-END-3) and final scores."""
    cdef int won[MAX_PLAYERS]
    cdef int p, m = winners(b, s, won)
    for p in range(s.num_players):
        win[p] = won[p] / <double>m
        score[p] = s.players[p].score


# ---------------------------------------------------------------------------
# The search tree

cdef class Searcher:
    """One search tree over one root State.

    ``Searcher(state, params=None, *, root_action=-1, points=True, numbers=None)``

    params: the search's options, a `mcts.searcher.params.SearchParams`
    (default SearchParams(), the default search of `mcts.searcher.search`),
    checked there once and resolved for the game's player count by
    `mcts.searcher.params.searcher_options`, the one place (c, minimax and the
    horizon in turns; the seed is the params'; the budget, workers, final and
    reuse are the caller's). The baseline of earlier releases (c 0.7 fixed,
    heuristic rollouts to the end, no minimax) is
    ``mcts.searcher.params.PRESETS["baseline"]``.

    determinize=True is SO-ISMCTS for the player to move (only that player's
    knowledge is used); determinize=False searches the given state as if it
    were fully known (perfect-information UCT: the PIMC and cheat bots).
    chance="closed" gives each chance outcome the searching player observes
    its own child (keyed by the outcome); "open" merges them all.
    A horizon of H >= 0 turns stops each rollout at the (H+1)-th turn start it
    reaches (the leaf counts if it is one) and scores it with the evaluation
    (`params.evaluation`, an Evaluation chosen once; its numbers,
    `Evaluation.numbers`, are read once and kept): win chances by a softmax
    of a linear function of the features (`eval_win_weights`, N_WEIGHTS
    numbers) and predicted final scores for the score-margin term
    (`eval_weights`); -1 plays to the end. With the learned evaluation the
    win chances come from a learned model over the rich features instead,
    linear or with a hidden layer (`learned_win`; the search's weights of
    mcts.searcher.learned.learned_weights, whose length tells the hidden
    units), the predicted scores still from `eval_weights`; a residual
    model's logits correct those of `eval_win_weights` instead of replacing
    them.
    bias: progressive bias towards the heuristic policy's decision
    (bias / (visits + 1) added to its UCB value; it is also expanded first).
    mast: the chance that a rollout decision is the legal one with the best
    MAST average (rewards of each (player, decision) over all iterations)
    instead of the rollout policy's.
    form="puct" replaces UCB1's exploration term c x sqrt(ln avail / visits)
    by the polynomial one, c x P(a) x sqrt(avail) / (1 + visits) (`select_puct`),
    with a uniform prior, or with prior="heuristic" one that puts
    HEURISTIC_PRIOR more on the heuristic policy's decision.
    explore="scaled" multiplies UCB's exploration term by the standard
    deviation of the rewards the node's mover got so far in this search, so
    one c suits rewards of any spread: won/lost rewards at the end of the game
    spread widely, a cut-off's win chances little, and less early in the game
    and with fewer players; "fixed" uses c alone.
    minimax: implicit minimax backups (needs a horizon, for the evaluation):
    each added node gets the evaluation's rewards of its position as its
    heuristic value, backed up max^n through the tree, and UCB uses
    (1 - minimax) x mean reward + minimax x heuristic value.

    The tree's own options: root_action >= 0 searches that decision alone at
    the root (the rest of the tree as usual): the estimate of one decision
    from the same root, as the review of a game needs for a decision the
    search did not choose. points=True sums, per root decision, every
    player's final score of the iterations through it (at a cut-off: the
    evaluation's predicted final scores), the searching player's margin over
    the best other player and its square, and the searching player's points
    by scoring source (`root_points`); points=False leaves them out (the
    search is the same: for measuring their cost). numbers: an
    `mcts.searcher.params.EvaluationNumbers` in place of the evaluation's own,
    for weights that are no named set (a fit under test); their lengths are
    checked here.
    """

    def __cinit__(self, state, params=None, *, int root_action=-1, bint points=True,
                  numbers=None):
        # imported here: mcts.searcher.params imports this module
        from mcts.searcher.params import EvaluationNumbers, SearchParams, searcher_options
        cdef int i, n
        cdef int16_t buf[MAX_LEGAL]
        cdef int max_nodes
        self.nodes = NULL
        self.hv = NULL
        self.path = NULL
        self.mast = NULL
        self.log_action = NULL
        self.log_mover = NULL
        self.learned = NULL
        self.learned_hidden = 0
        if params is None:
            params = SearchParams()
        elif not isinstance(params, SearchParams):
            raise ValueError(f"params: must be a SearchParams, got {type(params).__name__}")
        if numbers is not None and not isinstance(numbers, EvaluationNumbers):
            raise ValueError(f"numbers: must be an EvaluationNumbers, "
                             f"got {type(numbers).__name__}")
        load_state(state, &self.root, &self.board)
        self.root_player = current_player(&self.root)
        if self.root_player < 0:
            raise ValueError("search: the root must be a decision of a player "
                             "(not a chance node or the end of the game)")
        self.root_action = -1
        if root_action >= 0:
            n = legal_actions(&self.board, &self.root, buf)
            if not has_action(buf, n, root_action):
                raise ValueError(f"root_action: {root_action} is not a legal decision here")
            self.root_action = root_action
        self.num_players = self.root.num_players
        options = searcher_options(params, self.num_players)
        if numbers is not None:
            options.update(numbers._asdict())
        max_nodes = options["max_nodes"]
        if max_nodes < 2:
            raise ValueError(f"max_nodes: must be at least 2, got {max_nodes}")
        self.rollout = _rollout_kind(options["rollout"])
        self.c = options["c"]
        self.scaled = options["explore"] == "scaled"
        # the exploration term's form and prior need no resolving: read from the params
        self.puct = params.form == "puct"
        self.heuristic_prior = self.puct and params.prior == "heuristic"
        self.margin_weight = options["margin_weight"]
        self.determinize_each = options["determinize"]
        self.chance_mode = CHANCE_MODES.index(options["chance"])
        self.horizon = options["horizon"]
        self.bias = options["bias"]
        self.mast_eps = options["mast"]
        self.minimax = options["minimax"]
        memset(self.eval_w, 0, sizeof(self.eval_w))
        memset(self.eval_win, 0, sizeof(self.eval_win))
        if self.horizon >= 0:
            for name in ("eval_weights", "eval_win_weights"):
                given = options.get(name)
                if given is None or len(given) != N_WEIGHTS:
                    raise ValueError(f"{name}: a horizon needs {N_WEIGHTS} evaluation weights")
            for i in range(N_WEIGHTS):
                self.eval_w[i] = float(options["eval_weights"][i])
                self.eval_win[i] = float(options["eval_win_weights"][i])
        learned_weights = options.get("learned_weights")
        if learned_weights is not None:
            if self.horizon < 0:
                raise ValueError("learned_weights: the learned evaluation scores cut-off "
                                 "rollouts, so it needs a horizon (not -1)")
            n = len(learned_weights)
            self.learned_hidden = hidden_units(self.num_players, n)
            self.learned = <double*>malloc(n * sizeof(double))
            if self.learned == NULL:
                raise MemoryError()
            for i in range(n):
                self.learned[i] = float(learned_weights[i])
        self.learned_residual = options.get("learned_residual", False)
        self.points = points
        rng_seed(&self.rng, <uint64_t>(int(options["seed"]) & 0xFFFFFFFFFFFFFFFF))
        self.max_nodes = max_nodes
        self.capacity = INITIAL_NODES if INITIAL_NODES < max_nodes else max_nodes
        self.nodes = <Node*>malloc(self.capacity * sizeof(Node))
        self.path = <int32_t*>malloc(MAX_DEPTH * sizeof(int32_t))
        if self.nodes == NULL or self.path == NULL:
            raise MemoryError()
        if self.minimax > 0:
            self.hv = <float*>malloc(self.capacity * MAX_PLAYERS * sizeof(float))
            if self.hv == NULL:
                raise MemoryError()
        if self.mast_eps > 0:
            self.mast = <double*>calloc(MAX_PLAYERS * MAST_SLOTS * 2, sizeof(double))
            self.log_action = <int16_t*>malloc(ROLLOUT_LOG * sizeof(int16_t))
            self.log_mover = <int8_t*>malloc(ROLLOUT_LOG * sizeof(int8_t))
            if self.mast == NULL or self.log_action == NULL or self.log_mover == NULL:
                raise MemoryError()
        self.n_log = 0
        self.n_nodes = 1
        self._reset_root()
        self.iterations = 0
        self.reused_visits = 0
        self.seconds = 0.0
        self._reset_totals()

    cdef void _reset_totals(self):
        """The search's totals: win shares, scores, and the rewards' sums for
        the scaled exploration."""
        memset(self.win_sum, 0, sizeof(self.win_sum))
        memset(self.score_sum, 0, sizeof(self.score_sum))
        memset(self.reward_sum, 0, sizeof(self.reward_sum))
        memset(self.reward_sq, 0, sizeof(self.reward_sq))

    cdef void _reset_root_stats(self):
        memset(self.root_reward, 0, sizeof(self.root_reward))
        memset(self.root_win, 0, sizeof(self.root_win))
        memset(self.root_n, 0, sizeof(self.root_n))
        memset(self.root_score, 0, sizeof(self.root_score))
        memset(self.root_margin, 0, sizeof(self.root_margin))
        memset(self.root_margin_sq, 0, sizeof(self.root_margin_sq))
        memset(self.root_source, 0, sizeof(self.root_source))

    cdef void _reset_root(self):
        memset(&self.nodes[0], 0, sizeof(Node))
        self.nodes[0].first_child = -1
        self.nodes[0].next_sibling = -1
        self.nodes[0].key = -1
        self.nodes[0].mover = -1
        self._reset_root_stats()

    def __dealloc__(self):
        free(self.nodes)
        free(self.hv)
        free(self.path)
        free(self.mast)
        free(self.log_action)
        free(self.log_mover)
        free(self.learned)

    cdef int new_node(self, int parent, int key, int mover) noexcept nogil:
        cdef int cap, i
        cdef Node* grown
        cdef float* grown_hv
        if self.n_nodes >= self.capacity:
            if self.capacity >= self.max_nodes:
                return -1
            cap = self.capacity * 2
            if cap > self.max_nodes:
                cap = self.max_nodes
            if self.hv != NULL:
                grown_hv = <float*>realloc(self.hv, cap * MAX_PLAYERS * sizeof(float))
                if grown_hv == NULL:
                    self.max_nodes = self.capacity   # out of memory: stop growing
                    return -1
                self.hv = grown_hv
            grown = <Node*>realloc(self.nodes, cap * sizeof(Node))
            if grown == NULL:
                self.max_nodes = self.capacity   # out of memory: stop growing
                return -1
            self.nodes = grown
            self.capacity = cap
        i = self.n_nodes
        self.n_nodes += 1
        self.nodes[i].first_child = -1
        self.nodes[i].next_sibling = self.nodes[parent].first_child
        self.nodes[parent].first_child = i
        self.nodes[i].visits = 0
        self.nodes[i].avail = 1
        self.nodes[i].reward = 0.0
        self.nodes[i].key = key
        self.nodes[i].mover = mover
        self.nodes[i].flags = 0
        return i

    cdef void set_value(self, int node, const GameState* s) noexcept nogil:
        """Implicit minimax: the node's heuristic value is the search's rewards
        for the position `s` where it was added, from the evaluation (from the
        outcome at the end of the game)."""
        cdef double pred[MAX_PLAYERS]
        cdef double win[MAX_PLAYERS]
        cdef double r[MAX_PLAYERS]
        cdef int16_t src[MAX_PLAYERS * NUM_SOURCES]
        cdef int p
        if current_player(s) == TERMINAL_PLAYER:
            final_outcome(&self.board, s, win, pred)
        else:
            self.eval_outcome(s, pred, win, src)
        margin_rewards(self.num_players, self.margin_weight, win, pred, r)
        for p in range(self.num_players):
            self.hv[node * MAX_PLAYERS + p] = <float>r[p]
        self.nodes[node].flags |= NODE_VALUE

    cdef void back_up_values(self, int depth) noexcept nogil:
        """Max^n backup of the heuristic values along the path, from the parent
        of its last node up to the root's children: a node takes the values of
        its child that is best for that child's mover (children of any
        determinization; chance children, without a mover, do not count)."""
        cdef int i, p, node, child, best
        cdef float v, best_v
        cdef Node* nd
        for i in range(depth - 1, 0, -1):
            node = self.path[i]
            best = -1
            best_v = -INFINITY
            child = self.nodes[node].first_child
            while child >= 0:
                nd = &self.nodes[child]
                if nd.flags & NODE_VALUE and nd.mover >= 0:
                    v = self.hv[child * MAX_PLAYERS + nd.mover]
                    if v > best_v:
                        best_v = v
                        best = child
                child = nd.next_sibling
            if best >= 0:
                for p in range(self.num_players):
                    self.hv[node * MAX_PLAYERS + p] = self.hv[best * MAX_PLAYERS + p]
                self.nodes[node].flags |= NODE_VALUE

    cdef int chance_child(self, int node, int key) noexcept nogil:
        """The child of `node` for chance outcome `key` (made if new; -1: tree full)."""
        cdef int child = self.nodes[node].first_child
        while child >= 0:
            if self.nodes[child].key == key:
                return child
            child = self.nodes[child].next_sibling
        return self.new_node(node, key, -1)

    cdef int mast_action(self, const GameState* s, const int16_t* legal, int n) noexcept nogil:
        """The legal decision with the best MAST average for the mover (untried
        ones first, in order)."""
        cdef int i, a, p = s.turn_player, best = legal[0]
        cdef double v, best_v = -INFINITY
        cdef double* row = &self.mast[p * MAST_SLOTS * 2]
        for i in range(n):
            a = legal[i]
            if row[2 * a + 1] == 0:
                return a
            v = row[2 * a] / row[2 * a + 1]
            if v > best_v:
                best_v = v
                best = a
        return best

    cdef bint play_on(self, GameState* s) noexcept nogil:
        """Play on from the leaf with the rollout policy; True if it stopped at
        the horizon (to be evaluated), False at the end of the game."""
        cdef int16_t buf[MAX_LEGAL]
        cdef int n, p, a, turns = 0
        while True:
            p = current_player(s)
            if p == CHANCE_PLAYER:
                apply_action(&self.board, s, sample_chance(s, &self.rng))
                continue
            if p == TERMINAL_PLAYER:
                return False
            if at_horizon(s, self.horizon, &turns):
                return True
            n = legal_actions(&self.board, s, buf)
            if self.mast_eps > 0 and n > 1 and (rng_next(&self.rng) >> 11) * (
                    1.0 / 9007199254740992.0) < self.mast_eps:
                a = self.mast_action(s, buf, n)
            else:
                a = policy_action(self.rollout, &self.board, s, buf, n, &self.rng)
            if self.mast != NULL and self.n_log < ROLLOUT_LOG:
                self.log_action[self.n_log] = a
                self.log_mover[self.n_log] = p
                self.n_log += 1
            apply_action(&self.board, s, a)

    cdef inline void eval_outcome(self, const GameState* s, double* pred,
                                  double* win, int16_t* src) noexcept nogil:
        """The evaluation's predicted final scores (the 14-feature score head)
        and win chances (the learned model if the search has one, else the
        14-feature win head); `src` gets every seat's end-game points as the
        position stands, by source (seat_bonuses)."""
        cdef int bonus[MAX_PLAYERS]
        seat_bonuses(&self.board, s, src, bonus)     # once for both heads
        eval_outcome_from(s, bonus, self.eval_w, self.eval_win, pred, win)
        if self.learned != NULL:
            learned_win_from(s, src, bonus, self.learned, self.learned_hidden,
                             self.learned_residual, win)

    cdef void eval_rewards(self, const GameState* s, double* r, double* win, double* pred,
                           int16_t* src) noexcept nogil:
        """Rewards from the evaluation: its win chances + the margin term on
        its predicted scores `pred`."""
        cdef int p
        self.eval_outcome(s, pred, win, src)
        margin_rewards(self.num_players, self.margin_weight, win, pred, r)
        for p in range(self.num_players):
            self.score_sum[p] += pred[p]

    cdef void iterate(self) noexcept nogil:
        """One iteration: a world from the searcher's knowledge; down the tree by
        UCB (chance resolved on the way) until a node is added, the tree is full
        or the game ends; a rollout from there (leaf_rewards); its rewards
        backed up (back_up)."""
        cdef GameState s = self.root
        cdef double r[MAX_PLAYERS]
        cdef double win[MAX_PLAYERS]
        cdef double score[MAX_PLAYERS]
        cdef double by_source[POINT_SOURCES]
        cdef int16_t buf[MAX_LEGAL]
        cdef int16_t keys[MAX_LEGAL]
        cdef uint64_t untried[KEY_WORDS]
        cdef int node = 0, depth = 0, n, i, p, k = 0, child, a, m, w, pick, n_untried
        cdef int hkey, o, n_avail
        cdef int avail_child[MAX_LEGAL]
        cdef bint expanded = False, full = False
        cdef Node* nd
        cdef double explore[MAX_PLAYERS]
        self.exploration(explore)
        if self.determinize_each:
            determinize(&s, self.root_player, &self.rng)
        self.path[0] = 0
        self.n_log = 0
        while depth + 1 < MAX_DEPTH and not full:
            p = current_player(&s)
            if p < 0:           # the end (chance is always resolved below)
                break
            n = legal_actions(&self.board, &s, buf)
            if n == 0:
                break
            if depth == 0 and self.root_action >= 0:
                if not has_action(buf, n, self.root_action):
                    break       # not legal in this world: the root's position is scored
                buf[0] = self.root_action       # the searching player's own decision: its key
                n = 1
            memset(untried, 0, sizeof(untried))
            for i in range(n):
                k = buf[i]
                if self.determinize_each:
                    k = action_for_observer(&s, k, self.root_player)
                keys[i] = k
                untried[k >> 6] |= (<uint64_t>1) << (k & 63)
            hkey = -1
            if (self.bias > 0 or self.heuristic_prior) and n > 1:
                hkey = heuristic_action(&self.board, &s, buf, n, &self.rng)
                if self.determinize_each:
                    hkey = action_for_observer(&s, hkey, self.root_player)
            # children available in this determinization: count them (UCB only if no
            # decision is left untried here, below)
            n_avail = 0
            child = self.nodes[node].first_child
            while child >= 0:
                nd = &self.nodes[child]
                k = nd.key
                if untried[k >> 6] & ((<uint64_t>1) << (k & 63)):
                    untried[k >> 6] &= ~((<uint64_t>1) << (k & 63))
                    nd.avail += 1
                    avail_child[n_avail] = child
                    n_avail += 1
                child = nd.next_sibling
            n_untried = 0
            for w in range(KEY_WORDS):
                n_untried += popcount64(untried[w])
            child = -1
            if n_untried > 0:
                k = self.pick_untried(untried, n_untried, hkey if self.bias > 0 else -1)
                child = self.new_node(node, k, p)
                if child >= 0:
                    expanded = True
            if child < 0:
                if self.puct:
                    child = self.select_puct(avail_child, n_avail, p, explore[p], hkey)
                else:
                    child = self.select_ucb(avail_child, n_avail, p, explore[p], hkey)
                if child < 0:
                    break       # the tree is full and nothing here is expanded yet
            # the concrete action behind the key (several for an opponent's hidden keep)
            k = self.nodes[child].key
            m = 0
            for i in range(n):
                if keys[i] == k:
                    m += 1
            a = -1
            pick = rng_below(&self.rng, m) if m > 1 else 0
            for i in range(n):
                if keys[i] == k:
                    if pick == 0:
                        a = buf[i]
                        break
                    pick -= 1
            apply_action(&self.board, &s, a)
            if self.mast != NULL and self.n_log < ROLLOUT_LOG:
                self.log_action[self.n_log] = a
                self.log_mover[self.n_log] = p
                self.n_log += 1
            depth += 1
            self.path[depth] = child
            node = child
            if current_player(&s) == CHANCE_PLAYER:
                self.nodes[child].flags |= NODE_CHANCE_AFTER
                while current_player(&s) == CHANCE_PLAYER:
                    o = sample_chance(&s, &self.rng)
                    # closed loop: an outcome the searcher sees leads to its own child
                    if (self.chance_mode == CHANCE_CLOSED and not expanded and not full
                            and chance_observed(&s, self.root_player)):
                        if depth + 1 < MAX_DEPTH:
                            child = self.chance_child(node, o)
                        else:
                            child = -1
                        if child >= 0:
                            depth += 1
                            self.path[depth] = child
                            node = child
                        else:
                            full = True     # leave the tree: the rest is rollout
                    apply_action(&self.board, &s, o)
            if expanded:
                if self.hv != NULL:
                    self.set_value(child, &s)
                break
        self.leaf_rewards(&s, r, win, score, by_source)
        self.back_up(depth, r, win, score, by_source)

    cdef inline int pick_untried(self, uint64_t* untried, int n_untried, int hkey) noexcept nogil:
        """The key of a decision not yet tried here: the heuristic policy's
        (progressive bias) when it is among them, else one uniformly at random."""
        cdef int pick, m, w
        if hkey >= 0 and untried[hkey >> 6] & ((<uint64_t>1) << (hkey & 63)):
            return hkey
        pick = rng_below(&self.rng, n_untried)
        for w in range(KEY_WORDS):
            m = popcount64(untried[w])
            if pick < m:
                while pick > 0:
                    untried[w] &= untried[w] - 1
                    pick -= 1
                return w * 64 + ctz64(untried[w])
            pick -= m
        return -1

    cdef inline double child_value(self, int child, int p) noexcept nogil:
        """A child's value for mover `p` in the selection: its mean reward, mixed with
        its minimax value where it has one (UCB1 and PUCT alike)."""
        cdef Node* nd = &self.nodes[child]
        cdef double q = nd.reward / nd.visits
        if self.hv != NULL and nd.flags & NODE_VALUE:
            q = (1.0 - self.minimax) * q + self.minimax * self.hv[child * MAX_PLAYERS + p]
        return q

    cdef inline int select_ucb(self, const int* avail_child, int n_avail, int p, double explore,
                               int hkey) noexcept nogil:
        """The child of best UCB value for mover `p` among those available in this
        world: mean reward (mixed with the minimax value), the subset-armed
        exploration term, the progressive bias. -1 when none is available."""
        cdef int i, best = -1
        cdef double q, u, best_u = -INFINITY
        cdef Node* nd
        for i in range(n_avail):
            nd = &self.nodes[avail_child[i]]
            q = self.child_value(avail_child[i], p)
            u = q + explore * sqrt(log_count(nd.avail) / nd.visits)
            if nd.key == hkey:
                u += self.bias / (nd.visits + 1)
            if u > best_u:
                best_u = u
                best = avail_child[i]
        return best

    cdef inline int select_puct(self, const int* avail_child, int n_avail, int p, double explore,
                                int hkey) noexcept nogil:
        """select_ucb with the polynomial exploration term of AlphaZero and KataGo,
        explore x P(a) x sqrt(avail) / (1 + visits): the child's availability
        stands for the parent's visits (subset-armed, as in UCB1), and P is the
        prior over the decisions available in this world, uniform or (hkey >= 0,
        prior="heuristic") HEURISTIC_PRIOR_SHARE more to the heuristic's."""
        cdef int i, best = -1
        cdef double q, u, prior, best_u = -INFINITY
        cdef double even = 1.0 / n_avail if n_avail > 0 else 0.0
        cdef Node* nd
        # hkey is also there for the progressive bias alone: the prior leans only
        # with prior="heuristic"
        cdef bint leaning = hkey >= 0 and self.heuristic_prior
        if leaning:
            even = (1.0 - HEURISTIC_PRIOR_SHARE) * even
        for i in range(n_avail):
            nd = &self.nodes[avail_child[i]]
            q = self.child_value(avail_child[i], p)
            prior = even
            if nd.key == hkey:
                if leaning:
                    prior += HEURISTIC_PRIOR_SHARE
                u = q + self.bias / (nd.visits + 1)
            else:
                u = q
            u += explore * prior * sqrt(<double>nd.avail) / (1.0 + nd.visits)
            if u > best_u:
                best_u = u
                best = avail_child[i]
        return best

    cdef inline void leaf_rewards(self, GameState* s, double* r, double* win, double* score,
                                  double* by_source) noexcept nogil:
        """The rewards of an iteration from the leaf `s`: a rollout to the end (win
        share, R-END-3, plus the score-margin term) or to the horizon (the
        evaluation); the totals of win shares and scores grow by them. `score`
        gets the final scores (at the horizon: the evaluation's predicted
        ones) and, with `points`, `by_source` the searching player's points by
        source (leaf_sources)."""
        cdef int16_t src[MAX_PLAYERS * NUM_SOURCES]
        cdef int p, m = 0
        # rollout, to the end or to the horizon
        if current_player(s) != TERMINAL_PLAYER:
            if self.horizon < 0 and self.mast == NULL:
                if self.rollout == ROLLOUT_HEURISTIC:
                    heuristic_playout(&self.board, s, &self.rng)
                elif self.rollout == ROLLOUT_LOOKAHEAD:
                    heuristic_playout(&self.board, s, &self.rng, True)
                else:
                    random_playout(&self.board, s, &self.rng)
            elif self.play_on(s):
                m = -1
        if m < 0:
            self.eval_rewards(s, r, win, score, src)
            if self.points:
                self.leaf_sources(s, score, src, by_source)
        else:
            # rewards: win share (R-END-3) + a small score-margin term
            final_outcome(&self.board, s, win, score)
            margin_rewards(self.num_players, self.margin_weight, win, score, r)
            for p in range(self.num_players):
                self.score_sum[p] += score[p]
            if self.points:
                self.leaf_sources(s, score, NULL, by_source)

    cdef void leaf_sources(self, const GameState* s, const double* score, const int16_t* src,
                           double* out) noexcept nogil:
        """The searching player's points of the leaf `s` by scoring source: the
        points banked in play; the end-game items as they stand (`src`, every
        seat's from seat_bonuses at a cut-off; NULL: banked, the game is over);
        last (POINT_SOURCES - 1), what the evaluation forecasts beyond them, so
        that the sources add up to `score` (0 at the end of the game)."""
        cdef int c, me = self.root_player
        cdef double banked = 0.0
        for c in range(NUM_SOURCES):
            if src != NULL and c >= SRC_END_SPARROWS:
                out[c] = src[me * NUM_SOURCES + c]
            else:
                out[c] = s.players[me].vp[c]
            banked += out[c]
        out[NUM_SOURCES] = score[me] - banked

    cdef inline void back_up(self, int depth, const double* r, const double* win,
                             const double* score, const double* by_source) noexcept nogil:
        """Back the rewards up the path: visits and the movers' rewards, the
        root's statistics per decision (and its points, add_points), the
        minimax values, MAST, the spread of the rewards."""
        cdef int i, p, k
        cdef Node* nd
        cdef double* row
        for p in range(self.num_players):
            self.win_sum[p] += win[p]
        if self.scaled:
            for p in range(self.num_players):
                self.reward_sum[p] += r[p]
                self.reward_sq[p] += r[p] * r[p]
        if self.hv != NULL:
            self.back_up_values(depth)
        for i in range(1, depth + 1):
            nd = &self.nodes[self.path[i]]
            nd.visits += 1
            if nd.mover >= 0:
                nd.reward += r[nd.mover]
        self.nodes[0].visits += 1
        if depth >= 1:
            k = self.nodes[self.path[1]].key
            self.root_n[k] += 1
            for p in range(self.num_players):
                self.root_reward[k][p] += r[p]
                self.root_win[k][p] += win[p]
            if self.points:
                self.add_points(k, score, by_source)
        if self.mast != NULL:
            for i in range(self.n_log):
                row = &self.mast[(self.log_mover[i] * MAST_SLOTS + self.log_action[i]) * 2]
                row[0] += r[self.log_mover[i]]
                row[1] += 1
        self.iterations += 1

    cdef inline void add_points(self, int key, const double* score,
                                const double* by_source) noexcept nogil:
        """The root decision `key`'s points grow by one iteration's: every
        player's score, the searching player's margin over the best other
        (and its square), its points by source."""
        cdef int p, c, me = self.root_player
        cdef double other = -1e9, margin
        for p in range(self.num_players):
            self.root_score[key][p] += score[p]
            if p != me and score[p] > other:
                other = score[p]
        margin = score[me] - other
        self.root_margin[key] += margin
        self.root_margin_sq[key] += margin * margin
        for c in range(POINT_SOURCES):
            self.root_source[key][c] += by_source[c]

    cdef void exploration(self, double* out) noexcept nogil:
        """UCB's exploration constant for each player as mover: c, or with
        explore="scaled" c times the standard deviation of the player's
        rewards in this search's iterations (from SPREAD_PRIOR_VARIANCE,
        weighted as SPREAD_PRIOR_ITERATIONS iterations, while they are few)."""
        cdef int p
        cdef double n = self.iterations, var
        if not self.scaled:
            for p in range(self.num_players):
                out[p] = self.c
            return
        for p in range(self.num_players):
            var = 0.0
            if n > 0:
                var = self.reward_sq[p] - self.reward_sum[p] * self.reward_sum[p] / n
            var = (var + SPREAD_PRIOR_ITERATIONS * SPREAD_PRIOR_VARIANCE) / (
                n + SPREAD_PRIOR_ITERATIONS)
            out[p] = self.c * sqrt(var if var > 0 else 0.0)

    cdef long long run_loop(self, long long max_iterations, double max_seconds) except -1 nogil:
        cdef long long done = 0
        cdef double start = now_seconds(), deadline = start + max_seconds
        cdef double check_at = start + SIGNAL_CHECK, t
        cdef int failed
        while done < max_iterations:
            t = now_seconds()
            if max_seconds >= 0 and t >= deadline and done > 0:
                break
            if t >= check_at:
                # Ctrl-C: Python's handler runs only when asked, so ask every few ms
                check_at = t + SIGNAL_CHECK
                with gil:
                    failed = PyErr_CheckSignals()
                if failed:
                    self.seconds += now_seconds() - start
                    return -1
            self.iterate()
            done += 1
        self.seconds += now_seconds() - start
        return done

    def run(self, iterations=None, seconds=None):
        """Run up to `iterations` more iterations and/or for up to `seconds`;
        returns the number run (at least one unless iterations == 0)."""
        cdef long long it = (1 << 62) if iterations is None else int(iterations)
        # a time left of zero or less is a deadline passed: one iteration, then stop
        # (only None means no time limit)
        cdef double sec = -1.0 if seconds is None else max(float(seconds), 0.0)
        cdef long long done
        if iterations is None and seconds is None:
            raise ValueError("run: give iterations and/or seconds")
        if it <= 0:
            return 0
        with nogil:
            done = self.run_loop(it, sec)
        return done

    # --- tree reuse ---------------------------------------------------------
    def reroot(self, int action, state, seed=None):
        """Keep the subtree of the searching player's decision `action` as the
        tree of `state` (the position after it, the same player to move, no
        chance event between). Returns False, changing nothing, when the tree
        has no such subtree; then search `state` with a new Searcher.

        The kept nodes keep their visits and values (so the root's visit counts
        include them); the root's per-player statistics (`root_stats` reward and
        win sums) restart, as do `iterations`, `seconds` and the totals."""
        cdef GameState s
        cdef Board b
        cdef int child, old, new, kid, n, cap, head, last
        cdef Node* fresh
        cdef float* fresh_hv = NULL
        cdef int32_t* order
        cdef int16_t buf[MAX_LEGAL]
        cdef uint64_t legal_bits[KEY_WORDS]
        load_state(state, &s, &b)
        if current_player(&s) != self.root_player:
            return False
        child = self.nodes[0].first_child
        while child >= 0 and self.nodes[child].key != action:
            child = self.nodes[child].next_sibling
        if (child < 0 or self.nodes[child].mover != self.root_player
                or self.nodes[child].flags & NODE_CHANCE_AFTER):
            return False
        # the kept decisions must all be legal here: a decision can reveal hidden
        # information without a chance event (coats taken from under the stack),
        # and then the subtree mixes worlds this position rules out
        memset(legal_bits, 0, sizeof(legal_bits))
        n = legal_actions(&b, &s, buf)
        for kid in range(n):
            legal_bits[buf[kid] >> 6] |= (<uint64_t>1) << (buf[kid] & 63)
        kid = self.nodes[child].first_child
        while kid >= 0:
            if not legal_bits[self.nodes[kid].key >> 6] & ((<uint64_t>1) << (self.nodes[kid].key & 63)):
                return False
            kid = self.nodes[kid].next_sibling
        # copy the subtree breadth-first into a fresh array, children in order
        n = 0
        order = <int32_t*>malloc(self.n_nodes * sizeof(int32_t))
        if order == NULL:
            raise MemoryError()
        order[0] = child
        n = 1
        head = 0
        while head < n:
            kid = self.nodes[order[head]].first_child
            while kid >= 0:
                order[n] = kid
                n += 1
                kid = self.nodes[kid].next_sibling
            head += 1
        cap = INITIAL_NODES
        while cap < n:
            cap *= 2
        if cap > self.max_nodes:
            cap = self.max_nodes if self.max_nodes >= n else n
        fresh = <Node*>malloc(cap * sizeof(Node))
        if self.hv != NULL:
            fresh_hv = <float*>malloc(cap * MAX_PLAYERS * sizeof(float))
        if fresh == NULL or (self.hv != NULL and fresh_hv == NULL):
            free(order)
            free(fresh)
            free(fresh_hv)
            raise MemoryError()
        # old index -> new index: reuse `first_child` of the old array after copying
        for new in range(n):
            fresh[new] = self.nodes[order[new]]
            if fresh_hv != NULL:
                memcpy(&fresh_hv[new * MAX_PLAYERS], &self.hv[order[new] * MAX_PLAYERS],
                       MAX_PLAYERS * sizeof(float))
        for new in range(n):
            self.nodes[order[new]].avail = new      # the new index, stored in place
        for new in range(n):
            old = fresh[new].first_child
            fresh[new].first_child = self.nodes[old].avail if old >= 0 else -1
            old = fresh[new].next_sibling
            fresh[new].next_sibling = self.nodes[old].avail if old >= 0 and new > 0 else -1
        free(order)
        free(self.nodes)
        self.nodes = fresh
        if fresh_hv != NULL:
            free(self.hv)
            self.hv = fresh_hv
        self.n_nodes = n
        self.capacity = cap
        self.nodes[0].key = -1
        self.nodes[0].mover = -1
        self.nodes[0].flags = 0
        self.root = s
        self.board = b
        if seed is not None:
            rng_seed(&self.rng, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
        self.reused_visits = self.nodes[0].visits
        self._reset_root_stats()
        self.iterations = 0
        self.seconds = 0.0
        self._reset_totals()
        return True

    # --- results ------------------------------------------------------------
    @property
    def tree_nodes(self):
        return self.n_nodes

    def totals(self):
        """(win share sums, final score sums) per player, over all iterations."""
        return ([self.win_sum[p] for p in range(self.num_players)],
                [self.score_sum[p] for p in range(self.num_players)])

    def exploration_constants(self):
        """UCB's exploration constant of each player as mover now: c with
        explore="fixed"; c x the spread of the player's rewards so far with
        "scaled"."""
        cdef double out[MAX_PLAYERS]
        self.exploration(out)
        return [out[p] for p in range(self.num_players)]

    def root_stats(self):
        """Per root action: (action, visits, availability, reward sums, win-share
        sums, iterations in those sums, the searcher's reward sum). Visits and the
        searcher's reward include a reused subtree's; the per-player sums cover
        this search's iterations only (`reroot`)."""
        out = []
        cdef int child = self.nodes[0].first_child, k, p
        while child >= 0:
            k = self.nodes[child].key
            out.append((k, self.nodes[child].visits, self.nodes[child].avail,
                        [self.root_reward[k][p] for p in range(self.num_players)],
                        [self.root_win[k][p] for p in range(self.num_players)],
                        int(self.root_n[k]), self.nodes[child].reward))
            child = self.nodes[child].next_sibling
        out.sort()
        return out

    def root_points(self):
        """Per root decision (by key, this search's iterations through it, as
        `root_stats`' sums): {key: [score sums per player, the searching
        player's margin sum, margin square sum, its points by source summed
        (POINT_SOURCE_NAMES)]}; empty with points=False."""
        cdef int child = self.nodes[0].first_child, k, p, c
        out = {}
        if not self.points:
            return out
        while child >= 0:
            k = self.nodes[child].key
            out[k] = [[self.root_score[k][p] for p in range(self.num_players)],
                      self.root_margin[k], self.root_margin_sq[k],
                      [self.root_source[k][c] for c in range(POINT_SOURCES)]]
            child = self.nodes[child].next_sibling
        return out

    def export(self, int max_depth=40, double min_share=0.01):
        """Everything a merge needs, as plain Python data (picklable)."""
        wins, scores = self.totals()
        return {
            "player": self.root_player, "num_players": self.num_players,
            "iterations": self.iterations, "seconds": self.seconds,
            "tree_nodes": self.n_nodes, "win_sum": wins, "score_sum": scores,
            "root": self.root_stats(), "reused_visits": self.reused_visits,
            "points": self.root_points(),
            "turn_tree": self.turn_tree(max_depth, min_share),
        }

    def turn_tree(self, int max_depth=40, double min_share=0.01):
        """The searching player's decisions until a chance event or the end of the
        turn, as nested dicts {action: [visits, reward sum, avail, chance_after,
        mover, children]}; children under `min_share` of their parent are left out."""
        return self._subtree(0, max_depth, min_share, False)

    def heuristic_values(self, int max_depth=4):
        """Implicit minimax (minimax > 0): the tree to `max_depth` as nested dicts
        {key: [mover, heuristic values per player or None, children]} (for
        tests and inspection)."""
        if self.hv == NULL:
            raise ValueError("heuristic_values: the search has no minimax weight")
        return self._values(0, max_depth)

    cdef dict _values(self, int node, int depth):
        cdef dict out = {}
        cdef int child = self.nodes[node].first_child, p
        while child >= 0:
            values = None
            if self.nodes[child].flags & NODE_VALUE:
                values = [float(self.hv[child * MAX_PLAYERS + p]) for p in range(self.num_players)]
            out[int(self.nodes[child].key)] = [
                int(self.nodes[child].mover), values,
                self._values(child, depth - 1) if depth > 1 else {}]
            child = self.nodes[child].next_sibling
        return out

    def tree_dict(self, int max_depth=4, double min_share=0.0):
        """The whole tree to `max_depth` in the format of `turn_tree` (for tests and
        inspection; every player's decisions, also past chance events)."""
        return self._subtree(0, max_depth, min_share, True)

    cdef dict _subtree(self, int node, int depth, double min_share, bint whole):
        cdef dict out = {}
        cdef int child = self.nodes[node].first_child
        cdef Node* nd
        cdef int parent_visits = self.nodes[node].visits, most = 0
        while child >= 0:               # the most visited child is always kept
            if self.nodes[child].visits > most:
                most = self.nodes[child].visits
            child = self.nodes[child].next_sibling
        child = self.nodes[node].first_child
        while child >= 0:
            nd = &self.nodes[child]
            if nd.visits > 0 and (nd.visits >= min_share * parent_visits or nd.visits == most):
                kids = {}
                if depth > 1 and (whole or (nd.mover == self.root_player
                                            and not (nd.flags & NODE_CHANCE_AFTER))):
                    kids = self._subtree(child, depth - 1, min_share, whole)
                out[int(nd.key)] = [int(nd.visits), float(nd.reward), int(nd.avail),
                                    bool(nd.flags & NODE_CHANCE_AFTER), int(nd.mover), kids]
            child = nd.next_sibling
        return out
