"""bigwig_v1: the PettingZoo AEC and native Parallel envs of BigWig (rules and layouts:
envs/bigwig/rules.py, docs/rules/bigwig.md).

| | |
|---|---|
| import | `from deckzoo.envs import bigwig_v1` |
| make | `pettingzoo.make("aec", "deckzoo/bigwig-v1")` |
| | `pettingzoo.make("parallel", "deckzoo/bigwig-v1")` |
| agents | `player_0` ... `player_{n-1}`, n = 2-6 (default 4) |
| actions | AEC: Discrete(109 + n); Parallel: Discrete(110 + n), the last id is NOOP |
| observation | `{"observation": float32 (see the layout), "action_mask": int8}` |
| options | num_players, age_order, reward, illegal_action, render_mode |

In the AEC env the players of a face-down trick commit one after another (youngest first, then
clockwise), and a holmgang's onlookers decide about their Til Valhallar tickets one after another
(in age order, every onlooker, with or without a ticket); no observation shows another seat's
commit or ticket decision before the reveal. The Parallel env lets all of them decide in one step,
and gives seats with nothing to decide a mask holding only NOOP.
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
