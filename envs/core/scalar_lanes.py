"""Scalar lanes: ``num_envs`` scalar engine states behind the batched env's interface.

Why. The vector trainer (``training/vector_ppo.py``) steps ``BatchedEnv``s and decides the
learner's seats of all lanes with one forward pass. A game without a batched engine (Midgard)
can still train there if its lanes are scalar ``State``s stepped one after the other:
``ScalarLanesEnv`` is that adapter. It returns what ``BatchedEnv`` returns (``reset`` ->
``(obs, mask, player)``, ``step`` -> a ``Step`` with ``(B, obs_dim)`` observations of the player
to act, ``(B, A)`` exact masks, ``(B, P)`` rewards from ``RewardTracker`` as the scalar adapters
compute them, terminations and automatic restarts with ``info["final_obs"]``), raises or
penalizes illegal actions as it does, and saves and restores every lane (``get_state``), so the
trainer does not know which kind it steps. The engine does the work, so it is as fast as the
scalar engine, no faster: what the trainer gains is the batched network pass.

Games are seeded as the AEC env seeds them: one generator (``seed``) draws each new game's seed,
``game.new_state(int(rng.integers(2**63)))``, lanes in order at ``reset``, then each restarted
lane in lane order. With ``num_envs=1`` the lane plays the games of ``AECEnv.reset(seed)``
followed by ``reset()`` calls (tests/training/test_scalar_lanes.py compares them).

Encoding an observation is the costliest part of a scalar step (Midgard: about three times
``apply``), so a caller that ignores some rows can say so: ``observe_seats`` (``(B, P)`` bool,
None: all) marks the seats whose observations are encoded, and ``observe_forced=False`` skips
positions with a single legal action. Rows not encoded are zeros; masks are always exact.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .adapter_options import RewardTracker, split_options
from .batched import Step, lane_actions, step_lanes
from .errors import ConfigError, IllegalActionError


class ScalarLanesEnv:
    """``num_envs`` games of ``game_cls`` with ``options`` (game options, ``reward``,
    ``illegal_action``), each a scalar ``State``, stepped together. ``engine`` is the env itself:
    agents that decide on scalar states (``training.vector_lanes``) read ``states``."""

    scalar = True  # (what the vector trainer's lanes check: agents may sit in these lanes)

    def __init__(self, game_cls: type, num_envs: int = 1, seed=None, **options):
        if (
            isinstance(num_envs, bool)
            or not isinstance(num_envs, (int, np.integer))
            or num_envs < 1
        ):
            raise ConfigError(f"option 'num_envs' must be an int >= 1, got {num_envs!r}")
        if options.get("render_mode") is not None:
            raise ConfigError(
                "scalar lanes: option 'render_mode' is not supported (render one game with the "
                "scalar env)"
            )
        game, adapter = split_options(game_cls, options)
        self.game = game
        self.reward_mode = adapter["reward"]
        self.illegal_action = adapter["illegal_action"]
        self.num_envs = int(num_envs)
        self.num_players = game.num_players
        self.num_actions = game.num_actions
        self.obs_dim = int(np.prod(game.observation_shape))
        self.rng = np.random.default_rng(seed)
        self.engine = self
        self.states: list = []
        self.games = np.zeros(self.num_envs, dtype=np.int64)  # games started in each lane
        self.observe_seats: np.ndarray | None = None
        self.observe_forced = True
        self._trackers: list[RewardTracker] = []
        self._obs = np.zeros((self.num_envs, self.obs_dim), dtype=np.float32)
        self._mask = np.zeros((self.num_envs, self.num_actions), dtype=bool)
        self._player = np.zeros(self.num_envs, dtype=np.int64)

    # ---- positions ------------------------------------------------------------------------------
    def _start(self, lane: int) -> None:
        state = self.game.new_state(int(self.rng.integers(2**63)))
        self._put(lane, state)

    def _put(self, lane: int, state) -> None:
        if lane < len(self.states):
            self.states[lane] = state
        else:
            self.states.append(state)
        self._trackers[lane : lane + 1] = [RewardTracker(self.reward_mode, state)]
        self.games[lane] += 1

    def _position(self, lane: int) -> None:
        """The mask, seat and (where wanted) observation of the player to act in ``lane``."""
        state = self.states[lane]
        p = state.current_player
        self._player[lane] = p
        self._mask[lane] = state.legal_mask()
        if self._wants_obs(lane, p):
            self._obs[lane] = state.observe(p).reshape(-1)
        else:
            self._obs[lane] = 0.0

    def _wants_obs(self, lane: int, seat: int) -> bool:
        if self.observe_seats is not None and not self.observe_seats[lane, seat]:
            return False
        return self.observe_forced or np.count_nonzero(self._mask[lane]) > 1

    def observe_lanes(self, lanes: np.ndarray) -> np.ndarray:
        """Re-encode the current observations of ``lanes`` (after ``observe_seats`` changed for
        them, as when a caller seats a new game's players); returns those rows."""
        for lane in lanes:
            self._position(int(lane))
        return self._obs[lanes].copy()

    def _out(self):
        return self._obs.copy(), self._mask.copy(), self._player.copy()

    # ---- the loop -------------------------------------------------------------------------------
    def reset(self, seed=None):
        """Start a new game in every lane; ``seed`` reseeds the generator of game seeds."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self.states, self._trackers = [], []
        self.games[:] = 0
        for lane in range(self.num_envs):
            self._start(lane)
            self._position(lane)
        return self._out()

    def load_states(self, states: Sequence, lanes=None):
        """Put scalar positions (games in progress, copied) into ``lanes`` (default 0..len-1)."""
        lanes = np.arange(len(states)) if lanes is None else np.asarray(lanes, dtype=np.int64)
        if len(lanes) != len(states):
            raise ValueError(f"{len(states)} states for {len(lanes)} lanes")
        if len(self.states) < self.num_envs:
            raise ValueError("call reset() first: load_states replaces lanes of running games")
        for i, (lane, s) in enumerate(zip(lanes, states)):
            if s.game != self.game:
                raise ValueError(f"state {i} is a game of {s.game!r}, this env plays {self.game!r}")
            if s.is_terminal():
                raise ValueError(f"state {i} is a finished game; lanes hold games in progress")
            self._put(int(lane), s.clone())
            self._position(int(lane))
        return self._out()

    def legal_mask(self) -> np.ndarray:
        return self._mask

    def step(self, actions, active=None, final_seats=None) -> Step:
        """One action per lane, as ``BatchedEnv.step``: ``active`` limits the step to some lanes,
        ``final_seats`` chooses whose view ``info["final_obs"]`` shows (default: the mover). An
        illegal action raises before any lane changes, or with ``illegal_action="penalize"`` gives
        its seat -1, the lane's others 0, and ends that game (left as it was). The arguments are
        checked before any lane moves (``ValueError`` naming a malformed one; nothing changes)."""
        if len(self.states) < self.num_envs:
            raise RuntimeError("call reset() before step()")
        a = lane_actions(actions, self.num_envs)
        lanes, final_seats = step_lanes(active, final_seats, self.num_envs, self.num_players)
        act = a[lanes]
        inside = (act >= 0) & (act < self.num_actions)
        ok = inside & self._mask[lanes, np.where(inside, act, 0)]
        bad = lanes[~ok]
        if len(bad) and self.illegal_action == "raise":
            lane = int(bad[0])
            raise IllegalActionError(
                int(a[lane]),
                np.flatnonzero(self._mask[lane]),
                f"lane {lane} (player {int(self._player[lane])}): not legal now; "
                f"no lane was changed",
            )
        movers = self._player.copy()
        rewards = np.zeros((self.num_envs, self.num_players), dtype=np.float32)
        done = np.zeros(self.num_envs, dtype=bool)
        for lane, action in zip(lanes[ok].tolist(), act[ok].tolist()):
            state = self.states[lane]
            state.apply(action)
            rewards[lane] = self._trackers[lane].step_rewards(state)
            done[lane] = state.is_terminal()
        rewards[bad] = 0.0
        rewards[bad, movers[bad]] = -1.0
        done[bad] = True
        info = {"illegal": np.zeros(self.num_envs, dtype=bool)}
        info["illegal"][bad] = True
        observers = movers if final_seats is None else final_seats
        self._finish(lanes[ok & ~done[lanes]], np.flatnonzero(done), observers, info)
        return Step(*self._out(), rewards, done, info)

    def _finish(self, moved: np.ndarray, final: np.ndarray, observers, info: dict) -> None:
        """New positions of the lanes that moved on; the finished ones reported and restarted."""
        for lane in moved.tolist():
            self._position(lane)
        if not len(final):
            return
        info["final_lanes"] = final
        info["final_player"] = observers[final]
        info["final_obs"] = np.stack(
            [self.states[i].observe(int(observers[i])).reshape(-1) for i in final]
        ).astype(np.float32, copy=False)
        info["final_scores"] = np.stack(
            [np.asarray(self.states[i].scores(), dtype=np.int64) for i in final]
        )
        for lane in final.tolist():
            self._start(lane)
            self._position(lane)

    # ---- saving and restoring -------------------------------------------------------------------
    def get_state(self) -> tuple[dict[str, np.ndarray], dict]:
        """``(arrays, meta)``: the game counters as an array; every lane's game
        (``State.to_dict``), its dense-reward baseline and the generator as JSON-able values."""
        arrays = {"games": self.games.copy()}
        meta = {
            "rng": self.rng.bit_generator.state,
            "states": [s.to_dict() for s in self.states],
            "last_scores": [
                None if t.last_scores is None else t.last_scores.tolist() for t in self._trackers
            ],
        }
        return arrays, meta

    def set_state(self, arrays: dict[str, np.ndarray], meta: dict):
        """Restore ``get_state()`` of an env of the same game, options and ``num_envs``; returns
        ``(obs, mask, player)`` as ``reset`` does (observations re-encoded)."""
        if len(meta["states"]) != self.num_envs:
            raise ValueError(
                f"scalar lanes state: {len(meta['states'])} games for {self.num_envs} lanes"
            )
        state_cls = type(self.game.new_state(0))
        self.states = [state_cls.from_dict(d, self.game) for d in meta["states"]]
        self._trackers = []
        for state, last in zip(self.states, meta["last_scores"]):
            t = RewardTracker(self.reward_mode, state)
            t.last_scores = None if last is None else np.asarray(last, dtype=np.float64)
            self._trackers.append(t)
        self.games[...] = arrays["games"]
        self.rng.bit_generator.state = meta["rng"]
        for lane in range(self.num_envs):
            self._position(lane)
        return self._out()

    def close(self) -> None:
        pass

    def __repr__(self) -> str:
        return f"<ScalarLanesEnv {self.game!r} num_envs={self.num_envs}>"
