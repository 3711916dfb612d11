"""Helpers shared by the Big Number tests: explicit positions and plays written as text."""

from __future__ import annotations

from deckzoo.envs.bignumber.actions import ADD_BASE, FINISH, PASS, PICK_BASE, PLAY_BASE
from deckzoo.envs.bignumber.cards import SET_INDEX, parse_card, parse_cards
from deckzoo.envs.bignumber.rules import BigNumberGame, BigNumberState

ANNA, BEN, CARLA, DAN = 0, 1, 2, 3


def game(n=4, **options) -> BigNumberGame:
    return BigNumberGame(n, **options)


def position(g: BigNumberGame, *hands: str, leader=0, **kw) -> BigNumberState:
    return BigNumberState.from_hands(g, list(hands), leader=leader, **kw)


def play_actions(state: BigNumberState, text: str) -> list[int]:
    """The action ids that make the play ``text`` (one id with one deck, card by card with two)."""
    cards = parse_cards(text)
    if state.game.two_decks:
        return [ADD_BASE + c for c in cards] + [FINISH]
    return [PLAY_BASE + SET_INDEX[cards]]


def play(state: BigNumberState, text: str) -> None:
    for a in play_actions(state, text):
        state.apply(a)
    state.check_invariants()


def take(state: BigNumberState, text: str) -> None:
    state.apply(PICK_BASE + parse_card(text))
    state.check_invariants()


def pass_(state: BigNumberState) -> None:
    state.apply(PASS)
    state.check_invariants()


def can_play(state: BigNumberState, text: str) -> bool:
    """Whether the whole play ``text`` is legal now (tries it on a clone, step by step)."""
    trial = state.clone()
    if not trial.game.two_decks and parse_cards(text) not in SET_INDEX:
        return False  # not a set: there is no action for it
    for a in play_actions(trial, text):
        if not trial.legal_mask()[a]:
            return False
        trial.apply(a)
    return True


def hand(state: BigNumberState, p: int) -> tuple[int, ...]:
    return tuple(sorted((c for c in range(36) for _ in range(state.hands[p][c])), reverse=True))


def cards(text: str) -> tuple[int, ...]:
    return parse_cards(text)
