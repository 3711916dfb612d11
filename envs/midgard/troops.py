"""Midgard troops: the regimentation rules as small functions on a ``Troop`` (rulings M13-M22).

A troop is laid down either *in sequence* or *in series*:

* A **sequence** troop is a line of 12 slots: slot 0 is the left flank, slots 1-10 stand for the
  classes 0-9 (class ``c`` at slot ``c + 1``), slot 11 is the right flank. The occupied class
  slots form one run ``lo..hi`` of at least 2 classes (no wrap-around, M13). A natural card sits
  in its own class slot; Tyr fills one class slot; Thor fills two consecutive class slots (its
  head slot holds ``THOR``, the next one ``THOR_TAIL``) and counts as one card (M17). A flank
  holds a Snedig or a Tyr standing for one (Catherin's example), never anything beyond it (M15).
* A **series** troop is ``nat`` natural cards of one class 0-9 plus ``tyr`` Tyrs (one copy each)
  and ``thor`` Thors (two copies each) (M14).

Every troop on the table has at least 3 cards and at most ``floor(cards / 2)`` wildcards (M16).
Only natural cards count as class requirements (M20). Card kinds are those of ``cards.py``.
"""

from __future__ import annotations

import numpy as np

from .cards import NUM_CLASSES, SNEDIG, THOR, TYR

EMPTY = -1
THOR_TAIL = -2
LEFT, RIGHT = 0, 11
NUM_SLOTS = 12
# Where a displaced wildcard may be relocated (M18): the free class slot(s) just below the low
# end of the run or just above its high end ("beyond Sjømann or before the Skald").
REL_LOW, REL_HIGH = 0, 1
REL_NAMES = ("low end", "high end")
# Claiming for Gods (M22): take a wildcard by giving the card(s) it stands for, or put one in
# place of natural card(s) and take them.
TAKE_TYR, TAKE_THOR, PUT_TYR, PUT_THOR = 0, 1, 2, 3
CLAIM_NAMES = ("take Tyr", "take Thor", "put Tyr", "put Thor")


def slot_of_class(c: int) -> int:
    return c + 1


