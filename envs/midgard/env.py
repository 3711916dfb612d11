"""midgard_v0: the PettingZoo AEC env of Midgard: The Card Game (rules and layouts:
envs/midgard/rules.py, docs/rules/midgard.md).

| | |
|---|---|
| import | `from deckzoo.envs import midgard_v0` |
| make | `pettingzoo.make("aec", "deckzoo/midgard-v0")` |
| agents | `player_0` ... `player_{n-1}`, n = 3-6 (default 4) |
| actions | Discrete(557), ranges in envs/midgard/actions.py |
| observation | `{"observation": float32 (envs/midgard/encoding.py), "action_mask": int8 (557,)}` |
| options | num_players, start_position, max_turns, max_decisions, start_player, |
| | reward, illegal_action, render_mode |

Events, reaction windows and bonus cards are played (envs/midgard/cardplay.py): reactions and
bonuses are out-of-turn decisions, so ``agent_selection`` moves to the seat a window or a bonus
round asks.
"""

from ..core.aec import aec_constructors
from .rules import MidgardGame as Game

env, raw_env = aec_constructors(Game)

# Options that keep games short in the generic suite: two calendar steps, at most 16 turns.
SHORT_OPTIONS = {"start_position": 6, "max_turns": 16}
DEMO_OPTIONS = {"num_players": 4, "start_position": 4}
PLAYTHROUGH_CONFIGS = [
    {"num_players": 3, "start_position": 6, "max_turns": 9},
    {"num_players": 6, "start_position": 6, "max_turns": 12},
]

__all__ = ["DEMO_OPTIONS", "PLAYTHROUGH_CONFIGS", "SHORT_OPTIONS", "Game", "env", "raw_env"]

# benchmarks/strength.py's search: ~570 decisions a game, and a whole heuristic rollout from
# mid-game takes ~155 ms, so the shipped zoo policy rolls out (and guides the tree, bias=1), cut at
# 30 moves and valued by the score: 0.500 [0.280, 0.720] against three heuristics over 16 games,
# 225 CPU ms a move (strength.md). Random rollouts cut at 100 moves, 60 iterations: 0 of 16.
# Those numbers are with the 750k-step zoo policy; with the 2.25M-step one shipped since
# 2026-12-04 (0.615 alone) it won 0.688 [0.514, 0.820] over 32 games, 215 CPU ms a move
# (benchmarks/results/strength_midgard_zoo2m/).
STRENGTH_ISMCTS = (
    "ismcts:24:1s:clock=cpu:rollout=zoo:bias=1:reward=score:max_rollout_steps=30:norm=1"
)
