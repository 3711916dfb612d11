"""Agent.get_state/set_state: an agent rebuilt from its spec and given the saved state (through
JSON) makes exactly the decisions the original makes; what training checkpoints rely on."""

from __future__ import annotations

import json

import numpy as np
import pytest

import deckzoo.envs as E
from deckzoo.agents.base import Agent, RandomAgent
from deckzoo.agents.registry import has_heuristic, make_agent

SPECS = ["random", "heuristic", "ismcts:2:rollout=heuristic:max_rollout_steps=30"]


def _decisions(agent, game, seed, moves):
    """The agent's action at each of the first ``moves`` decisions of a random game."""
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    out = []
    while not state.is_terminal() and len(out) < moves:
        p = state.current_player
        a = agent.act(state.for_player(p))
        out.append(a)
        state.apply(a if rng.random() < 0.5 else int(rng.choice(state.legal_actions())))
    return out


@pytest.mark.parametrize("name", list(E.ENVS))
@pytest.mark.parametrize("spec", SPECS)
def test_restored_agent_decides_identically(name, spec):
    game_cls = E.ENVS[name].Game
    if "heuristic" in spec and not has_heuristic(game_cls.name):
        pytest.skip("no heuristic")
    game = game_cls(**getattr(E.ENVS[name], "SHORT_OPTIONS", {}))
    agent = make_agent(spec, game_cls.name, seed=7)
    _decisions(agent, game, seed=1, moves=8)  # move the generators and any plan along
    saved = json.loads(json.dumps(agent.get_state()))
    clone = make_agent(spec, game_cls.name, seed=0)
    clone.set_state(saved)
    assert _decisions(clone, game, seed=2, moves=12) == _decisions(agent, game, seed=2, moves=12)


def test_state_keeps_plain_data_and_skips_configuration():
    class WithPlan(Agent):
        def __init__(self, seed=None):
            super().__init__(seed)
            self.plan = [np.int64(3), 4]
            self.table = {"a": (1, 2.5)}
            self.weights = np.zeros(3)  # configuration: rebuilt from the spec, not saved
            self.inner = RandomAgent(5)

    a = WithPlan(1)
    a.inner.rng.random()
    state = json.loads(json.dumps(a.get_state()))
    assert set(state) == {"rng", "plan", "table", "inner"} and state["plan"] == [3, 4]
    b = WithPlan(2)
    b.set_state(state)
    assert b.plan == [3, 4] and b.table == {"a": [1, 2.5]}
    assert b.rng.random() == a.rng.random() and b.inner.rng.random() == a.inner.rng.random()
    with pytest.raises(ValueError, match="bit generator"):
        b.set_state({"rng": {"__generator__": {"bit_generator": "seed"}}})
