"""BigWig: every rulebook example and every ruling B1-B38 of docs/rules/bigwig.md on
explicit positions, plus the pure helper tables."""

import numpy as np
import pytest

from deckzoo.envs import ConfigError, IllegalActionError
from deckzoo.envs.bigwig.cards import (
    DVERGAR,
    FENRIR,
    HOLMGANG,
    HUGIN_MUNIN,
    LOKI,
    MJOLLNIR,
    SURTR,
    TIL_VALHALLAR,
    WELL,
    point_kind,
    standard,
)
from deckzoo.envs.bigwig.rules import (
    JOIN,
    PASS,
    PHASE_COMMIT,
    PHASE_SACRIFICE,
    PHASE_STAKE,
    PHASE_TARGET,
    PHASE_TICKET,
    PLAY_WELL,
    SACRIFICE_BASE,
    TARGET_BASE,
    BigWigGame,
    challenger_of,
    draws_allowed,
    num_actions,
    winners_of,
)

from .helpers import commit, pass_tickets, table

R, Y, B, G = "red", "yellow", "blue", "green"
P2_RED, P2_BLUE = point_kind([R]), point_kind([B])
P3_RG = point_kind([R, G])
P4_RYB = point_kind([R, Y, B])
P5 = point_kind([R, Y, B, G])


def filler(n, k=3, start=0):
    """``n`` hands of ``k`` distinct low standard cards each, disjoint, avoiding any card a test
    names."""
    pool = [standard(c, v) for v in (1, 2) for c in (R, Y, B, G)] + [standard(Y, v) for v in (3, 4)]
    return [pool[start + i * k : start + (i + 1) * k] for i in range(n)]


def sacrifice(state, kind):
    state.apply(SACRIFICE_BASE + kind)
    state.check_invariants()


def stake_action(state, kind):
    return state.game.stake_base + kind


# ---- pure helpers --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "vp,hands,expected",
    [
        ([10, 8, 10], [3, 9, 2], [0]),  # B33: most cards in hand breaks the tie
        ([10, 8, 10], [3, 9, 3], [0, 2]),  # still tied: share
        ([0, 0], [8, 8], [0, 1]),
        ([5, 12], [9, 1], [1]),
    ],
)
def test_b33_winners_table(vp, hands, expected):
    assert winners_of(vp, hands) == expected


@pytest.mark.parametrize(
    "vp,age_rank,expected",
    [
        ([4, 2, 7], [0, 1, 2], 1),
        ([2, 2, 7], [0, 1, 2], 0),  # B24: tie -> youngest
        ([2, 2, 7], [1, 0, 2], 1),
        ([0, 0, 0, 0], [3, 2, 1, 0], 3),
    ],
)
def test_b24_challenger_table(vp, age_rank, expected):
    assert challenger_of(vp, age_rank) == expected


@pytest.mark.parametrize(
    "entitled,hand,drawn", [(3, 5, 3), (3, 7, 2), (3, 8, 1), (2, 9, 0), (1, 8, 1), (2, 1, 2)]
)
def test_b21_draws_capped_by_the_hand_limit(entitled, hand, drawn):
    assert draws_allowed(entitled, hand) == drawn


def test_action_names_are_unique_and_ids_cover_the_space():
    for n in range(2, 7):
        s = BigWigGame(num_players=n).new_state(0)
        names = [s.action_name(a) for a in range(s.game.num_actions)]
        assert s.game.num_actions == num_actions(n) == 109 + n
        assert len(set(names)) == len(names) and not any(x.startswith("<invalid") for x in names)
    assert (
        s.action_name(PLAY_WELL) == "play well" and s.action_name(standard(G, 7)) == "play green 7"
    )


# ---- set-up: B1, B2, B34, options ----------------------------------------------------------------
@pytest.mark.parametrize("n", range(2, 7))
def test_b1_b2_b34_setup(n):
    s = BigWigGame(num_players=n).new_state(n)
    s.check_invariants()
    assert [s.hand_size(p) for p in range(n)] == [8] * n  # 7 large cards + the well
    assert all(s.well)
    assert len(s.draw) == 52 - 7 * n
    assert (
        len(s.small) == 24 - s.round and s.round_card >= 0
    )  # (duel-less holmgangs are skipped, B25)


