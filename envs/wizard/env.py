"""wizard_v0: the PettingZoo AEC env of Wizard (rules and layouts: envs/wizard/rules.py,
docs/rules/wizard.md).

| | |
|---|---|
| import | `from deckzoo.envs import wizard_v0` |
| make | `pettingzoo.make("aec", "deckzoo/wizard-v0")` |
| agents | `player_0` ... `player_{n-1}`, n = 3, 4, 5, 6, 10 or 12 (default 4) |
| actions | Discrete(59 + K), K = num_rounds (full game: 60 / n): |
| | 0-53 play a card, 54-57 trump suit, 58.. bid |
| observation | `{"observation": float32 (layout: docs/rules/wizard.md), "action_mask": int8}` |
| options | num_players, num_rounds, foresight, first_dealer, reward, illegal_action, render_mode |
| | a small variant's suits, ranks, wizards, nulls (envs/variants.py) |
"""

from ..core.aec import aec_constructors
from .rules import WizardGame as Game

env, raw_env = aec_constructors(Game)

__all__ = ["Game", "env", "raw_env"]

# Three rounds keep the generic suite fast for every player count (10 and 12 players included).
SHORT_OPTIONS = {"num_rounds": 3}
DEMO_OPTIONS = {"num_players": 4}
PLAYTHROUGH_CONFIGS = [
    {"num_players": 3, "num_rounds": 4},
    {"num_players": 4, "num_rounds": 5},
    {"num_players": 6, "num_rounds": 3, "foresight": False},
    {"num_players": 12, "num_rounds": 2},
]
