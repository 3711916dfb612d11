"""Midgard: The Card Game, rules engine (pure Python + numpy; no PettingZoo import).

The rules as implemented, every ruling (M1-M51, the cross-game X rulings and this
implementation's MD rulings) with its reason, the action table and the observation table are in
docs/rules/midgard.md. Card data (88 troops, 9 wildcards, 17 events, 8 reactions, 40 challenges,
30 rewards, 9 worlds) is ``data/midgard.json``: invented values are marked synthetic there.

Code by phase, in modules of functions of the state (none imports this module back): this module
holds the game and the state (set-up, the cards, coins and results, ``legal_mask``/``is_legal``
and ``_step``'s tables of handlers by decision mode); turn.py (Hiring, Preparation, Spoils, the
Krog offer), onslaught.py (travel, facing, attacking), contest.py (challenge attempts and
battles: windows, bonuses, results), challenge_list.py (the open challenges), cardplay.py (events,
reactions, the queue frames), windows.py (reaction windows), masks.py (legal actions), frames.py
(the decision frames). What a position shows is found by name (envs/core/game.py,
``FUNCTION_MODULES``): encoding.py (``view``, ``observe``), global_state.py, determinize.py,
invariants.py, text.py and saved.py (``to_dict``, ``from_dict``, ``check_state``).

Summary. 3-6 Järls, 9 cards and 6 coins each, 6 open challenges (instant effects and "open
another" cascades applied), everyone in Midgard, the calendar at its start. A turn: (1) Hiring:
draw 1 from the Thing. (2) Preparation: own troops regroup; lay down troops (3+ cards in sequence,
with Snedig on a flank, or in series; Tyr replaces 1 card, Thor 2 and counts as 1; at most half
the cards wildcards; at most 5 troops), complete own troops (relocating displaced wildcards),
Claim for Gods on opponents' troops. (3) Onslaught, any number of times with regrouped troops:
travel (the world's troop sizes, its benefit on arrival), face a challenge in your world (first
troop free, +1 coin per extra troop; class icons met by natural cards across the troops; coin
and discard icons paid; might >= difficulty incl. season and lasting effects wins the renown, the
troops go to Valhalla, the list refills to 6, calendar challenges turn the calendar), battle a
Järl in your world (1 coin, one troop; the defender may defend with one; ties to the attacker;
the winner draws a reward; undefended: draw 2 keep 1). (4) Spoils: discard 1 (troops/wildcards
to Krog, events/reactions to Valhalla); after a trip or a won challenge draw up to 9. Between
turns the Krog top is offered clockwise from the next player (1 coin: the Krog top + a Thing
card). The game ends when the calendar returns to the sword (M47), when no calendar challenge
is left (M48) or at the ``max_turns`` / ``max_decisions`` caps (truncation). Most renown wins;
ties: challenge renown, then coins (coin rewards included), then a shared win.

Events, reactions and bonuses (cardplay.py, windows.py, contest.py). One event per Preparation
(Bragi's Song allows another), effect at once, then Valhalla (not before: MD20); attack events hit
every seat (the player too), personal ones the player. Reactions are the only out-of-turn play:
after each trigger a reaction window asks the seats in the ruled order (the active seat, then
clockwise; M42), every seat the trigger lets answer that holds a card, with a forced pass where none
of its cards fits (MD15: being asked is public); a played event or reaction opens its own window
(Odin's Reprimand cancels it; chains resolve last-in first-out); the reactor draws a replacement at
once. Bonus cards (any event or reaction for its +3/+5/+7, face down, one per side), asked as the
windows are: on a challenge the opponents from the left until one places, then the facing seat
(M30); in a battle the attacker, then the defender, secretly (M37, MD16); revealed together, then
Valhalla.

Options
    start_position  calendar start 0 (default, the sword: 8 steps), 2, 4 or 6 (M46 short games).
    max_turns       turns (all seats together) before the game is cut off and scored; default
                    400, range 1..100000.
    max_decisions   decisions (all seats) before the game is cut off and scored, a guard against
                    policies that loop inside a turn; default 20000, range 1..10000000.
    start_player    None (default: seeded chance, M7) or a seat 0..N-1.
    reaction_windows
                    "all" (default): windows and bonus rounds ask every seat with a card (MD15);
                    "holders_leaky": only the seats holding a card that fits, as v0 did, with
                    fewer decisions, but being asked or skipped then reveals hidden cards.

Actions (one fixed Discrete(557) space for every player count; ranges in ``actions.RANGES``)
    0 hire, 1 pass (Krog); 2 end phase; 3 new troop; 4 finish/confirm; 5 cancel; 6 refuse to
    defend; then place_class (troop 0-5 x class), place_snedig (troop x side), place_tyr (troop x
    slot), place_thor (troop x class 0-9), relocate (2), claim_target (opponent x troop),
    claim (slot x form), travel (9 worlds), face (40 challenges), select_troop (5), attack
    (opponent x troop), defend (5), take_card (card kinds), discard (card kinds), reserve (40),
    keep_reward (6), reveal_reward (6); part 2, appended: play_event (17 events), bonus (25
    events and reactions), react (8 reactions), move (9 worlds, a move by a card effect); ``pass``
    also declines a reaction or a bonus. Troop 5 is the troop being laid down. Discrete(557).

Observation (float32 in [0, 1]; seats relative to the observer): ``encoding.make_layout(n)``,
printed in docs/rules/midgard.md.

Global state (``env.state()``, float32 in [0, 1], absolute seats; ``game.state_layout``): seat 0's
observation without what only it sees, then every hand and unrevealed reward, the face-down
bonuses and their owners, the rewards drawn to choose from, and the decks: the Thing's counts and
next 12 cards, the whole reward pile in order, the challenge deck and its next 6 (global_state.py).

Rewards: win (default), score (renown centred, /30), dense (challenge renown as it is won, /30;
secret renown rewards are added at the last step).

Version history: v0 - part 1 (no event/reaction play, no bonuses); then part 2 within v0:
events, reaction windows and bonus cards (new actions appended, observation grown; golden
playthroughs regenerated). v1 - rule-fidelity round 3 (issue #45): reaction windows and bonus
rounds ask every seat with a card, a forced pass where none fits (M-E1, MD15; the option
``reaction_windows`` keeps v0's skipping as a leaky mode); the Thing is reshuffled the moment it
runs out (M-E2); coin rewards can be revealed at the Krog offer and while choosing troops for a
challenge (M-E3).
"""

