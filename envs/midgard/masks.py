"""Midgard legal actions: the exact mask and the one-action test, from the same predicates.

Functions of the state that read it and never change it: ``MASKS`` fills the mask of each
decision mode, ``LEGAL`` tests one action of each action range; ``MidgardState.legal_mask``
(cached until the next ``apply``) and ``MidgardState.is_legal`` look them up by the top frame.
"""

from __future__ import annotations

import numpy as np

from . import actions as A
from . import challenges as C
from .cards import DATA, FIRST_ACTION_CARD, FIRST_REACTION, REWARD_COIN_KINDS, SNEDIG, THOR, TYR
from .modes import (
    BONUS,
    BUILD,
    CHALLENGE,
    CLAIM,
    DEFEND,
    DISCARD_REQ,
    ENGAGE,
    EV_DISCARD,
    KEEP,
    KROG,
    MOVE,
    NUM_MODES,
    ONSLAUGHT,
    PREP,
    REACT,
    RELOCATE,
    RESERVE,
    SPOILS,
    TAKE,
    TRAVEL,
)
from .troops import Troop, can_form_troop, claim_check, place_check


# ---- the mask of each decision mode (MASKS) ---------------------------------------------
def mask_krog(s, mask, f, hand) -> None:
    """Hire needs a coin in hand; a coin reward can be revealed first (M-E3)."""
    mask[A.PASS] = True
    mask[A.HIRE] = s.coins[f.p] >= 1
    mask_reveal(s, mask, f.p)


def mask_prep(s, mask, f, hand) -> None:
    p = f.p
    mask[A.END_PHASE] = True
    if len(s.troops[p]) < A.MAX_TROOPS and _can_form(hand):
        mask[A.NEW_TROOP] = True
    for ti, t in enumerate(s.troops[p]):
        mask_place(s, mask, t, ti, hand, table=True)
    if s.had_troops:
        mask_claim_targets(s, mask, p, hand)
    mask_reveal(s, mask, p)
    if s.events_left > 0:
        base = A.BASE["play_event"]
        mask[base : base + DATA.num_events] = hand[FIRST_ACTION_CARD:FIRST_REACTION] > 0


def mask_build(s, mask, f, hand) -> None:
    mask_place(s, mask, s.pending, A.PENDING, hand, table=False)
    mask[A.FINISH] = s.pending.is_valid()
    mask[A.CANCEL] = True


def mask_relocate(s, mask, f, hand) -> None:
    for r in f.options:
        mask[A.BASE["relocate"] + r] = True


def mask_claim(s, mask, f, hand) -> None:
    t = s.troops[f.target][f.troop]
    ids = _cached((0, troop_content(t), hand[: THOR + 1].tobytes()), _claim_ids, t, hand)
    if len(ids):
        mask[ids] = True
    mask[A.CANCEL] = True


def mask_onslaught(s, mask, f, hand) -> None:
    mask[A.END_PHASE] = True
    mask_trips_and_fights(s, mask, f.p)
    mask_reveal(s, mask, f.p)


def mask_travel(s, mask, f, hand) -> None:
    need = DATA.worlds[f.world].troops
    sizes = regrouped_sizes(s, f.p)
    for ti in sizes:
        if ti not in f.chosen and C.travel_completable(sizes, f.chosen + [ti], need):
            mask[A.BASE["select_troop"] + ti] = True
    mask[A.CANCEL] = True


def mask_challenge(s, mask, f, hand) -> None:
    sets = feasible_sets(s, f.p, DATA.challenges[f.ch])
    chosen = set(f.chosen)
    for combo in sets:
        if chosen.issubset(combo):
            for ti in combo:
                if ti not in chosen:
                    mask[A.BASE["select_troop"] + ti] = True
            if len(combo) == len(chosen):
                mask[A.FINISH] = True
    mask[A.CANCEL] = True
    mask_reveal(s, mask, f.p)  # coins for more troops or a coin icon (M-E3)


