"""The array kernels (envs/bignumber/kernels.py) equal the scalar rules' pure functions
(cards.py) on many random positions, one deck and two."""

from __future__ import annotations

import numpy as np
import pytest

from deckzoo.envs.bignumber import kernels as K
from deckzoo.envs.bignumber.cards import (
    NUM_TYPES,
    SET_INDEX,
    SETS,
    beats,
    counts_of,
    expand,
    is_uniform,
    legal_plays,
    penalties,
    play_value,
)
from deckzoo.envs.core.encoding import Layout


def hands(rng, copies: int, count: int, min_size: int = 1) -> list[list[int]]:
    """Random hands of 1-9 cards dealt from ``copies`` decks (a tenth are one suit or rank)."""
    deck = np.repeat(np.arange(NUM_TYPES), copies)
    out = []
    for i in range(count):
        size = int(rng.integers(min_size, 10))
        if i % 10 == 0:  # one suit or one rank, for the whole-hand lead (N12)
            x = int(rng.integers(4))
            pool = np.arange(x, NUM_TYPES, 4) if i % 20 else np.arange(4 * x, 4 * x + 4)
            pool = np.repeat(pool, copies)
            size = min(size, len(pool))
        else:
            pool = deck
        out.append(counts_of(rng.choice(pool, size, replace=False).tolist()))
    return out


def middle_for(rng, copies: int) -> tuple[int, ...]:
    """Empty (a lead) or a legal lead or answer of some random hand: a middle as play makes it."""
    if rng.random() < 0.2:
        return ()
    plays = legal_plays(hands(rng, copies, 1, 2)[0], (int(rng.integers(NUM_TYPES)),))
    return plays[rng.integers(len(plays))] if plays else ()


@pytest.mark.parametrize("copies", [1, 2])
def test_split_uniform_values_highest(copies):
    rng = np.random.default_rng(copies)
    hs = hands(rng, copies, 600) + [[0] * NUM_TYPES]
    c = np.array(hs, dtype=np.int8)
    suits, ranks = K.split(c)
    assert (suits == [[sum(h[s::4]) for s in range(4)] for h in hs]).all()
    assert (ranks == [[sum(h[4 * r : 4 * r + 4]) for r in range(9)] for h in hs]).all()
    assert K.uniform(c).tolist() == [sum(h) > 1 and is_uniform(h) for h in hs]
    assert K.values(c).tolist() == [play_value(expand(h)) for h in hs]
    assert K.highest(c).tolist() == [max(expand(h), default=-1) for h in hs]


def test_set_tables_and_beats():
    assert (K.SET_COUNTS == [counts_of(t) for t in SETS]).all()
    assert K.SET_SIZE.tolist() == [len(t) for t in SETS]
    assert K.SET_VALUE.tolist() == [play_value(t) for t in SETS]
    rng = np.random.default_rng(0)
    a, b = rng.integers(len(SETS), size=(2, 20000))
    got = K.beats(K.SET_SIZE[a], K.SET_VALUE[a], K.SET_SIZE[b], K.SET_VALUE[b])
    assert got.tolist() == [beats(SETS[i], SETS[j]) for i, j in zip(a, b)]


def test_penalties():
    rng = np.random.default_rng(1)
    sizes = rng.integers(0, 10, size=(300, 5))
    finisher = rng.integers(5, size=300)
    want = [penalties(s.tolist(), int(f)) for s, f in zip(sizes, finisher)]
    assert K.penalties(sizes, finisher).tolist() == want


def test_legal_sets_one_deck():
    rng = np.random.default_rng(2)
    hs = hands(rng, 1, 800)
    middles = [middle_for(rng, 1) for _ in hs]
    singles, row, ids = K.legal_sets(
        np.array(hs, dtype=np.int8),
        np.array([len(m) for m in middles]),
        np.array([play_value(m) for m in middles]),
    )
    for i, (h, m) in enumerate(zip(hs, middles)):
        got = set(np.flatnonzero(singles[i]).tolist()) | set(ids[row == i].tolist())
        assert len(ids[row == i]) == len(set(ids[row == i].tolist()))
        assert got == {SET_INDEX[t] for t in legal_plays(h, m)}, (expand(h), m)


@pytest.mark.parametrize("copies", [1, 2])
def test_plays_extending_a_selection(copies):
    rng = np.random.default_rng(10 + copies)
    hs, middles, selections = [], [], []
    for h in hands(rng, copies, 700):
        m = middle_for(rng, copies)
        legal = legal_plays(h, m)
        if not legal:
            continue
        t = legal[rng.integers(len(legal))]
        hs.append(h)
        middles.append(m)
        selections.append(t[: rng.integers(len(t) + 1)] if rng.random() < 0.6 else ())
    sel = [s or (0,) for s in selections]  # first/last/one suit/one rank, read where started
    row, cand = K.plays(
        np.array(hs, dtype=np.int8),
        np.array([counts_of(s) for s in selections], dtype=np.int8),
        np.array([len(m) for m in middles]),
        np.array([play_value(m) for m in middles]),
        np.array([s[0] for s in sel]),
        np.array([s[-1] for s in sel]),
        np.array([len({c % 4 for c in s}) == 1 for s in sel]),
        np.array([len({c // 4 for c in s}) == 1 for s in sel]),
        copies,
    )
    for i, (h, m, s) in enumerate(zip(hs, middles, selections)):
        got = [tuple(expand(c)) for c in cand[row == i].tolist()]
        want = {t for t in legal_plays(h, m) if t[: len(s)] == s}
        assert len(got) == len(set(got)) and set(got) == want, (expand(h), m, s)


def test_set_ones():
    layout = Layout([("a", 3), ("b", (2, 2)), ("c", 4)])
    buf, _ = layout.batch(3)
    K.set_ones(
        buf,
        layout,
        ("a", np.array([0, 2, 1]), np.array([True, False, True])),
        (
            "c",
            np.array([[0, 3], [1, 1], [2, 0]]),
            np.array([[True, True], [False, True], [False] * 2]),
        ),
        ("b", np.array([1, 1, 1]), ...),
    )
    want = np.zeros((3, 11), dtype=np.float32)
    want[0, [0, 4, 7, 10]] = 1
    want[1, [4, 8]] = 1
    want[2, [1, 4]] = 1
    assert (buf == want).all()
