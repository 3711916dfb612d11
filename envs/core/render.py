"""Text for people: a generic rendering of one seat's ``view`` (any game, no game-specific code).

``State.render_view`` uses it unless a game lays its table out itself; ``deckzoo play`` shows it.
"""

from __future__ import annotations


def _fmt(value) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_fmt(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_fmt(v)}" for k, v in value.items()) + "}"
    return "-" if value is None else str(value)


def render_view(view: dict, num_players: int | None = None, indent: str = "") -> str:
    """Generic text for a ``view`` dict: one line a key; per-seat lists get one line a seat.

    A list whose length equals the number of players is taken to be per seat (``displays``,
    ``scores``, ``hand_sizes``...) and printed as ``player_i: ...`` lines, so a table of any game
    reads without game-specific code.
    """
    n = num_players if num_players is not None else view.get("num_players")
    me = view.get("player")
    lines = []
    for key, value in view.items():
        if key in ("player", "num_players"):
            continue
        if (
            isinstance(value, list)
            and n
            and len(value) == n
            and n > 1
            and any(isinstance(v, (list, dict)) or v is None for v in value)
        ):
            lines.append(f"{indent}{key}:")
            for s, v in enumerate(value):
                mark = " (you)" if s == me else ""
                lines.append(f"{indent}  player_{s}{mark}: {_fmt(v)}")
        elif isinstance(value, dict):
            lines.append(f"{indent}{key}:")
            lines.append(render_view(value, n, indent + "  "))
        else:
            lines.append(f"{indent}{key}: {_fmt(value)}")
    return "\n".join(lines)
