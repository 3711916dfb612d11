"""BigWig's rules as array kernels over any leading axes, the one copy that the batched engine
(``batched.py``) and the heuristic's batched twin (``agents/heuristics/bigwig_batched.py``)
share. The scalar rules are the specification (``trick.py``, ``rules.py``, ``cards.py``,
``wells.py``, ``holmgang.py``); tests/bigwig/test_kernels.py checks every kernel against its
scalar function on many random positions.

Tricks are laid out positions first: ``kind`` ``(m, ...)`` int8, the card of each of the ``m``
positions (``WELL`` for a well card or nobody). Every step of the resolution reduces over the
positions by combining ``m`` contiguous planes, which numpy does far faster than reducing a short
last axis; each card's data comes from two table lookups (``VALUE``, ``_FLAGS``).
"""

from __future__ import annotations

import numpy as np

from ..core.batched_state import per_seat, seat_rows
from .cards import (
    DVERGAR,
    FENRIR,
    FIVE_COLOUR,
    FIVES,
    HAND_LIMIT,
    HUGIN_MUNIN,
    KIND_COLOUR,
    KIND_VALUE,
    LOKI,
    NUM_KINDS,
    NUM_STANDARD,
    POINT_VP,
    WELL,
    draw_entitlement,
)
from .trick import EFFECT_KINDS

NONE = -1
_KINDS = np.arange(NUM_KINDS + 1)  # the well (46) as a last row that no test selects
VALUE = np.append(KIND_VALUE, 0).astype(np.int8)
_SPECIAL, _EFFECT = 1 << 8, 1 << 9
# the flags of each kind in one uint16: bits 0-3 its colour (standard cards), 4-7 the colour a 5
# makes trump, 8 special, 9 effect (B5-B7)
_FLAGS = (
    np.array([0 if k >= NUM_STANDARD else 1 << int(KIND_COLOUR[k]) for k in _KINDS[:-1]] + [0])
    | (np.array([1 << FIVE_COLOUR[k] if k in FIVES else 0 for k in _KINDS]) << 4)
    | ((_KINDS >= NUM_STANDARD) & (_KINDS < WELL)) * _SPECIAL
    | np.isin(_KINDS, list(EFFECT_KINDS)) * _EFFECT
).astype(np.uint16)
_COLOUR_WEIGHT = 1 << np.arange(4)
#: cards drawn for sacrificing each kind (B20)
ENTITLE = np.array([draw_entitlement(k) for k in range(NUM_KINDS)])
_POINT_VP32 = POINT_VP.astype(np.float32)  # a BLAS product, exact for these small integers


# ---- the trick (ruling B11, steps 1-6 and 8) -----------------------------------------------------
def trump_bits(trump: np.ndarray) -> np.ndarray:
    """Trump colours ``(..., 4)`` bool as one int per row (bit c: colour c)."""
    return trump.astype(np.int64) @ _COLOUR_WEIGHT


