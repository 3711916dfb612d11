"""The vector trainer's batched lanes with the Big Number heuristic's batched twin: the twin
seats play the scalar heuristic's moves, move for move, with one deck and with two."""

import pytest

from deckzoo.agents.heuristics.bignumber import HeuristicAgent
from deckzoo.envs import vector
from deckzoo.training.vector_lanes import twin_specs

from .twin_lanes import MIX, play_lanes_against_scalar_twins


@pytest.mark.parametrize("players,two_decks", [(4, False), (5, True)])
def test_the_heuristic_twin_plays_the_scalar_heuristics_moves(players, two_decks):
    """Exactly the scalar heuristic's moves (the harness: twin_lanes.py)."""
    assert twin_specs(MIX, "bignumber") == ["heuristic"]
    hero = HeuristicAgent(0)

    def check(state, move):
        assert move == hero.act(state.for_player(state.current_player))

    env = vector.make("bignumber", num_envs=12, num_players=players, two_decks=two_decks, target=5)
    counts = play_lanes_against_scalar_twins(env, check)
    assert counts["games"] >= 12 and min(counts["heuristic"], counts["learner"]) > 1000
