"""Wizard card data and the pure rule pieces (trick winner, follow suit, bids, scoring).

Cards are small ints ("kinds"), never objects, and names are computed, never cached:

    0-51   suited cards: kind = suit * 13 + (rank - 1), suits in rulebook order
           0 Dwarves, 1 Humans, 2 Elves, 3 Giants; ranks 1 (weakest) .. 13 (strongest)
    52     Wizard (4 copies)
    53     Null   (4 copies)

The four Wizards (and the four Nulls) are identical in the rulebook, so they share one kind:
a hand or a pile is a vector of 54 counts (0/1 for suited cards, 0-4 for Wizards and Nulls).
Everything here works on plain ints, lists and numpy count vectors.
"""

from __future__ import annotations

import numpy as np

SUITS = ("Dwarves", "Humans", "Elves", "Giants")
NUM_SUITS = 4
RANKS = 13
NUM_SUITED = NUM_SUITS * RANKS  # 52
WIZARD = 52
NULL = 53
NUM_KINDS = 54
COPIES_SPECIAL = 4
DECK_SIZE = 60

# Trump values: a suit 0-3, NO_TRUMP, or TRUMP_PENDING while the dealer chooses (Wizard flipped).
NO_TRUMP = 4
TRUMP_PENDING = -1
# Led-suit values: a suit 0-3, LED_NONE (no card yet, or only Nulls), LED_FREE (a Wizard came
# before any numbered card: nothing to follow).
LED_NONE = -1
LED_FREE = 4

#: how many copies of each kind the deck holds
DECK_COUNTS = np.array([1] * NUM_SUITED + [COPIES_SPECIAL, COPIES_SPECIAL], dtype=np.int8)
#: the 60 cards of the deck as kinds (shuffled by permuting this array)
DECK_KINDS = np.repeat(np.arange(NUM_KINDS, dtype=np.int64), DECK_COUNTS)
#: per-kind factor that brings a count into [0, 1]
COUNT_SCALE = (1.0 / DECK_COUNTS).astype(np.float32)


def make_card(suit: int, rank: int) -> int:
    return suit * RANKS + rank - 1


def card_suit(card: int) -> int:
    """0-3 for a suited card, -1 for a Wizard or a Null."""
    return card // RANKS if card < NUM_SUITED else -1


def card_rank(card: int) -> int:
    """1-13 for a suited card, 0 for a Wizard or a Null."""
    return card % RANKS + 1 if card < NUM_SUITED else 0


def card_name(card: int) -> str:
    if card == WIZARD:
        return "Wizard"
    if card == NULL:
        return "Null"
    if 0 <= card < NUM_SUITED:
        return f"{SUITS[card // RANKS]} {card % RANKS + 1}"
    return f"<card {card}>"


def trump_name(trump: int) -> str:
    if trump == NO_TRUMP:
        return "no trump"
    if trump == TRUMP_PENDING:
        return "(dealer choosing)"
    return SUITS[trump]


def num_rounds_for(num_players: int, deck_size: int = DECK_SIZE) -> int:
    """Rounds of a full game: the final round deals all 60 cards (ruling W1); a variant's deck
    of ``deck_size`` cards plays as many rounds as it can deal in full (W14)."""
    return deck_size // num_players


def deck_counts(suits: int = NUM_SUITS, ranks: int = RANKS, wizards: int = 4, nulls: int = 4):
    """Copies of each of the 54 kinds in a deck of the ranks 1..``ranks`` of the first ``suits``
    suits, ``wizards`` Wizards and ``nulls`` Nulls: the rulebook's 60 cards by default, a
    variant's smaller deck otherwise (W14; the cards keep their kinds)."""
    counts = np.zeros(NUM_KINDS, dtype=np.int8)
    for s in range(suits):
        counts[s * RANKS : s * RANKS + ranks] = 1
    counts[WIZARD], counts[NULL] = wizards, nulls
    return counts


def trump_after_flip(flipped: int | None) -> int:
    """Trump set by the flipped card (W4): its suit; Null or no card: no trump; Wizard: pending."""
    if flipped is None or flipped < 0 or flipped == NULL:
        return NO_TRUMP
    if flipped == WIZARD:
        return TRUMP_PENDING
    return flipped // RANKS


def next_led(led: int, card: int) -> int:
    """The led suit after ``card`` joins a trick whose led suit was ``led`` (W7, W8).

    The first numbered card sets the suit, unless a Wizard came first (then nothing is followed);
    Nulls never set anything.
    """
    if led != LED_NONE:
        return led
    if card == WIZARD:
        return LED_FREE
    if card == NULL:
        return LED_NONE
    return card // RANKS


def led_suit(trick: list[int]) -> int:
    """Led suit of a trick given as kinds in play order: a suit, LED_NONE or LED_FREE."""
    led = LED_NONE
    for c in trick:
        led = next_led(led, c)
        if led != LED_NONE:
            break
    return led


def trick_winner(trick: list[int], trump: int) -> int:
    """Index (in play order) of the card that wins a complete trick (W9).

    The first Wizard; else the highest trump; else the highest card of the led suit; a trick of
    Nulls only goes to the first Null.
    """
    if WIZARD in trick:
        return trick.index(WIZARD)
    led = led_suit(trick)
    if led == LED_NONE:  # only Nulls
        return 0
    best, best_key = 0, -1
    for i, c in enumerate(trick):
        if c >= NUM_SUITED:
            continue
        s = c // RANKS
        if s == trump:
            key = 100 + c % RANKS
        elif s == led:
            key = c % RANKS
        else:
            continue
        if key > best_key:
            best, best_key = i, key
    return best


def playable(hand: np.ndarray, led: int) -> np.ndarray:
    """Bool mask over the 54 kinds that a hand of counts may play to a trick led ``led`` (W7).

    Holding the led suit, a player must play that suit, a Wizard or a Null; otherwise anything.
    """
    if 0 <= led < NUM_SUITS:
        a = led * RANKS
        seg = hand[a : a + RANKS]
        if seg.any():
            out = np.zeros(NUM_KINDS, dtype=bool)
            out[a : a + RANKS] = seg
            out[WIZARD:] = hand[WIZARD:]
            return out
    return hand > 0


def forbidden_dealer_bid(round_cards: int, others_total: int) -> int | None:
    """The bid the dealer may not make (W6): the one that makes the bids total the round's cards."""
    f = round_cards - others_total
    return f if 0 <= f <= round_cards else None


def round_score(bid: int, tricks: int) -> int:
    """W10: exact: 20 + 10 per trick; otherwise -10 per trick off."""
    return 20 + 10 * tricks if bid == tricks else -10 * abs(tricks - bid)


def score_bounds(num_rounds: int) -> tuple[int, int]:
    """Lowest and highest total a player can reach over rounds 1..num_rounds."""
    cards = num_rounds * (num_rounds + 1) // 2
    return -10 * cards, 20 * num_rounds + 10 * cards


def winners_of(scores) -> list[int]:
    """Most points wins; ties share (W11)."""
    best = max(scores)
    return [p for p, s in enumerate(scores) if s == best]


def card_list(counts: np.ndarray) -> list[int]:
    """Kinds with multiplicity, sorted: [3, 17, 52, 52]."""
    return np.repeat(np.arange(NUM_KINDS), counts.astype(np.int64)).tolist()
