"""Wizard heuristic: the rulebook's quick tips turned into bidding, trump and card-play rules,
from ``view(player)`` only.

Bidding. Following the tips ("Wizards are guaranteed trick-winners. If you have one, that's a safe
+1 to your prediction", "Nulls are great for avoiding tricks", "High trump cards (10-13) are very
strong"), every Wizard counts one sure trick, and the round's other tricks are shared in proportion
to card power: ours (trumps 0.4-1.0 rising with rank, another suit's 8-13 a little, Nulls and low
cards nothing) against the other hands' expected power (their card count times the deck's average
power). This calibrates itself to the table size and the hand length: in self-play about half of
all 4-player bids are exact (over 40% with 3 players' 20-card hands, over 80% with 10 players).
The estimate is rounded to the nearest whole number, and if that is the dealer's forbidden bid,
the nearer of the neighbours. In the Foresight round (own card unseen, everyone else's seen) the
play is forced, so the chance of winning is exact: the share of the unseen cards with which our
card would win the trick against the cards we see; bid 1 when that beats one half.

Trump choice (a flipped Wizard): the suit where our cards are strongest (count plus rank bonus); in
the Foresight round, where our own card is unknown, the suit the others hold least of.

Card play, with ``need`` = bid - tricks won:

* need > 0, leading: a Wizard, else our strongest trump if it is high, else the highest card of
  our longest-topped suit. Following: if some legal card would win the trick as it stands, the
  cheapest one when we play last, otherwise the strongest non-Wizard winner (a Wizard only if
  nothing else wins); if nothing wins, throw the weakest card.
* need <= 0, leading: a Null, else the lowest non-trump card. Following: the strongest card that
  still loses (shedding danger while it is safe; Nulls are kept for later unless nothing else
  loses); if every card wins, the lowest when others still play after us, the strongest when we
  are last (the trick is ours anyway).
"""

from __future__ import annotations

import numpy as np

from deckzoo.envs.core.game import InfoState
from deckzoo.envs.wizard.actions import TRUMP_BASE, encode_bid, encode_play, encode_trump
from deckzoo.envs.wizard.cards import (
    DECK_COUNTS,
    NULL,
    NUM_KINDS,
    NUM_SUITED,
    NUM_SUITS,
    RANKS,
    WIZARD,
    forbidden_dealer_bid,
    trick_winner,
)

from ..base import Agent


def power(card: int, trump: int | None, led: int | None) -> int:
    """How strong a card is in the current trick (higher wins; Null lowest)."""
    if card == WIZARD:
        return 100
    if card == NULL:
        return -1
    suit, rank = divmod(card, RANKS)
    if suit == trump:
        return 50 + rank
    if suit == led:
        return 20 + rank
    return rank  # off-suit: cannot win, ordered by rank for shedding


def card_power(card: int, trump: int | None) -> float:
    """A card's trick-taking power for bidding: Wizard 1, Null 0, a trump 0.35 + 0.05 * rank
    (0.4-1.0), another suit's 8-13 0.06 per rank above 7, lower cards 0."""
    if card == WIZARD:
        return 1.0
    if card == NULL:
        return 0.0
    rank = card % RANKS + 1
    if card // RANKS == trump:
        return 0.35 + 0.05 * rank
    return max(0.0, (rank - 7) * 0.06)


_MEAN_POWER: dict = {}


def mean_power(trump: int | None, deck: tuple[int, ...] | None = None) -> float:
    """The average power of a card of the 60-card deck under ``trump`` (or of a variant's deck,
    ``deck``: the copies of each kind, W14)."""
    key = trump if deck is None else (trump, deck)
    if key not in _MEAN_POWER:
        if deck is None:
            _MEAN_POWER[key] = (
                sum(card_power(c, trump) for c in range(NUM_SUITED)) / 60 + 4 * 1.0 / 60
            )
        else:
            total = sum(card_power(c, trump) * k for c, k in enumerate(deck) if k)
            _MEAN_POWER[key] = total / sum(deck)
    return _MEAN_POWER[key]


def variant_deck(game) -> tuple[int, ...] | None:
    """The copies of each kind of ``game``'s deck when it is a variant's (W14), else None (the
    rulebook's deck, whose numbers are the ones written out above)."""
    counts = game.deck_counts
    return None if np.array_equal(counts, DECK_COUNTS) else tuple(int(k) for k in counts)


def card_tricks(
    hand: list[int], trump: int | None, n: int, rnd: int, deck: tuple[int, ...] | None = None
) -> float:
    """Expected tricks from a hand (the bidding rule in the module docstring): every Wizard is a
    sure trick; the other tricks are shared in proportion to power, ours against the
    ``(n - 1) * rnd`` cards of the other hands at the deck's average power (``deck``: a
    variant's, ``variant_deck``)."""
    wizards = hand.count(WIZARD)
    mine = 0.0
    for c in hand:  # one float at a time, in hand order (Python 3.12's ``sum`` compensates; the
        if c != WIZARD:  # batched heuristic, wizard_batched.py, must add in this same order)
            mine += card_power(c, trump)
    others = (n - 1) * rnd * mean_power(trump, deck)
    if mine + others <= 0:
        return float(wizards)
    return wizards + (rnd - wizards) * mine / (mine + others)


