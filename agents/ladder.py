"""The reference ladder of every game: ``random``, ``heuristic``, ISMCTS and the zoo policy.

``ladder(game)`` lists the four as ``(label, spec)`` pairs for ``make_agent``; the leaderboard
(``benchmarks/leaderboard.py``) plays them against each other and the strength benchmark
(``benchmarks/strength.py``) plays the search against the heuristic.

``ismcts_spec(game)`` is the strongest ISMCTS setting measured within about a second a move:
``STRENGTH_ISMCTS`` in the game's ``env.py`` (the pilot runs behind each are noted there), else
``DEFAULT_ISMCTS``. The shipped settings cap every search at one second of CPU time
(``1s:clock=cpu``: what the wall clock shows on an otherwise idle core; the benchmarks ran on a
shared 2-core machine where a wall-clock cap would have meant a fraction of that).
"""

from __future__ import annotations

# Search with the game's own heuristic as the rollout policy: in Go Big 60 such iterations beat
# the heuristic clearly, while 300 iterations with random rollouts only draw level with it.
DEFAULT_ISMCTS = "ismcts:60:rollout=heuristic"
LABELS = ("random", "heuristic", "ismcts", "zoo")


def ismcts_spec(game: str) -> str:
    """The game's own search setting (any name ``deckzoo.envs.canonical`` accepts)."""
    from deckzoo.envs.registry import env_module

    return getattr(env_module(game), "STRENGTH_ISMCTS", DEFAULT_ISMCTS)


def ladder(game: str) -> list[tuple[str, str]]:
    """``(label, spec)`` of the reference agents of ``game`` (a game name such as ``wizard``)."""
    return [
        ("random", "random"),
        ("heuristic", "heuristic"),
        ("ismcts", ismcts_spec(game)),
        ("zoo", f"zoo:{game}"),
    ]


__all__ = ["DEFAULT_ISMCTS", "LABELS", "ismcts_spec", "ladder"]
