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

from deckzoo.envs.core.batched_state import per_seat, seat_rows
from deckzoo.envs.wizard import kernels as K
from deckzoo.envs.wizard.actions import BID_BASE, PHASE_BID, PHASE_PLAY, PHASE_TRUMP, TRUMP_BASE
from deckzoo.envs.wizard.batched import WizardBatched
from deckzoo.envs.wizard.cards import (
    DECK_COUNTS,
    NULL,
    NUM_KINDS,
    NUM_SUITED,
    NUM_SUITS,
    RANKS,
    WIZARD,
)

from .wizard import card_power, mean_power, power

_NO = NUM_SUITS  # the code for "no trump" / "no led suit" in the tables below
_TRUMPS, _KINDS = range(_NO + 1), range(NUM_KINDS)
_CODES = (*range(NUM_SUITS), None)  # the scalar's argument for each code
# bidding power of each kind by trump code (the scalar ``card_power``; Wizards are counted apart)
_BID_POWER = np.array([[0.0 if c == WIZARD else card_power(c, t) for c in _KINDS] for t in _TRUMPS])
_MEAN_POWER = np.array([mean_power(t) for t in _TRUMPS])
# play power (the scalar ``power``) by trump code, led code, kind
_PLAY_POWER = np.array(
    [[[power(c, t, led) for c in _KINDS] for led in _CODES] for t in _CODES], float
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


def _or_first_legal(actions: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The scalar agent's ``a if a in legal else legal[0]``."""
    ok = mask[np.arange(len(actions)), actions]
    return np.where(ok, actions, mask.argmax(axis=1))


def _own(engine: WizardBatched, field: np.ndarray, lanes: np.ndarray) -> np.ndarray:
    """The acting seat's row of a per-seat field ``(B, n, ...)``, for each of ``lanes``."""
    return per_seat(field).take(seat_rows(lanes, engine.cur[lanes], engine.n), axis=0)


def _hidden(engine: WizardBatched, lanes: np.ndarray) -> np.ndarray:
    return K.own_hand_hidden(engine.game.foresight, engine.rnd[lanes], engine.phase[lanes])


# ---- bidding ------------------------------------------------------------------------------------
def _bid(engine: WizardBatched, lanes: np.ndarray, mask: np.ndarray) -> np.ndarray:
    rnd, trump = engine.rnd[lanes], engine.trump[lanes]
    hand = _own(engine, engine.hands, lanes).astype(np.int64)
    # card_tricks: every Wizard a sure trick, the rest shared by power against the other hands
    wizards = hand[:, WIZARD]
    mine = np.cumsum(hand * _BID_POWER[trump], axis=1)[:, -1]
    total = mine + ((engine.n - 1) * rnd) * _MEAN_POWER[trump]
    safe = np.where(total > 0, total, 1.0)
    expected = np.where(total > 0, wizards + (rnd - wizards) * mine / safe, wizards)
    hidden = _hidden(engine, lanes)
    if hidden.any():
        expected = expected.astype(np.float64)
        expected[hidden] = _foresight_win_chance(engine, lanes[hidden])
    # choose_bid: the nearest whole bid, or the nearer neighbour of the dealer's forbidden one
    bid = np.clip(np.rint(expected), 0, rnd).astype(np.int64)
    forbidden = K.forbidden_bid(rnd, engine.bids[lanes])
    clash = (engine.cur[lanes] == engine.dealer[lanes]) & (bid == forbidden)
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
    unseen = DECK_COUNTS - hands.sum(axis=1) + hands[rows, me]
    unseen -= K.KINDS == engine.flipped[lanes][:, None]  # (-1: nothing flipped)
    # each other seat's single card, in play order from the leader; the own seat's is the candidate
    order = (leader[:, None] + np.arange(n)) % n  # (k, n) seats in play order
    card = np.take_along_axis(hands.argmax(axis=2), order, axis=1)  # the one card each holds
    trick = np.repeat(card[:, None, :], NUM_KINDS, axis=1)
    mine_at = (me - leader) % n
    trick[rows, :, mine_at] = K.KINDS
    win = K.trick_winner(trick, np.repeat(engine.trump[lanes][:, None], NUM_KINDS, axis=1))
    wins = (unseen * (win == mine_at[:, None])).sum(axis=1)
    total = unseen.sum(axis=1)
    return np.where(total > 0, wins / np.maximum(total, 1), 0.0)


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
    legal = mask[:, :NUM_KINDS]
    trump, led = engine.trump[lanes], engine.led[lanes]  # trump 0..3, or 4 = no trump
    need = _own(engine, engine.bids, lanes) - _own(engine, engine.won, lanes)
    tlen = engine.tlen[lanes]
    out = np.empty(k, dtype=np.int64)
    lead = tlen == 0
    if lead.any():
        out[lead] = _lead(legal[lead], trump[lead], need[lead] > 0)
    follow = np.flatnonzero(~lead)
    if not len(follow):
        return out
    led_code = np.where((led >= 0) & (led < NUM_SUITS), led, _NO)
    pw = _PLAY_POWER[trump[follow], led_code[follow]]  # (k, 54)
    legal = legal[follow]
    wins = legal & _wins_now(engine, lanes[follow])
    loses = legal & ~wins
    last = tlen[follow] == n - 1
    inf = np.inf
    lowest = np.where(legal, pw, inf).argmin(axis=1)
    highest = np.where(legal, pw, -inf).argmax(axis=1)
    # need > 0: the cheapest winner when last, else the strongest non-Wizard winner (a Wizard only
    # if nothing else wins); nothing wins: the weakest card
    plain_wins = wins & (K.KINDS != WIZARD)
    cheapest_win = np.where(wins, pw, inf).argmin(axis=1)
    strongest_plain = np.where(plain_wins, pw, -inf).argmax(axis=1)
    keen = np.where(last, cheapest_win, np.where(plain_wins.any(axis=1), strongest_plain, WIZARD))
    keen = np.where(wins.any(axis=1), keen, lowest)
    # need <= 0: the strongest card that still loses (a Null only if no other loses); if every
    # card wins, the strongest when last, the lowest otherwise
    quiet = loses & (K.KINDS != NULL)
    shed = np.where(quiet.any(axis=1), np.where(quiet, pw, -inf).argmax(axis=1), NULL)
    shed = np.where(loses.any(axis=1), shed, np.where(last, highest, lowest))
    out[follow] = np.where(need[follow] > 0, keen, shed)
    return out


def _wins_now(engine: WizardBatched, lanes: np.ndarray) -> np.ndarray:
    """``(k, 54)``: whether each kind, played now, would win the trick as it stands."""
    n, cards = engine.n, engine.tcard[lanes]  # by absolute seat; -1: not played yet
    leader, led = engine.leader[lanes], engine.led[lanes][:, None]
    trump = engine.trump[lanes][:, None]
    keys = K.card_keys(cards, (np.arange(n) - leader[:, None]) % n, trump, led)
    best = np.where(cards >= 0, keys, -1000).max(axis=1)  # the trick's winning key so far
    p = engine.tlen[lanes][:, None]  # the new card's place
    led_after = K.NEXT_LED.take(led[:, 0] + 1, axis=0)  # (k, 54)
    return K.card_keys(K.KINDS, p, trump, led_after) > best[:, None]


def _lead(legal: np.ndarray, trump: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Leading: wanting tricks, a Wizard, else a high trump, else the highest card (a trump among
    equals); not wanting, a Null, else the lowest card off trump, else the lowest card."""
    suited = legal & K.SUITED
    is_trump = suited & (K.SUIT == trump[:, None])
    first = legal.argmax(axis=1)
    top_trump = np.where(is_trump, K.KINDS, -1).max(axis=1)
    high_trump = (top_trump >= 0) & (K.RANK[np.maximum(top_trump, 0)] + 1 >= 10)
    by_rank_then_trump = np.where(suited, 2 * K.RANK + is_trump, -1).argmax(axis=1)
    attack = np.where(
        legal[:, WIZARD],
        WIZARD,
        np.where(high_trump, top_trump, np.where(suited.any(axis=1), by_rank_then_trump, first)),
    )
    plain = suited & ~is_trump
    low_plain = np.where(plain, K.RANK, RANKS).argmin(axis=1)
    low_any = np.where(suited, K.RANK, RANKS).argmin(axis=1)
    duck = np.where(
        legal[:, NULL],
        NULL,
        np.where(plain.any(axis=1), low_plain, np.where(suited.any(axis=1), low_any, first)),
    )
    return np.where(want, attack, duck)


__all__ = ["decide"]
