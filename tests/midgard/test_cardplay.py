"""Midgard part 2: events, reaction windows and bonus cards, from explicit positions.

Every rulebook example (the Jotun with Thomas's and Peter's bonuses, the battle with Ivaldi's
Forge against Roots of Yggdrasil and Loki's Trick for the tie, both reaction examples), every
event and every reaction of the data file, and rulings M29, M30, M37, M42, M45a, MD15-MD18.
"""

from __future__ import annotations

import numpy as np

from deckzoo.envs.midgard.rules import (
    BONUS,
    DEFEND,
    ENGAGE,
    EV_DISCARD,
    MOVE,
    ONSLAUGHT,
    PREP,
    REACT,
    TAKE,
    MidgardGame,
)
from deckzoo.envs.midgard.turn import start_turn

from .util import (
    DATA,
    A,
    Troop,
    act,
    at,
    blank,
    ch,
    complete,
    give,
    k,
    legal,
    pass_forced,
    troop,
    world,
)

PETER = "Kriger - Berserker - Thor - Ränger - Göddar"  # might 11 (the rulebook's example)


def prep(s, p=0):
    at(s, p, PREP)
    s.events_left = 1
    s.invalidate()
    return s


def hand(s, p):
    return int(s.hands[p].sum())


def play(s, name):
    act(s, "play_event", k(name) - DATA.num_kinds + DATA.num_events + DATA.num_reactions)


def react(s, name):
    act(s, "react", k(name) - DATA.num_kinds + DATA.num_reactions)


def bonus(s, name):
    act(s, "bonus", k(name) - DATA.num_kinds + DATA.num_events + DATA.num_reactions)


# ---- bonuses in challenges (M30) ----------------------------------------------------------
def _jotun(peter_bonus=None, thomas_bonus=("Loki's Trick",), n=4, gifts=None):
    s = blank(n)
    for q, x in (gifts or {}).items():
        give(s, q, k(x))
    s.troops[0] = [troop(PETER)]
    s.world[0] = world("Jotunheim")
    s.open = [ch("Jotun")]
    for x in thomas_bonus:
        give(s, 1, k(x))
    if peter_bonus:
        give(s, 0, k(peter_bonus))
    complete(s, thing_top=[k("Hyggelig")])  # a bonus placer's replacement
    at(s, 0, ONSLAUGHT)
    act(s, "face", ch("Jotun"))
    act(s, "select_troop", 0)
    act(s, "finish")
    # the engagement window asks every seat with a card (MD15); nobody holds a fitting reaction
    assert all(q in (0, 1) or q in (gifts or {}) for q in pass_forced(s))
    return s


def test_jotun_example_thomas_and_peter_bonuses():
    # Peter (11) faces the Jotun (10, summer). Thomas, on his left, puts Loki's Trick (+5) on
    # the Jotun (15); Peter puts Odin's Reprimand (+7) on his troop (18): he wins.
    s = _jotun("Odin's Reprimand")
    assert s.mode == BONUS and s.current_player == 1  # the first opponent on the left first
    assert legal(s, "pass") and not legal(s, "bonus", k("Odin's Reprimand") - 13)
    thing = len(s.thing)
    bonus(s, "Loki's Trick")
    assert len(s.thing) == thing - 1 and hand(s, 1) == 1  # the placer's replacement comes at once
    assert s.mode == BONUS and s.current_player == 0  # seats 2 and 3 hold no card: not asked
    v = s.view(0)
    assert v["contest"]["bonus"] == ["face down", None]  # Peter knows one was placed, not which
    assert s.view(1)["contest"]["bonus"] == [k("Loki's Trick"), None]
    obs = s.observe(0)
    sl = s.game.layout.slice
    assert obs[sl("bonus_placed")].tolist() == [1.0, 0.0] and obs[sl("own_bonus")].sum() == 0
    bonus(s, "Odin's Reprimand")
    assert s.won[0] == [ch("Jotun")] and s.contest is None
    assert s.valhalla[k("Loki's Trick")] == 1 and s.valhalla[k("Odin's Reprimand")] == 1
    assert pass_forced(s) == [1]  # the won challenge's window: Thomas holds his replacement
    assert s.mode == ONSLAUGHT and s.current_player == 0
    s.check_invariants()


