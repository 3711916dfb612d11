"""The Agent protocol.

An agent maps an ``InfoState`` (one seat's read-only view) to an action id. It never receives
the engine state, so it cannot read hidden cards by construction. Agents are picklable (plain
attributes, a numpy Generator) and seedable, so arenas can ship them to worker processes and
reproduce every game.

``get_state()`` / ``set_state(d)`` save and restore an agent's mutable state as plain JSON-able
data (its generators, queued plans, nested agents), so a training run that seats agents can be
checkpointed without pickling them: rebuild the agent from its spec, then ``set_state``.
"""

from __future__ import annotations

import numpy as np

from deckzoo.envs.core.game import InfoState, rng_from_dict


class Agent:
    """Base class: subclasses implement ``act``. ``name`` labels the agent in arena tables."""

    name = "agent"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, info_state: InfoState) -> int:
        raise NotImplementedError

    def get_state(self) -> dict:
        """The agent's mutable state as JSON-able data: every generator, every nested agent and
        every attribute holding plain data (numbers, strings, lists, str-keyed dicts). Anything
        else (weights, game objects) is construction-time configuration that the agent's spec
        rebuilds, so it is left out."""
        out = {}
        for key, value in vars(self).items():
            ok, enc = _encode(value)
            if ok:
                out[key] = enc
        return out

    def set_state(self, state: dict) -> None:
        """Restore ``get_state()`` on an agent built the same way (same spec)."""
        for key, enc in state.items():
            current = getattr(self, key, None)
            if isinstance(enc, dict) and "__agent__" in enc:
                if not isinstance(current, Agent):
                    raise ValueError(
                        f"{type(self).__name__}.{key}: saved as an agent, but this one has none"
                    )
                current.set_state(enc["__agent__"])
            else:
                setattr(self, key, _decode(enc))

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomAgent(Agent):
    """Uniform over the legal actions: the floor every other agent must beat."""

    name = "random"

    def act(self, info_state: InfoState) -> int:
        return int(self.rng.choice(info_state.legal_actions()))


def _encode(value) -> tuple[bool, object]:
    """``(True, plain data)`` for state ``get_state`` keeps, ``(False, None)`` for the rest."""
    if isinstance(value, np.random.Generator):
        return True, {"__generator__": value.bit_generator.state}
    if isinstance(value, Agent):
        return True, {"__agent__": value.get_state()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return True, value
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        return True, value.item()
    if isinstance(value, (list, tuple)):
        items = [_encode(v) for v in value]
        return (True, [e for _, e in items]) if all(ok for ok, _ in items) else (False, None)
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        items = {k: _encode(v) for k, v in value.items()}
        if not all(ok for ok, _ in items.values()):
            return False, None
        return True, {k: e for k, (_, e) in items.items()}
    if isinstance(value, dict) and all(type(k) is int for k in value):
        # JSON keys are strings: int keys (a seat -> plan table) are kept as [key, value] pairs
        pairs = [(k, _encode(v)) for k, v in value.items()]
        if not all(ok for _, (ok, _) in pairs):
            return False, None
        return True, {"__int_keys__": [[k, e] for k, (_, e) in pairs]}
    return False, None


def _decode(enc):
    if isinstance(enc, dict):
        if "__generator__" in enc:
            return rng_from_dict({"bit_generator": enc["__generator__"]})
        if "__int_keys__" in enc:
            return {int(k): _decode(v) for k, v in enc["__int_keys__"]}
        return {k: _decode(v) for k, v in enc.items()}
    if isinstance(enc, list):
        return [_decode(v) for v in enc]
    return enc
