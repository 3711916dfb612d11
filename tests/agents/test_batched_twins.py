"""Batched twins are found by convention (agents/heuristics/<game>_batched.py), and such a module
is never taken for a game of its own."""

from __future__ import annotations

from pathlib import Path

import deckzoo.envs as E
from deckzoo.agents import heuristics
from deckzoo.agents.batched import batched_agent, batched_specs
from deckzoo.agents.heuristics import wizard_batched
from deckzoo.agents.registry import has_heuristic


def test_twins_are_the_batched_heuristic_modules():
    folder = Path(heuristics.__path__[0])
    for game in E.GAMES:
        has_twin = (folder / f"{game}_batched.py").is_file()
        assert batched_specs(game) == (["heuristic"] if has_twin else []), game
    assert batched_agent("heuristic", "wizard") is wizard_batched.decide
    assert batched_agent("random", "wizard") is None  # only the heuristic has twins
    assert batched_agent("heuristic", "nogame") is None


def test_a_twin_module_is_not_a_heuristic_of_its_own():
    assert has_heuristic("wizard") and not has_heuristic("wizard_batched")
    assert not has_heuristic("nogame")
