"""Midgard heuristic: build big troops, win the challenges it can afford, travel for the hand reset.

Everything is decided from the seat's own information (``view`` and a determinized state, whose
own cards, troops and public piles are exact; only hidden cards are resampled and never read).

Preparation. (1) Complete own troops with every natural card that fits (more cards, more might,
never harmful). (2) Lay down the best troop the hand allows (``plan_troop``): the largest series
or run of consecutive classes, Snedigs on the flanks, a Tyr for one gap or to reach 3 cards, by
might and size; its steps are queued and replayed. No Claiming for Gods.

Onslaught, in order: (1) face the open (or reserved) challenge here with the most renown that a
feasible, affordable set of regrouped troops beats *without bonuses* (might >= current
difficulty), using the fewest troops; (2) travel to a world where such a challenge
waits for the troops that remain after the trip; (3) attack a Järl here whose every regrouped troop
is weaker than ours, if a coin is to spare; (4) make one trip anyway for the hand reset and the
benefit (coins first when short of them); (5) end the phase. Defends with its strongest troop
(defending is free: troops regroup on our own turn); Krog: hires troop cards when coins allow
(revealing coin rewards for them); discards the card it values least (events and reactions by
their bonus, class cards by how well they fit); keeps the best reward.

Part 2. Preparation ends with a gain-only personal event if one is in hand (Odin's Ravens, Ivaldi's
Forge, Freyr's Harvest, ...). Bonuses: the smallest card that turns the contest its way (on its own
challenge an unknown opponent bonus counts as +7; on an opponent's challenge only to stop a win;
in battles assuming no bonus on the other side), else none. Reactions: plays what the window offers,
Odin's Reprimand only against another seat's attack event, Skuld's Thread only against a challenge
that would be won.
"""

from __future__ import annotations

import numpy as np

from deckzoo.envs.core.game import InfoState
from deckzoo.envs.midgard import actions as A
from deckzoo.envs.midgard import challenges as C
from deckzoo.envs.midgard.cards import DATA, NUM_CLASSES, SNEDIG, THOR, TYR
from deckzoo.envs.midgard.rules import (
    BUILD,
    CHALLENGE,
    CLAIM,
    DEFEND,
    DISCARD_REQ,
    KEEP,
    KROG,
    ONSLAUGHT,
    PREP,
    RELOCATE,
    RESERVE,
    SPOILS,
    TAKE,
    TRAVEL,
)

from ..base import Agent

MIGHT = DATA.might
PENDING = A.PENDING


def plan_troop(hand) -> list[int] | None:
    """Action ids that lay down the best troop from ``hand`` (counts per kind), or None."""
    best, best_score = None, -1.0
    tyr, thor = int(hand[TYR]), int(hand[THOR])

    def consider(acts, cards, might):
        nonlocal best, best_score
        score = might + 0.6 * cards
        if cards >= 3 and score > best_score:
            best, best_score = acts, score

    for c in range(NUM_CLASSES):
        n = int(hand[c])
        if n >= 3:
            consider([A.encode("place_class", PENDING, c)] * n, n, n * MIGHT[c])
        elif n == 2 and tyr:
            consider(
                [A.encode("place_class", PENDING, c)] * 2 + [A.encode("place_tyr", PENDING, c + 1)],
                3,
                2 * MIGHT[c] + MIGHT[TYR],
            )
    sned = min(int(hand[SNEDIG]), 2)
    for lo in range(NUM_CLASSES):
        for hi in range(lo + 1, NUM_CLASSES):
            run = _run_troop(hand, lo, hi, tyr, thor, sned)
            if run is not None:
                consider(*run)
    return None if best is None else best + [A.FINISH]


def _run_troop(hand, lo: int, hi: int, tyr: int, thor: int, sned: int):
    """``plan_troop``'s run of the classes lo..hi: one gap inside it filled by Tyr, up to two
    Snedig, and a wildcard beyond the run when it has fewer than 3 cards. Returns (actions,
    cards, might), or None when the hand cannot lay it or wildcards would be more than half."""
    missing = [c for c in range(lo, hi + 1) if hand[c] < 1]
    if len(missing) > 1 or (missing and (not tyr or missing[0] in (lo, hi))):
        return None
    acts, might = [], 0
    for c in range(lo, hi + 1):
        if c in missing:
            acts.append(A.encode("place_tyr", PENDING, c + 1))
            might += MIGHT[TYR]
        else:
            acts.append(A.encode("place_class", PENDING, c))
            might += MIGHT[c]
    cards = hi - lo + 1
    nat = cards - len(missing)
    for side in range(sned):
        acts.append(A.encode("place_snedig", PENDING, side))
        cards += 1
        nat += 1
        might += MIGHT[SNEDIG]
    wild = len(missing)
    if cards < 3 and wild == 0:  # reach 3 cards with a wildcard beyond the run
        if tyr and hi + 1 <= 9:
            acts.append(A.encode("place_tyr", PENDING, hi + 2))
            cards, might, wild = cards + 1, might + MIGHT[TYR], 1
        elif tyr and lo - 1 >= 0:
            acts.append(A.encode("place_tyr", PENDING, lo))
            cards, might, wild = cards + 1, might + MIGHT[TYR], 1
        elif thor and hi + 2 <= 9:
            acts.append(A.encode("place_thor", PENDING, hi + 1))
            cards, might, wild = cards + 1, might + MIGHT[THOR], 1
    if wild <= cards // 2:
        return acts, cards, might
    return None


