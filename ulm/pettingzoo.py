"""Ulm as a PettingZoo AEC environment (the rl extra: pip install 'ulm-engine[rl]').

    from ulm.pettingzoo import env
    e = env(players=4)                  # as PettingZoo's classic games are made
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else pick(obs["observation"], obs["action_mask"])
        e.step(action)

* Agents "player_0" .. "player_{n-1}", one per seat, in seat order.
* An observation is a dict: "observation", the seat's observation tensor
  (``State.observation_tensor``: float32, the slices of docs/environments.md),
  and "action_mask", int8 over the 313 decisions (1 where legal; all 0 for a
  seat not to move). The action space is Discrete(313), the core's decision ids
  (``ulm.ACTION_NAMES``).
* Chance (the bag, the cards, the coats, the tower) is resolved inside the
  environment by the game's dealer, seeded from ``reset(seed=...)``: the same
  seed and the same actions repeat the game exactly. Without a seed, the next
  game's seed derives from the last one given (a fresh secret one at first).
* Rewards come at the end only: each seat's win share (1 to the winner, ties
  share, R-END-3), as ``State.returns()`` and the tournaments count them.
* ``render()``: "human" prints the position as ``ulm show`` does, "ansi"
  returns that text, "rgb_array" the board picture (needs the picture extra).
  By default the whole game is drawn, hidden cards included (the view of
  whoever runs every seat); ``view=seat`` draws what that seat knows.
"""
from __future__ import annotations

import secrets
from typing import Any

from ulm.extras import require

require("pettingzoo", "rl", "ulm.pettingzoo")
require("gymnasium", "rl", "ulm.pettingzoo")

import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402
from pettingzoo.utils import wrappers  # noqa: E402

from ulm import derive_seed  # noqa: E402
from ulm._fastcore import DECISION_COUNT, OBSERVATION_SIZE, IllegalActionError  # noqa: E402
from ulm.extras import installed  # noqa: E402
from ulm.game import Game  # noqa: E402

# Every number of an observation lies in [OBS_LOW, OBS_HIGH] for any state the core
# accepts (its largest counts: 999 sparrows / 10, -999 points by source / 20); in play
# they stay within [-1, 3].
OBS_LOW, OBS_HIGH = -50.0, 100.0
RENDER_MODES = ["human", "ansi"] + (["rgb_array"] if installed("cairosvg") else [])


def env(players: int = 4, variant: str = "basic", render_mode: str | None = None,
        view: int | None = None) -> AECEnv:
    """The environment, wrapped as PettingZoo's classic games are (calls out of
    order are refused with a clear message)."""
    return wrappers.OrderEnforcingWrapper(raw_env(players, variant, render_mode, view))


class raw_env(AECEnv):
    """Ulm for 2-4 players (see the module's doc)."""

    metadata = {"render_modes": RENDER_MODES, "name": "ulm_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, players: int = 4, variant: str = "basic", render_mode: str | None = None,
                 view: int | None = None):
        super().__init__()
        self.game = Game(players=players, variant=variant)      # checks both
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode: one of {RENDER_MODES}, got {render_mode!r}")
        if view is not None and (isinstance(view, bool) or not isinstance(view, int)
                                 or not 0 <= view < players):
            raise ValueError(f"view: a seat 0..{players - 1} or None, got {view!r}")
        self.render_mode = render_mode
        self.view = view
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        box = spaces.Box(OBS_LOW, OBS_HIGH, (OBSERVATION_SIZE,), np.float32)
        mask = spaces.Box(0, 1, (DECISION_COUNT,), np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": box, "action_mask": mask})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(DECISION_COUNT) for a in self.possible_agents}
        self._next_seed: int | None = None
        self.game_state: Any = None
        self.game_seed: int | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # --- the game ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game, dealt from `seed` (any whole number; None: the next seed of the
        last one given, or a fresh secret one)."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
                raise ValueError(f"seed: a whole number or None, got {seed!r}")
            game_seed = int(seed) & 0xFFFFFFFFFFFFFFFF
        elif self._next_seed is not None:
            game_seed = self._next_seed
        else:
            game_seed = secrets.randbits(64)
        self._next_seed = derive_seed(game_seed, 1)
        self.game_seed = game_seed
        self.game_state = self.game.new_game(game_seed)     # the set-up's chance draws are made
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game_state.current_player()]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"action: a decision id 0..{DECISION_COUNT - 1}, got {action!r}")
        action = int(action)
        if not 0 <= action < DECISION_COUNT:
            raise IllegalActionError(f"action {action} is out of range 0..{DECISION_COUNT - 1}")
        self.game_state.apply_action(action)            # IllegalActionError names the legal ones
        self.game_state.resolve_chance()
        self._cumulative_rewards[agent] = 0.0
        if self.game_state.is_terminal():
            shares = self.game_state.returns()
            for a in self.agents:
                self.rewards[a] = float(shares[self._seat[a]])
                self.terminations[a] = True
        else:
            for a in self.agents:
                self.rewards[a] = 0.0
            self.agent_selection = self.possible_agents[self.game_state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict:
        seat = self._seat[agent]
        mask = np.zeros(DECISION_COUNT, np.int8)
        if self.game_state.current_player() == seat:
            mask[self.game_state.legal_actions()] = 1
        return {"observation": self.game_state.observation_tensor(seat), "action_mask": mask}

    # --- pictures ---------------------------------------------------------------------------
    def render(self) -> Any:
        if self.render_mode is None:
            import warnings
            warnings.warn("render() without a render_mode: make the environment with "
                          "render_mode='human', 'ansi' or 'rgb_array'", stacklevel=2)
            return None
        if self.game_state is None:
            raise RuntimeError("render() before reset(): there is no game yet")
        if self.render_mode == "rgb_array":
            return board_image(self.game_state, self.view)
        from ulm.render import render_state
        text = render_state(self.game_state, self.view)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass


def board_image(state: Any, view: int | None = None) -> np.ndarray:
    """The board picture (ulm.picture) as an RGB array, height x width x 3, uint8."""
    import io

    from ulm.picture import board_svg
    cairosvg = require("cairosvg", "picture", "render_mode='rgb_array'")
    from PIL import Image
    png = cairosvg.svg2png(bytestring=board_svg(state, view).encode("utf-8"))
    with Image.open(io.BytesIO(png)) as img:
        return np.asarray(img.convert("RGB"), dtype=np.uint8)
