"""Resolving one face-down BigWig trick: a pure function on plain values (rulings B8-B16).

``resolve_trick(plays, point_trump)`` follows the resolution order of ruling B11, steps 1-6 and the
Loki test of step 8 (awarding cards, discarding and drawing are the state's business):

1. well cards are set aside: they never win and are ignored by every test (B17);
2. same-value cancellation: every special whose value occurs on two or more specials in the trick
   loses its effect, keeping its value and trump status (B9);
3. Fenrir: a single effective Fenrir voids every other special's effect (B10);
4. Hugin & Munin: an effective H&M makes the other card(s) with the highest printed value invalid:
   they cannot win and lose their effects (B8);
5. trump colours: an effective 5 replaces the point card's colours by its own; white (every special)
   is always trump (B6, B12);
6. winner: with an effective Dvergar the lowest value wins (non-trumps first, B14), otherwise the
   highest trump, or the highest value if nobody played a trump (B13); a tie means no winner;
8. Loki: an effective Loki takes all altar cards when no other valid card is lower than 4, else one
   (B15).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import (
    DVERGAR,
    FENRIR,
    FIVE_COLOUR,
    FIVES,
    HUGIN_MUNIN,
    KIND_COLOUR,
    KIND_VALUE,
    LOKI,
    NUM_STANDARD,
    WELL,
)

# Specials whose effect acts in the trick (Til Valhallar's ticket use happens before the trick,
# Mjollnir has none: B7).
EFFECT_KINDS = frozenset({DVERGAR, LOKI, FENRIR, HUGIN_MUNIN, *FIVES})


@dataclass
class TrickResult:
    winner: int | None  # seat, or None for a tie / a trick of only wells / all invalid
    trump: tuple[
        bool, bool, bool, bool
    ]  # red, yellow, blue, green trump in this trick (white always)
    effective: list[int] = field(default_factory=list)  # seats whose special's effect applied
    cancelled: list[int] = field(default_factory=list)  # seats whose special was cancelled (B9)
    voided: list[int] = field(default_factory=list)  # seats whose special Fenrir voided (B10)
    invalid: list[int] = field(
        default_factory=list
    )  # seats whose card Hugin & Munin invalidated (B8)
    lowest_wins: bool = False  # an effective Dvergar reversed the order (B14)
    loki: int | None = None  # seat of the effective Loki, if any
    loki_takes_all: bool = False


def is_trump(kind: int, trump) -> bool:
    return kind >= NUM_STANDARD or bool(trump[KIND_COLOUR[kind]])


def _unique_extreme(cards: list[tuple[int, int]], lowest: bool) -> int | None:
    """Seat of the unique highest (or lowest) value among ``(seat, kind)``; None if tied or
    empty."""
    if not cards:
        return None
    values = [int(KIND_VALUE[k]) for _, k in cards]
    best = min(values) if lowest else max(values)
    seats = [s for (s, _), v in zip(cards, values) if v == best]
    return seats[0] if len(seats) == 1 else None


def resolve_trick(plays, point_trump) -> TrickResult:
    """Resolve a trick. ``plays``: (seat, kind) pairs, kind ``WELL`` for a well card;
    ``point_trump``: four bools (red, yellow, blue, green) shown on the point card at stake."""
    cards = [(s, k) for s, k in plays if k != WELL]  # step 1
    specials = [(s, k) for s, k in cards if k >= NUM_STANDARD]
    value_count: dict[int, int] = {}
    for _, k in specials:
        value_count[int(KIND_VALUE[k])] = value_count.get(int(KIND_VALUE[k]), 0) + 1
    cancelled = [
        s for s, k in specials if value_count[int(KIND_VALUE[k])] >= 2 and k in EFFECT_KINDS
    ]  # step 2
    active = {s: k for s, k in specials if k in EFFECT_KINDS and s not in cancelled}
    voided: list[int] = []
    fenrir = [s for s, k in active.items() if k == FENRIR]
    if fenrir:  # step 3 (at most one: two Fenrirs cancel each other)
        voided = [s for s in active if s != fenrir[0]]
        active = {fenrir[0]: FENRIR}
    invalid: list[int] = []
    hm = [s for s, k in active.items() if k == HUGIN_MUNIN]
    if hm:  # step 4
        others = [(s, k) for s, k in cards if s != hm[0]]
        if others:
            top = max(int(KIND_VALUE[k]) for _, k in others)
            invalid = [s for s, k in others if KIND_VALUE[k] == top]
            for s in invalid:
                active.pop(s, None)
    trump = tuple(bool(x) for x in point_trump)
    five = [k for k in active.values() if k in FIVES]
    if five:  # step 5 (at most one: two 5s cancel each other)
        trump = tuple(c == FIVE_COLOUR[five[0]] for c in range(4))
    valid = [(s, k) for s, k in cards if s not in invalid]
    lowest = DVERGAR in active.values()
    trumps = [(s, k) for s, k in valid if is_trump(k, trump)]
    if lowest:  # step 6
        plain = [(s, k) for s, k in valid if not is_trump(k, trump)]
        winner = _unique_extreme(plain if plain else trumps, lowest=True)
    else:
        winner = _unique_extreme(trumps if trumps else valid, lowest=False)
    loki = next((s for s, k in active.items() if k == LOKI), None)
    takes_all = loki is not None and all(
        KIND_VALUE[k] >= KIND_VALUE[LOKI] for s, k in valid if s != loki
    )
    return TrickResult(
        winner=winner,
        trump=trump,
        effective=sorted(active),
        cancelled=sorted(cancelled),
        voided=sorted(voided),
        invalid=sorted(invalid),
        lowest_wins=lowest,
        loki=loki,
        loki_takes_all=takes_all,
    )


_VALUE = KIND_VALUE.tolist()
_COLOUR = KIND_COLOUR.tolist()


def trick_winner(kinds, point_trump) -> int | None:
    """``resolve_trick``'s winner alone, much faster (search and heuristics call it per sample).

    ``kinds``: the card of each position (``WELL`` for a well card); returns the winning position,
    or None. Follows the same steps as ``resolve_trick`` (tests/bigwig/test_trick.py compares the
    two over many random tricks)."""
    cards = [(i, k) for i, k in enumerate(kinds) if k != WELL]  # step 1
    cards, trump, lowest = _effects(cards, point_trump)  # steps 2-5
    colour = _COLOUR
    if lowest:  # step 6: the lowest non-trump, else the lowest trump
        plain = [(i, k) for i, k in cards if k < NUM_STANDARD and not trump[colour[k]]]
        return _sole_extreme(plain or cards, lowest=True)
    trumps = [(i, k) for i, k in cards if k >= NUM_STANDARD or trump[colour[k]]]
    return _sole_extreme(trumps or cards, lowest=False)


def _effects(cards, point_trump):
    """Steps 2-5 for ``trick_winner``: the cards still valid, the trump colours and whether an
    effective Dvergar makes the lowest win."""
    value = _VALUE
    seen: dict[int, int] = {}
    for _, k in cards:
        if k >= NUM_STANDARD:
            v = value[k]
            seen[v] = seen.get(v, 0) + 1
    active = {i: k for i, k in cards if k in EFFECT_KINDS and seen[value[k]] < 2}  # step 2
    if not active:
        return cards, point_trump, False
    fenrir = [i for i, k in active.items() if k == FENRIR]
    if fenrir:  # step 3
        active = {fenrir[0]: FENRIR}
    hm = [i for i, k in active.items() if k == HUGIN_MUNIN]
    if hm:  # step 4
        h = hm[0]
        others = [value[k] for i, k in cards if i != h]
        if others:
            top = max(others)
            invalid = {i for i, k in cards if i != h and value[k] == top}
            for i in invalid:
                active.pop(i, None)
            cards = [(i, k) for i, k in cards if i not in invalid]
    trump = point_trump
    lowest = False
    for k in active.values():
        if k in FIVES:  # step 5
            c = FIVE_COLOUR[k]
            trump = (c == 0, c == 1, c == 2, c == 3)
        elif k == DVERGAR:
            lowest = True
    return cards, trump, lowest


def _sole_extreme(cards, lowest: bool) -> int | None:
    """The position of the highest value among ``cards`` (the lowest with ``lowest``); None when
    two cards share it (no winner)."""
    value = _VALUE
    best = None
    best_v = 0
    tied = False
    for i, k in cards:
        v = value[k]
        if best is None or (v < best_v if lowest else v > best_v):
            best, best_v, tied = i, v, False
        elif v == best_v:
            tied = True
    return None if tied else best
