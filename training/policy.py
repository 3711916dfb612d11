"""Trained policies as Agents: ``PPOAgent`` (a policy file) and the numpy policy behind it.

A MaskablePPO ``MlpPolicy`` acts through its actor alone: observation -> hidden layers -> action
logits, masked to the legal actions. ``PolicyWeights`` copies those weights into numpy arrays,
so a policy acts without torch, in any process, at a few microseconds a decision (the self-play
pool and evaluation run many thousands of them). ``PolicyAgent`` plays from a ``PolicyWeights``;
``PPOAgent`` loads one from a file: a MaskablePPO ``.zip``, or a deckzoo policy file (``.npz``,
written by ``save_policy``: the arrays, read with ``allow_pickle=False``, and one JSON metadata
string; the vector trainer's ``policy.npz``).

Importing this module registers the agent spec ``ppo:PATH`` (greedy: the most likely legal
action) and ``ppo:PATH:sample`` (samples the policy's distribution) with
``deckzoo.agents.registry``, so ``deckzoo arena gobig --agents ppo:runs/gobig/final.zip,heuristic``
(or ``ppo:runs/gobig-vector/policy.npz``) works. torch and sb3-contrib are imported only when a
.zip is loaded.
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import numpy as np

from deckzoo.agents.base import Agent
from deckzoo.agents.registry import register_agent
from deckzoo.envs.core.errors import ConfigError
from deckzoo.envs.core.game import InfoState

ACTIVATIONS = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
}


@dataclass
class PolicyWeights:
    """The actor of an MLP policy: ``hidden`` is a list of ``(W, b)``, each followed by
    ``activation``; ``head`` maps the last layer to action logits.

    ``W`` is stored shaped (in, out), C-contiguous (torch's weight transposed). Products use
    ``np.einsum`` (numpy's own single-threaded loop) rather than ``@``: OpenBLAS starts its
    threads for larger products, and on a busy 2-core machine one Big Number decision
    (325 -> 256 -> 256 -> 2180) then took 6-12 ms instead of about 0.2 ms."""

    hidden: list[tuple[np.ndarray, np.ndarray]]
    head: tuple[np.ndarray, np.ndarray]
    activation: str = "tanh"

    @property
    def obs_size(self) -> int:
        return (self.hidden[0][0] if self.hidden else self.head[0]).shape[0]

    @property
    def num_actions(self) -> int:
        return self.head[0].shape[1]

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """Action logits for one observation (any shape; flattened) or a batch (rows)."""
        x = np.asarray(obs, dtype=np.float32)
        x = x.reshape(-1) if x.ndim != 2 else x
        spec = "i,ij->j" if x.ndim == 1 else "bi,ij->bj"
        act = ACTIVATIONS[self.activation]
        for w, b in self.hidden:
            x = act(np.einsum(spec, x, w) + b)
        w, b = self.head
        return np.einsum(spec, x, w) + b

    def legal_logits(self, obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """Logits of the actions ``legal`` (indices) for one observation: the head's rows for the
        legal actions only. With a large action space (Big Number: 2180) and few legal actions,
        the head is most of a forward pass, so pool opponents and evaluation use this."""
        x = np.asarray(obs, dtype=np.float32).reshape(-1)
        act = ACTIVATIONS[self.activation]
        for w, b in self.hidden:
            x = act(np.einsum("i,ij->j", x, w) + b)
        wt = self.__dict__.get("_head_t")
        if wt is None:  # the head transposed, (actions, in): a legal action's weights are one row
            wt = self.__dict__["_head_t"] = np.ascontiguousarray(self.head[0].T)
        return np.einsum("ij,j->i", wt[legal], x) + self.head[1][legal]

    def __getstate__(self):
        return {k: v for k, v in self.__dict__.items() if k != "_head_t"}  # the cache is rebuilt

    def equals(self, other: PolicyWeights) -> bool:
        pairs = list(zip(self.hidden, other.hidden)) + [(self.head, other.head)]
        return (self.activation == other.activation and len(self.hidden) == len(other.hidden)
                and all(np.array_equal(a, c) and np.array_equal(b, d) for (a, b), (c, d) in pairs))

    @classmethod
    def from_sb3(cls, policy) -> PolicyWeights:
        """Copy the actor of an SB3 (Maskable)ActorCriticPolicy with an MLP extractor."""
        from torch import nn

        hidden, activation = [], None
        layers = list(policy.mlp_extractor.policy_net)
        for i, m in enumerate(layers):
            if isinstance(m, nn.Linear):
                hidden.append(_linear(m))
            else:
                name = {nn.Tanh: "tanh", nn.ReLU: "relu"}.get(type(m))
                if name is None or (activation not in (None, name)):
                    raise ConfigError(f"cannot copy a policy with activation {type(m).__name__}; use tanh or relu")
                activation = name
        return cls(hidden=hidden, head=_linear(policy.action_net), activation=activation or "tanh")


def _linear(m) -> tuple[np.ndarray, np.ndarray]:
    """A torch Linear as ``(W, b)`` with ``W`` shaped (in, out), C-contiguous."""
    return (np.ascontiguousarray(m.weight.detach().cpu().numpy().astype(np.float32).T),
            m.bias.detach().cpu().numpy().astype(np.float32).copy())


def masked_choice(logits: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None) -> int:
    """Argmax over the legal actions (``rng`` None) or a sample of the masked softmax."""
    legal = np.flatnonzero(mask)
    return int(legal[_choose(logits[legal], rng)])


def _choose(z: np.ndarray, rng: np.random.Generator | None) -> int:
    """Index of the largest of ``z`` (``rng`` None) or a sample of ``softmax(z)``."""
    if rng is None:
        return int(np.argmax(z))
    p = np.exp(z - z.max())
    c = np.cumsum(p)
    i = int(np.searchsorted(c, rng.random() * c[-1], side="right"))
    return min(i, len(z) - 1)


class PolicyAgent(Agent):
    """An Agent playing a ``PolicyWeights`` on ``info_state.observe()`` and its legal mask."""

    name = "policy"

    def __init__(self, weights: PolicyWeights, seed: int | None = None, deterministic: bool = False):
        super().__init__(seed)
        self.weights = weights
        self.deterministic = deterministic

    def act(self, info_state: InfoState) -> int:
        obs = info_state.observe()
        if obs.size != self.weights.obs_size:
            raise ConfigError(f"{self.name}: the policy takes observations of size {self.weights.obs_size}, "
                              f"this game gives {obs.size} (trained for another game or options?)")
        legal = np.flatnonzero(info_state.legal_mask())
        return int(legal[_choose(self.weights.legal_logits(obs, legal), None if self.deterministic else self.rng)])

    def __repr__(self) -> str:
        return f"{type(self).__name__}(deterministic={self.deterministic})"


class PPOAgent(PolicyAgent):
    """A MaskablePPO model saved as .zip, acting greedily (default) or by sampling."""

    name = "ppo"

    def __init__(self, path: str, seed: int | None = None, deterministic: bool = True):
        self.path = str(path)
        super().__init__(load_weights(self.path), seed, deterministic)

    def __repr__(self) -> str:
        return f"PPOAgent({self.path!r}, deterministic={self.deterministic})"


POLICY_FORMAT = "deckzoo.policy"
POLICY_VERSION = 1


def save_policy(path: str | Path, weights: PolicyWeights, *, game: str | None = None,
                game_config: dict | None = None, trainer: str | None = None,
                training: dict | None = None) -> Path:
    """Write ``weights`` as a deckzoo policy file (``.npz``: arrays ``hidden_<i>_weight``,
    ``hidden_<i>_bias``, ``head_weight``, ``head_bias`` and ``meta``, one JSON string saying what
    it is and what produced it), atomically. Nothing in it is pickled."""
    meta = {"format": POLICY_FORMAT, "version": POLICY_VERSION, "kind": "mlp_actor",
            "activation": weights.activation, "obs_size": int(weights.obs_size),
            "num_actions": int(weights.num_actions),
            "hidden_sizes": [int(w.shape[1]) for w, _ in weights.hidden],
            "game": game, "game_config": game_config, "trainer": trainer, "training": training}
    arrays = {"head_weight": weights.head[0], "head_bias": weights.head[1]}
    for i, (w, b) in enumerate(weights.hidden):
        arrays[f"hidden_{i}_weight"], arrays[f"hidden_{i}_bias"] = w, b
    buf = io.BytesIO()
    np.savez(buf, meta=np.array(json.dumps(meta, sort_keys=True)), **arrays)
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(buf.getvalue())
    os.replace(tmp, path)
    return path


def _load_npz(path: str) -> PolicyWeights:
    """A deckzoo policy file; ``ConfigError`` naming the file if it is not one."""
    def bad(why: str) -> ConfigError:
        return ConfigError(f"ppo: {path!r} is not a usable deckzoo policy file ({why})")

    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
        meta = json.loads(str(arrays.pop("meta")))
    except KeyError:
        raise bad("no 'meta'") from None
    except Exception as e:  # noqa: BLE001 - numpy and json raise many kinds; all mean "damaged"
        raise bad(f"{type(e).__name__}: {e}") from None
    if not isinstance(meta, dict) or meta.get("format") != POLICY_FORMAT:
        raise bad(f"'meta.format' is not {POLICY_FORMAT!r}")
    if meta.get("version") != POLICY_VERSION or meta.get("activation") not in ACTIVATIONS:
        raise bad(f"version {meta.get('version')!r}, activation {meta.get('activation')!r}")
    try:
        hidden = [(arrays[f"hidden_{i}_weight"], arrays[f"hidden_{i}_bias"])
                  for i in range(len(meta["hidden_sizes"]))]
        weights = PolicyWeights(hidden=hidden, head=(arrays["head_weight"], arrays["head_bias"]),
                                activation=meta["activation"])
    except (KeyError, TypeError) as e:
        raise bad(f"missing array {e}") from None
    layers = [*hidden, weights.head]
    shapes_ok = all(w.ndim == 2 and w.dtype.kind == "f" and b.shape == (w.shape[1],)
                    for w, b in layers)
    chained = all(nxt[0].shape[0] == cur[0].shape[1] for cur, nxt in pairwise(layers))
    sizes = [weights.obs_size, *(w.shape[1] for w, _ in hidden), weights.num_actions]
    if not (shapes_ok and chained) or sizes != [meta.get("obs_size"), *meta["hidden_sizes"],
                                                meta.get("num_actions")]:
        raise bad("the arrays' shapes do not match each other or 'meta'")
    return weights


def load_weights(path: str) -> PolicyWeights:
    """The actor weights of a deckzoo policy file (``.npz``) or a MaskablePPO .zip (on the CPU)."""
    if not os.path.exists(path):
        raise ConfigError(f"ppo: no model file {path!r}")
    if str(path).endswith(".npz"):
        return _load_npz(path)
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as zf:
            if "meta.npy" in zf.namelist():  # a policy file under another name
                return _load_npz(path)
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(path, device="cpu")
    return PolicyWeights.from_sb3(model.policy)


def _factory(game_name: str, seed: int | None, arg: str | None) -> Agent:
    if not arg:
        raise ConfigError("agent spec 'ppo' needs a model path: ppo:PATH or ppo:PATH:sample")
    path, mode = arg, "greedy"
    head, _, tail = arg.rpartition(":")
    if head and tail in ("greedy", "sample"):
        path, mode = head, tail
    return PPOAgent(path, seed, deterministic=(mode == "greedy"))


register_agent("ppo", _factory)
