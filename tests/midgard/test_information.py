"""Two worlds, one public history: every view field the engine updates from private data.

Each test builds two tables from explicit hands (or reward piles) that differ only in cards some
seats cannot see, plays the same public moves in both, and checks that those seats' ``view`` and
``observe`` are equal. A field computed from hidden state would differ (as M-D3's known counts
did); ``determinize`` alone cannot catch that when it trusts the field too. Fields: known cards
(a face-down challenge bonus, cards shown when they leave a hand), placed bonuses (challenge and
battle), drawn and kept rewards, the reward put back on top, hidden hands and draws.
"""

from __future__ import annotations

import numpy as np

from deckzoo.envs.core.conformance import check_state
from deckzoo.envs.midgard.frames import KrogFrame
from deckzoo.envs.midgard.rules import BONUS, DEFEND, KEEP, ONSLAUGHT, PREP, SPOILS

from .util import A, act, at, blank, ch, complete, give, k, pass_forced, troop, world

PETER = "Kriger - Berserker - Thor - Ränger - Göddar"  # might 11


def _same_for(a, b, seats) -> None:
    """Seats ``seats`` see the same thing in both worlds (and both worlds pass the deep checks)."""
    for p in seats:
        va, vb = a.view(p), b.view(p)
        diff = sorted(key for key in va if va[key] != vb[key])
        shown = [(va[x], vb[x]) for x in diff]
        assert diff == [], f"seat {p} tells the worlds apart by {diff}: {shown}"
        assert np.array_equal(a.observe(p), b.observe(p)), f"seat {p}'s observation differs"
    rng = np.random.default_rng(0)
    for s in (a, b):
        check_state(s, rng, deep=True)


def _bonus(name: str) -> int:
    return k(name) - A.FIRST_ACTION_CARD


# ---- known cards: a face-down challenge bonus (M-D3) --------------------------------------------
def jotun_with_known_odin(placed: str):
    """Peter (seat 0) faces the Jotun. Seat 1 holds an Odin's Reprimand everyone saw it take (the
    Krog) and an unseen Loki's Trick, and puts ``placed`` face down on the Jotun."""
    s = blank(4)
    s.troops[0] = [troop(PETER)]
    s.world[0] = world("Jotunheim")
    s.open = [ch("Jotun")]
    give(s, 0, k("Fimbulwinter"))  # Peter may answer with a bonus of his own
    give(s, 1, k("Odin's Reprimand"), k("Loki's Trick"))
    s.known[1, k("Odin's Reprimand")] = 1
    complete(s, thing_top=[k("Hyggelig")])  # seat 1's replacement
    at(s, 0, ONSLAUGHT)
    act(s, "face", ch("Jotun"))
    act(s, "select_troop", 0)
    act(s, "finish")
    assert pass_forced(s) == [0, 1]  # the engagement window (MD15): nobody holds a fitting card
    assert s.mode == BONUS and s.current_player == 1
    act(s, "bonus", _bonus(placed))
    assert s.mode == BONUS and s.current_player == 0
    return s


def test_M_D3_a_face_down_challenge_bonus_keeps_the_known_cards_until_the_reveal():
    # "Bonuses are always placed facedown ... revealed simultaneously": before Peter chooses his
    # own bonus he must not learn whether the known +7 or an unseen card lies on the Jotun
    odin, loki = jotun_with_known_odin("Odin's Reprimand"), jotun_with_known_odin("Loki's Trick")
    _same_for(odin, loki, (0, 2, 3))
    assert odin.view(0)["known_in_hand"][1] == [k("Odin's Reprimand")]
    act(odin, "pass")  # the reveal shows the Odin's Reprimand: now it is known to have left
    assert odin.known[1].sum() == 0 and odin.valhalla[k("Odin's Reprimand")] == 1
    act(loki, "pass")
    assert loki.view(0)["known_in_hand"][1] == [k("Odin's Reprimand")]


def test_M_D3_determinize_may_deal_the_known_card_as_the_face_down_bonus():
    s = jotun_with_known_odin("Loki's Trick")
    rng = np.random.default_rng(3)
    seen = set()
    for _ in range(60):
        d = s.determinize(0, rng)
        d.check_invariants()
        seen.add(d.contest["b"][0])
        assert d.hands[1, k("Odin's Reprimand")] + (d.contest["b"][0] == k("Odin's Reprimand")) == 1
    assert k("Odin's Reprimand") in seen and len(seen) > 1


def test_determinize_keeps_an_event_for_the_face_down_bonus():
    # the bonus is the only event or reaction nobody has seen: however the other hidden hands
    # are dealt, it stays for the bonus
    s = blank(3)
    s.troops[0] = [troop(PETER)]
    s.world[0] = world("Jotunheim")
    s.open = [ch("Jotun")]
    give(s, 0, k("Fimbulwinter"))
    give(s, 1, k("Kriger"), k("Göddar"), k("Tyr"), k("Snedig"), k("Hyggelig"), k("Ränger"))
    give(s, 2, k("Loki's Trick"), k("Sjømann"))
    for x in range(A.FIRST_ACTION_CARD, len(s.valhalla)):
        if x not in (k("Fimbulwinter"), k("Loki's Trick")):
            s.valhalla[x] = 1
    complete(s)
    at(s, 0, ONSLAUGHT)
    act(s, "face", ch("Jotun"))
    act(s, "select_troop", 0)
    act(s, "finish")
    # the engagement window, then seat 1 holds no bonus card: forced passes (MD15)
    assert pass_forced(s) == [0, 1, 2, 1]
    act(s, "bonus", _bonus("Loki's Trick"))
    assert s.mode == BONUS and s.current_player == 0
    rng = np.random.default_rng(0)
    for _ in range(60):
        d = s.determinize(0, rng)
        assert d.contest["b"][0] == k("Loki's Trick")
        d.check_invariants()


