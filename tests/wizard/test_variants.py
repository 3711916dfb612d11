"""Ruling W14: a small variant of Wizard plays a smaller deck; every other rule is the game's."""

from __future__ import annotations

import numpy as np
import pytest

from deckzoo.agents.heuristics.wizard import HeuristicAgent, foresight_win_chance
from deckzoo.envs import vector
from deckzoo.envs.core.errors import ConfigError
from deckzoo.envs.variants import variant_game
from deckzoo.envs.wizard.cards import NO_TRUMP, NULL, NUM_KINDS, WIZARD, make_card
from deckzoo.envs.wizard.rules import (
    PHASE_BID,
    PHASE_TRUMP,
    TRUMP_BASE,
    WizardGame,
    WizardState,
    encode_bid,
)

EIGHT = {"suits": 2, "ranks": 3, "wizards": 1, "nulls": 1}  # Dwarves and Humans 1-3, W, N


def kinds(game: WizardGame) -> list[int]:
    return np.repeat(np.arange(NUM_KINDS), game.deck_counts).tolist()


def stacked(game: WizardGame, head: list[int], dealer: int = 0, rnd: int = 1) -> WizardState:
    """Round ``rnd`` dealt from a deck that starts with ``head`` (the rest in any order)."""
    rest = kinds(game)
    for c in head:
        rest.remove(c)
    s = game.new_state(0)
    s.first_dealer = dealer
    s.deal(rnd, dealer, deck=head + rest)
    return s


def test_w14_the_deck_is_the_ranks_of_the_first_suits_with_the_wizards_and_nulls():
    game = WizardGame(3, **EIGHT)
    d1, d3, h1, h3 = make_card(0, 1), make_card(0, 3), make_card(1, 1), make_card(1, 3)
    assert kinds(game) == [d1, d1 + 1, d3, h1, h1 + 1, h3, WIZARD, NULL]
    assert game.deck_size == 8 and game.num_actions == WizardGame(3).num_actions - 18
    # the kinds keep their ids: the same pieces as the rulebook game's for the same rounds
    assert game.layout.pieces == WizardGame(3, num_rounds=2).layout.pieces
    assert WizardGame(3, num_rounds=1, **EIGHT) == variant_game("wizard_small")


def test_w14_a_full_game_plays_the_rounds_the_deck_deals_and_a_last_round_with_a_stock_flips():
    three = WizardGame(3, **EIGHT)  # 8 cards: rounds of 3 and 6 cards, each with a stock
    four = WizardGame(4, **EIGHT)  # rounds of 4 and 8: the last one deals the whole deck
    assert (three.rounds, four.rounds) == (2, 2)
    s = stacked(three, [], rnd=2)
    assert s.flipped >= 0 and s.stock.sum() == 1
    t = stacked(four, [], rnd=2)
    assert t.flipped == -1 and t.trump == NO_TRUMP and t.stock.sum() == 0
    rng = np.random.default_rng(0)
    for game in (three, four):
        for seed in range(30):
            s = game.new_state(seed)
            while not s.is_terminal():
                s.check_invariants()
                s.apply(int(rng.choice(s.legal_actions())))
            assert len(s.history) == 2


def test_w14_a_flipped_wizard_lets_the_dealer_name_only_a_suit_of_the_deck():
    game = WizardGame(3, num_rounds=1, **EIGHT)
    d2, h3 = make_card(0, 2), make_card(1, 3)
    s = stacked(game, [d2, h3, NULL, WIZARD], dealer=2)
    assert s.phase == PHASE_TRUMP and s.current_player == 2
    assert np.flatnonzero(s.legal_mask()).tolist() == [TRUMP_BASE, TRUMP_BASE + 1]
    assert not s.is_legal(TRUMP_BASE + 2) and not s.is_legal(TRUMP_BASE + 3)
    a = HeuristicAgent(0).act(s.for_player(2))
    assert a in (TRUMP_BASE, TRUMP_BASE + 1)
    s.apply(a)
    assert s.phase == PHASE_BID and s.trump in (0, 1)
    saved = WizardState.from_dict(s.to_dict())
    assert saved == s


def test_w14_the_foresight_round_is_played_as_in_the_game():
    game = variant_game("wizard_small")
    d1, h3 = make_card(0, 1), make_card(1, 3)
    s = stacked(game, [d1, WIZARD, h3, NULL], dealer=0)  # seat 1 holds D1, 2 the Wizard, 0 H3
    assert s.trump == NO_TRUMP and s.own_hand_hidden(1)
    view = s.view(1)
    assert view["hand"] is None
    # seat 1 sees the Wizard and H3: its own card (D1, D2, D3, H1, H2) can never win
    assert foresight_win_chance(view, game.deck_counts) == 0.0
    s.apply(encode_bid(0))
    s.apply(encode_bid(1))
    assert not s.is_legal(encode_bid(0))  # W6: the dealer may not make the bids total 1
    s.apply(encode_bid(1))
    while not s.is_terminal():
        s.apply(int(s.legal_actions()[0]))
    assert s.history[0]["tricks_won"] == [0, 0, 1] and s.scores().tolist() == [-10, 20, 30]


def test_w14_the_batched_engine_refuses_a_variant_naming_the_option():
    with pytest.raises(ConfigError, match="option 'suits' is not supported"):
        vector.make("wizard", num_envs=2, num_players=3, **EIGHT)
    with pytest.raises(ConfigError, match="option 'nulls' is not supported"):
        vector.make("wizard", num_envs=2, num_players=3, nulls=2)


@pytest.mark.parametrize(
    "options,key",
    [
        ({"suits": 0}, "suits"),
        ({"ranks": 0}, "ranks"),
        ({"wizards": 5}, "wizards"),
        ({"nulls": -1}, "nulls"),
        ({"suits": 1, "ranks": 1, "wizards": 1, "nulls": 0}, "suits"),  # 2 cards, 3 players
    ],
)
def test_w14_a_deck_out_of_range_raises_naming_the_option(options, key):
    with pytest.raises(ConfigError, match=f"'{key}'"):
        WizardGame(3, **options)
