"""The games the vector trainer plays, and who sits in each seat of each of them.

A *lane* holds one game at a time. ``Lanes.step(actions)`` makes one decision in every lane
(whoever is to act there) and starts a new game at once wherever one ended, so that every lane
advances at the same pace. Lanes ``0 .. Lb-1`` are one batched engine (``deckzoo.envs.vector``);
lanes ``Lb .. L-1`` are scalar engine states, for opponents that exist only as ``Agent``s on the
scalar engine (the heuristic, ``ismcts:N``, a saved ``ppo:PATH``).

A game without a batched engine (Midgard) plays in scalar lanes behind the batched interface
(``deckzoo.envs.core.scalar_lanes.ScalarLanesEnv``) as lanes ``0 .. Lb-1``: there every agent is
a "twin" (``ScalarAgents``: the scalar agent itself, one per lane and seat, deciding on
``state.for_player(seat)``), so those lanes seat the whole mix, and only the seats the trainer
decides with a network (learner and pool) have their observations encoded.

Seats. When a game starts, one seat (drawn uniformly) is the learner's; every other seat draws a
key of ``opponents.mix`` independently, as the SB3 trainer's opponents do:

* ``learner``: the learner itself (its decisions are trained on too: self-play);
* ``pool`` / ``latest``: a past snapshot of the learner, drawn uniformly / the newest one
  (``random`` while the pool is empty);
* ``exploiter``: a best response to the learner trained during the run (training/league.py),
  drawn uniformly from ``exploiter_ids``, frozen as a policy file is (a ``pool`` snapshot until
  the first exists);
* ``random``: a uniformly random legal action;
* a policy file (``ppo:PATH[:sample]``, ``zoo:GAME[:sample]``): that policy, *frozen*: a seat of
  kind POOL whose snapshot id is negative (``frozen_id``), decided by its own network in one pass
  over all its rows like the pool, in any lane (so it needs no scalar lanes), greedy or sampled
  as its spec says (the exploitability harness seats its target this way: training/exploit.py);
* any other agent spec (``heuristic``, ...): that agent: in a batched lane through its batched
  twin where it has one (``deckzoo.agents.batched``: the Wizard, Go Big, Big Number and
  BigWig heuristics), else on the scalar engine.

A batched lane seats only agents with a batched twin, so batched lanes draw from the mix without
the other agent specs (renormalised), and scalar lanes draw from the whole mix until at least one
seat is an agent without a twin. With ``scalar_lanes`` lanes of ``L`` equal to ``L`` times the
probability that a game draws such an agent (``default_scalar_lanes``), and games starting at the
same rate in every lane, the games' line-ups follow the mix as in the SB3 trainer.

``seat_kind`` (``(L, n)``: LEARNER, RANDOM, POOL or AGENT), ``seat_snapshot`` (the pool
snapshot's id, -1 for other seats) and ``seat_twin`` (the batched twin's index in ``twin_specs``,
-1 for other seats) say who plays each seat of the current games; the trainer decides the
LEARNER, RANDOM and POOL seats of all lanes together and ``step`` asks the agents for theirs.
``get_state``/``set_state`` save and restore everything here as arrays and JSON.
"""

from __future__ import annotations

import numpy as np

from deckzoo.agents.batched import batched_agent, batched_specs
from deckzoo.agents.registry import make_agent
from deckzoo.envs.core.adapter_options import RewardTracker
from deckzoo.envs.core.errors import ConfigError
from deckzoo.envs.core.scalar_lanes import ScalarLanesEnv

from .opponents import EXPLOITER, OpponentMix
from .opponents import LEARNER as LEARNER_KEY

LEARNER, RANDOM, POOL, AGENT = 0, 1, 2, 3
BATCHED_KEYS = (LEARNER_KEY, "pool", "latest", "random", EXPLOITER)
POLICY_PREFIXES = ("ppo", "zoo")  # agent specs that are a policy file: seated frozen


def frozen_specs(mix: OpponentMix | dict) -> list[str]:
    """The keys of ``mix`` that are policy files (``ppo:...``, ``zoo:...``) with weight."""
    mix = OpponentMix.of(mix)
    return [
        k for k in mix.keys if k.split(":", 1)[0] in POLICY_PREFIXES and mix.weights.get(k, 0) > 0
    ]


def frozen_id(index: int) -> int:
    """The snapshot id of the ``index``-th frozen policy (below -1, which means no snapshot)."""
    return -2 - index


