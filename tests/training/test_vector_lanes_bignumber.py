"""The vector trainer's batched lanes with the Big Number heuristic's batched twin: the twin
seats play the scalar heuristic's moves, move for move, with one deck and with two."""

import numpy as np
import pytest

from deckzoo.agents.heuristics.bignumber import HeuristicAgent
from deckzoo.envs import vector
from deckzoo.envs.core.batched import StateDeals
from deckzoo.training.vector_lanes import AGENT, Lanes, twin_specs

from ..vector.helpers import Twin, random_actions

MIX = {"learner": 0.5, "heuristic": 0.5}


@pytest.mark.parametrize("players,two_decks", [(4, False), (5, True)])
def test_the_heuristic_twin_plays_the_scalar_heuristics_moves(players, two_decks):
    """Every batched lane has a scalar twin dealt the same cards (the chance hook copies the
    twin's deals). Each step the twin moves first: the scalar heuristic decides the heuristic
    seats, a random legal move the learner's; the lanes get the learner's moves only (0 where the
    heuristic sits) and must reach the twin's position, observation for observation."""
    assert twin_specs(MIX, "bignumber") == ["heuristic"]
    L = 12
    env = vector.make("bignumber", num_envs=L, num_players=players, two_decks=two_decks, target=5)
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
