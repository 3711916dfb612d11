"""Midgard's global state: hands, rewards, the Thing (counts + next 12), the whole reward pile in
order, the challenge deck (which, and the next 6 in order)."""

from __future__ import annotations

import numpy as np

from deckzoo.envs.midgard.global_state import CHALLENGE_WINDOW, THING_WINDOW
from deckzoo.envs.midgard.rules import MidgardGame


def _changed(state, edit) -> bool:
    other = state.clone()
    edit(other)
    return not np.array_equal(other.global_state(), state.global_state())


def _swap(pile, i: int, j: int) -> None:
    pile[-1 - i], pile[-1 - j] = pile[-1 - j], pile[-1 - i]


def test_deck_orders_that_decide_the_future_are_encoded():
    state = MidgardGame(num_players=4).new_state(6)
    thing, rewards = state.thing, state.reward_deck
    j = next(j for j in range(1, THING_WINDOW) if thing[-1 - j] != thing[-1])
    assert _changed(state, lambda s: _swap(s.thing, 0, j))
    bottom = len(rewards) - 1  # the reward pile is encoded whole
    j = next(j for j in range(bottom) if rewards[-1 - j] != rewards[0])
    assert _changed(state, lambda s: _swap(s.reward_deck, bottom, j))
    assert _changed(state, lambda s: _swap(s.ch_deck, 0, CHALLENGE_WINDOW - 1))


def test_hidden_rewards_and_hands_of_every_seat():
    state = MidgardGame(num_players=3).new_state(2)
    state._draw_reward(2)  # a secret reward for seat 2
    k = int(np.flatnonzero(state.rewards[2])[0])
    v = state.game.state_layout.split(state.global_state())
    assert np.allclose(v["hands"] * 8, state.hands)
    assert v["rewards"][2, k] > 0 and v["rewards"].sum() == v["rewards"][2, k]
    assert v["challenge_pile"].sum() == len(state.ch_deck)
