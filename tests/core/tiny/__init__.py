"""Tiny: the throw-away sixth game of tests/core/test_registry.py (copied into a temporary folder
that joins deckzoo/envs; never imported from here)."""

from .rules import TinyGame as Game

__all__ = ["Game"]
