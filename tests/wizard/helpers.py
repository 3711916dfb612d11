"""Build explicit Wizard positions from a stacked deck (never relying on what a seed deals)."""

import numpy as np

from deckzoo.envs.wizard.cards import DECK_COUNTS, NULL, NUM_KINDS, WIZARD, make_card
from deckzoo.envs.wizard.rules import WizardGame, encode_bid, encode_play, encode_trump

SUIT_LETTERS = {"D": 0, "H": 1, "E": 2, "G": 3}  # Dwarves, Humans, Elves, Giants


def card(text: str) -> int:
    """ "E5" = Elves 5, "G13" = Giants 13, "W" = Wizard, "N" = Null."""
    if text == "W":
        return WIZARD
    if text == "N":
        return NULL
    return make_card(SUIT_LETTERS[text[0]], int(text[1:]))


def cards(text: str) -> list[int]:
    return [card(t) for t in text.split()]


def stacked(hands, flipped=None, dealer=0, rnd=None, scores=None, **options):
    """A state at the start of round ``rnd`` (default: the hand size) whose seats hold ``hands``
    (strings like "E5 W N" or lists of kinds) and whose stock shows ``flipped`` on top (a card
    string; None: the next unused card, or nothing in the final round of a full game)."""
    hands = [cards(h) if isinstance(h, str) else list(h) for h in hands]
    n = len(hands)
    rnd = rnd or len(hands[0])
    game = WizardGame(num_players=n, first_dealer=dealer, **options)
    state = game.new_state(0)
    queues = [list(h) for h in hands]
    deck = [queues[(dealer + 1 + i) % n].pop(0) for i in range(n * rnd)]
    assert not any(queues), "every hand must hold the round's number of cards"
    if flipped is not None:
        deck.append(card(flipped) if isinstance(flipped, str) else flipped)
    left = DECK_COUNTS.astype(np.int64) - np.bincount(deck, minlength=NUM_KINDS)
    assert (left >= 0).all(), "a card is used more often than the deck holds it"
    deck += np.repeat(np.arange(NUM_KINDS), left).tolist()
    if scores is not None:
        state.points = list(scores)
    state.deal(rnd, dealer, deck)
    state.check_invariants()
    return state


def bid_all(state, bids):
    """Apply the bids of every seat (listed by seat) in bidding order."""
    while state.phase == 1:
        state.apply(encode_bid(bids[state.current_player]))


def play(state, *texts):
    for t in texts:
        state.apply(encode_play(card(t)))


__all__ = [
    "bid_all",
    "card",
    "cards",
    "encode_bid",
    "encode_play",
    "encode_trump",
    "play",
    "stacked",
]
