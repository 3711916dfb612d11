"""Midgard: The Card Game, rules engine (pure Python + numpy; no PettingZoo import).

The rules as implemented, every ruling (M1-M51, the cross-game X rulings and this
implementation's MD rulings) with its reason, the action table and the observation table are in
docs/rules/midgard.md. Card data (88 troops, 9 wildcards, 17 events, 8 reactions, 40 challenges,
30 rewards, 9 worlds) is ``data/midgard.json``: invented values are marked synthetic there.

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

Events, reactions and bonuses (cardplay.py). One event per Preparation (Bragi's Song allows
another), effect at once, then Valhalla (not before: MD20); attack events hit every seat (the
player too), personal ones the player. Reactions are the only out-of-turn play: after each
trigger a reaction window asks the seats in the ruled order (the active seat, then clockwise;
M42), every seat the trigger lets answer that holds a card, with a forced pass where none of its
cards fits (MD15: being asked is public); a played event or reaction opens its own window (Odin's
Reprimand cancels it; chains resolve last-in first-out); the reactor draws a replacement at once.
Bonus cards (any event or reaction for its +3/+5/+7, face down, one per side), asked as the
windows are: on a challenge the opponents from the left until one places, then the facing seat
(M30); in a battle the attacker, then the defender, secretly (M37, MD16); revealed together,
then Valhalla.

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
from . import challenges as C
from .cardplay import FIRST, FIRST_REACTION, CardPlayMixin
from .cards import DATA
from .encoding import make_layout
from .global_state import make_state_layout
from .info import InfoMixin
from .masks import MaskMixin, place_kind_pos
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
from .troops import REL_NAMES, Troop, claim, place, relocate, relocation_options

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
        # with a card in hand (cardplay.CardPlayMixin._asks)
        self.ask_holders_only = self.options["reaction_windows"] == "holders_leaky"

    def _new_state(self, rng):
        return MidgardState.setup(self, rng)


class MidgardState(LazyRng, CardPlayMixin, MaskMixin, InfoMixin, State):
    # The chance generator is materialised lazily (LazyRng): clones and JSON dumps copy its state
    # dict (a few microseconds) instead of building a new generator each time.

    # ---- set-up (M8) --------------------------------------------------------------------
    @classmethod
    def setup(cls, game: MidgardGame, rng: np.random.Generator) -> MidgardState:
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
        s._refill()
        sp = game.options["start_player"]
        s.start_player = int(rng.integers(n)) if sp is None else sp
        s._start_turn(s.start_player)
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
        """``InfoMixin.clone``, and a duplicate board's keyed chance (``Game.new_state``)."""
        s = super().clone()
        if self.chance is not None:
            s.chance = self.chance.copy()
        return s

    # ---- small helpers ------------------------------------------------------------------
    @property
    def current_player(self):
        return self.stack[-1]["p"] if self.stack else None

    @property
    def mode(self) -> int | None:
        return self.stack[-1]["m"] if self.stack else None

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

    # ---- challenges list (M33, M34) -----------------------------------------------------
    def _open_one(self) -> int:
        """Open the top challenge and apply its instant effects; returns how many more it asks to
        open."""
        cid = self.ch_deck.pop()
        self.open.append(cid)
        more = 0
        for e in DATA.challenges[cid].instant:
            if e.kind == "all_to_midgard":
                self._all_to_midgard(range(self.game.num_players))  # not a trip (M23)
            elif e.kind == "open_another":
                more += 1
        return more

    def _refill(self) -> None:
        """Open challenges until 6 are open, plus one more for each "open another" opened (M33)."""
        extra = 0
        while self.ch_deck and (len(self.open) < MIN_OPEN or extra > 0):
            if len(self.open) >= MIN_OPEN:
                extra -= 1
            extra += self._open_one()

    def _calendar_left(self) -> bool:
        """Is any calendar challenge still in the deck, the open list or a reservation? (M48)"""
        pool = self.ch_deck + self.open + [c for c in self.reserved if c >= 0]
        return any(DATA.challenges[c].calendar for c in pool)

    # ---- turn structure -----------------------------------------------------------------
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

    def _start_turn(self, p: int) -> None:
        if self.turn >= self.game.options["max_turns"]:
            self._end_game("max_turns", truncated=True)
            return
        self.turn += 1
        self.active = p
        self._draw(p)  # Hiring (M9)
        for t in self.troops[p]:
            t.engaged = False  # regroup (M10, M12)
        self.had_troops = bool(self.troops[p])
        self.made_trip = self.won_challenge = False
        self.events_left = 1  # one event per Preparation (more only where a card allows)
        self.stack = [{"m": PREP, "p": p}]

    def _end_onslaught(self) -> None:
        p = self.active
        if self.hands[p].sum() > 0:
            self.stack = [{"m": SPOILS, "p": p}]
        else:
            self._finish_spoils()

    def _finish_spoils(self) -> None:
        p = self.active
        if self.made_trip or self.won_challenge:  # Reset Hand (M38)
            self._draw(p, max(0, HAND_SIZE - int(self.hands[p].sum())))
        self._krog_offer(p, p)

    def _krog_offer(self, ender: int, after: int) -> None:
        """Offer the Krog top to the next seat after ``after`` that may be able to pay, up to the
        ender (M39, MD10)."""
        n = self.game.num_players
        if self.krog:
            q = (after + 1) % n
            while q != ender:
                if self._may_pay(q):
                    self.stack = [{"m": KROG, "p": q, "ender": ender}]
                    return
                q = (q + 1) % n
        self._start_turn((ender + 1) % n)

    def _may_pay(self, q: int) -> bool:
        """Could seat ``q`` pay a coin, as the table sees it (MD10, M-E3)? It holds one, or it
        holds a reward card (a coin reward "can be revealed anytime") while the Skat has a coin
        to give for it. Only public counts decide (coins, the Skat, how many rewards a seat
        holds, never which), so being offered or skipped tells nobody whether a seat's rewards
        are coins; a seat whose rewards are all renown is offered too and can only pass."""
        return self.coins[q] >= 1 or (self.skat >= 1 and self.rewards[q].sum() > 0)

    # ---- apply (masks: masks.py) ---------------------------------------------------------
    def _apply(self, action: int) -> None:
        self._mask = None
        self.decisions += 1
        self._step(action)
        self._settle()
        if not self.over and self.decisions >= self.game.options["max_decisions"]:
            self._end_game("max_decisions", truncated=True)

    def _step(self, action: int) -> None:
        name, c = A.decode(action)
        f = self.stack[-1]
        m, p = f["m"], f["p"]
        if name == "reveal_reward":  # any decision that can spend coins (M44, MD9, M-E3)
            k = c[0]
            self.rewards[p, k] -= 1
            self.revealed[p, k] += 1
            self._gain_coins(p, DATA.rewards[k][1])
        elif m == KROG:
            if name == "hire":
                self._pay(p, 1)
                self._to_hand(p, self.krog.pop(), known=True)
                self._draw(p)
                self._start_turn((f["ender"] + 1) % self.game.num_players)
            else:
                self._krog_offer(f["ender"], p)
        elif m == PREP:
            if name == "end_phase":
                self.stack = [{"m": ONSLAUGHT, "p": p}]
            elif name == "new_troop":
                self.pending = Troop()
                self.stack.append({"m": BUILD, "p": p})
            elif name == "play_event":
                k = FIRST + c[0]
                self._from_hand(p, k)
                self.events_left -= 1
                self._play_card(k, p)
            elif name == "claim_target":
                n = self.game.num_players
                self.stack.append({"m": CLAIM, "p": p, "target": (p + c[0] + 1) % n, "troop": c[1]})
            else:
                self._do_place(p, name, c)
        elif m == BUILD:
            if name == "finish":
                self.troops[p].append(self.pending)
                self.pending = None
                self.stack.pop()
            elif name == "cancel":
                for k in self.pending.cards():
                    self._to_hand(p, k, known=True)  # they were on the table for all to see
                self.pending = None
                self.stack.pop()
            else:
                self._do_place(p, name, c)
        elif m == RELOCATE:
            t = self.pending if f["troop"] == A.PENDING else self.troops[p][f["troop"]]
            relocate(t, f["wild"], c[0])
            self.stack.pop()
        elif m == CLAIM:
            self.stack.pop()
            if name == "claim":
                given, taken = claim(self.troops[f["target"]][f["troop"]], c[0], c[1])
                for k in given:
                    self._from_hand(p, k)
                for k in taken:
                    self._to_hand(p, k, known=True)
        elif m == ONSLAUGHT:
            if name == "end_phase":
                self._end_onslaught()
            elif name == "travel":
                self.stack.append({"m": TRAVEL, "p": p, "world": c[0], "chosen": []})
            elif name == "face":
                self.stack.append({"m": CHALLENGE, "p": p, "ch": c[0], "chosen": []})
            else:  # attack
                self._attack(p, (p + c[0] + 1) % self.game.num_players, c[1])
        elif m == TRAVEL:
            if name == "cancel":
                self.stack.pop()
            else:
                f["chosen"].append(c[0])
                if len(f["chosen"]) == len(DATA.worlds[f["world"]].troops):
                    self.stack.pop()
                    self._travel(p, f["world"], f["chosen"])
        elif m == CHALLENGE:
            if name == "cancel":
                self.stack.pop()
            elif name == "select_troop":
                f["chosen"].append(c[0])
            else:
                self.stack.pop()
                self._declare_challenge(p, f["ch"], sorted(f["chosen"]))
        elif m == DISCARD_REQ:
            self._from_hand(p, c[0])
            self._dispose(c[0])
            f["left"] -= 1
            if f["left"] == 0:
                self.stack.pop()
                self._start_bonus()
        elif m == TAKE:
            k = c[0]
            if f["src"] == "pool":
                self.stack.pop()
                self._take_from_pool(p, k)
                return
            if f["src"] == "valhalla":
                self.valhalla[k] -= 1
            else:
                del self.krog[self.krog.index(k)]  # the copy deepest in the pile (MD6)
            self._to_hand(p, k, known=True)
            self.stack.pop()
        elif m == RESERVE:
            self.stack.pop()
            self._reserve(p, c[0])
        elif m == KEEP:
            self.stack.pop()
            drawn = list(f["drawn"])
            drawn.remove(c[0])
            self.rewards[p, c[0]] += 1
            for k in drawn:  # the other goes back on top of the reward pile (M25, M37)
                self.reward_deck.append(k)
                self.reward_top_known = p
        elif m == DEFEND:
            self.stack.pop()
            if name == "refuse":
                self.contest = None
                self._undefended(f["att"])
            else:
                self._defend(c[0])
        elif m == SPOILS:
            self._from_hand(p, c[0])
            self._dispose(c[0])
            self._finish_spoils()
        elif m == REACT:
            if name == "react":
                self._react(f, FIRST_REACTION + c[0])
            else:
                f["p"] = -1
        elif m == BONUS:
            if name == "bonus":
                self._place_bonus(f, FIRST + c[0])
            else:
                f["p"] = -1
        elif m == EV_DISCARD:
            self._event_discard(f, c[0])
        elif m == ENGAGE:
            self.troops[p][c[0]].engaged = True
            f["p"] = -1
        elif m == MOVE:
            self.world[p] = c[0]  # a move by a card effect: no trip, no benefit (M23)
            self.stack.pop()

    def _do_place(self, p: int, name: str, c) -> None:
        ti = c[0]
        t = self.pending if ti == A.PENDING else self.troops[p][ti]
        kind, pos = place_kind_pos(name, c)
        used, displaced = place(t, kind, pos)
        for k in used:
            self._from_hand(p, k)
        if displaced is not None:
            opts = relocation_options(t, displaced)
            if len(opts) == 1:  # a choice of one is no choice
                relocate(t, displaced, opts[0])
            else:
                self.stack.append(
                    {"m": RELOCATE, "p": p, "troop": ti, "wild": displaced, "options": opts}
                )

    # ---- travel (M23-M26) ---------------------------------------------------------------
    def _travel(self, p: int, w: int, chosen) -> None:
        for ti in chosen:
            self.troops[p][ti].engaged = True
        self.world[p] = w
        self.made_trip = True
        b = DATA.worlds[w].benefit
        if b.kind == "draw_cards":
            self._draw(p, b.n)
        elif b.kind == "gain_coins":
            self._gain_coins(p, b.n)
        elif b.kind == "take_from_valhalla":
            if self.valhalla.sum() > 0:
                self.stack.append({"m": TAKE, "p": p, "src": "valhalla"})
        elif b.kind == "take_from_krog":
            if self.krog:
                self.stack.append({"m": TAKE, "p": p, "src": "krog"})
        elif b.kind == "reserve_challenge":
            if self.open:
                self.stack.append({"m": RESERVE, "p": p})
        elif b.kind == "draw_rewards":
            for _ in range(b.n):
                self._draw_reward(p)
        elif b.kind == "draw_rewards_keep_one":
            self._draw_keep_one(p, b.n)

    def _draw_keep_one(self, p: int, k: int) -> None:
        drawn = [self.reward_deck.pop() for _ in range(min(k, len(self.reward_deck)))]
        if drawn:
            self.reward_top_known = -1
        if len(drawn) == 1:
            self.rewards[p, drawn[0]] += 1
        elif drawn:
            self.stack.append({"m": KEEP, "p": p, "drawn": drawn})

    def _reserve(self, p: int, cid: int) -> None:
        if self.reserved[p] >= 0:
            self.ch_out.append(self.reserved[p])  # the first reservation is discarded (M26)
        self.reserved[p] = cid
        self.open.remove(cid)
        self._refill()
        if not self._calendar_left():
            self._end_game("no calendar challenge left (M48)")

    # ---- challenges (M28-M32, M47) ------------------------------------------------------
    def _resolve_challenge(
        self, p: int, cid: int, chosen, bonus_might: int = 0, bonus_difficulty: int = 0
    ) -> None:
        ch = DATA.challenges[cid]
        troops = [self.troops[p][ti] for ti in chosen]
        if C.might(ch, troops, MIGHT, bonus_might) < self.challenge_difficulty(
            cid, bonus_difficulty
        ):
            return  # troops stay engaged, the challenge stays (M32)
        if self.reserved[p] == cid:
            self.reserved[p] = -1
        else:
            self.open.remove(cid)
        self.won[p].append(cid)
        self.won_challenge = True
        for ti in sorted(chosen, reverse=True):
            for k in self.troops[p][ti].cards():
                self.valhalla[k] += 1  # winning troops go to Valhalla whatever their type (M41)
            del self.troops[p][ti]
        self._refill()
        if ch.calendar:
            self.calendar = (self.calendar + 1) % C.CALENDAR_STEPS
            if self.calendar == 0:
                self._end_game("calendar (M47)")
                return
        if not self._calendar_left():
            self._end_game("no calendar challenge left (M48)")
            return
        self._won_window(p)

    # ---- battles (M35-M37) --------------------------------------------------------------
    def _battle(
        self, p: int, ti: int, q: int, di: int, bonus_att: int = 0, bonus_def: int = 0
    ) -> None:
        self.troops[q][di].engaged = True
        att = self.troops[p][ti].might(MIGHT) + bonus_att
        dfn = self.troops[q][di].might(MIGHT) + bonus_def
        self._draw_reward(p if att >= dfn else q)  # ties go to the attacker

    def _undefended(self, p: int) -> None:
        self._draw_keep_one(p, 2)

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

    # ---- information --------------------------------------------------------------------


def winners_of(renown, challenge_renown, coins) -> list[int]:
    """Most renown; ties: most challenge renown, then most coins; still tied share (M49)."""
    tied = list(range(len(renown)))
    for key in (renown, challenge_renown, coins):
        best = max(key[s] for s in tied)
        tied = [s for s in tied if key[s] == best]
    return tied


__all__ = ["MODE_NAMES", "REL_NAMES", "MidgardGame", "MidgardState", "winners_of"]
