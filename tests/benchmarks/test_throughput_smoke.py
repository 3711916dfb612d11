"""benchmarks/throughput.py runs end to end on a tiny budget (no peers). No timing assertions."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from deckzoo.envs import vector

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "throughput.py"


@pytest.fixture(scope="module")
def throughput():
    spec = importlib.util.spec_from_file_location("deckzoo_bench_throughput", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    yield mod
    sys.modules.pop(spec.name, None)


def test_throughput_writes_tables_targets_and_chart(throughput, tmp_path):
    result = throughput.main(
        [
            "--seconds",
            "0.06",
            "--slice",
            "0.03",
            "--batch",
            "1,8",
            "--no-peers",
            "--out-dir",
            str(tmp_path),
        ]
    )
    loops = {(r["env"], r["loop"]) for r in result["results"]}
    batched = set(vector.available())  # the default --envs: every batched game
    for name in batched:
        assert {(name, "batched B=1"), (name, "batched B=8"), (name, "engine+obs")} <= loops
    assert all(r["steps"] > 0 for r in result["results"])
    assert {m["env"] for m in result["memory"]} == batched
    assert any("cost per step" in t["target"] for t in result["targets"])
    saved = json.loads((tmp_path / "throughput.json").read_text())
    assert saved["results"] == result["results"]
    assert "## Targets" in (tmp_path / "throughput.md").read_text()
    assert (tmp_path / "throughput.png").stat().st_size > 0
