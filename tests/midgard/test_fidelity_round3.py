"""Midgard fidelity round 3 (issue #45), M-E2 and M-E3.

M-E2: the Thing is reshuffled the moment it runs out, not when a later draw finds it empty (M40):
the cards of Valhalla and the Krog (but its top) are no longer there to be taken in between, a
reshuffle can fall between the cards of one draw, and what the table saw go into the Thing
bounds what ``determinize`` may put there.

M-E3: a coin reward "can be revealed anytime": ``reveal_reward`` is offered at every decision of
the seat that can spend coins (the Krog offer and the troop choice of a challenge, besides
Preparation and Onslaught), and the Krog is offered to a seat that holds no coin but could reveal
one, decided from public counts only.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from deckzoo.agents.heuristics.midgard import HeuristicAgent
from deckzoo.envs.core.conformance import check_state
from deckzoo.envs.midgard.rules import CHALLENGE, KROG, ONSLAUGHT, PREP, SPOILS, MidgardState
from deckzoo.envs.midgard.troops import Troop

from .util import DATA, A, act, at, blank, ch, complete, give, k, legal, troop, world

FOUR = "Hyggelig - Skålde - Kriger - Berserker"  # Midgard's 1 troop of 4
FIVE = "Skålde - Kriger - Berserker - Bueskytter - Sjømann"  # Vanaheim's 1 troop of 5
COIN_1, COIN_2, COIN_3, RENOWN_1 = 3, 4, 5, 0  # reward kinds (M44)


def _kinds(counts) -> list[int]:
    return np.repeat(np.arange(DATA.num_kinds), counts).tolist()


def _thin_thing(s: MidgardState, top, holder: int = 2) -> MidgardState:
    """Complete the table with ``top`` as the whole Thing (first drawn first); every other card
    not placed yet goes to seat ``holder``'s hand."""
    complete(s, thing_top=top)
    rest = s.thing[: len(s.thing) - len(top)]
    for kind in rest:
        s.hands[holder, kind] += 1
    s.thing = s.thing[len(rest) :]
    s.check_invariants()
    return s


def _about_to_run_out() -> MidgardState:
    """Seat 0, in Nidavellir, can travel to Midgard (draw 1) with its troop of 4 and on to
    Vanaheim (take a card of Valhalla) with its troop of 5. The Thing holds one card; Valhalla a
    Loki's Trick, the Krog a Kriger under a Berserker."""
    s = blank(3)
    s.troops[0] = [troop(FOUR), troop(FIVE)]
    s.world[0] = world("Nidavellir")
    s.valhalla[k("Loki's Trick")] = 1
    s.krog = [k("Kriger"), k("Berserker")]
    _thin_thing(s, [k("Göddar")])
    return at(s, 0, ONSLAUGHT)


# ---- M-E2: the reshuffle ------------------------------------------------------------------


def test_M_E2_the_thing_is_reshuffled_the_moment_it_runs_out():
    s = _about_to_run_out()
    assert s.thing_base is None
    act(s, "travel", world("Midgard"))
    act(s, "select_troop", 0)
    assert s.hands[0, k("Göddar")] == 1  # the trip's draw took the last card of the Thing ...
    # ... and Valhalla and the Krog but its top went into the Thing at once, before any draw
    assert sorted(s.thing) == sorted([k("Loki's Trick"), k("Kriger")])
    assert s.krog == [k("Berserker")] and s.valhalla.sum() == 0
    assert _kinds(s.thing_base) == sorted(s.thing) and not s.thing_drawn.any()
    for p in range(3):  # a reshuffle is public
        assert s.view(p)["thing_base"] == sorted(s.thing) and s.view(p)["thing_size"] == 2
    check_state(s, np.random.default_rng(0), deep=True)


def test_M_E2_vanaheim_after_the_thing_ran_out_finds_valhalla_empty():
    # the case: before, the Loki's Trick stayed in Valhalla until the next draw and the
    # trip to Vanaheim offered it; it is in the Thing now, so the trip brings nothing
    s = _about_to_run_out()
    act(s, "travel", world("Midgard"))
    act(s, "select_troop", 0)
    act(s, "travel", world("Vanaheim"))
    act(s, "select_troop", 1)
    assert s.mode == ONSLAUGHT and s.world[0] == world("Vanaheim")
    assert s.hands[0, k("Loki's Trick")] == 0 and k("Loki's Trick") in s.thing
    s.check_invariants()


