"""Midgard action ids: one fixed ``Discrete`` space cut into named ranges (docs/rules/midgard.md).

Every composite choice is a sequence of these single decisions; ``encode``/``decode`` are pure
and round-trip (tested). Seats in actions are relative to the actor (1 = the player on the
left), so one policy fits every seat; the space is sized for 6 players whatever the count.
"""

from __future__ import annotations

from .cards import DATA, SNEDIG, THOR, TYR, WORLD_NAMES
from .troops import CLAIM_NAMES, REL_NAMES

MAX_PLAYERS = 6
MAX_TROOPS = 5
PENDING = MAX_TROOPS  # troop index 5 = the troop being laid down
NUM_KINDS = DATA.num_kinds
NUM_CHALLENGES = len(DATA.challenges)
NUM_WORLDS = len(WORLD_NAMES)
NUM_REWARD_KINDS = len(DATA.rewards)

# (name, shape): the ranges in id order. Shapes are the sizes of each coordinate.
RANGES = [
    ("hire", ()),  # Krog contracting: pay 1 coin, take the Krog top and a Thing card
    ("pass", ()),  # Krog contracting: decline
    ("end_phase", ()),  # end Preparation / end Onslaught
    ("new_troop", ()),  # start laying down a new troop
    ("finish", ()),  # finish the troop being laid down / confirm the troops facing a challenge
    ("cancel", ()),  # abandon the current composite choice (cards and troops return)
    ("refuse", ()),  # defender: do not defend
    ("place_class", (MAX_TROOPS + 1, 10)),  # (troop, class): a natural card into a troop
    ("place_snedig", (MAX_TROOPS + 1, 2)),  # (troop, side 0 left / 1 right)
    ("place_tyr", (MAX_TROOPS + 1, 12)),  # (troop, slot 0-11: 0/11 flanks, class c at c+1)
    # (troop, class): the lower of the two classes a Thor covers, or the class of a series
    ("place_thor", (MAX_TROOPS + 1, 10)),
    ("relocate", (2,)),  # where a displaced wildcard goes: below the low end / above the high end
    ("claim_target", (MAX_PLAYERS - 1, MAX_TROOPS)),  # (opponent rel seat - 1, troop)
    ("claim", (12, 4)),  # (slot, form: take Tyr, take Thor, put Tyr, put Thor)
    ("travel", (NUM_WORLDS,)),
    ("face", (NUM_CHALLENGES,)),
    ("select_troop", (MAX_TROOPS,)),
    ("attack", (MAX_PLAYERS - 1, MAX_TROOPS)),  # (defender rel seat - 1, attacking troop)
    ("defend", (MAX_TROOPS,)),
    ("take_card", (NUM_KINDS,)),  # from Valhalla (Vanaheim) or Krog (Jotunheim)
    ("discard", (NUM_KINDS,)),
    ("reserve", (NUM_CHALLENGES,)),  # Alfheim
    ("keep_reward", (NUM_REWARD_KINDS,)),
    ("reveal_reward", (NUM_REWARD_KINDS,)),  # reveal a coin reward for its coins
    # part 2 (events, bonuses, reactions): appended, so the ids above are unchanged
    ("play_event", (DATA.num_events,)),  # play an event for its effect (Preparation)
    ("bonus", (DATA.num_events + DATA.num_reactions,)),  # an event/reaction face down as a bonus
    ("react", (DATA.num_reactions,)),  # play a reaction in a reaction window
    ("move", (NUM_WORLDS,)),  # move the own meeple by a card effect (not a trip)
]
FIRST_ACTION_CARD = NUM_KINDS - DATA.num_events - DATA.num_reactions  # kind of the first event
FIRST_REACTION = FIRST_ACTION_CARD + DATA.num_events

BASE: dict[str, int] = {}
SHAPE: dict[str, tuple] = {}
_n = 0
for _name, _shape in RANGES:
    BASE[_name] = _n
    SHAPE[_name] = _shape
    size = 1
    for d in _shape:
        size *= d
    _n += size
NUM_ACTIONS = _n
_ORDER = sorted(BASE.items(), key=lambda kv: kv[1])

HIRE, PASS, END_PHASE, NEW_TROOP, FINISH, CANCEL, REFUSE = (
    BASE[k] for k in ("hire", "pass", "end_phase", "new_troop", "finish", "cancel", "refuse")
)


def encode(name: str, *coords: int) -> int:
    shape = SHAPE[name]
    if len(coords) != len(shape):
        raise ValueError(f"{name} takes {len(shape)} coordinate(s), got {coords}")
    idx = 0
    for c, d in zip(coords, shape):
        if not 0 <= c < d:
            raise ValueError(f"{name}: coordinate {c} out of range 0..{d - 1}")
        idx = idx * d + c
    return BASE[name] + idx


