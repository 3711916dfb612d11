"""--duplicate in benchmarks/strength.py and benchmarks/leaderboard.py (issue #48): whole boards,
the paired statistics kept with the run, a duplicate run continued as one."""

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHEAP = ["--spec-for", "gobig=ismcts:ismcts:2", "--spec-for", "gobig=zoo:heuristic"]


def load_script(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_strength_with_duplicate_boards(tmp_path):
    strength = load_script("strength")
    argv = ["--envs", "gobig", "--skip", "ismcts", "--batch", "3", "--min-games", "4",
            "--max-games", "5", "--workers", "1", "--players-for", "gobig_v0=2", "--duplicate",
            "--out", str(tmp_path)]  # fmt: skip
    assert strength.main(argv) == 0
    (row,) = json.loads((tmp_path / "strength.json").read_text())["rows"]
    assert row["duplicate"] and row["games"] == 4  # boards of 2: 5 games rounds down to 4
    assert row["paired"]["boards"] == 2 and row["paired"]["pairs"][0]["games"] == 4


def test_leaderboard_duplicate_run_plays_and_continues_whole_boards(tmp_path):
    lb = load_script("leaderboard")
    base = ["--envs", "gobig", "--batch", "3", "--workers", "1", "--seating", "rotate",
            "--duplicate", "--out", str(tmp_path), *CHEAP]  # fmt: skip
    assert lb.main(base + ["--games", "4"]) == 0
    first = json.loads((tmp_path / "leaderboard.json").read_text())["envs"]["gobig_v0"]
    assert first["duplicate"] and [r["board"] for r in first["records"]] == [0, 0, 0, 0]
    assert len({r["seed"] for r in first["records"]}) == 1
    assert first["paired"]["boards"] == 1
    assert lb.main(base + ["--games", "8"]) == 0
    res = json.loads((tmp_path / "leaderboard.json").read_text())["envs"]["gobig_v0"]
    assert res["records"][:4] == first["records"]
    assert [r["board"] for r in res["records"]] == [0] * 4 + [1] * 4
    assert res["paired"]["boards"] == 2 and len(res["paired"]["agents"]) == 4
    plain = ["--envs", "gobig", "--games", "4", "--workers", "1", "--seating", "rotate",
             "--out", str(tmp_path / "plain"), *CHEAP]  # fmt: skip
    assert lb.main(plain) == 0
    with pytest.raises(SystemExit, match="duplicate"):  # a plain run is not continued as boards
        lb.main([*plain[:-4], "--duplicate", "--games", "8", *CHEAP])


def test_duplicate_measurement_script_on_a_trial_budget(tmp_path):
    dup = load_script("duplicate")
    argv = ["--games", "20", "--envs", "gobig_v0", "--skip", "separation", "--workers", "1",
            "--out", str(tmp_path)]  # fmt: skip
    assert dup.main(argv) == 0
    data = json.loads((tmp_path / "duplicate.json").read_text())
    (row,) = data["rows"]
    assert data["meta"]["trial"] and row["games"] == 20
    assert row["unpaired"]["pair"]["boards"] == 20 and row["duplicate"]["pair"]["boards"] == 5
    assert row["half_width_ratio"] > 0 and data["simulation"]["runs"] == 100
    md = (tmp_path / "duplicate.md").read_text()
    assert "Trial run" in md and "| gobig_v0 | 20 |" in md and "falsely separated" in md
    with pytest.raises(SystemExit):
        dup.main(["--games", "6", "--out", str(tmp_path)])  # not whole boards of 4
