"""Midgard part 2: playing events and reactions, their effects, and the queue frames.

Everything here is driven by the decision stack (modes.py, frames.py). Four kinds of frame are
*queues*: their seat ``p`` is -1 until ``settle`` finds the next seat to ask (``ADVANCE``, by
mode), and when the queue runs dry the frame is popped and its continuation runs (a window's
``then``, by name in ``CONTINUE``). Who is asked (ruling MD15, windows.py ``asks``): every seat
the rules let answer that has a card in hand, with a forced ``pass`` when none of its cards fits,
because whether a seat is asked is public and must not depend on its hidden cards; the option
``reaction_windows="holders_leaky"`` asks only the holders of an eligible card (fewer decisions,
and a leak of hidden cards):

* ``reaction_window`` (M42, windows.py): ``queue`` = ``[seat, [reaction kinds it may play]]`` in
  the ruled order (the active seat first, then clockwise); ``card`` = the window answers the
  card on top of ``state.played`` (it closes at once when that card is cancelled).
* ``bonus`` (M30, M37, contest.py): ``queue`` = ``[seat, side]``; side 0 is the challenge (or
  the attacker), side 1 the facing troops (or the defender). The first opponent who places a
  side-0 bonus on a challenge ends the side-0 asking.
* ``event_discard`` / ``event_engage``: each affected seat in turn discards a card / engages one
  regrouped troop for an attack event.

Cards played for an effect stay in ``state.played`` (``{"k": kind, "s": seat, "x": cancelled,
"imm": [immune seats], "r": depth}``) until they reach Valhalla: first while their
``card_played`` window is open (Odin's Reprimand; ``r`` is -1), then, unless cancelled, while
their effects resolve (effect kinds: cards.EVENT_EFFECTS / REACTION_EFFECTS; what each does:
``EVENT_EFFECTS`` / ``REACTION_EFFECTS`` here, one function per kind). ``r`` is then the
stack depth below the frames the effects push; once those are all answered the card goes to
Valhalla (MD20: the rulebook drops a card there "after applying its effect", so a draw of its
own effect can never reshuffle it back into a hand). A challenge attempt or battle in progress
is ``state.contest`` (contest.py).
"""

from __future__ import annotations

from . import cards
from . import challenges as C
from .cards import BY_TRIGGER, CARDS, FIRST_REACTION
from .challenge_list import calendar_left, open_one
from .contest import advance_bonus, after_attack, after_engage
from .frames import (
    EngageFrame,
    EvDiscardFrame,
    MoveFrame,
    ReactFrame,
    TakeFrame,
)
from .modes import BONUS, ENGAGE, EV_DISCARD, MOVE, REACT
from .windows import all_to_midgard, asks, open_window, order_from, retire_played


# ---- settling queue frames ------------------------------------------------------------------
def settle(s) -> None:
    """Advance queue frames until the top frame has a seat to decide (or the game is over)."""
    while not s.over:
        retire_played(s)
        if not s.stack:
            return
        f = s.stack[-1]
        if f.p >= 0:
            return
        ADVANCE[f.m](s, f)


def advance_window(s, f: ReactFrame) -> None:
    if f.card and s.played[-1]["x"]:
        f.queue = []  # the card was cancelled: nothing left to answer
    while f.queue:
        q, kinds = f.queue.pop(0)
        if asks(s, q, kinds):
            f.p, f.kinds = q, kinds
            return
    s.stack.pop()
    if f.then is not None and not s.over:
        CONTINUE[f.then](s)


# ---- playing a card -------------------------------------------------------------------------
def react(s, f: ReactFrame, r: int) -> None:
    q = f.p
    s._from_hand(q, r)
    s._draw(q)  # the reactor draws a replacement at once (M42)
    f.p = -1
    play_card(s, r, q)


def play_card(s, k: int, seat: int) -> None:
    """An event or reaction is played for its effect: it waits while others may cancel it."""
    s.played.append({"k": k, "s": seat, "x": False, "imm": [], "r": -1})
    card = CARDS[k]
    trig = BY_TRIGGER["card_played"]
    if card.is_event and card.type == "attack":
        trig = trig + BY_TRIGGER["attack_event"]
    window = [[q, trig] for q in order_from(s, s.active) if q != seat]
    if not open_window(s, window, "played", card=True) and not s.over:
        after_played(s)


