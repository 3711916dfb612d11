"""The Wizard observation: one Layout (the single source for docs and playthroughs), its encoder,
and the State's ``observe`` and ``view`` (what a seat may know, as a dict), found by name.

Seats are relative: row/index 0 is the observer, then clockwise, so one policy fits every seat.
Every entry lies in [0, 1]. The encoder reads only what ``WizardState.view(p)`` shows.

    hand            54      own hand: suited cards 0/1, Wizards and Nulls count/4
                            (zero while hidden)
    hand_hidden     1       1 while the observer's own card is hidden (Foresight round before play)
    foresight       (N-1)x54 the other seats' cards, visible only in the Foresight round
    hand_sizes      N       cards in hand / cards of the round's maximum (num_rounds)
    flipped         54      one-hot of the flipped trump card (all zero when nothing was flipped)
    trump           5       one-hot trump suit 0-3, or 4 = no trump
                            (all zero while the dealer chooses)
    led_suit        5       one-hot suit to follow 0-3, or 4 = free (a Wizard led);
                            zero if not set yet
    trick           Nx54    the current trick's card of each seat (one-hot)
    trick_leader    N       one-hot seat that led the current trick (zero before the first card)
    bids            Nx(B+1) one-hot bid of each seat, B = num_rounds
    bid_pending     N       1 for each seat that has not bid yet this round
    tricks_won      N       tricks won this round / num_rounds
    voids           Nx4     suits each seat has shown it lacks this round (failed to follow)
    played          54      cards played so far this round, the current trick included
                            (count/copies)
    scores          N       (score - lowest possible) / (highest possible - lowest possible)
    round           K       one-hot round number 1..K, K = num_rounds
    dealer          N       one-hot dealer seat
    current_player  N       one-hot seat to act
    phase           3       one-hot: trump choice, bidding, play (all zero at the end)
"""

from __future__ import annotations

import numpy as np

from ..core.encoding import Layout
from .actions import PHASE_NAMES, PHASE_PLAY
from .cards import (
    COUNT_SCALE,
    LED_NONE,
    NUM_KINDS,
    NUM_SUITS,
    TRUMP_PENDING,
    card_list,
    score_bounds,
)
from .saved import copy_record


def make_layout(n: int, num_rounds: int) -> Layout:
    k = num_rounds
    return Layout(
        [
            ("hand", NUM_KINDS),
            ("hand_hidden", 1),
            ("foresight", (n - 1, NUM_KINDS)),
            ("hand_sizes", n),
            ("flipped", NUM_KINDS),
            ("trump", NUM_SUITS + 1),
            ("led_suit", NUM_SUITS + 1),
            ("trick", (n, NUM_KINDS)),
            ("trick_leader", n),
            ("bids", (n, k + 1)),
            ("bid_pending", n),
            ("tricks_won", n),
            ("voids", (n, NUM_SUITS)),
            ("played", NUM_KINDS),
            ("scores", n),
            ("round", k),
            ("dealer", n),
            ("current_player", n),
            ("phase", 3),
        ]
    )


# Pieces with one row (or one entry) per seat: reordered to relative seats for each observer.
SEAT_PIECES = (
    "hand_sizes",
    "trick",
    "trick_leader",
    "bids",
    "bid_pending",
    "tricks_won",
    "voids",
    "scores",
    "dealer",
    "current_player",
)
# Pieces only the observer may see; everything else is public.
PRIVATE_PIECES = ("hand", "hand_hidden", "foresight")

SCALE = COUNT_SCALE.tolist()


