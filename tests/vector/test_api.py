"""The batched env's contract: options, shapes, seeding, illegal actions, partial steps, memory."""

from __future__ import annotations

import numpy as np
import pytest

from deckzoo.envs import ConfigError, IllegalActionError, game_class, vector
from deckzoo.envs.bignumber.cards import HAND_SIZE
from deckzoo.envs.gobig.rules import COPIES
from deckzoo.envs.wizard.cards import DECK_COUNTS

from .helpers import bits, random_actions

GAMES = vector.available()


def snapshot(env) -> dict:
    return {k: v.copy() for k, v in vars(env.engine).items() if isinstance(v, np.ndarray)}


def same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize("name", GAMES)
def test_shapes_and_dtypes(name):
    env = vector.make(name, num_envs=5, seed=0)
    obs, mask, player = env.reset()
    g = env.game
    assert obs.shape == (5, g.observation_shape[0]) and obs.dtype == np.float32
    assert mask.shape == (5, g.num_actions) and mask.dtype == bool and mask.any(axis=1).all()
    assert player.shape == (5,) and ((player >= 0) & (player < g.num_players)).all()
    assert (obs >= 0).all() and (obs <= g.observation_high).all()
    step = env.step(random_actions(mask, np.random.default_rng(0)))
    assert step.rewards.shape == (5, g.num_players) and step.rewards.dtype == np.float32
    assert step.terminated.shape == (5,) and step.terminated.dtype == bool


def test_options_are_validated_and_unbatchable_ones_refused_by_name():
    with pytest.raises(ConfigError, match="num_rounds"):
        vector.make("wizard_v0", num_envs=2, num_players=4, num_rounds=99)
    with pytest.raises(ConfigError, match="bogus"):
        vector.make("gobig_v0", num_envs=2, bogus=1)
    with pytest.raises(ConfigError, match="render_mode"):
        vector.make("gobig_v0", num_envs=2, render_mode="ansi")
    with pytest.raises(ConfigError, match="num_envs"):
        vector.make("gobig_v0", num_envs=0)
    with pytest.raises(ConfigError, match="batched"):
        vector.make("midgard_v1", num_envs=2)


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_same_actions_same_trajectory(name):
    runs = []
    for _ in range(2):
        env = vector.make(name, num_envs=16, seed=7)
        obs, mask, _ = env.reset()
        rng = np.random.default_rng(1)
        trace = [bits(obs).copy()]
        for _ in range(150):
            s = env.step(random_actions(mask, rng))
            mask = s.mask
            trace += [bits(s.obs).copy(), s.rewards.copy(), s.terminated.copy()]
        runs.append(trace)
    assert all(np.array_equal(a, b) for a, b in zip(*runs))
    env = vector.make(name, num_envs=16, seed=8)
    assert not np.array_equal(bits(env.reset()[0]), runs[0][0])


@pytest.mark.parametrize("name", GAMES)
def test_an_illegal_action_raises_naming_the_lane_and_changes_no_lane(name):
    env = vector.make(name, num_envs=6, seed=3)
    _, mask, _ = env.reset()
    actions = random_actions(mask, np.random.default_rng(0))
    bad = actions.copy()
    bad[4] = np.flatnonzero(~mask[4])[0]
    before = snapshot(env)
    with pytest.raises(IllegalActionError, match=rf"lane 4 .*{bad[4]}|{bad[4]}.*lane 4"):
        env.step(bad)
    assert same(before, snapshot(env))
    for wrong in (np.full(6, env.num_actions), np.full(6, -1), actions[:5], actions.astype(float)):
        with pytest.raises(IllegalActionError):
            env.step(wrong)
        assert same(before, snapshot(env))
    env.step(actions)  # the env still works


@pytest.mark.parametrize("name", GAMES)
def test_penalize_ends_only_the_offending_lane(name):
    env = vector.make(name, num_envs=6, seed=3, illegal_action="penalize")
    twin = vector.make(name, num_envs=6, seed=3)
    _, mask, player = env.reset()
    twin.reset()
    actions = random_actions(mask, np.random.default_rng(0))
    bad = actions.copy()
    bad[2] = np.flatnonzero(~mask[2])[0]
    s = env.step(bad)
    active = np.ones(6, dtype=bool)
    active[2] = False
    t = twin.step(actions, active=active)
    expect = np.zeros(env.num_players, dtype=np.float32)
    expect[player[2]] = -1.0
    assert (
        np.array_equal(s.rewards[2], expect)
        and s.terminated[2]
        and s.info["illegal"].tolist() == [i == 2 for i in range(6)]
    )
    assert 2 in s.info["final_lanes"].tolist()
    others = np.arange(6) != 2
    assert np.array_equal(bits(s.obs[others]), bits(t.obs[others]))
    assert np.array_equal(s.mask[others], t.mask[others])
    assert np.array_equal(s.rewards[others], t.rewards[others])


