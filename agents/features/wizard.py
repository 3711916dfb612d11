"""Wizard input features (``vector.features: wizard``): what card play and bidding turn on.

Every feature is a function of the observation alone (``envs/wizard/encoding.py``), seats
relative to the observer as there. Pieces, in order (N players, K rounds):

    wins_now     54     per card kind: it would take the trick as it stands if played now
                        (Wizard: no Wizard in the trick yet; Null: the trick is empty; a suited
                        card: it beats every card so far by rule W9, setting the led suit if
                        none is set). A leader's every card "wins" the empty trick.
    beaten_by    54     per kind: how many cards the observer has not seen (not in the own hand,
                        not played this round) would beat it if it were led, / 16, capped at 1
                        (Wizard 0; Null 1)
    need         Nx9    per seat: one-hot of bid - tricks won, clipped to -3..4, then 1 if the
                        seat must win every trick left (zero while the seat has not bid)
    slack        16     own cards left minus own need, one-hot 0..15 (zero before the own bid)
    to_play      N      one-hot: how many seats play after the observer in this trick (0..N-1)
    trump_hand   13     own cards of the trump suit by rank (zero without a trump suit)
    plain_hand   13     own cards of the other suits by rank, count / 3
    specials     2      own Wizards, own Nulls (count / 4)
    trump_unseen 13     trump ranks not in the own hand and not played this round
    wizards_out  1      Wizards not in the own hand and not played this round, / 4

Why these: a decision in Wizard is "take this trick or not" given how many tricks the seat still
needs, and a flat network over 677 indicators must learn the rule of W9 (which card beats which,
given trump and led suit) for each of 54 cards separately before it can play to its bid. From
scratch (no cloning of the heuristic), the vector trainer's 128x128 policy with these features
beats the heuristic within the 30-minute budget (configs/wizard-vector-features.yaml), where the
same network and config without them does not: benchmarks/results/training.md has the runs.
"""

from __future__ import annotations

import numpy as np

from deckzoo.envs.wizard.cards import NUM_KINDS, NUM_SUITS, RANKS
from deckzoo.envs.wizard.encoding import make_layout

from . import InputFeatures, register

_RANK = np.arange(52) % RANKS
_SUIT = np.arange(52) // RANKS


class WizardFeatures(InputFeatures):
    name = "wizard"

    def __init__(self, num_players: int, num_rounds: int):
        self.n, self.k = n, k = num_players, num_rounds
        layout = make_layout(n, k)
        self.obs_size = layout.size
        self.o = {name: (a, b) for name, _, a, b in layout.pieces}
        self.size = 2 * NUM_KINDS + 9 * n + 16 + n + 13 + 13 + 2 + 13 + 1

    def _piece(self, x: np.ndarray, name: str) -> np.ndarray:
        a, b = self.o[name]
        return x[:, a:b]

    def compute(self, x: np.ndarray) -> np.ndarray:
        n, k, B = self.n, self.k, len(x)
        hand, played = self._piece(x, "hand"), self._piece(x, "played")
        trump_oh, led_oh = self._piece(x, "trump"), self._piece(x, "led_suit")
        trick = self._piece(x, "trick").reshape(B, n, NUM_KINDS)
        bids = self._piece(x, "bids").reshape(B, n, k + 1)
        pending = self._piece(x, "bid_pending") > 0.5
        won = np.rint(self._piece(x, "tricks_won") * k)
        sizes = np.rint(self._piece(x, "hand_sizes") * k)
        # trump 0-3 or 4 (no trump; also while the dealer chooses); led 0-3, 4 free, -1 unset
        trump = np.where(trump_oh.any(1), trump_oh.argmax(1), 4)
        led = np.where(led_oh.any(1), led_oh.argmax(1), -1)
        cards = trick.sum(1)  # (B, 54) counts in the trick
        wizard_in = cards[:, 52] > 0
        empty = cards.sum(1) == 0
        # W9 keys of the suited kinds: trump 100 + rank, led suit rank, else -1
        is_trump = _SUIT[None, :] == trump[:, None]
        is_led = (_SUIT[None, :] == led[:, None]) & (led[:, None] < NUM_SUITS)
        key = np.where(is_trump, 100 + _RANK, np.where(is_led, _RANK, -1))
        best = np.where(cards[:, :52] > 0, key, -2).max(1)
        own_key = np.where(led[:, None] >= 0, key, np.where(is_trump, 100 + _RANK, _RANK))
        out = np.zeros((B, self.size), dtype=np.float32)
        c = 0
        out[:, c : c + 52] = (own_key > best[:, None]) & ~wizard_in[:, None]
        out[:, c + 52] = ~wizard_in
        out[:, c + 53] = empty
        c += NUM_KINDS
        # cards unseen by the observer (suited 0/1; Wizards and Nulls as counts of 4)
        unseen = np.clip(1.0 - hand[:, :52] - played[:, :52], 0.0, 1.0)
        wizards_out = np.clip(1.0 - hand[:, 52] - played[:, 52], 0.0, 1.0) * 4.0
        trump_unseen = np.where(is_trump, unseen, 0.0)
        # higher unseen cards of the same suit: a reversed running sum within each suit (no
        # matrix product: BLAS would start threads on a shared 2-core machine)
        by_suit = unseen.reshape(B, NUM_SUITS, RANKS)
        above = np.cumsum(by_suit[:, :, ::-1], axis=2)[:, :, ::-1] - by_suit
        beaten = above.reshape(B, 52)
        beaten += np.where(is_trump, 0.0, trump_unseen.sum(1, keepdims=True))
        beaten += wizards_out[:, None]
        out[:, c : c + 52] = np.minimum(beaten / 16.0, 1.0)
        out[:, c + 53] = 1.0  # a Null is beaten by anything
        c += NUM_KINDS
        bid = bids.argmax(2)
        need = bid - won
        set_ = ~pending
        idx = np.clip(need, -3, 4).astype(np.int64) + 3
        block = np.zeros((B, n, 9), dtype=np.float32)
        np.put_along_axis(block, idx[:, :, None], 1.0, axis=2)
        block[:, :, 8] = need == sizes
        block *= set_[:, :, None]
        out[:, c : c + 9 * n] = block.reshape(B, -1)
        c += 9 * n
        slack = np.clip(sizes[:, 0] - need[:, 0], 0, 15).astype(np.int64)
        rows = np.flatnonzero(set_[:, 0])
        out[rows, c + slack[rows]] = 1.0
        c += 16
        after = np.clip(n - 1 - cards.sum(1), 0, n - 1).astype(np.int64)
        out[np.arange(B), c + after] = 1.0
        c += n
        suits = hand[:, :52].reshape(B, NUM_SUITS, RANKS)
        tmask = trump[:, None] == np.arange(NUM_SUITS)[None, :]
        out[:, c : c + 13] = (suits * tmask[:, :, None]).sum(1)
        c += 13
        out[:, c : c + 13] = (suits * ~tmask[:, :, None]).sum(1) / 3.0
        c += 13
        out[:, c : c + 2] = hand[:, 52:54]
        c += 2
        out[:, c : c + 13] = trump_unseen.reshape(B, NUM_SUITS, RANKS).sum(1)
        c += 13
        out[:, c] = wizards_out / 4.0
        c += 1
        assert c == self.size
        return out


register("wizard", "wizard", lambda game: WizardFeatures(game.num_players, game.rounds))
