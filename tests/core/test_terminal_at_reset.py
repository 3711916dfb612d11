"""W-D2: a game that is over at the deal resets into a terminal state that the PettingZoo loops end
cleanly, in the shared AEC and Parallel adapters (BigWig with all four holmgang cards on top is
such a game: env seed 26492 with the defaults)."""

from __future__ import annotations

import numpy as np
import pytest

from deckzoo.envs import bigwig_v1
from deckzoo.envs.core.aec import aec_constructors
from deckzoo.envs.core.encoding import Layout
from deckzoo.envs.core.game import Game, State
from deckzoo.envs.core.parallel import parallel_constructor

ALL_HOLMGANGS_FIRST_SEED = 26492  # bigwig_v1, default options: the four holmgang cards come first


class DecidedAtDealGame(Game):
    """A two-seat game whose every deal is already over (seat 0 has won)."""

    name = "decided"
    min_players = max_players = default_players = 2

    def _setup(self):
        self.num_actions = 3
        self.layout = Layout([("won", 1), ("seat", 1)])
        self.observation_shape = (2,)
        self.state_layout = Layout([("won", 1)])
        self.max_game_length = 0  # over before any decision
        self.score_bounds = (1.0, 3.0)

    def _new_state(self, rng):
        s = DecidedAtDealState()
        s.game, s.rng, s.current_player = self, rng, None
        return s


class DecidedAtDealState(State):
    def legal_mask(self):
        return np.zeros(self.game.num_actions, dtype=bool)

    def is_terminal(self):
        return True

    def scores(self):
        return np.array([3.0, 1.0])

    def winners(self):
        return [0]

    def observe(self, player):
        return np.array([1.0, float(player)], dtype=np.float32)

    def global_state(self):
        return np.ones(1, dtype=np.float32)

    def render(self):
        return "decided: player_0 won at the deal"


def check_aec_ends_at_once(env, seed, expected_rewards):
    env.reset(seed=seed)
    assert env.agents == env.possible_agents
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert all("scores" in env.infos[a] for a in env.agents)
    seen = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, _info = env.last()
        assert term and not trunc
        assert not obs["action_mask"].any()
        assert env.observation_space(agent).contains(obs)
        assert reward == pytest.approx(expected_rewards[agent])
        seen.append(agent)
        env.step(None)
    assert sorted(seen) == sorted(env.possible_agents)
    assert env.agents == []


def check_parallel_ends_at_once(env, seed):
    obs, infos = env.reset(seed=seed)
    assert env.agents == []
    assert set(obs) == set(infos) == set(env.possible_agents)
    for agent in env.possible_agents:
        assert env.observation_space(agent).contains(obs[agent])
        assert "scores" in infos[agent]


def test_W_D2_aec_reset_into_a_game_over_at_the_deal_ends_cleanly():
    env_fn, _ = aec_constructors(DecidedAtDealGame)
    check_aec_ends_at_once(env_fn(), 0, {"player_0": 1.0, "player_1": -1.0})
    check_aec_ends_at_once(env_fn(reward="score"), 0, {"player_0": 1.0, "player_1": -1.0})


def test_W_D2_parallel_reset_into_a_game_over_at_the_deal_has_no_live_agents():
    check_parallel_ends_at_once(parallel_constructor(DecidedAtDealGame)(), 0)


def test_W_D2_bigwig_all_holmgangs_first_resets_into_a_finished_game():
    env = bigwig_v1.env()
    check_aec_ends_at_once(env, ALL_HOLMGANGS_FIRST_SEED, dict.fromkeys(env.possible_agents, 0.0))
    state = env.unwrapped.game_state
    assert state.is_terminal() and state.holmgangs == 4 and state.round == 4
    check_parallel_ends_at_once(bigwig_v1.parallel_env(), ALL_HOLMGANGS_FIRST_SEED)
