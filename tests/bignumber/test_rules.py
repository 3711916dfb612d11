"""Big Number rulebook examples and every ruling N1-N15 of docs/rules/bignumber.md (plus the
cross-game X rulings the engine relies on), each on an explicit position; none depends on what a
seed deals."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from deckzoo.envs.bignumber.actions import (
    ADD_BASE,
    ANSWER,
    FINISH,
    LEAD,
    NUM_ACTIONS_ONE_DECK,
    NUM_ACTIONS_TWO_DECKS,
    OVER,
    PASS,
    PICK,
    PICK_BASE,
    PLAY_BASE,
)
from deckzoo.envs.bignumber.cards import HAND_SIZE, NUM_TYPES, SET_INDEX, parse_card
from deckzoo.envs.bignumber.rules import BigNumberGame
from deckzoo.envs.core.errors import ConfigError, IllegalActionError

from .util import ANNA, BEN, CARLA, DAN, can_play, cards, game, hand, pass_, play, position, take

BOTH = pytest.mark.parametrize("two_decks", [False, True], ids=["one_deck", "two_decks"])
EXAMPLE = (
    "4d 8d 6d 2d Ac 2c 3c 4c 5c",  # Anna; with Ben, Carla and Dan: all 36 cards (N3, 4 players)
    "7s 9c 9d 9h 9s 8c 8h 8s Ad",
    "5h 3h 7c 7d 7h Ah 2h 3d 5d",
    "6c 6s 2s 3s 4s 5s 4h 6h As",
)


def legal(s) -> list[int]:
    return np.flatnonzero(s.legal_mask()).tolist()


def c(text: str) -> int:
    return parse_card(text)


# ---- rulebook examples ----------------------------------------------------------------------
@BOTH
def test_rulebook_worked_example(two_decks):
    """Anna 4d, Ben 7s, Carla 5h3h, Dan 6c6s, Anna 8d6d2d, all pass, Anna leads."""
    s = position(game(4, two_decks=two_decks), *EXAMPLE, leader=ANNA)
    play(s, "4d")
    assert s.middle == cards("4d") and s.phase == ANSWER and s.current_player == BEN
    play(s, "7s")  # ... and takes the 4d (a single card: automatic, X6)
    assert s.hands[BEN][c("4d")] == 1 and s.middle == cards("7s") and s.current_player == CARLA
    play(s, "5h 3h")  # 53 on a 7: one card more; must take the 7s
    assert s.hands[CARLA][c("7s")] == 1 and s.middle == cards("5h 3h") and s.current_player == DAN
    play(s, "6c 6s")  # 66 > 53
    assert s.phase == PICK and s.current_player == DAN
    assert legal(s) == sorted([PICK_BASE + c("5h"), PICK_BASE + c("3h")])
    take(s, "5h")  # ... the 3h goes out of play
    assert s.out[c("3h")] == 1 and s.hands[DAN][c("5h")] == 1 and s.current_player == ANNA
    play(s, "8d 6d 2d")  # 862
    assert legal(s) == sorted([PICK_BASE + c("6c"), PICK_BASE + c("6s")])
    take(s, "6s")  # ... and takes a 6
    for _ in (BEN, CARLA, DAN):
        pass_(s)
    assert s.phase == LEAD and s.current_player == ANNA and s.middle == () and s.owner is None
    assert sorted(np.flatnonzero(s.out).tolist()) == sorted(cards("3h 6c 8d 6d 2d"))
    assert [sum(h) for h in s.hands] == [6, 9, 8, 8]
    assert PASS not in legal(s)  # Anna leads the next round with a single card


def test_rulebook_scoring_example():
    """Carla plays her last two cards; Anna 3, Ben 1, Dan 5 cards score 3, 1 and 5 points."""
    s = position(game(4), "9h 8h 7c", "9c 2s", "5h 3h", "Ac 2c 3c 4c 5c", leader=BEN)
    play(s, "9c")
    play(s, "5h 3h")  # empties Carla's hand: no pick-up, the deal ends at once (N9)
    assert s.history == [[3, 1, 0, 5]] and s.scores_ == [3, 1, 0, 5]
    assert s.deal == 1 and s.deal_start == CARLA == s.current_player  # next deal: left of Ben (N4)
    assert [sum(h) for h in s.hands] == [HAND_SIZE] * 4 and s.phase == LEAD


def test_rulebook_lower_card_helps():
    """ "on an 8 you may play 3s 3h (33), because two cards may follow one"."""
    s = position(game(2), "8c 9d", "3s 3h 2h", leader=ANNA)
    play(s, "8c")
    assert can_play(s, "3s 3h") and not can_play(s, "3s") and not can_play(s, "2h")


# ---- N1-N4: decks, duplicates, deal, start players --------------------------------------------
@pytest.mark.parametrize(
    "n,two_decks,copies",
    [
        (2, None, 1),
        (3, None, 1),
        (4, None, 1),
        (5, None, 2),
        (6, None, 2),
        (3, True, 2),
        (4, True, 2),
        (4, False, 1),
        (6, True, 2),
    ],
)
def test_N1_deck_by_player_count(n, two_decks, copies):
    g = BigNumberGame(n, two_decks=two_decks)
    assert g.copies == copies and g.two_decks == (copies == 2)
    assert g.num_actions == (NUM_ACTIONS_TWO_DECKS if copies == 2 else NUM_ACTIONS_ONE_DECK)
    s = g.new_state(1)
    assert (
        np.asarray(s.aside) + np.sum(s.hands, axis=0) == copies
    ).all()  # Ace-9 of 4 suits, x copies


@pytest.mark.parametrize("n,two_decks", [(2, True), (5, False), (6, False)])
def test_N1_two_decks_option_range(n, two_decks):
    with pytest.raises(ConfigError, match="two_decks"):
        BigNumberGame(n, two_decks=two_decks)


def test_N2_a_suit_set_may_hold_a_card_twice():
    s = position(game(3, two_decks=True), "9c 9d", "7h 7h 2h 8s", "8d 8c 4s", leader=ANNA)
    play(s, "9c")
    pass_(s)  # Ben
    play(s, "8d 8c")  # Carla: 88, one more than the 9; takes the 9c
    pass_(s)  # Anna
    assert can_play(s, "7h 7h 2h")  # 772: one suit with the 7h twice
    assert not can_play(s, "7h 7h")  # one suit and one rank, but 77 < 88
    play(s, "7h 7h 2h")
    assert legal(s) == sorted([PICK_BASE + c("8d"), PICK_BASE + c("8c")])


def test_N2_picking_up_a_duplicate_is_one_choice():
    s = position(game(3, two_decks=True), "2s 3s", "7h 7h 5c", "9c 9d 9s 4d", leader=ANNA)
    play(s, "2s")
    play(s, "7h 7h")  # Ben: 77 on a 2; takes the 2s
    play(s, "9c 9d 9s")  # Carla: one card more; both beaten cards are a 7h: no decision (X6)
    assert s.phase == ANSWER and s.current_player == ANNA
    assert s.hands[CARLA][c("7h")] == 1 and s.out[c("7h")] == 1 and hand(s, BEN) == cards("5c 2s")


@pytest.mark.parametrize("n,copies", [(2, 1), (3, 1), (4, 1), (5, 2), (6, 2)])
def test_N3_deal_nine_each_rest_aside_unseen(n, copies):
    s = BigNumberGame(n).new_state(7)
    assert [sum(h) for h in s.hands] == [HAND_SIZE] * n
    assert sum(s.aside) == 36 * copies - 9 * n  # 2p: 18, 4p: 0, 6p: 18
    view = s.view(0)
    assert "aside" not in view and view["hand_sizes"] == [HAND_SIZE] * n
    assert sorted(view["hand"]) == sorted(d for d in range(NUM_TYPES) for _ in range(s.hands[0][d]))


def test_N4_random_first_start_player_then_clockwise():
    g = game(4, target=30)
    assert {g.new_state(seed).deal_start for seed in range(40)} == {0, 1, 2, 3}  # seeded chance
    assert all(game(4, start_player=2).new_state(seed).current_player == 2 for seed in range(5))
    s = g.new_state(3)
    rng = np.random.default_rng(0)
    starts = [s.deal_start]
    while not s.is_terminal():
        deal = s.deal
        s.apply(int(rng.choice(legal(s))))
        if s.deal != deal and not s.is_terminal():
            assert s.current_player == s.deal_start and s.phase == LEAD
            starts.append(s.deal_start)
    assert len(starts) >= 3
    assert all(b == (a + 1) % 4 for a, b in itertools.pairwise(starts))


# ---- N5-N7: leads and answers ------------------------------------------------------------------
@BOTH
def test_N5_lead_is_exactly_one_card_and_mandatory(two_decks):
    s = position(game(4, two_decks=two_decks), *EXAMPLE, leader=ANNA)
    mask = s.legal_mask()
    assert not mask[PASS]
    if two_decks:
        assert legal(s) == sorted(ADD_BASE + d for d in cards(EXAMPLE[0]))
        s.apply(ADD_BASE + c("8d"))
        assert legal(s) == [FINISH]  # no second card on a lead
    else:
        assert legal(s) == sorted(PLAY_BASE + SET_INDEX[(d,)] for d in cards(EXAMPLE[0]))


def test_N6_same_size_higher_or_one_more_never_two_more():
    s = position(game(2), "5s 2c", "5h 6h 3h 4h 9s 9c", leader=ANNA)
    play(s, "5s")
    assert not can_play(s, "5h")  # equal value does not beat
    assert can_play(s, "6h") and can_play(s, "3h 4h") and can_play(s, "9s 9c")
    assert not can_play(s, "3h 4h 5h") and not can_play(s, "9s 6h")  # two more; not a set
    play(s, "4h 3h")
    assert s.middle == cards("4h 3h")  # 43


def test_N6_N7_same_size_compares_the_numbers():
    s = position(game(2), "8s 5s 9d", "9h 4h 8c 2c 7d 7s", leader=ANNA)
    play(s, "9d")
    pass_(s)  # Ben passes: with 2 players one pass ends the round (N11), Anna leads again
    assert s.phase == LEAD and s.current_player == ANNA
    play(s, "5s")
    assert not can_play(s, "7d 7s 2c")  # not a set
    play(s, "9h 4h")  # 94 (takes the 5s)
    assert legal(s) == [PASS]  # Anna's single 8 cannot answer two cards
    pass_(s)
    play(s, "8c")  # Ben leads
    assert legal(s) == [PASS]  # Anna's 8s does not beat an 8 (strictly higher, N6)


# ---- N8-N9: pick-up and going out ----------------------------------------------------------------
def test_N8_pick_up_is_a_mandatory_choice_and_the_rest_goes_out_publicly():
    s = position(game(3), "2h 9c", "7s 6s 5s Ad", "Ac 2c 3c 8h", leader=ANNA)
    play(s, "2h")
    play(s, "7s 6s")  # Ben: 76; takes the 2h
    play(s, "3c 2c Ac")  # Carla: 321, one card more
    assert s.phase == PICK and s.current_player == CARLA
    assert legal(s) == sorted([PICK_BASE + c("7s"), PICK_BASE + c("6s")])  # no pass, no other play
    with pytest.raises(IllegalActionError):
        s.apply(PASS)
    take(s, "6s")
    assert s.out[c("7s")] == 1 and s.hands[CARLA][c("6s")] == 1
    for p in range(3):
        v = s.view(p)
        assert (
            v["out_of_play"] == [c("7s")]
            and v["known"][CARLA] == [c("6s")]
            and v["known"][BEN] == [c("2h")]
        )


@pytest.mark.parametrize("single_deal", [False, True])
def test_N9_playing_the_last_card_ends_the_deal_without_pick_up(single_deal):
    s = position(game(3, single_deal=single_deal), "2c 5h 6h", "9h", "Ac 3d", leader=ANNA)
    play(s, "2c")
    play(s, "9h")  # Ben's last card
    assert s.history == [[2, 0, 2]]
    if single_deal:
        assert s.is_terminal() and sum(s.hands[BEN]) == 0 and s.winners() == [BEN]
    else:
        assert s.deal == 1 and s.out == [0] * NUM_TYPES  # a new deal: nothing out of play yet


# ---- N10-N11: passing and the end of a round -----------------------------------------------------
def test_N10_passing_is_only_for_this_turn():
    s = position(game(3), "2c 7c 9h", "8c 3d 4s", "5c 6h As", leader=ANNA)
    play(s, "2c")
    assert can_play(s, "8c")
    pass_(s)  # Ben could have played the 8c
    play(s, "5c")  # Carla, takes the 2c
    play(s, "7c")  # Anna, takes the 5c
    assert s.current_player == BEN and can_play(s, "8c") and s.legal_mask()[PASS]


def test_N11_round_ends_after_all_others_pass_in_a_row():
    s = position(game(4), *EXAMPLE, leader=ANNA)
    play(s, "2c")
    pass_(s)  # Ben
    pass_(s)  # Carla
    play(s, "4s")  # Dan, takes the 2c
    assert s.passes == 0 and s.passed == []
    pass_(s)  # Anna
    pass_(s)  # Ben
    assert s.phase == ANSWER and s.current_player == CARLA and s.passed == [ANNA, BEN]
    pass_(s)  # Carla: three in a row
    assert s.phase == LEAD and s.current_player == DAN and s.middle == () and s.out[c("4s")] == 1


def test_N11_everyone_passes_on_a_lead_and_the_leader_leads_again():
    s = position(game(3), "9c 2d", "Ac 3d", "2s 3s", leader=ANNA)
    play(s, "9c")
    pass_(s)
    pass_(s)
    assert (
        s.phase == LEAD
        and s.current_player == ANNA
        and s.out[c("9c")] == 1
        and hand(s, ANNA) == cards("2d")
    )


def test_N11_never_asked_to_answer_your_own_set():
    s = position(game(2), "5c 6c", "7c 8c", leader=ANNA)
    play(s, "5c")
    play(s, "7c")  # Ben takes the 5c
    assert s.current_player == ANNA
    pass_(s)
    assert s.phase == LEAD and s.current_player == BEN  # not asked to beat his own 7c


# ---- N12: everything at once ---------------------------------------------------------------------
@BOTH
def test_N12_everything_at_once_when_leading_a_uniform_hand(two_decks):
    g = game(3, two_decks=two_decks)
    s = position(g, "9h 4h 2h", "Ac 3d 5s", "2s 3s", leader=ANNA)
    assert can_play(s, "9h 4h 2h") and can_play(s, "4h")
    play(s, "9h 4h 2h")  # the deal ends at once; Anna scores 0
    assert s.history == [[0, 3, 2]]
    t = position(g, "6c 6d 6s", "Ac 3d 5s", "2s 3s", leader=ANNA)
    assert can_play(t, "6c 6d 6s") and not can_play(t, "6c 6d")  # the whole hand or one card
    u = position(g, "9h 4h 2c", "Ac 3d 5s", "2s 3s", leader=ANNA)
    assert not can_play(u, "9h 4h") and not can_play(u, "9h 4h 2c")


def test_N12_only_when_leading():
    s = position(game(2), "4d 7c", "9h 8h 7h", leader=ANNA)
    play(s, "4d")
    assert not can_play(s, "9h 8h 7h")  # Ben's uniform hand answers only by N6 (3 cards on 1: no)
    assert can_play(s, "9h 8h")


def test_N12_a_one_card_hand_leads_out():
    s = position(game(2), "5c", "9h 8h 7c", leader=ANNA)
    play(s, "5c")
    assert s.history == [[0, 3]]


# ---- N13: scoring, target, ties, single deal -----------------------------------------------------
def test_N13_game_ends_when_a_player_reaches_the_target():
    s = position(
        game(4, target=15),
        "9h 8h 7c",
        "9c 2s",
        "5h 3h",
        "Ac 2c 3c 4c 5c",
        leader=BEN,
        scores=[11, 5, 9, 10],
    )
    play(s, "9c")
    play(s, "5h 3h")
    assert (
        s.scores_ == [14, 6, 9, 15]
        and s.is_terminal()
        and s.phase == OVER
        and s.current_player is None
    )
    assert s.winners() == [BEN] and s.returns().tolist() == pytest.approx(
        [-1 / 3, 1, -1 / 3, -1 / 3]
    )


def test_N13_below_the_target_the_game_goes_on():
    s = position(
        game(4, target=20),
        "9h 8h 7c",
        "9c 2s",
        "5h 3h",
        "Ac 2c 3c 4c 5c",
        leader=BEN,
        scores=[11, 5, 9, 10],
    )
    play(s, "9c")
    play(s, "5h 3h")
    assert not s.is_terminal() and s.scores_ == [14, 6, 9, 15] and s.deal == 1


def test_N13_tied_players_share_the_win():
    s = position(
        game(4, target=15), "9h", "9c 2s 4d", "5h 3h", "Ac 2c", leader=BEN, scores=[5, 3, 10, 13]
    )
    play(s, "9c")
    play(s, "5h 3h")
    assert s.scores_ == [6, 5, 10, 15]
    s2 = position(
        game(4, target=15), "9h", "9c 2s", "5h 3h", "Ac 2c", leader=BEN, scores=[5, 5, 10, 13]
    )
    play(s2, "9c")
    play(s2, "5h 3h")
    assert s2.scores_ == [6, 6, 10, 15] and s2.winners() == [ANNA, BEN]
    assert s2.returns().tolist() == pytest.approx([0.5, 0.5, -0.5, -0.5])


def test_N13_single_deal_fewest_cards_wins():
    s = position(game(3, single_deal=True), "2c 5h 6h", "9h 3d", "Ac 3c", leader=ANNA)
    play(s, "2c")
    play(s, "9h")  # Ben takes the 2c
    play(s, "3c Ac")  # Carla: 31 on a 9, her last cards
    assert s.is_terminal() and s.scores_ == [2, 2, 0] and s.winners() == [CARLA]


@pytest.mark.parametrize(
    "options,key",
    [
        ({"target": 0}, "target"),
        ({"target": "15"}, "target"),
        ({"target": 15.0}, "target"),
        ({"single_deal": 1}, "single_deal"),
        ({"start_player": 4}, "start_player"),
        ({"start_player": -1}, "start_player"),
        ({"two_decks": "yes"}, "two_decks"),
        ({"decks": 2}, "decks"),
    ],
)
def test_bad_options_name_the_key(options, key):
    with pytest.raises(ConfigError, match=key):
        BigNumberGame(4, **options)


# ---- N14, X7: information ------------------------------------------------------------------------
def test_N14_view_hides_other_hands_and_the_aside_cards():
    s = position(game(3), "2h 9c", "7s 6s 5s Ad", "Ac 2c 3c 8h", leader=ANNA)
    v = s.view(BEN)
    assert v["hand"] == list(cards("7s 6s 5s Ad")) and "hands" not in v and "aside" not in v
    assert v["hand_sizes"] == [2, 4, 4]
    det = s.determinize(BEN, np.random.default_rng(0))
    assert det.hands[BEN] == s.hands[BEN] and [sum(h) for h in det.hands] == [2, 4, 4]
    det.check_invariants()
    assert any(
        det.determinize(BEN, np.random.default_rng(k)).hands[ANNA] != s.hands[ANNA]
        for k in range(10)
    )


def test_X7_picked_up_cards_stay_known_until_played():
    s = position(game(3), "2h 9c 3s", "7s 6s 5s Ad", "Ac 2c 3c 8h", leader=ANNA)
    g = s.game
    play(s, "2h")
    play(s, "7s 6s")  # Ben takes the 2h: everybody saw it
    known = g.layout.split(s.observe(ANNA))["known"]  # relative seats: Ben is 1 to Anna's left
    assert known[1, c("2h")] == 1 and known.sum() == 1
    rng = np.random.default_rng(1)
    for _ in range(5):  # determinizing never moves a known card
        assert s.determinize(CARLA, rng).hands[BEN][c("2h")] == 1
    pass_(s)  # Carla
    pass_(s)  # Anna: Ben leads
    play(s, "2h")
    assert s.known[BEN] == [0] * NUM_TYPES


# ---- X6 and the two-deck card-by-card plays ------------------------------------------------------
def test_X6_pick_up_is_asked_only_when_there_is_a_choice():
    s = position(game(2), "4d 5d 2c", "7s 9h 8h", leader=ANNA)
    play(s, "4d")
    play(s, "7s")  # one beaten card: taken automatically
    assert s.phase == ANSWER and s.current_player == ANNA and s.hands[BEN][c("4d")] == 1


def test_two_decks_card_by_card_masks_are_exact_prefixes():
    s = position(game(3, two_decks=True), "5c 8s", "9h 7h 7h 2h", "Ad 2d 3s", leader=ANNA)
    play(s, "5c")
    pass_(s)
    play(s, "2d Ad")  # Carla: 21 on a 5
    s.apply(PASS)  # Anna
    # Ben against 21: pairs above 21 and every triple: 97, 92, 77, 72 and 977, 972, 772.
    assert legal(s) == sorted([PASS, ADD_BASE + c("9h"), ADD_BASE + c("7h")])
    s.apply(ADD_BASE + c("7h"))
    assert legal(s) == sorted(
        [ADD_BASE + c("7h"), ADD_BASE + c("2h")]
    )  # no pass once started, no 9 after a 7
    assert s.view(BEN)["selection"] == [c("7h")] and s.view(ANNA)["selection"] == []
    s.apply(ADD_BASE + c("7h"))
    assert legal(s) == sorted([ADD_BASE + c("2h"), FINISH])  # 77 is a play; 772 too
    s.apply(ADD_BASE + c("2h"))
    assert legal(s) == [FINISH]
    s.apply(FINISH)
    assert s.phase == PICK and s.middle == cards("2d Ad") and s.pending == cards("7h 7h 2h")


def test_two_decks_lead_builds_the_whole_hand_only_when_uniform():
    s = position(game(3, two_decks=True), "9h 9h 4h", "Ac 3d", "2s 3s", leader=ANNA)
    s.apply(ADD_BASE + c("9h"))
    assert legal(s) == sorted([ADD_BASE + c("9h"), FINISH])
    s.apply(ADD_BASE + c("9h"))
    assert legal(s) == [ADD_BASE + c("4h")]
    s.apply(ADD_BASE + c("4h"))
    s.apply(FINISH)
    assert s.history == [[0, 2, 2]]


def test_determinize_drops_another_seats_selection_in_progress():
    s = position(game(3, two_decks=True), "9h 9h 4h", "Ac 3d", "2s 3s", leader=ANNA)
    s.apply(ADD_BASE + c("9h"))
    det = s.determinize(BEN, np.random.default_rng(0))
    assert det.pending == () and det.view(BEN) == s.view(BEN)
    mine = s.determinize(ANNA, np.random.default_rng(0))
    assert mine.pending == cards("9h") and np.array_equal(mine.legal_mask(), s.legal_mask())


# ---- N15: termination ----------------------------------------------------------------------------
@pytest.mark.parametrize("n,two_decks", [(2, False), (4, False), (4, True), (6, True)])
def test_N15_every_round_removes_a_card_from_the_hands(n, two_decks):
    g = BigNumberGame(n, two_decks=two_decks, single_deal=True)
    rng = np.random.default_rng(n)
    for seed in range(30):
        s = g.new_state(seed)
        in_hands = sum(map(sum, s.hands))
        while not s.is_terminal():
            s.apply(int(rng.choice(legal(s))))
            if s.phase == LEAD and not s.pending:  # a new round (not a lead being built)
                now = sum(map(sum, s.hands))
                assert now < in_hands
                in_hands = now


@pytest.mark.parametrize(
    "hands", [("9h 9h", "2c"), ("9h", ""), ("Ac 2c 3c 4c 5c 6c 7c 8c 9c 9h", "2d")]
)
def test_from_hands_refuses_impossible_positions(hands):
    with pytest.raises(ValueError, match="not a Big Number position"):
        position(game(2), *hands)


def test_N_D1_known_cards_never_read_the_secret_hand():
    """Two two-deck worlds with the same public history: seat 0 picks up a 7h and then leads a 7h.
    In one world seat 0 was also dealt a 7h. What the others know must not tell the worlds apart."""
    worlds = []
    for seat0 in ("8c 7h 2s", "8c 3d 2s"):
        s = position(game(3, two_decks=True), seat0, "7h 5c 4c", "9d 6s 2d", leader=BEN)
        play(s, "7h")  # Ben leads the 7h
        pass_(s)  # Carla
        play(s, "8c")  # Anna beats it and picks up the 7h (a choice of one)
        pass_(s)
        pass_(s)  # Ben and Carla pass: Anna leads
        play(s, "7h")
        worlds.append(s)
    a, b = worlds
    assert a.hands[ANNA][c("7h")] == 1 and b.hands[ANNA][c("7h")] == 0  # the worlds do differ
    for p in (BEN, CARLA):
        assert a.view(p) == b.view(p)
        np.testing.assert_array_equal(a.observe(p), b.observe(p))
    assert a.view(BEN)["known"][ANNA] == []
