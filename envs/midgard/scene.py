"""Midgard's table for the browser viewer (the format: ``envs/core/scene.py``).

Cards carry the names of the action list (``Bueskytter``, ``Tyr``, ``Loki's Trick``; challenges
by their name, rewards as ``renown 2``). Troop cards show their class number and might, events
and reactions their bonus. A seat's rewards and a face-down bonus stay hidden from the others,
so the actions choosing them are secret (``secret_action``).
"""

from __future__ import annotations

from ..core.scene import backs, card, counted, grouped, hand_zone, public_view, zone
from . import actions as A
from .cards import DATA, FIRST_ACTION_CARD, SNEDIG, THOR, TYR, WORLD_NAMES
from .modes import BONUS
from .troops import Troop

_CLASS_COLORS = (
    "green",
    "teal",
    "blue",
    "red",
    "brown",
    "orange",
    "pink",
    "yellow",
    "black",
    "purple",
)
_FIRST_REACTION = FIRST_ACTION_CARD + DATA.num_events


def kind_card(k: int, count: int = 1, note: str = "") -> dict:
    name = DATA.kind_names[k]
    if k < SNEDIG:
        return card(name, k + 1, f"might {DATA.might[k]}", _CLASS_COLORS[k], count=count, note=note)
    if k in (SNEDIG, TYR, THOR):
        rank = {SNEDIG: "S", TYR: "T", THOR: "Th"}[k]
        return card(
            name,
            rank,
            f"might {DATA.might[k]}",
            "gold" if k != SNEDIG else "grey",
            count=count,
            note=note,
        )
    kind = "event" if k < _FIRST_REACTION else "reaction"
    return card(
        name,
        f"+{DATA.bonus[k]}",
        kind,
        "white" if kind == "event" else "grey",
        count=count,
        note=note,
    )


def challenge_card(c: int, note: str = "") -> dict:
    ch = DATA.challenges[c]
    worlds = ", ".join(WORLD_NAMES[w] for w in sorted(ch.worlds)) or "any world"
    return card(
        ch.name,
        ch.difficulty,
        f"renown {ch.renown}",
        "red" if ch.calendar else "brown",
        note=note or worlds,
    )


def reward_card(r: int, count: int = 1) -> dict:
    kind, value = DATA.rewards[r]
    return card(
        f"{kind} {value}", value, kind, "gold" if kind == "renown" else "yellow", count=count
    )


def _kinds(counts) -> list[dict]:
    return counted(counts, kind_card)


def _own_hand(v: dict) -> list[dict]:
    return _kinds(v["hand"])


def _troop_zone(label: str, tj) -> dict:
    t = Troop.from_json(tj)
    return zone(
        label,
        [kind_card(k) for k in t.cards()],
        empty="empty",
        note=f"might {t.might(DATA.might)}" + (", engaged" if t.engaged else ""),
    )


def _bonuses(views: list[dict | None]) -> list:
    """Each side's bonus as the best-informed available view shows it: the card (its owner's
    view), ``"face down"`` (a challenge's, seen by the others) or None."""
    shown = []
    for side in (0, 1):
        seen = [v["contest"]["bonus"][side] for v in views if v is not None and v["contest"]]
        cards = [b for b in seen if isinstance(b, int) and b >= 0]
        shown.append(cards[0] if cards else "face down" if "face down" in seen else None)
    return shown


def _contest(views: list[dict | None]) -> list[dict]:
    c = public_view(views)["contest"]
    if c is None:
        return []
    bonus = []
    for side, b in enumerate(_bonuses(views)):
        who = f"player_{c['p'] if side == 0 else c.get('q', '?')}"
        if b == "face down":
            bonus += backs(1, "face-down bonus")
        elif b is not None and b >= 0:
            bonus.append(kind_card(b, note=f"bonus, side {side + 1}" if c["t"] == "bt" else who))
    if c["t"] == "ch":
        head = [challenge_card(c["ch"], note=f"faced by player_{c['p']}")]
        return [zone("challenge faced", head + bonus)]
    note = f"player_{c['p']} attacks player_{c['q']} with troop {c['ti']}"
    return [zone("battle", bonus, empty="no bonus shown", note=note)]


