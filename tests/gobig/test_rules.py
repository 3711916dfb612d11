"""Go Big: every rulebook example and every ruling G1-G15 of docs/rules/gobig.md."""

import json

import numpy as np
import pytest

from deckzoo.envs import ConfigError, IllegalActionError
from deckzoo.envs.gobig.rules import (
    DRAW_DECK,
    NUM_ACTIONS,
    TAKE_MARKET,
    GoBigGame,
    beaten_seats,
    decode_play,
    encode_play,
    winners_of,
)

from .helpers import position


def plays(state):
    return sorted(decode_play(a) for a in state.legal_actions() if a < 21)


# ---- pure functions ---------------------------------------------------------------------------
def test_action_encoding_round_trips():
    for value in range(1, 8):
        for size in range(1, 4):
            a = encode_play(value, size)
            assert 0 <= a < 21 and decode_play(a) == (value, size)
    assert len({encode_play(v, k) for v in range(1, 8) for k in range(1, 4)}) == 21
    names = {GoBigGame().new_state(0).action_name(a) for a in range(NUM_ACTIONS)}
    assert len(names) == NUM_ACTIONS


@pytest.mark.parametrize(
    "displays,player,value,size,expected",
    [
        ([None, (5, 2), (5, 2), (6, 2)], 0, 2, 2, [1, 2]),  # all nearest beaten, higher safe
        ([None, (1, 2), (4, 1), (5, 2)], 0, 2, 2, [3]),  # lower and wrong-size untouched
        ([None, (3, 2), (4, 1)], 0, 3, 2, []),  # equal value is not beaten
        ([None, (7, 3), (6, 3), (2, 3)], 0, 1, 3, [3]),  # nearest higher is 2, not 6 or 7
        ([(6, 1), (7, 1)], 0, 5, 1, [1]),  # own display never counts
        ([None, None], 0, 4, 1, []),
    ],
)
def test_beaten_seats_table(displays, player, value, size, expected):
    assert beaten_seats(displays, player, value, size) == expected


@pytest.mark.parametrize(
    "scores,cards,expected",
    [
        ([30, 25, 30], [10, 12, 9], [0]),  # G12: most banked cards breaks the tie
        ([30, 25, 30], [10, 12, 10], [0, 2]),  # still tied: share
        ([10, 40], [5, 5], [1]),
    ],
)
def test_winners_table(scores, cards, expected):
    assert winners_of(scores, cards) == expected


# ---- set-up (G1-G3) ---------------------------------------------------------------------------
@pytest.mark.parametrize("n", range(2, 7))
def test_g1_g2_setup_91_cards_six_each_market_of_two(n):
    s = GoBigGame(num_players=n).new_state(n)
    s.check_invariants()  # 13 of each value across every place
    assert s.hands.sum(axis=1).tolist() == [6] * n
    assert len(s.market) == 2
    assert len(s.deck) == 91 - 6 * n - 2


@pytest.mark.parametrize("n", [1, 7, 0])
def test_g2_player_count_is_2_to_6(n):
    with pytest.raises(ConfigError, match="num_players"):
        GoBigGame(num_players=n)


def test_g3_start_seat_is_seeded_chance_or_option_and_play_goes_left():
    starts = {GoBigGame(num_players=5).new_state(seed).current_player for seed in range(60)}
    assert starts == set(range(5))
    s = GoBigGame(num_players=3, start_player=2).new_state(0)
    assert s.current_player == 2
    order = []
    while len(order) < 4:
        if s.phase == 0:
            order.append(s.current_player)
        s.apply(int(s.legal_actions()[0]))
    assert order == [2, 0, 1, 2]
    with pytest.raises(ConfigError, match="start_player"):
        GoBigGame(num_players=3, start_player=3)
    with pytest.raises(ConfigError, match="end_rule"):
        GoBigGame(end_rule="sudden")


# ---- the turn (G4, G5, rulebook examples) ------------------------------------------------------
def test_g4_display_is_banked_at_the_start_of_your_next_turn():
    s = position([[3, 3, 5], [1, 2, 6]], deck=[7, 7, 7, 7, 7, 7], market=[4, 4])
    s.apply(encode_play(3, 2))  # player 0 shows two 3s
    s.apply(DRAW_DECK)
    assert s.displays[0] == (3, 2) and s.banks[0].sum() == 0
    s.apply(encode_play(1, 1))
    s.apply(DRAW_DECK)  # player 1's turn ends; player 0 banks at once
    assert s.current_player == 0 and s.displays[0] is None
    assert s.banks[0].tolist() == [0, 0, 2, 0, 0, 0, 0] and s.scores()[0] == 6