def test_a_bonus_is_not_the_turns_event_m45a():
    s = _jotun("Odin's Reprimand")
    s.events_left = 1  # as if this Onslaught followed a Preparation without an event
    bonus(s, "Loki's Trick")
    bonus(s, "Odin's Reprimand")
    assert s.events_left == 1
    s.events_left = 0
    start_turn(s, 1)  # Thomas, who used an event as a bonus, may still play one in his turn
    assert s.events_left == 1 and s.mode == PREP and s.current_player == 1


def test_jotun_lost_without_peters_bonus():
    s = _jotun("Odin's Reprimand")
    bonus(s, "Loki's Trick")
    act(s, "pass")  # 11 against 15
    assert s.won[0] == [] and ch("Jotun") in s.open and s.troops[0][0].engaged


def test_only_one_bonus_on_the_challenge_first_from_the_left():
    s = _jotun(None, (), gifts={1: "Freyr's Harvest", 2: "Fimbulwinter", 3: "Odin's Ravens"})
    # seat 1 passes, seat 2 places, seat 3 is not asked any more; Peter has no card: not asked
    assert s.current_player == 1
    act(s, "pass")
    assert s.current_player == 2
    bonus(s, "Fimbulwinter")  # +7: 17
    assert s.mode == ONSLAUGHT and s.won[0] == [] and s.hands[3, k("Odin's Ravens")] == 1


def test_no_bonus_card_anywhere_resolves_at_once():
    s = _jotun(None, ())
    assert s.mode == ONSLAUGHT and s.won[0] == [ch("Jotun")]


# ---- bonuses in battles (M37) ------------------------------------------------------------
def _battle(alice_card, ben_card="Roots of Yggdrasil"):
    s = blank(3)
    s.troops[0] = [troop("Skålde - Kriger - Berserker - Bueskytter - Sjømann - Ränger")]  # 6
    s.troops[1] = [
        troop("Göddar - Krigsjärl - Runecästr", engaged=True),
        troop("Hyggelig - Skålde - Kriger - Berserker - Bueskytter"),
    ]  # 4
    s.world[:2] = world("Nidavellir")
    give(s, 0, k(alice_card))
    give(s, 1, k(ben_card))
    complete(s)
    at(s, 0, ONSLAUGHT)
    act(s, "attack", 0, 0)
    assert pass_forced(s) == [1]  # the attacked seat is asked (MD15): no Heimdall's Horn
    assert s.mode == DEFEND
    act(s, "defend", 1)
    return s


def test_battle_example_ivaldi_against_roots():
    s = _battle("Ivaldi's Forge")
    assert s.mode == BONUS and s.current_player == 0  # the attacker, then the defender
    bonus(s, "Ivaldi's Forge")
    assert s.current_player == 1
    # simultaneous: Benjamin learns nothing of Alice's choice (her hand and the Thing unchanged)
    assert s.view(1)["contest"]["bonus"] == [None, None] and hand(s, 0) == 1
    assert s.observe(1)[s.game.layout.slice("bonus_placed")].tolist() == [0.0, 0.0]
    bonus(s, "Roots of Yggdrasil")  # 6 + 3 = 9 against 4 + 7 = 11
    assert s.rewards[1].sum() == 1 and s.rewards[0].sum() == 0
    assert s.valhalla[k("Ivaldi's Forge")] == 1 and s.valhalla[k("Roots of Yggdrasil")] == 1
    assert hand(s, 0) == 1 and hand(s, 1) == 1  # both drew a replacement
    s.check_invariants()


def test_battle_example_lokis_trick_wins_the_tie_for_the_attacker():
    s = _battle("Loki's Trick")
    bonus(s, "Loki's Trick")  # 6 + 5 = 11 against 11: ties go to the attacker
    bonus(s, "Roots of Yggdrasil")
    assert s.rewards[0].sum() == 1 and s.rewards[1].sum() == 0


