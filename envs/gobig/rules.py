"""Go Big rules engine (pure Python + numpy; no PettingZoo import).

The rules as implemented, every ruling (G1-G15 and the cross-game X rulings) with its reason,
and the layouts are in docs/rules/gobig.md.

This module holds the game (options, layouts, bounds) and the state's moves (the deal,
``legal_mask``/``is_legal``, ``_apply``, the end and the results, ``clone``). The rest are modules
of functions of the state, none of which imports this one: cards.py (the card counts), actions.py
(action ids, phases, the play encoding), and, found by name (envs/core/game.py,
``FUNCTION_MODULES``), encoding.py (``view``, ``observe``), global_state.py, determinize.py,
invariants.py, text.py (``action_name``, ``render``, ``render_view``) and saved.py (``to_dict``,
``from_dict``, ``check_state``). batched.py and kernels.py are the batched engine.

Summary. 2-6 players, 91 cards (13 each of 1-7), 6 dealt each, a face-up market of 2. A turn:
(1) bank your display, if any (automatic); (2) play 1-3 equal cards from hand as your new display
(mandatory); it beats every other display of the same size at the *nearest* higher value, which
goes to the box; (3) draw 2 from the deck or take the whole market (refilled at once); skipped
when both are empty. Score = sum of banked values; ties go to most banked cards, then share.

Options
    end_rule     "after_draw" (default, ruling G10): the game ends when, after the draw step,
                 the active player holds no cards. "literal": it ends the moment a play empties a
                 hand (no draw, no further turns).
    start_player None (default: a seeded chance draw, ruling G3) or a seat 0..N-1.
    values       2-7 (default 7): the deck holds the values 1..values only. A variant (G16).
    copies       1-13 (default 13): copies of each value in the deck. A variant (G16).
    hand_size    1-6 (default 6): cards dealt to each player. A variant (G16).
    A variant keeps every rule, every action id and the observation's layout: the values it
    leaves out are never dealt, so their actions are never legal (envs/variants.py names the
    small ones).

Actions (23 ids)
    0-20   play a set: id = (size - 1) * 7 + (value - 1), size 1-3, value 1-7
    21     draw the top 2 (or 1) cards of the deck
    22     take the whole market (it is refilled from the deck at once)
    The draw decision is asked only when both sources have cards; with one source the draw is
    automatic (ruling X6: a choice of one is no choice), with none it is skipped (G8).

Observation (float32, all entries in [0, 1]); seats are relative: index 0 is the observer, then
clockwise. See ``game.layout`` / docs/rules/gobig.md for the index table.

Global state (``env.state()``, float32 in [0, 1], absolute seats; ``game.state_layout``): the
observation's pieces as seat 0 sees them except its ``hand``, then ``hands`` (every seat's),
``deck`` (count of each value) and ``deck_next`` (the next 12 deck cards in order, top first: the
deck is the future; deeper cards only by their counts). See global_state.py.

Rewards: win (default), score (banked points centred, /50), dense (banked points as they are
banked, /50).

Version history: v0 - first release.
"""

from __future__ import annotations

import numpy as np

from ..core.errors import ConfigError
from ..core.game import Game, State, copy_rng
from ..core.options import Option, int_option

# The card counts (cards.py), action ids and phases (actions.py) and the global state's deck
# window (global_state.py) were defined here before the engine was split by what it does;
# importing them from rules.py keeps working.
from .actions import (
    DRAW_DECK,
    NUM_ACTIONS,
    NUM_PLAYS,
    PHASE_DRAW,
    PHASE_NAMES,
    PHASE_OVER,
    PHASE_PLAY,
    PLAY_BASE,  # noqa: F401  (re-exported)
    TAKE_MARKET,
    decode_play,
    encode_play,  # noqa: F401  (re-exported)
)
from .cards import (  # noqa: F401  (re-exported)
    CARD_VALUES,
    COPIES,
    HAND_SIZE,
    MARKET_SIZE,
    TOTAL_CARDS,
    VALUES,
)
from .encoding import make_layout, make_scales
from .global_state import DECK_WINDOW, make_state_layout  # noqa: F401  (re-exported)

# row k of the play block of the mask: values with at least k + 1 copies in hand
_SET_SIZES = np.arange(1, 4).reshape(3, 1)


def beaten_seats(displays: list, player: int, value: int, size: int) -> list[int]:
    """Seats whose displays a set of ``size`` x ``value`` played by ``player`` beats (ruling G6).

    Only other players' displays of exactly that size and a higher value count; of those, every
    display at the lowest such value is beaten, and higher ones stay safe behind it.
    """
    higher = [
        (d[0], s)
        for s, d in enumerate(displays)
        if s != player and d is not None and d[1] == size and d[0] > value
    ]
    if not higher:
        return []
    nearest = min(v for v, _ in higher)
    return [s for v, s in higher if v == nearest]


