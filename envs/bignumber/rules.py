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

Actions. Ids 0-36 are the same in both modes:
    0-35    take card type c into hand (the pick-up, N8); c = 4 * (rank - 1) + suit, suits
            clubs, diamonds, hearts, spades. Asked only when the beaten set holds two or more
            distinct card types; otherwise the pick-up is automatic (X6).
    36      pass (N10; never legal for the leader)
  one deck (2180 ids): one action a play
    37-2179 play set ``SETS[a - 37]`` (36 singles, 2008 same-suit sets, 99 same-rank sets)
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

from ..core.encoding import Layout
from ..core.errors import ConfigError
from ..core.game import Game, State, copy_rng
from ..core.global_state import StateLayout
from ..core.options import Option
from .cards import (
    HAND_SIZE,
    NUM_TYPES,
    SET_INDEX,
    SETS,
    card_name,
    cards_name,
    expand,
    is_set,
    legal_plays,
    parse_cards,
    penalties,
    play_value,
)

PICK_BASE = 0
PASS = NUM_TYPES  # 36
PLAY_BASE = PASS + 1  # 37: one deck, a set a play
NUM_ACTIONS_ONE_DECK = PLAY_BASE + len(SETS)  # 2180
ADD_BASE = PASS + 1  # 37: two decks, one card a step
FINISH = ADD_BASE + NUM_TYPES  # 73
NUM_ACTIONS_TWO_DECKS = FINISH + 1  # 74

LEAD, ANSWER, PICK, OVER = 0, 1, 2, 3
PHASE_NAMES = ("lead", "answer", "pick", "over")


def max_deals(num_players: int, target: int) -> int:
    """An upper bound on the number of deals: every deal gives each player but one >= 1 point."""
    return num_players * (target - 1) // (num_players - 1) + 1


