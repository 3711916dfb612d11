"""Midgard legal actions: the exact mask and the one-action test, from the same predicates.

``MaskMixin`` is part of ``MidgardState``; it reads the state and never changes it (but for the
cached mask, which ``_apply`` clears).
"""

from __future__ import annotations

import numpy as np

from . import actions as A
from . import challenges as C
from .cardplay import FIRST, FIRST_REACTION
from .cards import DATA, SNEDIG, THOR, TYR
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
    MODE_RANGES,
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

REWARD_COIN_KINDS = [i for i, (k, _) in enumerate(DATA.rewards) if k == "coins"]


class MaskMixin:
    def legal_mask(self) -> np.ndarray:
        """The exact mask; cached until the next ``apply`` (``clone`` shares it, ``determinize``
        and direct edits of a state must call ``invalidate``)."""
        if self._mask is None:
            self._mask = self._compute_mask()
        return self._mask.copy()

    def invalidate(self) -> None:
        """Forget the cached mask (after editing a state by hand, as tests do)."""
        self._mask = None

    def _compute_mask(self) -> np.ndarray:
        mask = np.zeros(A.NUM_ACTIONS, dtype=bool)
        if self.stack:
            f = self.stack[-1]
            MASKS[f.m](self, mask, f, self.hands[f.p])
        return mask

    # ---- the mask of each decision mode (MASKS) ---------------------------------------------
    def _mask_krog(self, mask, f, hand) -> None:
        """Hire needs a coin in hand; a coin reward can be revealed first (M-E3)."""
        mask[A.PASS] = True
        mask[A.HIRE] = self.coins[f.p] >= 1
        self._mask_reveal(mask, f.p)

    def _mask_prep(self, mask, f, hand) -> None:
        p = f.p
        mask[A.END_PHASE] = True
        if len(self.troops[p]) < A.MAX_TROOPS and _can_form(hand):
            mask[A.NEW_TROOP] = True
        for ti, t in enumerate(self.troops[p]):
            self._mask_place(mask, t, ti, hand, table=True)
        if self.had_troops:
            self._mask_claim_targets(mask, p, hand)
        self._mask_reveal(mask, p)
        if self.events_left > 0:
            base = A.BASE["play_event"]
            mask[base : base + DATA.num_events] = hand[FIRST:FIRST_REACTION] > 0

    def _mask_build(self, mask, f, hand) -> None:
        self._mask_place(mask, self.pending, A.PENDING, hand, table=False)
        mask[A.FINISH] = self.pending.is_valid()
        mask[A.CANCEL] = True

    def _mask_relocate(self, mask, f, hand) -> None:
        for r in f.options:
            mask[A.BASE["relocate"] + r] = True

    def _mask_claim(self, mask, f, hand) -> None:
        t = self.troops[f.target][f.troop]
        ids = _cached((0, troop_content(t), hand[: THOR + 1].tobytes()), _claim_ids, t, hand)
        if len(ids):
            mask[ids] = True
        mask[A.CANCEL] = True

    def _mask_onslaught(self, mask, f, hand) -> None:
        mask[A.END_PHASE] = True
        self._mask_trips_and_fights(mask, f.p)
        self._mask_reveal(mask, f.p)

    def _mask_travel(self, mask, f, hand) -> None:
        need = DATA.worlds[f.world].troops
        sizes = self._regrouped_sizes(f.p)
        for ti in sizes:
            if ti not in f.chosen and C.travel_completable(sizes, f.chosen + [ti], need):
                mask[A.BASE["select_troop"] + ti] = True
        mask[A.CANCEL] = True

    def _mask_challenge(self, mask, f, hand) -> None:
        sets = self._feasible_sets(f.p, DATA.challenges[f.ch])
        chosen = set(f.chosen)
        for combo in sets:
            if chosen.issubset(combo):
                for ti in combo:
                    if ti not in chosen:
                        mask[A.BASE["select_troop"] + ti] = True
                if len(combo) == len(chosen):
                    mask[A.FINISH] = True
        mask[A.CANCEL] = True
        self._mask_reveal(mask, f.p)  # coins for more troops or a coin icon (M-E3)

    def _mask_discard(self, mask, f, hand) -> None:
        mask[A.BASE["discard"] : A.BASE["discard"] + A.NUM_KINDS] = hand > 0

    def _mask_take(self, mask, f, hand) -> None:
        base = A.BASE["take_card"]
        if f.src == "valhalla":
            mask[base : base + A.NUM_KINDS] = self.valhalla > 0
            return
        for k in self.pool if f.src == "pool" else self.krog:
            mask[base + k] = True

    def _mask_reserve(self, mask, f, hand) -> None:
        for cid in self.open:
            mask[A.BASE["reserve"] + cid] = True

    def _mask_keep(self, mask, f, hand) -> None:
        for k in f.drawn:
            mask[A.BASE["keep_reward"] + k] = True

    def _mask_react(self, mask, f, hand) -> None:
        mask[A.PASS] = True
        for r in f.kinds:
            if hand[r] > 0:
                mask[A.BASE["react"] + r - FIRST_REACTION] = True

    def _mask_bonus(self, mask, f, hand) -> None:
        mask[A.PASS] = True
        base = A.BASE["bonus"]
        mask[base : base + A.NUM_KINDS - FIRST] = hand[FIRST:] > 0

    def _mask_engage(self, mask, f, hand) -> None:
        for ti, t in enumerate(self.troops[f.p]):
            if not t.engaged:
                mask[A.BASE["select_troop"] + ti] = True

    def _mask_move(self, mask, f, hand) -> None:
        base = A.BASE["move"]
        mask[base : base + A.NUM_WORLDS] = True
        mask[base + self.world[f.p]] = False

    def _mask_defend(self, mask, f, hand) -> None:
        mask[A.REFUSE] = True
        for ti, t in enumerate(self.troops[f.p]):
            if not t.engaged:
                mask[A.BASE["defend"] + ti] = True

    # ---- one action (LEGAL) -------------------------------------------------------------------
    def is_legal(self, action: int) -> bool:
        """``legal_mask()[action]`` without building the whole mask (same predicates): the
        action's range must be one the top frame's mode uses (``MODE_RANGES``), then the range's
        predicate (``LEGAL``) decides."""
        if not self.stack:
            return False
        name, c = A.decode(action)
        f = self.stack[-1]
        if name not in MODE_RANGES[f.m]:
            return False
        return LEGAL[name](self, f, c, self.hands[f.p])

    def _legal_always(self, f, c, hand) -> bool:
        """``pass``, ``cancel``, ``refuse``, ``end_phase``: in range, always legal."""
        return True

    def _legal_hire(self, f, c, hand) -> bool:
        return self.coins[f.p] >= 1

    def _legal_play_event(self, f, c, hand) -> bool:
        return self.events_left > 0 and hand[FIRST + c[0]] > 0

    def _legal_react(self, f, c, hand) -> bool:
        r = FIRST_REACTION + c[0]
        return r in f.kinds and hand[r] > 0

    def _legal_bonus(self, f, c, hand) -> bool:
        return hand[FIRST + c[0]] > 0

    def _legal_move(self, f, c, hand) -> bool:
        return c[0] != self.world[f.p]

    def _legal_reveal_reward(self, f, c, hand) -> bool:
        return c[0] in REWARD_COIN_KINDS and self.rewards[f.p, c[0]] > 0

    def _legal_new_troop(self, f, c, hand) -> bool:
        return len(self.troops[f.p]) < A.MAX_TROOPS and can_form_troop(hand)

    def _legal_place(self, f, c, hand, name: str) -> bool:
        ti = c[0]
        if f.m == BUILD:
            if ti != A.PENDING:
                return False
            t, table = self.pending, False
        else:
            if ti >= len(self.troops[f.p]):
                return False
            t, table = self.troops[f.p][ti], True
        kind, pos = place_kind_pos(name, c)
        if kind == SNEDIG and t.series:
            return False
        return place_check(t, kind, pos, hand, table)[0]

    def _legal_finish(self, f, c, hand) -> bool:
        if f.m == BUILD:
            return self.pending.is_valid()
        return tuple(sorted(f.chosen)) in self._feasible_sets(f.p, DATA.challenges[f.ch])

    def _legal_claim_target(self, f, c, hand) -> bool:
        n = self.game.num_players
        if not self.had_troops or c[0] + 1 >= n:
            return False
        q = (f.p + c[0] + 1) % n
        return c[1] < len(self.troops[q]) and self._claimable(self.troops[q][c[1]], hand)

    def _legal_claim(self, f, c, hand) -> bool:
        return claim_check(self.troops[f.target][f.troop], c[0], c[1], hand)

    def _legal_relocate(self, f, c, hand) -> bool:
        return c[0] in f.options

    def _legal_select_troop(self, f, c, hand) -> bool:
        ti, p = c[0], f.p
        if f.m == ENGAGE:
            return ti < len(self.troops[p]) and not self.troops[p][ti].engaged
        if ti >= len(self.troops[p]) or self.troops[p][ti].engaged or ti in f.chosen:
            return False
        if f.m == TRAVEL:
            return C.travel_completable(
                self._regrouped_sizes(p), f.chosen + [ti], DATA.worlds[f.world].troops
            )
        want = set(f.chosen) | {ti}
        return any(want.issubset(combo) for combo in self._feasible_sets(p, DATA.challenges[f.ch]))

    def _legal_travel(self, f, c, hand) -> bool:
        w = c[0]
        sizes = self._regrouped_sizes(f.p)
        return (
            bool(sizes)
            and w != self.world[f.p]
            and C.travel_completable(sizes, [], DATA.worlds[w].troops)
        )

    def _legal_face(self, f, c, hand) -> bool:
        cid = c[0]
        return (cid in self.open or cid == self.reserved[f.p]) and self._can_face(f.p, cid)

    def _legal_attack(self, f, c, hand) -> bool:
        n, p = self.game.num_players, f.p
        if c[0] + 1 >= n or self.coins[p] < 1:
            return False
        q = (p + c[0] + 1) % n
        ti = c[1]
        return (
            self.world[q] == self.world[p]
            and bool(self.troops[q])
            and ti < len(self.troops[p])
            and not self.troops[p][ti].engaged
        )

    def _legal_defend(self, f, c, hand) -> bool:
        return c[0] < len(self.troops[f.p]) and not self.troops[f.p][c[0]].engaged

    def _legal_discard(self, f, c, hand) -> bool:
        return hand[c[0]] > 0

    def _legal_take_card(self, f, c, hand) -> bool:
        if f.src == "pool":
            return c[0] in self.pool
        return self.valhalla[c[0]] > 0 if f.src == "valhalla" else c[0] in self.krog

    def _legal_reserve(self, f, c, hand) -> bool:
        return c[0] in self.open

    def _legal_keep_reward(self, f, c, hand) -> bool:
        return c[0] in f.drawn

    def _mask_place(self, mask, t: Troop, ti: int, hand, table: bool) -> None:
        key = (1, ti, table, troop_content(t), hand[: THOR + 1].tobytes())
        ids = _cached(key, _place_ids, t, ti, hand, table)
        if len(ids):
            mask[ids] = True

    def _claimable(self, t: Troop, hand) -> bool:
        """May the seat holding ``hand`` claim on troop ``t`` at all (``_claimable_now``,
        remembered by content)?"""
        return _cached((2, troop_content(t), hand[: THOR + 1].tobytes()), _claimable_now, t, hand)

    def _mask_claim_targets(self, mask, p: int, hand) -> None:
        if not (hand[: THOR + 1].any()):
            return
        n = self.game.num_players
        for r in range(1, n):
            q = (p + r) % n
            for ti, t in enumerate(self.troops[q]):
                if self._claimable(t, hand):
                    mask[A.encode("claim_target", r - 1, ti)] = True

    def _mask_reveal(self, mask, p: int) -> None:
        for k in REWARD_COIN_KINDS:
            if self.rewards[p, k] > 0:
                mask[A.BASE["reveal_reward"] + k] = True

    def _regrouped_sizes(self, p: int) -> dict:
        return {ti: t.ncards() for ti, t in enumerate(self.troops[p]) if not t.engaged}

    def _feasible_sets(self, p: int, ch) -> list:
        """``C.feasible_sets`` for seat ``p``'s regrouped troops, remembered by content (the
        challenge, the troops and their engagement, coins, hand size, ignore allowance); callers
        only read the list."""
        troops = self.troops[p]
        coins, size, ignore = int(self.coins[p]), int(self.hands[p].sum()), self.ignore_allowance(p)
        # ``ch`` is one of DATA's challenge records, which live (unchanged) as long as the module
        troop_key = tuple([(troop_content(t), t.engaged) for t in troops])
        key = (4, id(ch), troop_key, coins, size, ignore)
        return _cached(key, _feasible_now, ch, troops, coins, size, ignore)

    def _can_face(self, p: int, cid: int) -> bool:
        ch = DATA.challenges[cid]
        if not (ch.any_world or int(self.world[p]) in ch.worlds):
            return False
        return bool(self._feasible_sets(p, ch))

    def _mask_trips_and_fights(self, mask, p: int) -> None:
        sizes = self._regrouped_sizes(p)
        if not sizes:
            return
        here = int(self.world[p])
        for w in _cached((5, tuple(sizes.items())), _reachable_worlds, sizes):
            if w != here:
                mask[A.BASE["travel"] + w] = True
        for cid in self.open + ([self.reserved[p]] if self.reserved[p] >= 0 else []):
            if self._can_face(p, cid):
                mask[A.BASE["face"] + cid] = True
        if self.coins[p] >= 1:
            n = self.game.num_players
            for r in range(1, n):
                q = (p + r) % n
                if self.world[q] == self.world[p] and self.troops[q]:
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
    return lambda s, f, c, hand: s._legal_place(f, c, hand, name)


