"""What the registry-driven test suites need to know about Big Number (see
envs/core/testing.py)."""

from __future__ import annotations

from collections import Counter

from ..core.testing import add_row, count_names, set_field
from .cards import card_name


def hand_names(state, p: int) -> Counter:
    """Seat ``p``'s hand as card name -> copies."""
    return count_names(state.hands[p], card_name)


SCREENSHOT_AT = 0.45
CORRUPTION_PLAYERS = 4


def corruptible(state) -> bool:
    """The first deal, with one set in the middle."""
    return (
        not state.is_terminal()
        and bool(state.middle)
        and state.deal == 0
        and len(state.middle) == 1
    )


CORRUPTIONS = [
    ("hands", add_row("hands")),
    ("known", lambda st: st["known"].__setitem__(0, [1] * 36)),  # hidden info: not in the hand
    ("hands/aside", lambda st: st["aside"].__setitem__(0, st["aside"][0] + 1)),
    ("phase", set_field("phase", 99)),
    ("owner", set_field("owner", None)),
    ("middle", set_field("middle", [0, 4])),  # not a set (different rank and suit)
    ("passes", set_field("passes", 7)),
    ("scores", set_field("scores", [5, 0, 0, 0])),
    ("history", lambda st: st["history"].append([1, 0, 0, 0])),
    ("deal", set_field("deal", -1)),
]

# the batched engine against the scalar one: (options, lanes, steps), every lane through games
DIFFERENTIAL_CASES = [
    ({"num_players": 4}, 16, 1700),
    ({"num_players": 2, "single_deal": True, "reward": "score"}, 48, 150),
    ({"num_players": 3, "target": 5, "reward": "dense"}, 48, 250),
    ({"num_players": 3, "two_decks": True, "target": 5}, 48, 300),
    ({"num_players": 5, "target": 5, "start_player": 1}, 24, 450),
    ({"num_players": 6, "single_deal": True, "reward": "dense"}, 24, 250),
]


def check_differential(options: dict, seen: dict) -> None:
    """A game of several deals dealt again within the game."""
    if not options.get("single_deal", False):
        assert seen["deals"] > 0, "no new deal within a game"


INFORMATION_CONFIGS = [{"num_players": 4, "target": 5}, {"num_players": 5, "single_deal": True}]
GYM_OPTIONS = {"target": 3}  # several deals a game: the view's deals come from the twins too
