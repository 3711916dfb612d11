"""The vector trainer (training/vector_ppo.py): a tiny-budget run of every batched game, credit
assignment on a hand-made 3-seat game, GAE, the masked softmax against the dense -inf one,
sampling never choosing an illegal action, exact resume, and checkpoints that cannot run code."""

from __future__ import annotations

import io
import json
import pickle
import zipfile
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest
import torch

import deckzoo.envs as E
from deckzoo.agents.policy import load_policy
from deckzoo.envs import vector
from deckzoo.envs.core.batched import Step
from deckzoo.envs.core.errors import ConfigError
from deckzoo.training.config import config_from_dict
from deckzoo.training.train import train
from deckzoo.training.vector_lanes import AGENT, LEARNER, Lanes, default_scalar_lanes
from deckzoo.training.vector_ppo import (
    CHECKPOINT,
    ActorCritic,
    Legal,
    Rollout,
    VectorTrainer,
    act,
    chosen,
    entropy,
    log_softmax,
    pair_log_probs,
    read_checkpoint,
)

MIX = {"learner": 0.6, "pool": 0.2, "random": 0.1, "heuristic": 0.1}


def tiny(run_dir, game="gobig", steps=400, **over):
    data = {
        "trainer": "vector",
        "game": game,
        "run_dir": str(run_dir),
        "total_timesteps": steps,
        "n_envs": 8,
        "progress_bar": False,
        "checkpoint_every": 100,
        "seed": 5,
        "game_options": E.registry.short_options(E.canonical(game)),
        "ppo": {"n_steps": 8, "batch_size": 16, "n_epochs": 2, "net_arch": [16]},
        "opponents": {"mix": MIX, "snapshot_every": 60, "pool_size": 2},
        "eval": {"every": 150, "games": 2, "final_games": 0, "opponents": ["random"]},
        # (every agent on the scalar engine: these runs test the scalar lanes; test_vector_lanes.py
        # and the resume test below seat the Wizard heuristic's batched twin)
        "vector": {"scalar_lanes": 2, "stagger": 20, "batched_agents": False},
    }
    for k, v in over.items():
        data[k] = (
            {**data.get(k, {}), **v} if isinstance(v, dict) and isinstance(data.get(k), dict) else v
        )
    return config_from_dict(data)


# ---- runs ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", vector.available())
def test_smoke_run_every_batched_game(name, tmp_path):
    from deckzoo.agents.registry import has_heuristic

    game = E.game_class(name).name
    # a game that ships no heuristic (docs/adding-a-game) seats a small search on the scalar lanes
    mix = MIX if has_heuristic(game) else {**MIX, "heuristic": 0.0, "ismcts:2": 0.1}
    mix = {k: v for k, v in mix.items() if v}
    cfg = tiny(tmp_path / game, game, eval={"final_games": 2}, opponents={"mix": mix})
    summary = train(cfg)
    run = tmp_path / game
    assert (
        summary["trainer"] == "vector" and summary["steps"] >= 400 and summary["scalar_lanes"] == 2
    )
    for f in (
        "config.yaml",
        CHECKPOINT,
        "eval.csv",
        "policy.npz",
        "summary.json",
        "learning_curve.png",
    ):
        assert (run / f).exists(), f
    assert any((run / "tb").rglob("events.out.tfevents*"))
    assert json.loads((run / "summary.json").read_text())["steps"] == summary["steps"]
    assert [r["opponent"] for r in summary["final_eval"]] == ["random"]
    header = (run / "eval.csv").read_text().splitlines()[0]
    assert header.startswith("step,kind,cpu_seconds,opponent")


def test_every_sampled_action_is_legal(tmp_path):
    trainer = VectorTrainer(tiny(tmp_path / "r", steps=1))
    trainer.setup()
    trainer.collect()
    buf = trainer.buffer
    assert buf.size > 0 and buf.mask[np.arange(buf.size), buf.action[: buf.size]].all()