# ---- placed bonuses: a battle bonus is secret until the reveal (MD16) ----------------------------
def _battle(attacker_places: bool):
    s = blank(3)
    s.troops[0] = [troop("Skålde - Kriger - Berserker - Bueskytter - Sjømann - Ränger")]
    s.troops[1] = [troop("Hyggelig - Skålde - Kriger - Berserker - Bueskytter")]
    s.world[:2] = world("Nidavellir")
    give(s, 0, k("Loki's Trick"))
    give(s, 1, k("Roots of Yggdrasil"))
    complete(s)
    at(s, 0, ONSLAUGHT)
    act(s, "attack", 0, 0)
    assert pass_forced(s) == [1]  # the attacked seat holds no Heimdall's Horn
    assert s.mode == DEFEND
    act(s, "defend", 0)
    if attacker_places:
        act(s, "bonus", _bonus("Loki's Trick"))
    else:
        act(s, "pass")
    assert s.mode == BONUS and s.current_player == 1
    return s


def test_two_worlds_a_battle_bonus_placed_or_not():
    _same_for(_battle(True), _battle(False), (1, 2))


# ---- rewards: which one was drawn, which one was kept and put back ----------------------------
def _niflheim(top: int):
    """Seat 0 travels to Niflheim and draws the reward ``top`` (renown 1 or coins 3)."""
    s = blank(3)
    s.troops[0] = [
        troop(x)
        for x in (
            "Kriger - Berserker - Bueskytter",
            "Skålde - Kriger - Berserker",
            "Sjømann - Ränger - Göddar",
        )
    ]
    s.reward_deck = [top]
    complete(s)
    at(s, 0, ONSLAUGHT)
    act(s, "travel", world("Niflheim"))
    for ti in range(3):
        act(s, "select_troop", ti)
    assert s.rewards[0, top] == 1
    return s


def test_two_worlds_a_hidden_reward_draw():
    _same_for(_niflheim(0), _niflheim(5), (1, 2))


def _asgard(drawn: list[int]):
    """Seat 0 travels to Asgard and draws the two rewards ``drawn`` (the last one first)."""
    s = blank(3)
    s.troops[0] = [troop("Skålde - Kriger - Berserker - Bueskytter - Sjømann - Ränger - Göddar")]
    s.reward_deck = list(drawn)
    complete(s)
    at(s, 0, ONSLAUGHT)
    act(s, "travel", world("Asgard"))
    act(s, "select_troop", 0)
    assert s.mode == KEEP and s.current_player == 0
    return s


def test_two_worlds_rewards_being_chosen_and_the_one_put_back():
    a, b = _asgard([2, 3]), _asgard([0, 4])  # renown 3 + coins 1, or renown 1 + coins 2
    _same_for(a, b, (1, 2))  # the two drawn cards are the chooser's to see
    act(a, "keep_reward", 3)
    act(b, "keep_reward", 4)
    _same_for(a, b, (1, 2))
    assert a.view(0)["reward_top"] == 2 and b.view(0)["reward_top"] == 0  # the chooser knows it
    assert a.view(1)["reward_top"] is None


# ---- known cards: what leaves a hand face up lowers the count, never the hand ------------------
def _hire_then_discard(hidden: str):
    """Seat 1 hires a Kriger from the Krog (everyone saw it), also holds an unseen ``hidden``,
    and discards a Kriger in its Spoils: is the known one gone or the unseen one?"""
    s = blank(3)
    s.krog = [k("Kriger")]
    give(s, 1, k(hidden), k("Hyggelig"))
    complete(s, thing_top=[k("Göddar"), k("Göddar")])  # the hire's card and seat 1's Hiring
    s.stack = [KrogFrame(1, ender=0)]
    s.invalidate()
    act(s, "hire")
    assert s.mode == PREP and s.current_player == 1 and s.known[1, k("Kriger")] == 1
    act(s, "end_phase")
    act(s, "end_phase")
    assert s.mode == SPOILS
    act(s, "discard", k("Kriger"))
    return s


def test_two_worlds_a_known_card_leaves_the_hand_face_up():
    kriger, goddar = _hire_then_discard("Kriger"), _hire_then_discard("Göddar")
    assert kriger.known[1].sum() == 0 and kriger.hands[1, k("Kriger")] == 1
    _same_for(kriger, goddar, (0, 2))


# ---- hidden hands and the draws that fill them ------------------------------------------------
def _dealt(first_card: str):
    s = blank(3)
    give(s, 1, k(first_card), k("Tyr"), k("Loki's Trick"))
    complete(s, thing_top=[k("Snedig")])
    at(s, 0, PREP)
    return s


def test_two_worlds_hidden_hands():
    _same_for(_dealt("Kriger"), _dealt("Odin's Reprimand"), (0, 2))
