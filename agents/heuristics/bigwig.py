"""A BigWig heuristic from the rulebook's words of wisdom.

"Hunting for scoring cards is important ... But just as important is knowing when to pass on them
and draw cards instead" and "Try to remember which special cards have already been played."

* Trick (point card or duel): for each card in hand, estimate the chance that it wins with a small
  Monte Carlo over the cards the agent has not seen (its own hand and the public discard pile are
  removed from the deck, so played specials are remembered); opponents play a random unseen card
  or their well. Play the card with the best ``P(win) x prize - cost of spending it``; play the
  well (and draw) instead when no card is worth spending.
* Well sacrifice: give up the card whose keep value is lowest against the cards it lets you draw.
* Holmgang: challenge the leader for their most valuable card; join with Til Valhallar only when a
  card in hand is likely to win a prize worth it (an onlooker without one declines).

Uses only ``info_state.view()`` and the mask; the engine's pure ``trick_winner`` (the winner of
``resolve_trick``) scores samples, memoised per (card, the others' cards, trumps): a sampled trick
seen before is not resolved again. The samples and decisions are those of the first version, which
resolved every sample with ``resolve_trick`` (tests/bigwig/test_heuristic.py keeps it to compare).
"""

from __future__ import annotations

import numpy as np

from deckzoo.envs.bigwig.cards import (
    DVERGAR,
    FENRIR,
    FIVES,
    HUGIN_MUNIN,
    KIND_COPIES,
    KIND_VALUE,
    LOKI,
    MJOLLNIR,
    NUM_KINDS,
    POINT_VP,
    TIL_VALHALLAR,
    WELL,
    draw_entitlement,
)
from deckzoo.envs.bigwig.rules import (
    JOIN,
    PASS,
    PLAY_WELL,
    SACRIFICE_BASE,
    TARGET_BASE,
    draws_allowed,
)
from deckzoo.envs.bigwig.trick import trick_winner

from ..base import Agent

# How much a card is worth keeping for later rounds (in "card strength" points).
SPECIAL_KEEP = {
    TIL_VALHALLAR: 3.0,
    DVERGAR: 4.0,
    LOKI: 5.0,
    FENRIR: 6.0,
    HUGIN_MUNIN: 8.0,
    MJOLLNIR: 10.0,
}
AVERAGE_DRAW = 5.0  # keep value of an unknown card from the draw pile
# Does the first card win the trick? By (card, the others' cards sorted, trumps): the answer does
# not depend on the others' order (only one Fenrir, Hugin & Munin or 5 can be effective).
_WINS: dict[tuple, bool] = {}
_WINS_MAX = 1 << 20  # entries before the memo starts again (~150 MB at most)


def first_wins(k: int, others: list[int], trump: tuple) -> bool:
    """``trick_winner([k, *others], trump) == 0``, memoised."""
    key = (k, tuple(sorted(others)), trump)
    won = _WINS.get(key)
    if won is None:
        if len(_WINS) >= _WINS_MAX:
            _WINS.clear()
        won = _WINS[key] = trick_winner([k, *others], trump) == 0
    return won


def keep_value(kind: int) -> float:
    if kind in SPECIAL_KEEP:
        return SPECIAL_KEEP[kind]
    if kind in FIVES:
        return 5.5
    return float(KIND_VALUE[kind])  # standard cards are trump in about half the rounds


