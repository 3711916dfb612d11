"""BigWig's action ids, phases and their names: the numbers every other engine module shares.

The id ranges are listed in rules.py's docstring; ``rules.py`` re-exports everything here, so
``from deckzoo.envs.bigwig.rules import PLAY_WELL`` keeps working. This module imports only the
card data, so the encoding, text and check modules can use it without importing rules.py.
"""

from __future__ import annotations

from .cards import NUM_KINDS, NUM_POINT_KINDS, card_name, small_name

PLAY_BASE = 0
PLAY_WELL = NUM_KINDS  # 46
SACRIFICE_BASE = PLAY_WELL + 1  # 47
JOIN = SACRIFICE_BASE + NUM_KINDS  # 93
PASS = JOIN + 1  # 94
TARGET_BASE = PASS + 1  # 95: offset 1 .. n-1


def stake_base(n: int) -> int:
    return TARGET_BASE + n - 1


def num_actions(n: int) -> int:
    return stake_base(n) + NUM_POINT_KINDS


PHASE_TARGET, PHASE_STAKE, PHASE_TICKET, PHASE_COMMIT, PHASE_SACRIFICE, PHASE_OVER = range(6)
PHASE_NAMES = ("target", "stake", "ticket", "commit", "sacrifice", "over")
NONE = -1  # "no card / no seat" in integer fields


def action_name(action: int, stake_first: int) -> str:
    """The action's text (``play red 7``, ``stake 3 VP (...)``); ``stake_first`` is the game's
    ``stake_base`` (the stake ids follow the n - 1 target ids)."""
    b = stake_first
    if PLAY_BASE <= action < PLAY_BASE + NUM_KINDS:
        return f"play {card_name(action - PLAY_BASE)}"
    if action == PLAY_WELL:
        return "play well"
    if SACRIFICE_BASE <= action < SACRIFICE_BASE + NUM_KINDS:
        return f"sacrifice {card_name(action - SACRIFICE_BASE)}"
    if action == JOIN:
        return "join with Til Valhallar"
    if action == PASS:
        return "do not join"
    if TARGET_BASE <= action < b:
        return f"challenge the player {action - TARGET_BASE + 1} to the left"
    if b <= action < b + NUM_POINT_KINDS:
        return f"stake {small_name(action - b)}"
    return f"<invalid action {action}>"
