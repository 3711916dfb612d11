"""Observers (OpenSpiel's ``make_py_observer``): the observation and the information state.

The observation is deckzoo's own: ``observe(p)`` as the tensor, cut into the game layout's named
pieces, and ``view(p)`` as canonical JSON for the string. The information state has perfect
recall (history.py): the string lists what the seat saw after every step and its own actions;
the tensor has a row per such step (``observations``: ``observe(p)``; ``own_actions``: the
one-hot of the seat's action in it), zero-padded to ``max_game_length + 1`` rows. A configuration
whose rows would pass ``bridge.MAX_INFO_TENSOR`` floats has no information-state tensor.

At a chance node the seat sees the position before the action waiting for chance; before the
set-up's chance is done, nothing (zeros, and ``player_<p>`` alone).
"""

from __future__ import annotations

import numpy as np
import pyspiel

from .history import dumps, info_string, info_tensor


class ObservationObserver:
    def __init__(self, game):
        engine = game.engine
        self.tensor = np.zeros(engine.layout.size, dtype=np.float32)
        self.dict = engine.layout.views(self.tensor)

    def set_from(self, state, player: int) -> None:
        engine = state.engine_state
        if engine is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = engine.observe(player)

    def string_from(self, state, player: int) -> str:
        engine = state.engine_state
        return "" if engine is None else dumps(engine.view(player))


class InfoStateObserver:
    def __init__(self, game):
        engine = game.engine
        rows = game.info_rows
        if rows:
            width = engine.layout.size
            self.tensor = np.zeros(rows * (width + engine.num_actions), dtype=np.float32)
            self.dict = {
                "observations": self.tensor[: rows * width].reshape(rows, width),
                "own_actions": self.tensor[rows * width :].reshape(rows, engine.num_actions),
            }
        else:
            self.tensor, self.dict = None, {}

    def set_from(self, state, player: int) -> None:
        if self.tensor is None:
            raise ValueError(
                "this configuration has no information-state tensor (too many steps: "
                "docs/openspiel.md); the information-state string is there"
            )
        info_tensor(state.core.step, player, self.dict["observations"], self.dict["own_actions"])

    def string_from(self, state, player: int) -> str:
        return info_string(state.core.step, player)


def make_observer(game, iig_obs_type=None, params=None):
    """The observation (``perfect_recall=False``, the default) or the information state
    (``perfect_recall=True``), both for one seat's own private information and the public one."""
    if params:
        raise ValueError(f"observation parameters are not supported, got {params}")
    if iig_obs_type is None:
        return ObservationObserver(game)
    if not iig_obs_type.public_info or (
        iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
    ):
        raise ValueError(
            "deckzoo's observers show one seat its own cards and the public information; "
            f"got {iig_obs_type}"
        )
    if iig_obs_type.perfect_recall:
        return InfoStateObserver(game)
    return ObservationObserver(game)
