"""Tiny's batched engine (see envs/core/batched.py): every lane's hands, played cards and undealt
cards as ``(B, seats, values)`` counts; one deal a game, at its start."""

from __future__ import annotations

import numpy as np

from ..core.batched import BatchedEngine, relative_seats
from .cards import CARD, COPIES, HAND, VALUES
from .rules import TinyGame

DECK = np.repeat(np.arange(VALUES), COPIES)


def _counts(cards: np.ndarray) -> np.ndarray:
    """``(..., k)`` card values -> ``(..., VALUES)`` int8 counts."""
    return (cards[..., None] == np.arange(VALUES)).sum(axis=-2).astype(np.int8)


class TinyBatched(BatchedEngine):
    game_cls = TinyGame

    def __init__(self, game, num_envs, rng):
        super().__init__(game, num_envs, rng)
        self.hands = np.zeros((self.B, self.n, VALUES), dtype=np.int8)
        self.played = np.zeros((self.B, self.n, VALUES), dtype=np.int8)
        self.rest = np.zeros((self.B, VALUES), dtype=np.int8)
        self._pieces = {name: (a, b) for name, _, a, b in game.layout.pieces}

    # ---- chance: a record is the dealt hands and the undealt cards, as counts -----------------
    def draw_random(self, kind, lanes):
        deck = DECK[self.rng.random((len(lanes), len(DECK))).argsort(axis=1)]
        dealt = deck[:, : HAND * self.n].reshape(len(lanes), self.n, HAND)
        return {"hands": _counts(dealt), "rest": _counts(deck[:, HAND * self.n :])}

    def record_from_states(self, kind, states):
        return {
            "hands": np.array([[_counts(np.array(h)) for h in s.hands] for s in states]),
            "rest": np.array([_counts(np.array(s.rest)) for s in states]),
        }

    def start(self, lanes):
        deal = self.draw("start", lanes)
        self.hands[lanes], self.rest[lanes] = deal["hands"], deal["rest"]
        self.played[lanes] = 0
        self.cur[lanes] = 0

    def load(self, lanes, states):
        deal = self.record_from_states("start", states)
        self.hands[lanes], self.rest[lanes] = deal["hands"], deal["rest"]
        self.played[lanes] = [[_counts(np.array(x)) for x in s.played] for s in states]
        self.cur[lanes] = [s.current_player for s in states]

    # ---- play -----------------------------------------------------------------------------------
    def legal_mask(self):
        return self.hands[self.all, self.cur] > 0

    def apply(self, lanes, actions):
        seats = self.cur[lanes]
        self.hands[lanes, seats, actions] -= 1
        self.played[lanes, seats, actions] += 1
        over = self.hands[lanes].sum(axis=(1, 2)) == 0
        self.cur[lanes] = np.where(over, -1, (seats + 1) % self.n)

    def observe(self, seats, lanes=None):
        lanes = self.all if lanes is None else lanes
        obs = np.zeros((len(lanes), self.obs_dim), dtype=np.float32)
        a, b = self._pieces["hand"]
        obs[:, a:b] = self.hands[lanes, seats] * np.float32(CARD)
        a, b = self._pieces["played"]
        order = relative_seats(seats, self.n)
        played = self.played[lanes[:, None], order] * np.float32(CARD)
        obs[:, a:b] = played.reshape(len(lanes), -1)
        a, _ = self._pieces["current_player"]
        cur = self.cur[lanes]
        going = np.flatnonzero(cur >= 0)
        obs[going, a + (cur[going] - seats[going]) % self.n] = 1.0
        return obs

    def scores(self, lanes=None):
        lanes = self.all if lanes is None else lanes
        return self.played[lanes].astype(np.int64) @ np.arange(VALUES)

    def winners(self, lanes):
        s = self.scores(lanes)
        return s == s.max(axis=1, keepdims=True)
