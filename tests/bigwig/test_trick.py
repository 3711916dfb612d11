"""The pure trick resolution (rulings B6-B17) as case tables, plus the card data (B2-B6)."""

import numpy as np
import pytest

from deckzoo.envs.bigwig.cards import (
    ALFAR,
    DECK_SIZE,
    DVERGAR,
    FENRIR,
    FIVE_COLOUR,
    HUGIN_MUNIN,
    IS_SPECIAL,
    KIND_COLOUR,
    KIND_COPIES,
    KIND_VALUE,
    LOKI,
    MJOLLNIR,
    NUM_KINDS,
    POINT_COPIES,
    POINT_TRUMP,
    POINT_VP,
    SMALL_COPIES,
    SURTR,
    TIL_VALHALLAR,
    TOTAL_VP,
    VANIR,
    WELL,
    WHITE,
    YMIR,
    card_name,
    draw_entitlement,
    point_kind,
    small_name,
    standard,
)
from deckzoo.envs.bigwig.trick import resolve_trick, trick_winner

R, Y, B, G = "red", "yellow", "blue", "green"
NO_COLOUR = (False, False, False, False)


def trump_of(*colours):
    return tuple(c in colours for c in (R, Y, B, G))


def resolve(cards, trump=NO_COLOUR):
    """Seat i plays cards[i]."""
    return resolve_trick(list(enumerate(cards)), trump)


# ---- card data ----------------------------------------------------------------------------------
def test_b2_b4_b5_large_cards():
    assert DECK_SIZE == 52 and NUM_KINDS == 46
    assert KIND_COPIES[~IS_SPECIAL].sum() == 36 and KIND_COPIES[IS_SPECIAL].sum() == 16
    for c in range(4):  # B4: one card per colour and value 1-9
        assert sorted(KIND_VALUE[(KIND_COLOUR == c)].tolist()) == list(range(1, 10))
    specials = {
        card_name(k): (int(KIND_VALUE[k]), int(KIND_COPIES[k])) for k in np.flatnonzero(IS_SPECIAL)
    }
    assert specials == {
        "Til Valhallar (white 0)": (0, 2),
        "Dvergar (white 3)": (3, 2),
        "Loki (white 4)": (4, 2),
        "Surtr (white 5)": (5, 1),
        "Vanir (white 5)": (5, 1),
        "Ymir (white 5)": (5, 1),
        "Alfar (white 5)": (5, 1),
        "Fenrir (white 6)": (6, 2),
        "Hugin & Munin (white 7)": (7, 2),
        "Mjollnir (white 10)": (10, 2),
    }
    assert (KIND_COLOUR[IS_SPECIAL] == WHITE).all()  # B5: all white


def test_b6_colours_of_the_fives():
    assert FIVE_COLOUR == {SURTR: 0, VANIR: 1, YMIR: 2, ALFAR: 3}  # red, yellow, blue, green


def test_b2_b3_point_cards():
    assert SMALL_COPIES.sum() == 24 and SMALL_COPIES[-1] == 4
    by_vp = {vp: int(POINT_COPIES[POINT_VP == vp].sum()) for vp in (2, 3, 4, 5)}
    assert by_vp == {2: 8, 3: 6, 4: 4, 5: 2}
    assert TOTAL_VP == 60
    assert (
        POINT_TRUMP.sum(axis=1) == POINT_VP - 1
    ).all()  # VP = number of trump colours incl. white
    sets = {}
    for k in range(15):
        sets.setdefault(int(POINT_VP[k]), []).extend(
            [frozenset(np.flatnonzero(POINT_TRUMP[k]))] * int(POINT_COPIES[k])
        )
    assert sorted(map(sorted, sets[2])) == [
        [0],
        [0],
        [1],
        [1],
        [2],
        [2],
        [3],
        [3],
    ]  # two per colour
    assert len(set(sets[3])) == 6 and len(set(sets[4])) == 4  # every pair / triple once
    assert sets[5] == [frozenset(range(4))] * 2
    assert (
        small_name(point_kind([R, G])) == "3 VP (white/red/green)"
    )  # the first rulebook example's card


@pytest.mark.parametrize(
    "kind,draws",
    [
        (TIL_VALHALLAR, 1),
        (standard(R, 1), 1),
        (standard(G, 3), 1),
        (DVERGAR, 1),
        (LOKI, 2),
        (standard(G, 5), 2),
        (SURTR, 2),
        (FENRIR, 2),
        (standard(B, 6), 2),
        (HUGIN_MUNIN, 3),
        (standard(R, 9), 3),
        (MJOLLNIR, 3),
    ],
)
def test_b20_draw_entitlement_by_printed_value(kind, draws):
    assert draw_entitlement(kind) == draws


