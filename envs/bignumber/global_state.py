"""Big Number's global state (``env.state()``, ``game.state_layout``): the full-information
encoding for centralised critics. A function of the state, found by ``State`` by name
(envs/core/game.py, ``FUNCTION_MODULES``).

Seat 0's observation without its own pieces (its hand, and with two decks its selection), in
absolute seat order, then what no seat sees: every hand, the play the seat to act is building and
the aside cards (N3). No card order: each deal is shuffled afresh, nothing is drawn.
"""

from __future__ import annotations

import numpy as np

from ..core.encoding import Layout
from ..core.global_state import StateLayout
from .actions import ANSWER, LEAD
from .cards import NUM_TYPES, counts_of


def make_state_layout(layout: Layout, n: int, two_decks: bool) -> StateLayout:
    """The global state: seat 0's observation without its own pieces, then what no seat sees."""
    hidden = [("hands", (n, NUM_TYPES))]  # every seat's cards, count / copies
    if two_decks:
        hidden.append(("selection", NUM_TYPES))  # the play the seat to act is building
    hidden.append(("aside", NUM_TYPES))  # the cards dealt to nobody this deal (N3)
    own = ("hand", "selection") if two_decks else ("hand",)  # the observer's pieces
    return StateLayout(layout, own, hidden)


def global_state(st) -> np.ndarray:
    """Seat 0's observation without its own pieces, then every hand, the selection being built
    and the aside cards."""
    g = st.game
    buf, v = g.state_layout.start(st.observe(0))
    scale = 1.0 / g.copies
    v["hands"] = np.asarray(st.hands) * scale
    v["aside"] = np.asarray(st.aside) * scale
    if st.pending and st.phase in (LEAD, ANSWER):
        v["selection"] = np.asarray(counts_of(st.pending)) * scale
    return buf
