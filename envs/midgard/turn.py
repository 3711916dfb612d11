"""Midgard turn structure: Hiring, Preparation (laying down, completing, Claim for Gods), Spoils
and the Krog offer between turns (M9-M22, M38, M39); ``TurnMixin`` of ``MidgardState``.

``STEP`` maps each decision mode of these phases to its handler ``(state, frame, name,
coords)``, called by ``MidgardState._step`` with the frame on top of the stack.
"""

from __future__ import annotations

from . import actions as A
from .cardplay import FIRST
from .cards import DATA
from .frames import (
    BuildFrame,
    ClaimFrame,
    KrogFrame,
    OnslaughtFrame,
    PrepFrame,
    RelocateFrame,
    SpoilsFrame,
)
from .masks import place_kind_pos
from .modes import BUILD, CLAIM, HAND_SIZE, KROG, PREP, RELOCATE, SPOILS
from .troops import Troop, claim, place, relocate, relocation_options


class TurnMixin:
    def _end_game(self, reason: str, truncated: bool = False) -> None:
        self.over = True
        self.truncated = truncated
        self.end_reason = reason
        self.stack = []
        while self.played:  # an effect that ends the game is done: its card reaches Valhalla
            self.valhalla[self.played.pop()["k"]] += 1
        if self.pending is not None:  # cannot happen from play; keeps conservation if forced
            for k in self.pending.cards():
                self.hands[self.active, k] += 1
            self.pending = None

    def _start_turn(self, p: int) -> None:
        if self.turn >= self.game.options["max_turns"]:
            self._end_game("max_turns", truncated=True)
            return
        self.turn += 1
        self.active = p
        self._draw(p)  # Hiring (M9)
        for t in self.troops[p]:
            t.engaged = False  # regroup (M10, M12)
        self.had_troops = bool(self.troops[p])
        self.made_trip = self.won_challenge = False
        self.events_left = 1  # one event per Preparation (more only where a card allows)
        self.stack = [PrepFrame(p)]

    def _end_onslaught(self) -> None:
        p = self.active
        if self.hands[p].sum() > 0:
            self.stack = [SpoilsFrame(p)]
        else:
            self._finish_spoils()

    def _finish_spoils(self) -> None:
        p = self.active
        if self.made_trip or self.won_challenge:  # Reset Hand (M38)
            self._draw(p, max(0, HAND_SIZE - int(self.hands[p].sum())))
        self._krog_offer(p, p)

    def _krog_offer(self, ender: int, after: int) -> None:
        """Offer the Krog top to the next seat after ``after`` that may be able to pay, up to the
        ender (M39, MD10)."""
        n = self.game.num_players
        if self.krog:
            q = (after + 1) % n
            while q != ender:
                if self._may_pay(q):
                    self.stack = [KrogFrame(q, ender)]
                    return
                q = (q + 1) % n
        self._start_turn((ender + 1) % n)

    def _may_pay(self, q: int) -> bool:
        """Could seat ``q`` pay a coin, as the table sees it (MD10, M-E3)? It holds one, or it
        holds a reward card (a coin reward "can be revealed anytime") while the Skat has a coin
        to give for it. Only public counts decide (coins, the Skat, how many rewards a seat
        holds, never which), so being offered or skipped tells nobody whether a seat's rewards
        are coins; a seat whose rewards are all renown is offered too and can only pass."""
        return self.coins[q] >= 1 or (self.skat >= 1 and self.rewards[q].sum() > 0)

    def _reveal_reward(self, p: int, k: int) -> None:
        """A coin reward revealed for its coins: any decision that can spend coins (M44, MD9,
        M-E3)."""
        self.rewards[p, k] -= 1
        self.revealed[p, k] += 1
        self._gain_coins(p, DATA.rewards[k][1])

    def _do_place(self, p: int, name: str, c) -> None:
        ti = c[0]
        t = self.pending if ti == A.PENDING else self.troops[p][ti]
        kind, pos = place_kind_pos(name, c)
        used, displaced = place(t, kind, pos)
        for k in used:
            self._from_hand(p, k)
        if displaced is not None:
            opts = relocation_options(t, displaced)
            if len(opts) == 1:  # a choice of one is no choice
                relocate(t, displaced, opts[0])
            else:
                self.stack.append(RelocateFrame(p, ti, displaced, opts))

    # ---- step handlers (STEP) ----------------------------------------------------------------
    def _step_krog(self, f: KrogFrame, name: str, c) -> None:
        p = f.p
        if name == "hire":
            self._pay(p, 1)
            self._to_hand(p, self.krog.pop(), known=True)
            self._draw(p)
            self._start_turn((f.ender + 1) % self.game.num_players)
        else:
            self._krog_offer(f.ender, p)

    def _step_prep(self, f: PrepFrame, name: str, c) -> None:
        p = f.p
        if name == "end_phase":
            self.stack = [OnslaughtFrame(p)]
        elif name == "new_troop":
            self.pending = Troop()
            self.stack.append(BuildFrame(p))
        elif name == "play_event":
            k = FIRST + c[0]
            self._from_hand(p, k)
            self.events_left -= 1
            self._play_card(k, p)
        elif name == "claim_target":
            n = self.game.num_players
            self.stack.append(ClaimFrame(p, (p + c[0] + 1) % n, c[1]))
        else:
            self._do_place(p, name, c)

    def _step_build(self, f: BuildFrame, name: str, c) -> None:
        p = f.p
        if name == "finish":
            self.troops[p].append(self.pending)
            self.pending = None
            self.stack.pop()
        elif name == "cancel":
            for k in self.pending.cards():
                self._to_hand(p, k, known=True)  # they were on the table for all to see
            self.pending = None
            self.stack.pop()
        else:
            self._do_place(p, name, c)

    def _step_relocate(self, f: RelocateFrame, name: str, c) -> None:
        t = self.pending if f.troop == A.PENDING else self.troops[f.p][f.troop]
        relocate(t, f.wild, c[0])
        self.stack.pop()

    def _step_claim(self, f: ClaimFrame, name: str, c) -> None:
        self.stack.pop()
        if name == "claim":
            given, taken = claim(self.troops[f.target][f.troop], c[0], c[1])
            for k in given:
                self._from_hand(f.p, k)
            for k in taken:
                self._to_hand(f.p, k, known=True)

    def _step_spoils(self, f: SpoilsFrame, name: str, c) -> None:
        self._from_hand(f.p, c[0])
        self._dispose(c[0])
        self._finish_spoils()


STEP = {
    KROG: TurnMixin._step_krog,
    PREP: TurnMixin._step_prep,
    BUILD: TurnMixin._step_build,
    RELOCATE: TurnMixin._step_relocate,
    CLAIM: TurnMixin._step_claim,
    SPOILS: TurnMixin._step_spoils,
}
