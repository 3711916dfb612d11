"""What every Go Big position keeps (for tests; the state's ``check_invariants``, found by name
in envs/core/game.py): card conservation, and no seat known to hold a card it does not hold."""

from __future__ import annotations


def check_invariants(st) -> None:
    """Card conservation: every value has its copies (13) across all places."""
    total = st.hands.sum(axis=0) + st.banks.sum(axis=0) + st.box
    for c in st.deck + st.market:
        total[c - 1] += 1
    for d in st.displays:
        if d is not None:
            total[d[0] - 1] += d[1]
    if not (total == st.game.deck_counts).all():
        raise AssertionError(f"card conservation broken: {total.tolist()}")
    if (st.known > st.hands).any():
        raise AssertionError("a seat is known to hold cards it does not hold")
