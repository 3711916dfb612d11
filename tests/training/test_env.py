"""The single-agent Gymnasium env: registration, both env checkers, masks, rewards, opponents,
illegal actions and the exact save/restore of its state, on every available game."""

from __future__ import annotations

import json
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

import deckzoo.envs as E
import deckzoo.training as T
from deckzoo.agents.base import RandomAgent
from deckzoo.envs.core.errors import ConfigError, IllegalActionError
from deckzoo.training.single_agent import SingleAgentEnv, gym_id

NAMES = E.registry.env_names()


def short(name):
    return E.registry.short_options(name)


def make(name, **kw):
    return SingleAgentEnv(name, **{**short(name), **kw})


def play_random(env, rng):
    """Play one episode with uniformly random legal actions; returns (rewards, last info)."""
    rewards, info = [], {}
    for _ in range(env.unwrapped.game.max_game_length):  # the learner's decisions are fewer
        mask = env.action_masks()
        _, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        rewards.append(r)
        assert not trunc
        if term:
            return rewards, info
    raise AssertionError("episode did not end")


def test_every_available_game_is_registered_with_gymnasium():
    assert T.GYM_IDS == [gym_id(n) for n in E.registry.env_names()]
    assert gym_id("gobig_v0") == "deckzoo/GoBig-v0" and gym_id("bigwig_v1") == "deckzoo/BigWig-v1"
    for gid in T.GYM_IDS:
        assert gid in gym.registry


def test_gymnasium_make_with_options():
    env = gym.make("deckzoo/GoBig-v0", num_players=3, opponents="random")
    assert env.unwrapped.game.num_players == 3
    obs, info = env.reset(seed=0)
    assert obs.shape == env.observation_space.shape and info["learner_seat"] in range(3)
    mask = env.unwrapped.action_masks()
    assert mask.dtype == bool and mask.any()


