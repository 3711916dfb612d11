"""BigWig, batched: B games as struct-of-arrays numpy state, bit-exact with ``rules.py``.

Same options, action ids, masks and observation as ``BigWigGame`` (``rules.py`` is the
specification; ``tests/vector`` and tests/bigwig/test_batched.py replay random games in both and
compare every step). The state is ``FIELDS``, one row a lane (``n`` seats, 46 large-card kinds,
15 point kinds); the order seats are asked in is a rule, not state: a trick and the well draws go
youngest first then clockwise (``turn_order``), the ticket window goes in age order. The rules
that the heuristic's batched twin also needs (the trick, scores, draws) are ``kernels.py``'s.

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
    rotate,
    row_starts,
    seat_positions,
)
from ..core.batched_state import (
    Field,
    StateFields,
    length,
    none_as,
    padded,
    per_seat,
    seat_rows,
    seat_set,
)
from . import kernels as K
from .cards import (
    DECK_SIZE,
    HOLMGANG,
    KIND_COPIES,
    NUM_HOLMGANGS,
    NUM_KINDS,
    NUM_POINT_KINDS,
    NUM_SMALL_KINDS,
    POINT_TRUMP,
    SMALL_COPIES,
    SMALL_TOTAL,
    TIL_VALHALLAR,
    TOTAL_VP,
    WELL,
)
from .rules import (
    DEAL,
    HAND_LIMIT,
    JOIN,
    NONE,
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

_KINDS = np.arange(NUM_KINDS)
_DECK = np.repeat(_KINDS, KIND_COPIES).astype(np.int8)
_SMALL = np.repeat(np.arange(NUM_SMALL_KINDS), SMALL_COPIES).astype(np.int8)
# the scalar encoder's floats: VP / 60 and sizes / 9 (float64, cast); counts / 2: ``_halve``
_VP_SCALE = (np.arange(TOTAL_VP + 1) / TOTAL_VP).astype(np.float32)
_SIZE_SCALE = (np.arange(HAND_LIMIT + 1) / HAND_LIMIT).astype(np.float32)
_PILE_SCALE = float32_table(np.arange(DECK_SIZE + 1) / DECK_SIZE)
_DRAWN_SCALE = np.arange(DECK_SIZE + 1, dtype=np.float32) / DECK_SIZE  # float32 / int, as scalar
_ALTAR_PILE_SCALE = float32_table(np.arange(SMALL_TOTAL + 1) / SMALL_TOTAL)
_POS52 = np.arange(DECK_SIZE)
_THERMO = np.arange(NUM_HOLMGANGS) < np.arange(NUM_HOLMGANGS + 1)[:, None]  # holmgangs seen


def _reshuffled(s, n):
    cards = s.origins.reshuffled()
    return 0 if cards is None else cards


# The state, per lane (scope "round": cleared at each round's start too; see the module doc)
FIELDS = StateFields(
    Field("phase", np.int64, scope="fixed"),
    Field("cur", np.int64, scope="fixed", load=none_as(NONE, "current_player")),
    Field("hands", np.int8, ("n", NUM_KINDS), scope="fixed"),  # fixed: dealt by ``start``
    Field("well", bool, ("n",), True),
    Field("draw_pile", np.int8, (DECK_SIZE,), 0, "fixed", padded("draw")),  # bottom first
    Field("draw_len", np.int64, (), 0, "fixed", length("draw")),
    Field("discard", np.int8, (NUM_KINDS,)),
    Field("small", np.int8, (SMALL_TOTAL,), 0, "fixed", padded("small")),  # the altar pile
    Field("small_len", np.int64, (), SMALL_TOTAL, load=length("small")),
    Field("collected", np.int8, ("n", NUM_POINT_KINDS)),
    Field("altar", np.int8, (NUM_POINT_KINDS,)),
    Field("holmgangs", np.int64),
    Field("round", np.int64),
    Field("round_card", np.int64, (), NONE, "round"),
    Field("point_on_table", bool, (), False, "round"),
    Field("trump", bool, (4,), False, "round"),
    Field("participants", bool, ("n",), False, "round", seat_set("participants")),
    Field("commits", np.int64, ("n",), NONE, "round"),  # 46: the well
    Field("challenger", np.int64, (), NONE, "round"),
    Field("target", np.int64, (), NONE, "round"),
    Field("stake", np.int64, (), NONE, "round"),
    Field("joiners", bool, ("n",), False, "round", seat_set("joiners")),
    Field("tickets", bool, ("n",), False, "round", seat_set("tickets")),
    Field("queue", bool, ("n",), False, "round", seat_set("queue")),
    Field("last_trick", np.int64, ("n",), NONE),
    Field("last_winner", np.int64, (), NONE),
    # the part of the draw piles' public record (origins.py) that the observation shows: the
    # current pile's composition when it was reshuffled and what each seat drew from it since
    Field("resh", bool, load=lambda s, n: s.origins.reshuffled() is not None),
    Field("resh_cards", np.int8, (NUM_KINDS,), load=_reshuffled),
    Field("drawn_since", np.int64, ("n",), load=lambda s, n: s.origins.drawn[-1]),
)


class BigWigBatched(BatchedEngine):
    game_cls = BigWigGame
    simultaneous = True

    def __init__(self, game: BigWigGame, num_envs: int, rng: np.random.Generator):
        super().__init__(game, num_envs, rng)
        FIELDS.allocate(self)
        # the order rules (constants of the configuration)
        self._turn_order = np.array(game.turn_order)
        self._turn_rank = np.argsort(self._turn_order)  # seat -> position youngest-first clockwise
        self._age_rank = np.array(game.age_rank)
        self._age_scaled = game.age_rank_scaled
        self._layout = game.layout
        self._seats = np.arange(self.n)
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
        flat = seat_rows(seat_rows(np.arange(k)[:, None], seat, n), deck[:, -dealt:], NUM_KINDS)
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
        draws = [s.draw for s in states]
        if kind == "start":
            # the cards already revealed go back on top, last revealed lowest (list order)
            shown = [[] if s.round_card in (NONE, HOLMGANG) else [s.round_card] for s in states]
            small = [s.small + r + [HOLMGANG] * s.holmgangs for s, r in zip(states, shown)]
            return {
                "hands": np.array([s.hands for s in states]),
                "draw": _piles(draws, DECK_SIZE),
                "draw_len": np.array([len(d) for d in draws]),
                "small": _piles(small, SMALL_TOTAL),
            }
        if kind == "reshuffle":
            return {
                "hands_after": np.array([s.hands for s in states]),
                "rest": _piles(draws, DECK_SIZE),
                "rest_len": np.array([len(d) for d in draws]),
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
        FIELDS.reset(self, lanes)
        self.hands[lanes] = rec["hands"]
        self.draw_pile[lanes] = rec["draw"]
        self.draw_len[lanes] = rec["draw_len"]
        self.small[lanes] = rec["small"]
        self._start_round(lanes, cleared=True)

    # ---- round flow -----------------------------------------------------------------------------
    def _start_round(self, lanes, cleared: bool = False) -> None:
        """Reveal the next altar card: a point card starts a trick of every seat; a holmgang's
        challenger picks a target, unless nobody can be challenged (B25: the round is over).
        ``cleared``: the round's fields are at their reset values already (a new game)."""
        while len(lanes):
            if not cleared:
                FIELDS.reset(self, lanes, "round")
            cleared = False
            top = self.small_len[lanes] - 1
            card = _cells(self.small).take(seat_rows(lanes, top, SMALL_TOTAL)).astype(np.int64)
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
            c = K.challenger(K.vp(self.collected[hl]), self._age_rank)  # B24
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
        own = seat_rows(lanes, s, self.n)
        hand = per_seat(self.hands).take(own, axis=0) > 0
        commit = (ph == PHASE_COMMIT) & self._to_commit(own)
        np.logical_and(hand, commit[:, None], out=mask[:, :NUM_KINDS])
        mask[:, PLAY_WELL] = per_seat(self.well).take(own) & commit
        ticket = (ph == PHASE_TICKET) & per_seat(self.queue).take(own)
        mask[ticket, PASS] = True
        mask[ticket, JOIN] = hand[ticket, TIL_VALHALLAR]
        mine = (seats == self.cur[lanes]) & (seats >= 0)
        sac = mine & (ph == PHASE_SACRIFICE)
        np.logical_and(hand, sac[:, None], out=mask[:, SACRIFICE_BASE : SACRIFICE_BASE + NUM_KINDS])
        tgt = np.flatnonzero(mine & (ph == PHASE_TARGET))
        if len(tgt):
            has = self.collected[lanes[tgt]].any(axis=2)  # (t, n)
            mask[tgt, TARGET_BASE : TARGET_BASE + self.n - 1] = K.to_the_left(has, s[tgt])
        stk = np.flatnonzero(mine & (ph == PHASE_STAKE))
        b = self._stake_base
        mask[stk, b : b + NUM_POINT_KINDS] = self.collected[lanes[stk], self.target[lanes[stk]]] > 0
        return mask

    def _to_commit(self, own) -> np.ndarray:
        """Whether each (lane, seat) row plays the trick and has not committed yet."""
        return per_seat(self.participants).take(own) & (per_seat(self.commits).take(own) == NONE)

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
        own = seat_rows(lanes, p, self.n)
        wl = a == PLAY_WELL
        per_seat(self.well)[own[wl]] = False
        card = ~wl
        _cells(self.hands)[seat_rows(own[card], a[card], NUM_KINDS)] -= 1
        per_seat(self.commits)[own] = a
        rest = self.participants[lanes] & (self.commits[lanes] == NONE)
        more = rest.any(axis=1)
        self.cur[lanes[more]] = self._first(rest[more], self._turn_rank)
        self._resolve(lanes[~more])

    def _sacrifice(self, lanes, a) -> None:
        p = self.cur[lanes]
        k = a - SACRIFICE_BASE
        own = seat_rows(lanes, p, self.n)
        _cells(self.hands)[seat_rows(own, k, NUM_KINDS)] -= 1
        _cells(self.discard)[seat_rows(lanes, k, NUM_KINDS)] += 1
        self._draw(lanes, p, K.ENTITLE[k])
        per_seat(self.queue)[own] = False
        self._next_sacrifice(lanes)

    def _ticket(self, lanes, a) -> None:
        p = self.cur[lanes]
        own = seat_rows(lanes, p, self.n)
        per_seat(self.tickets)[own[a == JOIN]] = True
        per_seat(self.queue)[own] = False
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
        C = self.commits[lanes]
        card = self.participants[lanes] & (C >= 0) & (C != WELL)  # step 1
        kind = np.where(card, C, WELL)
        planes = np.ascontiguousarray(kind.T, dtype=np.int8)  # positions first (kernels.py)
        hits, active, valid = K.trick(planes, K.trump_bits(self.trump[lanes]))  # steps 1-6
        w = K.winner(hits)
        has_loki, loki_seat, takes_all = K.loki(planes, active, valid)
        self._award(lanes, w)
        # step 8 (B15): Loki takes all, or one blind pick, of the cards under the altar
        loki = has_loki & self.altar[lanes].any(axis=1)
        self._take_altar(lanes[loki & takes_all], loki_seat[loki & takes_all])
        one = loki & ~takes_all
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
        rc = self.round_card[lanes]
        point = rc != HOLMGANG
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
        self._take_altar(hl, hw_)

    def _take_altar(self, lanes, seats) -> None:
        self.collected[lanes, seats] += self.altar[lanes]
        self.altar[lanes] = 0

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
            holds = per_seat(self.hands).take(seat_rows(lanes, p, n), axis=0).any(axis=1)
            self.phase[lanes[holds]] = PHASE_SACRIFICE
            self.cur[lanes[holds]] = p[holds]
            lanes, p = lanes[~holds], p[~holds]
            self._draw(lanes, p, np.full(len(lanes), 2))
            per_seat(self.queue)[seat_rows(lanes, p, n)] = False
        done = done[0] if len(done) == 1 else np.concatenate(done)
        self._start_round(self._finish_round(done))

    def _draw(self, lanes, p, entitlement) -> None:
        """Draw the entitlement, capped by the hand limit (B21); an empty draw pile is refilled
        from the shuffled discard pile (B23), unless that is empty too: no more cards."""
        if not len(lanes):
            return
        row = seat_rows(lanes, p, self.n)
        size = K.hand_sizes(per_seat(self.hands).take(row, axis=0), per_seat(self.well).take(row))
        count = K.draws_allowed(entitlement, size)
        hands, pile, drawn = _cells(self.hands), _cells(self.draw_pile), per_seat(self.drawn_since)
        for j in range(int(count.max(initial=0))):
            go = count > j
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
            hands[seat_rows(row, pile.take(seat_rows(lanes, top, DECK_SIZE)), NUM_KINDS)] += 1
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
        return K.vp(self.collected if lanes is None else self.collected[lanes])

    def winners(self, lanes):
        """Most VP; ties: most cards in hand (the well included); still tied: shared (B33)."""
        return K.winners(self.scores(lanes), K.hand_sizes(self.hands[lanes], self.well[lanes]))

    # ---- the observation -------------------------------------------------------------------------
    def observe(self, seats, lanes=None):
        """Each lane's observation by ``seats``, as ``encoding.py`` writes it: the one-hot entries
        of every lane scattered by one flat assignment (cells of the whole row, from
        ``layout.offset``; an absent one points at cell 0, the first hand entry, which the dense
        pieces overwrite afterwards), then the dense pieces by name, per-seat values rotated to
        the observer's order by flat ``take`` and the scalar's float tables."""
        n, off = self.n, self._layout.offset
        pick = Ellipsis if lanes is None else lanes
        if lanes is None:
            lanes = self.all
        seats = np.asarray(seats, dtype=np.int64)
        k = len(seats)
        order = relative_seats(seats, n)  # relative position -> absolute seat
        flat = flat_order(order)
        rows = np.arange(k)
        rel = per_seat(seat_positions(seats, n))  # absolute seat s -> relative, at row (i, s)
        own = seat_rows(lanes, seats, n)
        ph, cur = self.phase[pick], self.cur[pick]
        # ---- one-hot entries
        hot = np.zeros((k, 8 + n), dtype=np.int64)
        mine = per_seat(self.commits).take(own)
        hot[:, 0] = np.where(mine != NONE, off("my_commit") + mine, 0)
        hot[:, 1] = np.where(ph != PHASE_OVER, off("phase") + ph, 0)
        shown = (ph == PHASE_TARGET) | (ph == PHASE_STAKE) | (ph == PHASE_SACRIFICE)
        cur_rel = rel.take(seat_rows(rows, np.maximum(cur, 0), n))
        hot[:, 2] = np.where(shown, off("current_player") + cur_rel, 0)
        rc = self.round_card[pick]
        hot[:, 3] = np.where(rc != NONE, off("round_card") + rc, 0)
        for j, name in enumerate(("challenger", "target", "last_winner"), start=4):
            s = getattr(self, name)[pick]
            at = rel.take(seat_rows(rows, np.maximum(s, 0), n))
            hot[:, j] = np.where(s != NONE, off(name) + at, 0)
        st = self.stake[pick]
        hot[:, 7] = np.where(st != NONE, off("stake") + st, 0)
        lt = rotate(self.last_trick[pick], flat)  # by relative seat
        hot[:, 8:] = np.where(lt != NONE, off("last_trick") + self._seats * (WELL + 1) + lt, 0)
        hot += row_starts(k, self.obs_dim)
        buf, v = self._layout.batch(k)
        _cells(buf)[hot.ravel()] = 1.0
        # ---- dense pieces
        _halve(per_seat(self.hands).take(own, axis=0), v["hand"])
        v["well_in_hand"][:, 0] = per_seat(self.well).take(own)
        v["to_act"][:, 0] = self._to_act(lanes, seats, ph, own)
        v["trump"][:] = self.trump[pick]
        v["participants"][:] = rotate(self.participants[pick], flat)
        v["joiners"][:] = rotate(self.joiners[pick], flat)
        coll = rotate(self.collected[pick], flat)
        _halve(coll, v["collected"])
        v["vp"][:] = _VP_SCALE.take(K.vp(coll))
        _halve(self.altar[pick], v["altar"])
        _halve(self.discard[pick], v["discard"])
        sizes = K.hand_sizes(self.hands[pick], self.well[pick], self.commits[pick])
        v["hand_sizes"][:] = _SIZE_SCALE.take(rotate(sizes, flat))
        v["draw_pile"][:, 0] = _PILE_SCALE.take(self.draw_len[pick])
        _halve(self.resh_cards[pick], v["reshuffled"])  # all 0 until a lane's first reshuffle
        v["drawn_since"][:] = _DRAWN_SCALE.take(rotate(self.drawn_since[pick], flat))
        v["altar_pile"][:, 0] = _ALTAR_PILE_SCALE.take(self.small_len[pick])
        v["holmgangs"][:] = _THERMO.take(self.holmgangs[pick], axis=0)
        v["age_rank"][:] = self._age_scaled.take(order)
        sac = ph == PHASE_SACRIFICE
        if sac.any():
            v["to_sacrifice"][:] = rotate(self.queue[pick], flat) & sac[:, None]
        return buf

    def _to_act(self, lanes, seats, ph, own) -> np.ndarray:
        commit = (ph == PHASE_COMMIT) & self._to_commit(own)
        ticket = (ph == PHASE_TICKET) & per_seat(self.queue).take(own)
        single = (ph != PHASE_COMMIT) & (ph != PHASE_TICKET) & (seats == self.cur.take(lanes))
        return commit | ticket | (single & (ph != PHASE_OVER))

    # ---- scalar states in ------------------------------------------------------------------------
    def load(self, lanes, states):
        for lane, s in zip(lanes.tolist(), states):
            FIELDS.load(self, lane, s)


def _halve(counts: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Card counts (0-2) / 2 as float32: the scalar's ``_HALF`` table entries, bit for bit (0.5
    times a small integer is exact), without a gather."""
    return np.multiply(counts, np.float32(0.5), out=out, dtype=np.float32)


def _cells(arr: np.ndarray) -> np.ndarray:
    """Every cell of ``arr`` as one flat view, indexed by ``seat_rows(rows, column, width)`` of
    its ``(rows, width)`` form: a flat write is several times cheaper than numpy's two-array
    fancy indexing, and these run every step."""
    return arr.reshape(-1)


def _piles(piles: list[list[int]], width: int) -> np.ndarray:
    """Piles (lists, bottom first) as the rows of a zeroed ``(k, width)`` int8 array."""
    out = np.zeros((len(piles), width), dtype=np.int8)
    for row, pile in zip(out, piles):
        row[: len(pile)] = pile
    return out


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