def max_decisions_per_deal(num_players: int, two_decks: bool) -> int:
    """An upper bound on the decisions of one deal (``max_game_length`` is this x ``max_deals``).

    Count the cards in hands and in the middle, C <= 9n (hands never grow). A lead moves cards
    from a hand to the middle (C unchanged); beating an m-card middle takes one of its cards into
    a hand and puts m - 1 out (C drops by m - 1); clearing the middle drops C by its size >= 1.
    So clears and beats of a middle of 2+ cards happen at most 9n + 1 times in all, and after each
    lead at most 9 beats meet a one-card middle (8 higher single cards, one two-card answer): at
    most 10 (9n + 1) plays. A play is one decision (two decks: up to 9 cards and finish), at most
    one pick-up follows it, and at most n - 1 passes.
    """
    plays = 10 * (HAND_SIZE * num_players + 1)
    return plays * ((HAND_SIZE + 1 if two_decks else 1) + 1 + num_players - 1)


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
        self.single_deal = o["single_deal"]
        self.target = o["target"]
        self.max_deals = 1 if self.single_deal else max_deals(n, self.target)
        self.max_score = HAND_SIZE if self.single_deal else self.target - 1 + HAND_SIZE
        self.score_scale = float(HAND_SIZE if self.single_deal else self.target)
        self.max_game_length = self.max_deals * max_decisions_per_deal(n, self.two_decks)
        self.score_bounds = (0, self.max_score)
        self.num_actions = NUM_ACTIONS_TWO_DECKS if self.two_decks else NUM_ACTIONS_ONE_DECK
        # The count pieces (hand .. known) come first and are contiguous: observe fills them
        # with one assignment and scales them by 1 / copies at once.
        pieces = [("hand", NUM_TYPES)]  # own cards, count / copies
        if self.two_decks:
            pieces.append(("selection", NUM_TYPES))  # the play being built, own seat only
        pieces += [
            ("played", NUM_TYPES),  # the set just played, awaiting its pick-up
            ("middle", NUM_TYPES),  # the set in the middle (the beaten one during the pick-up)
            ("out_of_play", NUM_TYPES),  # cards out of play this deal, count / copies
            ("known", (n, NUM_TYPES)),  # cards each relative seat is known to hold (X7)
            ("middle_size", HAND_SIZE),  # one-hot size 1-9 of the middle set
            ("middle_owner", n),  # one-hot relative seat that played the middle set
            ("hand_sizes", n),  # / 9
            ("scores", n),  # penalty points / (target + 8), or / 9 with single_deal
            ("passed", n),  # seats that passed since the middle set was played
            ("current_player", n),  # one-hot relative seat to act
            ("deal_start", n),  # one-hot relative seat that started this deal
            ("phase", 3),  # one-hot: lead, answer, pick
            ("deal", 1),  # deal index / (max deals - 1)
        ]
        self.layout = Layout(pieces)
        self.observation_shape = (self.layout.size,)
        self.offsets = {name: a for name, _, a, _ in self.layout.pieces}
        self.count_size = self.offsets["middle_size"]
        hidden = [("hands", (n, NUM_TYPES))]  # every seat's cards, count / copies
        if self.two_decks:
            hidden.append(("selection", NUM_TYPES))  # the play the seat to act is building
        hidden.append(("aside", NUM_TYPES))  # the cards dealt to nobody this deal (N3)
        own = ("hand", "selection") if self.two_decks else ("hand",)  # the observer's pieces
        self.state_layout = StateLayout(self.layout, own, hidden)

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
        s.hands = [_counts(parse_cards(h) if isinstance(h, str) else h) for h in hands]
        s.known = [[0] * NUM_TYPES for _ in range(n)]
        s.out = _counts(parse_cards(out) if isinstance(out, str) else (out or ()))
        if aside is None:
            s.aside = [
                game.copies - sum(h[c] for h in s.hands) - s.out[c] for c in range(NUM_TYPES)
            ]
        else:
            s.aside = _counts(parse_cards(aside) if isinstance(aside, str) else aside)
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
        n, copies = self.game.num_players, self.game.copies
        deck = np.repeat(np.arange(NUM_TYPES), copies)
        self.rng.shuffle(deck)
        self.hands = [_counts(deck[p * HAND_SIZE : (p + 1) * HAND_SIZE].tolist()) for p in range(n)]
        self.aside = _counts(deck[n * HAND_SIZE :].tolist())  # N3: unseen, unused this deal
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
            for t in plays:
                mask[PLAY_BASE + SET_INDEX[t]] = True
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
            self._play(SETS[action - PLAY_BASE])

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

    # ---- information ------------------------------------------------------------------------
    def view(self, player: int) -> dict:
        """What ``player`` may know (N14): own hand and selection, everything face up, sizes."""
        building = self.phase in (LEAD, ANSWER) and player == self.current_player
        return {
            "player": player,
            "num_players": self.game.num_players,
            "two_decks": self.game.two_decks,
            "deal": self.deal,
            "deal_start": self.deal_start,
            "current_player": self.current_player,
            "phase": PHASE_NAMES[self.phase],
            "hand": expand(self.hands[player]),
            "selection": list(self.pending) if building else [],
            "played": list(self.pending) if self.phase == PICK else [],
            "middle": list(self.middle),
            "middle_owner": self.owner,
            "middle_value": play_value(self.middle) if self.middle else 0,
            "passed": self.passed,
            "out_of_play": expand(self.out),
            "known": [expand(k) for k in self.known],
            "hand_sizes": [sum(h) for h in self.hands],
            "scores": list(self.scores_),
            "deal_penalties": [list(x) for x in self.history],
        }

    def observe(self, player: int) -> np.ndarray:
        g = self.game
        n = g.num_players
        o = g.offsets
        buf = np.zeros(g.layout.size, dtype=np.float32)
        order = [(player + i) % n for i in range(n)]
        empty = [0] * NUM_TYPES
        counts = list(self.hands[player])
        if g.two_decks:
            building = self.phase in (LEAD, ANSWER) and player == self.current_player
            counts += _counts(self.pending) if building and self.pending else empty
        counts += _counts(self.pending) if self.phase == PICK else empty
        counts += _counts(self.middle) if self.middle else empty
        counts += self.out
        for q in order:
            counts += self.known[q]
        buf[: g.count_size] = counts
        if g.copies > 1:
            buf[: g.count_size] *= 1.0 / g.copies
        if self.middle:
            buf[o["middle_size"] + len(self.middle) - 1] = 1.0
            buf[o["middle_owner"] + (self.owner - player) % n] = 1.0
        a = o["hand_sizes"]
        buf[a : a + n] = [sum(self.hands[q]) / HAND_SIZE for q in order]
        a = o["scores"]
        buf[a : a + n] = [min(self.scores_[q] / g.max_score, 1.0) for q in order]
        for q in self.passed:
            buf[o["passed"] + (q - player) % n] = 1.0
        if self.current_player is not None:
            buf[o["current_player"] + (self.current_player - player) % n] = 1.0
            buf[o["phase"] + self.phase] = 1.0
        buf[o["deal_start"] + (self.deal_start - player) % n] = 1.0
        buf[o["deal"]] = min(self.deal / max(g.max_deals - 1, 1), 1.0)
        return buf

    def global_state(self) -> np.ndarray:
        """Seat 0's observation without its own pieces, then every hand, the selection being built
        and the aside cards. No order is encoded: every deal is shuffled afresh."""
        g = self.game
        buf, v = g.state_layout.start(self.observe(0))
        scale = 1.0 / g.copies
        v["hands"] = np.asarray(self.hands) * scale
        v["aside"] = np.asarray(self.aside) * scale
        if self.pending and self.phase in (LEAD, ANSWER):
            v["selection"] = np.asarray(_counts(self.pending)) * scale
        return buf

    def _determinize(self, player: int, rng: np.random.Generator) -> BigNumberState:
        """Resample the cards ``player`` cannot see: the others' unknown cards and the aside ones.

        Known cards (picked up, not played since) stay with their holders. Another seat's
        selection in progress is invisible to ``player``, so it is dropped (the copy is at the
        start of that seat's decision, which looks the same to ``player``).
        """
        s = self.clone()
        n = self.game.num_players
        others = [q for q in range(n) if q != player]
        pool = list(self.aside)
        for q in others:
            for c in range(NUM_TYPES):
                pool[c] += self.hands[q][c] - self.known[q][c]
        cards = np.asarray(expand(pool), dtype=np.int64)
        rng.shuffle(cards)
        pos = 0
        for q in others:
            k = sum(self.hands[q]) - sum(self.known[q])
            h = list(self.known[q])
            for c in cards[pos : pos + k].tolist():
                h[c] += 1
            s.hands[q] = h
            pos += k
        s.aside = _counts(cards[pos:].tolist())
        if self.phase in (LEAD, ANSWER) and self.current_player != player:
            s.pending = ()
        s._plays = s._mask = None
        return s

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
        return s

    def check_invariants(self) -> None:
        """Card conservation, hand limits, known cards held, a well-formed middle (for tests)."""
        g = self.game
        total = [
            self.aside[c] + self.out[c] + sum(h[c] for h in self.hands) for c in range(NUM_TYPES)
        ]
        for c in self.middle:
            total[c] += 1
        if self.phase == PICK:
            for c in self.pending:
                total[c] += 1
        if total != [g.copies] * NUM_TYPES or min(self.aside) < 0 or min(self.out) < 0:
            raise AssertionError(
                f"card conservation broken: {total}, aside {self.aside}, out {self.out}"
            )
        for p in range(g.num_players):
            size = sum(self.hands[p])
            if size > HAND_SIZE or min(self.hands[p]) < 0:
                raise AssertionError(f"player {p} holds {size} cards: {self.hands[p]}")
            if any(k > h for k, h in zip(self.known[p], self.hands[p])):
                raise AssertionError(f"player {p} is known to hold cards not in hand")
            if not self.over and size == 0:
                raise AssertionError(f"player {p} has an empty hand in a running deal")
        if self.middle and not is_set(self.middle):
            raise AssertionError(f"middle {self.middle} is not a set")
        if (self.middle == ()) != (self.owner is None):
            raise AssertionError("the middle and its owner disagree")
        if not 0 <= self.passes < (1 if self.owner is None else g.num_players - 1):
            raise AssertionError(f"{self.passes} passes in a row should have ended the round")
        if self.phase == LEAD and self.middle:
            raise AssertionError("a lead with cards in the middle")
        if self.phase == ANSWER and self.owner == self.current_player:
            raise AssertionError("a player is asked to answer their own set (N11)")
        if self.pending and self.phase in (LEAD, ANSWER):
            held = self.hands[self.current_player]
            if any(self.pending.count(c) > held[c] for c in set(self.pending)):
                raise AssertionError(f"selection {self.pending} is not in the hand")

    # ---- text and serialisation -------------------------------------------------------------
    def action_name(self, action: int) -> str:
        if 0 <= action < PASS:
            return f"take {card_name(action - PICK_BASE)}"
        if action == PASS:
            return "pass"
        if self.game.two_decks:
            if ADD_BASE <= action < FINISH:
                return f"add {card_name(action - ADD_BASE)}"
            if action == FINISH:
                return "finish play"
        elif PLAY_BASE <= action < NUM_ACTIONS_ONE_DECK:
            t = SETS[action - PLAY_BASE]
            return f"play {cards_name(t)} ({play_value(t)})"
        return f"<invalid action {action}>"

    def render(self, observer: int | None = None) -> str:
        """Every hand (a spectator's view), or with ``observer`` what that seat sees."""
        if observer is not None:
            return self.render_view(observer)
        n = self.game.num_players
        head = (
            f"Big Number - deal {self.deal + 1}, started by player_{self.deal_start}; "
            f"out of play: {cards_name(expand(self.out)) or '-'}"
        )
        lines = [head]
        if self.middle:
            lines.append(
                f"middle: {cards_name(self.middle)} ({play_value(self.middle)}) "
                f"by player_{self.owner}"
                + (
                    f"; passed: {', '.join(f'player_{q}' for q in self.passed)}"
                    if self.passes
                    else ""
                )
            )
        if self.pending:
            what = "beats it with" if self.phase == PICK else "is choosing"
            lines.append(f"player_{self.current_player} {what} {cards_name(self.pending)}")
        for p in range(n):
            mark = ">" if p == self.current_player else " "
            lines.append(
                f"{mark} player_{p}: {self.scores_[p]:>3} pts, "
                f"hand [{cards_name(expand(self.hands[p]))}]"
            )
        if self.over:
            lines.append(self.game_over_line())
        else:
            lines.append(f"player_{self.current_player} to {PHASE_NAMES[self.phase]}")
        return "\n".join(lines)

    def render_view(self, player: int) -> str:
        """The table as ``player`` sees it, from ``view(player)`` only, with the card names of the
        action list (``7♥``; type ``7h`` for it)."""
        v = self.view(player)
        lines = [
            (
                f"Big Number - deal {v['deal'] + 1}, started by player_{v['deal_start']}; "
                f"out of play: {cards_name(v['out_of_play']) or '-'}"
            )
        ]
        if v["middle"]:
            passed = ", ".join(f"player_{q}" for q in v["passed"])
            lines.append(
                f"middle: {cards_name(v['middle'])} ({v['middle_value']}) by "
                f"player_{v['middle_owner']}" + (f"; passed: {passed}" if passed else "")
            )
        else:
            lines.append("middle: empty")
        if v["played"]:
            lines.append(f"player_{v['current_player']} beat it with {cards_name(v['played'])}")
        for q in range(v["num_players"]):
            mark = ">" if q == v["current_player"] else " "
            if q == player:
                held = f"hand {cards_name(v['hand'])}"
            else:
                known = f" (known: {cards_name(v['known'][q])})" if v["known"][q] else ""
                held = f"{v['hand_sizes'][q]} cards{known}"
            you = " (you)" if q == player else ""
            lines.append(f"{mark} player_{q}{you}: {v['scores'][q]} pts; {held}")
        if v["selection"]:
            lines.append(f"your play so far: {cards_name(v['selection'])}")
        if v["current_player"] is None:
            lines.append(f"game over; winners: {', '.join(f'player_{w}' for w in self.winners())}")
        else:
            lines.append(f"player_{v['current_player']} to {v['phase']}")
        return "\n".join(lines)

    def _to_dict(self) -> dict:
        return {
            "current_player": self.current_player,
            "phase": self.phase,
            "over": self.over,
            "hands": [h[:] for h in self.hands],
            "known": [k[:] for k in self.known],
            "aside": self.aside[:],
            "out": self.out[:],
            "middle": list(self.middle),
            "owner": self.owner,
            "passes": self.passes,
            "pending": list(self.pending),
            "deal": self.deal,
            "deal_start": self.deal_start,
            "scores": self.scores_[:],
            "history": [x[:] for x in self.history],
        }

    @classmethod
    def _check_dict(cls, game, d: dict) -> None:
        """``from_dict``'s check of the saved fields (saved.py): ``ValueError`` naming the field."""
        from .saved import check_state

        check_state(game, d)

    @classmethod
    def _from_dict(cls, game: BigNumberGame, d: dict) -> BigNumberState:
        s = cls.__new__(cls)
        s.game = game
        s.current_player, s.phase, s.over = d["current_player"], d["phase"], d["over"]
        s.hands = [list(h) for h in d["hands"]]
        s.known = [list(k) for k in d["known"]]
        s.aside, s.out = list(d["aside"]), list(d["out"])
        s.middle, s.owner = tuple(d["middle"]), d["owner"]
        s.passes, s.pending = d["passes"], tuple(d["pending"])
        s.deal, s.deal_start = d["deal"], d["deal_start"]
        s.scores_ = list(d["scores"])
        s.history = [list(x) for x in d["history"]]
        s._plays = s._mask = None
        return s


def _counts(cards) -> list[int]:
    out = [0] * NUM_TYPES
    for c in cards:
        out[c] += 1
    return out
