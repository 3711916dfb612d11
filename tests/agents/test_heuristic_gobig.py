"""The Go Big heuristic: its pure estimates as case tables, its decisions on explicit positions."""

import pytest

from deckzoo.agents.heuristics.gobig import HeuristicAgent, prob_at_least, survival, unseen_counts
from deckzoo.envs.gobig.rules import DRAW_DECK, TAKE_MARKET, encode_play
from tests.gobig.helpers import position


def act(state, seat=None, seed=0):
    seat = state.current_player if seat is None else seat
    return HeuristicAgent(seed).act(state.for_player(seat))


@pytest.mark.parametrize(
    "k,n,p,expected",
    [
        (0, 5, 0.3, 1.0),
        (1, 0, 0.5, 0.0),
        (3, 2, 0.9, 0.0),
        (1, 1, 0.25, 0.25),
        (1, 3, 0.5, 0.875),
        (2, 3, 0.5, 0.5),
        (3, 3, 0.5, 0.125),
        (2, 6, 1 / 7, 1 - (6 / 7) ** 6 - 6 * (1 / 7) * (6 / 7) ** 5),
        (1, 4, 0.0, 0.0),
        (2, 4, 1.0, 1.0),
    ],
)
def test_prob_at_least(k, n, p, expected):
    assert prob_at_least(k, n, p) == pytest.approx(expected)


def test_unseen_counts_subtract_everything_visible():
    state = position(
        hands=[[7, 7, 1], [2, 2]],
        displays=[None, (3, 2)],
        market=[7, 5],
        deck=[4, 4, 4],
        banks=[[6], [6, 6]],
        box=[1],
    )
    view = state.view(0)
    # The helper puts every unplaced card in the box, so only seat 1's hand and the deck are unseen.
    assert unseen_counts(view).tolist() == [0, 2, 0, 3, 0, 0, 0]
    assert sum(unseen_counts(view)) == view["deck_size"] + view["hand_sizes"][1]


def test_survival_of_ones_and_of_shielded_sets():
    state = position(
        hands=[[5, 5, 6, 1], [2, 3, 4, 2], [4, 4, 3, 2]], deck=[2, 3, 4] * 6, current=0
    )
    view = state.view(0)
    assert survival(view, 1, 1, [(1, 1), None, None]) == 1.0  # nothing is lower than a 1
    bare = survival(view, 5, 1, [(5, 1), None, None])
    assert 0 < bare < 1
    # A single 4 shown by seat 2 shields our 5 from seat 1's 2s and 3s (they would beat the 4):
    # only seat 1's own 4s remain a threat, so the shielded 5 survives more often.
    shielded = survival(view, 5, 1, [(5, 1), None, (4, 1)])
    assert shielded > bare
    assert survival(view, 5, 3, [(5, 3), None, None]) > bare  # trios are much harder to beat


def test_ends_the_game_when_that_wins():
    state = position(hands=[[6, 6], [7, 7, 7]], banks=[[5] * 6, [7] * 5], current=0)
    assert act(state) == encode_play(6, 2)  # 42 to 35 at once


def test_does_not_end_the_game_while_behind():
    # Emptying the hand now ends the game 34 to 40; playing one card keeps it going.
    state = position(hands=[[2, 2], [1]], banks=[[5] * 6, [4] * 10], current=0)
    assert state.scores().tolist() == [30, 40]
    assert act(state) == encode_play(2, 1)


def test_beats_the_leaders_big_display():
    # Seat 1 leads and shows three 7s (21 points); a trio of 3s sends them to the box. The pair
    # of 5s would bank more for us (10 > 9), but stopping 21 points of the leader matters more.
    state = position(
        hands=[[3, 3, 3, 5, 5], [1, 2], [1, 2]],
        displays=[None, (7, 3), None],
        banks=[[], [6] * 4, [2]],
        deck=[5] * 10,
        market=[1, 2],
        current=0,
    )
    assert act(state) == encode_play(3, 3)


def test_prefers_a_safe_trio_to_an_exposed_single():
    state = position(
        hands=[[6, 6, 6, 7], [1, 2, 3, 4, 5], [1, 2, 3, 4, 5]],
        deck=[1, 2, 3, 4, 5] * 5,
        market=[1, 1],
        current=0,
    )
    assert act(state) == encode_play(6, 3)


def draw_position(market, hand, deck=(1, 1, 1, 2, 2, 2, 3, 3)):
    state = position(hands=[hand, [4, 4, 5]], deck=list(deck), market=market, current=0)
    state.apply(encode_play(hand[0], 1))  # any play; both sources have cards, so we are asked
    assert state.phase == 1
    return state


def test_takes_a_market_that_completes_sets():
    assert act(draw_position(market=[7, 7], hand=[1, 7, 7])) == TAKE_MARKET


def test_draws_from_deck_when_the_market_is_poor():
    # The unseen cards are mostly 4-7 (the helper boxes the rest): a pair of 1s is worth less.
    state = position(
        hands=[[3, 5], [4, 4, 5]],
        deck=[6, 6, 7, 7, 5, 5, 4, 4],
        market=[1, 1],
        current=0,
        box=[1] * 11 + [2] * 13 + [3] * 12,
    )
    state.apply(encode_play(3, 1))
    assert act(state) == DRAW_DECK


def test_same_view_same_decision():
    # The heuristic reads only the view: two positions equal for seat 0 get the same answer.
    a = position(hands=[[2, 2, 5], [7, 7, 7], [6, 6]], deck=[1, 3, 4], market=[3, 3], current=0)
    b = position(hands=[[2, 2, 5], [1, 3, 4], [6, 7]], deck=[7, 7, 6], market=[3, 3], current=0)
    assert a.view(0) == b.view(0) and a.to_dict() != b.to_dict()
    for seed in range(5):
        assert act(a, seed=seed) == act(b, seed=seed)
