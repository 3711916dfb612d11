"""What the OpenSpiel tests share: the configurations they play, as OpenSpiel parameters.

The configurations come from the registry and the small variants, never from a list here: every
suite runs on every game, with the game's short options (``SHORT_OPTIONS``, fast at every player
count) or its small variant (``deckzoo.envs.variants``) where it has one.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from deckzoo.envs import registry
from deckzoo.openspiel import load
from deckzoo.openspiel.bridge import encode_option

GAMES = list(registry.games())


def small_variants() -> dict[str, tuple[str, dict]]:
    """The small variants (name -> (game, options with num_players)), or none if that module is
    not there."""
    try:
        from deckzoo.envs.variants import SMALL_VARIANTS
    except ImportError:
        return {}
    return dict(SMALL_VARIANTS)


def as_params(game: str, options: dict) -> dict:
    """deckzoo options (``num_players`` included) as OpenSpiel parameters."""
    cls = registry.game_class(game)
    spec = {o.name: o for o in cls.OPTIONS}
    params = {k: encode_option(spec[k], v) for k, v in options.items() if k != "num_players"}
    if "num_players" in options:
        params["players"] = options["num_players"]
    return params


def short_game(game: str, players: int, **params) -> pyspiel.Game:
    """``game`` at ``players`` with its short options."""
    return load(game, **as_params(game, registry.short_options(game)), players=players, **params)


def quick_game(game: str) -> pyspiel.Game:
    """The game's small variant if it has one, else its short options at its fewest players."""
    for g, options in small_variants().values():
        if g == game:
            return load(game, **as_params(game, options))
    return short_game(game, min(registry.game_class(game).supported_players()))


def sample_chance(state: pyspiel.State, rng: np.random.Generator) -> int:
    actions, probs = zip(*state.chance_outcomes())
    return int(rng.choice(actions, p=probs))


def play_random(game: pyspiel.Game, seed: int, visit=None) -> pyspiel.State:
    """A random game to its end (chance by its probabilities, decisions uniform); ``visit(state)``
    sees every state on the way, the last included."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    while True:
        if visit is not None:
            visit(state)
        if state.is_terminal():
            return state
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
