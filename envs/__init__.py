"""deckzoo environments.

::

    deckzoo.envs.make("gobig_v0", num_players=4)          # also "gobig", "deckzoo/gobig-v0"
    pettingzoo.make("aec", "deckzoo/gobig-v0", num_players=4)
    from deckzoo.envs import gobig_v0                      # the PettingZoo module: gobig_v0.env()
    import deckzoo.envs.gobig_v0                           # the same module (_EnvModuleFinder)

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

__all__ = [
    "ENVS",
    "GAMES",
    "ConfigError",
    "IllegalActionError",
    "canonical",
    "game_class",
    "make",
    "registry",
]


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


def __dir__() -> list[str]:
    """The module's names and the env names, so that completion offers ``gobig_v0``."""
    return sorted({*globals(), "ENVS", "GAMES", *registry.env_names()})


class _EnvModuleFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """``import deckzoo.envs.gobig_v0``: each current env name is a module of this package, as in
    PettingZoo (``import pettingzoo.classic.texas_holdem_v4``).

    There are no files for them: the names come from the registry when asked, so a version bump
    or a new game folder needs no edit here. The module is the game's PettingZoo module itself
    (``deckzoo.envs.gobig.env``), the object ``from deckzoo.envs import gobig_v0`` gives. The
    finder sits last on ``sys.meta_path``, so it is asked only about names no file answers, and
    only about ``deckzoo.envs.<name>_v<n>``. Another version of a game, or a near miss, raises
    ``ModuleNotFoundError`` naming the current env; its ``name`` is left unset so that a
    from-import shows that message too (importlib silently drops a ``ModuleNotFoundError`` that
    names the very module a from-import asked for, and reports only "cannot import name").
    """

    def find_spec(self, fullname, path=None, target=None):
        parent, _, env_name = fullname.rpartition(".")
        base, sep, version = env_name.rpartition("_v")
        if parent != __name__ or not (sep and base and version.isdigit()):
            return None
        if env_name in registry.env_names():
            return importlib.util.spec_from_loader(fullname, self)
        raise ModuleNotFoundError(f"No module named {fullname!r}: {self._why_not(env_name)}")

    @staticmethod
    def _why_not(env_name: str) -> str:
        try:
            current = registry.canonical(env_name.rpartition("_v")[0])
        except ConfigError as e:
            return str(e)
        return f"{current.rpartition('_v')[0]} is at {current} now ({__name__}.{current})"

    def create_module(self, spec):
        module = registry.env_module(spec.name.rpartition(".")[2])
        spec.loader_state = module.__spec__  # importlib sets __spec__ to ``spec`` next
        return module

    def exec_module(self, module):
        """Nothing to run (``create_module`` gave the game's env module, already loaded); only
        its own ``__spec__`` is put back, so that it still reloads and reports as itself."""
        module.__spec__ = module.__spec__.loader_state


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


if not any(isinstance(f, _EnvModuleFinder) for f in sys.meta_path):
    sys.meta_path.append(_EnvModuleFinder())
if "pettingzoo" in sys.modules:
    registry.register_with_pettingzoo()
elif not any(isinstance(f, _RegisterAfterImport) for f in sys.meta_path):
    sys.meta_path.insert(0, _RegisterAfterImport())