def scene(views: list[dict | None]) -> dict:
    pub = public_view(views)
    n = pub["num_players"]
    # While a challenge bonus lies face down, a seat's known cards may include it (MD22): they are
    # then shown apart from the hand, as "in hand or face down", never as cards in the hand.
    unsure = "face down" in _bonuses(views)
    seats = []
    for p in range(n):
        v = views[p]
        known = grouped(pub["known_in_hand"][p], kind_card)
        zones = [
            hand_zone(views, p, _own_hand, pub["hand_sizes"][p], known=[] if unsure else known)
        ]
        if unsure and v is None and known:
            zones.append(zone("known to hold", known, note="in hand or the face-down bonus"))
        zones += [_troop_zone(f"troop {i}", tj) for i, tj in enumerate(pub["troops"][p])]
        if pub["pending"] is not None and pub["active"] == p:
            zones.append(_troop_zone("new troop", pub["pending"]))
        hidden = pub["reward_counts"][p]
        rewards = counted(pub["revealed"][p], reward_card)
        if v is not None:
            rewards = counted(v["rewards"], reward_card) + rewards
        else:
            rewards = backs(hidden) + rewards
        zones.append(zone("rewards", rewards, empty="none", note=f"{hidden} hidden"))
        zones.append(
            zone("challenges won", [challenge_card(c) for c in pub["won"][p]], empty="none")
        )
        res = pub["reserved"][p]
        if res >= 0:
            zones.append(zone("reserved", [challenge_card(res)]))
        seats.append(
            {
                "active": pub["current_player"] == p,
                "stats": [
                    ["challenge renown", pub["challenge_renown"][p]],
                    ["coins", pub["coins"][p]],
                    ["world", WORLD_NAMES[pub["worlds"][p]]],
                    ["hand", pub["hand_sizes"][p]],
                ]
                + ([["turn", "active"]] if pub["active"] == p else []),
                "zones": zones,
            }
        )
    krog = pub["krog"]
    table = [
        zone("open challenges", [challenge_card(c) for c in pub["open"]], empty="none"),
        zone(
            "Krog",
            grouped(krog[::-1], kind_card),
            empty="empty",
            note=f"top: {DATA.kind_names[krog[-1]]}" if krog else "",
        ),
        zone("Valhalla", _kinds(pub["valhalla"]), empty="empty"),
        zone("Thing", backs(pub["thing_size"]), empty="empty"),
    ]
    if pub["played"]:
        table.append(
            zone(
                "in play",
                [
                    kind_card(
                        c["card"],
                        note=f"player_{c['seat']}"
                        + (" (cancelled)" if c["cancelled"] else "")
                        + (" (resolving)" if c.get("resolving") else ""),
                    )
                    for c in pub["played"]
                ],
            )
        )
    if pub["pool"]:
        table.append(zone("Loki's Trick pool", [kind_card(k) for k in pub["pool"]]))
    table += _contest(views)
    decision = pub["stack"][-1]["mode"] if pub["stack"] else "-"
    end = f", game over ({pub['end_reason']})" if pub["over"] else f", {decision}"
    return {
        "title": f"Midgard - turn {pub['turn']}" + end,
        "round": f"round {pub['turn'] // n + 1}",
        "info": [
            ["calendar", f"{pub['calendar']} ({pub['season']})"],
            ["decision", decision],
            ["Skat", f"{pub['skat']} coins"],
            ["challenge deck", pub["challenge_deck_size"]],
            ["reward deck", pub["reward_deck_size"]],
        ],
        "table": table,
        "seats": seats,
    }


def secret_action(state, action: int) -> str | None:
    """Which reward a seat keeps is secret; so is a bonus: its card, and in a battle even whether
    one was placed (MD16), so declining one is secret there too."""
    name, _ = A.decode(action)
    p = state.current_player
    if name == "keep_reward":
        return f"player_{p} keeps a reward"
    if name == "bonus" or (name == "pass" and state.stack and state.stack[-1].m == BONUS):
        return f"player_{p} makes a face-down bonus decision"
    return None
