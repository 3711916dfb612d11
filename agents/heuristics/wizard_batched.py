"""The Wizard heuristic for many games at once: ``decide(engine, lanes, mask)`` answers, for every
lane of a ``WizardBatched`` engine, exactly what ``wizard.HeuristicAgent`` answers for that lane's
current player (``tests/agents/test_heuristic_wizard_batched.py`` checks it on thousands of
positions, loaded from scalar games into the lanes).

Why it exists: a training mix that seats the heuristic would otherwise run those games on the
scalar engine, one Python decision at a time, at a fifth of the batched engine's speed or less
(training/vector_lanes.py); here the heuristic's seats are decided by numpy over the lanes' arrays.

How the scalar rules are matched bit for bit:

* Ties. The scalar agent scans its legal actions in ascending order, and Python's ``min``/``max``
  keep the first of equal keys; ``argmin``/``argmax`` over the 54 card columns keep the first
  column, which is the same card.
* Floating point. Bidding sums card powers in ascending card order; ``cumsum`` adds in the same
  order, and the terms of cards not held are ``0.0``, which leave a sum unchanged. Every table
  here is filled by calling the scalar module's own functions, so no constant is retyped.
* Rounding: Python's ``round`` and ``np.rint`` both round halves to even.
"""

from __future__ import annotations

import numpy as np

from deckzoo.envs.wizard.batched import WizardBatched
from deckzoo.envs.wizard.cards import (
    DECK_COUNTS,
    LED_FREE,
    LED_NONE,
    NULL,
    NUM_KINDS,
    NUM_SUITED,
    NUM_SUITS,
    RANKS,
    WIZARD,
    next_led,
)
from deckzoo.envs.wizard.rules import (
    BID_BASE,
    PHASE_BID,
    PHASE_PLAY,
    PHASE_TRUMP,
    TRUMP_BASE,
)

from .wizard import card_power, mean_power, power

