"""BigWig as text: the whole table (a spectator's view) and one seat's view, for logs, the
terminal play mode and the tests: the state's ``action_name``, ``render`` and ``render_view``
(found here by name, ``FUNCTION_MODULES`` in envs/core/game.py)."""

from __future__ import annotations

import numpy as np

from . import actions
from .actions import NONE, PHASE_NAMES, PHASE_OVER, PHASE_TICKET
from .cards import COLOURS, HOLMGANG, NUM_KINDS, NUM_POINT_KINDS, card_name, small_name


def action_name(st, action: int) -> str:
    """``play red 7``, ``stake 3 VP (...)`` (``actions.action_name`` with the game's stake ids)."""
    return actions.action_name(action, st.game.stake_base)


def render(st, observer: int | None = None) -> str:
    """Every hand and face-down card (a spectator's view), or with ``observer`` what that
    seat sees."""
    if observer is not None:
        return render_view(st, observer)
    n = st.game.num_players
    rc = "-" if st.round_card == NONE else small_name(st.round_card)
    lines = [
        (
            f"BigWig - round {st.round}: {rc}; holmgangs {st.holmgangs}/4, "
            f"draw pile {len(st.draw)}, "
            f"altar pile {len(st.small)}, under the altar {_point_list(st.altar)}"
        )
    ]
    if st.round_card == HOLMGANG and st.target != NONE:
        stake = "?" if st.stake == NONE else small_name(st.stake)
        lines.append(
            f"  holmgang: player_{st.challenger} challenges player_{st.target} for {stake}"
            + (f"; joined: {', '.join(f'player_{j}' for j in st.joiners)}" if st.joiners else "")
            + (
                f"; joining (secret): {', '.join(f'player_{j}' for j in st.tickets)}"
                if st.tickets
                else ""
            )
        )
    if any(k != NONE for k in st.last_trick):
        played = ", ".join(
            f"player_{s}: {card_name(k)}" for s, k in enumerate(st.last_trick) if k != NONE
        )
        won = "no winner" if st.last_winner == NONE else f"player_{st.last_winner} won"
        lines.append(f"  last trick: {played} -> {won}")
    vp = st.vp()
    for p in range(n):
        mark = ">" if p == st.current_player else " "
        hand = ", ".join(card_name(int(k)) for k in np.repeat(np.arange(NUM_KINDS), st.hands[p]))
        commit = "" if st.commits[p] == NONE else f", face down: {card_name(st.commits[p])}"
        lines.append(
            f"{mark} player_{p}: {int(vp[p])} VP {_point_list(st.collected[p])}, "
            f"hand [{hand}{', well' if st.well[p] else ''}]{commit}"
        )
    if st.phase == PHASE_OVER:
        lines.append(st.game_over_line())
    elif st.phase == PHASE_TICKET:
        waiting = ", ".join(f"player_{q}" for q in st.queue)
        lines.append(f"{waiting} to decide about a ticket (player_{st.current_player} now)")
    else:
        lines.append(f"player_{st.current_player} to {PHASE_NAMES[st.phase]}")
    return "\n".join(lines)


def render_view(st, player: int) -> str:
    """The table as ``player`` sees it, from ``view(player)`` only, with the card names of the
    action list (``red 7``, ``Loki (white 4)``)."""
    v = st.view(player)
    n = v["num_players"]

    def names(counts, name=card_name) -> str:
        return ", ".join(name(int(k)) for k in np.repeat(np.arange(len(counts)), counts)) or "-"

    rc = "-" if v["round_card"] is None else small_name(v["round_card"])
    trump = ", ".join(["white", *(c for c, t in zip(COLOURS, v["trump"]) if t)])
    lines = [
        (
            f"BigWig - round {v['round']}: {rc}; trump {trump}; holmgangs "
            f"{v['holmgangs']}/4; draw pile {v['draw_pile']}, altar pile {v['altar_pile']}"
        ),
        (f"under the altar: {names(v['altar'], small_name)}; discard pile: {names(v['discard'])}"),
    ]
    if v["challenger"] is not None:
        target = "(choosing)" if v["target"] is None else f"player_{v['target']}"
        stake = "(choosing)" if v["stake"] is None else small_name(v["stake"])
        joined = ", ".join(f"player_{j}" for j in v["joiners"])
        lines.append(
            f"holmgang: player_{v['challenger']} challenges {target} for {stake}"
            + (f"; joined: {joined}" if joined else "")
        )
    if any(k is not None for k in v["last_trick"]):
        played = ", ".join(
            f"player_{q} {card_name(k)}" for q, k in enumerate(v["last_trick"]) if k is not None
        )
        won = "no winner" if v["last_winner"] is None else f"player_{v['last_winner']} won"
        lines.append(f"last trick: {played} -> {won}")
    for q in range(n):
        mark = ">" if q == v["current_player"] else " "
        if q == player:
            hand = names(v["hand"]) + (", well" if v["well_in_hand"] else "")
            held = f"hand {hand}"
            if v["my_commit"] is not None:
                held += f"; face down: {card_name(v['my_commit'])}"
        else:
            held = f"{v['hand_sizes'][q]} cards"
        lines.append(
            f"{mark} player_{q}{' (you)' if q == player else ''}: {v['vp'][q]} VP "
            f"[{names(v['collected'][q], small_name)}]; {held}"
        )
    if v["phase"] == "over":
        lines.append(f"game over; winners: {', '.join(f'player_{w}' for w in st.winners())}")
    elif v["phase"] == "commit":
        waiting = (
            "you play a card face down" if v["to_act"] else "the others play their cards face down"
        )
        seats = ", ".join(f"player_{q}" for q in v["participants"])
        lines.append(f"trick ({seats}): {waiting}")
    elif v["phase"] == "sacrifice":
        lines.append(f"player_{v['current_player']} to sacrifice a card (well draws)")
    elif v["phase"] == "ticket":  # every onlooker decides at once (B27)
        waiting = (
            "you decide whether to join the holmgang"
            if v["to_act"]
            else "the onlookers decide whether to join the holmgang"
        )
        lines.append(f"holmgang tickets: {waiting}")
    else:
        lines.append(f"player_{v['current_player']} to choose: {v['phase']}")
    return "\n".join(lines)


def _point_list(counts) -> str:
    return (
        "["
        + ", ".join(small_name(int(k)) for k in np.repeat(np.arange(NUM_POINT_KINDS), counts))
        + "]"
    )
