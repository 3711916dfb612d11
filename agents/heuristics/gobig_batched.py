"""The Go Big heuristic for many games at once: ``decide(engine, lanes, mask, rng)`` answers, for
every lane of a ``GoBigBatched`` engine, what ``gobig.HeuristicAgent`` answers for that lane's
current player (``tests/agents/test_heuristic_gobig_batched.py`` checks it on thousands of
positions, loaded from scalar games into the lanes). It reads only what the seat to act may know
(the scalar agent's ``view(player)``), and the rules it needs are the engine's kernels
(``envs/gobig/kernels.py``).

How the scalar agent is matched:

* Ties. The scalar agent draws among its best plays (scores within 1e-9 of the best) with its own
  generator; here the same set is computed and one member drawn uniformly with ``rng``. A single
  best play is taken as is, and the draw step never ties (market > deck, else the deck).
* Floating point. Every score is built with the scalar's operations in the scalar's order: the
  survival product runs over the opponents in seat order from the player and over the values from
  the shield up, denials are added in seat order (the ``0.0`` of a seat not beaten leaves a sum
  unchanged, as multiplying by ``1.0`` leaves a product), and the draw's per-card worth adds the
  values in ascending order.
* Tables. The chance that an opponent holds a set (the scalar ``holds``) is looked up in a table
  filled by calling ``holds`` itself for each (size, hand size, copies, unseen) the lanes need,
  the first time they need it; the worth of a card comes from the scalar ``GROUP_BONUS``.
"""

from __future__ import annotations

import numpy as np

from deckzoo.envs.core.batched_state import seat_take
from deckzoo.envs.gobig import kernels as K
from deckzoo.envs.gobig.actions import DRAW_DECK, NUM_PLAYS, PHASE_DRAW, PHASE_PLAY, TAKE_MARKET
from deckzoo.envs.gobig.batched import GoBigBatched
from deckzoo.envs.gobig.cards import COPIES, TOTAL_CARDS, VALUES

from .gobig import AGGRESSION, BREAK_COST, GROUP_BONUS, holds

V, S = K.PLAYS_VALUE, K.PLAYS_SIZE  # (3 sizes, 7 values): each play's value and size
V8, S8 = V.astype(np.int8), S.astype(np.int8)  # for the comparisons over (k, 3, 7, n)
# the worth of a card of value v when the hand holds c (0..3+) of it: v * GROUP_BONUS[min(c, 3)]
_WORTH = np.array([[v * GROUP_BONUS[c] for c in range(4)] for v in range(1, VALUES + 1)])
# holds(k, h, copies, total) by [k - 1, h, copies, total]; NaN until first needed
_HOLDS = np.full((3, TOTAL_CARDS + 1, COPIES + 1, TOTAL_CARDS + 1), np.nan)
_HOLDS_FLAT = _HOLDS.reshape(-1)  # (a view: filling it fills the table)
_MIN = np.iinfo(np.int64).min


def decide(engine: GoBigBatched, lanes, mask, rng: np.random.Generator, ties=None) -> np.ndarray:
    """The heuristic's action for the current player of each of ``lanes`` (every lane must be at
    a decision); ``mask`` is the engine's legal mask for those lanes, ``(len(lanes), A)``; ties
    among the best plays are broken uniformly with ``rng``, or by ``ties(rows, top)`` where given
    (the rows of ``lanes`` that tie and their ``(k, 21)`` best plays -> one play each: the arena
    breaks them with each seat's own scalar generator, so it makes the scalar agent's moves)."""
    lanes = np.asarray(lanes, dtype=np.int64)
    out = np.zeros(len(lanes), dtype=np.int64)
    phase = engine.phase[lanes]
    play = np.flatnonzero(phase == PHASE_PLAY)
    if len(play):
        top = best_plays(engine, lanes[play], mask[play])
        out[play] = top.argmax(axis=1)  # the only best play, where there is one
        tied = np.flatnonzero(top.sum(axis=1) > 1)
        if len(tied) and ties is not None:
            out[play[tied]] = ties(play[tied], top[tied])
        elif len(tied):  # one of the best drawn uniformly
            keys = np.where(top[tied], rng.random((len(tied), NUM_PLAYS)), -1.0)
            out[play[tied]] = keys.argmax(axis=1)
    draw = np.flatnonzero(phase == PHASE_DRAW)
    if len(draw):
        out[draw] = _draw(engine, lanes[draw])
    return out


