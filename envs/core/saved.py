"""Checking saved states (``State.from_dict``) before anything is built.

A saved state is untrusted JSON: a file a user edited, a checkpoint from another version. Each
game's ``_from_dict`` reads its fields through ``Fields``, which checks every value's type,
size and range and raises ``ValueError`` naming the field (``saved gobig state: field 'hands'
must have 4 rows (one per player), got 5``), then checks the game's invariants (card
conservation, hidden-information consistency) on the plain values, and only then builds the
state. ``probe`` is the last line of defence for deep structures: it runs the built state's own
invariant checks and its mask, view and observation, so a state that passes cannot fail later.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np


def is_whole(x) -> bool:
    """An int (Python or numpy), not a bool: what JSON's whole numbers load as."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


class Fields:
    """The fields of one saved object (``d``), read with checks; ``where`` prefixes errors."""

    def __init__(self, d, where: str, known: Iterable[str] | None = None):
        if not isinstance(d, dict):
            # a ValueError, not a TypeError: from_dict promises ValueError for any bad input
            got = type(d).__name__
            raise ValueError(f"{where} must be a JSON object, got {got}")  # noqa: TRY004
        self.d, self.where = d, where
        if known is not None:
            unknown = sorted(set(d) - set(known), key=str)
            if unknown:
                raise ValueError(f"{where}: unknown field(s) {', '.join(map(repr, unknown))}")

    def fail(self, name: str, message: str):
        raise ValueError(f"{self.where}: field {name!r} {message}")

    def get(self, name: str):
        if name not in self.d:
            raise ValueError(f"{self.where}: field {name!r} is missing")
        return self.d[name]

    # ---- scalars ----
    def int(
        self, name: str, lo: int, hi: int, none: bool = False, value=..., note: str = ""
    ) -> int | None:
        """An int in ``lo..hi`` (or None when ``none``); ``note`` says where a bound comes from
        (another field) in the error."""
        v = self.get(name) if value is ... else value
        if v is None and none:
            return None
        if not is_whole(v) or not lo <= v <= hi:
            self.fail(
                name,
                f"must be {'null or ' if none else ''}a whole number in {lo}..{hi}{note}, "
                f"got {v!r}",
            )
        return int(v)

    def seat(self, name: str, n: int, none: bool = False) -> int | None:
        return self.int(name, 0, n - 1, none)

    def bool(self, name: str) -> bool:
        v = self.get(name)
        if not isinstance(v, (bool, np.bool_)):
            self.fail(name, f"must be true or false, got {v!r}")
        return bool(v)

    def str(
        self, name: str, choices: Iterable[str] | None = None, none: bool = False
    ) -> str | None:
        v = self.get(name)
        if v is None and none:
            return None
        if not isinstance(v, str) or (choices is not None and v not in choices):
            allowed = f"one of {sorted(choices)}" if choices is not None else "a string"
            self.fail(name, f"must be {allowed}, got {v!r}")
        return v

    # ---- lists ----
    def list(self, name: str, length: int | None = None, value=...) -> list:
        v = self.get(name) if value is ... else value
        if not isinstance(v, list):
            self.fail(name, f"must be a list, got {type(v).__name__}")
        if length is not None and len(v) != length:
            self.fail(name, f"must have {length} entries, got {len(v)}")
        return v

    def ints(
        self,
        name: str,
        lo: int,
        hi: int,
        length: int | None = None,
        none: bool = False,
        value=...,
        note: str = "",
    ) -> list:
        """A list of ints in ``lo..hi`` (entries may be None when ``none``); ``note`` as for
        ``int``."""
        v = self.list(name, length, value)
        for i, x in enumerate(v):
            if not ((x is None and none) or (is_whole(x) and lo <= x <= hi)):
                self.fail(
                    name,
                    f"entry {i} must be {'null or ' if none else ''}a whole number in {lo}..{hi}"
                    f"{note}, got {x!r}",
                )
        return [None if x is None else int(x) for x in v]

    def bools(self, name: str, length: int | None = None) -> list[bool]:
        v = self.list(name, length)
        if not all(isinstance(x, (bool, np.bool_)) for x in v):
            self.fail(name, "must hold only true/false")
        return [bool(x) for x in v]

    def matrix(
        self,
        name: str,
        rows: int,
        cols: int,
        lo: int = 0,
        hi: int = 2**31,
        what: str = "one per player",
    ) -> np.ndarray:
        """A ``rows`` x ``cols`` table of ints in ``lo..hi`` (counts, by default)."""
        v = self.list(name)
        if len(v) != rows:
            self.fail(name, f"must have {rows} rows ({what}), got {len(v)}")
        for r, row in enumerate(v):
            self.ints(f"{name}[{r}]", lo, hi, cols, value=row)
        return np.asarray(v, dtype=np.int64).reshape(rows, cols)

    def counts(self, name: str, size: int, hi: int = 2**31) -> np.ndarray:
        """Counts per kind: ``size`` ints >= 0."""
        return np.asarray(self.ints(name, 0, hi, size), dtype=np.int64).reshape(size)


def check_conservation(where: str, total, expected, fields: str, name=str) -> None:
    """Every kind of card is somewhere, exactly as often as the game has it."""
    total, expected = np.asarray(total), np.asarray(expected)
    bad = np.flatnonzero(total != expected)
    if len(bad):
        k = int(bad[0])
        raise ValueError(
            f"{where}: fields {fields}: card {name(k)} appears {int(total[k])} times, the game has "
            f"{int(expected[k])} (card conservation)"
        )


def probe(state, where: str) -> None:
    """Run the built state's invariant checks, mask, views and observations; any failure means
    the saved fields do not describe a reachable position."""
    try:
        if hasattr(state, "check_invariants"):
            state.check_invariants()
        if not state.is_terminal() and not state.legal_mask().any():
            raise ValueError("no legal action in a running game")
        for p in range(state.game.num_players):
            state.view(p)
            state.observe(p)
    except ValueError as e:
        raise ValueError(f"{where} is inconsistent: {e}") from None
    except (AssertionError, KeyError, IndexError, TypeError, AttributeError) as e:
        raise ValueError(f"{where} is inconsistent: {type(e).__name__}: {e}") from None
