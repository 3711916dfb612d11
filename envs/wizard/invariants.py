"""Wizard's internal invariants (``WizardState.check_invariants``, found by name): card
conservation and the round's bookkeeping, the derived per-hand tables included.

The conformance checks and the tests call them during playouts, and loading a saved state runs
them after its field checks (envs/core/saved.py). A broken one is a bug in the engine, not an
illegal move, hence ``AssertionError``.
"""

from __future__ import annotations

import numpy as np

from .actions import PHASE_OVER
from .cards import COUNT_SCALE, NUM_KINDS, NUM_SUITED, NUM_SUITS, RANKS


def check_invariants(st) -> None:
    """Card conservation (hands + played + stock + flipped card = the deck) and round
    bookkeeping."""
    total = st.hands.sum(axis=0, dtype=np.int64) + np.asarray(st.played) + st.stock
    if st.flipped >= 0:
        total[st.flipped] += 1
    if not np.array_equal(total, st.game.deck_counts):
        raise AssertionError(f"card conservation broken: {total.tolist()}")
    if (st.hands < 0).any():
        raise AssertionError("negative card count in a hand")
    if st.hands.sum(axis=1).tolist() != st.hand_sizes:
        raise AssertionError("hand sizes out of sync")
    if (
        st.hands[:, :NUM_SUITED].reshape(-1, NUM_SUITS, RANKS).sum(axis=2).tolist()
        != st.suit_counts
    ):
        raise AssertionError("suit counts out of sync")
    if not np.array_equal(st.hand_obs, st.hands * COUNT_SCALE):
        raise AssertionError("scaled hands out of sync")
    if not np.array_equal(st.hold[:, :NUM_KINDS], st.hands > 0) or st.hold[:, NUM_KINDS:].any():
        raise AssertionError("held-card masks out of sync")
    in_tricks = [c for _, cards, _ in st.tricks for c in cards] + st.trick
    if np.bincount(in_tricks, minlength=NUM_KINDS).tolist() != st.played:
        raise AssertionError("played cards differ from the tricks")
    if sum(st.tricks_won) != len(st.tricks):
        raise AssertionError("tricks won do not add up")
    n = st.game.num_players
    if st.phase != PHASE_OVER:
        if st.stock.sum() != max(0, st.game.deck_size - n * st.round - 1):
            raise AssertionError("stock size is wrong")
        for q in range(n):
            expect = (
                st.round - len(st.tricks) - (1 if (q - st.trick_leader) % n < len(st.trick) else 0)
            )
            if st.hand_sizes[q] != expect:
                raise AssertionError(
                    f"player {q} holds {st.hand_sizes[q]} cards, expected {expect}"
                )