def winners_of(scores, banked_cards) -> list[int]:
    """Highest score; ties broken by most banked cards; still tied share (rulebook, G12)."""
    best = max(scores)
    tied = [s for s, x in enumerate(scores) if x == best]
    most = max(banked_cards[s] for s in tied)
    return [s for s in tied if banked_cards[s] == most]


class GoBigGame(Game):
    name = "gobig"
    title = "Go Big"
    version = 0
    decision_phases = tuple(p for p in PHASE_NAMES if p != "over")
    min_players = 2
    max_players = 6
    default_players = 4
    score_scale = 50.0
    OPTIONS = (
        Option(
            "end_rule",
            "after_draw",
            "when the game ends (ruling G10)",
            choices=("after_draw", "literal"),
        ),
        Option(
            "start_player", None, "first seat; None = seeded chance draw (ruling G3)", seat=True
        ),
        int_option(
            "values",
            VALUES,
            2,
            VALUES,
            "variant: the deck holds the values 1..values (rulebook: 7; G16)",
        ),
        int_option(
            "copies", COPIES, 1, COPIES, "variant: copies of each value (rulebook: 13; G16)"
        ),
        int_option(
            "hand_size",
            HAND_SIZE,
            1,
            HAND_SIZE,
            "variant: cards dealt to each player (rulebook: 6; G16)",
        ),
    )

    def _setup(self):
        n = self.num_players
        o = self.options
        self.values, self.copies, self.hand_size = o["values"], o["copies"], o["hand_size"]
        self.total_cards = self.values * self.copies
        if n * self.hand_size + MARKET_SIZE > self.total_cards:
            raise ConfigError(
                f"gobig: option 'hand_size' {self.hand_size} deals {n * self.hand_size} cards, "
                f"but a deck of {self.total_cards} ('values' x 'copies') must also fill the "
                f"market of {MARKET_SIZE}"
            )
        # copies of each value 1-7 in this deck (0 for the values a variant leaves out)
        self.deck_counts = np.where(CARD_VALUES <= self.values, self.copies, 0)
        self.num_actions = NUM_ACTIONS
        self.layout = make_layout(n)  # encoding.py
        self.observation_shape = (self.layout.size,)
        # observe() writes raw counts at these offsets, then divides by one per-entry vector
        self.obs_at = {name: a for name, _, a, _ in self.layout.pieces}
        self.obs_div = make_scales(self.layout, self.copies, self.total_cards)
        self.state_layout = make_state_layout(self.layout, n)  # global_state.py
        # seat_order[p]: the absolute seats in p's relative order (p first, then clockwise)
        self.seat_order = [np.array([(p + i) % n for i in range(n)]) for p in range(n)]
        # A turn is one play and at most one draw decision, and every play moves >= 1 card out of
        # the hands for good (displays go to the banks or the box): at most 91 turns (a variant:
        # its deck's size).
        self.max_game_length = 2 * self.total_cards
        self.score_bounds = (0, int(self.deck_counts @ CARD_VALUES))  # 0 .. every card banked

    def _new_state(self, rng):
        return GoBigState.new(self, rng)


