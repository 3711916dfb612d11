"""Go Big's global state: every hand, and the deck by counts plus its next 12 cards in order."""

from __future__ import annotations

import numpy as np

from deckzoo.envs.gobig.rules import COPIES, DECK_WINDOW, GoBigGame


def _swap_changes_state(state, i: int, j: int) -> bool:
    """Swap deck positions i and j (from the top) on a clone: does the global state change?"""
    other = state.clone()
    deck = other.deck
    deck[-1 - i], deck[-1 - j] = deck[-1 - j], deck[-1 - i]
    return not np.array_equal(other.global_state(), state.global_state())


def _different(deck, i: int, j: int) -> bool:
    return deck[-1 - i] != deck[-1 - j]


def test_pieces_hold_the_hands_and_the_deck():
    state = GoBigGame(num_players=3).new_state(0)
    v = state.game.state_layout.split(state.global_state())
    assert np.allclose(v["hands"] * COPIES, state.hands)
    assert np.allclose(v["deck"] * COPIES, np.bincount(np.array(state.deck) - 1, minlength=7))
    assert [int(np.argmax(r)) + 1 for r in v["deck_next"]] == state.deck[::-1][:DECK_WINDOW]
    assert "hand" not in v and v["hand_sizes"].shape == (3,)  # absolute seats, no observer


def test_the_order_of_the_next_cards_is_encoded_and_deeper_ones_only_by_counts():
    state = GoBigGame(num_players=2).new_state(3)
    deck = state.deck
    near = next(j for j in range(1, DECK_WINDOW) if _different(deck, 0, j))
    assert _swap_changes_state(state, 0, near)
    far = next(j for j in range(DECK_WINDOW + 1, len(deck)) if _different(deck, DECK_WINDOW, j))
    assert not _swap_changes_state(state, DECK_WINDOW, far)  # documented: beyond the window
