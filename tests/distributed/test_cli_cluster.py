"""The command line joining the simulated cluster from another process (``--address``), with
deckzoo's code shipped to the nodes as a Ray runtime_env: what a user on a real cluster runs."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from deckzoo.agents.evaluation.arena import run_arena
from deckzoo.agents.evaluation.config import ArenaConfig
from deckzoo.agents.evaluation.tasks import comparable

pytestmark = pytest.mark.xdist_group("ray")


def deckzoo(*args, timeout=600):
    out = subprocess.run(
        [sys.executable, "-m", "deckzoo.agents.cli", *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-4000:]
    return out


def test_arena_cli_on_the_cluster(cluster, tmp_path):
    deckzoo(
        "arena",
        "gobig",
        "--agents",
        "heuristic,random",
        "--games",
        "60",
        "--seed",
        "4",
        "--backend",
        "ray",
        "--address",
        cluster.address,
        "--no-progress",
        "--out",
        str(tmp_path),
    )
    records = json.loads((tmp_path / "games.json").read_text())["records"]
    local = run_arena(
        ArenaConfig(game="gobig", agents=["heuristic", "random"], games=60, seed=4)
    ).records
    assert [comparable(r) for r in records] == [comparable(r) for r in local]


def test_train_cli_on_the_cluster(cluster, tmp_path):
    run = tmp_path / "run"
    settings = [
        "total_timesteps=96",
        "rllib.train_batch_size=96",
        "ppo.batch_size=48",
        "ppo.n_epochs=1",
        "ppo.net_arch=[16]",
        "rllib.env_runners=1",
        "rllib.envs_per_runner=2",
        "eval.every=0",
        "eval.final_games=2",
        "opponents.snapshot_every=96",
    ]
    out = deckzoo(
        "train",
        "--config",
        "configs/gobig-rllib.yaml",
        "--address",
        cluster.address,
        "--run-dir",
        str(run),
        "--no-progress",
        *[a for s in settings for a in ("--set", s)],
    )
    assert json.loads(out.stdout[out.stdout.index("{") :])["steps"] >= 96
    summary = json.loads((run / "summary.json").read_text())
    assert summary["trainer"] == "rllib" and (run / "policy.npz").exists()
