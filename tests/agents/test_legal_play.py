"""Agents always pick legal actions, in every available env and player count, checked by the
shared conformance harness's per-step checks (non-empty mask, invariants, and on a sample of
steps the deep ones: exact mask, round trips, view/observe/determinize)."""

from __future__ import annotations

import numpy as np
import pytest

import deckzoo.envs as E
from deckzoo.agents.registry import make_agent
from deckzoo.envs.core.conformance import check_state

from .helpers import ENV_NAMES, agent_specs, make_game

CASES = []
for env in ENV_NAMES:
    counts = E.game_class(env).supported_players()
    for n in sorted({counts[0], counts[len(counts) // 2], counts[-1]}):
        CASES.append((env, n))


def play_checked(game, specs, seed, deep_every=29):
    rng = np.random.default_rng(seed)
    state = game.new_state(int(rng.integers(2**63)))
    agents = [
        make_agent(specs[p % len(specs)], game.name, int(rng.integers(2**31)))
        for p in range(game.num_players)
    ]
    step = 0
    while True:
        check_state(state, rng, deep=step % deep_every == deep_every - 1)
        if state.is_terminal():
            return state, step
        p = state.current_player
        a = agents[p].act(state.for_player(p))
        assert state.legal_mask()[a], (
            f"{specs[p % len(specs)]} chose illegal {a} ({state.action_name(a)})"
        )
        state.apply(a)
        step += 1


@pytest.mark.parametrize("env_name,n", CASES, ids=[f"{e}-{n}p" for e, n in CASES])
def test_agents_pick_legal_actions(env_name, n):
    game = make_game(env_name, n)
    specs = agent_specs(game.name, iterations=4)
    for g in range(2):
        # Rotate so every kind of agent gets every seat parity.
        rotated = specs[g % len(specs) :] + specs[: g % len(specs)]
        state, steps = play_checked(game, rotated, seed=1000 * n + g)
        assert state.is_terminal() and steps > 0


@pytest.mark.parametrize("env_name", ENV_NAMES)
def test_heuristic_self_play_many_games(env_name):
    """Heuristic agents in every seat over many short games (the most common benchmark table)."""
    game = make_game(env_name)
    specs = [s for s in agent_specs(game.name) if not s.startswith("ismcts")]
    for g in range(6):
        play_checked(game, specs[-1:], seed=g, deep_every=97)
