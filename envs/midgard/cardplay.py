"""Midgard part 2: events, reaction windows and bonus cards (``CardPlayMixin`` of ``MidgardState``).

Everything here is driven by the decision stack (modes.py, frames.py). Four kinds of frame are
*queues*: their seat ``p`` is -1 until ``_settle`` finds the next seat to ask (``ADVANCE``, by
mode), and when the queue runs dry the frame is popped and its continuation runs (a window's
``then``, by name in ``CONTINUE``). Who is asked (ruling MD15, ``_asks``):
every seat the rules let answer that has a card in hand, with a forced ``pass`` when none of its
cards fits, because whether a seat is asked is public and must not depend on its hidden cards;
the option ``reaction_windows="holders_leaky"`` asks only the holders of an eligible card
(fewer decisions, and a leak of hidden cards):

* ``reaction_window`` (M42): ``queue`` = ``[seat, [reaction kinds it may play]]`` in the ruled
  order (the active seat first, then clockwise); ``card`` = the window answers the card on top
  of ``state.played`` (it closes at once when that card is cancelled).
* ``bonus`` (M30, M37): ``queue`` = ``[seat, side]``; side 0 is the challenge (or the attacker),
  side 1 the facing troops (or the defender). The first opponent who places a side-0 bonus on a
  challenge ends the side-0 asking.
* ``event_discard`` / ``event_engage``: each affected seat in turn discards a card / engages one
  regrouped troop for an attack event.

Cards played for an effect stay in ``state.played`` (``{"k": kind, "s": seat, "x": cancelled,
"imm": [immune seats], "r": depth}``) until they reach Valhalla: first while their
``card_played`` window is open (Odin's Reprimand; ``r`` is -1), then, unless cancelled, while
their effects resolve (effect kinds: cards.EVENT_EFFECTS / REACTION_EFFECTS; what each does:
``EVENT_EFFECTS`` / ``REACTION_EFFECTS`` here, one handler per kind). ``r`` is then the
stack depth below the frames the effects push; once those are all answered the card goes to
Valhalla (MD20: the rulebook drops a card there "after applying its effect", so a draw of its
own effect can never reshuffle it back into a hand). A challenge attempt or battle in progress
is ``state.contest``.
"""

from __future__ import annotations

from . import cards
from . import challenges as C
from .cards import DATA, REACTION_TRIGGERS
from .frames import (
    BonusFrame,
    DefendFrame,
    DiscardReqFrame,
    EngageFrame,
    EvDiscardFrame,
    MoveFrame,
    ReactFrame,
    TakeFrame,
)
from .modes import BONUS, ENGAGE, EV_DISCARD, MOVE, REACT

FIRST = len(DATA.kind_names) - DATA.num_events - DATA.num_reactions  # first event kind
FIRST_REACTION = FIRST + DATA.num_events
CARDS = {c.kind: c for c in DATA.action_cards}
EVENT_KINDS = [c.kind for c in DATA.action_cards if c.is_event]
REACTION_KINDS = [c.kind for c in DATA.action_cards if not c.is_event]
BONUS_KINDS = list(range(FIRST, len(DATA.kind_names)))  # any event or reaction (M30, M37)
BY_TRIGGER = {t: [c.kind for c in DATA.action_cards if c.trigger == t] for t in REACTION_TRIGGERS}
IGNORE_KINDS = [
    (c.kind, e.n)
    for c in DATA.action_cards
    if not c.is_event
    for e in c.effects
    if e.kind == "ignore_requirement"
]


