"""Replays every golden playthrough and diffs it; fails if a configured playthrough is missing."""

from pathlib import Path

import pytest

import deckzoo.envs as E
from deckzoo.envs.core.playthrough import config_filename, parse, replay

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(ROOT.glob("tests/*/playthroughs/*.txt"))


@pytest.mark.parametrize("name", list(E.ENVS))
def test_every_env_has_its_playthroughs(name):
    configs = getattr(E.ENVS[name], "PLAYTHROUGH_CONFIGS", [])
    assert configs, f"{name} declares no PLAYTHROUGH_CONFIGS"
    folder = ROOT / "tests" / E.ENVS[name].Game.name / "playthroughs"
    for config in configs:
        assert (folder / config_filename(config)).exists(), f"missing playthrough for {name} {config}; run make playthroughs"


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.parent.name}/{p.name}" for p in FILES])
def test_playthrough_replays_identically(path):
    text = path.read_text()
    env_name, *_ = parse(text)
    if E._canonical(env_name) not in E.ENVS:
        pytest.skip(f"{env_name} not available")
    again = replay(text)
    if again != text:
        old, new = text.splitlines(), again.splitlines()
        first = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
        pytest.fail(f"{path.name} differs from line {first + 1}:\n  file:   {old[first] if first < len(old) else '<end>'}\n"
                    f"  replay: {new[first] if first < len(new) else '<end>'}\n"
                    "If the behaviour change is intended, run `make playthroughs` and bump the env version.")
