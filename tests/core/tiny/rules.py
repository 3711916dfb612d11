"""Tiny's rules: four hidden cards each, play one a turn, highest total wins.

2-3 players are dealt four cards each from eighteen (0-5, three times), face down; in turn each
plays one card face up; the highest total of played cards wins (ties share). Small, but with
hidden cards, so every piece of the protocol (determinize included) means something.
"""

from __future__ import annotations

import numpy as np

from ..core.encoding import Layout
from ..core.game import Game, State
from ..core.global_state import StateLayout

VALUES, COPIES, HAND = 6, 3, 4
CARD = 0.25  # a card's weight in the encodings: three copies stay below 1


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

    def view(self, player):
        return {
            "player": player,
            "num_players": self.game.num_players,
            "phase": "over" if self.is_terminal() else "play",
            "hand": list(self.hands[player]),
            "hand_sizes": [len(h) for h in self.hands],
            "played": [list(x) for x in self.played],
            "current_player": self.current_player,
        }

    def observe(self, player):
        buf, v = self.game.layout.new()
        n = self.game.num_players
        for c in self.hands[player]:
            v["hand"][c] += CARD
        for r in range(n):
            for c in self.played[(player + r) % n]:
                v["played"][r, c] += CARD
        if self.current_player is not None:
            v["current_player"][(self.current_player - player) % n] = 1.0
        return buf

    def global_state(self):
        buf, v = self.game.state_layout.start(self.observe(0))
        for p, hand in enumerate(self.hands):
            for c in hand:
                v["hands"][p, c] += CARD
        for c in self.rest:
            v["rest"][c] += CARD
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

    def render(self, observer=None):
        """Every hand (a spectator's view), or with ``observer`` what that seat sees."""
        if observer is not None:
            return self.render_view(observer)
        lines = [
            f"player_{p}: hand {h}, played {x}"
            for p, (h, x) in enumerate(zip(self.hands, self.played))
        ]
        over = self.is_terminal()
        lines.append(self.game_over_line() if over else f"player_{self.current_player} to play")
        return "\n".join(lines)

    def render_view(self, player):
        """The table as ``player`` sees it, from its view only (``deckzoo play``)."""
        v = self.view(player)
        lines = [f"your hand: {' '.join(map(str, v['hand'])) or '-'}"]
        lines += [
            f"player_{p}{' (you)' if p == player else ''}: played {x}"
            for p, x in enumerate(v["played"])
        ]
        over = self.is_terminal()
        lines.append(self.game_over_line() if over else f"player_{self.current_player} to play")
        return "\n".join(lines)

    def _to_dict(self):
        return {
            "current_player": self.current_player,
            "hands": self.hands,
            "rest": self.rest,
            "played": self.played,
        }

    @classmethod
    def _check_dict(cls, game, d):
        from .saved import check_state

        check_state(game, d)

    @classmethod
    def _from_dict(cls, game, d):
        s = cls()
        s.game, s.current_player = game, d["current_player"]
        s.hands, s.rest = [list(h) for h in d["hands"]], list(d["rest"])
        s.played = [list(x) for x in d["played"]]
        return s
