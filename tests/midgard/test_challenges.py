"""Challenge requirements, difficulty, might and travel as pure functions, with the rulebook's
worked examples (Draugr/Hel, Peter against the Jotun, Surt, Hrodsorm and the seasons)."""

from __future__ import annotations

import dataclasses

import pytest

from deckzoo.envs.midgard import challenges as C

from .util import DATA, Troop, troop

JOTUN = DATA.challenge_by_name("Jotun")
SURT = DATA.challenge_by_name("Surt, King of Fire Giants")
VEKKSORM = DATA.challenge_by_name("Vekksorm of the Seas")
HRODSORM = DATA.challenge_by_name("Hrodsorm Dragon")
TROLL = DATA.challenge_by_name("Trollgjaldi")
PETER = troop("Kriger - Berserker - Thor - Ränger - Göddar")
# Alfred's troop: the Tyr stands for the Ränger
ALFRED = troop(
    "Kriger - Berserker - Bueskytter - Sjømann - Tyr - Göddar - Krigsjärl - Runecästr - Snedig"
)
SUMMER_POS, WINTER_POS = 0, 1


def test_seasons_alternate_from_summer_m46():
    assert [C.season_of(p) for p in range(8)] == [0, 1] * 4


def test_wildcard_is_not_a_requirement_draugr_and_hel():
    assert not C.meets(DATA.challenge_by_name("Draugr"), [ALFRED])  # the Tyr stands for the Ränger
    assert C.unmet_icons(DATA.challenge_by_name("Draugr"), [ALFRED]) == 1
    assert C.meets(DATA.challenge_by_name("Hel"), [ALFRED])  # Bueskytter, Runecästr and Tyr


def test_peter_against_the_jotun_summer_and_winter():
    assert PETER.might(DATA.might) == 11
    assert C.meets(JOTUN, [PETER])  # Berserker and Göddar
    assert (
        C.difficulty(JOTUN, SUMMER_POS) == 10 and C.might(JOTUN, [PETER], DATA.might) >= 10
    )  # wins by 1
    assert C.difficulty(JOTUN, WINTER_POS) == 12 and C.might(JOTUN, [PETER], DATA.might) < 12
    # with Thomas's +5 on the Jotun and Peter's +7 on his troop: 15 against 18
    assert C.difficulty(JOTUN, SUMMER_POS, bonus=5) == 15
    assert C.might(JOTUN, [PETER], DATA.might, bonus=7) == 18


def test_surt_three_troops_and_coins():
    t1 = troop("Kriger - Berserker - Thor - Ränger")
    t2 = troop("Tyr - Krigsjärl - Runecästr")
    t3 = troop("Hyggelig - Skålde - Snedig")
    assert not C.meets(SURT, [t1])  # "realizes that this is not enough"
    assert C.meets(SURT, [t1, t2])  # requirements spread over the troops
    assert C.cost(SURT, 2) == 1 and C.cost(SURT, 3) == 2  # first troop free, 1 coin each extra
    assert C.might(SURT, [t1, t2, t3], DATA.might) == 20 >= SURT.difficulty == 17
    # Surt's (synthetic) summer bonus +2 makes "the Might of his two troops is not enough" hold:
    # 18 < 19
    assert C.might(SURT, [t1, t2], DATA.might) == 18 < C.difficulty(SURT, SUMMER_POS) == 19
    assert not C.feasible(SURT, [t1, t2, t3], coins=1, hand_size=5)
    assert C.feasible(SURT, [t1, t2, t3], coins=2, hand_size=0)


def test_hrodsorm_and_the_seasons():
    # Hrodsorm open and summer: Vekksorm 10 + 1 + 1 = 12;
    # Trollgjaldi turns the calendar: 10 + 1 = 11
    active = [HRODSORM, VEKKSORM, TROLL]
    bonus = C.lasting_bonus_for(VEKKSORM, active)
    assert bonus == 1 and C.lasting_bonus_for(HRODSORM, active) == 0  # "all other" challenges
    assert C.difficulty(VEKKSORM, SUMMER_POS, bonus) == 12
    assert C.difficulty(VEKKSORM, WINTER_POS, bonus) == 11
    assert C.difficulty(JOTUN, WINTER_POS, bonus) == 13  # cumulative with the season


def test_draugr_minus_one_per_troop():
    draugr = DATA.challenge_by_name("Draugr")
    a, b = troop("Ränger - Göddar - Krigsjärl"), troop("Hyggelig - Skålde - Kriger")
    assert C.might(draugr, [a, b], DATA.might) == (1 + 2 + 3) + (0 + 1 + 1) - 2


def test_coin_and_discard_icons():
    trade = DATA.challenge_by_name("Trade")
    t = troop("Hyggelig - Skålde - Kriger")
    two = [troop("Hyggelig - Skålde - Kriger"), troop("Hyggelig - Skålde - Kriger")]
    assert C.cost(trade, 2) == 2 and C.feasible(trade, two, coins=2, hand_size=0)
    assert not C.feasible(trade, two, coins=1, hand_size=0)
    assert not C.feasible(trade, [t], coins=5, hand_size=0)  # one Hyggelig only
    fenrir = DATA.challenge_by_name("Fenrir")
    k = troop("Kriger - Berserker - Bueskytter")
    assert C.feasible(fenrir, [k], coins=0, hand_size=1)
    assert not C.feasible(fenrir, [k], coins=0, hand_size=0)  # M34a: a card to discard is needed


