"""The observation's and the mask's content caches (issue #47) change nothing.

``encoding._PIECES`` and ``masks._MASK_PARTS`` remember pieces of observations and masks under
keys that must hold everything the piece reads. A key that missed a field would hand a later state
an earlier state's piece; here every observation and mask of random play, taken with the caches
warm from everything played before, must equal the one computed with emptied caches.
"""

from __future__ import annotations

import numpy as np
import pytest

from deckzoo.envs.midgard import encoding, masks
from deckzoo.envs.midgard.rules import MidgardGame
from deckzoo.envs.midgard.troops import Troop


def _fresh(state, seats):
    """Every seat's observation and the mask, computed with empty caches."""
    encoding._PIECES.clear()
    masks._MASK_PARTS.clear()
    state.invalidate()
    return [state.observe(q) for q in seats], state.legal_mask()


@pytest.mark.parametrize(("players", "windows"), [(3, "all"), (5, "holders_leaky")])
def test_cached_observations_and_masks_equal_fresh_ones(players, windows):
    game = MidgardGame(players, reaction_windows=windows, max_decisions=700)
    rng = np.random.default_rng(players)
    seats = range(players)
    for seed in (1, 2):
        state = game.new_state(seed)
        steps = 0
        while state.current_player is not None:
            warm = [state.observe(q) for q in seats], state.legal_mask()
            if steps % 3 == 0:  # a fresh encoding empties the caches: every third step keeps
                # them warm for long stretches in between
                obs, mask = _fresh(state, seats)
                for a, b in zip(warm[0], obs):
                    np.testing.assert_array_equal(a, b)
                np.testing.assert_array_equal(warm[1], mask)
            legal = warm[1].nonzero()[0]
            state.apply(int(legal[rng.integers(len(legal))]))
            steps += 1


def test_a_troop_edited_in_place_is_encoded_and_masked_anew():
    """Keys are content, not identity: the same Troop object, changed, is a new key."""
    game = MidgardGame(3)
    state = game.new_state(4)
    p = state.current_player
    state.troops[p] = [Troop.make_series(2, 3)]
    before = state.observe(p), state.legal_mask()
    state.troops[p][0].nat = 4
    state.invalidate()
    after = state.observe(p), state.legal_mask()
    fresh = _fresh(state, [p])
    np.testing.assert_array_equal(after[0], fresh[0][0])
    np.testing.assert_array_equal(after[1], fresh[1])
    assert not np.array_equal(before[0], after[0])