def test_M_E2_a_reshuffle_between_the_cards_of_one_draw():
    # Reset Hand after a trip: 8 cards to draw, 3 in the Thing. The Thing runs out after the
    # third, the discard just made (Kriger) is the Krog top and stays; Valhalla's 6 cards and
    # the Tyr below it are reshuffled, and the draw goes on from them.
    s = blank(3)
    give(s, 0, k("Loki's Trick"), k("Kriger"))
    for name in ("Hyggelig", "Skålde", "Sjømann", "Ränger", "Göddar", "Fimbulwinter"):
        s.valhalla[k(name)] += 1
    s.krog = [k("Tyr")]
    _thin_thing(s, [k("Berserker"), k("Berserker"), k("Berserker")])
    at(s, 0, ONSLAUGHT)
    s.made_trip = True
    act(s, "end_phase")
    assert s.mode == SPOILS
    act(s, "discard", k("Kriger"))
    assert s.hands[0].sum() == 9 and s.hands[0, k("Berserker")] == 3
    assert s.krog == [k("Kriger")] and s.valhalla.sum() == 0 and len(s.thing) == 2
    base = ["Hyggelig", "Skålde", "Sjømann", "Ränger", "Göddar", "Tyr", "Fimbulwinter"]
    assert _kinds(s.thing_base) == sorted(k(x) for x in base)
    assert s.thing_drawn[0].sum() == 5 and not s.thing_drawn[1:].any()
    assert s.mode == KROG  # the turn goes on to the Krog as before
    s.check_invariants()


def test_M_E2_with_nothing_to_reshuffle_the_next_draw_refills_the_thing():
    s = blank(3)
    give(s, 0, k("Loki's Trick"))
    s.krog = [k("Tyr")]  # only a top card: nothing to reshuffle
    s.coins[1:] = 0  # nobody is offered the Krog
    s.skat = 50 - 6
    _thin_thing(s, [k("Göddar")])
    at(s, 0, PREP)
    s._draw(0)
    assert s.thing == [] and s.thing_base is None and s.krog == [k("Tyr")]
    s.invalidate()
    act(s, "end_phase")
    act(s, "end_phase")
    act(s, "discard", k("Loki's Trick"))  # to Valhalla, while the Thing is empty
    assert s.valhalla[k("Loki's Trick")] == 0  # seat 1's Hiring reshuffled it and drew it
    assert s.active == 1 and s.hands[1, k("Loki's Trick")] == 1 and s.thing == []
    assert _kinds(s.thing_base) == [k("Loki's Trick")] and s.thing_drawn[1, k("Loki's Trick")] == 1
    s.check_invariants()


def test_M_E2_a_card_in_play_is_not_reshuffled():
    # MD20 still holds: Ivaldi's Forge (draw 2) is in play while it draws, so a reshuffle in the
    # middle of its draw leaves it out, and it reaches Valhalla afterwards
    forge = k("Ivaldi's Forge")
    effect = DATA.action_cards[forge - A.FIRST_ACTION_CARD].effects[0]
    assert (effect.kind, effect.n) == ("draw_cards", 2)
    s = blank(3)
    give(s, 0, forge)
    s.valhalla[k("Hyggelig")] = 1
    s.krog = [k("Kriger"), k("Tyr")]
    _thin_thing(s, [k("Göddar")])
    at(s, 0, PREP)
    s.events_left = 1
    act(s, "play_event", forge - A.FIRST_ACTION_CARD)
    while s.mode != PREP:  # reaction windows, if any, all pass
        act(s, "pass")
    assert s.hands[0, k("Göddar")] == 1 and s.hands[0].sum() == 2
    assert s.valhalla[forge] == 1 and forge not in s.thing
    assert _kinds(s.thing_base) == sorted([k("Hyggelig"), k("Kriger")])
    assert s.thing_drawn[0].sum() == 1 and len(s.thing) == 1
    s.check_invariants()


def test_M_E2_determinize_keeps_the_thing_within_what_was_reshuffled():
    s = _about_to_run_out()
    act(s, "travel", world("Midgard"))
    act(s, "select_troop", 0)
    both = sorted([k("Loki's Trick"), k("Kriger")])
    rng = np.random.default_rng(1)
    for p in range(3):  # everyone saw what went into the Thing
        for _ in range(5):
            det = s.determinize(p, rng)
            assert sorted(det.thing) == both
            det.check_invariants()
    s._draw(1)  # seat 1 draws one of the two: it knows which, the others do not
    s.invalidate()
    mine = s.thing_drawn[1].argmax()
    left = {tuple(s.determinize(1, rng).thing) for _ in range(10)}
    assert left == {tuple(s.thing)}
    seen = set()
    for seed in range(20):
        det = s.determinize(0, np.random.default_rng(seed))
        det.check_invariants()  # the Thing plus the resampled draws is still what was reshuffled
        assert det.thing_drawn[1].sum() == 1 and not det.thing_drawn[0].any()
        seen.add(tuple(det.thing))
    assert seen == {(x,) for x in both}
    assert s.thing_drawn[1, mine] == 1
    check_state(s, rng, deep=True)


