"""Midgard engine scenarios built from explicit states and played through ``apply``: set-up,
laying down, relocation, Claiming for Gods, travel and benefits, challenges, battles, spoils,
Krog, reshuffles, the calendar end, the stall safeguard and the turn cap."""

from __future__ import annotations

import numpy as np
import pytest

from deckzoo.envs import ConfigError, IllegalActionError
from deckzoo.envs.midgard.challenge_list import open_one, refill
from deckzoo.envs.midgard.rules import (
    BONUS,
    BUILD,
    CHALLENGE,
    CLAIM,
    DEFEND,
    DISCARD_REQ,
    KEEP,
    KROG,
    ONSLAUGHT,
    PREP,
    RELOCATE,
    RESERVE,
    SPOILS,
    TAKE,
    MidgardGame,
    winners_of,
)

from .util import (
    DATA,
    SNEDIG,
    TYR,
    A,
    act,
    at,
    blank,
    ch,
    complete,
    give,
    k,
    ks,
    legal,
    pass_forced,
    troop,
    world,
)

# ---- set-up (M8) ------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_setup(n):
    s = MidgardGame(n).new_state(11)
    p = s.current_player
    assert s.mode == PREP and p == s.active == s.start_player
    sizes = s.hands.sum(axis=1)
    assert sizes[p] == 10 and all(
        sizes[q] == 9 for q in range(n) if q != p
    )  # dealt 9, Hiring drew 1
    assert (s.coins == 6).all() and s.skat == 50 - 6 * n
    assert len(s.open) >= 6 and (s.world == 0).all() and s.calendar == 0 and s.turn == 1
    s.check_invariants()


def test_setup_open_another_cascade():
    # Bjorkun - Trade - Fenrir - Scots - Dispute of Runes - Saxons: Dispute of Runes asks for a 7th,
    # which is Crossing the Storm, which asks for an 8th.
    s = blank(4)
    order = [
        "Bjorkun",
        "Trade",
        "Fenrir",
        "Scots",
        "Dispute of Runes",
        "Saxons",
        "Crossing the Storm",
        "Jotun",
        "Hel",
    ]
    s.ch_deck = [ch(x) for x in reversed(order)]
    complete(s)
    refill(s)
    assert [DATA.challenges[c].name for c in s.open] == order[:8]
    assert s.ch_deck[-1] == ch("Hel")


def test_fenrir_opening_sends_everyone_to_midgard_m34b():
    s = blank(3)
    s.world[:] = [3, 5, 0]
    s.ch_deck = [ch("Fenrir")]
    complete(s)
    open_one(s)
    assert (s.world == 0).all()


# ---- laying down, completing, relocating ----------------------------------------------


def test_lay_down_a_troop_step_by_step_and_cancel():
    s = blank(3)
    give(s, 0, *ks("Kriger - Berserker - Bueskytter - Snedig"), TYR)
    complete(s)
    at(s, 0, PREP)
    assert legal(s, "new_troop")
    act(s, "new_troop")
    assert s.mode == BUILD and not legal(s, "finish")
    assert not legal(s, "place_tyr", A.PENDING, 4)  # start with a natural card
    act(s, "place_class", A.PENDING, 3)
    act(s, "place_class", A.PENDING, 2)
    assert not legal(s, "place_class", A.PENDING, 9)  # not adjacent
    act(s, "place_tyr", A.PENDING, 5)  # Tyr as Bueskytter
    assert legal(s, "finish")  # Kriger - Berserker - Tyr
    act(s, "cancel")
    assert s.mode == PREP and s.pending is None and s.hands[0, TYR] == 1 and s.hands[0, 3] == 1
    act(s, "new_troop")
    for c in (2, 3, 4):
        act(s, "place_class", A.PENDING, c)
    act(s, "place_snedig", A.PENDING, 1)
    act(s, "finish")
    assert s.troops[0] == [troop("Kriger - Berserker - Bueskytter - Snedig")]
    s.check_invariants()


def test_five_troops_at_most_m19():
    s = blank(3)
    s.troops[0] = [troop("Hyggelig - Skålde - Kriger") for _ in range(5)]
    give(s, 0, *ks("Berserker - Bueskytter - Sjømann"))
    complete(s)
    at(s, 0, PREP)
    assert not legal(s, "new_troop")


