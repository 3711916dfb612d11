"""deckzoo environments: the registry.

``ENVS`` maps each available env name (``"gobig_v0"``...) to its version module. Importing this
package also registers every env with PettingZoo's registry, so both of these work::

    deckzoo.envs.make("gobig_v0", num_players=4)
    pettingzoo.make("aec", "deckzoo/gobig-v0", num_players=4)

A game is listed in ``_ALL`` from the start and becomes available when its version module
exists; that keeps this file free of merge churn while games are added one by one.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from .core.errors import ConfigError, IllegalActionError

_ALL = ("gobig_v0", "bignumber_v0", "wizard_v0", "bigwig_v0", "midgard_v0")

ENVS: dict[str, ModuleType] = {}
for _name in _ALL:
    if importlib.util.find_spec(f"{__name__}.{_name}") is not None:
        ENVS[_name] = importlib.import_module(f"{__name__}.{_name}")

GAMES = {mod.Game.name: mod.Game for mod in ENVS.values()}


def _canonical(name: str) -> str:
    """Accept "gobig_v0", "gobig-v0", "deckzoo/gobig-v0" and the bare game name "gobig"."""
    key = name.split("/")[-1].replace("-", "_").lower()
    if key in ENVS:
        return key
    if f"{key}_v0" in ENVS:
        return f"{key}_v0"
    raise ConfigError(f"unknown env {name!r}; available: {', '.join(ENVS)}")


def game_class(name: str):
    """The engine's ``Game`` class for an env or game name."""
    return ENVS[_canonical(name)].Game


def make(name: str, *, parallel: bool = False, **options):
    """Make an env without PettingZoo's registry: the AEC env, or the Parallel one if asked."""
    mod = ENVS[_canonical(name)]
    if parallel:
        if not hasattr(mod, "parallel_env"):
            raise ConfigError(f"{name} has no Parallel API (only simultaneous games do)")
        return mod.parallel_env(**options)
    return mod.env(**options)


def _register_with_pettingzoo() -> None:
    from pettingzoo.env_registry.registration import aec_registry, parallel_registry, register

    for name, mod in ENVS.items():
        env_id = "deckzoo/" + name.replace("_v", "-v")
        if env_id not in aec_registry:
            register("aec", env_id, entry_point=f"{mod.__name__}:env")
        if hasattr(mod, "parallel_env") and env_id not in parallel_registry:
            register("parallel", env_id, entry_point=f"{mod.__name__}:parallel_env")


_register_with_pettingzoo()

__all__ = ["ENVS", "GAMES", "ConfigError", "IllegalActionError", "game_class", "make"]
