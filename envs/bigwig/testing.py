"""What the registry-driven test suites need to know about BigWig (see envs/core/testing.py)."""

from __future__ import annotations

from collections import Counter

from ..core.testing import add_row, count_names, set_field
from .cards import WELL, card_name


def hand_names(state, p: int) -> Counter:
    """Seat ``p``'s hand as card name -> copies, the Well it holds included."""
    out = count_names(state.hands[p], card_name)
    if state.well[p]:
        out[card_name(WELL)] += 1
    return out


CORRUPTION_PLAYERS = 4


def corruptible(state) -> bool:
    """Past round 2, during the commits, with exactly one card committed."""
    return (
        not state.is_terminal()
        and state.phase == 3
        and sum(c != -1 for c in state.commits) == 1
        and state.round > 2
    )


def _uncommitted_participant(st: dict) -> None:
    """A seat that committed a card, no longer among the participants."""
    st["participants"].remove(next(q for q, c in enumerate(st["commits"]) if c != -1))


CORRUPTIONS = [
    ("hands", add_row("hands")),
    ("hands/draw", lambda st: st["draw"].append(0)),
    ("phase", set_field("phase", 99)),
    ("commits", _uncommitted_participant),
    ("well", lambda st: st["well"].__setitem__(0, not st["well"][0])),
    ("collected/altar", lambda st: st["small"].append(15)),
    ("round", set_field("round", 24)),
    ("commits", set_field("commits", [99] * 4)),
    ("trump", set_field("trump", [1, 0])),
    ("tickets", set_field("tickets", [0])),  # a secret join outside the ticket window
    ("origins", lambda st: st["origins"]["piles"][0]["held"].__setitem__(0, 99)),
    ("origins", lambda st: st["origins"].pop("piles")),
]