def test_complete_own_troop_with_relocation_choice():
    s = blank(3)
    s.troops[0] = [troop("Skålde - Tyr - Berserker - Bueskytter - Sjømann - Snedig")]
    give(s, 0, k("Kriger"))
    complete(s)
    at(s, 0, PREP)
    act(s, "place_class", 0, 2)
    assert s.mode == RELOCATE and s.stack[-1].wild == TYR
    assert [a for a in s.legal_actions()] == [A.encode("relocate", 0), A.encode("relocate", 1)]
    s.check_invariants()
    act(s, "relocate", 1)
    assert s.mode == PREP
    assert s.troops[0][0] == troop(
        "Skålde - Kriger - Berserker - Bueskytter - Sjømann - Tyr - Snedig"
    )


def test_thor_relocation_is_automatic_with_one_place():
    s = blank(3)
    s.troops[0] = [troop("Skålde - Thor - Bueskytter - Sjømann - Snedig")]
    give(s, 0, k("Kriger"), k("Berserker"))
    complete(s)
    at(s, 0, PREP)
    assert not legal(s, "place_class", 0, 3)  # Berserker alone cannot free Thor
    act(s, "place_class", 0, 2)
    assert s.mode == PREP
    assert s.troops[0][0] == troop(
        "Skålde - Kriger - Berserker - Bueskytter - Sjømann - Thor - Snedig"
    )
    assert s.hands[0].sum() == 0


# ---- Claiming for Gods (M21, M22) -------------------------------------------------------


def test_claiming_needs_troops_laid_down_in_a_previous_turn():
    s = blank(3)
    s.troops[1] = [troop("Skålde - Tyr - Berserker - Bueskytter - Sjømann - Snedig")]  # Alfred
    give(s, 0, k("Kriger"), *ks("Hyggelig - Skålde - Sjømann"))
    complete(s)
    at(s, 0, PREP)
    s.had_troops = False
    assert not legal(s, "claim_target", 0, 0)
    s.had_troops = True
    s.invalidate()
    assert legal(s, "claim_target", 0, 0)  # Beatrice
    act(s, "claim_target", 0, 0)
    assert s.mode == CLAIM and legal(s, "cancel")
    act(s, "claim", 3, 0)  # the Kriger into the Tyr's slot: take the Tyr
    assert s.troops[1][0] == troop("Skålde - Kriger - Berserker - Bueskytter - Sjømann - Snedig")
    assert s.hands[0, TYR] == 1 and s.hands[0, 2] == 0 and s.mode == PREP
    s.check_invariants()


def test_catherin_snedig_claimed_with_a_tyr():
    s = blank(3)
    s.troops[2] = [
        troop("Berserker - Bueskytter - Sjømann - Snedig")
    ]  # Catherin, seat +2 from Alfred
    s.troops[0] = [troop("Kriger - Berserker - Bueskytter")]
    give(s, 0, TYR)
    complete(s)
    at(s, 0, PREP)
    s.had_troops = True
    act(s, "claim_target", 1, 0)
    act(s, "claim", 11, 2)  # put the Tyr on the right flank, take the Snedig
    assert s.troops[2][0] == troop("Berserker - Bueskytter - Sjømann - Tyr", flank_tyr="right")
    assert s.hands[0, SNEDIG] == 1
    act(s, "place_snedig", 0, 1)  # and Alfred lays it down in his own troop
    assert s.troops[0][0] == troop("Kriger - Berserker - Bueskytter - Snedig")


# ---- travel (M23-M26) -------------------------------------------------------------------


def _onslaught(n=3, troops=(), hand=(), thing_top=(), **kw):
    s = blank(n)
    s.troops[0] = [troop(t) for t in troops]
    give(s, 0, *hand)
    complete(s, thing_top=thing_top)
    return at(s, 0, ONSLAUGHT)


def test_travel_masks_and_midgard_benefit():
    s = _onslaught(
        troops=["Hyggelig - Skålde - Kriger", "Kriger - Berserker - Bueskytter - Sjømann"],
        thing_top=[k("Göddar")],
    )
    s.world[0] = world("Nidavellir")
    s.invalidate()
    assert legal(s, "travel", world("Midgard"))  # 1 troop of 4
    assert legal(s, "travel", world("Jotunheim"))  # 3 + 4
    assert not legal(s, "travel", world("Nidavellir"))  # already there (M23)
    assert not legal(s, "travel", world("Vanaheim"))  # 5 cards
    assert legal(s, "travel", world("Muspellsheim"))  # any 2 troops (M24)
    act(s, "travel", world("Midgard"))
    assert not legal(s, "select_troop", 0)  # 3 cards is too few
    act(s, "select_troop", 1)
    assert (
        s.world[0] == 0 and s.made_trip and s.hands[0, k("Göddar")] == 1 and s.troops[0][1].engaged
    )
    assert s.mode == ONSLAUGHT


