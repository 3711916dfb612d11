"""Loading a benchmark script (benchmarks/ is no package) for the tests of its bookkeeping."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def bench_script():
    """``load(name)``: ``benchmarks/<name>.py`` as a module under a private name. The folder is on
    ``sys.path`` for the module's tests only: the scripts import their siblings (results_page) by
    bare name, and a bare ``import training`` elsewhere must not find benchmarks/training.py."""
    sys.path.insert(0, str(BENCH))

    def load(name: str):
        spec = importlib.util.spec_from_file_location(f"deckzoo_bench_{name}", BENCH / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    yield load
    sys.path.remove(str(BENCH))
