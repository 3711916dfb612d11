"""Wizard: every rulebook example and every ruling W1-W13 of docs/rules/wizard.md, on explicit
positions built from stacked decks (tests/wizard/helpers.py)."""

import numpy as np
import pytest

from deckzoo.envs import ConfigError, IllegalActionError
from deckzoo.envs.wizard.cards import LED_FREE, NO_TRUMP, TRUMP_PENDING, WIZARD
from deckzoo.envs.wizard.rules import (
    BID_BASE,
    PHASE_BID,
    PHASE_PLAY,
    PHASE_TRUMP,
    TRUMP_BASE,
    WizardGame,
)

from .helpers import bid_all, card, cards, encode_bid, encode_trump, play, stacked

D, H, E, G = range(4)


def legal_bids(state):
    return [a - BID_BASE for a in state.legal_actions()]


def legal_cards(state):
    return sorted(int(a) for a in state.legal_actions())


# ---- W1, W2, W12: players, deck, rounds --------------------------------------------------------
@pytest.mark.parametrize("n", [3, 4, 5, 6, 10, 12])
def test_w1_supported_player_counts_deal_round_one(n):
    s = WizardGame(num_players=n).new_state(n)
    s.check_invariants()
    assert s.hand_sizes == [1] * n and s.round == 1
    assert WizardGame.supported_players() == (3, 4, 5, 6, 10, 12)


@pytest.mark.parametrize("n", [2, 7, 8, 9, 11, 13])
def test_w1_other_player_counts_are_rejected(n):
    with pytest.raises(ConfigError, match="num_players"):
        WizardGame(num_players=n)


@pytest.mark.parametrize(
    "options,key",
    [
        ({"num_rounds": 0}, "num_rounds"),
        ({"num_rounds": 16}, "num_rounds"),
        ({"num_rounds": 2.0}, "num_rounds"),
        ({"num_rounds": True}, "num_rounds"),
        ({"foresight": "yes"}, "foresight"),
        ({"foresight": 1}, "foresight"),
        ({"first_dealer": 4}, "first_dealer"),
        ({"first_dealer": -1}, "first_dealer"),
        ({"trumps": 1}, "trumps"),
    ],
)
def test_bad_options_name_the_key(options, key):
    with pytest.raises(ConfigError, match=key):
        WizardGame(num_players=4, **options)


def test_num_rounds_sizes_the_bid_actions():
    assert WizardGame(num_players=3).num_actions == 59 + 20
    assert WizardGame(num_players=3, num_rounds=4).num_actions == 59 + 4
    assert WizardGame(num_players=12).num_actions == 59 + 5
    assert WizardGame(num_players=3, num_rounds=20).rounds == 20