def test_travel_cancel_and_nidavellir_coins_capped_by_the_skat():
    s = _onslaught(troops=["Hyggelig - Skålde - Kriger", "Kriger - Berserker - Bueskytter"])
    s.coins[0] += s.skat - 1
    s.skat = 1
    act(s, "travel", world("Nidavellir"))
    act(s, "select_troop", 0)
    act(s, "cancel")
    assert not s.troops[0][0].engaged and s.world[0] == 0
    act(s, "travel", world("Nidavellir"))
    act(s, "select_troop", 0)
    act(s, "select_troop", 1)
    assert s.skat == 0 and s.coins.sum() == 50  # only 1 coin was left in the Skat (M45)


def test_vanaheim_and_jotunheim_take_a_card():
    s = blank(3)
    s.troops[0] = [
        troop(x)
        for x in (
            "Hyggelig - Skålde - Kriger - Berserker - Bueskytter",
            "Kriger - Berserker - Bueskytter",
            "Kriger - Berserker - Bueskytter - Sjømann",
        )
    ]
    s.valhalla[k("Loki's Trick")] = 1
    s.krog = [k("Tyr"), k("Runecästr"), k("Tyr")]
    complete(s)
    at(s, 0, ONSLAUGHT)
    act(s, "travel", world("Vanaheim"))
    act(s, "select_troop", 0)
    assert (
        s.mode == TAKE
        and legal(s, "take_card", k("Loki's Trick"))
        and not legal(s, "take_card", k("Tyr"))
    )
    act(s, "take_card", k("Loki's Trick"))
    act(s, "travel", world("Jotunheim"))
    act(s, "select_troop", 1)
    act(s, "select_troop", 2)
    assert legal(s, "take_card", k("Tyr")) and legal(s, "take_card", k("Runecästr"))
    act(s, "take_card", k("Tyr"))
    assert s.krog == [k("Runecästr"), k("Tyr")]  # the copy deepest in the Krog: the top stays
    s.check_invariants()


def test_empty_valhalla_gives_nothing():
    s = blank(3)
    s.troops[0] = [troop("Hyggelig - Skålde - Kriger - Berserker - Bueskytter")]
    complete(s)
    at(s, 0, ONSLAUGHT)
    act(s, "travel", world("Vanaheim"))
    act(s, "select_troop", 0)
    assert s.mode == ONSLAUGHT and s.world[0] == world("Vanaheim")


def test_alfheim_reservation_m26():
    s = blank(3)
    s.troops[0] = [
        troop("Hyggelig - Skålde - Kriger - Berserker - Bueskytter - Sjømann"),
        troop("Kriger - Berserker - Bueskytter - Sjømann - Ränger - Göddar"),
    ]
    s.open = [ch(x) for x in ("Jotun", "Trade", "Scots", "Saxons", "Bjorkun", "Kraken")]
    s.ch_deck = [ch("Maelstrom"), ch("Trollgjaldi")]  # Trollgjaldi opens first
    complete(s)
    at(s, 0, ONSLAUGHT)
    act(s, "travel", world("Alfheim"))
    act(s, "select_troop", 0)
    assert (
        s.mode == RESERVE
        and legal(s, "reserve", ch("Kraken"))
        and not legal(s, "reserve", ch("Maelstrom"))
    )
    act(s, "reserve", ch("Jotun"))
    assert s.reserved[0] == ch("Jotun") and ch("Jotun") not in s.open
    assert s.open[-1] == ch("Trollgjaldi") and len(s.open) == 6  # refilled to 6
    s.world[0] = world("Midgard")
    act(s, "travel", world("Alfheim"))
    act(s, "select_troop", 1)
    act(s, "reserve", ch("Trade"))  # a second reservation discards the first out of the game
    assert s.reserved[0] == ch("Trade") and s.ch_out == [ch("Jotun")]
    s.check_invariants()


def test_asgard_keep_one_reward_the_other_on_top():
    s = blank(3)
    s.troops[0] = [troop("Hyggelig - Skålde - Kriger - Berserker - Bueskytter - Sjømann - Ränger")]
    s.reward_deck = [0, 5]  # renown 1, then coins 3 on top
    complete(s)
    at(s, 0, ONSLAUGHT)
    act(s, "travel", world("Asgard"))
    act(s, "select_troop", 0)
    assert s.mode == KEEP and sorted(s.stack[-1].drawn) == [0, 5]
    assert s.view(1)["stack"][-1]["drawn"] == 2  # the others only see that two were drawn
    act(s, "keep_reward", 5)
    assert s.rewards[0, 5] == 1 and s.reward_deck[-1] == 0 and s.view(0)["reward_top"] == 0
    assert s.view(1)["reward_top"] is None
    s.check_invariants()


