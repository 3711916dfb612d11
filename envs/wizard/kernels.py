"""Wizard's rules over arrays: ``cards.py``'s pure functions with leading axes (one game a row).

The batched engine (``batched.py``) and the heuristic's batched twin
(``agents/heuristics/wizard_batched.py``) both call these, so no rule is written twice for arrays;
``tests/wizard/test_kernels.py`` checks each against its scalar function on random positions.
Cards are kinds (0-51 suited, 52 Wizard, 53 Null); trumps and led suits are ``cards.py``'s codes.
Most kernels are one lookup in a table built at import (by calling the scalar function where
there is one): a ``take`` on flat indices is far cheaper than the comparisons it replaces.
"""

from __future__ import annotations

import numpy as np

from .actions import PHASE_PLAY
from .cards import LED_FREE, LED_NONE, NULL, NUM_KINDS, NUM_SUITED, NUM_SUITS, RANKS, WIZARD
from .cards import next_led as _next_led
from .cards import trump_after_flip as _trump_after_flip

KINDS = np.arange(NUM_KINDS)
SUITED = KINDS < NUM_SUITED
SUIT = np.where(SUITED, KINDS // RANKS, -1)  # -1: Wizard, Null
RANK = np.where(SUITED, KINDS % RANKS, 0)  # 0-12 (0 for Wizard and Null: never read as ranks)
_LEDS = np.arange(LED_NONE, LED_FREE + 1)  # the led codes, by ``led + 1``
_IS_SUIT = (_LEDS >= 0) & (_LEDS < NUM_SUITS)  # a suit is to be followed
#: by ``led + 1``, kind: the led suit after the card is played
NEXT_LED = np.array([[_next_led(int(led), c) for c in range(NUM_KINDS)] for led in _LEDS])
# ... and the void the card shows: a suited card off the led suit shows ``1 << led``, else 0
_VOID = np.where(_IS_SUIT[:, None] & SUITED & (SUIT != _LEDS[:, None]), 1 << _LEDS[:, None], 0)
_NEXT_FLAT, _VOID_FLAT = NEXT_LED.ravel(), _VOID.ravel()
# by ``flipped + 1`` (-1: nothing flipped): the trump it sets
_TRUMP_BY_FLIP = np.array([_trump_after_flip(f) for f in range(-1, NUM_KINDS)])
# the kinds one may play when following suit ``s`` (row 4: anything), and by ``led + 1`` the suit
# column of a hand's counts that says whether it holds the led suit
_FOLLOW = np.ones((NUM_SUITS + 1, NUM_KINDS), dtype=bool)
_FOLLOW[:NUM_SUITS, :NUM_SUITED] = SUIT[:NUM_SUITED] == np.arange(NUM_SUITS)[:, None]
_COLUMN = np.where(_IS_SUIT, _LEDS, 0)
# card_keys' table by trump, ``led + 1``, kind: the key at place 0, and whether it falls by place
_T, _L = np.arange(NUM_SUITS + 1)[:, None, None], _LEDS[:, None]
_BY_PLACE = (KINDS == WIZARD) | ~(SUITED & ((SUIT == _T) | (SUIT == _L)))
_KEY = np.where(SUITED & (SUIT == _T), 100 + RANK, np.where(_BY_PLACE, -1, RANK))
_KEY, _BY_PLACE = np.where(KINDS == WIZARD, 300, _KEY).ravel(), _BY_PLACE.astype(int).ravel()
# SUIT_OF[kind, suit] = 1 for the suited kinds: counts @ SUIT_OF = cards per suit (a float32
# product of small counts is exact, and far cheaper than a reshaped sum)
_SUIT_OF = (SUIT[:NUM_SUITED, None] == np.arange(NUM_SUITS)).astype(np.float32)


def after_card(led, card):
    """``(cards.next_led(led, card), void bit)``: the led suit once ``card`` is played, and the
    suit (``1 << led``) a suited card off the led suit shows its player lacks (0 otherwise)."""
    at = (led + 1) * NUM_KINDS + card
    return _NEXT_FLAT.take(at), _VOID_FLAT.take(at)


def trump_after_flip(flipped):
    """``cards.trump_after_flip`` (-1: nothing flipped)."""
    return _TRUMP_BY_FLIP.take(flipped + 1)


def led_column(led):
    """The suit column to read a hand's ``led_held`` count from (any one when no suit is led)."""
    return _COLUMN.take(led + 1)


def playable(held, led, led_held):
    """``cards.playable``: ``held`` ``(..., 54)`` bool, ``led`` ``(...)``, ``led_held`` ``(...)``
    whether the hand holds the led suit (read only where a suit is led)."""
    must = _IS_SUIT.take(led + 1) & led_held
    return held & _FOLLOW.take(np.where(must, led, NUM_SUITS), axis=0)


def suit_counts(hands):
    """Suited cards per suit of count rows ``(..., 54)`` (as ``WizardState.recount``), int8."""
    rows = hands.reshape(-1, NUM_KINDS)[:, :NUM_SUITED].astype(np.float32)
    return (rows @ _SUIT_OF).astype(np.int8).reshape(hands.shape[:-1] + (NUM_SUITS,))


def card_keys(cards, place, trump, led):
    """One key per played card of a trick, the highest wins (W9): the first Wizard (``300 -
    place``), else a trump (``100 + rank``), else the led suit (rank; suited cards are unique, so
    these never tie), else the first card played (``-1 - place``: a trick of Nulls). ``place``,
    ``trump`` (0-4) and ``led`` broadcast against ``cards``; two lookups in one table."""
    at = (trump * len(_LEDS) + led + 1) * NUM_KINDS + cards
    return _KEY.take(at) - place * _BY_PLACE.take(at)


def led_suit(trick):
    """``cards.led_suit`` of tricks ``(..., n)`` in play order."""
    named = trick != NULL
    first = np.take_along_axis(trick, named.argmax(axis=-1)[..., None], axis=-1)[..., 0]
    return np.where(named.any(axis=-1), NEXT_LED[0].take(first), LED_NONE)


def trick_winner(trick, trump):
    """``cards.trick_winner``: the place of the winning card of complete tricks ``(..., n)`` in
    play order; ``trump`` ``(...)``."""
    place = np.arange(trick.shape[-1])
    return card_keys(trick, place, trump[..., None], led_suit(trick)[..., None]).argmax(axis=-1)


def forbidden_bid(rnd, bids):
    """``cards.forbidden_dealer_bid`` given the bids so far ``(..., n)`` (-1: none yet), -1 for
    None: the dealer's bid that would make the bids total the round's cards (W6)."""
    f = rnd - np.maximum(bids, 0).sum(axis=-1)
    return np.where((f >= 0) & (f <= rnd), f, -1)


def round_score(bid, tricks):
    """``cards.round_score`` (W10)."""
    return np.where(bid == tricks, 20 + 10 * tricks, -10 * np.abs(tricks - bid))


def own_hand_hidden(foresight: bool, rnd, phase):
    """``WizardState.own_hand_hidden`` (W5): the Foresight round, before the play."""
    return (rnd == 1) & (phase < PHASE_PLAY) & foresight
