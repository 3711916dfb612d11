"""Exploiters in the pool (training/league.py, ``opponents.exploiters``): the config's checks, an
exploiter trained at its scheduled point and seated by the mix, its CPU counted in the run's
budget, a resume that keeps the pool and the schedule bit for bit, and a run without the section
(or with one that never fires) unchanged."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest
import torch

from deckzoo.agents.policy import load_policy
from deckzoo.envs.core.errors import ConfigError
from deckzoo.training.config import TrainConfig, config_from_dict, load_config
from deckzoo.training.train import train
from deckzoo.training.vector_lanes import LEARNER, POOL
from deckzoo.training.vector_ppo import CHECKPOINT, VectorTrainer, read_checkpoint

EXPLOITERS = {"every": 200, "cpu_budget": 1000.0, "steps": 60, "keep": 1, "games": 12}


pytestmark = pytest.mark.usefixtures("one_torch_thread")


def tiny(run_dir, steps=500, exploiters=EXPLOITERS, mix=None, **over) -> TrainConfig:
    """Go Big at 3 players, small enough that a run with two rounds takes a second or two."""
    data = {
        "trainer": "vector",
        "game": "gobig",
        "num_players": 3,
        "run_dir": str(run_dir),
        "total_timesteps": steps,
        "n_envs": 8,
        "progress_bar": False,
        "checkpoint_every": 100,
        "seed": 11,
        "ppo": {"n_steps": 8, "batch_size": 32, "n_epochs": 1, "net_arch": [16]},
        "opponents": {
            "mix": mix or {"learner": 0.4, "pool": 0.2, "exploiter": 0.4},
            "snapshot_every": 100,
            "pool_size": 2,
            "exploiters": exploiters,
        },
        "eval": {"every": 0, "final_games": 0, "opponents": ["random"]},
        "vector": {"stagger": 10},
    }
    data.update(over)
    return config_from_dict(data)


# ---- the config ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "exploiters,key",
    [
        ({"evry": 5}, "'opponents.exploiters.evry' (did you mean 'every'?)"),
        ({"every": 0}, "'opponents.exploiters.every'"),
        ({"every": 10, "cpu_budget": 0}, "'opponents.exploiters.cpu_budget'"),
        ({"every": 10, "keep": 0}, "'opponents.exploiters.keep'"),
        ({"every": 10, "init": "zoo"}, "'opponents.exploiters.init'"),
        ({"every": 10, "games": 0}, "'opponents.exploiters.games'"),
        ({"every": 10, "steps": 1.5}, "'opponents.exploiters.steps'"),
        ({"every_cpu_seconds": -1.0}, "'opponents.exploiters.every_cpu_seconds'"),
        ({}, "'opponents.exploiters' has no schedule"),
        ({"every": 10, "cpu_budget": 50.0}, "'opponents.exploiters.cpu_budget' must be below"),
    ],
)
def test_a_bad_exploiters_key_is_named(exploiters, key):
    data = {"trainer": "vector", "cpu_budget": 50.0, "opponents": {"exploiters": exploiters}}
    with pytest.raises(ConfigError) as e:
        config_from_dict(data)
    assert key in str(e.value)


def test_exploiters_are_off_by_default_and_need_the_vector_trainer(tmp_path):
    assert TrainConfig().opponents.exploiters is None
    with pytest.raises(ConfigError, match="'opponents.mix.exploiter' gives exploiters a share"):
        config_from_dict({"trainer": "vector", "opponents": {"mix": {"exploiter": 1.0}}})
    with pytest.raises(ConfigError, match="'opponents.exploiters' needs trainer vector"):
        config_from_dict({"opponents": {"exploiters": {"every": 10}}})
    with pytest.raises(ConfigError, match="'opponents.mix.exploiter' is not an RLlib seat"):
        config_from_dict({"trainer": "rllib", "opponents": {"mix": {"exploiter": 1.0}}})
    path = tmp_path / "c.yaml"
    path.write_text("trainer: vector\n")
    cfg = load_config(path, {"opponents.exploiters.every_cpu_seconds": 30})
    assert cfg.opponents.exploiters.every_cpu_seconds == 30.0
    assert cfg.opponents.exploiters.init == "learner" and cfg.opponents.exploiters.every is None
    with pytest.raises(ConfigError, match="--set opponents.exploiters.keep=0"):
        sources = {"opponents.exploiters.keep": "--set opponents.exploiters.keep=0"}
        load_config(
            path, {"opponents.exploiters.keep": 0, "opponents.exploiters.every": 5}, sources
        )


# ---- the loop -----------------------------------------------------------------------------------
def test_an_exploiter_is_trained_at_its_point_and_the_mix_seats_it(tmp_path):
    """A round at the first rollout boundary at or after 200 steps: the learner frozen, an
    exploiter trained for its CPU budget from the learner's weights, measured, and drawn by the
    ``exploiter`` key (a pool snapshot before it exists). A folder left by a round cut short is
    replaced."""
    run = tmp_path / "r"
    stale = run / "league" / "round-0" / "stale"
    stale.mkdir(parents=True)
    x = {**EXPLOITERS, "steps": None, "cpu_budget": 0.3}
    trainer = VectorTrainer(tiny(run, steps=300, exploiters=x, mix={"exploiter": 1.0}))
    trainer.setup()
    trainer.take_snapshot(0)
    lanes = trainer.lanes
    lanes.reset(seed=1)  # before any round: the exploiter key seats pool snapshots
    others = lanes.seat_kind != LEARNER
    assert (lanes.seat_kind[others] == POOL).all() and (lanes.seat_snapshot[others] == 0).all()
    summary = trainer.run()
    (r,) = summary["exploiters"]["rounds"]
    assert 200 <= r["step"] < 300 and r["round"] == 0 and r["init"] == "learner"
    assert r["train_cpu_seconds"] >= 0.3 and r["cpu_seconds"] >= r["train_cpu_seconds"]
    assert r["games"] == 12 and 0 <= r["ci_low"] <= r["win_share"] <= r["ci_high"] <= 1
    folder = run / "league" / "round-0"
    assert not stale.exists() and (folder / "learner.npz").exists()
    assert json.loads((folder / "run" / "summary.json").read_text())["steps"] == r["steps"]
    br_cfg = load_config(folder / "run" / "config.yaml")
    assert br_cfg.opponents.exploiters is None  # an exploiter trains no exploiters
    assert list(br_cfg.opponents.mix) == [f"ppo:{(folder / 'learner.npz').resolve()}:sample"]
    # the pool member is the exploiter's saved policy, and new games seat it
    sid = r["id"]
    assert lanes.exploiter_ids == [sid] and sid < -1
    weights, _ = load_policy(folder / "run" / "policy.npz")
    frozen = trainer.frozen[sid].weights
    assert all(np.array_equal(a, b) for a, b in zip(frozen.head, weights.head))
    lanes.reset(seed=2)
    assert (lanes.seat_snapshot[lanes.seat_kind != LEARNER] == sid).all()
    trainer.collect()  # the exploiter decides its seats
    with open(run / "eval.csv") as f:
        rows = [row for row in csv.DictReader(f) if row["kind"] == "exploiter"]
    assert len(rows) == 1 and rows[0]["opponent"] == "learner"
    assert int(rows[0]["step"]) == r["step"] and float(rows[0]["win_share"]) == r["win_share"]


def test_the_exploiters_cpu_counts_against_the_runs_budget(tmp_path):
    """Rounds every 0.25 learner CPU seconds of 0.4 s exploiters in a 1.8 s run: the run's
    training CPU is the learner's plus the rounds', and no round starts with less than an
    exploiter's budget left."""
    x = {"every_cpu_seconds": 0.25, "cpu_budget": 0.4, "keep": 2, "games": 6}
    cfg = tiny(tmp_path / "r", steps=10**9, exploiters=x, cpu_budget=1.8)
    s = train(cfg)
    league = s["exploiters"]
    rounds = league["rounds"]
    assert league["trained"] == len(rounds) >= 1
    assert league["cpu_seconds"] == pytest.approx(sum(r["cpu_seconds"] for r in rounds))
    assert s["train_cpu_seconds"] == pytest.approx(
        league["learner_cpu_seconds"] + league["cpu_seconds"]
    )
    assert s["train_cpu_seconds"] >= 1.8
    for k, r in enumerate(rounds):
        assert r["learner_cpu_seconds"] >= 0.25 * (k + 1)
        assert r["run_cpu_seconds"] - r["cpu_seconds"] < 1.8 - 0.4  # affordable when it began
    assert league["drawable"] == [r["round"] for r in rounds][-2:]


