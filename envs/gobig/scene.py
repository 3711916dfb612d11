"""Go Big's table for the browser viewer (the format: ``envs/core/scene.py``).

Cards are values 1-7 (the action list says ``play 2x6``: two 6s), coloured by value. Cards a seat
took from the face-up market, and may still hold, stay face up in the other seats' view.
"""

from __future__ import annotations

from ..core.scene import backs, card, counted, hand_zone, public_view, zone

VALUE_COLORS = ("red", "orange", "yellow", "green", "teal", "blue", "purple")


def value_card(v: int, count: int = 1) -> dict:
    return card(str(v), v, "", VALUE_COLORS[v - 1], count=count)


def _counts(counts) -> list[dict]:
    return counted(counts, lambda k, c: value_card(k + 1, c))


def scene(views: list[dict | None]) -> dict:
    pub = public_view(views)
    n = pub["num_players"]
    seats = []
    for p in range(n):
        d = pub["displays"][p]
        display = [] if d is None else [value_card(d[0], d[1])]
        seats.append(
            {
                "active": pub["current_player"] == p,
                "stats": [["banked cards", sum(pub["banks"][p])], ["hand", pub["hand_sizes"][p]]],
                "zones": [
                    hand_zone(
                        views,
                        p,
                        lambda v: _counts(v["hand"]),
                        pub["hand_sizes"][p],
                        known=_counts(pub["known_in_hand"][p]),
                    ),
                    zone("display", display, empty="none"),
                    zone("bank", _counts(pub["banks"][p]), empty="none"),
                ],
            }
        )
    over = pub["current_player"] is None
    return {
        "title": f"Go Big - turn {pub['turn']}" + (", game over" if over else ""),
        "round": f"round {pub['turn'] // n + 1}",
        "info": [
            ["phase", pub["phase"]],
            ["deck", pub["deck_size"]],
            ["start player", f"player_{pub['start_player']}"],
        ],
        "table": [
            zone("market", [value_card(v) for v in pub["market"]], empty="empty"),
            zone("deck", backs(pub["deck_size"]), empty="empty"),
            zone("box", _counts(pub["box"]), empty="empty"),
        ],
        "seats": seats,
    }
