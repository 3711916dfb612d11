"""Tiny's table for the browser viewer (the format: ``envs/core/scene.py``): each seat's hand and
the cards it played, named by their values."""

from __future__ import annotations

from collections import Counter

from ..core.scene import card, hand_zone, public_view, zone


def _cards(values) -> list[dict]:
    return [card(str(v), v, count=c) for v, c in sorted(Counter(values).items())]


def scene(views: list[dict | None]) -> dict:
    pub = public_view(views)
    seats = [
        {
            "active": pub["current_player"] == p,
            "stats": [["played", sum(pub["played"][p])]],
            "zones": [
                hand_zone(views, p, lambda v: _cards(v["hand"]), pub["hand_sizes"][p]),
                zone("played", _cards(pub["played"][p]), empty="none"),
            ],
        }
        for p in range(pub["num_players"])
    ]
    over = pub["current_player"] is None
    return {"title": "Tiny" + (", game over" if over else ""), "seats": seats}
