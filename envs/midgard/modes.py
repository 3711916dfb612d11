"""Midgard turn constants and decision modes (the kinds of frame on the decision stack).

The top frame of ``state.stack`` (one class per mode, frames.py; saved as a dict ``{"m": mode,
"p": seat, ...}``) says the seat that decides now (``p``) and what it decides (``m``).
``MODE_RANGES`` lists the action ranges each mode may use (``is_legal`` rejects every other
range at once).
"""

from __future__ import annotations

HAND_SIZE = 9
START_COINS = 6
TOTAL_COINS = 50
MIN_OPEN = 6

# Decision modes (the top frame of the decision stack says who decides what).
(
    KROG,
    PREP,
    BUILD,
    RELOCATE,
    CLAIM,
    ONSLAUGHT,
    TRAVEL,
    CHALLENGE,
    DISCARD_REQ,
    TAKE,
    RESERVE,
    KEEP,
    DEFEND,
    SPOILS,
    REACT,
    BONUS,
    EV_DISCARD,
    ENGAGE,
    MOVE,
) = range(19)
MODE_NAMES = (
    "krog",
    "preparation",
    "build",
    "relocate",
    "claim",
    "onslaught",
    "travel",
    "challenge",
    "discard_requirement",
    "take_card",
    "reserve",
    "keep_reward",
    "defend",
    "spoils",
    "reaction_window",
    "bonus",
    "event_discard",
    "event_engage",
    "move",
)
# Frames whose seat ``cardplay.settle`` finds (``p`` is -1 until then): queues of seats to ask.
QUEUE_MODES = frozenset((REACT, BONUS, EV_DISCARD, ENGAGE))
NUM_MODES = len(MODE_NAMES)

MODE_RANGES = {
    KROG: {"hire", "pass", "reveal_reward"},
    PREP: {
        "end_phase",
        "new_troop",
        "place_class",
        "place_snedig",
        "place_tyr",
        "place_thor",
        "claim_target",
        "reveal_reward",
        "play_event",
    },
    BUILD: {"place_class", "place_snedig", "place_tyr", "place_thor", "finish", "cancel"},
    RELOCATE: {"relocate"},
    CLAIM: {"claim", "cancel"},
    ONSLAUGHT: {"end_phase", "travel", "face", "attack", "reveal_reward"},
    TRAVEL: {"select_troop", "cancel"},
    CHALLENGE: {"select_troop", "finish", "cancel", "reveal_reward"},
    DISCARD_REQ: {"discard"},
    TAKE: {"take_card"},
    RESERVE: {"reserve"},
    KEEP: {"keep_reward"},
    DEFEND: {"defend", "refuse"},
    SPOILS: {"discard"},
    REACT: {"react", "pass"},
    BONUS: {"bonus", "pass"},
    EV_DISCARD: {"discard"},
    ENGAGE: {"select_troop"},
    MOVE: {"move"},
}