class HeuristicAgent(Agent):
    name = "heuristic"

    def __init__(
        self,
        seed: int | None = None,
        samples: int = 48,
        cost: float = 0.12,
        well_bonus: float = 0.35,
    ):
        super().__init__(seed)
        self.samples = samples
        self.cost = cost  # VP given up per keep-value point when a card is spent
        self.well_bonus = well_bonus  # VP value of each card a well play lets you draw

    # ---- decisions ------------------------------------------------------------------------------
    def act(self, info_state) -> int:
        legal = info_state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        v = info_state.view()
        phase = v["phase"]
        if phase == "commit":
            return self._commit(v, legal)
        if phase == "sacrifice":
            return self._sacrifice(v, legal)
        if phase == "target":
            return self._target(v, legal)
        if phase == "stake":
            return self._stake(v, legal, info_state.game.stake_base)
        if phase == "ticket":  # every onlooker is asked; without a Til Valhallar only PASS
            return JOIN if JOIN in legal and self._worth_joining(v) else PASS
        return int(self.rng.choice(legal))

    def _prize(self, v) -> float:
        if v["stake"] is not None:  # a duel: the stake and everything under the altar
            return float(POINT_VP[v["stake"]] + np.dot(v["altar"], POINT_VP))
        return float(POINT_VP[v["round_card"]])

    def _win_chances(self, v, candidates, opponents: int) -> dict[int, float]:
        """P(win) per candidate kind, by sampling the opponents' cards from the unseen ones."""
        hand = np.asarray(v["hand"])
        unseen = KIND_COPIES - np.asarray(v["discard"]) - hand
        pool = np.repeat(np.arange(NUM_KINDS), unseen)
        trump = tuple(v["trump"])
        wins = dict.fromkeys(candidates, 0)
        if opponents == 0 or len(pool) == 0:
            return {k: 1.0 for k in candidates}
        rng = self.rng
        size = min(opponents, len(pool))
        for _ in range(self.samples):
            picks = rng.choice(pool, size=size, replace=False).tolist()
            others = [WELL if rng.random() < 0.2 else k for k in picks]
            for k in candidates:
                if first_wins(k, others, trump):
                    wins[k] += 1
        return {k: wins[k] / self.samples for k in candidates}

    def _commit(self, v, legal) -> int:
        me = v["player"]
        kinds = [int(a) for a in legal if a < NUM_KINDS]
        if not kinds:
            return PLAY_WELL
        opponents = len(v["participants"]) - 1
        prize = self._prize(v)
        p = self._win_chances(v, kinds, opponents)
        scores = {k: p[k] * prize - self.cost * keep_value(k) for k in kinds}
        best = max(scores, key=scores.get)
        size = v["hand_sizes"][me]
        worst = min(
            kinds,
            key=lambda k: (
                keep_value(k) - AVERAGE_DRAW * draws_allowed(draw_entitlement(k), size - 1)
            ),
        )
        drawn = draws_allowed(draw_entitlement(worst), size - 1)
        well_score = self.well_bonus * drawn * (2.0 if size <= 5 else 1.0)
        if PLAY_WELL in legal and well_score >= scores[best]:
            return PLAY_WELL
        return best

    def _sacrifice(self, v, legal) -> int:
        size = v["hand_sizes"][v["player"]]
        kinds = [int(a) - SACRIFICE_BASE for a in legal]

        def loss(k):  # keep value given up minus the value of the cards it buys
            return keep_value(k) - AVERAGE_DRAW * draws_allowed(draw_entitlement(k), size - 1)

        return SACRIFICE_BASE + min(kinds, key=loss)

    def _target(self, v, legal) -> int:
        n, me = v["num_players"], v["player"]
        return int(max(legal, key=lambda a: (v["vp"][(me + a - TARGET_BASE + 1) % n], -a)))

    def _stake(self, v, legal, base) -> int:
        return int(max(legal, key=lambda a: (POINT_VP[a - base], -a)))

    def _worth_joining(self, v) -> bool:
        hand = np.asarray(v["hand"]).copy()
        hand[TIL_VALHALLAR] -= 1
        kinds = [int(k) for k in np.flatnonzero(hand)]
        if not kinds:
            return False
        prize = float(POINT_VP[v["stake"]] + np.dot(v["altar"], POINT_VP))
        p = self._win_chances(v, kinds, 2)
        return max(p[k] * prize - self.cost * keep_value(k) for k in kinds) > 1.0
