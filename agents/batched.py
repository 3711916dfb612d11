"""Agents that decide every lane of a batched engine in one call.

``batched_agent(spec, game)`` returns ``decide(engine, lanes, mask, rng) -> actions`` for an agent
spec that has a batched twin, or None. A twin must answer as the scalar agent of the same spec
would in each lane (each twin's tests replay scalar positions through it), so the vector trainer
can seat it in its batched lanes instead of playing those games on the scalar engine
(training/vector_lanes.py): the same games, many times faster. A deterministic agent's twin makes
exactly its moves; where the scalar agent draws a random number (a tie broken at random), the
twin draws from ``rng`` (the lanes' generator) instead: the same choices with the same
probabilities, though not the same draws, since a twin cannot share the scalar agent's generator.

Twins are found by convention, not listed: the twin of a game's heuristic
(``agents/heuristics/<game>.py``) is the function ``decide`` of ``agents/heuristics/
<game>_batched.py``. Adding one: write that module, and test it against the scalar agent on many
positions (e.g. tests/agents/test_heuristic_wizard_batched.py); nothing else lists it.
"""

from __future__ import annotations

from collections.abc import Callable

from .registry import TWIN_SUFFIX, optional_module

# agent spec -> the package whose module ``<game>_batched`` holds that spec's batched twin
_TWIN_PACKAGES = {"heuristic": "deckzoo.agents.heuristics"}


def batched_agent(spec: str, game: str) -> Callable | None:
    """The batched twin of agent ``spec`` in ``game`` (a game name, e.g. ``"wizard"``), or None."""
    package = _TWIN_PACKAGES.get(spec)
    if package is None or not game.isidentifier():
        return None
    module = optional_module(f"{package}.{game}{TWIN_SUFFIX}")
    return None if module is None else module.decide


def batched_specs(game: str) -> list[str]:
    """The agent specs of ``game`` that have a batched twin."""
    return sorted(spec for spec in _TWIN_PACKAGES if batched_agent(spec, game) is not None)


__all__ = ["batched_agent", "batched_specs"]