def test_b1_player_counts_and_bad_options():
    for bad in (1, 7):
        with pytest.raises(ConfigError, match="num_players"):
            BigWigGame(num_players=bad)
    for bad in ([0, 1], [0, 0, 1], [1, 2, 3], "012", [0, 1, True]):
        with pytest.raises(ConfigError, match="age_order"):
            BigWigGame(num_players=3, age_order=bad)
    with pytest.raises(ConfigError, match="colour"):
        BigWigGame(colour="red")
    g = BigWigGame(num_players=3, age_order=(2, 0, 1))
    assert g.config() == {"num_players": 3, "age_order": [2, 0, 1]} and g.turn_order == [2, 0, 1]
    assert BigWigGame(num_players=4, age_order=[2, 3, 0, 1]).turn_order == [2, 3, 0, 1]
    assert BigWigGame(num_players=4, age_order=[2, 0, 1, 3]).turn_order == [
        2,
        3,
        0,
        1,
    ]  # youngest, then clockwise


# ---- rulebook examples ---------------------------------------------------------------------------
def test_example_three_point_trick_won_by_marios_green_7():
    """Point card 3 VP white/red/green; Thade red 3, Mario green 7, Dominik blue 8: Mario wins."""
    thade, mario, dominik = 0, 1, 2
    s = table(
        [
            [standard(R, 3), standard(Y, 1)],
            [standard(G, 7), standard(Y, 2)],
            [standard(B, 8), standard(R, 1)],
        ],
        P3_RG,
    )
    assert s.trump == [True, False, False, True]
    commit(s, {thade: standard(R, 3), mario: standard(G, 7), dominik: standard(B, 8)})
    assert s.collected[mario, P3_RG] == 1 and s.vp().tolist() == [0, 3, 0]
    assert s.last_winner == mario and s.round == 2
    for k in (
        standard(R, 3),
        standard(G, 7),
        standard(B, 8),
    ):  # played cards go to the discard pile
        assert s.discard[k] == 1


def test_example_two_wells_and_thades_green_2():
    """White/blue card; Mario and Dominik play wells, Thade wins with a green 2. Dominik (younger)
    sacrifices a green 5 and draws 2, then Mario sacrifices a red 9 and draws 3."""
    mario, dominik, thade = 0, 1, 2
    top5 = [
        standard(Y, 9),
        standard(B, 9),
        standard(G, 9),
        standard(Y, 8),
        standard(B, 7),
    ]  # drawn in this order
    s = table(
        [
            [standard(R, 9), standard(R, 1)],
            [standard(G, 5), standard(Y, 1)],
            [standard(G, 2), standard(B, 1)],
        ],
        P2_BLUE,
        draw=list(reversed(top5)) + [],
        age_order=[dominik, mario, thade],
    )
    commit(s, {mario: WELL, dominik: WELL, thade: standard(G, 2)})
    assert s.collected[thade, P2_BLUE] == 1  # green is not trump, but it is the only card
    assert s.phase == PHASE_SACRIFICE and s.current_player == dominik  # the youngest first
    assert s.well == [True, True, True]  # wells back in hand
    assert not s.legal_mask()[SACRIFICE_BASE + standard(R, 9)]  # only own cards
    sacrifice(s, standard(G, 5))
    assert (
        s.hands[dominik, top5[0]] == 1
        and s.hands[dominik, top5[1]] == 1
        and s.hand_size(dominik) == 4
    )
    assert s.current_player == mario
    sacrifice(s, standard(R, 9))
    assert all(s.hands[mario, k] == 1 for k in top5[2:]) and s.hand_size(mario) == 5
    assert s.discard[standard(G, 5)] == 1 and s.discard[standard(R, 9)] == 1
    assert s.phase == PHASE_COMMIT and s.round == 2


