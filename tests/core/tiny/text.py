"""Tiny as text: an action's name, the spectator's table and one seat's table."""

from __future__ import annotations


def action_name(state, action: int) -> str:
    return f"play {action}"


def render(state, observer: int | None = None) -> str:
    """Every hand (a spectator's view), or with ``observer`` what that seat sees."""
    if observer is not None:
        return state.render_view(observer)
    lines = [
        f"player_{p}: hand {h}, played {x}"
        for p, (h, x) in enumerate(zip(state.hands, state.played))
    ]
    lines.append(_last_line(state))
    return "\n".join(lines)


def render_view(state, player: int) -> str:
    """The table as ``player`` sees it, from its view only (``deckzoo play``)."""
    v = state.view(player)
    lines = [f"your hand: {' '.join(map(str, v['hand'])) or '-'}"]
    lines += [
        f"player_{p}{' (you)' if p == player else ''}: played {x}"
        for p, x in enumerate(v["played"])
    ]
    lines.append(_last_line(state))
    return "\n".join(lines)


def _last_line(state) -> str:
    if state.is_terminal():
        return state.game_over_line()
    return f"player_{state.current_player} to play"
