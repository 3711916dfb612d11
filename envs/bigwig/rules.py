"""BigWig rules engine (pure Python + numpy; no PettingZoo import).

The rules as implemented, every ruling (B1-B38 and the cross-game X rulings) with its reason,
the resolution order and the layouts are in docs/rules/bigwig.md.

Summary. 2-6 players. Each holds one well card plus 7 of the 52 large cards (36 standard cards,
red/yellow/blue/green 1-9, and 16 white specials that are always trump). Every round reveals the
top of the altar pile (20 point cards of 2-5 VP, 4 holmgang cards):

* a point card: every player plays one card face down at once; after the reveal the highest trump
  wins (all trump colours rank equal; white is always trump, the point card shows the others), or
  the highest card if nobody played a trump; a tie means no winner and the card goes under the
  altar. Special effects resolve in the order of ruling B11 (see ``trick.py``).
* a holmgang: the player with the fewest VP (ties: youngest, B24) challenges another player who
  holds a point card, choosing the target and the card at stake; every other player (onlooker)
  then decides at once whether to spend a Til Valhallar to join (B27: one simultaneous decision,
  revealed together; an onlooker without one can only decline); the duellists and joiners play a
  trick with the stake's colours; the winner takes the stake and every card under the altar. The
  game ends after the 4th holmgang round.

Playing the well card never wins, but afterwards (youngest first, then clockwise) the player takes
it back, sacrifices another card and draws 1/2/3 cards for a sacrificed value 0-3/4-6/7-10, never
beyond 9 cards in hand; with nothing else in hand they draw 2 without a sacrifice. The empty draw
pile is refilled by shuffling the discard pile; everyone saw those cards, so the views keep the
composition of the reshuffled pile and who drew how many from it (``origins.py``). Most VP wins;
ties: most cards in hand; then shared.

Options
    num_players  2-6 (default 4).
    age_order    None (default: seat 0 youngest, then seat 1, ...) or a permutation of the seats,
                 youngest first (ruling X2). The youngest starts the well draws, then clockwise
                 (rulebook special case 1); ties for the fewest VP go to the youngest (B24).

Actions (109 + num_players ids; n = num_players)
    0-45        play a card of kind k into the face-down trick (kinds: see cards.py)
    46          play the well card
    47-92       sacrifice a card of kind k - 47 (after playing the well)
    93          join the holmgang with a Til Valhallar ticket;  94  do not join (every onlooker
                decides, at once; 94 is the only choice without a Til Valhallar)
    95..93+n    challenge the player (a - 94) seats to your left
    94+n..108+n put the challenged player's point card of kind (a - 94 - n) at stake
    Every decision is a single step with an exact mask; forced choices are still asked.

Simultaneous play. A trick's commits are asked one seat at a time (youngest first, then clockwise
among the players of the trick), and so are the onlookers' ticket decisions (in age order);
``simultaneous_players()`` lists the seats that still have to decide, and nothing in any view (hand
sizes included) shows another seat's commit or ticket decision before the reveal. Every onlooker
is asked about a ticket, so who holds a Til Valhallar shows nowhere (W-E1).

Observation (float32, all entries in [0, 1]); seats are relative: index 0 is the observer, then
clockwise. See ``game.layout`` / docs/rules/bigwig.md for the index table.

Global state (``env.state()``, float32 in [0, 1], absolute seats; ``game.state_layout.table()``):
seat 0's observation without its own pieces, then every hand and well, the face-down commits, the
seats yet to act, the draw pile (counts and its next 12 cards in order) and the whole altar pile
in order (global_state.py).

Rewards: win (default), score (VP centred, /20), dense (VP as they are won or lost, /20).

Version history: v0 - first release. v1 - the ticket window is one simultaneous decision of
every onlooker, revealed together (W-E1): who holds a Til Valhallar no longer shows in the phase,
the seats to act, ``agent_selection`` or the number of steps.
"""

from __future__ import annotations

import numpy as np

from ..core.errors import ConfigError
from ..core.game import Game, State, copy_rng
from ..core.options import Option
from . import holmgang, wells

