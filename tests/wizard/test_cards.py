"""Wizard's pure rule pieces as case tables: cards, led suit, trick winner, follow suit, bids,
scoring."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deckzoo.envs.wizard.cards import (
    DECK_COUNTS,
    DECK_KINDS,
    LED_FREE,
    LED_NONE,
    NO_TRUMP,
    NULL,
    NUM_KINDS,
    TRUMP_PENDING,
    WIZARD,
    card_name,
    card_rank,
    card_suit,
    forbidden_dealer_bid,
    led_suit,
    make_card,
    num_rounds_for,
    playable,
    round_score,
    score_bounds,
    trick_winner,
    trump_after_flip,
    winners_of,
)
from deckzoo.envs.wizard.rules import (
    BID_BASE,
    TRUMP_BASE,
    WizardGame,
    decode_action,
    encode_bid,
    encode_play,
    encode_trump,
)

from .helpers import card, cards

D, H, E, G = range(4)


def test_deck_is_60_cards_four_suits_of_13_four_wizards_four_nulls():  # W2
    assert DECK_COUNTS.sum() == 60 and len(DECK_KINDS) == 60
    assert (DECK_COUNTS[:52] == 1).all() and DECK_COUNTS[WIZARD] == 4 and DECK_COUNTS[NULL] == 4
    assert [card_name(make_card(s, 1)) for s in range(4)] == [
        "Dwarves 1",
        "Humans 1",
        "Elves 1",
        "Giants 1",
    ]


def test_card_encoding_round_trips():
    for s in range(4):
        for r in range(1, 14):
            c = make_card(s, r)
            assert 0 <= c < 52 and card_suit(c) == s and card_rank(c) == r
    assert card_suit(WIZARD) == card_suit(NULL) == -1 and card_rank(WIZARD) == 0
    assert len({card_name(c) for c in range(NUM_KINDS)}) == NUM_KINDS


def test_action_encoding_round_trips_and_names_are_unique():
    game = WizardGame(num_players=4)
    assert game.num_actions == 59 + 15
    for c in range(NUM_KINDS):
        assert decode_action(encode_play(c)) == ("play", c)
    for s in range(4):
        assert decode_action(encode_trump(s)) == ("trump", s) and encode_trump(s) == TRUMP_BASE + s
    for b in range(16):
        assert decode_action(encode_bid(b)) == ("bid", b) and encode_bid(b) == BID_BASE + b
    state = game.new_state(0)
    names = [state.action_name(a) for a in range(game.num_actions)]
    assert len(set(names)) == game.num_actions
    assert names[52] == "play Wizard" and names[53] == "play Null" and names[54] == "trump Dwarves"
    assert names[BID_BASE + 3] == "bid 3" and "invalid" in state.action_name(game.num_actions)


@pytest.mark.parametrize("n,rounds", [(3, 20), (4, 15), (5, 12), (6, 10), (10, 6), (12, 5)])
def test_w1_w12_rounds_table(n, rounds):
    """The rulebook table: players, rounds, cards in the last round (= rounds, W12)."""
    assert num_rounds_for(n) == rounds
    assert n * rounds == 60  # the final round deals all 60 cards


@pytest.mark.parametrize(
    "flipped,trump",
    [
        (card("E7"), E),
        (card("D1"), D),
        (card("G13"), G),
        (NULL, NO_TRUMP),
        (WIZARD, TRUMP_PENDING),
        (None, NO_TRUMP),
        (-1, NO_TRUMP),
    ],
)
def test_w4_trump_after_flip(flipped, trump):
    assert trump_after_flip(flipped) == trump


@pytest.mark.parametrize(
    "trick,led",
    [
        ("", LED_NONE),
        ("E5", E),
        ("N", LED_NONE),
        ("N N", LED_NONE),
        ("N E5", E),  # W7: the next numbered card sets the suit
        ("N N G2 E9", G),
        ("W", LED_FREE),  # Wizard led: nothing to follow
        ("N W", LED_FREE),  # W8: Null led, then a Wizard
        ("N W E5", LED_FREE),
        ("E5 W", E),  # a Wizard after the suit is set changes nothing
    ],
)
def test_w7_led_suit(trick, led):
    assert led_suit(cards(trick)) == led


@pytest.mark.parametrize(
    "trick,trump,winner",
    [
        ("E5 E9 E2", NO_TRUMP, 1),  # highest of the led suit
        ("E5 G13 E2", NO_TRUMP, 0),  # off-suit cards never win without trump
        ("E5 G2 E13", G, 1),  # any trump beats the led suit
        ("E5 G2 G11 E13", G, 2),  # highest trump
        ("E5 W G13 W", G, 1),  # the first Wizard wins
        ("W W", NO_TRUMP, 0),
        ("N N N", NO_TRUMP, 0),  # only Nulls: the first Null
        ("N N N N", E, 0),
        ("N E3 E4", NO_TRUMP, 2),  # Null led; Elves set by the next card
        ("N E3 G1", G, 2),
        ("N W E13", E, 1),  # W8
        ("D1 N N", H, 0),  # Nulls always lose
        ("E5 D13 H13", D, 1),
        ("E5 E6 E7", E, 2),  # led suit = trump
    ],
)
def test_w9_trick_winner(trick, trump, winner):
    assert trick_winner(cards(trick), trump) == winner


def hand(text):
    h = np.zeros(NUM_KINDS, dtype=np.int8)
    for c in cards(text):
        h[c] += 1
    return h


def names(mask):
    return sorted(card_name(int(c)) for c in np.flatnonzero(mask))


@pytest.mark.parametrize(
    "text,led,expected",
    [
        (
            "E5 E9 G2 W N",
            E,
            ["Elves 5", "Elves 9", "Null", "Wizard"],
        ),  # must follow; Wizard/Null any time
        ("E5 G2", E, ["Elves 5"]),
        ("G2 D4 N", E, ["Dwarves 4", "Giants 2", "Null"]),  # void: anything (trump included)
        ("E5 G2 W", LED_FREE, ["Elves 5", "Giants 2", "Wizard"]),  # Wizard led: anything
        ("E5 G2", LED_NONE, ["Elves 5", "Giants 2"]),  # leading, or only Nulls so far
        ("W W N", G, ["Null", "Wizard"]),
    ],
)
def test_w7_follow_suit_mask(text, led, expected):
    assert names(playable(hand(text), led)) == sorted(expected)


@pytest.mark.parametrize(
    "rnd,others,forbidden",
    [
        (3, 2, 1),  # rulebook: round 3, others predicted 2 in total: the dealer may not predict 1
        (1, 0, 1),  # W6: must bid 0
        (1, 1, 0),  # W6: must bid 1
        (5, 5, 0),
        (5, 0, 5),
        (2, 3, None),  # others already over: no restriction
        (4, 7, None),
    ],
)
def test_w6_forbidden_dealer_bid(rnd, others, forbidden):
    assert forbidden_dealer_bid(rnd, others) == forbidden


@pytest.mark.parametrize(
    "bid,tricks,points",
    [
        (0, 0, 20),  # rulebook: predict 0, win 0 = +20
        (3, 3, 50),  # predict 3, win 3 = +50
        (2, 0, -20),  # predict 2, win 0 = -20
        (1, 4, -30),  # predict 1, win 4 = -30
        (0, 1, -10),
        (13, 13, 150),
    ],
)
def test_w10_round_score(bid, tricks, points):
    assert round_score(bid, tricks) == points


def test_score_bounds_are_reachable_extremes():
    assert score_bounds(1) == (-10, 30)
    assert score_bounds(3) == (-60, 120)  # 20*3 + 10*(1+2+3); all tricks off by everything


@pytest.mark.parametrize(
    "scores,winners", [([10, 30, 20], [1]), ([30, 30, -5], [0, 1]), ([0, 0, 0], [0, 1, 2])]
)
def test_w11_most_points_wins_ties_share(scores, winners):
    assert winners_of(scores) == winners


def _reference_winner(trick, trump):
    """W9 written independently: rank every card by (is first Wizard, is trump, follows the led
    suit, rank), the led suit being the first numbered card's unless a Wizard came first."""
    first_numbered = next((c for c in trick if c != NULL), None)
    led = None if first_numbered in (None, WIZARD) else first_numbered // 13

    def key(i):
        c = trick[i]
        if c == WIZARD:
            return (2, -i)  # earlier Wizards rank higher
        if c == NULL:
            return (-1, -i)  # earlier Nulls rank higher (only matters when all are Nulls)
        s, r = divmod(c, 13)
        return (1, 100 + r) if s == trump else (0, r) if s == led else (-0.5, 0)

    return max(range(len(trick)), key=key)


@given(st.lists(st.integers(0, 59), min_size=3, max_size=12, unique=True), st.integers(0, 4))
@settings(max_examples=400, deadline=None)
def test_w9_trick_winner_matches_an_independent_formulation(ids, trump):
    trick = [
        i if i < 52 else (WIZARD if i < 56 else NULL) for i in ids
    ]  # 60 physical cards -> kinds
    assert trick_winner(trick, trump) == _reference_winner(trick, trump)
