"""Shared machinery: the engine protocol, errors, encodings and the PettingZoo adapters."""

from .errors import ConfigError, IllegalActionError
from .game import Game, InfoState, State
from .options import Option

__all__ = ["ConfigError", "Game", "IllegalActionError", "InfoState", "Option", "State"]
