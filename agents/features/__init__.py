"""Input features for learned policies: fixed, derived functions of a game's observation.

Why. An observation says what a seat knows, one indicator at a time; what a decision turns on is
often a combination of many of them (in Wizard: which of my cards would win this trick, given
the cards in it, the led suit and the trump). A network trained from scratch has to discover such
combinations from the reward alone, one output at a time. Input features compute them once, from
the observation alone (so a policy still sees nothing its seat may not know), and the network
takes ``[observation, features]``. They are part of the policy, not of the environment: the env's
observation (and every other consumer of it) is unchanged, a trainer appends the features before
its network (``vector.features`` in a vector-trainer config), and a policy file names its feature
set so that ``ppo:PATH`` and ``zoo:<game>`` apply the same function when they play.

Each module of this package registers its game's sets (``agents/features/wizard.py``): a feature
set is registered by name with a factory ``(game) -> InputFeatures``; the name is
written to the policy file with the game configuration, and ``make(name, game)`` rebuilds the
same function from them (code from this package, never from the file).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from deckzoo.envs.core.errors import ConfigError


class InputFeatures:
    """A fixed map from observations (``(obs_size,)`` or ``(B, obs_size)``) to
    ``[observation, features]`` (``(obs_size + size,)`` or ``(B, obs_size + size)``, float32).

    Subclasses set ``name``, ``obs_size`` and ``size`` and implement ``compute`` for a batch."""

    name = ""
    obs_size = 0
    size = 0

    def compute(self, obs: np.ndarray) -> np.ndarray:
        """``(B, size)`` float32 features of a ``(B, obs_size)`` float32 batch."""
        raise NotImplementedError

    @property
    def out_size(self) -> int:
        return self.obs_size + self.size

    def __call__(self, obs: np.ndarray) -> np.ndarray:
        x = np.asarray(obs, dtype=np.float32)
        one = x.ndim == 1
        x = x.reshape(1, -1) if one else x
        if x.shape[1] != self.obs_size:
            raise ConfigError(
                f"features {self.name!r} take observations of size {self.obs_size}, "
                f"got {x.shape[1]} (another game or options?)"
            )
        out = np.concatenate([x, self.compute(x)], axis=1)
        return out[0] if one else out

    def __repr__(self) -> str:
        return f"{type(self).__name__}(obs_size={self.obs_size}, size={self.size})"


_FACTORIES: dict[str, tuple[str, Callable]] = {}


def register(name: str, game: str, factory: Callable) -> None:
    """``factory(game_instance) -> InputFeatures`` for feature set ``name`` of game ``game``."""
    _FACTORIES[name] = (game, factory)


def names(game: str | None = None) -> list[str]:
    _load()
    return sorted(n for n, (g, _) in _FACTORIES.items() if game is None or g == game)


def make(name: str, game) -> InputFeatures:
    """The feature set ``name`` for a ``Game`` instance; ``ConfigError`` naming the known sets."""
    _load()
    if name not in _FACTORIES:
        raise ConfigError(f"unknown input features {name!r}; known: {', '.join(names()) or 'none'}")
    for_game, factory = _FACTORIES[name]
    if for_game != type(game).name:
        raise ConfigError(f"input features {name!r} are for {for_game}, not {type(game).name}")
    return factory(game)


def _load() -> None:
    """Import every module of this package once: each registers its game's feature sets, so a
    new game's set is one new module here and nothing else."""
    import importlib
    import pkgutil

    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")


__all__ = ["InputFeatures", "make", "names", "register"]
