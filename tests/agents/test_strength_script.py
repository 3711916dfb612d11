"""benchmarks/strength.py on a tiny budget: it runs, stops at the cap, writes both result files."""

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_script():
    spec = importlib.util.spec_from_file_location("strength", ROOT / "benchmarks" / "strength.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_strength_smoke(tmp_path, capsys):
    strength = load_script()
    rc = strength.main(
        [
            "--envs",
            "gobig",
            "--ismcts",
            "ismcts:2",
            "--batch",
            "4",
            "--min-games",
            "4",
            "--max-games",
            "4",
            "--workers",
            "1",
            "--players-for",
            "gobig_v0=2",
            "--out",
            str(tmp_path),
        ]
    )
    assert rc == 0
    data = json.loads((tmp_path / "strength.json").read_text())
    rows = data["rows"]
    assert [(r["hero"], r["opponent"], r["games"], r["players"]) for r in rows] == [
        ("heuristic", "random", 4, 2),
        ("ismcts:2", "heuristic", 4, 2),
    ]
    for r in rows:
        assert r["verdict"] in ("above", "below", "not separated")
        assert (
            0
            <= r["hero_row"]["ci_low"]
            <= r["hero_row"]["win_share"]
            <= r["hero_row"]["ci_high"]
            <= 1
        )
    md = (tmp_path / "strength.md").read_text()
    assert "| gobig_v0 | 2 | heuristic | random | 4 |" in md and "## Targets" in md
    # a search hero by its name in the table, its settings under it; the method after the results
    assert "| gobig_v0 | 2 | ismcts | heuristic | 4 |" in md and "- gobig_v0: `ismcts:2`" in md
    assert md.index("## Targets") < md.index("## How it was made")


def test_strength_append_replaces_only_what_was_played(tmp_path):
    strength = load_script()
    base = [
        "--envs",
        "gobig",
        "--batch",
        "2",
        "--min-games",
        "2",
        "--max-games",
        "2",
        "--workers",
        "1",
        "--players-for",
        "gobig_v0=2",
        "--out",
        str(tmp_path),
    ]
    strength.main(base + ["--ismcts", "ismcts:2"])
    strength.main(base + ["--ismcts", "ismcts:3", "--skip", "heuristic", "--append"])
    data = json.loads((tmp_path / "strength.json").read_text())
    assert [r["hero"] for r in data["rows"]] == ["heuristic", "ismcts:3"]
    assert "; then " in data["meta"]["command"]
    # Notes: kept by later appending runs, and a notes-only call (no envs) changes nothing else.
    strength.main(
        base + ["--ismcts", "ismcts:2", "--skip", "heuristic", "--append", "--note", "first note"]
    )
    strength.main(["--envs", "", "--out", str(tmp_path), "--append", "--note", "second note"])
    after = json.loads((tmp_path / "strength.json").read_text())
    assert after["meta"]["notes"] == ["first note", "second note"]
    assert [r["hero"] for r in after["rows"]] == ["heuristic", "ismcts:2"]
    assert after["meta"]["command"].count("; then ") == 2  # the notes-only call is not a run
    md = (tmp_path / "strength.md").read_text()
    assert "## Lab notes" in md and "- first note" in md and "- second note" in md
