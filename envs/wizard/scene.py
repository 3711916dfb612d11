"""Wizard's table for the browser viewer (the format: ``envs/core/scene.py``).

Cards are named as in the action list (``Elves 7``, ``Wizard``, ``Null``). In the Foresight
round a seat's own card is hidden from it but shown to the others, so the spectator finds each
hand in the other seats' views.
"""

from __future__ import annotations

from ..core.scene import backs, card, grouped, public_view, zone
from .cards import NULL, NUM_SUITED, RANKS, SUITS, WIZARD, card_name, trump_name

SUIT_COLORS = ("red", "blue", "green", "yellow")


def wizard_card(c: int, count: int = 1, note: str = "") -> dict:
    if c == WIZARD:
        return card("Wizard", "W", "Wizard", "purple", count=count, note=note)
    if c == NULL:
        return card("Null", "N", "Null", "white", count=count, note=note)
    if 0 <= c < NUM_SUITED:
        return card(
            card_name(c),
            c % RANKS + 1,
            SUITS[c // RANKS],
            SUIT_COLORS[c // RANKS],
            count=count,
            note=note,
        )
    return card(card_name(c), "?")


def _hand(views: list[dict | None], p: int) -> dict:
    """Seat ``p``'s hand from its own view, or from any view that shows it (Foresight)."""
    size = public_view(views)["hand_sizes"][p]
    for q, v in [(p, views[p])] + list(enumerate(views)):
        if v is None:
            continue
        cards = v["hand"] if q == p else (v["foresight_hands"] or [None] * len(views))[p]
        if cards is not None:
            note = "" if views[p] is None or views[p]["hand"] is not None else "unseen by its owner"
            return zone("hand", grouped(cards, wizard_card), empty="empty", note=note)
    note = "Foresight: own card unseen" if views[p] is not None else ""
    return zone("hand", backs(size), empty="empty", note=note)


def _trick(leader: int, cards: list[int], n: int, winner: int | None = None) -> list[dict]:
    out = []
    for i, c in enumerate(cards):
        seat = (leader + i) % n
        out.append(wizard_card(c, note=f"player_{seat}" + (" won" if seat == winner else "")))
    return out


def scene(views: list[dict | None]) -> dict:
    pub = public_view(views)
    n = pub["num_players"]
    seats = []
    for p in range(n):
        bid = pub["bids"][p]
        voids = ", ".join(SUITS[s] for s in pub["voids"][p]) or "-"
        seats.append(
            {
                "active": pub["current_player"] == p,
                "stats": [
                    ["bid", "-" if bid is None else bid],
                    ["tricks won", pub["tricks_won"][p]],
                    ["void in", voids],
                ]
                + ([["dealer", "yes"]] if pub["dealer"] == p else []),
                "zones": [_hand(views, p)],
            }
        )
    flipped = [] if pub["flipped"] is None else [wizard_card(pub["flipped"])]
    trump = "(dealer choosing)" if pub["trump"] is None else trump_name(pub["trump"])
    led = pub["led_suit"]
    led_name = "-" if led is None else "free (Wizard)" if led == len(SUITS) else SUITS[led]
    table = [
        zone(
            "trick",
            _trick(pub["trick_leader"], pub["trick"], n),
            empty="no card yet",
            note=f"led by player_{pub['trick_leader']}" if pub["trick"] else "",
        ),
        zone("trump card", flipped, empty="none", note=f"trump: {trump}"),
    ]
    if pub["tricks"]:
        leader, cards, winner = pub["tricks"][-1]
        table.append(zone("last trick", _trick(leader, cards, n, winner)))
    over = pub["phase"] == "over"
    return {
        "title": (
            f"Wizard - round {pub['round']}/{pub['num_rounds']}"
            + (", game over" if over else f", {pub['phase']}")
        ),
        "round": f"round {pub['round']}",
        "info": [
            ["trump", trump],
            ["led suit", led_name],
            ["dealer", f"player_{pub['dealer']}"],
            ["bids", f"{sum(b for b in pub['bids'] if b is not None)} of {pub['round']}"],
        ],
        "table": table,
        "seats": seats,
    }