def test_battle_determinize_resamples_the_attackers_secret_choice():
    s = _battle("Loki's Trick")
    bonus(s, "Loki's Trick")
    rng = np.random.default_rng(1)
    seen = {s.determinize(1, rng).contest["b"][0] for _ in range(40)}
    assert -1 in seen and len(seen) > 1
    # the same when Alice placed nothing: determinize does not leak whether she did
    s = _battle("Loki's Trick")
    act(s, "pass")
    assert s.current_player == 1
    seen = set()
    for _ in range(40):
        d = s.determinize(1, rng)
        seen.add(d.contest["b"][0])
        d.apply(A.encode("pass"))  # the reveal works on every sample
        d.check_invariants()
    assert -1 in seen and len(seen) > 1


# ---- events -----------------------------------------------------------------------------
def _event_table(n=3):
    s = blank(n)
    s.open = [ch(x) for x in ("Trade", "Scots", "Saxons", "Bjorkun", "Kraken", "Maelstrom")]
    return s


def _event_played(name: str, gifts=None):
    """Seat 0, given the event ``name`` (and each seat its ``gifts``, card names by seat), plays
    it in its preparation step on the event table."""
    s = _event_table()
    give(s, 0, k(name))
    for q, names in (gifts or {}).items():
        give(s, q, *(k(x) for x in names))
    complete(s)
    prep(s)
    play(s, name)
    pass_forced(s)  # its window: nobody holds Odin's Reprimand (or Frigg's Veil)
    return s


def _empty_thing(s, holder=2):
    """Every card not placed yet goes to seat ``holder``'s hand: the Thing starts empty, so a draw
    reshuffles Valhalla (and the Krog but its top) at once."""
    complete(s)
    for x in s.thing:
        s.hands[holder, x] += 1
    s.thing = []
    s.check_invariants()


def _pass_windows(s):
    while s.mode == REACT:
        act(s, "pass")


def test_M_D4_ivaldis_forge_cannot_draw_itself_back():
    # "after applying its effect, it should be dropped in Valhalla" (MD20): while the Forge draws
    # its two cards it is not in Valhalla, so the reshuffle cannot hand it back
    s = _event_table()
    give(s, 0, k("Ivaldi's Forge"))
    s.valhalla[k("Göddar")] = 1
    _empty_thing(s)
    prep(s)
    play(s, "Ivaldi's Forge")
    _pass_windows(s)
    assert s.hands[0, k("Ivaldi's Forge")] == 0 and hand(s, 0) == 1 and s.hands[0, k("Göddar")] == 1
    assert s.valhalla[k("Ivaldi's Forge")] == 1 and s.valhalla.sum() == 1 and s.played == []
    s.check_invariants()


def test_M_D4_bragis_song_cannot_repeat_itself():
    s = _event_table()
    give(s, 0, k("Bragi's Song"))
    _empty_thing(s)
    prep(s)
    play(s, "Bragi's Song")  # draw 1 (nothing to draw) and one more event allowed
    _pass_windows(s)
    assert hand(s, 0) == 0 and s.valhalla[k("Bragi's Song")] == 1 and s.events_left == 1
    assert not legal(s, "play_event", k("Bragi's Song") - 13) and s.legal_actions() == [A.END_PHASE]


def test_M_D4_an_event_stays_in_play_until_its_effect_is_done():
    s = _event_played("Loki's Trick", {0: ["Kriger"], 1: ["Thor"]})
    assert s.mode == EV_DISCARD  # the effect is resolving: the card is in play, not in Valhalla
    assert s.valhalla[k("Loki's Trick")] == 0
    assert s.view(1)["played"] == [
        {"card": k("Loki's Trick"), "seat": 0, "cancelled": False, "immune": [], "resolving": True}
    ]
    act(s, "discard", k("Kriger"))
    act(s, "discard", k("Thor"))
    act(s, "take_card", k("Thor"))
    assert s.played == [] and s.valhalla[k("Loki's Trick")] == 1 and s.mode == PREP
    s.check_invariants()