# The action ids and phases (actions.py) and the hand sizes (cards.py) were defined here before
# the engine was split by what it does; importing them from rules.py keeps working.
from .actions import (
    JOIN,
    NONE,
    PASS,
    PHASE_COMMIT,
    PHASE_NAMES,
    PHASE_OVER,
    PHASE_SACRIFICE,
    PHASE_STAKE,
    PHASE_TARGET,
    PHASE_TICKET,
    PLAY_BASE,
    PLAY_WELL,
    SACRIFICE_BASE,
    TARGET_BASE,
    action_name,  # noqa: F401  (re-exported)
    num_actions,
    stake_base,
)
from .cards import (
    DEAL,
    HAND_LIMIT,  # noqa: F401  (re-exported)
    HOLMGANG,
    KIND_COPIES,
    NUM_HOLMGANGS,
    NUM_KINDS,
    NUM_POINT_KINDS,
    NUM_SMALL_KINDS,
    POINT_TRUMP,
    POINT_VP,
    SMALL_COPIES,
    SMALL_TOTAL,  # noqa: F401  (re-exported)
    TIL_VALHALLAR,
    TOTAL_VP,
    WELL,
)
from .encoding import make_layout
from .global_state import make_state_layout
from .holmgang import challenger_of  # noqa: F401  (re-exported)
from .origins import Origins
from .trick import resolve_trick
from .wells import draws_allowed  # noqa: F401  (re-exported)


def winners_of(vp, hand_sizes) -> list[int]:
    """Most VP; ties: most cards in hand (well included); still tied: shared (B33)."""
    best = max(vp)
    tied = [s for s, x in enumerate(vp) if x == best]
    most = max(hand_sizes[s] for s in tied)
    return [s for s in tied if hand_sizes[s] == most]


class BigWigGame(Game):
    name = "bigwig"
    title = "BigWig"
    version = 1
    decision_phases = tuple(p for p in PHASE_NAMES if p != "over")
    simultaneous = True
    min_players = 2
    max_players = 6
    default_players = 4
    score_scale = 20.0
    OPTIONS = (
        Option(
            "age_order",
            None,
            "seats from youngest to oldest; None = seat 0 youngest, then 1, ... (X2)",
            kind=(list, tuple, type(None)),
        ),
    )

    def _setup(self):
        n = self.num_players
        age = self.options["age_order"]
        if age is not None:
            if sorted(age) != list(range(n)) or not all(
                isinstance(s, (int, np.integer)) and not isinstance(s, bool) for s in age
            ):
                raise ConfigError(
                    f"bigwig: option 'age_order' must be a permutation of the seats 0..{n - 1}, "
                    f"got {age!r}"
                )
            self.options["age_order"] = [int(s) for s in age]
        self.age_order = list(range(n)) if age is None else [int(s) for s in age]
        self.age_rank = [0] * n
        for r, s in enumerate(self.age_order):
            self.age_rank[s] = r
        youngest = self.age_order[0]
        # Rulebook special case 1: "The youngest player always starts, then the others follow
        # clockwise."
        self.turn_order = [(youngest + i) % n for i in range(n)]
        self.num_actions = num_actions(n)
        self.stake_base = stake_base(n)
        # One round a small card: a point round asks n commits and at most n sacrifices; a
        # holmgang adds a target, a stake and n - 2 ticket decisions (one per onlooker).
        points = int(SMALL_COPIES.sum()) - NUM_HOLMGANGS
        self.max_game_length = points * 2 * n + NUM_HOLMGANGS * (2 + (n - 2) + 2 * n)
        self.score_bounds = (0, TOTAL_VP)
        self.layout = make_layout(n)
        self.observation_shape = (self.layout.size,)
        self.offsets = {name: a for name, _, a, _ in self.layout.pieces}
        self.seat_order = [np.array([(p + i) % n for i in range(n)]) for p in range(n)]
        self.relative = [[(s - p) % n for s in range(n)] for p in range(n)]
        self.age_rank_scaled = np.array(self.age_rank, dtype=np.float32) / (n - 1)
        self.state_layout = make_state_layout(self)

    def _new_state(self, rng):
        return BigWigState.new(self, rng)


