"""The Midgard heuristic agent: legal, loop-free, and clearly stronger than random."""

from __future__ import annotations

import numpy as np
import pytest

from deckzoo.agents.base import RandomAgent
from deckzoo.agents.evaluation.match import play_match
from deckzoo.agents.heuristics.midgard import HeuristicAgent, plan_troop
from deckzoo.agents.registry import make_agent
from deckzoo.envs.midgard import actions as A
from deckzoo.envs.midgard.rules import MidgardGame

from .util import DATA, at, blank, complete, give, ks, troop


def hand(*kinds):
    h = np.zeros(DATA.num_kinds, dtype=np.int64)
    for x in kinds:
        h[x] += 1
    return h


def test_registry_finds_it():
    assert isinstance(make_agent("heuristic", "midgard", seed=1), HeuristicAgent)


def test_plan_troop_builds_a_legal_troop():
    s = blank(3)
    give(s, 0, *ks("Kriger - Berserker - Bueskytter - Snedig - Göddar - Tyr"))
    complete(s)
    at(s, 0, 1)  # preparation
    plan = plan_troop(s.hands[0])
    assert plan is not None
    s.apply(A.NEW_TROOP)
    for a in plan:
        s.apply(a)
    assert len(s.troops[0]) == 1 and s.troops[0][0].is_valid() and s.troops[0][0].ncards() >= 4
    assert plan_troop(hand(*ks("Kriger - Göddar"))) is None


def test_heuristic_self_play_ends():
    game = MidgardGame(4, start_position=4)
    r = play_match(game, [HeuristicAgent(i) for i in range(4)], ["h"] * 4, seed=3)
    assert r.steps > 0 and r.winners


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_M_D4_heuristic_self_play_is_never_truncated(n):
    # Before MD20 an event could draw itself back: some 5- and 6-player games looped on Bragi's
    # Song until max_decisions cut them off (seed 5 at 6 players, seed 11 at 5 players).
    game = MidgardGame(n)
    for seed in range(12):
        agents = [HeuristicAgent(10 * seed + i) for i in range(n)]
        s = game.new_state(seed)
        while not s.is_terminal():
            p = s.current_player
            s.apply(agents[p].act(s.for_player(p)))
        assert not s.truncated, (n, seed, s.end_reason, s.decisions)


def test_heuristic_beats_random():
    game = MidgardGame(4, start_position=4)
    wins = 0.0
    games = 8
    for i in range(games):
        seat = i % 4
        agents = [RandomAgent(10 * i + j) for j in range(4)]
        agents[seat] = HeuristicAgent(i)
        r = play_match(game, agents, ["x"] * 4, seed=i)
        wins += (seat in r.winners) / len(r.winners)
    assert wins / games >= 0.75  # random would win about 0.25
    assert troop("Kriger - Berserker - Bueskytter").is_valid()


def test_a_plan_is_replayed_only_by_the_seat_that_made_it():
    """One agent playing several seats out of order (a search's rollout policy does) answers each
    seat as a fresh agent would: a troop plan queued for one seat is not replayed for another."""
    game = MidgardGame(4, start_position=6)
    state, agents = game.new_state(3), [HeuristicAgent(i) for i in range(4)]
    planned = building = None
    while not state.is_terminal() and (planned is None or building is None):
        p = state.current_player
        a = agents[p].act(state.for_player(p))
        if planned is None and a == A.NEW_TROOP:
            planned = state.clone()
        elif (
            planned is not None
            and p != planned.current_player
            and state.view(p)["stack"][-1]["mode"] == "build"
        ):
            building = state.clone()
        state.apply(a)
    assert planned is not None and building is not None
    shared = HeuristicAgent(0)
    assert shared.act(planned.for_player(planned.current_player)) == A.NEW_TROOP  # a plan is queued
    q = building.current_player
    assert shared.act(building.for_player(q)) == HeuristicAgent(1).act(building.for_player(q))