def test_one_event_per_preparation_and_bragi_allows_another():
    s = _event_table()
    give(s, 0, k("Freyr's Harvest"), k("Odin's Ravens"), k("Bragi's Song"))
    complete(s)
    prep(s)
    play(s, "Freyr's Harvest")
    assert s.coins[0] == 8 and not legal(s, "play_event", k("Odin's Ravens") - 13)
    s = _event_table()
    give(s, 0, k("Odin's Ravens"), k("Bragi's Song"))
    complete(s)
    prep(s)
    play(s, "Bragi's Song")  # draw 1, and another event may be played
    assert (
        hand(s, 0) == 2 and s.events_left == 1 and legal(s, "play_event", k("Odin's Ravens") - 13)
    )
    play(s, "Odin's Ravens")  # draw 1, 1 coin
    assert hand(s, 0) == 2 and s.coins[0] == 7 and s.events_left == 0
    assert (
        s.valhalla[k("Bragi's Song")] == 1 and s.valhalla[k("Odin's Ravens")] == 1
    )  # used: Valhalla


def test_events_only_in_preparation():
    s = _event_table()
    give(s, 0, k("Freyr's Harvest"))
    complete(s)
    at(s, 0, ONSLAUGHT)
    assert not legal(s, "play_event", k("Freyr's Harvest") - 13)


def test_lokis_trick_everyone_discards_the_player_keeps_one():
    s = _event_table()
    give(s, 0, k("Loki's Trick"), k("Kriger"))
    give(s, 1, k("Thor"))
    give(s, 2, k("Mimir's Well"), k("Hyggelig"))
    complete(s)
    prep(s)
    play(s, "Loki's Trick")
    assert pass_forced(s) == [1, 2]  # its window asks every other seat with a card (MD15)
    assert s.mode == EV_DISCARD and s.current_player == 0  # clockwise from the player
    act(s, "discard", k("Kriger"))
    assert s.current_player == 1 and legal(s, "discard", k("Thor"))
    act(s, "discard", k("Thor"))
    act(s, "discard", k("Mimir's Well"))
    assert (
        s.mode == TAKE
        and s.current_player == 0
        and sorted(s.pool) == sorted([k("Kriger"), k("Thor"), k("Mimir's Well")])
    )
    act(s, "take_card", k("Thor"))
    assert (
        s.hands[0, k("Thor")] == 1
        and s.krog == [k("Kriger")]
        and s.valhalla[k("Mimir's Well")] == 1
    )
    assert s.mode == PREP and s.pool == []
    s.check_invariants()


def test_urds_auspices_renews_to_exactly_six():
    s = _event_table()
    s.open = [ch("Trade"), ch("Scots")]
    s.ch_deck = [
        ch(x) for x in ("Jotun", "Hel", "Draugr", "Saxons", "Bjorkun", "Dispute of Runes", "Kraken")
    ]
    give(s, 0, k("Urd's Auspices"))
    complete(s)
    prep(s)
    play(s, "Urd's Auspices")
    # Dispute of Runes ("open another") opened during the renewal asks for nothing more (M33)
    assert sorted(s.open) == sorted(
        ch(x) for x in ("Kraken", "Dispute of Runes", "Bjorkun", "Saxons", "Draugr", "Hel")
    )
    assert ch("Trade") in s.ch_out and ch("Scots") in s.ch_out
    s.check_invariants()


def test_ivaldis_forge_draws_two():
    s = _event_table()
    give(s, 0, k("Ivaldi's Forge"))
    complete(s, thing_top=[k("Kriger"), k("Tyr")])
    prep(s)
    play(s, "Ivaldi's Forge")
    assert s.hands[0, k("Kriger")] == 1 and s.hands[0, k("Tyr")] == 1 and hand(s, 0) == 2


def test_roots_of_yggdrasil_regroups_own_troops():
    s = _event_table()
    s.troops[0] = [troop("Kriger - Berserker - Bueskytter", engaged=True)]
    s.troops[1] = [troop("Kriger - Berserker - Bueskytter", engaged=True)]
    give(s, 0, k("Roots of Yggdrasil"))
    complete(s)
    prep(s)
    play(s, "Roots of Yggdrasil")
    assert not s.troops[0][0].engaged and s.troops[1][0].engaged