def test_example_second_holmgang_til_valhallar_hugin_munin_fenrir_mjollnir():
    """Dominik (fewest VP) challenges Mario for his 5 VP card; Thade joins with Til Valhallar.
    Mario's Mjollnir, Dominik's Hugin & Munin, Thade's Fenrir: Fenrir voids H&M, Mjollnir wins;
    Mario keeps the stake and takes the cards under the altar."""
    dominik, mario, thade = 0, 1, 2
    s = table(
        [[HUGIN_MUNIN, standard(R, 1)], [MJOLLNIR, standard(R, 2)], [TIL_VALHALLAR, FENRIR]],
        HOLMGANG,
        collected=[[P2_RED], [P5, P2_BLUE], [P3_RG]],
        altar=[P4_RYB],
        holmgangs=1,
    )
    assert s.holmgangs == 2 and s.phase == PHASE_TARGET and s.challenger == dominik
    mask = s.legal_mask()
    assert mask[TARGET_BASE] and mask[TARGET_BASE + 1] and mask.sum() == 2  # Mario or Thade
    s.apply(TARGET_BASE + 0)  # Mario, one seat to Dominik's left
    assert s.phase == PHASE_STAKE and s.target == mario
    assert np.flatnonzero(s.legal_mask()).tolist() == sorted(
        [stake_action(s, P5), stake_action(s, P2_BLUE)]
    )
    s.apply(stake_action(s, P5))
    assert s.trump == [True] * 4
    assert s.phase == PHASE_TICKET and s.current_player == thade and s.legal_mask()[JOIN]
    s.apply(JOIN)
    assert s.joiners == [thade] and s.discard[TIL_VALHALLAR] == 2  # the ticket is discarded
    assert s.phase == PHASE_COMMIT and s.participants == [dominik, mario, thade]
    commit(s, {mario: MJOLLNIR, dominik: HUGIN_MUNIN, thade: FENRIR})
    assert s.last_winner == mario
    assert s.collected[mario, P5] == 1 and s.collected[mario, P4_RYB] == 1 and not s.altar.any()
    assert s.vp().tolist() == [2, 5 + 2 + 4, 3]


# ---- point-card rounds: B13, B18, B35 ------------------------------------------------------------
def test_b13_tie_sends_the_point_card_under_the_altar():
    s = table([[standard(R, 9)], [standard(G, 9)]], P2_BLUE)
    commit(s, {0: standard(R, 9), 1: standard(G, 9)})
    assert s.altar[P2_BLUE] == 1 and not s.collected.any() and s.last_winner == -1


def test_b18_only_wells_everyone_draws_and_the_card_goes_under_the_altar():
    s = table(
        [[standard(R, 9)], [standard(G, 4)], [standard(B, 1)]],
        P3_RG,
        draw=[
            standard(Y, 5),
            standard(Y, 6),
            standard(Y, 7),
            standard(Y, 8),
            standard(Y, 9),
            standard(G, 9),
        ],
    )
    commit(s, {0: WELL, 1: WELL, 2: WELL})
    assert s.altar[P3_RG] == 1
    for seat, kind, drawn in (
        (0, standard(R, 9), 3),
        (1, standard(G, 4), 2),
        (2, standard(B, 1), 1),
    ):
        assert s.current_player == seat
        before = s.hand_size(seat)
        sacrifice(s, kind)
        assert s.hand_size(seat) == before - 1 + drawn


def test_b35_everyone_plays_every_point_round():
    s = table(filler(5), P2_RED)
    assert s.simultaneous_players() == (0, 1, 2, 3, 4)


# ---- well card: B17, B19-B23 ---------------------------------------------------------------------
def test_b17_the_well_returns_and_cannot_be_sacrificed():
    s = table([[standard(R, 5)], [standard(G, 1)]], P2_RED, draw=[standard(Y, 5), standard(Y, 6)])
    commit(s, {0: WELL, 1: standard(G, 1)})
    assert s.well[0] and s.current_player == 0
    legal = np.flatnonzero(s.legal_mask()).tolist()
    assert legal == [SACRIFICE_BASE + standard(R, 5)]  # the well is no sacrifice option


def test_b19_order_is_youngest_then_clockwise():
    hands = filler(4, k=2)
    draw = [standard(G, v) for v in range(3, 10)]
    s = table(hands, P2_RED, draw=draw, age_order=[2, 0, 3, 1])
    commit(s, {0: WELL, 1: WELL, 2: hands[2][0], 3: WELL})
    seen = []
    while s.phase == PHASE_SACRIFICE:
        seen.append(s.current_player)
        sacrifice(s, int(np.flatnonzero(s.hands[s.current_player])[0]))
    assert seen == [3, 0, 1]  # youngest is seat 2 (not a well player); then clockwise 3, 0, 1


def test_b19_each_player_completes_the_draw_before_the_next_decides():
    s = table(
        [[standard(R, 9)], [standard(G, 9)]],
        P2_RED,
        draw=[standard(Y, 5), standard(Y, 6), standard(Y, 7), standard(Y, 8)],
    )
    commit(s, {0: WELL, 1: WELL})
    sacrifice(s, standard(R, 9))
    assert s.hand_size(0) == 4 and len(s.draw) == 1  # drew 3 before seat 1 decides
    assert s.view(1)["discard"][standard(R, 9)] == 1