def test_M_E2_saved_states_keep_the_reshuffle():
    s = _about_to_run_out()
    act(s, "travel", world("Midgard"))
    act(s, "select_troop", 0)
    s._draw(1)
    s.invalidate()
    d = json.loads(json.dumps(s.to_dict()))
    back = MidgardState.from_dict(d, s.game)
    assert back.to_dict() == s.to_dict()
    bad = dict(d, state=dict(d["state"], thing_base=[k("Thor")]))
    with pytest.raises(ValueError, match="thing_base"):
        MidgardState.from_dict(bad, s.game)
    moved = [list(x) for x in d["state"]["thing_drawn"]]
    moved[0], moved[1] = moved[1], moved[0]  # whose draw it was does not matter to the check
    MidgardState.from_dict(dict(d, state=dict(d["state"], thing_drawn=moved)), s.game)
    lost = [[] for _ in moved]  # but every card drawn since must be counted
    with pytest.raises(ValueError, match="thing_base"):
        MidgardState.from_dict(dict(d, state=dict(d["state"], thing_drawn=lost)), s.game)


# ---- M-E3: coin rewards revealed where coins are spent ------------------------------------


def _krog_for_seat_1(coins1: int, rewards1=(), skat_extra: int = 0) -> MidgardState:
    """Seat 0 ends its turn with a Tyr to discard; seat 1 holds ``coins1`` coins and the reward
    kinds ``rewards1``; seat 2 has none of either."""
    s = blank(3)
    give(s, 0, k("Tyr"))
    s.coins[1], s.coins[2] = coins1, 0
    s.skat = 50 - 6 - coins1
    for r in rewards1:
        s.rewards[1, r] += 1
    complete(s)
    at(s, 0, SPOILS)
    act(s, "discard", k("Tyr"))
    return s


def test_M_E3_the_krog_is_offered_to_a_seat_that_can_reveal_a_coin():
    s = _krog_for_seat_1(0, [COIN_2])
    assert s.mode == KROG and s.current_player == 1
    # no coin in hand yet: no hire
    assert np.flatnonzero(s.legal_mask()).tolist() == [A.PASS, A.encode("reveal_reward", COIN_2)]
    check_state(s, np.random.default_rng(0), deep=True)
    act(s, "reveal_reward", COIN_2)
    assert s.mode == KROG and s.current_player == 1 and s.coins[1] == 2
    assert s.revealed[1, COIN_2] == 1 and legal(s, "hire")
    act(s, "hire")
    assert s.coins[1] == 1 and s.hands[1, k("Tyr")] == 1 and s.krog == []
    assert s.active == 1 and s.mode == PREP
    s.check_invariants()


def test_M_E3_a_seat_with_coins_may_reveal_at_the_krog_too():
    s = _krog_for_seat_1(1, [COIN_1])
    assert legal(s, "hire") and legal(s, "pass") and legal(s, "reveal_reward", COIN_1)
    assert not legal(s, "reveal_reward", RENOWN_1) and not legal(s, "reveal_reward", COIN_2)


def test_M_E3_who_is_offered_the_krog_depends_on_public_counts_only():
    # a seat without coins is offered the Krog while it holds any reward and the Skat has a coin:
    # whether its rewards are coins or renown is secret (M44), so both are offered alike
    coin, renown = _krog_for_seat_1(0, [COIN_1]), _krog_for_seat_1(0, [RENOWN_1])
    assert renown.mode == KROG and renown.current_player == 1
    assert np.flatnonzero(renown.legal_mask()).tolist() == [A.PASS]
    for p in (0, 2):
        assert coin.view(p) == renown.view(p)
        assert np.array_equal(coin.observe(p), renown.observe(p))
    none = _krog_for_seat_1(0, [])  # no coin, no reward: skipped, as before (MD10)
    assert none.active == 1 and none.mode == PREP
    s = blank(3)  # an empty Skat gives nothing for a coin reward: skipped
    give(s, 0, k("Tyr"))
    s.coins[:] = [50, 0, 0]
    s.skat = 0
    s.rewards[1, COIN_3] = 1
    complete(s)
    at(s, 0, SPOILS)
    act(s, "discard", k("Tyr"))
    assert s.active == 1 and s.mode == PREP and s.rewards[1, COIN_3] == 1


