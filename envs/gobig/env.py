"""gobig_v0: the PettingZoo AEC env of Go Big (rules and layouts: envs/gobig/rules.py,
docs/rules/gobig.md).

| | |
|---|---|
| import | `from deckzoo.envs import gobig_v0` |
| make | `pettingzoo.make("aec", "deckzoo/gobig-v0")` |
| agents | `player_0` ... `player_{n-1}`, n = 2-6 (default 4) |
| actions | Discrete(23) |
| observation | `{"observation": float32 (see LAYOUT), "action_mask": int8 (23,)}` |
| options | num_players, end_rule, start_player, reward, illegal_action, render_mode |
| | a small variant's values, copies, hand_size (envs/variants.py) |
"""

from ..core.aec import aec_constructors
from .rules import GoBigGame as Game

env, raw_env = aec_constructors(Game)

__all__ = ["Game", "env", "raw_env"]

SHORT_OPTIONS: dict = {}
DEMO_OPTIONS = {"num_players": 4}
PLAYTHROUGH_CONFIGS = [
    {"num_players": 2},
    {"num_players": 4},
    {"num_players": 3, "end_rule": "literal"},
]
