"""The array kernels of kernels.py (shared by the batched engine and the heuristic's twin) against
the scalar rules' pure functions, on many random positions."""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

import numpy as np

from deckzoo.envs.bigwig import kernels as K
from deckzoo.envs.bigwig.cards import (
    LOKI,
    NUM_KINDS,
    NUM_POINT_KINDS,
    NUM_STANDARD,
    POINT_VP,
    WELL,
    draw_entitlement,
)
from deckzoo.envs.bigwig.holmgang import challenger_of
from deckzoo.envs.bigwig.rules import NONE, BigWigState, winners_of
from deckzoo.envs.bigwig.trick import resolve_trick, trick_winner
from deckzoo.envs.bigwig.wells import draws_allowed


def random_tricks(rng, count, width):
    """Tricks of ``width`` cards, repeats allowed (so that pairs of specials cancel often), specials
    common, some positions wells."""
    specials = rng.integers(NUM_STANDARD, NUM_KINDS, size=(count, width))
    standard = rng.integers(0, NUM_STANDARD, size=(count, width))
    kinds = np.where(rng.random((count, width)) < 0.5, specials, standard)
    return np.where(rng.random((count, width)) < 0.15, WELL, kinds)


def test_the_trick_kernel_is_resolve_trick():
    """Winner, effective specials, invalid cards and Loki's take-all test of 12,000 random tricks
    of 1-6 cards under random trump colours, every effect among them."""
    rng = np.random.default_rng(0)
    seen = Counter()
    for width in range(1, 7):
        kinds = random_tricks(rng, 2000, width)
        trump = rng.random((len(kinds), 4)) < 0.4
        planes = np.ascontiguousarray(kinds.T.astype(np.int8))
        hits, active, valid = K.trick(planes, K.trump_bits(trump))
        w, first = K.winner(hits), K.first_wins(hits)
        has, at, takes_all = K.loki(planes, active, valid)
        fast = K.trick_winners(kinds, K.trump_bits(trump))
        for i, (row, t) in enumerate(zip(kinds.tolist(), trump.tolist())):
            res = resolve_trick(list(enumerate(row)), t)
            want = NONE if res.winner is None else res.winner
            assert w[i] == want == fast[i], (row, t)
            assert first[i] == (want == 0)
            assert trick_winner(row, tuple(t)) == res.winner
            assert np.flatnonzero(active[:, i]).tolist() == res.effective, (row, t)
            card = np.array(row) != WELL
            assert np.flatnonzero(card & ~valid[:, i]).tolist() == res.invalid, (row, t)
            assert has[i] == (res.loki is not None)
            if has[i]:
                assert (at[i], takes_all[i]) == (res.loki, res.loki_takes_all), (row, t)
                seen[("loki", res.loki_takes_all)] += 1
            seen.update(k for k in row if NUM_STANDARD <= k < NUM_KINDS)
    assert all(seen[k] > 100 for k in range(NUM_STANDARD, NUM_KINDS)), seen
    assert seen[("loki", True)] > 50 and seen[("loki", False)] > 50, seen
    assert K.VALUE[LOKI] == 4


def test_draw_entitlements_and_the_hand_limit():
    assert K.ENTITLE.tolist() == [draw_entitlement(k) for k in range(NUM_KINDS)]
    ent, size = np.meshgrid(np.arange(5), np.arange(13), indexing="ij")
    got = K.draws_allowed(ent, size)
    assert got.tolist() == [
        [draws_allowed(int(e), int(s)) for e, s in zip(er, sr)] for er, sr in zip(ent, size)
    ]


def test_hand_sizes_vp_winners_and_challenger():
    """Random positions of 2-6 seats (VP and hand sizes often tied) against ``hand_size``,
    ``public_sizes``, ``vp``, ``winners_of`` and ``challenger_of``."""
    rng = np.random.default_rng(1)
    for n in range(2, 7):
        k = 400
        hands = rng.integers(0, 3, size=(k, n, NUM_KINDS)) * (rng.random((k, n, NUM_KINDS)) < 0.1)
        well = rng.random((k, n)) < 0.7
        commits = np.where(rng.random((k, n)) < 0.5, rng.integers(0, WELL + 1, (k, n)), NONE)
        collected = rng.integers(0, 3, (k, n, NUM_POINT_KINDS)) * (
            rng.random((k, n, NUM_POINT_KINDS)) < 0.08
        )
        age_rank = rng.permutation(n)
        h8 = hands.astype(np.int8)
        sizes, public = K.hand_sizes(h8, well), K.hand_sizes(h8, well, commits)
        vp = K.vp(collected.astype(np.int8))
        won = K.winners(vp, sizes)
        c = K.challenger(vp, age_rank)
        for i in range(k):
            st = SimpleNamespace(hands=hands[i], well=well[i].tolist(), commits=commits[i].tolist())
            assert sizes[i].tolist() == [BigWigState.hand_size(st, p) for p in range(n)]
            assert public[i].tolist() == BigWigState.public_sizes(st).tolist()
            want_vp = (collected[i] @ POINT_VP).tolist()
            assert vp[i].tolist() == want_vp
            assert np.flatnonzero(won[i]).tolist() == winners_of(want_vp, sizes[i].tolist())
            assert c[i] == challenger_of(want_vp, age_rank.tolist())
        seats = rng.integers(0, n, k)
        left = K.to_the_left(vp, seats)
        assert left.tolist() == [
            [vp[i, (s + off) % n] for off in range(1, n)] for i, s in enumerate(seats)
        ]
