"""Midgard Onslaught: travel and the worlds' benefits, facing a challenge, attacking, and the
choices they lead to (M23-M37); functions of the state.

``STEP`` maps each decision mode of the Onslaught to its handler ``(state, frame, name,
coords)``; ``BENEFITS`` maps a world's benefit kind to what arriving there does. The contests
themselves (windows, bonuses, results) are contest.py's; the challenge list challenge_list.py's.
"""

from __future__ import annotations

from .cardplay import take_from_pool
from .cards import DATA
from .challenge_list import calendar_left, refill
from .contest import attack, declare_challenge, defend, draw_keep_one, start_bonus, undefended
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
    ONSLAUGHT,
    RESERVE,
    TAKE,
    TRAVEL,
)
from .turn import end_onslaught


# ---- travel (M23-M26) -----------------------------------------------------------------------
def travel(s, p: int, w: int, chosen) -> None:
    for ti in chosen:
        s.troops[p][ti].engaged = True
    s.world[p] = w
    s.made_trip = True
    b = DATA.worlds[w].benefit
    BENEFITS[b.kind](s, p, b.n)


def benefit_draw_cards(s, p: int, n: int) -> None:
    s._draw(p, n)


def benefit_gain_coins(s, p: int, n: int) -> None:
    s._gain_coins(p, n)


def benefit_take_from_valhalla(s, p: int, n: int) -> None:
    if s.valhalla.sum() > 0:
        s.stack.append(TakeFrame(p, "valhalla"))


def benefit_take_from_krog(s, p: int, n: int) -> None:
    if s.krog:
        s.stack.append(TakeFrame(p, "krog"))


def benefit_reserve_challenge(s, p: int, n: int) -> None:
    if s.open:
        s.stack.append(ReserveFrame(p))


def benefit_draw_rewards(s, p: int, n: int) -> None:
    for _ in range(n):
        s._draw_reward(p)


def reserve(s, p: int, cid: int) -> None:
    if s.reserved[p] >= 0:
        s.ch_out.append(s.reserved[p])  # the first reservation is discarded (M26)
    s.reserved[p] = cid
    s.open.remove(cid)
    refill(s)
    if not calendar_left(s):
        s._end_game("no calendar challenge left (M48)")


# ---- step handlers (STEP) -------------------------------------------------------------------
def step_onslaught(s, f: OnslaughtFrame, name: str, c) -> None:
    p = f.p
    if name == "end_phase":
        end_onslaught(s)
    elif name == "travel":
        s.stack.append(TravelFrame(p, c[0], []))
    elif name == "face":
        s.stack.append(ChallengeFrame(p, c[0], []))
    else:  # attack
        attack(s, p, (p + c[0] + 1) % s.game.num_players, c[1])


def step_travel(s, f: TravelFrame, name: str, c) -> None:
    if name == "cancel":
        s.stack.pop()
        return
    f.chosen.append(c[0])
    if len(f.chosen) == len(DATA.worlds[f.world].troops):
        s.stack.pop()
        travel(s, f.p, f.world, f.chosen)


def step_challenge(s, f: ChallengeFrame, name: str, c) -> None:
    if name == "cancel":
        s.stack.pop()
    elif name == "select_troop":
        f.chosen.append(c[0])
    else:
        s.stack.pop()
        declare_challenge(s, f.p, f.ch, sorted(f.chosen))


def step_discard_req(s, f: DiscardReqFrame, name: str, c) -> None:
    s._from_hand(f.p, c[0])
    s._dispose(c[0])
    f.left -= 1
    if f.left == 0:
        s.stack.pop()
        start_bonus(s)


def step_take(s, f: TakeFrame, name: str, c) -> None:
    k = c[0]
    s.stack.pop()
    if f.src == "pool":
        take_from_pool(s, f.p, k)
        return
    if f.src == "valhalla":
        s.valhalla[k] -= 1
    else:
        del s.krog[s.krog.index(k)]  # the copy deepest in the pile (MD6)
    s._to_hand(f.p, k, known=True)


def step_reserve(s, f: ReserveFrame, name: str, c) -> None:
    s.stack.pop()
    reserve(s, f.p, c[0])


def step_keep(s, f: KeepFrame, name: str, c) -> None:
    s.stack.pop()
    drawn = list(f.drawn)
    drawn.remove(c[0])
    s.rewards[f.p, c[0]] += 1
    for k in drawn:  # the other goes back on top of the reward pile (M25, M37)
        s.reward_deck.append(k)
        s.reward_top_known = f.p


def step_defend(s, f: DefendFrame, name: str, c) -> None:
    s.stack.pop()
    if name == "refuse":
        s.contest = None
        undefended(s, f.att)
    else:
        defend(s, c[0])


BENEFITS = {
    "draw_cards": benefit_draw_cards,
    "gain_coins": benefit_gain_coins,
    "take_from_valhalla": benefit_take_from_valhalla,
    "take_from_krog": benefit_take_from_krog,
    "reserve_challenge": benefit_reserve_challenge,
    "draw_rewards": benefit_draw_rewards,
    "draw_rewards_keep_one": draw_keep_one,
}

STEP = {
    ONSLAUGHT: step_onslaught,
    TRAVEL: step_travel,
    CHALLENGE: step_challenge,
    DISCARD_REQ: step_discard_req,
    TAKE: step_take,
    RESERVE: step_reserve,
    KEEP: step_keep,
    DEFEND: step_defend,
}
