"""Big Number's rules on arrays, shared by the batched engine (``batched.py``) and the heuristic's
batched twin (``agents/heuristics/bignumber_batched.py``), so that no rule is written in both.

Each kernel is the array form of a pure function of ``cards.py`` over rows (or leading axes) of
count vectors over the 36 card types; ``tests/bignumber/test_kernels.py`` checks each against it
on random positions.

* ``split``, ``uniform`` (``one_group``), ``values``, ``highest``: a hand's suit and rank counts,
  whether it is 2+ cards of one suit or one rank (``is_uniform``, N12), a play's number
  (``play_value``, N7), the top card;
* ``beats``: whether a set answers a middle (``beats``, N6);
* ``legal_sets``: one deck, the legal plays as set ids (``legal_plays``, ``SET_INDEX``), read
  from tables indexed by the hand's 9-bit rank pattern in each suit and 4-bit suit pattern in
  each rank (every set of 2+ cards inside that pattern);
* ``plays``: the legal plays that extend a selection (two decks build a play card by card,
  biggest first), listed one card position of a suit or rank at a time: the engine's two-deck
  mask and the heuristic's candidates;
* ``penalties``: a deal's scoring.

``set_ones`` (no rule: the batched observation's one-hot pieces in one flat scatter, each from
its piece's ``layout.offset``) is here because no shared module holds it yet.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..core.batched import row_starts
from .cards import HAND_SIZE, NUM_TYPES, RANKS, SETS, SUITS

TYPES = np.arange(NUM_TYPES)
RANK = TYPES // SUITS + 1  # 1-9
SUIT = TYPES % SUITS
POW10 = 10 ** np.arange(2 * HAND_SIZE + 1, dtype=np.int64)
REPUNIT = (POW10 - 1) // 9  # 0, 1, 11, 111, ...
# the members of each suit (ranks 9 down to 1) and of each rank (suits 3 down to 0), descending
SUIT_MEMBERS = np.array([[4 * (r - 1) + s for r in range(RANKS, 0, -1)] for s in range(SUITS)])
RANK_MEMBERS = np.array([[4 * (r - 1) + s for s in range(SUITS - 1, -1, -1)] for r in range(1, 10)])


def split(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(suits (..., 4), ranks (..., 9))``: the cards of each suit and of each rank."""
    g = counts.reshape(*counts.shape[:-1], RANKS, SUITS)
    return g.sum(axis=-2), g.sum(axis=-1)


def uniform(counts: np.ndarray) -> np.ndarray:
    """2+ cards, all of one suit or all of one rank (a whole hand that may be led, N12)."""
    suits, ranks = split(counts)
    return one_group(suits.sum(axis=-1), (suits > 0).sum(axis=-1), (ranks > 0).sum(axis=-1))


def one_group(size, num_suits, num_ranks) -> np.ndarray:
    """``uniform`` of cards counted by their number and the suits and ranks among them."""
    return (size > 1) & ((num_suits == 1) | (num_ranks == 1))


def values(counts: np.ndarray) -> np.ndarray:
    """The number each play makes, digits biggest first (``play_value``; 0 for no cards)."""
    ranks = split(counts)[1]
    v = np.zeros(ranks.shape[:-1], dtype=np.int64)
    for r in range(RANKS, 0, -1):
        k = ranks[..., r - 1]
        v = v * POW10[k] + r * REPUNIT[k]
    return v


def highest(counts: np.ndarray) -> np.ndarray:
    """The highest card type held (-1: none)."""
    return np.where(counts > 0, TYPES, -1).max(axis=-1)


def beats(size, value, msize, mvalue) -> np.ndarray:
    """Whether a set of ``size`` cards worth ``value`` answers a middle of ``msize`` worth
    ``mvalue`` (N6: as many cards and higher, or one card more)."""
    return (size == msize + 1) | ((size == msize) & (value > mvalue))


def penalties(hand_sizes: np.ndarray, finisher: np.ndarray) -> np.ndarray:
    """``(k, n)``: a deal's penalty points, a card in hand, none for the seat that went out."""
    pen = hand_sizes.copy()
    pen[np.arange(len(pen)), finisher] = 0
    return pen


def _counts_of(tuples) -> np.ndarray:
    out = np.zeros((len(tuples), NUM_TYPES), dtype=np.int8)
    for i, t in enumerate(tuples):
        out[i, list(t)] += 1
    return out