RUN = (
    "Hyggelig - Skålde - Kriger - Berserker - Bueskytter - Sjømann - Ränger - Göddar - "
    "Krigsjärl - Runecästr"
)  # might 14


def _trade_table(coins: int) -> MidgardState:
    """Trade (Midgard: 2 Hyggelig and a coin icon, difficulty 8). Seat 0 holds a coin reward of 1
    and troops with one Hyggelig each (0: might 14; 1) and one with three (2: might 0)."""
    s = blank(3)
    s.troops[0] = [
        troop(RUN),
        troop("Hyggelig - Skålde - Kriger - Berserker"),
        Troop.make_series(k("Hyggelig"), 3, 0, 0),
    ]
    s.coins[0] = coins
    s.skat = 50 - 12 - coins
    s.rewards[0, COIN_1] = 1
    s.open = [ch("Trade")]
    complete(s)
    return at(s, 0, ONSLAUGHT)


def test_M_E3_reveal_then_pay_the_coin_icon():
    s = _trade_table(0)
    assert not legal(s, "face", ch("Trade")) and legal(s, "reveal_reward", COIN_1)
    act(s, "reveal_reward", COIN_1)
    assert s.coins[0] == 1 and legal(s, "face", ch("Trade"))
    check_state(s, np.random.default_rng(0), deep=True)


def test_M_E3_reveal_during_the_troop_choice_pays_for_another_troop():
    # with one coin, Trade is faced with the Hyggelig series alone (the coin pays the icon); a
    # second troop would cost one more, which the coin reward can pay once revealed
    s = _trade_table(1)
    act(s, "face", ch("Trade"))
    assert s.mode == CHALLENGE
    assert legal(s, "select_troop", 2) and not legal(s, "select_troop", 0)
    assert legal(s, "reveal_reward", COIN_1)
    check_state(s, np.random.default_rng(0), deep=True)
    act(s, "select_troop", 2)
    assert not legal(s, "select_troop", 0) and legal(s, "finish")
    act(s, "reveal_reward", COIN_1)
    assert s.mode == CHALLENGE and s.coins[0] == 2
    assert legal(s, "select_troop", 0) and legal(s, "finish")
    act(s, "select_troop", 0)
    act(s, "finish")
    while s.mode != ONSLAUGHT:  # reaction windows and bonus rounds, if any, all pass
        act(s, "pass")
    assert s.won[0] == [ch("Trade")] and s.coins[0] == 0  # 1 extra troop + 1 coin icon
    s.check_invariants()


def test_M_E3_extra_troops_are_not_paid_twice():
    # a seat with exactly the coins for an extra troop and the coin icon (2): the extra troop's
    # coin was paid at ``finish`` and was counted again when the icons were checked after the
    # engagement window, so the attempt failed as if the icon were unmet
    s = _trade_table(2)
    act(s, "face", ch("Trade"))
    act(s, "select_troop", 0)
    act(s, "select_troop", 2)
    act(s, "finish")
    while s.mode != ONSLAUGHT:  # reaction windows and bonus rounds, if any, all pass
        act(s, "pass")
    assert s.won[0] == [ch("Trade")] and s.coins[0] == 0 and s.rewards[0, COIN_1] == 1
    s.check_invariants()


def test_M_E3_reveal_then_attack():
    s = blank(3)
    s.troops[0] = [troop(FOUR)]
    s.troops[1] = [troop(FIVE)]
    s.coins[0] = 0
    s.skat = 50 - 12
    s.rewards[0, COIN_1] = 1
    complete(s)
    at(s, 0, ONSLAUGHT)
    assert not legal(s, "attack", 0, 0) and legal(s, "reveal_reward", COIN_1)
    act(s, "reveal_reward", COIN_1)
    assert legal(s, "attack", 0, 0)


def test_M_E3_the_heuristic_reveals_to_hire_a_useful_card():
    s = _krog_for_seat_1(0, [COIN_1, COIN_2])
    give(s, 1, k("Hyggelig"))  # the Tyr fits any hand; 3 coins wanted to hire
    s.invalidate()
    agent = HeuristicAgent(0)
    a = agent.act(s.for_player(1))
    assert a == A.encode("reveal_reward", COIN_1)
    s.apply(a)
    a = agent.act(s.for_player(1))
    assert a == A.encode("reveal_reward", COIN_2)
    s.apply(a)
    assert agent.act(s.for_player(1)) == A.HIRE