def test_mimirs_well_takes_from_valhalla_but_not_itself():
    s = _event_table()
    s.valhalla[k("Göddar")] = 1
    give(s, 0, k("Mimir's Well"))
    complete(s)
    prep(s)
    play(s, "Mimir's Well")
    assert (
        s.mode == TAKE
        and legal(s, "take_card", k("Göddar"))
        and not legal(s, "take_card", k("Mimir's Well"))
    )
    act(s, "take_card", k("Göddar"))
    assert s.hands[0, k("Göddar")] == 1 and s.known[0, k("Göddar")] == 1
    s = _event_table()
    give(s, 0, k("Mimir's Well"))
    complete(s)
    prep(s)
    play(s, "Mimir's Well")  # Valhalla holds only the Mimir's Well itself: nothing to take
    assert s.mode == PREP


def test_feast_in_the_krog_takes_from_the_krog():
    s = _event_table()
    s.krog = [k("Tyr"), k("Kriger")]
    give(s, 0, k("Feast in the Krog"))
    complete(s)
    prep(s)
    play(s, "Feast in the Krog")
    act(s, "take_card", k("Tyr"))
    assert s.krog == [k("Kriger")] and s.hands[0, k("Tyr")] == 1


def test_freyrs_harvest_and_valkyries_choice():
    s = _event_played("Freyr's Harvest")
    assert s.coins[0] == 8 and s.skat == 50 - 18 - 2
    s = _event_played("Valkyrie's Choice")
    assert s.rewards[0].sum() == 1


def test_fimbulwinter_turns_the_calendar_and_can_end_the_game():
    s = _event_played("Fimbulwinter")
    assert s.calendar == 1 and s.season() == 1
    s = _event_table()
    s.calendar = 7
    give(s, 0, k("Fimbulwinter"))
    complete(s)
    prep(s)
    play(s, "Fimbulwinter")
    assert s.is_terminal() and s.end_reason == "calendar (M47)"


def test_hels_toll_costs_everyone_a_coin():
    s = _event_table()
    s.coins[2], s.skat = 0, s.skat + 6
    give(s, 0, k("Hel's Toll"))
    complete(s)
    prep(s)
    play(s, "Hel's Toll")  # an attack event: everyone at the table, the player too (MD17)
    assert s.coins.tolist() == [5, 5, 0]
    s.check_invariants()


def test_omen_of_ragnarok_everyone_discards():
    s = _event_table()
    give(s, 0, k("Omen of Ragnarok"), k("Kriger"))
    give(s, 2, k("Skuld's Thread"))
    complete(s)
    prep(s)
    play(s, "Omen of Ragnarok")
    assert pass_forced(s) == [2]  # seat 1 has no card: not asked
    assert s.mode == EV_DISCARD and s.current_player == 0
    act(s, "discard", k("Kriger"))
    assert s.current_player == 2  # seat 1 has no card: skipped
    act(s, "discard", k("Skuld's Thread"))
    assert s.krog == [k("Kriger")] and s.valhalla[k("Skuld's Thread")] == 1 and s.mode == PREP


def test_sleipnirs_gallop_moves_without_a_trip():
    s = _event_played("Sleipnir's Gallop")
    assert s.mode == MOVE and not legal(s, "move", world("Midgard"))
    act(s, "move", world("Asgard"))
    assert s.world[0] == world("Asgard") and not s.made_trip and s.rewards[0].sum() == 0


def test_fenrirs_howl_and_hermods_ride():
    s = _event_table()
    s.world[:] = [world("Asgard"), world("Niflheim"), world("Midgard")]
    give(s, 0, k("Fenrir's Howl"))
    give(s, 1, k("Hermod's Ride"))
    complete(s)
    prep(s)
    play(s, "Fenrir's Howl")
    assert pass_forced(s) == [1]  # the Fenrir's Howl window: Hermod's Ride does not answer it
    assert s.world.tolist() == [0, 0, 0]
    assert s.mode == REACT and s.current_player == 1  # moved by an effect: may answer
    react(s, "Hermod's Ride")
    assert s.mode == MOVE and s.current_player == 1
    act(s, "move", world("Niflheim"))
    assert (
        s.world.tolist() == [0, world("Niflheim"), 0] and s.mode == PREP and s.current_player == 0
    )
    s.check_invariants()


def test_norns_weaving_opens_one_more():
    s = _event_played("Norns' Weaving")
    assert len(s.open) == 7


