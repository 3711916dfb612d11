"""The arena: seating, seeding (reproducible, independent of worker count), Ctrl-C, outputs, CLI."""

from __future__ import annotations

import csv
import json

import pytest

from deckzoo.agents.cli import main
from deckzoo.agents.evaluation.arena import run_arena
from deckzoo.agents.evaluation.config import ArenaConfig, parse_agents
from deckzoo.agents.evaluation.report import write_results
from deckzoo.agents.evaluation.tasks import comparable, schedule
from deckzoo.envs import ConfigError


def strip_times(records):
    return [comparable(r) for r in records]


def strip_summary(rows):
    timed = ("sec_per_move", "max_sec_per_move", "cpu_sec_per_move", "max_cpu_sec_per_move")
    return [{k: v for k, v in r.items() if k not in timed} for r in rows]


@pytest.mark.parametrize(
    "agents,players,expected",
    [
        (2, 2, [[0, 1], [1, 0]]),
        (2, 4, [[0, 1, 1, 1], [1, 1, 1, 0], [1, 1, 0, 1], [1, 0, 1, 1]]),
        (3, 3, [[0, 1, 2], [1, 2, 0], [2, 0, 1]]),
        (3, 2, [[0, 1], [1, 0], [0, 2], [2, 0], [1, 2], [2, 1]]),
    ],
)
def test_schedule_rotates_every_agent_through_every_seat(agents, players, expected):
    assert schedule(agents, players) == expected


