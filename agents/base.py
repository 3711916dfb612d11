"""The Agent protocol (DESIGN.md, "Agents").

An agent maps an ``InfoState`` (one seat's read-only view) to an action id. It never receives
the engine state, so it cannot read hidden cards by construction. Agents are picklable (plain
attributes, a numpy Generator) and seedable, so arenas can ship them to worker processes and
reproduce every game.
"""

from __future__ import annotations

import numpy as np

from deckzoo.envs.core.game import InfoState


class Agent:
    """Base class: subclasses implement ``act``. ``name`` labels the agent in arena tables."""

    name = "agent"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, info_state: InfoState) -> int:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomAgent(Agent):
    """Uniform over the legal actions: the floor every other agent must beat."""

    name = "random"

    def act(self, info_state: InfoState) -> int:
        return int(self.rng.choice(info_state.legal_actions()))