class GoBigState(State):
    __slots__ = (
        "banks",
        "box",
        "current_player",
        "deck",
        "displays",
        "game",
        "hands",
        "known",
        "market",
        "over",
        "phase",
        "rng",
        "start_player",
        "turn",
    )

    @classmethod
    def new(cls, game: GoBigGame, rng: np.random.Generator) -> GoBigState:
        s = cls.__new__(cls)
        n = game.num_players
        s.game, s.rng = game, rng
        deck = np.repeat(np.arange(1, game.values + 1), game.copies)
        rng.shuffle(deck)
        s.deck = deck.tolist()  # top of the deck = end of the list
        s.hands = np.zeros((n, VALUES), dtype=np.int64)
        s.known = np.zeros((n, VALUES), dtype=np.int64)
        for p in range(n):
            for _ in range(game.hand_size):
                s.hands[p, s.deck.pop() - 1] += 1
        s.market = [s.deck.pop() for _ in range(MARKET_SIZE)]
        s.displays = [None] * n  # (value, size) or None
        s.banks = np.zeros((n, VALUES), dtype=np.int64)
        s.box = np.zeros(VALUES, dtype=np.int64)
        sp = game.options["start_player"]
        s.start_player = int(rng.integers(n)) if sp is None else sp
        s.current_player = s.start_player
        s.phase = PHASE_PLAY
        s.turn = 0
        s.over = False
        return s

    # ---- rules ------------------------------------------------------------------------
    def legal_mask(self) -> np.ndarray:
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        if self.phase == PHASE_PLAY:
            # row k of the play block: values with at least k+1 copies in hand
            # (one broadcast compare)
            np.greater_equal(
                self.hands[self.current_player], _SET_SIZES, out=mask[:NUM_PLAYS].reshape(3, VALUES)
            )
        elif self.phase == PHASE_DRAW:
            mask[DRAW_DECK] = mask[TAKE_MARKET] = True
        return mask

    def is_legal(self, action: int) -> bool:
        if self.phase == PHASE_PLAY:
            if action >= NUM_PLAYS:
                return False
            value, size = decode_play(action)
            return self.hands[self.current_player, value - 1] >= size
        return self.phase == PHASE_DRAW and action >= NUM_PLAYS

    def _apply(self, action: int) -> None:
        p = self.current_player
        if self.phase == PHASE_PLAY:
            value, size = decode_play(action)
            self.hands[p, value - 1] -= size
            # X7: the copies played may be the known ones; only the rest are still known to be held
            self.known[p, value - 1] = max(0, self.known[p, value - 1] - size)
            self.displays[p] = (value, size)
            for s in beaten_seats(self.displays, p, value, size):
                v, k = self.displays[s]
                self.box[v - 1] += k
                self.displays[s] = None
            if self.game.options["end_rule"] == "literal" and not self.hands[p].any():
                self._end()
                return
            if self.deck and self.market:
                self.phase = PHASE_DRAW
                return
            if self.deck:
                self._draw_deck(p)
            elif self.market:
                self._take_market(p)
            self._end_turn()
        else:
            self._draw_deck(p) if action == DRAW_DECK else self._take_market(p)
            self._end_turn()

    def _draw_deck(self, p: int) -> None:
        for _ in range(min(2, len(self.deck))):
            self.hands[p, self.deck.pop() - 1] += 1

    def _take_market(self, p: int) -> None:
        for v in self.market:  # face-up cards: everyone knows they are in p's hand now (X7)
            self.hands[p, v - 1] += 1
            self.known[p, v - 1] += 1
        self.market = [self.deck.pop() for _ in range(min(MARKET_SIZE, len(self.deck)))]

    def _end_turn(self) -> None:
        p = self.current_player
        if not self.hands[p].any():  # after the draw step (ruling G10)
            self._end()
            return
        self.turn += 1
        nxt = (p + 1) % self.game.num_players
        self._bank(nxt)
        self.current_player = nxt
        self.phase = PHASE_PLAY

    def _bank(self, p: int) -> None:
        d = self.displays[p]
        if d is not None:
            self.banks[p, d[0] - 1] += d[1]
            self.displays[p] = None

    def _end(self) -> None:
        """Discard hands, bank every display (ruling G11)."""
        for p in range(self.game.num_players):
            self._bank(p)
        self.current_player = None
        self.phase = PHASE_OVER
        self.over = True

    def is_terminal(self) -> bool:
        return self.over

    def scores(self) -> np.ndarray:
        return self.banks @ CARD_VALUES

    def winners(self) -> list[int]:
        return winners_of(self.scores().tolist(), self.banks.sum(axis=1).tolist())

    # ---- copies -----------------------------------------------------------------------
    # view/observe (encoding.py), global_state (global_state.py), _determinize (determinize.py),
    # check_invariants (invariants.py), action_name/render/render_view (text.py) and
    # _to_dict/_from_dict/_check_dict (saved.py) are functions of those modules, found by name
    # (envs/core/game.py, FUNCTION_MODULES).
    def clone(self) -> GoBigState:
        s = self.copy(copy_rng(self.rng))
        if self.chance is not None:  # a duplicate board's keyed chance (Game.new_state)
            s.chance = self.chance.copy()
        return s

    def copy(self, rng: np.random.Generator | None) -> GoBigState:
        """The position with ``rng`` as its chance generator (``clone``: a copy of this one's;
        ``determinize``: None, it gets its own) and without keyed chance."""
        s = GoBigState.__new__(GoBigState)
        s.game, s.rng = self.game, rng
        s.current_player, s.phase, s.turn = self.current_player, self.phase, self.turn
        s.start_player, s.over = self.start_player, self.over
        s.hands, s.banks, s.box = self.hands.copy(), self.banks.copy(), self.box.copy()
        s.known = self.known.copy()
        s.deck, s.market, s.displays = self.deck[:], self.market[:], self.displays[:]
        return s
