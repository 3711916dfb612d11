"""Big Number cards, sets and the pure rule functions (no state, no randomness).

A card type is an int ``c = 4 * (rank - 1) + suit`` with rank 1-9 (Ace = 1) and suit 0-3
(clubs, diamonds, hearts, spades), so the 36 types sort by rank first: a play written as a
tuple of card types in *descending* order reads its digits biggest first (ruling N7). With
two decks every type exists twice; the two copies are interchangeable (ruling N2), so hands
and piles are count vectors over the 36 types and a play is a descending tuple in which a
type may repeat. A variant's deck of fewer ranks (N16) holds the types below ``4 * ranks``; the
others are never dealt.
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations, compress

RANKS = 9
SUITS = 4
NUM_TYPES = RANKS * SUITS  # 36
HAND_SIZE = 9
SUIT_SYMBOLS = "\u2663\u2666\u2665\u2660"  # clubs, diamonds, hearts, spades
SUIT_LETTERS = "cdhs"
RANK_SYMBOLS = "A23456789"


def card(rank: int, suit: int) -> int:
    return 4 * (rank - 1) + suit


def rank_of(c: int) -> int:
    return c // 4 + 1


def suit_of(c: int) -> int:
    return c % 4


def card_name(c: int) -> str:
    """``"7\u2660"``, ``"A\u2665"``."""
    return RANK_SYMBOLS[c // 4] + SUIT_SYMBOLS[c % 4]


def parse_card(text: str) -> int:
    """Inverse of ``card_name``; also accepts ASCII suit letters (``"7s"``, ``"Ah"``, ``"1h"``)."""
    r, s = text[0], text[1:]
    rank = 1 if r in "A1" else int(r)
    suit = SUIT_SYMBOLS.index(s) if s in SUIT_SYMBOLS else SUIT_LETTERS.index(s.lower())
    if not 1 <= rank <= RANKS:
        raise ValueError(f"no such card {text!r}")
    return card(rank, suit)


def parse_cards(text: str) -> tuple[int, ...]:
    """``"8d 6d 2d"`` -> the play as a descending tuple of card types."""
    return tuple(sorted((parse_card(t) for t in text.split()), reverse=True))


def cards_name(cards) -> str:
    return " ".join(card_name(c) for c in sorted(cards, reverse=True))


def is_set(cards) -> bool:
    """One card, or several cards all of one suit or all of one rank (rulebook "What you may
    play")."""
    if len(cards) <= 1:
        return len(cards) == 1
    return len({c % 4 for c in cards}) == 1 or len({c // 4 for c in cards}) == 1


def play_value(cards) -> int:
    """The number the cards make, digits biggest first (ruling N7): (8d, 6d, 2d) -> 862."""
    v = 0
    for r in sorted((c // 4 + 1 for c in cards), reverse=True):
        v = 10 * v + r
    return v


@lru_cache(maxsize=1 << 16)
def _value(play: tuple[int, ...]) -> int:
    """``play_value`` of a descending tuple, memoised (the hot path of ``legal_plays``)."""
    v = 0
    for c in play:
        v = 10 * v + c // 4 + 1
    return v


def beats(play, middle) -> bool:
    """Whether ``play`` may answer ``middle`` (ruling N6): a set of the same size and a higher
    value, or of one card more (always higher: there is no 0 digit)."""
    if not is_set(play):
        return False
    if len(play) == len(middle) + 1:
        return True
    return len(play) == len(middle) and play_value(play) > play_value(middle)


_DESCENDING = tuple(range(NUM_TYPES - 1, -1, -1))


def expand(counts) -> list[int]:
    """Count vector -> descending list of card types, duplicates repeated.

    The views, the legal plays and the heuristic call this hundreds of thousands of times in a
    search, so the common case (no duplicates: one deck) runs in C via ``compress``.
    """
    if 2 not in counts:
        return list(compress(_DESCENDING, reversed(counts)))
    out = []
    for c in _DESCENDING:
        k = counts[c]
        if k:
            out += [c] * k
    return out


def is_uniform(counts) -> bool:
    """Whether the whole hand is one suit or one rank (the "everything at once" condition, N12)."""
    held = list(compress(range(NUM_TYPES), counts))
    if not held:
        return False
    return len({c % 4 for c in held}) == 1 or len({c // 4 for c in held}) == 1


def legal_plays(hand, middle) -> list[tuple[int, ...]]:
    """Every distinct play (descending tuple) the holder of ``hand`` (counts) may make now.

    ``middle`` is the set to beat, or empty/None when leading. A lead is one card (N5), or the
    whole hand when it is one suit or one rank (N12). An answer is a set of ``m`` cards with a
    higher value or of ``m + 1`` cards (N6). Sorted, so the order never depends on hashing.
    """
    cards = expand(hand)
    if not middle:
        plays = {(c,) for c in cards}
        if len(cards) > 1 and is_uniform(hand):
            plays.add(tuple(cards))
        return sorted(plays)
    m = len(middle)
    target = _value(tuple(middle))
    suits = [[], [], [], []]
    ranks = [[] for _ in range(RANKS)]
    for c in cards:  # descending, so every group and every combination is descending too
        suits[c % 4].append(c)
        ranks[c // 4].append(c)
    plays = set()
    if m == 1:  # singles above the middle card
        plays.update((c,) for c in cards if c // 4 + 1 > target)
    else:
        for g in suits + ranks:
            if len(g) >= m:
                plays.update(t for t in combinations(g, m) if _value(t) > target)
    if len(cards) > m:  # one card more: always higher (no 0 digit)
        for g in suits + ranks:
            if len(g) > m:
                plays.update(combinations(g, m + 1))
    return sorted(plays)


def penalties(hand_sizes, finisher: int) -> list[int]:
    """Deal scoring: everybody but the player who went out scores a point a card in hand."""
    return [0 if p == finisher else int(k) for p, k in enumerate(hand_sizes)]


@cache
def all_sets(ranks: int = RANKS) -> tuple[tuple[int, ...], ...]:
    """Every set that one deck of the ranks 1..``ranks`` can form: its singles, then same-suit
    sets of 2..ranks cards, then same-rank sets of 2-4 cards; each a descending tuple. The
    one-deck action table: 2143 sets for the rulebook's nine ranks (a variant's deck of fewer
    ranks, N16, has a shorter table; the cards keep their types)."""
    out = [(c,) for c in range(SUITS * ranks)]
    for s in range(SUITS):
        suit = [card(r, s) for r in range(ranks, 0, -1)]
        for k in range(2, ranks + 1):
            out.extend(combinations(suit, k))
    for r in range(1, ranks + 1):
        rank = [card(r, s) for s in range(SUITS - 1, -1, -1)]
        for k in range(2, SUITS + 1):
            out.extend(combinations(rank, k))
    return tuple(out)


@cache
def set_index(ranks: int = RANKS) -> dict[tuple[int, ...], int]:
    """Each set of ``all_sets(ranks)`` -> its index there (its play action is ``37 + index``)."""
    return {t: i for i, t in enumerate(all_sets(ranks))}


SETS: tuple[tuple[int, ...], ...] = all_sets(RANKS)
SET_INDEX: dict[tuple[int, ...], int] = set_index(RANKS)
assert len(SETS) == len(SET_INDEX) == 2143


def counts_of(cards) -> list[int]:
    """The count vector (over the 36 types) of a list of card types."""
    out = [0] * NUM_TYPES
    for c in cards:
        out[c] += 1
    return out
