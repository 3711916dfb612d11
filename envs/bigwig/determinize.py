"""BigWig's determinization: one full state consistent with what a seat has seen (for ISMCTS).

``BigWigState._determinize`` (so ``state.determinize(player, rng)``) is ``determinize``, found here
by name (``FUNCTION_MODULES``, envs/core/game.py).
"""

from __future__ import annotations

import numpy as np

from . import holmgang
from .actions import NONE, PHASE_TICKET
from .cards import NUM_KINDS, TIL_VALHALLAR, WELL


def determinize(st, player: int, rng: np.random.Generator):
    """Resample what ``player`` cannot see: other hands, their face-down commits (the well
    included), the draw pile's contents and order, and the order of the altar pile.

    The hidden cards are redealt consistently with the public record of the draw piles
    (``origins.py``): a card of a reshuffled pile is still in it or in the hand of a seat that
    drew from it since. In the ticket window the other onlookers' secret decisions are
    resampled too: one that has decided joins with probability 1/2 if its new hand holds a
    Til Valhallar, else declines (every onlooker is asked, so being asked says nothing)."""
    s = st.clone()
    n = st.game.num_players
    own = np.repeat(np.arange(NUM_KINDS), st.hands[player]).tolist()
    if st.commits[player] not in (NONE, WELL):
        own.append(st.commits[player])
    hands, s.draw = st.origins.deal_hidden(player, own, len(st.draw), rng)
    for q in range(n):
        if q == player:
            continue
        s.hands[q] = hands[q]
        s.well[q] = True
        if st.commits[q] != NONE:  # any of q's cards may be the face-down one, even the well
            cards = np.repeat(np.arange(NUM_KINDS), hands[q])
            pick = int(rng.integers(len(cards) + 1))
            if pick == len(cards):
                s.well[q] = False
                s.commits[q] = WELL
            else:
                s.hands[q, cards[pick]] -= 1
                s.commits[q] = int(cards[pick])
    if st.phase == PHASE_TICKET:  # the other onlookers' decisions are secret
        s.tickets = []
        for q in holmgang.decided(st):
            if q == player:
                joins = q in st.tickets
            else:
                joins = bool(s.hands[q, TIL_VALHALLAR]) and rng.random() < 0.5
            if joins:
                s.tickets.append(q)
    small = list(st.small)
    rng.shuffle(small)
    s.small = small
    return s