class Troop:
    """One troop on the table (or being laid down). Mutable; ``copy()`` is cheap."""

    __slots__ = ("cls", "engaged", "line", "nat", "series", "thor", "tyr")

    def __init__(self):
        self.series = False
        self.line = [EMPTY] * NUM_SLOTS
        self.cls = -1
        self.nat = self.tyr = self.thor = 0
        self.engaged = False

    # ---- construction -----------------------------------------------------------------
    @classmethod
    def sequence(cls, line, engaged: bool = False) -> Troop:
        t = cls()
        t.line = list(line)
        t.engaged = engaged
        return t

    @classmethod
    def make_series(
        cls, klass: int, nat: int, tyr: int = 0, thor: int = 0, engaged: bool = False
    ) -> Troop:
        t = cls()
        t.series, t.cls, t.nat, t.tyr, t.thor, t.engaged = True, klass, nat, tyr, thor, engaged
        return t

    @classmethod
    def from_cards(cls, cards, flank_tyr: str | None = None, engaged: bool = False) -> Troop:
        """A sequence troop from its cards in line order (for tests and examples).

        A leading Snedig goes to the left flank and a trailing one to the right; wildcards take the
        class slot(s) of their position (Thor two); ``flank_tyr="left"``/``"right"`` says that the
        first/last card is a Tyr standing for a Snedig on that flank. Raises ``ValueError`` for a
        line that does not read as a sequence.
        """
        t = cls()
        t.engaged = engaged
        mid = list(cards)
        if flank_tyr == "left" or (mid and mid[0] == SNEDIG):
            t.line[LEFT] = mid.pop(0)
        if flank_tyr == "right" or (mid and mid[-1] == SNEDIG):
            t.line[RIGHT] = mid.pop()
        width = {TYR: 1, THOR: 2}
        first = next((i for i, k in enumerate(mid) if k < NUM_CLASSES), None)
        if first is None:
            raise ValueError("a sequence needs a natural class card to anchor it")
        c = mid[first] - sum(width.get(k, 1) for k in mid[:first])
        for k in mid:
            if k < NUM_CLASSES:
                if k != c:
                    raise ValueError(f"class {k} out of sequence (expected {c})")
                t.line[slot_of_class(c)] = k
                c += 1
            elif k == TYR and 0 <= c <= 9:
                t.line[slot_of_class(c)] = TYR
                c += 1
            elif k == THOR and 0 <= c <= 8:
                t.line[slot_of_class(c)], t.line[slot_of_class(c) + 1] = THOR, THOR_TAIL
                c += 2
            else:
                raise ValueError(f"card kind {k} does not fit at class {c}")
        if not line_ok(t.line):
            raise ValueError(f"not a valid sequence: {cards}")
        return t

    def copy(self) -> Troop:
        t = Troop.__new__(Troop)
        t.series, t.line, t.cls = self.series, list(self.line), self.cls
        t.nat, t.tyr, t.thor, t.engaged = self.nat, self.tyr, self.thor, self.engaged
        return t

    def to_json(self) -> list:
        if self.series:
            return ["ser", self.cls, self.nat, self.tyr, self.thor, self.engaged]
        return ["seq", list(self.line), self.engaged]

    @classmethod
    def from_json(cls, d) -> Troop:
        if d[0] == "ser":
            return cls.make_series(d[1], d[2], d[3], d[4], d[5])
        return cls.sequence(d[1], d[2])

    def __eq__(self, other) -> bool:
        return isinstance(other, Troop) and self.to_json() == other.to_json()

    def __repr__(self) -> str:
        return f"Troop({self.to_json()})"

    # ---- queries ---------------------------------------------------------------------
    def cards(self) -> list[int]:
        """Card kinds in the troop (Thor once)."""
        if self.series:
            return [self.cls] * self.nat + [TYR] * self.tyr + [THOR] * self.thor
        return [k for k in self.line if k >= 0]

    def ncards(self) -> int:
        if self.series:
            return self.nat + self.tyr + self.thor
        line = self.line
        return NUM_SLOTS - line.count(EMPTY) - line.count(THOR_TAIL)

    def nwild(self) -> int:
        if self.series:
            return self.tyr + self.thor
        return self.line.count(TYR) + self.line.count(THOR)

    def might(self, might_table) -> int:
        return sum(might_table[k] for k in self.cards())

    def naturals(self) -> np.ndarray:
        """Count of natural cards per kind 0-10 (the only cards that meet class icons, M20)."""
        out = np.zeros(NUM_CLASSES + 1, dtype=np.int64)
        if self.series:
            out[self.cls] = self.nat
        else:
            for k in self.line:
                if 0 <= k <= SNEDIG:
                    out[k] += 1
        return out

    def wild_counts(self) -> tuple[int, int]:
        if self.series:
            return self.tyr, self.thor
        return self.line.count(TYR), self.line.count(THOR)

    def class_range(self) -> tuple[int, int] | None:
        """(lo, hi) of the occupied class slots of a sequence, None if none."""
        occ = [c for c in range(NUM_CLASSES) if self.line[c + 1] != EMPTY]
        return (occ[0], occ[-1]) if occ else None

    def single_natural(self) -> int | None:
        """The class of a one-card troop holding a single natural class card (can become a
        series)."""
        if self.series:
            return None
        filled = [k for k in self.line if k != EMPTY]
        if len(filled) == 1 and 0 <= filled[0] < NUM_CLASSES:
            return filled[0]
        return None

    def is_valid(self) -> bool:
        """A complete, legal troop (what may stand on the table)."""
        n, w = self.ncards(), self.nwild()
        if n < 3 or w > n // 2:
            return False
        if self.series:
            return 0 <= self.cls < NUM_CLASSES and self.nat >= 1 and min(self.tyr, self.thor) >= 0
        return line_ok(self.line)

    def describe(self, names) -> str:
        if self.series:
            parts = [names[self.cls]] * self.nat + ["Tyr"] * self.tyr + ["Thor"] * self.thor
            return "series[" + " - ".join(parts) + "]"
        return " - ".join(names[k] for k in self.line if k >= 0) or "(empty)"


def line_ok(line) -> bool:
    """Structure of a sequence line: flanks hold Snedig/Tyr, classes form one run of >= 2 slots,
    naturals in their own slot, every Thor head followed by its tail."""
    if line[LEFT] not in (EMPTY, SNEDIG, TYR) or line[RIGHT] not in (EMPTY, SNEDIG, TYR):
        return False
    occ = [c for c in range(NUM_CLASSES) if line[c + 1] != EMPTY]
    if len(occ) < 2 or occ[-1] - occ[0] + 1 != len(occ):
        return False
    for c in occ:
        k = line[c + 1]
        if k == THOR:
            if c == 9 or line[c + 2] != THOR_TAIL:
                return False
        elif k == THOR_TAIL:
            if c == 0 or line[c] != THOR:
                return False
        elif k != TYR and k != c:
            return False
    return True


