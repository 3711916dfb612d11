"""benchmarks/leaderboard.py on a tiny budget: ratings, pairwise shares, continuation, seeds; and
its sequential bookkeeping (benchmarks/sequential.py): fixed counts, sittings, stops, futility."""

import importlib.util
import json
from pathlib import Path

import pytest

from deckzoo.agents.ladder import LABELS, ismcts_spec, ladder
from deckzoo.agents.registry import make_agent

ROOT = Path(__file__).resolve().parents[2]
# cheap stand-ins for the search and the zoo policy
CHEAP = ["--spec-for", "gobig=ismcts:ismcts:2", "--spec-for", "gobig=zoo:heuristic"]


def load_script(name="leaderboard"):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_game_has_a_ladder():
    import deckzoo.envs as E

    for mod in E.ENVS.values():
        specs = ladder(mod.Game.name)
        assert [label for label, _ in specs] == list(LABELS)
        assert specs[2][1] == ismcts_spec(mod.Game.name) and specs[3][1] == f"zoo:{mod.Game.name}"
        search = make_agent(specs[2][1], mod.Game.name, 0)
        assert search.clock == "cpu" and 0 < search.seconds <= 1.0  # capped at 1 s of CPU


def test_the_strongest_table_names_registered_games_and_defaults_the_rest(monkeypatch):
    """``agents/strongest.py`` is keyed by game name and read under any env name; a game it does
    not list (a new one) searches with ``DEFAULT_ISMCTS``."""
    from deckzoo.agents import strongest
    from deckzoo.envs import registry

    assert set(strongest.STRONGEST_ISMCTS) <= set(registry.games())
    assert ismcts_spec("wizard_v0") == strongest.STRONGEST_ISMCTS["wizard"]
    monkeypatch.delitem(strongest.STRONGEST_ISMCTS, "wizard")
    assert ismcts_spec("wizard") == strongest.DEFAULT_ISMCTS == "ismcts:60:rollout=heuristic"


def test_leaderboard_smoke_and_continuation(tmp_path):
    lb = load_script()
    base = ["--envs", "gobig", "--batch", "4", "--workers", "1", "--out", str(tmp_path), *CHEAP]
    assert lb.main(base + ["--games", "4"]) == 0
    first = json.loads((tmp_path / "leaderboard.json").read_text())["envs"]["gobig_v0"]
    assert len(first["records"]) == 4 and first["seed"] == 0
    assert [r["seats"] for r in first["records"]][:2] == [
        ["random", "heuristic", "ismcts", "zoo"],
        ["heuristic", "ismcts", "zoo", "random"],
    ]
    assert all(isinstance(r["seed"], int) for r in first["records"])
    assert first["seating"] == "orders"
    assert (
        lb.main(base + ["--games", "8"]) == 0
    )  # continues: the first 4 games are kept as they were
    data = json.loads((tmp_path / "leaderboard.json").read_text())
    res = data["envs"]["gobig_v0"]
    assert res["records"][:4] == first["records"] and len(res["records"]) == 8
    # the second block of 4 seats the next order round the table: zoo now before ismcts
    assert res["records"][4]["seats"] == ["random", "heuristic", "zoo", "ismcts"]
    rows = {r["agent"]: r for r in res["rows"]}
    assert set(rows) == set(LABELS)
    for r in rows.values():
        assert r["rating_low"] < r["rating_mu"] < r["rating_high"] and r["seat_games"] == 8
    pair = res["pairwise"]
    for a in LABELS:
        for b in LABELS:
            if a != b:
                assert pair[a][b]["games"] == 8
                assert pair[a][b]["share"] + pair[b][a]["share"] == pytest.approx(1.0)
    assert set(res["separation"]) == {"best", "separated", "complete"}
    assert res["planned"] == 8 and res["separation"]["complete"]
    md = (tmp_path / "leaderboard.md").read_text()
    assert "| gobig_v0 | 8 | orders |" in md and "Pairwise" in md
    assert (tmp_path / "leaderboard.png").stat().st_size > 0
    with pytest.raises(SystemExit, match="fresh"):  # other agents than the recorded games'
        lb.main(["--envs", "gobig", "--games", "8", "--workers", "1", "--out", str(tmp_path)])


def test_separation_needs_disjoint_intervals():
    lb = load_script()

    def row(agent, lo, hi):
        return {"agent": agent, "rating_mu": (lo + hi) / 2, "rating_low": lo, "rating_high": hi}

    rows = [
        row("random", 10, 20),
        row("heuristic", 21, 25),
        row("ismcts", 24, 30),
        row("zoo", 26, 28),
    ]
    assert lb.separated(rows) == {"best": "ismcts", "separated": False}  # 25 > 24: overlap
    rows[2] = row("ismcts", 26, 34)
    assert lb.separated(rows) == {"best": "ismcts", "separated": True}


