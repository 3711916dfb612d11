"""Big Number as text: an action's name, the whole table (a spectator's view) and one seat's view,
for logs, the terminal play mode and the tests. Functions of the state, found by ``State`` by name
(``state.action_name``, ``render``, ``render_view``; envs/core/game.py, ``FUNCTION_MODULES``)."""

from __future__ import annotations

from . import actions
from .actions import PHASE_NAMES, PICK
from .cards import cards_name, expand, play_value


def action_name(st, action: int) -> str:
    """The action's text in this game (the play ids differ with one deck and two; a variant's
    play table is shorter): ``actions.action_name`` with the game's."""
    return actions.action_name(action, st.game.two_decks, st.game.sets)


def render(st, observer: int | None = None) -> str:
    """Every hand (a spectator's view), or with ``observer`` what that seat sees."""
    if observer is not None:
        return render_view(st, observer)
    n = st.game.num_players
    head = (
        f"Big Number - deal {st.deal + 1}, started by player_{st.deal_start}; "
        f"out of play: {cards_name(expand(st.out)) or '-'}"
    )
    lines = [head]
    if st.middle:
        lines.append(
            f"middle: {cards_name(st.middle)} ({play_value(st.middle)}) "
            f"by player_{st.owner}"
            + (f"; passed: {', '.join(f'player_{q}' for q in st.passed)}" if st.passes else "")
        )
    if st.pending:
        what = "beats it with" if st.phase == PICK else "is choosing"
        lines.append(f"player_{st.current_player} {what} {cards_name(st.pending)}")
    for p in range(n):
        mark = ">" if p == st.current_player else " "
        lines.append(
            f"{mark} player_{p}: {st.scores_[p]:>3} pts, hand [{cards_name(expand(st.hands[p]))}]"
        )
    if st.over:
        lines.append(st.game_over_line())
    else:
        lines.append(f"player_{st.current_player} to {PHASE_NAMES[st.phase]}")
    return "\n".join(lines)


def render_view(st, player: int) -> str:
    """The table as ``player`` sees it, from ``view(player)`` only, with the card names of the
    action list (``7♥``; type ``7h`` for it)."""
    v = st.view(player)
    lines = [
        (
            f"Big Number - deal {v['deal'] + 1}, started by player_{v['deal_start']}; "
            f"out of play: {cards_name(v['out_of_play']) or '-'}"
        )
    ]
    if v["middle"]:
        passed = ", ".join(f"player_{q}" for q in v["passed"])
        lines.append(
            f"middle: {cards_name(v['middle'])} ({v['middle_value']}) by "
            f"player_{v['middle_owner']}" + (f"; passed: {passed}" if passed else "")
        )
    else:
        lines.append("middle: empty")
    if v["played"]:
        lines.append(f"player_{v['current_player']} beat it with {cards_name(v['played'])}")
    for q in range(v["num_players"]):
        mark = ">" if q == v["current_player"] else " "
        if q == player:
            held = f"hand {cards_name(v['hand'])}"
        else:
            known = f" (known: {cards_name(v['known'][q])})" if v["known"][q] else ""
            held = f"{v['hand_sizes'][q]} cards{known}"
        you = " (you)" if q == player else ""
        lines.append(f"{mark} player_{q}{you}: {v['scores'][q]} pts; {held}")
    if v["selection"]:
        lines.append(f"your play so far: {cards_name(v['selection'])}")
    if v["current_player"] is None:
        lines.append(f"game over; winners: {', '.join(f'player_{w}' for w in st.winners())}")
    else:
        lines.append(f"player_{v['current_player']} to {v['phase']}")
    return "\n".join(lines)
