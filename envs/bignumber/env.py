"""bignumber_v0: the PettingZoo AEC env of Big Number (rules and layouts: envs/bignumber/rules.py,
docs/rules/bignumber.md).

| | |
|---|---|
| import | `from deckzoo.envs import bignumber_v0` |
| make | `pettingzoo.make("aec", "deckzoo/bignumber-v0")` |
| agents | `player_0` ... `player_{n-1}`, n = 2-6 (default 4) |
| actions | one deck: Discrete(2180), one action a play; two decks: Discrete(74), card by card |
| observation | `{"observation": float32 (see game.layout), "action_mask": int8 (num_actions,)}` |
| options | num_players, two_decks, target, single_deal, start_player, |
| | reward, illegal_action, render_mode; a small variant's ranks, hand_size (envs/variants.py) |
"""

from ..core.aec import aec_constructors
from .rules import BigNumberGame as Game

env, raw_env = aec_constructors(Game)

# One deal keeps the generic suite in tests/core fast; the full game is tested in tests/bignumber.
SHORT_OPTIONS = {"single_deal": True}
DEMO_OPTIONS = {"num_players": 4}
PLAYTHROUGH_CONFIGS = [
    {"num_players": 2, "single_deal": True},
    {"num_players": 3, "target": 10},
    {"num_players": 3, "two_decks": True, "single_deal": True},
]

__all__ = ["DEMO_OPTIONS", "PLAYTHROUGH_CONFIGS", "SHORT_OPTIONS", "Game", "env", "raw_env"]