#: one deck: each set's counts, size and value (its play action is ``PLAY_BASE + id``)
SET_COUNTS = _counts_of(SETS)
SET_SIZE = SET_COUNTS.sum(axis=1, dtype=np.int64)
SET_VALUE = values(SET_COUNTS)

# hand (k, 36) @ _PATTERN_BITS -> per suit its 9-bit rank pattern, per rank its 4-bit suit pattern
_PATTERN_BITS = np.zeros((NUM_TYPES, SUITS + RANKS), dtype=np.float32)
_PATTERN_BITS[TYPES, SUIT] = 1 << (RANK - 1)
_PATTERN_BITS[TYPES, SUITS + RANK - 1] = 1 << SUIT
_PATTERN_BASE = np.concatenate([np.arange(SUITS) * 512, 2048 + np.arange(RANKS) * 16])


@lru_cache(maxsize=1)
def _pattern_tables():
    """For each suit (9-bit rank pattern) and rank (4-bit suit pattern) the sets of 2+ cards
    inside the pattern, as one ragged array (``ids[offsets[key]:offsets[key] + lengths[key]]``;
    key ``s * 512 + p`` or ``2048 + r * 16 + q``), and the set that is the whole pattern (-1)."""
    grid = SET_COUNTS.reshape(len(SETS), RANKS, SUITS).astype(np.int64)
    groups, whole = [], np.full(4 * 512 + RANKS * 16, -1, dtype=np.int64)
    for bits, base, width in (
        ((grid << np.arange(RANKS)[None, :, None]).sum(axis=1), 0, 512),  # (sets, 4)
        ((grid << np.arange(SUITS)[None, None, :]).sum(axis=2), 4 * 512, 16),  # (sets, 9)
    ):
        for g in range(bits.shape[1]):
            members = np.flatnonzero((SET_SIZE >= 2) & (bits[:, g] == bits.sum(axis=1)))
            inside = (bits[members, g][None, :] & ~np.arange(width)[:, None]) == 0
            groups += [members[row] for row in inside]
            whole[base + g * width + bits[members, g]] = members
    lengths = np.array([len(g) for g in groups], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    return np.concatenate(groups), offsets, lengths, whole


def legal_sets(hand: np.ndarray, msize: np.ndarray, mvalue: np.ndarray):
    """One deck: the legal plays of hands ``(k, 36)`` facing middles of ``msize`` cards worth
    ``mvalue`` (``msize`` 0: a lead), as ``(singles, row, ids)``: ``(k, 36)`` the single cards
    (set id = card), and the other sets' rows and ids."""
    ids_of, offsets, lengths_of, whole_of = _pattern_tables()
    lead = msize == 0
    # singles: any held card when leading, a higher one when answering a single
    higher = (msize == 1)[:, None] & (RANK[None, :] > mvalue[:, None])
    singles = (hand > 0) & (lead[:, None] | higher)
    # the hand's pattern in each suit and rank, as table keys (one small float matrix product:
    # exact, and far cheaper than shifts and sums)
    keys = (hand.astype(np.float32) @ _PATTERN_BITS).astype(np.int64) + _PATTERN_BASE
    rows, ids = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
    # N12: leading the whole hand when it is one suit or one rank (2+ cards): of such a hand's
    # patterns at most one is a set, the whole hand
    sizes = hand.sum(axis=1, dtype=np.int64)
    lead_whole = np.flatnonzero(lead & (sizes >= 2))
    if len(lead_whole):
        whole = whole_of[keys[lead_whole]].max(axis=1)
        has = (whole >= 0) & (SET_SIZE[whole] == sizes[lead_whole])
        rows.append(lead_whole[has])
        ids.append(whole[has])
    ans = np.flatnonzero(~lead)
    keys = keys[ans].ravel()
    lengths = lengths_of[keys]
    total = int(lengths.sum())
    if total:
        row = ans[np.repeat(np.arange(len(keys)) // (SUITS + RANKS), lengths)]
        first = np.repeat(offsets[keys] - (np.cumsum(lengths) - lengths), lengths)
        sets = ids_of[first + np.arange(total)]
        ok = beats(SET_SIZE[sets], SET_VALUE[sets], msize[row], mvalue[row])
        rows.append(row[ok])
        ids.append(sets[ok])
    return singles, np.concatenate(rows), np.concatenate(ids)


def plays(hand, sel, msize, mvalue, first, last, one_suit, one_rank, copies: int):
    """The legal plays that extend a selection: ``(row, cand)``, each play's row and counts
    ``(P, 36)`` int64, as ``legal_plays(hand, middle)`` lists them, kept where the play's
    descending tuple starts with the selection's.

    Per row: ``hand`` and ``sel`` ``(k, 36)`` counts (the selection: the cards chosen so far,
    biggest first; none: every legal play), a middle of ``msize`` cards worth ``mvalue``
    (``msize`` 0: a lead); the selection's ``first`` and ``last`` card and whether it is all
    ``one_suit`` / ``one_rank`` (read only where it is not empty); ``copies`` of each type.
    """
    hand, sel = hand.astype(np.int64), sel.astype(np.int64)
    ks = sel.sum(axis=1)
    started = ks > 0
    # after a selection only cards at or below its last one may follow (biggest first)
    avail = np.where(~started[:, None] | (TYPES[None, :] <= last[:, None]), hand - sel, 0)
    rows, cands = [np.zeros(0, dtype=np.int64)], [np.zeros((0, NUM_TYPES), dtype=np.int64)]
    lead = np.flatnonzero(msize == 0)
    if len(lead):
        # a lead: a single card, or the whole hand when it is one suit or one rank (N12)
        h = hand[lead]
        r, c = np.nonzero(h > 0)
        whole = uniform(h)
        lr = np.concatenate([lead[r], lead[whole]])
        lc = np.concatenate([(TYPES[None, :] == c[:, None]).astype(np.int64), h[whole]])
        # keep those that extend the selection: contain it, and the rest is at or below its end
        rest = lc - sel[lr]
        fits = (rest >= 0).all(axis=1) & (~started[lr] | (highest(rest) <= last[lr]))
        rows.append(lr[fits])
        cands.append(lc[fits])
    ans = np.flatnonzero(msize > 0)
    if len(ans):
        m, k = msize[ans], ks[ans]
        lo, hi = np.maximum(m - k, 0), m + 1 - k  # the cards still to choose
        grid = avail[ans].reshape(len(ans), RANKS, SUITS)
        for members, same, kind, by_group in (
            # each suit's counts from rank 9 down, each rank's from suit 3 down
            (SUIT_MEMBERS, one_suit[ans], SUIT, grid[:, ::-1, :].transpose(0, 2, 1)),
            (RANK_MEMBERS, one_rank[ans], RANK - 1, grid[:, :, ::-1]),
        ):
            # the groups that may hold the play: all, or the selection's own suit / rank
            own = kind[first[ans]][:, None] == np.arange(len(members))[None, :]
            a, g = np.nonzero(~started[ans][:, None] | (same[:, None] & own))
            parent, chosen = _sub_multisets(by_group[a, g], lo[a], hi[a], copies)
            cand = sel[ans[a[parent]]]  # (a copy: fancy indexing)
            cand[np.arange(len(parent))[:, None], members[g[parent]]] += chosen
            if members is RANK_MEMBERS:  # a one-suit play is listed with its suit already
                keep = (split(cand)[0] > 0).sum(axis=1) > 1
                parent, cand = parent[keep], cand[keep]
            row = ans[a[parent]]
            legal = beats(cand.sum(axis=1), values(cand), msize[row], mvalue[row])
            rows.append(row[legal])
            cands.append(cand[legal])
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


def set_ones(buf: np.ndarray, layout, *pieces) -> None:
    """One-hot pieces of a batched observation ``buf`` ``(k, size)`` in one flat scatter:
    ``buf[i, layout.offset(name) + index[i]] = 1`` where ``ok[i]``, for each ``(name, index,
    ok)`` (``index`` and ``ok``: ``(k,)`` or ``(k, j)`` for several cells of the piece)."""
    k, size = buf.shape
    starts = row_starts(k, size)
    cells = [
        ((starts if np.ndim(i) == 2 else starts[:, 0]) + layout.offset(name) + i)[ok]
        for name, i, ok in pieces
    ]
    buf.reshape(-1)[np.concatenate(cells)] = 1.0
