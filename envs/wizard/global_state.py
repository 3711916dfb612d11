"""Wizard's global state (``env.state()``, for centralised critics; ``WizardState.global_state``,
found by name): the public pieces of the observation in absolute seat order (seat 0's observation
without hand, hand_hidden, foresight), then every seat's hand, whether the Foresight round hides
the own cards now, and the stock's cards (``game.state_layout.table()``)."""

from __future__ import annotations

import numpy as np

from ..core.encoding import Layout
from ..core.global_state import StateLayout
from .cards import COUNT_SCALE, NUM_KINDS
from .encoding import PRIVATE_PIECES


def make_state_layout(observation: Layout, n: int) -> StateLayout:
    """The observation's public pieces as seat 0 sees them, then what only the table knows. The
    stock's order is not encoded: it is never drawn from (the next round shuffles all 60 cards)."""
    return StateLayout(
        observation,
        PRIVATE_PIECES,
        [
            ("hands", (n, NUM_KINDS)),  # every seat's hand, as "hand"
            (
                "foresight_hidden",
                1,
            ),  # 1 while each seat's own card is hidden (Foresight, before play)
            ("stock", NUM_KINDS),  # the undealt cards under the flipped one, count / copies
        ],
    )


def global_state(st) -> np.ndarray:
    """Every hand and the stock, with the public pieces as seat 0 sees them."""
    buf, v = st.game.state_layout.start(st.observe(0))
    v["hands"] = st.hand_obs
    v["foresight_hidden"] = st.own_hand_hidden(0)  # the same for every seat
    v["stock"] = st.stock * COUNT_SCALE
    return buf
