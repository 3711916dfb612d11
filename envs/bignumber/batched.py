"""Big Number, batched: B games as struct-of-arrays numpy state, bit-exact with ``rules.py``.

Same options, action ids and observation as ``BigNumberGame`` (``rules.py`` is the
specification; ``tests/vector/test_differential.py`` replays random games in both and compares
every step). The state is declared once (``FIELDS``); the rules the heuristic's batched twin
shares, the legal plays, what beats what and the scoring, are array kernels (``kernels.py``):

* one deck (one action a set): ``kernels.legal_sets``, the sets each hand holds that may be
  played now, read from tables of its pattern in each suit and rank;
* two decks (a play chosen card by card, biggest first): card x may be added when some legal
  play starts with the selection followed by x; ``kernels.plays`` lists the plays that extend
  the selection, and each adds its top card beyond the selection, or is the selection (finish).

Chance: a deal is ``{"hands": (k, n, 36) int8}`` (plus ``"start"``, deal 1's start seat, for a
new game), drawn from the batch generator or copied from scalar states.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from ..core.batched import BatchedEngine, flat_order, float32_table, relative_seats, rotate
from ..core.batched_state import Field, StateFields, length, none_as, per_seat, seat_rows
from . import kernels as K
from .actions import ADD_BASE, ANSWER, FINISH, LEAD, OVER, PASS, PICK, PICK_BASE, PLAY_BASE
from .cards import HAND_SIZE, NUM_TYPES, counts_of, play_value
from .encoding import COUNT_PIECES
from .rules import BigNumberGame


def _of(attr, f):
    """A loader: ``f`` of the scalar state's ``attr``."""
    return lambda s, n: f(getattr(s, attr))


#: the middle set, its size, value and owner, the passes since it was played (cleared together)
MIDDLE = StateFields(
    Field("middle", np.int8, (NUM_TYPES,), scope="round", load=_of("middle", counts_of)),
    Field("msize", np.int64, (), scope="round", load=length("middle")),
    Field("mvalue", np.int64, (), scope="round", load=_of("middle", play_value)),
    Field("owner", np.int64, (), -1, scope="round", load=none_as(-1, "owner")),
    Field("passes", np.int64, (), scope="round"),
)
#: the selection being built (two decks) or the set that beat the middle (pick-up), cleared together
PENDING = StateFields(
    Field("pending", np.int8, (NUM_TYPES,), scope="round", load=_of("pending", counts_of)),
    Field("psize", np.int64, (), scope="round", load=length("pending")),
    Field("pvalue", np.int64, (), scope="round", load=_of("pending", play_value)),
)
FIELDS = StateFields(
    Field("phase", np.int64, (), LEAD, scope="round"),
    Field("cur", np.int64, (), scope="fixed", load=none_as(-1, "current_player")),
    Field("hands", np.int8, ("n", NUM_TYPES), scope="fixed"),  # dealt
    Field("known", np.int8, ("n", NUM_TYPES), scope="round"),
    Field("hsize", np.int64, ("n",), HAND_SIZE, "round", _of("hands", lambda h: list(map(sum, h)))),
    Field("out", np.int8, (NUM_TYPES,), scope="round"),
    *MIDDLE.fields,
    *PENDING.fields,
    # the selection's first and last card, all one suit, all one rank (set as it starts)
    Field("pfirst", np.int64, (), scope="fixed", load=_of("pending", lambda p: p[0] if p else 0)),
    Field("plast", np.int64, (), scope="fixed", load=_of("pending", lambda p: p[-1] if p else 0)),
    Field("psuit", bool, (), False, "fixed", _of("pending", lambda p: len({*K.SUIT[[*p]]}) == 1)),
    Field("prank", bool, (), False, "fixed", _of("pending", lambda p: len({*K.RANK[[*p]]}) == 1)),
    Field("deal", np.int64),
    Field("deal_start", np.int64, (), scope="fixed"),
    Field("points", np.int64, ("n",), load="scores_"),
)


