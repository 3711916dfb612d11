"""Midgard engine scenarios built from explicit states and played through ``apply``: set-up,
laying down, relocation, Claiming for Gods, travel and benefits, challenges, battles, spoils,
Krog, reshuffles, the calendar end, the stall safeguard and the turn cap."""

from __future__ import annotations

import numpy as np
import pytest

from deckzoo.envs import ConfigError, IllegalActionError
from deckzoo.envs.midgard.rules import (
    BUILD, CHALLENGE, CLAIM, DEFEND, DISCARD_REQ, KEEP, KROG, ONSLAUGHT, PREP, RELOCATE, RESERVE, SPOILS, TAKE,
    MidgardGame, winners_of,
)

from .util import A, DATA, SNEDIG, THOR, TYR, act, at, blank, ch, complete, give, k, ks, legal, troop, world


# ---- set-up (M8) ------------------------------------------------------------------------

@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_setup(n):
    s = MidgardGame(n).new_state(11)
    p = s.current_player
    assert s.mode == PREP and p == s.active == s.start_player
    sizes = s.hands.sum(axis=1)
    assert sizes[p] == 10 and all(sizes[q] == 9 for q in range(n) if q != p)  # dealt 9, Hiring drew 1
    assert (s.coins == 6).all() and s.skat == 50 - 6 * n
    assert len(s.open) >= 6 and (s.world == 0).all() and s.calendar == 0 and s.turn == 1
    s.check_invariants()


def test_setup_open_another_cascade():
    # Bjorkun - Trade - Fenrir - Scots - Dispute of Runes - Saxons: Dispute of Runes asks for a 7th,
    # which is Crossing the Storm, which asks for an 8th.
    s = blank(4)
    order = ["Bjorkun", "Trade", "Fenrir", "Scots", "Dispute of Runes", "Saxons", "Crossing the Storm", "Jotun",
             "Hel"]
    s.ch_deck = [ch(x) for x in reversed(order)]
    complete(s)
    s._refill()
    assert [DATA.challenges[c].name for c in s.open] == order[:8]
    assert s.ch_deck[-1] == ch("Hel")


def test_fenrir_opening_sends_everyone_to_midgard_m34b():
    s = blank(3)
    s.world[:] = [3, 5, 0]
    s.ch_deck = [ch("Fenrir")]
    complete(s)
    s._open_one()
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
    assert s.mode == RELOCATE and s.stack[-1]["wild"] == TYR
    assert [a for a in s.legal_actions()] == [A.encode("relocate", 0), A.encode("relocate", 1)]
    s.check_invariants()
    act(s, "relocate", 1)
    assert s.mode == PREP
    assert s.troops[0][0] == troop("Skålde - Kriger - Berserker - Bueskytter - Sjømann - Tyr - Snedig")


