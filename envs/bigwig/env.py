"""bigwig_v0: the PettingZoo AEC and native Parallel envs of BigWig (rules and layouts:
envs/bigwig/rules.py, docs/rules/bigwig.md).

| | |
|---|---|
| import | `from deckzoo.envs import bigwig_v0` |
| make | `pettingzoo.make("aec", "deckzoo/bigwig-v0")` |
| | `pettingzoo.make("parallel", "deckzoo/bigwig-v0")` |
| agents | `player_0` ... `player_{n-1}`, n = 2-6 (default 4) |
| actions | AEC: Discrete(109 + n); Parallel: Discrete(110 + n), the last id is NOOP |
| observation | `{"observation": float32 (see the layout), "action_mask": int8}` |
| options | num_players, age_order, reward, illegal_action, render_mode |

In the AEC env the players of a face-down trick commit one after another (youngest first, then
clockwise) and no observation shows another seat's commit before the reveal; the Parallel env lets
all of them commit in one step, and gives seats with nothing to decide a mask holding only NOOP.
"""

from ..core.aec import aec_constructors
from ..core.parallel import parallel_constructor
from .rules import BigWigGame as Game

env, raw_env = aec_constructors(Game)
parallel_env = parallel_constructor(Game)

__all__ = ["Game", "env", "parallel_env", "raw_env"]

SHORT_OPTIONS: dict = {}
DEMO_OPTIONS = {"num_players": 4}
PLAYTHROUGH_CONFIGS = [
    {"num_players": 2},
    {"num_players": 4},
    {"num_players": 6, "age_order": [3, 1, 5, 0, 2, 4]},
]

# benchmarks/strength.py's search: the heuristic (~1 ms a decision) is too slow to roll out with;
# the shipped zoo policy as prior and rollout policy, half a CPU second a move (33-100 iterations;
# time-capped, so not replayed exactly): 0.317 [0.261, 0.378] against three heuristics over 240
# games (a first run, stopped at 120 games, stood at 0.287). It picks the zoo policy's own move
# almost always and is about as strong as it (0.342 alone). Random rollouts, 300 iterations: 0.225.
# Those numbers are with the 561k-step zoo policy. With the 3.0M-step one shipped since 2026-12-04
# (0.407 alone) the same spec won 0.475 [0.399, 0.552] over 160 games (strength_bigwig_zoo3m/).
# A round is one trick, too short a horizon for a game of hand management (horizon=2: 0 wins in an
# 8-game pilot, points level).
STRENGTH_ISMCTS = "ismcts:0.5s:clock=cpu:prior=zoo:bias=1:rollout=zoo:reward=score"