# ---- laying down and completing (M13-M19) -----------------------------------------------


def relocation_options(t: Troop, wild: int) -> list[int]:
    """Where a displaced wildcard may go once a natural took its place (REL_* codes)."""
    rng = t.class_range()
    if rng is None:
        return []
    width = 1 if wild == TYR else 2
    out = []
    if rng[0] - width >= 0:
        out.append(REL_LOW)
    if rng[1] + width <= 9:
        out.append(REL_HIGH)
    return out


def relocate(t: Troop, wild: int, where: int) -> None:
    lo, hi = t.class_range()
    if wild == TYR:
        t.line[slot_of_class(lo - 1 if where == REL_LOW else hi + 1)] = TYR
    else:
        s = lo - 2 if where == REL_LOW else hi + 1
        t.line[slot_of_class(s)] = THOR
        t.line[slot_of_class(s) + 1] = THOR_TAIL


def _cap_ok_after_wild(t: Troop, table: bool, dn: int = 1) -> bool:
    """Troops on the table must keep the wildcard cap after every change (M16)."""
    if not table:
        return True
    n, w = t.ncards() + dn, t.nwild() + 1
    return w <= n // 2


def place_check(t: Troop, kind: int, pos: int, hand, table: bool) -> tuple[bool, int | None]:
    """May a card of ``kind`` be added to troop ``t`` at ``pos``?

    ``pos`` is ignored for natural classes (their class decides), is the side (0 left, 1 right)
    for a Snedig, the slot 0-11 for a Tyr and, for a Thor, the class 0-9 of a series (or of the
    single card that becomes one) or the lower class 0-8 of the two it covers in a sequence.
    ``hand`` is the count of each card kind in hand; ``table`` says the troop is on the table
    (the wildcard cap is then enforced at once; a troop being laid down is checked when finished).
    Returns (legal, displaced wildcard or None).
    """
    if hand[kind] < 1:
        return False, None
    if t.series:
        return _place_series(t, kind, pos, table)
    if kind < NUM_CLASSES:
        return _place_natural(t, kind, hand)
    if kind == SNEDIG:
        return _place_snedig(t, pos)
    if not any(0 <= k <= SNEDIG for k in t.line):
        return False, None  # a troop being laid down starts with a natural card
    if kind == TYR:
        return _place_tyr(t, pos, table)
    if kind == THOR:
        return _place_thor(t, pos, table)
    return False, None


def _place_series(t: Troop, kind: int, pos: int, table: bool) -> tuple[bool, int | None]:
    """A series takes its class, a Tyr in its class slot or a Thor naming its class."""
    c = t.cls
    if kind == c:
        return True, None
    if kind == TYR and pos == slot_of_class(c):
        return _cap_ok_after_wild(t, table), None
    if kind == THOR and pos == c:
        return _cap_ok_after_wild(t, table), None
    return False, None


def _place_natural(t: Troop, c: int, hand) -> tuple[bool, int | None]:
    """A natural of class ``c`` in a sequence: next to the run, in a wildcard's slot (which then
    moves), or on the single card of its class (a series)."""
    occ = t.line[slot_of_class(c)]
    rng = t.class_range()
    if rng is None:
        return True, None
    if occ == EMPTY:
        return (c == rng[0] - 1 or c == rng[1] + 1), None
    if occ == TYR:
        probe = t.copy()
        probe.line[slot_of_class(c)] = c
        return bool(relocation_options(probe, TYR)), TYR
    if occ == THOR:
        partner = c + 1
        if hand[partner] < 1:
            return False, None
        probe = t.copy()
        probe.line[slot_of_class(c)] = c
        probe.line[slot_of_class(partner)] = partner
        return bool(relocation_options(probe, THOR)), THOR
    if t.single_natural() == c:
        return True, None  # becomes a series
    return False, None


def _place_snedig(t: Troop, pos: int) -> tuple[bool, int | None]:
    """A Snedig on an empty flank, or on a Tyr's flank (the Tyr then moves)."""
    side = LEFT if pos == 0 else RIGHT
    occ = t.line[side]
    if occ == EMPTY:
        return True, None
    if occ == TYR:
        probe = t.copy()
        probe.line[side] = SNEDIG
        return bool(relocation_options(probe, TYR)), TYR
    return False, None