def mask_discard(s, mask, f, hand) -> None:
    mask[A.BASE["discard"] : A.BASE["discard"] + A.NUM_KINDS] = hand > 0


def mask_take(s, mask, f, hand) -> None:
    base = A.BASE["take_card"]
    if f.src == "valhalla":
        mask[base : base + A.NUM_KINDS] = s.valhalla > 0
        return
    for k in s.pool if f.src == "pool" else s.krog:
        mask[base + k] = True


def mask_reserve(s, mask, f, hand) -> None:
    for cid in s.open:
        mask[A.BASE["reserve"] + cid] = True


def mask_keep(s, mask, f, hand) -> None:
    for k in f.drawn:
        mask[A.BASE["keep_reward"] + k] = True


def mask_react(s, mask, f, hand) -> None:
    mask[A.PASS] = True
    for r in f.kinds:
        if hand[r] > 0:
            mask[A.BASE["react"] + r - FIRST_REACTION] = True


def mask_bonus(s, mask, f, hand) -> None:
    mask[A.PASS] = True
    base = A.BASE["bonus"]
    mask[base : base + A.NUM_KINDS - FIRST_ACTION_CARD] = hand[FIRST_ACTION_CARD:] > 0


def mask_engage(s, mask, f, hand) -> None:
    for ti, t in enumerate(s.troops[f.p]):
        if not t.engaged:
            mask[A.BASE["select_troop"] + ti] = True


def mask_move(s, mask, f, hand) -> None:
    base = A.BASE["move"]
    mask[base : base + A.NUM_WORLDS] = True
    mask[base + s.world[f.p]] = False


def mask_defend(s, mask, f, hand) -> None:
    mask[A.REFUSE] = True
    for ti, t in enumerate(s.troops[f.p]):
        if not t.engaged:
            mask[A.BASE["defend"] + ti] = True


# ---- one action (LEGAL) -------------------------------------------------------------------
def legal_always(s, f, c, hand) -> bool:
    """``pass``, ``cancel``, ``refuse``, ``end_phase``: in range, always legal."""
    return True


def legal_hire(s, f, c, hand) -> bool:
    return s.coins[f.p] >= 1


def legal_play_event(s, f, c, hand) -> bool:
    return s.events_left > 0 and hand[FIRST_ACTION_CARD + c[0]] > 0


def legal_react(s, f, c, hand) -> bool:
    r = FIRST_REACTION + c[0]
    return r in f.kinds and hand[r] > 0


def legal_bonus(s, f, c, hand) -> bool:
    return hand[FIRST_ACTION_CARD + c[0]] > 0


def legal_move(s, f, c, hand) -> bool:
    return c[0] != s.world[f.p]


def legal_reveal_reward(s, f, c, hand) -> bool:
    return c[0] in REWARD_COIN_KINDS and s.rewards[f.p, c[0]] > 0


def legal_new_troop(s, f, c, hand) -> bool:
    return len(s.troops[f.p]) < A.MAX_TROOPS and can_form_troop(hand)


def legal_place(s, f, c, hand, name: str) -> bool:
    ti = c[0]
    if f.m == BUILD:
        if ti != A.PENDING:
            return False
        t, table = s.pending, False
    else:
        if ti >= len(s.troops[f.p]):
            return False
        t, table = s.troops[f.p][ti], True
    kind, pos = A.place_kind_pos(name, c)
    if kind == SNEDIG and t.series:
        return False
    return place_check(t, kind, pos, hand, table)[0]


def legal_finish(s, f, c, hand) -> bool:
    if f.m == BUILD:
        return s.pending.is_valid()
    return tuple(sorted(f.chosen)) in feasible_sets(s, f.p, DATA.challenges[f.ch])


def legal_claim_target(s, f, c, hand) -> bool:
    n = s.game.num_players
    if not s.had_troops or c[0] + 1 >= n:
        return False
    q = (f.p + c[0] + 1) % n
    return c[1] < len(s.troops[q]) and claimable(s, s.troops[q][c[1]], hand)