def trick(kind: np.ndarray, bits: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(hits, active, valid)``, each ``(m, ...)`` bool: the positions holding the best card of
    each trick (the winner when it is the only one), the specials whose effect applies and the
    cards that may win. ``kind`` ``(m, ...)`` int8, ``bits`` ``(...)`` the point card's colours
    (``trump_bits``). As ``trick.resolve_trick``."""
    idx = kind.astype(np.intp)
    card = kind != WELL  # step 1
    val = VALUE.take(idx)
    flags = _FLAGS.take(idx)
    spec = (flags & _SPECIAL) > 0
    same = np.zeros(kind.shape, dtype=np.int8)  # specials of the same value, itself included
    for j in range(len(kind)):
        same += spec[j] & (val[j] == val)
    active = ((flags & _EFFECT) > 0) & (same < 2)  # step 2 (B9)
    fenrir = active & (kind == FENRIR)  # step 3 (B10)
    active = np.where(np.logical_or.reduce(fenrir, axis=0), fenrir, active)
    hm = active & (kind == HUGIN_MUNIN)  # step 4 (B8)
    others = card & ~hm
    top = np.where(others, val, np.int8(-1)).max(axis=0)
    invalid = np.logical_or.reduce(hm, axis=0) & others & (val == top)
    active &= ~invalid
    # step 5 (B6, B12): an effective 5's colour alone (two 5s cancel: one at most)
    five = np.bitwise_or.reduce(np.where(active, flags >> 4, np.uint16(0)), axis=0) & 15
    colours = np.where(five > 0, five, np.asarray(bits).astype(np.uint16))
    valid = card & ~invalid
    lowest = np.logical_or.reduce(active & (kind == DVERGAR), axis=0)
    trump = valid & (spec | ((flags & colours) > 0))
    plain = valid & ~trump
    pool = np.where(
        lowest,
        np.where(np.logical_or.reduce(plain, axis=0), plain, trump),
        np.where(np.logical_or.reduce(trump, axis=0), trump, valid),
    )  # step 6 (B13, B14)
    key = np.where(pool, np.where(lowest, -val, val), np.int8(-100))
    return pool & (key == key.max(axis=0)), active, valid


def winner(hits: np.ndarray) -> np.ndarray:
    """The winning position of each trick (``trick``'s ``hits``), ``-1`` for none (a tie)."""
    return np.where(hits.sum(axis=0, dtype=np.int8) == 1, hits.argmax(axis=0), NONE)


def first_wins(hits: np.ndarray) -> np.ndarray:
    """Whether the first position wins each trick (``winner(hits) == 0`` without the argmax)."""
    return hits[0] & (hits.sum(axis=0, dtype=np.int8) == 1)


def trick_winners(kind: np.ndarray, bits: np.ndarray) -> np.ndarray:
    """``winner`` of tricks laid out positions last, ``kind`` ``(..., m)`` (as
    ``trick.trick_winner``, ``-1`` for None)."""
    planes = np.ascontiguousarray(np.moveaxis(np.asarray(kind, dtype=np.int8), -1, 0))
    return winner(trick(planes, np.asarray(bits))[0])


def loki(kind, active, valid) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Step 8 (B15): ``(has, at, takes_all)``: whether an effective Loki is in each trick, its
    position, and whether it takes every altar card (no other valid card lower than 4)."""
    lk = active & (kind == LOKI)
    lower = valid & ~lk & (VALUE.take(kind.astype(np.intp)) < VALUE[LOKI])
    has = np.logical_or.reduce(lk, axis=0)
    return has, lk.argmax(axis=0), has & ~np.logical_or.reduce(lower, axis=0)


# ---- hands, draws, scores -----------------------------------------------------------------------
def card_counts(hands: np.ndarray) -> np.ndarray:
    """``(...)`` int8: the cards in each hand ``(..., 46)`` (``einsum`` sums int8 rows several
    times faster than ``sum(axis=-1, dtype=np.int8)``, with the same result)."""
    return np.einsum("...k->...", hands)


def hand_sizes(hands, well, commits=None) -> np.ndarray:
    """Cards in hand, the well included (``BigWigState.hand_size``); with ``commits``, a face-down
    committed card counts too (``public_sizes``)."""
    size = card_counts(hands) + well
    return size if commits is None else size + (commits != NONE)


def draws_allowed(entitlement, size) -> np.ndarray:
    """Cards drawn: the entitlement capped by the hand limit of 9 (B21; ``wells.draws_allowed``)."""
    return np.maximum(np.minimum(entitlement, HAND_LIMIT - np.asarray(size, dtype=np.int64)), 0)


def vp(collected: np.ndarray) -> np.ndarray:
    """``(...)`` int64: the VP of each seat's collected point cards ``(..., 15)``."""
    rows = collected.reshape(-1, collected.shape[-1]).astype(np.float32)
    return (rows @ _POINT_VP32).astype(np.int64).reshape(collected.shape[:-1])


def winners(vp: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """``(..., n)`` bool: most VP; ties: most cards in hand (the well included); still tied:
    shared (B33, ``rules.winners_of``)."""
    tied = vp == vp.max(axis=-1, keepdims=True)
    size = np.where(tied, sizes, -1)
    return size == size.max(axis=-1, keepdims=True)


def challenger(vp: np.ndarray, age_rank: np.ndarray) -> np.ndarray:
    """The seat with the fewest VP, ties to the youngest (B24, ``holmgang.challenger_of``)."""
    return (vp * len(age_rank) + age_rank).argmin(axis=-1)


def to_the_left(values: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """``(k, n - 1)``: the values ``(k, n)`` of the seats 1 .. n - 1 to the left of ``seats``
    (the targets of a challenge, in action order)."""
    k, n = values.shape
    left = seat_rows(np.arange(k)[:, None], (seats[:, None] + np.arange(1, n)) % n, n)
    return per_seat(values).take(left)  # a flat ``take``: cheaper than ``take_along_axis``
