"""``vector.init``: a training run that starts from a policy (its actor, and its run's critic where
one is beside it), refused at construction when the policy is no network, does not fit the table,
or is not the configured network; the run's export is then trained on from that start."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from deckzoo.agents.policy import load_policy
from deckzoo.training.config import ConfigKeyError, config_from_dict
from deckzoo.training.vector_ppo import VectorTrainer, train

REPO = Path(__file__).resolve().parents[2]
BASE = {
    "trainer": "vector",
    "game": "gobig",
    "num_players": 4,
    "n_envs": 16,
    "torch_threads": 1,
    "progress_bar": False,
    "ppo": {"n_steps": 8, "batch_size": 64, "n_epochs": 1, "net_arch": [32, 16]},
    "vector": {"stagger": 20},
    "opponents": {"mix": {"random": 1.0}},
    "eval": {"every": 0, "final_games": 0},
}


pytestmark = pytest.mark.usefixtures("one_torch_thread")


def config(tmp_path: Path, name: str, **extra):
    data = {**BASE, "run_dir": str(tmp_path / name), **extra}
    for key in ("ppo", "vector"):
        data[key] = {**BASE[key], **extra.get(key, {})}
    return config_from_dict(data)


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    """A finished 32x16 vector run: policy.npz and the checkpoint of the same network."""
    run = tmp_path_factory.mktemp("source")
    VectorTrainer(config(run, "run", total_timesteps=256)).run()
    return run / "run"


def test_a_run_starts_from_the_policy_and_its_critic(source, tmp_path):
    """A run from ``ppo:PATH`` of a vector run plays, before any update, exactly as the source
    does, with the source run's critic; with a learning rate of 0 its export is the source."""
    spec = f"ppo:{source / 'policy.npz'}"
    cfg = config(tmp_path, "warm", total_timesteps=128, vector={"init": spec})
    summary = train(cfg)
    assert summary["init"]["source"] == spec and summary["init"]["critic"] == "checkpoint"
    cold = config(tmp_path, "still", total_timesteps=128, vector={"init": spec})
    cold.ppo.learning_rate = 0.0
    train(cold)
    a, _ = load_policy(source / "policy.npz")
    b, meta = load_policy(tmp_path / "still" / "policy.npz")
    for (wa, ba), (wb, bb) in zip([*a.hidden, a.head], [*b.hidden, b.head]):
        np.testing.assert_array_equal(wa, wb)
        np.testing.assert_array_equal(ba, bb)
    moved, _ = load_policy(tmp_path / "warm" / "policy.npz")
    assert not np.array_equal(moved.head[0], a.head[0])  # the warm run trained on from it
    assert meta["env"] == "gobig_v0"  # the export names the version it was trained on


def test_a_zoo_start_without_a_critic_warms_the_critic_up(tmp_path):
    """zoo:gobig ships no critic: the run needs cpu_budget for its warm-up share, and spends it."""
    arch = {"net_arch": [128, 128]}
    with pytest.raises(ConfigKeyError, match="vector.value_warmup.*cpu_budget"):
        config(tmp_path, "x", ppo=arch, vector={"init": "zoo:gobig"})
    cfg = config(
        tmp_path, "zoo", ppo=arch, vector={"init": "zoo:gobig", "value_warmup": 0.5},
        cpu_budget=1000.0, total_timesteps=256,
    )  # fmt: skip
    summary = train(cfg)
    assert summary["init"]["critic"] == "warm-up" and summary["value_warmup_iterations"] > 0
    # the run ended inside its warm-up (half of 1000 CPU s): the actor is still the zoo's
    zoo, _ = load_policy(REPO / "agents" / "zoo" / "gobig.npz")
    out, _ = load_policy(tmp_path / "zoo" / "policy.npz")
    for (wa, ba), (wb, bb) in zip([*zoo.hidden, zoo.head], [*out.hidden, out.head]):
        np.testing.assert_array_equal(wa, wb)
        np.testing.assert_array_equal(ba, bb)


@pytest.mark.parametrize(
    "init, extra, words",
    [
        ("random", {}, "no policy network"),
        ("zoo:gobig", {}, "hidden sizes [128, 128]"),
        ("zoo:gobig", {"num_players": 3, "ppo": {"net_arch": [128, 128]}}, "at 3 players"),
        ("ppo:/nowhere/policy.npz", {}, "vector.init"),
    ],
)
def test_a_start_that_cannot_be_is_refused_naming_the_key(tmp_path, init, extra, words):
    with pytest.raises(ConfigKeyError, match="vector.init") as e:
        config(tmp_path, "x", cpu_budget=10.0, vector={"init": init}, **extra)
    assert words in str(e.value) and "\n" not in str(e.value)