def legal_claim(s, f, c, hand) -> bool:
    return claim_check(s.troops[f.target][f.troop], c[0], c[1], hand)


def legal_relocate(s, f, c, hand) -> bool:
    return c[0] in f.options


def legal_select_troop(s, f, c, hand) -> bool:
    ti, p = c[0], f.p
    if f.m == ENGAGE:
        return ti < len(s.troops[p]) and not s.troops[p][ti].engaged
    if ti >= len(s.troops[p]) or s.troops[p][ti].engaged or ti in f.chosen:
        return False
    if f.m == TRAVEL:
        return C.travel_completable(
            regrouped_sizes(s, p), f.chosen + [ti], DATA.worlds[f.world].troops
        )
    want = set(f.chosen) | {ti}
    return any(want.issubset(combo) for combo in feasible_sets(s, p, DATA.challenges[f.ch]))


def legal_travel(s, f, c, hand) -> bool:
    w = c[0]
    sizes = regrouped_sizes(s, f.p)
    return (
        bool(sizes) and w != s.world[f.p] and C.travel_completable(sizes, [], DATA.worlds[w].troops)
    )


def legal_face(s, f, c, hand) -> bool:
    cid = c[0]
    return (cid in s.open or cid == s.reserved[f.p]) and can_face(s, f.p, cid)


def legal_attack(s, f, c, hand) -> bool:
    n, p = s.game.num_players, f.p
    if c[0] + 1 >= n or s.coins[p] < 1:
        return False
    q = (p + c[0] + 1) % n
    ti = c[1]
    return (
        s.world[q] == s.world[p]
        and bool(s.troops[q])
        and ti < len(s.troops[p])
        and not s.troops[p][ti].engaged
    )


def legal_defend(s, f, c, hand) -> bool:
    return c[0] < len(s.troops[f.p]) and not s.troops[f.p][c[0]].engaged


def legal_discard(s, f, c, hand) -> bool:
    return hand[c[0]] > 0


def legal_take_card(s, f, c, hand) -> bool:
    if f.src == "pool":
        return c[0] in s.pool
    return s.valhalla[c[0]] > 0 if f.src == "valhalla" else c[0] in s.krog


def legal_reserve(s, f, c, hand) -> bool:
    return c[0] in s.open


def legal_keep_reward(s, f, c, hand) -> bool:
    return c[0] in f.drawn


def mask_place(s, mask, t: Troop, ti: int, hand, table: bool) -> None:
    key = (1, ti, table, troop_content(t), hand[: THOR + 1].tobytes())
    ids = _cached(key, _place_ids, t, ti, hand, table)
    if len(ids):
        mask[ids] = True


def claimable(s, t: Troop, hand) -> bool:
    """May the seat holding ``hand`` claim on troop ``t`` at all (``_claimable_now``,
    remembered by content)?"""
    return _cached((2, troop_content(t), hand[: THOR + 1].tobytes()), _claimable_now, t, hand)


def mask_claim_targets(s, mask, p: int, hand) -> None:
    if not (hand[: THOR + 1].any()):
        return
    n = s.game.num_players
    for r in range(1, n):
        q = (p + r) % n
        for ti, t in enumerate(s.troops[q]):
            if claimable(s, t, hand):
                mask[A.encode("claim_target", r - 1, ti)] = True


def mask_reveal(s, mask, p: int) -> None:
    for k in REWARD_COIN_KINDS:
        if s.rewards[p, k] > 0:
            mask[A.BASE["reveal_reward"] + k] = True


def regrouped_sizes(s, p: int) -> dict:
    return {ti: t.ncards() for ti, t in enumerate(s.troops[p]) if not t.engaged}


