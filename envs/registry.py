"""The registry: the one list of games, read from the folders of this package.

A game is a package directly inside ``deckzoo/envs`` (any but ``core``) whose ``__init__.py``
exports its engine's ``Game`` class, named like the folder (``Game.name == "gobig"``); its
``env.py`` is the PettingZoo module. The first time the registry is asked, every such folder is
imported: an error in a game raises there, naming it, and a folder that does not export a
``Game`` is an error too, so a broken game is never skipped. The test suites, the benchmarks, the
PettingZoo and Gymnasium ids, training and the CLI all iterate this registry, so adding a game is
adding its folder (docs/adding-a-game.md).

Names. The env name is ``<name>_v<version>`` (``"gobig_v0"``, ``Game.env_name()``), the
PettingZoo id ``deckzoo/<name>-v<version>``, the Gymnasium id ``deckzoo/<Title>-v<version>``
with the title's words joined (``deckzoo/GoBig-v0``); ``canonical`` accepts any of them, and the
bare game name.

This module imports the engines only (numpy, never PettingZoo or Gymnasium); ``make`` and
``env_module`` load the adapters when they are called.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from types import ModuleType

from .core.errors import ConfigError, did_you_mean
from .core.game import Game

# Packages of deckzoo/envs that are not games: the engine protocol, and the OpenSpiel bridge
# (installed as deckzoo.openspiel; in an editable install its folder is still here).
NOT_GAMES = frozenset({"core", "openspiel"})


class RegistryError(Exception):
    """A folder of deckzoo/envs that should be a game and is not one (see the module doc)."""


@functools.cache
def _discover() -> dict[str, type[Game]]:
    package = importlib.import_module(__package__)
    found: dict[str, type[Game]] = {}
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if not info.ispkg or info.name in NOT_GAMES or info.name.startswith("_"):
            continue
        where = f"{__package__}.{info.name}"
        game = getattr(importlib.import_module(where), "Game", None)
        if not (isinstance(game, type) and issubclass(game, Game)):
            raise RegistryError(
                f"{where}: a package in deckzoo/envs is a game and must export "
                "its engine's Game class as `Game` in __init__.py "
                "(docs/adding-a-game.md)"
            )
        if game.name != info.name:
            raise RegistryError(
                f"{where}: {game.__name__}.name is {game.name!r}; it must be the "
                f"folder's name, {info.name!r}"
            )
        found[info.name] = game
    return found


def refresh() -> None:
    """Forget the games found, so the next question looks at the folders again."""
    _discover.cache_clear()


def games() -> dict[str, type[Game]]:
    """Every game: its name (``"gobig"``) -> its engine's ``Game`` class, in name order."""
    return dict(_discover())


def env_names() -> list[str]:
    """Every env name (``"gobig_v0"``), in game-name order."""
    return [g.env_name() for g in _discover().values()]


def pettingzoo_id(game: str | type[Game]) -> str:
    """``"deckzoo/gobig-v0"`` for a game (its class, or any name ``canonical`` accepts)."""
    game = game if isinstance(game, type) else game_class(game)
    return f"deckzoo/{game.name}-v{game.version}"


def gym_id(game: str | type[Game]) -> str:
    """``"deckzoo/GoBig-v0"``: the Gymnasium id of a game's single-agent env (deckzoo.training)."""
    game = game if isinstance(game, type) else game_class(game)
    return f"deckzoo/{game.title.replace(' ', '')}-v{game.version}"


def canonical(name: str) -> str:
    """The env name for any of ``"gobig_v0"``, ``"gobig-v0"``, ``"deckzoo/gobig-v0"``,
    ``"deckzoo/GoBig-v0"``, ``"gobig"``; ``ConfigError`` for anything else (or another version)."""
    key = name.split("/")[-1].replace("-", "_").replace(" ", "").lower()
    base, sep, version = key.rpartition("_v")
    if not (sep and version.isdigit()):
        base, version = key, None
    for game in _discover().values():
        if base in (game.name, game.title.replace(" ", "").lower()):
            if version is None or int(version) == game.version:
                return game.env_name()
            raise ConfigError(
                f"unknown env {name!r}: {game.name} is at version {game.version} "
                f"({game.env_name()})"
            )
    near = {
        n: g.env_name()
        for g in _discover().values()
        for n in (g.name, g.title.replace(" ", "").lower())
    }
    raise ConfigError(
        f"unknown env {name!r}{did_you_mean(base, near)} (available: {', '.join(env_names())})"
    )