def split_mix(mix: OpponentMix | dict, twins=()) -> tuple[OpponentMix, OpponentMix]:
    """``(batched part, scalar-only part)`` of an ``opponents.mix`` (weights as given): agent specs
    in ``twins`` (those with a batched twin) and frozen policies belong to the batched part."""
    return OpponentMix.of(mix).split((*BATCHED_KEYS, *twins, *frozen_specs(mix)))


def twin_specs(mix: OpponentMix | dict, game: str, scalar: bool = False) -> list[str]:
    """The agent specs of ``mix`` that batched lanes can seat in ``game``: those with a batched
    twin, or every one but the frozen policies when the lanes are scalar states (``scalar``: a
    ``ScalarLanesEnv``)."""
    mix = OpponentMix.of(mix)
    frozen = frozen_specs(mix)
    specs = (
        [k for k in mix.keys if k not in BATCHED_KEYS and k not in frozen]
        if scalar
        else batched_specs(game)
    )
    return [k for k in specs if mix.weights.get(k, 0) > 0]


class ScalarAgents:
    """The batched-twin call (``decide(engine, lanes, mask, rng)``) of an agent spec in the lanes
    of a ``ScalarLanesEnv``: the scalar agent itself, one for each lane and seat, made when that
    seat first decides in a game (seeded from ``rng``, the lanes' generator) and replaced when
    the lane starts another game, so no plan an agent keeps outlives its game."""

    def __init__(self, spec: str, game: str):
        self.spec, self.game = spec, game
        self.agents: dict[tuple[int, int], tuple[int, object]] = {}  # (lane, seat) -> (game, agent)

    def __call__(self, engine: ScalarLanesEnv, lanes, mask, rng) -> np.ndarray:
        out = np.empty(len(lanes), dtype=np.int64)
        for i, lane in enumerate(lanes.tolist()):
            state = engine.states[lane]
            seat = state.current_player
            out[i] = self._agent(lane, seat, int(engine.games[lane]), rng).act(
                state.for_player(seat)
            )
        return out

    def _agent(self, lane: int, seat: int, game: int, rng):
        made, agent = self.agents.get((lane, seat), (None, None))
        if made != game:
            agent = make_agent(self.spec, self.game, int(rng.integers(2**63)))
            self.agents[(lane, seat)] = (game, agent)
        return agent

    def get_state(self) -> list:
        return [[lane, seat, g, a.get_state()] for (lane, seat), (g, a) in self.agents.items()]

    def set_state(self, saved: list) -> None:
        self.agents = {}
        for lane, seat, g, state in saved:
            agent = make_agent(self.spec, self.game, 0)
            agent.set_state(state)
            self.agents[(int(lane), int(seat))] = (int(g), agent)


def default_scalar_lanes(mix: OpponentMix | dict, num_players: int, lanes: int, twins=()) -> int:
    """``lanes`` times the probability that a game's opponents draw at least one agent without a
    batched twin (at least one lane when any such agent has weight; every lane when only agents
    have weight)."""
    batched, agents = split_mix(mix, twins)
    if not len(agents):
        return 0
    if not len(batched):
        return lanes
    share = agents.total() / (agents.total() + batched.total())
    return max(1, round(lanes * (1.0 - (1.0 - share) ** (num_players - 1))))


