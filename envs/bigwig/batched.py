"""BigWig, batched: B games as struct-of-arrays numpy state, bit-exact with ``rules.py``.

Same options, action ids, masks and observation as ``BigWigGame`` (``rules.py`` is the
specification; ``tests/vector`` and tests/bigwig/test_batched.py replay random games in both and
compare every step). Per lane (``n`` seats, 46 large-card kinds, 15 point kinds):

    hands (B, n, 46) int8, well (B, n) bool     draw (B, 52) kinds bottom first, ``draw_len`` left
    discard (B, 46)   small (B, 24) altar pile bottom first, ``small_len`` left
    collected (B, n, 15), altar (B, 15)         commits (B, n): -1 none, 46 the well
    participants, joiners, tickets, queue (B, n) bool; the order they are asked in is a rule,
    not state: a trick and the well draws go youngest first then clockwise (``turn_order``), the
    ticket window goes in age order
    resh_cards (B, 46), resh (B,) and drawn_since (B, n): the part of the public record of the
    draw piles (``origins.py``) that the observation shows: the current pile's composition when it
    was reshuffled and what each seat drew from it since

Rounds, tricks (the resolution order of ruling B11, ``trick.py``), holmgangs with the secret
ticket window, wells and their draws, reshuffles and the end of the game run on groups of lanes
(the lanes in one phase) with array operations; Python loops run over seats, the cards of a
draw, or the rounds skipped in one step (a holmgang nobody can be challenged in), never over
lanes.

Chance. Three kinds of event: "start" (the shuffled deck dealt and the shuffled altar pile),
"reshuffle" (the discard pile shuffled into a new draw pile, B23) and "loki" (Loki's blind pick
of one card under the altar, X4). Each is drawn from the batch generator, or copied from scalar
states through the chance hook (``StateDeals``): a scalar twin that has already made the same
move shows what the event produced (its deal, the cards its seats drew from the new pile and
the rest of that pile, the altar card Loki took), and ``record_from_states`` turns that into the
event's record. The batched draw differs from the scalar one in one case: a deal whose first
four altar cards are the four holmgangs would end before any decision (the scalar env reports a
game over at the deal); the batch generator deals such lanes again, so every lane always holds a
game in progress.
"""

from __future__ import annotations

import numpy as np

from ..core.batched import (
    BatchedEngine,
    flat_order,
    float32_table,
    relative_seats,
    row_starts,
    seat_positions,
)
from .cards import (
    DECK_SIZE,
    DVERGAR,
    FENRIR,
    HOLMGANG,
    HUGIN_MUNIN,
    KIND_COLOUR,
    KIND_COPIES,
    KIND_VALUE,
    LOKI,
    NUM_HOLMGANGS,
    NUM_KINDS,
    NUM_POINT_KINDS,
    NUM_SMALL_KINDS,
    NUM_STANDARD,
    POINT_TRUMP,
    POINT_VP,
    SMALL_COPIES,
    SURTR,
    TIL_VALHALLAR,
    TOTAL_VP,
    WELL,
    draw_entitlement,
)
from .rules import (
    DEAL,
    HAND_LIMIT,
    JOIN,
    PASS,
    PHASE_COMMIT,
    PHASE_OVER,
    PHASE_SACRIFICE,
    PHASE_STAKE,
    PHASE_TARGET,
    PHASE_TICKET,
    PLAY_WELL,
    SACRIFICE_BASE,
    TARGET_BASE,
    BigWigGame,
)
from .trick import EFFECT_KINDS

NONE = -1
SMALL_TOTAL = int(SMALL_COPIES.sum())  # the altar pile: 20 point cards, 4 holmgangs
_KINDS = np.arange(NUM_KINDS)
_DECK = np.repeat(_KINDS, KIND_COPIES).astype(np.int8)
_SMALL = np.repeat(np.arange(NUM_SMALL_KINDS), SMALL_COPIES).astype(np.int8)
# per kind, the well (46) included as a harmless last row
_VALUE = np.append(KIND_VALUE, 0)
_COLOUR = np.append(np.minimum(KIND_COLOUR, 3), 0)  # specials are trump anyway (white)
_SPECIAL = np.append(np.arange(NUM_KINDS) >= NUM_STANDARD, False)
_EFFECT = np.array([k in EFFECT_KINDS for k in range(NUM_KINDS + 1)])
_FIVE = np.array([SURTR <= k < SURTR + 4 for k in range(NUM_KINDS + 1)])
_ENTITLE = np.array([draw_entitlement(k) for k in range(NUM_KINDS)])
_POINT_VP = POINT_VP.astype(np.int64)
_POINT_VP32 = POINT_VP.astype(np.float32)  # a BLAS product, exact for these small integers
# the scalar encoder's floats: VP / 60 and sizes / 9 (float64, cast); counts / 2: ``_halve``
_VP_SCALE = (np.arange(TOTAL_VP + 1) / TOTAL_VP).astype(np.float32)
_SIZE_SCALE = (np.arange(HAND_LIMIT + 1) / HAND_LIMIT).astype(np.float32)
_PILE_SCALE = float32_table(np.arange(DECK_SIZE + 1) / DECK_SIZE)
_DRAWN_SCALE = np.arange(DECK_SIZE + 1, dtype=np.float32) / DECK_SIZE  # float32 / int, as scalar
_ALTAR_PILE_SCALE = float32_table(np.arange(SMALL_TOTAL + 1) / SMALL_TOTAL)
_POS52 = np.arange(DECK_SIZE)
_THERMO = np.arange(NUM_HOLMGANGS) < np.arange(NUM_HOLMGANGS + 1)[:, None]  # holmgangs seen