def _decode(action: int) -> tuple[str, tuple[int, ...]]:
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action} out of range 0..{NUM_ACTIONS - 1}")
    name = None
    for nm, base in _ORDER:
        if base <= action:
            name = nm
        else:
            break
    idx = action - BASE[name]
    coords = []
    for d in reversed(SHAPE[name]):
        idx, c = divmod(idx, d)
        coords.append(c)
    return name, tuple(reversed(coords))


_TABLE = [_decode(a) for a in range(NUM_ACTIONS)]


def decode(action: int) -> tuple[str, tuple[int, ...]]:
    """(range name, coordinates) of an action id."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action} out of range 0..{NUM_ACTIONS - 1}")
    return _TABLE[action]


def range_table() -> str:
    """The action ranges as a markdown table (for the docs)."""
    rows = ["| ids | range | coordinates |", "|---|---|---|"]
    for name, shape in RANGES:
        size = 1
        for d in shape:
            size *= d
        lo = BASE[name]
        ids = str(lo) if size == 1 else f"{lo}-{lo + size - 1}"
        rows.append(f"| {ids} | `{name}` | {' x '.join(map(str, shape)) or '-'} |")
    rows.append(f"| | **total** | {NUM_ACTIONS} |")
    return "\n".join(rows)


def _slot_name(slot: int) -> str:
    if slot == 0:
        return "left flank"
    if slot == 11:
        return "right flank"
    return f"{DATA.class_names[slot - 1]} slot"


def _troop(t: int) -> str:
    return "the new troop" if t == PENDING else f"troop {t}"


def _thor_name(c) -> str:
    """Class 9 only in a Runecästr series: Thor stands for two of them."""
    upper = DATA.class_names[c[1] + 1 if c[1] < 9 else 9]
    return f"put Thor for {DATA.class_names[c[1]]}+{upper} into {_troop(c[0])}"


def _reward_name(verb: str):
    def name(c) -> str:
        kind, value = DATA.rewards[c[0]]
        return f"{verb} reward {kind} {value}"

    return name


_K = DATA.kind_names
# Each action range's name, from its coordinates (a flat table: one line per range).
_NAMES = {
    "hire": lambda c: "hire in Krog",
    "pass": lambda c: "pass",
    "end_phase": lambda c: "end phase",
    "new_troop": lambda c: "lay down a new troop",
    "finish": lambda c: "finish / confirm",
    "cancel": lambda c: "cancel",
    "refuse": lambda c: "refuse to defend",
    "place_class": lambda c: f"put {DATA.class_names[c[1]]} into {_troop(c[0])}",
    "place_snedig": lambda c: (
        f"put Snedig on the {'left' if c[1] == 0 else 'right'} flank of {_troop(c[0])}"
    ),
    "place_tyr": lambda c: f"put Tyr at the {_slot_name(c[1])} of {_troop(c[0])}",
    "place_thor": _thor_name,
    "relocate": lambda c: f"move the wildcard to the {REL_NAMES[c[0]]}",
    "claim_target": lambda c: f"claim for gods on seat +{c[0] + 1}'s troop {c[1]}",
    "claim": lambda c: f"{CLAIM_NAMES[c[1]]} at the {_slot_name(c[0])}",
    "travel": lambda c: f"travel to {WORLD_NAMES[c[0]]}",
    "face": lambda c: f"face {DATA.challenges[c[0]].name}",
    "select_troop": lambda c: f"engage troop {c[0]}",
    "attack": lambda c: f"attack seat +{c[0] + 1} with troop {c[1]}",
    "defend": lambda c: f"defend with troop {c[0]}",
    "take_card": lambda c: f"take {_K[c[0]]}",
    "discard": lambda c: f"discard {_K[c[0]]}",
    "reserve": lambda c: f"reserve {DATA.challenges[c[0]].name}",
    "play_event": lambda c: f"play {_K[FIRST_ACTION_CARD + c[0]]}",
    "bonus": lambda c: (
        f"bonus {_K[FIRST_ACTION_CARD + c[0]]} (+{DATA.bonus[FIRST_ACTION_CARD + c[0]]}) face down"
    ),
    "react": lambda c: f"react with {_K[FIRST_REACTION + c[0]]}",
    "move": lambda c: f"move to {WORLD_NAMES[c[0]]}",
    "keep_reward": _reward_name("keep"),
    "reveal_reward": _reward_name("reveal"),
}
assert set(_NAMES) == set(BASE), "every action range has its name"


def action_name(action: int) -> str:
    name, c = decode(action)
    return _NAMES[name](c)


def place_kind_pos(name: str, c) -> tuple[int, int]:
    """The piece a ``place_*`` action puts down and where (its class, Snedig's side, Tyr's slot,
    Thor's class)."""
    if name == "place_class":
        return c[1], 0
    if name == "place_snedig":
        return SNEDIG, c[1]
    if name == "place_tyr":
        return TYR, c[1]
    return THOR, c[1]
