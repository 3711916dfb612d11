"""A Go Big position as one seat could believe it: the cards it cannot see (the other hands
and the deck) reshuffled, each hand keeping its size and the cards everyone saw it take from the
market (X7). The state's ``_determinize`` is ``determinize`` here, found by name
(envs/core/game.py); ``State.determinize`` then gives the copy its own chance generator."""

from __future__ import annotations

import numpy as np

from .cards import CARD_VALUES, VALUES


def determinize(st, player: int, rng: np.random.Generator):
    """Reshuffle the cards ``player`` cannot see (other hands and the deck), keeping sizes and
    the cards each seat is known to hold (taken from the market)."""
    s = st.copy(None)  # determinize() gives it its own generator
    others = [q for q in range(st.game.num_players) if q != player]
    pool = np.concatenate(
        [np.asarray(st.deck, dtype=np.int64)]
        + [np.repeat(CARD_VALUES, st.hands[q] - st.known[q]) for q in others]
    )
    rng.shuffle(pool)
    k = len(st.deck)
    s.deck = pool[:k].tolist()
    for q in others:
        size = int((st.hands[q] - st.known[q]).sum())
        s.hands[q] = st.known[q] + np.bincount(pool[k : k + size] - 1, minlength=VALUES)
        k += size
    return s
