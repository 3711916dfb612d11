"""Go Big's action ids and phases, with the play encoding and the actions' names.

The id ranges are listed in rules.py's docstring; ``rules.py`` re-exports the ids, phases and play
encoding, so ``from deckzoo.envs.gobig.rules import encode_play`` keeps working. The state's
``action_name`` is text.py's (envs/core/game.py, ``FUNCTION_MODULES``), which names an id with
``action_name`` here.
"""

from __future__ import annotations

from .cards import VALUES

PLAY_BASE = 0
NUM_PLAYS = 3 * VALUES
DRAW_DECK = NUM_PLAYS  # 21
TAKE_MARKET = NUM_PLAYS + 1  # 22
NUM_ACTIONS = NUM_PLAYS + 2

PHASE_PLAY, PHASE_DRAW, PHASE_OVER = 0, 1, 2
PHASE_NAMES = ("play", "draw", "over")


def encode_play(value: int, size: int) -> int:
    return PLAY_BASE + (size - 1) * VALUES + (value - 1)


def decode_play(action: int) -> tuple[int, int]:
    """(value, size) of a play action."""
    size, value = divmod(action - PLAY_BASE, VALUES)
    return value + 1, size + 1


def action_name(action: int) -> str:
    """``play 2x5`` (two 5s), ``draw from deck``, ``take market``."""
    if action == DRAW_DECK:
        return "draw from deck"
    if action == TAKE_MARKET:
        return "take market"
    if 0 <= action < NUM_PLAYS:
        value, size = decode_play(action)
        return f"play {size}x{value}"
    return f"<invalid action {action}>"