def test_thor_relocation_is_automatic_with_one_place():
    s = blank(3)
    s.troops[0] = [troop("Skålde - Thor - Bueskytter - Sjømann - Snedig")]
    give(s, 0, k("Kriger"), k("Berserker"))
    complete(s)
    at(s, 0, PREP)
    assert not legal(s, "place_class", 0, 3)  # Berserker alone cannot free Thor
    act(s, "place_class", 0, 2)
    assert s.mode == PREP
    assert s.troops[0][0] == troop("Skålde - Kriger - Berserker - Bueskytter - Sjømann - Thor - Snedig")
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
    s.troops[2] = [troop("Berserker - Bueskytter - Sjømann - Snedig")]  # Catherin, seat +2 from Alfred
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
    s = _onslaught(troops=["Hyggelig - Skålde - Kriger", "Kriger - Berserker - Bueskytter - Sjømann"],
                   thing_top=[k("Göddar")])
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
    assert s.world[0] == 0 and s.made_trip and s.hands[0, k("Göddar")] == 1 and s.troops[0][1].engaged
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
    s.troops[0] = [troop(x) for x in ("Hyggelig - Skålde - Kriger - Berserker - Bueskytter",
                                      "Kriger - Berserker - Bueskytter", "Kriger - Berserker - Bueskytter - Sjømann")]
    s.valhalla[k("Loki's Trick")] = 1
    s.krog = [k("Tyr"), k("Runecästr"), k("Tyr")]
    complete(s)
    at(s, 0, ONSLAUGHT)
    act(s, "travel", world("Vanaheim"))
    act(s, "select_troop", 0)
    assert s.mode == TAKE and legal(s, "take_card", k("Loki's Trick")) and not legal(s, "take_card", k("Tyr"))
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
    s.troops[0] = [troop("Hyggelig - Skålde - Kriger - Berserker - Bueskytter - Sjømann"),
                   troop("Kriger - Berserker - Bueskytter - Sjømann - Ränger - Göddar")]
    s.open = [ch(x) for x in ("Jotun", "Trade", "Scots", "Saxons", "Bjorkun", "Kraken")]
    s.ch_deck = [ch("Maelstrom"), ch("Trollgjaldi")]  # Trollgjaldi opens first
    complete(s)
    at(s, 0, ONSLAUGHT)
    act(s, "travel", world("Alfheim"))
    act(s, "select_troop", 0)
    assert s.mode == RESERVE and legal(s, "reserve", ch("Kraken")) and not legal(s, "reserve", ch("Maelstrom"))
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
    assert s.mode == KEEP and sorted(s.stack[-1]["drawn"]) == [0, 5]
    assert s.view(1)["stack"][-1]["drawn"] == 2  # the others only see that two were drawn
    act(s, "keep_reward", 5)
    assert s.rewards[0, 5] == 1 and s.reward_deck[-1] == 0 and s.view(0)["reward_top"] == 0
    assert s.view(1)["reward_top"] is None
    s.check_invariants()


def test_niflheim_draws_a_reward_and_coin_rewards_can_be_revealed():
    s = blank(3)
    s.troops[0] = [troop(x) for x in ("Hyggelig - Skålde - Kriger", "Kriger - Berserker - Bueskytter",
                                      "Berserker - Bueskytter - Sjømann")]
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
    s.troops[0] = [troop("Kriger - Berserker - Thor - Ränger"), troop("Tyr - Krigsjärl - Runecästr"),
                   troop("Hyggelig - Skålde - Snedig")]
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
    assert s.troops[0] == [] and s.valhalla.sum() == 10  # every card of the winning troops to Valhalla
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
    s.troops[0] = [troop("Kriger - Berserker - Bueskytter - Sjømann - Ränger - Göddar - Krigsjärl - Runecästr")]
    s.world[0] = world("Asgard")  # Fenrir can be faced in any world
    s.open = [ch("Fenrir")]
    give(s, 0, k("Loki's Trick"), k("Tyr"))
    complete(s)
    at(s, 0, ONSLAUGHT)
    act(s, "face", ch("Fenrir"))
    act(s, "select_troop", 0)
    act(s, "finish")
    assert s.mode == DISCARD_REQ and legal(s, "discard", k("Loki's Trick"))
    act(s, "discard", k("Tyr"))
    assert s.krog == [TYR]  # wildcards go to Krog (M41)
    assert s.won[0] == [ch("Fenrir")]  # might 13 >= 11
    assert s.valhalla.sum() == 8


def test_fenrir_needs_a_card_to_discard_m34a():
    s = blank(3)
    s.troops[0] = [troop("Kriger - Berserker - Bueskytter - Sjømann - Ränger - Göddar - Krigsjärl - Runecästr")]
    s.open = [ch("Fenrir")]
    complete(s)
    at(s, 0, ONSLAUGHT)
    assert not legal(s, "face", ch("Fenrir"))
    give(s, 0, k("Loki's Trick"))
    s.thing.remove(k("Loki's Trick"))
    s.invalidate()
    assert legal(s, "face", ch("Fenrir"))
