"""Scenes: what a game shows of one moment of play, as plain JSON, for the browser viewer.

Every game describes its table once, in ``envs/<game>/scene.py``, with a function

    scene(views: list[dict | None]) -> dict

that turns the seats' ``view(p)`` dicts into a scene; one shared renderer (``deckzoo replay
--html``, ``deckzoo serve``) draws any scene, so a new game needs that one function and no new
viewer code. ``views[p]`` is ``state.view(p)`` or ``None`` for a seat whose view is not
available: a spectator passes every view and sees every hand; one seat's own view passes only
that seat's, so the scene cannot show what the seat may not know (other hands appear as card
backs, plus whatever that view reveals). Because a scene is built from views only, it never
needs the hidden state.

A scene module may also define ``secret_action(state, action) -> str | None``: for an action
whose name reveals hidden information (a card committed face down), the text the *other* seats
may read instead; ``None`` (or no such function) means the action is public.

The format (all keys optional unless marked)::

    scene = {"title": str (required), "round": str,    # the viewer's round jumps: where it changes
             "info": [[label, value], ...],              # facts about the table
             "table": [zone, ...],                       # shared zones: trick, market, piles
             "seats": [seat, ...]}                       # required: one per seat, in seat order
    seat  = {"active": bool,                             # this seat is to act (as far as known)
             "stats": [[label, value], ...], "zones": [zone, ...]}
    zone  = {"label": str (required), "cards": [card, ...] (required), "empty": str, "note": str}
    card  = {"name": str (required: the name the action list uses), "rank": str, "suit": str,
             "color": one of PALETTE, "count": int (> 1: that many copies), "back": bool (face
             down), "note": str (small text, e.g. who played it)}

The helpers below build these pieces; they only make dicts, so a scene is checked by
``check_scene`` in tests, not at run time.
"""

from __future__ import annotations

from collections.abc import Iterable

# Colours the renderer knows (CSS classes ``c-<name>``); anything else is drawn grey.
PALETTE = (
    "red",
    "orange",
    "yellow",
    "green",
    "teal",
    "blue",
    "purple",
    "pink",
    "brown",
    "black",
    "white",
    "grey",
    "gold",
)


def card(
    name: str, rank="", suit: str = "", color: str = "grey", *, count: int = 1, note: str = ""
) -> dict:
    """One face-up card (or ``count`` identical ones drawn as one with a badge)."""
    out = {"name": name, "rank": str(rank), "suit": suit, "color": color}
    if count != 1:
        out["count"] = int(count)
    if note:
        out["note"] = note
    return out


def backs(count: int, name: str = "face down") -> list[dict]:
    """``count`` face-down cards as one card with a badge; none when ``count`` is 0."""
    if count <= 0:
        return []
    out = {"name": name, "back": True}
    if count != 1:
        out["count"] = int(count)
    return [out]


def zone(label: str, cards: Iterable[dict], empty: str = "-", note: str = "") -> dict:
    out = {"label": label, "cards": list(cards), "empty": empty}
    if note:
        out["note"] = note
    return out


def counted(counts, make) -> list[dict]:
    """Cards for a count vector (index = kind): ``make(kind, count)`` for every kind held."""
    return [make(k, int(c)) for k, c in enumerate(counts) if c]


def grouped(kinds: Iterable[int], make) -> list[dict]:
    """Cards for a list of kinds, equal neighbours merged: ``make(kind, count)``."""
    out: list[tuple[int, int]] = []
    for k in kinds:
        if out and out[-1][0] == k:
            out[-1] = (k, out[-1][1] + 1)
        else:
            out.append((k, 1))
    return [make(k, c) for k, c in out]


def public_view(views: list[dict | None]) -> dict:
    """Any available view, for what every seat sees alike (piles, scores, whose turn)."""
    for v in views:
        if v is not None:
            return v
    raise ValueError("a scene needs at least one seat's view")


def hand_zone(
    views: list[dict | None], p: int, own, size: int, known: list[dict] = (), label: str = "hand"
) -> dict:
    """Seat ``p``'s hand: ``own(view)`` (its cards) when its view is available, otherwise the
    cards every seat knows it holds (``known``) and backs for the rest of its ``size`` cards."""
    if views[p] is not None:
        return zone(label, own(views[p]), empty="empty")
    known = list(known)
    hidden = size - sum(c.get("count", 1) for c in known)
    return zone(label, known + backs(hidden), empty="empty")


def seat_label(p: int) -> str:
    return f"player_{p}"


def check_scene(scene: dict, num_players: int) -> None:
    """Raise ``ValueError`` naming the first thing in ``scene`` that breaks the format above."""

    def fail(where, why):
        raise ValueError(f"scene{where}: {why}")

    if not isinstance(scene.get("title"), str):
        fail("", "needs a string 'title'")
    seats = scene.get("seats")
    if not isinstance(seats, list) or len(seats) != num_players:
        fail("['seats']", f"must be a list of {num_players} seats")
    zones = [(f"['table'][{i}]", z) for i, z in enumerate(scene.get("table", []))]
    for p, seat in enumerate(seats):
        zones += [(f"['seats'][{p}]['zones'][{i}]", z) for i, z in enumerate(seat.get("zones", []))]
        for j, stat in enumerate(seat.get("stats", [])):
            if not (isinstance(stat, list) and len(stat) == 2):
                fail(f"['seats'][{p}]['stats'][{j}]", "must be [label, value]")
    for where, z in zones:
        if not isinstance(z.get("label"), str) or not isinstance(z.get("cards"), list):
            fail(where, "a zone needs a string 'label' and a list 'cards'")
        for i, c in enumerate(z["cards"]):
            if not isinstance(c.get("name"), str) or not c["name"]:
                fail(f"{where}['cards'][{i}]", "a card needs a non-empty 'name'")
            if c.get("color", "grey") not in PALETTE:
                fail(f"{where}['cards'][{i}]", f"unknown colour {c['color']!r}")
            if int(c.get("count", 1)) < 1:
                fail(f"{where}['cards'][{i}]", "count must be at least 1")