def test_a_run_in_sittings_keeps_its_fixed_count_and_is_interim_until_it_is_reached(tmp_path):
    lb = load_script()
    base = ["--envs", "gobig", "--batch", "4", "--workers", "1", "--out", str(tmp_path), *CHEAP]
    assert lb.main(base + ["--games", "4"]) == 0
    # a sitting with no time left plays nothing but fixes the count at 12
    assert lb.main(base + ["--games", "12", "--minutes", "0"]) == 0
    res = json.loads((tmp_path / "leaderboard.json").read_text())["envs"]["gobig_v0"]
    assert len(res["records"]) == 4 and res["planned"] == 12
    assert res["separation"]["complete"] is False
    md = (tmp_path / "leaderboard.md").read_text()
    assert "| gobig_v0 | 4 of 12 | orders |" in md and "interim, judged at 12 games; now " in md
    # a later, smaller run cannot lower the fixed count
    assert lb.main(base + ["--games", "8"]) == 0
    res = json.loads((tmp_path / "leaderboard.json").read_text())["envs"]["gobig_v0"]
    assert len(res["records"]) == 8 and res["planned"] == 12
    assert "| gobig_v0 | 8 of 12 | orders |" in (tmp_path / "leaderboard.md").read_text()
    assert lb.main(base + ["--games", "12"]) == 0
    res = json.loads((tmp_path / "leaderboard.json").read_text())["envs"]["gobig_v0"]
    assert len(res["records"]) == 12 and res["separation"]["complete"] is True
    md = (tmp_path / "leaderboard.md").read_text()
    assert "| gobig_v0 | 12 | orders |" in md and "interim" not in md


def test_results_written_before_counts_were_kept_are_complete():
    seq = load_script("sequential")
    assert seq.planned({"records": [{}] * 5}) == 5
    assert seq.planned({"records": [{}] * 5, "planned": 9}) == 9
    assert seq.planned({"records": [{}] * 5, "planned": 3}) == 5


def test_a_run_stopped_short_of_its_count_is_judged_where_it_stopped_and_not_continued(tmp_path):
    lb = load_script()
    base = ["--envs", "gobig", "--batch", "4", "--workers", "1", "--out", str(tmp_path), *CHEAP]
    assert lb.main(base + ["--games", "4"]) == 0
    assert lb.main(base + ["--games", "12", "--minutes", "0"]) == 0  # fixes the count at 12
    assert lb.main(base + ["--stop", "for futility"]) == 0
    res = json.loads((tmp_path / "leaderboard.json").read_text())["envs"]["gobig_v0"]
    assert len(res["records"]) == 4 and res["planned"] == 12
    assert res["stopped"]["games"] == 4 and res["stopped"]["reason"] == "for futility"
    assert res["separation"]["complete"] is True
    md = (tmp_path / "leaderboard.md").read_text()
    assert "| gobig_v0 | 4 (stopped; 12 planned) | orders |" in md
    assert "; stopped: for futility |" in md and "interim" not in md
    with pytest.raises(SystemExit, match="stopped at 4 games"):
        lb.main(base + ["--games", "12"])
    assert lb.main(base + ["--games", "4", "--fresh"]) == 0  # a new run is a new run
    res = json.loads((tmp_path / "leaderboard.json").read_text())["envs"]["gobig_v0"]
    assert "stopped" not in res and len(res["records"]) == 4
    with pytest.raises(SystemExit, match="nothing to stop"):
        lb.main(["--envs", "wizard", "--out", str(tmp_path), "--stop", "for futility"])


def test_an_interrupted_batch_keeps_only_the_games_finished_in_order(tmp_path, monkeypatch):
    """A pool cut short can have finished game 5 but not game 4: the run continues at game
    ``len(records)``, so game 5 is dropped (it is played again, the same game) and the saved
    records stay games 0, 1, 2, ... with none missing or twice."""
    lb = load_script()
    assert [r["index"] for r in lb.finished_in_order([{"index": i} for i in (6, 4, 5, 8)], 4)] == [
        4,
        5,
        6,
    ]
    assert lb.finished_in_order([{"index": 5}], 4) == []
    base = ["--envs", "gobig", "--batch", "4", "--workers", "1", "--out", str(tmp_path), *CHEAP]
    assert lb.main(base + ["--games", "4"]) == 0
    real = lb.run_arena

    def cut_short(cfg):  # the batch of games 4-7 with game 4 unfinished at Ctrl-C
        res = real(cfg)
        res.records = [r for r in res.records if r["index"] != cfg.first_game]
        res.interrupted = True
        return res

    monkeypatch.setattr(lb, "run_arena", cut_short)
    assert lb.main(base + ["--games", "8"]) == 130
    res = json.loads((tmp_path / "leaderboard.json").read_text())["envs"]["gobig_v0"]
    assert [r["index"] for r in res["records"]] == [0, 1, 2, 3]
    monkeypatch.setattr(lb, "run_arena", real)
    assert lb.main(base + ["--games", "8"]) == 0
    res = json.loads((tmp_path / "leaderboard.json").read_text())["envs"]["gobig_v0"]
    assert [r["index"] for r in res["records"]] == list(range(8))