def after_played(s) -> None:
    """The played card's window closed: its effects resolve unless it was cancelled."""
    c = s.played[-1]
    c["r"] = len(s.stack)  # resolving: the frames its effects push go above this depth
    if not c["x"]:
        if CARDS[c["k"]].is_event:
            event_effects(s, c)
        else:
            reaction_effects(s, c)
    retire_played(s)


# ---- reactions: one function per effect kind (REACTION_EFFECTS) -----------------------------
def reaction_effects(s, c: dict) -> None:
    q = c["s"]
    target = s.played[-2] if len(s.played) > 1 else None  # the card this one answers
    for e in CARDS[c["k"]].effects:
        REACTION_EFFECTS[e.kind](s, e, q, target)


def re_cancel_card(s, e, q: int, target: dict) -> None:
    target["x"] = True


def re_immune(s, e, q: int, target: dict) -> None:
    target["imm"].append(q)


def re_ignore_requirement(s, e, q: int, target) -> None:
    s.contest["ign"] += e.n


def re_difficulty_change(s, e, q: int, target) -> None:
    s.contest["dd"] += e.n


def re_regroup_own(s, e, q: int, target) -> None:
    for t in s.troops[q]:
        t.engaged = False


def re_gain_coins(s, e, q: int, target) -> None:
    s._gain_coins(q, e.n)


def re_move_self(s, e, q: int, target) -> None:
    s.stack.append(MoveFrame(q))


# ---- events: one function per effect kind (EVENT_EFFECTS) ----------------------------------
def event_effects(s, c: dict) -> None:
    """The event's effects in order, on the player ``p`` or, for an attack event, on every
    seat not made immune; an effect that ends the game ends the event."""
    p, card = c["s"], CARDS[c["k"]]
    if card.type == "attack":
        affected = [q for q in order_from(s, p) if q not in c["imm"]]
    else:
        affected = [p]
    for e in card.effects:
        EVENT_EFFECTS[e.kind](s, e, p, affected)
        if s.over:
            return


def ev_draw_cards(s, e, p: int, affected) -> None:
    s._draw(p, e.n)


def ev_gain_coins(s, e, p: int, affected) -> None:
    for q in affected:
        s._gain_coins(q, e.n)


def ev_regroup_own(s, e, p: int, affected) -> None:
    for t in s.troops[p]:
        t.engaged = False


def ev_take_from_valhalla(s, e, p: int, affected) -> None:
    if s.valhalla.sum() > 0:  # the event itself is not there yet (MD20)
        s.stack.append(TakeFrame(p, "valhalla"))


def ev_take_from_krog(s, e, p: int, affected) -> None:
    if s.krog:
        s.stack.append(TakeFrame(p, "krog"))


def ev_draw_rewards(s, e, p: int, affected) -> None:
    for _ in range(e.n):
        s._draw_reward(p)


def ev_extra_event(s, e, p: int, affected) -> None:
    s.events_left += 1


def ev_turn_calendar(s, e, p: int, affected) -> None:
    for _ in range(e.n):
        s.calendar = (s.calendar + 1) % C.CALENDAR_STEPS
        if s.calendar == 0:  # any turn of the dial onto the sword ends the game (M47)
            s._end_game("calendar (M47)")
            return


def ev_all_lose_coins(s, e, p: int, affected) -> None:
    for q in affected:
        s._pay(q, min(e.n, int(s.coins[q])))


def ev_move_self(s, e, p: int, affected) -> None:
    s.stack.append(MoveFrame(p))


def ev_all_to_midgard(s, e, p: int, affected) -> None:
    all_to_midgard(s, affected)


def ev_open_challenges(s, e, p: int, affected) -> None:
    more = e.n
    while more > 0 and s.ch_deck:
        more += open_one(s) - 1


def ev_renew_challenges(s, e, p: int, affected) -> None:
    s.ch_out.extend(s.open)
    s.open = []
    while len(s.open) < 6 and s.ch_deck:
        open_one(s)  # "open another" is ignored during the renewal (M33)
    if not calendar_left(s):
        s._end_game("no calendar challenge left (M48)")