class BigNumberBatched(BatchedEngine):
    game_cls = BigNumberGame
    # The small variants (N16) change the deck, the hand and the one-deck play table, which the
    # kernels' pattern tables are built for once; they play on scalar lanes instead.
    UNSUPPORTED: ClassVar[dict[str, str]] = {
        "ranks": "a variant's deck of fewer ranks (N16) plays on the scalar engine",
        "hand_size": "a variant's smaller hands (N16) plays on the scalar engine",
    }

    def __init__(self, game: BigNumberGame, num_envs: int, rng: np.random.Generator):
        super().__init__(game, num_envs, rng)
        FIELDS.allocate(self)
        self.two = game.two_decks
        self.copies = game.copies
        self._deck = np.repeat(K.TYPES, self.copies)
        self._size_tab = float32_table([s / HAND_SIZE for s in range(NUM_TYPES * 2 + 1)])

    def held(self, lanes: np.ndarray) -> np.ndarray:
        """``(k, 36)`` int8: the hand of the player to act in each of ``lanes``."""
        return per_seat(self.hands).take(seat_rows(lanes, self.cur[lanes], self.n), axis=0)

    def plays(self, lanes: np.ndarray):
        """``kernels.plays`` of the player to act in each of ``lanes`` (two decks: the legal plays
        that extend the selection), ``(row, cand)``."""
        return K.plays(
            self.held(lanes), self.pending[lanes], self.msize[lanes], self.mvalue[lanes],
            self.pfirst[lanes], self.plast[lanes], self.psuit[lanes], self.prank[lanes],
            self.copies,
        )  # fmt: skip

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
        FIELDS.reset(self, lanes)
        self.deal_start[lanes] = rec["start"]
        self._deal(lanes, rec)

    def _deal(self, lanes, rec) -> None:
        """A new deal (the round's fields already reset): the hands, the start seat leads."""
        self.hands[lanes] = rec["hands"]
        self.cur[lanes] = self.deal_start[lanes]

    # ---- the mask --------------------------------------------------------------------------------
    def legal_mask(self):
        mask = np.zeros((self.B, self.num_actions), dtype=bool)
        pick = np.flatnonzero(self.phase == PICK)
        mask[pick, PICK_BASE : PICK_BASE + NUM_TYPES] = self.middle[pick] > 0
        lanes = np.flatnonzero(self.phase <= ANSWER)
        m = self.msize[lanes]
        if self.two:
            row, cand = self.plays(lanes)
            top = K.highest(cand - self.pending[lanes[row]])  # -1: the selection itself
            mask[lanes[row], np.where(top >= 0, ADD_BASE + top, FINISH)] = True
        else:
            singles, row, ids = K.legal_sets(self.held(lanes), m, self.mvalue[lanes])
            mask[lanes, PLAY_BASE : PLAY_BASE + NUM_TYPES] = singles
            mask[lanes[row], PLAY_BASE + ids] = True
        mask[lanes[(m > 0) & (self.psize[lanes] == 0)], PASS] = True  # an answer not started
        return mask

    # ---- moves -----------------------------------------------------------------------------------
    def apply(self, lanes, actions):
        pick = self.phase[lanes] == PICK
        if pick.any():
            self._pick(lanes[pick], actions[pick] - PICK_BASE)
        passing = ~pick & (actions == PASS)
        if passing.any():
            self._pass(lanes[passing])
        rest = ~pick & ~passing
        lanes, actions = lanes[rest], actions[rest]
        if not self.two:
            ids = actions - PLAY_BASE
            self._play(lanes, K.SET_COUNTS.take(ids, axis=0), K.SET_SIZE[ids], K.SET_VALUE[ids])
            return
        add = actions < FINISH
        self._add(lanes[add], actions[add] - ADD_BASE)
        done = lanes[~add]
        self._play(done, self.pending[done], self.psize[done], self.pvalue[done])

    def _add(self, lanes, card) -> None:
        fresh = self.psize[lanes] == 0
        self.pfirst[lanes[fresh]] = card[fresh]
        first = self.pfirst[lanes]
        self.psuit[lanes] = (fresh | self.psuit[lanes]) & (K.SUIT[card] == K.SUIT[first])
        self.prank[lanes] = (fresh | self.prank[lanes]) & (K.RANK[card] == K.RANK[first])
        self.pending[lanes, card] += 1
        self.psize[lanes] += 1
        self.pvalue[lanes] = self.pvalue[lanes] * 10 + K.RANK[card]
        self.plast[lanes] = card

    def _play(self, lanes, cards, size, value) -> None:
        """``lanes``' players play ``cards`` (counts, fresh arrays) of ``size`` worth ``value``."""
        if not len(lanes):
            return
        PENDING.reset(self, lanes)
        c = self.cur[lanes]
        rows = seat_rows(lanes, c, self.n)
        hands, known, hsize = per_seat(self.hands), per_seat(self.known), per_seat(self.hsize)
        hands[rows] = hands.take(rows, axis=0) - cards
        hsize[rows] -= size
        # a played copy lowers the known count by the copies played, never below zero (N-D1)
        known[rows] = np.maximum(known.take(rows, axis=0) - cards, 0)
        out = hsize[rows] == 0  # N9 / N12: the deal ends at once, no pick-up
        if out.any():
            gone = lanes[out]
            self.out[gone] += self.middle[gone] + cards[out]
            MIDDLE.reset(self, gone)
            self._end_deal(gone, c[out])
        lead = ~out & (self.phase[lanes] == LEAD)
        if lead.any():
            self._to_middle(lanes[lead], cards[lead], size[lead], value[lead], c[lead])
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
        rows = seat_rows(lanes, c, self.n)
        per_seat(self.hands)[rows, card] += 1
        per_seat(self.hsize)[rows] += 1
        per_seat(self.known)[rows, card] += 1
        self.middle[lanes, card] -= 1
        self.out[lanes] += self.middle[lanes]  # N8: the rest goes out of play
        self._to_middle(lanes, self.pending[lanes], self.psize[lanes], self.pvalue[lanes], c)
        PENDING.reset(self, lanes)

    def _to_middle(self, lanes, cards, size, value, owner) -> None:
        """``owner``'s set becomes the middle; the next seat answers it."""
        self.middle[lanes], self.msize[lanes], self.mvalue[lanes] = cards, size, value
        self.owner[lanes], self.passes[lanes], self.phase[lanes] = owner, 0, ANSWER
        self.cur[lanes] = (owner + 1) % self.n

    def _pass(self, lanes) -> None:
        passes = self.passes[lanes] + 1
        self.passes[lanes] = passes
        end = passes == self.n - 1  # N11: all others passed in a row
        ended = lanes[end]
        self.out[ended] += self.middle[ended]
        self.cur[ended] = self.owner[ended]
        MIDDLE.reset(self, ended)
        self.phase[ended] = LEAD
        going = lanes[~end]
        self.cur[going] = (self.cur[going] + 1) % self.n

    def _end_deal(self, lanes, finisher) -> None:
        self.points[lanes] += K.penalties(self.hsize[lanes], finisher)
        g = self.game
        over = g.single_deal | (self.points[lanes].max(axis=1) >= g.target)  # N13
        end = lanes[over]
        self.phase[end] = OVER
        self.cur[end] = -1
        more = lanes[~over]
        if len(more):
            self.deal[more] += 1
            self.deal_start[more] = (self.deal_start[more] + 1) % self.n  # N4
            rec = self.draw("deal", more)
            FIELDS.reset(self, more, "round")
            self._deal(more, rec)

    # ---- results ---------------------------------------------------------------------------------
    def scores(self, lanes=None):
        return self.points.copy() if lanes is None else self.points[lanes]

    def winners(self, lanes):
        p = self.points[lanes]
        return p == p.min(axis=1, keepdims=True)

    # ---- the observation -------------------------------------------------------------------------
    def observe(self, seats, lanes=None):
        n, g = self.n, self.game
        pick = Ellipsis if lanes is None else lanes
        if lanes is None:
            lanes = self.all
        flat = flat_order(relative_seats(seats, n))
        cur, phase, pending = self.cur[pick], self.phase[pick], self.pending[pick]
        buf, v = g.layout.batch(len(seats))
        v["hand"][:] = per_seat(self.hands).take(seat_rows(lanes, seats, n), axis=0)
        if self.two:
            building = (phase <= ANSWER) & (seats == cur)
            v["selection"][:] = np.where(building[:, None], pending, 0)
        v["played"][:] = np.where((phase == PICK)[:, None], pending, 0)
        v["middle"][:] = self.middle[pick]
        v["out_of_play"][:] = self.out[pick]
        v["known"][:] = rotate(self.known[pick], flat)
        if self.copies > 1:  # two decks
            for name in COUNT_PIECES:
                v[name] *= 1.0 / self.copies
        v["hand_sizes"][:] = self._size_tab[rotate(self.hsize[pick], flat)]
        v["scores"][:] = np.minimum(rotate(self.points[pick], flat) / g.max_score, 1.0)
        v["deal"][:, 0] = np.minimum(self.deal[pick] / max(g.max_deals - 1, 1), 1.0)
        owner, msize, live = self.owner[pick], self.msize[pick], cur >= 0
        step = np.arange(1, n)
        K.set_ones(
            buf,
            g.layout,
            ("middle_size", msize - 1, msize > 0),
            ("middle_owner", (owner - seats) % n, msize > 0),
            ("current_player", (cur - seats) % n, live),
            ("phase", phase, live),
            ("deal_start", (self.deal_start[pick] - seats) % n, ...),
            (
                "passed",
                (owner[:, None] + step - seats[:, None]) % n,
                (owner >= 0)[:, None] & (step[None, :] <= self.passes[pick][:, None]),
            ),
        )
        return buf

    # ---- scalar states in ------------------------------------------------------------------------
    def load(self, lanes, states):
        for lane, s in zip(lanes.tolist(), states):
            FIELDS.load(self, lane, s)
