"""Wizard rules engine (pure Python + numpy; no PettingZoo import).

The rules as implemented, every ruling (W1-W13 and the cross-game X rulings) with its reason,
and the layouts are in docs/rules/wizard.md.

Summary. 3, 4, 5, 6, 10 or 12 players; 60 cards: Dwarves, Humans, Elves, Giants 1-13, four Wizards,
four Nulls. Round r deals r cards each; a full game has 60 / N rounds. The dealer rotates
clockwise. After the deal the stock's top card is flipped: a suit sets trump, a Null means no
trump, a Wizard lets the dealer choose a suit (a decision of its own, before any bid); the last
round of a full game has no stock, so no trump. Round 1 is the Foresight round: a player sees
every other player's card but not its own while trump is chosen and bids are made; its own card
is revealed for the play. Starting left of the dealer, each player bids 0..r tricks (public);
the dealer, bidding last, may not make the bids total r. The player left of the dealer leads;
follow suit if you can, but a Wizard or a Null may always be played. The first Wizard wins the
trick, else the highest trump, else the highest card of the led suit; a trick of Nulls goes to
the first Null. A Null lead sets no suit (the next numbered card does); a Wizard before any
numbered card frees everyone. The trick winner leads next. An exact bid scores 20 + 10 per trick,
any other result -10 per trick off. Most points after the last round wins; ties share.

Options
    num_rounds   None (default: the full game, 60 / N rounds) or k in 1..60/N: play rounds 1..k only
                 (round k still flips a trump card when k < 60 / N).
    foresight    True (default): round 1 is the Foresight round; False: round 1 is an ordinary
                 round.
    first_dealer None (default: a seeded chance draw, ruling W3) or a seat 0..N-1.
    suits, ranks, wizards, nulls
                 a variant's smaller deck (W14): the ranks 1..ranks (1-13, default 13) of the first
                 ``suits`` suits (1-4, default 4), with 0-4 Wizards and 0-4 Nulls (default 4
                 each). The cards keep their kinds (so the actions and the observation keep their
                 layout); a full game plays deck // N rounds; the dealer names a suit of the deck.

Actions (59 + K ids, K = num_rounds)
    0-51     play a suited card: id = suit * 13 + (rank - 1); suits 0 Dwarves, 1 Humans,
             2 Elves, 3 Giants
    52       play a Wizard   (the four Wizards are identical and share one action)
    53       play a Null     (likewise)
    54-57    the dealer names the trump suit after a Wizard was flipped (54 + suit)
    58-58+K  bid b tricks: id = 58 + b
    A decision point has exactly one kind of legal action: trump (dealer only), bid, or play.

Observation (float32, every entry in [0, 1]); seats are relative: index 0 is the observer, then
clockwise. Pieces: hand, hand_hidden, foresight, hand_sizes, flipped, trump, led_suit, trick,
trick_leader, bids, bid_pending, tricks_won, voids, played, scores, round, dealer,
current_player, phase. The index table: ``game.layout.table()`` / docs/rules/wizard.md.

Global state (``env.state()``, float32 in [0, 1], absolute seats; ``game.state_layout.table()``):
the public pieces above as seat 0 sees them, then ``hands`` (every seat's), ``foresight_hidden``
(the Foresight round hides each seat's own card now) and ``stock`` (the undealt cards; their order
never matters: every round shuffles the whole deck).

Rewards: win (default: winners share +1, the rest -1), score (final points centred on the table
mean, / (20 * K)), dense (each round's score change / (20 * K), given when the round is scored).

Modules (docs/adding-a-game.md, "The module design"): this one holds the Game and the one State
with its moves; ``cards.py`` and ``actions.py`` the constants and pure rule functions;
``encoding.py`` the observation (``view``, ``observe``), ``global_state.py``, ``determinize.py``,
``invariants.py``, ``text.py`` and ``saved.py`` functions of the state that ``State`` finds by
name. None of them imports this module.

Version history: v0 - first release.
"""

from __future__ import annotations

import numpy as np

from ..core.errors import ConfigError
from ..core.game import Game, LazyRng, State
from ..core.options import Option, int_option

