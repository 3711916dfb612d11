"""Midgard's global state: hands, rewards, the Thing (counts + next 12), the whole reward pile in
order, the challenge deck (which, and the next 6 in order)."""

from __future__ import annotations

import numpy as np

from deckzoo.envs.midgard.global_state import CHALLENGE_WINDOW, THING_WINDOW
from deckzoo.envs.midgard.rules import MidgardGame

from ..core.piles import edit_changes_state, first_other, swap_from_top


def test_deck_orders_that_decide_the_future_are_encoded():
    state = MidgardGame(num_players=4).new_state(6)
    thing, rewards = state.thing, state.reward_deck
    j = first_other(thing, 0, range(1, THING_WINDOW))
    assert edit_changes_state(state, lambda s: swap_from_top(s.thing, 0, j))
    bottom = len(rewards) - 1  # the reward pile is encoded whole
    j = first_other(rewards, bottom, range(bottom))
    assert edit_changes_state(state, lambda s: swap_from_top(s.reward_deck, bottom, j))
    assert edit_changes_state(state, lambda s: swap_from_top(s.ch_deck, 0, CHALLENGE_WINDOW - 1))


def test_hidden_rewards_and_hands_of_every_seat():
    state = MidgardGame(num_players=3).new_state(2)
    state._draw_reward(2)  # a secret reward for seat 2
    k = int(np.flatnonzero(state.rewards[2])[0])
    v = state.game.state_layout.split(state.global_state())
    assert np.allclose(v["hands"] * 8, state.hands)
    assert v["rewards"][2, k] > 0 and v["rewards"].sum() == v["rewards"][2, k]
    assert v["challenge_pile"].sum() == len(state.ch_deck)
