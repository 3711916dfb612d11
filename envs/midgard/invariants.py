"""Midgard's invariants: conservation of cards, coins, rewards and challenges, the public bounds
on hands, legal troops (``check_invariants``, for tests); and the card counts that saved.py
checks a saved state with."""

from __future__ import annotations

import numpy as np

from . import actions as A
from .cards import DATA
from .modes import KEEP, RELOCATE, TOTAL_COINS


def check_invariants(s) -> None:
    """Conservation of cards, coins, rewards and challenges; legal troops (for tests)."""
    n = s.game.num_players
    total = card_totals(
        s.hands,
        s.valhalla,
        s.thing + s.krog,
        s.troops,
        s.pending,
        [f.wild for f in s.stack if f.m == RELOCATE],
        s.played,
        s.pool,
        s.contest,
    )
    if total.tolist() != list(DATA.kind_counts):
        raise AssertionError(f"card conservation broken: {total.tolist()}")
    if (s.hands < 0).any() or (s.valhalla < 0).any():
        raise AssertionError("negative card counts")
    if (s.known > s.hands + face_down(s)).any() or (s.known < 0).any():
        raise AssertionError("publicly known cards exceed a hand")
    check_thing_base(s.thing, s.thing_base, s.thing_drawn)
    if int(s.coins.sum()) + s.skat != TOTAL_COINS or (s.coins < 0).any() or s.skat < 0:
        raise AssertionError(f"coin conservation broken: {s.coins.tolist()} + {s.skat}")
    rtotal = s.rewards.sum(axis=0) + s.revealed.sum(axis=0)
    rtotal += np.bincount(np.asarray(s.reward_deck, dtype=np.int64), minlength=len(DATA.rewards))
    for f in s.stack:
        if f.m == KEEP:
            for k in f.drawn:
                rtotal[k] += 1
    if rtotal.tolist() != list(DATA.reward_counts):
        raise AssertionError(f"reward conservation broken: {rtotal.tolist()}")
    chs = s.ch_deck + s.open + [c for c in s.reserved if c >= 0] + s.ch_out
    chs += [c for w in s.won for c in w]
    if sorted(chs) != list(range(len(DATA.challenges))):
        raise AssertionError(f"challenge conservation broken: {sorted(chs)}")
    for p in range(n):
        if len(s.troops[p]) > A.MAX_TROOPS:
            raise AssertionError(f"seat {p} has {len(s.troops[p])} troops")
        for t in s.troops[p]:
            if not t.is_valid() and not any(f.m == RELOCATE and f.p == p for f in s.stack):
                raise AssertionError(f"seat {p} has an invalid troop {t}")


def face_down(s) -> np.ndarray:
    """Per seat and kind, the challenge bonus it placed face down and nobody else has seen yet:
    off its hand but still counted in its known cards until the reveal (MD22)."""
    return face_down_counts(s.contest, s.hands.shape)


def check_thing_base(thing, base, drawn) -> None:
    """After a reshuffle the Thing plus every seat's draws since is the reshuffled multiset
    (M-E2); ``AssertionError`` otherwise."""
    if (np.asarray(drawn) < 0).any():
        raise AssertionError("negative draw counts since the reshuffle")
    if base is None:
        return
    now = np.bincount(np.asarray(thing, dtype=np.int64), minlength=DATA.num_kinds)
    if (now + np.asarray(drawn).sum(axis=0)).tolist() != np.asarray(base).tolist():
        raise AssertionError("the Thing and the draws since the reshuffle are not what it held")


def face_down_counts(contest, shape) -> np.ndarray:
    """Per seat and kind, the face-down challenge bonuses of ``contest`` (see ``face_down``)."""
    out = np.zeros(shape, dtype=np.int64)
    if contest is not None and contest["t"] == "ch":
        for side in (0, 1):
            if contest["b"][side] >= 0:
                out[contest["bs"][side], contest["b"][side]] += 1
    return out


def card_totals(hands, valhalla, piles, troops, pending, wild, played, pool, contest) -> np.ndarray:
    """Copies of each card kind found in all places a card can be (card conservation): hands and
    Valhalla (counts), the Thing and Krog (``piles``), troops and the one being laid down, the
    displaced wildcards (``wild``: of the stack's relocate frames), played cards, Loki's pool and
    a contest's held bonuses."""
    total = np.asarray(hands).sum(axis=0) + valhalla
    total += np.bincount(np.asarray(piles, dtype=np.int64), minlength=DATA.num_kinds)
    for t in [t for ts in troops for t in ts] + ([] if pending is None else [pending]):
        for k in t.cards():
            total[k] += 1
    held = contest["held"] if contest else []
    for k in list(wild) + [c["k"] for c in played] + list(pool) + held:
        total[k] += 1
    return total
