"""The shared harness over thousands of BigWig games, every player count (B38: masks never
empty)."""

import numpy as np
import pytest

from deckzoo.envs.bigwig.rules import JOIN, PLAY_WELL, BigWigGame
from deckzoo.envs.core.conformance import check_determinism, check_random_play


@pytest.mark.parametrize("n", range(2, 7))
def test_random_play_harness(n):
    age = None if n % 2 else list(reversed(range(n)))  # both the default and a custom age order
    game = BigWigGame(num_players=n, age_order=age)
    stats = check_random_play(game, num_games=120, seed=31 * n, deep_every=307)
    assert stats.games == 120
    counts = stats.action_counts
    # every card kind is played and sacrificed, wells and tickets are used, every stake occurs
    assert (counts[: PLAY_WELL + 1] > 0).all() and (counts[PLAY_WELL + 1 : JOIN] > 0).all()
    assert (counts[JOIN] > 0) == (n > 2) and (
        counts[game.stake_base :] > 0
    ).all()  # no onlookers with 2
    assert (counts[JOIN + 2 : game.stake_base] > 0).all()  # every challenge offset
    assert max(stats.lengths) < 40 * (
        n + 3
    )  # 24 rounds at most, each a bounded number of decisions
    winners = np.bincount([w for ws in stats.winners for w in ws], minlength=n)
    assert (winners > 0).all()
    check_determinism(game, seed=n)
