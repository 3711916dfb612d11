"""Shared machinery: the engine protocol, errors, encodings and the PettingZoo adapters."""

from .errors import ConfigError, IllegalActionError
from .game import Game, InfoState, State
from .options import Option

__all__ = ["ConfigError", "IllegalActionError", "Game", "InfoState", "State", "Option"]
