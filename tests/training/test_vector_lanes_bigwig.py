"""The vector trainer's batched lanes with the BigWig heuristic's batched twin: the twin seats
play legal moves, the scalar heuristic's own where it decides without sampling (a sacrifice, a
challenge, a stake, a forced move), and the lanes stay in step with scalar games (the harness:
twin_lanes.py). The sampled decisions are checked move for move, with the scalar agent's draws,
in tests/agents/test_heuristic_bigwig_batched.py."""

from deckzoo.agents.heuristics.bigwig import HeuristicAgent
from deckzoo.envs import vector
from deckzoo.envs.bigwig.rules import PHASE_COMMIT, PHASE_NAMES, PHASE_TICKET
from deckzoo.training.vector_lanes import twin_specs

from .twin_lanes import MIX, play_lanes_against_scalar_twins


def test_the_heuristic_twin_plays_in_the_lanes():
    assert twin_specs(MIX, "bigwig") == ["heuristic"]
    hero = HeuristicAgent(0)

    def check(state, move):
        legal = state.legal_actions()
        assert move in legal, (move, legal)
        if len(legal) > 1 and state.phase in (PHASE_COMMIT, PHASE_TICKET):
            return "sampled"
        assert move == hero.act(state.for_player(state.current_player))
        return PHASE_NAMES[state.phase]

    env = vector.make("bigwig", num_envs=12, num_players=4)
    counts = play_lanes_against_scalar_twins(env, check)
    assert counts["games"] >= 12 and min(counts["heuristic"], counts["learner"]) > 1000
    assert counts["sampled"] > 500 and counts["sacrifice"] > 50 and counts["ticket"] > 5, counts
    assert counts["target"] > 5 and counts["stake"] > 5, counts
