"""What the registry-driven test suites need to know about Go Big (see envs/core/testing.py)."""

from __future__ import annotations

from collections import Counter

import numpy as np

from ..core.testing import add_row, count_names, distinct_orders, set_field


def hand_names(state, p: int) -> Counter:
    """Seat ``p``'s hand as card name -> copies (the cards are named by their values, 1-13)."""
    return count_names(state.hands[p], lambda k: str(k + 1))


CORRUPTION_PLAYERS = 4


def corruptible(state) -> bool:
    """A position with cards still in the deck, a few turns in."""
    return not state.is_terminal() and len(state.deck) > 4 and state.turn > 3


CORRUPTIONS = [
    ("hands", add_row("hands")),  # 5 hands in a 4-player game
    ("hands", lambda st: st["hands"][0].__setitem__(0, st["hands"][0][0] + 5)),  # 96 of 91 cards
    ("hands/deck", lambda st: st["deck"].pop()),  # a vanished card
    ("phase", set_field("phase", 99)),
    ("hands", set_field("hands", "abc")),
    ("deck", lambda st: st["deck"].append(9)),
    ("displays", set_field("displays", [[9, 1]] * 4)),
    ("displays", lambda st: st["displays"].__setitem__(0, [3, 4])),
    ("market", lambda st: st["market"].extend([1, 2])),
    ("over", set_field("over", True)),
    ("start_player", set_field("start_player", -1)),
    ("known", lambda st: st["known"].__setitem__(0, [13] * 7)),  # hidden information
]

# the batched engine against the scalar one: (options, lanes, steps), every lane through games
DIFFERENTIAL_CASES = [
    ({"num_players": 4}, 48, 250),
    ({"num_players": 2, "reward": "score"}, 48, 200),
    ({"num_players": 3, "end_rule": "literal", "reward": "dense"}, 48, 250),
    ({"num_players": 6, "start_player": 2}, 24, 250),
]
INFORMATION_CONFIGS = [{"num_players": 3}]


def all_deals(game):
    """Every chance outcome of a Go Big game: each distinct order of its deck (dealt as the
    engine deals: six cards a seat from the top, then the market) and each start seat (G3)."""
    deck = [v for v in range(1, game.values + 1) for _ in range(game.copies)]
    sp = game.options["start_player"]
    seats = range(game.num_players) if sp is None else [sp]
    for order in distinct_orders(deck):
        for start in seats:
            s = game.new_state(0)
            cards = list(order)
            s.hands = np.zeros_like(s.hands)
            for p in range(game.num_players):
                for _ in range(game.hand_size):
                    s.hands[p, cards.pop() - 1] += 1
            s.market = [cards.pop() for _ in range(len(s.market))]
            s.deck = cards
            s.start_player = s.current_player = start
            yield s
