"""What a Go Big seat may know: ``view(state, p)`` (a dict) and ``observe(state, p)`` (the
float32 vector the policies read), with the observation's layout (``make_layout``) and the
divisors that scale its raw counts into [0, 1] (``make_scales``). The index table is in
docs/rules/gobig.md; seats are relative there: index 0 is the observer, then clockwise.

The state's ``view`` and ``observe`` are these functions, found by name (envs/core/game.py,
``FUNCTION_MODULES``).
"""

from __future__ import annotations

import numpy as np

from ..core.encoding import Layout
from .actions import PHASE_NAMES
from .cards import MARKET_SIZE, VALUES


def make_layout(n: int) -> Layout:
    """The observation's pieces at ``n`` players (entries scaled as the comments say)."""
    return Layout(
        [
            ("hand", VALUES),  # own hand, count of each value / copies (13)
            ("hand_sizes", n),  # cards in hand per relative seat / cards in the deck (91)
            ("display_value", (n, VALUES)),  # one-hot value of each relative seat's display
            ("display_size", (n, 3)),  # one-hot size (1-3) of each display
            ("market", VALUES),  # market count of each value / 2
            ("banks", (n, VALUES)),  # banked count of each value per relative seat / copies
            ("known", (n, VALUES)),  # taken from the market, may still be held / copies (X7)
            ("box", VALUES),  # beaten cards of each value / copies
            ("deck_size", 1),  # / cards in the deck
            ("current_player", n),  # one-hot relative seat to act
            ("phase", 2),  # one-hot: play, draw
        ]
    )


def make_scales(layout: Layout, copies: int, total_cards: int) -> np.ndarray:
    """Per-entry divisors: ``observe`` writes raw counts, then divides by this vector once."""
    div = np.ones(layout.size, dtype=np.float32)
    for name, scale in (
        ("hand", copies),
        ("hand_sizes", total_cards),
        ("market", MARKET_SIZE),
        ("banks", copies),
        ("known", copies),
        ("box", copies),
        ("deck_size", total_cards),
    ):
        div[layout.slice(name)] = scale
    return div


def view(st, player: int) -> dict:
    """What ``player`` may know. Hands at game end are discarded unseen, so they stay hidden."""
    return {
        "player": player,
        "num_players": st.game.num_players,
        "current_player": st.current_player,
        "phase": PHASE_NAMES[st.phase],
        "turn": st.turn,
        "start_player": st.start_player,
        "hand": st.hands[player].tolist(),
        "hand_sizes": st.hands.sum(axis=1).tolist(),
        "known_in_hand": st.known.tolist(),
        "displays": [None if d is None else list(d) for d in st.displays],
        "market": sorted(st.market),
        "banks": st.banks.tolist(),
        "box": st.box.tolist(),
        "deck_size": len(st.deck),
        "scores": st.scores().tolist(),
    }


def observe(st, player: int) -> np.ndarray:
    """``player``'s observation (``game.layout``), every entry in [0, 1]: raw counts written at
    the pieces' offsets (``game.obs_at``), then scaled by one division (``game.obs_div``)."""
    game = st.game
    n = game.num_players
    order = game.seat_order[player]
    o = game.obs_at
    buf = np.zeros(game.layout.size, dtype=np.float32)
    a = o["hand"]
    buf[a : a + VALUES] = st.hands[player]
    a = o["hand_sizes"]
    buf[a : a + n] = np.add.reduce(st.hands, axis=1)[order]
    a = o["banks"]
    buf[a : a + n * VALUES] = st.banks[order].ravel()
    a = o["known"]
    buf[a : a + n * VALUES] = st.known[order].ravel()
    a = o["box"]
    buf[a : a + VALUES] = st.box
    buf[o["deck_size"]] = len(st.deck)
    hot = []  # the one-hot cells, set by one flat scatter
    value_at, size_at = o["display_value"], o["display_size"]
    for s, d in enumerate(st.displays):
        if d is not None:
            r = (s - player) % n
            hot.append(value_at + r * VALUES + d[0] - 1)
            hot.append(size_at + r * 3 + d[1] - 1)
    if st.current_player is not None:
        hot.append(o["current_player"] + (st.current_player - player) % n)
        hot.append(o["phase"] + st.phase)
    buf[hot] = 1.0
    a = o["market"] - 1
    for c in st.market:
        buf[a + c] += 1.0
    buf /= game.obs_div
    return buf