# ---- B13: trumps and the highest value ----------------------------------------------------------
@pytest.mark.parametrize(
    "cards,trump,winner",
    [
        ([standard(R, 3), standard(G, 7), standard(B, 8)], trump_of(R, G), 1),  # rulebook example 1
        ([standard(R, 3), standard(G, 7), standard(B, 8)], NO_COLOUR, 2),  # no trump: highest value
        (
            [standard(R, 9), standard(G, 9), standard(B, 2)],
            NO_COLOUR,
            None,
        ),  # tie for highest: no winner
        (
            [standard(R, 9), standard(G, 9), standard(B, 2)],
            trump_of(B),
            2,
        ),  # a trump 2 beats two 9s
        (
            [standard(R, 7), FENRIR, standard(B, 7)],
            trump_of(R),
            0,
        ),  # colours rank equal: red 7 > white 6
        ([standard(R, 6), standard(Y, 6), standard(Y, 5)], trump_of(R, Y), None),  # trumps tie at 6
        ([standard(R, 1), TIL_VALHALLAR], NO_COLOUR, 1),  # a white 0 is still a trump
        ([MJOLLNIR, MJOLLNIR], NO_COLOUR, None),  # two 10s tie
    ],
)
def test_b13_winner_table(cards, trump, winner):
    assert resolve(cards, trump).winner == winner


def test_b17_b18_wells_never_win_and_only_wells_means_no_winner():
    assert resolve([WELL, WELL, WELL]).winner is None
    assert resolve([WELL, standard(G, 2), WELL], trump_of(B)).winner == 1  # rulebook example 2
    r = resolve(
        [WELL, HUGIN_MUNIN, standard(R, 2)]
    )  # H&M ignores the well: the red 2 is the highest other
    assert r.invalid == [2] and r.winner == 1


# ---- B14 Dvergar, B16 with Loki ------------------------------------------------------------------
@pytest.mark.parametrize(
    "cards,trump,winner",
    [
        (
            [DVERGAR, standard(R, 2), standard(B, 5)],
            NO_COLOUR,
            1,
        ),  # lowest non-trump wins, Dvergar is a trump
        (
            [DVERGAR, standard(R, 2), standard(B, 5)],
            trump_of(R),
            2,
        ),  # red 2 is a trump now: blue 5 is the only non-trump
        ([DVERGAR, standard(R, 2), standard(B, 2)], NO_COLOUR, None),  # tie for lowest
        (
            [DVERGAR, MJOLLNIR, standard(R, 4)],
            trump_of(R),
            0,
        ),  # only trumps: lowest trump (Dvergar's own 3)
        (
            [DVERGAR, TIL_VALHALLAR, FENRIR],
            NO_COLOUR,
            2,
        ),  # Fenrir voids Dvergar: highest trump wins
        (
            [DVERGAR, DVERGAR, standard(R, 2)],
            NO_COLOUR,
            None,
        ),  # B9: the two Dvergar cancel; 3 vs 3 tie
        ([DVERGAR, DVERGAR, standard(R, 2), MJOLLNIR], NO_COLOUR, 3),  # cancelled: highest trump
        ([DVERGAR, WELL, standard(Y, 8)], NO_COLOUR, 2),  # wells never count
    ],
)
def test_b14_dvergar_table(cards, trump, winner):
    assert resolve(cards, trump).winner == winner


def test_b16_dvergar_and_loki_both_apply():
    r = resolve([DVERGAR, LOKI, standard(R, 5), standard(B, 8)])
    assert r.lowest_wins and r.winner == 2  # lowest non-trump
    assert r.loki == 1 and not r.loki_takes_all  # Dvergar's 3 is lower than Loki's 4


# ---- B15 Loki -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "cards,takes_all",
    [
        ([LOKI, standard(R, 5), MJOLLNIR], True),
        ([LOKI, standard(R, 4)], True),  # ties count as lowest
        ([LOKI, standard(R, 3)], False),
        ([LOKI, TIL_VALHALLAR], False),  # raw numbers: white 0 is lower
        ([LOKI, WELL, standard(G, 9)], True),  # wells ignored
    ],
)
def test_b15_loki_lowest_value_test(cards, takes_all):
    r = resolve(cards)
    assert r.loki == 0 and r.loki_takes_all == takes_all


def test_b15_b9_two_lokis_cancel():
    assert resolve([LOKI, LOKI, standard(R, 9)]).loki is None


# ---- B9, B10: cancellation and Fenrir ------------------------------------------------------------
def test_b9_any_two_fives_cancel_and_the_point_card_colours_stay():
    r = resolve([SURTR, YMIR, standard(R, 8), standard(Y, 9)], trump_of(Y))
    assert r.cancelled == [0, 1] and r.trump == trump_of(Y) and r.winner == 3


