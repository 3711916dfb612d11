"""Go Big, batched: B games as struct-of-arrays numpy state, bit-exact with ``rules.py``.

Same options, action ids and observation as ``GoBigGame`` (``rules.py`` is the specification;
``tests/vector`` replays random games in both and compares every step); the rules this engine
shares with the heuristic's twin are array kernels (``kernels.py``). The state is declared once
(``state_fields``): ``deck`` is the scalar deck list (bottom first, ``top`` cards left),
``dval``/``dsize`` the displays and ``market`` the slots (0: none), ``known`` ruling X7's cards.
The observation is written as raw counts and divided by the scalar layout's per-entry divisors,
as ``GoBigState.observe`` does, so every float is the same.

Chance: the shuffle and the start seat, a record ``{"deck", "top", "hands", "market", "start"}``
of the position right after the deal, drawn from the batch generator or copied from scalar
states (``record_from_states``).
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from ..core.batched import BatchedEngine, flat_order, relative_seats, rotate, seat_positions
from ..core.batched_state import (
    Field,
    StateFields,
    length,
    none_as,
    padded,
    per_seat,
    seat_rows,
    seat_take,
)
from . import kernels as K
from .actions import DRAW_DECK, NUM_PLAYS, PHASE_DRAW, PHASE_OVER, PHASE_PLAY
from .cards import MARKET_SIZE, VALUES
from .rules import GoBigGame


def _display(i: int):
    """A loader: each seat's display value (``i`` 0) or size (1), 0 for none."""
    return lambda s, n: [0 if d is None else d[i] for d in s.displays]


def state_fields(total: int) -> StateFields:
    """The engine's state for a deck of ``total`` cards (a variant's is smaller). The dealt
    fields are "fixed": a new game sets them from its deal (``start``)."""
    return StateFields(
        Field("cur", np.int64, (), scope="fixed", load=none_as(-1, "current_player")),
        Field("phase", np.int64, (), PHASE_PLAY),
        Field("hands", np.int8, ("n", VALUES), scope="fixed"),
        Field("hsize", np.int64, ("n",), scope="fixed", load=lambda s, n: s.hands.sum(axis=1)),
        Field("banks", np.int8, ("n", VALUES)),
        Field("known", np.int8, ("n", VALUES)),
        Field("box", np.int8, (VALUES,)),
        Field("dval", np.int64, ("n",), load=_display(0)),
        Field("dsize", np.int64, ("n",), load=_display(1)),
        Field("deck", np.int8, (total,), scope="fixed", load=padded("deck")),
        Field("top", np.int64, (), scope="fixed", load=length("deck")),
        Field("market", np.int8, (MARKET_SIZE,), scope="fixed", load=padded("market")),
    )


