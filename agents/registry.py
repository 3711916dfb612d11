"""Agents by name, so the CLI, configs and the arena can say "random", "heuristic", "ismcts".

``make_agent(spec, game_name, seed)`` understands:

* ``random``
* ``heuristic``: the game's own heuristic agent, found in ``deckzoo.agents.heuristics.<game>``
  (a module exposing ``HeuristicAgent``); games without one raise ``ConfigError``.
* any name added with ``register_agent(name, factory)``; factories take ``(game_name, seed, arg)``
  where ``arg`` is the text after a colon (``ismcts:200`` or ``ppo:runs/gobig/final.zip``).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable

from deckzoo.envs.core.errors import ConfigError

from .base import Agent, RandomAgent

_FACTORIES: dict[str, Callable[[str, int | None, str | None], Agent]] = {}
# Modules that register more agents when imported (skipped if they do not exist yet).
_PLUGINS = ("deckzoo.agents.ismcts", "deckzoo.agents.policy")


def register_agent(name: str, factory: Callable[[str, int | None, str | None], Agent]) -> None:
    _FACTORIES[name] = factory


def optional_module(name: str):
    """The module if it exists, else None (features land as modules appear, no registry edits)."""
    try:
        found = importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        found = False
    return importlib.import_module(name) if found else None


def _load_plugins() -> None:
    for mod in _PLUGINS:
        optional_module(mod)


def heuristic_module(game_name: str):
    return optional_module(f"deckzoo.agents.heuristics.{game_name}")


def has_heuristic(game_name: str) -> bool:
    return heuristic_module(game_name) is not None


def make_agent(spec: str, game_name: str, seed: int | None = None) -> Agent:
    """Build an agent from a spec like ``random``, ``heuristic`` or ``ismcts:500``."""
    name, _, arg = spec.partition(":")
    if name == "random":
        return RandomAgent(seed)
    if name == "heuristic":
        mod = heuristic_module(game_name)
        if mod is None:
            raise ConfigError(f"no heuristic agent for {game_name!r} yet")
        return mod.HeuristicAgent(seed)
    _load_plugins()
    if name in _FACTORIES:
        return _FACTORIES[name](game_name, seed, arg or None)
    raise ConfigError(f"unknown agent {spec!r}; known: random, heuristic, {', '.join(sorted(_FACTORIES))}")
