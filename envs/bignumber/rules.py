"""Big Number rules engine (pure Python + numpy; no PettingZoo import).

An adaptation of Odin (Helvetiq 2024). The rules as implemented, every ruling (N1-N15 and the
cross-game X rulings) with its reason, and the layouts are in docs/rules/bignumber.md.

Summary. 2-6 players; the Ace-9 of four suits (36 cards; two decks = 72 for 5-6 players or by
option). 9 cards each, the rest aside unseen. The leader plays exactly one card; in turn each
other player passes (for this turn only) or beats the middle with a set (one card, or cards all
of one suit or all of one rank) of the same size and a higher value, or of one card more; the
value reads the digits biggest first (8-6-2 = 862). Whoever beats a set takes one of its cards
into hand (their choice) and the rest goes out of play. When all others pass in a row the middle
is cleared and the last player leads. A play that empties a hand ends the deal (no pick-up); so
does leading a whole hand of one suit or one rank ("everything at once"). The others score a
penalty point a card in hand; the game ends after the deal in which someone reaches ``target``;
fewest points win, ties share.

Options
    two_decks     None (default: the rulebook's deck, one deck for 2-4 players, two for 5-6),
                  True (two decks, allowed for 3-6 players) or False (one deck, 2-4 players).
    target        penalty points that end the game, int 1-100 (default 15; the rulebook
                  offers 10, 15 and 20). Ignored with single_deal.
    single_deal   False (default) or True: play one deal; fewest cards in hand wins.
    start_player  None (default: seeded chance, ruling N4) or the seat that starts deal 1;
                  later deals rotate clockwise (X1: increasing seat index).
    ranks         2-9 (default 9): the deck holds the ranks Ace..ranks of the four suits. A
                  variant (N16): the cards keep their types, the one-deck play table lists only
                  the sets this deck can form (``game.sets``), so it is shorter.
    hand_size     1-9 (default 9): cards dealt to each player. A variant (N16).

Actions. Ids 0-36 are the same in both modes:
    0-35    take card type c into hand (the pick-up, N8); c = 4 * (rank - 1) + suit, suits
            clubs, diamonds, hearts, spades. Asked only when the beaten set holds two or more
            distinct card types; otherwise the pick-up is automatic (X6).
    36      pass (N10; never legal for the leader)
  one deck (2180 ids): one action a play
    37-2179 play set ``SETS[a - 37]`` (36 singles, 2008 same-suit sets, 99 same-rank sets); a
            variant of fewer ranks: ``game.sets[a - 37]``, 37 + len(game.sets) ids
  two decks (74 ids): a play is chosen card by card, digits biggest first
    37-72   add one card of type ``a - 37`` to the play being built; only cards that keep the
            selection a prefix of some legal play (in descending card-type order) are legal,
            so every started play can be finished
    73      finish: play the selection (legal exactly when the selection is a legal play)

Observation (float32, all entries in [0, 1]; seats relative, index 0 = the observer, then
clockwise): own hand, the selection being built (two decks only), the set just played (pick-up
step), the middle set, its size and owner, out-of-play cards, cards each seat is known to hold
(picked up, not played since: X7), hand sizes, scores, who passed in the current sequence, whose
turn, the deal's start player, the phase, the deal number. Table: ``game.layout.table()``.

Global state (``env.state()``, float32 in [0, 1], absolute seats; ``game.state_layout.table()``):
the observation's pieces as seat 0 sees them except its ``hand`` (and ``selection``), then
``hands`` (every seat's), ``selection`` (two decks: the play the seat to act is building) and
``aside`` (the undealt cards). No card order: each deal is shuffled afresh, nothing is drawn.

Rewards: win (default), score (penalty points, sign -1, centred, / target), dense (each deal's
penalty points, negated, / target, at the end of the deal).

Version history: v0 - first release.
"""

from __future__ import annotations

import numpy as np

