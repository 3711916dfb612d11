"""Wizard's action ids and phases, with their encoders and names.

The id ranges are listed in rules.py's docstring; ``rules.py`` re-exports everything here, so
``from deckzoo.envs.wizard.rules import encode_bid`` keeps working.
"""

from __future__ import annotations

from .cards import NUM_KINDS, NUM_SUITS, SUITS, card_name

PLAY_BASE = 0
NUM_PLAYS = NUM_KINDS  # 54
TRUMP_BASE = PLAY_BASE + NUM_PLAYS  # 54
BID_BASE = TRUMP_BASE + NUM_SUITS  # 58

PHASE_TRUMP, PHASE_BID, PHASE_PLAY, PHASE_OVER = 0, 1, 2, 3
PHASE_NAMES = ("trump", "bid", "play", "over")


def encode_play(card: int) -> int:
    return PLAY_BASE + card


def encode_trump(suit: int) -> int:
    return TRUMP_BASE + suit


def encode_bid(bid: int) -> int:
    return BID_BASE + bid


def decode_action(action: int) -> tuple[str, int]:
    """("play", card) | ("trump", suit) | ("bid", tricks)."""
    if action < TRUMP_BASE:
        return "play", action - PLAY_BASE
    if action < BID_BASE:
        return "trump", action - TRUMP_BASE
    return "bid", action - BID_BASE


def action_name(action: int, num_actions: int) -> str:
    """``play Dwarves 7``, ``trump Elves``, ``bid 2`` (``num_actions``: the game's)."""
    if not 0 <= action < num_actions:
        return f"<invalid action {action}>"
    kind, x = decode_action(action)
    if kind == "play":
        return f"play {card_name(x)}"
    if kind == "trump":
        return f"trump {SUITS[x]}"
    return f"bid {x}"
