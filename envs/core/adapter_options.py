"""Options shared by the AEC and Parallel adapters, the batched envs and the single-agent Gymnasium
env (deckzoo.training): reward modes, illegal-action handling, rendering, the spaces, ``state()``.

Gymnasium is imported by ``make_spaces`` and ``state_space`` only, so the batched engines, which
share the option checks and rewards, load with numpy alone."""

from __future__ import annotations

import functools
import warnings
from dataclasses import replace

import numpy as np

from .errors import ConfigError
from .options import Option, validate_options

ADAPTER_OPTIONS = (
    Option(
        "reward",
        "win",
        "win: winners share +1, the rest -1 at the end; score: final points "
        "centred and scaled; dense: score changes as they happen",
        choices=("win", "score", "dense"),
    ),
    Option(
        "illegal_action",
        "raise",
        "raise: IllegalActionError, state unchanged; penalize: the "
        "offender gets -1 and the game ends",
        choices=("raise", "penalize"),
    ),
    Option(
        "render_mode", None, "ansi returns text, human prints it", choices=(None, "ansi", "human")
    ),
)
ADAPTER_KEYS = {o.name for o in ADAPTER_OPTIONS}


def validate_adapter_options(given: dict, where: str, **defaults) -> dict:
    """``ADAPTER_OPTIONS`` checked (ConfigError names the key); ``defaults`` replaces a default
    (the single-agent Gymnasium env penalises illegal actions unless told otherwise)."""
    spec = tuple(
        replace(o, default=defaults[o.name]) if o.name in defaults else o for o in ADAPTER_OPTIONS
    )
    return validate_options(spec, given, where)


def split_options(game_cls, options: dict):
    """Separate adapter options from game options and validate both (ConfigError names the key)."""
    adapter = validate_adapter_options(
        {k: v for k, v in options.items() if k in ADAPTER_KEYS}, f"{game_cls.name} env"
    )
    game = game_cls(**{k: v for k, v in options.items() if k not in ADAPTER_KEYS})
    return game, adapter


def check_reset(seed, options) -> None:
    """``reset``'s arguments: a seed is None or an int in 0..2**63-1 (else ``ConfigError`` naming
    it). These envs take no reset options (game options go to the constructor); any given are
    reported with a warning rather than silently ignored. A warning, not an error: PettingZoo's
    own ``api_test`` calls ``reset(seed=0, options={"options": 1})`` to check the signature."""
    if seed is not None and (
        isinstance(seed, (bool, np.bool_))
        or not isinstance(seed, (int, np.integer))
        or not 0 <= seed < 2**63
    ):
        raise ConfigError(
            f"reset(): 'seed' must be None or a whole number in 0..2**63-1, got {seed!r}"
        )
    if options:
        warnings.warn(
            f"reset(): this env takes no reset options; ignoring {options!r} "
            "(game options go to the env's constructor)",
            UserWarning,
            stacklevel=3,
        )


NOT_RESET = "call reset() first: the env has no game before its first reset()"


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def make_spaces(game):
    """``(observation space, action space)`` of one seat: the Dict of the float32 vector and the
    int8 mask, and ``Discrete(num_actions)``."""
    from gymnasium import spaces

    obs = spaces.Dict(
        {
            "observation": spaces.Box(
                low=0.0,
                high=np.float32(game.observation_high),
                shape=game.observation_shape,
                dtype=np.float32,
            ),
            "action_mask": spaces.Box(low=0, high=1, shape=(game.num_actions,), dtype=np.int8),
        }
    )
    return obs, spaces.Discrete(game.num_actions)


class GlobalStateMixin:
    """``state_space`` and ``state()``, the engine's full-information global state (for centralised
    critics), for an env holding ``game`` and, once reset, ``game_state``: the AEC, Parallel and
    single-agent envs. It comes first among the bases, before PettingZoo's ``state()`` stub."""

    @functools.cached_property
    def state_space(self):
        from gymnasium import spaces

        game = self.game
        return spaces.Box(
            low=0.0, high=np.float32(game.state_high), shape=game.state_shape, dtype=np.float32
        )

    def state(self) -> np.ndarray:
        if self.game_state is None:
            raise RuntimeError(NOT_RESET)
        return self.game_state.global_state()


class RewardTracker:
    """Turns engine scores into per-step rewards for the chosen mode, for both adapters."""

    def __init__(self, mode: str, state):
        self.mode = mode
        self.last_scores = (
            np.asarray(state.scores(), dtype=np.float64).copy() if mode == "dense" else None
        )

    def step_rewards(self, state) -> np.ndarray:
        game = state.game
        if self.mode == "dense":
            now = np.asarray(state.scores(), dtype=np.float64)
            out = game.score_sign * (now - self.last_scores) / game.score_scale
            self.last_scores = now.copy()
            return out
        if not state.is_terminal():
            return np.zeros(game.num_players)
        return state.returns() if self.mode == "win" else state.score_returns()
