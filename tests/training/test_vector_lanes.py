"""The vector trainer's lanes with batched twins: the Wizard heuristic seated in batched lanes
plays the scalar heuristic's moves, the seats follow the mix, and the lane count follows it."""

import numpy as np
import pytest

from deckzoo.agents.heuristics.wizard import HeuristicAgent
from deckzoo.envs import vector
from deckzoo.envs.core.batched import StateDeals
from deckzoo.envs.core.errors import ConfigError
from deckzoo.training.vector_lanes import (
    AGENT,
    LEARNER,
    Lanes,
    default_scalar_lanes,
    twin_specs,
)

from ..vector.helpers import Twin, random_actions

MIX = {"learner": 0.5, "heuristic": 0.5}


def test_the_heuristic_twin_plays_the_scalar_heuristics_moves():
    """Every batched lane has a scalar twin dealt the same cards (the chance hook copies the
    twin's deals). Each step the twin moves first: the scalar heuristic decides the heuristic
    seats, a random legal move the learner's; the lanes get the learner's moves only (0 where the
    heuristic sits) and must reach the twin's position, observation for observation."""
    L = 12
    env = vector.make("wizard", num_envs=L, num_players=4, num_rounds=4)
    game = env.game
    twin = Twin(game, "win", np.random.default_rng(1), [None] * L, [None] * L)
    env.set_chance(StateDeals(env.engine, twin.provide))
    lanes = Lanes(env, game, 0, MIX, np.random.default_rng(2), twins=["heuristic"])
    lanes.reset(seed=3)
    hero, rng = HeuristicAgent(0), np.random.default_rng(4)
    moves = {"heuristic": 0, "learner": 0}
    games = 0
    for _ in range(400):
        kind = lanes.seat_kind[np.arange(L), lanes.player]
        twin_seat = lanes.seat_twin[np.arange(L), lanes.player] >= 0
        assert np.array_equal(twin_seat, kind == AGENT)
        chosen = random_actions(lanes.mask, rng)
        given = np.where(twin_seat, 0, chosen)
        for i, s in enumerate(twin.states):
            p = s.current_player
            assert p == lanes.player[i]
            a = hero.act(s.for_player(p)) if twin_seat[i] else int(chosen[i])
            moves["heuristic" if twin_seat[i] else "learner"] += 1
            s.apply(a)
            twin.trackers[i].step_rewards(s)
        _, ended = lanes.step(given)
        games += int(ended.sum())
        for i, s in enumerate(twin.states):
            assert s.current_player == lanes.player[i]
            assert np.array_equal(s.observe(s.current_player).reshape(-1), lanes.obs[i]), i
    assert games >= L and min(moves.values()) > 1000


def test_twins_follow_the_mix_in_batched_lanes():
    env = vector.make("wizard", num_envs=64, num_players=4, num_rounds=2)
    lanes = Lanes(env, env.game, 0, MIX, np.random.default_rng(0), twins=["heuristic"])
    lanes.reset(seed=0)
    seated = []
    for _ in range(300):
        lanes.step(random_actions(lanes.mask, np.random.default_rng(len(seated))))
        seated.append(lanes.seat_twin.copy())
    kinds = lanes.seat_kind
    assert (kinds == LEARNER).any(axis=1).all()
    twin_share = np.mean([(s >= 0).mean() for s in seated])
    # one seat a game is the learner's; the other three are the heuristic with probability 0.5
    assert 0.3 < twin_share < 0.45


def test_lane_counts_with_and_without_twins():
    assert twin_specs(MIX, "wizard") == ["heuristic"] and twin_specs(MIX, "midgard") == []
    assert twin_specs({"learner": 1.0, "heuristic": 0.0}, "wizard") == []
    assert default_scalar_lanes(MIX, 4, 100) == 88  # 1 - 0.5^3 of the games, without twins
    assert default_scalar_lanes(MIX, 4, 100, ["heuristic"]) == 0
    mix = {**MIX, "ismcts:5": 0.1}  # (an agent without a twin)
    assert default_scalar_lanes(mix, 4, 1000, ["heuristic"]) == round(1000 * (1 - (1 / 1.1) ** 3))
    env = vector.make("wizard", num_envs=4, num_players=4, num_rounds=2)
    with pytest.raises(ConfigError, match="without a batched twin"):
        Lanes(env, env.game, 2, MIX, np.random.default_rng(0), twins=["heuristic"])
    with pytest.raises(ConfigError, match="'random:x' has no batched twin"):
        Lanes(env, env.game, 0, {"learner": 1.0}, np.random.default_rng(0), twins=["random:x"])
