"""Batched envs: thousands of games of one configuration stepped by one call.

::

    from deckzoo.envs import vector
    env = vector.make("wizard_v0", num_envs=1024, seed=0, num_players=4)
    obs, mask, player = env.reset()                 # (B, obs_dim) float32, (B, A) bool, (B,) int
    obs, mask, player, rewards, terminated, info = env.step(actions)   # rewards (B, num_players)

Observations, masks and action ids are those of the scalar env of the same game and options
(the observation of the player to act in each lane, as ``state.observe(current_player)``), so a
policy trained on one runs on the other. Finished games restart in the same step; see
docs/vector.md for the whole contract, how chance is made to match the scalar engines in the
tests, and the measured speed.

Batched games: ``wizard_v0``, ``gobig_v0``, ``bignumber_v0`` (``available()``).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from . import _canonical
from .core.batched import BatchedEnv, StateDeals
from .core.errors import ConfigError

_ENGINES = {
    "wizard_v0": ("deckzoo.envs.wizard.batched", "WizardBatched"),
    "gobig_v0": ("deckzoo.envs.gobig.batched", "GoBigBatched"),
    "bignumber_v0": ("deckzoo.envs.bignumber.batched", "BigNumberBatched"),
}


def available() -> list[str]:
    """Env names that have a batched engine."""
    return list(_ENGINES)


def engine_class(name: str):
    key = _canonical(name)
    if key not in _ENGINES:
        raise ConfigError(f"{name} has no batched engine; batched envs: {', '.join(_ENGINES)}")
    module, cls = _ENGINES[key]
    return getattr(import_module(module), cls)


def make(name: str, num_envs: int = 1, seed: Any = None, **options) -> BatchedEnv:
    """A batched env of ``num_envs`` games; ``options`` are the scalar env's (game options,
    ``reward``, ``illegal_action``). ``seed`` seeds the batch's one generator."""
    return BatchedEnv(engine_class(name), num_envs=num_envs, seed=seed, **options)


def from_states(states, seed: Any = None, **adapter_options) -> BatchedEnv:
    """A batched env whose lanes start from scalar positions (games in progress, one game
    configuration); later chance comes from the batch generator seeded with ``seed``."""
    if not states:
        raise ValueError("from_states needs at least one state")
    game = states[0].game
    env = make(type(game).name, num_envs=len(states), seed=seed, **game.config(), **adapter_options)
    env.load_states(states)
    return env


def make_gym(name: str, num_envs: int = 1, seed: Any = None, **options):
    """The single-agent ``gymnasium.vector.VectorEnv`` view (``deckzoo.envs.core.batched_gym``)."""
    from .core.batched_gym import SingleAgentVectorEnv

    return SingleAgentVectorEnv(name, num_envs=num_envs, seed=seed, **options)


__all__ = ["BatchedEnv", "StateDeals", "available", "engine_class", "from_states", "make", "make_gym"]
