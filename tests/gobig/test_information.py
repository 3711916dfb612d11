"""Go Big's information model (G14, X7): cards taken from the face-up market stay known in the
taker's hand until played, and no view depends on hidden cards (two worlds with the same public
history look the same)."""

import numpy as np

from deckzoo.envs.gobig.rules import DRAW_DECK, TAKE_MARKET, encode_play

from .helpers import position


def play(state, value, size=1):
    state.apply(encode_play(value, size))


def take_two_sevens(seat_1_hand, bottom=7):
    """Three players, seat 1 to play: it plays a 4 and takes the market (two 7s) into its hand."""
    s = position(
        [[1, 2, 3], seat_1_hand, [6, 6]], deck=[bottom, 4, 4, 2, 3, 5, 5], market=[7, 7], current=1
    )
    play(s, 4)
    s.apply(TAKE_MARKET)
    s.check_invariants()
    return s


def test_G14_x7_cards_taken_from_the_market_stay_known():
    s = take_two_sevens([4, 5])
    assert s.hands[1].tolist() == [0, 0, 0, 0, 1, 0, 2]
    for p in (0, 2):
        assert s.view(p)["known_in_hand"][1] == [0, 0, 0, 0, 0, 0, 2]
        obs = s.game.layout.split(s.observe(p))
        assert np.allclose(obs["known"][(1 - p) % 3], [0, 0, 0, 0, 0, 0, 2 / 13])
    rng = np.random.default_rng(0)
    for _ in range(100):
        d = s.determinize(0, rng)
        assert d.hands[1, 6] >= 2 and d.hands[1].sum() == 3
        assert d.view(0) == s.view(0)
        d.check_invariants()


def test_G14_a_known_card_played_is_forgotten_by_copies_not_by_the_hand():
    """Seat 1 took two 7s; in world B it was also dealt a 7. After it plays one 7, the table knows
    one 7 in its hand in both worlds: the known count drops by the copies played, never reading the
    hidden hand. Seats 0 and 2 see the same views in both worlds all along."""
    a, b = take_two_sevens([4, 5], bottom=7), take_two_sevens([4, 7], bottom=5)
    for s in (a, b):
        play(s, 6)  # seat 2
        s.apply(DRAW_DECK)
        play(s, 1)  # seat 0
        s.apply(TAKE_MARKET)
        assert s.current_player == 1
        play(s, 7)  # seat 1 plays one of its 7s (then it is to draw; the deck bottom stays unseen)
        assert s.view(0)["known_in_hand"][1] == [0, 0, 0, 0, 0, 0, 1] and len(s.deck) == 1
        s.check_invariants()
    for p in (0, 2):
        assert a.view(p) == b.view(p)
        assert np.array_equal(a.observe(p), b.observe(p))