class Lanes:
    """``num_lanes`` games: a batched env (its ``num_envs`` lanes first) plus ``scalar_lanes``
    scalar games of ``game``. ``obs``, ``mask``, ``player`` hold the position of every lane (the
    rows of scalar lanes where an agent is to act are not filled in). ``twins``: the agent specs
    that batched lanes seat through their batched twins (``twin_specs``; empty: none)."""

    def __init__(
        self,
        batched,
        game,
        scalar_lanes: int,
        mix: OpponentMix | dict,
        rng: np.random.Generator,
        reward: str = "win",
        twins=(),
    ):
        self.batched = batched
        self.game = game
        self.n = game.num_players
        self.reward = reward
        self.Lb = batched.num_envs if batched is not None else 0
        self.Ls = int(scalar_lanes)
        self.L = self.Lb + self.Ls
        self.obs_dim = int(np.prod(game.observation_shape))
        self.num_actions = game.num_actions
        self.rng = rng
        name = getattr(game, "name", None)  # (the game's class attribute)
        self.twin_specs = list(twins) if self.Lb else []
        self.frozen_specs = frozen_specs(mix)  # seated as POOL with snapshot frozen_id(index)
        self.scalar_env = isinstance(batched, ScalarLanesEnv)
        self._twins = [
            ScalarAgents(spec, name) if self.scalar_env else batched_agent(spec, name)
            for spec in self.twin_specs
        ]
        if None in self._twins:
            spec = self.twin_specs[self._twins.index(None)]
            raise ConfigError(f"opponents.mix: {spec!r} has no batched twin in {name}")
        batched_mix, agent_mix = split_mix(mix, self.twin_specs)
        if self.Ls and not len(agent_mix):
            raise ConfigError(
                "vector.scalar_lanes: scalar lanes need an agent without a batched twin in "
                "opponents.mix (e.g. ismcts:50; "
                + (
                    f"{', '.join(self.twin_specs)} play in batched lanes"
                    if self.twin_specs
                    else "or heuristic"
                )
                + ")"
            )
        if len(agent_mix) and not self.Ls:
            raise ConfigError(
                f"opponents.mix: {', '.join(agent_mix.keys)} play on the scalar engine; "
                "vector.scalar_lanes must be at least 1 (or null)"
            )
        if self.Lb and not len(batched_mix):
            raise ConfigError(
                "opponents.mix has only agents, which play on the scalar engine: "
                "set vector.scalar_lanes to n_envs (or null)"
            )
        for spec in (
            *agent_mix.keys,
            *(self.twin_specs if self.scalar_env else ()),
            *self.frozen_specs,
        ):
            make_agent(spec, name, 0)  # a bad spec fails here, naming itself
        self._batched_mix, self._all_mix = batched_mix, batched_mix + agent_mix
        self.pool_ids: list[int] = []  # the drawable snapshots, oldest first (set by the trainer)
        self.exploiter_ids: list[int] = []  # the drawable exploiters' snapshot ids (the same)
        self.seat_kind = np.zeros((self.L, self.n), dtype=np.int8)
        self.seat_snapshot = np.full((self.L, self.n), -1, dtype=np.int64)
        self.seat_twin = np.full((self.L, self.n), -1, dtype=np.int64)
        self.agent_spec: list[list[str | None]] = [[None] * self.n for _ in range(self.Ls)]
        self._agents: dict[tuple[int, int, str], object] = {}  # (scalar lane, seat, spec) -> Agent
        self.states: list = []
        self._trackers: list[RewardTracker] = []
        self.obs = np.zeros((self.L, self.obs_dim), dtype=np.float32)
        self.mask = np.zeros((self.L, self.num_actions), dtype=bool)
        self.player = np.zeros(self.L, dtype=np.int64)

    # ---- starting games -------------------------------------------------------------------
    def reset(self, seed: int) -> None:
        """New games in every lane (the batched env reseeded with ``seed``)."""
        if self.Lb:
            obs, mask, player = self.batched.reset(seed=seed)
            self.obs[: self.Lb], self.mask[: self.Lb], self.player[: self.Lb] = obs, mask, player
            self._draw_batched(np.arange(self.Lb))
            if self.scalar_env:
                for twin in self._twins:
                    twin.agents = {}
        self.states = [None] * self.Ls
        self._trackers = [None] * self.Ls
        for j in range(self.Ls):
            self._start_scalar(j)

    def stagger(self, moves: int) -> None:
        """Spread the lanes over the course of a game: lane ``i`` plays ``k_i`` uniformly random
        legal moves (``k_i`` uniform in ``[0, moves)``, for every seat, not trained on). Without
        this, games that all last equally long (Wizard: always 540 decisions at 4 players) stay in
        step, and each rollout would hold one phase of the game only."""
        if moves < 1:
            return
        left = self.rng.integers(moves, size=self.L)
        for _ in range(int(left.max(initial=0))):
            active = left > 0
            actions = np.where(self.mask, self.rng.random(self.mask.shape), -1.0).argmax(axis=1)
            self._step(actions, active)
            left -= 1

    def _key_seats(self, lanes: np.ndarray, keys: np.ndarray, names: list[str]) -> None:
        """Turn drawn mix keys (indices into ``names``, ``(k, n)``) into seat kinds, snapshots."""
        kind = np.full(keys.shape, AGENT, dtype=np.int8)
        snap = np.full(keys.shape, -1, dtype=np.int64)
        twin = np.full(keys.shape, -1, dtype=np.int64)
        batched = lanes[0] < self.Lb if len(lanes) else False  # (calls are all batched or scalar)
        for i, name in enumerate(names):
            hit = keys == i
            if batched and name in self.twin_specs:
                twin[hit] = self.twin_specs.index(name)
            elif name == LEARNER_KEY:
                kind[hit] = LEARNER
            elif name in self.frozen_specs:
                kind[hit] = POOL
                snap[hit] = frozen_id(self.frozen_specs.index(name))
            elif name == EXPLOITER and self.exploiter_ids:
                kind[hit] = POOL
                ids = np.asarray(self.exploiter_ids)
                snap[hit] = ids[self.rng.integers(len(ids), size=hit.sum())]
            elif name == "random" or (name in ("pool", "latest", EXPLOITER) and not self.pool_ids):
                kind[hit] = RANDOM
            elif name in ("pool", "latest", EXPLOITER):
                kind[hit] = POOL
                ids = np.asarray(self.pool_ids)
                snap[hit] = (
                    ids[-1]
                    if name == "latest"
                    else ids[self.rng.integers(len(ids), size=hit.sum())]
                )
        primary = self.rng.integers(self.n, size=len(lanes))
        kind[np.arange(len(lanes)), primary] = LEARNER
        snap[np.arange(len(lanes)), primary] = -1
        twin[np.arange(len(lanes)), primary] = -1
        self.seat_kind[lanes], self.seat_snapshot[lanes] = kind, snap
        self.seat_twin[lanes] = twin

    def _draw_batched(self, lanes: np.ndarray) -> None:
        keys = self._batched_mix.draw_indices(self.rng, (len(lanes), self.n))
        self._key_seats(lanes, keys, self._batched_mix.keys)
        if self.scalar_env:
            self._observe_network_seats(lanes)

    def _observe_network_seats(self, lanes: np.ndarray, encode: bool = True) -> None:
        """Scalar lanes encode the observations of the seats a network decides (learner, pool)
        only, and none where one action is legal (the trainer decides those without a network
        pass); with ``encode`` the new games' first positions are encoded again for their new
        seats."""
        env = self.batched
        if env.observe_seats is None:
            env.observe_seats = np.zeros((self.Lb, self.n), dtype=bool)
            env.observe_forced = False
        kind, twin = self.seat_kind[lanes], self.seat_twin[lanes]
        env.observe_seats[lanes] = ((kind == LEARNER) | (kind == POOL)) & (twin < 0)
        if encode:
            self.obs[lanes] = env.observe_lanes(lanes)

    def _start_scalar(self, j: int) -> None:
        """A new game in scalar lane ``j``: seats drawn until one is an agent without a batched
        twin, then dealt."""
        lane = self.Lb + j
        names = self._all_mix.keys
        while True:
            keys = self._all_mix.draw_indices(self.rng, (1, self.n))
            self._key_seats(np.array([lane]), keys, names)
            if any(
                self.seat_kind[lane, s] == AGENT and names[k] not in self.twin_specs
                for s, k in enumerate(keys[0])
            ):
                break
        self.agent_spec[j] = [
            names[k] if self.seat_kind[lane, s] == AGENT else None for s, k in enumerate(keys[0])
        ]
        state = self.game.new_state(int(self.rng.integers(2**63)))
        self.states[j] = state
        self._trackers[j] = RewardTracker(self.reward, state)
        self._observe_scalar(j)

    def _agent(self, j: int, seat: int):
        spec = self.agent_spec[j][seat]
        key = (j, seat, spec)
        if key not in self._agents:
            self._agents[key] = make_agent(
                spec, type(self.game).name, int(self.rng.integers(2**63))
            )
        return self._agents[key]

    def _observe_scalar(self, j: int) -> None:
        lane, state = self.Lb + j, self.states[j]
        p = state.current_player
        self.player[lane] = p
        if self.seat_kind[lane, p] != AGENT:
            self.obs[lane] = state.observe(p).reshape(-1)
            self.mask[lane] = state.legal_mask()

    # ---- one decision in every lane -------------------------------------------------------
    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Apply ``actions`` (``(L,)``; ignored where an agent is to act: it decides itself).
        Returns ``(rewards, ended)``: ``(L, n)`` float32 rewards of every seat for this step, in
        the run's reward mode, and which lanes' games ended (their new games have started)."""
        return self._step(actions, None)

    def _step(
        self, actions: np.ndarray, active: np.ndarray | None
    ) -> tuple[np.ndarray, np.ndarray]:
        rewards = np.zeros((self.L, self.n), dtype=np.float32)
        ended = np.zeros(self.L, dtype=bool)
        if self.Lb:
            act = actions[: self.Lb]
            if self._twins:
                act = self._twin_actions(act, active)
            res = self.batched.step(act, active=None if active is None else active[: self.Lb])
            self.obs[: self.Lb], self.mask[: self.Lb], self.player[: self.Lb] = (
                res.obs,
                res.mask,
                res.player,
            )
            rewards[: self.Lb], ended[: self.Lb] = res.rewards, res.terminated
            done = np.flatnonzero(res.terminated)
            if len(done):
                self._draw_batched(done)
        for j, state in enumerate(self.states):
            lane, p = self.Lb + j, state.current_player
            if active is not None and not active[lane]:
                continue
            if self.seat_kind[lane, p] == AGENT:
                action = self._agent(j, p).act(state.for_player(p))
            else:
                action = int(actions[lane])
            state.apply(action)
            rewards[lane] = self._trackers[j].step_rewards(state)
            if state.is_terminal():
                ended[lane] = True
                self._start_scalar(j)
            else:
                self._observe_scalar(j)
        return rewards, ended

    def _twin_actions(self, actions: np.ndarray, active: np.ndarray | None) -> np.ndarray:
        """``actions`` of the batched lanes with the batched twins' moves filled in."""
        Lb = self.Lb
        twin = self.seat_twin[np.arange(Lb), self.player[:Lb]]
        if active is not None:
            twin = np.where(active[:Lb], twin, -1)
        if (twin < 0).all():
            return actions
        actions = np.array(actions, dtype=np.int64)
        engine = self.batched.engine
        for i, decide in enumerate(self._twins):
            rows = np.flatnonzero(twin == i)
            if len(rows):
                actions[rows] = decide(engine, rows, self.mask[rows], self.rng)
        return actions

    # ---- saving and restoring -------------------------------------------------------------
    def get_state(self) -> tuple[dict[str, np.ndarray], dict]:
        arrays = {
            "seat_kind": self.seat_kind.copy(),
            "seat_snapshot": self.seat_snapshot.copy(),
            "seat_twin": self.seat_twin.copy(),
            "obs": self.obs.copy(),
            "mask": self.mask.copy(),
            "player": self.player.copy(),
        }
        meta = {
            "rng": self.rng.bit_generator.state,
            "pool_ids": list(self.pool_ids),
            "exploiter_ids": list(self.exploiter_ids),
            "agent_spec": self.agent_spec,
            "states": [s.to_dict() for s in self.states],
            "last_scores": [
                None if t.last_scores is None else t.last_scores.tolist() for t in self._trackers
            ],
            "agents": [
                [j, seat, spec, a.rng.bit_generator.state]
                for (j, seat, spec), a in self._agents.items()
            ],
        }
        if self.scalar_env:
            meta["twin_agents"] = [t.get_state() for t in self._twins]
        if self.Lb:
            b_arrays, b_meta = self.batched.get_state()
            arrays.update({f"batched.{k}": v for k, v in b_arrays.items()})
            meta["batched"] = b_meta
        return arrays, meta

    def set_state(self, arrays: dict[str, np.ndarray], meta: dict) -> None:
        if self.Lb:
            self.batched.set_state(
                {k[len("batched.") :]: v for k, v in arrays.items() if k.startswith("batched.")},
                meta["batched"],
            )
        for key in ("seat_kind", "seat_snapshot", "obs", "mask", "player"):
            getattr(self, key)[...] = arrays[key]
        self.seat_twin[...] = arrays.get("seat_twin", -1)  # (saved before batched twins: none)
        if self.scalar_env:
            for twin, saved in zip(self._twins, meta["twin_agents"]):
                twin.set_state(saved)
            self._observe_network_seats(np.arange(self.Lb), encode=False)
        self.rng.bit_generator.state = meta["rng"]
        self.pool_ids = [int(i) for i in meta["pool_ids"]]
        self.exploiter_ids = [int(i) for i in meta.get("exploiter_ids", [])]  # (saved before: none)
        self.agent_spec = [list(x) for x in meta["agent_spec"]]
        state_cls = type(self.game.new_state(0))
        self.states = [state_cls.from_dict(d, self.game) for d in meta["states"]]
        self._trackers = []
        for state, last in zip(self.states, meta["last_scores"]):
            t = RewardTracker(self.reward, state)
            t.last_scores = None if last is None else np.asarray(last, dtype=np.float64)
            self._trackers.append(t)
        self._agents = {}
        for j, seat, spec, rng_state in meta["agents"]:
            agent = make_agent(spec, type(self.game).name, 0)
            agent.rng.bit_generator.state = rng_state
            self._agents[(int(j), int(seat), spec)] = agent
