"""Midgard Onslaught: travel and the worlds' benefits, challenges and the challenge list,
battles (M23-M37, M47, M48); ``OnslaughtMixin`` of ``MidgardState``.

``STEP`` maps each decision mode of the Onslaught to its handler ``(state, frame, name,
coords)``; ``BENEFITS`` maps a world's benefit kind to what arriving there does. The bonus and
reaction windows around a challenge or battle are cardplay.py's.
"""

from __future__ import annotations

from . import challenges as C
from .cards import DATA
from .frames import (
    ChallengeFrame,
    DefendFrame,
    DiscardReqFrame,
    KeepFrame,
    OnslaughtFrame,
    ReserveFrame,
    TakeFrame,
    TravelFrame,
)
from .modes import (
    CHALLENGE,
    DEFEND,
    DISCARD_REQ,
    KEEP,
    MIN_OPEN,
    ONSLAUGHT,
    RESERVE,
    TAKE,
    TRAVEL,
)

MIGHT = DATA.might


class OnslaughtMixin:
    # ---- travel (M23-M26) ---------------------------------------------------------------
    def _travel(self, p: int, w: int, chosen) -> None:
        for ti in chosen:
            self.troops[p][ti].engaged = True
        self.world[p] = w
        self.made_trip = True
        b = DATA.worlds[w].benefit
        BENEFITS[b.kind](self, p, b.n)

    def _benefit_draw_cards(self, p: int, n: int) -> None:
        self._draw(p, n)

    def _benefit_gain_coins(self, p: int, n: int) -> None:
        self._gain_coins(p, n)

    def _benefit_take_from_valhalla(self, p: int, n: int) -> None:
        if self.valhalla.sum() > 0:
            self.stack.append(TakeFrame(p, "valhalla"))

    def _benefit_take_from_krog(self, p: int, n: int) -> None:
        if self.krog:
            self.stack.append(TakeFrame(p, "krog"))

    def _benefit_reserve_challenge(self, p: int, n: int) -> None:
        if self.open:
            self.stack.append(ReserveFrame(p))

    def _benefit_draw_rewards(self, p: int, n: int) -> None:
        for _ in range(n):
            self._draw_reward(p)

    def _draw_keep_one(self, p: int, k: int) -> None:
        drawn = [self.reward_deck.pop() for _ in range(min(k, len(self.reward_deck)))]
        if drawn:
            self.reward_top_known = -1
        if len(drawn) == 1:
            self.rewards[p, drawn[0]] += 1
        elif drawn:
            self.stack.append(KeepFrame(p, drawn))

    def _reserve(self, p: int, cid: int) -> None:
        if self.reserved[p] >= 0:
            self.ch_out.append(self.reserved[p])  # the first reservation is discarded (M26)
        self.reserved[p] = cid
        self.open.remove(cid)
        self._refill()
        if not self._calendar_left():
            self._end_game("no calendar challenge left (M48)")

    # ---- challenges list (M33, M34) -----------------------------------------------------
    def _open_one(self) -> int:
        """Open the top challenge and apply its instant effects; returns how many more it asks to
        open."""
        cid = self.ch_deck.pop()
        self.open.append(cid)
        more = 0
        for e in DATA.challenges[cid].instant:
            if e.kind == "all_to_midgard":
                self._all_to_midgard(range(self.game.num_players))  # not a trip (M23)
            elif e.kind == "open_another":
                more += 1
        return more

    def _refill(self) -> None:
        """Open challenges until 6 are open, plus one more for each "open another" opened (M33)."""
        extra = 0
        while self.ch_deck and (len(self.open) < MIN_OPEN or extra > 0):
            if len(self.open) >= MIN_OPEN:
                extra -= 1
            extra += self._open_one()

    def _calendar_left(self) -> bool:
        """Is any calendar challenge still in the deck, the open list or a reservation? (M48)"""
        pool = self.ch_deck + self.open + [c for c in self.reserved if c >= 0]
        return any(DATA.challenges[c].calendar for c in pool)

    # ---- challenges (M28-M32, M47) ------------------------------------------------------
    def _resolve_challenge(
        self, p: int, cid: int, chosen, bonus_might: int = 0, bonus_difficulty: int = 0
    ) -> None:
        ch = DATA.challenges[cid]
        troops = [self.troops[p][ti] for ti in chosen]
        if C.might(ch, troops, MIGHT, bonus_might) < self.challenge_difficulty(
            cid, bonus_difficulty
        ):
            return  # troops stay engaged, the challenge stays (M32)
        if self.reserved[p] == cid:
            self.reserved[p] = -1
        else:
            self.open.remove(cid)
        self.won[p].append(cid)
        self.won_challenge = True
        for ti in sorted(chosen, reverse=True):
            for k in self.troops[p][ti].cards():
                self.valhalla[k] += 1  # winning troops go to Valhalla whatever their type (M41)
            del self.troops[p][ti]
        self._refill()
        if ch.calendar:
            self.calendar = (self.calendar + 1) % C.CALENDAR_STEPS
            if self.calendar == 0:
                self._end_game("calendar (M47)")
                return
        if not self._calendar_left():
            self._end_game("no calendar challenge left (M48)")
            return
        self._won_window(p)

    # ---- battles (M35-M37) --------------------------------------------------------------
    def _battle(
        self, p: int, ti: int, q: int, di: int, bonus_att: int = 0, bonus_def: int = 0
    ) -> None:
        self.troops[q][di].engaged = True
        att = self.troops[p][ti].might(MIGHT) + bonus_att
        dfn = self.troops[q][di].might(MIGHT) + bonus_def
        self._draw_reward(p if att >= dfn else q)  # ties go to the attacker

    def _undefended(self, p: int) -> None:
        self._draw_keep_one(p, 2)

    # ---- step handlers (STEP) -----------------------------------------------------------
    def _step_onslaught(self, f: OnslaughtFrame, name: str, c) -> None:
        p = f.p
        if name == "end_phase":
            self._end_onslaught()
        elif name == "travel":
            self.stack.append(TravelFrame(p, c[0], []))
        elif name == "face":
            self.stack.append(ChallengeFrame(p, c[0], []))
        else:  # attack
            self._attack(p, (p + c[0] + 1) % self.game.num_players, c[1])

    def _step_travel(self, f: TravelFrame, name: str, c) -> None:
        if name == "cancel":
            self.stack.pop()
            return
        f.chosen.append(c[0])
        if len(f.chosen) == len(DATA.worlds[f.world].troops):
            self.stack.pop()
            self._travel(f.p, f.world, f.chosen)

    def _step_challenge(self, f: ChallengeFrame, name: str, c) -> None:
        if name == "cancel":
            self.stack.pop()
        elif name == "select_troop":
            f.chosen.append(c[0])
        else:
            self.stack.pop()
            self._declare_challenge(f.p, f.ch, sorted(f.chosen))

    def _step_discard_req(self, f: DiscardReqFrame, name: str, c) -> None:
        self._from_hand(f.p, c[0])
        self._dispose(c[0])
        f.left -= 1
        if f.left == 0:
            self.stack.pop()
            self._start_bonus()

    def _step_take(self, f: TakeFrame, name: str, c) -> None:
        k = c[0]
        self.stack.pop()
        if f.src == "pool":
            self._take_from_pool(f.p, k)
            return
        if f.src == "valhalla":
            self.valhalla[k] -= 1
        else:
            del self.krog[self.krog.index(k)]  # the copy deepest in the pile (MD6)
        self._to_hand(f.p, k, known=True)

    def _step_reserve(self, f: ReserveFrame, name: str, c) -> None:
        self.stack.pop()
        self._reserve(f.p, c[0])

    def _step_keep(self, f: KeepFrame, name: str, c) -> None:
        self.stack.pop()
        drawn = list(f.drawn)
        drawn.remove(c[0])
        self.rewards[f.p, c[0]] += 1
        for k in drawn:  # the other goes back on top of the reward pile (M25, M37)
            self.reward_deck.append(k)
            self.reward_top_known = f.p

    def _step_defend(self, f: DefendFrame, name: str, c) -> None:
        self.stack.pop()
        if name == "refuse":
            self.contest = None
            self._undefended(f.att)
        else:
            self._defend(c[0])


BENEFITS = {
    "draw_cards": OnslaughtMixin._benefit_draw_cards,
    "gain_coins": OnslaughtMixin._benefit_gain_coins,
    "take_from_valhalla": OnslaughtMixin._benefit_take_from_valhalla,
    "take_from_krog": OnslaughtMixin._benefit_take_from_krog,
    "reserve_challenge": OnslaughtMixin._benefit_reserve_challenge,
    "draw_rewards": OnslaughtMixin._benefit_draw_rewards,
    "draw_rewards_keep_one": OnslaughtMixin._draw_keep_one,
}

STEP = {
    ONSLAUGHT: OnslaughtMixin._step_onslaught,
    TRAVEL: OnslaughtMixin._step_travel,
    CHALLENGE: OnslaughtMixin._step_challenge,
    DISCARD_REQ: OnslaughtMixin._step_discard_req,
    TAKE: OnslaughtMixin._step_take,
    RESERVE: OnslaughtMixin._step_reserve,
    KEEP: OnslaughtMixin._step_keep,
    DEFEND: OnslaughtMixin._step_defend,
}
