"""The Big Number heuristic for many games at once: ``decide(engine, lanes, mask, rng)`` answers,
for every lane of a ``BigNumberBatched`` engine, exactly what ``bignumber.HeuristicAgent``
answers for that lane's current player (``tests/agents/test_heuristic_bignumber_batched.py``
checks it on thousands of positions, loaded from scalar games into the lanes).

It reads only what the seat to act may know: its own hand (and, with two decks, its own
selection), the middle, and the public hand sizes.

How the scalar agent is matched bit for bit:

* The plays. One deck: the legal mask lists every legal play (one action a set). Two decks (a
  play chosen card by card): the plays that extend the selection, ``kernels.plays`` (the
  engine's two-deck mask reads the same list).
* Values. ``hand_value`` is ``-size + 0.7 (group - 1) + 0.04 pips (+ 1.5)``, and a play's score
  adds 0.3 and, in danger, 0.5 a card beyond the first: in exact arithmetic every value is a
  whole number of hundredths, so the scalar ``v > best + 1e-9`` (a float rounding error is far
  below 1e-9, a real difference at least 0.01) is ``>`` on those integers, which is what the
  scans here compare. The integer weights are the scalar constants times 100, checked to be whole.
* Ties. The scalar agent keeps the first of equal values in the order it scans: the plays in
  ascending tuple order (``legal_plays`` is sorted), the pick-up candidates from the highest card
  down. Here a play's tuple order is a base-37 number of its cards (biggest first, padded), and
  the pick-up candidates are listed highest first, so ``argmax`` keeps the same one.
* The one comparison without a tolerance, passing when ``hand_value(hand) >= best``, compares
  floats computed with the scalar's operations in the scalar's order.

The heuristic never draws a random number, so ``rng`` (part of the twins' protocol) is unused.
"""

from __future__ import annotations

import numpy as np

from deckzoo.envs.bignumber import kernels as K
from deckzoo.envs.bignumber.actions import (
    ADD_BASE,
    ANSWER,
    FINISH,
    PASS,
    PICK,
    PICK_BASE,
    PLAY_BASE,
)
from deckzoo.envs.bignumber.batched import BigNumberBatched
from deckzoo.envs.bignumber.cards import HAND_SIZE, NUM_TYPES, RANKS

from .bignumber import GROUP_WEIGHT, RANK_WEIGHT, TEMPO_BONUS, UNIFORM_BONUS, hand_value

DANGER_WEIGHT = 0.5  # the scalar ``choose``'s weight of a card beyond the first, in danger
_UNIT = 100  # values in hundredths


def _hundredths(w: float) -> int:
    x = w * _UNIT
    r = round(x)
    assert abs(x - r) < 1e-6, f"{w} is not a whole number of hundredths"
    return r


_EMPTY_VALUE = hand_value([0] * NUM_TYPES)  # the value of an empty hand (going out)
_EMPTY_KEY = _hundredths(_EMPTY_VALUE)
_GROUP_KEY = _hundredths(GROUP_WEIGHT)
_RANK_KEY = _hundredths(RANK_WEIGHT)
_UNIFORM_KEY = _hundredths(UNIFORM_BONUS)
_TEMPO_KEY = _hundredths(TEMPO_BONUS)
_DANGER_KEY = _hundredths(DANGER_WEIGHT)

_PIPS = np.arange(1, RANKS + 1)
_BASE = NUM_TYPES + 1  # tuple order: a card c is the digit c + 1, a missing card 0
_POWB = _BASE ** np.arange(2 * HAND_SIZE + 1, dtype=np.int64)
_REPB = (_POWB - 1) // (_BASE - 1)


def _order_key(cand: np.ndarray) -> np.ndarray:
    """``(P,)``: a number that sorts plays (count vectors ``(P, 36)`` of at most 9 cards) as the
    scalar sorts their descending tuples: digit ``c + 1`` a card, biggest first, padded with 0."""
    key = np.zeros(len(cand), dtype=np.int64)
    for c in range(NUM_TYPES - 1, -1, -1):
        k = cand[:, c]
        key = key * _POWB[k] + (c + 1) * _REPB[k]
    return key * _POWB[HAND_SIZE - cand.sum(axis=1)]


