"""Wizard, batched: B games as struct-of-arrays numpy state, bit-exact with ``rules.py``.

Same options, action ids and observation as ``WizardGame`` (``rules.py`` is the specification;
``tests/vector/test_differential.py`` replays random games in both and compares every step). The
state kept per lane is declared once in ``FIELDS``; the rules over arrays (follow suit, trick
winner, the dealer's bid, scoring) are ``kernels.py``'s, shared with the heuristic's twin.

The observation is built in one pass per step: scatter every one-hot entry with a single flat
assignment (from each piece's offset; an entry a lane does not have, such as no flipped card, is
aimed at the first hand entry, which the hand then overwrites), then write the dense pieces by
name (per-seat values rotated to the observer's order through tables of the scalar encoder's
float results).

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
from ..core.batched_state import Field, StateFields, length, none_as, per_seat, seat_rows
from . import kernels as K
from .actions import BID_BASE, PHASE_BID, PHASE_OVER, PHASE_PLAY, PHASE_TRUMP, TRUMP_BASE
from .cards import (
    COUNT_SCALE,
    DECK_KINDS,
    DECK_SIZE,
    LED_NONE,
    NO_TRUMP,
    NULL,
    NUM_KINDS,
    NUM_SUITED,
    NUM_SUITS,
    RANKS,
    TRUMP_PENDING,
    WIZARD,
)
from .rules import WizardGame

_VOID_BITS = np.array([[(v >> s) & 1 for s in range(NUM_SUITS)] for v in range(16)], np.float32)


def _trick_by_seat(s, n: int) -> np.ndarray:
    """The current trick's card of each seat (-1: none yet)."""
    row = np.full(n, -1)
    row[(s.trick_leader + np.arange(len(s.trick))) % n] = s.trick
    return row


FIELDS = StateFields(  # reset values; "fixed": set by the engine at each deal
    Field("cur", np.int64, (), 0, "fixed", load=none_as(-1, "current_player")),
    Field("phase", np.int64, (), 0, "fixed"),
    Field("rnd", np.int64, (), 1, load="round"),
    Field("dealer", np.int64, (), 0, "fixed"),
    Field("flipped", np.int64, (), -1, "fixed"),
    Field("trump", np.int64, (), NO_TRUMP, "fixed"),
    Field("led", np.int64, (), LED_NONE, "round"),
    Field("leader", np.int64, (), 0, "fixed", load="trick_leader"),
    Field("tlen", np.int64, (), 0, "round", load=length("trick")),
    Field("tdone", np.int64, (), 0, "round", load=length("tricks")),
    Field("hands", np.int8, ("n", NUM_KINDS), 0, "fixed"),
    Field("suits", np.int8, ("n", NUM_SUITS), 0, "fixed", load="suit_counts"),  # per suit
    Field("played", np.int8, (NUM_KINDS,), 0, "round"),
    Field("hs", np.int64, ("n",), 0, "fixed", load="hand_sizes"),
    Field("bids", np.int64, ("n",), -1, "round"),
    Field("won", np.int64, ("n",), 0, "round", load="tricks_won"),
    Field("voids", np.int64, ("n",), 0, "round"),
    Field("tcard", np.int64, ("n",), -1, "round", load=_trick_by_seat),
    Field("points", np.int64, ("n",), 0),
)