def test_niflheim_draws_a_reward_and_coin_rewards_can_be_revealed():
    s = blank(3)
    s.troops[0] = [
        troop(x)
        for x in (
            "Hyggelig - Skålde - Kriger",
            "Kriger - Berserker - Bueskytter",
            "Berserker - Bueskytter - Sjømann",
        )
    ]
    s.reward_deck = [4]  # coins 2 on top
    complete(s)
    at(s, 0, ONSLAUGHT)
    act(s, "travel", world("Niflheim"))
    for t in range(3):
        act(s, "select_troop", t)
    assert s.rewards[0, 4] == 1 and s.view(1)["reward_counts"][0] == 1
    assert legal(s, "reveal_reward", 4) and not legal(s, "reveal_reward", 0)
    act(s, "reveal_reward", 4)
    assert s.coins[0] == 8 and s.revealed[0, 4] == 1 and s.view(2)["revealed"][0][4] == 1


# ---- challenges (M28-M32) ---------------------------------------------------------------


def _surt_state():
    s = blank(3)
    s.troops[0] = [
        troop("Kriger - Berserker - Thor - Ränger"),
        troop("Tyr - Krigsjärl - Runecästr"),
        troop("Hyggelig - Skålde - Snedig"),
    ]
    s.world[0] = world("Muspellsheim")
    s.open = [ch("Surt, King of Fire Giants")]
    s.ch_deck = [ch("Scots"), ch("Saxons"), ch("Bjorkun"), ch("Trade"), ch("Jotun")]
    complete(s)
    return at(s, 0, ONSLAUGHT)


def test_surt_example_three_troops_two_coins():
    s = _surt_state()
    surt = ch("Surt, King of Fire Giants")
    assert legal(s, "face", surt)
    act(s, "face", surt)
    assert s.mode == CHALLENGE and not legal(s, "finish")
    act(s, "select_troop", 0)
    assert not legal(s, "finish")  # "realizes that this is not enough"
    act(s, "select_troop", 1)
    assert legal(s, "finish") and legal(s, "select_troop", 2)
    act(s, "select_troop", 2)
    act(s, "finish")  # might 20 >= 19 (17, summer +2)
    assert s.coins[0] == 4  # 2 coins for the 2 extra troops
    assert s.won[0] == [surt] and s.scores()[0] == DATA.challenges[surt].renown
    assert (
        s.troops[0] == [] and s.valhalla.sum() == 10
    )  # every card of the winning troops to Valhalla
    assert len(s.open) == 6 and s.open[0] == ch("Jotun")  # the list refilled to 6 from the deck top
    assert s.calendar == 1 and s.won_challenge
    s.check_invariants()


def test_surt_with_two_troops_in_summer_fails_and_troops_stay_engaged():
    s = _surt_state()
    surt = ch("Surt, King of Fire Giants")
    act(s, "face", surt)
    act(s, "select_troop", 0)
    act(s, "select_troop", 1)
    act(s, "finish")  # 18 < 19
    assert s.won[0] == [] and surt in s.open and s.coins[0] == 5  # the coin is not refunded
    assert s.troops[0][0].engaged and s.troops[0][1].engaged and not s.troops[0][2].engaged
    assert not legal(s, "face", surt)  # the Hyggelig troop alone cannot meet the requirements
    s.check_invariants()


def test_reserved_challenge_only_for_its_owner_and_in_its_world():
    s = blank(3)
    s.troops[0] = [troop("Kriger - Berserker - Bueskytter - Sjømann - Ränger - Göddar")]
    s.troops[1] = [troop("Kriger - Berserker - Bueskytter - Sjømann - Ränger - Göddar")]
    s.reserved[1] = ch("Jotun")
    s.world[:] = world("Jotunheim")
    complete(s)
    at(s, 0, ONSLAUGHT)
    assert not legal(s, "face", ch("Jotun"))
    at(s, 1, ONSLAUGHT)
    assert legal(s, "face", ch("Jotun"))
    s.world[1] = 0
    s.invalidate()
    assert not legal(s, "face", ch("Jotun"))


