"""Agents that decide every lane of a batched engine in one call.

``batched_agent(spec, game)`` returns ``decide(engine, lanes, mask, rng) -> actions`` for an agent
spec that has a batched twin, or None. A twin must answer as the scalar agent of the same spec
would in each lane (each twin's tests replay scalar positions through it), so the vector trainer
can seat it in its batched lanes instead of playing those games on the scalar engine
(training/vector_lanes.py): the same games, many times faster. A deterministic agent's twin makes
exactly its moves; where the scalar agent draws a random number (a tie broken at random), the
twin draws from ``rng`` (the lanes' generator) instead: the same choices with the same
probabilities, though not the same draws, since a twin cannot share the scalar agent's generator.

Adding one: write ``decide`` next to the scalar agent (e.g. ``heuristics/wizard_batched.py``),
test it against the scalar agent on many positions, and list it in ``_TWINS``.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

# (game name, agent spec) -> "module:function", imported on first use
_TWINS = {
    ("wizard", "heuristic"): "deckzoo.agents.heuristics.wizard_batched:decide",
    ("bignumber", "heuristic"): "deckzoo.agents.heuristics.bignumber_batched:decide",
    ("gobig", "heuristic"): "deckzoo.agents.heuristics.gobig_batched:decide",
}


def batched_agent(spec: str, game: str) -> Callable | None:
    """The batched twin of agent ``spec`` in ``game`` (a game name, e.g. ``"wizard"``), or None."""
    target = _TWINS.get((game, spec))
    if target is None:
        return None
    module, name = target.split(":")
    return getattr(import_module(module), name)


def batched_specs(game: str) -> list[str]:
    """The agent specs of ``game`` that have a batched twin."""
    return sorted(spec for g, spec in _TWINS if g == game)


__all__ = ["batched_agent", "batched_specs"]
