"""benchmarks/peers.py runs end to end on a tiny budget (deckzoo only). No timing assertions."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import deckzoo.envs as E

PEERS = Path(__file__).resolve().parents[2] / "benchmarks" / "peers.py"


@pytest.fixture(scope="module")
def peers():
    spec = importlib.util.spec_from_file_location("deckzoo_bench_peers", PEERS)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up while the class is built
    spec.loader.exec_module(mod)
    yield mod
    sys.modules.pop(spec.name, None)


def test_picker_is_uniform_and_in_range(peers):
    pick = peers.Picker(0)
    draws = np.array([pick.index(5) for _ in range(70_000)])  # crosses a refill of the buffer
    assert draws.min() == 0 and draws.max() == 4
    assert np.allclose(np.bincount(draws) / len(draws), 0.2, atol=0.01)


def test_run_writes_json_markdown_and_chart(peers, tmp_path):
    names = E.registry.env_names()[:2]
    result = peers.run(names, seconds=0.04, slice_s=0.02, peers=False, progress=False)
    loops = {(r["env"], r["loop"]) for r in result["results"]}
    for name in names:
        assert {(name, "aec"), (name, "engine"), (name, "engine+obs"), (name, "clone+det")} <= loops
    for r in result["results"]:
        assert r["library"] == "deckzoo" and r["players"] == peers.PLAYERS
        assert r["steps"] > 0 and r["seconds"] > 0
    assert [c["env"] for c in result["clone_det"]] == names
    assert all(c["in_engine_steps"] > 0 for c in result["clone_det"])
    assert result["meta"]["peak_rss_mb"] > 0
    assert "peers not run (--no-peers)" in result["notes"]
    paths = peers.write(result, tmp_path)
    back = json.loads(paths["json"].read_text())
    assert back["results"] == result["results"]
    text = paths["md"].read_text()
    assert "| deckzoo | " + names[0] + " | aec |" in text and "clone + determinize" in text
    if "png" in paths:
        assert paths["png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cases_play_legal_games_to_the_end(peers):
    """The engine loop really finishes games and starts new ones (a loop that stalls would not)."""
    name = next(iter(E.ENVS))
    game = E.game_class(name)(num_players=peers.PLAYERS, **E.registry.short_options(name))
    case = peers.EngineCase(name, game, observe=True, seed=1)
    pick = peers.Picker(1)
    while case.games < 2:
        case.run(0.05, pick)
    assert case.steps > case.games


def test_summary_targets_use_the_issue_goals(peers):
    def row(library, env, loop, slices):
        return {
            "library": library,
            "env": env,
            "loop": loop,
            "slices": slices,
            "steps": sum(s for s, _ in slices),
            "seconds": sum(t for _, t in slices),
        }

    rows = [
        row("deckzoo", "gobig_v0", "aec", [[100, 0.5], [100, 0.25], [100, 0.25]]),  # 300 steps/s
        row("deckzoo", "midgard_v1", "aec", [[50, 0.5], [50, 0.25], [50, 0.25]]),
        row("deckzoo", "gobig_v0", "engine", [[500, 0.5], [250, 0.25], [250, 0.25]]),
        row("deckzoo", "gobig_v0", "clone+det", [[50, 0.5], [25, 0.25], [25, 0.25]]),
        row(
            "pettingzoo", "texas_holdem_v4", "aec", [[25, 0.5], [50, 0.25], [25, 0.25]]
        ),  # 100 steps/s
    ]
    clone_det, targets = peers.summarise(rows)
    assert clone_det == [
        {
            "env": "gobig_v0",
            "clone_det_us": 10000.0,
            "engine_step_us": 1000.0,
            "in_engine_steps": 10.0,
            "spread": [10.0, 10.0],
        }
    ]
    by = {t["target"]: t for t in targets}
    gobig = by["gobig_v0 AEC vs texas_holdem_v4 AEC"]
    assert gobig["ratio"] == 3.0 and gobig["met"] and gobig["goal"] == 3.0
    # round by round the ratio was 4, 2 and 4: the spread shows it
    assert gobig["spread"][0] < 3.0 < gobig["spread"][1] <= 4.0
    assert by["midgard_v1 AEC vs texas_holdem_v4 AEC"]["goal"] == 1.0
    assert by["midgard_v1 AEC vs texas_holdem_v4 AEC"]["met"]
    assert by["gobig_v0 clone+determinize in engine steps"]["met"]
    assert "wizard_v0 engine vs oh_hell engine" not in by  # no wizard or oh_hell rows, no target


def test_parallel_case_counts_decisions_and_finishes_games(peers):
    names = [n for n, m in E.ENVS.items() if hasattr(m, "parallel_env")]
    if not names:
        pytest.skip("no env with a Parallel API yet")
    mod = E.ENVS[names[0]]
    case = peers.ParallelCase(names[0], lambda: mod.parallel_env(num_players=peers.PLAYERS), seed=2)
    pick = peers.Picker(2)
    while case.games < 1:
        case.run(0.05, pick)
    assert case.steps > 0 and case.row()["loop"] == "parallel"
    json.dumps(case.row())  # plain Python numbers only


def test_profile_names_the_hot_functions(peers):
    name = next(iter(E.ENVS))
    text = peers.profile([name], seconds=0.05, top=40)
    for loop in ("aec", "engine+obs", "clone+det"):
        assert f"=== {name} {loop}:" in text
    assert (
        "tottime" in text and "observe" in text
    )  # the AEC and engine+obs loops observe every step