_SET_KEY = _order_key(K.SET_COUNTS)  # one deck: the plays are the sets


# ---- hand_value ---------------------------------------------------------------------------------
def hand_keys(suits: np.ndarray, ranks: np.ndarray):
    """``hand_value`` of hands given by their suit counts ``(..., 4)`` and rank counts
    ``(..., 9)``: ``(key, value)``, the value in hundredths as an exact integer, and the float the
    scalar ``_hand_value`` computes (same operations, same order)."""
    return _keys(*_summary(suits, ranks))


def _summary(suits, ranks):
    """What ``hand_value`` reads of a hand: size, pips, the longest group, the suits and ranks
    held."""
    size = suits.sum(axis=-1)
    pips = ranks @ _PIPS
    group = np.maximum(suits.max(axis=-1), ranks.max(axis=-1))
    return size, pips, group, (suits > 0).sum(axis=-1), (ranks > 0).sum(axis=-1)


def _keys(size, pips, group, num_suits, num_ranks):
    uniform = K.one_group(size, num_suits, num_ranks)
    key = -_UNIT * size + _GROUP_KEY * (group - 1) + _RANK_KEY * pips + _UNIFORM_KEY * uniform
    key = np.where(size == 0, _EMPTY_KEY, key)
    value = -size.astype(np.float64) + GROUP_WEIGHT * (group - 1) + RANK_WEIGHT * pips
    value = np.where(uniform, value + UNIFORM_BONUS, value)
    value = np.where(size == 0, _EMPTY_VALUE, value)
    return key, value


def _middle_list(middle: np.ndarray) -> np.ndarray:
    """``(k, 9)``: the distinct card types of each middle, highest first (-1: none)."""
    listed = np.sort(np.where(middle > 0, K.TYPES, -1), axis=1)[:, ::-1]
    return listed[:, :HAND_SIZE]


def _best_pick(suits, ranks, listed):
    """``best_pick``: for hands ``(P, 4)``/``(P, 9)`` and their candidates ``listed`` ``(P, 9)``
    (highest first, -1 = none), the card whose pick-up leaves the best hand (the first of the
    best, i.e. the higher card), and that hand's ``hand_keys``."""
    size, pips, group, num_suits, num_ranks = _summary(suits, ranks)
    c = np.maximum(listed, 0)
    # adding card c raises one suit count and one rank count by one
    in_suit = np.take_along_axis(suits, K.SUIT[c], axis=1)
    in_rank = np.take_along_axis(ranks, K.RANK[c] - 1, axis=1)
    key, value = _keys(
        size[:, None] + 1,
        pips[:, None] + K.RANK[c],
        np.maximum(group[:, None], np.maximum(in_suit, in_rank) + 1),
        num_suits[:, None] + (in_suit == 0),
        num_ranks[:, None] + (in_rank == 0),
    )
    key = np.where(listed >= 0, key, np.iinfo(np.int64).min)
    j = key.argmax(axis=1)
    rows = np.arange(len(listed))
    return listed[rows, j], key[rows, j], value[rows, j]


# ---- decide -------------------------------------------------------------------------------------
def decide(
    engine: BigNumberBatched,
    lanes: np.ndarray,
    mask: np.ndarray,
    rng: np.random.Generator | None = None,
) -> np.ndarray:
    """The heuristic's action for the current player of each of ``lanes`` (every lane must be at
    a decision); ``mask`` is the engine's legal mask for those lanes, ``(len(lanes), A)``."""
    lanes = np.asarray(lanes, dtype=np.int64)
    mask = np.asarray(mask)
    out = np.zeros(len(lanes), dtype=np.int64)
    phase = engine.phase[lanes]
    pick = np.flatnonzero(phase == PICK)
    if len(pick):
        out[pick] = _pick(engine, lanes[pick])
    play = np.flatnonzero(phase <= ANSWER)  # a lead or an answer
    if len(play):
        out[play] = _play(engine, lanes[play], mask, play)
    return out


