"""The SB3 side of trained policies: copying a MaskablePPO actor into numpy.

The numpy policy itself (``PolicyWeights``, ``PolicyAgent``, ``PPOAgent``, the policy file and
the ``ppo:PATH`` agent spec) lives in ``deckzoo.agents.policy``, so that agents load a policy
without torch or stable-baselines3; it is re-exported here for code that imported it from
``deckzoo.training.policy``.
"""

from __future__ import annotations

import numpy as np

from deckzoo.agents.policy import (
    PolicyAgent,
    PolicyWeights,
    PPOAgent,
    load_policy,
    load_weights,
    masked_choice,
    save_policy,
)
from deckzoo.envs.core.errors import ConfigError


def weights_from_sb3(policy) -> PolicyWeights:
    """Copy the actor of an SB3 (Maskable)ActorCriticPolicy with an MLP extractor."""
    from torch import nn

    hidden, activation = [], None
    for m in policy.mlp_extractor.policy_net:
        if isinstance(m, nn.Linear):
            hidden.append(_linear(m))
        else:
            name = {nn.Tanh: "tanh", nn.ReLU: "relu"}.get(type(m))
            if name is None or (activation not in (None, name)):
                raise ConfigError(
                    f"cannot copy a policy with activation {type(m).__name__}; use tanh or relu"
                )
            activation = name
    return PolicyWeights(
        hidden=hidden, head=_linear(policy.action_net), activation=activation or "tanh"
    )


def _linear(m) -> tuple[np.ndarray, np.ndarray]:
    """A torch Linear as ``(W, b)`` with ``W`` shaped (in, out), C-contiguous."""
    return (
        np.ascontiguousarray(m.weight.detach().cpu().numpy().astype(np.float32).T),
        m.bias.detach().cpu().numpy().astype(np.float32).copy(),
    )


__all__ = [
    "PPOAgent",
    "PolicyAgent",
    "PolicyWeights",
    "load_policy",
    "load_weights",
    "masked_choice",
    "save_policy",
    "weights_from_sb3",
]