def test_fenrir_discard_requirement_follows_disposal_rules():
    s = blank(3)
    s.troops[0] = [
        troop("Kriger - Berserker - Bueskytter - Sjømann - Ränger - Göddar - Krigsjärl - Runecästr")
    ]
    s.world[0] = world("Asgard")  # Fenrir can be faced in any world
    s.open = [ch("Fenrir")]
    give(s, 0, k("Loki's Trick"), k("Tyr"))
    complete(s)
    at(s, 0, ONSLAUGHT)
    act(s, "face", ch("Fenrir"))
    act(s, "select_troop", 0)
    act(s, "finish")
    assert pass_forced(s) == [0]  # the engagement window asks the facing seat (MD15)
    assert s.mode == DISCARD_REQ and legal(s, "discard", k("Loki's Trick"))
    act(s, "discard", k("Tyr"))
    assert s.krog == [TYR]  # wildcards go to Krog (M41)
    assert s.mode == BONUS and s.current_player == 0  # still holds an event: may add a bonus (M30)
    act(s, "pass")
    assert s.won[0] == [ch("Fenrir")]  # might 13 >= 11
    assert s.valhalla.sum() == 8


def test_fenrir_needs_a_card_to_discard_m34a():
    s = blank(3)
    s.troops[0] = [
        troop("Kriger - Berserker - Bueskytter - Sjømann - Ränger - Göddar - Krigsjärl - Runecästr")
    ]
    s.open = [ch("Fenrir")]
    complete(s)
    at(s, 0, ONSLAUGHT)
    assert not legal(s, "face", ch("Fenrir"))
    give(s, 0, k("Loki's Trick"))
    s.thing.remove(k("Loki's Trick"))
    s.invalidate()
    assert legal(s, "face", ch("Fenrir"))


# ---- battles (M35-M37) ------------------------------------------------------------------


def _battle_state(alice_troops, ben_troops, ben_engaged=()):
    s = blank(3)
    s.troops[0] = [troop(t) for t in alice_troops]
    s.troops[1] = [troop(t, engaged=i in ben_engaged) for i, t in enumerate(ben_troops)]
    s.world[:2] = world("Nidavellir")
    s.reward_deck = [3, 0, 1]  # top: coins 1 (3), then renown 2 (1)... drawn from the end
    complete(s)
    return at(s, 0, ONSLAUGHT)


def test_battle_example_without_bonuses():
    # Alice (a troop of might 6) attacks Benjamin, whose strongest troops are engaged; he defends
    # with his regrouped troop of might 4. Without bonuses Alice wins and draws a Reward.
    s = _battle_state(
        ["Skålde - Kriger - Berserker - Bueskytter - Sjømann - Ränger"],
        ["Göddar - Krigsjärl - Runecästr", "Hyggelig - Skålde - Kriger - Berserker - Bueskytter"],
        ben_engaged=(0,),
    )
    assert s.troops[0][0].might(DATA.might) == 6 and s.troops[1][1].might(DATA.might) == 4
    assert legal(s, "attack", 0, 0) and not legal(s, "attack", 1, 0)  # seat 2 is in another world
    act(s, "attack", 0, 0)
    assert s.coins[0] == 5 and s.current_player == 1 and s.mode == DEFEND
    assert not legal(s, "defend", 0) and legal(s, "defend", 1) and legal(s, "refuse")
    act(s, "defend", 1)
    assert s.rewards[0].sum() == 1 and s.rewards[1].sum() == 0 and s.current_player == 0
    assert s.troops[1][1].engaged and s.troops[0][0].engaged
    assert not s.made_trip and not s.won_challenge  # a battle is no feat for the hand reset
    s.check_invariants()


def test_battle_tie_goes_to_the_attacker():
    s = _battle_state(["Kriger - Berserker - Bueskytter"], ["Bueskytter - Sjømann - Ränger"])
    act(s, "attack", 0, 0)
    act(s, "defend", 0)
    assert s.rewards[0].sum() == 1 and s.rewards[1].sum() == 0


def test_battle_defender_wins():
    s = _battle_state(["Kriger - Berserker - Bueskytter"], ["Göddar - Krigsjärl - Runecästr"])
    act(s, "attack", 0, 0)
    act(s, "defend", 0)
    assert s.rewards[0].sum() == 0 and s.rewards[1].sum() == 1


def test_undefended_attacker_keeps_one_of_two():
    s = _battle_state(["Kriger - Berserker - Bueskytter"], ["Göddar - Krigsjärl - Runecästr"])
    top2 = sorted(s.reward_deck[-2:])
    act(s, "attack", 0, 0)
    act(s, "refuse")
    assert s.current_player == 0 and s.mode == KEEP and sorted(s.stack[-1].drawn) == top2
    act(s, "keep_reward", top2[0])
    assert s.rewards[0, top2[0]] == 1 and s.reward_deck[-1] == top2[1]
    s.check_invariants()


