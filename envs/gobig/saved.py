"""Checking a saved Go Big state (``GoBigState.from_dict``) before it is built: every field's
type, size and range, card conservation and the turn structure (see envs/core/saved.py)."""

from __future__ import annotations

import numpy as np

from ..core.saved import Fields, check_conservation
from .rules import COPIES, MARKET_SIZE, PHASE_DRAW, PHASE_NAMES, PHASE_OVER, PHASE_PLAY, VALUES

FIELDS = (
    "current_player",
    "phase",
    "turn",
    "start_player",
    "over",
    "hands",
    "known",
    "deck",
    "market",
    "displays",
    "banks",
    "box",
)


def check_state(game, d: dict) -> None:
    """``ValueError`` naming the field for anything a Go Big game cannot have reached."""
    n = game.num_players
    f = Fields(d, "saved gobig state", FIELDS)
    phase = f.int("phase", 0, len(PHASE_NAMES) - 1)
    cp = f.seat("current_player", n, none=True)
    over = f.bool("over")
    f.int("turn", 0, 10**9)
    f.seat("start_player", n)
    hands = f.matrix("hands", n, VALUES)
    known = f.matrix("known", n, VALUES)
    if (known > hands).any():
        p = int(np.flatnonzero((known > hands).any(axis=1))[0])
        f.fail("known", f"says player {p} is known to hold cards it does not hold "
                        "(hidden information)")
    deck = f.ints("deck", 1, VALUES)
    market = f.ints("market", 1, VALUES)
    if len(market) > MARKET_SIZE:
        f.fail("market", f"holds at most {MARKET_SIZE} cards, got {len(market)}")
    if len(market) < MARKET_SIZE and deck:
        f.fail(
            "market",
            f"has {len(market)} cards while the deck still has {len(deck)} (it is refilled)",
        )
    displays = f.list("displays", n)
    for s, x in enumerate(displays):
        if x is not None:
            _value, size = f.ints(f"displays[{s}]", 1, VALUES, 2, value=x)
            if size > 3:
                f.fail(f"displays[{s}]", f"is [value, size] with a size of 1-3, got {x!r}")
    banks = f.matrix("banks", n, VALUES)
    box = f.counts("box", VALUES)
    total = hands.sum(axis=0) + banks.sum(axis=0) + box
    for v in deck + market:
        total[v - 1] += 1
    for x in displays:
        if x is not None:
            total[x[0] - 1] += x[1]
    check_conservation(
        f.where,
        total,
        np.full(VALUES, COPIES),
        "hands/deck/market/displays/banks/box",
        lambda k: f"of value {k + 1}",
    )
    if over != (cp is None) or over != (phase == PHASE_OVER):
        f.fail(
            "over",
            f"is {over} but current_player is {cp!r} and phase {phase!r} (all three say "
            "whether the game is over)",
        )
    if over and any(x is not None for x in displays):
        f.fail("displays", "must all be banked (null) once the game is over")
    if phase == PHASE_PLAY and displays[cp] is not None:
        f.fail(
            "displays",
            f"player {cp} is about to play, so its display was banked; got {displays[cp]!r}",
        )
    if phase == PHASE_DRAW and (displays[cp] is None or not deck or not market):
        f.fail(
            "phase",
            "is draw, which needs the player's new display and both a deck and a market "
            "to choose from",
        )
