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

# benchmarks/strength.py's search: the heuristic guides the tree (bias=1) and rolls out, each
# rollout cut after 24 moves (about three turns a seat) and valued by the banked points
# (reward=score, norm=1), at most 400 iterations and 1 s of CPU a move: 0.775 [0.625, 0.877]
# against three heuristics over 40 games (strength.md). It replaced ``ismcts:60:1s:rollout=
# heuristic`` (whole-game rollouts valued by the win: 0.675 against three heuristics, but close to
# random at a table of mixed opponents, where 60 noisy whole-game samples a move hardly rank the
# moves): at the leaderboard's table (64 games, arena seed 11) this search finished ahead of the
# heuristic in 0.51 [0.39, 0.63] of the games, the old one in 0.22 (400 games, seed 0).
STRENGTH_ISMCTS = (
    "ismcts:400:1s:clock=cpu:rollout=heuristic:bias=1:reward=score:max_rollout_steps=24:norm=1"
)
