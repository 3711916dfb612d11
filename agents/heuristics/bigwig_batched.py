"""The BigWig heuristic for many games at once: ``decide(engine, lanes, mask, rng)`` answers, for
every lane of a ``BigWigBatched`` engine, what ``bigwig.HeuristicAgent`` answers for that lane's
current player (``tests/agents/test_heuristic_bigwig_batched.py`` checks it at every decision of
scalar games loaded into the lanes).

Why it exists: the scalar heuristic simulates each trick it may play (48 sampled tricks per card
in hand, about 2 ms a decision), so a training mix that seats it would run those games on the
scalar engine at a small fraction of the batched engine's speed (training/vector_lanes.py); here
every lane's samples are drawn and resolved by numpy at once.

What it reads: only what the seat to act may know, as the scalar agent's ``view(player)``: its
own hand, the discard pile, who plays the trick, the trump colours, the round card, stake and
altar, every seat's VP and its own public hand size (never another hand, commit or ticket, nor
the draw pile's order).

How the scalar agent is matched:

* Randomness. The scalar agent estimates each card's chance to win from samples of its own
  generator: per sample, the opponents' cards drawn without replacement from the cards it has not
  seen (``choice(pool, size, replace=False)``), then one uniform number per card (below
  ``WELL_CHANCE``: that opponent plays its well instead). ``choose`` takes exactly those draws
  (``picks`` and ``uniforms``) and decides as the scalar agent does with them, bit for bit (the
  test records the scalar agent's draws and replays them here). ``decide`` draws them from
  ``rng`` (the lanes' generator, as the other twins do): the same distribution, not the same draws.
* Tricks. ``kernels.trick`` is the engine's own resolution (ruling B11, as
  ``trick.trick_winner``) over any leading axes: a sample's trick is the candidate card then the
  opponents' cards; a missing opponent is a well card, which every step of the resolution
  ignores, so fewer opponents than columns (or none: the scalar's "P(win) = 1") need no special
  case.
* Ties and floating point. The scalar agent scans its legal actions in ascending order and
  Python's ``max``/``min`` keep the first of equal keys; ``argmax``/``argmin`` over the action
  columns keep the first column, the same action. Every float is built with the scalar's
  operations in its order (``wins / samples * prize - cost * keep``), and the tables here are
  filled by calling the scalar module's own functions.
"""

from __future__ import annotations

import numpy as np

from deckzoo.envs.bigwig import kernels as K
from deckzoo.envs.bigwig.batched import BigWigBatched
from deckzoo.envs.bigwig.cards import (
    DECK_SIZE,
    KIND_COPIES,
    NUM_KINDS,
    NUM_POINT_KINDS,
    POINT_VP,
    TIL_VALHALLAR,
    WELL,
)
from deckzoo.envs.bigwig.kernels import trick_winners
from deckzoo.envs.bigwig.rules import (
    JOIN,
    NONE,
    PASS,
    PHASE_COMMIT,
    PHASE_SACRIFICE,
    PHASE_STAKE,
    PHASE_TARGET,
    PHASE_TICKET,
    PLAY_WELL,
    SACRIFICE_BASE,
    TARGET_BASE,
)

from .bigwig import AVERAGE_DRAW, HeuristicAgent, keep_value

_SCALAR = HeuristicAgent(seed=0)  # the registry's "heuristic": the scalar defaults
SAMPLES = _SCALAR.samples
COST = _SCALAR.cost
WELL_BONUS = _SCALAR.well_bonus
WELL_CHANCE = 0.2  # the scalar ``_win_chances``'s chance that a sampled opponent plays its well
TICKET_OPPONENTS = 2  # an onlooker who joins plays against the two duellists
JOIN_MARGIN = 1.0  # joining is worth it when the best card's score is above this (scalar)

