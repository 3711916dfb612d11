"""Go Big, batched: B games as struct-of-arrays numpy state, bit-exact with ``rules.py``.

Same options, action ids and observation as ``GoBigGame`` (``rules.py`` is the specification;
``tests/vector/test_gobig.py`` replays random games in both and compares every step). Per lane:

    hands, banks (B, n, 7) int8 counts   box (B, 7)   dval, dsize (B, n) display (0: none)
    known (B, n, 7) int8: cards each seat took from the market and may still hold (X7)
    deck (B, 91) int8 values, bottom first, ``top`` cards left (the scalar deck list; a variant's
    deck is shorter: ``game.total_cards``)
    market (B, 2) int8 values (0: empty slot)   phase, cur (B,)

The observation is written as raw counts and divided by the scalar layout's per-entry
divisors at the end, exactly as ``GoBigState.observe`` does, so every float is the same.

Chance: the whole game's chance is the shuffle and the start seat, a record
``{"deck", "top", "hands", "market", "start"}`` of the position right after the deal, drawn
from the batch generator or copied from scalar states (``record_from_states``).
"""

from __future__ import annotations

import numpy as np

from ..core.batched import BatchedEngine, flat_order, relative_seats, rotate, seat_positions
from .rules import (
    DRAW_DECK,
    MARKET_SIZE,
    NUM_PLAYS,
    PHASE_DRAW,
    PHASE_OVER,
    PHASE_PLAY,
    VALUES,
    GoBigGame,
)

_SET_SIZES = np.arange(1, 4).reshape(1, 3, 1)
_VALUE_OF = np.arange(1, VALUES + 1)