from __future__ import annotations

import numpy as np

from ..core.game import Game, LazyRng, State
from ..core.options import Option
from . import actions as A
from . import cardplay, contest, onslaught, turn
from . import challenges as C
from .cardplay import settle
from .cards import DATA, IGNORE_KINDS
from .challenge_list import refill
from .encoding import make_layout
from .frames import copy_record
from .global_state import make_state_layout
from .masks import LEGAL, MASKS
from .modes import (  # noqa: F401  (re-exported: the modes are part of the engine's API)
    BONUS,
    BUILD,
    CHALLENGE,
    CLAIM,
    DEFEND,
    DISCARD_REQ,
    ENGAGE,
    EV_DISCARD,
    HAND_SIZE,
    KEEP,
    KROG,
    MIN_OPEN,
    MODE_NAMES,
    MODE_RANGES,
    MOVE,
    NUM_MODES,
    ONSLAUGHT,
    PREP,
    REACT,
    RELOCATE,
    RESERVE,
    SPOILS,
    START_COINS,
    TAKE,
    TOTAL_COINS,
    TRAVEL,
)
from .troops import REL_NAMES
from .turn import start_turn

MIGHT = DATA.might


class MidgardGame(Game):
    name = "midgard"
    title = "Midgard"
    version = 1
    decision_phases = MODE_NAMES  # the decision mode on top of the stack
    min_players = 3
    max_players = 6
    default_players = 4
    score_scale = 30.0
    OPTIONS = (
        Option(
            "start_position",
            0,
            "calendar start position (M46): 0 = the sword, 8 steps to the end",
            choices=(0, 2, 4, 6),
        ),
        Option(
            "max_turns",
            400,
            "turns (all seats) before the game is cut off and scored (M48)",
            kind=int,
            check=lambda v: 1 <= v <= 100_000,
            check_doc="must be in 1..100000",
        ),
        Option(
            "max_decisions",
            20_000,
            "decisions (all seats) before the game is cut off and scored: a "
            "guard against policies that loop (cancel, re-claim) within a turn",
            kind=int,
            check=lambda v: 1 <= v <= 10_000_000,
            check_doc="must be in 1..10000000",
        ),
        Option("start_player", None, "first seat; None = seeded chance draw (M7)", seat=True),
        Option(
            "reaction_windows",
            "all",
            "who reaction windows and bonus rounds ask (MD15): 'all' = every seat the rules "
            "let answer, a forced pass without an eligible card; 'holders_leaky' = only seats "
            "holding one (fewer decisions, but being asked or skipped reveals hidden cards)",
            choices=("all", "holders_leaky"),
        ),
    )

    def _setup(self):
        self.data = DATA
        self.num_actions = A.NUM_ACTIONS
        self.layout = make_layout(self.num_players)
        self.observation_shape = (self.layout.size,)
        self.max_game_length = self.options["max_decisions"]  # the engine cuts the game off there
        renown = sum(
            v * k for (kind, v), k in zip(DATA.rewards, DATA.reward_counts) if kind == "renown"
        )
        self.score_bounds = (0, sum(c.renown for c in DATA.challenges) + renown)
        self.state_layout = make_state_layout(self)
        # MD15: ask only the seats holding an eligible card (the leaky fast mode), else every seat
        # with a card in hand (windows.asks)
        self.ask_holders_only = self.options["reaction_windows"] == "holders_leaky"

    def _new_state(self, rng):
        return MidgardState.new(self, rng)


