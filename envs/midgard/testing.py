"""What the registry-driven test suites need to know about Midgard (see envs/core/testing.py)."""

from __future__ import annotations

from collections import Counter

from ..core.testing import add_row, count_names, set_field
from .cards import DATA


def hand_names(state, p: int) -> Counter:
    """Seat ``p``'s hand as card name -> copies."""
    return count_names(state.hands[p], DATA.kind_names.__getitem__)


ROUND_TRIP_EVERY = 7  # long games: every 7th state keeps the round trip test short
CORRUPTION_PLAYERS = 4


def corruptible(state) -> bool:
    """A few turns in, with some card of a hand known to the others."""
    return not state.is_terminal() and state.turn > 2 and bool(state.known.any())


def _other_mode(st) -> None:
    """The top frame claims another mode than its fields are for (KROG needs ``ender``; a KROG
    frame made PREP has one field too many)."""
    frame = st["stack"][-1]
    frame["m"] = 0 if frame["m"] != 0 else 1


CORRUPTIONS = [
    ("hands", add_row("hands")),
    ("known", lambda st: st["known"].__setitem__(0, list(st["hands"][0]) + [0])),
    ("hands/thing", lambda st: st["thing"].append(0)),
    ("skat", lambda st: st.__setitem__("skat", st["skat"] + 1)),
    ("ch_deck/open", lambda st: st["ch_deck"].append(st["open"][0])),
    ("troops", lambda st: st["troops"][0].append(["bad"])),
    ("stack", set_field("stack", [])),
    ("stack", lambda st: st["stack"][-1].__setitem__("m", 99)),
    ("stack", _other_mode),
    ("stack", lambda st: st["stack"][-1].__setitem__("extra", 1)),
    ("world", lambda st: st["world"].__setitem__(0, 42)),
    ("rewards/revealed", lambda st: st["reward_deck"].append(0)),
]