class GoBigBatched(BatchedEngine):
    game_cls = GoBigGame

    def __init__(self, game: GoBigGame, num_envs: int, rng: np.random.Generator):
        super().__init__(game, num_envs, rng)
        B, n = self.B, self.n
        self.phase = np.zeros(B, dtype=np.int64)
        self.hands = np.zeros((B, n, VALUES), dtype=np.int8)
        self.hsize = np.zeros((B, n), dtype=np.int64)  # cards in each hand
        self.banks = np.zeros((B, n, VALUES), dtype=np.int8)
        self.known = np.zeros((B, n, VALUES), dtype=np.int8)
        self.box = np.zeros((B, VALUES), dtype=np.int8)
        self.dval = np.zeros((B, n), dtype=np.int64)
        self.dsize = np.zeros((B, n), dtype=np.int64)
        # the deck of this game (a variant's is smaller: values 1..values, copies of each)
        self.total = game.total_cards
        self._deck = np.repeat(np.arange(1, game.values + 1), game.copies).astype(np.int8)
        self._hand = game.hand_size
        self.deck = np.zeros((B, self.total), dtype=np.int8)
        self.top = np.zeros(B, dtype=np.int64)
        self.market = np.zeros((B, MARKET_SIZE), dtype=np.int8)
        self._literal = game.options["end_rule"] == "literal"
        self._o = dict(game.obs_at)
        self._div = game.obs_div
        self._seats = np.arange(n)

    # ---- chance ----------------------------------------------------------------------------------
    def draw_random(self, kind, lanes):
        k, n, total, size = len(lanes), self.n, self.total, self._hand
        deck = self.rng.permuted(np.broadcast_to(self._deck, (k, total)), axis=1)
        sp = self.game.options["start_player"]
        start = self.rng.integers(n, size=k) if sp is None else np.full(k, sp, dtype=np.int64)
        dealt = n * size
        # the scalar deal pops from the end: seat p takes the p-th block of 6 from the top
        seat = (total - 1 - np.arange(total - dealt, total)) // size
        flat = (np.arange(k)[:, None] * n + seat) * VALUES + deck[:, total - dealt :] - 1
        hands = np.bincount(flat.ravel(), minlength=k * n * VALUES).reshape(k, n, VALUES)
        top = total - dealt
        market = deck[:, [top - 1, top - 2]]
        return {
            "deck": deck,
            "top": np.full(k, top - MARKET_SIZE),
            "hands": hands,
            "market": market,
            "start": start,
        }

    def record_from_states(self, kind, states):
        k = len(states)
        deck = np.zeros((k, self.total), dtype=np.int8)
        market = np.zeros((k, MARKET_SIZE), dtype=np.int8)
        for i, s in enumerate(states):
            deck[i, : len(s.deck)] = s.deck
            market[i, : len(s.market)] = s.market
        return {
            "deck": deck,
            "top": np.array([len(s.deck) for s in states]),
            "market": market,
            "hands": np.array([s.hands for s in states]),
            "start": np.array([s.start_player for s in states]),
        }

    def start(self, lanes):
        rec = self.draw("start", lanes)
        self.deck[lanes] = rec["deck"]
        self.top[lanes] = rec["top"]
        self.hands[lanes] = rec["hands"]
        self.hsize[lanes] = rec["hands"].sum(axis=2)
        self.market[lanes] = rec["market"]
        self.banks[lanes] = 0
        self.known[lanes] = 0
        self.box[lanes] = 0
        self.dval[lanes] = 0
        self.dsize[lanes] = 0
        self.cur[lanes] = rec["start"]
        self.phase[lanes] = PHASE_PLAY

    # ---- the mask --------------------------------------------------------------------------------
    def legal_mask(self):
        B = self.B
        mask = np.zeros((B, self.num_actions), dtype=bool)
        hand = self.hands[self.all, self.cur]
        plays = (hand[:, None, :] >= _SET_SIZES) & (self.phase == PHASE_PLAY)[:, None, None]
        mask[:, :NUM_PLAYS] = plays.reshape(B, NUM_PLAYS)
        mask[self.phase == PHASE_DRAW, NUM_PLAYS:] = True
        return mask

    # ---- moves -----------------------------------------------------------------------------------
    def apply(self, lanes, actions):
        play = self.phase[lanes] == PHASE_PLAY
        if play.all():
            self._play(lanes, actions)
            return
        self._play(lanes[play], actions[play])
        lanes, actions = lanes[~play], actions[~play]
        deck = actions == DRAW_DECK
        self._draw_deck(lanes[deck])
        self._take_market(lanes[~deck])
        self._end_turn(lanes)

    def _play(self, lanes, action) -> None:
        if not len(lanes):
            return
        c = self.cur[lanes]
        size, v = np.divmod(action, VALUES)
        size += 1
        v += 1
        self.hands[lanes, c, v - 1] -= size
        self.hsize[lanes, c] -= size
        known = self.known[lanes, c, v - 1]  # X7: drops by the copies played, never below zero
        self.known[lanes, c, v - 1] = np.maximum(known - size, 0)
        dval, dsize = self.dval[lanes], self.dsize[lanes]
        # ruling G6: other displays of this size at a higher value; the nearest value is beaten
        higher = (self._seats != c[:, None]) & (dsize == size[:, None]) & (dval > v[:, None])
        nearest = np.where(higher, dval, VALUES + 1).min(axis=1)
        beaten = higher & (dval == nearest[:, None])
        count = beaten.sum(axis=1)
        hit = count > 0
        self.box[lanes[hit], nearest[hit] - 1] += count[hit] * size[hit]
        dval[beaten] = 0
        dsize[beaten] = 0
        rows = np.arange(len(lanes))
        dval[rows, c] = v
        dsize[rows, c] = size
        self.dval[lanes] = dval
        self.dsize[lanes] = dsize
        if self._literal:
            out = self.hsize[lanes, c] == 0
            self._end(lanes[out])
            lanes = lanes[~out]
        has_deck, has_market = self.top[lanes] > 0, self.market[lanes, 0] > 0
        both = has_deck & has_market
        self.phase[lanes[both]] = PHASE_DRAW
        self._draw_deck(lanes[has_deck & ~has_market])
        self._take_market(lanes[has_market & ~has_deck])
        self._end_turn(lanes[~both])

    def _draw_deck(self, lanes) -> None:
        c = self.cur[lanes]
        for _ in range(2):
            has = self.top[lanes] > 0
            got, seat = lanes[has], c[has]
            top = self.top[got] - 1
            self.hands[got, seat, self.deck[got, top] - 1] += 1
            self.hsize[got, seat] += 1
            self.top[got] = top

    def _take_market(self, lanes) -> None:
        c = self.cur[lanes]
        for j in range(MARKET_SIZE):
            m = self.market[lanes, j]
            has = m > 0
            self.hands[lanes[has], c[has], m[has] - 1] += 1
            self.known[lanes[has], c[has], m[has] - 1] += 1
            self.hsize[lanes[has], c[has]] += 1
        for j in range(MARKET_SIZE):  # refilled at once from the deck
            has = self.top[lanes] > 0
            got = lanes[has]
            top = self.top[got] - 1
            self.market[got, j] = self.deck[got, top]
            self.top[got] = top
            self.market[lanes[~has], j] = 0

    def _end_turn(self, lanes) -> None:
        c = self.cur[lanes]
        out = self.hsize[lanes, c] == 0  # after the draw step (ruling G10)
        self._end(lanes[out])
        lanes, nxt = lanes[~out], (c[~out] + 1) % self.n
        self._bank(lanes, nxt)
        self.cur[lanes] = nxt
        self.phase[lanes] = PHASE_PLAY

    def _bank(self, lanes, seats) -> None:
        d = self.dval[lanes, seats]
        has = d > 0
        lanes, seats, d = lanes[has], seats[has], d[has]
        self.banks[lanes, seats, d - 1] += self.dsize[lanes, seats]
        self.dval[lanes, seats] = 0
        self.dsize[lanes, seats] = 0

    def _end(self, lanes) -> None:
        """Hands discarded, every display banked (ruling G11)."""
        if not len(lanes):
            return
        for q in range(self.n):
            self._bank(lanes, np.full(len(lanes), q))
        self.cur[lanes] = -1
        self.phase[lanes] = PHASE_OVER

    # ---- results ---------------------------------------------------------------------------------
    def scores(self, lanes=None):
        banks = self.banks if lanes is None else self.banks[lanes]
        return banks.astype(np.int64) @ _VALUE_OF

    def winners(self, lanes):
        """Highest score; ties broken by most banked cards; still tied share (G12)."""
        s = self.scores(lanes)
        cards = self.banks[lanes].sum(axis=2, dtype=np.int64)
        tied = s == s.max(axis=1, keepdims=True)
        cards = np.where(tied, cards, -1)
        return cards == cards.max(axis=1, keepdims=True)

    # ---- the observation -------------------------------------------------------------------------
    def observe(self, seats, lanes=None):
        n, o, D = self.n, self._o, self.obs_dim
        pick = Ellipsis if lanes is None else lanes
        if lanes is None:
            lanes = self.all
        k = len(seats)
        flat = flat_order(relative_seats(seats, n))
        rel = seat_positions(seats, n)
        cur, phase = self.cur[pick], self.phase[pick]
        dval, dsize = self.dval[pick], self.dsize[pick]
        shown = dval > 0
        hot = np.zeros(
            (k, 2 * n + 3), dtype=np.int64
        )  # 0 = the first hand entry, overwritten below
        hot[:, :n] = np.where(shown, o["display_value"] + rel * VALUES + dval - 1, 0)
        hot[:, n : 2 * n] = np.where(shown, o["display_size"] + rel * 3 + dsize - 1, 0)
        live = cur >= 0
        hot[:, 2 * n] = np.where(live, o["current_player"] + (cur - seats) % n, 0)
        hot[:, 2 * n + 1] = np.where(live, o["phase"] + phase, 0)
        market = self.market[pick].astype(np.int64)
        hot[:, 2 * n + 2] = np.where(market[:, 0] > 0, o["market"] + market[:, 0] - 1, 0)
        base = (np.arange(k) * D)[:, None]
        hot += base
        buf = np.zeros((k, D), dtype=np.float32)
        cells = buf.reshape(-1)
        cells[hot.ravel()] = 1.0
        cells[base[:, 0] + np.where(market[:, 1] > 0, o["market"] + market[:, 1] - 1, 0)] += 1.0
        a = o["hand"]
        buf[:, a : a + VALUES] = self.hands[lanes, seats]
        a = o["hand_sizes"]
        buf[:, a : a + n] = rotate(self.hsize[pick], flat)
        a = o["banks"]
        buf[:, a : a + n * VALUES] = rotate(self.banks[pick], flat).reshape(k, n * VALUES)
        a = o["known"]
        buf[:, a : a + n * VALUES] = rotate(self.known[pick], flat).reshape(k, n * VALUES)
        a = o["box"]
        buf[:, a : a + VALUES] = self.box[pick]
        buf[:, o["deck_size"]] = self.top[pick]
        buf /= self._div
        return buf

    # ---- scalar states in ------------------------------------------------------------------------
    def load(self, lanes, states):
        rec = self.record_from_states("start", states)
        for key, arr in (
            ("deck", self.deck),
            ("top", self.top),
            ("hands", self.hands),
            ("market", self.market),
        ):
            arr[lanes] = rec[key]
        for lane, s in zip(lanes.tolist(), states):
            self.banks[lane], self.box[lane] = s.banks, s.box
            self.known[lane] = s.known
            self.hsize[lane] = s.hands.sum(axis=1)
            self.phase[lane] = s.phase
            self.cur[lane] = -1 if s.current_player is None else s.current_player
            self.dval[lane] = [0 if d is None else d[0] for d in s.displays]
            self.dsize[lane] = [0 if d is None else d[1] for d in s.displays]
