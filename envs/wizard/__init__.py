"""Wizard: trick-taking with predictions.

rules.py is the engine, env.py the PettingZoo env and its metadata. Exporting ``Game`` here is
what makes this folder a game: the registry (``deckzoo.envs.registry``) finds it by that.
"""

from .rules import WizardGame as Game

__all__ = ["Game"]
