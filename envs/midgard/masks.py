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
        if not self.stack:
            return mask
        f = self.stack[-1]
        m, p = f["m"], f["p"]
        hand = self.hands[p]
        if m == KROG:  # hire needs a coin in hand; a coin reward can be revealed first (M-E3)
            mask[A.PASS] = True
            mask[A.HIRE] = self.coins[p] >= 1
            self._mask_reveal(mask, p)
        elif m == PREP:
            mask[A.END_PHASE] = True
            if len(self.troops[p]) < A.MAX_TROOPS and can_form_troop(hand):
                mask[A.NEW_TROOP] = True
            for ti, t in enumerate(self.troops[p]):
                self._mask_place(mask, t, ti, hand, table=True)
            if self.had_troops:
                self._mask_claim_targets(mask, p, hand)
            self._mask_reveal(mask, p)
            if self.events_left > 0:
                base = A.BASE["play_event"]
                mask[base : base + DATA.num_events] = hand[FIRST:FIRST_REACTION] > 0
        elif m == BUILD:
            self._mask_place(mask, self.pending, A.PENDING, hand, table=False)
            mask[A.FINISH] = self.pending.is_valid()
            mask[A.CANCEL] = True
        elif m == RELOCATE:
            for r in f["options"]:
                mask[A.BASE["relocate"] + r] = True
        elif m == CLAIM:
            t = self.troops[f["target"]][f["troop"]]
            nw = (t.ncards(), t.nwild())
            for slot in range(12):
                for form in range(4):
                    if claim_check(t, slot, form, hand, nw):
                        mask[A.encode("claim", slot, form)] = True
            mask[A.CANCEL] = True
        elif m == ONSLAUGHT:
            mask[A.END_PHASE] = True
            self._mask_onslaught(mask, p)
            self._mask_reveal(mask, p)
        elif m == TRAVEL:
            need = DATA.worlds[f["world"]].troops
            sizes = self._regrouped_sizes(p)
            for ti in sizes:
                if ti not in f["chosen"] and C.travel_completable(sizes, f["chosen"] + [ti], need):
                    mask[A.BASE["select_troop"] + ti] = True
            mask[A.CANCEL] = True
        elif m == CHALLENGE:
            ch = DATA.challenges[f["ch"]]
            sets = self._feasible_sets(p, ch)
            chosen = set(f["chosen"])
            for combo in sets:
                if chosen.issubset(combo):
                    for ti in combo:
                        if ti not in chosen:
                            mask[A.BASE["select_troop"] + ti] = True
                    if len(combo) == len(chosen):
                        mask[A.FINISH] = True
            mask[A.CANCEL] = True
            self._mask_reveal(mask, p)  # coins for more troops or a coin icon (M-E3)
        elif m in (DISCARD_REQ, SPOILS, EV_DISCARD):
            mask[A.BASE["discard"] : A.BASE["discard"] + A.NUM_KINDS] = hand > 0
        elif m == TAKE:
            base = A.BASE["take_card"]
            if f["src"] == "valhalla":
                mask[base : base + A.NUM_KINDS] = self.valhalla > 0
            elif f["src"] == "pool":
                for k in self.pool:
                    mask[base + k] = True
            else:
                for k in self.krog:
                    mask[base + k] = True
        elif m == RESERVE:
            for cid in self.open:
                mask[A.BASE["reserve"] + cid] = True
        elif m == KEEP:
            for k in f["drawn"]:
                mask[A.BASE["keep_reward"] + k] = True
        elif m == REACT:
            mask[A.PASS] = True
            for r in f["kinds"]:
                if hand[r] > 0:
                    mask[A.BASE["react"] + r - FIRST_REACTION] = True
        elif m == BONUS:
            mask[A.PASS] = True
            base = A.BASE["bonus"]
            mask[base : base + A.NUM_KINDS - FIRST] = hand[FIRST:] > 0
        elif m == ENGAGE:
            for ti, t in enumerate(self.troops[p]):
                if not t.engaged:
                    mask[A.BASE["select_troop"] + ti] = True
        elif m == MOVE:
            base = A.BASE["move"]
            mask[base : base + A.NUM_WORLDS] = True
            mask[base + self.world[p]] = False
        elif m == DEFEND:
            mask[A.REFUSE] = True
            for ti, t in enumerate(self.troops[p]):
                if not t.engaged:
                    mask[A.BASE["defend"] + ti] = True
        return mask

    def is_legal(self, action: int) -> bool:
        """``legal_mask()[action]`` without building the whole mask (same predicates)."""
        if not self.stack:
            return False
        name, c = A.decode(action)
        f = self.stack[-1]
        m, p = f["m"], f["p"]
        allowed = MODE_RANGES[m]
        if name not in allowed:
            return False
        hand = self.hands[p]
        if name == "hire":
            return self.coins[p] >= 1
        if name in ("pass", "cancel", "refuse"):
            return True
        if name == "end_phase":
            return True
        if name == "play_event":
            return self.events_left > 0 and hand[FIRST + c[0]] > 0
        if name == "react":
            r = FIRST_REACTION + c[0]
            return r in f["kinds"] and hand[r] > 0
        if name == "bonus":
            return hand[FIRST + c[0]] > 0
        if name == "move":
            return c[0] != self.world[p]
        if name == "reveal_reward":
            return c[0] in REWARD_COIN_KINDS and self.rewards[p, c[0]] > 0
        if name == "new_troop":
            return len(self.troops[p]) < A.MAX_TROOPS and can_form_troop(hand)
        if name.startswith("place_"):
            ti = c[0]
            if m == BUILD:
                if ti != A.PENDING:
                    return False
                t, table = self.pending, False
            else:
                if ti >= len(self.troops[p]):
                    return False
                t, table = self.troops[p][ti], True
            kind, pos = place_kind_pos(name, c)
            if kind == SNEDIG and t.series:
                return False
            return place_check(t, kind, pos, hand, table)[0]
        if name == "finish":
            if m == BUILD:
                return self.pending.is_valid()
            return tuple(sorted(f["chosen"])) in self._feasible_sets(p, DATA.challenges[f["ch"]])
        if name == "claim_target":
            n = self.game.num_players
            if not self.had_troops or c[0] + 1 >= n:
                return False
            q = (p + c[0] + 1) % n
            return c[1] < len(self.troops[q]) and self._claimable(self.troops[q][c[1]], hand)
        if name == "claim":
            return claim_check(self.troops[f["target"]][f["troop"]], c[0], c[1], hand)
        if name == "relocate":
            return c[0] in f["options"]
        if name == "select_troop" and m == ENGAGE:
            return c[0] < len(self.troops[p]) and not self.troops[p][c[0]].engaged
        if name == "select_troop":
            ti = c[0]
            if ti >= len(self.troops[p]) or self.troops[p][ti].engaged or ti in f["chosen"]:
                return False
            if m == TRAVEL:
                return C.travel_completable(
                    self._regrouped_sizes(p), f["chosen"] + [ti], DATA.worlds[f["world"]].troops
                )
            want = set(f["chosen"]) | {ti}
            return any(
                want.issubset(combo) for combo in self._feasible_sets(p, DATA.challenges[f["ch"]])
            )
        if name == "travel":
            w = c[0]
            sizes = self._regrouped_sizes(p)
            return (
                bool(sizes)
                and w != self.world[p]
                and C.travel_completable(sizes, [], DATA.worlds[w].troops)
            )
        if name == "face":
            cid = c[0]
            return (cid in self.open or cid == self.reserved[p]) and self._can_face(p, cid)
        if name == "attack":
            n = self.game.num_players
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
        if name == "defend":
            return c[0] < len(self.troops[p]) and not self.troops[p][c[0]].engaged
        if name == "discard":
            return hand[c[0]] > 0
        if name == "take_card":
            if f["src"] == "pool":
                return c[0] in self.pool
            return self.valhalla[c[0]] > 0 if f["src"] == "valhalla" else c[0] in self.krog
        if name == "reserve":
            return c[0] in self.open
        if name == "keep_reward":
            return c[0] in f["drawn"]
        return False

    def _mask_place(self, mask, t: Troop, ti: int, hand, table: bool) -> None:
        for c in range(10):
            if hand[c] and place_check(t, c, 0, hand, table)[0]:
                mask[A.encode("place_class", ti, c)] = True
        if hand[SNEDIG] and not t.series:
            for side in (0, 1):
                if place_check(t, SNEDIG, side, hand, table)[0]:
                    mask[A.encode("place_snedig", ti, side)] = True
        if hand[TYR]:
            for slot in range(12):
                if place_check(t, TYR, slot, hand, table)[0]:
                    mask[A.encode("place_tyr", ti, slot)] = True
        if hand[THOR]:
            for s in range(10):
                if place_check(t, THOR, s, hand, table)[0]:
                    mask[A.encode("place_thor", ti, s)] = True

    def _claimable(self, t: Troop, hand) -> bool:
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
        cand = [ti for ti, t in enumerate(self.troops[p]) if not t.engaged]
        return C.feasible_sets(
            ch,
            self.troops[p],
            cand,
            int(self.coins[p]),
            int(self.hands[p].sum()),
            self.ignore_allowance(p),
        )

    def _can_face(self, p: int, cid: int) -> bool:
        ch = DATA.challenges[cid]
        if not (ch.any_world or int(self.world[p]) in ch.worlds):
            return False
        return bool(self._feasible_sets(p, ch))

    def _mask_onslaught(self, mask, p: int) -> None:
        sizes = self._regrouped_sizes(p)
        if not sizes:
            return
        for w, world in enumerate(DATA.worlds):
            if w != self.world[p] and C.travel_completable(sizes, [], world.troops):
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

    # ---- apply --------------------------------------------------------------------------


def place_kind_pos(name: str, c) -> tuple[int, int]:
    if name == "place_class":
        return c[1], 0
    if name == "place_snedig":
        return SNEDIG, c[1]
    if name == "place_tyr":
        return TYR, c[1]
    return THOR, c[1]
