"""What the registry-driven test suites need to know about Tiny (see envs/core/testing.py); its
batched engine runs on the cases derived from the game."""

from __future__ import annotations

from collections import Counter

from ..core.testing import add_row, set_field


def hand_names(state, p: int) -> Counter:
    """Seat ``p``'s hand as card name -> copies (a card is named by its value)."""
    return Counter(str(c) for c in state.hands[p])


CORRUPTION_PLAYERS = 3


def corruptible(state) -> bool:
    """A game under way: a card played, cards in hands."""
    return not state.is_terminal() and any(state.played)


CORRUPTIONS = [
    ("hands", add_row("hands")),  # a fourth hand in a 3-player game
    ("hands", lambda st: st["hands"][0].append(7)),  # no such card
    ("hands/played/rest", lambda st: st["rest"].__setitem__(0, 5 - st["rest"][0])),  # conservation
    (
        "played",
        lambda st: st["played"][st["current_player"]].append(
            st["hands"][st["current_player"]].pop()
        ),
    ),  # out of turn
    ("rest", set_field("rest", "abc")),
]