class Encoder:
    """Encodes observations for one game configuration.

    Incremental: every state keeps ``pub``, the public pieces (except whose turn it is) encoded
    once in *absolute* seat order and updated in place by the few entries each action changes
    (in ``WizardState._bid``/``_play``, at the offsets ``o_<piece>`` kept here; a new deal
    rebuilds it). ``observe(st, p)`` below is then one gather that turns absolute rows into
    relative ones (``perm[p]``), the private pieces (copied from the state's scaled hands) and
    the turn (current player, phase). ``encode_reference`` builds the same observation from
    scratch; tests check that both agree at every step.
    """

    def __init__(self, n: int, num_rounds: int):
        self.n = n
        self.k = num_rounds
        self.layout = make_layout(n, num_rounds)
        self.size = self.layout.size
        # where each piece starts (``off[name]``, ``o_<name>``): rules.py's incremental writes
        # into ``pub``, a few flat entries per action, go there
        off = {name: a for name, _, a, _ in self.layout.pieces}
        self.off = off
        self.piece = {name: self.layout.slice(name) for name in off}  # each piece's cells
        for name, a in off.items():
            setattr(self, "o_" + name, a)
        self.hand_cells, self.foresight_cells = self.piece["hand"], self.piece["foresight"]
        lo, hi = score_bounds(num_rounds)
        self.score_lo, self.score_span = float(lo), float(hi - lo)
        self.inv_k = 1.0 / num_rounds
        # relative order of seats for each observer
        self.orders = [[(p + r) % n for r in range(n)] for p in range(n)]
        self.others = [np.array(order[1:]) for order in self.orders]  # the Foresight rows
        self.void_bits = [[float((v >> s) & 1) for s in range(NUM_SUITS)] for v in range(16)]
        self.perm = [self._perm(p) for p in range(n)]

    def _perm(self, p: int) -> np.ndarray:
        perm = np.arange(self.size)
        n = self.n
        for name, shape, a, b in self.layout.pieces:
            if name in SEAT_PIECES:
                m = (b - a) // n
                for r in range(n):
                    q = (p + r) % n
                    perm[a + r * m : a + (r + 1) * m] = np.arange(a + q * m, a + (q + 1) * m)
        return perm

    # ---- from scratch -----------------------------------------------------------------
    def encode_reference(self, st, p: int) -> np.ndarray:
        buf = np.zeros(self.size, dtype=np.float32)
        v = self.layout.views(buf)
        self._fill_public(v, st, p)
        self._fill_private(v, st, p)
        return buf

    def public(self, st) -> np.ndarray:
        """The public pieces in absolute seat order (observer 0's rotation is the identity)."""
        buf = np.zeros(self.size, dtype=np.float32)
        self._fill_public(self.layout.views(buf), st, 0, turn=False)
        return buf

    # ---- every deal and every step: named slices; a one-hot from its piece's offset ------
    def dealt_public(self, st) -> np.ndarray:
        """``public(st)`` right after a deal (no bids, tricks or plays yet), with fewer writes."""
        at, piece = self.off, self.piece
        buf = np.zeros(self.size, dtype=np.float32)
        buf[piece["hand_sizes"]] = st.round * self.inv_k
        if st.flipped >= 0:
            buf[at["flipped"] + st.flipped] = 1.0
        if st.trump != TRUMP_PENDING:
            buf[at["trump"] + st.trump] = 1.0
        buf[piece["bid_pending"]] = 1.0
        lo, span = self.score_lo, self.score_span
        buf[piece["scores"]] = [(x - lo) / span for x in st.points]
        buf[at["round"] + st.round - 1] = 1.0
        buf[at["dealer"] + st.dealer] = 1.0
        return buf

    def _fill_private(self, v: dict, st, p: int) -> None:
        if st.own_hand_hidden(p):
            v["hand_hidden"][0] = 1.0
        else:
            np.multiply(st.hands[p], COUNT_SCALE, out=v["hand"])
        if st.foresight_round():
            np.multiply(st.hands[self.others[p]], COUNT_SCALE, out=v["foresight"])

    def _fill_public(self, v: dict, st, p: int, turn: bool = True) -> None:
        n, order, inv_k = self.n, self.orders[p], self.inv_k
        v["hand_sizes"][:] = [st.hand_sizes[s] * inv_k for s in order]
        if st.flipped >= 0:
            v["flipped"][st.flipped] = 1.0
        if st.trump != TRUMP_PENDING:
            v["trump"][st.trump] = 1.0
        if st.led != LED_NONE:
            v["led_suit"][st.led] = 1.0
        if st.trick:
            rel = (st.trick_leader - p) % n
            v["trick_leader"][rel] = 1.0
            for i, c in enumerate(st.trick):
                v["trick"][(rel + i) % n, c] = 1.0
        for r, s in enumerate(order):
            b = st.bids[s]
            if b < 0:
                v["bid_pending"][r] = 1.0
            else:
                v["bids"][r, b] = 1.0
            if st.voids[s]:
                v["voids"][r] = self.void_bits[st.voids[s]]
        v["tricks_won"][:] = [st.tricks_won[s] * inv_k for s in order]
        np.multiply(st.played, COUNT_SCALE, out=v["played"], casting="unsafe")
        lo, span = self.score_lo, self.score_span
        v["scores"][:] = [(st.points[s] - lo) / span for s in order]
        v["round"][st.round - 1] = 1.0
        v["dealer"][(st.dealer - p) % n] = 1.0
        if turn and st.current_player is not None:
            v["current_player"][(st.current_player - p) % n] = 1.0
            v["phase"][st.phase] = 1.0


