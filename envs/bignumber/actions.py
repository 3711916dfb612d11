"""Big Number's action ids and phases, with the actions' names.

The id ranges are listed in rules.py's docstring; ``rules.py`` re-exports the ids and phases, so
``from deckzoo.envs.bignumber.rules import PASS`` keeps working.
"""

from __future__ import annotations

from .cards import NUM_TYPES, SETS, card_name, cards_name, play_value

PICK_BASE = 0
PASS = NUM_TYPES  # 36
PLAY_BASE = PASS + 1  # 37: one deck, a set a play
NUM_ACTIONS_ONE_DECK = PLAY_BASE + len(SETS)  # 2180
ADD_BASE = PASS + 1  # 37: two decks, one card a step
FINISH = ADD_BASE + NUM_TYPES  # 73
NUM_ACTIONS_TWO_DECKS = FINISH + 1  # 74

LEAD, ANSWER, PICK, OVER = 0, 1, 2, 3
PHASE_NAMES = ("lead", "answer", "pick", "over")


def action_name(action: int, two_decks: bool, sets=SETS) -> str:
    """The action's text as the action list shows it (``two_decks``: the game's; the play ids
    differ, a set a play with one deck, a card a step with two; ``sets``: the game's play table,
    a variant's is shorter)."""
    if 0 <= action < PASS:
        return f"take {card_name(action - PICK_BASE)}"
    if action == PASS:
        return "pass"
    if two_decks:
        if ADD_BASE <= action < FINISH:
            return f"add {card_name(action - ADD_BASE)}"
        if action == FINISH:
            return "finish play"
    elif PLAY_BASE <= action < PLAY_BASE + len(sets):
        t = sets[action - PLAY_BASE]
        return f"play {cards_name(t)} ({play_value(t)})"
    return f"<invalid action {action}>"