def test_b21_hand_limit_caps_the_draw():
    hand = [standard(R, v) for v in range(1, 9)]  # 8 cards + well = 9
    s = table(
        [hand, [standard(G, 1)]], P2_RED, draw=[standard(Y, 5), standard(Y, 6), standard(Y, 7)]
    )
    commit(s, {0: WELL, 1: standard(G, 1)})
    sacrifice(s, standard(R, 8))  # entitled to 3, room for 1
    assert s.hand_size(0) == 9 and len(s.draw) == 2


def test_b22_only_the_well_draws_two_without_a_sacrifice():
    s = table([[], [standard(G, 1)]], P2_RED, draw=[standard(Y, 5), standard(Y, 6), standard(Y, 7)])
    assert np.flatnonzero(s.legal_mask()).tolist() == [PLAY_WELL]
    commit(s, {0: WELL, 1: standard(G, 1)})
    assert (
        s.hand_size(0) == 3 and s.hands[0, standard(Y, 7)] == 1 and s.hands[0, standard(Y, 6)] == 1
    )
    assert s.phase == PHASE_COMMIT  # no sacrifice decision was asked


def test_b23_empty_draw_pile_reshuffles_the_discard_pile_mid_sequence():
    s = table([[standard(R, 9)], [standard(G, 9)]], P2_RED, draw=[standard(Y, 5)])
    discard_before = int(s.discard.sum())
    commit(s, {0: WELL, 1: WELL})
    sacrifice(
        s, standard(R, 9)
    )  # draws the last card, then reshuffles (the red 9 included) and draws 2
    assert s.hand_size(0) == 4
    assert len(s.draw) == discard_before + 1 - 2 and s.discard.sum() == 0
    s.check_invariants()


# ---- holmgang: B12, B24-B31 ----------------------------------------------------------------------
def test_b24_tie_for_fewest_vp_goes_to_the_youngest():
    s = table(filler(3), HOLMGANG, collected=[[], [], [P2_RED]], age_order=[1, 2, 0])
    assert s.challenger == 1 and s.current_player == 1


def test_b25_target_may_be_tied_with_the_challenger_and_needs_a_point_card():
    s = table(filler(4), HOLMGANG, collected=[[P2_RED], [P2_BLUE], [P3_RG], [P4_RYB]])
    assert s.challenger == 0 and s.current_player == 0  # 2 VP tie with seat 1, seat 0 is youngest
    assert np.flatnonzero(s.legal_mask()).tolist() == [
        TARGET_BASE + 0,
        TARGET_BASE + 1,
        TARGET_BASE + 2,
    ]
    s = table(filler(4), HOLMGANG, collected=[[], [], [P2_RED], [P3_RG]])
    assert s.challenger == 0
    assert np.flatnonzero(s.legal_mask()).tolist() == [
        TARGET_BASE + 1,
        TARGET_BASE + 2,
    ]  # not seat 1 (no card)


def test_b25_no_eligible_target_means_no_duel_but_the_card_counts():
    s = table(filler(3), HOLMGANG, later=[P2_RED])
    assert s.holmgangs == 1 and s.round == 2 and s.round_card == P2_RED and s.phase == PHASE_COMMIT


def test_b26_the_challenge_is_mandatory():
    s = table(filler(3), HOLMGANG, collected=[[], [P2_RED], []])
    assert np.flatnonzero(s.legal_mask()).tolist() == [TARGET_BASE + 0]
    with pytest.raises(IllegalActionError):
        s.apply(PASS)


def test_b12_stake_sets_the_trump_colours_and_a_five_overrides_them():
    s = table(
        [[standard(R, 1), standard(Y, 1)], [standard(B, 9), standard(G, 9)]],
        HOLMGANG,
        collected=[[], [P2_RED]],
    )
    s.apply(TARGET_BASE)
    s.apply(stake_action(s, P2_RED))
    assert s.trump == [True, False, False, False]
    commit(s, {0: standard(R, 1), 1: standard(B, 9)})
    assert s.last_winner == 0 and s.collected[0, P2_RED] == 1  # red 1 is trump
    s = table(
        [[SURTR, standard(Y, 1)], [standard(B, 9), standard(G, 9)]],
        HOLMGANG,
        collected=[[], [P2_BLUE]],
    )
    s.apply(TARGET_BASE)
    s.apply(stake_action(s, P2_BLUE))
    commit(s, {0: SURTR, 1: standard(B, 9)})  # Surtr: only red and white are trump
    assert s.last_winner == 0


