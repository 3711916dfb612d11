"""Pure Big Number functions as case tables: card ids, values, sets, beating, legal plays,
scoring."""

from __future__ import annotations

import itertools

import pytest

from deckzoo.envs.bignumber.cards import (
    NUM_TYPES,
    SET_INDEX,
    SETS,
    beats,
    card,
    card_name,
    expand,
    is_set,
    is_uniform,
    legal_plays,
    parse_card,
    parse_cards,
    penalties,
    play_value,
    rank_of,
    suit_of,
)

from .util import cards


def counts(text: str) -> list[int]:
    out = [0] * NUM_TYPES
    for c in parse_cards(text):
        out[c] += 1
    return out


def test_card_ids_round_trip():
    for c in range(NUM_TYPES):
        assert card(rank_of(c), suit_of(c)) == c
        assert parse_card(card_name(c)) == c
    assert card_name(card(1, 2)) == "A\u2665" and card_name(card(7, 3)) == "7\u2660"
    assert parse_card("7s") == parse_card("7\u2660") == card(7, 3)
    assert parse_card("Ah") == parse_card("1h") == card(1, 2)
    with pytest.raises(ValueError):
        parse_card("0h")


# Rulebook "What you may play": values read biggest digit first (ruling N7).
@pytest.mark.parametrize(
    "text,value",
    [
        ("2h 9h 7h", 972),
        ("5s 5d", 55),
        ("8c", 8),
        ("4c Ac", 41),
        ("6d 6h 6s", 666),
        ("Ah 3h 8h 2h", 8321),
        ("8d 6d 2d", 862),
        ("7h 7h 2h", 772),
        ("9s 8s 7s 6s 5s 4s 3s 2s As", 987654321),
    ],
)
def test_play_value(text, value):
    assert play_value(cards(text)) == value


@pytest.mark.parametrize(
    "text,ok",
    [
        ("8c", True),
        ("2h 9h 7h", True),
        ("6d 6h 6s", True),
        ("7h 7h 2h", True),
        ("7h 7h", True),
        ("2h 9s", False),
        ("6d 6h 5h", False),
        ("", False),
    ],
)
def test_is_set(text, ok):
    assert is_set(cards(text)) is ok


# Ruling N6: same size and higher value, or one card more; never two more; strictly higher.
@pytest.mark.parametrize(
    "play,middle,ok",
    [
        ("7s", "4d", True),
        ("4d", "7s", False),
        ("5s", "5h", False),  # equal value does not beat
        ("5h 3h", "7s", True),
        ("3s 3h", "8c", True),  # one card more always beats ("on an 8 ... 33")
        ("6c 6s", "5h 3h", True),
        ("5c 3c", "5h 3h", False),
        ("5h 2h", "6c 6s", False),
        ("8d 6d 2d", "6c 6s", True),
        ("Ac 2c 3c", "9h", False),  # two cards more: never
        ("9h 8s", "2c", False),  # not a set
        ("7h 7h 2h", "9c 9d", True),  # a duplicate pair inside a suit set (two decks, N2)
    ],
)
def test_beats(play, middle, ok):
    assert beats(cards(play), cards(middle)) is ok


def test_legal_plays_lead_is_one_card_or_a_uniform_hand():
    assert legal_plays(counts("9c 4d 4h"), ()) == sorted((c,) for c in cards("9c 4d 4h"))
    suited = counts("9h 4h 2h")
    assert legal_plays(suited, ()) == sorted(
        [(c,) for c in cards("9h 4h 2h")] + [cards("9h 4h 2h")]
    )
    ranked = counts("4c 4d 4h")
    assert cards("4c 4d 4h") in legal_plays(ranked, ())
    assert legal_plays(counts("7h 7h"), ()) == [
        cards("7h"),
        cards("7h 7h"),
    ]  # two decks: one type twice


def test_legal_plays_answers_match_brute_force():
    """Against every sub-multiset of the hand, filtered with ``beats`` (the definition)."""
    hands = ["9h 7h 2h 7s 7c 3d Ad 5s 5d", "7h 7h 2h 9c 9c 3h", "Ac 2c 3c 4c 5c 6c 7c 8c 9c", "5s"]
    middles = ["4d", "8c", "8s 5s", "6c 6s", "9h 9d", "9d 8d 7d", "9s 9c 9h 9d"]
    for h, m in itertools.product(hands, middles):
        pool = expand(counts(h))
        want = set()
        for k in range(1, len(pool) + 1):
            for t in itertools.combinations(pool, k):
                if beats(t, cards(m)):
                    want.add(t)
        assert set(legal_plays(counts(h), cards(m))) == want, (h, m)


def test_is_uniform():
    assert (
        is_uniform(counts("9h 4h 2h"))
        and is_uniform(counts("4c 4s"))
        and is_uniform(counts("7h 7h"))
    )
    assert is_uniform(counts("3d"))
    assert not is_uniform(counts("9h 4s")) and not is_uniform([0] * NUM_TYPES)


def test_set_table_is_every_one_deck_set_once():
    assert len(SETS) == 36 + 4 * (2**9 - 1 - 9) + 9 * (2**4 - 1 - 4) == 2143
    assert all(
        is_set(t) and list(t) == sorted(t, reverse=True) and len(set(t)) == len(t) for t in SETS
    )
    assert all(SET_INDEX[t] == i for i, t in enumerate(SETS))


# Rulebook scoring example: Carla goes out; Anna 3, Ben 1, Dan 5 cards.
def test_penalties():
    assert penalties([3, 1, 0, 5], finisher=2) == [3, 1, 0, 5]
    assert penalties([4, 2], finisher=0) == [0, 2]


from hypothesis import given, settings
from hypothesis import strategies as st


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_legal_plays_property(data):
    """Random hands (one or two decks) against random middle sets: exactly the sub-multisets that
    beat."""
    copies = data.draw(st.sampled_from([1, 2]))
    pool = [c for c in range(NUM_TYPES) for _ in range(copies)]
    picked = data.draw(
        st.lists(st.sampled_from(range(len(pool))), min_size=1, max_size=9, unique=True)
    )
    hand = [0] * NUM_TYPES
    for i in picked:
        hand[pool[i]] += 1
    middle = data.draw(st.sampled_from(SETS + ((),)))
    plays = legal_plays(hand, middle)
    cards_ = expand(hand)
    want = set()
    for k in range(1, len(cards_) + 1):
        for t in itertools.combinations(cards_, k):
            if (
                middle
                and beats(t, middle)
                or not middle
                and (k == 1 or (k == len(cards_) and is_set(t)))
            ):
                want.add(t)
    assert set(plays) == want and len(plays) == len(want)
    assert all(list(t) == sorted(t, reverse=True) for t in plays)
