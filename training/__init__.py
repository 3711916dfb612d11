"""Training: a single-agent Gymnasium wrapper, self-play and the MaskablePPO runner.

Importing this package registers ``deckzoo/<Game>-v0`` with Gymnasium for every available game
(see ``single_agent``). torch and stable-baselines3 are imported only by ``train`` and
``policy.PPOAgent.load``, so the env itself stays light.
"""

from .single_agent import SingleAgentEnv, gym_id, register_envs

GYM_IDS = register_envs()

__all__ = ["GYM_IDS", "SingleAgentEnv", "gym_id", "register_envs"]
