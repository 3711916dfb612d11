"""The harness of the batched-twin lane tests: the vector trainer's lanes, whose heuristic seats
are decided by the heuristic's batched twin, against scalar games dealt the same cards.

Every batched lane has a scalar twin (the chance hook copies the twin's deals into the lane). Each
step the lanes' twin moves are read first (with the lanes' generator put back afterwards, so that
``step`` draws any random tie-breaks again, identically); ``check(state, move)`` must accept each
heuristic seat's move on the scalar position (and may return a name to count it under); the
scalar twin plays it, and a random legal move at the learner's seats. The lanes get the learner's
moves only (0 where the heuristic sits) and must reach the twin's position, observation for
observation: a lane that played anything else would differ.
"""

from collections import Counter

import numpy as np

from deckzoo.envs.core.batched import StateDeals
from deckzoo.training.vector_lanes import AGENT, Lanes

from ..vector.helpers import Twin, random_actions

MIX = {"learner": 0.5, "heuristic": 0.5}


def play_lanes_against_scalar_twins(env, check, steps: int = 400) -> Counter:
    """Run the harness on batched ``env`` for ``steps`` steps; returns counts of the moves made
    (``heuristic``, ``learner``, whatever ``check`` named) and of the games finished."""
    L, game = env.num_envs, env.game
    twin = Twin(game, "win", np.random.default_rng(1), [None] * L, [None] * L)
    env.set_chance(StateDeals(env.engine, twin.provide))
    lanes = Lanes(env, game, 0, MIX, np.random.default_rng(2), twins=["heuristic"])
    lanes.reset(seed=3)
    rng = np.random.default_rng(4)
    counts: Counter = Counter()
    rows = np.arange(L)
    for _ in range(steps):
        twin_seat = lanes.seat_twin[rows, lanes.player] >= 0
        assert np.array_equal(twin_seat, lanes.seat_kind[rows, lanes.player] == AGENT)
        chosen = random_actions(lanes.mask, rng)
        given = np.where(twin_seat, 0, chosen)
        saved = lanes.rng.bit_generator.state
        planned = lanes._twin_actions(given, None)
        lanes.rng.bit_generator.state = saved
        for i, s in enumerate(twin.states):
            assert s.current_player == lanes.player[i]
            if twin_seat[i]:
                name = check(s, int(planned[i]))
                counts["heuristic"] += 1
                if name:
                    counts[name] += 1
            else:
                assert planned[i] == chosen[i]
                counts["learner"] += 1
            s.apply(int(planned[i]))
            twin.trackers[i].step_rewards(s)
        _, ended = lanes.step(given)
        counts["games"] += int(ended.sum())
        for i, s in enumerate(twin.states):
            assert s.current_player == lanes.player[i]
            assert np.array_equal(s.observe(s.current_player).reshape(-1), lanes.obs[i]), i
    return counts
