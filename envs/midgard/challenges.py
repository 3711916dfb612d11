"""Midgard challenges: requirements, difficulty and might as pure functions (rulings M27-M34, M46).

Requirements are met by the union of the engaged troops (M28): every class icon needs that many
*natural* cards (M20), a Tyr/Thor icon needs that wildcard present, coin icons are paid and
discard icons discarded at declaration. The first troop is free, each extra troop costs 1 coin.
An "ignore a requirement" reaction (Balder's Assistance) ignores whole icons of any of these
kinds, subscript included (MD21): an ignored coin icon is not paid, an ignored discard not made.
"""

from __future__ import annotations

from itertools import combinations

from .cards import SNEDIG, THOR, TYR, Challenge

SUMMER, WINTER = 0, 1
CALENDAR_STEPS = 8


def season_of(position: int) -> int:
    """Calendar positions 0-7; the sword (0) is summer and seasons alternate (M46)."""
    return position % 2


def unmet_icons(ch: Challenge, troops) -> int:
    """How many requirement icons (a subscript counts as part of one icon) the troops leave
    unmet."""
    # Plain Python over the troops' fields (what ``Troop.naturals`` and ``Troop.wild_counts``
    # count): this runs for every candidate set of every legal mask, where numpy's small arrays
    # cost more than the counting.
    need = ch.classes
    nat = [0] * len(need)
    tyr = thor = 0
    for t in troops:
        if t.series:
            nat[t.cls] += t.nat
            tyr += t.tyr
            thor += t.thor
        else:
            for k in t.line:
                if k < 0:
                    continue  # an empty slot or the second slot of a Thor
                if k <= SNEDIG:
                    nat[k] += 1
                elif k == TYR:
                    tyr += 1
                elif k == THOR:
                    thor += 1
    missing = 0
    for have, want in zip(nat, need):
        if have < want:
            missing += 1
    return missing + (tyr < ch.tyr) + (thor < ch.thor)


def meets(ch: Challenge, troops) -> bool:
    return unmet_icons(ch, troops) == 0


def troop_cost(num_troops: int) -> int:
    """Coins for engaging the troops: the first is free, 1 per troop beyond it (M28)."""
    return max(0, num_troops - 1)


def cost(ch: Challenge, num_troops: int) -> int:
    """Coins due at declaration with no icon ignored: the troops' cost plus the coin icon (M28)."""
    return troop_cost(num_troops) + ch.coins


def unmet_requirements(ch: Challenge, troops, coins: int, hand_size: int) -> int:
    """Requirement icons left unmet: class and wildcard icons the troops lack, the coin icon when
    the coins left after the troops' cost cannot pay it, the discard icon without enough cards."""
    return (
        unmet_icons(ch, troops)
        + (coins - troop_cost(len(troops)) < ch.coins)
        + (hand_size < ch.discard)
    )


def ignored_costs(
    ch: Challenge, troops, coins: int, hand_size: int, ignore: int
) -> tuple[bool, bool]:
    """(coin icon ignored, discard icon ignored) when ``ignore`` icons may be ignored (MD21): the
    unmet icons take the allowance first; what is left goes to the icons that cost the seat
    something, the discard icon first, then the coin icon."""
    spare = ignore - unmet_requirements(ch, troops, coins, hand_size)  # left after the unmet icons
    skip_discard = hand_size < ch.discard
    if not skip_discard and ch.discard and spare > 0:
        skip_discard, spare = True, spare - 1
    skip_coins = coins - troop_cost(len(troops)) < ch.coins or (ch.coins > 0 and spare > 0)
    return skip_coins, skip_discard


def feasible(ch: Challenge, troops, coins: int, hand_size: int, ignore: int = 0) -> bool:
    """May these troops face ``ch`` now? (the troops' cost, and every requirement icon met: class
    icons, coins, a card for each discard; ``ignore`` of them may be left unmet)."""
    return (
        len(troops) >= 1
        and troop_cost(len(troops)) <= coins
        and unmet_requirements(ch, troops, coins, hand_size) <= ignore
    )


def feasible_sets(
    ch: Challenge, troop_list, candidates, coins: int, hand_size: int, ignore: int = 0
):
    """Every subset (as a sorted tuple of indices into ``troop_list``) of ``candidates`` that may
    face ``ch``. At most 5 troops, so at most 31 subsets."""
    out = []
    for k in range(1, len(candidates) + 1):
        if troop_cost(k) > coins:
            break
        for combo in combinations(candidates, k):
            if feasible(ch, [troop_list[i] for i in combo], coins, hand_size, ignore):
                out.append(combo)
    return out


def difficulty(ch: Challenge, position: int, lasting_bonus: int = 0, bonus: int = 0) -> int:
    """Printed difficulty + this season's bonus + lasting effects of other challenges + a bonus
    card (M31)."""
    return ch.difficulty + ch.season_bonus[season_of(position)] + lasting_bonus + bonus


def lasting_bonus_for(ch: Challenge, active) -> int:
    """Sum of "+n to all other active challenges" effects among ``active`` (open or reserved)."""
    total = 0
    for other in active:
        if other.id == ch.id:
            continue
        for e in other.lasting:
            if e.kind == "difficulty_others":
                total += e.n
    return total


def might(ch: Challenge, troops, might_table, bonus: int = 0) -> int:
    """Sum of card might, plus per-troop modifiers of the challenge (Draugr: -1 each), plus a
    bonus."""
    per_troop = sum(e.n for e in ch.lasting if e.kind == "might_per_troop")
    return sum(t.might(might_table) for t in troops) + per_troop * len(troops) + bonus


def travel_assignable(sizes, need) -> bool:
    """Can troops of these card counts (exactly one per icon) meet the world's minimum sizes?
    (M23)"""
    if len(sizes) != len(need):
        return False
    return all(a >= b for a, b in zip(sorted(sizes, reverse=True), sorted(need, reverse=True)))


def travel_completable(sizes_by_troop: dict, chosen, need) -> bool:
    """Is there a set of exactly ``len(need)`` troops containing ``chosen`` that meets ``need``?"""
    rest = [i for i in sizes_by_troop if i not in chosen]
    k = len(need) - len(chosen)
    if k < 0:
        return False
    for extra in combinations(rest, k):
        if travel_assignable([sizes_by_troop[i] for i in (*chosen, *extra)], need):
            return True
    return False
