"""Build explicit Go Big positions (never relying on what a seed deals)."""

import numpy as np

from deckzoo.envs.gobig.rules import COPIES, VALUES, GoBigGame, GoBigState


def counts(cards) -> list[int]:
    c = [0] * VALUES
    for v in cards:
        c[v - 1] += 1
    return c


def position(
    hands,
    displays=None,
    deck=(),
    market=(),
    banks=None,
    box=None,
    current=0,
    end_rule="after_draw",
    conserve=True,
) -> GoBigState:
    """A position with the given hands (lists of values) etc.; when ``conserve`` the cards not
    placed anywhere are put in the box so that conservation holds (the box only matters for
    information)."""
    n = len(hands)
    game = GoBigGame(num_players=n, end_rule=end_rule)
    displays = displays or [None] * n
    banks = banks or [[] for _ in range(n)]
    box_cards = list(box or [])
    placed = np.array(
        counts(
            [c for h in hands for c in h]
            + list(deck)
            + list(market)
            + box_cards
            + [c for b in banks for c in b]
        )
    )
    for d in displays:
        if d is not None:
            placed[d[0] - 1] += d[1]
    box_counts = np.array(counts(box_cards))
    if conserve:
        assert (placed <= COPIES).all(), "more than 13 copies of a value"
        box_counts += COPIES - placed
    d = {
        "current_player": current,
        "phase": 0,
        "turn": current,  # seat 0 started: turn ``current`` is that seat's, as from_dict checks
        "start_player": 0,
        "over": False,
        "hands": [counts(h) for h in hands],
        "known": [[0] * VALUES for _ in hands],
        "deck": list(deck),
        "market": list(market),
        "displays": [None if x is None else list(x) for x in displays],
        "banks": [counts(b) for b in banks],
        "box": box_counts.tolist(),
    }
    state = GoBigState._from_dict(game, d)
    state.rng = np.random.default_rng(0)
    return state
