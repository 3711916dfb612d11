"""BigWig's well draws (ruling B11 step 10): after a trick, every player who played the well
card takes it back, sacrifices another card and draws 1-3 cards for it, never beyond 9 in hand;
the empty draw pile is refilled from the discard pile (B23). ``WellDrawMixin`` holds these steps
of ``BigWigState``.
"""

from __future__ import annotations

import numpy as np

from .actions import PHASE_SACRIFICE, SACRIFICE_BASE
from .cards import HAND_LIMIT, NUM_KINDS, draw_entitlement


def draws_allowed(entitlement: int, hand_size: int) -> int:
    """Cards drawn: the entitlement, capped by the hand limit of 9 (B21)."""
    return max(0, min(entitlement, HAND_LIMIT - hand_size))


class WellDrawMixin:
    """``BigWigState``'s well draws (they use its fields and ``hand_size``, ``event_rng``,
    ``_finish_round``)."""

    __slots__ = ()

    def _sacrifice(self, p: int, action: int) -> None:
        k = action - SACRIFICE_BASE
        self.hands[p, k] -= 1
        self.discard[k] += 1
        self.origins.reveal(p, k)
        self._draw(p, draw_entitlement(k))
        self.queue.pop(0)
        self._next_sacrifice()

    def _next_sacrifice(self) -> None:
        """Step 10: well draws in order; a player holding only the well draws 2 at once (B22)."""
        while self.queue:
            p = self.queue[0]
            if self.hands[p].any():
                self.phase = PHASE_SACRIFICE
                self.current_player = p
                return
            self._draw(p, 2)
            self.queue.pop(0)
        self._finish_round()

    def _draw(self, p: int, entitlement: int) -> None:
        for _ in range(draws_allowed(entitlement, self.hand_size(p))):
            if not self.draw:  # B23: reshuffle when a draw is needed
                if not self.discard.any():
                    return
                pile = np.repeat(np.arange(NUM_KINDS), self.discard)
                self.event_rng("reshuffle").shuffle(pile)
                self.draw = pile.tolist()
                self.origins.reshuffle(self.discard.tolist())  # X7: its composition stays public
                self.discard[:] = 0
            self.hands[p, self.draw.pop()] += 1
            self.origins.draw(p)
