"""Replays every golden playthrough and diffs it; fails if a configured playthrough is missing."""

import inspect
from pathlib import Path

import pytest

import deckzoo.envs as E
from deckzoo.envs.playthrough import config_filename, parse, playthrough_dir, replay

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(ROOT.glob("tests/*/playthroughs/*.txt"))


@pytest.mark.parametrize("name", E.registry.env_names())
def test_every_env_has_its_playthroughs(name):
    configs = E.registry.playthrough_configs(name)
    assert configs, f"{name} declares no PLAYTHROUGH_CONFIGS in its env.py"
    for config in configs:
        path = playthrough_dir(ROOT, name) / config_filename(config)
        assert path.exists(), f"missing playthrough for {name} {config}; run make playthroughs"


def test_every_playthrough_folder_belongs_to_a_game():
    """A game that leaves the registry (a broken or renamed folder) must not leave its
    playthroughs untested."""
    games = set(E.registry.games())
    assert {p.parent.parent.name for p in FILES} <= games


def bump_hint(env_name: str) -> str:
    game = E.game_class(env_name)
    return (
        f"If the behaviour change is intended, bump {game.__name__}.version in "
        f"{inspect.getsourcefile(game)} (now {game.version}: {game.env_name()} becomes "
        f"{game.name}_v{game.version + 1}) and run `make playthroughs`."
    )


def difference(name: str, text: str) -> str | None:
    """None if ``text`` replays identically, else the first differing line and what to do."""
    again = replay(text)
    if again == text:
        return None
    old, new = text.splitlines(), again.splitlines()
    first = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
    was, now = (lines[first] if first < len(lines) else "<end>" for lines in (old, new))
    return f"{name} differs from line {first + 1}:\n  file:   {was}\n  replay: {now}\n" + bump_hint(
        parse(text)[0]
    )


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.parent.name}/{p.name}" for p in FILES])
def test_playthrough_replays_identically(path):
    problem = difference(path.name, path.read_text())
    if problem:
        pytest.fail(problem)


def test_a_differing_playthrough_names_the_version_to_bump():
    path = next(p for p in FILES if p.parent.parent.name == "gobig")
    text = path.read_text().replace("max_game_length: ", "max_game_length: 1", 1)
    problem = difference(path.name, text)
    assert "bump GoBigGame.version in " in problem
    assert "envs/gobig/rules.py (now 0: gobig_v0 becomes gobig_v1)" in problem