def test_all_engaged_defender_cannot_defend_m37a():
    s = _battle_state(
        ["Kriger - Berserker - Bueskytter", "Hyggelig - Skålde - Kriger"],
        ["Göddar - Krigsjärl - Runecästr"],
        ben_engaged=(0,),
    )
    act(s, "attack", 0, 0)
    assert s.mode == KEEP and s.current_player == 0
    act(s, "keep_reward", s.stack[-1].drawn[0])
    assert legal(s, "attack", 0, 1)  # repeated attacks are allowed as written
    s.coins[0] = 0
    s.skat = 50 - 12
    s.invalidate()
    assert not legal(s, "attack", 0, 1)  # but each costs a coin (M35, M45)


def test_no_battle_against_a_jarl_without_troops():
    s = _battle_state(["Kriger - Berserker - Bueskytter"], [])
    assert not legal(s, "attack", 0, 0)


# ---- spoils, Krog, reshuffle (M38-M41) --------------------------------------------------


def test_spoils_discard_and_hand_reset_after_a_trip():
    s = blank(3)
    give(s, 0, k("Loki's Trick"), k("Kriger"))
    complete(s)
    at(s, 0, ONSLAUGHT)
    s.made_trip = True
    act(s, "end_phase")
    assert (
        s.mode == SPOILS
        and legal(s, "discard", k("Loki's Trick"))
        and not legal(s, "discard", k("Tyr"))
    )
    act(s, "discard", k("Loki's Trick"))
    assert s.valhalla[k("Loki's Trick")] == 1  # events go to Valhalla (M41)
    assert s.hands[0].sum() == 9  # drew up to 9 after a trip (M38)


def test_spoils_without_a_feat_keeps_the_hand_and_troops_go_to_krog():
    s = blank(3)
    give(s, 0, k("Kriger"), k("Berserker"))
    s.coins[1:] = 0  # nobody can hire in Krog
    s.skat = 50 - 6
    complete(s)
    at(s, 0, ONSLAUGHT)
    act(s, "end_phase")
    act(s, "discard", k("Kriger"))
    assert s.krog == [k("Kriger")] and s.active == 1 and s.mode == PREP
    assert s.hands[0].sum() == 1


def test_empty_hand_skips_the_discard():
    s = blank(3)
    s.coins[1:] = 0
    s.skat = 50 - 6
    complete(s)
    at(s, 0, ONSLAUGHT)
    act(s, "end_phase")
    assert s.active == 1 and s.mode == PREP


def test_krog_contracting_order_m39():
    # seat 0 ends; seat 1 cannot pay, seat 2 is offered first among those who can, then seat 3;
    # the ending seat is never offered.
    s = blank(4)
    give(s, 0, k("Tyr"))
    s.coins[1] = 0
    s.skat = 50 - 18
    complete(s, thing_top=[k("Göddar"), k("Hyggelig")])
    at(s, 0, ONSLAUGHT)
    act(s, "end_phase")
    act(s, "discard", k("Tyr"))
    assert s.mode == KROG and s.current_player == 2
    act(s, "pass")
    assert s.mode == KROG and s.current_player == 3
    act(s, "hire")
    assert (
        s.coins[3] == 5 and s.hands[3, TYR] == 1 and s.hands[3, k("Göddar")] == 1 and s.krog == []
    )
    # then seat 1's turn begins with Hiring
    assert s.active == 1 and s.mode == PREP and s.hands[1, k("Hyggelig")] == 1
    s.check_invariants()


def test_krog_everyone_passes():
    s = blank(3)
    give(s, 0, k("Tyr"))
    complete(s)
    at(s, 0, SPOILS)
    act(s, "discard", k("Tyr"))
    act(s, "pass")
    act(s, "pass")
    assert s.active == 1 and s.mode == PREP and s.krog == [TYR]


def test_reshuffle_keeps_the_krog_top_m40():
    s = blank(3)
    s.valhalla[k("Loki's Trick")] = 1
    s.krog = [k("Kriger"), k("Berserker")]
    complete(s)
    drawn_before = s.thing
    for kind in drawn_before:  # everything else is in player 1's hand
        s.hands[1, kind] += 1
    s.thing = []
    s.check_invariants()
    s._draw(0, 2)
    assert s.krog == [k("Berserker")] and s.valhalla.sum() == 0
    assert sorted(np.repeat(np.arange(DATA.num_kinds), s.hands[0]).tolist()) == sorted(
        [k("Loki's Trick"), k("Kriger")]
    )
    s._draw(0, 1)  # nothing left to draw: skipped
    assert s.hands[0].sum() == 2
    s.check_invariants()


# ---- the end (M46-M49) ------------------------------------------------------------------


