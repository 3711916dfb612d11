"""benchmarks/zoo.py's candidates table: a candidate whose run was stopped before its end keeps a
row, read from its run's evaluations, so a plan's candidate never disappears from the page."""

from __future__ import annotations

import json

import pytest


@pytest.fixture(scope="module")
def zoo_script(bench_script):
    return bench_script("zoo")


def test_a_stopped_candidate_keeps_a_row_with_its_evaluations(zoo_script, tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "eval.csv").write_text(
        "step,kind,cpu_seconds,opponent,games,win_share,ci_low,ci_high,uniform,abandoned\n"
        "9000,periodic,2.0,random,200,0.7,0.6,0.8,0.25,0\n"
        "9000,periodic,2.0,heuristic,200,0.41,0.34,0.48,0.25,0\n"
        "5000000,periodic,600.0,heuristic,200,0.19,0.14,0.25,0.25,0\n"
    )
    row = zoo_script.stopped_run(run, "gobig", "it fell")
    assert row["steps"] == 5_000_000 and row["replaces"] is False
    results = tmp_path / "results"
    results.mkdir()
    played = {
        "game": "gobig",
        "candidate": "runs/x/policy.npz",
        "shipped_sha256": "ab" * 32,
        "mode": "greedy",
        "games": 400,
        "win_share": 0.6,
        "ci_low": 0.55,
        "ci_high": 0.65,
        "replaces": True,
    }
    (results / "zoo_head_to_head.json").write_text(json.dumps([played, row]))
    text = "\n".join(zoo_script.head_to_head_lines(results))
    assert (
        "| gobig | runs/x/policy.npz | abababababab | greedy | 400 | 0.600 [0.550, 0.650] | yes |"
        in text
    )
    assert f"| gobig | {run} |" in text and "not played | no: stopped |" in text
    assert "stopped at 5.0M steps (win share against three heuristics: 0.410 at 0.0M, " in text
    assert "0.190 at 5.0M). Why: it fell." in text