def test_orders_seating_has_every_agent_follow_every_other_equally_often():
    from collections import Counter

    lineups = schedule(4, 4, "orders")
    assert len(lineups) == 24 and len({tuple(t) for t in lineups}) == 24  # every permutation
    for block in range(0, 24, 4):  # each block of 4 games: every agent in every seat once
        for seat in range(4):
            assert sorted(t[seat] for t in lineups[block : block + 4]) == [0, 1, 2, 3]
    follows = Counter((t[i], t[(i + 1) % 4]) for t in lineups for i in range(4))
    assert set(follows.values()) == {8} and len(follows) == 12  # every ordered pair, 8 times
    assert schedule(4, 4, "orders")[:4] == schedule(4, 4)  # the first order is rotate's
    assert schedule(3, 3, "orders") == [
        [0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [2, 1, 0], [1, 0, 2]
    ]  # fmt: skip
    # a table with repeated agents has fewer distinct orders; two seats leave only one
    assert schedule(2, 4, "orders") == schedule(2, 4)
    assert schedule(3, 2, "orders") == schedule(3, 2)
    with pytest.raises(ConfigError, match="seating"):
        schedule(4, 4, "shuffle")


def test_arena_plays_the_orders_seating():
    cfg = ArenaConfig("gobig", ["a=random", "b=random", "c=random"], games=6, players=3, seed=2)
    res = run_arena(ArenaConfig(**{**cfg.__dict__, "seating": "orders"}))
    assert [r["seats"] for r in res.records][3] == ["a", "c", "b"]
    rotated = run_arena(cfg)
    assert [r["seats"] for r in rotated.records][3] == ["a", "b", "c"]
    with pytest.raises(ConfigError, match="seating"):
        run_arena(ArenaConfig(**{**cfg.__dict__, "seating": "random"}))


def test_parse_agents_labels():
    assert parse_agents(["heuristic", "fast=ismcts:50", "ismcts:9:c=0.5"]) == [
        ("heuristic", "heuristic"),
        ("fast", "ismcts:50"),
        ("ismcts:9:c=0.5", "ismcts:9:c=0.5"),
    ]


def test_reproducible_from_a_seed_and_independent_of_workers():
    cfg = ArenaConfig("gobig", ["heuristic", "random", "ismcts:3"], games=6, players=3, seed=11)
    a = run_arena(cfg)
    b = run_arena(cfg)
    assert strip_times(a.records) == strip_times(b.records)
    assert strip_summary(a.summary) == strip_summary(b.summary)
    assert all(r["decisions"] > 0 and r["sec_per_move"] > 0 for r in a.summary)
    assert all(
        r["max_sec_per_move"] >= r["sec_per_move"] for r in a.summary
    )  # the slowest move bounds the mean
    assert all(r["max_cpu_sec_per_move"] >= r["cpu_sec_per_move"] >= 0 for r in a.summary)
    c = run_arena(ArenaConfig(**{**cfg.__dict__, "workers": 2}))
    assert strip_times(c.records) == strip_times(a.records)
    first = run_arena(ArenaConfig(**{**cfg.__dict__, "games": 2}))
    rest = run_arena(ArenaConfig(**{**cfg.__dict__, "games": 4, "first_game": 2}))
    assert strip_times(first.records + rest.records) == strip_times(a.records)  # batches = one run
    d = run_arena(ArenaConfig(**{**cfg.__dict__, "seed": 12}))
    assert [r["seed"] for r in d.records] != [r["seed"] for r in a.records]
    # Each game is replayable on its own from its record.
    assert [r["index"] for r in a.records] == list(range(6))
    assert [r["seats"] for r in a.records[:3]] == [
        ["heuristic", "random", "ismcts:3"],
        ["random", "ismcts:3", "heuristic"],
        ["ismcts:3", "heuristic", "random"],
    ]


def test_summary_pools_seats_of_one_label():
    res = run_arena(ArenaConfig("gobig", ["heuristic", "random"], games=8, players=4, seed=3))
    rows = {r["agent"]: r for r in res.summary}
    assert rows["heuristic"]["seat_games"] == 8 and rows["random"]["seat_games"] == 24
    total = sum(r["wins"] for r in res.summary)
    assert total == pytest.approx(8)  # one win (possibly shared) per game
    assert rows["heuristic"]["uniform"] == 0.25


class Interrupt:
    def __init__(self, after):
        self.after, self.seen = after, 0

    def __call__(self, record):
        self.seen += 1
        if self.seen == self.after:
            raise KeyboardInterrupt


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_keeps_finished_games(workers, tmp_path):
    cfg = ArenaConfig(
        "gobig", ["heuristic", "random"], games=40, players=2, seed=5, workers=workers
    )
    res = run_arena(cfg, on_record=Interrupt(after=3))
    assert res.interrupted and len(res.records) == 3
    assert sum(r["seat_games"] for r in res.summary) == 3 * 2
    out = write_results(res, tmp_path)
    assert "(interrupted)" in (out / "summary.md").read_text()
    assert json.loads((out / "summary.json").read_text())["games_played"] == 3


def test_sigterm_is_handled_like_ctrl_c():
    import os
    import signal

    def terminate(record, seen=[]):  # noqa: B006 - a counter across calls
        seen.append(record)
        if len(seen) == 2:
            os.kill(os.getpid(), signal.SIGTERM)

    before = signal.getsignal(signal.SIGTERM)
    res = run_arena(
        ArenaConfig("gobig", ["heuristic", "random"], games=40, players=2, seed=5, workers=2),
        on_record=terminate,
    )
    assert res.interrupted and 2 <= len(res.records) < 40
    assert signal.getsignal(signal.SIGTERM) == before  # restored


def test_outputs(tmp_path):
    res = run_arena(ArenaConfig("gobig", ["heuristic", "random"], games=4, players=2, seed=1))
    out = write_results(res, tmp_path / "run")
    with open(out / "games.csv") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 4 and rows[0]["seat_0"] == "heuristic" and rows[1]["seat_0"] == "random"
    games = json.loads((out / "games.json").read_text())
    assert strip_times(games["records"]) == strip_times(res.records)
    md = (out / "summary.md").read_text()
    assert "| heuristic | 4 |" in md and "95% CI" in md
    assert (out / "win_share.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    "kw,match",
    [
        ({"agents": ["nobody"]}, "nobody"),
        ({"games": 0}, "games"),
        ({"workers": 0}, "workers"),
        ({"players": 9}, "num_players"),
        ({"options": {"end_rule": "never"}}, "end_rule"),
    ],
)
def test_bad_configs(kw, match):
    base = {"game": "gobig", "agents": ["random"], "games": 2, "players": 2}
    with pytest.raises(ConfigError, match=match):
        run_arena(ArenaConfig(**{**base, **kw}))


def test_cli(tmp_path, capsys):
    rc = main(
        [
            "arena",
            "gobig",
            "--agents",
            "heuristic,random",
            "--games",
            "4",
            "--players",
            "2",
            "--workers",
            "1",
            "--no-progress",
            "--out",
            str(tmp_path),
            "--option",
            "end_rule=literal",
        ]
    )
    assert rc == 0
    text = capsys.readouterr().out
    assert "heuristic" in text and "random" in text
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["config"]["options"] == {"end_rule": "literal"} and summary["games_played"] == 4
    assert (
        main(["arena", "gobig", "--agents", "heuristic,nobody", "--games", "2", "--no-progress"])
        == 2
    )
    assert "nobody" in capsys.readouterr().err


def test_cli_seating_orders(tmp_path, capsys):
    args = ["arena", "gobig", "--agents", "a=random,b=random,c=random", "--players", "3"]
    args += ["--workers", "1", "--no-progress", "--seating", "orders", "--out", str(tmp_path)]
    assert main(args + ["--games", "4"]) == 0
    assert "6 games make one full cycle of seatings" in capsys.readouterr().err
    games = json.loads((tmp_path / "games.json").read_text())["records"]
    assert [g["seats"] for g in games][3] == ["a", "c", "b"]