def _place_tyr(t: Troop, pos: int, table: bool) -> tuple[bool, int | None]:
    """A Tyr on an empty flank, next to the run, or on the single card of its class."""
    line = t.line
    if pos in (LEFT, RIGHT):
        return line[pos] == EMPTY and _cap_ok_after_wild(t, table), None
    c = pos - 1
    rng = t.class_range()
    if rng is None:
        return True, None
    if t.single_natural() == c:
        return True, None  # a Tyr in the slot of the single card: a series
    if line[pos] == EMPTY and (c == rng[0] - 1 or c == rng[1] + 1):
        return _cap_ok_after_wild(t, table), None
    return False, None


def _place_thor(t: Troop, s: int, table: bool) -> tuple[bool, int | None]:
    """A Thor covering classes ``s`` and ``s + 1`` next to the run, or naming the single card's
    class (a series)."""
    if t.single_natural() == s:
        return True, None  # a Thor in the slot of the single card: a series (Runecästr too)
    if not 0 <= s <= 8:
        return False, None
    rng = t.class_range()
    if rng is None:
        return True, None
    if s + 1 == rng[0] - 1 or s == rng[1] + 1:
        return _cap_ok_after_wild(t, table), None
    return False, None


def place(t: Troop, kind: int, pos: int) -> tuple[list[int], int | None]:
    """Apply a checked placement. Returns (card kinds taken from the hand, displaced wildcard).

    A displaced wildcard is out of the line until ``relocate`` puts it back; when the natural
    replaces a Thor both natural cards are placed (and both are returned in the first list).
    """
    if t.series:
        if kind == t.cls:
            t.nat += 1
        elif kind == TYR:
            t.tyr += 1
        else:
            t.thor += 1
        return [kind], None
    line = t.line
    single = t.single_natural()
    if kind < NUM_CLASSES:
        slot = slot_of_class(kind)
        occ = line[slot]
        if occ == EMPTY:
            line[slot] = kind
            return [kind], None
        if occ == TYR:
            line[slot] = kind
            return [kind], TYR
        if occ == THOR:
            line[slot] = kind
            line[slot + 1] = kind + 1
            return [kind, kind + 1], THOR
        # same class as the single card: becomes a series of two
        _to_series(t, kind)
        t.nat += 1
        return [kind], None
    if kind == SNEDIG:
        side = LEFT if pos == 0 else RIGHT
        displaced = TYR if line[side] == TYR else None
        line[side] = SNEDIG
        return [SNEDIG], displaced
    if kind == TYR:
        if pos not in (LEFT, RIGHT) and single == pos - 1:
            _to_series(t, single)
            t.tyr += 1
            return [TYR], None
        line[pos] = TYR
        return [TYR], None
    # Thor
    if single == pos:
        _to_series(t, single)
        t.thor += 1
        return [THOR], None
    line[slot_of_class(pos)] = THOR
    line[slot_of_class(pos) + 1] = THOR_TAIL
    return [THOR], None


def _to_series(t: Troop, c: int) -> None:
    t.series, t.cls, t.nat, t.tyr, t.thor = True, c, 1, 0, 0
    t.line = [EMPTY] * NUM_SLOTS


# ---- Claiming for Gods (M21, M22) ---------------------------------------------------------


def claim_check(t: Troop, slot: int, form: int, hand, nw: tuple[int, int] | None = None) -> bool:
    """May the active player claim on opponent troop ``t`` at ``slot`` with ``form``?
    (``nw``: the troop's card and wildcard counts, if the caller has them already.)"""
    n, w = nw if nw is not None else (t.ncards(), t.nwild())
    if t.series:
        c = t.cls
        if slot != slot_of_class(c):
            return False
        if form == TAKE_TYR:
            return t.tyr >= 1 and hand[c] >= 1
        if form == TAKE_THOR:
            return t.thor >= 1 and hand[c] >= 2
        if form == PUT_TYR:
            return hand[TYR] >= 1 and t.nat >= 1 and w + 1 <= n // 2
        return hand[THOR] >= 1 and t.nat >= 2 and n - 1 >= 3 and w + 1 <= (n - 1) // 2
    line = t.line
    k = line[slot]
    if form == TAKE_TYR:
        if k != TYR:
            return False
        need = SNEDIG if slot in (LEFT, RIGHT) else slot - 1
        return hand[need] >= 1
    if form == TAKE_THOR:
        if k != THOR:
            return False
        c = slot - 1
        return hand[c] >= 1 and hand[c + 1] >= 1
    if form == PUT_TYR:
        return hand[TYR] >= 1 and 0 <= k <= SNEDIG and w + 1 <= n // 2
    if slot in (LEFT, RIGHT) or slot + 1 > 10:
        return False
    return (
        hand[THOR] >= 1
        and 0 <= k < NUM_CLASSES
        and 0 <= line[slot + 1] < NUM_CLASSES
        and n - 1 >= 3
        and w + 1 <= (n - 1) // 2
    )