def test_default_scalar_lanes_follow_the_mix():
    assert default_scalar_lanes({"learner": 1.0}, 4, 100) == 0
    assert default_scalar_lanes({"heuristic": 1.0}, 4, 100) == 100
    # a game draws a heuristic seat with probability 1 - 0.9^3
    assert default_scalar_lanes({"learner": 0.9, "heuristic": 0.1}, 4, 1000) == 271
    assert default_scalar_lanes({"learner": 0.999, "heuristic": 0.001}, 4, 10) == 1


def test_seats_follow_the_lane_kind(tmp_path):
    trainer = VectorTrainer(tiny(tmp_path / "r"))
    trainer.setup()
    lanes = trainer.lanes
    for _ in range(30):
        trainer.collect()
        trainer.buffer.carry(trainer.pending)  # (no update: only the seats matter here)
        trainer.pending[...] = -1
        trainer.buffer.size = 0
        kinds = lanes.seat_kind
        assert (kinds == LEARNER).any(axis=1).all()  # every game has a learner seat
        assert not (kinds[: lanes.Lb] == AGENT).any()  # batched lanes cannot seat an agent
        assert (kinds[lanes.Lb :] == AGENT).any(axis=1).all()  # scalar lanes always do


def test_config_checks():
    # a game without a batched engine trains on scalar lanes (tests/training/test_vector_midgard.py)
    assert config_from_dict({"trainer": "vector", "game": "midgard"}).trainer == "vector"
    with pytest.raises(ConfigError, match="pretrain.imitate"):
        config_from_dict(
            {"trainer": "vector", "game": "wizard", "pretrain": {"imitate": "heuristic"}}
        )
    with pytest.raises(ConfigError, match="opponents.mix.learner"):
        config_from_dict({"game": "wizard", "opponents": {"mix": {"learner": 1.0}}})
    with pytest.raises(ConfigError, match="vector.scalar_lanes"):
        config_from_dict(
            {"trainer": "vector", "game": "wizard", "n_envs": 4, "vector": {"scalar_lanes": 5}}
        )
    for removed in ("precision", "norm_obs", "target_kl"):  # options no shipped config used
        with pytest.raises(ConfigError, match=f"unknown config key 'vector.{removed}'"):
            config_from_dict({"trainer": "vector", "game": "wizard", "vector": {removed: None}})
    with pytest.raises(ConfigError, match="'vector.features'.*feature set of gobig \\(none\\)"):
        config_from_dict({"trainer": "vector", "game": "gobig", "vector": {"features": "wizard"}})
    with pytest.raises(ConfigError, match="'vector.features'.*\\(wizard\\), got 'wizrd'"):
        config_from_dict({"trainer": "vector", "game": "wizard", "vector": {"features": "wizrd"}})
    with pytest.raises(ConfigError, match="'trainer'"):
        config_from_dict({"trainer": "cleanrl"})


# ---- credit assignment on a hand-made game ------------------------------------------------------
class ThreeSeat:
    """B lanes of a hand-made 3-seat game. Seats 0, 1, 2, 0, 1, 2 decide in turn (actions 0 or 1,
    both always legal) and the game ends. Rewards: seat 1's first move pays seat 0 +1; seat 2's
    first move pays seat 2 +2 and seat 1 -1; seat 2's second move ends the game and pays 10, 20
    and 30. The observation is (lane, seat to act, move number, games started in the lane)."""

    num_players, num_actions, obs_dim = 3, 2, 4
    observation_shape = (4,)
    PAYS: ClassVar[dict] = {
        1: (1.0, 0.0, 0.0),
        2: (0.0, -1.0, 2.0),
        5: (10.0, 20.0, 30.0),
    }  # move -> rewards

    def __init__(self, num_envs: int):
        self.num_envs = num_envs
        self.t = np.zeros(num_envs, dtype=np.int64)
        self.games = np.zeros(num_envs, dtype=np.int64)

    def _out(self):
        obs = np.stack([np.arange(self.num_envs), self.t % 3, self.t, self.games], axis=1).astype(
            np.float32
        )
        return obs, np.ones((self.num_envs, 2), dtype=bool), self.t % 3

    def reset(self, seed=None):
        self.t[:], self.games[:] = 0, 1
        return self._out()

    def step(self, actions, active=None):
        assert active is None  # (stagger is off)
        rewards = np.array(
            [self.PAYS.get(int(t), (0.0, 0.0, 0.0)) for t in self.t], dtype=np.float32
        )
        self.t += 1
        ended = self.t == 6
        self.t[ended] = 0
        self.games[ended] += 1
        obs, mask, player = self._out()
        return Step(obs, mask, player, rewards, ended, {})