@pytest.mark.parametrize("n", [10, 12])
def test_w1_w12_full_game_round_r_deals_r_and_the_last_round_deals_all_60_without_trump(n):
    s = WizardGame(num_players=n, first_dealer=0).new_state(1)
    rng = np.random.default_rng(0)
    seen_rounds = []
    while not s.is_terminal():
        if not seen_rounds or seen_rounds[-1] != s.round:
            seen_rounds.append(s.round)
            assert s.hand_sizes == [s.round] * n
            assert s.dealer == (s.round - 1) % n  # the dealer rotates clockwise
            if s.round == 60 // n:
                assert s.stock.sum() == 0 and s.flipped == -1 and s.trump == NO_TRUMP
                assert s.view(0)["flipped"] is None and s.view(0)["trump"] == NO_TRUMP
            else:
                assert s.flipped >= 0 and s.stock.sum() == 60 - n * s.round - 1
        s.apply(int(rng.choice(s.legal_actions())))
    assert seen_rounds == list(range(1, 60 // n + 1))
    assert len(s.history) == 60 // n


def test_num_rounds_option_plays_the_first_k_rounds_and_round_k_still_flips():
    s = WizardGame(num_players=4, num_rounds=2, first_dealer=3).new_state(2)
    rng = np.random.default_rng(1)
    rounds = set()
    while not s.is_terminal():
        rounds.add(s.round)
        if s.round == 2:
            assert s.flipped >= 0
        s.apply(int(rng.choice(s.legal_actions())))
    assert rounds == {1, 2} and len(s.history) == 2


# ---- W3: dealer, bidding order, leads ---------------------------------------------------------
def test_w3_first_dealer_is_chance_or_option():
    assert {WizardGame(num_players=5).new_state(seed).dealer for seed in range(80)} == set(range(5))
    assert WizardGame(num_players=5, first_dealer=3).new_state(0).dealer == 3


def test_w3_left_of_dealer_bids_first_and_leads_then_the_trick_winner_leads():
    s = stacked(["E2 D3", "E9 D4", "E5 D5", "E1 D6"], flipped="H1", dealer=2)
    order = []
    while s.phase == PHASE_BID:
        order.append(s.current_player)
        s.apply(encode_bid(0) if s.current_player != 2 else encode_bid(1))
    assert order == [3, 0, 1, 2]
    assert s.current_player == 3  # left of the dealer leads the first trick
    play(s, "E1", "E2", "E9", "E5")  # player 1's Elves 9 wins
    assert s.tricks_won == [0, 1, 0, 0] and s.current_player == 1
    play(s, "D4", "D5", "D6", "D3")  # player 3's Dwarves 6 wins the last trick
    assert (
        s.round == 3 and s.dealer == 3 and s.current_player == 0
    )  # next round: next dealer, left bids


# ---- W4: trump -------------------------------------------------------------------------------
def test_w4_flipped_suit_is_trump_and_public():
    s = stacked(["E2 D3", "E9 D4", "E5 D5"], flipped="G7", dealer=0)
    assert s.trump == G and s.phase == PHASE_BID
    for p in range(3):
        assert s.view(p)["flipped"] == card("G7") and s.view(p)["trump"] == G


def test_w4_flipped_null_means_no_trump():
    s = stacked(["E2 D3", "E9 D4", "E5 D5"], flipped="N", dealer=0)
    assert s.trump == NO_TRUMP and s.phase == PHASE_BID
    bid_all(s, [0, 0, 1])
    play(s, "E9", "E5", "E2")  # player 1 leads; no trump: highest Elves
    assert s.tricks_won == [0, 1, 0]


def test_w4_flipped_wizard_dealer_chooses_a_suit_before_any_bid():
    s = stacked(["E2 D3", "E9 D4", "E5 D5"], flipped="W", dealer=1)
    assert s.phase == PHASE_TRUMP and s.current_player == 1 and s.trump == TRUMP_PENDING
    assert legal_cards(s) == [TRUMP_BASE + k for k in range(4)]  # one of 4 suits, never "no trump"
    obs = s.game.layout.split(s.observe(0))
    assert (
        obs["trump"].sum() == 0
        and obs["phase"].tolist() == [1, 0, 0]
        and obs["flipped"][WIZARD] == 1
    )
    assert s.view(0)["trump"] is None and s.view(0)["bids"] == [None, None, None]
    with pytest.raises(IllegalActionError):
        s.apply(encode_bid(0))
    s.apply(encode_trump(D))
    assert s.trump == D and s.phase == PHASE_BID and s.current_player == 2
    bid_all(s, [1, 0, 0])
    play(s, "E5", "E2")
    assert legal_cards(s) == [card("E9")]  # player 1 holds Elves: Dwarves (trump) may not be played


def test_w4_chosen_trump_wins_tricks():
    s = stacked(["E2 D3", "D4 H9", "E5 D5"], flipped="W", dealer=1)
    s.apply(encode_trump(D))
    bid_all(s, [1, 0, 0])
    play(s, "E5", "E2", "D4")  # player 1 has no Elves: trumps with Dwarves 4
    assert s.tricks_won == [0, 1, 0]


def test_w4_round_one_dealer_chooses_trump_without_seeing_own_card():
    s = stacked(["E2", "G9", "H5"], flipped="W", dealer=0)
    assert s.phase == PHASE_TRUMP and s.current_player == 0
    v = s.view(0)
    assert v["hand"] is None and v["foresight_hands"] == [None, [card("G9")], [card("H5")]]


# ---- W5: Foresight ---------------------------------------------------------------------------
def test_w5_foresight_hides_own_card_and_shows_the_others_until_play():
    s = stacked(["E2", "G9", "W"], flipped="H3", dealer=2)
    game = s.game
    for p in range(3):
        v = s.view(p)
        assert v["hand"] is None
        assert v["foresight_hands"][p] is None
        assert all(v["foresight_hands"][q] == [s.hands[q].argmax()] for q in range(3) if q != p)
        obs = game.layout.split(s.observe(p))
        assert obs["hand"].sum() == 0 and obs["hand_hidden"][0] == 1
        for r in range(1, 3):  # relative seats
            q = (p + r) % 3
            assert obs["foresight"][r - 1].argmax() == s.hands[q].argmax()
    bid_all(s, [0, 1, 1])
    assert s.phase == PHASE_PLAY
    for p in range(3):  # "When it's time to play, your card is revealed to you"
        v = s.view(p)
        assert v["hand"] == np.flatnonzero(s.hands[p]).tolist()
        assert all(
            v["foresight_hands"][q] == np.flatnonzero(s.hands[q]).tolist()
            for q in range(3)
            if q != p
        )
        assert game.layout.split(s.observe(p))["hand_hidden"][0] == 0
    assert legal_cards(s) == [card("E2")]  # the play is forced


def test_w5_foresight_off_is_an_ordinary_round():
    s = stacked(["E2", "G9", "W"], flipped="H3", dealer=2, foresight=False)
    v = s.view(0)
    assert v["hand"] == [card("E2")] and v["foresight_hands"] is None
    assert s.game.layout.split(s.observe(0))["foresight"].sum() == 0


def test_w5_foresight_applies_to_round_one_only():
    s = stacked(["E2 E3", "G9 G8", "W N"], flipped="H3", dealer=2)
    assert s.view(0)["hand"] == cards("E2 E3") and s.view(0)["foresight_hands"] is None


def test_w5_determinize_in_foresight_resamples_only_the_own_card():
    s = stacked(["E2", "G9", "W"], flipped="H3", dealer=2)
    rng = np.random.default_rng(0)
    own = set()
    for _ in range(200):
        d = s.determinize(0, rng)
        assert (
            d.hands[1].tolist() == s.hands[1].tolist()
            and d.hands[2].tolist() == s.hands[2].tolist()
        )
        assert d.view(0) == s.view(0)
        d.check_invariants()
        own.add(int(d.hands[0].argmax()))
    assert card("G9") not in own and card("H3") not in own  # seen cards are never one's own
    assert len(own) > 30 and WIZARD in own  # (3 Wizards left unseen)
    bid_all(s, [0, 1, 1])
    d = s.determinize(0, rng)  # in the play phase nothing is hidden: only the generator changes
    assert np.array_equal(d.hands, s.hands) and np.array_equal(d.stock, s.stock)


# ---- W6: bidding ------------------------------------------------------------------------------
def test_w6_rulebook_dealer_restriction_example_round_3():
    """ "Round 3, others predicted a total of 2. The dealer cannot predict 1 (because 2+1=3)." """
    s = stacked(["E1 E2 E3", "G1 G2 G3", "H1 H2 H3", "D1 D2 D3"], flipped="N", dealer=3)
    s.apply(encode_bid(1))
    s.apply(encode_bid(0))
    s.apply(encode_bid(1))
    assert s.current_player == 3
    assert legal_bids(s) == [0, 2, 3]
    before = s.to_dict()
    with pytest.raises(IllegalActionError, match="legal actions are"):
        s.apply(encode_bid(1))
    assert s.to_dict() == before


def test_w6_round_one_dealer_must_avoid_the_total():
    s = stacked(["E1", "G1", "H1"], flipped="N", dealer=2)
    s.apply(encode_bid(0))
    s.apply(encode_bid(0))
    assert legal_bids(s) == [0]  # others total 0: may not bid 1
    s = stacked(["E1", "G1", "H1"], flipped="N", dealer=2)
    s.apply(encode_bid(1))
    s.apply(encode_bid(0))
    assert legal_bids(s) == [1]  # others total 1: may not bid 0
    s = stacked(["E1", "G1", "H1"], flipped="N", dealer=2)
    s.apply(encode_bid(1))
    s.apply(encode_bid(1))
    assert legal_bids(s) == [0, 1]  # already over: no restriction


def test_w6_non_dealers_bid_0_to_r_and_bids_are_public():
    s = stacked(["E1 E2 E3 E4", "G1 G2 G3 G4", "H1 H2 H3 H4"], flipped="N", dealer=0)
    assert legal_bids(s) == [0, 1, 2, 3, 4]
    s.apply(encode_bid(4))
    assert legal_bids(s) == [0, 1, 2, 3, 4]
    s.apply(encode_bid(0))
    assert legal_bids(s) == [1, 2, 3, 4]  # dealer: not 0 (4 + 0 = 4)
    for p in range(3):
        assert s.view(p)["bids"] == [None, 4, 0]
        obs = s.game.layout.split(s.observe(p))
        assert obs["bid_pending"].tolist() == [1.0 if (p + r) % 3 == 0 else 0.0 for r in range(3)]


# ---- W7, W8: following suit, special leads -------------------------------------------------
def test_w7_must_follow_but_wizard_and_null_any_time():
    s = stacked(["E5 G2 W N", "E9 E1 D3 H3", "D1 D2 D4 D5"], flipped="H1", dealer=2)
    bid_all(s, [1, 1, 1])
    play(s, "E5")
    assert legal_cards(s) == sorted(cards("E9 E1"))  # player 1 must follow Elves
    with pytest.raises(IllegalActionError):
        play(s, "H3")  # not even trump may be played while holding Elves
    play(s, "E1")
    assert legal_cards(s) == sorted(cards("D1 D2 D4 D5"))  # player 2 is void: anything
    play(s, "D1")
    assert s.view(0)["voids"] == [[], [], [E]]  # W7: failing to follow shows the void
    assert s.tricks_won == [1, 0, 0]
    assert legal_cards(s) == sorted(cards("G2 W N"))  # the winner leads anything


def test_w7_null_led_next_numbered_card_sets_the_suit():
    s = stacked(["N E5", "G9 E9", "G2 G4"], flipped="H1", dealer=2)
    bid_all(s, [1, 1, 1])
    play(s, "N")
    assert s.led == -1 and legal_cards(s) == sorted(cards("G9 E9"))  # nothing to follow yet
    play(s, "G9")
    assert s.led == G and legal_cards(s) == sorted(cards("G2 G4"))
    play(s, "G2")
    assert s.tricks_won == [0, 1, 0]


def test_w8_null_led_then_wizard_everyone_plays_anything_and_the_wizard_wins():
    s = stacked(["N E5", "W E9", "G2 E4", "E1 H13"], flipped="H1", dealer=3)
    bid_all(s, [0, 1, 0, 0])
    play(s, "N", "W")
    assert s.led == LED_FREE
    assert legal_cards(s) == sorted(cards("G2 E4"))
    play(s, "G2")
    assert legal_cards(s) == sorted(cards("E1 H13"))
    play(s, "H13")  # even a high trump loses to the Wizard
    assert s.tricks_won == [0, 1, 0, 0] and s.current_player == 1


def test_wizard_led_frees_everyone_and_wins():
    s = stacked(["W E5", "E9 G1", "E13 E12"], flipped="E1", dealer=2)
    bid_all(s, [2, 0, 1])
    play(s, "W")
    assert legal_cards(s) == sorted(cards("E9 G1"))
    play(s, "G1", "E13")
    assert s.tricks_won == [1, 0, 0] and s.view(1)["voids"] == [
        [],
        [],
        [],
    ]  # no suit led: no void shown


def test_w9_first_of_several_wizards_wins():
    s = stacked(["E5 E6", "W E9", "W G1"], flipped="H1", dealer=0)
    bid_all(s, [1, 1, 1])
    play(s, "W", "W", "E5")  # player 1 leads
    assert s.tricks_won == [0, 1, 0]


def test_w9_all_nulls_first_null_wins_and_leads_next():
    s = stacked(["N E5", "N E9", "N G1"], flipped="H1", dealer=2)
    bid_all(s, [1, 0, 0])
    play(s, "N", "N", "N")
    assert s.tricks_won == [1, 0, 0] and s.current_player == 0


def test_w9_highest_trump_beats_higher_led_suit():
    s = stacked(["E13 D1", "G2 D2", "G3 D3", "E1 D4"], flipped="G7", dealer=3)
    bid_all(s, [0, 0, 0, 0])
    play(s, "E13", "G2", "G3", "E1")
    assert s.tricks_won == [0, 0, 1, 0]


# ---- W10, W11: scoring and the end ------------------------------------------------------------
def test_w10_round_scoring_examples_in_a_played_round():
    s = stacked(
        ["W W W", "E1 E2 E3", "D1 D2 D3"],
        flipped="N",
        dealer=2,
        num_rounds=3,
        rnd=3,
        scores=[100, 0, -30],
    )
    bid_all(s, [3, 0, 2])
    play(s, "W", "E1", "D1", "W", "E2", "D2", "W", "E3", "D3")
    assert s.is_terminal()
    # predict 3 win 3 = +50; predict 0 win 0 = +20; predict 2 win 0 = -20
    assert s.history[-1]["deltas"] == [50, 20, -20]
    assert s.scores().tolist() == [150, 20, -50]
    assert s.winners() == [0]
    assert s.returns().tolist() == [1.0, -0.5, -0.5]


def test_w11_game_ends_after_the_last_round():
    s = stacked(["W", "E1", "D1"], flipped="N", dealer=0, num_rounds=1)
    s.apply(encode_bid(1))  # player 1
    s.apply(encode_bid(0))  # player 2
    s.apply(encode_bid(1))  # dealer: 1 + 0 + 1 = 2, allowed
    play(s, "E1", "D1", "W")  # the dealer's Wizard wins
    assert s.is_terminal() and s.current_player is None and s.legal_mask().sum() == 0
    assert s.scores().tolist() == [30, -10, 20] and s.winners() == [0]
    with pytest.raises(IllegalActionError, match="game is over"):
        s.apply(0)


def test_w11_ties_share_the_win():
    s = stacked(["W", "E1", "D1"], flipped="N", dealer=0, num_rounds=1)
    s.apply(encode_bid(0))
    s.apply(encode_bid(0))
    assert legal_bids(s) == [0]  # others total 0: the dealer may not bid 1
    s.apply(encode_bid(0))
    play(s, "E1", "D1", "W")
    assert s.scores().tolist() == [-10, 20, 20]
    assert s.winners() == [1, 2]
    assert s.returns().tolist() == [-1.0, 0.5, 0.5]