def test_a_resumed_run_keeps_its_exploiters_and_schedule(tmp_path, monkeypatch):
    """Killed after step 300 (after round 0, before round 1) and resumed: exploiters ended by
    their steps make the run reproducible, so it ends bit for bit as an uninterrupted one, with
    the same rounds, pool and eval.csv."""
    straight = VectorTrainer(tiny(tmp_path / "a"))
    straight.run()
    collect = VectorTrainer.collect

    def killed(self):
        if self.rs.step >= 300 and self.league is not None:  # (not inside a round's exploiter)
            raise KeyboardInterrupt
        return collect(self)

    monkeypatch.setattr(VectorTrainer, "collect", killed)
    with pytest.raises(KeyboardInterrupt):
        train(tiny(tmp_path / "b"))
    monkeypatch.setattr(VectorTrainer, "collect", collect)
    meta = read_checkpoint(tmp_path / "b" / CHECKPOINT)[0]
    assert len(meta["league"]["rounds"]) == 1 and meta["league"]["pool"]
    resumed = VectorTrainer(tiny(tmp_path / "b"), resume=True)
    resumed.setup()
    assert resumed.lanes.exploiter_ids == meta["league"]["pool"]  # back before a step is taken
    resumed.run()

    def same(t):  # everything but what the clock measured
        clock = ("cpu_seconds", "learner_cpu_seconds", "run_cpu_seconds", "train_cpu_seconds")
        return [{k: v for k, v in r.items() if k not in clock} for r in t.league.state.rounds]

    assert len(same(straight)) == 2 and same(straight) == same(resumed)
    assert straight.league.state.pool == resumed.league.state.pool
    assert straight.league.state.next_step == resumed.league.state.next_step
    a, b = straight.net.state_dict(), resumed.net.state_dict()
    assert all(torch.equal(a[k], b[k]) for k in a)
    assert sorted(straight.frozen) == sorted(resumed.frozen)
    for sid in straight.frozen:
        wa, wb = straight.frozen[sid].weights, resumed.frozen[sid].weights
        assert all(np.array_equal(p, q) for p, q in zip(wa.head, wb.head))
    la, ma = straight.lanes.get_state()
    lb, mb = resumed.lanes.get_state()
    assert ma == mb and all(np.array_equal(la[k], lb[k]) for k in la)