def _scale_specials(piece: np.ndarray) -> None:
    """Counts times COUNT_SCALE: 1 for suited cards, so only the Wizard and Null columns change
    (exact in float32; one column at a time is several times cheaper than a multiply over the
    block or a strided pair of columns)."""
    for kind in (WIZARD, NULL):
        piece[:, kind] *= COUNT_SCALE[kind]


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
        FIELDS.allocate(self)
        n, self.K = self.n, game.rounds
        enc = game.encoder
        self._inv_k_tab = float32_table([x * enc.inv_k for x in range(self.K + 1)])
        self._score_lo, self._score_span = enc.score_lo, enc.score_span
        self._bid_rows = np.array(game.bid_masks)
        # flat observation index of a one-hot value v by v + 1 (-1: absent, aimed at entry 0)
        at = game.layout.offset
        self._flipped_at = np.concatenate([[0], at("flipped") + K.KINDS])
        self._trump_at = np.concatenate([[0], at("trump") + np.arange(NUM_SUITS + 1)])
        self._led_at = np.concatenate([[0], at("led_suit") + np.arange(NUM_SUITS + 1)])
        # _deal_cell[d, i]: where the i-th card dealt by dealer d lands in a lane's (n, NUM_KINDS)
        # hands, less the card's kind: its seat's row start
        self._pos = np.arange(DECK_SIZE)
        self._deal_cell = (np.arange(n)[:, None] + 1 + self._pos) % n * NUM_KINDS

    # ---- chance ----------------------------------------------------------------------------------
    def draw_random(self, kind, lanes):
        if kind != "start":
            return self._random_deal(self.rnd[lanes], self.dealer[lanes])
        k, fd = len(lanes), self.game.options["first_dealer"]
        first = self.rng.integers(self.n, size=k) if fd is None else np.full(k, fd, np.int64)
        return {**self._random_deal(np.ones(k, np.int64), first), "first_dealer": first}

    def _random_deal(self, rnd: np.ndarray, dealer: np.ndarray) -> dict:
        """Shuffle one deck a lane and deal ``rnd`` cards each, one at a time from the dealer's
        left."""
        k, n = len(rnd), self.n
        # (shuffling the kinds moves them exactly as shuffling positions would)
        deck = self.rng.permuted(np.broadcast_to(DECK_KINDS, (k, DECK_SIZE)), axis=1)
        dealt = n * rnd
        m = int(dealt.max())  # only the cards dealt matter (every column, in the last rounds)
        cell = (
            self._deal_cell.take(dealer, axis=0)[:, :m] + deck[:, :m] + row_starts(k, n * NUM_KINDS)
        )
        hands = np.bincount(cell[self._pos[:m] < dealt[:, None]], minlength=k * n * NUM_KINDS)
        top = np.minimum(dealt, DECK_SIZE - 1)
        flipped = np.where(dealt < DECK_SIZE, deck[np.arange(k), top], -1)
        return {"hands": hands.astype(np.int8).reshape(k, n, NUM_KINDS), "flipped": flipped}

    def record_from_states(self, kind, states):
        rec = {
            "hands": np.array([s.hands for s in states], np.int8).reshape(-1, self.n, NUM_KINDS),
            "flipped": np.array([s.flipped for s in states], dtype=np.int64),
        }
        if kind == "start":
            rec["first_dealer"] = np.array([s.first_dealer for s in states], dtype=np.int64)
        return rec

    # ---- games and rounds ------------------------------------------------------------------------
    def start(self, lanes):
        rec = self.draw("start", lanes)
        FIELDS.reset(self, lanes)
        self.dealer[lanes] = rec["first_dealer"]
        self._begin_round(lanes, rec)

    def _begin_round(self, lanes, rec) -> None:
        """Deal the round ``rnd``/``dealer`` hold for ``lanes`` (its "round" fields already reset)
        from a deal record."""
        dealer = self.dealer[lanes]
        self.hands[lanes] = rec["hands"]
        self.suits[lanes] = K.suit_counts(rec["hands"])
        self.hs[lanes] = self.rnd[lanes][:, None]
        self.flipped[lanes] = rec["flipped"]
        trump = self.trump[lanes] = K.trump_after_flip(rec["flipped"])
        left = self.leader[lanes] = (dealer + 1) % self.n
        pending = trump == TRUMP_PENDING
        self.phase[lanes] = np.where(pending, PHASE_TRUMP, PHASE_BID)
        self.cur[lanes] = np.where(pending, dealer, left)

    # ---- the mask --------------------------------------------------------------------------------
    def legal_mask(self):
        mask = np.zeros((self.B, self.num_actions), dtype=bool)
        phase, led = self.phase, self.led
        rows = seat_rows(self.all, self.cur, self.n)
        held = per_seat(self.hands).take(rows, axis=0) > 0
        led_held = self.suits.reshape(-1).take(rows * NUM_SUITS + K.led_column(led)) > 0
        mask[:, :NUM_KINDS] = K.playable(held, led, led_held)
        if (phase != PHASE_PLAY).any():
            mask[phase != PHASE_PLAY, :NUM_KINDS] = False
            bid = np.flatnonzero(phase == PHASE_BID)
            mask[bid] = self._bid_rows.take(self.rnd[bid], axis=0)
            last = bid[self.cur[bid] == self.dealer[bid]]  # the dealer, who may not make the
            if len(last):  # bids total the round's cards (W6)
                f = K.forbidden_bid(self.rnd[last], self.bids[last])
                ok = f >= 0
                mask[last[ok], BID_BASE + f[ok]] = False
            mask[phase == PHASE_TRUMP, TRUMP_BASE : TRUMP_BASE + NUM_SUITS] = True
        return mask

    # ---- moves -----------------------------------------------------------------------------------
    def apply(self, lanes, actions):
        phase = self.phase[lanes]
        play = phase == PHASE_PLAY
        if play.all():
            return self._play(lanes, actions)
        bid, trump = phase == PHASE_BID, phase == PHASE_TRUMP
        self._play(lanes[play], actions[play])
        self._bid(lanes[bid], actions[bid] - BID_BASE)
        lanes = lanes[trump]  # the dealer names trump
        self.trump[lanes] = actions[trump] - TRUMP_BASE
        self.phase[lanes] = PHASE_BID
        self.cur[lanes] = (self.dealer[lanes] + 1) % self.n

    def _bid(self, lanes, bid) -> None:
        c = self.cur[lanes]
        per_seat(self.bids)[seat_rows(lanes, c, self.n)] = bid
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
        # every (lane, seat) once: plain assignments through flat rows (no ``np.add.at`` needed)
        rows = seat_rows(lanes, c, n)
        self.hands.reshape(-1)[rows * NUM_KINDS + card] -= 1
        suited = card < NUM_SUITED
        self.suits.reshape(-1)[(rows * NUM_SUITS + card // RANKS)[suited]] -= 1
        self.played.reshape(-1)[lanes * NUM_KINDS + card] += 1
        per_seat(self.hs)[rows] -= 1
        per_seat(self.tcard)[rows] = card
        tlen = self.tlen[lanes] = self.tlen[lanes] + 1
        led, void = K.after_card(self.led[lanes], card)
        self.led[lanes] = led
        if void.any():
            per_seat(self.voids)[rows] |= void
        full = tlen == n
        if full.all():
            return self._end_trick(lanes, led)
        going = ~full
        self.cur[lanes[going]] = (c[going] + 1) % n
        if full.any():
            self._end_trick(lanes[full], led[full])

    def _end_trick(self, lanes, led) -> None:
        n = self.n
        place = seat_positions(self.leader[lanes], n)  # every seat has played
        keys = K.card_keys(self.tcard[lanes], place, self.trump[lanes][:, None], led[:, None])
        winner = keys.argmax(axis=1)
        per_seat(self.won)[seat_rows(lanes, winner, n)] += 1
        tdone = self.tdone[lanes] = self.tdone[lanes] + 1
        self.tcard[lanes] = -1
        self.tlen[lanes] = 0
        self.leader[lanes] = self.cur[lanes] = winner
        self.led[lanes] = LED_NONE
        over = tdone == self.rnd[lanes]
        if over.any():
            self._score_round(lanes[over])

    def _score_round(self, lanes) -> None:
        self.points[lanes] += K.round_score(self.bids[lanes], self.won[lanes])
        end = self.rnd[lanes] >= self.K
        self.phase[lanes[end]] = PHASE_OVER
        self.cur[lanes[end]] = -1
        more = lanes[~end]
        if len(more):
            self.rnd[more] += 1
            self.dealer[more] = (self.dealer[more] + 1) % self.n
            FIELDS.reset(self, more, "round")
            self._begin_round(more, self.draw("deal", more))

    # ---- results ---------------------------------------------------------------------------------
    def scores(self, lanes=None):
        return self.points.copy() if lanes is None else self.points[lanes]

    def winners(self, lanes):
        p = self.points[lanes]
        return p == p.max(axis=1, keepdims=True)

    # ---- the observation -------------------------------------------------------------------------
    def observe(self, seats, lanes=None):
        n, g = self.n, self.game
        at = g.layout.offset
        # ``pick`` indexes the per-lane arrays: a view of all of them, or a gather of some
        pick = Ellipsis if lanes is None else lanes
        if lanes is None:
            lanes = self.all
        k = len(seats)
        cur, phase, rnd = self.cur[pick], self.phase[pick], self.rnd[pick]
        order = relative_seats(seats, n)  # absolute seat at each relative position
        flat = flat_order(order)
        rel = seat_positions(seats, n)  # relative position of each absolute seat
        # Foresight's first round: the others' hands are shown, and one's own is hidden until the
        # play begins
        first = np.flatnonzero(rnd == 1) if g.foresight else ()
        hidden = first[K.own_hand_hidden(True, rnd[first], phase[first])] if len(first) else ()
        # one-hot entries, one column each (0 = the first hand entry, overwritten below)
        hot = np.empty((k, 8 + 2 * n), dtype=np.int64)
        hot[:, 0] = self._flipped_at.take(self.flipped[pick] + 1)
        hot[:, 1] = self._trump_at.take(self.trump[pick] + 1)
        hot[:, 2] = self._led_at.take(self.led[pick] + 1)
        hot[:, 3] = np.where(
            self.tlen[pick] > 0, at("trick_leader") + (self.leader[pick] - seats) % n, 0
        )
        hot[:, 4] = at("round") - 1 + rnd
        hot[:, 5] = at("dealer") + (self.dealer[pick] - seats) % n
        live = cur >= 0
        hot[:, 6] = np.where(live, at("current_player") + (cur - seats) % n, 0)
        hot[:, 7] = np.where(live & (phase < PHASE_OVER), at("phase") + phase, 0)
        tcard = self.tcard[pick]
        hot[:, 8 : 8 + n] = np.where(tcard >= 0, at("trick") + rel * NUM_KINDS + tcard, 0)
        bids = self.bids[pick]
        hot[:, 8 + n :] = np.where(
            bids >= 0, at("bids") + rel * (self.K + 1) + bids, at("bid_pending") + rel
        )
        buf, v = g.layout.batch(k)
        hot += row_starts(k, self.obs_dim)
        buf.reshape(-1)[hot.ravel()] = 1.0
        # dense pieces
        hand = per_seat(self.hands).take(seat_rows(lanes, seats, n), axis=0)
        if len(hidden):
            hand[hidden] = 0
            v["hand_hidden"][hidden] = 1.0
        v["hand"] = hand
        _scale_specials(v["hand"])
        if len(first):
            for r in range(1, n):
                others = self.hands[lanes[first], order[first, r]]
                v["foresight"][first, r - 1] = others * COUNT_SCALE
        v["hand_sizes"] = self._inv_k_tab.take(rotate(self.hs[pick], flat))
        v["tricks_won"] = self._inv_k_tab.take(rotate(self.won[pick], flat))
        v["voids"] = _VOID_BITS.take(rotate(self.voids[pick], flat), axis=0)
        v["played"] = self.played[pick]
        _scale_specials(v["played"])
        v["scores"] = (rotate(self.points[pick], flat) - self._score_lo) / self._score_span
        return buf

    # ---- scalar states in ------------------------------------------------------------------------
    def load(self, lanes, states):
        for lane, s in zip(lanes.tolist(), states):
            FIELDS.load(self, lane, s)
