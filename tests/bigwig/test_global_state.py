"""BigWig's global state: hands, wells, face-down commits, the draw pile (counts + next 12) and
the whole altar pile in order."""

from __future__ import annotations

import numpy as np

from deckzoo.envs.bigwig.global_state import DRAW_WINDOW
from deckzoo.envs.bigwig.rules import PHASE_COMMIT, WELL, BigWigGame


def _changed(state, edit) -> bool:
    other = state.clone()
    edit(other)
    return not np.array_equal(other.global_state(), state.global_state())


def _swap(pile, i: int, j: int) -> None:
    pile[-1 - i], pile[-1 - j] = pile[-1 - j], pile[-1 - i]


def test_the_whole_altar_pile_order_is_encoded():
    state = BigWigGame(num_players=4).new_state(1)
    small = state.small
    j = next(j for j in range(1, len(small)) if small[-1 - j] != small[-1])
    assert _changed(state, lambda s: _swap(s.small, 0, j))
    bottom = len(small) - 1  # the last card of the pile, 20-odd rounds away
    j = next(j for j in range(bottom) if small[-1 - j] != small[0])
    assert _changed(state, lambda s: _swap(s.small, bottom, j))


def test_the_draw_pile_shows_its_next_cards_in_order():
    state = BigWigGame(num_players=4).new_state(2)
    draw = state.draw
    j = next(j for j in range(1, DRAW_WINDOW) if draw[-1 - j] != draw[-1])
    assert _changed(state, lambda s: _swap(s.draw, 0, j))
    v = state.game.state_layout.split(state.global_state())
    assert [int(np.argmax(r)) for r in v["draw_next"]] == draw[::-1][:DRAW_WINDOW]


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
