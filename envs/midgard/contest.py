"""Midgard contests: a challenge attempt (M28-M32, M47) and a battle (M35-M37) from their
declaration through the engagement or attack window, the discards, the bonus cards (M30, M37,
MD16, MD22) and the reveal, to the result.

A contest in progress is ``state.contest``: ``{"t": "ch" | "bt", "p": seat, "b": [bonus kind
per side], "bs": [its seat per side], "held": [face-down challenge bonuses], ...}`` with the
challenge's ``ch``, ``tr`` (troops), ``ign`` (ignored requirements) and ``dd`` (difficulty
change), or the battle's ``ti``, ``q``, ``di`` (attacking troop, defender, defending troop).
"""

from __future__ import annotations

from . import challenges as C
from .cards import BONUS_KINDS, BY_TRIGGER, DATA, FIRST_ACTION_CARD
from .challenge_list import calendar_left, refill
from .frames import BonusFrame, DefendFrame, DiscardReqFrame, KeepFrame
from .modes import BONUS
from .windows import asks, open_window, order_from, won_window

MIGHT = DATA.might


# ---- challenges: engagement window, discards, bonuses (M29, M30) --------------------------
def declare_challenge(s, p: int, cid: int, chosen) -> None:
    for ti in chosen:
        s.troops[p][ti].engaged = True
    s._pay(p, C.troop_cost(len(chosen)))  # the icons are paid once the window is over
    s.contest = {
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
    window = [[p, BY_TRIGGER["troop_engaged_for_challenge"]]]
    window += [[q, BY_TRIGGER["challenge_faced_by_opponent"]] for q in order_from(s, p)[1:]]
    if not open_window(s, window, "engaged") and not s.over:
        after_engage(s)


def after_engage(s) -> None:
    """The engagement window closed: the requirements are checked (an "ignore" reaction counts),
    the icons paid, the discards asked, then the bonuses."""
    c = s.contest
    p, ch = c["p"], DATA.challenges[c["ch"]]
    troops = [s.troops[p][ti] for ti in c["tr"]]
    # the requirement test takes the coins held before the extra troops were paid (at
    # ``finish``), as ``face`` did: it subtracts their cost itself (M-E3)
    coins = int(s.coins[p]) + C.troop_cost(len(troops))
    cards = int(s.hands[p].sum())
    if C.unmet_requirements(ch, troops, coins, cards) > c["ign"]:
        s.contest = None  # no (or a cancelled) "ignore" reaction: the attempt fails (M29)
        return
    skip_coins, skip_discard = C.ignored_costs(ch, troops, coins, cards, c["ign"])
    if not skip_coins:
        s._pay(p, ch.coins)
    left = 0 if skip_discard else ch.discard
    if left:
        s.stack.append(DiscardReqFrame(p, c["ch"], list(c["tr"]), left))
    else:
        start_bonus(s)


def start_bonus(s) -> None:
    c = s.contest
    if c["t"] == "ch":
        queue = [[q, 0] for q in order_from(s, c["p"])[1:]] + [[c["p"], 1]]
    else:
        queue = [[c["p"], 0], [c["q"], 1]]
    s.stack.append(BonusFrame(-1, queue, -1))


def advance_bonus(s, f: BonusFrame) -> None:
    """The bonus queue's next seat to ask (``settle``), or the reveal once it is empty."""
    c = s.contest
    while f.queue:
        q, side = f.queue.pop(0)
        if side == 0 and c["b"][0] >= 0:
            continue  # one bonus per side (M30)
        if asks(s, q, BONUS_KINDS):
            f.p, f.side = q, side
            return
    s.stack.pop()
    reveal(s)


def place_bonus(s, f: BonusFrame, k: int) -> None:
    c = s.contest
    q, side = f.p, f.side
    c["b"][side], c["bs"][side] = k, q
    if c["t"] == "ch":  # face down on the table; the replacement comes at once (M30)
        s.hands[q, k] -= 1  # unseen: the known cards change only at the reveal (MD22)
        c["held"].append(k)
        s._draw(q)
    f.p = -1


def reveal(s) -> None:
    """Both bonuses are revealed together and go to Valhalla; then the contest is decided."""
    c = s.contest
    s.contest = None
    val = [DATA.bonus[k] if k >= 0 else 0 for k in c["b"]]
    for side, k in enumerate(c["b"]):
        if k < 0:
            continue
        if c["t"] == "bt":  # battle bonuses left the hand only now (simultaneous, MD16)
            s._from_hand(c["bs"][side], k)
            s._draw(c["bs"][side])
        else:
            s._shown(c["bs"][side], k)
        s.valhalla[k] += 1
    if c["t"] == "ch":
        resolve_challenge(
            s, c["p"], c["ch"], c["tr"], bonus_might=val[1], bonus_difficulty=val[0] + c["dd"]
        )
    else:
        battle(s, c["p"], c["ti"], c["q"], c["di"], bonus_att=val[0], bonus_def=val[1])


def resolve_challenge(
    s, p: int, cid: int, chosen, bonus_might: int = 0, bonus_difficulty: int = 0
) -> None:
    ch = DATA.challenges[cid]
    troops = [s.troops[p][ti] for ti in chosen]
    if C.might(ch, troops, MIGHT, bonus_might) < s.challenge_difficulty(cid, bonus_difficulty):
        return  # troops stay engaged, the challenge stays (M32)
    if s.reserved[p] == cid:
        s.reserved[p] = -1
    else:
        s.open.remove(cid)
    s.won[p].append(cid)
    s.won_challenge = True
    for ti in sorted(chosen, reverse=True):
        for k in s.troops[p][ti].cards():
            s.valhalla[k] += 1  # winning troops go to Valhalla whatever their type (M41)
        del s.troops[p][ti]
    refill(s)
    if ch.calendar:
        s.calendar = (s.calendar + 1) % C.CALENDAR_STEPS
        if s.calendar == 0:
            s._end_game("calendar (M47)")
            return
    if not calendar_left(s):
        s._end_game("no calendar challenge left (M48)")
        return
    won_window(s, p)


# ---- battles (M35-M37) ----------------------------------------------------------------------
def attack(s, p: int, q: int, ti: int) -> None:
    s._pay(p, 1)
    s.troops[p][ti].engaged = True
    s.contest = {
        "t": "bt",
        "p": p,
        "ti": ti,
        "q": q,
        "di": -1,
        "b": [-1, -1],
        "bs": [-1, -1],
        "held": [],
    }
    if not open_window(s, [[q, BY_TRIGGER["attacked"]]], "attacked") and not s.over:
        after_attack(s)


def after_attack(s) -> None:
    """The attack window closed: the defender chooses a troop, or the attack is undefended."""
    c = s.contest
    if any(not t.engaged for t in s.troops[c["q"]]):
        s.stack.append(DefendFrame(c["q"], c["p"], c["ti"]))
    else:
        s.contest = None
        undefended(s, c["p"])


def defend(s, di: int) -> None:
    c = s.contest
    c["di"] = di
    s.troops[c["q"]][di].engaged = True
    start_bonus(s)


def battle(s, p: int, ti: int, q: int, di: int, bonus_att: int = 0, bonus_def: int = 0) -> None:
    s.troops[q][di].engaged = True
    att = s.troops[p][ti].might(MIGHT) + bonus_att
    dfn = s.troops[q][di].might(MIGHT) + bonus_def
    s._draw_reward(p if att >= dfn else q)  # ties go to the attacker


def undefended(s, p: int) -> None:
    draw_keep_one(s, p, 2)


def draw_keep_one(s, p: int, k: int) -> None:
    """Draw ``k`` rewards and keep one (an undefended attack, a world's benefit)."""
    drawn = [s.reward_deck.pop() for _ in range(min(k, len(s.reward_deck)))]
    if drawn:
        s.reward_top_known = -1
    if len(drawn) == 1:
        s.rewards[p, drawn[0]] += 1
    elif drawn:
        s.stack.append(KeepFrame(p, drawn))


# ---- step handlers (STEP) -------------------------------------------------------------------
def step_bonus(s, f: BonusFrame, name: str, c) -> None:
    if name == "bonus":
        place_bonus(s, f, FIRST_ACTION_CARD + c[0])
    else:
        f.p = -1


STEP = {BONUS: step_bonus}
