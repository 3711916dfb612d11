"""Scalar lanes (envs/core/scalar_lanes.py), the batched interface over scalar states that the
vector trainer steps for a game without a batched engine: against the AEC env (observations,
masks, players, rewards, terminations, the restarts), illegal actions, skipped observations, and
saving and restoring."""

from __future__ import annotations

import numpy as np
import pytest

import deckzoo.envs as E
from deckzoo.envs import vector
from deckzoo.envs.core.errors import IllegalActionError

CASES = [("midgard", "dense", 400), ("gobig", "win", 300), ("wizard", "score", 300)]


def _options(game: str, reward: str) -> dict:
    return {"num_players": 3, "reward": reward, **E.registry.short_options(game)}


@pytest.mark.parametrize(("game", "reward", "steps"), CASES, ids=[c[0] for c in CASES])
def test_one_lane_plays_the_aec_envs_games(game, reward, steps):
    """One lane seeded s is the AEC env after reset(seed=s), then reset() at each game's end:
    the same observations, masks, seats to act, every seat's reward of every step, terminations,
    and the last observation of each game (by the mover) in ``final_obs``."""
    options = _options(game, reward)
    lanes = vector.make_scalar_lanes(game, num_envs=1, seed=11, **options)
    env = E.make(game, **options)
    env.reset(seed=11)
    obs, mask, player = lanes.reset()
    pick = np.random.default_rng(0)
    ends = 0
    for _ in range(steps):
        agent = env.agent_selection
        seat = env.possible_agents.index(agent)
        seen = env.observe(agent)
        assert player[0] == seat
        np.testing.assert_array_equal(obs[0], seen["observation"].reshape(-1))
        np.testing.assert_array_equal(mask[0], seen["action_mask"].astype(bool))
        action = int(pick.choice(np.flatnonzero(mask[0])))
        obs, mask, player, rewards, done, info = lanes.step(np.array([action]))
        env.step(action)
        expect = [env.rewards[a] for a in env.possible_agents]
        np.testing.assert_array_equal(rewards[0], np.float32(expect))
        over = any(env.terminations.values()) or any(env.truncations.values())
        assert done[0] == over
        if over:
            ends += 1
            last = env.observe(agent)["observation"].reshape(-1)
            np.testing.assert_array_equal(info["final_obs"][0], last)
            assert info["final_player"][0] == seat and not info["illegal"][0]
            env.reset()
    assert ends >= 1  # the short options end games within the steps


def test_lanes_follow_their_own_games_and_restart_in_lane_order():
    """Three lanes: the game seeds are drawn from one generator, lanes in order at reset and then
    each finished lane in lane order; every lane is the scalar game of its seed."""
    options = _options("gobig", "win")
    lanes = vector.make_scalar_lanes("gobig", num_envs=3, seed=4, **options)
    game = E.game_class("gobig")(num_players=3)
    seeds = np.random.default_rng(4)
    twins = [game.new_state(int(seeds.integers(2**63))) for _ in range(3)]
    obs, mask, player = lanes.reset()
    pick = np.random.default_rng(1)
    restarted = 0
    for _ in range(120):
        for i, s in enumerate(twins):
            assert player[i] == s.current_player
            np.testing.assert_array_equal(mask[i], s.legal_mask())
            np.testing.assert_array_equal(obs[i], s.observe(s.current_player).reshape(-1))
        actions = np.array([pick.choice(np.flatnonzero(m)) for m in mask])
        obs, mask, player, _, done, _ = lanes.step(actions)
        for i, s in enumerate(twins):
            s.apply(int(actions[i]))
            assert done[i] == s.is_terminal()
        for i in np.flatnonzero(done):
            twins[i] = game.new_state(int(seeds.integers(2**63)))
            restarted += 1
    assert restarted >= 2


def test_illegal_actions_raise_before_any_lane_changes_or_penalize_one_lane():
    options = {"num_players": 3, **E.registry.short_options("midgard")}
    lanes = vector.make_scalar_lanes("midgard", num_envs=2, seed=0, **options)
    obs, mask, player = lanes.reset()
    legal = mask.argmax(axis=1)
    illegal = np.flatnonzero(~mask[1])[0]
    before = [s.to_dict() for s in lanes.states]
    with pytest.raises(IllegalActionError, match="lane 1"):
        lanes.step(np.array([legal[0], illegal]))
    assert [s.to_dict() for s in lanes.states] == before
    penal = vector.make_scalar_lanes(
        "midgard", num_envs=2, seed=0, illegal_action="penalize", **options
    )
    penal.reset()
    _, _, _, rewards, done, info = penal.step(np.array([legal[0], illegal]))
    assert done.tolist() == [False, True] and info["illegal"].tolist() == [False, True]
    assert rewards[1].tolist() == [-1.0 if s == player[1] else 0.0 for s in range(3)]
    np.testing.assert_array_equal(info["final_obs"][0], obs[1])  # the game as it was
    assert penal.games.tolist() == [1, 2]


def test_skipped_observations_are_zeros_and_masks_stay_exact():
    """``observe_seats`` and ``observe_forced=False`` leave rows the caller ignores unencoded."""
    options = {"num_players": 3, **E.registry.short_options("midgard")}
    full = vector.make_scalar_lanes("midgard", num_envs=4, seed=2, **options)
    part = vector.make_scalar_lanes("midgard", num_envs=4, seed=2, **options)
    part.observe_seats = np.array([[True, False, True]] * 4)
    part.observe_forced = False
    a, b = full.reset(), part.reset()
    pick = np.random.default_rng(3)
    skipped = forced = 0
    for _ in range(200):
        (obs, mask, player), (obs2, mask2, player2) = a[:3], b[:3]
        np.testing.assert_array_equal(mask, mask2)
        np.testing.assert_array_equal(player, player2)
        want = (player != 1) & (mask.sum(axis=1) > 1)
        np.testing.assert_array_equal(obs2[want], obs[want])
        assert not obs2[~want].any()
        skipped += int((player == 1).sum())
        forced += int((mask.sum(axis=1) == 1).sum())
        actions = np.array([pick.choice(np.flatnonzero(m)) for m in mask])
        a, b = full.step(actions), part.step(actions)
    assert skipped and forced


def test_saved_lanes_continue_exactly():
    options = {"num_players": 3, "reward": "dense", **E.registry.short_options("midgard")}
    lanes = vector.make_scalar_lanes("midgard", num_envs=3, seed=5, **options)
    _, mask, _ = lanes.reset()
    pick = np.random.default_rng(0)

    def play(env, mask, n):
        out = []
        for _ in range(n):
            step = env.step(np.array([pick.choice(np.flatnonzero(m)) for m in mask]))
            mask = step.mask
            out.append((step.obs, step.rewards, step.terminated))
        return out, mask

    before, mask = play(lanes, mask, 150)
    arrays, meta = lanes.get_state()
    copy = vector.make_scalar_lanes("midgard", num_envs=3, seed=99, **options)
    copy.reset()
    obs_c, mask_c, player_c = copy.set_state(arrays, meta)
    np.testing.assert_array_equal(mask_c, mask)
    np.testing.assert_array_equal(obs_c, before[-1][0])
    np.testing.assert_array_equal(player_c, [s.current_player for s in lanes.states])
    state = pick.bit_generator.state
    a, _ = play(lanes, mask, 300)
    pick.bit_generator.state = state
    b, _ = play(copy, mask_c, 300)
    for x, y in zip(a, b):
        for u, v in zip(x, y):
            np.testing.assert_array_equal(u, v)
    assert any(t.any() for _, _, t in a)  # a game ended and restarted after the restore