from ..core.errors import ConfigError
from ..core.game import Game, State, copy_rng
from ..core.options import Option, int_option

# The action ids and phases (actions.py) were defined here before the engine was split by what
# it does; importing them from rules.py keeps working.
from .actions import (
    ADD_BASE,
    ANSWER,
    FINISH,
    LEAD,
    NUM_ACTIONS_ONE_DECK,
    NUM_ACTIONS_TWO_DECKS,
    OVER,
    PASS,
    PHASE_NAMES,
    PICK,
    PICK_BASE,
    PLAY_BASE,
)
from .cards import (
    HAND_SIZE,
    NUM_TYPES,
    RANKS,
    SET_INDEX,  # noqa: F401  (re-exported)
    SETS,  # noqa: F401  (re-exported)
    SUITS,
    all_sets,
    counts_of,
    legal_plays,
    parse_cards,
    penalties,
    set_index,
)
from .encoding import make_layout
from .global_state import make_state_layout


def max_deals(num_players: int, target: int) -> int:
    """An upper bound on the number of deals: every deal gives each player but one >= 1 point."""
    return num_players * (target - 1) // (num_players - 1) + 1


def max_decisions_per_deal(num_players: int, two_decks: bool, hand_size: int = HAND_SIZE) -> int:
    """An upper bound on the decisions of one deal (``max_game_length`` is this x ``max_deals``).

    Count the cards in hands and in the middle, C <= 9n (hands never grow; 9 is ``hand_size``).
    A lead moves cards from a hand to the middle (C unchanged); beating an m-card middle takes one
    of its cards into a hand and puts m - 1 out (C drops by m - 1); clearing the middle drops C by
    its size >= 1.
    So clears and beats of a middle of 2+ cards happen at most 9n + 1 times in all, and after each
    lead at most 9 beats meet a one-card middle (8 higher single cards, one two-card answer): at
    most 10 (9n + 1) plays. A play is one decision (two decks: up to 9 cards and finish), at most
    one pick-up follows it, and at most n - 1 passes.
    """
    plays = 10 * (hand_size * num_players + 1)
    return plays * ((hand_size + 1 if two_decks else 1) + 1 + num_players - 1)