class ThreeSeatTrainer(VectorTrainer):
    def make_lanes(self, rng):
        return Lanes(ThreeSeat(self.cfg.n_envs), ThreeSeat, 0, self.mix, rng)


# (seat, move) -> (reward, done); a seat's move t is followed by its move t + 3 in the same game
EXPECTED = {
    0: (1.0, False),
    1: (-1.0, False),
    2: (2.0, False),
    3: (10.0, True),
    4: (20.0, True),
    5: (30.0, True),
}


def _transitions(trainer, rounds: int) -> list[dict]:
    """Collect ``rounds`` rollouts; every transition that completed, with its successor's key."""
    out = []
    for _ in range(rounds):
        trainer.collect()
        buf = trainer.buffer
        ok = buf.complete()
        key = [
            tuple(int(x) for x in buf.obs[i, [0, 2, 3]]) for i in range(buf.size)
        ]  # lane, move, game
        for i in np.flatnonzero(ok):
            nxt = int(buf.next[i])
            out.append(
                {
                    "key": key[i],
                    "reward": float(buf.reward[i]),
                    "done": bool(buf.done[i]),
                    "next": key[nxt] if nxt >= 0 else None,
                }
            )
        trainer.pending = buf.carry(trainer.pending)
    return out


@pytest.mark.parametrize(
    "mix", [{"learner": 1.0}, {"random": 1.0}], ids=["all-learner", "one-learner"]
)
def test_credit_goes_to_the_seat_whatever_moves_produce_it(mix, tmp_path):
    """n_steps 4 with 6-move games: trajectories cross rollout ends (open transitions are
    carried) and games end mid-rollout."""
    cfg = tiny(
        tmp_path / "r",
        n_envs=3,
        ppo={"n_steps": 4},
        opponents={"mix": mix},
        vector={"scalar_lanes": 0, "stagger": 0},
    )
    trainer = ThreeSeatTrainer(cfg)
    trainer.setup()
    got = _transitions(trainer, rounds=6)  # 24 moves a lane: 4 whole games
    assert got
    for t in got:
        lane, move, game = t["key"]
        assert (t["reward"], t["done"]) == EXPECTED[move], t
        assert t["next"] == (None if move >= 3 else (lane, move + 3, game)), t
    seen = {t["key"] for t in got}
    if mix == {"learner": 1.0}:  # every move of the first three games of every lane, once each
        assert {(lane, m, g) for lane in range(3) for m in range(6) for g in (1, 2, 3)} <= seen
        assert len(got) == len(seen)
    else:  # one learner seat a game: two transitions per game
        by_game = {}
        for lane, move, game in seen:
            by_game.setdefault((lane, game), set()).add(move % 3)
        assert all(len(s) == 1 for s in by_game.values())


