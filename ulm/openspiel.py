"""Ulm as an OpenSpiel game written in Python (game name ``python_ulm``; the
openspiel extra: pip install 'ulm-engine[openspiel]').

    import pyspiel
    import ulm.openspiel                      # registers the game with pyspiel
    game = pyspiel.load_game("python_ulm", {"players": 3})
    state = game.new_initial_state()          # before set-up: chance events first

A thin adapter: every rule lives in our compiled core (``ulm.State``); the
pyspiel.State subclass here only forwards the calls OpenSpiel makes.

* Actions and chance outcomes are the core's action ids (``ulm.ACTION_NAMES``);
  chance outcomes share that id space, so ``max_chance_outcomes`` is the size
  of the whole space.
* Returns are win shares (ties share, R-END-3): they sum to 1, so the game is
  CONSTANT_SUM with utility_sum 1, utilities in [0, 1], rewards only at the end.
* ``information_state_string(p)`` is the core's compact information-state key
  (``ulm.State.information_state_key``, R-INFO-4) in hex: what p knows now,
  built in compiled code in microseconds and about 1 KB long, where the
  readable text (``state.core.information_state_string(p)``) takes a Python
  dict walk and 2 KB. OpenSpiel's ISMCTS builds and hashes this string at
  every node it visits, so its speed in the comparison is its search's, not
  our string formatting's. Equal strings iff equal texts (tests check both
  ways). It is also served to C++ callers through the game's observer, and is
  the observation string too: what a seat observes is all it knows now.
* ``observation_tensor(p)`` and ``information_state_tensor(p)`` are both the
  core's observation tensor (``ulm.State.observation_tensor``, written in
  compiled code; its slices, named in the observer's ``dict``, are in
  docs/environments.md). Both are "what p knows now": the core keeps no
  record of the past, and the tensor holds every fact of p's information
  state (one tensor per information-state key, tests/ulm).
* ``resample_from_infostate(p, sampler)`` draws a 64-bit seed from the sampler
  (two calls) and returns a new state built on the core's uniform
  determinization. Its history() is empty: the core keeps no record of a
  redealt past, and copying the true history would reveal the hidden cards.
* ``clone()``: OpenSpiel clones a Python state by making a new initial state
  and deep-copying its ``__dict__``; the only attribute is a small box whose
  ``__deepcopy__`` is the core's struct copy. The box also pickles (raw struct
  and dealer RNG), so SerializeGameAndState works.

Game parameters: ``players`` (2, 3 or 4; default 4) and ``variant``
("basic" or "advanced"; default "basic"). The default board table only.
"""
from __future__ import annotations

from ulm.extras import require

require("pyspiel", "openspiel", "ulm.openspiel")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

from ulm import ACTION_NAMES  # noqa: E402
from ulm._fastcore import OBSERVATION_SIZE, OBSERVATION_SLICES  # noqa: E402
from ulm.game import Game  # noqa: E402

GAME_NAME = "python_ulm"
NUM_ACTIONS = len(ACTION_NAMES)
ROUNDS = 10
# Upper bounds for MaxGameLength / MaxChanceNodesInHistory. Not proven from the
# rules: random play needs at most 13 decisions and ~10 chance events a turn
# (measured over 900 games: at most 230 decisions and 94 chance events in a
# 4-player game), and the bounds leave a wide margin on both.
DECISIONS_PER_TURN_BOUND = 64
CHANCE_PER_TURN_BOUND = 32
SETUP_CHANCE_BOUND = 64

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Ulm (Python adapter of the compiled engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 4, "variant": "basic"},
    default_loadable=True,
    provides_factored_observation_string=False,
)

# One engine Game per (players, variant): boxes unpickle against it.
_ENGINES: dict = {}


def _engine(players: int, variant: str) -> Game:
    key = (int(players), str(variant))
    if key not in _ENGINES:
        _ENGINES[key] = Game(players=key[0], variant=key[1])
    return _ENGINES[key]


def _rebuild_box(players, variant, raw, dealer):
    engine = _engine(players, variant)
    rebuild, _ = engine.new_initial_state().__reduce__()    # the core's own unpickler
    return _CoreBox(rebuild(engine, raw, dealer))


class _CoreBox:
    """Holds one core State; deepcopy = the core's clone, pickle = raw struct."""
    __slots__ = ("s",)

    def __init__(self, s):
        self.s = s

    def __deepcopy__(self, memo):
        return _CoreBox(self.s.clone())

    def __reduce__(self):
        _fn, (engine, raw, dealer) = self.s.__reduce__()
        return (_rebuild_box, (engine.num_players, engine.variant, raw, dealer))