class BigNumberGame(Game):
    name = "bignumber"
    title = "Big Number"
    version = 0
    decision_phases = tuple(p for p in PHASE_NAMES if p != "over")
    min_players = 2
    max_players = 6
    default_players = 4
    score_sign = -1
    OPTIONS = (
        Option(
            "two_decks",
            None,
            "None: by player count (one deck for 2-4, two for 5-6, N1); True/False",
            choices=(None, True, False),
        ),
        Option(
            "target",
            15,
            "penalty points that end the game (rulebook: 10, 15 or 20)",
            kind=int,
            check=lambda v: 1 <= v <= 100,
            check_doc="must be in 1..100",
        ),
        Option(
            "single_deal",
            False,
            "play one deal only; fewest cards in hand wins",
            choices=(False, True),
        ),
        Option(
            "start_player", None, "first deal's start seat; None = seeded chance (N4)", seat=True
        ),
        int_option(
            "ranks",
            RANKS,
            2,
            RANKS,
            "variant: the deck holds the ranks Ace..ranks of each suit (rulebook: 9; N16)",
        ),
        int_option(
            "hand_size",
            HAND_SIZE,
            1,
            HAND_SIZE,
            "variant: cards dealt to each player (rulebook: 9; N16)",
        ),
    )

    def _setup(self):
        n = self.num_players
        o = self.options
        if o["two_decks"] is None:
            self.two_decks = n >= 5
        elif o["two_decks"] and n < 3:
            raise ConfigError(
                "bignumber: option 'two_decks' is for 3-6 players (rulebook variant), got 2 players"
            )
        elif not o["two_decks"] and n >= 5:
            raise ConfigError(
                f"bignumber: option 'two_decks' must be on for {n} players (72 cards, N1)"
            )
        else:
            self.two_decks = o["two_decks"]
        self.copies = 2 if self.two_decks else 1
        self.ranks, self.hand_size = o["ranks"], o["hand_size"]
        # copies of each of the 36 card types in this deck (0: a rank a variant leaves out)
        self.deck_counts = [self.copies if c < SUITS * self.ranks else 0 for c in range(NUM_TYPES)]
        if n * self.hand_size > sum(self.deck_counts):
            raise ConfigError(
                f"bignumber: option 'hand_size' {self.hand_size} deals {n * self.hand_size} "
                f"cards, more than the {sum(self.deck_counts)} of the deck ('ranks' {self.ranks})"
            )
        self.sets, self.set_index = all_sets(self.ranks), set_index(self.ranks)
        self.single_deal = o["single_deal"]
        self.target = o["target"]
        h = self.hand_size
        self.max_deals = 1 if self.single_deal else max_deals(n, self.target)
        self.max_score = h if self.single_deal else self.target - 1 + h
        self.score_scale = float(h if self.single_deal else self.target)
        self.max_game_length = self.max_deals * max_decisions_per_deal(n, self.two_decks, h)
        self.score_bounds = (0, self.max_score)
        self.num_actions = NUM_ACTIONS_TWO_DECKS if self.two_decks else PLAY_BASE + len(self.sets)
        assert self.ranks < RANKS or self.two_decks or self.num_actions == NUM_ACTIONS_ONE_DECK
        self.layout = make_layout(n, self.two_decks)
        self.observation_shape = (self.layout.size,)
        self.offsets = {name: a for name, _, a, _ in self.layout.pieces}
        # The count pieces (hand .. known) come first and are contiguous: observe fills them
        # with one assignment and scales them by 1 / copies at once.
        self.count_size = self.offsets["middle_size"]
        self.state_layout = make_state_layout(self.layout, n, self.two_decks)

    def _new_state(self, rng):
        return BigNumberState.new(self, rng)


