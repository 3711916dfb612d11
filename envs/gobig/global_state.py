"""Go Big's global state (``env.state()``, for centralised critics; float32 in [0, 1], absolute
seats): the observation's pieces as seat 0 sees them except its ``hand``, then ``hands`` (every
seat's), ``deck`` (count of each value) and ``deck_next`` (the next ``DECK_WINDOW`` deck cards in
order, top first: the deck is the future; deeper cards only by their counts).

The state's ``global_state`` is ``global_state`` here, found by name (envs/core/game.py).
"""

from __future__ import annotations

import numpy as np

from ..core.encoding import Layout
from ..core.global_state import StateLayout, put_pile
from .cards import VALUES

# Deck cards the global state shows in order: every draw and market refill takes 2 from the top,
# so 12 cover six of them (a round and a half at 4 players); the rest of the deck is in its counts.
DECK_WINDOW = 12


def make_state_layout(layout: Layout, n: int) -> StateLayout:
    """The global state's pieces at ``n`` players, after the observation's (``layout``)."""
    return StateLayout(
        layout,
        ("hand",),
        [
            ("hands", (n, VALUES)),  # every seat's hand, count of each value / copies
            ("deck", VALUES),  # deck cards of each value / copies
            ("deck_next", (DECK_WINDOW, VALUES)),  # one-hot value of the next 12, top first
        ],
    )


def global_state(st) -> np.ndarray:
    """Seat 0's observation without its hand, then every hand and the deck (counts, top 12)."""
    buf, v = st.game.state_layout.start(st.observe(0))
    v["hands"] = st.hands * (1.0 / st.game.copies)
    put_pile(v["deck"], v["deck_next"], st.deck, 1.0 / st.game.copies, offset=1)
    return buf