@pytest.mark.parametrize("name", NAMES)
def test_env_checkers(name):
    env = make(name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any checker warning fails the test
        gym_check_env(env, skip_render_check=True)
        sb3_check_env(make(name), warn=True)


@pytest.mark.parametrize("name", NAMES)
def test_masks_observations_and_win_reward(name):
    env = make(name, opponents="random")
    rng = np.random.default_rng(1)
    env.reset(seed=3)
    for _ in range(3):
        seat = env.seat
        assert env.game_state.current_player == seat
        np.testing.assert_array_equal(env.action_masks(), env.game_state.legal_mask())
        np.testing.assert_array_equal(env.game_state.observe(seat), env.game_state.observe(seat))
        rewards, info = play_random(env, rng)
        assert all(r == 0.0 for r in rewards[:-1])
        assert rewards[-1] == pytest.approx(float(env.game_state.returns()[seat]))
        assert info["learner_seat"] == seat and info["winners"] == sorted(env.game_state.winners())
        env.reset()


def test_global_state_for_a_centralised_critic():
    env = make(NAMES[0])
    with pytest.raises(RuntimeError, match="reset"):
        env.state()
    env.reset(seed=4)
    x = env.state()
    assert env.state_space.contains(x) and np.array_equal(x, env.game_state.global_state())


def test_score_and_dense_rewards():
    rng = np.random.default_rng(2)
    env = make("gobig_v0", reward="score")
    env.reset(seed=5)
    rewards, _ = play_random(env, rng)
    assert rewards[-1] == pytest.approx(float(env.game_state.score_returns()[env.seat]))
    env = make("gobig_v0", reward="dense")
    env.reset(seed=5)
    rewards, _ = play_random(env, rng)
    game = env.game
    assert sum(rewards) == pytest.approx(
        game.score_sign * env.game_state.scores()[env.seat] / game.score_scale
    )


def test_learner_seat_fixed_and_varied():
    env = make("gobig_v0", learner_seat=2)
    env.reset(seed=0)
    seats = set()
    for s in range(20):
        env.reset(seed=s)
        seats.add(env.seat)
    assert seats == {2}
    env = make("gobig_v0")
    assert {env.reset(seed=s)[1]["learner_seat"] for s in range(40)} == set(
        range(env.game.num_players)
    )


def test_same_seed_same_episode():
    def trace(seed):
        env = make("gobig_v0", opponents={"random": 1.0, "pool": 1.0})
        env.set_pool([RandomAgent(0)])
        obs, _ = env.reset(seed=seed)
        out = [obs]
        rng = np.random.default_rng(0)
        for _ in range(30):
            obs, _, term, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            out.append(obs)
            if term:
                out.append(env.reset()[0])
        return np.stack(out)

    np.testing.assert_array_equal(trace(7), trace(7))
    assert not np.array_equal(trace(7), trace(8))


def test_illegal_actions_penalize_or_raise():
    env = make("gobig_v0")
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    before = env.game_state.to_dict()
    _, r, term, trunc, info = env.step(illegal)
    assert (r, term, trunc, info) == (-1.0, True, False, {"illegal_action": True})
    assert env.game_state.to_dict() == before
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env = make("gobig_v0", illegal_action="raise")
    env.reset(seed=0)
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert env.game_state.current_player == env.seat


@pytest.mark.parametrize(
    "kwargs,key",
    [
        ({"opponents": "nobody"}, "nobody"),
        ({"opponents": ["random"]}, "3 opponents"),
        ({"opponents": {"random": -1}}, "weight of 'random'"),
        ({"opponents": {"random": 0}}, "sum to 0"),
        ({"opponents": 3}, "opponents"),
        ({"reward": "points"}, "reward"),
        ({"illegal_action": "ignore"}, "illegal_action"),
        ({"learner_seat": 4}, "learner_seat"),
        ({"num_players": 9}, "num_players"),
        ({"no_such_option": 1}, "no_such_option"),
    ],
)
def test_bad_options_name_the_key(kwargs, key):
    with pytest.raises(ConfigError, match=key):
        SingleAgentEnv("gobig_v0", **kwargs)


def test_opponent_mix_and_empty_pool_falls_back_to_random():
    env = make("gobig_v0", opponents={"pool": 1.0})
    env.reset(seed=0)
    assert sorted(env.seat_labels) == ["learner", "random", "random", "random"]
    env.set_pool([RandomAgent(1), RandomAgent(2)])
    labels = set()
    for s in range(20):
        env.reset(seed=s)
        labels.update(env.seat_labels)
    assert labels == {"learner", "pool[0]", "pool[1]"}
    env = make("gobig_v0", opponents={"latest": 1.0})
    env.set_pool([RandomAgent(1), RandomAgent(2)])
    env.reset(seed=0)
    assert sorted(env.seat_labels) == ["learner", "pool[1]", "pool[1]", "pool[1]"]


def test_fixed_opponent_list_in_seat_order():
    a, b = RandomAgent(1), RandomAgent(2)
    env = make("gobig_v0", opponents=[a, b, "random"], learner_seat=1)
    env.reset(seed=0)
    assert env.seat_agents[2] is a and env.seat_agents[3] is b and env.seat_agents[1] is None
    assert env.seat_labels == ["random", "learner", "random", "random"]


@pytest.mark.parametrize("name", NAMES)
def test_env_state_round_trip_continues_identically(name):
    """get_env_state/set_env_state: a restored env replays exactly what the original does; the
    state is plain JSON (nothing pickled) and heuristic opponents' own state travels with it."""
    from deckzoo.agents.registry import has_heuristic

    mix = {"random": 1.0, "heuristic": 1.0, "pool": 1.0}
    if not has_heuristic(E.game_class(name).name):  # a game may ship none (docs/adding-a-game)
        del mix["heuristic"]
    env = make(name, opponents=mix, episode_stats=True)
    pool = [RandomAgent(5), RandomAgent(6)]
    env.set_pool(pool)
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    for _ in range(7):
        _, _, term, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if term:
            env.reset()
    blob = json.loads(json.dumps(env.get_env_state()))
    other = make(name, opponents=mix, episode_stats=True)
    other.set_pool(pool)
    other.reset(seed=999)
    other.set_env_state(blob)

    def run(e):
        r = np.random.default_rng(1)
        out = []
        for _ in range(300):
            obs, rew, term, _, info = e.step(int(r.choice(np.flatnonzero(e.action_masks()))))
            out.append((obs.tobytes(), rew, term, repr(info)))
            if term:
                obs, info = e.reset()
                out.append((obs.tobytes(), repr(info)))
        return out

    assert run(env) == run(other)


def test_episode_stats():
    env = make("gobig_v0", episode_stats=True)
    env.reset(seed=0)
    rewards, info = play_random(env, np.random.default_rng(0))
    assert info["episode"] == {"r": pytest.approx(sum(rewards)), "l": len(rewards)}
    assert info["is_success"] == (env.seat in env.game_state.winners())


def test_max_steps_truncates():
    env = make("gobig_v0", max_steps=3, episode_stats=True)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    out = [env.step(int(rng.choice(np.flatnonzero(env.action_masks())))) for _ in range(3)]
    assert [o[3] for o in out] == [False, False, True] and not any(o[2] for o in out)
    assert out[-1][4]["episode"]["l"] == 3 and out[-1][4]["is_success"] is False
    with pytest.raises(RuntimeError):
        env.step(0)
    with pytest.raises(ConfigError, match="max_steps"):
        make("gobig_v0", max_steps=0)


def test_render_ansi():
    env = make("gobig_v0", render_mode="ansi")
    env.reset(seed=0)
    assert f"learner: seat {env.seat}" in env.render()


def test_maskable_ppo_runs_on_the_registered_env():
    """sb3-contrib finds action_masks() through Gymnasium's wrappers and never picks an illegal
    action."""
    from sb3_contrib import MaskablePPO

    env = gym.make("deckzoo/GoBig-v0", num_players=3, opponents="random", illegal_action="raise")
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=64,
        batch_size=32,
        n_epochs=1,
        seed=0,
        device="cpu",
        policy_kwargs={"net_arch": [16]},
    )
    model.learn(128)  # an illegal action would raise
    assert model.num_timesteps == 128
