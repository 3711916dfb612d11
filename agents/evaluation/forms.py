"""Batched forms of agents: one call decides every lane a spec plays, whatever its seat.

``batched_form(spec, game)`` returns a ``BatchedForm`` for the specs that have one: ``random``,
``heuristic`` where the game's heuristic has a batched twin (agents/batched.py), and policy files
(``ppo:PATH[:sample]``, ``zoo:GAME[:sample]``). Anything else (ISMCTS, user agents) has none and
plays as its scalar self, one position at a time.

A form answers as the scalar agent of the same spec would in each lane, with one difference that
cannot be avoided: where the scalar agent draws a random number (random moves, a sampled policy,
a heuristic's tie breaks) the form draws from its own generator, so it makes the same choices
with the same probabilities but not the same draws. Deterministic agents (greedy policies, the
deterministic heuristics) make exactly the scalar agent's moves, so an arena run gives the same
records on either engine.

A greedy policy decides its rows with one matrix product (torch where it is installed, else
numpy). The scalar agent sums its products in another order, so two logits within rounding of
each other could order differently; rows whose best two legal logits are that close are decided
again by the scalar agent's own arithmetic (``PolicyWeights.legal_logits``), which keeps greedy
play identical to the scalar agent's, move for move, at the cost of a few rows.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass

import numpy as np

from ..batched import batched_agent
from ..registry import make_agent

#: rows whose best two legal logits differ by less than this (relative) are decided again with
#: the scalar agent's arithmetic; float32 products in another order differ by far less
TIE_TOLERANCE = 1e-4

POLICY_KINDS = ("ppo", "zoo")


@dataclass
class BatchedForm:
    """An agent spec's batched decision: ``decide(engine, lanes, mask, rng) -> actions``.

    ``engine`` is a batched engine (or ``ScalarLanes``) whose lanes ``lanes`` are each at a
    decision of the seat this form plays there; ``mask`` is ``(len(lanes), A)``."""

    spec: str
    decide: object
    deterministic: bool
    #: the decide function takes ``ties(rows, top)``: ties broken as the scalar agent breaks them
    scalar_ties: bool = False
    #: the decide function takes ``keys``: one key a row from which it draws all its numbers
    #: (``uniforms``), so its draws belong to the game, not to the batch
    keyed: bool = False


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: a bijection of uint64 that scatters nearby inputs."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def decision_keys(agent_seeds: np.ndarray, decisions: np.ndarray) -> np.ndarray:
    """One key a decision: of the deciding seat's agent seed and how many decisions that seat has
    taken in this game. A batched form that draws from these (``uniforms``) makes the same draws
    in a game whichever lane, chunk, batch size, worker or backend plays it, and a seat's agent
    with the same seed (a duplicate board's) makes the same draws in every game of the board."""
    with np.errstate(over="ignore"):
        return _mix(_mix(agent_seeds.astype(np.uint64)) + decisions.astype(np.uint64) * _GOLDEN)


def uniforms(keys: np.ndarray, width: int) -> np.ndarray:
    """``(len(keys), width)`` uniforms in (0, 1): column ``a`` of row ``r`` from ``keys[r]`` and
    ``a`` only (counter-based, like a keyed stream: no generator state to carry)."""
    with np.errstate(over="ignore"):
        cols = _mix(np.arange(1, width + 1, dtype=np.uint64) * _GOLDEN)
        bits = _mix(keys.astype(np.uint64)[:, None] ^ cols[None, :]) >> np.uint64(11)
    return (bits.astype(np.float64) + 0.5) / float(1 << 53)


def random_decide(engine, lanes, mask, rng, keys=None) -> np.ndarray:
    """Uniform over each row's legal actions (drawn from ``keys`` where given, else ``rng``)."""
    u = rng.random(mask.shape) if keys is None else uniforms(keys, mask.shape[1])
    return np.where(mask, u, -1.0).argmax(axis=1)


class PolicyRows:
    """A policy file deciding rows of observations in one pass (greedy or sampled)."""

    def __init__(self, weights, deterministic: bool):
        self.weights, self.deterministic = weights, deterministic
        self._torch = _torch_layers(weights)
        self._head_t = None

    def last_hidden(self, obs: np.ndarray) -> np.ndarray:
        """The input of the head for rows of observations."""
        w = self.weights
        x = np.asarray(obs, dtype=np.float32)
        if w.features is not None:
            x = w.features(x)
        if self._torch is not None:
            import torch

            # One thread for the product: torch's default (a thread a core) made these small
            # products about 4x slower on two cores whenever the other core was busy. The
            # caller's setting is restored, so a trainer's own choice stands.
            threads = torch.get_num_threads()
            torch.set_num_threads(1)
            try:
                with torch.no_grad():
                    return self._torch(torch.from_numpy(np.ascontiguousarray(x))).numpy()
            finally:
                torch.set_num_threads(threads)
        from ..policy import ACTIVATIONS

        act = ACTIVATIONS[w.activation]
        for wt, b in w.hidden:
            x = act(x @ wt + b)
        return x

    def legal_logits(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Logits of the legal actions, -inf elsewhere. With many actions and few legal ones
        (Big Number: 2,180 ids) only the head's columns of the legal (row, action) pairs are
        multiplied: most of a full head's work is on actions no row may take."""
        h = self.last_hidden(obs)
        head_w, head_b = self.weights.head
        rows, cols = np.nonzero(mask)
        if 4 * len(rows) >= mask.size:
            return np.where(mask, h @ head_w + head_b, -np.inf).astype(np.float32)
        if self._head_t is None:
            self._head_t = np.ascontiguousarray(head_w.T)
        z = np.full(mask.shape, -np.inf, dtype=np.float32)
        z[rows, cols] = np.einsum("ij,ij->i", h[rows], self._head_t[cols]) + head_b[cols]
        return z

    def __call__(self, engine, lanes, mask, rng, keys=None) -> np.ndarray:
        obs = engine.observe(engine.cur[lanes], lanes)
        z = self.legal_logits(obs, mask)
        if not self.deterministic:  # Gumbel-max: a sample of the masked softmax
            u = rng.random(z.shape) if keys is None else uniforms(keys, z.shape[1])
            return (z - np.log(-np.log(u))).argmax(axis=1)
        out = z.argmax(axis=1)
        close = _close_calls(z, out)
        for r in close:
            legal = np.flatnonzero(mask[r])
            out[r] = legal[int(np.argmax(self.weights.legal_logits(obs[r], legal)))]
        return out


def _close_calls(z: np.ndarray, best: np.ndarray) -> np.ndarray:
    """Rows whose best legal logit is within rounding of the second best."""
    rows = np.arange(len(z))
    top = z[rows, best]
    rest = z.copy()
    rest[rows, best] = -np.inf
    second = rest.max(axis=1)
    gap = top - second
    scale = np.maximum(1.0, np.abs(top))
    return np.flatnonzero(np.isfinite(second) & (gap <= TIE_TOLERANCE * scale))


def _torch_layers(weights):
    """The hidden layers in torch where it is installed (a batch of rows is several times faster
    there than in numpy on two busy cores), else None."""
    try:
        import torch
        from torch import nn
    except ImportError:
        return None
    acts = {"tanh": nn.Tanh, "relu": nn.ReLU}
    if weights.activation not in acts:
        return None
    layers: list = []
    for w, b in weights.hidden:
        lin = nn.Linear(w.shape[0], w.shape[1])
        lin.weight.data = torch.from_numpy(np.ascontiguousarray(w.T, dtype=np.float32))
        lin.bias.data = torch.from_numpy(np.asarray(b, dtype=np.float32).copy())
        layers += [lin, acts[weights.activation]()]
    return nn.Sequential(*layers).requires_grad_(False)


def batched_form(spec: str, game: str, engine: bool = True) -> BatchedForm | None:
    """The batched form of agent ``spec`` in ``game`` (a game name such as ``"wizard"``), or None
    where it has none. A policy spec is loaded (and checked against the game) here. ``engine``:
    whether the lanes are a batched engine's; a heuristic's twin reads that engine's arrays, so on
    scalar lanes (a game or a variant without a batched engine) the heuristic plays as itself."""
    kind = spec.split(":", 1)[0]
    if spec == "random":
        return BatchedForm(spec, random_decide, False, keyed=True)
    if kind == "heuristic":
        if not engine:
            return None
        twin = batched_agent(spec, game)
        if twin is None:
            return None
        ties = "ties" in inspect.signature(twin).parameters
        return BatchedForm(spec, twin, _heuristic_deterministic(game), ties)
    if kind in POLICY_KINDS:
        agent = make_agent(spec, game, 0)
        rows = PolicyRows(agent.weights, agent.deterministic)
        return BatchedForm(spec, rows, agent.deterministic, keyed=True)
    return None


def _heuristic_deterministic(game: str) -> bool:
    agent = make_agent("heuristic", game, 0)
    return bool(getattr(agent, "deterministic", False))


__all__ = ["BatchedForm", "PolicyRows", "batched_form", "random_decide"]