def _unseen(engine: GoBigBatched, lanes: np.ndarray, hand: np.ndarray) -> np.ndarray:
    """``(k, 7)`` copies of each value the player (holding ``hand``) cannot see (the scalar
    ``unseen_list``): the deck's copies (``deck_counts``) less its own hand, the box, every
    bank, the market and every display."""
    seen = hand + engine.box[lanes] + engine.banks[lanes].sum(axis=1, dtype=np.int64)
    seen += (engine.market[lanes][:, :, None] == K.VALUE_OF).sum(axis=1)
    dval, dsize = engine.dval[lanes][..., None], engine.dsize[lanes][..., None]
    seen += ((dval == K.VALUE_OF) * dsize).sum(axis=1)
    return np.maximum(engine.game.deck_counts - seen, 0)


def _holds_table(k: np.ndarray, h: np.ndarray, c: np.ndarray, t: np.ndarray) -> np.ndarray:
    """``holds(k, h, c, t)`` elementwise (broadcast), filling the table where it is new."""
    _, H, C, T = _HOLDS.shape
    flat = (((k - 1) * H + h) * C + c) * T + t  # (np.ravel_multi_index, by broadcasting)
    got = _HOLDS_FLAT[flat]
    new = np.isnan(got)
    if not new.any():
        return got
    for i in np.unique(flat[new]).tolist():
        kk, hh, cc, tt = np.unravel_index(i, _HOLDS.shape)
        _HOLDS_FLAT[i] = holds(int(kk) + 1, int(hh), int(cc), int(tt))
    return _HOLDS_FLAT[flat]