def test_b6_an_effective_five_replaces_the_trump_colours():
    r = resolve([SURTR, standard(R, 2), standard(Y, 9)], trump_of(Y, B, G))
    assert r.trump == trump_of(R) and r.effective == [0]
    assert r.winner == 0  # trumps: Surtr 5 and red 2; yellow 9 is no longer trump


def test_b9_standard_cards_never_cancel():
    r = resolve([LOKI, standard(R, 4), standard(B, 4)])
    assert r.cancelled == [] and r.loki == 0


def test_b10_single_fenrir_voids_all_other_effects():
    r = resolve([FENRIR, DVERGAR, VANIR, LOKI, standard(R, 9)], trump_of(R))
    assert r.effective == [0] and r.voided == [1, 2, 3]
    assert not r.lowest_wins and r.loki is None and r.trump == trump_of(R)
    assert r.winner == 4  # red 9 is the highest trump


def test_b10_two_fenrirs_cancel_so_other_specials_act():
    r = resolve([FENRIR, FENRIR, DVERGAR, standard(R, 2)])
    assert r.cancelled == [0, 1] and r.effective == [2] and r.lowest_wins and r.winner == 3


def test_b9_cancelled_specials_keep_value_and_trump():
    r = resolve([SURTR, ALFAR, standard(R, 4)])  # cancelled 5s still beat a non-trump
    assert r.winner is None  # two trump 5s tie
    r = resolve([SURTR, ALFAR, standard(R, 6)], trump_of(R))
    assert r.winner == 2


# ---- B8 Hugin & Munin ----------------------------------------------------------------------------
def test_b8_hugin_munin_invalidates_all_tied_highest_other_cards():
    r = resolve([HUGIN_MUNIN, standard(R, 9), standard(B, 9), standard(G, 8)], trump_of(G))
    assert r.invalid == [1, 2] and r.winner == 3  # green 8 is trump and beats the white 7


def test_b8_even_a_lower_non_trump_highest_card_is_invalid():
    r = resolve([HUGIN_MUNIN, standard(R, 3), standard(Y, 2)])
    assert r.invalid == [1] and r.winner == 0


def test_b8_an_invalid_card_loses_its_effect():
    r = resolve([HUGIN_MUNIN, LOKI, standard(R, 2)])  # Loki is the highest other card
    assert r.invalid == [1] and r.loki is None and r.winner == 0
    r = resolve(
        [HUGIN_MUNIN, SURTR, standard(B, 1)], trump_of(B)
    )  # Surtr invalid: blue stays trump
    assert r.trump == trump_of(B) and r.winner == 0


def test_b11_second_holmgang_example_resolution():
    """Mjollnir (Mario), Hugin & Munin (Dominik), Fenrir (Thade): Fenrir voids H&M, Mjollnir
    wins."""
    r = resolve([HUGIN_MUNIN, MJOLLNIR, FENRIR], trump_of(R, Y, B, G))
    assert r.voided == [0] and r.invalid == [] and r.winner == 1
    r = resolve([HUGIN_MUNIN, MJOLLNIR])  # without Fenrir, H&M makes Mjollnir invalid and wins
    assert r.invalid == [1] and r.winner == 0


def test_b7_mjollnir_has_no_effect():
    r = resolve([MJOLLNIR, standard(R, 9)], trump_of(R))
    assert r.effective == [] and r.winner == 0


def test_trick_winner_agrees_with_resolve_trick_on_random_tricks():
    """The fast winner-only resolution (heuristic and search samples) against the full one, over
    tricks of 1-6 cards rich in specials and wells, under random trump colours."""
    rng = np.random.default_rng(11)
    deck = np.repeat(np.arange(NUM_KINDS), KIND_COPIES)
    specials = np.flatnonzero(IS_SPECIAL)
    winners = set()
    for _ in range(20000):
        n = int(rng.integers(1, 7))
        kinds = rng.choice(deck, size=n, replace=False).tolist()
        if rng.random() < 0.5:  # more specials, duplicates included, to reach every step
            kinds = [int(rng.choice(specials)) if rng.random() < 0.5 else k for k in kinds]
        kinds = [WELL if rng.random() < 0.2 else k for k in kinds]
        trump = tuple(bool(x) for x in rng.random(4) < 0.5)
        want = resolve_trick(list(enumerate(kinds)), trump).winner
        assert trick_winner(kinds, trump) == want, (kinds, trump)
        winners.add(want)
    assert None in winners and len(winners) == 7  # ties and every position were exercised
