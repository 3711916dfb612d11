"""A throw-away sixth game, copied into a temporary folder by ``test_registry.py``.

Tiny (``tests/core/tiny/``, the folder as docs/adding-a-game.md lists it): 2-3 players are dealt
four cards each from eighteen, play one a turn, and the highest total wins. Small, but with hidden
cards, so every piece of the protocol (determinize included) means something, and with every
optional file a game may have but a heuristic and a zoo policy: a saved-state check
(``saved.py``), a batched engine (``batched.py``), the viewer's scene (``scene.py``) and the facts
the generic suites need (``testing.py``). It is a good template.

``CHECK`` runs in a fresh interpreter and makes the tools use it (PettingZoo, Gymnasium, the
arena, the conformance harness, the playthroughs); ``SUITES`` runs the registry-parametrised test
suites on it, its cases only (``-k tiny``), and prints what each test did.
"""

from __future__ import annotations

import shutil
from pathlib import Path

FOLDER = Path(__file__).with_name("tiny")
FILES = {p.name: p.read_text() for p in sorted(FOLDER.glob("*.py"))}  # file name -> its text


def write_game(games: Path) -> Path:
    """Copy Tiny into ``games/tiny`` (a folder that a fresh interpreter adds to deckzoo.envs)."""
    return Path(
        shutil.copytree(FOLDER, games / "tiny", ignore=shutil.ignore_patterns("__pycache__"))
    )


# Run with argv [folder holding tiny/, a repository root for playthroughs]: the folder joins
# deckzoo/envs as a game folder would, then every tool must know the game.
CHECK = """
import sys
from pathlib import Path

import deckzoo.envs as E

E.__path__.append(sys.argv[1])
assert "tiny" in E.registry.games() and "tiny_v0" in E.registry.env_names()

import gymnasium
import numpy as np
import pettingzoo
from pettingzoo.test import api_test

import deckzoo.training  # registers the Gymnasium ids
from deckzoo.agents.evaluation.arena import run_arena
from deckzoo.agents.evaluation.config import ArenaConfig
from deckzoo.agents.batched import batched_specs
from deckzoo.agents.registry import has_heuristic
from deckzoo.envs import playthrough, vector
from deckzoo.envs.core.conformance import check_determinism, check_random_play

api_test(pettingzoo.make("aec", "deckzoo/tiny-v0", num_players=3), num_cycles=50)
from deckzoo.envs import tiny_v0
env = tiny_v0.env(render_mode="ansi")
env.reset(seed=1)
assert env.metadata["name"] == "tiny_v0" and "player_0" in env.render()

genv = gymnasium.make("deckzoo/Tiny-v0", opponents="random")
obs, info = genv.reset(seed=0)
done = False
while not done:
    action = int(np.flatnonzero(genv.unwrapped.action_masks())[0])
    obs, reward, term, trunc, info = genv.step(action)
    done = term or trunc
assert term and -1 <= reward <= 1

res = run_arena(ArenaConfig("tiny", ["a=random", "b=random"], games=4, players=2, seed=3))
assert len(res.records) == 4
assert not has_heuristic("tiny") and batched_specs("tiny") == []

game = E.game_class("tiny_v0")(num_players=3)
check_random_play(game, num_games=5, seed=0, deep_every=1)
check_determinism(game, seed=0)
assert "tiny_v0" in vector.available()

root = Path(sys.argv[2])
paths = playthrough.regenerate(root, ["tiny"])
assert [p.relative_to(root).as_posix() for p in paths] == [
    "tests/tiny/playthroughs/num_players=2.txt", "tests/tiny/playthroughs/num_players=3.txt"]
for p in paths:
    text = p.read_text()
    assert playthrough.replay(text) == text and "env: tiny_v0" in text and "obs[1] hand:" in text
print("sixth game ok")
"""

# The registry-parametrised suites, run on Tiny's cases only, and those of them the issue named
# (each must pass on it). Left out: the checks of a game's own files outside envs/<game>/ (its
# rules page, its golden playthroughs: docs/adding-a-game.md lists them, and CHECK writes and
# replays the playthroughs in a scratch repository) and tests/training (a training config per
# game, configs/<game>.yaml).
SUITE_PATHS = [
    "tests/core",
    "tests/vector",
    "tests/viewer",
    "tests/agents",
    "tests/training",
    # its training config would live in the repository's configs/, outside its folder, as its
    # rules page and golden playthroughs would (checked by test_docs and test_playthroughs)
    "--deselect=tests/training/test_config.py::test_shipped_configs_load[tiny]",
    "--ignore=tests/core/test_docs.py",
    "--ignore=tests/core/test_playthroughs.py",
]
MUST_PASS = [
    "tests/core/test_envs.py",
    "tests/core/test_saved_states.py",
    "tests/vector/test_api.py",
    "tests/vector/test_differential.py",
    "tests/vector/test_information.py",
    "tests/vector/test_gym.py",
    "tests/viewer/test_scenes.py",
    "tests/agents/test_legal_play.py",
    "tests/training/test_env.py",
    "tests/training/test_train.py",
    "tests/training/test_vector_ppo.py",
]

# Run in the repository root with argv [folder holding tiny/, *SUITE_PATHS]; prints one JSON line
# after OUTCOMES: {test id: [outcome, skip reason]} for every test that ran.
SUITES = """
import json
import sys

import deckzoo.envs as E

E.__path__.append(sys.argv[1])

import pytest


class Outcomes:
    def __init__(self):
        self.seen = {}

    def pytest_runtest_logreport(self, report):
        if report.when == "call" or report.outcome != "passed":
            reason = report.longrepr[2] if report.skipped else ""
            self.seen.setdefault(report.nodeid, [report.outcome, reason])


outcomes = Outcomes()
code = pytest.main(["-q", "-p", "no:cacheprovider", "-k", "tiny", *sys.argv[2:]],
                   plugins=[outcomes])
print("OUTCOMES" + json.dumps(outcomes.seen))
sys.exit(code)
"""
