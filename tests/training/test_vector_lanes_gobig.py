"""The vector trainer's lanes with the Go Big heuristic's batched twin: its seats play one of the
scalar heuristic's best moves at every position, and the lanes stay in step with scalar games."""

import numpy as np

from deckzoo.agents.heuristics.gobig import HeuristicAgent
from deckzoo.envs import vector
from deckzoo.envs.core.batched import StateDeals
from deckzoo.envs.gobig.rules import PHASE_PLAY
from deckzoo.training.vector_lanes import AGENT, Lanes

from ..vector.helpers import Twin, random_actions

MIX = {"learner": 0.5, "heuristic": 0.5}


def test_the_heuristic_twin_plays_the_scalar_heuristics_moves():
    """Every batched lane has a scalar twin dealt the same cards (the chance hook copies the
    twin's deals). Each step the twin's moves are read first (the lanes' twin decision, with the
    lanes' generator put back, so that ``step`` draws the same ties again): at a heuristic seat
    the move must be one of the scalar heuristic's best (its one choice at a draw), and the scalar
    twin plays it; a random legal move at the learner's. The lanes get the learner's moves only
    (0 where the heuristic sits) and must reach the twin's position, observation for
    observation."""
    L = 12
    env = vector.make("gobig", num_envs=L, num_players=4)
    game = env.game
    twin = Twin(game, "win", np.random.default_rng(1), [None] * L, [None] * L)
    env.set_chance(StateDeals(env.engine, twin.provide))
    lanes = Lanes(env, game, 0, MIX, np.random.default_rng(2), twins=["heuristic"])
    lanes.reset(seed=3)
    assert lanes.twin_specs == ["heuristic"]
    applied = []  # what the twin answered inside ``step``
    decide = lanes._twins[0]

    def recorded(*args):
        applied.append(decide(*args))
        return applied[-1]

    lanes._twins[0] = recorded
    hero, rng = HeuristicAgent(0), np.random.default_rng(4)
    moves = {"heuristic": 0, "learner": 0, "draw": 0}
    games = 0
    for _ in range(400):
        kind = lanes.seat_kind[np.arange(L), lanes.player]
        twin_seat = lanes.seat_twin[np.arange(L), lanes.player] >= 0
        assert np.array_equal(twin_seat, kind == AGENT)
        chosen = random_actions(lanes.mask, rng)
        given = np.where(twin_seat, 0, chosen)
        saved = lanes.rng.bit_generator.state
        planned = lanes._twin_actions(given, None)
        lanes.rng.bit_generator.state = saved
        applied.clear()
        for i, s in enumerate(twin.states):
            p = s.current_player
            assert p == lanes.player[i]
            if twin_seat[i]:
                info = s.for_player(p)
                best = hero.best_plays(info) if s.phase == PHASE_PLAY else [hero.act(info)]
                assert planned[i] in best, (i, planned[i], best)
                moves["heuristic"] += 1
                moves["draw"] += s.phase != PHASE_PLAY
            else:
                assert planned[i] == chosen[i]
                moves["learner"] += 1
            s.apply(int(planned[i]))
            twin.trackers[i].step_rewards(s)
        _, ended = lanes.step(given)
        if twin_seat.any():  # the lanes applied the moves read above
            np.testing.assert_array_equal(applied[0], planned[twin_seat])
        games += int(ended.sum())
        for i, s in enumerate(twin.states):
            assert s.current_player == lanes.player[i]
            assert np.array_equal(s.observe(s.current_player).reshape(-1), lanes.obs[i]), i
    assert games >= L and min(moves["heuristic"], moves["learner"]) > 1000
    assert moves["draw"] > 100