_KEEP = np.array([keep_value(k) for k in range(NUM_KINDS)])
_COST_KEEP = COST * _KEEP  # the scalar's product
# by public hand size s (0 .. 53 index them; 9 at most in play) and kind k, the scalar's
# expressions with hand size s - 1: the sacrifice's loss (keep value given up minus the cards it
# buys) and a well play's score
_SIZES = np.arange(DECK_SIZE + 2)[:, None]
_DRAWS = K.draws_allowed(K.ENTITLE, _SIZES - 1)
_LOSS = _KEEP - AVERAGE_DRAW * _DRAWS
_WELL_SCORE = WELL_BONUS * _DRAWS * np.where(_SIZES <= 5, 2.0, 1.0)
_POINT_VP = POINT_VP.astype(np.int64)


def decide(
    engine: BigWigBatched,
    lanes: np.ndarray,
    mask: np.ndarray,
    rng: np.random.Generator,
) -> np.ndarray:
    """The heuristic's action for the current player of each of ``lanes`` (every lane must be at
    a decision); ``mask`` is the engine's legal mask for those lanes, ``(len(lanes), A)``; the
    sampled tricks are drawn from ``rng``."""
    lanes = np.asarray(lanes, dtype=np.int64)
    picks, uniforms = draw_samples(engine, lanes, rng, needs_samples(engine, lanes, mask))
    return choose(engine, lanes, mask, picks, uniforms)