def test_gae_along_each_trajectory():
    """Two interleaved trajectories (a: 3 moves then done; b: 2 moves, the second still open)."""
    gamma, lam = 0.9, 0.8
    buf = Rollout(16, 1, 2)
    rows = {}
    steps = [
        [("a0", 0.5, 1.0), ("b0", 0.2, 0.0)],
        [("a1", 0.1, -2.0), ("b1", -0.3, 4.0)],
        [("a2", 0.7, 3.0)],
    ]
    for step in steps:  # (name, value, reward)
        k = len(step)
        idx = buf.add(
            np.zeros((k, 1)),
            np.ones((k, 2), bool),
            np.zeros(k, int),
            np.zeros(k),
            np.array([v for _, v, _ in step]),
        )
        for i, (name, _, r) in zip(idx, step):
            rows[name] = i
            buf.reward[i] = r
    buf.next[rows["a0"]], buf.next[rows["a1"]], buf.next[rows["b0"]] = (
        rows["a1"],
        rows["a2"],
        rows["b1"],
    )
    buf.done[rows["a2"]] = True
    adv = buf.advantages(gamma, lam)
    d_a2 = 3.0 - 0.7
    d_a1 = -2.0 + gamma * 0.7 - 0.1
    d_a0 = 1.0 + gamma * 0.1 - 0.5
    assert adv[rows["a2"]] == pytest.approx(d_a2)
    assert adv[rows["a1"]] == pytest.approx(d_a1 + gamma * lam * d_a2)
    assert adv[rows["a0"]] == pytest.approx(d_a0 + gamma * lam * (d_a1 + gamma * lam * d_a2))
    # b1 is open: b0 bootstraps from b1's value, and its advantage stops there
    assert adv[rows["b0"]] == pytest.approx(0.0 + gamma * -0.3 - 0.2)
    assert adv[rows["b1"]] == 0.0
    assert [bool(buf.complete()[rows[k]]) for k in ("a0", "b0", "a1", "b1", "a2")] == [True] * 3 + [
        False,
        True,
    ]
    # the open transition starts the next rollout, with its reward so far
    pending = np.array([[rows["b1"], -1]])
    assert buf.carry(pending).tolist() == [[0, -1]] and buf.size == 1
    assert (buf.value[0], buf.reward[0], buf.next[0]) == (np.float32(-0.3), np.float32(4.0), -1)


# ---- the masked softmax -------------------------------------------------------------------------
def _dense(logits, mask):
    return torch.log_softmax(logits.masked_fill(~mask, -torch.inf), dim=-1)


def test_legal_pairs_equal_the_dense_softmax_with_illegal_logits_at_minus_infinity():
    g = torch.Generator().manual_seed(0)
    logits = torch.randn(64, 30, generator=g, dtype=torch.float64) * 3
    mask = torch.rand(64, 30, generator=g) < 0.2
    mask[torch.arange(64), torch.randint(0, 30, (64,), generator=g)] = True
    mask[0] = False
    mask[0, 7] = True  # a forced move
    actions = torch.multinomial(mask.double(), 1, generator=g).squeeze(1)

    dense_in = logits.clone().requires_grad_(True)
    logp_d = _dense(dense_in, mask)
    ent_d = -(logp_d.exp() * logp_d.masked_fill(~mask, 0.0)).sum(-1)
    (logp_d.gather(1, actions[:, None]).sum() + ent_d.sum()).backward()

    pair_in = logits.clone().requires_grad_(True)
    legal = Legal.of(mask)
    logp_p = log_softmax(pair_in[legal.rows, legal.actions], legal)
    ent_p = entropy(logp_p, legal)
    (chosen(logp_p, legal, actions).sum() + ent_p.sum()).backward()

    torch.testing.assert_close(logp_p, logp_d[mask])
    torch.testing.assert_close(ent_p, ent_d)
    assert ent_p[0] == 0.0
    torch.testing.assert_close(pair_in.grad, dense_in.grad)
    assert (dense_in.grad[~mask] == 0).all()


@pytest.mark.parametrize("num_actions", [23, 300])
def test_dense_and_pair_heads_give_the_same_log_probabilities_and_gradients(num_actions):
    """The actor's masked softmax computed densely (every logit, illegal ones at -inf) and from
    the legal pairs' logits only: same values, same gradients for every parameter."""
    torch.manual_seed(0)
    net = ActorCritic(12, num_actions, [16, 16], "tanh").double()
    g = torch.Generator().manual_seed(1)
    obs = torch.randn(40, 12, generator=g, dtype=torch.float64)
    mask = torch.rand(40, num_actions, generator=g) < 0.1
    mask[torch.arange(40), torch.randint(0, num_actions, (40,), generator=g)] = True
    mask[0] = False
    mask[0, 3] = True  # a forced move
    legal = Legal.of(mask)
    actions = torch.multinomial(mask.double(), 1, generator=g).squeeze(1)
    results = []
    for dense in (True, False):
        net.zero_grad()
        logp = pair_log_probs(net.actor, obs, legal, mask, dense=dense)
        (chosen(logp, legal, actions).sum() + entropy(logp, legal).sum()).backward()
        results.append((logp.detach(), [q.grad.clone() for q in net.actor.parameters()]))
    (dense_logp, dense_grads), (pair_logp, pair_grads) = results
    torch.testing.assert_close(dense_logp, pair_logp)
    assert dense_logp[0] == 0.0
    for a, b in zip(dense_grads, pair_grads):
        torch.testing.assert_close(a, b)