# The action ids, phases and their encoders (actions.py) were defined here before the engine was
# split by what it does; importing them from rules.py keeps working.
from .actions import (
    BID_BASE,
    NUM_PLAYS,  # noqa: F401  (re-exported)
    PHASE_BID,
    PHASE_NAMES,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_TRUMP,
    PLAY_BASE,
    TRUMP_BASE,
    action_name,  # noqa: F401  (re-exported)
    decode_action,  # noqa: F401  (re-exported)
    encode_bid,  # noqa: F401  (re-exported)
    encode_play,  # noqa: F401  (re-exported)
    encode_trump,  # noqa: F401  (re-exported)
)
from .cards import (
    COPIES_SPECIAL,
    COUNT_SCALE,
    DECK_COUNTS,  # noqa: F401  (re-exported)
    DECK_KINDS,  # noqa: F401  (re-exported)
    DECK_SIZE,  # noqa: F401  (re-exported)
    LED_FREE,
    LED_NONE,
    NUM_KINDS,
    NUM_SUITED,
    NUM_SUITS,
    RANKS,
    TRUMP_PENDING,
    WIZARD,
    deck_counts,
    forbidden_dealer_bid,
    next_led,
    num_rounds_for,
    round_score,
    trick_winner,
    trump_after_flip,
    winners_of,
)
from .encoding import SCALE, Encoder
from .global_state import make_state_layout

PLAYER_COUNTS = (3, 4, 5, 6, 10, 12)
_SUIT_STARTS = np.arange(0, NUM_SUITED, RANKS)


class WizardGame(Game):
    name = "wizard"
    title = "Wizard"
    version = 0
    decision_phases = tuple(p for p in PHASE_NAMES if p != "over")
    min_players = 3
    max_players = 12
    default_players = 4
    player_counts = PLAYER_COUNTS
    OPTIONS = (
        Option(
            "num_rounds",
            None,
            "play rounds 1..k only; None = the full game (60 / num_players rounds)",
            kind=(int, type(None)),
            check=lambda v: v is None or v >= 1,
            check_doc="must be None or >= 1",
        ),
        Option(
            "foresight",
            True,
            "round 1 is the Foresight round (own card hidden, others' shown)",
            choices=(True, False),
        ),
        Option(
            "first_dealer",
            None,
            "first dealer seat; None = seeded chance draw (ruling W3)",
            seat=True,
        ),
        int_option(
            "suits",
            NUM_SUITS,
            1,
            NUM_SUITS,
            "variant: the deck holds the first `suits` suits (rulebook: 4; W14)",
        ),
        int_option(
            "ranks",
            RANKS,
            1,
            RANKS,
            "variant: the deck holds the ranks 1..ranks of each suit (rulebook: 13; W14)",
        ),
        int_option(
            "wizards",
            COPIES_SPECIAL,
            0,
            COPIES_SPECIAL,
            "variant: Wizards in the deck (rulebook: 4; W14)",
        ),
        int_option(
            "nulls",
            COPIES_SPECIAL,
            0,
            COPIES_SPECIAL,
            "variant: Nulls in the deck (rulebook: 4; W14)",
        ),
    )

    def _setup(self):
        n = self.num_players
        o = self.options
        self.suits = o["suits"]
        self.deck_counts = deck_counts(o["suits"], o["ranks"], o["wizards"], o["nulls"])
        self.deck_kinds = np.repeat(np.arange(NUM_KINDS, dtype=np.int64), self.deck_counts)
        self.deck_size = len(self.deck_kinds)
        full = num_rounds_for(n, self.deck_size)
        if full < 1:
            raise ConfigError(
                f"wizard: options 'suits', 'ranks', 'wizards' and 'nulls' make a deck of "
                f"{self.deck_size} cards, fewer than the {n} players (W14)"
            )
        k = o["num_rounds"]
        if k is None:
            k = full
        elif k > full:
            raise ConfigError(
                f"wizard: option 'num_rounds' must be at most {full} for {n} players, got {k}"
            )
        self.full_rounds = full
        self.rounds = k
        self.foresight = self.options["foresight"]
        self.num_actions = BID_BASE + k + 1
        self.bid_masks = [np.zeros(self.num_actions, dtype=bool) for _ in range(k + 1)]
        for r, m in enumerate(self.bid_masks):
            m[BID_BASE : BID_BASE + r + 1] = True  # bids 0..r in round r
        self._deal_slots = {}
        self.trump_mask = np.zeros(self.num_actions, dtype=bool)
        self.trump_mask[TRUMP_BASE : TRUMP_BASE + self.suits] = True  # the deck's suits (W14)
        self.encoder = Encoder(n, k)
        self.layout = self.encoder.layout
        self.observation_shape = (self.layout.size,)
        self.state_layout = make_state_layout(self.layout, n)
        self.score_scale = 20.0 * k
        # Round r: at most one trump choice, n bids, n * r cards played.
        self.max_game_length = sum(1 + n + n * r for r in range(1, k + 1))
        # Round r scores 20 + 10 t for an exact bid of t <= r, else -10 per trick off (<= r).
        self.score_bounds = (-10 * sum(range(1, k + 1)), sum(20 + 10 * r for r in range(1, k + 1)))

    def deal_slots(self, rnd: int, dealer: int) -> np.ndarray:
        """``seat * 54`` of each card dealt in round ``rnd``: one at a time, clockwise from the
        dealer's left (cached per round and dealer)."""
        key = (rnd, dealer)
        slots = self._deal_slots.get(key)
        if slots is None:
            n = self.num_players
            slots = self._deal_slots[key] = ((dealer + 1 + np.arange(n * rnd)) % n) * NUM_KINDS
        return slots

    def _new_state(self, rng):
        return WizardState.new(self, rng)


