"""One suite run on every registered env and every supported player count."""

from __future__ import annotations

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

import deckzoo.envs as E
from deckzoo.envs import ConfigError, IllegalActionError
from deckzoo.envs.core.conformance import check_bad_inputs, check_determinism, check_random_play

CASES = [(name, n) for name, mod in E.ENVS.items() for n in mod.Game.supported_players()]
IDS = [f"{name}-{n}p" for name, n in CASES]


def short(name):
    """Options that keep long games short in the generic suite (games document them)."""
    return E.registry.short_options(name)


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_pettingzoo_api(name, n):
    api_test(E.make(name, num_players=n, **short(name)), num_cycles=200)


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_pettingzoo_seed(name, n):
    seed_test(lambda: E.make(name, num_players=n, **short(name)), num_cycles=200)


PARALLEL = [(name, n) for name, n in CASES if E.game_class(name).simultaneous]


@pytest.mark.parametrize("name,n", PARALLEL, ids=[f"{a}-{b}p" for a, b in PARALLEL])
def test_pettingzoo_parallel(name, n):
    parallel_api_test(E.make(name, parallel=True, num_players=n, **short(name)), num_cycles=200)
    # PettingZoo's parallel_seed_test samples the action spaces without masks; a mask-less sample
    # is a legal action (parallel.LegalDiscrete), so it runs under the default illegal_action.
    parallel_seed_test(lambda: E.make(name, parallel=True, num_players=n, **short(name)))


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_engine_conformance(name, n):
    game = E.game_class(name)(num_players=n, **short(name))
    check_random_play(game, num_games=3, seed=n, deep_every=13)
    check_determinism(game, seed=n, num_games=2)


@pytest.mark.parametrize("name", E.registry.env_names())
def test_bad_actions_raise_and_change_nothing(name):
    game = E.game_class(name)(**short(name))
    rng = np.random.default_rng(5)
    state = game.new_state(3)
    for _ in range(60):
        if state.is_terminal():
            break
        check_bad_inputs(state)
        state.apply(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("name", E.registry.env_names())
def test_aec_illegal_raise_keeps_state_and_penalize_ends(name):
    env = E.make(name, **short(name))
    env.reset(seed=1)
    obs, *_ = env.last()
    bad = (
        int(np.flatnonzero(obs["action_mask"] == 0)[0])
        if (obs["action_mask"] == 0).any()
        else env.action_space(env.agent_selection).n
    )
    before = env.unwrapped.game_state.to_dict()
    with pytest.raises(IllegalActionError):
        env.step(bad)
    assert env.unwrapped.game_state.to_dict() == before

    env = E.make(name, illegal_action="penalize", **short(name))
    env.reset(seed=1)
    offender = env.agent_selection
    env.step(bad)
    assert all(env.terminations.values())
    assert env._cumulative_rewards[offender] == -1.0
    assert all(r == 0.0 for a, r in env._cumulative_rewards.items() if a != offender)
    assert env.infos[offender]["illegal_action"] is True


@pytest.mark.parametrize("name", E.registry.env_names())
@pytest.mark.parametrize("reward", ["win", "score", "dense"])
def test_reward_modes(name, reward):
    """win: zero-sum and equal to the engine's returns; score: centred; dense: sums to the
    scores."""
    env = E.make(name, reward=reward, **short(name))
    env.reset(seed=7)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, rew, term, trunc, _info = env.last()
        totals[agent] += rew
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    state = env.unwrapped.game_state
    got = np.array([totals[a] for a in env.possible_agents])
    game = state.game
    if reward == "win":
        assert np.allclose(got, state.returns()) and abs(got.sum()) < 1e-9
    elif reward == "score":
        assert np.allclose(got, state.score_returns()) and abs(got.sum()) < 1e-9
    else:
        assert np.allclose(
            got,
            game.score_sign
            * (np.asarray(state.scores(), float) - _initial_scores(game))
            / game.score_scale,
        )


def _initial_scores(game):
    return np.asarray(game.new_state(0).scores(), float)


@pytest.mark.parametrize("name", E.registry.env_names())
def test_render_modes(name, capsys):
    env = E.make(name, render_mode="ansi", **short(name))
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "player_" in text
    env = E.make(name, render_mode="human", **short(name))
    env.reset(seed=0)
    assert env.render() is None
    assert "player_" in capsys.readouterr().out


@pytest.mark.parametrize("name", E.registry.env_names())
def test_registries(name):
    env_id = "deckzoo/" + name.replace("_v", "-v")
    env = pettingzoo.make("aec", env_id, **short(name))
    env.reset(seed=0)
    assert env.unwrapped.game == E.make(name, **short(name)).unwrapped.game
    assert E.game_class(name.split("_v")[0]) is E.game_class(name)


@pytest.mark.parametrize("name", E.registry.env_names())
def test_bad_config_names_the_key(name):
    with pytest.raises(ConfigError, match="no_such_option"):
        E.make(name, no_such_option=1)
    with pytest.raises(ConfigError, match="num_players"):
        E.make(name, num_players=99)
    with pytest.raises(ConfigError, match="num_players"):
        E.make(name, num_players="4")
    with pytest.raises(ConfigError, match="reward"):
        E.make(name, reward="points")
    with pytest.raises(ConfigError, match="illegal_action"):
        E.make(name, illegal_action="ignore")
    with pytest.raises(ConfigError, match="render_mode"):
        E.make(name, render_mode="rgb_array")


def test_unknown_env():
    with pytest.raises(ConfigError, match="unknown env"):
        E.make("poker_v0")


@pytest.mark.parametrize("name", E.registry.env_names())
def test_reset_seed_stream_is_reproducible(name):
    def run():
        env = E.make(name, **short(name))
        env.reset(seed=11)
        first = env.unwrapped.game_state.to_dict()
        env.reset()
        return first, env.unwrapped.game_state.to_dict()

    assert run() == run()