def test_rulebook_bank_values():
    """ "two 3s are worth 6 points, and three 7s are worth 21 points" """
    s = position([[1], [1]], banks=[[3, 3], [7, 7, 7]])
    assert s.scores().tolist() == [6, 21]


def test_ben_example_legal_plays():
    """Ben could play a single 1, 4 or 6, a pair of 1s or 4s, or a trio of 1s."""
    s = position([[1, 1, 1, 4, 4, 6], [2]], deck=[5, 5], market=[3, 3])
    assert plays(s) == sorted([(1, 1), (4, 1), (6, 1), (1, 2), (4, 2), (1, 3)])


def test_amelia_example_singles_and_pairs_but_no_trio():
    s = position([[2, 2, 5, 5, 7, 7], [2]], deck=[5, 5], market=[3, 3])
    assert plays(s) == sorted([(v, k) for v in (2, 5, 7) for k in (1, 2)])
    with pytest.raises(IllegalActionError):
        s.apply(encode_play(2, 3))


def test_g5_playing_is_mandatory_and_never_four():
    s = position([[4, 4, 4, 4], [2]], deck=[5, 5], market=[3, 3])
    mask = s.legal_mask()
    assert not mask[DRAW_DECK] and not mask[TAKE_MARKET]  # no draw before playing
    assert plays(s) == [(4, 1), (4, 2), (4, 3)]


def test_amelia_beating_example_5s_beaten_6s_safe():
    """Amelia's two 2s beat Charlie's and Peter's 5s; Ben's 1s, Judith's single 4 and Stuart's 6s
    stay."""
    amelia, ben, judith, charlie, peter, stuart = range(6)
    displays = [None, (1, 2), (4, 1), (5, 2), (5, 2), (6, 2)]
    s = position(
        [[2, 2, 3], [1], [1], [1], [1], [1]], displays=displays, deck=[7, 7], market=[3, 3]
    )
    box_before = s.box.copy()
    s.apply(encode_play(2, 2))
    assert s.displays[charlie] is None and s.displays[peter] is None
    assert (
        s.displays[ben] == (1, 2) and s.displays[judith] == (4, 1) and s.displays[stuart] == (6, 2)
    )
    assert s.displays[amelia] == (2, 2)
    assert (s.box - box_before).tolist() == [0, 0, 0, 0, 4, 0, 0]  # G7: beaten sets go to the box
    s.check_invariants()


def test_g6_only_same_size_and_only_others():
    s = position([[6, 6], [1]], displays=[None, (7, 1)], deck=[7, 7], market=[3, 3])
    s.apply(encode_play(6, 2))  # a pair cannot beat a single
    assert s.displays[1] == (7, 1)


# ---- drawing (G8, G9) -------------------------------------------------------------------------
def test_g8_draw_two_from_deck():
    s = position([[1, 2], [3]], deck=[4, 5, 6], market=[7, 7])
    s.apply(encode_play(1, 1))
    assert s.legal_actions().tolist() == [DRAW_DECK, TAKE_MARKET]
    s.apply(DRAW_DECK)
    assert s.hands[0].tolist() == [0, 1, 0, 0, 1, 1, 0] and s.deck == [4] and s.market == [7, 7]


def test_g8_take_market_then_refill_from_deck():
    s = position([[1, 2], [3]], deck=[4, 5, 6], market=[7, 7])
    s.apply(encode_play(1, 1))
    s.apply(TAKE_MARKET)
    assert s.hands[0].tolist() == [0, 1, 0, 0, 0, 0, 2]
    assert sorted(s.market) == [5, 6] and s.deck == [4]


def test_g8_short_deck_draws_what_there_is_and_market_refills_partly():
    s = position([[1, 2], [3]], deck=[4], market=[7, 7])
    s.apply(encode_play(1, 1))
    s.apply(DRAW_DECK)
    assert s.hands[0].tolist() == [0, 1, 0, 1, 0, 0, 0] and s.deck == [] and s.market == [7, 7]
    s2 = position([[1, 2], [3]], deck=[4], market=[7, 7])
    s2.apply(encode_play(1, 1))
    s2.apply(TAKE_MARKET)
    assert s2.market == [4] and s2.deck == []


def test_g9_market_of_one_card_is_taken_automatically_when_deck_is_empty():
    s = position([[1, 2], [3, 3]], deck=[], market=[5])
    s.apply(encode_play(1, 1))  # only one source: no decision (X6)
    assert s.current_player == 1 and s.hands[0].tolist() == [0, 1, 0, 0, 1, 0, 0] and s.market == []


