"""Hidden information in batched lanes: a lane's observation by a seat depends only on what that
seat may know. Scalar positions and their determinizations for a seat (same view, hidden cards
resampled) are loaded into the lanes of one batched env; every such lane must give that seat the
same observation, bit for bit, and it must be the scalar engine's."""

from __future__ import annotations

import numpy as np
import pytest

from deckzoo.envs import game_class, vector

from .helpers import bits, information_configs

CONFIGS = information_configs()  # each game's INFORMATION_CONFIGS, or derived
RESAMPLES = 3


def positions(game, games: int, per_game: int, rng) -> list:
    out = []
    for g in range(games):
        s = game.new_state(g)
        seen = []
        while not s.is_terminal():
            seen.append(s.clone())
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
        out += [
            seen[i] for i in rng.choice(len(seen), size=min(per_game, len(seen)), replace=False)
        ]
    return out


@pytest.mark.parametrize("env_name,options", CONFIGS, ids=[f"{e}-{o}" for e, o in CONFIGS])
def test_lane_observation_passes_the_resampling_test(env_name, options):
    game = game_class(env_name)(**options)
    rng = np.random.default_rng(0)
    states, seats, groups = [], [], []
    for s in positions(game, 6, 8, rng):
        for q in range(game.num_players):
            groups.append(len(states))
            states += [s] + [s.determinize(q, rng) for _ in range(RESAMPLES)]
            seats += [q] * (RESAMPLES + 1)
    env = vector.from_states(states, seed=0)
    seats = np.array(seats)
    obs = env.engine.observe(seats)
    mask = env.legal_mask()
    changed = 0
    for g in groups:
        s, q = states[g], seats[g]
        assert np.array_equal(bits(obs[g]), bits(s.observe(q))), (
            f"lane {g}: not the scalar observation"
        )
        for lane in range(g + 1, g + RESAMPLES + 1):
            assert np.array_equal(bits(obs[lane]), bits(obs[g])), f"lane {lane}: hidden cards leak"
            if q == s.current_player:
                assert np.array_equal(mask[lane], mask[g])
            changed += not np.array_equal(states[lane].global_state(), s.global_state())
    assert changed > len(groups)  # the resampled lanes really hold other hidden cards
