"""benchmarks/midgard_speed.py runs end to end on a tiny budget, against a git revision too. No
timing assertions."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from deckzoo.envs.core import game as core_game
from deckzoo.envs.midgard.rules import MidgardGame

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "midgard_speed.py"


@pytest.fixture(scope="module")
def speed():
    spec = importlib.util.spec_from_file_location("deckzoo_bench_midgard_speed", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    yield mod
    sys.modules.pop(spec.name, None)


def test_times_the_engine_and_the_heuristic(speed):
    out = speed.main(["--steps", "200", "--reps", "1", "--heuristic", "1"])
    assert out["engine+obs us/step this"] > 0 and out["engine us/step this"] > 0
    assert out["heuristic us/act"] > 0 and out["decisions"] > 0


def test_a_revision_loads_beside_the_working_tree(speed):
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if head.returncode != 0:
        pytest.skip("not a git checkout")
    try:
        game_cls = speed.load_ref("HEAD")
        assert game_cls.__module__ == "deckzoo.envs.midgard_ref.rules"
        # State.from_dict still builds the working tree's game
        assert core_game._GAME_CLASSES["midgard"] is MidgardGame
        out = speed.main(["--steps", "100", "--reps", "1", "--against", "HEAD"])
        assert out["engine+obs speed-up"] > 0
        assert core_game._GAME_CLASSES["midgard"] is MidgardGame
    finally:
        for name in [m for m in sys.modules if m.startswith("deckzoo.envs.midgard_ref")]:
            del sys.modules[name]
