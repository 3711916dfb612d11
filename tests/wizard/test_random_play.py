"""The shared harness over thousands of Wizard games: every player count, both Foresight settings,
full and shortened games (cheap checks every step, deep checks on a sample)."""

import numpy as np
import pytest

from deckzoo.envs.core.conformance import check_determinism, check_random_play
from deckzoo.envs.wizard.rules import BID_BASE, WizardGame

# (players, num_rounds, games): full games for the small tables, short ones in bulk.
CASES = [
    (3, None, 8),
    (4, None, 12),
    (5, None, 18),
    (6, None, 24),
    (10, None, 36),
    (12, None, 45),
    (3, 3, 150),
    (4, 3, 150),
    (5, 2, 120),
    (6, 2, 120),
    (10, 2, 72),
    (12, 2, 72),
]


@pytest.mark.parametrize("foresight", [True, False])
@pytest.mark.parametrize("n,rounds,games", CASES, ids=[f"{n}p-{r or 'full'}" for n, r, _ in CASES])
def test_random_play_harness(n, rounds, games, foresight):
    game = WizardGame(num_players=n, num_rounds=rounds, foresight=foresight)
    stats = check_random_play(
        game,
        num_games=games,
        seed=1000 * n + (rounds or 0) + foresight,
        deep_every=401 if rounds is None else 151,
    )
    assert stats.games == games
    k = game.rounds
    expected_bids = n * k
    expected_plays = n * k * (k + 1) // 2
    assert min(stats.lengths) >= expected_bids + expected_plays  # every bid and card is a decision
    assert (
        max(stats.lengths) <= expected_bids + expected_plays + k
    )  # plus at most one trump choice a round
    assert (
        stats.action_counts[:54].all() or rounds is not None
    )  # every card gets played in full games
    assert stats.action_counts[BID_BASE : BID_BASE + 2].all()
    check_determinism(game, seed=n)


def test_every_action_occurs_across_full_games():
    """Across full 3-player games every card, every trump suit and every bid 0..3 is taken."""
    game = WizardGame(num_players=3)
    rng = np.random.default_rng(9)
    seen = np.zeros(game.num_actions, dtype=bool)
    for g in range(12):
        s = game.new_state(g)
        while not s.is_terminal():
            a = int(rng.choice(s.legal_actions()))
            seen[a] = True
            s.apply(a)
    assert seen[:58].all() and seen[BID_BASE : BID_BASE + 4].all()


@pytest.mark.slow
@pytest.mark.parametrize("n", [3, 4, 5, 6, 10, 12])
def test_random_play_many_full_games(n):
    """Longer sweep (``-m slow``): 50 full games per table size, deep checks on a sparse sample."""
    game = WizardGame(num_players=n)
    stats = check_random_play(game, num_games=50, seed=77 + n, deep_every=997)
    assert stats.games == 50 and stats.action_counts[:58].all()
