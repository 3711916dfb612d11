"""Build explicit BigWig positions (never relying on what a seed deals)."""

from __future__ import annotations

import numpy as np

from deckzoo.envs.bigwig.cards import (
    HOLMGANG,
    KIND_COPIES,
    NUM_KINDS,
    NUM_POINT_KINDS,
    SMALL_COPIES,
    WELL,
)
from deckzoo.envs.bigwig.origins import Origins
from deckzoo.envs.bigwig.rules import NONE, PASS, PLAY_WELL, BigWigGame, BigWigState


def counts(kinds, size: int) -> np.ndarray:
    return np.bincount(np.asarray(list(kinds), dtype=np.int64), minlength=size)[:size]


def table(
    hands,
    reveal,
    *,
    collected=None,
    altar=(),
    draw=(),
    discard=None,
    holmgangs=0,
    later=(),
    age_order=None,
    seed=0,
) -> BigWigState:
    """The position at the start of a round, after ``reveal`` (a small-card kind) was turned up.

    ``hands``: the large cards of each seat (kinds; the well is added); ``collected``: each seat's
    point kinds; ``altar``: point kinds under the altar; ``draw``: the draw pile, top = last;
    ``discard``: the discard pile (default: every large card not placed elsewhere, so conservation
    holds); ``holmgangs``: holmgang cards revealed in earlier rounds; ``later``: small cards
    revealed after this one, in order. Unplaced small cards lie below them, point cards first.
    """
    n = len(hands)
    game = BigWigGame(num_players=n, age_order=age_order)
    collected = collected or [[] for _ in range(n)]
    hand_counts = np.array([counts(h, NUM_KINDS) for h in hands])
    placed = hand_counts.sum(axis=0) + counts(draw, NUM_KINDS)
    if discard is None:
        disc = KIND_COPIES - placed
    else:
        disc = counts(discard, NUM_KINDS)
    assert ((placed + disc) == KIND_COPIES).all(), "large cards not conserved"
    small_used = counts(
        [k for c in collected for k in c] + list(altar) + [reveal] + list(later), 16
    )
    small_used[HOLMGANG] += holmgangs
    rest = SMALL_COPIES - small_used
    assert (rest >= 0).all(), "too many copies of a small card"
    bottom = [HOLMGANG] * int(rest[HOLMGANG]) + np.repeat(
        np.arange(15), rest[:15]
    ).tolist()  # holmgangs last
    pile = bottom + list(reversed(later)) + [reveal]
    d = {
        "current_player": None,
        "phase": 0,
        "hands": hand_counts.tolist(),
        "well": [True] * n,
        "draw": list(draw),
        "discard": disc.tolist(),
        "small": pile,
        "collected": [counts(c, NUM_POINT_KINDS).tolist() for c in collected],
        "altar": counts(altar, NUM_POINT_KINDS).tolist(),
        "holmgangs": holmgangs,
        "round": 0,
        "round_card": NONE,
        "point_on_table": False,
        "trump": [False] * 4,
        "participants": [],
        "commits": [NONE] * n,
        "challenger": NONE,
        "target": NONE,
        "stake": NONE,
        "joiners": [],
        "tickets": [],
        "queue": [],
        "last_trick": [NONE] * n,
        "last_winner": NONE,
        # the table remembers nothing from before this position: hands and draw pile are unseen
        "origins": Origins.dealt(placed, hand_counts.sum(axis=1).tolist()).to_dict(),
    }
    s = BigWigState._from_dict(game, d)
    s.rng = np.random.default_rng(seed)
    s._start_round()
    s.check_invariants()
    return s


def commit(state: BigWigState, plays: dict) -> None:
    """Every seat of the trick commits its card (kind, or ``WELL``) in the order the engine asks."""
    assert set(plays) == set(state.simultaneous_players()), (plays, state.simultaneous_players())
    for seat in state.simultaneous_players():
        assert state.current_player == seat
        k = plays[seat]
        state.apply(PLAY_WELL if k == WELL else k)
    state.check_invariants()


def pass_tickets(state: BigWigState) -> None:
    """Every onlooker declines to join the holmgang."""
    while state.phase == 2:
        state.apply(PASS)
