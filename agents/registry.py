"""Agents by name, so the CLI, configs and the arena can say "random", "heuristic", "ismcts".

``make_agent(spec, game_name, seed, game=None)`` understands (``game``, the configured game when
known, lets a trained policy refuse a table of another player count at once):

* ``random``
* ``heuristic``: the game's own heuristic agent, the module ``deckzoo.agents.heuristics.<game>``
  exposing ``HeuristicAgent`` (the modules of that package are the list, but for the batched
  twins ``<game>_batched``, agents/batched.py; games without one raise ``ConfigError``, and a
  broken one raises its own error).
* any name added with ``register_agent(name, factory, usage)``; factories take
  ``(game_name, seed, arg)`` where ``arg`` is the text after a colon (``ismcts:200`` or
  ``ppo:runs/gobig/policy.npz``), and ``usage`` is the line ``agent_kinds()`` lists for it.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import pkgutil
from collections.abc import Callable

from deckzoo.envs.core.errors import ConfigError, did_you_mean

from .base import Agent, RandomAgent

_FACTORIES: dict[str, Callable[[str, int | None, str | None], Agent]] = {}
_USAGE: dict[str, str] = {}
# Modules that register more agents when imported (``register_agent``); imported on first use.
_PLUGINS = ("deckzoo.agents.ismcts", "deckzoo.agents.policy", "deckzoo.agents.zoo")


def register_agent(
    name: str, factory: Callable[[str, int | None, str | None], Agent], usage: str = ""
) -> None:
    _FACTORIES[name] = factory
    _USAGE[name] = usage or name


def unregister_agent(name: str) -> None:
    """Forget a kind registered with ``register_agent`` (tests register throw-away kinds)."""
    _FACTORIES.pop(name, None)
    _USAGE.pop(name, None)


BUILT_IN_USAGE = {
    "random": "random: uniform over the legal actions",
    "heuristic": "heuristic: the game's rule-of-thumb player",
}


def agent_kinds() -> list[str]:
    """One usage line per kind of agent spec (for help texts and error messages)."""
    _load_plugins()
    return [*BUILT_IN_USAGE.values(), *(_USAGE[n] for n in sorted(_FACTORIES))]


def optional_module(name: str):
    """The module if it exists, else None (features land as modules appear, no registry edits)."""
    try:
        found = importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        found = False
    return importlib.import_module(name) if found else None


def _load_plugins() -> None:
    for mod in _PLUGINS:
        importlib.import_module(mod)


#: a heuristic module ``<game>_batched`` is the batched twin of ``<game>``'s (agents/batched.py)
TWIN_SUFFIX = "_batched"


@functools.cache
def _heuristic_games() -> frozenset[str]:
    from . import heuristics

    names = {m.name for m in pkgutil.iter_modules(heuristics.__path__) if not m.ispkg}
    return frozenset(n for n in names if not n.endswith(TWIN_SUFFIX))


def heuristic_module(game_name: str):
    """The game's heuristic module, or None if ``agents/heuristics`` has none for it."""
    if game_name not in _heuristic_games():
        return None
    return importlib.import_module(f"deckzoo.agents.heuristics.{game_name}")


def has_heuristic(game_name: str) -> bool:
    return heuristic_module(game_name) is not None


def make_agent(spec: str, game_name: str, seed: int | None = None, game=None) -> Agent:
    """Build an agent from a spec like ``random``, ``heuristic`` or ``ismcts:500``.

    ``game``: the configured game (a ``Game``, its player count and options) the agent will sit
    at, when the caller knows it. An agent with a ``check_table(game, spec)`` method (a trained
    policy: its observation size fixes the player count) is then checked against it at once, so
    a policy made for another table fails here, in one line, and not at its first move."""
    agent = _make(spec, game_name, seed)
    check = getattr(agent, "check_table", None)
    if game is not None and check is not None:
        check(game, spec)
    return agent


def _make(spec: str, game_name: str, seed: int | None) -> Agent:
    name, _, arg = spec.partition(":")
    if name in BUILT_IN_USAGE and arg:
        raise ConfigError(f"agent {name!r} takes no options, got {spec!r}")
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
    known = [*BUILT_IN_USAGE, *sorted(_FACTORIES)]
    raise ConfigError(
        f"unknown agent {spec!r}{did_you_mean(name, known)} (known: {', '.join(known)})"
    )


__all__ = ["agent_kinds", "has_heuristic", "make_agent", "register_agent"]