def test_W_E1_every_onlooker_is_asked_in_age_order_and_joins_are_revealed_together():
    """B27 (W-E1): every onlooker decides, in age order; one without a Til Valhallar can only
    decline. A join stays secret (hand, discard pile, joiners) until every onlooker has decided."""
    hands = [
        [standard(R, 1)],
        [standard(R, 2)],
        [TIL_VALHALLAR, standard(B, 1)],
        [standard(B, 2)],
        [TIL_VALHALLAR],
        [standard(G, 1), standard(G, 2)],
    ]
    s = table(
        hands,
        HOLMGANG,
        collected=[[], [P2_RED], [P2_BLUE], [P3_RG], [P5], []],
        age_order=[0, 5, 1, 2, 3, 4],
    )
    s.apply(TARGET_BASE)  # seat 0 challenges seat 1
    s.apply(stake_action(s, P2_RED))
    assert s.simultaneous_players() == (5, 2, 3, 4)  # the onlookers, youngest first
    holders = {2, 4}
    for p in (5, 2, 3, 4):
        mask = s.legal_mask_for(p)
        assert mask[PASS] and mask[JOIN] == (p in holders) and mask.sum() == 1 + (p in holders)
    asked = []
    while s.phase == PHASE_TICKET:
        p = s.current_player
        asked.append(p)
        assert np.array_equal(s.legal_mask(), s.legal_mask_for(p))
        s.apply(JOIN if p == 4 else PASS)
        s.check_invariants()
        if s.phase == PHASE_TICKET:  # seat 4's decision has not been revealed yet
            assert s.joiners == [] and s.discard[TIL_VALHALLAR] == 0
    assert asked == [5, 2, 3, 4] and s.joiners == [4]
    assert s.discard[TIL_VALHALLAR] == 1 and s.participants == [0, 1, 4]
    assert s.hand_size(4) == 1  # only the well is left: it must play it
    assert s.legal_mask_for(4).sum() == 1 and s.legal_mask_for(4)[PLAY_WELL]
    assert s.legal_mask_for(2).sum() == 0  # B28: seat 2 passed and only watches


def test_W_E1_onlookers_follow_age_order_not_seat_order():
    """Ages 0, 3, 1, 4, 2: the onlookers' age order is 3, 4, 2 (youngest-then-clockwise would ask
    2 first); every one of them is asked, with a Til Valhallar or not."""
    hands = [[standard(R, 1)], [standard(R, 2)], [TIL_VALHALLAR], [TIL_VALHALLAR], [standard(G, 1)]]
    s = table(hands, HOLMGANG, collected=[[], [P2_RED], [], [], []], age_order=[0, 3, 1, 4, 2])
    s.apply(TARGET_BASE)
    s.apply(stake_action(s, P2_RED))
    asked = []
    while s.phase == PHASE_TICKET:
        asked.append(s.current_player)
        s.apply(PASS)
    assert asked == [3, 4, 2] and s.joiners == []


def test_W_E1_without_a_holder_every_onlooker_still_declines():
    """Nobody holds a Til Valhallar: the onlooker is still asked, with "do not join" its only
    choice; joining is illegal and changes nothing."""
    s = table(
        [[standard(R, 1)], [standard(R, 2)], [standard(B, 1)]],
        HOLMGANG,
        collected=[[], [P2_RED], []],
    )
    s.apply(TARGET_BASE)
    s.apply(stake_action(s, P2_RED))
    assert s.phase == PHASE_TICKET and s.simultaneous_players() == (2,)
    assert np.flatnonzero(s.legal_mask()).tolist() == [PASS]
    before = s.to_dict()
    with pytest.raises(IllegalActionError, match="94"):
        s.apply(JOIN)
    assert s.to_dict() == before
    s.apply(PASS)
    assert s.phase == PHASE_COMMIT and s.simultaneous_players() == (0, 1)


def test_W_E1_two_players_have_no_ticket_window():
    s = table([[TIL_VALHALLAR], [standard(R, 2)]], HOLMGANG, collected=[[], [P2_RED]])
    s.apply(TARGET_BASE)
    s.apply(stake_action(s, P2_RED))
    assert s.phase == PHASE_COMMIT and s.simultaneous_players() == (0, 1)


