"""Go Big's rules over arrays: the scalar rules' pure functions with leading axes (one game a row).

The batched engine (``batched.py``) and the heuristic's batched twin
(``agents/heuristics/gobig_batched.py``) both call these, so no rule is written twice for arrays;
``tests/gobig/test_kernels.py`` checks each against the scalar rules (``rules.py``) on random
positions. Cards are values 1-7 (0: none); displays are ``dval``, ``dsize`` rows over the seats.
"""

from __future__ import annotations

import numpy as np

from ..core.batched_state import seat_rows
from .actions import NUM_PLAYS, decode_play
from .cards import MARKET_SIZE, VALUES

VALUE_OF = np.arange(1, VALUES + 1)
#: the value and size of each play id (``decode_play``), flat ``(21,)`` and as ``(3 sizes, 7)``
PLAY_VALUE, PLAY_SIZE = np.array([decode_play(a) for a in range(NUM_PLAYS)]).T
PLAYS_VALUE, PLAYS_SIZE = PLAY_VALUE.reshape(3, VALUES), PLAY_SIZE.reshape(3, VALUES)


def value_cells(rows: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The cells of ``(row, value)`` in a flattened ``(B, n, 7)`` count array (``rows`` from
    ``seat_rows``): one flat write updates a count per row."""
    return rows * VALUES + values - 1


def play_mask(hand: np.ndarray) -> np.ndarray:
    """``(..., 7)`` counts in hand -> ``(..., 3, 7)``: the sets one may play (the scalar
    ``legal_mask``'s play block, by size then value)."""
    return hand[..., None, :] >= PLAYS_SIZE[:, :1]


def beaten(dval, dsize, player, value, size) -> tuple[np.ndarray, np.ndarray]:
    """The seats a set of ``size`` x ``value`` played by ``player`` beats (``beaten_seats``,
    ruling G6), as ``(..., n)`` bool over the displays ``dval``, ``dsize`` ``(..., n)``; and the
    value beaten (``VALUES + 1`` where none). ``player``, ``value``, ``size`` broadcast with
    ``(...)``; the comparisons run in the displays' dtype."""
    n = dval.shape[-1]
    higher = (np.arange(n) != player[..., None]) & (dsize == size[..., None])
    higher &= dval > value[..., None]
    nearest = np.where(higher, dval, VALUES + 1).min(axis=-1)
    return higher & (dval == nearest[..., None]), nearest


def play_ends(left, deck_size, market_first, literal: bool) -> np.ndarray:
    """Whether a play that leaves ``left`` cards in hand ends the game: at once under the
    ``literal`` end rule, else when nothing is left to draw (ruling G10): the deck holds
    ``deck_size`` cards and the market's first slot is ``market_first`` (0: empty)."""
    out = left <= 0
    return out if literal else out & (deck_size == 0) & (market_first == 0)


def scores(banks: np.ndarray) -> np.ndarray:
    """``(..., n, 7)`` banked counts -> ``(..., n)`` int64 points (the scalar ``scores``)."""
    return banks.astype(np.int64) @ VALUE_OF


def winners(banks: np.ndarray) -> np.ndarray:
    """``(..., n)`` bool: highest score, ties broken by most banked cards, still tied share
    (``winners_of``, ruling G12)."""
    s = scores(banks)
    cards = np.where(s == s.max(axis=-1, keepdims=True), banks.sum(axis=-1, dtype=np.int64), -1)
    return cards == cards.max(axis=-1, keepdims=True)


def deal(deck: np.ndarray, n: int, hand_size: int):
    """The scalar deal (``GoBigState.new``) of shuffled decks ``(k, total)``, bottom first: seat
    ``p`` takes the ``p``-th ``hand_size`` cards from the top, then the market the next two.
    Returns the hands ``(k, n, 7)``, the market ``(k, 2)`` and the cards left in each deck."""
    k, total = deck.shape
    top = total - n * hand_size
    seat = (total - 1 - np.arange(top, total)) // hand_size
    cells = value_cells(seat_rows(np.arange(k)[:, None], seat, n), deck[:, top:])
    hands = np.bincount(cells.ravel(), minlength=k * n * VALUES).reshape(k, n, VALUES)
    return hands, deck[:, top - 1 - np.arange(MARKET_SIZE)], np.full(k, top - MARKET_SIZE)