class HeuristicAgent(Agent):
    name = "heuristic"

    def __init__(self, seed: int | None = None):
        super().__init__(seed)
        self._plan: list[int] = []  # the deciding seat's queued steps (see act)
        # seat -> (turn, plan): one agent may play several seats (a search's rollout policy does),
        # and a plan is replayed only by the seat that made it, in the same turn
        self._plans: dict[int, tuple[int, list[int]]] = {}

    def act(self, info_state: InfoState) -> int:
        mask = info_state.legal_mask()
        legal = np.flatnonzero(mask)
        if len(legal) == 1:
            return int(legal[0])
        view = info_state.view()
        mode = view["stack"][-1]["mode"]
        p, turn = info_state.player, view["turn"]
        made, self._plan = self._plans.get(p, (turn, []))
        if made != turn:
            self._plan = []
        a = self._decide(info_state, view, mode, mask)
        self._plans[p] = (turn, self._plan)
        return a

    def _decide(self, info_state: InfoState, view: dict, mode: str, mask: np.ndarray) -> int:
        # a queued plan step that is still legal is replayed
        while self._plan:
            a = self._plan.pop(0)
            if mask[a]:
                return a
            self._plan = []
        s = info_state.determinize(self.rng)
        p = info_state.player
        handler = {
            "krog": self._krog,
            "preparation": self._prep,
            "build": self._build,
            "onslaught": self._onslaught,
            "defend": self._defend,
            "spoils": self._discard,
            "discard_requirement": self._discard,
            "take_card": self._take,
            "reserve": self._reserve,
            "keep_reward": self._keep,
            "bonus": self._bonus,
            "reaction_window": self._react,
            "event_discard": self._discard,
        }.get(mode)
        a = handler(s, p, mask) if handler is not None else None
        if mode == "preparation" and a == A.END_PHASE:
            a = self._event(s, p, mask)
        if a is None or not mask[a]:
            a = self._fallback(mode, mask)
        return int(a)

    # ---- decisions ----------------------------------------------------------------------
    def _fallback(self, mode, mask) -> int:
        for a in (A.FINISH, A.END_PHASE, A.CANCEL, A.PASS, A.REFUSE):
            if mask[a]:
                return a
        return int(np.flatnonzero(mask)[0])

    def _krog(self, s, p, mask):
        """Hire a troop card that fits the hand while 3 coins are at hand, revealing coin rewards
        (the smallest first) to get there when they can (M-E3); else pass."""
        top = s.krog[-1]
        useful = top <= THOR and (
            top >= TYR or s.hands[p, top] >= 1 or s.hands[p, max(top - 1, 0)] >= 1
        )
        if not useful:
            return A.PASS
        if s.coins[p] >= 3:
            return A.HIRE
        coin_kinds = [k for k, (kind, _) in enumerate(DATA.rewards) if kind == "coins"]
        reward_coins = sum(DATA.rewards[k][1] * int(s.rewards[p, k]) for k in coin_kinds)
        if s.coins[p] + min(reward_coins, s.skat) >= 3:
            for k in coin_kinds:
                if mask[A.BASE["reveal_reward"] + k]:
                    return A.BASE["reveal_reward"] + k
        return A.PASS

    def _prep(self, s, p, mask):
        for base in ("place_class", "place_snedig"):
            lo = A.BASE[base]
            hi = lo + (A.MAX_TROOPS + 1) * A.SHAPE[base][1]
            ids = [a for a in range(lo, hi) if mask[a]]
            if ids:
                return ids[0]
        if mask[A.NEW_TROOP]:
            plan = plan_troop(s.hands[p])
            if plan:
                self._plan = plan
                return A.NEW_TROOP
        return A.END_PHASE

    def _build(self, s, p, mask):
        return A.FINISH if mask[A.FINISH] else A.CANCEL

    def _best_challenge(self, s, p, troop_ids, where):
        """The best sure win in world ``where`` with these troops: (score, challenge id, troops)."""
        troops = s.troops[p]
        best = None
        cands = list(s.open) + ([s.reserved[p]] if s.reserved[p] >= 0 else [])
        for cid in cands:
            ch = DATA.challenges[cid]
            if not (ch.any_world or where in ch.worlds):
                continue
            diff = s.challenge_difficulty(cid)
            coins, cards, ignore = int(s.coins[p]), int(s.hands[p].sum()), s.ignore_allowance(p)
            for combo in C.feasible_sets(ch, troops, troop_ids, coins, cards, ignore):
                if C.might(ch, [troops[i] for i in combo], MIGHT) >= diff:
                    score = ch.renown + (1.0 if ch.calendar else 0.0) - 0.5 * len(combo)
                    if best is None or score > best[0]:
                        best = (score, cid, combo)
                    break  # combos come smallest first
        return best

    def _onslaught(self, s, p, mask):
        troops = s.troops[p]
        free = [i for i, t in enumerate(troops) if not t.engaged]
        here = int(s.world[p])
        best = self._best_challenge(s, p, free, here)
        if best is not None and mask[A.BASE["face"] + best[1]]:
            self._plan = [A.BASE["select_troop"] + i for i in best[2]] + [A.FINISH]
            return A.BASE["face"] + best[1]
        trips = []
        for w, world in enumerate(DATA.worlds):
            a = A.BASE["travel"] + w
            if not mask[a]:
                continue
            used = _assign(troops, free, world.troops)
            rest = [i for i in free if i not in used]
            after = self._best_challenge(s, p, rest, w)
            trips.append(
                (after[0] if after else -1.0, -sum(troops[i].ncards() for i in used), w, used)
            )
        trips.sort(reverse=True)
        if trips and trips[0][0] > 0:
            _, _, w, used = trips[0]
            self._plan = [A.BASE["select_troop"] + i for i in used]
            return A.BASE["travel"] + w
        if s.coins[p] >= 2:
            for r in range(1, s.game.num_players):
                q = (p + r) % s.game.num_players
                if s.world[q] != here or not s.troops[q]:
                    continue
                theirs = max((t.might(MIGHT) for t in s.troops[q] if not t.engaged), default=-1)
                ours = max(free, key=lambda i: troops[i].might(MIGHT), default=None)
                if ours is not None and troops[ours].might(MIGHT) > theirs:
                    a = A.encode("attack", r - 1, ours)
                    if mask[a]:
                        return a
        if trips and not s.made_trip:
            poor = s.coins[p] < 3
            _, _, w, used = max(trips, key=lambda t: (_benefit(t[2], poor), t[1]))
            self._plan = [A.BASE["select_troop"] + i for i in used]
            return A.BASE["travel"] + w
        for k in (3, 4, 5):  # coin rewards (kinds 3-5) when short of coins
            a = A.BASE["reveal_reward"] + k
            if mask[a] and s.coins[p] < 2:
                return a
        return A.END_PHASE

    def _defend(self, s, p, mask):
        ids = [i for i in range(A.MAX_TROOPS) if mask[A.BASE["defend"] + i]]
        if not ids:
            return A.REFUSE
        return A.BASE["defend"] + max(ids, key=lambda i: s.troops[p][i].might(MIGHT))

    def _discard(self, s, p, mask):
        hand = s.hands[p]
        kinds = [k for k in range(DATA.num_kinds) if hand[k] > 0]

        def keep_value(k):
            if k > THOR:
                return 0.5 + DATA.bonus[k] / 7.0  # kept as bonuses and reactions, but cheap
            if k >= SNEDIG:
                return 5.0
            neighbours = (hand[k - 1] if k > 0 else 0) + (hand[k + 1] if k < 9 else 0)
            return (
                MIGHT[k] + 1.5 * neighbours + 1.0 * (hand[k] - 1) + (0.5 if hand[k] >= 2 else 0.0)
            )

        return A.BASE["discard"] + min(kinds, key=keep_value)

    def _event(self, s, p, mask):
        """Play a personal event that only gains (cards, coins, a reward); else end the phase."""
        for name in GOOD_EVENTS:
            a = A.BASE["play_event"] + DATA.kind_names.index(name) - A.FIRST_ACTION_CARD
            if mask[a]:
                return a
        return A.END_PHASE

    def _bonus(self, s, p, mask):
        """Place the smallest bonus that turns the contest our way (a challenge bonus of an
        unknown card counts as +7); otherwise keep the cards."""
        c = s.contest
        f = s.stack[-1]
        side = f.side
        cards = sorted(
            (DATA.bonus[k], k) for k in range(A.FIRST_ACTION_CARD, DATA.num_kinds) if s.hands[p, k]
        )
        if c["t"] == "ch":
            q = c["p"]
            ch = DATA.challenges[c["ch"]]
            might = C.might(ch, [s.troops[q][i] for i in c["tr"]], MIGHT)
            diff = s.challenge_difficulty(c["ch"]) + c["dd"] + (7 if c["b"][0] >= 0 else 0)
            if side == 1:  # our troops: catch up with the difficulty
                need = diff - might
                good = [k for b, k in cards if b >= need] if need > 0 else []
            else:  # the opponent's challenge: stop a win
                need = might - diff + 1
                good = [k for b, k in cards if b >= need] if might >= diff else []
        else:
            att = s.troops[c["p"]][c["ti"]].might(MIGHT)
            dfn = s.troops[c["q"]][c["di"]].might(MIGHT)
            need = dfn - att if side == 0 else att - dfn + 1
            good = [k for b, k in cards if b >= need] if need > 0 else []
        if good:
            return A.BASE["bonus"] + good[0] - A.FIRST_ACTION_CARD
        return A.PASS

    def _react(self, s, p, mask):
        """Play every reaction the window offers, but Odin's Reprimand only against another seat's
        attack event and Skuld's Thread only against a challenge that would be won."""
        for r in s.stack[-1].kinds:
            a = A.BASE["react"] + r - A.FIRST_REACTION
            if not mask[a]:
                continue
            name = DATA.kind_names[r]
            if name == "Odin's Reprimand":
                top = s.played[-1] if s.played else None
                card = DATA.action_cards[top["k"] - A.FIRST_ACTION_CARD] if top else None
                if card is None or not (card.is_event and card.type == "attack") or top["s"] == p:
                    continue
            if name == "Skuld's Thread":
                c = s.contest
                ch = DATA.challenges[c["ch"]]
                if C.might(
                    ch, [s.troops[c["p"]][i] for i in c["tr"]], MIGHT
                ) < s.challenge_difficulty(c["ch"]):
                    continue
            return a
        return A.PASS

    def _take(self, s, p, mask):
        ids = [k for k in range(DATA.num_kinds) if mask[A.BASE["take_card"] + k]]
        return A.BASE["take_card"] + max(
            ids, key=lambda k: (k <= THOR, MIGHT[k] if k <= THOR else 0)
        )

    def _reserve(self, s, p, mask):
        ids = [c for c in range(len(DATA.challenges)) if mask[A.BASE["reserve"] + c]]
        return A.BASE["reserve"] + max(ids, key=lambda c: DATA.challenges[c].renown)

    def _keep(self, s, p, mask):
        ids = [k for k in range(len(DATA.rewards)) if mask[A.BASE["keep_reward"] + k]]
        return A.BASE["keep_reward"] + max(
            ids, key=lambda k: (DATA.rewards[k][1], DATA.rewards[k][0] == "renown")
        )


