"""BigWig's well draws (ruling B11 step 10): after a trick, every player who played the well
card takes it back, sacrifices another card and draws 1-3 cards for it, never beyond 9 in hand;
the empty draw pile is refilled from the discard pile (B23). Functions over the state: rules.py
calls ``next_sacrifice`` after a trick's reveal and ``sacrifice`` from ``_apply``.
"""

from __future__ import annotations

import numpy as np

from .actions import PHASE_SACRIFICE, SACRIFICE_BASE
from .cards import HAND_LIMIT, NUM_KINDS, draw_entitlement


def draws_allowed(entitlement: int, hand_size: int) -> int:
    """Cards drawn: the entitlement, capped by the hand limit of 9 (B21)."""
    return max(0, min(entitlement, HAND_LIMIT - hand_size))


def sacrifice(st, p: int, action: int) -> None:
    k = action - SACRIFICE_BASE
    st.hands[p, k] -= 1
    st.discard[k] += 1
    st.origins.reveal(p, k)
    draw(st, p, draw_entitlement(k))
    st.queue.pop(0)
    next_sacrifice(st)


def next_sacrifice(st) -> None:
    """Step 10: well draws in order; a player holding only the well draws 2 at once (B22)."""
    while st.queue:
        p = st.queue[0]
        if st.hands[p].any():
            st.phase = PHASE_SACRIFICE
            st.current_player = p
            return
        draw(st, p, 2)
        st.queue.pop(0)
    st._finish_round()


def draw(st, p: int, entitlement: int) -> None:
    """Seat ``p`` draws ``entitlement`` cards, as the hand limit allows; an empty draw pile is
    refilled by shuffling the discard pile when a draw needs it (B23, X7)."""
    for _ in range(draws_allowed(entitlement, st.hand_size(p))):
        if not st.draw:  # B23: reshuffle when a draw is needed
            if not st.discard.any():
                return
            pile = np.repeat(np.arange(NUM_KINDS), st.discard)
            st.event_rng("reshuffle").shuffle(pile)
            st.draw = pile.tolist()
            st.origins.reshuffle(st.discard.tolist())  # X7: its composition stays public
            st.discard[:] = 0
        st.hands[p, st.draw.pop()] += 1
        st.origins.draw(p)