def observe(st, p: int) -> np.ndarray:
    """Seat ``p``'s observation: the state's public encoding (``pub``, kept up to date by each
    move) in ``p``'s seat order, then its private pieces and whose turn it is."""
    enc = st.game.encoder
    buf = st.pub[enc.perm[p]]
    hand_obs = st.hand_obs
    if st.round == 1 and st.game.foresight:  # the Foresight round
        if st.phase < PHASE_PLAY:  # the own card is hidden until the play (W5)
            buf[enc.o_hand_hidden] = 1.0
        else:
            buf[enc.hand_cells] = hand_obs[p]
        buf[enc.foresight_cells] = hand_obs[enc.others[p]].ravel()
    else:
        buf[enc.hand_cells] = hand_obs[p]  # the hand kept scaled, so this is one copy
    cur = st.current_player
    if cur is not None:
        buf[enc.o_current_player + (cur - p) % enc.n] = 1.0
        buf[enc.o_phase + st.phase] = 1.0
    return buf


def view(st, player: int) -> dict:
    """What ``player`` may know: own hand (None while hidden in the Foresight round), the other
    seats' cards in the Foresight round, and everything public."""
    n = st.game.num_players
    hidden = st.own_hand_hidden(player)
    if st.foresight_round():
        seen = [None if q == player else card_list(st.hands[q]) for q in range(n)]
    else:
        seen = None
    return {
        "player": player,
        "num_players": n,
        "num_rounds": st.game.rounds,
        "round": st.round,
        "dealer": st.dealer,
        "first_dealer": st.first_dealer,
        "current_player": st.current_player,
        "phase": PHASE_NAMES[st.phase],
        "hand": None if hidden else card_list(st.hands[player]),
        "foresight_hands": seen,
        "hand_sizes": list(st.hand_sizes),
        "flipped": None if st.flipped < 0 else st.flipped,
        "trump": None if st.trump == TRUMP_PENDING else st.trump,
        "led_suit": None if st.led == LED_NONE else st.led,
        "trick_leader": st.trick_leader,
        "trick": list(st.trick),
        "tricks": [[a, list(c), w] for a, c, w in st.tricks],
        "bids": [None if b < 0 else b for b in st.bids],
        "tricks_won": list(st.tricks_won),
        "voids": [[s for s in range(NUM_SUITS) if v >> s & 1] for v in st.voids],
        "played": card_list(np.asarray(st.played)),
        "scores": list(st.points),
        "history": [copy_record(h) for h in st.history],
    }
