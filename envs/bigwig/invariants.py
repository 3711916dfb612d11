"""BigWig's internal invariants (the state's ``check_invariants``, found here by name): card
conservation, the hand limit, the ticket window's secret joins and the public record of the draw
piles.

The conformance checks and the tests call them during playouts, and loading a saved state runs
them after its field checks (envs/core/saved.py). A broken one is a bug in the engine, not an
illegal move, hence ``AssertionError``.
"""

from __future__ import annotations

import numpy as np

from . import holmgang
from .actions import NONE, PHASE_TICKET
from .cards import (
    HAND_LIMIT,
    HOLMGANG,
    KIND_COPIES,
    NUM_POINT_KINDS,
    NUM_SMALL_KINDS,
    SMALL_COPIES,
    TIL_VALHALLAR,
    WELL,
)


def check_invariants(st) -> None:
    """Card conservation (52 large cards, one well each, 20 point cards, 4 holmgangs) and the
    hand limit."""
    n = st.game.num_players
    large = st.hands.sum(axis=0) + st.discard
    for k in st.draw:
        large[k] += 1
    wells = list(st.well)
    for s in range(n):
        k = st.commits[s]
        if k == WELL:
            if wells[s]:
                raise AssertionError(f"seat {s}'s well is both in hand and in the trick")
            wells[s] = True
        elif k != NONE:
            large[k] += 1
    if not (large == KIND_COPIES).all() or not all(wells):
        raise AssertionError(f"large-card conservation broken: {large.tolist()} wells {st.well}")
    small = np.zeros(NUM_SMALL_KINDS, dtype=np.int64)
    small[:NUM_POINT_KINDS] = st.collected.sum(axis=0) + st.altar
    for k in st.small:
        small[k] += 1
    if st.point_on_table:
        small[st.round_card] += 1
    small[HOLMGANG] += st.holmgangs
    if not (small == SMALL_COPIES).all():
        raise AssertionError(f"small-card conservation broken: {small.tolist()}")
    if (st.collected < 0).any() or (st.hands < 0).any():
        raise AssertionError("negative card count")
    if (st.public_sizes() > HAND_LIMIT).any():
        raise AssertionError(f"a seat holds more than {HAND_LIMIT} cards: {st.public_hand_sizes()}")
    _check_tickets(st)
    _check_origins(st)


def _check_tickets(st) -> None:
    """The ticket window asks the onlookers in age order; a secret join holds a ticket."""
    if st.phase != PHASE_TICKET:
        if st.tickets:
            raise AssertionError(f"secret joins {st.tickets} outside the ticket window")
        return
    if not st.queue or st.current_player != st.queue[0]:
        raise AssertionError(f"seat {st.current_player} asked, queue {st.queue}")
    if [s for s in holmgang.decided(st) if s in st.tickets] != st.tickets:
        raise AssertionError(f"secret joins {st.tickets} by seats that have not decided")
    if any(not st.hands[s, TIL_VALHALLAR] for s in st.tickets):
        raise AssertionError(f"a secret join {st.tickets} without a Til Valhallar")


def _check_origins(st) -> None:
    """The public record of the draw piles agrees with the cards' places (counts only)."""
    o = st.origins
    for q in range(st.game.num_players):
        hidden = int(st.hands[q].sum()) + (st.commits[q] not in (NONE, WELL))
        if o.hidden_count(q) != hidden:
            raise AssertionError(f"seat {q}: {o.hidden_count(q)} on record, {hidden} held")
    for b, (left, held) in enumerate(zip(o.left, o.held)):
        pile = len(st.draw) if b == len(o.left) - 1 else 0
        if min(left) < 0 or min(held) < 0 or sum(left) != sum(held) + pile:
            raise AssertionError(f"draw pile record {b}: left {left}, held {held}, pile {pile}")
