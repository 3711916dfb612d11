"""Midgard reaction windows (M42, MD15): who is asked, in which order, and the windows that only
wait for answers (a move by an effect, a challenge won); and the cards whose effects are done.

A window is a ``ReactFrame`` queue (frames.py): its seat ``p`` is -1 until cardplay.py's
``settle`` finds the next seat to ask. A window with a continuation (``then``: a played card's
effects, a challenge's engagement, an attack) is opened by the module that continues it, which
runs the continuation itself when ``open_window`` opens nothing; once an opened window closes,
cardplay.py's ``CONTINUE`` runs it by name.
"""

from __future__ import annotations

from .cards import BY_TRIGGER
from .frames import ReactFrame


def order_from(s, first: int) -> list[int]:
    """Every seat, clockwise from ``first``."""
    n = s.game.num_players
    return [(first + i) % n for i in range(n)]


def open_window(s, asks, then: str | None = None, card: bool = False) -> bool:
    """Push a window if some seat could ever answer it (``asks``: ``[seat, kinds]`` in the
    ruled order); whether it did. When it did not, the caller's continuation runs at once
    (unless the game is over)."""
    asks = [[q, kinds] for q, kinds in asks if kinds]
    if not asks or s.over:
        return False
    s.stack.append(ReactFrame(-1, asks, card, then))
    return True


def asks(s, q: int, kinds) -> bool:
    """Is seat ``q`` asked now, where a card of ``kinds`` would answer (MD15)? By default
    whenever it holds a card: hand sizes are public, so skipping an empty hand tells nobody
    anything, while skipping a hand without a fitting card would tell everyone so (M-E1).
    The leaky fast mode asks only a seat that holds a fitting card."""
    if s.game.ask_holders_only:
        return bool(s.hands[q, kinds].any())
    return bool(s.hands[q].any())


def all_to_midgard(s, seats) -> None:
    """Meeples moved by an effect (not a trip, M23); the moved seats may answer (Hermod's
    Ride)."""
    moved = [q for q in seats if s.world[q] != 0]
    for q in moved:
        s.world[q] = 0
    if moved and s.stack and not s.over:
        kinds = BY_TRIGGER["moved_by_effect"]
        open_window(s, [[q, kinds] for q in order_from(s, s.active) if q in moved])


def won_window(s, p: int) -> None:
    """Seat ``p`` won a challenge: its opponents may answer."""
    kinds = BY_TRIGGER["challenge_won_by_opponent"]
    open_window(s, [[q, kinds] for q in order_from(s, s.active) if q != p])


def retire_played(s) -> None:
    """Cards whose effects are done (nothing of theirs left on the stack) go to Valhalla:
    used, not discarded (M41), and only now (MD20)."""
    played = s.played
    while played and 0 <= played[-1]["r"] and len(s.stack) <= played[-1]["r"]:
        s.valhalla[played.pop()["k"]] += 1
