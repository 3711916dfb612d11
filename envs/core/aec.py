"""The one PettingZoo AEC adapter, shared by every game.

Nothing game-specific lives here: the adapter asks the engine whose turn it is, validates
nothing itself (``State.apply`` does, atomically), and converts engine scores into rewards with
``RewardTracker``. Version modules bind it to a game with ``aec_constructors``.
"""

from __future__ import annotations

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from .adapter_options import (
    NOT_RESET,
    GlobalStateMixin,
    RewardTracker,
    agent_name,
    check_reset,
    make_spaces,
    split_options,
)
from .errors import IllegalActionError


class DeckzooAECEnv(GlobalStateMixin, AECEnv):
    """AEC view of a deckzoo engine. ``env.unwrapped.game_state`` is the engine state."""

    def __init__(self, game_cls, **options):
        super().__init__()
        self.game, adapter = split_options(game_cls, options)
        self.reward_mode = adapter["reward"]
        # win/score rewards are all zero until the end, so a mid-game step skips the bookkeeping
        self._sparse = self.reward_mode != "dense"
        self.illegal_action = adapter["illegal_action"]
        self.render_mode = adapter["render_mode"]
        self.metadata = {
            "name": game_cls.env_name(),
            "render_modes": ["ansi", "human"],
            "is_parallelizable": False,
        }
        n = self.game.num_players
        self.possible_agents = [agent_name(i) for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space, act_space = make_spaces(self.game)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: act_space for a in self.possible_agents}
        self._zero_mask = np.zeros(self.game.num_actions, dtype=np.int8)
        self._seed_stream = np.random.default_rng()
        self.game_state = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        # A seed restarts the stream of game seeds, so reset(seed) then reset() then reset()
        # is reproducible too.
        check_reset(seed, options)
        if seed is not None:
            self._seed_stream = np.random.default_rng(seed)
        game_seed = int(self._seed_stream.integers(2**63))
        self.game_state = self.game.new_state(game_seed)
        self._rewards = RewardTracker(self.reward_mode, self.game_state)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        if self.game_state.current_player is None:  # over at the deal: every agent is already done
            step = self._rewards.step_rewards(self.game_state)
            self._end_with({a: float(step[self._seat[a]]) for a in self.agents}, {})
            return
        self.agent_selection = self.possible_agents[self.game_state.current_player]

    def observe(self, agent):
        if self.game_state is None:
            raise RuntimeError(NOT_RESET)
        seat = self._seat[agent]
        state = self.game_state
        if state.current_player == seat and not self.terminations.get(agent, True):
            mask = state.legal_mask().astype(np.int8)  # a copy: never aliases engine memory
        else:
            mask = self._zero_mask.copy()
        return {"observation": state.observe(seat), "action_mask": mask}

    def last(self, observe: bool = True):
        if self.game_state is None:
            raise RuntimeError(NOT_RESET)
        return super().last(observe)

    def step(self, action):
        if self.game_state is None:
            raise RuntimeError(NOT_RESET)
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        state = self.game_state
        try:
            state.apply(action)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._end_with(
                {a: (-1.0 if a == agent else 0.0) for a in self.agents},
                {"illegal_action": True},
                offender=agent,
            )
            return
        if state.current_player is None:  # terminal
            step = self._rewards.step_rewards(state)
            self._end_with({a: float(step[self._seat[a]]) for a in self.agents}, {})
            return
        if not self._sparse:
            step = self._rewards.step_rewards(state)
            self.rewards = {a: float(step[self._seat[a]]) for a in self.agents}
            self._accumulate_rewards()
        # else: self.rewards is still all zeros from reset (sparse rewards come only at the end)
        self.agent_selection = self.possible_agents[state.current_player]
        if self.render_mode == "human":
            self.render()

    def _end_with(self, rewards: dict, info: dict, offender=None):
        self.rewards = rewards
        self._accumulate_rewards()
        if offender is None and getattr(self.game_state, "truncated", False):
            # the engine cut the game off (a turn cap such as Midgard's max_turns): a truncation
            self.truncations = {a: True for a in self.agents}
        else:
            self.terminations = {a: True for a in self.agents}
        scores = np.asarray(self.game_state.scores()).tolist()
        for a in self.agents:
            self.infos[a] = {**info, "scores": scores}
        self.agent_selection = self.agents[0] if offender is None else offender
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn(
                "render() called without a render_mode; pass render_mode='ansi' or 'human'"
            )
            return None
        if self.game_state is None:
            raise RuntimeError(NOT_RESET)
        text = self.game_state.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass


def _forwarded(name: str) -> property:
    def get(self):
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    def set(self, value):
        setattr(self.env, name, value)

    return property(get, set, doc=f"The wrapped env's ``{name}`` (an AttributeError before reset).")


class OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` with the same checks on a shorter path.

    The stock wrapper reaches every attribute an RL loop reads each step (``agent_selection``,
    ``agents``, ``terminations``...) through two ``__getattr__`` fallbacks, and ``last()`` through
    both wrapper layers; here they are direct properties and ``last()`` is forwarded after the
    same before-reset check. It is still an ``OrderEnforcingWrapper`` (``isinstance`` holds, and
    ``agent_iter`` enforces step/last ordering as before).
    """

    agent_selection = _forwarded("agent_selection")
    agents = _forwarded("agents")
    terminations = _forwarded("terminations")
    truncations = _forwarded("truncations")
    rewards = _forwarded("rewards")
    infos = _forwarded("infos")

    def last(self, observe: bool = True):
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)

    def step(self, action) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)

    def __str__(self) -> str:
        return str(self.env)


def aec_constructors(game_cls):
    """``(env, raw_env)`` for a game's env.py: ``raw_env`` is the bare adapter, ``env`` adds
    the order-enforcing wrapper (illegal actions are handled by the engine itself)."""

    def raw_env(**options) -> DeckzooAECEnv:
        return DeckzooAECEnv(game_cls, **options)

    def env(**options):
        return OrderEnforcingWrapper(raw_env(**options))

    raw_env.__doc__ = f"The bare AEC env of {game_cls.name} (options: see {game_cls.__module__})."
    env.__doc__ = f"The AEC env of {game_cls.name}, wrapped for order enforcement."
    return env, raw_env
