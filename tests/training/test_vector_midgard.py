"""The vector trainer on a game without a batched engine (Midgard, on scalar lanes), and its cheap
path for forced decisions (one legal action: no network pass, no transition, the reward still
credited to the seat's previous transition)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import deckzoo.envs as E
from deckzoo.envs.core.batched import Step
from deckzoo.envs.core.scalar_lanes import ScalarLanesEnv
from deckzoo.training.config import config_from_dict, load_config
from deckzoo.training.train import train
from deckzoo.training.vector_lanes import LEARNER, POOL, Lanes
from deckzoo.training.vector_ppo import CHECKPOINT, VectorTrainer

MIX = {"learner": 0.5, "heuristic": 0.2, "pool": 0.2, "random": 0.1}


def tiny(run_dir, steps=300, **over):
    """A few hundred steps of 3-player Midgard with its short options on 8 lanes."""
    data = {
        "trainer": "vector",
        "game": "midgard",
        "num_players": 3,
        "game_options": E.registry.short_options("midgard"),
        "reward": "dense",
        "run_dir": str(run_dir),
        "total_timesteps": steps,
        "n_envs": 8,
        "progress_bar": False,
        "checkpoint_every": 100,
        "seed": 3,
        "ppo": {"n_steps": 16, "batch_size": 32, "n_epochs": 2, "net_arch": [16]},
        "opponents": {"mix": MIX, "snapshot_every": 60, "pool_size": 2},
        "eval": {
            "every": 150,
            "games": 2,
            "final_games": 2,
            "opponents": ["random"],
            "deterministic": False,
        },
        "vector": {"stagger": 20},
    }
    for k, v in over.items():
        data[k] = {**data[k], **v} if isinstance(v, dict) else v
    return config_from_dict(data)


def test_the_shipped_config_trains_midgard_on_scalar_lanes():
    cfg = load_config("configs/midgard-vector.yaml")
    assert cfg.trainer == "vector" and cfg.game == "midgard" and cfg.ppo.net_arch == [256, 256]


def test_midgard_trains_on_scalar_lanes_and_writes_its_run(tmp_path):
    summary = train(tiny(tmp_path / "run"))
    assert summary["trainer"] == "vector" and summary["steps"] >= 300
    assert summary["scalar_lanes"] == 0  # every lane is a ScalarLanesEnv lane, agents included
    assert 0 < summary["forced_decisions"] < summary["steps"]
    for f in ("config.yaml", CHECKPOINT, "eval.csv", "summary.json", "policy.npz"):
        assert (tmp_path / "run" / f).exists(), f


def _recorded_collect(trainer) -> list[dict]:
    """One ``collect``, with what every step saw before it and what it returned."""
    lanes, steps = trainer.lanes, []
    step = lanes.step

    def recording(actions):
        ids = np.arange(lanes.L)
        seen = {
            "kind": lanes.seat_kind[ids, lanes.player].copy(),
            "seat": lanes.player.copy(),
            "mask": lanes.mask.copy(),
            "actions": np.array(actions),
        }
        seen["rewards"], seen["ended"] = step(actions)
        steps.append(seen)
        return seen["rewards"], seen["ended"]

    lanes.step = recording
    trainer.collect()
    lanes.step = step
    return steps


def test_forced_decisions_store_no_transition_and_their_rewards_reach_the_previous_one(tmp_path):
    """A reference credits every step's rewards to each seat's latest non-forced learner decision;
    the buffer must hold exactly those transitions with exactly those rewards, and every forced
    learner or pool decision must have played its one legal action."""
    trainer = VectorTrainer(tiny(tmp_path / "r", ppo={"n_steps": 120}))
    trainer.setup()
    assert isinstance(trainer.lanes.batched, ScalarLanesEnv)
    trainer.snapshot(0)  # a pool to draw from, then games seated with it
    trainer.lanes.reset(seed=1)
    steps = _recorded_collect(trainer)
    L, n = trainer.lanes.L, trainer.lanes.n
    pending = np.full((L, n), -1)
    reward, done, count = [], [], 0
    forced_learner = forced_pool = 0
    for s in steps:
        single = s["mask"].sum(axis=1) == 1
        net = (s["kind"] == LEARNER) | (s["kind"] == POOL)
        forced = net & single
        np.testing.assert_array_equal(s["actions"][forced], s["mask"][forced].argmax(axis=1))
        forced_learner += int((forced & (s["kind"] == LEARNER)).sum())
        forced_pool += int((forced & (s["kind"] == POOL)).sum())
        for lane in np.flatnonzero((s["kind"] == LEARNER) & ~single):
            pending[lane, s["seat"][lane]] = count
            reward.append(np.float32(0.0))
            done.append(False)
            count += 1
        for lane, seat in zip(*np.nonzero(pending >= 0)):
            reward[pending[lane, seat]] += s["rewards"][lane, seat]
        for lane in np.flatnonzero(s["ended"]):
            for seat in range(n):
                if pending[lane, seat] >= 0:
                    done[pending[lane, seat]] = True
            pending[lane] = -1
    buf = trainer.buffer
    assert forced_learner and forced_pool and buf.size == count
    assert (buf.mask[: buf.size].sum(axis=1) > 1).all()  # no transition has one legal action
    np.testing.assert_array_equal(buf.reward[: buf.size], np.array(reward, dtype=np.float32))
    np.testing.assert_array_equal(buf.done[: buf.size], done)
    np.testing.assert_array_equal(trainer.pending, pending)
    assert trainer.rs.forced == forced_learner
    assert trainer.rs.step == sum(int((s["kind"] == LEARNER).sum()) for s in steps)


class TwoSeatForced:
    """B lanes of a hand-made 2-seat game: seats 0, 1, 0, 1, 0 decide (moves 0-4) and the game
    ends. Move 2 is forced (action 0 only; else 0, 1 and 2) and pays its own seat, 0, +5; move 4
    pays seat 0 +1 and seat 1 +2. The observation is (lane, move, games started in the lane)."""

    num_players, num_actions, obs_dim = 2, 3, 3
    observation_shape = (3,)

    def __init__(self, num_envs: int):
        self.num_envs = num_envs
        self.t = np.zeros(num_envs, dtype=np.int64)
        self.games = np.ones(num_envs, dtype=np.int64)

    def _out(self):
        obs = np.stack([np.arange(self.num_envs), self.t, self.games], axis=1).astype(np.float32)
        mask = np.ones((self.num_envs, 3), dtype=bool)
        mask[self.t == 2, 1:] = False
        return obs, mask, self.t % 2

    def reset(self, seed=None):
        self.t[:], self.games[:] = 0, 1
        return self._out()

    def step(self, actions, active=None):
        assert (actions[self.t == 2] == 0).all()
        pays = {2: (5.0, 0.0), 4: (1.0, 2.0)}
        rewards = np.array([pays.get(int(t), (0.0, 0.0)) for t in self.t], dtype=np.float32)
        self.t += 1
        ended = self.t == 5
        self.t[ended] = 0
        self.games[ended] += 1
        return Step(*self._out(), rewards, ended, {})


class ForcedTrainer(VectorTrainer):
    def make_lanes(self, rng):
        return Lanes(TwoSeatForced(self.cfg.n_envs), TwoSeatForced, 0, self.mix, rng)


def test_a_forced_moves_own_reward_goes_to_the_seats_previous_transition(tmp_path):
    cfg = tiny(
        tmp_path / "r",
        n_envs=2,
        ppo={"n_steps": 10},  # two whole games a lane
        opponents={"mix": {"learner": 1.0}},
        vector={"stagger": 0},
    )
    trainer = ForcedTrainer(cfg)
    trainer.setup()
    trainer.collect()
    buf = trainer.buffer
    got = {}
    for i in range(buf.size):
        lane, move, game = (int(x) for x in buf.obs[i])
        nxt = int(buf.next[i])
        got[(lane, move, game)] = (
            float(buf.reward[i]),
            bool(buf.done[i]),
            None if nxt < 0 else int(buf.obs[nxt, 1]),
        )
    expect = {0: (5.0, False, 4), 1: (0.0, False, 3), 3: (2.0, True, None), 4: (1.0, True, None)}
    assert got == {(lane, m, g): expect[m] for lane in (0, 1) for m in expect for g in (1, 2)}
    assert trainer.rs.forced == 4 and trainer.rs.step == 20


def test_same_seed_same_run(tmp_path):
    """Two trainers with one seed: the same lanes, transitions and network after an iteration."""
    out = []
    for name in ("a", "b"):
        trainer = VectorTrainer(tiny(tmp_path / name))
        trainer.setup()
        trainer.iterate()
        arrays, meta = trainer.lanes.get_state()
        out.append((trainer, arrays, meta))
    (ta, la, ma), (tb, lb, mb) = out
    assert ma == mb and all(np.array_equal(la[k], lb[k]) for k in la)
    sa, sb = ta.net.state_dict(), tb.net.state_dict()
    assert all(torch.equal(sa[k], sb[k]) for k in sa)
    assert ta.rs.step == tb.rs.step and ta.rs.forced == tb.rs.forced


@pytest.mark.parametrize("seats", ["heuristic", "random"])
def test_agents_sit_in_scalar_lanes_and_only_network_seats_are_observed(seats, tmp_path):
    mix = {"learner": 0.5, seats: 0.5}
    trainer = VectorTrainer(tiny(tmp_path / "r", opponents={"mix": mix}))
    trainer.setup()
    lanes = trainer.lanes
    assert lanes.Ls == 0 and lanes.Lb == 8
    assert (lanes.seat_twin >= 0).any() == (seats == "heuristic")
    trainer.collect()
    env = lanes.batched
    ids = np.arange(lanes.L)
    wanted = env.observe_seats[ids, lanes.player] & (lanes.mask.sum(axis=1) > 1)
    kind = lanes.seat_kind[ids, lanes.player]
    np.testing.assert_array_equal(
        wanted,
        ((kind == LEARNER) | (kind == POOL))
        & (lanes.seat_twin[ids, lanes.player] < 0)
        & (lanes.mask.sum(axis=1) > 1),
    )
    for lane in range(lanes.L):
        state = env.states[lane]
        expect = state.observe(state.current_player) if wanted[lane] else 0.0
        np.testing.assert_array_equal(lanes.obs[lane], expect)


def test_resumed_run_ends_where_an_uninterrupted_one_does(tmp_path, monkeypatch):
    """Killed after step 300 and resumed: the network, the lanes' games, seats and the heuristic
    seats' agents (generators and the plans they keep, seat -> plan) continue exactly."""
    straight = VectorTrainer(tiny(tmp_path / "a", steps=600))
    straight.run()
    collect = VectorTrainer.collect

    def killed(self):
        if self.rs.step >= 300:
            raise KeyboardInterrupt
        return collect(self)

    monkeypatch.setattr(VectorTrainer, "collect", killed)
    with pytest.raises(KeyboardInterrupt):
        train(tiny(tmp_path / "b", steps=600))
    monkeypatch.setattr(VectorTrainer, "collect", collect)
    resumed = VectorTrainer(tiny(tmp_path / "b", steps=600), resume=True)
    resumed.run()
    assert straight.rs.step == resumed.rs.step and straight.rs.forced == resumed.rs.forced
    pa, pb = straight.net.state_dict(), resumed.net.state_dict()
    assert all(torch.equal(pa[k], pb[k]) for k in pa)
    la, ma = straight.lanes.get_state()
    lb, mb = resumed.lanes.get_state()
    assert ma == mb and all(np.array_equal(la[k], lb[k]) for k in la)
    agents = [a for twin in ma["twin_agents"] for a in twin]
    assert agents and all("_plans" in a[3] for a in agents)