def test_calendar_end_is_immediate_m47():
    s = blank(3, start_position=6)
    s.calendar = 7
    s.troops[0] = [
        troop("Kriger - Berserker - Bueskytter - Sjømann - Ränger - Göddar - Krigsjärl - Runecästr")
    ]
    s.world[0] = world("Jotunheim")
    s.open = [ch("Trollgjaldi")]
    s.troops[0][0] = troop(
        "Hyggelig - Skålde - Kriger - Berserker - Bueskytter - Sjømann - Ränger - Göddar - "
        "Krigsjärl - Runecästr"
    )
    complete(s)
    at(s, 0, ONSLAUGHT)
    act(s, "face", ch("Trollgjaldi"))
    act(s, "select_troop", 0)
    act(s, "finish")
    assert s.is_terminal() and s.calendar == 0 and s.end_reason.startswith("calendar")
    assert s.current_player is None and not s.legal_mask().any()
    assert s.winners() == [0] and list(s.returns()) == [1.0, -0.5, -0.5]
    with pytest.raises(IllegalActionError):
        s.apply(A.END_PHASE)


def test_start_position_sets_the_game_length():
    for start, steps in ((0, 8), (2, 6), (4, 4), (6, 2)):
        s = MidgardGame(3, start_position=start).new_state(0)
        assert s.calendar == start and (8 - s.calendar) % 8 == steps % 8


def test_stall_safeguard_m48():
    s = blank(3)
    s.troops[0] = [
        troop(
            "Hyggelig - Skålde - Kriger - Berserker - Bueskytter - Sjømann - Ränger - Göddar - "
            "Krigsjärl - Runecästr"
        )
    ]
    calendar_ids = [c.id for c in DATA.challenges if c.calendar]
    s.won[1] = [c for c in calendar_ids if c != ch("Bjorkun")]
    s.open = [ch("Bjorkun")]
    complete(s)
    assert not any(DATA.challenges[c].calendar for c in s.ch_deck)
    at(s, 0, ONSLAUGHT)
    act(s, "face", ch("Bjorkun"))
    act(s, "select_troop", 0)
    act(s, "finish")
    assert s.is_terminal() and "M48" in s.end_reason and not s.truncated


def test_turn_cap_truncates():
    s = MidgardGame(3, max_turns=2).new_state(4)
    rng = np.random.default_rng(0)
    while not s.is_terminal():
        s.apply(int(rng.choice(s.legal_actions())))
    assert s.turn == 2 and s.truncated and s.end_reason == "max_turns"


WIN = [
    # renown, challenge renown, coins -> winners (M49)
    (([5, 3, 5], [5, 3, 2], [1, 1, 1]), [0]),
    (([5, 3, 5], [3, 3, 3], [2, 9, 4]), [2]),
    (([5, 3, 5], [3, 3, 3], [4, 9, 4]), [0, 2]),
    (([0, 0, 0], [0, 0, 0], [6, 6, 6]), [0, 1, 2]),
]


@pytest.mark.parametrize("args,expected", WIN)
def test_winners_and_tie_breaks(args, expected):
    assert winners_of(*args) == expected


def test_coin_rewards_count_as_coins_at_the_end_m44():
    s = blank(3)
    s.won[0] = [ch("Jotun")]
    s.won[1] = [ch("Trollgjaldi")]
    s.rewards[0, 3] = 1  # coins 1 for seat 0
    s.coins[1] = 7
    s.coins[0] = 5
    s.skat = 50 - 18
    complete(s)
    assert list(s.scores()) == [5, 5, 0]
    assert list(s.final_coins()) == [6, 7, 6] and s.winners() == [1]


@pytest.mark.parametrize(
    "opts,key",
    [
        ({"start_position": 1}, "start_position"),
        ({"max_turns": 0}, "max_turns"),
        ({"max_turns": 2.5}, "max_turns"),
        ({"start_player": 4}, "start_player"),
        ({"num_players": 2}, "num_players"),
        ({"num_players": 7}, "num_players"),
    ],
)
def test_bad_options_name_the_key(opts, key):
    with pytest.raises(ConfigError, match=key):
        MidgardGame(**opts)


def test_renown_rewards_stay_secret_until_the_end_m44():
    s = blank(3)
    s.won[0] = [ch("Jotun")]
    s.rewards[1, 2] = 2  # two renown-3 rewards
    complete(s)
    assert list(s.scores()) == [5, 0, 0]  # public renown only (no leak through dense rewards)
    s._end_game("test")
    assert list(s.scores()) == [5, 6, 0] and s.winners() == [1]


# ---- the rulebook's challenge examples, played through the engine ----------------------


