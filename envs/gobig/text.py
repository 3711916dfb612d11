"""Go Big as text: the actions' names, the whole table (a spectator's view) and one seat's view,
for logs, the terminal play mode and the tests. The state's ``action_name``, ``render`` and
``render_view`` are these functions, found by name (envs/core/game.py, ``FUNCTION_MODULES``)."""

from __future__ import annotations

from . import actions
from .actions import PHASE_NAMES


def action_name(st, action: int) -> str:
    """``play 2x5`` (two 5s), ``draw from deck``, ``take market`` (``actions.action_name``)."""
    return actions.action_name(action)


def render(st, observer: int | None = None) -> str:
    """Every hand (a spectator's view), or with ``observer`` what that seat sees."""
    if observer is not None:
        return render_view(st, observer)
    n = st.game.num_players
    lines = [
        (
            f"Go Big - turn {st.turn}, deck {len(st.deck)}, market {sorted(st.market)}, "
            f"box {st.box.tolist()}"
        )
    ]
    for p in range(n):
        d = st.displays[p]
        hand = " ".join(str(v + 1) * int(c) for v, c in enumerate(st.hands[p]) if c)
        mark = ">" if p == st.current_player else " "
        lines.append(
            f"{mark} player_{p}: display {'-' if d is None else f'{d[1]}x{d[0]}'}, "
            f"bank {int(st.scores()[p])} pts ({int(st.banks[p].sum())} cards), "
            f"hand [{hand}]"
        )
    if st.over:
        lines.append(st.game_over_line())
    else:
        lines.append(f"player_{st.current_player} to {PHASE_NAMES[st.phase]}")
    return "\n".join(lines)


def render_view(st, player: int) -> str:
    """The table as ``player`` sees it, from ``view(player)`` only. Cards are their values, as
    in the action names (``play 2x5`` plays two 5s)."""
    v = st.view(player)

    def cards(values) -> str:
        return " ".join(map(str, values)) or "-"

    def counts(row) -> list[int]:
        return [value + 1 for value, c in enumerate(row) for _ in range(c)]

    lines = [
        (
            f"Go Big - turn {v['turn']}; deck {v['deck_size']} cards; "
            f"market: {cards(v['market'])}; box (beaten): {cards(counts(v['box']))}"
        )
    ]
    for q in range(v["num_players"]):
        mark = ">" if q == v["current_player"] else " "
        d = v["displays"][q]
        shown = "-" if d is None else f"{d[1]}x{d[0]}"
        you = " (you)" if q == player else ""
        known = counts(v["known_in_hand"][q])  # taken from the market: public (X7)
        hand = (
            f"hand {cards(counts(v['hand']))}"
            if q == player
            else f"{v['hand_sizes'][q]} cards in hand"
            + (f" (known: {cards(known)})" if known else "")
        )
        lines.append(
            f"{mark} player_{q}{you}: display {shown}; bank {v['scores'][q]} pts: "
            f"{cards(counts(v['banks'][q]))}; {hand}"
        )
    if v["current_player"] is None:
        lines.append(f"game over; winners: {', '.join(f'player_{w}' for w in st.winners())}")
    else:
        lines.append(f"player_{v['current_player']} to {v['phase']}")
    return "\n".join(lines)
