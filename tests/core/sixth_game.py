"""A throw-away sixth game, written into a temporary folder by ``test_registry.py``.

Tiny: 2-3 players are dealt two cards each from twelve (0-5, twice), face down; in turn each
plays one card face up; the highest total wins. Small, but with hidden cards, so every piece of
the protocol (determinize included) means something. ``FILES`` holds the folder as
docs/adding-a-game.md describes it: ``__init__.py`` exporting ``Game``, ``rules.py``, ``env.py``.
"""

INIT = '''"""Tiny: the throw-away sixth game of tests/core/test_registry.py."""

from .rules import TinyGame as Game

__all__ = ["Game"]
'''

RULES = '''"""Tiny's rules: two hidden cards each, play one a turn, highest total wins."""

from __future__ import annotations

import numpy as np

from ..core.encoding import Layout
from ..core.game import Game, State
from ..core.global_state import StateLayout

VALUES, COPIES, HAND = 6, 2, 2


class TinyGame(Game):
    name = "tiny"
    title = "Tiny"
    min_players, max_players, default_players = 2, 3, 2

    def _setup(self):
        n = self.num_players
        self.num_actions = VALUES
        self.layout = Layout([("hand", VALUES), ("played", (n, VALUES)), ("current_player", n)])
        self.observation_shape = (self.layout.size,)
        # the global state: the observation but the own hand, then every hand and the undealt cards
        self.state_layout = StateLayout(self.layout, ("hand",),
                                        [("hands", (n, VALUES)), ("rest", VALUES)])
        self.max_game_length = HAND * n
        self.score_bounds = (0, HAND * (VALUES - 1))
        self.score_scale = 5.0

    def _new_state(self, rng):
        deck = np.repeat(np.arange(VALUES), COPIES)
        rng.shuffle(deck)
        s = TinyState()
        s.game, s.rng, s.current_player = self, rng, 0
        n = self.num_players
        s.hands = [sorted(int(c) for c in deck[HAND * p:HAND * (p + 1)]) for p in range(n)]
        s.rest = sorted(int(c) for c in deck[HAND * n:])
        s.played = [[] for _ in range(n)]
        return s


class TinyState(State):
    def legal_mask(self):
        mask = np.zeros(VALUES, dtype=bool)
        mask[self.hands[self.current_player]] = True
        return mask

    def _apply(self, action):
        p = self.current_player
        self.hands[p].remove(action)
        self.played[p].append(action)
        n = self.game.num_players
        self.current_player = None if not any(self.hands) else (p + 1) % n

    def is_terminal(self):
        return self.current_player is None

    def scores(self):
        return np.array([sum(x) for x in self.played])

    def winners(self):
        s = self.scores()
        return [int(p) for p in np.flatnonzero(s == s.max())]

    def view(self, player):
        return {"player": player, "num_players": self.game.num_players,
                "hand": list(self.hands[player]), "played": [list(x) for x in self.played],
                "current_player": self.current_player}

    def observe(self, player):
        buf, v = self.game.layout.new()
        n = self.game.num_players
        for c in self.hands[player]:
            v["hand"][c] += 0.5
        for r in range(n):
            for c in self.played[(player + r) % n]:
                v["played"][r, c] += 0.5
        if self.current_player is not None:
            v["current_player"][(self.current_player - player) % n] = 1.0
        return buf

    def global_state(self):
        buf, v = self.game.state_layout.start(self.observe(0))
        for p, hand in enumerate(self.hands):
            for c in hand:
                v["hands"][p, c] += 0.5
        for c in self.rest:
            v["rest"][c] += 0.5
        return buf

    def _determinize(self, player, rng):
        s = self.clone()
        others = [q for q in range(self.game.num_players) if q != player]
        pool = self.rest + [c for q in others for c in self.hands[q]]
        rng.shuffle(pool)
        for q in others:
            k = len(self.hands[q])
            s.hands[q], pool = sorted(pool[:k]), pool[k:]
        s.rest = sorted(pool)
        return s

    def action_name(self, action):
        return f"play {action}"

    def render(self):
        lines = [f"player_{p}: hand {h}, played {x}"
                 for p, (h, x) in enumerate(zip(self.hands, self.played))]
        over = self.is_terminal()
        lines.append(self.game_over_line() if over else f"player_{self.current_player} to play")
        return "\\n".join(lines)

    def _to_dict(self):
        return {"current_player": self.current_player, "hands": self.hands, "rest": self.rest,
                "played": self.played}

    @classmethod
    def _from_dict(cls, game, d):
        s = cls()
        s.game, s.current_player = game, d["current_player"]
        s.hands, s.rest = [list(h) for h in d["hands"]], list(d["rest"])
        s.played = [list(x) for x in d["played"]]
        return s
'''

ENV = '''"""tiny_v0: the PettingZoo AEC env of Tiny."""

from ..core.aec import aec_constructors
from .rules import TinyGame as Game

env, raw_env = aec_constructors(Game)

PLAYTHROUGH_CONFIGS = [{"num_players": 2}, {"num_players": 3}]
'''

FILES = {"__init__.py": INIT, "rules.py": RULES, "env.py": ENV}

# Run in a fresh interpreter with argv [folder holding tiny/, a repository root for playthroughs]:
# the folder joins deckzoo/envs as a game folder would, then every tool must know the game.
CHECK = '''
import sys
from pathlib import Path

import deckzoo.envs as E

E.__path__.append(sys.argv[1])
assert "tiny" in E.registry.games() and "tiny_v0" in E.registry.env_names()

import gymnasium
import numpy as np
import pettingzoo
from pettingzoo.test import api_test

import deckzoo.training  # registers the Gymnasium ids
from deckzoo.agents.arena import ArenaConfig, run_arena
from deckzoo.envs import playthrough
from deckzoo.envs.core.conformance import check_determinism, check_random_play

api_test(pettingzoo.make("aec", "deckzoo/tiny-v0", num_players=3), num_cycles=50)
from deckzoo.envs import tiny_v0
env = tiny_v0.env(render_mode="ansi")
env.reset(seed=1)
assert env.metadata["name"] == "tiny_v0" and "player_0" in env.render()

genv = gymnasium.make("deckzoo/Tiny-v0", opponents="random")
obs, info = genv.reset(seed=0)
done = False
while not done:
    action = int(np.flatnonzero(genv.unwrapped.action_masks())[0])
    obs, reward, term, trunc, info = genv.step(action)
    done = term or trunc
assert term and -1 <= reward <= 1

res = run_arena(ArenaConfig("tiny", ["a=random", "b=random"], games=4, players=2, seed=3))
assert len(res.records) == 4

game = E.game_class("tiny_v0")(num_players=3)
check_random_play(game, num_games=5, seed=0, deep_every=1)
check_determinism(game, seed=0)

root = Path(sys.argv[2])
paths = playthrough.regenerate(root, ["tiny"])
assert [p.relative_to(root).as_posix() for p in paths] == [
    "tests/tiny/playthroughs/num_players=2.txt", "tests/tiny/playthroughs/num_players=3.txt"]
for p in paths:
    text = p.read_text()
    assert playthrough.replay(text) == text and "env: tiny_v0" in text and "obs[1] hand:" in text
print("sixth game ok")
'''