def choose_bid(expected: float, rnd: int, forbidden: int | None) -> int:
    bid = int(min(max(round(expected), 0), rnd))
    if bid != forbidden:
        return bid
    options = [b for b in (bid - 1, bid + 1) if 0 <= b <= rnd]
    return min(options, key=lambda b: (abs(b - expected), b))


def foresight_win_chance(view: dict, deck_counts=DECK_COUNTS) -> float:
    """P(our unseen single card wins the forced trick), given everyone else's card and the trump
    (``deck_counts``: the game's deck, a variant's is smaller)."""
    n, me = view["num_players"], view["player"]
    leader = view["trick_leader"]
    trump = view["trump"]
    unseen = np.asarray(deck_counts).astype(np.int64)
    others = {q: h[0] for q, h in enumerate(view["foresight_hands"]) if h is not None and h}
    for c in others.values():
        unseen[c] -= 1
    if view["flipped"] is not None:
        unseen[view["flipped"]] -= 1
    wins = total = 0
    order = [(leader + i) % n for i in range(n)]
    for c in np.flatnonzero(unseen):
        trick = [c if q == me else others[q] for q in order]
        k = int(unseen[c])
        total += k
        if order[trick_winner(trick, trump if trump is not None else 4)] == me:
            wins += k
    return wins / total if total else 0.0


class HeuristicAgent(Agent):
    name = "heuristic"

    def act(self, info_state: InfoState) -> int:
        view = info_state.view()
        legal = [int(a) for a in info_state.legal_actions()]
        phase = view["phase"]
        if phase == "bid":
            return self._bid(view, legal, info_state.game)
        if phase == "trump":
            return self._trump(view, legal)
        return self._play(view, legal)

    # ---- decisions --------------------------------------------------------------------
    def _bid(self, view: dict, legal: list[int], game) -> int:
        rnd, me = view["round"], view["player"]
        if view["hand"] is None:
            expected = foresight_win_chance(view, game.deck_counts)
        else:
            n, deck = view["num_players"], variant_deck(game)
            expected = card_tricks(view["hand"], view["trump"], n, rnd, deck)
        forbidden = None
        if me == view["dealer"]:
            forbidden = forbidden_dealer_bid(rnd, sum(b for b in view["bids"] if b))
        a = encode_bid(choose_bid(expected, rnd, forbidden))
        return a if a in legal else legal[0]

    def _trump(self, view: dict, legal: list[int]) -> int:
        score = np.zeros(NUM_SUITS)
        if view["hand"] is None:  # Foresight: the suit the others hold least of
            for h in view["foresight_hands"]:
                for c in h or []:
                    if c < NUM_SUITED:
                        score[c // RANKS] -= 1 + (c % RANKS) / 13
        else:
            for c in view["hand"]:
                if c < NUM_SUITED:
                    score[c // RANKS] += 1 + (c % RANKS + 1) / 13
        suits = [a - TRUMP_BASE for a in legal]  # the deck's suits (a variant may have fewer)
        return encode_trump(max(suits, key=lambda s: score[s]))

    def _play(self, view: dict, legal: list[int]) -> int:
        me, n = view["player"], view["num_players"]
        trump = view["trump"] if view["trump"] != 4 else None
        trick = view["trick"]
        led = view["led_suit"] if view["led_suit"] in (0, 1, 2, 3) else None
        need = view["bids"][me] - view["tricks_won"][me]
        cards = [a for a in legal if a < NUM_KINDS]
        if not trick:
            return encode_play(self._lead(cards, trump, need > 0))
        last = len(trick) == n - 1
        t = trump if trump is not None else 4
        winners = [c for c in cards if trick_winner(trick + [c], t) == len(trick)]
        losers = [c for c in cards if c not in winners]

        def key(c):
            return power(c, trump, led)

        if need > 0:
            if winners:
                if last:
                    return encode_play(min(winners, key=key))
                plain = [c for c in winners if c != WIZARD]
                return encode_play(max(plain, key=key) if plain else WIZARD)
            return encode_play(min(cards, key=key))
        if losers:
            non_null = [c for c in losers if c != NULL]
            return encode_play(max(non_null, key=key) if non_null else NULL)
        return encode_play(max(cards, key=key) if last else min(cards, key=key))

    @staticmethod
    def _lead(cards: list[int], trump: int | None, want: bool) -> int:
        suited = [c for c in cards if c < NUM_SUITED]
        if want:
            if WIZARD in cards:
                return WIZARD
            trumps = [c for c in suited if c // RANKS == trump]
            if trumps and max(trumps) % RANKS + 1 >= 10:
                return max(trumps)
            if suited:
                return max(suited, key=lambda c: (c % RANKS, c // RANKS == trump))
            return cards[0]
        if NULL in cards:
            return NULL
        plain = [c for c in suited if c // RANKS != trump]
        if plain:
            return min(plain, key=lambda c: c % RANKS)
        if suited:
            return min(suited, key=lambda c: c % RANKS)
        return cards[0]


__all__ = ["HeuristicAgent"]
