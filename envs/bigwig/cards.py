"""BigWig card data (rulebook "What's Included" + rulings B2-B6) and names.

Cards are small ints. Copies of a card are identical in play, so hands, piles and actions use
card *kinds*; ``KIND_COPIES`` says how many of each kind exist.

Large cards (52 playable + one well card per player)
    kinds 0-35   standard: colour c (0 red, 1 yellow, 2 blue, 3 green), value v 1-9:
                 kind = 9c + v - 1
    kinds 36-45  specials, all white, always trump (B5):
                 36 Til Valhallar 0 (x2), 37 Dvergar 3 (x2), 38 Loki 4 (x2), 39 Surtr 5 red,
                 40 Vanir 5 yellow, 41 Ymir 5 blue, 42 Alfar 5 green (x1 each, B6),
                 43 Fenrir 6 (x2), 44 Hugin & Munin 7 (x2), 45 Mjollnir 10 (x2, no effect, B7)
    WELL = 46    the well card (Mimisbrunnr); each player owns one, it never leaves its owner

Small cards (the altar pile of 24)
    point kinds 0-14 (B3; white is on every card and always trump):
                 0-3   2 VP, white + one colour (red, yellow, blue, green), x2 each
                 4-9   3 VP, white + each colour pair once
                 10-13 4 VP, white + each colour triple once
                 14    5 VP, white + all four colours, x2
    HOLMGANG = 15 (x4)
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

COLOURS = ("red", "yellow", "blue", "green")
WHITE = 4  # colour index of the specials (and of every point card's fixed trump)
NUM_STANDARD = 36

TIL_VALHALLAR, DVERGAR, LOKI = 36, 37, 38
SURTR, VANIR, YMIR, ALFAR = 39, 40, 41, 42
FENRIR, HUGIN_MUNIN, MJOLLNIR = 43, 44, 45
FIVES = (SURTR, VANIR, YMIR, ALFAR)
NUM_KINDS = 46  # playable large-card kinds (the well excluded)
WELL = 46

SPECIAL_NAMES = {
    TIL_VALHALLAR: "Til Valhallar",
    DVERGAR: "Dvergar",
    LOKI: "Loki",
    SURTR: "Surtr",
    VANIR: "Vanir",
    YMIR: "Ymir",
    ALFAR: "Alfar",
    FENRIR: "Fenrir",
    HUGIN_MUNIN: "Hugin & Munin",
    MJOLLNIR: "Mjollnir",
}
SPECIAL_VALUES = {
    TIL_VALHALLAR: 0,
    DVERGAR: 3,
    LOKI: 4,
    SURTR: 5,
    VANIR: 5,
    YMIR: 5,
    ALFAR: 5,
    FENRIR: 6,
    HUGIN_MUNIN: 7,
    MJOLLNIR: 10,
}
# The colour a 5 makes trump besides white (B6: listed in the same order as the names).
FIVE_COLOUR = {SURTR: 0, VANIR: 1, YMIR: 2, ALFAR: 3}

# Per kind: printed value, colour (0-3, or WHITE), copies in the deck.
KIND_VALUE = np.array(
    [v for _ in range(4) for v in range(1, 10)] + [SPECIAL_VALUES[k] for k in range(36, 46)],
    dtype=np.int64,
)
KIND_COLOUR = np.array([c for c in range(4) for _ in range(9)] + [WHITE] * 10, dtype=np.int64)
KIND_COPIES = np.array([1] * 36 + [1 if k in FIVES else 2 for k in range(36, 46)], dtype=np.int64)
DECK_SIZE = int(KIND_COPIES.sum())  # 52
IS_SPECIAL = np.arange(NUM_KINDS) >= NUM_STANDARD

# ---- small cards ----------------------------------------------------------------------------
POINT_COLOURS: tuple[frozenset, ...] = tuple(
    [frozenset([c]) for c in range(4)]
    + [frozenset(p) for p in combinations(range(4), 2)]
    + [frozenset(t) for t in combinations(range(4), 3)]
    + [frozenset(range(4))]
)
NUM_POINT_KINDS = 15
HOLMGANG = 15
NUM_SMALL_KINDS = 16
POINT_VP = np.array([len(c) + 1 for c in POINT_COLOURS], dtype=np.int64)  # 2, 3, 4 or 5
POINT_COPIES = np.array([2] * 4 + [1] * 10 + [2], dtype=np.int64)
NUM_HOLMGANGS = 4
SMALL_COPIES = np.append(POINT_COPIES, NUM_HOLMGANGS)  # 24 small cards
SMALL_TOTAL = int(SMALL_COPIES.sum())  # 24
TOTAL_VP = int(POINT_VP @ POINT_COPIES)  # 60
# Trump colours of each point card as a bool row over (red, yellow, blue, green); white is implied.
POINT_TRUMP = np.array([[c in cs for c in range(4)] for cs in POINT_COLOURS], dtype=bool)

DEAL = 7  # large cards dealt to each player (the well card besides)
HAND_LIMIT = 9  # no draw beyond 9 cards in hand, the well included (B21)


def card_name(kind: int) -> str:
    """Readable name of a large-card kind (or the well)."""
    if kind == WELL:
        return "well"
    if kind < NUM_STANDARD:
        return f"{COLOURS[kind // 9]} {kind % 9 + 1}"
    return f"{SPECIAL_NAMES[kind]} (white {SPECIAL_VALUES[kind]})"


def small_name(kind: int) -> str:
    if kind == HOLMGANG:
        return "holmgang"
    colours = "/".join(["white"] + [COLOURS[c] for c in sorted(POINT_COLOURS[kind])])
    return f"{POINT_VP[kind]} VP ({colours})"


def standard(colour: str, value: int) -> int:
    """Kind of a standard card, e.g. ``standard("green", 7)``."""
    return COLOURS.index(colour) * 9 + value - 1


def point_kind(colours) -> int:
    """Kind of the point card showing white plus ``colours`` (names), e.g.
    ``point_kind(["red", "green"])``."""
    return POINT_COLOURS.index(frozenset(COLOURS.index(c) for c in colours))


def draw_entitlement(kind: int) -> int:
    """Cards drawn for sacrificing ``kind`` (rulebook: value 0-3 -> 1, 4-6 -> 2, 7-10 -> 3; B20)."""
    v = int(KIND_VALUE[kind])
    return 1 if v <= 3 else 2 if v <= 6 else 3