def feasible_sets(s, p: int, ch) -> list:
    """``C.feasible_sets`` for seat ``p``'s regrouped troops, remembered by content (the
    challenge, the troops and their engagement, coins, hand size, ignore allowance); callers
    only read the list."""
    troops = s.troops[p]
    coins, size, ignore = int(s.coins[p]), int(s.hands[p].sum()), s.ignore_allowance(p)
    # ``ch`` is one of DATA's challenge records, which live (unchanged) as long as the module
    troop_key = tuple([(troop_content(t), t.engaged) for t in troops])
    key = (4, id(ch), troop_key, coins, size, ignore)
    return _cached(key, _feasible_now, ch, troops, coins, size, ignore)


def can_face(s, p: int, cid: int) -> bool:
    ch = DATA.challenges[cid]
    if not (ch.any_world or int(s.world[p]) in ch.worlds):
        return False
    return bool(feasible_sets(s, p, ch))


def mask_trips_and_fights(s, mask, p: int) -> None:
    sizes = regrouped_sizes(s, p)
    if not sizes:
        return
    here = int(s.world[p])
    for w in _cached((5, tuple(sizes.items())), _reachable_worlds, sizes):
        if w != here:
            mask[A.BASE["travel"] + w] = True
    for cid in s.open + ([s.reserved[p]] if s.reserved[p] >= 0 else []):
        if can_face(s, p, cid):
            mask[A.BASE["face"] + cid] = True
    if s.coins[p] >= 1:
        n = s.game.num_players
        for r in range(1, n):
            q = (p + r) % n
            if s.world[q] == s.world[p] and s.troops[q]:
                for ti in sizes:
                    mask[A.encode("attack", r - 1, ti)] = True


# Masks by content (issue #47): a placement, a claim and "can this troop be claimed at all" read
# only the troop and the seat's troop cards in hand (kinds 0-12), and the same pairs recur from
# one decision to the next (every troop of the seat is checked again after each placement, every
# opponent troop at each Preparation decision). Each answer is remembered under a key holding
# exactly what it reads; the keys are content, never identity, so clones share them safely.
_MASK_PARTS: dict[tuple, object] = {}
_MASK_PARTS_MAX = 1 << 13  # a few MB at most; cleared when full


def _cached(key: tuple, compute, *args):
    """``compute(*args)``, remembered under ``key`` (which must hold everything it reads)."""
    got = _MASK_PARTS.get(key)
    if got is None:
        got = compute(*args)
        if len(_MASK_PARTS) >= _MASK_PARTS_MAX:
            _MASK_PARTS.clear()
        _MASK_PARTS[key] = got
    return got


def troop_content(t: Troop) -> tuple:
    """What the placement and claim checks read of a troop: a series' class and counts, or a
    sequence's line (its card and wildcard counts follow from either)."""
    return (t.cls, t.nat, t.tyr, t.thor) if t.series else tuple(t.line)


def _can_form(hand) -> bool:
    """``can_form_troop(hand)``, remembered by the troop cards in hand."""
    return _cached((3, hand[: THOR + 1].tobytes()), can_form_troop, hand)


def _claim_ids(t: Troop, hand) -> np.ndarray:
    """The legal ``claim`` actions on troop ``t`` for a seat holding ``hand``."""
    nw = (t.ncards(), t.nwild())
    ids = [
        A.encode("claim", slot, form)
        for slot in range(12)
        for form in range(4)
        if claim_check(t, slot, form, hand, nw)
    ]
    return np.array(ids, dtype=np.intp)


def _place_ids(t: Troop, ti: int, hand, table: bool) -> np.ndarray:
    """The legal placements (class, Snedig, Tyr, Thor) on troop ``ti`` (``t``) from ``hand``."""
    ids = []
    for c in range(10):
        if hand[c] and place_check(t, c, 0, hand, table)[0]:
            ids.append(A.encode("place_class", ti, c))
    if hand[SNEDIG] and not t.series:
        for side in (0, 1):
            if place_check(t, SNEDIG, side, hand, table)[0]:
                ids.append(A.encode("place_snedig", ti, side))
    if hand[TYR]:
        for slot in range(12):
            if place_check(t, TYR, slot, hand, table)[0]:
                ids.append(A.encode("place_tyr", ti, slot))
    if hand[THOR]:
        for s in range(10):
            if place_check(t, THOR, s, hand, table)[0]:
                ids.append(A.encode("place_thor", ti, s))
    return np.array(ids, dtype=np.intp)


