"""Go Big heuristic: banking and market sense, from ``view(player)`` only.

Play step. Every legal set (value ``v``, size ``k``) is scored by what it should be worth by the
time it is banked at the start of our next turn:

    v * k * P(survive)  +  sum over displays it beats of (their points * weight)  -  break cost

* ``P(survive)``: each opponent plays once before our next turn. Opponent ``q`` can beat our
  display with any set of size ``k`` and a value ``v'`` below ``v`` such that our display is
  the *nearest* higher one (ruling G6): ``v'`` must be at least every other display of size
  ``k`` below ``v`` (those shield us). The chance that ``q`` holds ``k`` cards of such a value is
  estimated from the unseen cards (deck and other hands: 13 of each value, or a variant's
  copies, minus everything visible) with a binomial per value; ``q`` is assumed to take the
  chance half the time.
* Beating: points sent to the box are worth ``1/(N-1)`` of a point to us (they come off one
  opponent, not all), twice that when they belong to the leading opponent.
* Break cost: playing part of a group leaves a weaker group behind; a quarter of the points of
  the cards left stranded in a smaller group is charged.
* Endgame: when the play would end the game (our last cards, nothing left to draw, or the
  ``literal`` end rule) we compare the final scores: a play that ends the game in our favour is
  taken, one that ends it in someone else's favour is avoided while anything else is legal.

Draw step (asked only when both the deck and the market have cards). The two market cards are
compared with two unseen cards' expected worth, a card being worth its value times how much it
helps a group (1, 1.35 or 1.7 for 0, 1 or 2 copies already in hand).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from deckzoo.envs.core.game import InfoState
from deckzoo.envs.gobig.actions import DRAW_DECK, TAKE_MARKET, decode_play
from deckzoo.envs.gobig.cards import COPIES, VALUES
from deckzoo.envs.gobig.rules import beaten_seats

from ..base import Agent

AGGRESSION = 0.5  # how often an opponent who can beat our display is assumed to do it
BREAK_COST = 0.25
GROUP_BONUS = (1.0, 1.35, 1.7, 1.7)


def unseen_counts(view: dict, deck_counts=None) -> np.ndarray:
    """Copies of each value (index 0 = value 1) in the deck and in other players' hands."""
    return np.asarray(unseen_list(view, deck_counts), dtype=np.int64)


def unseen_list(view: dict, deck_counts=None) -> list[int]:
    """``unseen_counts`` as a list; ``deck_counts`` (the game's ``deck_counts``: a variant's deck)
    defaults to the rulebook's 13 of each value."""
    seen = [h + b for h, b in zip(view["hand"], view["box"])]
    for bank in view["banks"]:
        for i, c in enumerate(bank):
            seen[i] += c
    for c in view["market"]:
        seen[c - 1] += 1
    for d in view["displays"]:
        if d is not None:
            seen[d[0] - 1] += d[1]
    if deck_counts is None:
        return [max(COPIES - x, 0) for x in seen]
    return [max(int(c) - x, 0) for c, x in zip(deck_counts, seen)]


def prob_at_least(k: int, n: int, p: float) -> float:
    """P(Binomial(n, p) >= k)."""
    if k <= 0:
        return 1.0
    if n < k or p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    below = sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k))
    return max(0.0, 1.0 - below)


@lru_cache(maxsize=1 << 16)
def holds(k: int, n: int, copies: int, total: int) -> float:
    """P(a hand of ``n`` unseen cards holds >= ``k`` of a value with ``copies`` of ``total``
    unseen)."""
    return prob_at_least(k, n, copies / total)


