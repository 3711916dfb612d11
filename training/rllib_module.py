"""deckzoo's masked RLModule for RLlib's PPO, and the export of its actor to ``PolicyWeights``.

``MaskedPPOModule`` is RLlib's default PPO module (``DefaultPPOTorchRLModule``: an MLP actor
encoder and pi head, a separate critic encoder and value head) that reads deckzoo's observation
dict ``{"observation", "action_mask"}``: the networks see ``observation`` only, and every
illegal action's logit is set to the lowest float before the action distribution is built, in
all three forward passes (inference, exploration, training). Illegal actions then have
probability 0 (exactly: ``exp`` underflows), so sampling never picks one, and PPO's log
probabilities, entropy and KL are those of the masked distribution. RLlib's example
``ActionMaskingTorchRLModule`` does the same for an older module class and is meant to be removed;
this one builds on the current default module and leaves the batch it is given unchanged.

``actor_weights(state)`` copies the actor out of a module's state dict (as the learner group
returns it: numpy arrays keyed like ``encoder.actor_encoder.net.mlp.0.weight``) into the numpy
``PolicyWeights`` that ``ppo:PATH`` agents play, so a trained policy plays without Ray or torch.
"""

from __future__ import annotations

import re

import numpy as np
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns

OBS, MASK = "observation", "action_mask"


class MaskedPPOModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO module with deckzoo's action mask applied to its logits."""

    def __init__(self, *, observation_space=None, **kwargs):
        # the networks are built for the observation vector; the module's own space stays the
        # env's dict (RLModuleSpec.from_module and the connectors read it)
        self._env_observation_space = observation_space
        super().__init__(observation_space=observation_space[OBS], **kwargs)

    def setup(self):
        super().setup()
        self.observation_space = self._env_observation_space

    @staticmethod
    def _split(batch):
        obs = batch[Columns.OBS]
        inner = dict(batch)
        inner[Columns.OBS] = obs[OBS]
        return inner, obs[MASK]

    @staticmethod
    def _masked(out, mask):
        import torch

        logits = out[Columns.ACTION_DIST_INPUTS]
        out[Columns.ACTION_DIST_INPUTS] = torch.where(
            mask > 0, logits, torch.finfo(logits.dtype).min
        )
        return out

    def _forward(self, batch, **kwargs):
        inner, mask = self._split(batch)
        return self._masked(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch, **kwargs):
        inner, mask = self._split(batch)
        return self._masked(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch, embeddings=None):
        if isinstance(batch[Columns.OBS], dict):
            batch, _ = self._split(batch)
        return super().compute_values(batch, embeddings)


# ---- export -------------------------------------------------------------------------------------
_ACTOR = re.compile(r"^encoder\.(?:actor_encoder|encoder)\.net\.mlp\.(\d+)\.weight$")
_HEAD = re.compile(r"^pi\.net\.mlp\.(\d+)\.weight$")


def _layers(state: dict, pattern) -> list[tuple[np.ndarray, np.ndarray]]:
    found = sorted((int(m.group(1)), k) for k in state if (m := pattern.match(k)))
    out = []
    for _, key in found:
        w = np.asarray(state[key], dtype=np.float32)
        b = np.asarray(state[key[: -len("weight")] + "bias"], dtype=np.float32)
        out.append((np.ascontiguousarray(w.T), b.copy()))  # torch (out, in) -> (in, out)
    return out


def actor_weights(state: dict, activation: str, num_actions: int | None = None):
    """The actor of a ``MaskedPPOModule`` state dict as ``PolicyWeights``.

    ``num_actions`` keeps the first that many logits: the Parallel env's extra ``NOOP`` action
    (never legal for a seat that decides) is dropped, so the policy plays the engine's actions."""
    from .policy import PolicyWeights

    hidden, head = _layers(state, _ACTOR), _layers(state, _HEAD)
    if not hidden or len(head) != 1:
        raise ValueError(f"not a default PPO module's state (keys: {sorted(state)[:6]}...)")
    w, b = head[0]
    if num_actions is not None:
        w, b = np.ascontiguousarray(w[:, :num_actions]), b[:num_actions].copy()
    return PolicyWeights(hidden=hidden, head=(w, b), activation=activation)


__all__ = ["MASK", "OBS", "MaskedPPOModule", "actor_weights"]
