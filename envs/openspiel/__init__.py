"""deckzoo's games as OpenSpiel games (the ``[openspiel]`` extra; docs/openspiel.md).

Importing this package registers every game of the registry with ``pyspiel.register_game`` as
``python_deckzoo_<name>``, its options as game parameters (with ``players`` and ``reward``)::

    import pyspiel
    import deckzoo.openspiel
    game = pyspiel.load_game("python_deckzoo_gobig", {"players": 3})

Chance is explicit (deals, draws and reshuffles are chance nodes with their exact outcomes and
probabilities), the information state has perfect recall, and ``resample_from_infostate`` goes
through the engine's ``determinize``, so OpenSpiel's Python IS-MCTS bot plays the games.
"""

from __future__ import annotations

try:
    import pyspiel
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError("deckzoo.openspiel needs OpenSpiel: pip install 'deckzoo[openspiel]'") from e

from deckzoo.envs import registry
from deckzoo.envs.variants import SMALL_VARIANTS as _VARIANTS

from .bridge import DeckzooGame, DeckzooState, encode_option, game_type, parameters, short_name

__all__ = [
    "GAMES",
    "SMALL_VARIANTS",
    "DeckzooGame",
    "DeckzooState",
    "load",
    "parameters",
    "register_all",
]

# short name -> the registered DeckzooGame subclass
GAMES: dict[str, type[DeckzooGame]] = {}


def register_all() -> list[str]:
    """Register every game of the registry (once); returns the short names."""
    names = []
    for cls in registry.games().values():
        name = short_name(cls)
        if name not in GAMES:
            game = type(f"{cls.__name__}OpenSpiel", (DeckzooGame,), {"engine_class": cls})
            game.__module__ = __name__
            GAMES[name] = game
            if name not in pyspiel.registered_names():
                pyspiel.register_game(game_type(cls), game)
        names.append(name)
    return names


def load(name: str, **params) -> DeckzooGame:
    """``pyspiel.load_game`` for a deckzoo game by any name the registry accepts:
    ``load("gobig", players=3)``."""
    return pyspiel.load_game(short_name(name), params)


def _as_parameters(game: str, options: dict) -> dict:
    """A variant's options as the game parameters OpenSpiel takes (``num_players`` is
    ``players``; a None seat or a list travels encoded, as every option does)."""
    cls = registry.game_class(game)
    by_name = {o.name: o for o in cls.OPTIONS}
    params = {k: encode_option(by_name[k], v) for k, v in options.items() if k != "num_players"}
    return {"players": options["num_players"], **params}


#: variant name -> (OpenSpiel game name, parameters): ``pyspiel.load_game(*SMALL_VARIANTS[v])``
#: loads the small variant ``v`` of deckzoo.envs.variants (docs/openspiel.md).
SMALL_VARIANTS: dict[str, tuple[str, dict]] = {
    name: (short_name(game), _as_parameters(game, options))
    for name, (game, options) in _VARIANTS.items()
}

register_all()
