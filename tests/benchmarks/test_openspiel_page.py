"""benchmarks/openspiel.py's bookkeeping: a learned cell trained on another reward than the one
the calibration judges in is set aside (and measured anew), and the page still shows it."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def calibration(bench_script):
    return bench_script("openspiel")


def _learned(target, reward, gap, budget):
    return {
        "target": target,
        "reward": reward,
        "cpu_budget": float(budget),
        "train_cpu_seconds": budget + 0.4,
        "steps": 1000 * budget,
        "gap": gap,
        "gap_ci": [gap - 0.03, gap + 0.03],
        "points_gap": 1.5,
        "points_gap_ci": [0.5, 2.5],
    }


def test_a_cell_on_another_reward_is_set_aside_and_shown(calibration):
    cells = {
        "exact:random": {
            "target": "random",
            "nash_conv": 0.3,
            "gains": [0.1, 0.1, 0.1],
            "mean_gain": 0.1,
            "cpu_seconds": 5.0,
        },
        "learned:random:20": _learned("random", "dense", -0.05, 20),
        "learned:random:80": _learned("random", calibration.BR_REWARD, 0.08, 80),
    }
    calibration.set_aside_other_rewards(cells)
    assert "learned:random:20" not in cells, "the plan must measure the cell anew"
    assert cells["dense:learned:random:20"]["gap"] == -0.05
    assert "learned:random:80" in cells, "a cell on the judged reward stays"

    page = calibration.report({"variants": {"wizard_small": cells}, "settings": {"budgets": [80]}})
    table = page.split("## How it was made")[0]
    row = "| wizard_small | random | 80 | 80,000 | 0.080 [0.050, 0.110] | 0.100 | 80% [50, 110] |"
    assert row in table
    aside = "| wizard_small | random | 20 | `dense` | -0.050 [-0.080, -0.020] | 1.50 [0.50, 2.50] |"
    assert aside in table