def test_a_run_keeps_its_seating_and_old_runs_rotate(tmp_path):
    """Runs recorded before seatings were chosen have no ``seating`` and rotated one line-up: they
    continue so. Asking a recorded run for another seating needs ``--fresh``."""
    lb = load_script()
    base = ["--envs", "gobig", "--batch", "4", "--workers", "1", "--out", str(tmp_path), *CHEAP]
    assert lb.main(base + ["--games", "4", "--seating", "rotate"]) == 0
    path = tmp_path / "leaderboard.json"
    data = json.loads(path.read_text())
    assert data["envs"]["gobig_v0"]["seating"] == "rotate"
    del data["envs"]["gobig_v0"]["seating"]  # as recorded before this option
    path.write_text(json.dumps(data))
    assert lb.main(base + ["--games", "8"]) == 0
    res = json.loads(path.read_text())["envs"]["gobig_v0"]
    assert [r["seats"] for r in res["records"][4:]] == [r["seats"] for r in res["records"][:4]]
    assert "| gobig_v0 | 8 | rotate |" in (tmp_path / "leaderboard.md").read_text()
    with pytest.raises(SystemExit, match="seating"):
        lb.main(base + ["--games", "12", "--seating", "orders"])


def _ordered_games(n, order):
    """Synthetic records in which the agents always finish in ``order``, best first."""
    labels = ["random", "heuristic", "ismcts", "zoo"]
    recs = []
    for i in range(n):
        seats = labels[i % 4 :] + labels[: i % 4]
        scores = [float(len(order) - order.index(a)) for a in seats]
        recs.append(
            {"index": i, "seats": seats, "scores": scores, "winners": [seats.index(order[0])]}
        )
    return recs


def test_futility_resamples_the_recorded_games_reproducibly():
    lb = load_script()
    clear = _ordered_games(12, ["zoo", "ismcts", "heuristic", "random"])
    check = lb.futility(clear, 1, games=60, resamples=3, seed=5, orders=2)
    assert (check["separated"], check["share"], check["games_recorded"]) == (3, 1.0, 12)
    assert (check["resampled_to"], check["resamples"], check["orders"], check["seed"]) == (
        60,
        3,
        2,
        5,
    )
    # the heuristic ahead of the search in every game: random < heuristic < best never holds
    wrong = _ordered_games(12, ["heuristic", "zoo", "ismcts", "random"])
    assert lb.futility(wrong, 1, games=60, resamples=3, seed=5, orders=2)["share"] == 0.0
    # a coin-flip table: the same seed draws the same samples, so the same share
    mixed = _ordered_games(6, ["zoo", "ismcts", "heuristic", "random"]) + [
        dict(r, index=6 + r["index"]) for r in wrong[:6]
    ]
    a = lb.futility(mixed, 1, games=16, resamples=6, seed=1, orders=2)
    b = lb.futility(mixed, 1, games=16, resamples=6, seed=1, orders=2)
    assert {k: v for k, v in a.items() if k != "date"} == {
        k: v for k, v in b.items() if k != "date"
    }
    with pytest.raises(ValueError, match="no games recorded"):
        lb.futility([], 1, games=10)
    with pytest.raises(ValueError, match="resamples and orders >= 1, got 10, 0, 8"):
        lb.futility(clear, 1, games=10, resamples=0)


def test_futility_asks_its_judge_of_renumbered_resamples():
    """``sequential.futility`` knows nothing of ratings: it hands each resample, renumbered from
    0 (the ratings order games by index), to the judge it is given and counts the yeses."""
    seq = load_script("sequential")
    seen = []

    def judge(sample, orders):
        seen.append(([r["index"] for r in sample], orders))
        return all(r["good"] for r in sample)

    records = [{"index": 7, "good": True}, {"index": 9, "good": False}]
    check = seq.futility(records, 3, judge, resamples=50, seed=2, orders=4)
    assert seen == [([0, 1, 2], 4)] * 50
    assert 0 < check["separated"] < 50 and check["share"] == check["separated"] / 50
    assert seq.futility(records[:1], 3, judge, resamples=5)["share"] == 1.0


