"""The vector trainer's lanes with the Go Big heuristic's batched twin: its seats play one of the
scalar heuristic's best moves at every position, and the lanes stay in step with scalar games."""

from deckzoo.agents.heuristics.gobig import HeuristicAgent
from deckzoo.envs import vector
from deckzoo.envs.gobig.rules import PHASE_PLAY

from .twin_lanes import play_lanes_against_scalar_twins


def test_the_heuristic_twin_plays_the_scalar_heuristics_moves():
    """At a play the twin's move must be one of the scalar heuristic's best (it draws ties from
    the lanes' generator); at a draw, its one choice (the harness: twin_lanes.py)."""
    hero = HeuristicAgent(0)

    def check(state, move):
        info = state.for_player(state.current_player)
        if state.phase == PHASE_PLAY:
            best = hero.best_plays(info)
            assert move in best, (move, best)
            return "tie" if len(best) > 1 else None
        assert move == hero.act(info)
        return "draw"

    env = vector.make("gobig", num_envs=12, num_players=4)
    counts = play_lanes_against_scalar_twins(env, check)
    assert counts["games"] >= 12 and min(counts["heuristic"], counts["learner"]) > 1000
    assert counts["draw"] > 100
