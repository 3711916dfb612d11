"""The Big Number heuristic for many games at once: ``decide(engine, lanes, mask, rng)`` answers,
for every lane of a ``BigNumberBatched`` engine, exactly what ``bignumber.HeuristicAgent``
answers for that lane's current player (``tests/agents/test_heuristic_bignumber_batched.py``
checks it on thousands of positions, loaded from scalar games into the lanes).

It reads only what the seat to act may know: its own hand (and, with two decks, its own
selection), the middle, and the public hand sizes.

How the scalar agent is matched bit for bit:

* The plays. One deck: the legal mask lists every legal play (one action a set). Two decks (a
  play chosen card by card): the plays that extend the selection are enumerated for all lanes at
  once, one card position of a suit or rank at a time (a loop over the 9 ranks / 4 suits).
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

from deckzoo.envs.bignumber.batched import BigNumberBatched
from deckzoo.envs.bignumber.cards import HAND_SIZE, NUM_TYPES, RANKS, SETS, SUITS
from deckzoo.envs.bignumber.rules import (
    ADD_BASE,
    ANSWER,
    FINISH,
    LEAD,
    PASS,
    PICK,
    PICK_BASE,
    PLAY_BASE,
)

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

_TYPES = np.arange(NUM_TYPES)
_RANK = _TYPES // SUITS + 1  # 1-9
_SUIT = _TYPES % SUITS
_PIPS = np.arange(1, RANKS + 1)
# one-hot suit and rank of a card type; row NUM_TYPES (index -1) is "no card"
_SUIT_HOT = np.zeros((NUM_TYPES + 1, SUITS), dtype=np.int64)
_SUIT_HOT[_TYPES, _SUIT] = 1
_RANK_HOT = np.zeros((NUM_TYPES + 1, RANKS), dtype=np.int64)
_RANK_HOT[_TYPES, _RANK - 1] = 1
# the members of each suit (ranks 9 down to 1) and of each rank (suits 3 down to 0), descending
_SUIT_MEMBERS = np.array([[4 * (r - 1) + s for r in range(RANKS, 0, -1)] for s in range(SUITS)])
_RANK_MEMBERS = np.array(
    [[4 * (r - 1) + s for s in range(SUITS - 1, -1, -1)] for r in range(1, 10)]
)
_POW10 = 10 ** np.arange(2 * HAND_SIZE + 1, dtype=np.int64)
_REP10 = (_POW10 - 1) // 9  # 0, 1, 11, 111, ...
_BASE = NUM_TYPES + 1  # tuple order: a card c is the digit c + 1, a missing card 0
_POWB = _BASE ** np.arange(2 * HAND_SIZE + 1, dtype=np.int64)
_REPB = (_POWB - 1) // (_BASE - 1)


def _counts_of(tuples) -> np.ndarray:
    out = np.zeros((len(tuples), NUM_TYPES), dtype=np.int64)
    for i, t in enumerate(tuples):
        for c in t:
            out[i, c] += 1
    return out


def _order_key(cand: np.ndarray) -> np.ndarray:
    """``(P,)``: a number that sorts plays (count vectors ``(P, 36)`` of at most 9 cards) as the
    scalar sorts their descending tuples: digit ``c + 1`` a card, biggest first, padded with 0."""
    key = np.zeros(len(cand), dtype=np.int64)
    for c in range(NUM_TYPES - 1, -1, -1):
        k = cand[:, c]
        key = key * _POWB[k] + (c + 1) * _REPB[k]
    return key * _POWB[HAND_SIZE - cand.sum(axis=1)]


# one deck: each set's counts (the legal mask lists the plays by set id)
_SET_COUNTS = _counts_of(SETS)
_SET_KEY = _order_key(_SET_COUNTS)


def _number(cand: np.ndarray) -> np.ndarray:
    """The value of each play (digits biggest first), from its counts ``(P, 36)``."""
    rc = cand.reshape(len(cand), RANKS, SUITS).sum(axis=2)
    v = np.zeros(len(cand), dtype=np.int64)
    for r in range(RANKS, 0, -1):
        k = rc[:, r - 1]
        v = v * _POW10[k] + r * _REP10[k]
    return v


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
    uniform = (size > 1) & ((num_suits == 1) | (num_ranks == 1))
    key = -_UNIT * size + _GROUP_KEY * (group - 1) + _RANK_KEY * pips + _UNIFORM_KEY * uniform
    key = np.where(size == 0, _EMPTY_KEY, key)
    value = -size.astype(np.float64) + GROUP_WEIGHT * (group - 1) + RANK_WEIGHT * pips
    value = np.where(uniform, value + UNIFORM_BONUS, value)
    value = np.where(size == 0, _EMPTY_VALUE, value)
    return key, value


def _split(counts: np.ndarray):
    g = counts.reshape(*counts.shape[:-1], RANKS, SUITS)
    return g.sum(axis=-2), g.sum(axis=-1)


def _middle_list(middle: np.ndarray) -> np.ndarray:
    """``(k, 9)``: the distinct card types of each middle, highest first (-1: none)."""
    listed = np.sort(np.where(middle > 0, _TYPES, -1), axis=1)[:, ::-1]
    return listed[:, :HAND_SIZE]


def _best_pick(suits, ranks, listed):
    """``best_pick``: for hands ``(P, 4)``/``(P, 9)`` and their candidates ``listed`` ``(P, 9)``
    (highest first, -1 = none), the card whose pick-up leaves the best hand (the first of the
    best, i.e. the higher card), and that hand's ``hand_keys``."""
    size, pips, group, num_suits, num_ranks = _summary(suits, ranks)
    c = np.maximum(listed, 0)
    # adding card c raises one suit count and one rank count by one
    in_suit = np.take_along_axis(suits, _SUIT[c], axis=1)
    in_rank = np.take_along_axis(ranks, _RANK[c] - 1, axis=1)
    key, value = _keys(
        size[:, None] + 1,
        pips[:, None] + _RANK[c],
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
    play = np.flatnonzero((phase == LEAD) | (phase == ANSWER))
    if len(play):
        out[play] = _play(engine, lanes[play], mask, play)
    return out


def _pick(engine: BigNumberBatched, lanes: np.ndarray) -> np.ndarray:
    hand = engine.hands[lanes, engine.cur[lanes]].astype(np.int64)
    suits, ranks = _split(hand)
    card, _, _ = _best_pick(suits, ranks, _middle_list(engine.middle[lanes]))
    return PICK_BASE + card


def _play(engine: BigNumberBatched, lanes: np.ndarray, mask: np.ndarray, at) -> np.ndarray:
    """``lanes`` at a play (a lead or an answer); ``mask[at]`` are their legal masks."""
    k, n = len(lanes), engine.n
    cur = engine.cur[lanes]
    hand = engine.hands[lanes, cur].astype(np.int64)
    size = hand.sum(axis=1)
    answer = engine.phase[lanes] == ANSWER
    sizes = engine.hsize[lanes]
    others = np.where(np.arange(n)[None, :] == cur[:, None], np.iinfo(np.int64).max, sizes)
    danger = others.min(axis=1) <= 2
    two = engine.two
    if two:
        sel = engine.pending[lanes].astype(np.int64)
        ks = engine.psize[lanes]
        row, cand = _two_deck_plays(engine, lanes, hand, sel, ks, answer)
    else:
        sel, ks = None, np.zeros(k, dtype=np.int64)
        # the legal plays, from the mask (only lanes at a play have set actions in it)
        flat = np.flatnonzero(np.ascontiguousarray(mask))
        flat = flat[flat % mask.shape[1] >= PLAY_BASE]
        local = np.full(len(mask), -1, dtype=np.int64)
        local[at] = np.arange(k)
        row, ids = local[flat // mask.shape[1]], flat % mask.shape[1] - PLAY_BASE
        row, ids = row[row >= 0], ids[row >= 0]
        cand = _SET_COUNTS[ids]
    if not len(row):  # answers that nothing in hand beats (a lead always has a play)
        return np.full(k, PASS, dtype=np.int64)
    length = cand.sum(axis=1)
    # every play's score: going out first, else the hand after it (with the best pick-up)
    after = hand[row] - cand
    suits, ranks = _split(after)
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
    _, keep_value = hand_keys(*_split(hand))
    c = np.maximum(choice, 0)
    passing = can_pass & (~has | (~out_now[c] & (keep_value >= value[c])))
    if two:
        extra = cand[c] - sel
        top = np.where(extra > 0, _TYPES, -1).max(axis=1)
        act = np.where(length[c] == ks, FINISH, ADD_BASE + top)
    else:
        act = PLAY_BASE + ids[c]
    return np.where(passing, PASS, act)


def _two_deck_plays(engine, lanes, hand, sel, ks, answer):
    """Two decks: every legal play (counts) that extends each lane's selection, as ``(row, cand)``:
    what the scalar ``legal_plays`` lists, filtered to the plays starting with the selection."""
    plast = engine.plast[lanes]
    started = ks > 0
    avail = hand - sel
    # after a selection only cards at or below its last one may follow (biggest first)
    avail = np.where(~started[:, None] | (_TYPES[None, :] <= plast[:, None]), avail, 0)
    rows, cands = [], []
    lead = np.flatnonzero(~answer)
    if len(lead):
        # a lead: a single card, or the whole hand when it is one suit or one rank (N12)
        h = hand[lead]
        r, c = np.nonzero(h > 0)
        single = np.zeros((len(r), NUM_TYPES), dtype=np.int64)
        single[np.arange(len(r)), c] = 1
        suits, ranks = _split(h)
        whole = (h.sum(axis=1) > 1) & (
            ((suits > 0).sum(axis=1) == 1) | ((ranks > 0).sum(axis=1) == 1)
        )
        lr = np.concatenate([lead[r], lead[whole]])
        lc = np.concatenate([single, h[whole]])
        # keep those that extend the selection: contain it, and the rest is at or below its end
        rest = lc - sel[lr]
        fits = (rest >= 0).all(axis=1) & (
            (~started[lr]) | (np.where(rest > 0, _TYPES, -1).max(axis=1) <= plast[lr])
        )
        rows.append(lr[fits])
        cands.append(lc[fits])
    ans = np.flatnonzero(answer)
    if len(ans):
        m = engine.msize[lanes[ans]]
        lo = np.maximum(m - ks[ans], 0)
        hi = m + 1 - ks[ans]
        first = engine.pfirst[lanes[ans]]
        st = started[ans]
        grid = avail[ans].reshape(len(ans), RANKS, SUITS)
        for members, same, kind, by_group in (
            # each suit's counts from rank 9 down, each rank's from suit 3 down
            (_SUIT_MEMBERS, engine.psuit[lanes[ans]], _SUIT, grid[:, ::-1, :].transpose(0, 2, 1)),
            (_RANK_MEMBERS, engine.prank[lanes[ans]], _RANK - 1, grid[:, :, ::-1]),
        ):
            G = len(members)
            # the groups that may hold the selection: all, or its own suit / rank
            ok = ~st[:, None] | (same[:, None] & (kind[first][:, None] == np.arange(G)[None, :]))
            a, g = np.nonzero(ok)
            parent, chosen = _sub_multisets(by_group[a, g], lo[a], hi[a], engine.copies)
            cand = sel[ans[a[parent]]]  # (a copy: fancy indexing)
            cand[np.arange(len(parent))[:, None], members[g[parent]]] += chosen
            if members is _RANK_MEMBERS:  # a one-suit play is listed with its suit already
                held = cand.reshape(len(cand), RANKS, SUITS).sum(axis=1) > 0
                keep = held.sum(axis=1) > 1
                parent, cand = parent[keep], cand[keep]
            lane_row = ans[a[parent]]
            length = cand.sum(axis=1)
            mm, mv = engine.msize[lanes[lane_row]], engine.mvalue[lanes[lane_row]]
            legal = (length == mm + 1) | ((length == mm) & (_number(cand) > mv))
            rows.append(lane_row[legal])
            cands.append(cand[legal])
    if not rows:
        return np.zeros(0, dtype=np.int64), np.zeros((0, NUM_TYPES), dtype=np.int64)
    return np.concatenate(rows), np.concatenate(cands)


def _sub_multisets(avail: np.ndarray, lo: np.ndarray, hi: np.ndarray, copies: int):
    """Every sub-multiset of ``lo``..``hi`` cards of each row's ``avail`` ``(R, npos)`` counts:
    ``(parent row, chosen counts (P, npos))``, built one position at a time."""
    R, npos = avail.shape
    rem = np.cumsum(avail[:, ::-1], axis=1)[:, ::-1]
    rem_after = np.concatenate([rem[:, 1:], np.zeros((R, 1), dtype=rem.dtype)], axis=1)
    parent = np.flatnonzero(rem[:, 0] >= lo)
    size = np.zeros(len(parent), dtype=np.int64)
    chosen = np.zeros((len(parent), 0), dtype=np.int64)
    for j in range(npos):
        a, ra = avail[parent, j], rem_after[parent, j]
        picks, takes = [], []
        for t in range(copies + 1):
            keep = np.flatnonzero(
                (t <= a) & (size + t <= hi[parent]) & (size + t + ra >= lo[parent])
            )
            picks.append(keep)
            takes.append(np.full(len(keep), t, dtype=np.int64))
        idx, take = np.concatenate(picks), np.concatenate(takes)
        parent, size = parent[idx], size[idx] + take
        chosen = np.concatenate([chosen[idx], take[:, None]], axis=1)
    return parent, chosen


__all__ = ["decide", "hand_keys"]
