"""deckzoo environments.

::

    deckzoo.envs.make("gobig_v0", num_players=4)          # also "gobig", "deckzoo/gobig-v0"
    from deckzoo.envs import gobig_v0                      # the PettingZoo module: gobig_v0.env()
    pettingzoo.make("aec", "deckzoo/gobig-v0", num_players=4)

``GAMES`` maps each game name (``"gobig"``) to its engine's ``Game`` class and ``ENVS`` each env
name (``"gobig_v0"``) to its PettingZoo module (``deckzoo.envs.gobig.env``). Both come from the
registry (``registry.py``), which finds the games in this package's folders: the only list of
games there is.

Importing this package is light: no game and nothing of PettingZoo or Gymnasium is loaded, so an
engine (``import deckzoo.envs.gobig.rules``) needs numpy only. The envs are registered with
PettingZoo's own registry once both this package and PettingZoo are imported, in either order:
at once if PettingZoo is already loaded, else when it finishes loading (``_RegisterAfterImport``).
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys

from . import registry
from .core.errors import ConfigError, IllegalActionError
from .registry import canonical, game_class, make

__all__ = ["ENVS", "GAMES", "ConfigError", "IllegalActionError", "canonical", "game_class", "make",
           "registry"]


def __getattr__(name: str):
    """``GAMES``, ``ENVS``, and each env module by its env name (``from deckzoo.envs import
    gobig_v0``)."""
    if name == "GAMES":
        return registry.games()
    if name == "ENVS":
        return registry.env_modules()
    if name in registry.env_names():
        return registry.env_module(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _RegisterAfterImport(importlib.abc.MetaPathFinder):
    """Registers deckzoo's envs with PettingZoo the moment the ``pettingzoo`` package has loaded.

    It answers only for ``pettingzoo``: it finds the real spec with the other finders and wraps
    its loader's ``exec_module`` so that the registration runs right after it, then steps aside.
    """

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "pettingzoo":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        exec_module = spec.loader.exec_module

        def exec_then_register(module):
            exec_module(module)
            registry.register_with_pettingzoo()

        spec.loader.exec_module = exec_then_register
        return spec


if "pettingzoo" in sys.modules:
    registry.register_with_pettingzoo()
elif not any(isinstance(f, _RegisterAfterImport) for f in sys.meta_path):
    sys.meta_path.insert(0, _RegisterAfterImport())