def needs_samples(engine: BigWigBatched, lanes: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Which lanes' decisions estimate chances to win (the scalar agent draws samples there): a
    trick with a card to choose among several actions, or an onlooker who could join holding a
    card besides its ticket."""
    phase = engine.phase[lanes]
    choice = mask.sum(axis=1) > 1
    commit = (phase == PHASE_COMMIT) & choice & mask[:, :NUM_KINDS].any(axis=1)
    ticket = (phase == PHASE_TICKET) & choice & (_ticket_candidates(engine, lanes).any(axis=1))
    return commit | ticket


def draw_samples(
    engine: BigWigBatched,
    lanes: np.ndarray,
    rng: np.random.Generator,
    where: np.ndarray | None = None,
    samples: int = SAMPLES,
) -> tuple[np.ndarray, np.ndarray]:
    """Draws as the scalar agent's: ``picks`` ``(k, samples, n - 1)`` int8, the opponents' cards
    of each sample (drawn without replacement from the cards the seat has not seen, as many as
    it has opponents or unseen cards; the other columns ``WELL``), and ``uniforms`` (same shape),
    one uniform number per card. Lanes outside ``where`` (default: all) get ``WELL`` only."""
    k, width = len(lanes), engine.n - 1
    picks = np.full((k, samples, width), WELL, dtype=np.int8)
    uniforms = np.ones((k, samples, width))
    rows = np.arange(k) if where is None else np.flatnonzero(where)
    if not len(rows):
        return picks, uniforms
    sub = lanes[rows]
    unseen = unseen_counts(engine, sub)
    total = unseen.sum(axis=1)
    size = np.minimum(opponents(engine, sub), total)
    picks[rows] = np.where(
        np.arange(width) < size[:, None, None], _first_cards(unseen, samples, width, rng), WELL
    )
    uniforms[rows] = rng.random((len(sub), samples, width))
    return picks, uniforms


def unseen_counts(engine: BigWigBatched, lanes: np.ndarray) -> np.ndarray:
    """``(k, 46)``: copies of each kind the seat to act has not seen (the scalar ``unseen``: every
    copy less the discard pile and its own hand)."""
    me = engine.cur[lanes]
    return KIND_COPIES - engine.discard[lanes].astype(np.int64) - engine.hands[lanes, me]


def opponents(engine: BigWigBatched, lanes: np.ndarray) -> np.ndarray:
    """The opponents the scalar agent samples: the trick's other players, or the two duellists
    for an onlooker deciding on a ticket (0 elsewhere)."""
    phase = engine.phase[lanes]
    others = engine.participants[lanes].sum(axis=1) - 1
    return np.where(
        phase == PHASE_COMMIT, others, np.where(phase == PHASE_TICKET, TICKET_OPPONENTS, 0)
    )


def _first_cards(
    unseen: np.ndarray, samples: int, width: int, rng: np.random.Generator
) -> np.ndarray:
    """``(k, samples, width)``: the first ``width`` cards of a uniform shuffle of each row's
    unseen cards (a partial Fisher-Yates shuffle: a uniformly drawn subset, as ``choice``
    without replacement), ``WELL`` past the last card."""
    k = len(unseen)
    total = unseen.sum(axis=1)[:, None]  # (k, 1)
    ends = unseen.cumsum(axis=1)  # the unseen cards in kind order, then WELL
    pile = (np.arange(DECK_SIZE)[None, :, None] >= ends[:, None, :]).sum(axis=2).astype(np.int8)
    deck = np.repeat(pile[:, None, :], samples, axis=1)  # (k, samples, 52)
    for j in range(width):
        pos = rng.integers(j, np.maximum(total, j + 1), size=(k, samples))[..., None]
        drawn = np.take_along_axis(deck, pos, axis=2)
        np.put_along_axis(deck, pos, deck[..., j, None], axis=2)
        deck[..., j] = drawn[..., 0]
    return deck[..., :width]


def choose(
    engine: BigWigBatched,
    lanes: np.ndarray,
    mask: np.ndarray,
    picks: np.ndarray,
    uniforms: np.ndarray,
) -> np.ndarray:
    """The scalar agent's action in each of ``lanes`` given its random draws (``draw_samples``'s
    ``picks`` and ``uniforms``, ``(k, samples, n - 1)``; read only where it samples). The rule of
    each phase takes the same arguments; those of the sacrifice, the target and the stake ignore
    the draws, as the scalar agent draws nothing there."""
    lanes = np.asarray(lanes, dtype=np.int64)
    out = mask.argmax(axis=1)  # a single legal action is taken as is
    phase = engine.phase[lanes]
    choice = mask.sum(axis=1) > 1
    for ph, rule in (
        (PHASE_COMMIT, _commit),
        (PHASE_TICKET, _ticket),
        (PHASE_SACRIFICE, _sacrifice),
        (PHASE_TARGET, _target),
        (PHASE_STAKE, _stake),
    ):
        rows = np.flatnonzero(choice & (phase == ph))
        if len(rows):
            out[rows] = rule(engine, lanes[rows], mask[rows], picks[rows], uniforms[rows])
    return out


def _prize(engine: BigWigBatched, lanes: np.ndarray) -> np.ndarray:
    """VP at stake in the trick: a duel's stake and everything under the altar, else the round's
    point card."""
    stake = engine.stake[lanes]
    duel = _POINT_VP[np.maximum(stake, 0)] + K.vp(engine.altar[lanes])
    card = _POINT_VP[np.clip(engine.round_card[lanes], 0, NUM_POINT_KINDS - 1)]
    return np.where(stake != NONE, duel, card).astype(np.float64)


def _public_size(engine: BigWigBatched, lanes: np.ndarray) -> np.ndarray:
    """The seat's hand size as the table sees it (its well and a face-down commit included)."""
    me = engine.cur[lanes]
    return K.hand_sizes(engine.hands[lanes, me], engine.well[lanes, me], engine.commits[lanes, me])


def _card_scores(engine, lanes, candidates, picks, uniforms) -> np.ndarray:
    """``(k, 46)``: ``P(win) x prize - cost x keep value`` of each candidate kind (bool
    ``(k, 46)``), ``-inf`` for the others; P(win) over the samples as the scalar's."""
    wins = win_counts(candidates, picks, uniforms, K.trump_bits(engine.trump[lanes]))
    p = wins / picks.shape[1]
    scores = p * _prize(engine, lanes)[:, None] - _COST_KEEP
    return np.where(candidates, scores, -np.inf)


