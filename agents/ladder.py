"""The reference ladder of every game: ``random``, ``heuristic``, ISMCTS and the zoo policy.

``ladder(game)`` lists the four as ``(label, spec)`` pairs for ``make_agent``; the leaderboard
(``benchmarks/leaderboard.py``) plays them against each other and the strength benchmark
(``benchmarks/strength.py``) plays the search against the heuristic.

``ISMCTS_FOR[game]`` is the strongest ISMCTS setting measured within about a second a move. Every
one caps its search at one second of CPU time (``1s:clock=cpu``: what the wall clock shows on an
otherwise idle core; the benchmarks ran on a shared 2-core machine where a wall-clock cap would
have meant a fraction of that). The settings came from short pilot runs against three heuristic
opponents:

* Go Big: 60 iterations with the heuristic as the rollout policy beat the heuristic clearly,
  while 300 iterations with random rollouts only drew level with it.
* Big Number and Wizard are played in scoring rounds (deals, hands), and a rollout to the end of
  the game (5-15 rounds) is slow and mostly noise: with it, 30-60 iterations a move stayed below
  or level with the heuristic (0.13 and 0.35). ``horizon=1`` stops every iteration at the end of
  the current round and values it by the points gained, which buys ~10x the iterations and a
  cleaner signal (16-game pilots: Big Number 0.13 -> 0.38; Wizard won 3 of 4). ``bias=1`` (the
  heuristic's own move first) did not change Big Number (0.31, 16 games). Their first moves of a
  round roll out whole rounds and take several times the average, which the cap bounds.
* BigWig's heuristic (~2 ms a decision) is too slow to roll out with, so its search uses random
  rollouts valued by the final points; a round there is one trick, too short a horizon for a game
  of hand management (horizon=2: 0 wins in an 8-game pilot). Its face-down commits are searched
  as simultaneous moves (``agents/ismcts.py``).
* Midgard: see the entry's comment.
"""

from __future__ import annotations

ISMCTS_FOR = {
    "gobig": "ismcts:60:1s:clock=cpu:rollout=heuristic",
    "bignumber": "ismcts:500:1s:clock=cpu:rollout=heuristic:horizon=1",
    "wizard": "ismcts:300:1s:clock=cpu:rollout=heuristic:horizon=1",
    "bigwig": "ismcts:300:1s:clock=cpu:reward=score",
    "midgard": "ismcts:60:1s:clock=cpu:reward=score:max_rollout_steps=100",
}
LABELS = ("random", "heuristic", "ismcts", "zoo")


def ladder(game: str) -> list[tuple[str, str]]:
    """``(label, spec)`` of the reference agents of ``game`` (a game name such as ``wizard``)."""
    return [("random", "random"), ("heuristic", "heuristic"), ("ismcts", ISMCTS_FOR[game]),
            ("zoo", f"zoo:{game}")]


__all__ = ["ISMCTS_FOR", "LABELS", "ladder"]
