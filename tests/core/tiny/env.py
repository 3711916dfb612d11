"""tiny_v0: the PettingZoo AEC env of Tiny."""

from ..core.aec import aec_constructors
from .rules import TinyGame as Game

env, raw_env = aec_constructors(Game)

PLAYTHROUGH_CONFIGS = [{"num_players": 2}, {"num_players": 3}]
