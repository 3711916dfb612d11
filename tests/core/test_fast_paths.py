"""The speed paths in envs/core behave exactly like the slow ones they replaced (issue 10)."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from pettingzoo.utils import wrappers

import deckzoo.envs as E
from deckzoo.envs import IllegalActionError
from deckzoo.envs.core.encoding import Layout
from deckzoo.envs.core.game import copy_rng, fork_rng


def _same(a, b) -> bool:
    """Equality of bit-generator state dicts, which may hold numpy arrays (MT19937)."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and np.array_equal(a, b)
    return a == b


@pytest.mark.parametrize(
    "bit_generator", [np.random.PCG64, np.random.MT19937, np.random.Philox, np.random.SFC64]
)
def test_copy_rng_is_exact_and_independent(bit_generator):
    rng = np.random.Generator(bit_generator(7))
    rng.random(3)
    twin = copy_rng(rng)
    assert type(twin.bit_generator) is bit_generator
    assert _same(twin.bit_generator.state, rng.bit_generator.state)
    assert np.array_equal(twin.random(5), rng.random(5))
    twin.random(4)  # drawing from the copy leaves the original alone
    assert not _same(twin.bit_generator.state, rng.bit_generator.state)
    assert np.array_equal(
        copy.deepcopy(rng).integers(100, size=8), copy_rng(rng).integers(100, size=8)
    )


def test_fork_rng_is_reproducible_distinct_and_advances_the_parent():
    a, b = np.random.default_rng(3), np.random.default_rng(3)
    fa, fb = fork_rng(a), fork_rng(b)
    assert np.array_equal(fa.random(4), fb.random(4))
    assert (
        a.bit_generator.state
        == b.bit_generator.state
        != np.random.default_rng(3).bit_generator.state
    )
    assert not np.array_equal(fork_rng(a).random(4), fork_rng(a).random(4))
    clone = pickle.loads(pickle.dumps(fa))
    assert np.array_equal(clone.random(3), fa.random(3))


def test_default_clone_shares_the_game_and_copies_the_generator():
    from deckzoo.envs.core.game import State

    game = E.game_class("gobig")(num_players=3)
    state = game.new_state(5)
    plain = State.clone(state)  # the base-class deepcopy path every game may fall back on
    assert plain.game is state.game and plain.rng is not state.rng
    assert plain == state
    assert np.array_equal(plain.rng.random(3), state.rng.random(3))


def test_is_legal_agrees_with_the_mask_in_every_env():
    for name, mod in E.ENVS.items():
        game = mod.Game(**getattr(mod, "SHORT_OPTIONS", {}))
        rng = np.random.default_rng(1)
        state = game.new_state(2)
        for _ in range(40):
            if state.is_terminal():
                break
            mask = state.legal_mask()
            assert [bool(state.is_legal(a)) for a in range(game.num_actions)] == mask.tolist(), name
            state.apply(int(rng.choice(np.flatnonzero(mask))))


def test_apply_fast_path_still_rejects_what_as_action_rejects():
    state = E.game_class("gobig")(num_players=2).new_state(0)
    before = state.to_dict()
    for bad in (True, 1.0, -1, 23, np.int64(99), None):
        with pytest.raises(IllegalActionError):
            state.apply(bad)
    assert state.to_dict() == before
    legal = int(state.legal_actions()[0])
    state.apply(np.int64(legal))  # numpy ints still take the general path


def test_layout_new_gives_writable_named_views_of_one_flat_buffer():
    layout = Layout([("a", 3), ("empty", 0), ("b", (2, 4)), ("c", 1)])
    buf, views = layout.new()
    assert buf.dtype == np.float32 and buf.shape == (layout.size,) and buf.flags.c_contiguous
    assert not buf.any()
    eager = layout.views(buf)
    assert list(views.dtype.names) == list(eager) == ["a", "empty", "b", "c"]
    for name in eager:
        assert views[name].shape == eager[name].shape
        assert np.shares_memory(views[name], buf) or views[name].size == 0
    views["b"][1, 2] = 5.0
    views["c"][0] = 7.0
    views["a"][[0, 2]] = 1.0
    assert buf.tolist() == [1, 0, 1] + [0, 0, 0, 0, 0, 0, 5, 0] + [7]
    assert np.array_equal(eager["b"], [[0, 0, 0, 0], [0, 0, 5, 0]])
    other, _ = layout.new()
    assert not other.any()  # a fresh buffer every call
    with pytest.raises(ValueError):
        views["z"]
    assert Layout([]).new()[0].shape == (0,)


def test_order_enforcing_wrapper_keeps_pettingzoos_checks():
    env = E.make("gobig_v0", num_players=2)
    assert isinstance(env, wrappers.OrderEnforcingWrapper) and str(env) == "gobig_v0"
    for read in ("agent_selection", "agents", "terminations", "truncations", "rewards", "infos"):
        with pytest.raises(AttributeError, match="before reset"):
            getattr(env, read)
    with pytest.raises(AttributeError, match="before reset"):
        env.last()
    with pytest.raises(AssertionError, match="reset"):
        env.step(0)
    env.reset(seed=0)
    assert env.agent_selection == env.unwrapped.agent_selection and env.agents == [
        "player_0",
        "player_1",
    ]
    loop = iter(env.agent_iter())
    next(loop)
    with pytest.raises(AssertionError, match="step"):
        next(loop)  # agent_iter still insists on a step between agents


def test_sparse_rewards_stay_zero_until_the_end():
    env = E.make("gobig_v0", num_players=3)
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        assert reward == 0.0 and all(r == 0.0 for r in env.rewards.values())
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.unwrapped.game_state.is_terminal()


@pytest.mark.parametrize("name", E.registry.env_names())
def test_observations_never_alias_engine_memory(name):
    """What env.last() and observe() hand out stays as it was while the game goes on."""
    env = E.make(name, **E.registry.short_options(name))
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    kept = []
    for step, agent in enumerate(env.agent_iter()):
        obs, _, term, trunc, _ = env.last()
        if step < 60:
            state = env.unwrapped.game_state
            raw = state.observe(0)
            kept.append((obs, {k: v.copy() for k, v in obs.items()}, raw, raw.copy()))
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if step >= 120:
            break
    for obs, copy_, raw, raw_copy in kept:
        assert all(np.array_equal(obs[k], copy_[k]) for k in copy_)
        assert np.array_equal(raw, raw_copy)