class CardPlayMixin:
    # ---- settling queue frames -------------------------------------------------------------
    def _settle(self) -> None:
        """Advance queue frames until the top frame has a seat to decide (or the game is over)."""
        while not self.over:
            self._retire_played()
            if not self.stack:
                return
            f = self.stack[-1]
            if f.p >= 0:
                return
            ADVANCE[f.m](self, f)

    def _order_from(self, first: int) -> list[int]:
        n = self.game.num_players
        return [(first + i) % n for i in range(n)]

    # ---- reaction windows (M42) -----------------------------------------------------------
    def _open_window(self, asks, then: str | None, card: bool = False) -> None:
        """Push a window if some seat could ever answer it; otherwise run ``then`` at once."""
        asks = [[q, kinds] for q, kinds in asks if kinds]
        if not asks or self.over:
            self._continue(then)
            return
        self.stack.append(ReactFrame(-1, asks, card, then))

    def _asks(self, q: int, kinds) -> bool:
        """Is seat ``q`` asked now, where a card of ``kinds`` would answer (MD15)? By default
        whenever it holds a card: hand sizes are public, so skipping an empty hand tells nobody
        anything, while skipping a hand without a fitting card would tell everyone so (M-E1).
        The leaky fast mode asks only a seat that holds a fitting card."""
        if self.game.ask_holders_only:
            return bool(self.hands[q, kinds].any())
        return bool(self.hands[q].any())

    def _advance_window(self, f: ReactFrame) -> None:
        if f.card and self.played[-1]["x"]:
            f.queue = []  # the card was cancelled: nothing left to answer
        while f.queue:
            q, kinds = f.queue.pop(0)
            if self._asks(q, kinds):
                f.p, f.kinds = q, kinds
                return
        self.stack.pop()
        self._continue(f.then)

    def _react(self, f: ReactFrame, r: int) -> None:
        q = f.p
        self._from_hand(q, r)
        self._draw(q)  # the reactor draws a replacement at once (M42)
        f.p = -1
        self._play_card(r, q)

    def _play_card(self, k: int, seat: int) -> None:
        """An event or reaction is played for its effect: it waits while others may cancel it."""
        self.played.append({"k": k, "s": seat, "x": False, "imm": [], "r": -1})
        card = CARDS[k]
        trig = BY_TRIGGER["card_played"]
        if card.is_event and card.type == "attack":
            trig = trig + BY_TRIGGER["attack_event"]
        asks = [[q, trig] for q in self._order_from(self.active) if q != seat]
        self._open_window(asks, "played", card=True)

    def _continue(self, then: str | None) -> None:
        """Run a closed window's continuation (``CONTINUE``), unless the game is over."""
        if then is None or self.over:
            return
        CONTINUE[then](self)

    def _after_played(self) -> None:
        """The played card's window closed: its effects resolve unless it was cancelled."""
        c = self.played[-1]
        c["r"] = len(self.stack)  # resolving: the frames its effects push go above this depth
        if not c["x"]:
            if CARDS[c["k"]].is_event:
                self._event_effects(c)
            else:
                self._reaction_effects(c)
        self._retire_played()

    def _retire_played(self) -> None:
        """Cards whose effects are done (nothing of theirs left on the stack) go to Valhalla:
        used, not discarded (M41), and only now (MD20)."""
        while self.played and 0 <= self.played[-1]["r"] and len(self.stack) <= self.played[-1]["r"]:
            self.valhalla[self.played.pop()["k"]] += 1

    # ---- reactions: one handler per effect kind (REACTION_EFFECTS) -------------------------
    def _reaction_effects(self, c: dict) -> None:
        q = c["s"]
        target = self.played[-2] if len(self.played) > 1 else None  # the card this one answers
        for e in CARDS[c["k"]].effects:
            REACTION_EFFECTS[e.kind](self, e, q, target)

    def _re_cancel_card(self, e, q: int, target: dict) -> None:
        target["x"] = True

    def _re_immune(self, e, q: int, target: dict) -> None:
        target["imm"].append(q)

    def _re_ignore_requirement(self, e, q: int, target) -> None:
        self.contest["ign"] += e.n

    def _re_difficulty_change(self, e, q: int, target) -> None:
        self.contest["dd"] += e.n

    def _re_regroup_own(self, e, q: int, target) -> None:
        for t in self.troops[q]:
            t.engaged = False

    def _re_gain_coins(self, e, q: int, target) -> None:
        self._gain_coins(q, e.n)

    def _re_move_self(self, e, q: int, target) -> None:
        self.stack.append(MoveFrame(q))

    # ---- events: one handler per effect kind (EVENT_EFFECTS) -------------------------------
    def _event_effects(self, c: dict) -> None:
        """The event's effects in order, on the player ``p`` or, for an attack event, on every
        seat not made immune; an effect that ends the game ends the event."""
        p, card = c["s"], CARDS[c["k"]]
        if card.type == "attack":
            affected = [q for q in self._order_from(p) if q not in c["imm"]]
        else:
            affected = [p]
        for e in card.effects:
            EVENT_EFFECTS[e.kind](self, e, p, affected)
            if self.over:
                return

    def _ev_draw_cards(self, e, p: int, affected) -> None:
        self._draw(p, e.n)

    def _ev_gain_coins(self, e, p: int, affected) -> None:
        for q in affected:
            self._gain_coins(q, e.n)

    def _ev_regroup_own(self, e, p: int, affected) -> None:
        for t in self.troops[p]:
            t.engaged = False

    def _ev_take_from_valhalla(self, e, p: int, affected) -> None:
        if self.valhalla.sum() > 0:  # the event itself is not there yet (MD20)
            self.stack.append(TakeFrame(p, "valhalla"))

    def _ev_take_from_krog(self, e, p: int, affected) -> None:
        if self.krog:
            self.stack.append(TakeFrame(p, "krog"))

    def _ev_draw_rewards(self, e, p: int, affected) -> None:
        for _ in range(e.n):
            self._draw_reward(p)

    def _ev_extra_event(self, e, p: int, affected) -> None:
        self.events_left += 1

    def _ev_turn_calendar(self, e, p: int, affected) -> None:
        for _ in range(e.n):
            self.calendar = (self.calendar + 1) % C.CALENDAR_STEPS
            if self.calendar == 0:  # any turn of the dial onto the sword ends the game (M47)
                self._end_game("calendar (M47)")
                return

    def _ev_all_lose_coins(self, e, p: int, affected) -> None:
        for q in affected:
            self._pay(q, min(e.n, int(self.coins[q])))

    def _ev_move_self(self, e, p: int, affected) -> None:
        self.stack.append(MoveFrame(p))

    def _ev_all_to_midgard(self, e, p: int, affected) -> None:
        self._all_to_midgard(affected)

    def _ev_open_challenges(self, e, p: int, affected) -> None:
        more = e.n
        while more > 0 and self.ch_deck:
            more += self._open_one() - 1

    def _ev_renew_challenges(self, e, p: int, affected) -> None:
        self.ch_out.extend(self.open)
        self.open = []
        while len(self.open) < 6 and self.ch_deck:
            self._open_one()  # "open another" is ignored during the renewal (M33)
        if not self._calendar_left():
            self._end_game("no calendar challenge left (M48)")

    def _ev_all_discard(self, e, p: int, affected) -> None:
        queue = [q for q in affected for _ in range(e.n)]
        self.stack.append(EvDiscardFrame(-1, queue, False, p))

    def _ev_all_discard_keep_one(self, e, p: int, affected) -> None:
        self.stack.append(EvDiscardFrame(-1, list(affected), True, p))

    def _ev_opponents_engage_one(self, e, p: int, affected) -> None:
        self.stack.append(EngageFrame(-1, [q for q in affected if q != p]))

    def _all_to_midgard(self, seats) -> None:
        """Meeples moved by an effect (not a trip, M23); the moved seats may answer (Hermod's
        Ride)."""
        moved = [q for q in seats if self.world[q] != 0]
        for q in moved:
            self.world[q] = 0
        if moved and self.stack and not self.over:
            kinds = BY_TRIGGER["moved_by_effect"]
            self._open_window(
                [[q, kinds] for q in self._order_from(self.active) if q in moved], None
            )

    def _advance_discard(self, f: EvDiscardFrame) -> None:
        while f.queue:
            q = f.queue.pop(0)
            if self.hands[q].sum() > 0:
                f.p = q
                return
        self.stack.pop()
        if f.keep and self.pool:
            self.stack.append(TakeFrame(f.by, "pool"))

    def _advance_engage(self, f: EngageFrame) -> None:
        while f.queue:
            q = f.queue.pop(0)
            if any(not t.engaged for t in self.troops[q]):
                f.p = q
                return
        self.stack.pop()

    def _take_from_pool(self, p: int, k: int) -> None:
        self.pool.remove(k)
        self._to_hand(p, k, known=True)
        for x in self.pool:
            self._dispose(x)
        self.pool = []

    # ---- challenges: engagement window, discards, bonuses (M29, M30) ----------------------
    def ignore_allowance(self, p: int) -> int:
        """Requirements a seat may leave unmet when facing: an "ignore" reaction in hand (M29)."""
        return max((n for k, n in IGNORE_KINDS if self.hands[p, k] > 0), default=0)

    def _declare_challenge(self, p: int, cid: int, chosen) -> None:
        for ti in chosen:
            self.troops[p][ti].engaged = True
        self._pay(p, C.troop_cost(len(chosen)))  # the icons are paid once the window is over
        self.contest = {
            "t": "ch",
            "p": p,
            "ch": cid,
            "tr": list(chosen),
            "ign": 0,
            "dd": 0,
            "b": [-1, -1],
            "bs": [-1, -1],
            "held": [],
        }
        asks = [[p, BY_TRIGGER["troop_engaged_for_challenge"]]]
        asks += [[q, BY_TRIGGER["challenge_faced_by_opponent"]] for q in self._order_from(p)[1:]]
        self._open_window(asks, "engaged")

    def _after_engage(self) -> None:
        c = self.contest
        p, ch = c["p"], DATA.challenges[c["ch"]]
        troops = [self.troops[p][ti] for ti in c["tr"]]
        # the requirement test takes the coins held before the extra troops were paid (at
        # ``finish``), as ``face`` did: it subtracts their cost itself (M-E3)
        coins = int(self.coins[p]) + C.troop_cost(len(troops))
        cards = int(self.hands[p].sum())
        if C.unmet_requirements(ch, troops, coins, cards) > c["ign"]:
            self.contest = None  # no (or a cancelled) "ignore" reaction: the attempt fails (M29)
            return
        skip_coins, skip_discard = C.ignored_costs(ch, troops, coins, cards, c["ign"])
        if not skip_coins:
            self._pay(p, ch.coins)
        left = 0 if skip_discard else ch.discard
        if left:
            self.stack.append(DiscardReqFrame(p, c["ch"], list(c["tr"]), left))
        else:
            self._start_bonus()

    def _start_bonus(self) -> None:
        c = self.contest
        if c["t"] == "ch":
            queue = [[q, 0] for q in self._order_from(c["p"])[1:]] + [[c["p"], 1]]
        else:
            queue = [[c["p"], 0], [c["q"], 1]]
        self.stack.append(BonusFrame(-1, queue, -1))

    def _advance_bonus(self, f: BonusFrame) -> None:
        c = self.contest
        while f.queue:
            q, side = f.queue.pop(0)
            if side == 0 and c["b"][0] >= 0:
                continue  # one bonus per side (M30)
            if self._asks(q, BONUS_KINDS):
                f.p, f.side = q, side
                return
        self.stack.pop()
        self._reveal()

    def _place_bonus(self, f: BonusFrame, k: int) -> None:
        c = self.contest
        q, side = f.p, f.side
        c["b"][side], c["bs"][side] = k, q
        if c["t"] == "ch":  # face down on the table; the replacement comes at once (M30)
            self.hands[q, k] -= 1  # unseen: the known cards change only at the reveal (MD22)
            c["held"].append(k)
            self._draw(q)
        f.p = -1

    def _reveal(self) -> None:
        """Both bonuses are revealed together and go to Valhalla; then the contest is decided."""
        c = self.contest
        self.contest = None
        val = [DATA.bonus[k] if k >= 0 else 0 for k in c["b"]]
        for side, k in enumerate(c["b"]):
            if k < 0:
                continue
            if c["t"] == "bt":  # battle bonuses left the hand only now (simultaneous, MD16)
                self._from_hand(c["bs"][side], k)
                self._draw(c["bs"][side])
            else:
                self._shown(c["bs"][side], k)
            self.valhalla[k] += 1
        if c["t"] == "ch":
            self._resolve_challenge(
                c["p"], c["ch"], c["tr"], bonus_might=val[1], bonus_difficulty=val[0] + c["dd"]
            )
        else:
            self._battle(c["p"], c["ti"], c["q"], c["di"], bonus_att=val[0], bonus_def=val[1])

    def _won_window(self, p: int) -> None:
        kinds = BY_TRIGGER["challenge_won_by_opponent"]
        self._open_window([[q, kinds] for q in self._order_from(self.active) if q != p], None)

    # ---- battles (M35-M37) ------------------------------------------------------------------
    def _attack(self, p: int, q: int, ti: int) -> None:
        self._pay(p, 1)
        self.troops[p][ti].engaged = True
        self.contest = {
            "t": "bt",
            "p": p,
            "ti": ti,
            "q": q,
            "di": -1,
            "b": [-1, -1],
            "bs": [-1, -1],
            "held": [],
        }
        self._open_window([[q, BY_TRIGGER["attacked"]]], "attacked")

    def _after_attack(self) -> None:
        c = self.contest
        if any(not t.engaged for t in self.troops[c["q"]]):
            self.stack.append(DefendFrame(c["q"], c["p"], c["ti"]))
        else:
            self.contest = None
            self._undefended(c["p"])

    def _defend(self, di: int) -> None:
        c = self.contest
        c["di"] = di
        self.troops[c["q"]][di].engaged = True
        self._start_bonus()

    # ---- step handlers (STEP) ---------------------------------------------------------------
    def _step_react(self, f: ReactFrame, name: str, c) -> None:
        if name == "react":
            self._react(f, FIRST_REACTION + c[0])
        else:
            f.p = -1

    def _step_bonus(self, f: BonusFrame, name: str, c) -> None:
        if name == "bonus":
            self._place_bonus(f, FIRST + c[0])
        else:
            f.p = -1

    def _step_ev_discard(self, f: EvDiscardFrame, name: str, c) -> None:
        k, q = c[0], f.p
        self._from_hand(q, k)
        if f.keep:
            self.pool.append(k)  # face up until the player keeps one (Loki's Trick)
        else:
            self._dispose(k)
        f.p = -1

    def _step_engage(self, f: EngageFrame, name: str, c) -> None:
        self.troops[f.p][c[0]].engaged = True
        f.p = -1

    def _step_move(self, f: MoveFrame, name: str, c) -> None:
        self.world[f.p] = c[0]  # a move by a card effect: no trip, no benefit (M23)
        self.stack.pop()


ADVANCE = {  # queue frames: find the next seat to ask
    REACT: CardPlayMixin._advance_window,
    BONUS: CardPlayMixin._advance_bonus,
    EV_DISCARD: CardPlayMixin._advance_discard,
    ENGAGE: CardPlayMixin._advance_engage,
}
CONTINUE = {  # a closed reaction window's continuation (ReactFrame.then)
    "played": CardPlayMixin._after_played,
    "engaged": CardPlayMixin._after_engage,
    "attacked": CardPlayMixin._after_attack,
}
EVENT_EFFECTS = {kind: getattr(CardPlayMixin, "_ev_" + kind) for kind in cards.EVENT_EFFECTS}
REACTION_EFFECTS = {kind: getattr(CardPlayMixin, "_re_" + kind) for kind in cards.REACTION_EFFECTS}
STEP = {
    REACT: CardPlayMixin._step_react,
    BONUS: CardPlayMixin._step_bonus,
    EV_DISCARD: CardPlayMixin._step_ev_discard,
    ENGAGE: CardPlayMixin._step_engage,
    MOVE: CardPlayMixin._step_move,
}
