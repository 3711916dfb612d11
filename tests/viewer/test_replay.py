"""Replay files (agents/tools/replay.py): recorded by the arena, read back, turned into a replay
page."""

from __future__ import annotations

import json
import re

import pytest

from deckzoo.agents.cli import main
from deckzoo.agents.evaluation.arena import run_arena
from deckzoo.agents.evaluation.config import ArenaConfig
from deckzoo.agents.tools.play import replay
from deckzoo.agents.tools.replay import final_state, load_replay, replay_states, write_arena_replays
from deckzoo.agents.tools.viewer.frames import (
    all_scenes,
    last_action,
    legal_list,
    read_frames,
    replay_data,
    scene_module,
    status,
)
from deckzoo.agents.tools.viewer.page import replay_page
from deckzoo.envs import ConfigError

from .helpers import GAME_NAMES, check_reproduces, recorded_game


def test_arena_keeps_the_first_games_of_each_pairing(tmp_path):
    # Three agents at two seats: three pairings (tables), each rotated over two seatings.
    cfg = ArenaConfig(
        "gobig", ["heuristic", "random", "r2=random"], games=12, players=2, seed=4, save_games=2
    )
    result = run_arena(cfg)
    kept = [r["index"] for r in result.records if "actions" in r]
    assert kept == [0, 1, 2, 3, 4, 5]  # games 6-11 play the same pairings again
    paths = write_arena_replays(result, tmp_path)
    assert [p.name for p in paths] == [f"gobig-{i:05d}.json" for i in kept]
    assert all("actions" not in r for r in result.records)
    assert [r.get("replay") for r in result.records[:7]] == [p.name for p in paths] + [None]
    for path, rec in zip(paths, result.records):
        replay = load_replay(path)
        assert replay["seats"] == rec["specs"] and replay["labels"] == rec["seats"]
        check_reproduces(replay)  # the agents' own moves come out again from their seeds
        assert replay["scores"] == rec["scores"] and len(replay["actions"]) == rec["steps"]
    # kept games play one at a time (their agents' moves reproduce from their seeds), so with
    # random agents keeping them changes nothing only where every game plays one at a time
    assert result.engine == "batched"
    scalar = {**cfg.__dict__, "engine": "scalar"}
    kept = run_arena(ArenaConfig(**scalar))

    def key(rs):
        return [(r["seed"], r["scores"], r["steps"]) for r in rs[:6]]

    assert key(kept.records) == key(result.records)
    plain = run_arena(ArenaConfig(**{**scalar, "save_games": 0}))
    assert [r["scores"] for r in plain.records] == [r["scores"] for r in kept.records]


