"""The single-agent gymnasium.vector view: the learner's seat against batched opponents, checked
against the scalar engine playing the same games (chance matched as in the differential tests)."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.vector import VectorEnv

from deckzoo.envs import ConfigError, game_class, vector
from deckzoo.envs.core.batched import StateDeals

from .helpers import Twin, bits, gym_options, random_actions

LEARNER = 1


@pytest.mark.parametrize("name", vector.available())
def test_gym_view_plays_the_scalar_games(name):
    B = 12
    options = gym_options(name)
    game = game_class(name)(**options)
    twin = Twin(game, "win", np.random.default_rng(0), [None] * B, [None] * B)
    expect_done, expect_reward, finals = np.zeros(B, bool), np.zeros(B, np.float32), {}

    def move(i: int, action: int) -> None:
        s = twin.states[i]
        s.apply(action)
        if s.is_terminal():
            expect_done[i], expect_reward[i] = True, s.returns()[LEARNER]
            finals[i] = s.observe(LEARNER)

    def opponents(obs, mask):
        """The first legal action; the scalar twins make the same move first."""
        actions = mask.argmax(axis=1)
        for i, s in enumerate(twin.states):
            if s.current_player != LEARNER:
                assert np.array_equal(bits(obs[i]), bits(s.observe(s.current_player)))
                assert np.array_equal(mask[i], s.legal_mask())
                move(i, int(actions[i]))
        return actions

    envs = vector.make_gym(
        name,
        num_envs=B,
        seed=0,
        opponents=opponents,
        learner_seat=LEARNER,
        **options,
    )
    assert isinstance(envs, VectorEnv) and envs.observation_space.shape == (B, envs.env.obs_dim)
    envs.env.set_chance(StateDeals(envs.env.engine, twin.provide))
    obs, info = envs.reset()
    rng = np.random.default_rng(1)
    episodes = 0
    for _ in range(120):
        for i, s in enumerate(twin.states):
            assert s.current_player == LEARNER
            assert np.array_equal(bits(obs[i]), bits(s.observe(LEARNER)))
            assert np.array_equal(info["action_mask"][i], s.legal_mask())
        actions = random_actions(info["action_mask"], rng)
        expect_done[:], expect_reward[:] = False, 0.0
        finals.clear()
        for i in range(B):
            move(i, int(actions[i]))
        # opponents whose game goes on move inside the step (through ``opponents``); a finished
        # lane's twin is replaced by its next game when the batched env restarts it
        obs, reward, terminated, truncated, info = envs.step(actions)
        assert np.array_equal(terminated, expect_done) and not truncated.any()
        assert np.array_equal(reward, expect_reward)
        for i, f in finals.items():
            assert info["_final_obs"][i] and np.array_equal(bits(info["final_obs"][i]), bits(f))
        episodes += int(terminated.sum())
    assert episodes >= B


def test_gym_view_with_random_opponents_and_learner_seats():
    envs = vector.make_gym(
        "wizard_v0", num_envs=32, seed=3, num_players=4, num_rounds=2, reward="score"
    )
    _, info = envs.reset(seed=3)
    rng = np.random.default_rng(0)
    seats = set()
    for _ in range(40):
        seats.update(envs.seat.tolist())
        assert (envs.env.engine.cur == envs.seat).all()  # the learner is to act in every lane
        assert np.array_equal(envs.action_masks(), info["action_mask"])
        _, reward, terminated, _, info = envs.step(random_actions(info["action_mask"], rng))
        assert not reward[~terminated].any()  # score rewards come at the end only
    assert seats == {0, 1, 2, 3}


def test_gym_view_penalizes_an_illegal_learner_action():
    envs = vector.make_gym("gobig_v0", num_envs=4, seed=0)
    _, info = envs.reset()
    actions = random_actions(info["action_mask"], np.random.default_rng(0))
    actions[1] = np.flatnonzero(~info["action_mask"][1])[0]
    _, reward, terminated, _, info = envs.step(actions)
    assert reward[1] == -1.0 and terminated[1] and info["illegal_action"][1]


def test_gym_view_options_are_checked():
    with pytest.raises(ConfigError, match="learner_seat"):
        vector.make_gym("gobig_v0", num_envs=2, learner_seat=9)
    with pytest.raises(ConfigError, match="opponents"):
        vector.make_gym("gobig_v0", num_envs=2, opponents="heuristic")
