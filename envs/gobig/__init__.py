"""Go Big: bank, play a set, beat the nearest higher sets, draw.

rules.py is the engine, env.py the PettingZoo env and its metadata. Exporting ``Game`` here is
what makes this folder a game: the registry (``deckzoo.envs.registry``) finds it by that.
"""

from .rules import GoBigGame as Game

__all__ = ["Game"]