def test_W_E1_several_joiners_decide_unaware_of_each_other():
    """Seats 2 and 3 both join: seat 3 decides on the same view whether seat 2 joined or not, and
    both joins are revealed together, in age order."""
    hands = [
        [standard(R, 1)],
        [standard(R, 2)],
        [TIL_VALHALLAR, standard(G, 9)],
        [TIL_VALHALLAR, standard(B, 9)],
    ]
    worlds = []
    for first in (JOIN, PASS):
        s = table(hands, HOLMGANG, collected=[[], [P2_RED], [], []], age_order=[0, 1, 3, 2])
        s.apply(TARGET_BASE)
        s.apply(stake_action(s, P2_RED))
        assert s.current_player == 3  # seat 3 is older than seat 2 here: age order 3, 2
        s.apply(first)
        worlds.append(s)
    a, b = worlds
    assert a.current_player == b.current_player == 2
    for p in range(4):
        if p != 3:  # only seat 3 knows its own decision
            assert a.view(p) == b.view(p) and np.array_equal(a.observe(p), b.observe(p))
        assert np.array_equal(a.legal_mask_for(p), b.legal_mask_for(p))
    a.apply(JOIN)
    assert a.joiners == [3, 2] and a.participants == [0, 1, 2, 3]
    assert a.discard[TIL_VALHALLAR] == 2 and a.hands[2:, TIL_VALHALLAR].sum() == 0


def test_b27_duellists_are_not_asked_and_tickets_do_not_cancel():
    s = table(
        [[TIL_VALHALLAR, standard(R, 1)], [standard(R, 2)], [TIL_VALHALLAR, standard(G, 1)]],
        HOLMGANG,
        collected=[[], [P2_RED], []],
    )
    s.apply(TARGET_BASE)
    s.apply(stake_action(s, P2_RED))
    assert s.current_player == 2  # seat 0 (a duellist holding a ticket) is not asked
    s.apply(JOIN)
    commit(s, {0: TIL_VALHALLAR, 1: standard(R, 2), 2: standard(G, 1)})
    assert s.last_winner == 1  # trump red 2 beats the white 0; the ticket is not in the trick


def test_b28_only_duellists_and_joiners_play_and_draw():
    hands = filler(3, k=2)
    s = table(hands, HOLMGANG, collected=[[], [P2_RED], []], draw=[standard(G, 9), standard(G, 8)])
    s.apply(TARGET_BASE)
    s.apply(stake_action(s, P2_RED))
    pass_tickets(s)
    assert s.simultaneous_players() == (0, 1)
    before = s.hands[2].copy()
    commit(s, {0: WELL, 1: hands[1][0]})
    assert (s.hands[2] == before).all()
    assert s.phase == PHASE_SACRIFICE and s.current_player == 0


def test_b29_joiner_winner_takes_the_stake_from_the_target_and_the_altar():
    s = table(
        [[standard(R, 1)], [standard(R, 2)], [TIL_VALHALLAR, standard(G, 9)]],
        HOLMGANG,
        collected=[[], [P2_BLUE, P2_RED], []],
        altar=[P3_RG, P2_RED],
    )
    s.apply(TARGET_BASE)
    s.apply(stake_action(s, P2_BLUE))
    s.apply(JOIN)
    commit(
        s, {0: standard(R, 1), 1: standard(R, 2), 2: standard(G, 9)}
    )  # blue trump: nobody; green 9 highest
    assert s.last_winner == 2
    assert s.collected[2].tolist() == np.bincount([P2_BLUE, P3_RG, P2_RED], minlength=15).tolist()
    assert s.collected[1, P2_BLUE] == 0 and s.collected[1, P2_RED] == 1 and not s.altar.any()


def test_b29_challenger_wins_the_stake():
    s = table([[MJOLLNIR], [standard(R, 2)]], HOLMGANG, collected=[[], [P2_RED]], altar=[P5])
    s.apply(TARGET_BASE)
    s.apply(stake_action(s, P2_RED))
    commit(s, {0: MJOLLNIR, 1: standard(R, 2)})
    assert s.vp().tolist() == [7, 0]


