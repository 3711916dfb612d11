"""Every small variant is reachable by name from OpenSpiel: ``deckzoo.openspiel.SMALL_VARIANTS``
gives the registered game and its parameters, and the loaded game is the variant's engine game."""

import pytest

pyspiel = pytest.importorskip("pyspiel")

from deckzoo.envs.variants import SMALL_VARIANTS as ENGINE_VARIANTS
from deckzoo.envs.variants import variant_game


def test_every_small_variant_loads_by_its_openspiel_name_and_parameters():
    import deckzoo.openspiel as dos

    assert set(dos.SMALL_VARIANTS) == set(ENGINE_VARIANTS) and len(dos.SMALL_VARIANTS) >= 3
    for name, (game_name, params) in dos.SMALL_VARIANTS.items():
        game = pyspiel.load_game(game_name, params)
        assert game.num_players() == 3
        assert game.engine == variant_game(name), name
        pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