def game_class(name: str) -> type[Game]:
    """The engine's ``Game`` class for an env or game name."""
    return _discover()[canonical(name).rpartition("_v")[0]]


def env_module(name: str) -> ModuleType:
    """The PettingZoo module of a game (``deckzoo.envs.gobig.env``): ``env``, ``raw_env``, and
    ``parallel_env`` for games with simultaneous moves; imports PettingZoo."""
    return importlib.import_module(f"{__package__}.{game_class(name).name}.env")


def env_modules() -> dict[str, ModuleType]:
    """Every env name -> its PettingZoo module (imports them all, and PettingZoo)."""
    return {name: env_module(name) for name in env_names()}


def make(name: str, *, parallel: bool = False, **options):
    """Make an env without PettingZoo's registry: the AEC env, or the Parallel one if asked."""
    module = env_module(name)
    if parallel:
        if not game_class(name).simultaneous:
            raise ConfigError(f"{name} has no Parallel API (only games with simultaneous moves do)")
        return module.parallel_env(**options)
    return module.env(**options)


def register_with_pettingzoo() -> list[str]:
    """Register every game with PettingZoo's own registry (once); returns the ids.

    The entry points are strings, so nothing but the engines is imported here: this runs while
    PettingZoo itself is being imported (see ``deckzoo.envs``).
    """
    from pettingzoo.env_registry.registration import aec_registry, parallel_registry, register

    ids = []
    for game in _discover().values():
        env_id, module = pettingzoo_id(game), f"{__package__}.{game.name}.env"
        if env_id not in aec_registry:
            register("aec", env_id, entry_point=f"{module}:env")
        if game.simultaneous and env_id not in parallel_registry:
            register("parallel", env_id, entry_point=f"{module}:parallel_env")
        ids.append(env_id)
    return ids


# ---- what each game's env.py declares for the tools (all optional but the playthroughs) ----------
def short_options(name: str) -> dict:
    """``SHORT_OPTIONS``: options that keep a game short in the generic test suites."""
    return dict(getattr(env_module(name), "SHORT_OPTIONS", {}))


def demo_options(name: str) -> dict:
    """``DEMO_OPTIONS``: the configuration ``deckzoo demo`` and the benchmarks play."""
    return dict(getattr(env_module(name), "DEMO_OPTIONS", {}))


def playthrough_configs(name: str) -> list[dict]:
    """``PLAYTHROUGH_CONFIGS``: the configurations with a golden playthrough (required)."""
    return [dict(c) for c in getattr(env_module(name), "PLAYTHROUGH_CONFIGS", [])]


# ---- what each game's testing.py declares for the generic test suites (envs/core/testing.py) --
_NO_DEFAULT = object()


def testing_module(name: str) -> ModuleType | None:
    """A game's ``testing.py`` (``deckzoo.envs.gobig.testing``), or None if it has none: the facts
    about the game that the registry-driven test suites need and cannot derive from the engine
    (its hand as card names, its saved-state corruptions, its batched-engine cases), kept in the
    game's folder so that adding a game edits no test (docs/adding-a-game.md lists the names)."""
    package = importlib.import_module(f"{__package__}.{game_class(name).name}")
    if not any(m.name == "testing" for m in pkgutil.iter_modules(package.__path__)):
        return None
    return importlib.import_module(f"{package.__name__}.testing")


def testing_fact(name: str, key: str, default=_NO_DEFAULT):
    """``key`` as the game's ``testing.py`` declares it, else ``default``; with no default a
    missing fact raises ``RegistryError`` naming the file and the name to add."""
    value = getattr(testing_module(name), key, default)
    if value is _NO_DEFAULT:
        game = game_class(name).name
        raise RegistryError(
            f"envs/{game}/testing.py must declare {key} for this test suite (docs/adding-a-game.md)"
        )
    return value
