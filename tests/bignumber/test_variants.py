"""Ruling N16: a small variant of Big Number shrinks the deck, the hands and the play table."""

from __future__ import annotations

import numpy as np
import pytest

from deckzoo.agents.heuristics.bignumber import HeuristicAgent
from deckzoo.envs import vector
from deckzoo.envs.bignumber.actions import (
    ADD_BASE,
    FINISH,
    NUM_ACTIONS_TWO_DECKS,
    PICK_BASE,
    PLAY_BASE,
)
from deckzoo.envs.bignumber.cards import SETS, all_sets, is_set, parse_cards, set_index
from deckzoo.envs.bignumber.rules import BigNumberGame, BigNumberState
from deckzoo.envs.core.errors import ConfigError
from deckzoo.envs.variants import variant_game


def small(n: int = 3, **options) -> BigNumberGame:
    return BigNumberGame(n, **{"ranks": 2, "hand_size": 2, "single_deal": True, **options})


def play(state: BigNumberState, text: str) -> None:
    state.apply(PLAY_BASE + state.game.set_index[parse_cards(text)])


def test_N16_the_play_table_lists_the_sets_this_deck_can_form_in_the_full_tables_order():
    assert all_sets(9) == SETS and set_index(9)[SETS[100]] == 100
    two = all_sets(2)
    # 8 singles, 4 suits' pairs (2x, Ax), 2 ranks' sets of 2-4 suits (6 + 4 + 1 each)
    assert len(two) == 8 + 4 + 2 * 11 and len(set(two)) == len(two)
    assert all(is_set(t) and max(t) < 8 for t in two)
    order = [SETS.index(t) for t in two]
    assert order == sorted(order)  # the same order as the rulebook game's table
    game = small()
    assert game == variant_game("bignumber_small")
    assert game.num_actions == PLAY_BASE + 34 == 71 and game.sets == two
    assert small(two_decks=True, hand_size=3).num_actions == NUM_ACTIONS_TWO_DECKS


def test_N16_the_deck_holds_the_ranks_up_to_ranks_and_hands_of_hand_size():
    game = small()
    assert game.deck_counts == [1] * 8 + [0] * 28
    for seed in range(30):
        s = game.new_state(seed)
        assert [sum(h) for h in s.hands] == [2, 2, 2] and sum(s.aside) == 2
        assert all(not any(h[8:]) for h in s.hands) and not any(s.aside[8:])
        s.check_invariants()
    two = small(two_decks=True, ranks=3, hand_size=4)
    assert two.deck_counts == [2] * 12 + [0] * 24
    assert sum(sum(h) for h in two.new_state(0).hands) == 12


def test_N16_every_rule_applies_answers_and_the_pick_up():
    game = small(4, ranks=3, hand_size=3)  # all 12 cards dealt
    hands = ["Ac 3d 3c", "2h 3h Ah", "2d Ad As", "3s 2s 2c"]
    s = BigNumberState.from_hands(game, hands, leader=0)
    play(s, "Ac")
    play(s, "2h")  # a higher single; the beaten Ac is taken at once (X6)
    play(s, "2d Ad")  # one card more (N6); the 2h is taken at once
    play(s, "3s 2s")  # 32 beats 21 (N6, N7): two different cards to choose from (N8)
    ad, two_d = parse_cards("Ad")[0], parse_cards("2d")[0]
    assert np.flatnonzero(s.legal_mask()).tolist() == sorted([PICK_BASE + ad, PICK_BASE + two_d])
    s.apply(PICK_BASE + ad)
    assert s.hands[3][ad] == 1 and s.out[two_d] == 1 and s.current_player == 0
    s.check_invariants()


def test_N16_a_uniform_hand_goes_out_at_once():
    game = small(4, ranks=3, hand_size=3)
    s = BigNumberState.from_hands(game, ["3d 2d Ad", "3h Ah 2s", "3c 2c Ac", "3s 2h As"], leader=0)
    assert s.legal_mask()[PLAY_BASE + game.set_index[parse_cards("3d 2d Ad")]]
    play(s, "3d 2d Ad")  # N12: everything at once ends the deal; the others score their cards
    assert s.is_terminal() and s.history == [[0, 3, 3, 3]] and s.winners() == [0]


def test_N16_the_observation_and_the_bounds_follow_hand_size():
    game = small()
    s = game.new_state(1)
    at = game.layout.slice
    np.testing.assert_array_equal(s.observe(0)[at("hand_sizes")], np.float32(1.0))
    assert game.layout.pieces == BigNumberGame(3).layout.pieces  # the same pieces as the game's
    assert game.score_bounds == (0, 2) and game.score_scale == 2.0


def test_N16_the_heuristic_plays_with_the_variants_play_ids():
    game = small()
    agent = HeuristicAgent(0)
    for seed in range(40):
        s = game.new_state(seed)
        while not s.is_terminal():
            a = agent.act(s.for_player(s.current_player))
            assert a < game.num_actions and s.legal_mask()[a]
            s.apply(a)


def test_N16_the_batched_engine_refuses_a_variant_naming_the_option():
    with pytest.raises(ConfigError, match="option 'ranks' is not supported"):
        vector.make("bignumber", num_envs=2, num_players=3, ranks=2, hand_size=2)
    with pytest.raises(ConfigError, match="option 'hand_size' is not supported"):
        vector.make("bignumber", num_envs=2, num_players=3, hand_size=5)
    assert vector.refusal(BigNumberGame(3)) is None


@pytest.mark.parametrize(
    "options,key",
    [({"ranks": 1}, "ranks"), ({"hand_size": 10}, "hand_size"), ({"ranks": 2}, "hand_size")],
)
def test_N16_sizes_out_of_range_raise_naming_the_option(options, key):
    with pytest.raises(ConfigError, match=f"option '{key}'"):
        BigNumberGame(3, **options)


def test_N16_two_deck_ids_keep_their_meaning():
    game = small(two_decks=True, hand_size=3)
    s = BigNumberState.from_hands(game, ["2c Ac 2d", "2h Ah 2s", "Ad As 2c"], leader=0)
    assert s.legal_mask()[ADD_BASE + parse_cards("2c")[0]]
    s.apply(ADD_BASE + parse_cards("2c")[0])
    assert s.legal_mask()[FINISH]
