"""Wizard, batched: B games as struct-of-arrays numpy state, bit-exact with ``rules.py``.

Same options, action ids and observation as ``WizardGame`` (``rules.py`` is the specification;
``tests/vector/test_wizard.py`` replays random games in both and compares every step). What
is kept per lane (``B`` games, ``n`` seats):

    hands (B, n, 54) int8 counts   played (B, 54) int8      points, bids, won, voids, hs (B, n)
    tcard (B, n) card each seat put in the current trick (-1: none yet)
    phase, cur, rnd, dealer, flipped, trump, led, leader, tlen, tdone (B,)

The observation is built from these arrays in one pass per step: zero the buffer, scatter
every one-hot entry with a single flat assignment, then write the dense pieces (hands, played,
per-seat values rotated to the observer's relative order through lookup tables that hold the
scalar encoder's float results). Entries a lane does not have (no flipped card, no led suit)
are aimed at the first hand entry, which the dense hand write then overwrites.

Chance: a deal is a record ``{"hands": (k, n, 54) int8, "flipped": (k,)}`` (plus
``"first_dealer"`` for a new game), drawn from the batch generator (``Generator.permuted``,
dealt one card at a time clockwise from the dealer's left, as the scalar engine deals) or
copied from scalar states (``record_from_states``).
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from ..core.batched import (
    BatchedEngine,
    flat_order,
    float32_table,
    relative_seats,
    rotate,
    row_starts,
    seat_positions,
)
from .cards import (
    COUNT_SCALE,
    DECK_KINDS,
    DECK_SIZE,
    LED_FREE,
    LED_NONE,
    NO_TRUMP,
    NULL,
    NUM_KINDS,
    NUM_SUITED,
    NUM_SUITS,
    RANKS,
    TRUMP_PENDING,
    WIZARD,
    trump_after_flip,
)
from .rules import (
    BID_BASE,
    PHASE_BID,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_TRUMP,
    TRUMP_BASE,
    WizardGame,
)

_KINDS = np.arange(NUM_KINDS)
# FOLLOW[code]: the kinds a hand may play when it must follow suit ``code`` (4: anything)
_FOLLOW = np.ones((NUM_SUITS + 1, NUM_KINDS), dtype=bool)
for _s in range(NUM_SUITS):
    _FOLLOW[_s, :NUM_SUITED] = _KINDS[:NUM_SUITED] // RANKS == _s
# the led suit a kind sets when it is the first card that sets one
_LED_BY_KIND = np.concatenate([_KINDS[:NUM_SUITED] // RANKS, [LED_FREE, LED_NONE]])
# by (led + 1) * NUM_KINDS + card (led -1..4): the led suit after the card is played, and the
# void bit it shows (a suited card that does not follow the led suit: void in that suit)
_LED_AFTER = np.empty((NUM_SUITS + 2, NUM_KINDS), dtype=np.int64)
_LED_AFTER[0] = _LED_BY_KIND
_LED_AFTER[1:] = np.arange(-1, NUM_SUITS + 1)[1:, None]
_LED_AFTER = _LED_AFTER.ravel()
_VOID_SHOWN = np.zeros((NUM_SUITS + 2, NUM_KINDS), dtype=np.int64)
for _s in range(NUM_SUITS):
    _VOID_SHOWN[_s + 1, :NUM_SUITED] = np.where(_KINDS[:NUM_SUITED] // RANKS != _s, 1 << _s, 0)
_VOID_SHOWN = _VOID_SHOWN.ravel()
# trump after flipping kind f (index f + 1; index 0 = nothing flipped)
_TRUMP_BY_FLIP = np.array([trump_after_flip(f) for f in range(-1, NUM_KINDS)])
# SUIT_OF[kind, suit] = 1 for the suited kinds: hands (rows of counts) @ SUIT_OF = cards per
# suit (a float32 matrix product of small counts is exact, and far cheaper than a reshaped sum)
_SUIT_OF = np.zeros((NUM_SUITED, NUM_SUITS), dtype=np.float32)
_SUIT_OF[_KINDS[:NUM_SUITED], _KINDS[:NUM_SUITED] // RANKS] = 1.0
# by ``led + 1`` (led -1..4): whether a suit must be followed, and which suit column to look at
_LED_IS_SUIT = np.array([False, True, True, True, True, False])
_LED_COLUMN = np.array([0, 0, 1, 2, 3, 0])
_VOID_BITS = np.array(
    [[(v >> s) & 1 for s in range(NUM_SUITS)] for v in range(16)], dtype=np.float32
)


def _scale_specials(buf: np.ndarray, a: int) -> None:
    """Counts written at column ``a`` times COUNT_SCALE: 1 for suited cards, so only the
    Wizard and Null columns change (exact in float32; one column at a time is several times
    cheaper than a multiply over the block or a strided pair of columns)."""
    for kind in (WIZARD, NULL):
        buf[:, a + kind] *= COUNT_SCALE[kind]


class WizardBatched(BatchedEngine):
    game_cls = WizardGame
    # A variant's smaller deck (W14) plays on scalar lanes: the deal and the heuristic's twin are
    # written for the 60 cards.
    UNSUPPORTED: ClassVar[dict[str, str]] = {
        key: "a variant's smaller deck (W14) plays on the scalar engine"
        for key in ("suits", "ranks", "wizards", "nulls")
    }

    def __init__(self, game: WizardGame, num_envs: int, rng: np.random.Generator):
        super().__init__(game, num_envs, rng)
        B, n, K = self.B, self.n, game.rounds
        self.K = K
        i64 = np.int64
        self.phase = np.zeros(B, dtype=i64)
        self.rnd = np.ones(B, dtype=i64)
        self.dealer = np.zeros(B, dtype=i64)
        self.flipped = np.full(B, -1, dtype=i64)
        self.trump = np.full(B, NO_TRUMP, dtype=i64)
        self.led = np.full(B, LED_NONE, dtype=i64)
        self.leader = np.zeros(B, dtype=i64)
        self.tlen = np.zeros(B, dtype=i64)
        self.tdone = np.zeros(B, dtype=i64)
        self.hands = np.zeros((B, n, NUM_KINDS), dtype=np.int8)
        self.suits = np.zeros((B, n, NUM_SUITS), dtype=np.int8)  # suited cards held, per suit
        self.played = np.zeros((B, NUM_KINDS), dtype=np.int8)
        self.hs = np.zeros((B, n), dtype=i64)
        self.bids = np.full((B, n), -1, dtype=i64)
        self.won = np.zeros((B, n), dtype=i64)
        self.voids = np.zeros((B, n), dtype=i64)
        self.tcard = np.full((B, n), -1, dtype=i64)
        self.points = np.zeros((B, n), dtype=i64)
        # constants of the configuration
        enc = game.encoder
        self._o = dict(enc.off)
        self._inv_k_tab = float32_table([x * enc.inv_k for x in range(K + 1)])
        self._score_lo, self._score_span = enc.score_lo, enc.score_span
        self._bid_rows = np.array([m for m in game.bid_masks])
        self._pos = np.arange(DECK_SIZE)
        # observation index of a one-hot value v (-1: absent, aimed at entry 0), by v + 1
        self._flipped_at = np.concatenate([[0], enc.off["flipped"] + _KINDS])
        self._trump_at = np.concatenate([[0], enc.off["trump"] + np.arange(NUM_SUITS + 1)])
        self._led_at = np.concatenate([[0], enc.off["led_suit"] + np.arange(NUM_SUITS + 1)])
        # _deal_cell[d, i]: where the i-th card dealt by dealer d lands in a lane's (n, NUM_KINDS)
        # hands, less the card's kind: its seat's row start
        self._deal_cell = (np.arange(n)[:, None] + 1 + self._pos) % n * NUM_KINDS
        self._seats = np.arange(n)

    # ---- chance ----------------------------------------------------------------------------------
    def draw_random(self, kind, lanes):
        k = len(lanes)
        if kind == "start":
            fd = self.game.options["first_dealer"]
            first = (
                self.rng.integers(self.n, size=k) if fd is None else np.full(k, fd, dtype=np.int64)
            )
            rec = self._random_deal(np.ones(k, dtype=np.int64), first)
            rec["first_dealer"] = first
            return rec
        return self._random_deal(self.rnd[lanes], self.dealer[lanes])

    def _random_deal(self, rnd: np.ndarray, dealer: np.ndarray) -> dict:
        """Shuffle one deck a lane and deal ``rnd`` cards each, one at a time from the dealer's
        left."""
        k, n = len(rnd), self.n
        # (shuffling the kinds moves them exactly as shuffling positions would)
        deck = self.rng.permuted(np.broadcast_to(DECK_KINDS, (k, DECK_SIZE)), axis=1)
        dealt = n * rnd
        m = int(dealt.max())  # only the cards dealt matter (every column, in the last rounds)
        flat = (
            self._deal_cell.take(dealer, axis=0)[:, :m]
            + deck[:, :m]
            + (np.arange(k) * (n * NUM_KINDS))[:, None]
        )[self._pos[:m] < dealt[:, None]]
        hands = np.bincount(flat, minlength=k * n * NUM_KINDS).astype(np.int8)
        hands = hands.reshape(k, n, NUM_KINDS)
        top = np.minimum(dealt, DECK_SIZE - 1)
        flipped = np.where(dealt < DECK_SIZE, deck[np.arange(k), top], -1)
        return {"hands": hands, "flipped": flipped}

    def record_from_states(self, kind, states):
        rec = {
            "hands": np.array([s.hands for s in states], dtype=np.int8).reshape(
                -1, self.n, NUM_KINDS
            ),
            "flipped": np.array([s.flipped for s in states], dtype=np.int64),
        }
        if kind == "start":
            rec["first_dealer"] = np.array([s.first_dealer for s in states], dtype=np.int64)
        return rec

    # ---- games and rounds ------------------------------------------------------------------------
    def start(self, lanes):
        rec = self.draw("start", lanes)
        self.points[lanes] = 0
        self.rnd[lanes] = 1
        self.dealer[lanes] = rec["first_dealer"]
        self._begin_round(lanes, rec)

    def _begin_round(self, lanes, rec) -> None:
        """Set up the round ``rnd``/``dealer`` already hold for ``lanes``, from a deal record."""
        n = self.n
        rnd, dealer = self.rnd[lanes], self.dealer[lanes]
        hands = rec["hands"]
        self.hands[lanes] = hands
        rows = hands.reshape(-1, NUM_KINDS)[:, :NUM_SUITED].astype(np.float32)
        self.suits[lanes] = (rows @ _SUIT_OF).astype(np.int8).reshape(len(lanes), n, NUM_SUITS)
        self.hs[lanes] = rnd[:, None]
        flipped = rec["flipped"]
        self.flipped[lanes] = flipped
        trump = _TRUMP_BY_FLIP[flipped + 1]
        self.trump[lanes] = trump
        self.bids[lanes] = -1
        self.won[lanes] = 0
        self.tcard[lanes] = -1
        self.tlen[lanes] = 0
        self.tdone[lanes] = 0
        left = (dealer + 1) % n
        self.leader[lanes] = left
        self.led[lanes] = LED_NONE
        self.played[lanes] = 0
        self.voids[lanes] = 0
        pending = trump == TRUMP_PENDING
        self.phase[lanes] = np.where(pending, PHASE_TRUMP, PHASE_BID)
        self.cur[lanes] = np.where(pending, dealer, left)

    # ---- the mask --------------------------------------------------------------------------------
    def legal_mask(self):
        B, n = self.B, self.n
        mask = np.zeros((B, self.num_actions), dtype=bool)
        phase = self.phase
        # (arrays are indexed with ``take`` on flat rows: numpy's fancy indexing with several
        # index arrays is several times slower)
        rows = self.all * n + self.cur
        held = self.hands.reshape(B * n, NUM_KINDS).take(rows, axis=0) > 0
        led = self.led + 1
        column = rows * NUM_SUITS + _LED_COLUMN.take(led)
        must = _LED_IS_SUIT.take(led) & (self.suits.reshape(-1).take(column) > 0)
        allowed = held & _FOLLOW.take(np.where(must, self.led, NUM_SUITS), axis=0)
        mask[:, :NUM_KINDS] = allowed
        if (phase != PHASE_PLAY).any():
            mask[phase != PHASE_PLAY, :NUM_KINDS] = False
            bid = np.flatnonzero(phase == PHASE_BID)
            if len(bid):
                mask[bid] = self._bid_rows.take(self.rnd[bid], axis=0)
                last = bid[self.cur[bid] == self.dealer[bid]]
                if len(last):
                    b = self.bids[last]
                    f = self.rnd[last] - np.where(b > 0, b, 0).sum(axis=1)
                    ok = (f >= 0) & (f <= self.rnd[last])
                    mask[last[ok], BID_BASE + f[ok]] = False
            trump = np.flatnonzero(phase == PHASE_TRUMP)
            mask[trump, TRUMP_BASE : TRUMP_BASE + NUM_SUITS] = True
        return mask

    # ---- moves -----------------------------------------------------------------------------------
    def apply(self, lanes, actions):
        phase = self.phase[lanes]
        play = phase == PHASE_PLAY
        if play.all():
            self._play(lanes, actions)
            return
        bid, trump = phase == PHASE_BID, phase == PHASE_TRUMP
        self._play(lanes[play], actions[play])
        self._bid(lanes[bid], actions[bid] - BID_BASE)
        self._choose_trump(lanes[trump], actions[trump] - TRUMP_BASE)

    def _choose_trump(self, lanes, suit) -> None:
        self.trump[lanes] = suit
        self.phase[lanes] = PHASE_BID
        self.cur[lanes] = (self.dealer[lanes] + 1) % self.n

    def _bid(self, lanes, bid) -> None:
        c = self.cur[lanes]
        self.bids[lanes, c] = bid
        last = c == self.dealer[lanes]  # the dealer bids last
        done = lanes[last]
        self.phase[done] = PHASE_PLAY
        self.cur[done] = self.leader[done]
        self.cur[lanes[~last]] = (c[~last] + 1) % self.n

    def _play(self, lanes, card) -> None:
        if not len(lanes):
            return
        n = self.n
        c = self.cur[lanes]
        # every lane once: plain assignments through flat indices (no ``np.add.at`` needed)
        row = lanes * n + c
        self.hands.reshape(-1)[row * NUM_KINDS + card] -= 1
        suited = card < NUM_SUITED
        self.suits.reshape(-1)[(row * NUM_SUITS + card // RANKS)[suited]] -= 1
        self.played.reshape(-1)[lanes * NUM_KINDS + card] += 1
        self.hs.reshape(-1)[row] -= 1
        self.tcard.reshape(-1)[row] = card
        tlen = self.tlen[lanes] + 1
        self.tlen[lanes] = tlen
        old = self.led[lanes]
        seen = (old + 1) * NUM_KINDS + card  # (led suit before, card): two lookup tables
        led = _LED_AFTER.take(seen)
        self.led[lanes] = led
        void = _VOID_SHOWN.take(seen)
        if void.any():
            self.voids.reshape(-1)[row] |= void
        full = tlen == n
        if full.all():
            self._end_trick(lanes, led)
            return
        going = ~full
        self.cur[lanes[going]] = (c[going] + 1) % n
        if full.any():
            self._end_trick(lanes[full], led[full])

    def _end_trick(self, lanes, led) -> None:
        """Trick winner (W9): the first Wizard, else the highest trump, else the highest card of
        the led suit; a trick of Nulls only goes to its first card."""
        n = self.n
        leader = self.leader[lanes]
        cards = self.tcard[lanes]  # by absolute seat; every seat has played
        # one key a card, the highest wins: the first Wizard (200 + n - its place in the trick),
        # else a trump (100 + rank), else the led suit (rank; suited cards are unique, so these
        # keys never tie), else the first card played (-1 - its place: a trick of Nulls)
        place = seat_positions(leader, n)
        suited = cards < NUM_SUITED
        suit = cards // RANKS
        rank = cards % RANKS
        key = np.where(
            suited & (suit == self.trump[lanes][:, None]),
            100 + rank,
            np.where(suited & (suit == led[:, None]), rank, -1 - place),
        )
        key = np.where(cards == WIZARD, 200 + n - place, key)
        winner = key.argmax(axis=1)
        self.won.reshape(-1)[lanes * n + winner] += 1
        tdone = self.tdone[lanes] + 1
        self.tdone[lanes] = tdone
        self.tcard[lanes] = -1
        self.tlen[lanes] = 0
        self.leader[lanes] = winner
        self.led[lanes] = LED_NONE
        self.cur[lanes] = winner
        over = tdone == self.rnd[lanes]
        if over.any():
            self._score_round(lanes[over])

    def _score_round(self, lanes) -> None:
        b, t = self.bids[lanes], self.won[lanes]
        self.points[lanes] += np.where(b == t, 20 + 10 * t, -10 * np.abs(t - b))  # W10
        last = self.rnd[lanes] >= self.K
        end = lanes[last]
        self.phase[end] = PHASE_OVER
        self.cur[end] = -1
        more = lanes[~last]
        if len(more):
            self.rnd[more] += 1
            self.dealer[more] = (self.dealer[more] + 1) % self.n
            self._begin_round(more, self.draw("deal", more))

    # ---- results ---------------------------------------------------------------------------------
    def scores(self, lanes=None):
        return self.points.copy() if lanes is None else self.points[lanes]

    def winners(self, lanes):
        p = self.points[lanes]
        return p == p.max(axis=1, keepdims=True)

    # ---- the observation -------------------------------------------------------------------------
    def observe(self, seats, lanes=None):
        n, K, o = self.n, self.K, self._o
        g = self.game
        # ``pick`` indexes the per-lane arrays: a view of all of them, or a gather of some
        pick = Ellipsis if lanes is None else lanes
        if lanes is None:
            lanes = self.all
        k = len(seats)
        D = self.obs_dim
        cur, phase, rnd = self.cur[pick], self.phase[pick], self.rnd[pick]
        order = relative_seats(seats, n)  # absolute seat at each relative position
        flat = flat_order(order)
        rel = seat_positions(seats, n)  # relative position of each absolute seat
        # Foresight's first round: the others' hands are shown, and one's own is hidden until the
        # play begins
        first = ()
        if g.foresight:
            in_first = rnd == 1
            if in_first.any():  # (cheaper than ``flatnonzero`` on the lanes' usual answer)
                first = np.flatnonzero(in_first)
        hidden = first[phase[first] < PHASE_PLAY] if len(first) else ()
        # one-hot entries, one column each (0 = the first hand entry, overwritten below)
        hot = np.empty((k, 8 + 2 * n), dtype=np.int64)
        hot[:, 0] = self._flipped_at.take(self.flipped[pick] + 1)
        hot[:, 1] = self._trump_at.take(self.trump[pick] + 1)
        hot[:, 2] = self._led_at.take(self.led[pick] + 1)
        hot[:, 3] = np.where(
            self.tlen[pick] > 0, o["trick_leader"] + (self.leader[pick] - seats) % n, 0
        )
        hot[:, 4] = o["round"] - 1 + rnd
        hot[:, 5] = o["dealer"] + (self.dealer[pick] - seats) % n
        live = cur >= 0
        hot[:, 6] = np.where(live, o["current_player"] + (cur - seats) % n, 0)
        hot[:, 7] = np.where(live & (phase < PHASE_OVER), o["phase"] + phase, 0)
        tcard = self.tcard[pick]
        hot[:, 8 : 8 + n] = np.where(tcard >= 0, o["trick"] + rel * NUM_KINDS + tcard, 0)
        bids = self.bids[pick]
        hot[:, 8 + n :] = np.where(
            bids >= 0, o["bids"] + rel * (K + 1) + bids, o["bid_pending"] + rel
        )
        hot += row_starts(k, D)
        buf = np.zeros((k, D), dtype=np.float32)
        cells = buf.reshape(-1)
        cells[hot.ravel()] = 1.0
        if len(hidden):
            cells[hidden * D + o["hand_hidden"]] = 1.0
        # dense pieces
        hand = self.hands.reshape(-1, NUM_KINDS).take(lanes * n + seats, axis=0)
        if len(hidden):
            hand[hidden] = 0
        a = o["hand"]
        buf[:, a : a + NUM_KINDS] = hand
        _scale_specials(buf, a)
        if len(first):
            a = o["foresight"]
            for r in range(1, n):
                others = self.hands[lanes[first], order[first, r]]
                buf[first, a : a + NUM_KINDS] = others * COUNT_SCALE
                a += NUM_KINDS
        tab = self._inv_k_tab
        a = o["hand_sizes"]
        buf[:, a : a + n] = tab.take(rotate(self.hs[pick], flat))
        a = o["tricks_won"]
        buf[:, a : a + n] = tab.take(rotate(self.won[pick], flat))
        a = o["voids"]
        buf[:, a : a + 4 * n] = _VOID_BITS.take(rotate(self.voids[pick], flat), axis=0).reshape(
            k, 4 * n
        )
        a = o["played"]
        buf[:, a : a + NUM_KINDS] = self.played[pick]
        _scale_specials(buf, a)
        a = o["scores"]
        pts = rotate(self.points[pick], flat)
        buf[:, a : a + n] = (pts - self._score_lo) / self._score_span
        return buf

    # ---- scalar states in ------------------------------------------------------------------------
    def load(self, lanes, states):
        n = self.n
        for lane, s in zip(lanes.tolist(), states):
            self.phase[lane], self.rnd[lane], self.dealer[lane] = s.phase, s.round, s.dealer
            self.cur[lane] = -1 if s.current_player is None else s.current_player
            self.flipped[lane], self.trump[lane], self.led[lane] = s.flipped, s.trump, s.led
            self.leader[lane], self.tlen[lane], self.tdone[lane] = (
                s.trick_leader,
                len(s.trick),
                len(s.tricks),
            )
            self.hands[lane] = s.hands
            self.suits[lane] = s.suit_counts
            self.played[lane] = s.played
            self.hs[lane], self.bids[lane], self.won[lane] = s.hand_sizes, s.bids, s.tricks_won
            self.voids[lane], self.points[lane] = s.voids, s.points
            self.tcard[lane] = -1
            for i, card in enumerate(s.trick):
                self.tcard[lane, (s.trick_leader + i) % n] = card
