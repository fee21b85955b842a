# The Python-facing probes of the policies and the evaluation (tests, bots, calibration).
# (included by _search.pyx: one compilation unit)

# ---------------------------------------------------------------------------
# From the Python State

cdef int load_state(object state, GameState* out, Board* board) except -1:
    """Copy a ulm State's struct and its board (a struct copy each)."""
    if not isinstance(state, State):
        raise TypeError(f"state: expected a ulm State, got {type(state).__name__}")
    out[0] = (<State>state).s
    if board != NULL:
        board[0] = (<State>state).game.board
    return 0


def evaluate_position(state, int player):
    """The greedy bot's evaluation of `player`'s position (in VP)."""
    cdef GameState s
    cdef Board b
    load_state(state, &s, &b)
    if not 0 <= player < s.num_players:
        raise ValueError(f"player: no seat {player} in a {s.num_players}-player game")
    return evaluate(&b, &s, player)


def eval_features_of(state, int player):
    """The evaluation's N_WEIGHTS features of `player` (see `eval_features`)."""
    cdef GameState s
    cdef Board b
    cdef double f[N_WEIGHTS]
    load_state(state, &s, &b)
    if not 0 <= player < s.num_players:
        raise ValueError(f"player: no seat {player} in a {s.num_players}-player game")
    eval_features(&b, &s, player, f)
    return [f[i] for i in range(N_WEIGHTS)]


def eval_outcome_of(state, score_weights, win_weights):
    """(predicted final scores, win chances) of every player: the evaluation
    that scores a cut-off rollout, with the given N_WEIGHTS weights each."""
    cdef GameState s
    cdef Board b
    cdef double ws[N_WEIGHTS]
    cdef double ww[N_WEIGHTS]
    cdef double pred[MAX_PLAYERS]
    cdef double win[MAX_PLAYERS]
    cdef int i
    if len(score_weights) != N_WEIGHTS or len(win_weights) != N_WEIGHTS:
        raise ValueError(f"eval_outcome_of: expected {N_WEIGHTS} score and win weights")
    for i in range(N_WEIGHTS):
        ws[i] = float(score_weights[i])
        ww[i] = float(win_weights[i])
    load_state(state, &s, &b)
    eval_outcome(&b, &s, ws, ww, pred, win)
    return ([pred[i] for i in range(s.num_players)], [win[i] for i in range(s.num_players)])


def is_turn_start(state):
    """Is this the first decision of a turn (where rollouts may be cut off)?"""
    cdef GameState s
    load_state(state, &s, NULL)
    return bool(turn_start(&s)) and current_player(&s) >= 0


def push_choices(state, seed=0):
    """(tabulated, line by line): the push `best_push` picks for the player to
    move, computed both ways from the same seed (they must agree)."""
    cdef GameState s
    cdef Board b
    cdef Rng r
    cdef int16_t buf[MAX_LEGAL]
    cdef int n, x, y
    load_state(state, &s, &b)
    if s.phase != PH_PUSH or s.n_tasks != 0 or current_player(&s) < 0:
        raise ValueError("push_choices: the state is not a push decision")
    n = legal_actions(&b, &s, buf)
    rng_seed(&r, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
    x = best_push(&b, &s, s.turn_player, buf, n, &r)
    rng_seed(&r, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
    y = best_push_by_lines(&b, &s, s.turn_player, buf, n, &r)
    return x, y


def greedy_action(state, seed=0):
    """The greedy bot's decision for the player to move (one ply, see `evaluate`)."""
    cdef GameState s
    cdef Board b
    load_state(state, &s, &b)
    if current_player(&s) < 0:
        raise ValueError("greedy_action: the state is not a decision of a player")
    return greedy_choice(&b, &s, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))


def heuristic_action_for(state, seed=0, rollout="heuristic"):
    """The decision of a rollout policy (heuristic, lookahead or random) for
    the player to move."""
    cdef GameState s
    cdef Board b
    cdef Rng r
    cdef int16_t buf[MAX_LEGAL]
    cdef int n, kind
    load_state(state, &s, &b)
    if current_player(&s) < 0:
        raise ValueError("heuristic_action_for: the state is not a decision of a player")
    rng_seed(&r, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
    n = legal_actions(&b, &s, buf)
    if n == 0:
        raise ValueError("heuristic_action_for: no legal decision in this state")
    kind = _rollout_kind(rollout)
    return policy_action(kind, &b, &s, buf, n, &r)


def rollout_to_horizon(state, int horizon, seed=0, rollout="heuristic"):
    """The state where a rollout of the search from `state` is cut off and
    evaluated: the policy `rollout` plays on (chance from `seed`) to the
    (horizon + 1)-th turn start it reaches, or to the end of the game. A
    turn start with horizon 0 is its own cut-off. A new State; `state` is
    left as it is."""
    cdef GameState s
    cdef Board b
    cdef Rng r
    cdef int16_t buf[MAX_LEGAL]
    cdef int n, p, turns = 0, kind = _rollout_kind(rollout)
    if horizon < 0:
        raise ValueError(f"horizon: a number of turns >= 0, got {horizon}")
    load_state(state, &s, &b)
    rng_seed(&r, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
    with nogil:
        while True:
            p = current_player(&s)
            if p == CHANCE_PLAYER:
                apply_action(&b, &s, sample_chance(&s, &r))
                continue
            if p == TERMINAL_PLAYER or at_horizon(&s, horizon, &turns):
                break
            n = legal_actions(&b, &s, buf)
            apply_action(&b, &s, policy_action(kind, &b, &s, buf, n, &r))
    out = state.clone()
    (<State>out).s = s
    return out


def playout_scores(state, seed=0, rollout="random"):
    """Final scores of one playout from `state` (dealer and decisions from `seed`)."""
    return playout_outcome(state, seed, rollout)[0]


def playout_outcome(state, seed=0, rollout="random"):
    """(final scores, win shares) of one playout from `state` (dealer and
    decisions from `seed`); a shared win (R-END-3) is split evenly."""
    cdef GameState s
    cdef Board b
    cdef Rng r
    cdef int kind = _rollout_kind(rollout), p, m
    cdef int won[MAX_PLAYERS]
    load_state(state, &s, &b)
    rng_seed(&r, <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF))
    with nogil:
        if kind == ROLLOUT_HEURISTIC:
            heuristic_playout(&b, &s, &r)
        elif kind == ROLLOUT_LOOKAHEAD:
            heuristic_playout(&b, &s, &r, True)
        else:
            random_playout(&b, &s, &r)
        m = winners(&b, &s, won)
    return ([s.players[p].score for p in range(s.num_players)],
            [won[p] / <double>m for p in range(s.num_players)])
