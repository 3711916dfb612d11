"""The one PettingZoo Parallel adapter, for games with simultaneous decisions.

Engines stay sequential (envs/core/game.py): a simultaneous step is the run of seats returned by
``State.simultaneous_players()``, each committing in turn. This adapter lets all of them act in
one ``step``. Seats with nothing to decide get a mask holding only ``NOOP`` (the extra last
action id, ``game.num_actions``), so every live agent always has a non-empty mask and all other
action ids mean the same as in the AEC env.

A step is atomic: the actions are applied to a clone, and only if all are legal does the clone
replace the state, so an illegal action leaves everything as it was. ``step`` takes a dict
``{agent: action}``; a seat with nothing to decide may be left out, or given exactly ``NOOP``
(or None). Anything else (another argument type, an unknown agent, a waiting seat's other
action or a non-integer one such as ``113.5``, a string, a list, an array) is an illegal action:
``IllegalActionError``, or with ``illegal_action="penalize"`` the offender gets -1 and the game
ends (every seat that had to act, when the fault is the argument as a whole).

``action_space(agent).sample()`` without a mask draws one of the agent's legal actions now
(``LegalDiscrete``): the Parallel API gives no other way to sample a valid joint action from the
spaces alone, which PettingZoo's own ``parallel_seed_test`` and the usual random-policy loop
``{a: env.action_space(a).sample() for a in env.agents}`` do. An explicit ``mask`` or
``probability`` is used as given, so a caller can still draw illegal actions on purpose, and
those still raise.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

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
from .game import as_action


class LegalDiscrete(spaces.Discrete):
    """``Discrete(num_actions + 1)`` of one agent of a Parallel env whose ``sample()`` without a
    mask draws from that agent's current action mask (NOOP for a seat with nothing to decide), so
    that sampling the spaces gives a legal joint action under ``illegal_action="raise"``.

    Seeding (``seed``) and the generator are the ordinary space's, so two envs reset with the same
    seed and spaces seeded alike sample the same actions. The env is held by a weak reference (a
    space must not keep its env alive, and copies stay cheap); with no game running, or once the
    space is copied or pickled on its own (not with its env), ``sample()`` is the plain uniform
    draw.
    """

    def __init__(self, n: int, env: DeckzooParallelEnv, agent: str):
        super().__init__(n)
        self._env = weakref.ref(env)
        self._agent = agent

    def current_mask(self) -> np.ndarray | None:
        """The agent's action mask now (int8), or None where there is none (no live game)."""
        ref = getattr(self, "_env", None)
        env = ref() if ref is not None else None
        if env is None or env.game_state is None or self._agent not in env.agents:
            return None
        return env._mask(env._seat[self._agent], env.game_state.simultaneous_players())

    def sample(self, mask=None, probability=None):
        if mask is None and probability is None:
            mask = self.current_mask()
        return super().sample(mask=mask, probability=probability)

    def __getstate__(self):
        state = dict(self.__dict__)
        state.pop("_env", None)  # a weak reference does not pickle; the copy samples uniformly
        return state


