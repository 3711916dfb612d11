"""Every user error of ``deckzoo demo|arena|play`` is one line on stderr and exit status 2 naming
the bad value, never a traceback (main(argv) in-process); help texts stand on their own."""

from __future__ import annotations

import argparse
import json
import re

import pytest

from deckzoo.agents.cli import build_parser
from deckzoo.envs.core.errors import ConfigError

from .helpers import one_line
from .helpers import run_cli as run


# ---- seeds and counts ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "argv,needles",
    [
        (["demo", "--seed", "-1"], ["--seed", "-1"]),
        (["demo", "--seed", "abc"], ["--seed", "'abc'"]),
        (["demo", "--games", "0"], ["--games", "at least 1, got 0"]),
        (["demo", "--games", "-3"], ["--games", "got -3"]),
        (["arena", "gobig", "--agents", "random", "--seed", "-1"], ["--seed", "-1"]),
        (["arena", "gobig", "--agents", "random", "--games", "0"], ["--games"]),
        (["arena", "gobig", "--agents", "random", "--workers", "0"], ["--workers"]),
        (["play", "gobig", "--seed", "-1", "--no-save"], ["--seed", "-1"]),
        (["play", "gobig", "--seed", str(2**63), "--no-save"], ["--seed"]),
        (["play", "gobig", "--seat", "-2", "--no-save"], ["--seat"]),
        (["play", "gobig", "--option", "novalue", "--no-save"], ["--option", "KEY=VALUE"]),
    ],
)
def test_bad_numbers_are_one_line(capsys, argv, needles):
    rc, _, err = run(argv, capsys)
    one_line(rc, err, *needles)


def test_demo_api_rejects_bad_counts():
    from deckzoo.agents.tools.demo import run_demo

    for kw in ({"games_per_env": 0}, {"games_per_env": -3}, {"seed": -1}):
        with pytest.raises(ConfigError):
            run_demo(**kw, out=lambda s: None)


# ---- play --replay -------------------------------------------------------------------------------
def _saved_game(tmp_path, capsys, monkeypatch):
    path = tmp_path / "g.json"
    assert (
        run(
            [
                "play",
                "gobig",
                "--players",
                "2",
                "--seed",
                "3",
                "--save",
                str(path),
                "--opponents",
                "random",
            ],
            capsys,
            stdin="0\n" * 3 + "quit\n",
            monkeypatch=monkeypatch,
        )[0]
        == 0
    )
    return json.loads(path.read_text())


@pytest.mark.parametrize(
    "damage,needle",
    [
        ("missing", "no such file"),
        ("not_json", "is not JSON"),
        ("a_list", "a replay is a JSON object"),
        ("no_actions", "missing key(s) actions"),
        ("no_game", "missing key(s) game"),
        ("seed_str", "'seed' must be a whole number"),
        ("actions_str", "'actions' must be a list"),
        ("illegal", "move 1 (999) cannot be played"),
        ("float_action", "got 1.5 at position 0"),
        ("bad_game", "unknown env"),
        ("bad_config", "num_players"),
        ("bad_seat", "'human_seat'"),
    ],
)
def test_bad_replay_files_are_one_line(tmp_path, capsys, monkeypatch, damage, needle):
    record = _saved_game(tmp_path, capsys, monkeypatch)
    path = tmp_path / "bad.json"
    if damage == "not_json":
        path.write_text("{not json")
    elif damage == "a_list":
        path.write_text("[1, 2]")
    elif damage != "missing":
        changes = {
            "no_actions": ("actions", None),
            "no_game": ("game", None),
            "seed_str": ("seed", "abc"),
            "actions_str": ("actions", "0 1 2"),
            "illegal": ("actions", [999]),
            "float_action": ("actions", [1.5]),
            "bad_game": ("game", "chess"),
            "bad_config": ("config", {"num_players": 42}),
            "bad_seat": ("human_seat", 7),
        }
        key, value = changes[damage]
        if value is None:
            record.pop(key)
        else:
            record[key] = value
        path.write_text(json.dumps(record))
    rc, _, err = run(["play", "--replay", str(path)], capsys, stdin="a\n", monkeypatch=monkeypatch)
    one_line(rc, err, str(path), needle)


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["play", "gobig", "--reveal", "--no-save"], "--reveal only applies to --replay"),
        (["play", "gobig", "--no-save", "--save", "x.json"], "--save and --no-save"),
        (["play"], "give a GAME"),
        (["play", "nogame", "--no-save"], "unknown env"),
    ],
)
def test_contradictory_play_options(capsys, argv, needle):
    rc, _, err = run(argv, capsys)
    one_line(rc, err, needle)