class GoBigBatched(BatchedEngine):
    game_cls = GoBigGame

    def __init__(self, game: GoBigGame, num_envs: int, rng: np.random.Generator):
        super().__init__(game, num_envs, rng)
        self.total = game.total_cards
        self._state = state_fields(self.total)
        self._state.allocate(self)
        self._deck = np.repeat(np.arange(1, game.values + 1), game.copies).astype(np.int8)
        self._literal = game.options["end_rule"] == "literal"
        self._layout, self._div = game.layout, game.obs_div

    # ---- chance ----------------------------------------------------------------------------------
    def draw_random(self, kind, lanes):
        k = len(lanes)
        deck = self.rng.permuted(np.broadcast_to(self._deck, (k, self.total)), axis=1)
        sp = self.game.options["start_player"]
        start = self.rng.integers(self.n, size=k) if sp is None else np.full(k, sp, np.int64)
        rec = dict(zip(("hands", "market", "top"), K.deal(deck, self.n, self.game.hand_size)))
        return {**rec, "deck": deck, "start": start}

    def record_from_states(self, kind, states):
        # the dealt fields as ``load`` reads them; a new game's player to act is its start seat
        rec = SimpleNamespace(B=len(states), n=self.n)
        self._state.allocate(rec)
        for i, s in enumerate(states):
            self._state.load(rec, i, s)
        return dict(vars(rec), start=rec.cur)

    def start(self, lanes):
        rec = self.draw("start", lanes)
        self._state.reset(self, lanes)
        for key in ("deck", "top", "hands", "market"):
            getattr(self, key)[lanes] = rec[key]
        self.hsize[lanes] = rec["hands"].sum(axis=2)
        self.cur[lanes] = rec["start"]

    def load(self, lanes, states):
        for lane, s in zip(lanes.tolist(), states):
            self._state.load(self, lane, s)

    # ---- the mask --------------------------------------------------------------------------------
    def legal_mask(self):
        mask = np.zeros((self.B, self.num_actions), dtype=bool)
        plays = K.play_mask(seat_take(self.hands, self.all, self.cur))
        plays &= (self.phase == PHASE_PLAY)[:, None, None]
        mask[:, :NUM_PLAYS] = plays.reshape(self.B, NUM_PLAYS)
        mask[self.phase == PHASE_DRAW, NUM_PLAYS:] = True
        return mask

    # ---- moves -----------------------------------------------------------------------------------
    def apply(self, lanes, actions):
        play = self.phase[lanes] == PHASE_PLAY
        if not play.all():
            draw, deck = lanes[~play], actions[~play] == DRAW_DECK
            self._draw_deck(draw[deck])
            self._take_market(draw[~deck])
            self._next_turn(draw)
            lanes, actions = lanes[play], actions[play]
        if len(lanes):
            self._play(lanes, actions)

    def _play(self, lanes, action) -> None:
        c = self.cur[lanes]
        size, v = K.PLAY_SIZE[action], K.PLAY_VALUE[action]
        rows = seat_rows(lanes, c, self.n)
        cells = K.value_cells(rows, v)
        hands, known, hsize = self.hands.reshape(-1), self.known.reshape(-1), per_seat(self.hsize)
        hands[cells] -= size
        hsize[rows] -= size
        known[cells] = np.maximum(known[cells] - size, 0)  # X7: never below zero
        dval, dsize = self.dval[lanes], self.dsize[lanes]
        beat, nearest = K.beaten(dval, dsize, c, v, size)  # ruling G6
        self.box[lanes, np.minimum(nearest, VALUES) - 1] += beat.sum(axis=1) * size  # 0: none
        self.dval[lanes], self.dsize[lanes] = np.where(beat, 0, dval), np.where(beat, 0, dsize)
        per_seat(self.dval)[rows], per_seat(self.dsize)[rows] = v, size
        deck, market = self.top[lanes], self.market[lanes, 0]
        over = K.play_ends(hsize[rows], deck, market, self._literal)
        self._end(lanes[over])
        go, deck, market = ~over, deck > 0, market > 0
        self.phase[lanes[go & deck & market]] = PHASE_DRAW
        self._draw_deck(lanes[go & deck & ~market])
        self._take_market(lanes[go & market & ~deck])
        self._next_turn(lanes[go & ~(deck & market)])

    def _top2(self, lanes) -> np.ndarray:
        """``(k, 2)``: the deck's top two cards in each lane (0 where it runs out), taken."""
        top = self.top[lanes]
        at = top[:, None] - 1 - np.arange(2)
        self.top[lanes] = np.maximum(top - 2, 0)
        return np.where(at >= 0, self.deck[lanes[:, None], at], 0)

    def _give(self, lanes, cards, known: bool = False) -> None:
        """Cards ``(k, 2)`` (values, 0: none) to the player to act in each lane, known to all if
        ``known`` (X7)."""
        rows = seat_rows(lanes, self.cur[lanes], self.n)
        per_seat(self.hsize)[rows] += (cards > 0).sum(axis=1)
        for col in cards.T:  # one at a time: a lane's two cards may be of one value
            cells = K.value_cells(rows[col > 0], col[col > 0])
            self.hands.reshape(-1)[cells] += 1
            if known:
                self.known.reshape(-1)[cells] += 1

    def _draw_deck(self, lanes) -> None:
        self._give(lanes, self._top2(lanes))

    def _take_market(self, lanes) -> None:
        self._give(lanes, self.market[lanes], known=True)
        self.market[lanes] = self._top2(lanes)  # refilled at once from the deck

    def _next_turn(self, lanes) -> None:
        """The next seat's turn: its display banked (the game ends only after a play:
        ``play_ends``, ruling G10)."""
        nxt = (self.cur[lanes] + 1) % self.n
        self._bank(seat_rows(lanes, nxt, self.n))
        self.cur[lanes] = nxt
        self.phase[lanes] = PHASE_PLAY

    def _bank(self, rows) -> None:
        """The displays of seat rows (distinct) banked."""
        dval, dsize = per_seat(self.dval), per_seat(self.dsize)
        rows = rows[dval[rows] > 0]
        self.banks.reshape(-1)[K.value_cells(rows, dval[rows])] += dsize[rows]
        dval[rows] = dsize[rows] = 0

    def _end(self, lanes) -> None:
        """Hands discarded, every display banked (ruling G11)."""
        self._bank(seat_rows(lanes[:, None], np.arange(self.n), self.n).ravel())
        self.cur[lanes] = -1
        self.phase[lanes] = PHASE_OVER

    # ---- results ---------------------------------------------------------------------------------
    def scores(self, lanes=None):
        return K.scores(self.banks if lanes is None else self.banks[lanes])

    def winners(self, lanes):
        return K.winners(self.banks[lanes])

    # ---- the observation -------------------------------------------------------------------------
    def observe(self, seats, lanes=None):
        n, L = self.n, self._layout
        pick = Ellipsis if lanes is None else lanes
        lanes = self.all if lanes is None else lanes
        k = len(seats)
        flat = flat_order(relative_seats(seats, n))
        rel = seat_positions(seats, n)
        cur, phase = self.cur[pick], self.phase[pick]
        dval, dsize = self.dval[pick], self.dsize[pick]
        market = self.market[pick].astype(np.int64)
        # the one-hot cells of each row; a cell that is not set points at the first hand entry,
        # which the hand overwrites below
        shown, live, sold = dval > 0, cur >= 0, market > 0
        hot = np.zeros((k, 2 * n + 4), dtype=np.int64)
        hot[:, :n] = np.where(shown, L.offset("display_value") + rel * VALUES + dval - 1, 0)
        hot[:, n : 2 * n] = np.where(shown, L.offset("display_size") + rel * 3 + dsize - 1, 0)
        hot[:, 2 * n] = np.where(live, L.offset("current_player") + (cur - seats) % n, 0)
        hot[:, 2 * n + 1] = np.where(live, L.offset("phase") + phase, 0)
        hot[:, 2 * n + 2 :] = np.where(sold, L.offset("market") + market - 1, 0)
        hot += np.arange(k)[:, None] * L.size
        buf, v = L.batch(k)
        cells = buf.reshape(-1)
        cells[hot[:, : 2 * n + 3].ravel()] = 1.0
        cells[hot[:, -1]] += 1.0  # a second market card of the same value counts 2
        v["hand"] = seat_take(self.hands, lanes, seats)
        v["hand_sizes"] = rotate(self.hsize[pick], flat)
        v["banks"] = rotate(self.banks[pick], flat)
        v["known"] = rotate(self.known[pick], flat)
        v["box"] = self.box[pick]
        v["deck_size"] = self.top[pick][:, None]
        buf /= self._div
        return buf