def test_b29_no_winner_leaves_stake_and_altar():
    s = table(
        [[standard(B, 9)], [standard(G, 9)]],
        HOLMGANG,
        collected=[[], [P2_RED]],
        altar=[P5],
        draw=[standard(Y, 9), standard(Y, 8), standard(Y, 7), standard(Y, 6)],
    )
    s.apply(TARGET_BASE)
    s.apply(stake_action(s, P2_RED))
    commit(s, {0: standard(B, 9), 1: standard(G, 9)})  # no trump, tie at 9
    assert s.last_winner == -1 and s.collected[1, P2_RED] == 1 and s.altar[P5] == 1
    s = table(
        [[standard(B, 9)], [standard(G, 9)]],
        HOLMGANG,
        collected=[[], [P2_RED]],
        altar=[P5],
        draw=[standard(Y, 9), standard(Y, 8), standard(Y, 7), standard(Y, 6)],
    )
    s.apply(TARGET_BASE)
    s.apply(stake_action(s, P2_RED))
    commit(s, {0: WELL, 1: WELL})  # only wells: no winner, both draw
    assert s.collected[1, P2_RED] == 1 and s.altar[P5] == 1 and s.phase == PHASE_SACRIFICE


def test_b30_holmgang_cards_are_counters_only():
    s = table(filler(2), HOLMGANG, later=[HOLMGANG, P2_RED], holmgangs=0)
    assert s.holmgangs == 2 and s.round_card == P2_RED  # two duel-less holmgangs in a row
    assert not s.altar.any() and not s.collected.any()


def test_b31_loki_in_a_holmgang_after_the_winner_took_the_altar_finds_nothing():
    s = table([[LOKI], [MJOLLNIR]], HOLMGANG, collected=[[], [P2_RED]], altar=[P5])
    s.apply(TARGET_BASE)
    s.apply(stake_action(s, P2_RED))
    commit(s, {0: LOKI, 1: MJOLLNIR})
    assert s.collected[1].sum() == 2 and s.collected[0].sum() == 0


# ---- Loki in a point round (B15, B11 order) ------------------------------------------------------
def test_b15_loki_takes_all_when_lowest():
    s = table([[LOKI], [standard(R, 9)], [standard(B, 5)]], P2_RED, altar=[P5, P3_RG])
    commit(s, {0: LOKI, 1: standard(R, 9), 2: standard(B, 5)})
    assert s.collected[1, P2_RED] == 1
    assert s.collected[0, P5] == 1 and s.collected[0, P3_RG] == 1 and not s.altar.any()


def test_b15_loki_not_lowest_takes_one_random_card():
    got = set()
    for seed in range(12):
        s = table([[LOKI], [standard(R, 1)]], P2_BLUE, altar=[P5, P3_RG], seed=seed)
        commit(s, {0: LOKI, 1: standard(R, 1)})
        assert s.collected[0, P2_BLUE] == 1 and s.collected[0].sum() == 2 and s.altar.sum() == 1
        got.add(int(np.flatnonzero(s.collected[0] - np.eye(15, dtype=int)[P2_BLUE])[0]))
    assert got == {P5, P3_RG}  # a blind pick: both outcomes occur


def test_b11_loki_acts_after_the_point_card_went_under_the_altar():
    s = table([[LOKI], [standard(R, 9)], [standard(B, 9)]], P2_BLUE, altar=[])
    commit(s, {0: LOKI, 1: standard(R, 9), 2: standard(B, 9)})  # blue 9 (trump) wins here
    assert s.collected[2, P2_BLUE] == 1
    s = table([[LOKI], [MJOLLNIR], [MJOLLNIR]], P2_BLUE)
    commit(s, {0: LOKI, 1: MJOLLNIR, 2: MJOLLNIR})  # tie: under the altar, then Loki takes it
    assert s.collected[0, P2_BLUE] == 1 and not s.altar.any()


def test_b9_two_lokis_in_a_trick_take_nothing():
    s = table([[LOKI], [LOKI], [standard(R, 9)]], P2_BLUE, altar=[P5])
    commit(s, {0: LOKI, 1: LOKI, 2: standard(R, 9)})
    assert s.altar[P5] == 1


def test_dvergar_in_the_engine():
    s = table([[DVERGAR], [standard(R, 1)], [standard(B, 2)], [FENRIR]], P2_BLUE)
    commit(s, {0: DVERGAR, 1: standard(R, 1), 2: standard(B, 2), 3: FENRIR})
    assert s.last_winner == 3  # Fenrir voids Dvergar
    s = table([[DVERGAR], [standard(R, 1)], [standard(B, 2)], [standard(G, 9)]], P2_BLUE)
    commit(s, {0: DVERGAR, 1: standard(R, 1), 2: standard(B, 2), 3: standard(G, 9)})
    assert s.last_winner == 1  # lowest non-trump