class BigNumberState(State):
    """One position. Hands, known cards, piles are count vectors over the 36 card types."""

    __slots__ = (
        "_mask",
        "_plays",
        "aside",
        "current_player",
        "deal",
        "deal_start",
        "game",
        "hands",
        "history",
        "known",
        "middle",
        "out",
        "over",
        "owner",
        "passes",
        "pending",
        "phase",
        "rng",
        "scores_",
    )

    # ---- construction -------------------------------------------------------------------
    @classmethod
    def new(cls, game: BigNumberGame, rng: np.random.Generator) -> BigNumberState:
        s = cls.__new__(cls)
        n = game.num_players
        s.game, s.rng = game, rng
        s.scores_ = [0] * n
        s.history = []
        s.deal = 0
        sp = game.options["start_player"]
        s.deal_start = int(rng.integers(n)) if sp is None else sp
        s.over = False
        s._deal_cards()
        return s

    @classmethod
    def from_hands(
        cls,
        game: BigNumberGame,
        hands,
        leader: int = 0,
        aside=None,
        out=None,
        scores=None,
        deal: int = 0,
        deal_start: int | None = None,
        seed: int = 0,
    ) -> BigNumberState:
        """A position at the start of a round, from explicit hands (for tests and analysis).

        ``hands`` are lists of card types (or text like ``"8d 6d 2d"``); ``aside`` defaults to
        every remaining card, so the cards are conserved.
        """
        n = game.num_players
        if len(hands) != n:
            raise ValueError(f"need {n} hands, got {len(hands)}")
        s = cls.__new__(cls)
        s.game, s.rng = game, np.random.default_rng(seed)
        s.hands = [counts_of(parse_cards(h) if isinstance(h, str) else h) for h in hands]
        s.known = [[0] * NUM_TYPES for _ in range(n)]
        s.out = counts_of(parse_cards(out) if isinstance(out, str) else (out or ()))
        if aside is None:
            s.aside = [
                game.deck_counts[c] - sum(h[c] for h in s.hands) - s.out[c]
                for c in range(NUM_TYPES)
            ]
        else:
            s.aside = counts_of(parse_cards(aside) if isinstance(aside, str) else aside)
        s.middle, s.owner, s.passes, s.pending = (), None, 0, ()
        s.phase, s.current_player = LEAD, leader
        s.deal = deal
        s.deal_start = leader if deal_start is None else deal_start
        s.scores_ = list(scores) if scores is not None else [0] * n
        s.history = []
        s.over = False
        s._plays = s._mask = None
        try:
            s.check_invariants()
        except AssertionError as e:
            raise ValueError(f"not a Big Number position: {e}") from None
        return s

    def _deal_cards(self) -> None:
        g = self.game
        n, size = g.num_players, g.hand_size
        deck = np.repeat(np.arange(NUM_TYPES), g.deck_counts)
        self.rng.shuffle(deck)
        self.hands = [counts_of(deck[p * size : (p + 1) * size].tolist()) for p in range(n)]
        self.aside = counts_of(deck[n * size :].tolist())  # N3: unseen, unused this deal
        self.known = [[0] * NUM_TYPES for _ in range(n)]
        self.out = [0] * NUM_TYPES
        self.middle, self.owner, self.passes, self.pending = (), None, 0, ()
        self.phase = LEAD
        self.current_player = self.deal_start
        self._plays = self._mask = None

    # ---- rules ----------------------------------------------------------------------------
    def plays(self) -> list[tuple[int, ...]]:
        """The legal plays of the player to act (cached until the position changes)."""
        if self._plays is None:
            self._plays = legal_plays(self.hands[self.current_player], self.middle)
        return self._plays

    def legal_mask(self) -> np.ndarray:
        """Exact; computed once a position (cached until the next action) and returned as a copy."""
        if self._mask is None:
            self._mask = self._legal_mask()
        return self._mask.copy()

    def _legal_mask(self) -> np.ndarray:
        mask = np.zeros(self.game.num_actions, dtype=bool)
        if self.phase == PICK:
            for c in set(self.middle):
                mask[PICK_BASE + c] = True
            return mask
        if self.phase == OVER:
            return mask
        plays = self.plays()
        if self.game.two_decks:
            sel = self.pending
            k = len(sel)
            for t in plays:
                if len(t) > k and t[:k] == sel:
                    mask[ADD_BASE + t[k]] = True
            if k:
                mask[FINISH] = sel in plays
                return mask  # a started play must be finished
        else:
            index = self.game.set_index
            for t in plays:
                mask[PLAY_BASE + index[t]] = True
        if self.phase == ANSWER:
            mask[PASS] = True
        return mask

    def _apply(self, action: int) -> None:
        self._mask = None
        if self.game.two_decks and ADD_BASE <= action < FINISH:
            self.pending = self.pending + (action - ADD_BASE,)  # the cached plays stay valid
            return
        self._plays = None
        if action == PASS:
            self._pass()
        elif action < PASS:
            self._pick(action - PICK_BASE)
        elif self.game.two_decks:
            cards, self.pending = self.pending, ()
            self._play(cards)
        else:
            self._play(self.game.sets[action - PLAY_BASE])

    def _next(self, p: int) -> int:
        return (p + 1) % self.game.num_players

    def _pass(self) -> None:
        self.passes += 1
        if self.passes == self.game.num_players - 1:  # N11: all others passed in a row
            for c in self.middle:
                self.out[c] += 1
            self.current_player = self.owner
            self.middle, self.owner, self.passes, self.phase = (), None, 0, LEAD
        else:
            self.current_player = self._next(self.current_player)

    def _play(self, cards: tuple[int, ...]) -> None:
        p = self.current_player
        hand, known = self.hands[p], self.known[p]
        for c in cards:
            hand[c] -= 1
            # A played copy is one the table saw picked up, as far as the table knows: the
            # known count drops by the copies played, never below zero. It must not read
            # ``hand`` (a secret count): with two decks that would reveal a dealt duplicate.
            if known[c]:
                known[c] -= 1
        if not any(hand):  # N9 / N12: the deal ends at once, no pick-up
            for c in self.middle + cards:
                self.out[c] += 1
            self.middle, self.owner, self.passes = (), None, 0
            self._end_deal(p)
            return
        if self.phase == LEAD:
            self.middle, self.owner, self.passes = cards, p, 0
            self.phase = ANSWER
            self.current_player = self._next(p)
            return
        self.pending = cards
        if len(set(self.middle)) == 1:  # X6: a choice of one is no choice
            self._pick(self.middle[0])
        else:
            self.phase = PICK

    def _pick(self, c: int) -> None:
        p = self.current_player
        self.hands[p][c] += 1
        self.known[p][c] += 1
        beaten = list(self.middle)
        beaten.remove(c)
        for x in beaten:  # N8: the rest goes out of play
            self.out[x] += 1
        self.middle, self.owner, self.passes, self.pending = self.pending, p, 0, ()
        self.phase = ANSWER
        self.current_player = self._next(p)

    def _end_deal(self, finisher: int) -> None:
        pen = penalties([sum(h) for h in self.hands], finisher)
        self.history.append(pen)
        self.scores_ = [a + b for a, b in zip(self.scores_, pen)]
        if self.game.single_deal or max(self.scores_) >= self.game.target:  # N13
            self.phase, self.current_player, self.over = OVER, None, True
            return
        self.deal += 1
        self.deal_start = self._next(self.deal_start)  # N4
        self._deal_cards()

    def is_terminal(self) -> bool:
        return self.over

    def round_index(self) -> int:
        """Deals finished so far (points are settled at each deal's end)."""
        return self.deal + 1 if self.over else self.deal

    def scores(self) -> np.ndarray:
        return np.asarray(self.scores_, dtype=np.int64)

    def winners(self) -> list[int]:
        best = min(self.scores_)
        return [p for p, x in enumerate(self.scores_) if x == best]

    @property
    def passed(self) -> list[int]:
        """Seats that passed since the middle set was played (they follow its owner in order)."""
        if self.owner is None:
            return []
        n = self.game.num_players
        return [(self.owner + i) % n for i in range(1, self.passes + 1)]

    # ---- information, text and the saved form --------------------------------------------
    # ``view``/``observe`` (encoding.py), ``global_state`` (global_state.py), ``_determinize``
    # (determinize.py), ``check_invariants`` (invariants.py), ``action_name``/``render``/
    # ``render_view`` (text.py) and ``_to_dict``/``_from_dict``/``_check_dict`` (saved.py) are
    # those modules' functions, which ``State`` finds by name (envs/core/game.py).

    def clone(self) -> BigNumberState:
        s = BigNumberState.__new__(BigNumberState)
        s.game = self.game
        s.rng = copy_rng(self.rng)
        s.current_player, s.phase, s.over = self.current_player, self.phase, self.over
        s.hands = [h[:] for h in self.hands]
        s.known = [k[:] for k in self.known]
        s.aside, s.out = self.aside[:], self.out[:]
        s.middle, s.owner, s.passes, s.pending = self.middle, self.owner, self.passes, self.pending
        s.deal, s.deal_start = self.deal, self.deal_start
        s.scores_ = self.scores_[:]
        s.history = [x[:] for x in self.history]
        s._plays = self._plays  # immutable tuples in a list that is never mutated
        s._mask = self._mask  # never mutated: legal_mask() hands out copies
        if self.chance is not None:  # a duplicate board's keyed chance (Game.new_state)
            s.chance = self.chance.copy()
        return s