@pytest.mark.parametrize("name", GAMES)
def test_inactive_lanes_keep_their_position(name):
    env = vector.make(name, num_envs=8, seed=5)
    obs, mask, _ = env.reset()
    active = np.arange(8) % 2 == 0
    keep = snapshot(env)
    s = env.step(random_actions(mask, np.random.default_rng(2)), active=active)
    after = snapshot(env)
    for key, arr in keep.items():
        if arr.ndim and len(arr) == 8:
            assert np.array_equal(arr[~active], after[key][~active]), key
    assert np.array_equal(bits(s.obs[~active]), bits(obs[~active]))
    assert not s.rewards[~active].any()


def test_random_deals_hold_the_right_cards():
    env = vector.make("wizard_v0", num_envs=512, seed=0, num_players=4, num_rounds=7)
    env.reset()
    e = env.engine
    rng = np.random.default_rng(0)
    mask = env.legal_mask()
    for _ in range(60):  # into later rounds
        mask = env.step(random_actions(mask, rng)).mask
    held = e.hands.sum(axis=0, dtype=np.int64)
    assert (e.hands.sum(axis=2) == e.hs).all()
    total = e.hands.sum(axis=1) + e.played
    assert (total <= DECK_COUNTS).all()
    flips = np.bincount(e.flipped[e.flipped >= 0], minlength=54)
    assert flips.sum() > 400 and held.any()
    dealers = np.bincount(env.engine.dealer, minlength=4)
    assert dealers.min() > 80  # the first dealer is a chance draw (W3)

    go = vector.make("gobig_v0", num_envs=256, seed=0).engine
    go.start(go.all)
    market = np.zeros((256, 7), dtype=np.int64)
    for j in range(2):
        np.add.at(market, (go.all, go.market[:, j] - 1), 1)
    deck = np.zeros((256, 7), dtype=np.int64)
    for v in range(1, 8):
        deck[:, v - 1] = ((go.deck == v) & (np.arange(91) < go.top[:, None])).sum(axis=1)
    assert ((go.hands.sum(axis=1) + market + deck) == COPIES).all()
    assert (go.hands.sum(axis=2) == 6).all()

    bn = vector.make("bignumber_v0", num_envs=256, seed=0, num_players=5).engine
    bn.start(bn.all)
    assert (bn.hands.sum(axis=2) == HAND_SIZE).all() and (bn.hands.sum(axis=1) <= 2).all()


@pytest.mark.parametrize("name", GAMES)
def test_state_is_at_most_4_kib_a_game(name):
    counts = game_class(name).supported_players()
    players = 4 if 4 in counts else max(counts)
    env = vector.make(name, num_envs=4096, seed=0, num_players=players)
    assert env.engine.state_nbytes() / 4096 <= 4096


@pytest.mark.parametrize("reward", ["win", "dense"])
@pytest.mark.parametrize("name", GAMES)
def test_saved_state_continues_exactly(name, reward):
    """``get_state`` mid-game, restored into an env seeded differently: the same actions give the
    same observations, masks, players, rewards and new deals from then on."""
    env = vector.make(name, num_envs=6, seed=1, reward=reward)
    obs, mask, player = env.reset()
    rng = np.random.default_rng(2)
    for _ in range(40):
        obs, mask, player, *_ = env.step(random_actions(mask, rng))
    arrays, meta = env.get_state()
    other = vector.make(name, num_envs=6, seed=99, reward=reward)
    obs2, mask2, player2 = other.set_state(arrays, meta)
    assert np.array_equal(bits(obs), bits(obs2)) and np.array_equal(mask, mask2)
    assert np.array_equal(player, player2)
    for _ in range(200):  # through new deals (and games): the restored generator deals the same
        a = random_actions(mask, rng)
        s1, s2 = env.step(a), other.step(a)
        for x, y in zip(s1[:5], s2[:5]):
            assert np.array_equal(x, y)
        mask = s1.mask
        assert same(snapshot(env), snapshot(other))


def test_saved_state_is_checked_before_anything_changes():
    env = vector.make("gobig_v0", num_envs=3, seed=0)
    env.reset()
    arrays, meta = env.get_state()
    small = vector.make("gobig_v0", num_envs=2, seed=0)
    small.reset()
    before = snapshot(small)
    with pytest.raises(ValueError, match="has shape"):
        small.set_state(arrays, meta)
    with pytest.raises(ValueError, match="missing or unexpected"):
        small.set_state({k: v for k, v in arrays.items() if k != "mask"}, meta)
    assert same(before, snapshot(small))
