"""Tiny's global state (``game.state_layout``): the observation's public pieces, every hand and
the undealt cards."""

from __future__ import annotations

from .cards import CARD


def global_state(state):
    buf, v = state.game.state_layout.start(state.observe(0))
    for p, hand in enumerate(state.hands):
        for c in hand:
            v["hands"][p, c] += CARD
    for c in state.rest:
        v["rest"][c] += CARD
    return buf
