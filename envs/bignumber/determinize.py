"""Big Number's determinization: one full state consistent with what a seat has seen (for
ISMCTS). ``State`` finds ``determinize`` by name as ``_determinize`` (envs/core/game.py,
``FUNCTION_MODULES``), so ``state.determinize(player, rng)`` runs it.
"""

from __future__ import annotations

import numpy as np

from .actions import ANSWER, LEAD
from .cards import NUM_TYPES, counts_of, expand


def determinize(st, player: int, rng: np.random.Generator):
    """Resample the cards ``player`` cannot see: the others' unknown cards and the aside ones.

    Known cards (picked up, not played since) stay with their holders. Another seat's
    selection in progress is invisible to ``player``, so it is dropped (the copy is at the
    start of that seat's decision, which looks the same to ``player``).
    """
    s = st.clone()
    n = st.game.num_players
    others = [q for q in range(n) if q != player]
    pool = list(st.aside)
    for q in others:
        for c in range(NUM_TYPES):
            pool[c] += st.hands[q][c] - st.known[q][c]
    cards = np.asarray(expand(pool), dtype=np.int64)
    rng.shuffle(cards)
    pos = 0
    for q in others:
        k = sum(st.hands[q]) - sum(st.known[q])
        h = list(st.known[q])
        for c in cards[pos : pos + k].tolist():
            h[c] += 1
        s.hands[q] = h
        pos += k
    s.aside = counts_of(cards[pos:].tolist())
    if st.phase in (LEAD, ANSWER) and st.current_player != player:
        s.pending = ()
    s._plays = s._mask = None
    return s
