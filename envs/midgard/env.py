"""midgard_v1: the PettingZoo AEC env of Midgard: The Card Game (rules and layouts:
envs/midgard/rules.py, docs/rules/midgard.md).

| | |
|---|---|
| import | `from deckzoo.envs import midgard_v1` |
| make | `pettingzoo.make("aec", "deckzoo/midgard-v1")` |
| agents | `player_0` ... `player_{n-1}`, n = 3-6 (default 4) |
| actions | Discrete(557), ranges in envs/midgard/actions.py |
| observation | `{"observation": float32 (envs/midgard/encoding.py), "action_mask": int8 (557,)}` |
| options | num_players, start_position, max_turns, max_decisions, start_player, |
| | reaction_windows, reward, illegal_action, render_mode |

Events, reaction windows and bonus cards are played (envs/midgard/cardplay.py): reactions and
bonuses are out-of-turn decisions, so ``agent_selection`` moves to the seat a window or a bonus
round asks: every seat with a card, whether or not one fits (a forced pass then; MD15), so that
``agent_selection`` tells nobody what a seat holds.
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