# ---- arena ---------------------------------------------------------------------------------------
ARENA = [
    "arena",
    "gobig",
    "--agents",
    "heuristic,random",
    "--players",
    "2",
    "--workers",
    "1",
    "--no-progress",
]


@pytest.mark.parametrize(
    "agents,needle",
    [
        ("a=random,a=heuristic", "'a' used more than once"),
        ("random,random", "'random' used more than once"),
        ("=random,heuristic", "empty label"),
        ("a=,heuristic", "no spec"),
        ("random,,heuristic", "empty"),
        ("heuristic:3000,random", "'heuristic' takes no options"),
        ("random:foo,heuristic", "'random' takes no options"),
        ("rnd,heuristic", "unknown agent 'rnd'"),
        ("ppo:/no/such/policy.npz,random", "no model file"),
    ],
)
def test_bad_arena_agents_are_one_line_and_come_before_the_note(capsys, agents, needle):
    rc, _, err = run(
        ["arena", "gobig", "--agents", agents, "--games", "3", "--no-progress"], capsys
    )
    one_line(rc, err, needle)  # no "full seat rotation" note before the error


def test_the_rotation_note_follows_validation(capsys, tmp_path):
    rc, _out, err = run([*ARENA, "--games", "3"], capsys)
    assert rc == 0 and "2 games make one full seat rotation; 3 is not a multiple" in err


def test_arena_out_must_not_be_a_file_or_hold_results(capsys, tmp_path):
    base = [*ARENA, "--games", "2"]
    f = tmp_path / "afile"
    f.write_text("x")
    one_line(*run([*base, "--out", str(f)], capsys)[::2], "is a file")
    out = tmp_path / "res"
    assert run([*base, "--out", str(out)], capsys)[0] == 0
    before = (out / "games.json").read_text()
    one_line(
        *run([*base, "--out", str(out), "--seed", "9"], capsys)[::2],
        "already holds results",
        "--force",
    )
    assert (out / "games.json").read_text() == before
    assert run([*base, "--out", str(out), "--seed", "9", "--force"], capsys)[0] == 0
    assert (out / "games.json").read_text() != before
    (tmp_path / "empty").mkdir()
    assert run([*base, "--out", str(tmp_path / "empty")], capsys)[0] == 0  # an empty folder is fine


@pytest.mark.parametrize(
    "engine,player", [("scalar", "play_task"), ("batched", "play_batched_tasks")]
)
def test_ctrl_c_before_the_first_game_exits_130(capsys, monkeypatch, engine, player):
    import deckzoo.agents.evaluation.arena as A

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(A, player, interrupted)
    rc, _out, err = run([*ARENA, "--games", "4", "--engine", engine], capsys)
    assert rc == 130 and "no game finished" in err and "Traceback" not in err


# ---- help ----------------------------------------------------------------------------------------
def _subparsers():
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return parser, sub.choices


def test_help_texts_stand_on_their_own():
    parser, subs = _subparsers()
    assert {"demo", "arena", "play", "train"} <= set(subs)
    for name, p in [("deckzoo", parser), *subs.items()]:
        text = p.format_help()
        assert "``" not in text and "`" not in text, (name, "source markup")
        assert not re.search(r"[\w/]+\.py\b", text), (name, "a source file")
        for ref in ("DESIGN", "RULINGS", "shared/", "docs/"):
            assert ref not in text, (name, ref)
        for action in p._actions:
            assert action.help, (name, action.dest, "has no help line")


def test_arena_help_lists_the_agent_kinds():
    _, subs = _subparsers()
    text = " ".join(subs["arena"].format_help().split())
    for kind in ("random", "heuristic", "ismcts", "ppo:PATH"):
        assert kind in text, kind


def test_a_file_that_is_not_a_policy_is_one_line(capsys, tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("not a policy")
    rc, _, err = run(["arena", "gobig", "--agents", f"ppo:{bad},random", "--games", "2"], capsys)
    one_line(rc, err, str(bad), "not a usable policy file", "export the policy again")
