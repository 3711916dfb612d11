"""The pieces of the distributed paths that need no Ray instance: seat line-ups, config checks,
files named by agent specs, the code shipped to a cluster, the actor export."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from deckzoo.agents.ray_cluster import localize, read_files, rewrite_spec, spec_files, stage_code
from deckzoo.envs.core.errors import ConfigError
from deckzoo.training.config import config_from_dict, load_config
from deckzoo.training.rllib import MAIN, RANDOM, SeatMapping


def test_lineups_have_one_main_seat_and_follow_the_mix():
    only_random = SeatMapping(4, {"random": 1.0}, [], seed=0)
    for i in range(50):
        assert sorted(only_random.lineup(f"ep{i}")) == [MAIN, RANDOM, RANDOM, RANDOM]
    mapping = SeatMapping(3, {"learner": 0.5, "pool": 0.5}, ["pool_0", "pool_1"], seed=1)
    counts = Counter(m for i in range(2000) for m in mapping.lineup(f"ep{i}"))
    assert set(counts) == {MAIN, "pool_0", "pool_1"}
    # one seat is main, the other two are main with probability 1/2: 2 of 3 seats on average
    assert abs(counts[MAIN] / 6000 - 2 / 3) < 0.03
    assert abs(counts["pool_0"] - counts["pool_1"]) < 0.15 * counts["pool_0"]


def test_lineups_are_drawn_from_the_episode_id():
    class Episode:
        id_ = "a1b2c3"

    mapping = SeatMapping(4, {"pool": 1.0}, ["pool_0", "pool_1", "pool_2"], seed=7)
    lineup = mapping.lineup(Episode.id_)
    assert [mapping(f"player_{s}", Episode) for s in range(4)] == lineup
    assert (
        SeatMapping(4, {"pool": 1.0}, ["pool_0", "pool_1", "pool_2"], seed=7).lineup("a1b2c3")
        == lineup
    )
    assert SeatMapping(4, {"pool": 1.0}, [], seed=7).lineup("x").count(RANDOM) == 3  # empty pool


@pytest.mark.parametrize(
    "data,key",
    [
        ({"trainer": "rllib", "opponents": {"mix": {"heuristic": 1.0}}}, "opponents.mix.heuristic"),
        ({"opponents": {"mix": {"learner": 1.0}}}, "opponents.mix.learner"),
        ({"rllib": {"address": "auto"}}, "rllib.address"),
        ({"trainer": "rllib", "rllib": {"env_runners": -1}}, "rllib.env_runners"),
        (
            {"trainer": "rllib", "rllib": {"train_batch_size": 100}, "ppo": {"batch_size": 200}},
            "ppo.batch_size",
        ),
        ({"trainer": "rllib", "max_episode_steps": 100}, "max_episode_steps"),
        ({"trainer": "ray"}, "trainer"),
    ],
)
def test_bad_rllib_configs_name_the_key(data, key):
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        config_from_dict(data)


@pytest.mark.parametrize("game", ["gobig", "bignumber", "wizard", "bigwig", "midgard"])
def test_rllib_configs_load(game):
    cfg = load_config(f"configs/{game}-rllib.yaml")
    assert cfg.trainer == "rllib" and cfg.game == game and "learner" in cfg.opponents.mix


def test_spec_files_are_shipped_and_rewritten(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "policy.npz").write_bytes(b"weights")
    (tmp_path / "random").write_bytes(b"not an agent argument")
    specs = [
        "random",
        "ppo:runs/policy.npz:sample",
        "a=ismcts:10:rollout=ppo:runs/policy.npz",
        "heuristic",
    ]
    assert spec_files(specs) == ["runs/policy.npz"]
    local = localize(read_files(["runs/policy.npz"]), tmp_path / "node")
    copy = local["runs/policy.npz"]
    assert copy.startswith(str(tmp_path / "node")) and Path(copy).read_bytes() == b"weights"
    assert rewrite_spec("ppo:runs/policy.npz:sample", local) == f"ppo:{copy}:sample"
    assert (
        rewrite_spec("ismcts:10:rollout=ppo:runs/policy.npz", local)
        == f"ismcts:10:rollout=ppo:{copy}"
    )
    assert rewrite_spec("random", local) == "random"
    assert localize(read_files(["runs/policy.npz"]), tmp_path / "node") == local  # once per content


def test_stage_code_copies_the_three_packages(tmp_path):
    root = stage_code(tmp_path)
    assert root.name == "deckzoo"
    for pkg in ("envs", "agents", "training"):
        assert (root / pkg / "__init__.py").exists()
    assert (root / "envs" / "midgard" / "data" / "midgard.json").exists()
    assert not list(root.rglob("__pycache__"))


def test_actor_weights_from_a_module_state():
    from deckzoo.training.rllib_module import actor_weights

    rng = np.random.default_rng(0)
    state = {  # torch layout: (out, in)
        "encoder.actor_encoder.net.mlp.0.weight": rng.normal(size=(8, 5)),
        "encoder.actor_encoder.net.mlp.0.bias": rng.normal(size=8),
        "encoder.actor_encoder.net.mlp.2.weight": rng.normal(size=(6, 8)),
        "encoder.actor_encoder.net.mlp.2.bias": rng.normal(size=6),
        "encoder.critic_encoder.net.mlp.0.weight": rng.normal(size=(8, 5)),
        "encoder.critic_encoder.net.mlp.0.bias": rng.normal(size=8),
        "pi.net.mlp.0.weight": rng.normal(size=(4, 6)),
        "pi.net.mlp.0.bias": rng.normal(size=4),
        "vf.net.mlp.0.weight": rng.normal(size=(1, 8)),
        "vf.net.mlp.0.bias": rng.normal(size=1),
    }
    w = actor_weights(state, "relu")
    x = rng.normal(size=5).astype(np.float32)
    h = np.maximum(
        state["encoder.actor_encoder.net.mlp.0.weight"] @ x
        + state["encoder.actor_encoder.net.mlp.0.bias"],
        0,
    )
    h = np.maximum(
        state["encoder.actor_encoder.net.mlp.2.weight"] @ h
        + state["encoder.actor_encoder.net.mlp.2.bias"],
        0,
    )
    expected = state["pi.net.mlp.0.weight"] @ h + state["pi.net.mlp.0.bias"]
    np.testing.assert_allclose(w.logits(x), expected, rtol=1e-5, atol=1e-5)
    assert w.obs_size == 5 and w.num_actions == 4
    noop_dropped = actor_weights(
        state, "relu", num_actions=3
    )  # the Parallel env's NOOP is the last id
    np.testing.assert_allclose(noop_dropped.logits(x), expected[:3], rtol=1e-5, atol=1e-5)
