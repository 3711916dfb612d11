"""Midgard's open challenges (M33, M34, M48): opening challenges with their instant effects,
refilling the list to six, and whether a calendar challenge is left."""

from __future__ import annotations

from .cards import DATA
from .modes import MIN_OPEN
from .windows import all_to_midgard


def open_one(s) -> int:
    """Open the top challenge and apply its instant effects; returns how many more it asks to
    open."""
    cid = s.ch_deck.pop()
    s.open.append(cid)
    more = 0
    for e in DATA.challenges[cid].instant:
        if e.kind == "all_to_midgard":
            all_to_midgard(s, range(s.game.num_players))  # not a trip (M23)
        elif e.kind == "open_another":
            more += 1
    return more


def refill(s) -> None:
    """Open challenges until 6 are open, plus one more for each "open another" opened (M33)."""
    extra = 0
    while s.ch_deck and (len(s.open) < MIN_OPEN or extra > 0):
        if len(s.open) >= MIN_OPEN:
            extra -= 1
        extra += open_one(s)


def calendar_left(s) -> bool:
    """Is any calendar challenge still in the deck, the open list or a reservation? (M48)"""
    pool = s.ch_deck + s.open + [c for c in s.reserved if c >= 0]
    return any(DATA.challenges[c].calendar for c in pool)