def test_thjazis_ambush_each_opponent_engages_one():
    s = _event_table()
    s.troops[0] = [troop("Kriger - Berserker - Bueskytter")]
    s.troops[1] = [troop("Kriger - Berserker - Bueskytter"), troop("Hyggelig - Skålde - Kriger")]
    give(s, 0, k("Thjazi's Ambush"))
    complete(s)
    prep(s)
    play(s, "Thjazi's Ambush")
    assert s.mode == ENGAGE and s.current_player == 1  # seat 2 has no troop: skipped
    act(s, "select_troop", 1)
    assert s.troops[1][1].engaged and not s.troops[1][0].engaged and not s.troops[0][0].engaged
    assert s.mode == PREP


# ---- reactions (M42) ----------------------------------------------------------------------
def test_reaction_example_1_odins_reprimand_cancels_lokis_trick():
    s = _event_table()
    give(s, 0, k("Loki's Trick"), k("Kriger"))
    give(s, 1, k("Odin's Reprimand"), k("Thor"))
    give(s, 2, k("Hyggelig"))
    complete(s, thing_top=[k("Göddar")])
    prep(s)
    play(s, "Loki's Trick")
    assert s.mode == REACT and s.current_player == 1 and legal(s, "pass")
    assert s.view(2)["played"][0]["card"] == k("Loki's Trick")
    react(s, "Odin's Reprimand")
    assert s.hands[1, k("Göddar")] == 1  # Bethany draws a replacement at once
    assert pass_forced(s) == [0, 2]  # the Odin's Reprimand's own window
    assert s.mode == PREP and s.played == []  # Loki's Trick cancelled: nobody discards
    assert hand(s, 0) == 1 and hand(s, 1) == 2 and hand(s, 2) == 1
    assert s.valhalla[k("Loki's Trick")] == 1 and s.valhalla[k("Odin's Reprimand")] == 1
    s.check_invariants()


def _charlie(balder=True, opp=None, troop_text="Göddar - Krigsjärl - Runecästr"):
    s = blank(3)
    s.troops[0] = [troop(troop_text)]  # might 8, no Snedig
    s.world[0] = world("Nidavellir")
    s.open = [ch("Exploring the Underground")]  # Snedig, difficulty 8
    if balder:
        give(s, 0, k("Balder's Assistance"))
    if opp:
        give(s, 1, k(opp))
    complete(s, thing_top=[k("Hyggelig"), k("Skålde")])  # replacements
    return at(s, 0, ONSLAUGHT)


def test_reaction_example_2_balders_assistance():
    s = _charlie()
    assert legal(
        s, "face", ch("Exploring the Underground")
    )  # all but one requirement, with Balder (M29)
    act(s, "face", ch("Exploring the Underground"))
    act(s, "select_troop", 0)
    act(s, "finish")
    assert s.mode == REACT and s.current_player == 0
    react(s, "Balder's Assistance")
    assert hand(s, 0) == 1  # the replacement
    if s.mode == BONUS:  # the replacement may be a bonus card
        act(s, "pass")
    assert s.won[0] == [ch("Exploring the Underground")]
    s.check_invariants()


def test_without_balder_the_requirement_blocks_and_passing_fails_the_attempt():
    assert not legal(_charlie(balder=False), "face", ch("Exploring the Underground"))
    s = _charlie()
    act(s, "face", ch("Exploring the Underground"))
    act(s, "select_troop", 0)
    act(s, "finish")
    act(s, "pass")  # the requirement stays unmet: the attempt fails, the troop stays engaged
    assert s.mode == ONSLAUGHT and s.won[0] == [] and s.troops[0][0].engaged