def test_without_rounds_a_run_is_unchanged(tmp_path):
    """A run with the section whose first round lies past the end, and no ``exploiter`` key,
    trains the very same network as a run without the section (the same seed)."""
    mix = {"learner": 0.6, "pool": 0.2, "random": 0.1, "heuristic": 0.1}
    off = VectorTrainer(tiny(tmp_path / "off", steps=300, exploiters=None, mix=mix))
    off.run()
    inert = VectorTrainer(tiny(tmp_path / "on", steps=300, exploiters={"every": 10**9}, mix=mix))
    summary = inert.run()
    a, b = off.net.state_dict(), inert.net.state_dict()
    assert all(torch.equal(a[k], b[k]) for k in a)
    assert summary["exploiters"]["trained"] == 0 and not (tmp_path / "on" / "league").exists()
    assert "exploiters" not in json.loads((tmp_path / "off" / "summary.json").read_text())


# ---- the comparison's arms ----------------------------------------------------------------------
def test_every_arm_of_the_robust_training_comparison_is_a_valid_config(tmp_path, monkeypatch):
    """benchmarks/robust_training.py: each arm of each game's shipped config loads, on the same
    CPU budget; the exploiters' share of the seats comes from the self-play keys only."""
    import importlib.util
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    monkeypatch.syspath_prepend(str(root / "benchmarks"))  # (its sibling modules)
    spec = importlib.util.spec_from_file_location(
        "bench_robust", root / "benchmarks" / "robust_training.py"
    )
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    plan = bench.PLAN
    for game, path in plan["configs"].items():
        shipped = load_config(root / path)
        for arm in bench.ARMS:
            cfg = load_config(root / path, bench.overrides(game, arm, 0, plan, tmp_path / arm))
            assert cfg.cpu_budget == plan["cpu_budget"][game] and cfg.num_players == 4
            x = cfg.opponents.exploiters
            assert (x is not None) == (arm in ("exploiters", "both"))
            assert (cfg.ppo.ent_coef == 0.05) == (arm in ("entropy", "both"))
            if x is None:
                assert cfg.opponents.mix == shipped.opponents.mix
                continue
            mix, old = cfg.opponents.mix, shipped.opponents.mix
            assert mix["exploiter"] == pytest.approx(plan["exploiter_share"] * sum(old.values()))
            assert sum(mix.values()) == pytest.approx(sum(old.values()))
            for key in old:
                if key not in ("learner", "pool", "latest"):
                    assert mix[key] == old[key], (game, key)