def test_the_futility_option_plays_nothing_and_keeps_each_check(tmp_path):
    lb = load_script()
    base = ["--envs", "gobig", "--batch", "4", "--workers", "1", "--out", str(tmp_path), *CHEAP]
    assert lb.main(base + ["--games", "4"]) == 0
    before = json.loads((tmp_path / "leaderboard.json").read_text())["envs"]["gobig_v0"]
    check = ["--futility", "12", "--resamples", "3", "--resample-orders", "2"]
    assert lb.main(base + check + ["--resample-seed", "9"]) == 0
    assert lb.main(base + check) == 0
    res = json.loads((tmp_path / "leaderboard.json").read_text())["envs"]["gobig_v0"]
    assert res["records"] == before["records"] and "stopped" not in res
    assert [(f["games_recorded"], f["resampled_to"], f["seed"]) for f in res["futility"]] == [
        (4, 12, 9),
        (4, 12, 0),
    ]
    md = (tmp_path / "leaderboard.md").read_text()
    assert "from 4 games to 12, 3 resamples (2 rating orders each, generator seed 9)" in md
    with pytest.raises(SystemExit, match="nothing to resample"):
        lb.main(["--envs", "wizard", "--out", str(tmp_path), "--futility", "12"])
    with pytest.raises(SystemExit, match="--futility: futility needs"):
        lb.main(base + ["--futility", "0"])
    with pytest.raises(SystemExit):
        lb.main(base + ["--futility", "12", "--stop", "for futility"])


def test_a_run_whose_policy_file_changed_is_not_continued(tmp_path):
    """``zoo:gobig`` names a policy by game only: after the zoo replaced it, continuing the
    recorded games would mix two policies under one label, so the run records each policy file's
    hash and refuses (``--fresh`` starts again); runs recorded before the hashes continue."""
    import argparse

    from deckzoo.agents.ladder import ladder

    lb = load_script()
    specs = ladder("gobig")
    files = lb.policy_files(specs, "gobig")
    assert list(files) == ["zoo:gobig"] and len(files["zoo:gobig"]) == 64
    args = argparse.Namespace(fresh=False, seed=0, seating=None, duplicate=False)
    recorded = {"specs": [list(s) for s in specs], "seed": 0, "seating": "orders", "records": [{}]}
    data = {"envs": {"gobig_v0": dict(recorded, files=files)}}
    assert lb.open_run(data, "gobig_v0", specs, args) is data["envs"]["gobig_v0"]
    data = {"envs": {"gobig_v0": dict(recorded)}}  # no hashes kept: continued as before
    assert lb.open_run(data, "gobig_v0", specs, args) is data["envs"]["gobig_v0"]
    data = {"envs": {"gobig_v0": dict(recorded, files={"zoo:gobig": "0" * 64})}}
    with pytest.raises(SystemExit, match="zoo:gobig.*changed.*--fresh"):
        lb.open_run(data, "gobig_v0", specs, args)
    fresh = lb.open_run(
        data, "gobig_v0", specs, argparse.Namespace(**{**vars(args), "fresh": True})
    )
    assert fresh["records"] == [] and fresh["files"] == files
    # a search with the zoo policy as its prior reads the file too; ppo:PATH reads PATH
    policy = tmp_path / "p.npz"
    policy.write_bytes(b"x")
    assert set(
        lb.policy_files([("s", "ismcts:9:prior=zoo:bias=1"), ("p", f"ppo:{policy}")], "gobig")
    ) == {"zoo:gobig", str(policy)}


def test_a_run_of_an_earlier_game_version_is_kept_as_recorded(tmp_path):
    """The page keeps runs of versions the registry no longer knows (bigwig_v0 beside today's
    bigwig_v1): saving after another game's games must not try to summarise them again."""
    import deckzoo.envs as E

    lb = load_script()
    base = ["--envs", "gobig", "--batch", "4", "--workers", "1", "--out", str(tmp_path), *CHEAP]
    assert lb.main(base + ["--games", "4"]) == 0
    path = tmp_path / "leaderboard.json"
    data = json.loads(path.read_text())
    assert "bigwig_v0" not in E.ENVS
    data["envs"] = {"bigwig_v0": data["envs"].pop("gobig_v0")}  # stands for a retired run
    path.write_text(json.dumps(data))
    assert lb.main(base + ["--games", "4"]) == 0
    after = json.loads(path.read_text())["envs"]
    assert len(after["gobig_v0"]["records"]) == 4
    assert after["bigwig_v0"] == data["envs"]["bigwig_v0"]
    md = (tmp_path / "leaderboard.md").read_text()
    assert "| gobig_v0 | 4 |" in md and "†" in md