MASKS = {
    KROG: MaskMixin._mask_krog,
    PREP: MaskMixin._mask_prep,
    BUILD: MaskMixin._mask_build,
    RELOCATE: MaskMixin._mask_relocate,
    CLAIM: MaskMixin._mask_claim,
    ONSLAUGHT: MaskMixin._mask_onslaught,
    TRAVEL: MaskMixin._mask_travel,
    CHALLENGE: MaskMixin._mask_challenge,
    DISCARD_REQ: MaskMixin._mask_discard,
    TAKE: MaskMixin._mask_take,
    RESERVE: MaskMixin._mask_reserve,
    KEEP: MaskMixin._mask_keep,
    DEFEND: MaskMixin._mask_defend,
    SPOILS: MaskMixin._mask_discard,
    REACT: MaskMixin._mask_react,
    BONUS: MaskMixin._mask_bonus,
    EV_DISCARD: MaskMixin._mask_discard,
    ENGAGE: MaskMixin._mask_engage,
    MOVE: MaskMixin._mask_move,
}
LEGAL = {  # action range -> its predicate, after the range is checked against the mode
    "pass": MaskMixin._legal_always,
    "cancel": MaskMixin._legal_always,
    "refuse": MaskMixin._legal_always,
    "end_phase": MaskMixin._legal_always,
    "hire": MaskMixin._legal_hire,
    "play_event": MaskMixin._legal_play_event,
    "react": MaskMixin._legal_react,
    "bonus": MaskMixin._legal_bonus,
    "move": MaskMixin._legal_move,
    "reveal_reward": MaskMixin._legal_reveal_reward,
    "new_troop": MaskMixin._legal_new_troop,
    "finish": MaskMixin._legal_finish,
    "claim_target": MaskMixin._legal_claim_target,
    "claim": MaskMixin._legal_claim,
    "relocate": MaskMixin._legal_relocate,
    "select_troop": MaskMixin._legal_select_troop,
    "travel": MaskMixin._legal_travel,
    "face": MaskMixin._legal_face,
    "attack": MaskMixin._legal_attack,
    "defend": MaskMixin._legal_defend,
    "discard": MaskMixin._legal_discard,
    "take_card": MaskMixin._legal_take_card,
    "reserve": MaskMixin._legal_reserve,
    "keep_reward": MaskMixin._legal_keep_reward,
    **{name: _placing(name) for name in ("place_class", "place_snedig", "place_tyr", "place_thor")},
}
assert sorted(MASKS) == list(range(NUM_MODES)), "every decision mode has its mask"
assert set(LEGAL) == set(A.BASE), "every action range has its predicate"


def place_kind_pos(name: str, c) -> tuple[int, int]:
    if name == "place_class":
        return c[1], 0
    if name == "place_snedig":
        return SNEDIG, c[1]
    if name == "place_tyr":
        return TYR, c[1]
    return THOR, c[1]