def test_arena_cli_saves_replays_that_play_and_replay_read(tmp_path):
    out = tmp_path / "arena"
    assert (
        main(
            [
                "arena",
                "wizard",
                "--agents",
                "heuristic,random",
                "--games",
                "3",
                "--players",
                "3",
                "--option",
                "num_rounds=2",
                "--workers",
                "1",
                "--no-progress",
                "--save-games",
                "1",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    files = sorted((out / "replays").iterdir())
    assert [f.name for f in files] == ["wizard-00000.json"]
    games = json.loads((out / "games.json").read_text())["records"]
    assert games[0]["replay"] == "wizard-00000.json" and "actions" not in games[0]
    lines = []  # `deckzoo play --replay FILE` steps through it ("a": to the end)
    assert replay(files[0], input_fn=lambda _: "a", out=lines.append) == len(
        load_replay(files[0])["actions"]
    )
    html = tmp_path / "w.html"
    assert main(["replay", str(files[0]), "--html", str(html)]) == 0
    assert "wizard" in html.read_text()


def test_replay_page_is_self_contained(tmp_path):
    page = replay_page(recorded_game("bigwig", players=3))
    assert not re.search(r"https?://", page)  # nothing fetched from anywhere
    assert not re.search(r"<(link|img|iframe)\b|\ssrc=|@import|url\(", page)
    assert "default-src 'none'" in page  # and the page forbids it
    data = page.split('id="replay-data">', 1)[1].split("</script>", 1)[0]
    assert "<" not in data  # the embedded JSON cannot close its element


def engine_frames(record: dict) -> list[dict]:
    """The frames of ``record`` built straight from the engine, every scene whole (as JSON)."""
    mod = scene_module(record["game"])
    frames, last = [], None
    for step, (state, action) in enumerate(replay_states(record)):
        scenes = all_scenes(mod, state)
        legal = [list(pair) for pair in legal_list(state)]
        round_ = scenes[0].get("round", "")
        frames.append(
            {
                "step": step,
                "last": last,
                "legal": legal,
                "round": round_,
                **status(state),
                "scenes": scenes,
            }
        )
        if action is not None:
            last = last_action(mod, state, action)
    return json.loads(json.dumps(frames))


@pytest.mark.parametrize("game_name", GAME_NAMES)
def test_the_compact_record_rebuilds_every_frame(game_name):
    # What the page reads (the record through JSON) gives back every observer's whole scene.
    record = recorded_game(game_name, players=3)
    data = json.loads(json.dumps(replay_data(record)))
    assert read_frames(data) == engine_frames(record)
    assert data["seats"] == [f"player_{p} ({record['seats'][p]})" for p in range(3)]
    assert data["finished"] and data["observers"] == 4
    for name in ("card", "zone", "seat"):  # each distinct value stored once
        rows = [json.dumps(r) for r in data["tables"][name]["rows"]]
        assert len(set(rows)) == len(rows)
    changed = [len(change) // 2 for change in data["frames"][1:]]
    assert max(changed) < len(data["slots"])  # a later frame names only what changed


def test_frames_follow_the_engine():
    record = recorded_game("bignumber", players=3)
    frames = read_frames(replay_data(record))
    assert len(frames) == len(record["actions"]) + 1
    for (state, action), frame in zip(replay_states(record), frames):
        legal = [[int(a), state.action_name(int(a))] for a in state.legal_actions()]
        assert frame["legal"] == legal
        assert frame["scores"] == state.scores().tolist() and frame["actor"] == state.current_player
        nxt = frames[frame["step"] + 1] if action is not None else None
        if nxt is not None:
            assert nxt["last"] == {
                "seat": state.current_player,
                "id": action,
                "name": state.action_name(action),
                "public": None,
            }
    assert frames[-1]["over"] and frames[-1]["winners"] == record["winners"]


def test_a_whole_midgard_game_makes_a_small_page():
    # The longest game at its full length and four seats: under 1 MB (7 MB with whole frames).
    record = recorded_game("midgard", players=4, options={})
    assert record["finished"] and len(record["actions"]) > 500
    assert len(replay_page(record).encode("utf-8")) < 1_000_000


def test_secret_moves_keep_their_public_text():
    record = recorded_game("bigwig", players=3)
    frames = read_frames(replay_data(record))
    commits = [f["last"] for f in frames[1:] if f["last"]["name"].startswith("play ")]
    assert commits and all(m["public"] == "a card is played face down" for m in commits)


@pytest.mark.parametrize(
    "content,why",
    [
        ("{", "is not JSON"),
        ("[]", "a replay is a JSON object"),
        ('{"game": "gobig", "config": {}}', "missing key"),
        (
            '{"game": "gobig", "config": {}, "seed": 1, "actions": ["x"]}',
            "'actions' must be a list",
        ),
    ],
)
def test_bad_replay_files_are_named(tmp_path, content, why):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ConfigError, match=why):
        load_replay(path)


def test_an_illegal_recorded_action_names_its_step(capsys, tmp_path):
    record = recorded_game("gobig", players=2)
    record["actions"][3] = 10**6
    with pytest.raises(ConfigError, match="replay step 3: illegal action"):
        final_state(record)
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path), "--html", str(tmp_path / "r.html")]) == 2
    assert "replay step 3" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
