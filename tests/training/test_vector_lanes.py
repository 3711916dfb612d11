"""The vector trainer's lanes with batched twins: the Wizard heuristic seated in batched lanes
plays the scalar heuristic's moves, the seats follow the mix, and the lane count follows it."""

import numpy as np
import pytest

from deckzoo.agents.heuristics.wizard import HeuristicAgent
from deckzoo.envs import vector
from deckzoo.envs.core.errors import ConfigError
from deckzoo.training.vector_lanes import LEARNER, Lanes, default_scalar_lanes, twin_specs

from ..vector.helpers import random_actions
from .twin_lanes import MIX, play_lanes_against_scalar_twins


def test_the_heuristic_twin_plays_the_scalar_heuristics_moves():
    """The Wizard twin's seats make exactly the scalar heuristic's moves (twin_lanes.py)."""
    hero = HeuristicAgent(0)

    def check(state, move):
        assert move == hero.act(state.for_player(state.current_player))

    env = vector.make("wizard", num_envs=12, num_players=4, num_rounds=4)
    counts = play_lanes_against_scalar_twins(env, check)
    assert counts["games"] >= 12 and min(counts["heuristic"], counts["learner"]) > 1000


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