def _pick(engine: BigNumberBatched, lanes: np.ndarray) -> np.ndarray:
    suits, ranks = K.split(engine.held(lanes).astype(np.int64))
    card, _, _ = _best_pick(suits, ranks, _middle_list(engine.middle[lanes]))
    return PICK_BASE + card


def _play(engine: BigNumberBatched, lanes: np.ndarray, mask: np.ndarray, at) -> np.ndarray:
    """``lanes`` at a play (a lead or an answer); ``mask[at]`` are their legal masks."""
    k, n = len(lanes), engine.n
    cur = engine.cur[lanes]
    hand = engine.held(lanes).astype(np.int64)
    size = hand.sum(axis=1)
    answer = engine.phase[lanes] == ANSWER
    sizes = engine.hsize[lanes]
    others = np.where(np.arange(n)[None, :] == cur[:, None], np.iinfo(np.int64).max, sizes)
    danger = others.min(axis=1) <= 2
    two = engine.two
    if two:
        sel, ks = engine.pending[lanes].astype(np.int64), engine.psize[lanes]
        row, cand = engine.plays(lanes)
    else:
        sel, ks = None, np.zeros(k, dtype=np.int64)
        # the legal plays, from the mask (only lanes at a play have set actions in it)
        flat = np.flatnonzero(np.ascontiguousarray(mask))
        flat = flat[flat % mask.shape[1] >= PLAY_BASE]
        local = np.full(len(mask), -1, dtype=np.int64)
        local[at] = np.arange(k)
        row, ids = local[flat // mask.shape[1]], flat % mask.shape[1] - PLAY_BASE
        row, ids = row[row >= 0], ids[row >= 0]
        cand = K.SET_COUNTS[ids]
    if not len(row):  # answers that nothing in hand beats (a lead always has a play)
        return np.full(k, PASS, dtype=np.int64)
    length = cand.sum(axis=1)
    # every play's score: going out first, else the hand after it (with the best pick-up)
    after = hand[row] - cand
    suits, ranks = K.split(after)
    key, value = hand_keys(suits, ranks)
    ans = answer[row]
    if ans.any():
        listed = _middle_list(engine.middle[lanes[row[ans]]])
        _, key[ans], value[ans] = _best_pick(suits[ans], ranks[ans], listed)
    d = danger[row]
    key = key + _TEMPO_KEY + np.where(d, _DANGER_KEY * (length - 1), 0)
    value = value + TEMPO_BONUS
    value = np.where(d, value + DANGER_WEIGHT * (length - 1), value)
    out_now = length == size[row]  # the scalar returns the first such play (there is one)
    order = _order_key(cand) if two else _SET_KEY[ids]
    # per lane: going out, else the highest score, ties the first in tuple order
    best = np.lexsort((order, -key, ~out_now, row))
    first = np.ones(len(best), dtype=bool)
    first[1:] = row[best[1:]] != row[best[:-1]]
    best = best[first]
    has = np.zeros(k, dtype=bool)
    has[row[best]] = True
    choice = np.full(k, -1, dtype=np.int64)
    choice[row[best]] = best
    # passing: an answer with nothing selected, when no play beats keeping the hand
    can_pass = answer & (ks == 0)
    _, keep_value = hand_keys(*K.split(hand))
    c = np.maximum(choice, 0)
    passing = can_pass & (~has | (~out_now[c] & (keep_value >= value[c])))
    if two:
        act = np.where(length[c] == ks, FINISH, ADD_BASE + K.highest(cand[c] - sel))
    else:
        act = PLAY_BASE + ids[c]
    return np.where(passing, PASS, act)


__all__ = ["decide", "hand_keys"]
