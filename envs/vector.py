"""Batched envs: thousands of games of one configuration stepped by one call.

::

    from deckzoo.envs import vector
    env = vector.make("wizard_v0", num_envs=1024, seed=0, num_players=4)
    obs, mask, player = env.reset()                 # (B, obs_dim) float32, (B, A) bool, (B,) int
    obs, mask, player, rewards, terminated, info = env.step(actions)   # rewards (B, num_players)

Observations, masks and action ids are those of the scalar env of the same game and options
(the observation of the player to act in each lane, as ``state.observe(current_player)``), so a
policy trained on one runs on the other. Finished games restart in the same step; see
docs/vector.md for the whole contract, how chance is made to match the scalar engines in the
tests, and the measured speed.

Batched games (``available()``): every game whose folder has a ``batched.py`` defining its
``BatchedEngine`` subclass (Wizard, Go Big, Big Number and BigWig so far).
"""

from __future__ import annotations

import functools
import pkgutil
from importlib import import_module
from typing import Any

from . import registry
from .core.batched import BatchedEngine, BatchedEnv, StateDeals
from .core.errors import ConfigError
from .core.scalar_lanes import ScalarLanesEnv


@functools.cache
def _engines() -> dict[str, type[BatchedEngine]]:
    """Env name -> the ``BatchedEngine`` subclass defined in that game folder's batched.py."""
    found = {}
    for name, game in registry.games().items():
        package = import_module(f"{registry.__package__}.{name}")
        if not any(m.name == "batched" for m in pkgutil.iter_modules(package.__path__)):
            continue
        module = import_module(f"{package.__name__}.batched")
        engines = [
            c
            for c in vars(module).values()
            if isinstance(c, type)
            and issubclass(c, BatchedEngine)
            and c.__module__ == module.__name__
        ]
        if len(engines) != 1:
            raise registry.RegistryError(
                f"{module.__name__} must define one BatchedEngine "
                f"subclass, found {[c.__name__ for c in engines]}"
            )
        found[game.env_name()] = engines[0]
    return found


def available() -> list[str]:
    """Env names that have a batched engine."""
    return list(_engines())


def refusal(game) -> str | None:
    """Why the configured ``game`` cannot play on a batched engine, or None when it can: its game
    has none, or it sets an option that its engine refuses (``UNSUPPORTED``, such as a small
    variant's deck). The arena and the vector trainer then play it on scalar lanes, where
    ``make`` would raise."""
    cls = _engines().get(type(game).env_name())
    if cls is None:
        return f"{type(game).name} has no batched engine"
    defaults = {o.name: o.default for o in type(game).OPTIONS}
    for key, why in cls.UNSUPPORTED.items():
        if game.options.get(key) != defaults.get(key):
            return f"{type(game).name}'s batched engine does not support option {key!r}: {why}"
    return None


def engine_class(name: str):
    key = registry.canonical(name)
    if key not in _engines():
        raise ConfigError(f"{name} has no batched engine; batched envs: {', '.join(_engines())}")
    return _engines()[key]


def make(name: str, num_envs: int = 1, seed: Any = None, **options) -> BatchedEnv:
    """A batched env of ``num_envs`` games; ``options`` are the scalar env's (game options,
    ``reward``, ``illegal_action``). ``seed`` seeds the batch's one generator."""
    return BatchedEnv(engine_class(name), num_envs=num_envs, seed=seed, **options)


def from_states(states, seed: Any = None, **adapter_options) -> BatchedEnv:
    """A batched env whose lanes start from scalar positions (games in progress, one game
    configuration); later chance comes from the batch generator seeded with ``seed``."""
    if not states:
        raise ValueError("from_states needs at least one state")
    game = states[0].game
    env = make(type(game).name, num_envs=len(states), seed=seed, **game.config(), **adapter_options)
    env.load_states(states)
    return env


def make_scalar_lanes(name: str, num_envs: int = 1, seed: Any = None, **options) -> ScalarLanesEnv:
    """``num_envs`` scalar games of any game behind the batched env's interface
    (``deckzoo.envs.core.scalar_lanes``): what the vector trainer steps for a game without a
    batched engine (Midgard). Same options as ``make``; ``seed`` seeds the games' seeds."""
    return ScalarLanesEnv(registry.game_class(name), num_envs=num_envs, seed=seed, **options)


def make_gym(name: str, num_envs: int = 1, seed: Any = None, **options):
    """The single-agent ``gymnasium.vector.VectorEnv`` view (``deckzoo.envs.core.batched_gym``)."""
    from .core.batched_gym import SingleAgentVectorEnv

    return SingleAgentVectorEnv(name, num_envs=num_envs, seed=seed, **options)


__all__ = [
    "BatchedEnv",
    "ScalarLanesEnv",
    "StateDeals",
    "available",
    "engine_class",
    "from_states",
    "make",
    "make_gym",
    "make_scalar_lanes",
    "refusal",
]