def claim(t: Troop, slot: int, form: int) -> tuple[list[int], list[int]]:
    """Apply a checked claim. Returns (kinds given from the hand, kinds taken into the hand)."""
    if t.series:
        c = t.cls
        if form == TAKE_TYR:
            t.tyr -= 1
            t.nat += 1
            return [c], [TYR]
        if form == TAKE_THOR:
            t.thor -= 1
            t.nat += 2
            return [c, c], [THOR]
        if form == PUT_TYR:
            t.nat -= 1
            t.tyr += 1
            return [TYR], [c]
        t.nat -= 2
        t.thor += 1
        return [THOR], [c, c]
    line = t.line
    if form == TAKE_TYR:
        need = SNEDIG if slot in (LEFT, RIGHT) else slot - 1
        line[slot] = need
        return [need], [TYR]
    if form == TAKE_THOR:
        c = slot - 1
        line[slot], line[slot + 1] = c, c + 1
        return [c, c + 1], [THOR]
    if form == PUT_TYR:
        taken = line[slot]
        line[slot] = TYR
        return [TYR], [taken]
    taken = [line[slot], line[slot + 1]]
    line[slot], line[slot + 1] = THOR, THOR_TAIL
    return [THOR], taken


# ---- what a hand can form ----------------------------------------------------------------
# Every legal troop holds the cards of a legal troop of at most 4 cards (tests/midgard/
# test_troops.py checks it over every legal troop of any size), so the smallest troops decide
# whether a hand can form one: ``can_form_troop`` is exact, and it never opens a dead end.
SMALL_TROOP_CARDS = 4


def _fills(lo: int, hi: int, budget: int):
    """Every filling of the class slots lo..hi with natural cards, Tyrs and Thors (a Thor fills
    two slots) that uses at most ``budget`` cards: the kinds, slot by slot (Thor then its tail)."""
    if lo > hi:
        yield []
        return
    if budget == 0:
        return
    for rest in _fills(lo + 1, hi, budget - 1):
        yield [lo, *rest]
        yield [TYR, *rest]
    if lo < hi:
        for rest in _fills(lo + 2, hi, budget - 1):
            yield [THOR, THOR_TAIL, *rest]


def small_troops(max_cards: int) -> list[Troop]:
    """Every legal troop of at most ``max_cards`` cards (sequences and series)."""
    out = []
    for lo in range(NUM_CLASSES - 1):
        for hi in range(lo + 1, NUM_CLASSES):
            for fill in _fills(lo, hi, max_cards):
                for left in (EMPTY, SNEDIG, TYR):
                    for right in (EMPTY, SNEDIG, TYR):
                        line = [left, *([EMPTY] * lo), *fill, *([EMPTY] * (9 - hi)), right]
                        t = Troop.sequence(line)
                        if t.ncards() <= max_cards and t.is_valid():
                            out.append(t)
    for c in range(NUM_CLASSES):
        for nat in range(1, max_cards + 1):
            for tyr in range(max_cards + 1 - nat):
                for thor in range(max_cards + 1 - nat - tyr):
                    t = Troop.make_series(c, nat, tyr, thor)
                    if t.is_valid():
                        out.append(t)
    return out


def _minimal_troop_cards() -> np.ndarray:
    """The card counts (kinds 0-12) of the small troops that hold no smaller troop's cards."""
    counts = set()
    for t in small_troops(SMALL_TROOP_CARDS):
        counts.add(tuple(np.bincount(t.cards(), minlength=THOR + 1).tolist()))
    minimal = []
    for c in sorted(counts, key=sum):
        if not any(all(a <= b for a, b in zip(m, c)) for m in minimal):
            minimal.append(c)
    return np.array(minimal, dtype=np.int64)


MINIMAL_TROOP_CARDS = _minimal_troop_cards()


def can_form_troop(hand) -> bool:
    """Can these cards (counts per kind) form at least one legal troop? Exact (M13-M17): a troop
    exists exactly when the hand holds the cards of one of the minimal small troops."""
    return bool((np.asarray(hand[: THOR + 1]) >= MINIMAL_TROOP_CARDS).all(axis=1).any())