def test_an_ignored_icon_is_any_requirement_icon_md21():
    """One "ignore" covers one icon of any kind: a class (Draugr without its Ränger), the coin
    (Trade without a coin), the discard (Fenrir without a card); with every icon met it skips a
    cost: the discard icon first, then the coin icon; two icons unmet are too many."""
    draugr, trade, fenrir = (DATA.challenge_by_name(x) for x in ("Draugr", "Trade", "Fenrir"))
    hyggelig = Troop.make_series(0, 2, 1)
    k = troop("Kriger - Berserker - Bueskytter")
    assert C.unmet_requirements(draugr, [ALFRED], coins=0, hand_size=0) == 1
    assert C.feasible(draugr, [ALFRED], 0, 0, ignore=1) and not C.feasible(draugr, [ALFRED], 0, 0)
    assert C.feasible(trade, [hyggelig], 0, 0, ignore=1) and not C.feasible(trade, [hyggelig], 0, 0)
    assert C.ignored_costs(trade, [hyggelig], 0, 0, ignore=1) == (True, False)
    assert C.ignored_costs(trade, [hyggelig], 3, 0, ignore=1) == (True, False)  # met, yet skipped
    assert C.ignored_costs(trade, [hyggelig], 3, 0, ignore=0) == (False, False)
    assert C.feasible(fenrir, [k], 0, 0, ignore=1)
    assert C.ignored_costs(fenrir, [k], 0, 0, 1) == (False, True)
    assert C.ignored_costs(fenrir, [k], 0, 4, ignore=1) == (False, True)
    assert C.ignored_costs(draugr, [ALFRED], 0, 0, ignore=1) == (False, False)  # on the Ränger
    both = dataclasses.replace(trade, discard=1)  # no card has both; a data variant could
    assert C.ignored_costs(both, [hyggelig], 3, 3, ignore=1) == (False, True)
    assert C.ignored_costs(both, [hyggelig], 3, 3, ignore=2) == (True, True)
    assert C.ignored_costs(both, [hyggelig], 0, 3, ignore=1) == (True, False)  # the unmet coin
    assert not C.feasible(both, [hyggelig], 0, 0, ignore=1)  # coin and discard unmet: two icons
    assert C.troop_cost(1) == 0 and C.troop_cost(3) == 2


def test_feasible_sets_lists_every_subset():
    t1 = troop("Kriger - Berserker - Thor - Ränger")
    t2 = troop("Tyr - Krigsjärl - Runecästr")
    t3 = troop("Hyggelig - Skålde - Snedig")
    sets = C.feasible_sets(SURT, [t1, t2, t3], [0, 1, 2], coins=2, hand_size=0)
    assert sets == [(0, 1), (0, 1, 2)]
    assert C.feasible_sets(SURT, [t1, t2, t3], [0, 1, 2], coins=0, hand_size=0) == []


TRAVEL = [
    ([4], [4], True),
    ([5], [4], True),
    ([3], [4], False),
    ([3, 4], [3, 4], True),
    ([4, 3], [3, 4], True),
    ([3, 3], [3, 4], False),
    ([3, 4, 5], [3, 4], False),
    ([3, 3], [2, 2], True),  # Muspellsheim as printed: any two troops (M24)
    ([6], [6], True),
    ([3, 3, 3], [3, 3, 3], True),
]


@pytest.mark.parametrize("sizes,need,ok", TRAVEL)
def test_travel_requirements(sizes, need, ok):
    assert C.travel_assignable(sizes, need) == ok


def test_thor_counts_as_one_card_for_travel():
    t = troop("Skålde - Thor - Bueskytter")  # 3 cards, though it covers 4 classes
    assert t.ncards() == 3 and not C.travel_assignable([t.ncards()], [4])
    assert C.travel_completable({0: 3, 1: 4, 2: 6}, [0], [3, 4])
    assert not C.travel_completable({0: 3, 1: 3}, [0], [3, 4])


def _unmet_icons_by_arrays(ch, troops) -> int:
    """The first ``unmet_icons``: Troop.naturals / wild_counts summed as numpy arrays."""
    import numpy as np

    nat = np.zeros(len(ch.classes), dtype=np.int64)
    tyr = thor = 0
    for t in troops:
        nat += t.naturals()
        a, b = t.wild_counts()
        tyr += a
        thor += b
    return int(np.count_nonzero(nat < np.asarray(ch.classes))) + (tyr < ch.tyr) + (thor < ch.thor)


def test_unmet_icons_equals_the_array_count_on_played_troops():
    """The plain-Python count equals the array one for every challenge and every set of up to 3
    troops laid down in random games (series and sequences, Tyr, Thor, Snedig)."""
    from itertools import combinations

    import numpy as np

    from deckzoo.envs.midgard.rules import MidgardGame

    rng = np.random.default_rng(5)
    seen: dict[str, Troop] = {}
    for seed in range(4):
        s = MidgardGame(num_players=4).new_state(seed)
        while not s.is_terminal() and len(seen) < 400:
            for ts in s.troops:
                for t in ts:
                    seen.setdefault(repr(t), t)
            legal = np.flatnonzero(s.legal_mask())
            s.apply(int(rng.choice(legal)))
    troops = list(seen.values())
    assert len(troops) > 50 and any(t.series for t in troops) and not all(t.series for t in troops)
    sets = [list(c) for k in (1, 2, 3) for c in combinations(troops[:40], k)][::7]
    checked = 0
    for ch in DATA.challenges:
        for group in sets:
            assert C.unmet_icons(ch, group) == _unmet_icons_by_arrays(ch, group), (ch.name, group)
            checked += 1
    assert checked > 1000