@pytest.mark.parametrize("position,wins", [(0, True), (1, False)])
def test_peter_faces_the_jotun_in_summer_and_winter(position, wins):
    s = blank(3)
    s.calendar = position
    s.troops[0] = [troop("Kriger - Berserker - Thor - Ränger - Göddar")]
    s.world[0] = world("Jotunheim")
    s.open = [ch("Jotun")]
    complete(s)
    at(s, 0, ONSLAUGHT)
    assert s.challenge_difficulty(ch("Jotun")) == (10 if position == 0 else 12)
    act(s, "face", ch("Jotun"))
    act(s, "select_troop", 0)
    act(s, "finish")
    assert (s.won[0] == [ch("Jotun")]) == wins
    assert s.calendar == (position + 1 if wins else position)  # Jotun turns the calendar
    assert s.scores()[0] == (5 if wins else 0)


def test_alfred_cannot_face_the_draugr_but_can_face_hel():
    s = blank(3)
    s.troops[0] = [
        troop(
            "Kriger - Berserker - Bueskytter - Sjømann - Tyr - Göddar - Krigsjärl - Runecästr - "
            "Snedig"
        )
    ]
    s.world[0] = world("Niflheim")
    s.open = [ch("Draugr"), ch("Hel")]
    complete(s)
    at(s, 0, ONSLAUGHT)
    assert not legal(s, "face", ch("Draugr")) and legal(s, "face", ch("Hel"))


def test_hrodsorm_vekksorm_then_trollgjaldi_turns_the_season():
    s = blank(3)
    s.open = [ch("Hrodsorm Dragon"), ch("Vekksorm of the Seas"), ch("Trollgjaldi")]
    s.troops[0] = [
        troop(
            "Hyggelig - Skålde - Kriger - Berserker - Bueskytter - Sjømann - Ränger - Göddar - "
            "Krigsjärl - Runecästr"
        )
    ]
    s.world[0] = world("Jotunheim")
    complete(s)
    at(s, 0, ONSLAUGHT)
    assert s.challenge_difficulty(ch("Vekksorm of the Seas")) == 12  # 10 + summer 1 + Hrodsorm 1
    assert s.challenge_difficulty(ch("Trollgjaldi")) == 11
    act(s, "face", ch("Trollgjaldi"))
    act(s, "select_troop", 0)
    act(s, "finish")
    assert s.won[0] == [ch("Trollgjaldi")] and s.season() == 1
    assert s.challenge_difficulty(ch("Vekksorm of the Seas")) == 11  # winter: 10 + Hrodsorm 1
    obs = s.game.layout.split(s.observe(1))
    assert abs(obs["difficulty"][ch("Vekksorm of the Seas")] * 30 - 11) < 1e-5


def test_decision_cap_truncates_looping_policies():
    # a policy that only ever starts a troop and cancels it would never end a turn
    s = blank(3, max_decisions=50)
    give(s, 0, *ks("Kriger - Berserker - Bueskytter"))
    complete(s)
    at(s, 0, PREP)
    while not s.is_terminal():
        act(s, "new_troop")
        act(s, "cancel")
    assert s.decisions == 50 and s.truncated and s.end_reason == "max_decisions"
    s.check_invariants()


def test_cards_seen_joining_a_hand_are_public_x7():
    # seat 2 hires the Krog top (a Tyr): everyone saw it, so the Tyr stays in seat 2's hand in
    # every determinization; placing one Tyr face up lowers the known count again
    s = blank(3)
    give(s, 0, k("Tyr"))
    complete(s)
    at(s, 0, SPOILS)
    act(s, "discard", k("Tyr"))
    act(s, "pass")
    act(s, "hire")
    assert s.known[2, TYR] == 1 and s.view(0)["known_in_hand"][2] == [TYR]
    for seed in range(5):
        d = s.determinize(0, np.random.default_rng(seed))
        assert d.hands[2, TYR] >= 1
        d.check_invariants()
    obs = s.game.layout.split(s.observe(0))
    assert obs["known_in_hand"][2, TYR] == 1 / 8
    s.known[2, TYR] = 1
    s._from_hand(2, TYR)
    assert s.known[2, TYR] == 0


def test_cancelled_troop_cards_are_known():
    s = blank(3)
    give(s, 0, *ks("Kriger - Berserker - Bueskytter"))
    complete(s)
    at(s, 0, PREP)
    act(s, "new_troop")
    act(s, "place_class", A.PENDING, 2)
    act(s, "place_class", A.PENDING, 3)
    act(s, "cancel")
    assert s.view(1)["known_in_hand"][0] == [2, 3]
