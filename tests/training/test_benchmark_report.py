"""benchmarks/training.py writes its report and learning curves from the results JSON."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "training.py"


def load_script():
    spec = importlib.util.spec_from_file_location("bench_training", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_report_and_curves(tmp_path, monkeypatch):
    bench = load_script()
    monkeypatch.setattr(bench, "RESULTS", tmp_path)
    monkeypatch.setattr(bench, "JSON_PATH", tmp_path / "training.json")

    def row(step, opp, share, lo, hi, games=100):
        return {
            "step": step,
            "opponent": opp,
            "games": games,
            "win_share": share,
            "ci_low": lo,
            "ci_high": hi,
            "uniform": 0.25,
            "abandoned": 0,
        }

    final = [row(2048, "random", 0.6, 0.5, 0.69, 400), row(2048, "heuristic", 0.2, 0.16, 0.24, 400)]
    summary = {
        "game": "gobig",
        "num_players": 4,
        "steps": 2048,
        "train_seconds": 2.0,
        "steps_per_second": 1024.0,
        "train_cpu_seconds": 1.0,
        "steps_per_cpu_second": 2048.0,
        "load_average": [3.0, 2.0, 1.0],
        "load_average_start": [2.5, 2.0, 1.0],
        "final_eval": final,
        "curve": [
            row(1024, "random", 0.3, 0.2, 0.4),
            row(1024, "heuristic", 0.1, 0.05, 0.2),
            *final,
        ],
        "config": {"game_options": {}, "reward": "win"},
    }
    bench.save_results(
        {
            "games": {"gobig": summary},
            "throughput": [
                {
                    "vec_env": "dummy",
                    "n_envs": 16,
                    "torch_threads": 1,
                    "steps": 2048,
                    "seconds": 1.0,
                    "steps_per_second": 2048.0,
                    "steps_per_cpu_second": 2100.0,
                    "load_average": [1.0, 1.0],
                }
            ],
        }
    )
    md = (tmp_path / "training.md").read_text()
    assert (
        "| gobig | 4 | - | win | 2,048 | 1 | 0.600 [0.500, 0.690] **>1/P** "
        "| 0.200 [0.160, 0.240] | 400 |" in md
    )
    assert "| gobig | - | - | - | 2 | 1024 | 2048 | 2.5 / 3.0 |" in md  # its cost
    assert "![learning curve of gobig](training.gobig.png)" in md
    assert "| dummy | 16 | 1 | 2,048 | 1.0 | 2048 | 2100 | 1.0 / 1.0 |" in md
    # with behaviour cloning: its seconds, accuracies, the cloned policy's win share, BC + PPO CPU
    # seconds
    summary.update(
        pretrain={
            "seconds": 30.4,
            "accuracy": 0.9,
            "choice_accuracy": 0.81,
            "cpu_seconds": 29.0,
            "eval": [row(0, "heuristic", 0.22, 0.18, 0.27, 200)],
        },
        budget_cpu_seconds=30.0,
    )
    bench.save_results({"games": {"gobig": summary}, "notes": ["a note on how a row was obtained"]})
    md = (tmp_path / "training.md").read_text()
    assert "## Lab notes\n\n### MaskablePPO\n\n* a note on how a row was obtained\n" in md
    assert "| gobig | 4 | - | win | 2,048 | 30 | " in md
    assert "| gobig | 30 | 0.900 / 0.810 | 0.220 [0.180, 0.270] | 2 | 1024 | 2048 | " in md
    assert (tmp_path / "training.gobig.png").stat().st_size > 1000