def _commit(engine, lanes, mask, picks, uniforms) -> np.ndarray:
    """The card with the best score, or the well when the cards it lets the seat draw (after
    sacrificing its least useful card) are worth at least as much."""
    kinds = mask[:, :NUM_KINDS]
    scores = _card_scores(engine, lanes, kinds, picks, uniforms)
    rows = np.arange(len(lanes))
    best = scores.argmax(axis=1)
    size = _public_size(engine, lanes)
    worst = np.where(kinds, _LOSS[size], np.inf).argmin(axis=1)
    well_score = _WELL_SCORE[size, worst]
    well = mask[:, PLAY_WELL] & (well_score >= scores[rows, best])
    return np.where(well, PLAY_WELL, best)


def _ticket_candidates(engine: BigWigBatched, lanes: np.ndarray) -> np.ndarray:
    """``(k, 46)``: the kinds an onlooker would play in the duel (its hand less one ticket)."""
    hand = engine.hands[lanes, engine.cur[lanes]].astype(np.int64)
    hand[:, TIL_VALHALLAR] -= 1
    return hand > 0


def _ticket(engine, lanes, mask, picks, uniforms) -> np.ndarray:
    """Join when a card besides the ticket is likely to win a prize worth it."""
    scores = _card_scores(engine, lanes, _ticket_candidates(engine, lanes), picks, uniforms)
    worth = scores.max(axis=1) > JOIN_MARGIN
    return np.where(mask[:, JOIN] & worth, JOIN, PASS)


def _sacrifice(engine, lanes, mask, picks, uniforms) -> np.ndarray:
    """The card whose keep value, less the cards it buys, is lowest."""
    loss = _LOSS[_public_size(engine, lanes)]
    legal = mask[:, SACRIFICE_BASE : SACRIFICE_BASE + NUM_KINDS]
    return SACRIFICE_BASE + np.where(legal, loss, np.inf).argmin(axis=1)


def _target(engine, lanes, mask, picks, uniforms) -> np.ndarray:
    """Challenge the seat with the most VP (ties: the nearest to the left)."""
    their = K.to_the_left(K.vp(engine.collected[lanes]), engine.cur[lanes])
    legal = mask[:, TARGET_BASE : TARGET_BASE + engine.n - 1]
    return TARGET_BASE + np.where(legal, their, -1).argmax(axis=1)


def _stake(engine, lanes, mask, picks, uniforms) -> np.ndarray:
    """Put the target's most valuable point card at stake (ties: the lowest kind)."""
    base = engine.game.stake_base
    legal = mask[:, base : base + NUM_POINT_KINDS]
    return base + np.where(legal, _POINT_VP, -1).argmax(axis=1)


def win_counts(candidates, picks, uniforms, trump_bits) -> np.ndarray:
    """``(k, 46)``: in how many samples each candidate kind (bool ``(k, 46)``) wins the trick
    against the sample's opponents (``picks``, a well where the uniform is below
    ``WELL_CHANCE``); ``trump_bits`` ``(k,)`` the trick's colours (``kernels.trump_bits``). The
    tricks are laid out one (lane, candidate) pair a row, positions first (``kernels.trick``)."""
    wins = np.zeros(candidates.shape, dtype=np.int64)
    rows, kinds = np.nonzero(candidates)
    if not len(rows):
        return wins
    others = np.where(uniforms < WELL_CHANCE, WELL, picks).astype(np.int8)  # (k, S, O)
    S, O = others.shape[1:]
    tricks = np.empty((1 + O, len(rows), S), dtype=np.int8)
    tricks[0] = kinds[:, None]
    tricks[1:] = np.moveaxis(others, 2, 0)[:, rows]
    won = K.first_wins(K.trick(tricks, trump_bits[rows, None])[0])  # (pairs, S)
    wins[rows, kinds] = won.sum(axis=1)
    return wins


__all__ = [
    "choose",
    "decide",
    "draw_samples",
    "needs_samples",
    "opponents",
    "trick_winners",
    "unseen_counts",
    "win_counts",
]
