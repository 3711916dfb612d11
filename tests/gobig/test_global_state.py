"""Go Big's global state: every hand, and the deck by counts plus its next 12 cards in order."""

from __future__ import annotations

import numpy as np

from deckzoo.envs.gobig.rules import COPIES, DECK_WINDOW, GoBigGame

from ..core.piles import edit_changes_state, first_other, swap_from_top


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
    j = first_other(deck, 0, range(1, DECK_WINDOW))
    assert edit_changes_state(state, lambda s: swap_from_top(s.deck, 0, j))
    j = first_other(deck, DECK_WINDOW, range(DECK_WINDOW + 1, len(deck)))
    # documented: deeper than the window only the counts show
    assert not edit_changes_state(state, lambda s: swap_from_top(s.deck, DECK_WINDOW, j))