# ---- end and scoring: B32, B33 -------------------------------------------------------------------
def test_b32_game_ends_after_the_fourth_holmgang_round_and_its_draws():
    s = table(
        [[standard(R, 9)], [standard(B, 9)]],
        HOLMGANG,
        collected=[[P2_RED], [P3_RG]],
        holmgangs=3,
        altar=[P5],
        draw=[standard(Y, 9), standard(Y, 8), standard(Y, 7)],
    )
    assert s.holmgangs == 4 and s.challenger == 0
    s.apply(TARGET_BASE)
    s.apply(stake_action(s, P3_RG))
    commit(s, {0: WELL, 1: standard(B, 9)})
    assert not s.is_terminal() and s.phase == PHASE_SACRIFICE  # the draws still belong to the round
    sacrifice(s, standard(R, 9))
    assert s.is_terminal() and s.current_player is None
    assert s.vp().tolist() == [2, 3 + 5]  # seat 1 won the duel: keeps the stake, takes the altar
    assert len(s.small) > 0  # unrevealed point cards score for nobody
    assert s.winners() == [1]
    with pytest.raises(IllegalActionError, match="over"):
        s.apply(0)


def test_b32_duel_less_fourth_holmgang_ends_at_once():
    s = table(filler(2), HOLMGANG, holmgangs=3)
    assert s.is_terminal() and s.winners() == [0, 1]  # 0 VP each, 4 cards each: shared


def test_b33_tie_break_by_cards_in_hand():
    s = table(
        [[standard(R, 9), standard(R, 8)], [standard(B, 9)]],
        HOLMGANG,
        collected=[[P2_RED], [P2_BLUE]],
        holmgangs=3,
    )
    s.apply(TARGET_BASE)
    s.apply(stake_action(s, P2_BLUE))
    commit(s, {0: WELL, 1: WELL})
    assert s.is_terminal() is False
    sacrifice(s, standard(R, 9))  # seat 0 draws up, seat 1 sacrifices its last card
    sacrifice(s, standard(B, 9))
    assert s.is_terminal() and s.vp().tolist() == [2, 2]
    sizes = [s.hand_size(p) for p in range(2)]
    assert sizes[0] > sizes[1] and s.winners() == [0]
    assert s.returns().tolist() == [1.0, -1.0]


# ---- information: B36, X5 ------------------------------------------------------------------------
def test_b36_x5_commits_stay_hidden_until_the_reveal():
    s = table(filler(3), P2_RED, altar=[P5])
    views = {p: s.view(p) for p in range(3)}
    obs = {p: s.observe(p) for p in range(3)}
    masks = {p: s.legal_mask_for(p) for p in range(3)}
    s.apply(int(np.flatnonzero(s.legal_mask())[0]))  # seat 0 commits
    for p in (1, 2):
        assert s.view(p) == views[p] and np.array_equal(s.observe(p), obs[p])
        assert np.array_equal(s.legal_mask_for(p), masks[p])
    assert s.view(0)["my_commit"] is not None and s.view(0)["to_act"] is False
    assert s.view(1)["hand_sizes"] == [4, 4, 4]  # the face-down card still counts
    assert s.view(1)["altar"][P5] == 1  # identities under the altar are public


def test_b38_holding_only_the_well_always_leaves_a_legal_card():
    s = table([[], []], P2_RED, draw=[], discard=None)
    assert s.legal_mask().sum() == 1 and s.legal_mask()[PLAY_WELL]


def test_illegal_actions_raise_and_change_nothing():
    s = table(filler(3), P2_RED)
    before = s.to_dict()
    for a in (SACRIFICE_BASE, JOIN, TARGET_BASE, standard(G, 9), 10_000, -1, 1.5, None):
        with pytest.raises(IllegalActionError):
            s.apply(a)
    assert s.to_dict() == before


def test_state_round_trips_mid_holmgang():
    s = table(
        [[TIL_VALHALLAR], [standard(R, 2)], [TIL_VALHALLAR]], HOLMGANG, collected=[[], [P2_RED], []]
    )
    s.apply(TARGET_BASE)
    s.apply(stake_action(s, P2_RED))
    s.apply(JOIN)
    s.apply(PLAY_WELL)
    back = type(s).from_dict(s.to_dict())
    assert back == s and back.clone() == s
    assert back.simultaneous_players() == s.simultaneous_players() == (1, 2)