def _face_with_balder(challenge, troops, coins, gifts=()):
    """Seat 0, in Midgard with ``coins``, holds Balder's Assistance (and ``gifts``), faces
    ``challenge`` with all its ``troops`` and plays Balder's Assistance in the engagement window."""
    s = blank(3)
    s.troops[0] = list(troops)
    s.skat += int(s.coins[0]) - coins
    s.coins[0] = coins
    s.open = [ch(challenge)]
    give(s, 0, k("Balder's Assistance"), *(k(x) for x in gifts))
    complete(s, thing_top=[k("Hyggelig")])  # the replacement for the Balder
    at(s, 0, ONSLAUGHT)
    assert legal(s, "face", ch(challenge))
    act(s, "face", ch(challenge))
    for ti in range(len(troops)):
        act(s, "select_troop", ti)
    act(s, "finish")
    assert s.mode == REACT and s.current_player == 0
    react(s, "Balder's Assistance")
    pass_forced(s)  # the bonus round asks seat 0, which holds no event or reaction
    return s


def test_M_D5_trade_with_no_coin_and_balders_assistance():
    # "Ignore one of the requirements": the coin icon is a requirement (MD21); ignored, it is not
    # paid, so a seat without coins may face Trade while it holds Balder's Assistance
    hyggelig = Troop.make_series(k("Hyggelig"), 2, 1, 1)  # Hyggelig x2, Tyr, Thor: might 9
    s = blank(3)
    s.troops[0] = [hyggelig]
    s.skat += 6
    s.coins[0] = 0
    s.open = [ch("Trade")]
    complete(s)
    assert not legal(at(s, 0, ONSLAUGHT), "face", ch("Trade"))  # no coin, no Balder
    s = _face_with_balder("Trade", [hyggelig], coins=0)
    assert s.mode == ONSLAUGHT and s.won[0] == [ch("Trade")] and s.coins[0] == 0
    s.check_invariants()


def test_M_D5_jormungand_with_balders_assistance_ignoring_the_discard():
    strong = troop(
        "Skålde - Kriger - Berserker - Bueskytter - Sjømann - Tyr - Göddar - Krigsjärl - Runecästr"
    )
    s = _face_with_balder("Jormungand", [strong], coins=6, gifts=["Kriger"])
    assert s.mode == ONSLAUGHT and s.won[0] == [ch("Jormungand")]  # no discard was asked
    assert s.hands[0, k("Kriger")] == 1 and s.hands[0, k("Hyggelig")] == 1 and s.krog == []
    assert s.coins[0] == 6
    s.check_invariants()


def test_odins_reprimand_cancels_a_reaction():
    s = _charlie(opp="Odin's Reprimand")
    act(s, "face", ch("Exploring the Underground"))
    act(s, "select_troop", 0)
    act(s, "finish")
    react(s, "Balder's Assistance")
    assert s.mode == REACT and s.current_player == 1  # a reaction is itself a trigger
    react(s, "Odin's Reprimand")
    assert pass_forced(s) == [0, 1]  # the Odin's window, then Skuld's asks seat 1 (MD15)
    assert s.won[0] == [] and s.contest is None and s.mode == ONSLAUGHT
    s.check_invariants()


def test_skulds_thread_and_sifs_blessing_change_the_difficulty():
    s = _charlie(
        balder=False, opp="Skuld's Thread", troop_text="Göddar - Krigsjärl - Runecästr - Snedig"
    )
    act(s, "face", ch("Exploring the Underground"))
    act(s, "select_troop", 0)
    act(s, "finish")
    assert s.mode == REACT and s.current_player == 1
    react(s, "Skuld's Thread")  # 8 + 2 = 10 > might 9
    while s.mode == BONUS:
        act(s, "pass")
    assert s.won[0] == []
    s = _charlie(balder=False, troop_text="Krigsjärl - Runecästr - Snedig")  # might 7 against 8
    give(s, 0, k("Sif's Blessing"))
    s.thing.remove(k("Sif's Blessing"))
    s.invalidate()
    act(s, "face", ch("Exploring the Underground"))
    act(s, "select_troop", 0)
    act(s, "finish")
    react(s, "Sif's Blessing")
    while s.mode == BONUS:
        act(s, "pass")
    assert s.won[0] == [ch("Exploring the Underground")]


def test_njords_favour_when_an_opponent_wins():
    s = _charlie(
        balder=False, opp="Njord's Favour", troop_text="Göddar - Krigsjärl - Runecästr - Snedig"
    )
    act(s, "face", ch("Exploring the Underground"))
    act(s, "select_troop", 0)
    act(s, "finish")
    assert pass_forced(s) == [1]  # the engagement window: Njord's Favour does not answer it
    assert s.mode == BONUS and s.current_player == 1  # the Njord's Favour is a bonus card
    act(s, "pass")
    assert s.won[0] == [ch("Exploring the Underground")]
    assert s.mode == REACT and s.current_player == 1
    react(s, "Njord's Favour")
    assert s.coins[1] == 7 and s.mode == ONSLAUGHT