class UlmGame(pyspiel.Game):
    """Ulm for 2-4 players (parameter "players"), basic or advanced ("variant")."""

    def __init__(self, params=None):
        params = dict(params or {})
        players = int(params.get("players", 4))
        variant = str(params.get("variant", "basic"))
        self.engine = _engine(players, variant)      # validates both
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_ACTIONS,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=ROUNDS * players * DECISIONS_PER_TURN_BOUND)
        super().__init__(_GAME_TYPE, info, {"players": players, "variant": variant})

    def new_initial_state(self, *args):
        """The state before set-up (its first nodes are the set-up's chance draws)."""
        if args:
            raise ValueError(f"{GAME_NAME}: new_initial_state takes no string or JSON form")
        return UlmState(self)

    def state_from_core(self, core_state) -> "UlmState":
        """An OpenSpiel state holding a copy of an engine state (e.g. a mid-game
        position). Its history() is empty: the engine state carries none."""
        if (core_state.num_players() != self.engine.num_players
                or core_state.game.variant != self.engine.variant):
            raise ValueError(f"{GAME_NAME}: the state is not of this game's players/variant")
        state = UlmState(self)
        state._box = _CoreBox(core_state.clone())
        return state

    def max_chance_nodes_in_history(self):
        return SETUP_CHANCE_BOUND + ROUNDS * self.engine.num_players * CHANCE_PER_TURN_BOUND

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer of a seat's own view (OpenSpiel's observation and
        information-state types); other kinds of observation are refused."""
        if isinstance(iig_obs_type, dict) and params is None:   # called as f(params)
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ValueError(f"{GAME_NAME}: observation parameters are not supported: {params}")
        if iig_obs_type is not None and (
                not iig_obs_type.public_info
                or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError(f"{GAME_NAME}: only a seat's own view is observed (public and "
                             f"its private information), not {iig_obs_type}")
        return UlmObserver()


class UlmState(pyspiel.State):
    """Forwards OpenSpiel's State calls to the compiled core state in ``self._box.s``."""

    def __init__(self, game):
        super().__init__(game)
        self._box = _CoreBox(game.engine.new_initial_state())

    @property
    def core(self):
        """The engine state (ulm.State) itself; do not keep it across apply_action."""
        return self._box.s

    # --- the pyspiel.State contract ------------------------------------------
    def current_player(self):
        return self._box.s.current_player()

    def is_terminal(self):
        return self._box.s.is_terminal()

    def _legal_actions(self, player):
        return self._box.s.legal_actions()

    def chance_outcomes(self):
        return self._box.s.chance_outcomes()

    def _apply_action(self, action):
        self._box.s.apply_action(int(action))

    def _action_to_string(self, player, action):
        return self._box.s.action_to_string(int(action))

    def returns(self):
        return self._box.s.returns()

    def information_state_string(self, player=None):
        s = self._box.s
        return s.information_state_key(s.current_player() if player is None else player).hex()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one, drawn uniformly by the
        core; the randomness is a 64-bit seed taken from `probability_sampler`
        (any callable returning uniform floats in [0, 1))."""
        lo = int(probability_sampler() * 4294967296.0) & 0xFFFFFFFF
        hi = int(probability_sampler() * 4294967296.0) & 0xFFFFFFFF
        state = UlmState(self.get_game())
        state._box = _CoreBox(self._box.s.resample_from_infostate(player_id, (hi << 32) | lo))
        return state

    def __str__(self):
        """The full position as text (ulm.render), hidden parts included."""
        from ulm.render import render_state
        return render_state(self._box.s)


class UlmObserver:
    """A seat's view for C++ and Python callers (OpenSpiel's PyObserver): `tensor`,
    the core's observation tensor, and `dict`, its slices by name (views of
    `tensor`, shaped as in ulm.OBSERVATION_SLICES); the string is the
    information-state key."""

    def __init__(self):
        self.tensor = np.zeros(OBSERVATION_SIZE, np.float32)
        self.dict = {}
        for name, start, shape, _meaning in OBSERVATION_SLICES:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[start:start + size].reshape(shape)

    def set_from(self, state, player):
        state.core.observation_tensor(player, out=self.tensor)

    def string_from(self, state, player):
        return state.information_state_string(player)


if GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_GAME_TYPE, UlmGame)
