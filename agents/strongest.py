"""The strongest ISMCTS setting of each game: the search of the ladder and of the benchmarks.

One table, ``STRONGEST_ISMCTS``, maps a game's name to the ``ismcts`` spec that played best within
about a second of CPU time a move. ``agents/ladder.py`` seats it on the leaderboard
(``benchmarks/leaderboard.py``) and ``benchmarks/strength.py`` plays it against the heuristic.
The evidence behind each entry (games, intervals, seconds a move) is in
``benchmarks/results/strength.md``; the pilots that chose between settings are described in
docs/agents.md ("How the settings were chosen"). Results are kept there, not here, so that a new
measurement changes a results file and at most one line of this table.

Every setting caps a search at one second of CPU time (``1s:clock=cpu``, or less): the CPU time
is what the wall clock shows on an otherwise idle core, while the benchmarks ran on a shared
machine where a wall-clock cap would have meant a fraction of that. A game missing from the
table (a new game, before anyone has measured its search) gets ``DEFAULT_ISMCTS``.
"""

from __future__ import annotations

# The game's own heuristic rolls out: opponents that play like it are valued more sharply than by
# random rollouts (docs/agents.md, ISMCTS).
DEFAULT_ISMCTS = "ismcts:60:rollout=heuristic"

STRONGEST_ISMCTS: dict[str, str] = {
    "gobig": (
        "ismcts:400:1s:clock=cpu:rollout=heuristic:bias=1:reward=score:max_rollout_steps=24:norm=1"
    ),
    "bignumber": "ismcts:500:1s:clock=cpu:rollout=heuristic:horizon=1",
    "wizard": "ismcts:300:1s:clock=cpu:rollout=heuristic:horizon=1",
    "bigwig": "ismcts:0.5s:clock=cpu:prior=zoo:bias=1:rollout=zoo:reward=score",
    "midgard": (
        "ismcts:24:1s:clock=cpu:rollout=zoo:bias=1:reward=score:max_rollout_steps=30:norm=1"
    ),
}


def strongest_ismcts(game: str) -> str:
    """The game's entry in ``STRONGEST_ISMCTS``, else ``DEFAULT_ISMCTS``; ``game`` is any name
    ``deckzoo.envs.canonical`` accepts (``wizard``, ``wizard_v0``)."""
    from deckzoo.envs.registry import game_class

    return STRONGEST_ISMCTS.get(game_class(game).name, DEFAULT_ISMCTS)


__all__ = ["DEFAULT_ISMCTS", "STRONGEST_ISMCTS", "strongest_ismcts"]
