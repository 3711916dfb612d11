"""A single-agent Gymnasium env over any deckzoo game: one learner seat, the rest played by agents.

::

    import gymnasium, deckzoo.training          # importing registers the ids below
    env = gymnasium.make("deckzoo/GoBig-v0", num_players=4, opponents="heuristic")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(
        int(np.flatnonzero(env.unwrapped.action_masks())[0])
    )

Ids: one per game of the registry, ``deckzoo/<Title>-v<version>`` (``deckzoo/GoBig-v0``,
``deckzoo/BigNumber-v0``...: ``deckzoo.envs.registry.gym_id``). Without importing
``deckzoo.training`` first, ``gymnasium.make("deckzoo.training:deckzoo/GoBig-v0")`` works too.

Episode. At each reset a new game is dealt (its seed drawn from the env's ``np_random``), the
learner's seat is drawn uniformly (or fixed with ``learner_seat``), and each other seat gets an
opponent drawn from ``opponents``. Opponents act on the engine directly
(``agent.act(state.for_player(seat))``), so ``step`` applies the learner's action and then every
opponent move up to the learner's next decision or the end of the game. A game that would end
before the learner ever decides (possible only in degenerate deals) is discarded and redealt.

Observation: ``state.observe(learner_seat)``, the game's float32 vector
(``Box(0, observation_high)``).
Actions: ``Discrete(game.num_actions)``; ``action_masks()`` returns the exact legal mask as a
bool array, the way sb3-contrib's ``MaskablePPO`` expects. ``state()`` gives the game's
full-information global state (``state_space``), as the PettingZoo envs' ``state()`` does.

Reward (``reward=``), the learner's seat's reward of the PettingZoo adapters (the same
``RewardTracker`` of ``deckzoo.envs.core.adapter_options``): ``"win"`` (default) its share of
``state.returns()`` at the end (+1 win, ties split, losers share -1); ``"score"`` its
``state.score_returns()`` at the end; ``"dense"`` its own score changes, ``score_sign * delta /
score_scale``, paid on the learner's step in which they happen (opponents' moves included). An
episode's return lies in ``game.return_bounds(reward)``.

Illegal actions (``illegal_action=``): ``"penalize"`` (default here, unlike the PettingZoo
adapters) ends the episode with reward -1 and ``info["illegal_action"] = True`` and leaves the
game unchanged. The default differs because a Gymnasium env is driven by generic code that does
not read masks (both env checkers step with ``action_space.sample()``); ``"raise"`` raises
``IllegalActionError`` as the engine does.

Opponents (``opponents=``):

* a spec string for every opponent seat: ``"random"``, ``"heuristic"``, ``"ppo:PATH"``, or
  anything ``deckzoo.agents.registry.make_agent`` understands;
* a list with one spec or ``Agent`` per opponent, in seat order after the learner (clockwise);
* a dict ``{spec: weight}``: each opponent seat draws its spec independently every episode. Two
  special keys draw from the self-play pool set with ``set_pool``: ``"pool"`` (a uniformly chosen
  snapshot) and ``"latest"`` (the newest one). With an empty pool they fall back to ``"random"``.

``max_steps`` (default None) truncates an episode after that many learner decisions
(``truncated=True``, no terminal reward). Every game ends within ``game.max_game_length``
decisions (a proved bound, or a cap the engine enforces such as Midgard's ``max_decisions``), so
this only shortens episodes, e.g. of policies that cycle through cancellable composite actions.

``episode_stats=True`` adds ``info["episode"] = {"r": return, "l": learner steps}`` and
``info["is_success"]`` (the learner is among the winners) at the end of each episode, the keys
stable-baselines3 logs as ``rollout/ep_rew_mean`` and ``rollout/success_rate``.

Resuming: ``get_env_state()`` returns the env's complete mutable state (game, seats, opponent
agents, random generators) as JSON-able data, and ``set_env_state(d)`` restores it, so a
training run can stop between two steps and continue bit-for-bit. The pool is not part of it
(see ``set_pool``).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np

import deckzoo.envs as E
from deckzoo.agents.base import Agent
from deckzoo.agents.registry import make_agent
from deckzoo.envs import registry
from deckzoo.envs.core.adapter_options import (
    GlobalStateMixin,
    RewardTracker,
    check_reset,
    make_spaces,
    validate_adapter_options,
)
from deckzoo.envs.core.errors import ConfigError, IllegalActionError
from deckzoo.envs.core.game import rng_from_dict
from deckzoo.envs.core.options import check_seat
from deckzoo.envs.registry import gym_id

from .opponents import OpponentMix

POOL = "pool"
LATEST = "latest"
ENV_STATE_VERSION = 1  # of get_env_state()'s data; set_env_state refuses any other


def register_envs() -> list[str]:
    """Register every game of the registry with Gymnasium's; returns the ids registered."""
    ids = []
    for env_name in registry.env_names():
        env_id = gym_id(env_name)
        if env_id not in gym.registry:
            gym.register(
                id=env_id, entry_point=f"{__name__}:SingleAgentEnv", kwargs={"game": env_name}
            )
        ids.append(env_id)
    return ids


