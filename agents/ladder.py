"""The reference ladder of every game: ``random``, ``heuristic``, ISMCTS and the zoo policy.

``ladder(game)`` lists the four as ``(label, spec)`` pairs for ``make_agent``; the leaderboard
(``benchmarks/leaderboard.py``) plays them against each other and the strength benchmark
(``benchmarks/strength.py``) plays the search against the heuristic.

``ismcts_spec(game)`` is the game's strongest ISMCTS setting, its entry in the table of
``agents/strongest.py`` (``DEFAULT_ISMCTS`` for a game not in it).
"""

from __future__ import annotations

from .strongest import DEFAULT_ISMCTS, strongest_ismcts

LABELS = ("random", "heuristic", "ismcts", "zoo")


def ismcts_spec(game: str) -> str:
    """The game's own search setting (any name ``deckzoo.envs.canonical`` accepts)."""
    return strongest_ismcts(game)


def ladder(game: str) -> list[tuple[str, str]]:
    """``(label, spec)`` of the reference agents of ``game`` (a game name such as ``wizard``)."""
    return [
        ("random", "random"),
        ("heuristic", "heuristic"),
        ("ismcts", ismcts_spec(game)),
        ("zoo", f"zoo:{game}"),
    ]


__all__ = ["DEFAULT_ISMCTS", "LABELS", "ismcts_spec", "ladder"]