class DeckzooParallelEnv(GlobalStateMixin, ParallelEnv):
    def __init__(self, game_cls, **options):
        self.game, adapter = split_options(game_cls, options)
        self.reward_mode = adapter["reward"]
        self.illegal_action = adapter["illegal_action"]
        self.render_mode = adapter["render_mode"]
        self.metadata = {"name": game_cls.env_name(), "render_modes": ["ansi", "human"]}
        n = self.game.num_players
        self.noop = self.game.num_actions
        self.possible_agents = [agent_name(i) for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        base_obs, _ = make_spaces(self.game)
        obs_space = spaces.Dict(
            {
                "observation": base_obs["observation"],
                "action_mask": spaces.Box(low=0, high=1, shape=(self.noop + 1,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {
            a: LegalDiscrete(self.noop + 1, self, a) for a in self.possible_agents
        }
        self._seed_stream = np.random.default_rng()
        self.game_state = None
        self.agents = []

    def __setstate__(self, state):
        """A copied or unpickled env: its action spaces sample from it again (``LegalDiscrete``)."""
        self.__dict__.update(state)
        for space in self.action_spaces.values():
            space._env = weakref.ref(self)

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _mask(self, seat: int, acting: tuple[int, ...]) -> np.ndarray:
        mask = np.zeros(self.noop + 1, dtype=np.int8)
        if seat in acting:
            mask[: self.noop] = self.game_state.legal_mask_for(seat)
        else:
            mask[self.noop] = 1
        return mask

    def _observations(self):
        acting = self.game_state.simultaneous_players()
        return {
            a: {
                "observation": self.game_state.observe(self._seat[a]),
                "action_mask": self._mask(self._seat[a], acting),
            }
            for a in self.agents
        }

    def reset(self, seed=None, options=None):
        check_reset(seed, options)
        if seed is not None:
            self._seed_stream = np.random.default_rng(seed)
        self.game_state = self.game.new_state(int(self._seed_stream.integers(2**63)))
        self._rewards = RewardTracker(self.reward_mode, self.game_state)
        self.agents = self.possible_agents[:]
        if self.game_state.is_terminal():  # over at the deal: no agent is live, scores are final
            obs, _, _, _, infos = self._finish({a: 0.0 for a in self.agents}, {})
            return obs, infos
        return self._observations(), {a: {} for a in self.agents}

    def _check_actions(self, actions) -> None:
        """The argument as a whole: a dict of live agents (``IllegalActionError`` otherwise)."""
        if not isinstance(actions, Mapping):
            raise IllegalActionError(
                actions, [], f"step() takes a dict {{agent: action}}, got {type(actions).__name__}"
            )
        unknown = [k for k in actions if k not in self.agents]
        if unknown:
            names = ", ".join(map(repr, unknown))
            raise IllegalActionError(
                actions, [], f"no live agent is called {names} (agents: {', '.join(self.agents)})"
            )

    def step(self, actions):
        if self.game_state is None:
            raise RuntimeError(NOT_RESET)
        if not self.agents:
            raise RuntimeError("the game is over: call reset() to start a new one")
        acting = self.game_state.simultaneous_players()
        trial = self.game_state.clone()
        offenders = [agent_name(s) for s in acting]  # blamed when the argument as a whole is wrong
        try:
            self._check_actions(actions)
            for agent in self.agents:
                seat = self._seat[agent]
                if seat not in acting and actions.get(agent) is not None:
                    offenders = [agent]
                    a = as_action(actions[agent], self.noop + 1, lambda: [self.noop])
                    if a != self.noop:
                        raise IllegalActionError(
                            a, [self.noop], f"{agent} has nothing to decide now (use NOOP)"
                        )
            for seat in acting:
                agent = agent_name(seat)
                offenders = [agent]
                if agent not in actions:
                    raise IllegalActionError(
                        None, np.flatnonzero(trial.legal_mask()), f"{agent} must act this step"
                    )
                assert trial.current_player == seat, "simultaneous_players() out of order"
                trial.apply(actions[agent])
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            rewards = {a: (-1.0 if a in offenders else 0.0) for a in self.agents}
            return self._finish(rewards, {"illegal_action": True})
        self.game_state = trial
        step = self._rewards.step_rewards(self.game_state)
        rewards = {a: float(step[self._seat[a]]) for a in self.agents}
        if self.game_state.is_terminal():
            return self._finish(rewards, {})
        if self.render_mode == "human":
            self.render()
        obs = self._observations()
        return (
            obs,
            rewards,
            {a: False for a in self.agents},
            {a: False for a in self.agents},
            {a: {} for a in self.agents},
        )

    def _finish(self, rewards, info):
        scores = np.asarray(self.game_state.scores()).tolist()
        acting = ()
        obs = {
            a: {
                "observation": self.game_state.observe(self._seat[a]),
                "action_mask": self._mask(self._seat[a], acting),
            }
            for a in self.agents
        }
        out = (
            obs,
            rewards,
            {a: True for a in self.agents},
            {a: False for a in self.agents},
            {a: {**info, "scores": scores} for a in self.agents},
        )
        self.agents = []
        if self.render_mode == "human":
            self.render()
        return out

    def render(self):
        if self.render_mode is None:
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


def parallel_constructor(game_cls):
    def parallel_env(**options) -> DeckzooParallelEnv:
        return DeckzooParallelEnv(game_cls, **options)

    parallel_env.__doc__ = (
        f"The native Parallel env of {game_cls.name} (NOOP = the last action id)."
    )
    return parallel_env