class MidgardState(LazyRng, State):
    # The chance generator is materialised lazily (LazyRng): clones and JSON dumps copy its state
    # dict (a few microseconds) instead of building a new generator each time.

    # ---- set-up (M8) --------------------------------------------------------------------
    @classmethod
    def new(cls, game: MidgardGame, rng: np.random.Generator) -> MidgardState:
        s = cls.blank(game, rng)
        n = game.num_players
        deck = np.repeat(np.arange(DATA.num_kinds), DATA.kind_counts)
        rng.shuffle(deck)
        s.thing = deck.tolist()
        for p in range(n):
            for _ in range(HAND_SIZE):
                s.hands[p, s.thing.pop()] += 1
        s.coins[:] = START_COINS
        s.skat = TOTAL_COINS - START_COINS * n
        rdeck = np.repeat(np.arange(len(DATA.rewards)), DATA.reward_counts)
        rng.shuffle(rdeck)
        s.reward_deck = rdeck.tolist()
        cdeck = np.arange(len(DATA.challenges))
        rng.shuffle(cdeck)
        s.ch_deck = cdeck.tolist()
        refill(s)
        sp = game.options["start_player"]
        s.start_player = int(rng.integers(n)) if sp is None else sp
        start_turn(s, s.start_player)
        return s

    @classmethod
    def blank(cls, game: MidgardGame, rng) -> MidgardState:
        """An empty table (no cards dealt): for set-up and for tests that build positions."""
        s = cls.__new__(cls)
        n = game.num_players
        s.game, s.rng = game, rng
        s.hands = np.zeros((n, DATA.num_kinds), dtype=np.int64)
        s.known = np.zeros(
            (n, DATA.num_kinds), dtype=np.int64
        )  # cards publicly known to be in each hand
        s.thing, s.krog = [], []
        # M40 (M-E2): the Thing's cards at the last reshuffle (public: they came face up from
        # Valhalla and the Krog; None before the first one) and each seat's draws from it since
        # (private to that seat); the Thing plus those draws is that public multiset (determinize)
        s.thing_base = None
        s.thing_drawn = np.zeros((n, DATA.num_kinds), dtype=np.int64)
        s.valhalla = np.zeros(DATA.num_kinds, dtype=np.int64)
        s.troops = [[] for _ in range(n)]
        s.pending = None
        s.coins = np.zeros(n, dtype=np.int64)
        s.skat = TOTAL_COINS
        s.world = np.zeros(n, dtype=np.int64)
        s.reward_deck = []
        s.rewards = np.zeros((n, len(DATA.rewards)), dtype=np.int64)  # hidden, held
        s.revealed = np.zeros((n, len(DATA.rewards)), dtype=np.int64)  # revealed coin rewards
        s.reward_top_known = -1
        s.ch_deck, s.open = [], []
        s.reserved = [-1] * n
        s.won = [[] for _ in range(n)]
        s.ch_out = []
        s.calendar = game.options["start_position"]
        s.turn = 0
        s.decisions = 0
        s.start_player = 0
        s.active = 0
        s.made_trip = s.won_challenge = s.had_troops = False
        s.stack = []
        s.played = []  # events/reactions played, waiting for their reaction window (cardplay.py)
        s.pool = []  # cards discarded face up to Loki's Trick, until its player keeps one
        s.contest = None  # the challenge attempt or battle being resolved (bonuses, reactions)
        s.events_left = 0  # events the active seat may still play this Preparation
        s.over = s.truncated = False
        s.end_reason = ""
        s._mask = None
        return s

    def clone(self) -> MidgardState:
        """A hand-rolled copy (the hot path of search); a duplicate board's keyed chance too
        (``Game.new_state``)."""
        s = type(self).__new__(type(self))
        s.game = self.game
        s.defer_rng(self.rng_source())
        s.hands, s.known, s.valhalla = self.hands.copy(), self.known.copy(), self.valhalla.copy()
        s.thing, s.krog = list(self.thing), list(self.krog)
        s.thing_base = None if self.thing_base is None else self.thing_base.copy()
        s.thing_drawn = self.thing_drawn.copy()
        s.troops = [[t.copy() for t in ts] for ts in self.troops]
        s.pending = None if self.pending is None else self.pending.copy()
        s.coins, s.skat, s.world = self.coins.copy(), self.skat, self.world.copy()
        s.reward_deck = list(self.reward_deck)
        s.rewards, s.revealed = self.rewards.copy(), self.revealed.copy()
        s.reward_top_known = self.reward_top_known
        s.ch_deck, s.open, s.reserved = list(self.ch_deck), list(self.open), list(self.reserved)
        s.won, s.ch_out = [list(w) for w in self.won], list(self.ch_out)
        s.calendar, s.turn, s.start_player, s.active = (
            self.calendar,
            self.turn,
            self.start_player,
            self.active,
        )
        s.decisions = self.decisions
        s.made_trip, s.won_challenge, s.had_troops = (
            self.made_trip,
            self.won_challenge,
            self.had_troops,
        )
        s.stack = [f.copy() for f in self.stack]
        s.over, s.truncated, s.end_reason = self.over, self.truncated, self.end_reason
        s.played = [copy_record(c) for c in self.played]
        s.pool = list(self.pool)
        s.contest = None if self.contest is None else copy_record(self.contest)
        s.events_left = self.events_left
        s._mask = self._mask
        if self.chance is not None:
            s.chance = self.chance.copy()
        return s

    # ---- small helpers ------------------------------------------------------------------
    @property
    def current_player(self):
        return self.stack[-1].p if self.stack else None

    @property
    def mode(self) -> int | None:
        return self.stack[-1].m if self.stack else None

    def season(self) -> int:
        return C.season_of(self.calendar)

    def _draw(self, p: int, k: int = 1) -> None:
        """Draw ``k`` cards from the Thing, one by one. The moment the Thing runs out, Valhalla and
        the Krog (but its top) are reshuffled into it, even between the cards of one draw and
        when nobody needs a card yet (M40, M-E2: "it must immediately reshuffle"). A Thing that
        ran out while there was nothing to reshuffle is refilled the same way by the next draw;
        with nothing to reshuffle then either, that draw is skipped."""
        for _ in range(k):
            if not self.thing:
                self._reshuffle()
                if not self.thing:
                    return
            kind = self.thing.pop()
            self.hands[p, kind] += 1
            self.thing_drawn[p, kind] += 1
            if not self.thing:
                self._reshuffle()

    def _reshuffle(self) -> None:
        """Valhalla and the Krog but its top card become the Thing (MD5), a public event: the
        Thing's cards are then known to all (``thing_base``) until drawn; a new count of each
        seat's draws starts. Nothing to reshuffle: nothing changes."""
        pool = np.repeat(np.arange(DATA.num_kinds), self.valhalla).tolist() + self.krog[:-1]
        if not pool:
            return
        self.krog = self.krog[-1:]
        self.valhalla[:] = 0
        self.event_rng("reshuffle").shuffle(pool)
        self.thing = pool
        self.thing_base = np.bincount(
            np.asarray(pool, dtype=np.int64), minlength=DATA.num_kinds
        ).astype(np.int64)
        self.thing_drawn[:] = 0

    def _to_hand(self, p: int, kind: int, known: bool = False) -> None:
        """A card joins a hand; ``known`` when everyone saw which card it is (X7)."""
        self.hands[p, kind] += 1
        if known:
            self.known[p, kind] += 1

    def _from_hand(self, p: int, kind: int) -> None:
        """A card leaves a hand face up (placed, given, discarded)."""
        self.hands[p, kind] -= 1
        self._shown(p, kind)

    def _shown(self, p: int, kind: int) -> None:
        """Everyone saw a card of seat ``p`` leave it: the public lower bound on that seat's copies
        of the kind drops by one (from public facts only, never from the hand). A face-down
        challenge bonus counts as the seat's until it is revealed (MD22)."""
        if self.known[p, kind]:
            self.known[p, kind] -= 1

    def _dispose(self, kind: int) -> None:
        """Rules for Disposal (M41): troops and wildcards to Krog, events and reactions to
        Valhalla."""
        if DATA.is_troop_card(kind):
            self.krog.append(kind)
        else:
            self.valhalla[kind] += 1

    def _gain_coins(self, p: int, k: int) -> None:
        got = min(k, self.skat)  # finite supply (M45)
        self.skat -= got
        self.coins[p] += got

    def _pay(self, p: int, k: int) -> None:
        self.coins[p] -= k
        self.skat += k

    def _draw_reward(self, p: int) -> None:
        if self.reward_deck:
            self.rewards[p, self.reward_deck.pop()] += 1
            self.reward_top_known = -1

    def _active_challenges(self):
        act = [DATA.challenges[c] for c in self.open]
        act += [DATA.challenges[c] for c in self.reserved if c >= 0]
        return act

    def difficulties(self, cids) -> list[int]:
        """Current difficulty of each challenge in ``cids`` (season and lasting effects, no
        bonus)."""
        active = self._active_challenges()
        return [
            C.difficulty(
                DATA.challenges[c], self.calendar, C.lasting_bonus_for(DATA.challenges[c], active)
            )
            for c in cids
        ]

    def challenge_difficulty(self, cid: int, bonus: int = 0) -> int:
        ch = DATA.challenges[cid]
        return C.difficulty(
            ch, self.calendar, C.lasting_bonus_for(ch, self._active_challenges()), bonus
        )

    def _end_game(self, reason: str, truncated: bool = False) -> None:
        self.over = True
        self.truncated = truncated
        self.end_reason = reason
        self.stack = []
        while self.played:  # an effect that ends the game is done: its card reaches Valhalla
            self.valhalla[self.played.pop()["k"]] += 1
        if self.pending is not None:  # cannot happen from play; keeps conservation if forced
            for k in self.pending.cards():
                self.hands[self.active, k] += 1
            self.pending = None

    def ignore_allowance(self, p: int) -> int:
        """Requirements a seat may leave unmet when facing: an "ignore" reaction in hand (M29)."""
        return max((n for k, n in IGNORE_KINDS if self.hands[p, k] > 0), default=0)

    # ---- legal actions (the mask of each mode and the test of each range: masks.py) ----------
    def legal_mask(self) -> np.ndarray:
        """The exact mask; cached until the next ``apply`` (``clone`` shares it, ``determinize``
        and direct edits of a state must call ``invalidate``)."""
        if self._mask is None:
            mask = np.zeros(A.NUM_ACTIONS, dtype=bool)
            if self.stack:
                f = self.stack[-1]
                MASKS[f.m](self, mask, f, self.hands[f.p])
            self._mask = mask
        return self._mask.copy()

    def invalidate(self) -> None:
        """Forget the cached mask (after editing a state by hand, as tests do)."""
        self._mask = None

    def is_legal(self, action: int) -> bool:
        """``legal_mask()[action]`` without building the whole mask (same predicates): the
        action's range must be one the top frame's mode uses (``MODE_RANGES``), then the range's
        predicate (``LEGAL``) decides."""
        if not self.stack:
            return False
        name, c = A.decode(action)
        f = self.stack[-1]
        if name not in MODE_RANGES[f.m]:
            return False
        return LEGAL[name](self, f, c, self.hands[f.p])

    # ---- apply --------------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        self._mask = None
        self.decisions += 1
        self._step(action)
        settle(self)
        if not self.over and self.decisions >= self.game.options["max_decisions"]:
            self._end_game("max_decisions", truncated=True)

    def _step(self, action: int) -> None:
        """Apply ``action`` to the top frame: a coin reward's reveal from any decision that can
        spend coins (M44, MD9, M-E3), otherwise the handler of the frame's mode (``STEP``)."""
        name, c = A.decode(action)
        f = self.stack[-1]
        if name == "reveal_reward":
            turn.reveal_reward(self, f.p, c[0])
        else:
            STEP[f.m](self, f, name, c)

    # ---- results ------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.over

    def challenge_renown(self) -> np.ndarray:
        return np.array(
            [sum(DATA.challenges[c].renown for c in w) for w in self.won], dtype=np.int64
        )

    def _reward_values(self, kind: str) -> np.ndarray:
        vals = np.array([v if k == kind else 0 for k, v in DATA.rewards], dtype=np.int64)
        return (self.rewards + self.revealed) @ vals

    def scores(self) -> np.ndarray:
        """Renown (M49): challenges won, plus renown rewards once the game is over. Rewards are
        secret until the end (M44), so during the game only the public part is reported; that
        keeps ``reward="dense"`` from leaking them (the last step adds them)."""
        if not self.over:
            return self.challenge_renown()
        return self.final_renown()

    def final_renown(self) -> np.ndarray:
        """Challenge renown plus every renown reward (hidden or not)."""
        return self.challenge_renown() + self._reward_values("renown")

    def final_coins(self) -> np.ndarray:
        """Coins for the tie-break: coins held plus unrevealed coin rewards (M44)."""
        vals = np.array([v if k == "coins" else 0 for k, v in DATA.rewards], dtype=np.int64)
        return self.coins + self.rewards @ vals

    def winners(self) -> list[int]:
        return winners_of(
            self.final_renown().tolist(),
            self.challenge_renown().tolist(),
            self.final_coins().tolist(),
        )


STEP = {
    **turn.STEP,
    **onslaught.STEP,
    **contest.STEP,
    **cardplay.STEP,
}  # decision mode -> its step handler
assert sorted(STEP) == list(range(NUM_MODES)), "every decision mode has a step handler"


def winners_of(renown, challenge_renown, coins) -> list[int]:
    """Most renown; ties: most challenge renown, then most coins; still tied share (M49)."""
    tied = list(range(len(renown)))
    for key in (renown, challenge_renown, coins):
        best = max(key[s] for s in tied)
        tied = [s for s in tied if key[s] == best]
    return tied


__all__ = ["MODE_NAMES", "REL_NAMES", "MidgardGame", "MidgardState", "winners_of"]
