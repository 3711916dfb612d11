"""The arena's Ray backend on a simulated two-node cluster: the same records as the local arena,
record for record; a node killed mid-run loses nothing; Ctrl-C keeps the finished games."""

from __future__ import annotations

import pytest

from deckzoo.agents.evaluation.arena import run_arena
from deckzoo.agents.evaluation.config import ArenaConfig
from deckzoo.agents.evaluation.ray_backend import batches, ray_batches
from deckzoo.agents.evaluation.tasks import comparable, game_tasks

from .conftest import alive_nodes

pytestmark = pytest.mark.xdist_group("ray")


def local_records(cfg: ArenaConfig) -> list[dict]:
    return [comparable(r) for r in run_arena(cfg).records]


@pytest.mark.parametrize(
    "game,agents,players",
    [
        ("gobig", ["heuristic", "random"], 4),
        ("bigwig", ["random"], 3),
        ("wizard", ["heuristic", "r1=random", "r2=random"], 3),
    ],
)
def test_ray_records_equal_local_records(cluster, game, agents, players):
    cfg = ArenaConfig(
        game=game,
        agents=agents,
        games=60,
        players=players,
        seed=11,
        workers=1,
        options={"num_rounds": 2} if game == "wizard" else {},
    )
    ray_cfg = ArenaConfig(**{**cfg.__dict__, "backend": "ray", "progress": True})
    result = run_arena(ray_cfg)
    assert not result.interrupted
    assert [comparable(r) for r in result.records] == local_records(cfg)
    key = [(s["agent"], s["seat_games"], s["win_share"], s["rating_mu"]) for s in result.summary]
    assert key == [
        (s["agent"], s["seat_games"], s["win_share"], s["rating_mu"])
        for s in run_arena(cfg).summary
    ]


def test_batches_run_on_both_nodes(cluster):
    cfg = ArenaConfig(game="gobig", agents=["random"], games=80, seed=2, backend="ray")
    tasks = game_tasks(cfg)
    nodes = set()
    records = []
    for recs, node in ray_batches(tasks, cfg, size=5):
        nodes.add(node)
        records += recs
    assert len(records) == 80 and sorted(r["index"] for r in records) == list(range(80))
    assert nodes == {n["NodeID"] for n in alive_nodes()}


def test_killed_node_loses_no_game(cluster):
    """A third node takes the batches (the others are held by placeholder actors); it is killed
    after its first result, with a batch running; Ray runs the lost batch again elsewhere."""
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    victim = cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes(timeout=180)

    @ray.remote(num_cpus=1)
    class Holder:
        def ping(self):
            return True

    holders = [
        Holder.options(
            scheduling_strategy=NodeAffinitySchedulingStrategy(n["NodeID"], soft=False)
        ).remote()
        for n in alive_nodes()
        if n["NodeID"] != victim.node_id
    ]
    ray.get([h.ping.remote() for h in holders], timeout=180)
    cfg = ArenaConfig(game="gobig", agents=["heuristic", "random"], games=60, seed=5, backend="ray")
    tasks = game_tasks(cfg)
    expected = len(batches(tasks, 5))
    gen = ray_batches(tasks, cfg, size=5)
    first, first_node = next(gen)
    assert first_node == victim.node_id  # only the victim had a free CPU
    cluster.remove_node(victim, allow_graceful=False)
    for h in holders:
        ray.kill(h)
    rest = list(gen)
    records = first + [r for recs, _ in rest for r in recs]
    assert len(rest) + 1 == expected
    assert {node for _, node in rest} - {
        victim.node_id
    }  # the remaining batches ran on the survivors
    assert sorted((comparable(r) for r in records), key=lambda r: r["index"]) == local_records(
        ArenaConfig(game="gobig", agents=["heuristic", "random"], games=60, seed=5, engine="scalar")
    )


def test_interrupt_keeps_finished_games(cluster):
    cfg = ArenaConfig(
        game="gobig", agents=["heuristic", "random"], games=200, seed=9, backend="ray"
    )
    seen = []

    def on_record(rec):
        seen.append(rec)
        if len(seen) == 30:
            raise KeyboardInterrupt

    result = run_arena(cfg, on_record=on_record)
    assert result.interrupted and 30 <= len(result.records) < 200
    local = {
        r["index"]: r for r in local_records(ArenaConfig(**{**cfg.__dict__, "backend": "local"}))
    }
    assert all(comparable(r) == local[r["index"]] for r in result.records)


def test_strength_benchmark_runs_on_ray(cluster, tmp_path):
    import importlib.util
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "strength.py"
    spec = importlib.util.spec_from_file_location("strength", path)
    strength = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(strength)
    args = [
        "--envs",
        "gobig",
        "--skip",
        "ismcts",
        "--batch",
        "8",
        "--min-games",
        "8",
        "--max-games",
        "8",
        "--players-for",
        "gobig_v0=2",
        "--out",
        str(tmp_path),
    ]
    assert strength.main([*args, "--backend", "ray"]) == 0
    ray_rows = json.loads((tmp_path / "strength.json").read_text())["rows"]
    assert strength.main([*args, "--workers", "1"]) == 0
    local_rows = json.loads((tmp_path / "strength.json").read_text())["rows"]
    assert [r["hero_row"]["win_share"] for r in ray_rows] == [
        r["hero_row"]["win_share"] for r in local_rows
    ]


def test_leaderboard_runs_on_ray(cluster, tmp_path):
    """The leaderboard's games on Ray are the local ones, record for record (timings aside)."""
    import json

    from ..agents.test_leaderboard_script import CHEAP, load_script

    lb = load_script()
    base = ["--envs", "gobig", "--games", "4", "--batch", "4", *CHEAP]

    def records(out, *more):
        assert lb.main([*base, "--out", str(out), *more]) == 0
        data = json.loads((out / "leaderboard.json").read_text())
        return [comparable(r) for r in data["envs"]["gobig_v0"]["records"]]

    on_ray = records(tmp_path / "ray", "--backend", "ray")
    assert len(on_ray) == 4 and on_ray == records(tmp_path / "local", "--workers", "1")