def ev_all_discard(s, e, p: int, affected) -> None:
    queue = [q for q in affected for _ in range(e.n)]
    s.stack.append(EvDiscardFrame(-1, queue, False, p))


def ev_all_discard_keep_one(s, e, p: int, affected) -> None:
    s.stack.append(EvDiscardFrame(-1, list(affected), True, p))


def ev_opponents_engage_one(s, e, p: int, affected) -> None:
    s.stack.append(EngageFrame(-1, [q for q in affected if q != p]))


# ---- the queues of attack events ------------------------------------------------------------
def advance_discard(s, f: EvDiscardFrame) -> None:
    while f.queue:
        q = f.queue.pop(0)
        if s.hands[q].sum() > 0:
            f.p = q
            return
    s.stack.pop()
    if f.keep and s.pool:
        s.stack.append(TakeFrame(f.by, "pool"))


def advance_engage(s, f: EngageFrame) -> None:
    while f.queue:
        q = f.queue.pop(0)
        if any(not t.engaged for t in s.troops[q]):
            f.p = q
            return
    s.stack.pop()


def take_from_pool(s, p: int, k: int) -> None:
    """Loki's Trick: the player keeps card ``k`` of the discarded pool, the rest is disposed."""
    s.pool.remove(k)
    s._to_hand(p, k, known=True)
    for x in s.pool:
        s._dispose(x)
    s.pool = []


# ---- step handlers (STEP) -------------------------------------------------------------------
def step_react(s, f: ReactFrame, name: str, c) -> None:
    if name == "react":
        react(s, f, FIRST_REACTION + c[0])
    else:
        f.p = -1


def step_ev_discard(s, f: EvDiscardFrame, name: str, c) -> None:
    k, q = c[0], f.p
    s._from_hand(q, k)
    if f.keep:
        s.pool.append(k)  # face up until the player keeps one (Loki's Trick)
    else:
        s._dispose(k)
    f.p = -1


def step_engage(s, f: EngageFrame, name: str, c) -> None:
    s.troops[f.p][c[0]].engaged = True
    f.p = -1


def step_move(s, f: MoveFrame, name: str, c) -> None:
    s.world[f.p] = c[0]  # a move by a card effect: no trip, no benefit (M23)
    s.stack.pop()


ADVANCE = {  # queue frames: find the next seat to ask
    REACT: advance_window,
    BONUS: advance_bonus,
    EV_DISCARD: advance_discard,
    ENGAGE: advance_engage,
}
CONTINUE = {  # a closed reaction window's continuation (ReactFrame.then)
    "played": after_played,
    "engaged": after_engage,
    "attacked": after_attack,
}
EVENT_EFFECTS = {
    "draw_cards": ev_draw_cards,
    "gain_coins": ev_gain_coins,
    "regroup_own": ev_regroup_own,
    "take_from_valhalla": ev_take_from_valhalla,
    "take_from_krog": ev_take_from_krog,
    "draw_rewards": ev_draw_rewards,
    "extra_event": ev_extra_event,
    "turn_calendar": ev_turn_calendar,
    "all_lose_coins": ev_all_lose_coins,
    "move_self": ev_move_self,
    "all_to_midgard": ev_all_to_midgard,
    "open_challenges": ev_open_challenges,
    "renew_challenges": ev_renew_challenges,
    "all_discard": ev_all_discard,
    "all_discard_keep_one": ev_all_discard_keep_one,
    "opponents_engage_one": ev_opponents_engage_one,
}
REACTION_EFFECTS = {
    "cancel_card": re_cancel_card,
    "immune": re_immune,
    "ignore_requirement": re_ignore_requirement,
    "difficulty_change": re_difficulty_change,
    "regroup_own": re_regroup_own,
    "gain_coins": re_gain_coins,
    "move_self": re_move_self,
}
assert set(EVENT_EFFECTS) == set(cards.EVENT_EFFECTS), "every event effect has its function"
assert set(REACTION_EFFECTS) == set(cards.REACTION_EFFECTS), "every reaction effect has one"
STEP = {
    REACT: step_react,
    EV_DISCARD: step_ev_discard,
    ENGAGE: step_engage,
    MOVE: step_move,
}
