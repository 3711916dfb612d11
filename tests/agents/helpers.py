"""Shared helpers for the agent tests: envs, positions from random play, agents by spec."""

from __future__ import annotations

import numpy as np

import deckzoo.envs as E
from deckzoo.agents.registry import has_heuristic

ENV_NAMES = E.registry.env_names()


def short_options(env_name: str) -> dict:
    return E.registry.short_options(env_name)


def make_game(env_name: str, num_players: int | None = None):
    return E.game_class(env_name)(num_players, **short_options(env_name))


def agent_specs(game_name: str, iterations: int = 8) -> list[str]:
    """Every kind of agent worth checking in ``game_name``: cheap settings for tests."""
    specs = ["random"]
    if has_heuristic(game_name):
        specs.append("heuristic")
    specs.append(f"ismcts:{iterations}:max_rollout_steps=40")
    specs.append(f"ismcts:{iterations}:horizon=1:max_rollout_steps=40")  # round-end values (games with rounds)
    return specs


def positions(game, seed: int, count: int, skip: int = 3) -> list:
    """``count`` non-terminal states from seeded random play, every ``skip``-th decision."""
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        state = game.new_state(int(rng.integers(2**63)))
        step = 0
        while not state.is_terminal() and len(found) < count:
            if step % skip == skip - 1 and len(state.legal_actions()) > 1:
                found.append(state.clone())
            state.apply(int(rng.choice(state.legal_actions())))
            step += 1
    return found
