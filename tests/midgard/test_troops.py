"""Troop rules (M13-M22) as case tables and the rulebook's troop examples."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from deckzoo.envs.midgard.rules import PREP
from deckzoo.envs.midgard.troops import (
    LEFT,
    PUT_THOR,
    PUT_TYR,
    REL_HIGH,
    REL_LOW,
    RIGHT,
    TAKE_THOR,
    TAKE_TYR,
    can_form_troop,
    claim,
    claim_check,
    line_ok,
    place,
    place_check,
    relocate,
    relocation_options,
    small_troops,
)

from .util import (
    DATA,
    SNEDIG,
    THOR,
    TYR,
    A,
    Troop,
    act,
    all_troops,
    at,
    blank,
    build_steps,
    give,
    k,
    ks,
    legal,
    troop,
)


def hand(*names):
    h = np.zeros(DATA.num_kinds, dtype=np.int64)
    for n in names:
        h[k(n)] += 1
    return h


VALID = [
    ("Hyggelig - Skålde - Kriger", True),
    (
        "Berserker - Bueskytter - Sjømann - Snedig",
        True,
    ),  # "Troop formed correctly": Snedig at the end
    ("Snedig - Berserker - Bueskytter - Snedig", True),  # one Snedig on each flank
    ("Skålde - Tyr - Berserker - Bueskytter - Sjømann - Snedig", True),  # Tyr replaces Kriger
    ("Skålde - Thor - Bueskytter - Sjømann - Snedig", True),  # Thor replaces Kriger and Berserker
    ("Kriger - Berserker - Thor - Ränger - Göddar", True),  # Peter's troop
    ("Hyggelig - Skålde - Snedig", True),
    ("Tyr - Krigsjärl - Runecästr", True),
    ("Kriger - Tyr - Tyr", False),  # 2 wildcards in 3 cards: over the cap
    ("Kriger - Thor", False),  # Thor counts as one card: only 2 cards
    ("Kriger - Berserker", False),
    ("Kriger - Tyr - Bueskytter - Tyr - Tyr", False),  # 3 wildcards in 5 cards
    ("Kriger - Tyr - Bueskytter - Tyr - Ränger - Tyr", True),  # 3 of 6
]


@pytest.mark.parametrize("line,ok", VALID, ids=[v[0] for v in VALID])
def test_sequence_validity(line, ok):
    try:
        t = troop(line)
    except ValueError:
        assert not ok
        return
    assert t.is_valid() == ok


def test_snedig_never_inside_or_beyond_a_flank():
    # "Troop formed wrongly": a card after the Snedig
    with pytest.raises(ValueError):
        troop("Berserker - Bueskytter - Snedig - Sjømann")
    line = troop("Berserker - Bueskytter - Sjømann - Snedig").line
    assert line[RIGHT] == SNEDIG and line_ok(line)
    bad = list(line)
    bad[RIGHT] = k("Ränger")
    assert not line_ok(bad)


def test_no_wrap_around_and_each_class_once():
    with pytest.raises(ValueError):
        troop("Runecästr - Hyggelig - Skålde")
    with pytest.raises(ValueError):
        troop("Kriger - Kriger - Berserker")


SERIES = [
    (Troop.make_series(3, 3), True),
    (Troop.make_series(3, 2, thor=1), True),  # Berserker - Berserker - Thor (Thor = 2 Berserkers)
    (Troop.make_series(3, 2, tyr=1), True),
    (Troop.make_series(3, 1, tyr=1), False),  # 2 cards
    (Troop.make_series(3, 2, tyr=2), True),  # 2 of 4
    (Troop.make_series(3, 2, tyr=2, thor=1), False),  # 3 of 5
]


@pytest.mark.parametrize("t,ok", SERIES)
def test_series_validity(t, ok):
    assert t.is_valid() == ok


def test_completing_with_snedig_inserts_inside():
    # Berserker - Bueskytter - Sjømann - Snedig + Ranger -> ... - Sjømann - Ranger - Snedig
    t = troop("Berserker - Bueskytter - Sjømann - Snedig")
    assert place_check(t, k("Ränger"), 0, hand("Ränger"), table=True) == (True, None)
    place(t, k("Ränger"), 0)
    assert t == troop("Berserker - Bueskytter - Sjømann - Ränger - Snedig")
    # a Snedig flank stays a flank: a second Snedig cannot go on the same side
    assert not place_check(t, SNEDIG, 1, hand("Snedig"), table=True)[0]
    assert place_check(t, SNEDIG, 0, hand("Snedig"), table=True)[0]


def test_tyr_relocation_example():
    # Skald - Tyr - Berserker - Bueskytter - Sjømann - Snedig; next turn a Kriger takes Tyr's place,
    # and Tyr goes beyond Sjømann or before the Skald.
    t = troop("Skålde - Tyr - Berserker - Bueskytter - Sjømann - Snedig")
    ok, displaced = place_check(t, k("Kriger"), 0, hand("Kriger"), table=True)
    assert ok and displaced == TYR
    used, displaced = place(t, k("Kriger"), 0)
    assert used == [k("Kriger")] and displaced == TYR
    assert relocation_options(t, TYR) == [REL_LOW, REL_HIGH]
    high = t.copy()
    relocate(high, TYR, REL_HIGH)
    assert (
        high.describe(DATA.kind_names)
        == "Skålde - Kriger - Berserker - Bueskytter - Sjømann - Tyr - Snedig"
    )
    relocate(t, TYR, REL_LOW)
    assert (
        t.describe(DATA.kind_names)
        == "Tyr - Skålde - Kriger - Berserker - Bueskytter - Sjømann - Snedig"
    )
    assert t.is_valid() and high.is_valid()


def test_no_relocation_no_replacement():
    # "If there is no possibility of relocating a wildcard, the player cannot place a card in its
    # place."
    full = Troop.from_cards([0, 1, 2, TYR, 4, 5, 6, 7, 8, 9])
    assert not place_check(full, k("Berserker"), 0, hand("Berserker"), table=True)[0]


def test_thor_relocation_needs_both_cards():
    # Skald - Thor - Bueskytter - Sjømann - Snedig: Thor replaces Kriger and Berserker.
    t = troop("Skålde - Thor - Bueskytter - Sjømann - Snedig")
    assert t.ncards() == 5 and t.might(DATA.might) == 1 + 6 + 1 + 1 + 1
    assert not place_check(t, k("Kriger"), 0, hand("Kriger"), table=True)[0]  # Berserker missing
    assert not place_check(t, k("Berserker"), 0, hand("Kriger", "Berserker"), table=True)[
        0
    ]  # via the head only
    ok, displaced = place_check(t, k("Kriger"), 0, hand("Kriger", "Berserker"), table=True)
    assert ok and displaced == THOR
    used, _ = place(t, k("Kriger"), 0)
    assert used == [k("Kriger"), k("Berserker")]
    # before the Skald there is only the Hyggelig slot, so Thor can only go between Sjømann and
    # Snedig
    assert relocation_options(t, THOR) == [REL_HIGH]
    relocate(t, THOR, REL_HIGH)
    assert (
        t.describe(DATA.kind_names)
        == "Skålde - Kriger - Berserker - Bueskytter - Sjømann - Thor - Snedig"
    )
    assert t.is_valid()


def test_thor_must_replace_two_cards():
    # "impossible ... putting Thor after Runicastr or before Hyggelig"
    t = troop("Göddar - Krigsjärl - Runecästr")
    allowed = [s for s in range(9) if place_check(t, THOR, s, hand("Thor"), table=True)[0]]
    assert allowed == [5]  # Sjømann + Ränger, below Göddar
    t = troop("Hyggelig - Skålde - Kriger")
    assert [s for s in range(9) if place_check(t, THOR, s, hand("Thor"), table=True)[0]] == [3]


def test_wildcard_cap_on_table_troops_m16():
    # 5 cards may hold 2 wildcards, 6 cards 3: adding a wildcard must keep the cap at once
    t = troop("Kriger - Tyr - Bueskytter - Tyr")  # 4 cards, 2 wildcards
    assert not place_check(t, TYR, 7, hand("Tyr"), table=True)[0]  # 5 cards, 3 wildcards
    assert place_check(t, TYR, 7, hand("Tyr"), table=False)[
        0
    ]  # a troop being laid down is checked at the end
    place(t, k("Sjømann"), 0)
    assert place_check(t, TYR, 7, hand("Tyr"), table=True)[0]  # 6 cards, 3 wildcards


def test_wildcards_in_series():
    t = Troop.make_series(3, 2)
    place(t, THOR, 3)  # Berserker - Berserker - Thor
    assert t.is_valid() and t.ncards() == 3 and t.nwild() == 1
    assert place_check(t, TYR, 4, hand("Tyr"), table=True)[
        0
    ]  # a 4th Berserker copy: 2 wild of 4 cards
    assert not place_check(t, TYR, 5, hand("Tyr"), table=True)[0]  # not the series' class
    t.tyr += 1
    assert not place_check(t, TYR, 4, hand("Tyr"), table=True)[0]  # 3 wild of 5 cards
    assert not place_check(t, SNEDIG, 0, hand("Snedig"), table=True)[0]  # Snedig never in a series


def test_laying_down_from_one_card():
    t = Troop()
    place(t, k("Berserker"), 0)
    u = t.copy()
    place(u, k("Berserker"), 0)
    assert u.series and u.nat == 2  # two Berserkers: a series
    v = t.copy()
    place(v, TYR, 4)  # Tyr in the Berserker slot: a series copy
    assert v.series and v.tyr == 1
    w = t.copy()
    place(w, TYR, 5)  # Tyr next to it: a sequence
    assert not w.series and w.class_range() == (3, 4)
    assert not place_check(Troop(), TYR, 3, hand("Tyr"), table=False)[
        0
    ]  # start with a natural card


CLAIM_CASES = [
    # (opponent troop, hand, slot, form, legal)
    ("Skålde - Tyr - Berserker - Bueskytter - Sjømann - Snedig", ("Kriger",), 3, TAKE_TYR, True),
    (
        "Skålde - Tyr - Berserker - Bueskytter - Sjømann - Snedig",
        ("Berserker",),
        3,
        TAKE_TYR,
        False,
    ),
    ("Berserker - Bueskytter - Sjømann - Snedig", ("Tyr",), RIGHT, PUT_TYR, True),
    (
        "Berserker - Bueskytter - Sjømann - Snedig",
        ("Thor",),
        4,
        PUT_THOR,
        True,
    ),  # 3 cards left, 1 wild
    ("Berserker - Bueskytter - Sjømann - Ränger - Snedig", ("Thor",), 4, PUT_THOR, True),
    ("Berserker - Bueskytter - Sjømann", ("Thor",), 4, PUT_THOR, False),  # would leave 2 cards
    ("Kriger - Thor - Sjømann - Ränger", ("Berserker", "Bueskytter"), 4, TAKE_THOR, True),
    ("Kriger - Thor - Sjømann - Ränger", ("Berserker",), 4, TAKE_THOR, False),
    ("Kriger - Tyr - Bueskytter - Tyr", ("Tyr",), 3, PUT_TYR, False),  # 3 wild in 4 cards: cap
    ("Kriger - Tyr - Bueskytter - Sjømann", ("Tyr",), 5, PUT_TYR, True),  # 2 wild in 4 cards
    ("Kriger - Berserker - Bueskytter", ("Tyr",), 0, PUT_TYR, False),  # nothing at the flank
]


@pytest.mark.parametrize("line,cards,slot,form,ok", CLAIM_CASES)
def test_claim_checks(line, cards, slot, form, ok):
    assert claim_check(troop(line), slot, form, hand(*cards)) == ok


def test_claiming_for_gods_alfred_and_beatrice():
    # Beatrice puts a Kriger in Alfred's troop and takes the Tyr.
    alfred = troop("Skålde - Tyr - Berserker - Bueskytter - Sjømann - Snedig")
    given, taken = claim(alfred, 1 + 2, TAKE_TYR)
    assert (given, taken) == ([k("Kriger")], [TYR])
    assert alfred == troop("Skålde - Kriger - Berserker - Bueskytter - Sjømann - Snedig")


def test_claiming_for_gods_catherin():
    # Alfred puts the Tyr in place of Catherin's Snedig and takes the Snedig.
    catherin = troop("Berserker - Bueskytter - Sjømann - Snedig")
    given, taken = claim(catherin, RIGHT, PUT_TYR)
    assert (given, taken) == ([TYR], [SNEDIG])
    assert catherin == troop("Berserker - Bueskytter - Sjømann - Tyr", flank_tyr="right")
    assert catherin.is_valid()
    assert claim_check(catherin, RIGHT, TAKE_TYR, hand("Snedig"))  # and it can be claimed back


def test_series_claims():
    t = Troop.make_series(3, 3, tyr=1, thor=1)
    assert claim_check(t, 4, TAKE_TYR, hand("Berserker"))
    assert not claim_check(t, 4, TAKE_THOR, hand("Berserker"))
    assert claim_check(t, 4, TAKE_THOR, hand("Berserker", "Berserker"))
    assert claim(t, 4, TAKE_THOR) == ([3, 3], [THOR]) and t.nat == 5 and t.thor == 0


FORM = [
    (("Kriger", "Berserker", "Bueskytter"), True),
    (("Kriger", "Berserker"), False),
    (("Kriger", "Berserker", "Tyr"), True),
    (("Kriger", "Bueskytter", "Tyr"), True),  # Tyr fills the Berserker gap
    (("Kriger", "Sjømann", "Thor"), True),  # Thor fills Berserker + Bueskytter
    (("Kriger", "Sjømann", "Tyr"), False),  # a gap of 2 needs 2 Tyrs: 2 wild in 4 cards is fine...
    (("Kriger", "Sjømann", "Tyr", "Tyr"), True),  # ... with both
    (("Kriger", "Kriger", "Kriger"), True),
    (("Kriger", "Kriger", "Thor"), True),
    (("Snedig", "Snedig", "Thor"), True),
    (("Snedig", "Kriger", "Tyr"), True),
    (("Kriger", "Tyr", "Thor"), False),
    (("Hyggelig", "Runecästr", "Tyr"), False),  # no wrap-around
    (("Loki's Trick", "Kriger", "Berserker"), False),
    (("Hyggelig", "Skålde", "Berserker", "Thor"), True),  # Hyggelig - Skålde - Thor (no Berserker)
    (("Ränger", "Krigsjärl", "Runecästr", "Thor"), True),  # Thor - Krigsjärl - Runecästr
    (("Runecästr", "Runecästr", "Thor"), True),  # a series: Thor stands for two Runecästr
    (("Tyr", "Snedig", "Snedig", "Tyr"), True),  # Snedig - Tyr - Tyr - Snedig
]


@pytest.mark.parametrize("cards,ok", FORM)
def test_can_form_troop(cards, ok):
    assert can_form_troop(hand(*cards)) == ok


def _laid_down(cards, t):
    """Seat 0 holds ``cards`` in its Preparation: lay ``t`` down through the masks, step by step.
    Returns the error, or None when every step was legal and ``finish`` ends it."""
    s = blank(3)
    give(s, 0, *cards)
    at(s, 0, PREP)
    if not legal(s, "new_troop"):
        return "new_troop is not offered"
    act(s, "new_troop")
    mask = s.legal_mask()
    for name, pos in build_steps(t):
        try:
            a = A.encode(name, A.PENDING, pos)
        except ValueError:
            return f"no action {name} at {pos}"
        if not mask[a]:
            return f"{A.action_name(a)} is not legal after {s.pending}"
        s.apply(a)
        mask = s.legal_mask()
    if s.pending != t or not mask[A.FINISH]:
        return f"built {s.pending}, finish {bool(mask[A.FINISH])}"
    return None


def test_M_D1_every_troop_of_up_to_6_cards_can_be_laid_down():
    # a Thor joins a Runecästr series at class 9: "Runecästr - Runecästr - Thor" and 12 more
    troops = all_troops(6)
    assert len(troops) == 5672
    failed = [(t, err) for t in troops if (err := _laid_down(t.cards(), t)) is not None]
    assert failed == [], f"{len(failed)} troops cannot be laid down, e.g. {failed[:3]}"


def _hands(sizes):
    """Every hand of troop cards (kinds 0-12) with these sizes, as counts, within the copies."""
    for size in sizes:
        for combo in itertools.combinations_with_replacement(range(THOR + 1), size):
            h = np.bincount(combo, minlength=DATA.num_kinds)
            if (h <= DATA.kind_counts).all():
                yield h


def test_M_D2_new_troop_opens_exactly_when_a_troop_can_be_laid_down():
    """Every hand of 3-5 troop cards: ``new_troop`` (and ``can_form_troop``) says yes exactly when
    some legal troop uses cards of the hand, and then that troop can be laid down (no dead end
    that can only be cancelled). The brute force: every legal troop of up to 5 cards."""
    by_cards = {}
    for t in all_troops(5):
        by_cards.setdefault(tuple(np.bincount(t.cards(), minlength=THOR + 1).tolist()), t)
    wrong, stuck = [], []
    for h in _hands((3, 4, 5)):
        subs = itertools.product(*(range(x + 1) for x in h[: THOR + 1].tolist()))
        troop_in_hand = next((by_cards[c] for c in subs if c in by_cards), None)
        if can_form_troop(h) != (troop_in_hand is not None):
            wrong.append(np.repeat(np.arange(DATA.num_kinds), h).tolist())
        elif troop_in_hand is not None:
            cards = np.repeat(np.arange(DATA.num_kinds), h).tolist()
            if (err := _laid_down(cards, troop_in_hand)) is not None:
                stuck.append((cards, troop_in_hand, err))
    assert wrong == [] and stuck == [], (len(wrong), wrong[:5], stuck[:3])


def test_every_troop_holds_the_cards_of_a_troop_of_at_most_4_cards():
    # why the smallest troops decide can_form_troop for hands of any size
    for t in all_troops(30):
        h = np.bincount(t.cards(), minlength=DATA.num_kinds)
        assert can_form_troop(h), t
    assert sorted(map(str, small_troops(6))) == sorted(map(str, all_troops(6)))


def test_left_flank_tyr_and_might():
    t = troop("Tyr - Kriger - Berserker", flank_tyr="left")
    assert t.line[LEFT] == TYR and t.is_valid()
    assert troop("Kriger - Berserker - Thor - Ränger - Göddar").might(DATA.might) == 11  # Peter
    assert [
        troop(x).might(DATA.might)
        for x in (
            "Kriger - Berserker - Thor - Ränger",
            "Tyr - Krigsjärl - Runecästr",
            "Hyggelig - Skålde - Snedig",
        )
    ] == [9, 9, 2]  # Surt example: 20
    assert ks("Kriger - Tyr") == [2, TYR]


def _random_troops(rng, count):
    """Legal troops grown by random legal placements from random hands."""
    out = []
    while len(out) < count:
        t = Troop()
        h = np.zeros(DATA.num_kinds, dtype=np.int64)
        for kind in rng.choice(13, size=12):
            h[kind] += 1
        for _ in range(12):
            moves = [
                (kind, pos)
                for kind in range(13)
                for pos in range(12)
                if place_check(t, kind, pos, h, table=False)[0]
            ]
            if not moves:
                break
            kind, pos = moves[rng.integers(len(moves))]
            used, displaced = place(t, kind, pos)
            for u in used:
                h[u] -= 1
            if displaced is not None:
                relocate(t, displaced, relocation_options(t, displaced)[0])
        if t.is_valid():
            out.append(t)
    return out


def test_every_legal_change_keeps_a_table_troop_legal():
    """Property: on legal table troops, every placement and every claim the checks allow leaves a
    legal troop (after relocating a displaced wildcard anywhere allowed), and the cards add up."""
    rng = np.random.default_rng(7)
    full = np.full(DATA.num_kinds, 3, dtype=np.int64)
    for t in _random_troops(rng, 150):
        before = sorted(t.cards())
        for kind in range(13):
            for pos in range(12):
                ok, displaced = place_check(t, kind, pos, full, table=True)
                if not ok:
                    continue
                u = t.copy()
                used, disp = place(u, kind, pos)
                assert disp == displaced
                for where in relocation_options(u, disp) if disp is not None else [None]:
                    w = u.copy()
                    if where is not None:
                        relocate(w, disp, where)
                    assert w.is_valid(), (t, kind, pos, w)
                    assert sorted(w.cards()) == sorted(before + used)
        for slot in range(12):
            for form in range(4):
                if claim_check(t, slot, form, full):
                    u = t.copy()
                    given, taken = claim(u, slot, form)
                    assert u.is_valid(), (t, slot, form, u)
                    cards = list(before) + given
                    for x in taken:
                        cards.remove(x)
                    assert sorted(u.cards()) == sorted(cards)
