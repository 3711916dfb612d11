"""Big Number, batched: B games as struct-of-arrays numpy state, bit-exact with ``rules.py``.

Same options, action ids and observation as ``BigNumberGame`` (``rules.py`` is the
specification; ``tests/vector/test_bignumber.py`` replays random games in both and compares
every step). Per lane: hands, known (B, n, 36) int8 counts; out, middle, pending (B, 36);
the middle's size, value and owner, passes, phase, cur, deal, deal start, scores.

Legal masks without listing plays one lane at a time:

* one deck (one action a set): the sets a hand contains are read from tables indexed by the
  hand's 9-bit pattern in each suit and 4-bit pattern in each rank (every same-suit or
  same-rank set of 2+ cards inside that pattern), gathered for all lanes at once as one
  ragged array and filtered by size and value (N6); singles and the whole-hand lead (N12) are
  direct;
* two decks (a play chosen card by card, biggest first): card x may be added when some legal
  play starts with the selection followed by x. For each candidate x that is decided from
  counts: how many cards of x's suit (or rank) that may still follow x remain, and, for a play
  of the middle's size, whether the best such completion (the greedy highest ranks) beats the
  middle's value.

Chance: a deal is ``{"hands": (k, n, 36) int8}`` (plus ``"start"``, deal 1's start seat, for a
new game), drawn from the batch generator or copied from scalar states.
"""

from __future__ import annotations

from functools import lru_cache
from typing import ClassVar

import numpy as np

from ..core.batched import BatchedEngine, flat_order, float32_table, relative_seats, rotate
from .cards import HAND_SIZE, NUM_TYPES, RANKS, SETS, SUITS, play_value
from .rules import (
    ADD_BASE,
    ANSWER,
    FINISH,
    LEAD,
    OVER,
    PASS,
    PICK,
    PICK_BASE,
    PLAY_BASE,
    BigNumberGame,
)