class BigWigBatched(BatchedEngine):
    game_cls = BigWigGame
    simultaneous = True

    def __init__(self, game: BigWigGame, num_envs: int, rng: np.random.Generator):
        super().__init__(game, num_envs, rng)
        B, n = self.B, self.n
        self.phase = np.zeros(B, dtype=np.int64)
        self.hands = np.zeros((B, n, NUM_KINDS), dtype=np.int8)
        self.well = np.ones((B, n), dtype=bool)
        self.draw_pile = np.zeros((B, DECK_SIZE), dtype=np.int8)
        self.draw_len = np.zeros(B, dtype=np.int64)
        self.discard = np.zeros((B, NUM_KINDS), dtype=np.int8)
        self.small = np.zeros((B, SMALL_TOTAL), dtype=np.int8)
        self.small_len = np.zeros(B, dtype=np.int64)
        self.collected = np.zeros((B, n, NUM_POINT_KINDS), dtype=np.int8)
        self.altar = np.zeros((B, NUM_POINT_KINDS), dtype=np.int8)
        self.holmgangs = np.zeros(B, dtype=np.int64)
        self.round = np.zeros(B, dtype=np.int64)
        self.round_card = np.full(B, NONE, dtype=np.int64)
        self.point_on_table = np.zeros(B, dtype=bool)
        self.trump = np.zeros((B, 4), dtype=bool)
        self.participants = np.zeros((B, n), dtype=bool)
        self.commits = np.full((B, n), NONE, dtype=np.int64)
        self.challenger = np.full(B, NONE, dtype=np.int64)
        self.target = np.full(B, NONE, dtype=np.int64)
        self.stake = np.full(B, NONE, dtype=np.int64)
        self.joiners = np.zeros((B, n), dtype=bool)
        self.tickets = np.zeros((B, n), dtype=bool)
        self.queue = np.zeros((B, n), dtype=bool)
        self.last_trick = np.full((B, n), NONE, dtype=np.int64)
        self.last_winner = np.full(B, NONE, dtype=np.int64)
        self.resh = np.zeros(B, dtype=bool)
        self.resh_cards = np.zeros((B, NUM_KINDS), dtype=np.int8)
        self.drawn_since = np.zeros((B, n), dtype=np.int64)
        # the order rules (constants of the configuration)
        self._turn_order = np.array(game.turn_order)
        self._turn_rank = np.argsort(self._turn_order)  # seat -> position youngest-first clockwise
        self._age_rank = np.array(game.age_rank)
        self._age_scaled = game.age_rank_scaled
        self._o = dict(game.offsets)
        self._seats = np.arange(n)
        self._stake_base = game.stake_base

    # ---- chance ----------------------------------------------------------------------------------
    def draw_random(self, kind, lanes):
        k = len(lanes)
        if kind == "start":
            deck = self.rng.permuted(np.broadcast_to(_DECK, (k, DECK_SIZE)), axis=1)
            small = self.rng.permuted(np.broadcast_to(_SMALL, (k, SMALL_TOTAL)), axis=1)
            while True:  # a deal over before any decision is dealt again (module doc)
                bad = np.flatnonzero((small[:, -NUM_HOLMGANGS:] == HOLMGANG).all(axis=1))
                if not len(bad):
                    break
                small[bad] = self.rng.permuted(
                    np.broadcast_to(_SMALL, (len(bad), SMALL_TOTAL)), axis=1
                )
            return self._deal_record(deck, small)
        if kind == "reshuffle":
            # the discard pile's cards in kind order, shuffled by the argsort of random keys
            cs = self.discard[lanes].cumsum(axis=1, dtype=np.int64)
            keys = self.rng.random((k, DECK_SIZE))
            keys[_POS52 >= cs[:, -1:]] = 2.0  # the padding stays after the pile
            order = np.argsort(keys, axis=1, kind="stable")
            return {"pile": _kinds_at(cs, order)}
        if kind == "loki":
            altar = self.altar[lanes].astype(np.int64)
            u = (self.rng.random(k) * altar.sum(axis=1)).astype(np.int64)
            return {"pick": (altar.cumsum(axis=1) <= u[:, None]).sum(axis=1)}
        raise ValueError(f"unknown chance event {kind!r}")

    def _deal_record(self, deck: np.ndarray, small: np.ndarray) -> dict:
        """The deal of the shuffled ``deck`` (the scalar deal pops 7 per seat from the top, seat 0
        first) with the ``small`` altar pile (bottom first)."""
        k, n = len(deck), self.n
        dealt = n * DEAL
        seat = (DECK_SIZE - 1 - _POS52[DECK_SIZE - dealt :]) // DEAL
        flat = (np.arange(k)[:, None] * n + seat) * NUM_KINDS + deck[:, DECK_SIZE - dealt :]
        hands = np.bincount(flat.ravel(), minlength=k * n * NUM_KINDS).reshape(k, n, NUM_KINDS)
        pile = np.zeros((k, DECK_SIZE), dtype=np.int8)
        pile[:, : DECK_SIZE - dealt] = deck[:, : DECK_SIZE - dealt]
        return {
            "hands": hands,
            "draw": pile,
            "draw_len": np.full(k, DECK_SIZE - dealt),
            "small": small,
        }

    def record_from_states(self, kind, states):
        k = len(states)
        if kind == "start":
            hands = np.array([s.hands for s in states])
            pile = np.zeros((k, DECK_SIZE), dtype=np.int8)
            small = np.zeros((k, SMALL_TOTAL), dtype=np.int8)
            for i, s in enumerate(states):
                pile[i, : len(s.draw)] = s.draw
                # the cards already revealed go back on top, last revealed lowest (list order)
                shown = [] if s.round_card in (NONE, HOLMGANG) else [s.round_card]
                small[i] = s.small + shown + [HOLMGANG] * s.holmgangs
            return {
                "hands": hands,
                "draw": pile,
                "draw_len": np.array([len(s.draw) for s in states]),
                "small": small,
            }
        if kind == "reshuffle":
            pile = np.zeros((k, DECK_SIZE), dtype=np.int8)
            for i, s in enumerate(states):
                pile[i, : len(s.draw)] = s.draw
            return {
                "hands_after": np.array([s.hands for s in states]),
                "rest": pile,
                "rest_len": np.array([len(s.draw) for s in states]),
            }
        if kind == "loki":
            return {"altar_after": np.array([s.altar for s in states])}
        raise ValueError(f"unknown chance event {kind!r}")

    def _reshuffled_pile(self, lanes: np.ndarray) -> np.ndarray:
        """The new draw pile (bottom first) of ``lanes``. From a scalar twin's record: the pile's
        cards still there (the twin's draw pile), then on top the cards the seats draw from it in
        this step, in the order they draw (seats in turn order; a seat's cards in any order). A
        step reshuffles once at most (the discard pile is empty after it, and only the step's first
        well draw sacrifices a card), so the twin's hands after the step differ from the lane's
        hands now by exactly those draws."""
        rec = self.draw("reshuffle", lanes)
        if "pile" in rec:
            return rec["pile"]
        k = len(lanes)
        pile = rec["rest"].copy()
        gained = rec["hands_after"].astype(np.int64) - self.hands[lanes]
        gained = gained[:, self._turn_order]  # (k, n, 46) seats in the order they draw
        counts = gained.reshape(k, -1)
        got = np.repeat(np.tile(_KINDS, k * self.n), counts.ravel())  # every lane's draws in order
        per_lane = counts.sum(axis=1)
        lane_of = np.repeat(np.arange(k), per_lane)
        j = np.arange(len(got)) - np.repeat(np.cumsum(per_lane) - per_lane, per_lane)
        size = rec["rest_len"] + per_lane
        pile[lane_of, size[lane_of] - 1 - j] = got
        return pile

    def _loki_pick(self, lanes: np.ndarray) -> np.ndarray:
        rec = self.draw("loki", lanes)
        if "pick" in rec:
            return rec["pick"]
        taken = self.altar[lanes].astype(np.int64) - rec["altar_after"]
        return taken.argmax(axis=1)

    # ---- starting --------------------------------------------------------------------------------
    def start(self, lanes):
        rec = self.draw("start", lanes)
        self.hands[lanes] = rec["hands"]
        self.draw_pile[lanes] = rec["draw"]
        self.draw_len[lanes] = rec["draw_len"]
        self.small[lanes] = rec["small"]
        self.small_len[lanes] = SMALL_TOTAL
        self.well[lanes] = True
        self.discard[lanes] = 0
        self.collected[lanes] = 0
        self.altar[lanes] = 0
        self.holmgangs[lanes] = 0
        self.round[lanes] = 0
        self.last_trick[lanes] = NONE
        self.last_winner[lanes] = NONE
        self.resh[lanes] = False
        self.resh_cards[lanes] = 0
        self.drawn_since[lanes] = 0
        self._start_round(lanes)

    # ---- round flow -----------------------------------------------------------------------------
    def _clear_round(self, lanes) -> None:
        self.round_card[lanes] = NONE
        self.point_on_table[lanes] = False
        self.trump[lanes] = False
        self.participants[lanes] = False
        self.commits[lanes] = NONE
        self.challenger[lanes] = NONE
        self.target[lanes] = NONE
        self.stake[lanes] = NONE
        self.joiners[lanes] = False
        self.tickets[lanes] = False
        self.queue[lanes] = False

    def _start_round(self, lanes) -> None:
        """Reveal the next altar card: a point card starts a trick of every seat; a holmgang's
        challenger picks a target, unless nobody can be challenged (B25: the round is over)."""
        while len(lanes):
            self._clear_round(lanes)
            top = self.small_len[lanes] - 1
            card = self.small.reshape(-1).take(lanes * SMALL_TOTAL + top).astype(np.int64)
            self.small_len[lanes] = top
            self.round[lanes] += 1
            self.round_card[lanes] = card
            point = card != HOLMGANG
            pl = lanes[point]
            self.point_on_table[pl] = True
            self.trump[pl] = POINT_TRUMP[card[point]]
            self.participants[pl] = True
            self.phase[pl] = PHASE_COMMIT
            self.cur[pl] = self._turn_order[0]
            hl = lanes[~point]
            if not len(hl):
                return
            self.holmgangs[hl] += 1
            vp = self.collected[hl].astype(np.int64) @ _POINT_VP
            c = (vp * self.n + self._age_rank).argmin(axis=1)  # B24: ties to the youngest
            self.challenger[hl] = c
            has = self.collected[hl].any(axis=2)
            has[np.arange(len(hl)), c] = False
            duel = has.any(axis=1)
            self.phase[hl[duel]] = PHASE_TARGET
            self.cur[hl[duel]] = c[duel]
            lanes = self._finish_round(hl[~duel])

    def _finish_round(self, lanes) -> np.ndarray:
        """B32: over after the 4th holmgang's round; returns the lanes that go on."""
        if not len(lanes):
            return lanes
        over = (self.round_card[lanes] == HOLMGANG) & (self.holmgangs[lanes] == NUM_HOLMGANGS)
        self.phase[lanes[over]] = PHASE_OVER
        self.cur[lanes[over]] = NONE
        return lanes[~over]

    def _first(self, seats: np.ndarray, rank: np.ndarray) -> np.ndarray:
        """The first flagged seat of each row by ``rank`` (rows with one at least)."""
        return np.where(seats, rank, self.n).argmin(axis=1)

    # ---- the mask --------------------------------------------------------------------------------
    def legal_mask(self):
        return self.mask_for(self.all, self.cur)

    def mask_for(self, lanes, seats) -> np.ndarray:
        """``(k, A)``: each seat's mask in its lane (``legal_mask_for``: all False for a seat with
        nothing to decide)."""
        k = len(lanes)
        mask = np.zeros((k, self.num_actions), dtype=bool)
        ph = self.phase[lanes]
        s = np.maximum(seats, 0)
        own = lanes * self.n + s  # (lane, seat) rows of the (B * n, ...) arrays
        hand = self.hands.reshape(-1, NUM_KINDS).take(own, axis=0) > 0
        rows = np.arange(k)
        commit = (
            (ph == PHASE_COMMIT)
            & self.participants.reshape(-1).take(own)
            & (self.commits.reshape(-1).take(own) == NONE)
        )
        np.logical_and(hand, commit[:, None], out=mask[:, :NUM_KINDS])
        mask[:, PLAY_WELL] = self.well.reshape(-1).take(own) & commit
        ticket = (ph == PHASE_TICKET) & self.queue.reshape(-1).take(own)
        mask[ticket, PASS] = True
        mask[ticket, JOIN] = hand[ticket, TIL_VALHALLAR]
        mine = (seats == self.cur[lanes]) & (seats >= 0)
        sac = mine & (ph == PHASE_SACRIFICE)
        np.logical_and(hand, sac[:, None], out=mask[:, SACRIFICE_BASE : SACRIFICE_BASE + NUM_KINDS])
        tgt = np.flatnonzero(mine & (ph == PHASE_TARGET))
        if len(tgt):
            has = self.collected[lanes[tgt]].any(axis=2)  # (t, n)
            for off in range(1, self.n):
                mask[tgt, TARGET_BASE + off - 1] = has[rows[: len(tgt)], (s[tgt] + off) % self.n]
        stk = np.flatnonzero(mine & (ph == PHASE_STAKE))
        b = self._stake_base
        mask[stk, b : b + NUM_POINT_KINDS] = self.collected[lanes[stk], self.target[lanes[stk]]] > 0
        return mask

    def acting(self, lanes=None) -> np.ndarray:
        """``(k, n)`` bool: the seats that decide "at once" now (``simultaneous_players``)."""
        pick = Ellipsis if lanes is None else lanes
        ph = self.phase[pick]
        out = np.zeros((len(ph), self.n), dtype=bool)
        commit = ph == PHASE_COMMIT
        out[commit] = self.participants[pick][commit] & (self.commits[pick][commit] == NONE)
        ticket = ph == PHASE_TICKET
        out[ticket] = self.queue[pick][ticket]
        one = ~commit & ~ticket & (ph != PHASE_OVER)
        cur = self.cur[pick]
        out[np.flatnonzero(one), cur[one]] = True
        return out

    def ask_rank(self, lanes) -> np.ndarray:
        """The ticket window asks in age order, everything else youngest first then clockwise."""
        ticket = (self.phase[lanes] == PHASE_TICKET)[:, None]
        return np.where(ticket, self._age_rank, self._turn_rank)

    # ---- moves -----------------------------------------------------------------------------------
    def apply(self, lanes, actions):
        ph = self.phase[lanes]
        for phase, move in (
            (PHASE_COMMIT, self._commit),
            (PHASE_SACRIFICE, self._sacrifice),
            (PHASE_TICKET, self._ticket),
            (PHASE_TARGET, self._target),
            (PHASE_STAKE, self._stake),
        ):
            sel = ph == phase
            if sel.any():
                move(lanes[sel], actions[sel])

    def _commit(self, lanes, a) -> None:
        p = self.cur[lanes]
        if not len(lanes):
            return
        own = lanes * self.n + p  # (lane, seat) rows of the (B * n, ...) arrays
        wl = a == PLAY_WELL
        self.well.reshape(-1)[own[wl]] = False
        card = ~wl
        self.hands.reshape(-1)[own[card] * NUM_KINDS + a[card]] -= 1
        self.commits.reshape(-1)[own] = a
        rest = self.participants[lanes] & (self.commits[lanes] == NONE)
        more = rest.any(axis=1)
        self.cur[lanes[more]] = self._first(rest[more], self._turn_rank)
        self._resolve(lanes[~more])

    def _sacrifice(self, lanes, a) -> None:
        p = self.cur[lanes]
        k = a - SACRIFICE_BASE
        own = lanes * self.n + p  # (lane, seat) rows of the (B * n, ...) arrays
        self.hands.reshape(-1)[own * NUM_KINDS + k] -= 1
        self.discard.reshape(-1)[lanes * NUM_KINDS + k] += 1
        self._draw(lanes, p, _ENTITLE[k])
        self.queue.reshape(-1)[own] = False
        self._next_sacrifice(lanes)

    def _ticket(self, lanes, a) -> None:
        p = self.cur[lanes]
        join = a == JOIN
        self.tickets[lanes[join], p[join]] = True
        self.queue[lanes, p] = False
        self._next_ticket(lanes)

    def _target(self, lanes, a) -> None:
        self.target[lanes] = (self.cur[lanes] + a - TARGET_BASE + 1) % self.n
        self.phase[lanes] = PHASE_STAKE

    def _stake(self, lanes, a) -> None:
        stake = a - self._stake_base
        self.stake[lanes] = stake
        self.trump[lanes] = POINT_TRUMP[stake]  # B12
        onlookers = np.ones((len(lanes), self.n), dtype=bool)
        rows = np.arange(len(lanes))
        onlookers[rows, self.challenger[lanes]] = False
        onlookers[rows, self.target[lanes]] = False
        self.queue[lanes] = onlookers
        self._next_ticket(lanes)

    def _next_ticket(self, lanes) -> None:
        """B27: the next onlooker in age order decides; after the last, the joins are revealed
        (the tickets discarded) and the duel's trick starts."""
        if not len(lanes):
            return
        q = self.queue[lanes]
        more = q.any(axis=1)
        ml = lanes[more]
        self.phase[ml] = PHASE_TICKET
        self.cur[ml] = self._first(q[more], self._age_rank)
        done = lanes[~more]
        t = self.tickets[done]
        self.hands[done, :, TIL_VALHALLAR] -= t
        self.discard[done, TIL_VALHALLAR] += t.sum(axis=1, dtype=np.int8)
        self.joiners[done] = t
        self.tickets[done] = False
        part = t.copy()
        rows = np.arange(len(done))
        part[rows, self.challenger[done]] = True
        part[rows, self.target[done]] = True
        self.participants[done] = part
        self.phase[done] = PHASE_COMMIT
        self.cur[done] = self._first(part, self._turn_rank)

    def _resolve(self, lanes) -> None:
        """Reveal and resolve the trick (ruling B11 steps 1-9, as ``trick.resolve_trick``), then
        start the well draws (step 10)."""
        if not len(lanes):
            return
        k = len(lanes)
        rows = np.arange(k)
        C = self.commits[lanes]
        card = self.participants[lanes] & (C >= 0) & (C != WELL)  # step 1
        kind = np.where(card, C, WELL)
        val = _VALUE[kind]
        spec = card & _SPECIAL[kind]
        same = (val[:, :, None] == val[:, None, :]) & spec[:, None, :]
        effect = spec & _EFFECT[kind]
        active = effect & (same.sum(axis=2) < 2)  # step 2 (B9)
        fen = active & (kind == FENRIR)  # step 3 (B10)
        active = np.where(fen.any(axis=1, keepdims=True), fen, active)
        hm = active & (kind == HUGIN_MUNIN)  # step 4 (B8)
        others = card & ~hm
        top = np.where(others, val, -1).max(axis=1, keepdims=True)
        invalid = hm.any(axis=1, keepdims=True) & others & (val == top)
        active &= ~invalid
        trump = self.trump[lanes].copy()  # step 5 (B6, B12)
        five = active & _FIVE[kind]
        fl = five.any(axis=1)
        colour = (kind[fl] * five[fl]).sum(axis=1) - SURTR
        trump[fl] = np.arange(4) == colour[:, None]
        valid = card & ~invalid
        lowest = (active & (kind == DVERGAR)).any(axis=1)
        is_trump = valid & (_SPECIAL[kind] | trump[rows[:, None], _COLOUR[kind]])
        plain = valid & ~is_trump
        pool = np.where(
            lowest[:, None],
            np.where(plain.any(axis=1, keepdims=True), plain, is_trump),
            np.where(is_trump.any(axis=1, keepdims=True), is_trump, valid),
        )  # step 6 (B13, B14)
        sign = np.where(lowest, -1, 1)[:, None]
        key = np.where(pool, sign * val, -100)
        best = key.max(axis=1, keepdims=True)
        hits = pool & (key == best)
        w = np.where(hits.sum(axis=1) == 1, hits.argmax(axis=1), NONE)
        loki = active & (kind == LOKI)
        has_loki = loki.any(axis=1)
        loki_seat = loki.argmax(axis=1)
        takes_all = has_loki & ~(valid & ~loki & (val < _VALUE[LOKI])).any(axis=1)
        self._award(lanes, w)
        # step 8 (B15): Loki takes all, or one blind pick, of the cards under the altar
        altar_any = self.altar[lanes].any(axis=1)
        all_l = has_loki & altar_any & takes_all
        la, ls = lanes[all_l], loki_seat[all_l]
        self.collected[la, ls] += self.altar[la]
        self.altar[la] = 0
        one = has_loki & altar_any & ~takes_all
        if one.any():
            lo, ls = lanes[one], loki_seat[one]
            pick = self._loki_pick(lo)
            self.altar[lo, pick] -= 1
            self.collected[lo, ls, pick] += 1
        # step 9: wells back to their owners, the other cards on the discard pile
        wells = C == WELL
        self.well[lanes] |= wells
        put = (row_starts(k, NUM_KINDS) + kind)[card]  # the played cards, flat (lane, kind)
        played = np.bincount(put, minlength=k * NUM_KINDS).reshape(k, NUM_KINDS)
        self.discard[lanes] += played.astype(np.int8)
        self.last_trick[lanes] = C
        self.last_winner[lanes] = w
        self.queue[lanes] = wells  # drawn youngest first, then clockwise
        self.commits[lanes] = NONE
        self._next_sacrifice(lanes)

    def _award(self, lanes, w) -> None:
        """Step 7: the point card to the winner or under the altar; a holmgang's winner takes the
        stake and the altar (B29: no winner leaves both where they are)."""
        point = self.round_card[lanes] != HOLMGANG
        rc = self.round_card[lanes]
        won = w >= 0
        pw = point & won
        self.collected[lanes[pw], w[pw], rc[pw]] += 1
        pn = point & ~won
        self.altar[lanes[pn], rc[pn]] += 1
        self.point_on_table[lanes[point]] = False
        hw = ~point & won
        hl, hw_ = lanes[hw], w[hw]
        stake = self.stake[hl]
        self.collected[hl, self.target[hl], stake] -= 1
        self.collected[hl, hw_, stake] += 1
        self.collected[hl, hw_] += self.altar[hl]
        self.altar[hl] = 0

    def _next_sacrifice(self, lanes) -> None:
        """Step 10: the well draws in order; a seat holding only its well draws 2 at once (B22)."""
        done = []  # the lanes whose draws are over: their next rounds start together at the end
        n = self.n
        while len(lanes):
            q = self.queue[lanes]
            more = q.any(axis=1)
            done.append(lanes[~more])
            lanes, q = lanes[more], q[more]
            p = self._first(q, self._turn_rank)
            holds = self.hands.reshape(-1, NUM_KINDS).take(lanes * n + p, axis=0).any(axis=1)
            self.phase[lanes[holds]] = PHASE_SACRIFICE
            self.cur[lanes[holds]] = p[holds]
            lanes, p = lanes[~holds], p[~holds]
            self._draw(lanes, p, np.full(len(lanes), 2))
            self.queue.reshape(-1)[lanes * n + p] = False
        done = done[0] if len(done) == 1 else np.concatenate(done)
        self._start_round(self._finish_round(done))

    def _draw(self, lanes, p, entitlement) -> None:
        """Draw the entitlement, capped by the hand limit (B21); an empty draw pile is refilled
        from the shuffled discard pile (B23), unless that is empty too: no more cards."""
        if not len(lanes):
            return
        n = self.n
        row = lanes * n + p  # (lane, seat) rows of the (B * n, ...) arrays
        size = _card_counts(self.hands.reshape(-1, NUM_KINDS).take(row, axis=0))
        size = size + self.well.reshape(-1).take(row)
        count = np.minimum(entitlement, HAND_LIMIT - size.astype(np.int64))
        hands, pile = self.hands.reshape(-1), self.draw_pile.reshape(-1)
        drawn = self.drawn_since.reshape(-1)
        for j in range(int(count.max(initial=0))):
            if j:
                go = count > j
                lanes, row, count = lanes[go], row[go], count[go]
            else:
                go = count > 0
                if not go.all():
                    lanes, row, count = lanes[go], row[go], count[go]
            top = self.draw_len[lanes] - 1
            empty = top < 0
            if empty.any():
                can = empty & self.discard[lanes].any(axis=1)
                self._reshuffle(lanes[can])
                keep = ~empty | can
                lanes, row, count = lanes[keep], row[keep], count[keep]
                top = self.draw_len[lanes] - 1
            hands[row * NUM_KINDS + pile.take(lanes * DECK_SIZE + top)] += 1
            self.draw_len[lanes] = top
            drawn[row] += 1

    def _reshuffle(self, lanes) -> None:
        if not len(lanes):
            return
        pile = self._reshuffled_pile(lanes)
        d = self.discard[lanes]
        self.draw_pile[lanes] = pile
        self.draw_len[lanes] = d.sum(axis=1, dtype=np.int64)
        self.resh[lanes] = True
        self.resh_cards[lanes] = d  # X7: its composition stays public
        self.drawn_since[lanes] = 0
        self.discard[lanes] = 0

    # ---- results ---------------------------------------------------------------------------------
    def scores(self, lanes=None):
        c = self.collected if lanes is None else self.collected[lanes]
        return c.astype(np.int64) @ _POINT_VP

    def winners(self, lanes):
        """Most VP; ties: most cards in hand (the well included); still tied: shared (B33)."""
        vp = self.scores(lanes)
        size = self.hands[lanes].sum(axis=2, dtype=np.int64) + self.well[lanes]
        tied = vp == vp.max(axis=1, keepdims=True)
        size = np.where(tied, size, -1)
        return size == size.max(axis=1, keepdims=True)

    # ---- the observation -------------------------------------------------------------------------
    def observe(self, seats, lanes=None):
        """Each lane's observation by ``seats``, as ``encoding.py`` writes it: the one-hot entries
        of every lane scattered by one flat assignment (an absent one points at cell 0, the first
        hand entry, which the dense pieces overwrite afterwards), then the dense pieces, per-seat
        values rotated to the observer's order by flat ``take`` and the scalar's float tables."""
        n, o, D = self.n, self._o, self.obs_dim
        pick = Ellipsis if lanes is None else lanes
        if lanes is None:
            lanes = self.all
        seats = np.asarray(seats, dtype=np.int64)
        k = len(seats)
        order = relative_seats(seats, n)  # relative position -> absolute seat
        flat = flat_order(order)
        rel = seat_positions(seats, n)  # absolute seat -> relative position
        own = lanes * n + seats  # (lane, seat) rows of the (B * n, ...) arrays
        ph, cur = self.phase[pick], self.cur[pick]
        commits = self.commits[pick]
        # ---- one-hot entries
        rowbase = np.arange(k) * n
        hot = np.zeros((k, 8 + n), dtype=np.int64)
        mine = commits.reshape(-1).take(rowbase + seats)
        hot[:, 0] = np.where(mine != NONE, o["my_commit"] + mine, 0)
        hot[:, 1] = np.where(ph != PHASE_OVER, o["phase"] + ph, 0)
        shown = (ph == PHASE_TARGET) | (ph == PHASE_STAKE) | (ph == PHASE_SACRIFICE)
        rel_of = rel.reshape(-1)  # (lane i, absolute seat s) at i * n + s
        cur_rel = rel_of.take(rowbase + np.maximum(cur, 0))
        hot[:, 2] = np.where(shown, o["current_player"] + cur_rel, 0)
        rc = self.round_card[pick]
        hot[:, 3] = np.where(rc != NONE, o["round_card"] + rc, 0)
        seat_hots = (
            ("challenger", self.challenger),
            ("target", self.target),
            ("last_winner", self.last_winner),
        )
        for j, (name, arr) in enumerate(seat_hots, start=4):
            v = arr[pick]
            hot[:, j] = np.where(v != NONE, o[name] + rel_of.take(rowbase + np.maximum(v, 0)), 0)
        st = self.stake[pick]
        hot[:, 7] = np.where(st != NONE, o["stake"] + st, 0)
        lt = self.last_trick[pick].reshape(-1).take(flat).reshape(k, n)  # by relative seat
        hot[:, 8:] = np.where(lt != NONE, o["last_trick"] + self._seats * (NUM_KINDS + 1) + lt, 0)
        hot += (np.arange(k) * D)[:, None]
        buf = np.zeros((k, D), dtype=np.float32)
        buf.reshape(-1)[hot.ravel()] = 1.0
        # ---- dense pieces
        a = o["hand"]
        hands = self.hands.reshape(-1, NUM_KINDS)
        _halve(hands.take(own, axis=0), buf[:, a : a + NUM_KINDS])
        well = self.well.reshape(-1)
        buf[:, o["well_in_hand"]] = well.take(own)
        buf[:, o["to_act"]] = self._to_act(lanes, seats, ph)
        a = o["trump"]
        buf[:, a : a + 4] = self.trump[pick]
        a = o["participants"]
        buf[:, a : a + n] = self.participants[pick].reshape(-1).take(flat).reshape(k, n)
        a = o["joiners"]
        buf[:, a : a + n] = self.joiners[pick].reshape(-1).take(flat).reshape(k, n)
        coll = self.collected[pick].reshape(-1, NUM_POINT_KINDS).take(flat, axis=0)
        a = o["collected"]
        _halve(coll.reshape(k, -1), buf[:, a : a + n * NUM_POINT_KINDS])
        a = o["vp"]
        vp = (coll.astype(np.float32) @ _POINT_VP32).astype(np.intp)  # exact: 60 VP at most
        buf[:, a : a + n] = _VP_SCALE.take(vp).reshape(k, n)
        a = o["altar"]
        _halve(self.altar[pick], buf[:, a : a + NUM_POINT_KINDS])
        a = o["discard"]
        _halve(self.discard[pick], buf[:, a : a + NUM_KINDS])
        sizes = _card_counts(self.hands[pick]) + self.well[pick] + (commits != NONE)
        a = o["hand_sizes"]
        buf[:, a : a + n] = _SIZE_SCALE.take(sizes.reshape(-1).take(flat)).reshape(k, n)
        buf[:, o["draw_pile"]] = _PILE_SCALE.take(self.draw_len[pick])
        a = o["reshuffled"]  # all 0 until a lane's first reshuffle (``start``, ``load``)
        _halve(self.resh_cards[pick], buf[:, a : a + NUM_KINDS])
        a = o["drawn_since"]
        drawn = self.drawn_since[pick].reshape(-1).take(flat).reshape(k, n)
        buf[:, a : a + n] = _DRAWN_SCALE.take(drawn)
        buf[:, o["altar_pile"]] = _ALTAR_PILE_SCALE.take(self.small_len[pick])
        a = o["holmgangs"]
        buf[:, a : a + NUM_HOLMGANGS] = _THERMO.take(self.holmgangs[pick], axis=0)
        a = o["age_rank"]
        buf[:, a : a + n] = self._age_scaled.take(order)
        sac = ph == PHASE_SACRIFICE
        if sac.any():
            a = o["to_sacrifice"]
            queue = self.queue[pick].reshape(-1).take(flat).reshape(k, n)
            buf[:, a : a + n] = queue & sac[:, None]
        return buf

    def _to_act(self, lanes, seats, ph) -> np.ndarray:
        own = lanes * self.n + seats
        commit = (
            (ph == PHASE_COMMIT)
            & self.participants.reshape(-1).take(own)
            & (self.commits.reshape(-1).take(own) == NONE)
        )
        ticket = (ph == PHASE_TICKET) & self.queue.reshape(-1).take(own)
        single = (ph != PHASE_COMMIT) & (ph != PHASE_TICKET) & (seats == self.cur.take(lanes))
        return commit | ticket | (single & (ph != PHASE_OVER))

    # ---- scalar states in ------------------------------------------------------------------------
    def load(self, lanes, states):
        for lane, s in zip(lanes.tolist(), states):
            n = self.n
            self.phase[lane] = s.phase
            self.cur[lane] = NONE if s.current_player is None else s.current_player
            self.hands[lane] = s.hands
            self.well[lane] = s.well
            self.draw_pile[lane] = 0
            self.draw_pile[lane, : len(s.draw)] = s.draw
            self.draw_len[lane] = len(s.draw)
            self.discard[lane] = s.discard
            self.small[lane] = 0
            self.small[lane, : len(s.small)] = s.small
            self.small_len[lane] = len(s.small)
            self.collected[lane] = s.collected
            self.altar[lane] = s.altar
            self.holmgangs[lane] = s.holmgangs
            self.round[lane] = s.round
            self.round_card[lane] = s.round_card
            self.point_on_table[lane] = s.point_on_table
            self.trump[lane] = s.trump
            self.participants[lane] = np.isin(np.arange(n), s.participants)
            self.commits[lane] = s.commits
            self.challenger[lane] = s.challenger
            self.target[lane] = s.target
            self.stake[lane] = s.stake
            self.joiners[lane] = np.isin(np.arange(n), s.joiners)
            self.tickets[lane] = np.isin(np.arange(n), s.tickets)
            self.queue[lane] = np.isin(np.arange(n), s.queue)
            self.last_trick[lane] = s.last_trick
            self.last_winner[lane] = s.last_winner
            cards = s.origins.reshuffled()
            self.resh[lane] = cards is not None
            self.resh_cards[lane] = 0 if cards is None else cards
            self.drawn_since[lane] = s.origins.drawn[-1]


