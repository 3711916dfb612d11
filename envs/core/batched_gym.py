"""A ``gymnasium.vector.VectorEnv`` over a batched engine: one learner seat per lane, batched
opponents.

::

    from deckzoo.envs import vector
    envs = vector.make_gym("gobig_v0", num_envs=256, seed=0, opponents="random")
    obs, info = envs.reset()                        # obs (B, obs_dim); info["action_mask"] (B, A)
    obs, reward, terminated, truncated, info = envs.step(actions)   # actions (B,)

Each lane is one game of the batched env. The learner's seat is drawn per game (or fixed with
``learner_seat``); every other seat is played by the opponent: ``"random"`` (a uniformly random
legal action, from its own generator) or a callable ``policy(obs, mask) -> actions`` on the
``(B, obs_dim)`` observations and ``(B, A)`` masks of the lanes' players to act (only the rows
of lanes where an opponent is to act are used). ``step`` applies the learner's actions, then
steps the opponents, all lanes at once, until the learner is to act again in every lane.

Rewards are the learner seat's rewards of the env's ``reward`` mode, summed over the step.
A finished game restarts in the same step (``metadata["autoreset_mode"]`` is SAME_STEP): the
returned observation is the next game's, and ``info["final_obs"]`` (rows where
``info["_final_obs"]``) is the learner's view of the finished one. A game that ends before
the learner has decided in it (a degenerate deal) is discarded, as the scalar
``SingleAgentEnv`` does. ``illegal_action`` is ``"penalize"`` by default here (the learner gets
-1 and the game ends), like ``deckzoo.training``'s single-agent env; an illegal opponent
action always raises.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from .errors import ConfigError, IllegalActionError

Policy = Callable[[np.ndarray, np.ndarray], np.ndarray]


class SingleAgentVectorEnv(VectorEnv):
    metadata: ClassVar[dict] = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        name: str,
        num_envs: int = 1,
        seed=None,
        opponents: str | Policy = "random",
        learner_seat: int | None = None,
        illegal_action: str = "penalize",
        **options,
    ):
        from .. import vector

        self.env = vector.make(
            name, num_envs=num_envs, seed=seed, illegal_action=illegal_action, **options
        )
        game = self.env.game
        n = game.num_players
        if learner_seat is not None and (
            isinstance(learner_seat, bool)
            or not isinstance(learner_seat, int)
            or not 0 <= learner_seat < n
        ):
            raise ConfigError(
                f"option 'learner_seat' must be None or a seat 0..{n - 1}, got {learner_seat!r}"
            )
        if not (opponents == "random" or callable(opponents)):
            raise ConfigError(
                f"option 'opponents' must be 'random' or a callable (obs, mask) -> actions, "
                f"got {opponents!r}"
            )
        self.opponents = opponents
        self.fixed_seat = learner_seat
        self.num_envs = self.env.num_envs
        self.single_observation_space = spaces.Box(
            0.0, np.float32(game.observation_high), shape=(self.env.obs_dim,), dtype=np.float32
        )
        self.single_action_space = spaces.Discrete(game.num_actions)
        self.observation_space = spaces.Box(
            0.0,
            np.float32(game.observation_high),
            shape=(self.num_envs, self.env.obs_dim),
            dtype=np.float32,
        )
        self.action_space = spaces.MultiDiscrete(np.full(self.num_envs, game.num_actions))
        self._seed_rngs(seed)
        self.seat = np.zeros(self.num_envs, dtype=np.int64)
        self._carry = np.zeros(self.num_envs, dtype=np.float32)
        self._obs = self._mask = None

    def _seed_rngs(self, seed) -> None:
        seq = np.random.SeedSequence(seed)
        self._seat_rng, self._opp_rng = (np.random.default_rng(s) for s in seq.spawn(2))

    def _draw_seats(self, lanes: np.ndarray) -> None:
        n = self.env.num_players
        self.seat[lanes] = (
            self.fixed_seat
            if self.fixed_seat is not None
            else self._seat_rng.integers(n, size=len(lanes))
        )

    def action_masks(self) -> np.ndarray:
        """``(B, A)`` bool: the learner's legal actions in every lane (what MaskablePPO asks)."""
        return self._mask

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self._seed_rngs(seed)
        obs, mask, player = self.env.reset(seed=seed)
        self._draw_seats(self.env.engine.all)
        self._carry = np.zeros(self.num_envs, dtype=np.float32)
        reward = np.zeros(self.num_envs, dtype=np.float32)
        done = np.zeros(self.num_envs, dtype=bool)
        obs, mask, _ = self._opponents_move(obs, mask, player, reward, done, {})
        return obs, {"action_mask": mask}

    def step(self, actions):
        env = self.env
        actions = np.asarray(actions)
        res = env.step(actions, final_seats=self.seat)
        lanes = env.engine.all
        reward = res.rewards[lanes, self.seat].astype(np.float32) + self._carry
        self._carry = np.zeros(self.num_envs, dtype=np.float32)
        done = res.terminated.copy()
        info: dict = {}
        self._collect_final(res, info)
        if done.any():
            self._draw_seats(np.flatnonzero(done))
        obs, mask, _ = self._opponents_move(res.obs, res.mask, res.player, reward, done, info)
        info["action_mask"] = mask
        if res.info["illegal"].any():
            info["illegal_action"] = res.info["illegal"]
        return obs, reward, done, np.zeros(self.num_envs, dtype=bool), info

    def _collect_final(self, res, info: dict) -> None:
        if "final_lanes" not in res.info:
            return
        if "final_obs" not in info:
            info["final_obs"] = np.zeros((self.num_envs, self.env.obs_dim), dtype=np.float32)
            info["_final_obs"] = np.zeros(self.num_envs, dtype=bool)
        lanes = res.info["final_lanes"]
        fresh = lanes[~info["_final_obs"][lanes]]  # a discarded second game keeps the first's
        keep = ~info["_final_obs"][lanes]
        info["final_obs"][fresh] = res.info["final_obs"][keep]
        info["_final_obs"][fresh] = True

    def _opponents_move(self, obs, mask, player, reward, done, info):
        """Step the opponents in every lane where one is to act, until the learner is everywhere."""
        env = self.env
        while True:
            theirs = player != self.seat
            if not theirs.any():
                break
            actions = self._opponent_actions(obs, mask)
            chosen = np.where(theirs, actions, 0)
            ok = mask[np.flatnonzero(theirs), chosen[theirs]]
            if not ok.all():
                lane = int(np.flatnonzero(theirs)[np.flatnonzero(~ok)[0]])
                raise IllegalActionError(
                    int(chosen[lane]),
                    np.flatnonzero(mask[lane]),
                    f"the opponent policy chose it in lane {lane}",
                )
            res = env.step(chosen, active=theirs, final_seats=self.seat)
            ended = res.terminated
            r = res.rewards[env.engine.all, self.seat]
            # a lane whose game ended this step is already in its next game: those rewards are
            # the next step's; a next game that ends before the learner decides is discarded
            reward += np.where(done, 0.0, r).astype(np.float32)
            self._carry += np.where(done & ~ended, r, 0.0).astype(np.float32)
            if ended.any():
                self._carry[done & ended] = 0.0
                self._collect_final(res, info)
                done |= ended
                self._draw_seats(np.flatnonzero(ended))
            obs, mask, player = res.obs, res.mask, res.player
        self._obs, self._mask = obs, mask
        return obs, mask, player

    def _opponent_actions(self, obs, mask) -> np.ndarray:
        if self.opponents == "random":
            return np.where(mask, self._opp_rng.random(mask.shape), -1.0).argmax(axis=1)
        return np.asarray(self.opponents(obs, mask), dtype=np.int64)

    def close(self, **kwargs):
        self.env.close()
