"""The array kernels (kernels.py) answer as cards.py's pure functions, on random positions."""

from __future__ import annotations

import numpy as np

from deckzoo.envs.wizard import cards as C
from deckzoo.envs.wizard import kernels as K
from deckzoo.envs.wizard.actions import PHASE_OVER
from deckzoo.envs.wizard.rules import WizardGame

RNG = np.random.default_rng(58)
LEDS = np.arange(C.LED_NONE, C.LED_FREE + 1)


def random_tricks(k: int, n: int) -> np.ndarray:
    """``k`` tricks of ``n`` cards, dealt from shuffled decks (many Wizards and Nulls included)."""
    deck = RNG.permuted(np.broadcast_to(C.DECK_KINDS, (k, C.DECK_SIZE)), axis=1)
    tricks = deck[:, :n].copy()
    only_special = RNG.random(k) < 0.1  # also tricks of Nulls and Wizards only
    tricks[only_special] = RNG.choice([C.WIZARD, C.NULL], size=(only_special.sum(), n))
    return tricks


def test_after_card_and_trump_after_flip():
    led, card = np.meshgrid(LEDS, np.arange(C.NUM_KINDS), indexing="ij")
    after, void = K.after_card(led, card)
    for lv, c, a, v in zip(led.ravel(), card.ravel(), after.ravel(), void.ravel()):
        assert a == C.next_led(int(lv), int(c))
        shows = 0 <= lv < C.NUM_SUITS and c < C.NUM_SUITED and c // C.RANKS != lv
        assert v == (1 << int(lv) if shows else 0)  # as WizardState._play marks a void
    flips = np.arange(-1, C.NUM_KINDS)
    assert K.trump_after_flip(flips).tolist() == [C.trump_after_flip(int(f)) for f in flips]


def test_playable_and_suit_counts():
    k = 3000
    deck = RNG.permuted(np.broadcast_to(C.DECK_KINDS, (k, C.DECK_SIZE)), axis=1)
    size = RNG.integers(1, 16, size=k)
    hands = np.zeros((k, C.NUM_KINDS), dtype=np.int8)
    for i in range(k):
        np.add.at(hands[i], deck[i, : size[i]], 1)
    led = RNG.choice(LEDS, size=k)
    suits = K.suit_counts(hands)
    starts = np.arange(0, C.NUM_SUITED, C.RANKS)
    assert np.array_equal(suits, np.add.reduceat(hands[:, : C.NUM_SUITED], starts, axis=1))
    led_held = np.take_along_axis(suits, K.led_column(led)[:, None], axis=1)[:, 0] > 0
    got = K.playable(hands > 0, led, led_held)
    for i in range(k):
        assert np.array_equal(got[i], C.playable(hands[i], int(led[i]))), (hands[i], led[i])


def test_trick_winner_in_play_order_and_by_seat():
    for n in (3, 4, 6, 12):
        k = 2000
        tricks = random_tricks(k, n)
        trump = RNG.integers(0, C.NO_TRUMP + 1, size=k)
        place = K.trick_winner(tricks, trump)
        led = K.led_suit(tricks)
        for i in range(k):
            trick = tricks[i].tolist()
            assert led[i] == C.led_suit(trick)
            assert place[i] == C.trick_winner(trick, int(trump[i])), (trick, trump[i])
        # as the engine keeps a trick: by absolute seat, from a leader, the led suit known
        leader = RNG.integers(0, n, size=k)
        seat = (leader[:, None] + np.arange(n)) % n
        cards = np.empty_like(tricks)
        np.put_along_axis(cards, seat, tricks, axis=1)
        place_of_seat = (np.arange(n) - leader[:, None]) % n
        keys = K.card_keys(cards, place_of_seat, trump[:, None], led[:, None])
        assert np.array_equal(keys.argmax(axis=1), (leader + place) % n)


def test_card_keys_of_a_trick_in_progress():
    """The highest key among the cards played so far is the card that wins them (as the twin asks
    whether a card would win now), whatever the cards still to come."""
    n, k = 5, 2000
    tricks = random_tricks(k, n)
    trump = RNG.integers(0, C.NO_TRUMP + 1, size=k)
    played = RNG.integers(1, n + 1, size=k)
    led = np.array([C.led_suit(tricks[i, : played[i]].tolist()) for i in range(k)])
    keys = K.card_keys(tricks, np.arange(n), trump[:, None], led[:, None])
    keys = np.where(np.arange(n) < played[:, None], keys, -1000)
    for i in range(k):
        assert keys[i].argmax() == C.trick_winner(tricks[i, : played[i]].tolist(), int(trump[i]))


def test_bids_scores_and_hidden_hands():
    for n in (3, 4, 6):
        k = 3000
        rnd = RNG.integers(1, C.DECK_SIZE // n + 1, size=k)
        bids = np.where(
            RNG.random((k, n)) < 0.3, -1, RNG.integers(0, 21, size=(k, n)) % (rnd[:, None] + 1)
        )
        f = K.forbidden_bid(rnd, bids)
        for i in range(k):
            want = C.forbidden_dealer_bid(int(rnd[i]), sum(int(b) for b in bids[i] if b > 0))
            assert f[i] == (-1 if want is None else want)
    bid, won = RNG.integers(0, 21, size=(2, 5000))
    got = K.round_score(bid, won)
    assert got.tolist() == [C.round_score(int(b), int(t)) for b, t in zip(bid, won)]
    for foresight in (True, False):
        game = WizardGame(num_players=4, foresight=foresight, num_rounds=2)
        state = game.new_state(7)
        seen = []
        while not state.is_terminal():
            hidden = K.own_hand_hidden(foresight, np.array([state.round]), np.array([state.phase]))
            seen.append((bool(hidden[0]), state.own_hand_hidden(state.current_player)))
            state.apply(int(RNG.choice(state.legal_actions())))
        assert all(a == b for a, b in seen) and any(a for a, _ in seen) == foresight
        assert not K.own_hand_hidden(foresight, np.array([1]), np.array([PHASE_OVER]))[0]