class WizardState(LazyRng, State):
    __slots__ = (
        "_rng",
        "_rng_src",
        "bids",
        "current_player",
        "dealer",
        "first_dealer",
        "flipped",
        "game",
        "hand_obs",
        "hand_sizes",
        "hands",
        "history",
        "hold",
        "led",
        "phase",
        "played",
        "points",
        "pub",
        "round",
        "stock",
        "suit_counts",
        "trick",
        "trick_leader",
        "tricks",
        "tricks_won",
        "trump",
        "voids",
    )

    # ---- set-up -----------------------------------------------------------------------
    @classmethod
    def new(cls, game: WizardGame, rng: np.random.Generator) -> WizardState:
        s = cls.__new__(cls)
        n = game.num_players
        s.game, s.rng = game, rng
        fd = game.options["first_dealer"]
        s.first_dealer = int(rng.integers(n)) if fd is None else fd
        s.points = [0] * n
        s.history = []
        s.hands = np.zeros((n, NUM_KINDS), dtype=np.int8)
        s.deal(1, s.first_dealer)
        return s

    def deal(self, rnd: int, dealer: int, deck=None) -> None:
        """Start round ``rnd``: shuffle (or take ``deck``, 60 kinds, top first: a stacked deck for
        tests), deal ``rnd`` cards each one at a time clockwise from the dealer's left, and flip
        the stock's top card (W4). Scores and history are kept."""
        game = self.game
        n = game.num_players
        self.round, self.dealer = rnd, dealer
        size = game.deck_size
        if deck is None:
            deck = game.deck_kinds[self.rng.permutation(size)]
        else:
            deck = np.asarray(deck, dtype=np.int64)
            if not np.array_equal(np.bincount(deck, minlength=NUM_KINDS), game.deck_counts):
                raise ValueError(f"a stacked deck must hold exactly the game's {size} cards")
        dealt = n * rnd
        slots = self.game.deal_slots(rnd, dealer)  # seat * 54 for each dealt card, in deal order
        self.hands = (
            np.bincount(slots + deck[:dealt], minlength=n * NUM_KINDS)
            .reshape(n, NUM_KINDS)
            .astype(np.int8)
        )
        self.recount()
        self.hand_sizes = [rnd] * n
        if dealt < size:
            self.flipped = int(deck[dealt])
            rest = deck[dealt + 1 :]
        else:
            self.flipped = -1
            rest = deck[:0]
        self.stock = np.bincount(rest, minlength=NUM_KINDS).astype(np.int8)
        self.trump = trump_after_flip(self.flipped)
        self.bids = [-1] * n
        self.tricks_won = [0] * n
        self.trick = []
        self.trick_leader = (dealer + 1) % n
        self.led = LED_NONE
        self.played = [0] * NUM_KINDS  # counts per kind (a list: one int op per card played)
        self.voids = [0] * n
        self.tricks = []
        if self.trump == TRUMP_PENDING:
            self.phase, self.current_player = PHASE_TRUMP, dealer
        else:
            self.phase, self.current_player = PHASE_BID, (dealer + 1) % n
        self.pub = self.game.encoder.dealt_public(self)

    def recount(self) -> None:
        """Rebuild what is kept alongside ``hands`` for speed: ``suit_counts`` (cards of each suit
        per hand, plain ints for follow-suit checks) and ``hand_obs`` (the hands as the
        observation encodes them, float32), ``hold`` (per seat, a full-size mask of the cards
        held)."""
        self.suit_counts = np.add.reduceat(
            self.hands[:, :NUM_SUITED], _SUIT_STARTS, axis=1
        ).tolist()
        self.hand_obs = self.hands * COUNT_SCALE
        hold = np.zeros((self.game.num_players, self.game.num_actions), dtype=bool)
        hold[:, :NUM_KINDS] = self.hands
        self.hold = hold  # per seat, the legal mask when nothing has to be followed

    def refresh_observation(self) -> None:
        """Rebuild the incrementally kept public encoding. Code that edits state fields directly
        (tests, tools) calls this afterwards, and ``recount()`` first if it changed ``hands``."""
        self.pub = self.game.encoder.public(self)

    # ---- rules ------------------------------------------------------------------------
    def foresight_round(self) -> bool:
        return self.round == 1 and self.game.foresight

    def own_hand_hidden(self, player: int) -> bool:
        """Foresight round before play: the player cannot see its own card (W5)."""
        return self.round == 1 and self.game.foresight and self.phase < PHASE_PLAY

    def forbidden_bid(self) -> int | None:
        """The dealer's forbidden bid now (W6), or None (not the dealer's turn to bid, or none)."""
        if self.phase != PHASE_BID or self.current_player != self.dealer:
            return None
        return forbidden_dealer_bid(self.round, sum(b for b in self.bids if b > 0))

    def is_legal(self, action: int) -> bool:
        """``legal_mask()[action]`` by scalar checks, without building the mask (``apply`` asks
        it)."""
        p = self.current_player
        phase = self.phase
        if phase == PHASE_PLAY:
            if action >= NUM_KINDS or not self.hold[p, action]:
                return False
            led = self.led
            return (
                action >= NUM_SUITED
                or not 0 <= led < NUM_SUITS
                or action // RANKS == led
                or not self.suit_counts[p][led]
            )
        if phase == PHASE_BID:
            b = action - BID_BASE
            return 0 <= b <= self.round and not (p == self.dealer and b == self.forbidden_bid())
        if phase == PHASE_TRUMP:  # one of the deck's suits (all four but in a variant, W14)
            return TRUMP_BASE <= action < TRUMP_BASE + self.game.suits
        return False

    def legal_mask(self) -> np.ndarray:
        phase = self.phase
        if phase == PHASE_PLAY:
            p = self.current_player
            led = self.led
            if 0 <= led < NUM_SUITS and self.suit_counts[p][led]:
                hold = self.hold[p]
                mask = np.zeros(self.game.num_actions, dtype=bool)
                a = led * RANKS
                mask[a : a + RANKS] = hold[a : a + RANKS]
                mask[WIZARD:NUM_KINDS] = hold[WIZARD:NUM_KINDS]
                return mask
            return self.hold[p].copy()
        if phase == PHASE_BID:
            r = self.round
            mask = self.game.bid_masks[r].copy()
            if self.current_player == self.dealer:
                f = forbidden_dealer_bid(r, sum(b for b in self.bids if b > 0))
                if f is not None:
                    mask[BID_BASE + f] = False
            return mask
        if phase == PHASE_TRUMP:
            return self.game.trump_mask.copy()
        return np.zeros(self.game.num_actions, dtype=bool)

    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == PHASE_PLAY:
            self._play(action - PLAY_BASE)
        elif phase == PHASE_BID:
            self._bid(action - BID_BASE)
        else:
            suit = action - TRUMP_BASE
            self.trump = suit
            self.pub[self.game.encoder.o_trump + suit] = 1.0
            self.phase = PHASE_BID
            self.current_player = (self.dealer + 1) % self.game.num_players

    def _bid(self, bid: int) -> None:
        p = self.current_player
        self.bids[p] = bid
        enc, pub = self.game.encoder, self.pub
        pub[enc.o_bids + p * (enc.k + 1) + bid] = 1.0
        pub[enc.o_bid_pending + p] = 0.0
        if p == self.dealer:  # the dealer bids last
            self.phase = PHASE_PLAY
            self.current_player = self.trick_leader
        else:
            self.current_player = (p + 1) % self.game.num_players

    def _play(self, card: int) -> None:
        p = self.current_player
        n = self.game.num_players
        enc, pub = self.game.encoder, self.pub
        left = self.hands.item(p, card) - 1  # a Python int: numpy-scalar arithmetic is slow
        self.hands[p, card] = left
        self.hand_obs[p, card] = left * SCALE[card]
        if not left:
            self.hold[p, card] = False
        if card < NUM_SUITED:
            self.suit_counts[p][card // RANKS] -= 1
        self.hand_sizes[p] -= 1
        played = self.played[card] + 1
        self.played[card] = played
        pub[enc.o_hand_sizes + p] = self.hand_sizes[p] * enc.inv_k
        pub[enc.o_played + card] = played * SCALE[card]
        pub[enc.o_trick + p * NUM_KINDS + card] = 1.0
        led = self.led
        if led == LED_NONE:
            led = self.led = next_led(led, card)
            if led != LED_NONE:
                pub[enc.o_led_suit + led] = 1.0
        elif led != LED_FREE and card < NUM_SUITED and card // RANKS != led:
            self.voids[p] |= 1 << led  # did not follow: shown void in the led suit
            pub[enc.o_voids + 4 * p + led] = 1.0
        trick = self.trick
        trick.append(card)
        if len(trick) == 1:
            pub[enc.o_trick_leader + p] = 1.0
        if len(trick) < n:
            self.current_player = (p + 1) % n
            return
        leader = self.trick_leader
        winner = (leader + trick_winner(trick, self.trump)) % n
        self.tricks.append([leader, trick, winner])
        self.tricks_won[winner] += 1
        self.trick = []
        self.trick_leader = winner
        self.led = LED_NONE
        pub[enc.o_trick : enc.o_trick + n * NUM_KINDS] = 0.0
        pub[enc.o_trick_leader + leader] = 0.0
        if led != LED_NONE:
            pub[enc.o_led_suit + led] = 0.0
        pub[enc.o_tricks_won + winner] = self.tricks_won[winner] * enc.inv_k
        if len(self.tricks) < self.round:
            self.current_player = winner
        else:
            self._score_round()

    def _score_round(self) -> None:
        deltas = [round_score(b, t) for b, t in zip(self.bids, self.tricks_won)]
        self.points = [s + d for s, d in zip(self.points, deltas)]
        self.history.append(
            {
                "dealer": self.dealer,
                "flipped": None if self.flipped < 0 else self.flipped,
                "trump": self.trump,
                "bids": list(self.bids),
                "tricks_won": list(self.tricks_won),
                "deltas": deltas,
            }
        )
        if self.round >= self.game.rounds:
            self.phase = PHASE_OVER
            self.current_player = None
            self.refresh_observation()
        else:
            self.deal(self.round + 1, (self.dealer + 1) % self.game.num_players)

    def is_terminal(self) -> bool:
        return self.phase == PHASE_OVER

    def round_index(self) -> int:
        """Rounds finished so far (each round is scored at its end)."""
        return self.round if self.is_terminal() else self.round - 1

    def scores(self) -> np.ndarray:
        return np.array(self.points, dtype=np.int64)

    def winners(self) -> list[int]:
        return winners_of(self.points)

    # ---- copies -----------------------------------------------------------------------
    def clone(self) -> WizardState:
        s = WizardState.__new__(WizardState)
        s.game = self.game
        s.defer_rng(self.rng_source())
        s.current_player, s.phase, s.round, s.dealer = (
            self.current_player,
            self.phase,
            self.round,
            self.dealer,
        )
        s.first_dealer, s.flipped, s.trump = self.first_dealer, self.flipped, self.trump
        s.trick_leader, s.led = self.trick_leader, self.led
        s.hands, s.stock, s.played = self.hands.copy(), self.stock.copy(), list(self.played)
        s.hand_sizes, s.bids, s.tricks_won = (
            list(self.hand_sizes),
            list(self.bids),
            list(self.tricks_won),
        )
        s.trick, s.voids, s.points = list(self.trick), list(self.voids), list(self.points)
        s.tricks = list(self.tricks)  # completed tricks and past rounds are never mutated
        s.history = list(self.history)
        s.pub = self.pub.copy()
        s.suit_counts = [list(c) for c in self.suit_counts]
        s.hand_obs = self.hand_obs.copy()
        s.hold = self.hold.copy()
        if self.chance is not None:  # a duplicate board's keyed chance (Game.new_state)
            s.chance = self.chance.copy()
        return s
