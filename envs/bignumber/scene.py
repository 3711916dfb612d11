"""Big Number's table for the browser viewer (the format: ``envs/core/scene.py``).

Cards are named as in the action list (``7♠``, ``A♥``); red suits are drawn red. A seat's
known cards (picked up in public, not played since) stay face up in the other seats' view.
"""

from __future__ import annotations

from ..core.scene import backs, card, grouped, hand_zone, public_view, zone
from .cards import RANK_SYMBOLS, SUIT_SYMBOLS, card_name

_RED_SUITS = (1, 2)  # diamonds, hearts


def type_card(c: int, count: int = 1) -> dict:
    return card(
        card_name(c),
        RANK_SYMBOLS[c // 4],
        SUIT_SYMBOLS[c % 4],
        "red" if c % 4 in _RED_SUITS else "black",
        count=count,
    )


def _cards(cards) -> list[dict]:
    """A pile of card types, biggest first (the order plays are read in)."""
    return grouped(sorted(cards, reverse=True), type_card)


def scene(views: list[dict | None]) -> dict:
    pub = public_view(views)
    n = pub["num_players"]
    seats = []
    for p in range(n):
        v = views[p]
        zones = [
            hand_zone(
                views,
                p,
                lambda v: _cards(v["hand"]),
                pub["hand_sizes"][p],
                known=_cards(pub["known"][p]),
            )
        ]
        if v is not None and v["selection"]:
            zones.append(zone("choosing", _cards(v["selection"])))
        history = [d[p] for d in pub["deal_penalties"]]
        seats.append(
            {
                "active": pub["current_player"] == p,
                "stats": [
                    ["hand", pub["hand_sizes"][p]],
                    ["known", len(pub["known"][p])],
                    ["per deal", " ".join(map(str, history)) or "-"],
                ]
                + ([["passed", "yes"]] if p in pub["passed"] else []),
                "zones": zones,
            }
        )
    owner = pub["middle_owner"]
    middle_note = "" if owner is None else f"{pub['middle_value']} by player_{owner}"
    table = [zone("middle", _cards(pub["middle"]), empty="empty: a new lead", note=middle_note)]
    if pub["played"]:
        table.append(
            zone(
                "beaten by",
                _cards(pub["played"]),
                note=f"player_{pub['current_player']} takes one into hand",
            )
        )
    table.append(zone("out of play", _cards(pub["out_of_play"]), empty="none"))
    over = pub["current_player"] is None
    return {
        "title": f"Big Number - deal {pub['deal'] + 1}" + (", game over" if over else ""),
        "round": f"deal {pub['deal'] + 1}",
        "info": [
            ["phase", pub["phase"]],
            ["deal started by", f"player_{pub['deal_start']}"],
            ["decks", 2 if pub["two_decks"] else 1],
            ["passed", ", ".join(f"player_{q}" for q in pub["passed"]) or "-"],
        ],
        "table": table + [zone("aside", backs(_aside(pub)), empty="none")],
        "seats": seats,
    }


def _aside(pub: dict) -> int:
    """Cards set aside unseen at the deal: the deck less everything accounted for."""
    deck = 72 if pub["two_decks"] else 36
    seen = (
        sum(pub["hand_sizes"]) + len(pub["middle"]) + len(pub["played"]) + len(pub["out_of_play"])
    )
    return deck - seen