def test_heimdalls_horn_lets_the_attacked_defend():
    s = blank(3)
    s.troops[0] = [troop("Kriger - Berserker - Bueskytter")]
    s.troops[1] = [troop("Göddar - Krigsjärl - Runecästr", engaged=True)]
    give(s, 1, k("Heimdall's Horn"))
    complete(s)
    at(s, 0, ONSLAUGHT)
    act(s, "attack", 0, 0)
    assert s.mode == REACT and s.current_player == 1
    react(s, "Heimdall's Horn")
    assert s.mode in (DEFEND, REACT) and not s.troops[1][0].engaged
    act(s, "defend", 0)
    while s.mode == BONUS:
        act(s, "pass")
    assert s.rewards[1].sum() == 1


def test_friggs_veil_makes_immune_to_an_attack_event():
    s = _event_table()
    give(s, 0, k("Hel's Toll"))
    give(s, 2, k("Frigg's Veil"))
    complete(s)
    prep(s)
    play(s, "Hel's Toll")
    assert s.mode == REACT and s.current_player == 2
    react(s, "Frigg's Veil")
    assert s.coins.tolist() == [5, 5, 6]


def test_windows_ask_every_seat_with_a_card_and_skip_empty_hands():
    # MD15: every seat the trigger lets answer is asked while it holds a card, a fitting reaction
    # or not (a forced pass); a seat with no card is not asked (its hand size is public)
    s = _event_table(4)
    give(s, 0, k("Freyr's Harvest"))
    give(s, 1, k("Njord's Favour"))  # not for this trigger
    give(s, 2, k("Odin's Reprimand"))
    complete(s)
    prep(s)
    play(s, "Freyr's Harvest")
    assert s.mode == REACT and s.current_player == 1 and s.legal_actions().tolist() == [A.PASS]
    assert s.observe(1)[s.game.layout.slice("window")].sum() == 1
    act(s, "pass")
    assert s.current_player == 2 and legal(s, "react", k("Odin's Reprimand") - A.FIRST_REACTION)
    act(s, "pass")  # seat 3 holds nothing: the window is over
    assert s.coins[0] == 8 and s.mode == PREP


def test_aec_agent_selection_follows_windows_and_bonus_rounds():
    from deckzoo.envs import make

    env = make("midgard_v1", num_players=4, start_position=4, max_turns=60)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    out_of_turn = 0
    for agent in env.agent_iter():
        obs, _rew, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        s = env.unwrapped.game_state
        assert agent == f"player_{s.current_player}"
        if s.mode in (REACT, BONUS) and s.current_player != s.active:
            out_of_turn += 1
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert out_of_turn > 0


def test_deep_checks_on_every_part_2_decision():
    """Exact masks, JSON round trips, observe == f(view) and determinize on every reaction window,
    bonus round, event discard/engage and move met in short random games where the seat has a
    choice, and on the first forced passes (MD15) of each mode in each game."""
    from deckzoo.envs.core.conformance import check_state

    modes = (REACT, BONUS, EV_DISCARD, ENGAGE, MOVE)
    seen = set()
    rng = np.random.default_rng(5)
    for n in (3, 5):
        game = MidgardGame(n, start_position=4, max_turns=30)
        for g in range(4):
            s = game.new_state(100 * n + g)
            forced = dict.fromkeys(modes, 0)
            while not s.is_terminal():
                legal = np.flatnonzero(s.legal_mask())
                if s.mode in modes and (len(legal) > 1 or forced[s.mode] < 3):
                    forced[s.mode] += len(legal) == 1
                    seen.add((s.mode, len(legal) > 1))
                    check_state(s, rng, deep=True)
                s.apply(int(rng.choice(legal)))
    assert seen >= {(REACT, True), (REACT, False), (BONUS, True), (BONUS, False)}