def test_g8_deck_only_is_automatic():
    s = position([[1, 2], [3, 3]], deck=[6, 6, 6], market=[])
    s.apply(encode_play(2, 1))
    assert s.current_player == 1 and s.hands[0].tolist() == [1, 0, 0, 0, 0, 2, 0] and s.deck == [6]


def test_g8_both_empty_skip_the_draw():
    s = position([[1, 2], [3, 3]], deck=[], market=[])
    s.apply(encode_play(2, 1))
    assert s.current_player == 1 and s.hands[0].tolist() == [1, 0, 0, 0, 0, 0, 0]


def test_g13_hand_size_is_unlimited():
    hand = [1] * 5 + [2] * 13 + [3] * 13
    s = position([hand, [4]], deck=[5, 5], market=[6, 6])
    s.apply(encode_play(1, 1))
    s.apply(TAKE_MARKET)
    assert s.hands[0].sum() == 32


# ---- the end (G10, G11, G12) ------------------------------------------------------------------
def test_g10_emptying_your_hand_while_cards_remain_is_not_the_end():
    s = position([[5], [3, 3]], deck=[1, 2, 4], market=[6, 6])
    s.apply(encode_play(5, 1))  # hand empty, but the deck and market have cards
    assert not s.is_terminal()
    s.apply(DRAW_DECK)
    assert not s.is_terminal() and s.current_player == 1 and s.hands[0].sum() == 2


def test_g10_game_ends_when_after_the_draw_step_the_hand_is_empty():
    s = position([[5], [3, 3]], displays=[None, (2, 1)], banks=[[7], [1]], deck=[], market=[])
    s.apply(encode_play(5, 1))
    assert s.is_terminal() and s.current_player is None
    # G11: every display banked (both player 0's 5 and player 1's 2); hands discarded
    assert s.scores().tolist() == [12, 3]
    assert s.winners() == [0] and s.returns().tolist() == [1.0, -1.0]


def test_literal_end_rule_ends_the_moment_a_play_empties_a_hand():
    s = position([[5], [3, 3]], deck=[1, 2, 4], market=[6, 6], end_rule="literal")
    s.apply(encode_play(5, 1))
    assert s.is_terminal() and s.scores().tolist() == [5, 0]
    s = position([[5, 5], [3, 3]], deck=[1, 2, 4], market=[6, 6], end_rule="literal")
    s.apply(encode_play(5, 1))
    assert not s.is_terminal()


def test_g12_tie_break_on_banked_cards_then_share():
    t = position([[6], [1]], banks=[[], [1, 1, 2, 2]], deck=[], market=[])
    t.apply(encode_play(6, 1))  # 6 points in 1 card against 6 points in 4 cards
    assert t.scores().tolist() == [6, 6] and t.winners() == [1]
    assert t.returns().tolist() == [-1.0, 1.0]
    v = position([[3], [1]], banks=[[3], [2, 4]], deck=[], market=[])
    v.apply(encode_play(3, 1))  # 6 points in 2 cards each: shared
    assert (
        v.scores().tolist() == [6, 6]
        and v.winners() == [0, 1]
        and v.returns().tolist() == [0.0, 0.0]
    )


# ---- information (G7, G14) --------------------------------------------------------------------
def test_g14_view_shows_public_and_own_but_hides_other_hands_and_deck_order():
    s = GoBigGame(num_players=3).new_state(4)
    v = s.view(0)
    json.dumps(v)
    assert v["hand"] == s.hands[0].tolist() and "deck" not in v and v["deck_size"] == len(s.deck)
    assert v["hand_sizes"] == s.hands.sum(axis=1).tolist()
    assert set(v) >= {"displays", "market", "banks", "box", "scores", "current_player"}
    other = s.determinize(0, np.random.default_rng(1))
    assert other.view(0) == v and (other.hands[0] == s.hands[0]).all()
    assert np.array_equal(other.observe(0), s.observe(0))
    differs = any(
        not np.array_equal(s.determinize(0, np.random.default_rng(k)).hands[1:], s.hands[1:])
        for k in range(5)
    )
    assert differs, "determinize never resampled the hidden cards"


def test_observation_is_relative_to_the_observer():
    s = position(
        [[1, 2], [3, 3], [7]], displays=[None, (5, 1), None], deck=[4, 4], market=[6, 6], current=0
    )
    obs1 = s.game.layout.split(s.observe(1))
    assert obs1["display_value"][0, 4] == 1.0  # seat 1's own display comes first
    obs0 = s.game.layout.split(s.observe(0))
    assert obs0["display_value"][1, 4] == 1.0 and obs0["current_player"][0] == 1.0
    assert obs1["current_player"][2] == 1.0