def survival(
    view: dict, value: int, size: int, displays: list, unseen: list | None = None
) -> float:
    """Chance that our display ``size`` x ``value`` is still there at our next turn."""
    me, n = view["player"], view["num_players"]
    if unseen is None:
        unseen = unseen_list(view)
    total = sum(unseen)
    if value == 1 or total == 0:
        return 1.0
    surv = 1.0
    for i in range(1, n):
        q = (me + i) % n
        shield = 1  # lowest value q could beat us with
        for s, d in enumerate(displays):
            if (
                s != me
                and s != q
                and d is not None
                and d[1] == size
                and d[0] < value
                and d[0] > shield
            ):
                shield = d[0]
        h = view["hand_sizes"][q]
        if h < size:
            continue
        can = 1.0
        for v in range(shield, value):
            can *= 1.0 - holds(size, h, unseen[v - 1], total)
        surv *= 1.0 - AGGRESSION * (1.0 - can)
    return surv


def ends_game(view: dict, game_options: dict, value: int, size: int) -> bool:
    left = sum(view["hand"]) - size
    if left > 0:
        return False
    if game_options.get("end_rule") == "literal":
        return True
    return view["deck_size"] == 0 and not view["market"]


class HeuristicAgent(Agent):
    """Go Big heuristic (see the module docstring)."""

    name = "heuristic"

    def act(self, info_state: InfoState) -> int:
        view = info_state.view()
        if view["phase"] == "draw":
            return self._draw(view, info_state.game.deck_counts)
        top = self._best_plays(view, info_state)
        return top[0] if len(top) == 1 else int(self.rng.choice(top))

    def best_plays(self, info_state: InfoState) -> list[int]:
        """The legal plays that score best (within 1e-9), in action order: ``act`` takes the one,
        or draws among them. (Play step only; draws no random number.)"""
        return self._best_plays(info_state.view(), info_state)

    def _best_plays(self, view: dict, info_state: InfoState) -> list[int]:
        options = info_state.game.options
        unseen = unseen_list(view, info_state.game.deck_counts)
        legal = info_state.legal_actions()
        scored = [(self._score_play(view, options, int(a), unseen), int(a)) for a in legal]
        best = max(s for s, _ in scored)
        return [a for s, a in scored if s >= best - 1e-9]

    def _score_play(self, view: dict, options: dict, action: int, unseen: list) -> float:
        value, size = decode_play(action)
        me, n = view["player"], view["num_players"]
        displays = [None if d is None else tuple(d) for d in view["displays"]]
        displays[me] = (value, size)
        beaten = beaten_seats(displays, me, value, size)
        scores = list(view["scores"])
        if ends_game(view, options, value, size):
            final = [
                scores[s] + (0 if d is None or s in beaten else d[0] * d[1])
                for s, d in enumerate(displays)
            ]
            others = max(final[s] for s in range(n) if s != me)
            margin = final[me] - others
            return 1000.0 + margin if margin > 0 else -1000.0 + margin
        for s in beaten:
            displays[s] = None
        lead = max(scores[s] for s in range(n) if s != me)
        deny = 0.0
        for s in beaten:
            v, k = view["displays"][s]
            w = 1.0 / (n - 1) * (2.0 if scores[s] == lead else 1.0)
            deny += min(w, 1.0) * v * k
        held = view["hand"][value - 1]
        stranded = held - size
        cost = BREAK_COST * value * stranded if 0 < stranded < 3 else 0.0
        return value * size * survival(view, value, size, displays, unseen) + deny - cost

    def _draw(self, view: dict, deck_counts=None) -> int:
        hand = view["hand"]
        unseen = unseen_list(view, deck_counts)
        total = sum(unseen)

        def worth(v: int) -> float:
            return v * GROUP_BONUS[min(hand[v - 1], 3)]

        market = sum(worth(c) for c in view["market"])
        if total == 0:
            return TAKE_MARKET
        per_card = sum(unseen[v - 1] / total * worth(v) for v in range(1, VALUES + 1))
        deck = per_card * min(2, view["deck_size"])
        return TAKE_MARKET if market > deck else DRAW_DECK


__all__ = ["HeuristicAgent", "prob_at_least", "survival", "unseen_counts", "unseen_list"]
