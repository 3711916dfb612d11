"""deckzoo agents as OpenSpiel policies, and the win-share utility, for exact best responses.

OpenSpiel's exact tools (``exploitability.nash_conv``, ``best_response.BestResponsePolicy``) take
a ``policy.Policy``: action probabilities at an information state. ``agent_policy(game, spec)``
gives one for an agent spec:

- ``random``: uniform over the legal actions (the ``RandomAgent``).
- ``heuristic``: the game's heuristic agent (``make_agent``), deciding from the acting seat's
  ``InfoState`` of the bridged state's engine position. It is deterministic except where it
  breaks a tie by its generator (Go Big's ``rng.choice`` among equally good moves): a recording
  stand-in for that generator returns the tied actions, and the policy is uniform over them,
  which is what the agent plays over its seeds.
- ``ppo:PATH[:greedy|:sample]``: a policy file's network on the seat's observation, as
  ``PPOAgent`` plays it: the masked softmax of its logits (``sample``, the default here, since a
  best response against a stochastic policy is the one the network's own sampling plays), or
  probability 1 on the arg-max (``greedy``, ties to the first legal action, as ``_choose``).

Each policy caches its answer per information-state string (a seat decides from its information
only, so one answer serves every state of the set).

``share_game(name, **params)``: the bridged game whose terminal utility is the seat's *win share*
minus 1/P (``win_credit``: 1 for a sole winner, 1/w for one of w tied winners, else 0), the unit
of ``deckzoo exploit``'s gap. The bridge's ``win`` reward mode is not that unit: its losers share
-1 (a loser's return depends on how many others won), so an exact value in ``win`` returns is not
an expected win share, and a best response to one is not a best response to the other. Under
``share_game`` a seat's exact best-response value *is* the gap a learned best response reports.
"""

from __future__ import annotations

import numpy as np
import pyspiel
from open_spiel.python import policy as os_policy

from deckzoo.agents.registry import make_agent
from deckzoo.envs.core.errors import ConfigError

from . import GAMES
from .bridge import DeckzooState, short_name


# ---- the win-share utility ------------------------------------------------------------------
class ShareState(DeckzooState):
    """A bridged state whose terminal returns are win shares minus 1/P (zero-sum)."""

    def returns(self) -> list[float]:
        n = self.num_players()
        if not self.is_terminal():
            return [0.0] * n
        winners = set(self.core.engine.winners())
        return [(1.0 / len(winners) if p in winners else 0.0) - 1.0 / n for p in range(n)]

    def rewards(self) -> list[float]:
        return self.returns()


_SHARE_CLASSES: dict[str, type] = {}


def share_game(name: str, **params) -> pyspiel.Game:
    """The game ``name`` (any name the registry accepts) with ``params`` (OpenSpiel parameters,
    ``players`` included; ``reward`` must stay ``win``), its utility the win share minus 1/P."""
    if params.get("reward", "win") != "win":
        raise ConfigError("share_game: the win-share utility replaces the reward mode")
    base = GAMES[short_name(name)]
    cls = _SHARE_CLASSES.get(base.__name__)
    if cls is None:

        def new_initial_state(self):
            return ShareState(self)

        cls = type(f"{base.__name__}Share", (base,), {"new_initial_state": new_initial_state})
        _SHARE_CLASSES[base.__name__] = cls
    return cls(params)


# ---- agents as policies ---------------------------------------------------------------------
class CachedPolicy(os_policy.Policy):
    """A policy from a function (engine state, seat) -> {action: probability}, cached per
    information-state string."""

    def __init__(self, game: pyspiel.Game, decide, name: str):
        super().__init__(game, list(range(game.num_players())))
        self.decide, self.name = decide, name
        self.cache: dict[str, dict[int, float]] = {}

    def action_probabilities(self, state, player_id=None) -> dict[int, float]:
        player = state.current_player() if player_id is None else player_id
        key = state.information_state_string(player)
        probs = self.cache.get(key)
        if probs is None:
            probs = self.cache[key] = self.decide(state.engine_state, player)
        return probs


def _uniform(engine_state, player) -> dict[int, float]:
    legal = np.flatnonzero(engine_state.legal_mask())
    return {int(a): 1.0 / len(legal) for a in legal}


class _TieRecorder:
    """The heuristic's generator while the policy asks it: ``choice`` records the tied options
    and returns the first. Any other draw is refused (the policy would not be exact)."""

    def __init__(self):
        self.options = None

    def choice(self, options):
        self.options = [int(a) for a in options]
        return self.options[0]

    def __getattr__(self, name):
        raise ConfigError(f"agent_policy: the heuristic draws rng.{name}, which it cannot record")


def _heuristic(game_name: str):
    agent = make_agent("heuristic", game_name, seed=0)

    def decide(engine_state, player) -> dict[int, float]:
        agent.rng = recorder = _TieRecorder()
        action = int(agent.act(engine_state.for_player(player)))
        if recorder.options is None:
            return {action: 1.0}
        return {a: 1.0 / len(recorder.options) for a in recorder.options}

    return decide


def _ppo(path: str, mode: str, game_name: str):
    from deckzoo.agents.policy import PPOAgent

    weights = PPOAgent(path, game=game_name).weights

    def decide(engine_state, player) -> dict[int, float]:
        legal = np.flatnonzero(engine_state.legal_mask())
        z = weights.legal_logits(engine_state.observe(player), legal)
        if mode == "greedy":
            return {int(legal[int(np.argmax(z))]): 1.0}
        p = np.exp(z - z.max())
        p /= p.sum()
        return {int(a): float(q) for a, q in zip(legal, p, strict=True)}

    return decide


def agent_policy(game: pyspiel.Game, spec: str) -> CachedPolicy:
    """The OpenSpiel policy of the agent ``spec`` (``random``, ``heuristic``,
    ``ppo:PATH[:greedy|:sample]``) at the bridged ``game``."""
    game_name = game.engine.name
    name, _, arg = spec.partition(":")
    if name == "random":
        return CachedPolicy(game, _uniform, spec)
    if name == "heuristic":
        return CachedPolicy(game, _heuristic(game_name), spec)
    if name == "ppo":
        path, mode = arg, "sample"
        head, _, tail = arg.rpartition(":")
        if head and tail in ("greedy", "sample"):
            path, mode = head, tail
        if not path:
            raise ConfigError("agent_policy: ppo needs a path, ppo:PATH[:greedy|:sample]")
        return CachedPolicy(game, _ppo(path, mode, game_name), spec)
    raise ConfigError(f"agent_policy: no policy for {spec!r} (random, heuristic, ppo:PATH)")


__all__ = ["CachedPolicy", "ShareState", "agent_policy", "share_game"]
