"""Midgard as text: action names, the whole table (``render``) and a seat's table
(``render_view``, from its view only)."""

from __future__ import annotations

from . import actions as A
from .cards import DATA, WORLD_NAMES
from .encoding import contest_view, view
from .modes import MODE_NAMES
from .troops import Troop

MIGHT = DATA.might


def action_name(s, action: int) -> str:
    if not 0 <= action < A.NUM_ACTIONS:
        return f"<invalid action {action}>"
    return A.action_name(action)


def render(s, observer: int | None = None) -> str:
    """Every hand (a spectator's view), or with ``observer`` what that seat sees."""
    if observer is not None:
        return render_view(s, observer)
    n = s.game.num_players
    names = DATA.kind_names
    header = (
        f"Midgard - turn {s.turn}, calendar {s.calendar} "
        f"({('summer', 'winter')[s.season()]}), "
        f"Thing {len(s.thing)}, Skat {s.skat}, Krog top "
        f"{names[s.krog[-1]] if s.krog else '-'}, Valhalla {int(s.valhalla.sum())}"
    )
    lines = [header]
    lines.append(
        "open: "
        + ", ".join(f"{DATA.challenges[c].name} ({s.challenge_difficulty(c)})" for c in s.open)
    )
    for p in range(n):
        mark = ">" if p == s.current_player else " "
        hand = ", ".join(
            f"{names[k]}x{int(v)}" if v > 1 else names[k] for k, v in enumerate(s.hands[p]) if v
        )
        res = f", reserved {DATA.challenges[s.reserved[p]].name}" if s.reserved[p] >= 0 else ""
        lines.append(
            f"{mark} player_{p}: {WORLD_NAMES[s.world[p]]}, {int(s.coins[p])} coins, "
            f"renown {int(s.scores()[p])}, won {len(s.won[p])}, rewards "
            f"{int(s.rewards[p].sum())}{res}; hand [{hand}]"
        )
        for ti, t in enumerate(s.troops[p]):
            lines.append(
                f"     troop {ti}{' (engaged)' if t.engaged else ''}: {t.describe(names)} "
                f"[might {t.might(MIGHT)}]"
            )
    if s.pending is not None:
        lines.append(f"     new troop: {s.pending.describe(names)}")
    lines.extend(cardplay_lines(s, None))
    if s.over:
        lines.append(s.game_over_line(s.end_reason))
    else:
        lines.append(f"player_{s.current_player} to decide: {MODE_NAMES[s.mode]}")
    return "\n".join(lines)


def render_view(s, player: int) -> str:
    """The table as ``player`` sees it (built from ``view(player)`` only: no hidden cards)."""
    v = view(s, player)
    names = DATA.kind_names
    n = v["num_players"]
    header = (
        f"Midgard - turn {v['turn']}/{v['max_turns']}, "
        f"calendar {v['calendar']} ({v['season']}), "
        f"Thing {v['thing_size']}, Skat {v['skat']}, rewards left {v['reward_deck_size']}"
    )
    lines = [header]
    lines.append(
        "open: "
        + ", ".join(f"{DATA.challenges[c].name} ({s.challenge_difficulty(c)})" for c in v["open"])
    )
    krog = ", ".join(names[x] for x in v["krog"]) or "-"
    vh = (
        ", ".join(
            f"{names[x]}x{c}" if c > 1 else names[x] for x, c in enumerate(v["valhalla"]) if c
        )
        or "-"
    )
    lines.append(f"Krog (bottom to top): {krog}; Valhalla: {vh}")
    for p in range(n):
        mark = ">" if p == v["current_player"] else " "
        you = " (you)" if p == player else ""
        res = (
            f", reserved {DATA.challenges[v['reserved'][p]].name}" if v["reserved"][p] >= 0 else ""
        )
        lines.append(
            f"{mark} player_{p}{you}: {WORLD_NAMES[v['worlds'][p]]}, {v['coins'][p]} coins, "
            f"{v['hand_sizes'][p]} cards, {v['reward_counts'][p]} rewards, challenge renown "
            f"{v['challenge_renown'][p]}{res}"
        )
        for ti, tj in enumerate(v["troops"][p]):
            t = Troop.from_json(tj)
            lines.append(
                f"     troop {ti}{' (engaged)' if t.engaged else ''}: {t.describe(names)} "
                f"[might {t.might(MIGHT)}, {t.ncards()} cards]"
            )
    if v["pending"] is not None:
        lines.append(f"     new troop: {Troop.from_json(v['pending']).describe(names)}")
    hand = ", ".join(f"{names[x]}x{c}" if c > 1 else names[x] for x, c in enumerate(v["hand"]) if c)
    lines.append(f"your hand: {hand or '-'}")
    own = ", ".join(
        f"{DATA.rewards[x][0]} {DATA.rewards[x][1]}"
        for x, c in enumerate(v["rewards"])
        for _ in range(c)
    )
    lines.append(f"your rewards: {own or '-'}")
    lines.extend(cardplay_lines(s, player))
    if v["over"]:
        lines.append(f"game over ({v['end_reason']})")
    elif v["stack"]:
        top = v["stack"][-1]
        lines.append(f"player_{v['current_player']} to decide: {top['mode']}")
    return "\n".join(lines)


def cardplay_lines(s, player) -> list[str]:
    """Cards in play, the Loki pool and a contest's bonuses (face down for ``player``; all
    shown when ``player`` is None)."""
    names = DATA.kind_names
    lines = []
    for c in s.played:
        lines.append(
            f"in play: {names[c['k']]} by player_{c['s']}{' (cancelled)' if c['x'] else ''}"
        )
    if s.pool:
        lines.append("Loki's Trick pool: " + ", ".join(names[k] for k in s.pool))
    c = s.contest
    if c is not None:
        shown = [c["b"][side] if player is None else None for side in (0, 1)]
        if player is not None:
            shown = contest_view(s, player)["bonus"]
        what = "challenge " + DATA.challenges[c["ch"]].name if c["t"] == "ch" else "battle"
        bon = ", ".join(
            "-" if b is None or b == -1 else (b if isinstance(b, str) else names[b]) for b in shown
        )
        lines.append(f"{what}: bonuses [{bon}]")
    return lines