def best_plays(engine: GoBigBatched, lanes: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``(k, 21)`` bool: the legal plays that score best (within 1e-9) for the player to act in
    each of ``lanes`` (the scalar ``HeuristicAgent.best_plays``)."""
    n, k = engine.n, len(lanes)
    rows = np.arange(k)
    me = engine.cur[lanes]
    hand = seat_take(engine.hands, lanes, me).astype(np.int64)  # (k, 7)
    dval, dsize = engine.dval[lanes], engine.dsize[lanes]  # (k, n), 0: no display
    scores = K.scores(engine.banks[lanes])  # (k, n)
    unseen = _unseen(engine, lanes, hand)
    total = unseen.sum(axis=1)
    other = np.arange(n) != me[:, None]  # (k, n)
    # candidates on axes (k, 3 sizes, 7 values, [n seats]); the displays as int8 (values 0-7,
    # sizes 0-3) for the comparisons over (k, 3, 7, n)
    dv, ds = dval.astype(np.int8)[:, None, None, :], dsize.astype(np.int8)[:, None, None, :]
    beaten = K.beaten(dv, ds, me[:, None, None], V8, S8)[0]  # (k, 3, 7, n)

    # the play ends the game: compare the final scores (every display still standing banked)
    literal = engine.game.options["end_rule"] == "literal"
    left, L = hand.sum(axis=1)[:, None, None] - S, lanes[:, None, None]
    ends = K.play_ends(left, engine.top[L], engine.market[L, 0], literal)
    final = scores[:, None, None, :] + np.where(beaten, 0, dv * ds).astype(np.int64)
    final[rows, :, :, me] = _MIN
    margin = (scores[rows, me][:, None, None] + V * S) - final.max(axis=3)
    end_score = np.where(margin > 0, 1000.0 + margin, -1000.0 + margin)

    # denial: points of the beaten displays, weighted by whose they are
    lead = np.where(other, scores, _MIN).max(axis=1, keepdims=True)
    w = np.minimum(1.0 / (n - 1) * np.where(scores == lead, 2.0, 1.0), 1.0)  # (k, n)
    points = (w * dval * dsize)[:, None, None, :]
    deny = np.zeros((k, 3, VALUES))
    for s in range(n):  # in seat order, as the scalar sum
        deny = deny + np.where(beaten[..., s], points[..., s], 0.0)
    # break cost: cards stranded in a smaller group
    stranded = hand[:, None, :] - S
    cost = np.where((stranded > 0) & (stranded < 3), BREAK_COST * V * stranded, 0.0)

    # survival. Opponent q (seats after ours, in turn order) beats our set with one of the values
    # from its shield (the highest other display of our size below our value, at least 1) up to
    # ours; beaten displays are above our value, so they never shield.
    below = other[:, None, None, :] & (ds == S8[..., None]) & (dv < V8[..., None])
    shields = np.where(below, dv, 1)  # (k, 3, 7, n)
    first, at = shields.max(axis=3), shields.argmax(axis=3)
    second = np.where(np.arange(n) == at[..., None], 1, shields).max(axis=3)  # (without that seat)
    opp = (me[:, None] + np.arange(1, n)) % n  # (k, n - 1)
    shield = np.where(at[:, None] == opp[:, :, None, None], second[:, None], first[:, None])
    h = seat_take(engine.hsize, lanes[:, None], opp)[:, :, None, None]  # (k, n - 1, 1, 1)
    live = total > 0
    t = np.where(live, total, 1)[:, None, None, None]
    # (k, n - 1, 3 sizes, 7 values the opponent could play): the scalar's 1.0 - holds(...)
    miss = 1.0 - _holds_table(S[:, :1], h, unseen[:, None, None, :], t)
    can = np.ones((k, n - 1, 3, VALUES))
    for v in range(1, VALUES):  # ascending, as the scalar product
        can = can * np.where((shield <= v) & (v < V), miss[..., v - 1, None], 1.0)
    factor = np.where(h >= S, 1.0 - AGGRESSION * (1.0 - can), 1.0)
    surv = np.where(live[:, None, None] & (V > 1), factor.prod(axis=1), 1.0)  # in turn order

    legal = mask[:, :NUM_PLAYS].reshape(k, 3, VALUES)
    score = np.where(ends, end_score, (V * S) * surv + deny - cost)
    score = np.where(legal, score, -np.inf)
    best = score.max(axis=(1, 2), keepdims=True)
    return (legal & (score >= best - 1e-9)).reshape(k, NUM_PLAYS)


def _draw(engine: GoBigBatched, lanes: np.ndarray) -> np.ndarray:
    """The market if its cards are worth more than two unseen cards' expected worth."""
    hand = seat_take(engine.hands, lanes, engine.cur[lanes]).astype(np.int64)
    worth = np.zeros((len(lanes), VALUES + 1))  # by card value; 0: no card, worth 0
    worth[:, 1:] = _WORTH[K.VALUE_OF - 1, np.minimum(hand, 3)]
    market = np.take_along_axis(worth, engine.market[lanes].astype(np.int64), axis=1)
    unseen = _unseen(engine, lanes, hand)
    total = unseen.sum(axis=1)
    t = np.where(total > 0, total, 1)
    per_card = np.zeros(len(lanes))
    for v in range(1, VALUES + 1):  # ascending, as the scalar sum
        per_card = per_card + unseen[:, v - 1] / t * worth[:, v]
    deck = per_card * np.minimum(2, engine.top[lanes])
    return np.where((total == 0) | (market[:, 0] + market[:, 1] > deck), TAKE_MARKET, DRAW_DECK)


__all__ = ["best_plays", "decide"]