_SUITED = np.arange(NUM_SUITED)
_RANK = np.concatenate([_SUITED % RANKS, [0, 0]])  # (Wizard and Null: never read as ranks)
_SUIT = np.concatenate([_SUITED // RANKS, [-1, -1]])  # -1: no suit
_IS_SUITED = np.arange(NUM_KINDS) < NUM_SUITED
_NO = NUM_SUITS  # the code for "no trump" / "no led suit" in the tables below

# bidding power of each kind by trump code (the scalar ``card_power``; Wizards are counted apart)
_BID_POWER = np.array(
    [[0.0 if c == WIZARD else card_power(c, t) for c in range(NUM_KINDS)] for t in range(_NO + 1)]
)
_MEAN_POWER = np.array([mean_power(t) for t in range(_NO + 1)])
# play power (the scalar ``power``) by trump code, led code, kind
_PLAY_POWER = np.array(
    [
        [
            [
                power(c, None if t == _NO else t, None if led == _NO else led)
                for c in range(NUM_KINDS)
            ]
            for led in range(_NO + 1)
        ]
        for t in range(_NO + 1)
    ],
    dtype=np.float64,
)
# the led suit after a card is played on a trick whose led suit was ``led`` (index led + 1)
_NEXT_LED = np.array(
    [[next_led(led, c) for c in range(NUM_KINDS)] for led in range(LED_NONE, LED_FREE + 1)]
)
# the trump-choice weights of a card of rank r: own hand 1 + (r + 1) / 13, others' 1 + r / 13
_OWN_WEIGHT = [1 + (r + 1) / 13 for r in range(RANKS)]
_SEEN_WEIGHT = [1 + r / 13 for r in range(RANKS)]


def decide(
    engine: WizardBatched,
    lanes: np.ndarray,
    mask: np.ndarray,
    rng: np.random.Generator | None = None,
) -> np.ndarray:
    """The heuristic's action for the current player of each of ``lanes`` (every lane must be at
    a decision); ``mask`` is the engine's legal mask for those lanes, ``(len(lanes), A)``. (The
    heuristic never draws a random number, so ``rng``, part of the twins' protocol, is unused.)"""
    lanes = np.asarray(lanes, dtype=np.int64)
    out = np.zeros(len(lanes), dtype=np.int64)
    phase = engine.phase[lanes]
    for code, fn in ((PHASE_PLAY, _play), (PHASE_BID, _bid), (PHASE_TRUMP, _trump)):
        at = np.flatnonzero(phase == code)
        if len(at):
            out[at] = fn(engine, lanes[at], mask[at])
    return out


def _first_legal(mask: np.ndarray) -> np.ndarray:
    return mask.argmax(axis=1)


def _or_first_legal(actions: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The scalar agent's ``a if a in legal else legal[0]``."""
    ok = mask[np.arange(len(actions)), actions]
    return np.where(ok, actions, _first_legal(mask))


def _hidden(engine: WizardBatched, lanes: np.ndarray) -> np.ndarray:
    """Foresight round before play: the seat to act cannot see its own card."""
    if not engine.game.foresight:
        return np.zeros(len(lanes), dtype=bool)
    return (engine.rnd[lanes] == 1) & (engine.phase[lanes] < PHASE_PLAY)


# ---- bidding ------------------------------------------------------------------------------------
def _bid(engine: WizardBatched, lanes: np.ndarray, mask: np.ndarray) -> np.ndarray:
    n = engine.n
    me, rnd, trump = engine.cur[lanes], engine.rnd[lanes], engine.trump[lanes]
    hand = engine.hands[lanes, me].astype(np.int64)
    # card_tricks: every Wizard a sure trick, the rest shared by power against the other hands
    wizards = hand[:, WIZARD]
    mine = np.cumsum(hand * _BID_POWER[trump], axis=1)[:, -1]
    others = ((n - 1) * rnd) * _MEAN_POWER[trump]
    total = mine + others
    safe = np.where(total > 0, total, 1.0)
    expected = np.where(total > 0, wizards + (rnd - wizards) * mine / safe, wizards)
    hidden = _hidden(engine, lanes)
    if hidden.any():
        expected = expected.astype(np.float64)
        expected[hidden] = _foresight_win_chance(engine, lanes[hidden])
    # choose_bid: the nearest whole bid, or the nearer neighbour of the dealer's forbidden one
    bid = np.clip(np.rint(expected), 0, rnd).astype(np.int64)
    bids = engine.bids[lanes]
    forbidden = rnd - np.where(bids > 0, bids, 0).sum(axis=1)
    clash = (me == engine.dealer[lanes]) & (bid == forbidden)
    lo, hi = bid - 1, bid + 1
    take_lo = (lo >= 0) & ((hi > rnd) | (np.abs(lo - expected) <= np.abs(hi - expected)))
    bid = np.where(clash, np.where(take_lo, lo, hi), bid)
    return _or_first_legal(BID_BASE + bid, mask)


def _foresight_win_chance(engine: WizardBatched, lanes: np.ndarray) -> np.ndarray:
    """The chance that the unseen own card wins round 1's forced trick: over every card the seat
    cannot see (the deck less the others' cards and the flipped card), weighted by its copies."""
    n, k = engine.n, len(lanes)
    me, leader = engine.cur[lanes], engine.leader[lanes]
    hands = engine.hands[lanes].astype(np.int64)  # (k, n, 54)
    rows = np.arange(k)
    unseen = DECK_COUNTS.astype(np.int64) - hands.sum(axis=1) + hands[rows, me]
    flipped = engine.flipped[lanes]
    has_flip = flipped >= 0
    unseen[rows[has_flip], flipped[has_flip]] -= 1
    # each other seat's single card, in play order from the leader; the own seat's is the candidate
    order = (leader[:, None] + np.arange(n)) % n  # (k, n) seats in play order
    card = hands.argmax(axis=2)  # (k, n) the one card each seat holds
    trick = np.broadcast_to(
        np.take_along_axis(card, order, axis=1)[:, None, :], (k, NUM_KINDS, n)
    ).copy()
    mine_at = (me - leader) % n
    trick[rows, :, mine_at] = np.arange(NUM_KINDS)[None, :]
    win = _winner_place(trick, np.broadcast_to(engine.trump[lanes][:, None], (k, NUM_KINDS)))
    wins = (unseen * (win == mine_at[:, None])).sum(axis=1)
    total = unseen.sum(axis=1)
    return np.where(total > 0, wins / np.maximum(total, 1), 0.0)


def _winner_place(trick: np.ndarray, trump: np.ndarray) -> np.ndarray:
    """``cards.trick_winner`` over complete tricks ``(..., n)`` in play order (trump 0..4)."""
    n = trick.shape[-1]
    place = np.arange(n)
    non_null = trick != NULL
    first = np.take_along_axis(trick, non_null.argmax(axis=-1)[..., None], axis=-1)[..., 0]
    led = np.where(non_null.any(axis=-1), np.where(first == WIZARD, LED_FREE, first // RANKS), -1)
    suited = trick < NUM_SUITED
    suit, rank = trick // RANKS, trick % RANKS
    key = np.where(
        suited & (suit == trump[..., None]),
        100 + rank,
        np.where(suited & (suit == led[..., None]), rank, -1 - place),
    )
    key = np.where(trick == WIZARD, 200 + n - place, key)
    return key.argmax(axis=-1)


# ---- choosing trump ------------------------------------------------------------------------------
def _trump(engine: WizardBatched, lanes: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The suit the own hand is strongest in (count plus rank bonus); in the Foresight round, where
    the own card is unseen, the suit the others hold least of. Sums run in the scalar's order."""
    n, k = engine.n, len(lanes)
    me = engine.cur[lanes]
    held = engine.hands[lanes][:, :, :NUM_SUITED].reshape(k, n, NUM_SUITS, RANKS)
    score = np.zeros((k, NUM_SUITS))
    hidden = _hidden(engine, lanes)
    own = held[np.arange(k), me]
    for r in range(RANKS):
        score[~hidden] += own[~hidden, :, r] * _OWN_WEIGHT[r]
    if hidden.any():
        h = np.flatnonzero(hidden)
        for q in range(n):
            other = h[me[h] != q]
            for r in range(RANKS):
                score[other] -= held[other, q, :, r] * _SEEN_WEIGHT[r]
    return _or_first_legal(TRUMP_BASE + score.argmax(axis=1), mask)


# ---- card play -----------------------------------------------------------------------------------
def _play(engine: WizardBatched, lanes: np.ndarray, mask: np.ndarray) -> np.ndarray:
    n, k = engine.n, len(lanes)
    me = engine.cur[lanes]
    legal = mask[:, :NUM_KINDS]
    trump = engine.trump[lanes]  # 0..3, or 4 = no trump
    led = engine.led[lanes]  # LED_NONE, 0..3, LED_FREE
    led_code = np.where((led >= 0) & (led < NUM_SUITS), led, _NO)
    pw = _PLAY_POWER[trump, led_code]  # (k, 54)
    need = engine.bids[lanes, me] - engine.won[lanes, me]
    tlen = engine.tlen[lanes]
    out = np.empty(k, dtype=np.int64)
    lead = tlen == 0
    if lead.any():
        out[lead] = _lead(legal[lead], trump[lead], need[lead] > 0)
    follow = np.flatnonzero(~lead)
    if not len(follow):
        return out
    lanes_f, legal_f, pw_f = lanes[follow], legal[follow], pw[follow]
    wins = legal_f & _wins_now(engine, lanes_f)
    loses = legal_f & ~wins
    last = (tlen[follow] == n - 1)[:, None]
    want = (need[follow] > 0)[:, None]
    inf = np.inf
    lowest = np.where(legal_f, pw_f, inf).argmin(axis=1)
    highest = np.where(legal_f, pw_f, -inf).argmax(axis=1)
    # need > 0: the cheapest winner when last, else the strongest non-Wizard winner (a Wizard only
    # if nothing else wins); nothing wins: the weakest card
    plain_wins = wins & (np.arange(NUM_KINDS) != WIZARD)
    cheapest_win = np.where(wins, pw_f, inf).argmin(axis=1)
    strongest_plain = np.where(plain_wins, pw_f, -inf).argmax(axis=1)
    keen = np.where(
        last[:, 0],
        cheapest_win,
        np.where(plain_wins.any(axis=1), strongest_plain, WIZARD),
    )
    keen = np.where(wins.any(axis=1), keen, lowest)
    # need <= 0: the strongest card that still loses (a Null only if no other loses); if every
    # card wins, the strongest when last, the lowest otherwise
    non_null_loses = loses & (np.arange(NUM_KINDS) != NULL)
    shed = np.where(
        non_null_loses.any(axis=1), np.where(non_null_loses, pw_f, -inf).argmax(axis=1), NULL
    )
    shed = np.where(loses.any(axis=1), shed, np.where(last[:, 0], highest, lowest))
    out[follow] = np.where(want[:, 0], keen, shed)
    return out


def _wins_now(engine: WizardBatched, lanes: np.ndarray) -> np.ndarray:
    """``(k, 54)``: whether each kind, played now, would win the trick as it stands."""
    n = engine.n
    leader, led, trump = engine.leader[lanes], engine.led[lanes], engine.trump[lanes]
    cards = engine.tcard[lanes]  # (k, n) by absolute seat; -1 = not played yet
    place = (np.arange(n)[None, :] - leader[:, None]) % n
    suited = (cards >= 0) & (cards < NUM_SUITED)
    suit, rank = np.where(cards >= 0, cards // RANKS, -1), cards % RANKS
    key = np.where(
        suited & (suit == trump[:, None]),
        100 + rank,
        np.where(suited & (suit == led[:, None]), rank, -1 - place),
    )
    key = np.where(cards == WIZARD, 200 + n - place, key)
    best = np.where(cards >= 0, key, -(10**6)).max(axis=1)  # the trick's winning key so far
    p = engine.tlen[lanes][:, None]  # the new card's place
    led_after = _NEXT_LED[led + 1]  # (k, 54)
    cand = np.where(
        _IS_SUITED & (_SUIT == trump[:, None]),
        100 + _RANK,
        np.where(_IS_SUITED & (_SUIT == led_after), _RANK, -1 - p),
    )
    cand = np.where(np.arange(NUM_KINDS) == WIZARD, 200 + n - p, cand)
    return cand > best[:, None]


def _lead(legal: np.ndarray, trump: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Leading: wanting tricks, a Wizard, else a high trump, else the highest card (a trump among
    equals); not wanting, a Null, else the lowest card off trump, else the lowest card."""
    suited = legal & _IS_SUITED
    is_trump = suited & (_SUIT == trump[:, None])
    first = _first_legal(legal)
    top_trump = np.where(is_trump, np.arange(NUM_KINDS), -1).max(axis=1)
    high_trump = (top_trump >= 0) & (_RANK[np.maximum(top_trump, 0)] + 1 >= 10)
    by_rank_then_trump = np.where(suited, 2 * _RANK + is_trump, -1).argmax(axis=1)
    attack = np.where(
        legal[:, WIZARD],
        WIZARD,
        np.where(high_trump, top_trump, np.where(suited.any(axis=1), by_rank_then_trump, first)),
    )
    plain = suited & ~is_trump
    big = RANKS + 1
    low_plain = np.where(plain, _RANK, big).argmin(axis=1)
    low_any = np.where(suited, _RANK, big).argmin(axis=1)
    duck = np.where(
        legal[:, NULL],
        NULL,
        np.where(plain.any(axis=1), low_plain, np.where(suited.any(axis=1), low_any, first)),
    )
    return np.where(want, attack, duck)


__all__ = ["decide"]
