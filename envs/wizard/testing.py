"""What the registry-driven test suites need to know about Wizard (see envs/core/testing.py)."""

from __future__ import annotations

from collections import Counter

from ..core.testing import add_row, count_names, set_field
from .actions import TRUMP_BASE
from .cards import card_name


def hand_names(state, p: int) -> Counter:
    """Seat ``p``'s hand as card name -> copies."""
    return count_names(state.hands[p], card_name)


SCREENSHOT_AT = 0.85
CORRUPTION_PLAYERS = 4


def corruptible(state) -> bool:
    """Round 2 (index), in the play, one card in the trick."""
    return (
        not state.is_terminal() and state.round == 2 and state.phase == 2 and len(state.trick) == 1
    )


def _void_in_held_suit(st: dict) -> None:
    """Hidden information: a seat marked as showed out of a suit it holds."""
    for q, hand in enumerate(st["hands"]):
        for s in range(4):
            if any(hand[s * 13 : (s + 1) * 13]):
                st["voids"][q] |= 1 << s
                return
    raise AssertionError("no suited card in any hand")


CORRUPTIONS = [
    ("hands", add_row("hands")),
    ("hands/played", lambda st: st["stock"].__setitem__(0, st["stock"][0] + 1)),
    ("phase", set_field("phase", 99)),
    ("voids", _void_in_held_suit),
    ("played", lambda st: st["played"].__setitem__(52, st["played"][52] + 1)),
    ("dealer", set_field("dealer", 7)),
    ("led", set_field("led", 3)),
    ("scores", lambda st: st["scores"].__setitem__(0, st["scores"][0] + 10)),
    ("trump", set_field("trump", 9)),
    ("history", lambda st: st["history"].append(st["history"][0] if st["history"] else {})),
]

# the batched engine against the scalar one: (options, lanes, steps), every lane through games
DIFFERENTIAL_CASES = [
    ({"num_players": 4}, 24, 1200),  # the full 15-round game, twice per lane
    ({"num_players": 3, "reward": "score"}, 12, 1300),
    ({"num_players": 5, "num_rounds": 4, "reward": "dense"}, 48, 250),
    ({"num_players": 6, "foresight": False, "num_rounds": 3}, 32, 200),
    ({"num_players": 10, "first_dealer": 3, "reward": "dense"}, 8, 300),
    ({"num_players": 12, "num_rounds": 2, "illegal_action": "penalize"}, 16, 120),
]


def check_differential(options: dict, seen: dict) -> None:
    """New rounds were dealt within games, and (where cards are left over) a Wizard was turned
    up as trump, so the dealer's choice of trump was played too."""
    assert seen["deals"] > 0, "no new round within a game"
    if options["num_players"] <= 5:
        assert any(TRUMP_BASE <= a < TRUMP_BASE + 4 for a in seen["actions"]), "no trump chosen"


INFORMATION_CONFIGS = [
    {"num_players": 4, "num_rounds": 6},
    {"num_players": 3, "num_rounds": 2},  # the Foresight round
]


def all_deals(game):
    """Every chance outcome of a one-round Wizard game (``num_rounds=1``): each first dealer (W3),
    each card dealt to each seat and each flipped card (W4); the stock's order never matters."""
    if game.rounds != 1:
        raise ValueError("wizard: only a one-round game (num_rounds=1) has all its chance at once")
    n = game.num_players
    counts = [int(k) for k in game.deck_counts]
    fd = game.options["first_dealer"]
    dealers = range(n) if fd is None else [fd]
    top = n + 1 if game.deck_size > n else n  # the dealt cards and the flipped one
    for head in _draws(counts, top):
        rest = list(counts)
        for c in head:
            rest[c] -= 1
        deck = list(head) + [c for c, k in enumerate(rest) for _ in range(k)]
        for dealer in dealers:
            s = game.new_state(0)
            s.first_dealer = dealer
            s.deal(1, dealer, deck=deck)
            yield s


def _draws(counts: list[int], k: int):
    """Every distinct sequence of ``k`` cards drawn from a deck of ``counts`` (kinds' copies)."""
    if k == 0:
        yield ()
        return
    for c, left in enumerate(counts):
        if left:
            counts[c] -= 1
            for rest in _draws(counts, k - 1):
                yield (c, *rest)
            counts[c] += 1