class SingleAgentEnv(GlobalStateMixin, gym.Env):
    """One learner seat against agents; see the module docstring."""

    metadata: ClassVar[dict] = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(
        self,
        game: str,
        num_players: int | None = None,
        opponents: Any = "random",
        reward: str = "win",
        learner_seat: int | None = None,
        illegal_action: str = "penalize",
        render_mode: str | None = None,
        episode_stats: bool = False,
        max_steps: int | None = None,
        **game_options,
    ):
        given = {"reward": reward, "illegal_action": illegal_action, "render_mode": render_mode}
        adapter = validate_adapter_options(given, "SingleAgentEnv")
        self.game = E.game_class(game)(num_players, **game_options)
        self.game_name = type(self.game).name
        if isinstance(learner_seat, np.integer):
            learner_seat = int(learner_seat)
        check_seat(learner_seat, self.game.num_players, "SingleAgentEnv", "learner_seat")
        self.reward_mode = adapter["reward"]
        self.illegal_action = adapter["illegal_action"]
        self.render_mode = adapter["render_mode"]
        self.fixed_seat = None if learner_seat is None else int(learner_seat)
        self.episode_stats = bool(episode_stats)
        if max_steps is not None and (
            isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1
        ):
            raise ConfigError(f"option 'max_steps' must be None or an int >= 1, got {max_steps!r}")
        self.max_steps = max_steps
        self._ep_return, self._ep_len = 0.0, 0
        self._done = False
        obs_spaces, self.action_space = make_spaces(self.game)
        self.observation_space = obs_spaces["observation"]
        self._fixed, self._mix = self._parse_opponents(opponents)
        self._agents: dict[tuple, Agent] = {}  # (spec, opponent index) -> agent, built lazily
        self._pool_ids: list[int] = []  # the drawable pool, oldest first
        self._pool_agents: dict[
            int, Agent
        ] = {}  # id -> agent: the pool plus retired ones still seated
        self._pool_rng = np.random.default_rng(0)  # shared by pool agents; reseeded in reset(seed)
        self.game_state = None
        self.seat = 0
        self.seat_agents: list[Agent | None] = []
        self._seat_refs: list[tuple | None] = []  # where each seat's agent lives (None: learner)
        self.seat_labels: list[str] = []
        self._rewards: RewardTracker | None = None

    # ---- opponents ------------------------------------------------------------------------
    def _parse_opponents(self, opponents):
        """``(fixed list or None, OpponentMix or None)``; errors name the bad entry."""
        m = self.game.num_players - 1
        if isinstance(opponents, (str, Agent)):
            opponents = [opponents] * m
        if isinstance(opponents, dict):
            mix = OpponentMix.parse(opponents, "opponents", "option")
            for k in mix.keys:
                if k not in (POOL, LATEST):
                    self._check_spec(k)
            return None, mix
        if isinstance(opponents, (list, tuple)):
            if len(opponents) != m:
                raise ConfigError(
                    f"option 'opponents': {m} opponents needed for {m + 1} players, "
                    f"got {len(opponents)}"
                )
            for o in opponents:
                if isinstance(o, str):
                    self._check_spec(o)
                elif not isinstance(o, Agent):
                    raise ConfigError(
                        f"option 'opponents': entries are agent specs or Agents, got {o!r}"
                    )
            return list(opponents), None
        raise ConfigError(
            f"option 'opponents' must be a spec, a list or a {{spec: weight}} dict, "
            f"got {opponents!r}"
        )

    def _check_spec(self, spec: str) -> None:
        make_agent(
            spec, self.game_name, 0
        )  # raises ConfigError for unknown specs / missing heuristics

    def _agent(self, spec: str, index: int) -> Agent:
        key = (spec, index)
        if key not in self._agents:
            self._agents[key] = make_agent(
                spec, self.game_name, int(self.np_random.integers(2**63))
            )
        return self._agents[key]

    def set_pool(
        self,
        agents: Sequence[Agent],
        ids: Sequence[int] | None = None,
        retired: dict[int, Agent] | None = None,
    ) -> None:
        """Replace the self-play pool (oldest first); ``ids`` name its members (default 0, 1, ...).

        Pool agents share one generator owned by this env, so their sampling is part of the env's
        resumable state. A game in progress keeps the opponents it was dealt: members dropped
        from the pool stay seated until that game ends. ``retired`` supplies such members when
        restoring a saved env state (see ``pool_ids_in_use``)."""
        ids = list(range(len(agents))) if ids is None else [int(i) for i in ids]
        if len(ids) != len(agents) or len(set(ids)) != len(ids):
            raise ConfigError("set_pool: ids must be distinct, one per agent")
        keep = {i: a for i, a in self._pool_agents.items() if i in self._seat_pool_ids}
        for i, a in [*zip(ids, agents), *(retired or {}).items()]:
            a = copy.copy(a)  # shallow: weights shared, generator not
            a.rng = self._pool_rng
            keep[i] = a
        self._pool_ids, self._pool_agents = ids, keep

    @property
    def pool_size(self) -> int:
        return len(self._pool_ids)

    def pool_ids_in_use(self) -> list[int]:
        """Ids of the pool agents seated in the current game."""
        return sorted({i for i in self._seat_pool_ids if i is not None})

    def _draw_opponent(self, index: int) -> tuple[Agent, str, tuple]:
        """(agent, label, reference) for the ``index``-th opponent after the learner. The
        reference says where the agent lives: ``("spec", spec, index)`` (built here from a spec),
        ``("fixed", index)`` (an Agent given to the constructor) or ``("pool", id)``."""
        if self._fixed is not None:
            o = self._fixed[index]
            if isinstance(o, Agent):
                return o, getattr(o, "name", type(o).__name__), ("fixed", index)
            return self._agent(o, index), o, ("spec", o, index)
        mix = self._mix  # (one key: nothing drawn)
        k = mix.draw(self.np_random) if len(mix) > 1 else mix.keys[0]
        if k in (POOL, LATEST):
            if not self._pool_ids:
                return self._agent("random", index), "random", ("spec", "random", index)
            n = len(self._pool_ids)
            pid = self._pool_ids[n - 1 if k == LATEST else int(self.np_random.integers(n))]
            return self._pool_agents[pid], f"pool[{pid}]", ("pool", pid)
        return self._agent(k, index), k, ("spec", k, index)

    @property
    def _seat_pool_ids(self) -> list[int | None]:
        """Pool id of each seat's agent (None: not a pool agent)."""
        return [ref[1] if ref is not None and ref[0] == "pool" else None for ref in self._seat_refs]

    # ---- the Gymnasium API ------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        check_reset(seed, options)
        super().reset(seed=seed)
        if seed is not None:
            self._pool_rng.bit_generator.state = np.random.default_rng(
                self.np_random.integers(2**63)
            ).bit_generator.state
            for a in self._agents.values():
                a.seed(int(self.np_random.integers(2**63)))
        n = self.game.num_players
        while True:
            self.seat = (
                self.fixed_seat if self.fixed_seat is not None else int(self.np_random.integers(n))
            )
            self._pool_agents = {
                i: self._pool_agents[i] for i in self._pool_ids
            }  # forget retired members
            self.seat_agents = [None] * n
            self.seat_labels = ["learner"] * n
            self._seat_refs = [None] * n
            for i in range(n - 1):
                s = (self.seat + 1 + i) % n
                agent, label, ref = self._draw_opponent(i)
                self.seat_agents[s], self.seat_labels[s], self._seat_refs[s] = agent, label, ref
            self.game_state = self.game.new_state(int(self.np_random.integers(2**63)))
            self._rewards = RewardTracker(self.reward_mode, self.game_state)
            self._ep_return, self._ep_len = 0.0, 0
            self._done = False
            self._play_opponents()
            if not self.game_state.is_terminal():
                break
        if self.render_mode == "human":
            self.render()
        return self.game_state.observe(self.seat), {
            "learner_seat": self.seat,
            "opponents": list(self.seat_labels),
        }

    def step(self, action):
        state = self.game_state
        if state is None or self._done:
            raise RuntimeError("step() called on a finished episode; call reset()")
        try:
            state.apply(action)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._done = True
            return state.observe(self.seat), -1.0, True, False, {"illegal_action": True}
        self._play_opponents()
        # the learner's share of what the adapters pay every seat (dense: the score changes since
        # its previous step, opponents' moves included; win/score: the returns at the end)
        reward = float(self._rewards.step_rewards(state)[self.seat])
        terminated = self._done = state.is_terminal()
        info = {}
        if terminated:
            winners = sorted(int(w) for w in state.winners())
            info = {
                "scores": np.asarray(state.scores()).tolist(),
                "winners": winners,
                "learner_seat": self.seat,
                "opponents": list(self.seat_labels),
            }
        self._ep_return += reward
        self._ep_len += 1
        truncated = not terminated and self.max_steps is not None and self._ep_len >= self.max_steps
        if truncated:
            self._done = True
        if (terminated or truncated) and self.episode_stats:
            info["episode"] = {"r": self._ep_return, "l": self._ep_len}
            info["is_success"] = terminated and self.seat in winners
        if self.render_mode == "human":
            self.render()
        return state.observe(self.seat), float(reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The learner's exact legal mask (bool); all True once the game is over, so that a
        sampler given a finished episode never sees an empty mask."""
        if self.game_state is None or self._done or self.game_state.current_player != self.seat:
            return np.ones(self.game.num_actions, dtype=bool)
        return self.game_state.legal_mask().astype(bool, copy=False)

    def render(self):
        if self.render_mode is None:
            gym.logger.warn(
                "render() called without a render_mode; pass render_mode='ansi' or 'human'"
            )
            return None
        text = f"learner: seat {self.seat}\n" + self.game_state.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # ---- internals ------------------------------------------------------------------------
    def _play_opponents(self) -> None:
        state, seat, agents = self.game_state, self.seat, self.seat_agents
        while True:
            p = state.current_player
            if p is None or p == seat:
                return
            state.apply(agents[p].act(state.for_player(p)))

    # ---- exact resume ---------------------------------------------------------------------
    def get_env_state(self) -> dict:
        """Everything that changes while the env runs, as JSON-able data (nothing pickled): the
        generators, the game (``State.to_dict``), the seats, and each opponent's ``get_state()``.
        Agents are referenced by where they live (their spec, a constructor argument, a pool id)."""
        return {
            "version": ENV_STATE_VERSION,
            "np_random": self.np_random.bit_generator.state,
            "pool_rng": self._pool_rng.bit_generator.state,
            "agents": [[spec, index, a.get_state()] for (spec, index), a in self._agents.items()],
            "fixed": [o.get_state() if isinstance(o, Agent) else None for o in self._fixed or []],
            "state": None if self.game_state is None else self.game_state.to_dict(),
            "seat": self.seat,
            "seats": [None if ref is None else list(ref) for ref in self._seat_refs],
            "labels": list(self.seat_labels),
            "last_scores": None
            if self._rewards is None or self._rewards.last_scores is None
            else self._rewards.last_scores.tolist(),
            "episode": [self._ep_return, self._ep_len],
            "done": self._done,
        }

    def set_env_state(self, d: dict) -> None:
        """Restore ``get_env_state()`` on an env made with the same arguments; call ``set_pool``
        first with the same pool and, as ``retired``, any member of ``pool_ids_in_use()`` (at save
        time) no longer in it. Agents built from specs are rebuilt and given their saved state."""
        if not isinstance(d, dict) or d.get("version") != ENV_STATE_VERSION:
            version = d.get("version") if isinstance(d, dict) else None
            raise ValueError(f"env state: format version {version!r}, expected {ENV_STATE_VERSION}")
        self.np_random = rng_from_dict({"bit_generator": d["np_random"]})
        self._pool_rng.bit_generator.state = d["pool_rng"]
        agents = {}
        for spec, index, state in d["agents"]:
            agent = make_agent(spec, self.game_name, 0)
            agent.set_state(state)
            agents[(spec, int(index))] = agent
        self._agents = agents
        if len(d["fixed"]) != len(self._fixed or []):
            raise ConfigError("env state: it was saved with other opponents than this env's")
        for o, state in zip(self._fixed or [], d["fixed"]):
            if isinstance(o, Agent):
                o.set_state(state)
        state_cls = type(self.game.new_state(0))  # the game's State class
        self.game_state = None if d["state"] is None else state_cls.from_dict(d["state"], self.game)
        self.seat, self.seat_labels = int(d["seat"]), list(d["labels"])
        self._rewards = None
        if self.game_state is not None:  # the tracker's memory: the scores at the last reward
            self._rewards = RewardTracker(self.reward_mode, self.game_state)
            if d["last_scores"] is not None:
                self._rewards.last_scores = np.asarray(d["last_scores"], dtype=np.float64)
        self._ep_return, self._ep_len = float(d["episode"][0]), int(d["episode"][1])
        self._done = bool(d["done"])
        self.seat_agents, self._seat_refs = [], []
        for ref in d["seats"]:
            ref = None if ref is None else tuple(ref)
            if ref is None:
                agent = None
            elif ref[0] == "pool":
                if ref[1] not in self._pool_agents:
                    raise ConfigError(
                        f"env state refers to pool member {ref[1]}, which set_pool did not supply"
                    )
                agent = self._pool_agents[ref[1]]
            elif ref[0] == "fixed":
                agent = self._fixed[ref[1]]
            else:
                agent = self._agents[(ref[1], ref[2])]
            self.seat_agents.append(agent)
            self._seat_refs.append(ref)
