"""BigWig's table for the browser viewer (the format: ``envs/core/scene.py``).

Large cards are named as in the action list (``yellow 5``, ``Loki (white 4)``, ``well``); point
cards as ``3 VP (white/red/blue)``. A face-down commit is shown to its owner (and a spectator)
only: another seat's view shows neither the card nor whether it was committed yet, so a commit's
action name is secret (``secret_action``).
"""

from __future__ import annotations

from ..core.scene import backs, card, counted, public_view, zone
from .cards import (
    COLOURS,
    HOLMGANG,
    KIND_VALUE,
    NUM_STANDARD,
    POINT_COLOURS,
    POINT_VP,
    SPECIAL_NAMES,
    WELL,
    card_name,
    small_name,
)
from .rules import JOIN, PASS, PLAY_BASE, PLAY_WELL

_COLORS = ("red", "yellow", "blue", "green")
_COMMITS = range(PLAY_BASE, PLAY_WELL + 1)  # a card or the well, played face down


def large_card(k: int, count: int = 1, note: str = "") -> dict:
    if k == WELL:
        return card("well", "W", "well", "teal", count=count, note=note)
    if k < NUM_STANDARD:
        return card(
            card_name(k), k % 9 + 1, COLOURS[k // 9], _COLORS[k // 9], count=count, note=note
        )
    return card(card_name(k), int(KIND_VALUE[k]), SPECIAL_NAMES[k], "white", count=count, note=note)


def small_card(k: int, count: int = 1) -> dict:
    if k == HOLMGANG:
        return card("holmgang", "H", "holmgang", "black", count=count)
    colours = "/".join(
        c[0].upper() for c in ["white"] + [COLOURS[c] for c in sorted(POINT_COLOURS[k])]
    )
    return card(small_name(k), f"{POINT_VP[k]}", f"VP {colours}", "gold", count=count)


def _hand(v: dict) -> list[dict]:
    return counted(v["hand"], large_card) + ([large_card(WELL)] if v["well_in_hand"] else [])


def scene(views: list[dict | None]) -> dict:
    pub = public_view(views)
    n = pub["num_players"]
    commit = pub["phase"] == "commit"
    seats = []
    for p in range(n):
        v = views[p]
        if v is not None:
            zones = [zone("hand", _hand(v), empty="empty")]
            if v["my_commit"] is not None:
                zones.append(zone("face down", [large_card(v["my_commit"])], note="committed"))
            active = v["to_act"]
        else:
            # the table counts a face-down commit as still in hand until the reveal (B36)
            zones = [zone("hand", backs(pub["hand_sizes"][p]), empty="empty")]
            active = not commit and pub["current_player"] == p
        zones.append(zone("point cards", counted(pub["collected"][p], small_card), empty="none"))
        roles = [
            r for r, s in (("challenger", pub["challenger"]), ("target", pub["target"])) if s == p
        ]
        roles += ["joined"] if p in pub["joiners"] else []
        roles += ["to sacrifice"] if p in pub["to_sacrifice"] else []
        seats.append(
            {
                "active": bool(active),
                "stats": [["hand", pub["hand_sizes"][p]], ["age", pub["age_order"].index(p) + 1]]
                + ([["role", ", ".join(roles)]] if roles else []),
                "zones": zones,
            }
        )
    rc = pub["round_card"]
    round_card = [] if rc is None else [small_card(rc)]
    trumps = ", ".join(["white"] + [COLOURS[c] for c in range(4) if pub["trump"][c]])
    table = [zone("round card", round_card, empty="none", note=f"trump: {trumps}")]
    if rc == HOLMGANG and pub["target"] is not None:
        stake = [] if pub["stake"] is None else [small_card(pub["stake"])]
        table.append(
            zone(
                "at stake",
                stake,
                empty="being chosen",
                note=f"player_{pub['challenger']} challenges player_{pub['target']}",
            )
        )
    last = [
        large_card(k, note=f"player_{s}" + (" won" if s == pub["last_winner"] else ""))
        for s, k in enumerate(pub["last_trick"])
        if k is not None
    ]
    table += [
        zone(
            "last trick",
            last,
            empty="none",
            note="" if not last or pub["last_winner"] is not None else "no winner",
        ),
        zone("under the altar", counted(pub["altar"], small_card), empty="none"),
        zone("draw pile", backs(pub["draw_pile"]), empty="empty"),
        zone("altar pile", backs(pub["altar_pile"]), empty="empty"),
        zone("discard", counted(pub["discard"], large_card), empty="empty"),
    ]
    over = pub["phase"] == "over"
    return {
        "title": f"BigWig - round {pub['round']}"
        + (", game over" if over else f", {pub['phase']}"),
        "round": f"round {pub['round']}",
        "info": [
            ["phase", pub["phase"]],
            ["holmgangs", f"{pub['holmgangs']}/4"],
            ["in the trick", ", ".join(f"player_{s}" for s in pub["participants"]) or "-"],
        ],
        "table": table,
        "seats": seats,
    }


def secret_action(state, action: int) -> str | None:
    """A commit is face down, and not even its timing is public (B36). A ticket decision is
    secret too: every onlooker decides, and the joins are revealed together once all have
    (B27, W-E1)."""
    if action in _COMMITS:
        return "a card is played face down"
    return "an onlooker decides about the holmgang" if action in (JOIN, PASS) else None