class BigWigState(State):
    __slots__ = (
        "altar",
        "challenger",
        "collected",
        "commits",
        "current_player",
        "discard",
        "draw",
        "game",
        "hands",
        "holmgangs",
        "joiners",
        "last_trick",
        "last_winner",
        "origins",
        "participants",
        "phase",
        "point_on_table",
        "queue",
        "rng",
        "round",
        "round_card",
        "small",
        "stake",
        "target",
        "tickets",
        "trump",
        "well",
    )

    @classmethod
    def new(cls, game: BigWigGame, rng: np.random.Generator) -> BigWigState:
        s = cls.__new__(cls)
        n = game.num_players
        s.game, s.rng = game, rng
        deck = np.repeat(np.arange(NUM_KINDS), KIND_COPIES)
        rng.shuffle(deck)
        s.draw = deck.tolist()  # top = end of the list
        s.hands = np.zeros((n, NUM_KINDS), dtype=np.int64)
        for p in range(n):
            for _ in range(DEAL):
                s.hands[p, s.draw.pop()] += 1
        small = np.repeat(np.arange(NUM_SMALL_KINDS), SMALL_COPIES)
        rng.shuffle(small)
        s.small = small.tolist()
        s.well = [True] * n
        s.origins = Origins.dealt(KIND_COPIES, [DEAL] * n)
        s.discard = np.zeros(NUM_KINDS, dtype=np.int64)
        s.collected = np.zeros((n, NUM_POINT_KINDS), dtype=np.int64)
        s.altar = np.zeros(NUM_POINT_KINDS, dtype=np.int64)
        s.holmgangs = 0
        s.round = 0
        s.last_trick = [NONE] * n
        s.last_winner = NONE
        s._clear_round()
        s._start_round()
        return s

    # ---- round flow (the holmgang's steps: holmgang.py; the well draws: wells.py) ---------
    def _clear_round(self) -> None:
        n = self.game.num_players
        self.round_card = NONE
        self.point_on_table = False
        self.trump = [False] * 4
        self.participants = []
        self.commits = [NONE] * n
        self.challenger = self.target = self.stake = NONE
        self.joiners = []
        self.tickets = []
        self.queue = []

    def _start_round(self) -> None:
        self._clear_round()
        card = self.small.pop()
        self.round += 1
        self.round_card = card
        if card != HOLMGANG:
            self.point_on_table = True
            self.trump = POINT_TRUMP[card].tolist()
            self._start_commits(list(self.game.turn_order))
            return
        holmgang.start(self)

    def _start_commits(self, seats: list[int]) -> None:
        self.participants = [s for s in self.game.turn_order if s in seats]
        self.phase = PHASE_COMMIT
        self.current_player = self.participants[0]

    def _finish_round(self) -> None:
        if self.round_card == HOLMGANG and self.holmgangs == NUM_HOLMGANGS:  # B32
            self.phase = PHASE_OVER
            self.current_player = None
            return
        self._start_round()

    def _resolve(self) -> None:
        """Reveal and resolve the trick (ruling B11 steps 1-9), then start the well draws
        (step 10)."""
        plays = [(s, self.commits[s]) for s in self.participants]
        res = resolve_trick(plays, self.trump)
        w = res.winner
        if self.round_card != HOLMGANG:  # step 7
            if w is None:
                self.altar[self.round_card] += 1
            else:
                self.collected[w, self.round_card] += 1
            self.point_on_table = False
        elif w is not None:  # B29: no winner leaves stake and altar as they are
            self.collected[self.target, self.stake] -= 1
            self.collected[w, self.stake] += 1
            self.collected[w] += self.altar
            self.altar[:] = 0
        if res.loki is not None and self.altar.any():  # step 8 (B15)
            if res.loki_takes_all:
                self.collected[res.loki] += self.altar
                self.altar[:] = 0
            else:  # a blind pick: uniform over the cards (X4)
                k = int(
                    np.searchsorted(
                        np.cumsum(self.altar),
                        self.event_rng("loki").integers(self.altar.sum()),
                        side="right",
                    )
                )
                self.altar[k] -= 1
                self.collected[res.loki, k] += 1
        for s, k in plays:  # step 9
            if k == WELL:
                self.well[s] = True
            else:
                self.discard[k] += 1
                self.origins.reveal(s, k)
        self.last_trick = list(self.commits)
        self.last_winner = NONE if w is None else w
        self.queue = [s for s, k in plays if k == WELL]  # already youngest first, then clockwise
        self.commits = [NONE] * self.game.num_players
        wells.next_sacrifice(self)

    # ---- the protocol -------------------------------------------------------------------
    def legal_mask(self) -> np.ndarray:
        if self.current_player is None:
            return np.zeros(self.game.num_actions, dtype=bool)
        return self.legal_mask_for(self.current_player)

    def legal_mask_for(self, player: int) -> np.ndarray:
        mask = np.zeros(self.game.num_actions, dtype=bool)
        ph = self.phase
        if ph == PHASE_COMMIT:
            if player in self.participants and self.commits[player] == NONE:
                mask[PLAY_BASE : PLAY_BASE + NUM_KINDS] = self.hands[player] > 0
                mask[PLAY_WELL] = self.well[player]
            return mask
        if ph == PHASE_TICKET:  # B27: every onlooker decides; without a ticket it can only decline
            if player in self.queue:
                mask[PASS] = True
                mask[JOIN] = self.hands[player, TIL_VALHALLAR] > 0
            return mask
        if player != self.current_player:
            return mask
        if ph == PHASE_SACRIFICE:
            mask[SACRIFICE_BASE : SACRIFICE_BASE + NUM_KINDS] = self.hands[player] > 0
        elif ph == PHASE_TARGET:
            n = self.game.num_players
            for off in range(1, n):
                mask[TARGET_BASE + off - 1] = self.collected[(player + off) % n].any()
        elif ph == PHASE_STAKE:
            b = self.game.stake_base
            mask[b : b + NUM_POINT_KINDS] = self.collected[self.target] > 0
        return mask

    def is_legal(self, action: int) -> bool:
        """``legal_mask()[action]`` without building the mask (``apply`` asks this every step)."""
        p, ph = self.current_player, self.phase
        if ph == PHASE_COMMIT:
            return (
                bool(self.well[p])
                if action == PLAY_WELL
                else action < NUM_KINDS and self.hands[p, action] > 0
            )
        if ph == PHASE_SACRIFICE:
            return SACRIFICE_BASE <= action < JOIN and self.hands[p, action - SACRIFICE_BASE] > 0
        return bool(self.legal_mask()[action])

    def simultaneous_players(self) -> tuple[int, ...]:
        if self.phase == PHASE_COMMIT:
            return tuple(s for s in self.participants if self.commits[s] == NONE)
        if self.phase == PHASE_TICKET:
            return tuple(self.queue)
        return super().simultaneous_players()

    def _apply(self, action: int) -> None:
        p = self.current_player
        ph = self.phase
        if ph == PHASE_COMMIT:
            self._commit(p, action)
        elif ph == PHASE_SACRIFICE:
            wells.sacrifice(self, p, action)
        elif ph == PHASE_TICKET:
            holmgang.decide_ticket(self, p, action)
        elif ph == PHASE_TARGET:
            holmgang.choose_target(self, p, action)
        elif ph == PHASE_STAKE:
            holmgang.choose_stake(self, action)

    def _commit(self, p: int, action: int) -> None:
        """A card face down into the trick; after the last commit, the reveal."""
        if action == PLAY_WELL:
            self.well[p] = False
            self.commits[p] = WELL
        else:
            self.hands[p, action] -= 1
            self.commits[p] = action
        rest = self.simultaneous_players()
        if rest:
            self.current_player = rest[0]
        else:
            self._resolve()

    def is_terminal(self) -> bool:
        return self.phase == PHASE_OVER

    def vp(self) -> np.ndarray:
        return self.collected @ POINT_VP

    def round_index(self) -> int:
        """Rounds (altar cards) resolved so far: each settles at most one point card."""
        return self.round if self.is_terminal() else max(self.round - 1, 0)

    def scores(self) -> np.ndarray:
        return self.vp()

    def hand_size(self, p: int) -> int:
        """Cards in hand, the well included (a committed card does not count)."""
        return int(self.hands[p].sum()) + int(self.well[p])

    def public_sizes(self) -> np.ndarray:
        return self.hands.sum(axis=1) + np.asarray(self.well) + (np.asarray(self.commits) != NONE)

    def public_hand_sizes(self) -> list[int]:
        """Hand sizes as the table sees them: face-down committed cards still count until the
        reveal."""
        return self.public_sizes().tolist()

    def winners(self) -> list[int]:
        return winners_of(
            self.vp().tolist(), [self.hand_size(p) for p in range(self.game.num_players)]
        )

    # ---- information ------------------------------------------------------------------
    def to_act(self, player: int) -> bool:
        if self.phase == PHASE_COMMIT:
            return player in self.participants and self.commits[player] == NONE
        if self.phase == PHASE_TICKET:
            return player in self.queue
        return player == self.current_player

    def shown_current_player(self, player: int) -> int | None:
        """The deciding seat as ``player`` sees it: nobody in a trick or in the ticket window
        (both are simultaneous decisions: ``to_act`` tells a seat whether it still decides)."""
        if self.phase in (PHASE_COMMIT, PHASE_TICKET, PHASE_OVER):
            return None
        return self.current_player

    def clone(self) -> BigWigState:
        s = BigWigState.__new__(BigWigState)
        s.game = self.game
        s.rng = copy_rng(self.rng)
        s.current_player, s.phase = self.current_player, self.phase
        s.hands, s.discard = self.hands.copy(), self.discard.copy()
        s.collected, s.altar = self.collected.copy(), self.altar.copy()
        s.well, s.draw, s.small = list(self.well), list(self.draw), list(self.small)
        s.origins = self.origins.clone()
        s.holmgangs, s.round, s.round_card = self.holmgangs, self.round, self.round_card
        s.point_on_table, s.trump = self.point_on_table, list(self.trump)
        s.participants, s.commits = list(self.participants), list(self.commits)
        s.challenger, s.target, s.stake = self.challenger, self.target, self.stake
        s.joiners, s.queue = list(self.joiners), list(self.queue)
        s.tickets = list(self.tickets)
        s.last_trick, s.last_winner = list(self.last_trick), self.last_winner
        if self.chance is not None:  # a duplicate board's keyed chance (Game.new_state)
            s.chance = self.chance.copy()
        return s
