"""Big Number's internal invariants (``state.check_invariants()``): card conservation,
the hands, and a well-formed round (middle, owner, passes, the selection being built).

The conformance checks and the tests call them during playouts; ``from_hands`` and loading a
saved state run them on the position they build. A broken one is a bug in the engine (or, for
``from_hands``, a position no game reaches), hence ``AssertionError``.
"""

from __future__ import annotations

from .actions import ANSWER, LEAD, PICK
from .cards import is_set


def check_invariants(st) -> None:
    """Card conservation, hand limits, known cards held, a well-formed middle (for tests)."""
    _check_cards(st)
    _check_round(st)


def _check_cards(st) -> None:
    """Every copy is in a hand, the middle, the play being picked up, out of play or aside;
    hands hold 1-9 cards (``hand_size``) in a running deal and every card known to be in a hand."""
    g = st.game
    total = [a + o + sum(held) for a, o, held in zip(st.aside, st.out, zip(*st.hands))]
    for c in st.middle:
        total[c] += 1
    if st.phase == PICK:
        for c in st.pending:
            total[c] += 1
    if total != g.deck_counts or min(st.aside) < 0 or min(st.out) < 0:
        raise AssertionError(f"card conservation broken: {total}, aside {st.aside}, out {st.out}")
    for p in range(g.num_players):
        size = sum(st.hands[p])
        if size > g.hand_size or min(st.hands[p]) < 0:
            raise AssertionError(f"player {p} holds {size} cards: {st.hands[p]}")
        if any(k > h for k, h in zip(st.known[p], st.hands[p])):
            raise AssertionError(f"player {p} is known to hold cards not in hand")
        if not st.over and size == 0:
            raise AssertionError(f"player {p} has an empty hand in a running deal")


def _check_round(st) -> None:
    """The middle is a set with an owner, the passes have not ended the round, the phase fits the
    middle, and a selection in progress is in the hand of the seat building it."""
    if st.middle and not is_set(st.middle):
        raise AssertionError(f"middle {st.middle} is not a set")
    if (st.middle == ()) != (st.owner is None):
        raise AssertionError("the middle and its owner disagree")
    if not 0 <= st.passes < (1 if st.owner is None else st.game.num_players - 1):
        raise AssertionError(f"{st.passes} passes in a row should have ended the round")
    if st.phase == LEAD and st.middle:
        raise AssertionError("a lead with cards in the middle")
    if st.phase == ANSWER and st.owner == st.current_player:
        raise AssertionError("a player is asked to answer their own set (N11)")
    if st.pending and st.phase in (LEAD, ANSWER):
        held = st.hands[st.current_player]
        if any(st.pending.count(c) > held[c] for c in set(st.pending)):
            raise AssertionError(f"selection {st.pending} is not in the hand")
