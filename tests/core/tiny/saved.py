"""A saved Tiny state: its fields (``to_dict``, ``from_dict``) and their check before a state is
built (``check_state``, see envs/core/saved.py): each field's type and size, card conservation,
and whose turn it is."""

from __future__ import annotations

import numpy as np

from ..core.saved import Fields, check_conservation
from .cards import COPIES, HAND, VALUES

FIELDS = ("current_player", "hands", "rest", "played")


def to_dict(state) -> dict:
    return {
        "current_player": state.current_player,
        "hands": state.hands,
        "rest": state.rest,
        "played": state.played,
    }


def from_dict(cls, game, d: dict):
    """The state of ``to_dict``'s fields, as given (``check_state`` has checked them)."""
    s = cls()
    s.game, s.current_player = game, d["current_player"]
    s.hands, s.rest = [list(h) for h in d["hands"]], list(d["rest"])
    s.played = [list(x) for x in d["played"]]
    return s


def check_state(game, d: dict) -> None:
    """``ValueError`` naming the field for anything a Tiny game cannot have reached."""
    n = game.num_players
    f = Fields(d, "saved tiny state", FIELDS)
    cp = f.seat("current_player", n, none=True)
    hands = [
        f.ints(f"hands[{p}]", 0, VALUES - 1, value=h) for p, h in enumerate(f.list("hands", n))
    ]
    played = [
        f.ints(f"played[{p}]", 0, VALUES - 1, value=x) for p, x in enumerate(f.list("played", n))
    ]
    rest = f.ints("rest", 0, VALUES - 1, VALUES * COPIES - HAND * n)
    for p in range(n):
        if len(hands[p]) + len(played[p]) != HAND:
            f.fail(
                "hands",
                f"player {p} holds {len(hands[p])} and played {len(played[p])} cards; "
                f"each seat is dealt {HAND}",
            )
    turns = sum(map(len, played))  # seats play in turn from player_0
    expected = None if turns == HAND * n else turns % n
    if any(len(played[p]) != turns // n + (p < turns % n) for p in range(n)):
        f.fail("played", f"does not fit the turn order ({turns} cards played)")
    if cp != expected:
        f.fail(
            "current_player",
            f"is {cp}, but after {turns} cards played ('played') it is {expected}'s turn",
        )
    cards = [c for pile in (*hands, *played, rest) for c in pile]
    check_conservation(
        "saved tiny state",
        np.bincount(cards, minlength=VALUES),
        np.full(VALUES, COPIES),
        "hands/played/rest",
    )