def _feasible_now(ch, troops, coins: int, size: int, ignore: int) -> list:
    """The sets of regrouped troops (indices into ``troops``) that may face ``ch``."""
    cand = [ti for ti, t in enumerate(troops) if not t.engaged]
    return C.feasible_sets(ch, troops, cand, coins, size, ignore)


def _reachable_worlds(sizes: dict) -> tuple[int, ...]:
    """The worlds whose troop sizes troops of these sizes (troop -> cards) can meet."""
    return tuple(
        w for w, world in enumerate(DATA.worlds) if C.travel_completable(sizes, [], world.troops)
    )


def _claimable_now(t: Troop, hand) -> bool:
    """Whether some claim on troop ``t`` is legal for a seat holding ``hand``."""
    nw = (t.ncards(), t.nwild())
    if t.series:
        slot = t.cls + 1
        return any(claim_check(t, slot, form, hand, nw) for form in range(4))
    put = hand[TYR] > 0 or hand[THOR] > 0
    for slot, k in enumerate(t.line):
        if k == TYR:
            if claim_check(t, slot, 0, hand, nw):
                return True
        elif k == THOR:
            if claim_check(t, slot, 1, hand, nw):
                return True
        elif (
            k >= 0
            and put
            and (claim_check(t, slot, 2, hand, nw) or claim_check(t, slot, 3, hand, nw))
        ):
            return True
    return False


def _placing(name: str):
    """The ``LEGAL`` predicate of a ``place_*`` range (which piece goes where: ``name``)."""
    return lambda s, f, c, hand: legal_place(s, f, c, hand, name)


MASKS = {
    KROG: mask_krog,
    PREP: mask_prep,
    BUILD: mask_build,
    RELOCATE: mask_relocate,
    CLAIM: mask_claim,
    ONSLAUGHT: mask_onslaught,
    TRAVEL: mask_travel,
    CHALLENGE: mask_challenge,
    DISCARD_REQ: mask_discard,
    TAKE: mask_take,
    RESERVE: mask_reserve,
    KEEP: mask_keep,
    DEFEND: mask_defend,
    SPOILS: mask_discard,
    REACT: mask_react,
    BONUS: mask_bonus,
    EV_DISCARD: mask_discard,
    ENGAGE: mask_engage,
    MOVE: mask_move,
}
LEGAL = {  # action range -> its predicate, after the range is checked against the mode
    "pass": legal_always,
    "cancel": legal_always,
    "refuse": legal_always,
    "end_phase": legal_always,
    "hire": legal_hire,
    "play_event": legal_play_event,
    "react": legal_react,
    "bonus": legal_bonus,
    "move": legal_move,
    "reveal_reward": legal_reveal_reward,
    "new_troop": legal_new_troop,
    "finish": legal_finish,
    "claim_target": legal_claim_target,
    "claim": legal_claim,
    "relocate": legal_relocate,
    "select_troop": legal_select_troop,
    "travel": legal_travel,
    "face": legal_face,
    "attack": legal_attack,
    "defend": legal_defend,
    "discard": legal_discard,
    "take_card": legal_take_card,
    "reserve": legal_reserve,
    "keep_reward": legal_keep_reward,
    **{name: _placing(name) for name in ("place_class", "place_snedig", "place_tyr", "place_thor")},
}
assert sorted(MASKS) == list(range(NUM_MODES)), "every decision mode has its mask"
assert set(LEGAL) == set(A.BASE), "every action range has its predicate"