GOOD_EVENTS = (
    "Odin's Ravens",
    "Ivaldi's Forge",
    "Freyr's Harvest",
    "Valkyrie's Choice",
    "Bragi's Song",
    "Feast in the Krog",
    "Mimir's Well",
)


def _assign(troops, free, need) -> list[int]:
    """The smallest free troops meeting the world's sizes (largest requirement first)."""
    left = sorted(free, key=lambda i: troops[i].ncards())
    used = []
    for size in sorted(need, reverse=True):
        pick = next((i for i in left if troops[i].ncards() >= size and i not in used), None)
        if pick is None:
            return []
        used.append(pick)
    return used


def _benefit(w: int, poor: bool) -> float:
    """How much a trip's benefit is worth; coins matter most when we are short of them (every
    extra troop on a challenge costs one)."""
    b = DATA.worlds[w].benefit
    if b.kind == "gain_coins":
        return b.n * (2.0 if poor else 0.6)
    return {
        "draw_rewards": 3.0,
        "draw_rewards_keep_one": 3.5,
        "reserve_challenge": 1.0,
        "draw_cards": 1.0,
        "take_from_valhalla": 1.2,
        "take_from_krog": 1.2,
    }.get(b.kind, 0.0)


__all__ = [
    "BUILD",
    "CHALLENGE",
    "CLAIM",
    "DEFEND",
    "DISCARD_REQ",
    "KEEP",
    "KROG",
    "ONSLAUGHT",
    "PREP",
    "RELOCATE",
    "RESERVE",
    "SPOILS",
    "TAKE",
    "TRAVEL",
    "HeuristicAgent",
    "plan_troop",
]
