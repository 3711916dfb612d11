"""What the registry-driven test suites need to know about Big Number (see
envs/core/testing.py)."""

from __future__ import annotations

from collections import Counter

from ..core.testing import add_row, count_names, distinct_orders, set_field
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


def all_deals(game):
    """Every chance outcome of a one-deal Big Number game (``single_deal``): each distinct split
    of the deck into the hands and the cards set aside (N3), and each start seat (N4)."""
    from .rules import BigNumberState

    if not game.single_deal:
        raise ValueError("bignumber: only a single_deal game has all its chance in its deal")
    n, size = game.num_players, game.hand_size
    cards = [c for c, k in enumerate(game.deck_counts) for _ in range(k)]
    labels = [p for p in range(n) for _ in range(size)] + [n] * (len(cards) - n * size)
    sp = game.options["start_player"]
    seats = range(n) if sp is None else [sp]
    done = set()
    for order in distinct_orders(labels):
        hands = tuple(tuple(c for c, q in zip(cards, order) if q == p) for p in range(n))
        if hands in done:  # two decks: equal cards swapped
            continue
        done.add(hands)
        for start in seats:
            yield BigNumberState.from_hands(game, [list(h) for h in hands], leader=start)
