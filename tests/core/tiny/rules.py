"""Tiny's rules: four hidden cards each, play one a turn, highest total wins.

2-3 players are dealt four cards each from eighteen (0-5, three times), face down; in turn each
plays one card face up; the highest total of played cards wins (ties share). Small, but with
hidden cards, so every piece of the protocol (determinize included) means something.

This module holds the game and the moves. What a position shows lives in modules of functions of
the state that ``State`` finds by name (envs/core/game.py, ``FUNCTION_MODULES``): encoding.py
(``view``, ``observe``), global_state.py, determinize.py, text.py (``action_name``, ``render``,
``render_view``) and saved.py (``to_dict``, ``from_dict``, ``check_state``). They take their
constants from cards.py and never import this module: no import circle, no forwarding methods.
"""

from __future__ import annotations

import numpy as np

from ..core.encoding import Layout
from ..core.game import Game, State
from ..core.global_state import StateLayout
from .cards import COPIES, HAND, VALUES


class TinyGame(Game):
    name = "tiny"
    title = "Tiny"
    min_players, max_players, default_players = 2, 3, 2
    decision_phases = ("play",)

    def _setup(self):
        n = self.num_players
        self.num_actions = VALUES
        self.layout = Layout([("hand", VALUES), ("played", (n, VALUES)), ("current_player", n)])
        self.observation_shape = (self.layout.size,)
        # the global state: the observation but the own hand, then every hand and the undealt cards
        self.state_layout = StateLayout(
            self.layout, ("hand",), [("hands", (n, VALUES)), ("rest", VALUES)]
        )
        self.max_game_length = HAND * n  # every decision plays one of the dealt cards
        self.score_bounds = (0, HAND * (VALUES - 1))
        self.score_scale = 5.0

    def _new_state(self, rng):
        deck = np.repeat(np.arange(VALUES), COPIES)
        rng.shuffle(deck)
        s = TinyState()
        s.game, s.rng, s.current_player = self, rng, 0
        n = self.num_players
        s.hands = [sorted(int(c) for c in deck[HAND * p : HAND * (p + 1)]) for p in range(n)]
        s.rest = sorted(int(c) for c in deck[HAND * n :])
        s.played = [[] for _ in range(n)]
        return s


class TinyState(State):
    def legal_mask(self):
        mask = np.zeros(VALUES, dtype=bool)
        if self.current_player is not None:  # a finished game: no action is legal
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
