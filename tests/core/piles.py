"""Helpers for the per-game global-state tests: edit a pile of a clone, see if the state changes."""

from __future__ import annotations

import numpy as np


def swap_from_top(pile: list, i: int, j: int) -> None:
    """Swap the cards ``i`` and ``j`` places from the top (the end of the list)."""
    pile[-1 - i], pile[-1 - j] = pile[-1 - j], pile[-1 - i]


def edit_changes_state(state, edit) -> bool:
    """Does ``edit(clone)`` change the clone's global state?"""
    other = state.clone()
    edit(other)
    return not np.array_equal(other.global_state(), state.global_state())


def first_other(pile: list, i: int, places) -> int:
    """The first place in ``places`` (counted from the top) holding another card than place
    ``i``."""
    return next(j for j in places if pile[-1 - j] != pile[-1 - i])