def _halve(counts: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Card counts (0-2) / 2 as float32: the scalar's ``_HALF`` table entries, bit for bit (0.5
    times a small integer is exact), without a gather."""
    return np.multiply(counts, np.float32(0.5), out=out, dtype=np.float32)


def _card_counts(hands: np.ndarray) -> np.ndarray:
    """``(..., n)`` int8: the cards in each hand (counts per kind summed). ``einsum`` sums the
    int8 rows several times faster than ``sum(axis=-1, dtype=np.int8)``, with the same result."""
    return np.einsum("...k->...", hands)


def _kinds_at(cs: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """``(k, 52)`` int8: the card at each position ``pos`` (``(k, 52)``, 0-51) of each row's pile
    laid out in kind order (``cs``: its cumulative counts per kind, ``(k, 46)``); 46 past the last
    card. That is ``take_along_axis(sorted pile, pos)`` without building the sorted pile: the
    kind where the position first falls below the cumulative count, found by one flat
    ``searchsorted`` over the rows offset by 64 each (a pile never reaches 64 cards)."""
    k = len(cs)
    base = row_starts(k, 64)
    at = np.searchsorted((cs + base).ravel(), (pos + base).ravel(), side="right")
    return (at.reshape(k, DECK_SIZE) - row_starts(k, NUM_KINDS)).astype(np.int8)
