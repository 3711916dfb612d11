"""Bad input to the adapters: reset's seed and options, an env used before reset, and every kind of
bad argument to the Parallel env's step (an IllegalActionError, so illegal_action="penalize"
applies, with the state unchanged)."""

from __future__ import annotations

import numpy as np
import pytest

import deckzoo.envs as E
from deckzoo.envs import ConfigError, IllegalActionError

NAMES = list(E.ENVS)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed", [-1, 1.5, "abc", True, 2**63, [1, 2]])
def test_reset_names_a_bad_seed(name, seed):
    for env in (E.make(name), E.ENVS[name].raw_env()):
        with pytest.raises(ConfigError, match="'seed'"):
            env.reset(seed=seed)
    env = E.ENVS[name].raw_env()
    env.reset(seed=np.int64(3))  # numpy ints are seeds too
    env.reset(seed=0)


@pytest.mark.parametrize("name", NAMES)
def test_reset_says_it_takes_no_options(name):
    env = E.make(name)
    with pytest.warns(UserWarning, match="takes no reset options.*'rounds'"):
        env.reset(seed=0, options={"rounds": 3})
    env.reset(seed=0, options={})  # nothing to report


@pytest.mark.parametrize("name", NAMES)
def test_raw_env_before_reset_says_call_reset(name):
    env = E.ENVS[name].raw_env(render_mode="ansi")
    for call in (
        lambda: env.observe("player_0"),
        lambda: env.step(0),
        lambda: env.last(),
        env.render,
    ):
        with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
            call()


PARALLEL = [name for name in NAMES if hasattr(E.ENVS[name], "parallel_env")]


def _at_trick(name, illegal_action="raise"):
    """A Parallel env at a step where some seats act and some wait (if the game has one)."""
    env = E.make(name, parallel=True, num_players=3, illegal_action=illegal_action)
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(0)
    while True:
        acting = env.game_state.simultaneous_players()
        if 0 < len(acting) < len(env.agents):
            return env, obs
        obs, *_ = env.step(
            {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        )


def _legal(env, obs):
    return {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in env.agents}


def _cases(env, obs):
    """(label, actions) pairs that must each be refused."""
    acting = env.game_state.simultaneous_players()
    wait = next(a for a in env.agents if int(a.split("_")[1]) not in acting)
    act = f"player_{acting[0]}"
    good = _legal(env, obs)
    legal_id = good[act]
    return [
        ("not a dict", [good[a] for a in env.agents]),
        ("a string", "player_0"),
        ("unknown agent", {**good, "player_9": 0}),
        ("non-string key", {**good, 0: 0}),
        ("noop as a float", {**good, wait: env.noop + 0.5}),
        ("another id for a waiting seat", {**good, wait: 0}),
        ("a string action", {**good, act: str(legal_id)}),
        ("a list action", {**good, act: [legal_id]}),
        ("an array action", {**good, act: np.array([legal_id])}),
        ("a float action", {**good, act: float(legal_id)}),
        ("a missing actor", {a: v for a, v in good.items() if a != act}),
    ]


@pytest.mark.parametrize("name", PARALLEL)
def test_parallel_step_refuses_bad_arguments_and_changes_nothing(name):
    env, obs = _at_trick(name)
    before = env.game_state.to_dict()
    for label, actions in _cases(env, obs):
        with pytest.raises(IllegalActionError):
            env.step(actions)
        assert env.game_state.to_dict() == before, label
    good = _legal(env, obs)
    wait = next(
        a for a in env.agents if int(a.split("_")[1]) not in env.game_state.simultaneous_players()
    )
    env.step({**good, wait: env.noop})  # the exact NOOP (or leaving the seat out) is fine
    assert env.game_state.to_dict() != before


@pytest.mark.parametrize("name", PARALLEL)
def test_parallel_penalize_applies_to_bad_arguments(name):
    env, obs = _at_trick(name)
    for label, actions in _cases(env, obs):
        env, obs = _at_trick(name, illegal_action="penalize")
        acting = {f"player_{s}" for s in env.game_state.simultaneous_players()}
        _, rewards, term, _, infos = env.step(actions)
        assert all(term.values()) and all(i.get("illegal_action") for i in infos.values()), label
        penalized = {a for a, r in rewards.items() if r == -1.0}
        assert penalized and penalized <= set(env.possible_agents), label
        if label in ("not a dict", "a string", "unknown agent", "non-string key"):
            assert penalized == acting, label  # no single offender: the seats that had to act
        assert env.agents == []


@pytest.mark.parametrize("name", PARALLEL)
def test_parallel_step_before_reset_and_after_the_end(name):
    env = E.make(name, parallel=True)
    with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
        env.step({})
    env, obs = _at_trick(name, illegal_action="penalize")
    env.step("not a dict")  # penalized: the game is over
    with pytest.raises(RuntimeError, match="game is over"):
        env.step(_legal(env, obs))
