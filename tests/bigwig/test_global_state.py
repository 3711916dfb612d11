"""BigWig's global state: hands, wells, face-down commits, the draw pile (counts + next 12) and
the whole altar pile in order."""

from __future__ import annotations

import numpy as np

from deckzoo.envs.bigwig.global_state import DRAW_WINDOW
from deckzoo.envs.bigwig.rules import PHASE_COMMIT, WELL, BigWigGame

from ..core.piles import edit_changes_state, first_other, swap_from_top


def test_the_whole_altar_pile_order_is_encoded():
    state = BigWigGame(num_players=4).new_state(1)
    small = state.small
    j = first_other(small, 0, range(1, len(small)))
    assert edit_changes_state(state, lambda s: swap_from_top(s.small, 0, j))
    bottom = len(small) - 1  # the last card of the pile, 20-odd rounds away
    j = first_other(small, bottom, range(bottom))
    assert edit_changes_state(state, lambda s: swap_from_top(s.small, bottom, j))


def test_the_draw_pile_shows_its_next_cards_in_order():
    state = BigWigGame(num_players=4).new_state(2)
    j = first_other(state.draw, 0, range(1, DRAW_WINDOW))
    assert edit_changes_state(state, lambda s: swap_from_top(s.draw, 0, j))
    v = state.game.state_layout.split(state.global_state())
    assert [int(np.argmax(r)) for r in v["draw_next"]] == state.draw[::-1][:DRAW_WINDOW]


def test_face_down_commits_and_seats_to_act():
    state = BigWigGame(num_players=3).new_state(4)
    while state.phase != PHASE_COMMIT:
        state.apply(int(state.legal_actions()[0]))
    first = state.current_player
    state.apply(int(state.legal_actions()[0]))
    v = state.game.state_layout.split(state.global_state())
    card = state.commits[first]
    assert v["commits"][first, card] == 1 and v["commits"].sum() == 1
    assert v["wells"][first] == (card != WELL)
    assert v["to_act"][first] == 0 and v["to_act"].sum() == len(state.participants) - 1
