"""Wizard's determinization (``WizardState._determinize``, found by name): ``determinize`` picks
what a seat cannot see and redeals it at random, respecting the voids the seats have shown.

A seat that failed to follow suit has shown it holds none of that suit, so a determinization
must never deal it that suit. ``sample_hidden`` is exact rejection sampling (uniform over the
consistent deals) while that is cheap, and falls back to a constructive sampler that is always
consistent (Gale's condition for a supply-demand assignment) and close to uniform.
"""

from __future__ import annotations

import numpy as np

from .actions import PHASE_OVER
from .cards import NUM_KINDS, NUM_SUITED, NUM_SUITS, RANKS

_KINDS = np.arange(NUM_KINDS)
# _VOID_BAD[mask][kind]: a kind of a suit in the 4-bit void ``mask``
_VOID_BAD = np.array(
    [[k < NUM_SUITED and bool(m >> (k // RANKS) & 1) for k in range(NUM_KINDS)] for m in range(16)]
)
_REJECTION_TRIES = 12


def sample_hidden(
    pool: np.ndarray, capacities: list[int], voids: list[int], rng: np.random.Generator
) -> np.ndarray:
    """Deal the cards counted in ``pool`` (54 counts) to holders of the given sizes, at random.

    ``voids[h]`` is a 4-bit mask of suits holder h is known to lack; such a holder never receives
    those suits. The deal is uniform over all consistent deals when it comes from a plain shuffle
    (always without voids; with voids, up to ``_REJECTION_TRIES`` shuffles are tried and the first
    consistent one is kept, which is exact rejection sampling). If no try is consistent (many voids,
    late in a round), cards are placed one by one on a holder chosen with probability proportional
    to its free room among those that keep a consistent completion possible (Gale's condition over
    subsets of suits): that always succeeds when the true deal was consistent, and is close to
    uniform. Returns the holders' count vectors as rows of an int8 array (holders x 54).
    """
    cards = np.repeat(_KINDS, pool.astype(np.int64))
    total = sum(capacities)
    if total != len(cards):
        raise AssertionError(f"{len(cards)} hidden cards for holders of sizes {capacities}")
    owner = np.repeat(np.arange(len(capacities)), capacities)
    rng.shuffle(cards)
    if any(voids):
        lacks = np.repeat(
            np.asarray(voids, dtype=np.int64), capacities
        )  # the void mask at each position
        for _ in range(_REJECTION_TRIES):
            if not _VOID_BAD[lacks, cards].any():
                break
            rng.shuffle(cards)
        else:
            owner, cards = place_one_by_one(cards, capacities, voids, rng)
    flat = np.bincount(owner * NUM_KINDS + cards, minlength=len(capacities) * NUM_KINDS)
    return flat.reshape(len(capacities), NUM_KINDS).astype(np.int8)


def place_one_by_one(
    cards: np.ndarray, capacities: list[int], voids: list[int], rng: np.random.Generator
):
    """The constrained fallback of ``sample_hidden``: (owner, card) arrays of a consistent deal.

    First the cards of suits that some holder lacks are placed one by one (in the given random
    order), each on a holder that may take it, chosen with probability proportional to its free
    room among those that keep a completion possible; then the other cards (which anyone may take)
    fill the remaining room in random order. ``slack[S]``, for sets S of the lacked suits, is the
    room of the holders that may take some suit of S minus the cards of S still to place; a deal
    can be completed exactly when every slack is >= 0 (Gale). Giving holder h a card of suit s
    lowers the slack of the sets h may serve that do not contain s.
    """
    holders = range(len(capacities))
    caps = list(capacities)
    lacked = 0
    for v in voids:
        lacked |= v
    subsets = [S for S in range(1, 16) if S & lacked == S]
    values = cards.tolist()
    hard = [c for c in values if c < NUM_SUITED and lacked >> (c // RANKS) & 1]
    easy = [c for c in values if not (c < NUM_SUITED and lacked >> (c // RANKS) & 1)]
    left = [0] * NUM_SUITS
    for c in hard:
        left[c // RANKS] += 1
    slack = {
        S: sum(caps[h] for h in holders if voids[h] & S != S)
        - sum(left[s] for s in range(NUM_SUITS) if S >> s & 1)
        for S in subsets
    }
    # lowers[h][s]: the suit sets whose slack drops when h takes a card of suit s
    lowers = [
        [[S for S in subsets if voids[h] & S != S and not S >> s & 1] for s in range(NUM_SUITS)]
        for h in holders
    ]
    owners = []
    for c in hard:
        s = c // RANKS
        candidates = [
            h
            for h in holders
            if caps[h] and not voids[h] >> s & 1 and all(slack[S] > 0 for S in lowers[h][s])
        ]
        if not candidates:
            raise AssertionError("no consistent deal of the hidden cards exists")
        x = rng.random() * sum(caps[h] for h in candidates)
        for h in candidates:
            x -= caps[h]
            if x < 0:
                break
        caps[h] -= 1
        for S in lowers[h][s]:
            slack[S] -= 1
        owners.append(h)
    for h in holders:
        owners.extend([h] * caps[h])
    return np.asarray(owners, dtype=np.int64), np.asarray(hard + easy, dtype=np.int64)


def determinize(st, player: int, rng: np.random.Generator):
    """Resample the cards ``player`` cannot see: the other hands and the stock (hand sizes and
    every seat's shown voids kept); in the Foresight round before play, only its own card
    (drawn from its card and the stock; it sees everyone else's)."""
    s = st.clone()
    if st.phase == PHASE_OVER:
        return s
    n = st.game.num_players
    if st.own_hand_hidden(player):
        holders = [player]
    elif st.foresight_round():
        return s  # own card revealed, the others' seen: the stock is known by elimination
    else:
        holders = [q for q in range(n) if q != player]
    pool = st.hands[holders].sum(axis=0, dtype=np.int64) + st.stock
    caps = [st.hand_sizes[q] for q in holders] + [int(st.stock.sum())]
    parts = sample_hidden(pool, caps, [st.voids[q] for q in holders] + [0], rng)
    s.hands[holders] = parts[:-1]
    s.stock = parts[-1]
    s.recount()
    return s