_TYPES = np.arange(NUM_TYPES)
_RANK = _TYPES // SUITS + 1  # 1-9
_SUIT = _TYPES % SUITS
_POW10 = 10 ** np.arange(RANKS + 2, dtype=np.int64)
# hand (k, 36) @ _PATTERN_BITS -> per suit its 9-bit rank pattern, per rank its 4-bit suit pattern
_PATTERN_BITS = np.zeros((NUM_TYPES, SUITS + RANKS), dtype=np.float32)
_PATTERN_BITS[_TYPES, _SUIT] = 1 << (_RANK - 1)
_PATTERN_BITS[_TYPES, SUITS + _RANK - 1] = 1 << _SUIT
_PATTERN_BASE = np.concatenate([np.arange(SUITS) * 512, 2048 + np.arange(RANKS) * 16])
_REPUNIT = np.array(
    [(10**r - 1) // 9 for r in range(RANKS + 2)], dtype=np.int64
)  # 0, 1, 11, 111...


@lru_cache(maxsize=1)
def _set_tables():
    """One-deck set tables: counts, sizes and values of every set, and for each suit (9-bit
    rank pattern) and rank (4-bit suit pattern) the sets of 2+ cards inside the pattern, as one
    ragged array (``ids[offsets[key]:offsets[key + 1]]``; key ``s * 512 + p`` or
    ``2048 + r * 16 + q``), and the set that is the whole pattern (-1: none)."""
    counts = np.zeros((len(SETS), NUM_TYPES), dtype=np.int8)
    for i, t in enumerate(SETS):
        counts[i, list(t)] = 1
    size = counts.sum(axis=1, dtype=np.int64)
    value = np.array([play_value(t) for t in SETS], dtype=np.int64)
    grid = counts.reshape(len(SETS), RANKS, SUITS)
    suit_bits = (grid << np.arange(RANKS)[None, :, None]).sum(axis=1)  # (sets, 4)
    rank_bits = (grid << np.arange(SUITS)[None, None, :]).sum(axis=2)  # (sets, 9)
    groups, whole = [], np.full(4 * 512 + RANKS * 16, -1, dtype=np.int64)
    for s in range(SUITS):
        members = np.flatnonzero((size >= 2) & (suit_bits[:, s] == suit_bits.sum(axis=1)))
        bits = suit_bits[members, s]
        inside = (bits[None, :] & ~np.arange(512)[:, None]) == 0
        groups += [members[row] for row in inside]
        whole[s * 512 + bits] = members
    for r in range(RANKS):
        members = np.flatnonzero((size >= 2) & (rank_bits[:, r] == rank_bits.sum(axis=1)))
        bits = rank_bits[members, r]
        inside = (bits[None, :] & ~np.arange(16)[:, None]) == 0
        groups += [members[row] for row in inside]
        whole[4 * 512 + r * 16 + bits] = members
    lengths = np.array([len(g) for g in groups], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    return counts, size, value, np.concatenate(groups), offsets, lengths, whole


class BigNumberBatched(BatchedEngine):
    game_cls = BigNumberGame
    # The small variants (N16) change the deck, the hand and the one-deck play table, which the
    # pattern tables below are built for once; they play on scalar lanes instead.
    UNSUPPORTED: ClassVar[dict[str, str]] = {
        "ranks": "a variant's deck of fewer ranks (N16) plays on the scalar engine",
        "hand_size": "a variant's smaller hands (N16) play on the scalar engine",
    }

    def __init__(self, game: BigNumberGame, num_envs: int, rng: np.random.Generator):
        super().__init__(game, num_envs, rng)
        B, n = self.B, self.n
        i64 = np.int64
        self.phase = np.zeros(B, dtype=i64)
        self.hands = np.zeros((B, n, NUM_TYPES), dtype=np.int8)
        self.known = np.zeros((B, n, NUM_TYPES), dtype=np.int8)
        self.hsize = np.zeros((B, n), dtype=i64)  # cards in each hand
        self.out = np.zeros((B, NUM_TYPES), dtype=np.int8)
        self.middle = np.zeros((B, NUM_TYPES), dtype=np.int8)
        self.msize = np.zeros(B, dtype=i64)
        self.mvalue = np.zeros(B, dtype=i64)
        self.owner = np.full(B, -1, dtype=i64)
        self.passes = np.zeros(B, dtype=i64)
        # the selection being built (two decks), or the set that beat the middle (pick-up)
        self.pending = np.zeros((B, NUM_TYPES), dtype=np.int8)
        self.psize = np.zeros(B, dtype=i64)
        self.pvalue = np.zeros(B, dtype=i64)
        self.pfirst = np.zeros(B, dtype=i64)
        self.plast = np.zeros(B, dtype=i64)
        self.psuit = np.zeros(B, dtype=bool)  # the selection is all one suit
        self.prank = np.zeros(B, dtype=bool)  # ... all one rank
        self.deal = np.zeros(B, dtype=i64)
        self.deal_start = np.zeros(B, dtype=i64)
        self.points = np.zeros((B, n), dtype=i64)
        self.two = game.two_decks
        self.copies = game.copies
        self._o = dict(game.offsets)
        self._seats = np.arange(n)
        self._deck = np.repeat(_TYPES, self.copies)
        self._size_tab = float32_table([s / HAND_SIZE for s in range(NUM_TYPES * 2 + 1)])
        if not self.two:
            (
                self._set_counts,
                self._set_size,
                self._set_value,
                self._ids,
                self._offsets,
                self._lengths,
                self._whole,
            ) = _set_tables()

    # ---- chance ----------------------------------------------------------------------------------
    def draw_random(self, kind, lanes):
        k, n = len(lanes), self.n
        deck = self.rng.permuted(np.broadcast_to(self._deck, (k, len(self._deck))), axis=1)[
            :, : n * HAND_SIZE
        ]
        seat = np.arange(n * HAND_SIZE) // HAND_SIZE
        flat = (np.arange(k)[:, None] * n + seat) * NUM_TYPES + deck
        hands = np.bincount(flat.ravel(), minlength=k * n * NUM_TYPES).reshape(k, n, NUM_TYPES)
        rec = {"hands": hands.astype(np.int8)}
        if kind == "start":
            sp = self.game.options["start_player"]
            rec["start"] = (
                self.rng.integers(n, size=k) if sp is None else np.full(k, sp, dtype=np.int64)
            )
        return rec

    def record_from_states(self, kind, states):
        rec = {"hands": np.array([s.hands for s in states], dtype=np.int8)}
        if kind == "start":
            rec["start"] = np.array([s.deal_start for s in states], dtype=np.int64)
        return rec

    def start(self, lanes):
        rec = self.draw("start", lanes)
        self.points[lanes] = 0
        self.deal[lanes] = 0
        self.deal_start[lanes] = rec["start"]
        self._new_deal(lanes, rec)

    def _new_deal(self, lanes, rec) -> None:
        self.hands[lanes] = rec["hands"]
        self.hsize[lanes] = HAND_SIZE
        self.known[lanes] = 0
        self.out[lanes] = 0
        self._clear_middle(lanes)
        self._clear_pending(lanes)
        self.phase[lanes] = LEAD
        self.cur[lanes] = self.deal_start[lanes]

    def _clear_middle(self, lanes) -> None:
        self.middle[lanes] = 0
        self.msize[lanes] = 0
        self.mvalue[lanes] = 0
        self.owner[lanes] = -1
        self.passes[lanes] = 0

    def _clear_pending(self, lanes) -> None:
        self.pending[lanes] = 0
        self.psize[lanes] = 0
        self.pvalue[lanes] = 0

    # ---- the mask --------------------------------------------------------------------------------
    def legal_mask(self):
        B = self.B
        mask = np.zeros((B, self.num_actions), dtype=bool)
        phase = self.phase
        pick = np.flatnonzero(phase == PICK)
        if len(pick):
            mask[pick, PICK_BASE : PICK_BASE + NUM_TYPES] = self.middle[pick] > 0
        deciding = np.flatnonzero(phase <= ANSWER)
        if self.two:
            self._mask_two_decks(mask, deciding)
        else:
            self._mask_one_deck(mask, deciding)
        return mask

    def _mask_one_deck(self, mask, lanes) -> None:
        hand = self.hands[lanes, self.cur[lanes]]
        lead = self.phase[lanes] == LEAD
        m, value = self.msize[lanes], self.mvalue[lanes]
        # singles: any held card when leading, a higher one when answering a single
        higher = (m == 1)[:, None] & (_RANK[None, :] > value[:, None])
        mask[lanes, PLAY_BASE : PLAY_BASE + NUM_TYPES] = (hand > 0) & (lead[:, None] | higher)
        # the hand's rank pattern in each suit and suit pattern in each rank, as table keys
        # (one small float matrix product: exact, and far cheaper than shifts and sums)
        keys = (hand.astype(np.float32) @ _PATTERN_BITS).astype(np.int64) + _PATTERN_BASE
        # N12: leading the whole hand when it is one suit or one rank (2+ cards)
        sizes = hand.sum(axis=1, dtype=np.int64)
        uniform = lead & (sizes >= 2)
        if uniform.any():
            # at most one pattern of a one-suit or one-rank hand is a set: the whole hand
            whole = self._whole[keys[uniform]].max(axis=1)
            rows = np.flatnonzero(uniform)
            has = (whole >= 0) & (self._set_size[whole] == sizes[rows])
            mask[lanes[rows[has]], PLAY_BASE + whole[has]] = True
        ans = np.flatnonzero(~lead)
        if not len(ans):
            return
        mask[lanes[ans], PASS] = True
        keys = keys[ans].ravel()
        lengths = self._lengths[keys]
        total = int(lengths.sum())
        if not total:
            return
        row = np.repeat(np.arange(len(keys)) // (SUITS + RANKS), lengths)
        first = np.repeat(self._offsets[keys] - (np.cumsum(lengths) - lengths), lengths)
        ids = self._ids[first + np.arange(total)]
        lane = ans[row]
        sz, mm = self._set_size[ids], m[lane]
        ok = (sz == mm + 1) | ((sz == mm) & (self._set_value[ids] > value[lane]))
        mask[lanes[lane[ok]], PLAY_BASE + ids[ok]] = True

    def _mask_two_decks(self, mask, lanes) -> None:
        k = len(lanes)
        if not k:
            return
        hand = self.hands[lanes, self.cur[lanes]].astype(np.int64)
        sel = self.pending[lanes].astype(np.int64)
        avail = hand - sel
        ks = self.psize[lanes]
        started = ks > 0
        phase = self.phase[lanes]
        lead = phase == LEAD
        # candidate x: biggest first (x <= the last card chosen), still in hand, still a set
        x_ok = avail > 0
        x_ok &= ~started[:, None] | (_TYPES[None, :] <= self.plast[lanes][:, None])
        first = self.pfirst[lanes]
        suit_mode = ~started[:, None] | (
            self.psuit[lanes][:, None] & (_SUIT[None, :] == _SUIT[first][:, None])
        )
        rank_mode = ~started[:, None] | (
            self.prank[lanes][:, None] & (_RANK[None, :] == _RANK[first][:, None])
        )
        legal = np.zeros((k, NUM_TYPES), dtype=bool)
        finish = np.zeros(k, dtype=bool)
        # leading: a single, or the whole hand when it is one suit or one rank (N12)
        lead_rows = np.flatnonzero(lead)
        if len(lead_rows):
            h = hand[lead_rows]
            held = h > 0
            one_suit = held.reshape(-1, RANKS, SUITS).any(axis=1).sum(axis=1) == 1
            one_rank = held.reshape(-1, RANKS, SUITS).any(axis=2).sum(axis=1) == 1
            uniform = (one_suit | one_rank) & (h.sum(axis=1) > 1)
            a = avail[lead_rows]
            top = np.where(a > 0, _TYPES, -1).max(axis=1)  # the next card of the whole hand
            kl = ks[lead_rows]
            follows = uniform & (kl > 0) & (top >= 0) & (top <= self.plast[lanes[lead_rows]])
            legal[lead_rows] = np.where(
                (kl == 0)[:, None],
                x_ok[lead_rows],
                follows[:, None] & (_TYPES[None, :] == top[:, None]),
            )
            finish[lead_rows] = (kl == 1) | (uniform & (kl > 1) & (a.sum(axis=1) == 0))
        ans_rows = np.flatnonzero(~lead)
        if len(ans_rows):
            r = ans_rows
            legal[r], finish[r] = self._answers(
                avail[r],
                ks[r],
                self.pvalue[lanes[r]],
                x_ok[r],
                suit_mode[r],
                rank_mode[r],
                self.msize[lanes[r]],
                self.mvalue[lanes[r]],
            )
            mask[lanes[r[ks[r] == 0]], PASS] = True
        mask[lanes, ADD_BASE : ADD_BASE + NUM_TYPES] = legal
        mask[lanes, FINISH] = finish & started

    @staticmethod
    def _answers(avail, ks, pvalue, x_ok, suit_mode, rank_mode, m, value):
        """Two decks, answering a middle of ``m`` cards worth ``value`` (N6): which next cards
        start a legal play from the selection, and whether the selection itself is one."""
        k = len(ks)
        j = ks + 1  # the selection's length with x added
        grid = avail.reshape(k, RANKS, SUITS)
        # the cards that may follow x: same suit and lower rank, or same rank and lower suit,
        # plus x's second copy
        below_in_suit = np.cumsum(grid, axis=1) - grid  # per (rank, suit): lower ranks of that suit
        below_in_rank = np.cumsum(grid, axis=2) - grid  # lower suits of that rank
        again = avail - 1
        pool_suit = below_in_suit.reshape(k, NUM_TYPES) + again
        pool_rank = below_in_rank.reshape(k, NUM_TYPES) + again
        longer = (m + 1 - j)[:, None]  # cards still needed for a play of m + 1
        ok_longer = (longer >= 0) & (
            (suit_mode & (pool_suit >= longer)) | (rank_mode & (pool_rank >= longer))
        )
        need = (m - j)[:, None]  # ... for a play of m cards, which must beat the middle's value
        head = pvalue[:, None] * 10 + _RANK[None, :]
        need_c = np.clip(need, 0, RANKS)
        scale = _POW10[need_c]
        by_rank = head * scale + _RANK[None, :] * _REPUNIT[need_c]
        ok_rank = rank_mode & (pool_rank >= need) & (by_rank > value[:, None])
        best = _greedy_tails(grid, need_c)
        ok_suit = suit_mode & (pool_suit >= need) & (head * scale + best > value[:, None])
        ok_same = (need >= 0) & (ok_rank | ok_suit)
        legal = x_ok & (ok_longer | ok_same)
        finish = (ks == m + 1) | ((ks == m) & (pvalue > value))
        return legal, finish

    # ---- moves -----------------------------------------------------------------------------------
    def apply(self, lanes, actions):
        phase = self.phase[lanes]
        pick = phase == PICK
        if pick.any():
            self._pick(lanes[pick], actions[pick] - PICK_BASE)
        passing = ~pick & (actions == PASS)
        if passing.any():
            self._pass(lanes[passing])
        rest = ~pick & ~passing
        lanes, actions = lanes[rest], actions[rest]
        if not self.two:
            ids = actions - PLAY_BASE
            self._play(
                lanes, self._set_counts.take(ids, axis=0), self._set_size[ids], self._set_value[ids]
            )
            return
        add = actions < FINISH
        self._add(lanes[add], actions[add] - ADD_BASE)
        done = lanes[~add]
        self._play(
            done, self.pending[done].copy(), self.psize[done].copy(), self.pvalue[done].copy()
        )

    def _add(self, lanes, card) -> None:
        fresh = self.psize[lanes] == 0
        self.pfirst[lanes[fresh]] = card[fresh]
        self.psuit[lanes[fresh]] = True
        self.prank[lanes[fresh]] = True
        first = self.pfirst[lanes]
        self.psuit[lanes] &= _SUIT[card] == _SUIT[first]
        self.prank[lanes] &= _RANK[card] == _RANK[first]
        self.pending[lanes, card] += 1
        self.psize[lanes] += 1
        self.pvalue[lanes] = self.pvalue[lanes] * 10 + _RANK[card]
        self.plast[lanes] = card

    def _play(self, lanes, cards, size, value) -> None:
        if not len(lanes):
            return
        self._clear_pending(lanes)
        c = self.cur[lanes]
        hand = self.hands[lanes, c] - cards
        self.hands[lanes, c] = hand
        self.hsize[lanes, c] -= size
        # a played copy lowers the known count by the copies played, never below zero (N-D1)
        self.known[lanes, c] = np.maximum(self.known[lanes, c] - cards, 0)
        out = self.hsize[lanes, c] == 0  # N9 / N12: the deal ends at once, no pick-up
        if out.any():
            gone = lanes[out]
            self.out[gone] += self.middle[gone] + cards[out]
            self._clear_middle(gone)
            self._end_deal(gone, c[out])
        lead = ~out & (self.phase[lanes] == LEAD)
        if lead.any():
            led = lanes[lead]
            self.middle[led] = cards[lead]
            self.msize[led], self.mvalue[led], self.owner[led] = size[lead], value[lead], c[lead]
            self.passes[led] = 0
            self.phase[led] = ANSWER
            self.cur[led] = (c[lead] + 1) % self.n
        beat = ~out & ~lead
        if beat.any():
            won = lanes[beat]
            self.pending[won] = cards[beat]
            self.psize[won], self.pvalue[won] = size[beat], value[beat]
            kinds = self.middle[won] > 0
            auto = kinds.sum(axis=1) == 1  # X6: a choice of one is no choice
            self.phase[won[~auto]] = PICK
            self._pick(won[auto], kinds[auto].argmax(axis=1))

    def _pick(self, lanes, card) -> None:
        c = self.cur[lanes]
        self.hands[lanes, c, card] += 1
        self.hsize[lanes, c] += 1
        self.known[lanes, c, card] += 1
        self.middle[lanes, card] -= 1
        self.out[lanes] += self.middle[lanes]  # N8: the rest goes out of play
        self.middle[lanes] = self.pending[lanes]
        self.msize[lanes], self.mvalue[lanes] = self.psize[lanes], self.pvalue[lanes]
        self.owner[lanes] = c
        self.passes[lanes] = 0
        self._clear_pending(lanes)
        self.phase[lanes] = ANSWER
        self.cur[lanes] = (c + 1) % self.n

    def _pass(self, lanes) -> None:
        passes = self.passes[lanes] + 1
        self.passes[lanes] = passes
        end = passes == self.n - 1  # N11: all others passed in a row
        ended = lanes[end]
        self.out[ended] += self.middle[ended]
        self.cur[ended] = self.owner[ended]
        self._clear_middle(ended)
        self.phase[ended] = LEAD
        going = lanes[~end]
        self.cur[going] = (self.cur[going] + 1) % self.n

    def _end_deal(self, lanes, finisher) -> None:
        pen = self.hsize[lanes]
        pen[np.arange(len(lanes)), finisher] = 0
        self.points[lanes] += pen
        g = self.game
        over = (
            np.ones(len(lanes), dtype=bool)
            if g.single_deal
            else self.points[lanes].max(axis=1) >= g.target
        )
        end = lanes[over]
        self.phase[end] = OVER
        self.cur[end] = -1
        more = lanes[~over]
        if len(more):
            self.deal[more] += 1
            self.deal_start[more] = (self.deal_start[more] + 1) % self.n  # N4
            self._new_deal(more, self.draw("deal", more))

    # ---- results ---------------------------------------------------------------------------------
    def scores(self, lanes=None):
        return self.points.copy() if lanes is None else self.points[lanes]

    def winners(self, lanes):
        p = self.points[lanes]
        return p == p.min(axis=1, keepdims=True)

    # ---- the observation -------------------------------------------------------------------------
    def observe(self, seats, lanes=None):
        n, o, D, g = self.n, self._o, self.obs_dim, self.game
        pick = Ellipsis if lanes is None else lanes
        if lanes is None:
            lanes = self.all
        k = len(seats)
        flat = flat_order(relative_seats(seats, n))
        cur, phase = self.cur[pick], self.phase[pick]
        buf = np.zeros((k, D), dtype=np.float32)
        a = o["hand"]
        buf[:, a : a + NUM_TYPES] = self.hands[lanes, seats]
        pending = self.pending[pick]
        if self.two:
            building = (phase <= ANSWER) & (seats == cur)
            a = o["selection"]
            buf[:, a : a + NUM_TYPES] = np.where(building[:, None], pending, 0)
        a = o["played"]
        buf[:, a : a + NUM_TYPES] = np.where((phase == PICK)[:, None], pending, 0)
        a = o["middle"]
        buf[:, a : a + NUM_TYPES] = self.middle[pick]
        a = o["out_of_play"]
        buf[:, a : a + NUM_TYPES] = self.out[pick]
        a = o["known"]
        buf[:, a : a + n * NUM_TYPES] = rotate(self.known[pick], flat).reshape(k, n * NUM_TYPES)
        if self.copies > 1:
            buf[:, : g.count_size] *= 1.0 / self.copies
        owner, msize = self.owner[pick], self.msize[pick]
        has_middle = msize > 0
        hot = np.zeros((k, 5 + n - 1), dtype=np.int64)  # 0 = the first hand entry, rewritten below
        hot[:, 0] = np.where(has_middle, o["middle_size"] + msize - 1, 0)
        hot[:, 1] = np.where(has_middle, o["middle_owner"] + (owner - seats) % n, 0)
        live = cur >= 0
        hot[:, 2] = np.where(live, o["current_player"] + (cur - seats) % n, 0)
        hot[:, 3] = np.where(live, o["phase"] + phase, 0)
        hot[:, 4] = o["deal_start"] + (self.deal_start[pick] - seats) % n
        step = np.arange(1, n)
        passed = (owner >= 0)[:, None] & (step[None, :] <= self.passes[pick][:, None])
        hot[:, 5:] = np.where(passed, o["passed"] + (owner[:, None] + step - seats[:, None]) % n, 0)
        hot += (np.arange(k) * D)[:, None]
        hand0 = buf[:, o["hand"]].copy()
        buf.reshape(-1)[hot.ravel()] = 1.0
        buf[:, o["hand"]] = hand0
        a = o["hand_sizes"]
        buf[:, a : a + n] = self._size_tab[rotate(self.hsize[pick], flat)]
        a = o["scores"]
        buf[:, a : a + n] = np.minimum(rotate(self.points[pick], flat) / g.max_score, 1.0)
        buf[:, o["deal"]] = np.minimum(self.deal[pick] / max(g.max_deals - 1, 1), 1.0)
        return buf

    # ---- scalar states in ------------------------------------------------------------------------
    def load(self, lanes, states):
        for lane, s in zip(lanes.tolist(), states):
            self.phase[lane] = s.phase
            self.cur[lane] = -1 if s.current_player is None else s.current_player
            self.hands[lane], self.known[lane], self.out[lane] = s.hands, s.known, s.out
            self.hsize[lane] = [sum(h) for h in s.hands]
            self.middle[lane] = np.bincount(
                np.asarray(s.middle, dtype=np.int64), minlength=NUM_TYPES
            )
            self.msize[lane] = len(s.middle)
            self.mvalue[lane] = play_value(s.middle) if s.middle else 0
            self.owner[lane] = -1 if s.owner is None else s.owner
            self.passes[lane] = s.passes
            p = tuple(s.pending)
            self.pending[lane] = np.bincount(np.asarray(p, dtype=np.int64), minlength=NUM_TYPES)
            self.psize[lane], self.pvalue[lane] = len(p), play_value(p) if p else 0
            if p:
                self.pfirst[lane], self.plast[lane] = p[0], p[-1]
                self.psuit[lane] = len({c % SUITS for c in p}) == 1
                self.prank[lane] = len({c // SUITS for c in p}) == 1
            self.deal[lane], self.deal_start[lane] = s.deal, s.deal_start
            self.points[lane] = s.scores_


def _greedy_tails(grid: np.ndarray, need: np.ndarray) -> np.ndarray:
    """``(k, 36)``: for each candidate card x, the value of the ``need`` highest ranks (with
    repeats) of x's suit that may follow x (lower ranks of the suit, and x's second copy).

    ``grid`` is ``(k, 9, 4)`` available counts (rank, suit); ``need`` ``(k, 36)`` in 0..9.
    """
    k = len(grid)
    # per suit, the available ranks listed highest first (0 past the end)
    desc = grid[:, ::-1, :].transpose(0, 2, 1)  # (k, suit, rank 9..1)
    upto = np.cumsum(desc, axis=2)  # cards at or above each rank, from the top
    pos = np.arange(RANKS + 1)
    listed = RANKS - (upto[:, :, :, None] <= pos[None, None, None, :]).sum(axis=2)  # (k, suit, pos)
    listed = np.where(listed >= 1, listed, 0)
    # x = (rank r, suit s): its tail starts after the cards above r and one copy of x
    above = (
        (upto - desc)[:, :, ::-1].transpose(0, 2, 1).reshape(k, NUM_TYPES)
    )  # cards of x's suit above x
    start = above + 1
    lists = listed[:, _SUIT, :]  # (k, 36, pos)
    idx = np.minimum(start[:, :, None] + np.arange(RANKS)[None, None, :], RANKS)
    digits = np.take_along_axis(lists, idx, axis=2)  # (k, 36, 9)
    weights = np.where(
        np.arange(RANKS)[None, :] < np.arange(RANKS + 1)[:, None],
        _POW10[np.clip(np.arange(RANKS + 1)[:, None] - 1 - np.arange(RANKS)[None, :], 0, None)],
        0,
    )
    return (digits * weights[need]).sum(axis=2)
