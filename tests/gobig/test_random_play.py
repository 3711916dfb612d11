"""The shared harness over thousands of Go Big games, every player count and both end rules
(G15)."""

import pytest

from deckzoo.envs.core.conformance import check_determinism, check_random_play
from deckzoo.envs.gobig.rules import GoBigGame


@pytest.mark.parametrize("end_rule", ["after_draw", "literal"])
@pytest.mark.parametrize("n", range(2, 7))
def test_random_play_harness(n, end_rule):
    game = GoBigGame(num_players=n, end_rule=end_rule)
    stats = check_random_play(game, num_games=120, seed=100 * n + len(end_rule), deep_every=97)
    assert stats.games == 120
    assert (stats.action_counts > 0).all(), "some action never occurred in random play"
    assert max(stats.lengths) < 400  # G15: finite; a game plays at least one card per turn
    check_determinism(game, seed=n)