def test_sampling_never_picks_an_illegal_action_and_follows_the_probabilities():
    torch.manual_seed(0)
    actor = ActorCritic(5, 4, [8], "tanh").actor
    with torch.no_grad():
        actor[-1].bias[:] = torch.tensor(
            [50.0, 0.0, np.log(2.0), 50.0]
        )  # illegal 0 and 3 would win
        actor[-1].weight.zero_()
    n = 20_000
    mask = np.zeros((n, 4), dtype=bool)
    mask[:, 1:3] = True
    mask[: n // 10, 1:3] = False
    mask[: n // 10, 2] = True  # a tenth of the rows have one legal action
    gen = torch.Generator().manual_seed(1)
    with torch.no_grad():
        a, logp, _ = act(
            actor, np.random.default_rng(0).random((n, 5), dtype=np.float32), mask, gen, "cpu"
        )
    a = a.numpy()
    assert mask[np.arange(n), a].all()
    free = a[n // 10 :]
    assert abs((free == 2).mean() - 2 / 3) < 0.02  # logits 0 and log 2: probabilities 1/3, 2/3
    np.testing.assert_allclose(logp.numpy()[: n // 10], 0.0, atol=1e-6)
    np.testing.assert_allclose(np.exp(logp.numpy()[n // 10 :][free == 2]), 2 / 3, rtol=1e-5)


# ---- resume and checkpoints ---------------------------------------------------------------------
def _state(trainer):
    return (
        {k: v.clone() for k, v in trainer.net.state_dict().items()},
        trainer.optimizer.state_dict(),
    )


@pytest.mark.parametrize("game", ["gobig", "wizard"])
def test_resumed_run_ends_bit_for_bit_where_an_uninterrupted_one_does(game, tmp_path, monkeypatch):
    """A run killed after step 300 and resumed from its last checkpoint. Scalar lanes with
    heuristic seats (Wizard: the heuristic's batched twin in the batched lanes instead), a pool
    of 2 (a dropped snapshot stays seated across the interruption), evaluation and learning-rate
    annealing: everything must continue exactly (Wizard: with its input features)."""
    over = {"game": game, "vector": {"scalar_lanes": 2, "stagger": 20}}
    if game == "wizard":
        over["vector"].update(scalar_lanes=None, batched_agents=True, features="wizard")
    straight = VectorTrainer(tiny(tmp_path / "a", steps=600, **over))
    straight.run()

    collect = VectorTrainer.collect

    def killed(self):
        if self.rs.step >= 300:
            raise KeyboardInterrupt
        return collect(self)

    monkeypatch.setattr(VectorTrainer, "collect", killed)
    with pytest.raises(KeyboardInterrupt):
        train(tiny(tmp_path / "b", steps=600, **over))
    monkeypatch.setattr(VectorTrainer, "collect", collect)
    assert 0 < read_checkpoint(tmp_path / "b" / CHECKPOINT)[0]["run_state"]["step"] < 600
    resumed = VectorTrainer(tiny(tmp_path / "b", steps=600, **over), resume=True)
    resumed.run()
    assert straight.rs.step == resumed.rs.step and straight.rs.updates == resumed.rs.updates
    (pa, oa), (pb, ob) = _state(straight), _state(resumed)
    assert all(torch.equal(pa[k], pb[k]) for k in pa)
    for k in oa["state"]:
        assert all(
            torch.equal(torch.as_tensor(oa["state"][k][x]), torch.as_tensor(ob["state"][k][x]))
            for x in oa["state"][k]
        )
    assert straight.rs.pool == resumed.rs.pool

    def evals(t):  # CPU seconds differ, everything else must not
        return [{k: v for k, v in r.items() if k != "cpu_seconds"} for r in t.rs.eval_history]

    assert len(evals(straight)) >= 3 and evals(straight) == evals(resumed)
    la, ma = straight.lanes.get_state()
    lb, mb = resumed.lanes.get_state()
    assert ma == mb and la.keys() == lb.keys() and all(np.array_equal(la[k], lb[k]) for k in la)
    if game == "wizard":
        assert straight.lanes.Ls == 0 and (la["seat_twin"] >= 0).any()
        # the saved policy names its features and plays raw observations as the trainer's net
        weights, meta = load_policy(tmp_path / "b" / "policy.npz")
        assert meta["features"] == "wizard" and weights.equals(resumed.policy_weights())
        obs = resumed.lanes.obs[:16]
        with torch.no_grad():
            net_in = torch.from_numpy(resumed.features(obs))
            expect = resumed.net.actor(net_in).numpy()
        np.testing.assert_allclose(weights.logits(obs), expect, rtol=1e-4, atol=1e-4)


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    """One tiny finished run; tests copy its folder before changing anything in it."""
    run = tmp_path_factory.mktemp("finished") / "run"
    train(tiny(run, steps=100))
    return run


def _copy(run, tmp_path):
    import shutil

    return Path(shutil.copytree(run, tmp_path / "run"))


def test_resume_guards(finished_run, tmp_path):
    with pytest.raises(ConfigError, match="no checkpoint"):
        VectorTrainer(tiny(tmp_path / "none"), resume=True).setup()
    with pytest.raises(ConfigError, match="already holds a run"):
        VectorTrainer(tiny(finished_run, steps=100)).setup()
    with pytest.raises(ConfigError, match="ppo.learning_rate"):
        cfg = tiny(finished_run, steps=200, ppo={"learning_rate": 1e-3})
        VectorTrainer(cfg, resume=True).setup()


def test_a_run_saved_before_batched_agents_resumes_with_them_off(finished_run, tmp_path):
    """Checkpoints written before ``vector.batched_agents`` existed (no key, no ``seat_twin``)
    seated every agent on the scalar engine: they resume with the key false, and the default
    (true) is refused by name rather than silently changing the lanes."""
    from deckzoo.training.vector_ppo import write_checkpoint

    run = _copy(finished_run, tmp_path)
    meta, arrays, tensors = read_checkpoint(run / CHECKPOINT)
    del meta["config"]["vector"]["batched_agents"]
    del arrays["lanes.seat_twin"]
    meta = {k: v for k, v in meta.items() if k not in ("format", "version")}
    write_checkpoint(run / CHECKPOINT, meta, arrays, tensors)
    with pytest.raises(ConfigError, match="vector.batched_agents"):
        on = {"batched_agents": True, "scalar_lanes": None}  # (Go Big's heuristic has a twin)
        VectorTrainer(tiny(run, steps=200, vector=on), resume=True).setup()
    trainer = VectorTrainer(tiny(run, steps=200), resume=True)  # (tiny: batched_agents false)
    trainer.run()
    assert trainer.rs.step >= 200 and (trainer.lanes.seat_twin == -1).all()


class _Planted:
    """Unpickling this would create ``path``: a stand-in for code run by loading a file."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


def _tamper(path, name: str, data: bytes) -> None:
    with zipfile.ZipFile(path) as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    parts[name] = data
    with zipfile.ZipFile(path, "w") as zf:
        for n, d in parts.items():
            zf.writestr(n, d)


def test_an_extended_run_rewrites_its_config(finished_run, tmp_path):
    import yaml

    run = _copy(finished_run, tmp_path)
    assert yaml.safe_load((run / "config.yaml").read_text())["total_timesteps"] == 100
    VectorTrainer(tiny(run, steps=160), resume=True).run()
    assert yaml.safe_load((run / "config.yaml").read_text())["total_timesteps"] == 160


def test_checkpoints_cannot_run_code(finished_run, tmp_path):
    path = _copy(finished_run, tmp_path) / CHECKPOINT
    meta, arrays, tensors = read_checkpoint(path)  # a genuine one loads
    assert meta["format"] == "deckzoo.checkpoint" and meta["trainer"] == "vector"
    assert {"net", "snapshots", "optimizer"} <= set(tensors) and arrays["pending"].ndim == 2
    with zipfile.ZipFile(path) as zf:
        names = set(zf.namelist())
        assert names == {"meta.json", "arrays.npz", "policy.pt", "optimizer.pt"}
        sb3_meta = {k: v for k, v in json.loads(zf.read("meta.json")).items() if k != "trainer"}
    _tamper(path, "meta.json", json.dumps(sb3_meta).encode())  # another trainer's checkpoint
    with pytest.raises(ConfigError, match="not of the vector trainer"):
        read_checkpoint(path)
    marker = tmp_path / "code-ran"
    buf = io.BytesIO()
    torch.save({"net": _Planted(marker)}, buf)  # torch.save pickles it; loading must refuse it
    _tamper(path, "policy.pt", buf.getvalue())
    with pytest.raises(ConfigError, match="damaged"):
        read_checkpoint(path)
    npz = io.BytesIO()
    np.savez(npz, pending=np.array([_Planted(marker)], dtype=object))
    _tamper(path, "policy.pt", pickle.dumps(None))
    _tamper(path, "arrays.npz", npz.getvalue())
    with pytest.raises(ConfigError, match="damaged"):
        read_checkpoint(path)
    assert not marker.exists()


def test_checkpoint_write_is_atomic(finished_run, tmp_path, monkeypatch):
    import deckzoo.training.checkpoint as T

    run = _copy(finished_run, tmp_path)
    before = (run / CHECKPOINT).read_bytes()
    trainer = VectorTrainer(tiny(run, steps=200), resume=True)
    trainer.setup()

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(T.os, "replace", boom)
    with pytest.raises(OSError):
        trainer.save_checkpoint()
    assert (run / CHECKPOINT).read_bytes() == before


def test_the_final_policy_loads_as_ppo_path_and_plays_in_the_arena(finished_run, tmp_path, capsys):
    from deckzoo.agents.cli import main
    from deckzoo.agents.registry import make_agent

    path = finished_run / "policy.npz"
    trainer = VectorTrainer(tiny(tmp_path / "r", steps=100))
    trainer.setup()
    _, _, tensors = read_checkpoint(finished_run / CHECKPOINT)
    trainer.net.load_state_dict(tensors["net"])  # the finished run's last network
    agent = make_agent(f"ppo:{path}", "gobig", seed=0)
    assert agent.weights.equals(trainer.policy_weights())
    rc = main(
        [
            "arena",
            "gobig",
            "--agents",
            f"ppo:{path},random",
            "--games",
            "4",
            "--workers",
            "1",
            "--no-progress",
            "--out",
            str(tmp_path / "arena"),
        ]
    )
    assert rc == 0 and "ppo" in capsys.readouterr().out


def test_a_cpu_budget_stops_the_run_and_clocks_the_learning_rate(tmp_path, monkeypatch):
    """``cpu_budget``: the run stops at the first rollout boundary at which its training CPU
    seconds reach the budget, long before ``total_timesteps``; the learning rate anneals over the
    share of the CPU budget used; a resume may raise the budget and goes on."""
    clock = iter(range(10**6))  # every reading one CPU second later: each iteration costs one
    monkeypatch.setattr(VectorTrainer, "cpu_seconds", lambda self: float(next(clock)))
    lrs = []
    update = VectorTrainer.update

    def logged(self):
        out = update(self)
        lrs.append(self.optimizer.param_groups[0]["lr"])
        return out

    monkeypatch.setattr(VectorTrainer, "update", logged)
    over = {"cpu_budget": 3.0, "vector": {"stagger": 0}}
    t = VectorTrainer(tiny(tmp_path / "r", steps=10**6, **over))
    t.run()
    assert t.rs.updates == 3 and t.rs.step < 10**6
    assert 3.0 <= t.rs.train_cpu_seconds < 3.5
    lr0 = t.cfg.ppo.learning_rate
    assert lrs == pytest.approx([lr0, lr0 * 2 / 3, lr0 / 3], rel=1e-2)
    resumed = VectorTrainer(tiny(tmp_path / "r", steps=10**6, **{**over, "cpu_budget": 5.0}), True)
    resumed.run()
    assert resumed.rs.updates == 5
    with pytest.raises(ConfigError, match="cpu_budget"):
        tiny(tmp_path / "x", cpu_budget=-1.0)
