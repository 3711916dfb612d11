"""BigWig's global state (``env.state()``, the state's ``global_state``, found here by name): the
full-information encoding for centralised critics.

Seat 0's observation without its own pieces (its hand, well, face-down card, whether it has to
act), in absolute seat order, then what no seat sees: every hand and well, every face-down
commit, which seats still have to commit (or decide about a ticket), the onlookers' ticket
decisions not yet revealed, and the two piles that are the future. The draw pile
gives its counts and its next ``DRAW_WINDOW`` cards in order (a well draw takes 1-3 cards per
player, so 12 cover a round of draws at the table; the rest only by counts, and a reshuffled
discard pile's order is chance still to come). The altar pile is short (24 cards), so its whole
order is encoded: which point card each round brings, and when the holmgangs (and so the end) come.
"""

from __future__ import annotations

import numpy as np

from ..core.global_state import StateLayout, put_pile
from .cards import NUM_KINDS, NUM_SMALL_KINDS, SMALL_COPIES, WELL

DRAW_WINDOW = 12
ALTAR_PILE = int(SMALL_COPIES.sum())  # 24: the whole altar pile fits in its window
_SMALL_SCALE = 1.0 / SMALL_COPIES


def make_state_layout(game) -> StateLayout:
    n = game.num_players
    return StateLayout(
        game.layout,
        ("hand", "well_in_hand", "my_commit", "to_act"),
        [
            ("hands", (n, NUM_KINDS)),  # every seat's large cards per kind / 2
            ("wells", n),  # the seat's well card is in its hand (not in the trick)
            (
                "commits",
                (n, WELL + 1),
            ),  # one-hot face-down card of each seat in the trick (46 = well)
            ("to_act", n),  # seats with a decision now (in a trick: every seat yet to commit)
            ("tickets", n),  # onlookers that decided to join the holmgang, not yet revealed (B27)
            ("draw", NUM_KINDS),  # draw pile cards per kind / 2
            ("draw_next", (DRAW_WINDOW, NUM_KINDS)),  # one-hot kind of the next 12 draws, top first
            ("altar_pile_kinds", NUM_SMALL_KINDS),  # unrevealed small cards per kind / copies
            ("altar_pile_next", (ALTAR_PILE, NUM_SMALL_KINDS)),  # the whole altar pile, top first
        ],
    )


def global_state(s) -> np.ndarray:
    n = s.game.num_players
    buf, v = s.game.state_layout.start(s.observe(0))
    v["hands"] = s.hands * 0.5
    v["wells"] = s.well
    seats = [q for q in range(n) if s.commits[q] >= 0]
    if seats:
        v["commits"][seats, [s.commits[q] for q in seats]] = 1.0
    v["to_act"] = [s.to_act(q) for q in range(n)]
    v["tickets"][s.tickets] = 1.0
    put_pile(v["draw"], v["draw_next"], s.draw, 0.5)
    put_pile(v["altar_pile_kinds"], v["altar_pile_next"], s.small, _SMALL_SCALE)
    return buf
