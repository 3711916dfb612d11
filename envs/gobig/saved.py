"""A saved Go Big state: its fields (``to_dict``, ``from_dict``) and their check before a state is
built (``check_state``): every field's type, size and range, card conservation and the turn
structure (see envs/core/saved.py). The state's ``_to_dict``, ``_from_dict`` and ``_check_dict``
are these functions, found by name (envs/core/game.py, ``FUNCTION_MODULES``)."""

from __future__ import annotations

import numpy as np

from ..core.saved import Fields, check_conservation
from .actions import PHASE_DRAW, PHASE_NAMES, PHASE_OVER, PHASE_PLAY
from .cards import MARKET_SIZE, VALUES

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


def to_dict(st) -> dict:
    """The state's fields as JSON values (``GoBigState.to_dict``'s ``state``)."""
    return {
        "current_player": st.current_player,
        "phase": st.phase,
        "turn": st.turn,
        "start_player": st.start_player,
        "over": st.over,
        "hands": st.hands.tolist(),
        "known": st.known.tolist(),
        "deck": list(st.deck),
        "market": list(st.market),
        "displays": [None if d is None else list(d) for d in st.displays],
        "banks": st.banks.tolist(),
        "box": st.box.tolist(),
    }


def from_dict(cls, game, d: dict):
    """Build a ``cls`` state from ``to_dict``'s fields as given (after ``check_state``)."""
    s = cls.__new__(cls)
    s.game = game
    s.current_player, s.phase, s.turn = d["current_player"], d["phase"], d["turn"]
    s.start_player, s.over = d["start_player"], d["over"]
    s.hands = np.asarray(d["hands"], dtype=np.int64)
    s.known = np.asarray(d["known"], dtype=np.int64).reshape(s.hands.shape)
    s.deck, s.market = list(d["deck"]), list(d["market"])
    s.displays = [None if x is None else tuple(x) for x in d["displays"]]
    s.banks = np.asarray(d["banks"], dtype=np.int64)
    s.box = np.asarray(d["box"], dtype=np.int64)
    return s


def check_state(game, d: dict) -> None:
    """``ValueError`` naming the field for anything a Go Big game cannot have reached."""
    n = game.num_players
    f = Fields(d, "saved gobig state", FIELDS)
    phase = f.int("phase", 0, len(PHASE_NAMES) - 1)
    cp = f.seat("current_player", n, none=True)
    over = f.bool("over")
    turn = f.int("turn", 0, 10**9)
    start = f.seat("start_player", n)
    hands = f.matrix("hands", n, VALUES)
    known = f.matrix("known", n, VALUES)
    if (known > hands).any():
        p = int(np.flatnonzero((known > hands).any(axis=1))[0])
        f.fail(
            "known",
            f"says player {p} is known to hold cards it does not hold in 'hands' (hidden "
            "information)",
        )
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
        game.deck_counts,
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
    if not over and cp != (start + turn) % n:
        f.fail(
            "current_player",
            f"is {cp}, but turn {turn} ('turn') of a game started by player {start} "
            "('start_player') is another seat's",
        )
    if phase == PHASE_PLAY and (displays[cp] is not None or not hands[cp].any()):
        f.fail(
            "displays",
            f"{displays[cp]!r} of player {cp} ('current_player'), about to play in the play "
            f"'phase': its display was banked, and it holds a card to play ('hands')",
        )
    if phase == PHASE_DRAW and (displays[cp] is None or not deck or not market):
        f.fail(
            "phase",
            f"is draw, which needs the new 'displays' of player {cp} ('current_player') and both "
            "a 'deck' and a 'market' to choose from",
        )
