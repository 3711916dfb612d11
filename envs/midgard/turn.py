"""Midgard turn structure: Hiring, Preparation (laying down, completing, Claim for Gods), Spoils
and the Krog offer between turns (M9-M22, M38, M39); functions of the state.

``STEP`` maps each decision mode of these phases to its handler ``(state, frame, name,
coords)``, called by ``MidgardState._step`` with the frame on top of the stack.
"""

from __future__ import annotations

from . import actions as A
from .cardplay import play_card
from .cards import DATA, FIRST_ACTION_CARD
from .frames import (
    BuildFrame,
    ClaimFrame,
    KrogFrame,
    OnslaughtFrame,
    PrepFrame,
    RelocateFrame,
    SpoilsFrame,
)
from .modes import BUILD, CLAIM, HAND_SIZE, KROG, PREP, RELOCATE, SPOILS
from .troops import Troop, claim, place, relocate, relocation_options


def start_turn(s, p: int) -> None:
    """Seat ``p``'s turn: Hiring, regrouping, then its Preparation (or the ``max_turns`` end)."""
    if s.turn >= s.game.options["max_turns"]:
        s._end_game("max_turns", truncated=True)
        return
    s.turn += 1
    s.active = p
    s._draw(p)  # Hiring (M9)
    for t in s.troops[p]:
        t.engaged = False  # regroup (M10, M12)
    s.had_troops = bool(s.troops[p])
    s.made_trip = s.won_challenge = False
    s.events_left = 1  # one event per Preparation (more only where a card allows)
    s.stack = [PrepFrame(p)]


def end_onslaught(s) -> None:
    p = s.active
    if s.hands[p].sum() > 0:
        s.stack = [SpoilsFrame(p)]
    else:
        finish_spoils(s)


def finish_spoils(s) -> None:
    p = s.active
    if s.made_trip or s.won_challenge:  # Reset Hand (M38)
        s._draw(p, max(0, HAND_SIZE - int(s.hands[p].sum())))
    krog_offer(s, p, p)


def krog_offer(s, ender: int, after: int) -> None:
    """Offer the Krog top to the next seat after ``after`` that may be able to pay, up to the
    ender (M39, MD10)."""
    n = s.game.num_players
    if s.krog:
        q = (after + 1) % n
        while q != ender:
            if may_pay(s, q):
                s.stack = [KrogFrame(q, ender)]
                return
            q = (q + 1) % n
    start_turn(s, (ender + 1) % n)


def may_pay(s, q: int) -> bool:
    """Could seat ``q`` pay a coin, as the table sees it (MD10, M-E3)? It holds one, or it
    holds a reward card (a coin reward "can be revealed anytime") while the Skat has a coin
    to give for it. Only public counts decide (coins, the Skat, how many rewards a seat
    holds, never which), so being offered or skipped tells nobody whether a seat's rewards
    are coins; a seat whose rewards are all renown is offered too and can only pass."""
    return s.coins[q] >= 1 or (s.skat >= 1 and s.rewards[q].sum() > 0)


def reveal_reward(s, p: int, k: int) -> None:
    """A coin reward revealed for its coins: any decision that can spend coins (M44, MD9,
    M-E3)."""
    s.rewards[p, k] -= 1
    s.revealed[p, k] += 1
    s._gain_coins(p, DATA.rewards[k][1])


def do_place(s, p: int, name: str, c) -> None:
    ti = c[0]
    t = s.pending if ti == A.PENDING else s.troops[p][ti]
    kind, pos = A.place_kind_pos(name, c)
    used, displaced = place(t, kind, pos)
    for k in used:
        s._from_hand(p, k)
    if displaced is not None:
        opts = relocation_options(t, displaced)
        if len(opts) == 1:  # a choice of one is no choice
            relocate(t, displaced, opts[0])
        else:
            s.stack.append(RelocateFrame(p, ti, displaced, opts))


# ---- step handlers (STEP) -------------------------------------------------------------------
def step_krog(s, f: KrogFrame, name: str, c) -> None:
    p = f.p
    if name == "hire":
        s._pay(p, 1)
        s._to_hand(p, s.krog.pop(), known=True)
        s._draw(p)
        start_turn(s, (f.ender + 1) % s.game.num_players)
    else:
        krog_offer(s, f.ender, p)


def step_prep(s, f: PrepFrame, name: str, c) -> None:
    p = f.p
    if name == "end_phase":
        s.stack = [OnslaughtFrame(p)]
    elif name == "new_troop":
        s.pending = Troop()
        s.stack.append(BuildFrame(p))
    elif name == "play_event":
        k = FIRST_ACTION_CARD + c[0]
        s._from_hand(p, k)
        s.events_left -= 1
        play_card(s, k, p)
    elif name == "claim_target":
        n = s.game.num_players
        s.stack.append(ClaimFrame(p, (p + c[0] + 1) % n, c[1]))
    else:
        do_place(s, p, name, c)


def step_build(s, f: BuildFrame, name: str, c) -> None:
    p = f.p
    if name == "finish":
        s.troops[p].append(s.pending)
        s.pending = None
        s.stack.pop()
    elif name == "cancel":
        for k in s.pending.cards():
            s._to_hand(p, k, known=True)  # they were on the table for all to see
        s.pending = None
        s.stack.pop()
    else:
        do_place(s, p, name, c)


def step_relocate(s, f: RelocateFrame, name: str, c) -> None:
    t = s.pending if f.troop == A.PENDING else s.troops[f.p][f.troop]
    relocate(t, f.wild, c[0])
    s.stack.pop()


def step_claim(s, f: ClaimFrame, name: str, c) -> None:
    s.stack.pop()
    if name == "claim":
        given, taken = claim(s.troops[f.target][f.troop], c[0], c[1])
        for k in given:
            s._from_hand(f.p, k)
        for k in taken:
            s._to_hand(f.p, k, known=True)


def step_spoils(s, f: SpoilsFrame, name: str, c) -> None:
    s._from_hand(f.p, c[0])
    s._dispose(c[0])
    finish_spoils(s)


STEP = {
    KROG: step_krog,
    PREP: step_prep,
    BUILD: step_build,
    RELOCATE: step_relocate,
    CLAIM: step_claim,
    SPOILS: step_spoils,
}
