"""A batched engine's state, declared once: each field's dtype, per-lane shape and reset value.

Why. A batched engine keeps a game's state as arrays with one row per lane. Written by hand, the
field list appears four times (allocation, the start of a game, the start of a round, copying a
scalar state in), and the four drift apart. Here a game declares its fields once::

    FIELDS = StateFields(
        Field("hands", np.int8, ("n", NUM_KINDS)),                      # reset 0 at each game
        Field("commits", np.int64, ("n",), NONE, scope="round"),       # and at each round
        Field("draw_pile", np.int8, (DECK_SIZE,), load=padded("draw")), # a list, padded
    )

and ``FIELDS.allocate(engine)`` makes ``engine.hands`` and the others (attributes, so the env's
``get_state`` / ``set_state`` save them by name), ``FIELDS.reset(engine, lanes)`` starts them for
a new game, ``FIELDS.reset(engine, lanes, "round")`` for a new round, and ``FIELDS.load(engine,
lane, state)`` copies a scalar state in. ``"n"`` in a shape stands for the number of seats.

``seat_rows`` is the one place where a ``(lane, seat)`` pair becomes a row of a ``(B * n, ...)``
array (``per_seat``): ``take`` and flat writes on those rows are several times cheaper than
numpy's two-array fancy indexing, and every engine uses them on its hot paths.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

#: how a field's value comes from a scalar state: ``loader(state, n) -> value for one lane``
Loader = Callable[[object, int], object]


@dataclass(frozen=True)
class Field:
    name: str
    dtype: type
    shape: tuple = ()  # per lane; "n" stands for the seats
    reset: object = 0  # the value at the start of a game (and of a round, for scope "round")
    scope: str = "game"  # "game": reset when a game starts; "round": at each round's start too;
    # "fixed": never reset (set by the engine itself, e.g. the phase)
    load: Loader | padded | str | None = None  # None: the scalar state's attribute of the same
    # name; a str: that attribute; a loader; padded(attr); "skip": the engine sets it itself

    def lane_shape(self, n: int) -> tuple[int, ...]:
        return tuple(n if d == "n" else int(d) for d in self.shape)


class StateFields:
    """The declaration of a batched engine's state (module docstring)."""

    SCOPES = ("fixed", "game", "round")

    def __init__(self, *fields: Field):
        names = [f.name for f in fields]
        if len(set(names)) != len(names):
            raise ValueError(f"a field is declared twice: {names}")
        for f in fields:
            if f.scope not in self.SCOPES:
                raise ValueError(f"field {f.name!r}: scope must be one of {self.SCOPES}")
        self.fields = fields
        self._game = [f for f in fields if f.scope in ("game", "round")]
        self._round = [f for f in fields if f.scope == "round"]

    @property
    def names(self) -> list[str]:
        return [f.name for f in self.fields]

    def allocate(self, engine) -> None:
        """``engine.<field>`` for every field: ``(B, *shape)`` at its reset value."""
        B, n = engine.B, engine.n
        for f in self.fields:
            setattr(engine, f.name, np.full((B, *f.lane_shape(n)), f.reset, dtype=f.dtype))

    def reset(self, engine, lanes: np.ndarray, scope: str = "game") -> None:
        """Every field of ``scope`` (``"game"``: the game's and the round's fields) back to its
        reset value in ``lanes``."""
        for f in self._game if scope == "game" else self._round:
            getattr(engine, f.name)[lanes] = f.reset

    def load(self, engine, lane: int, state) -> None:
        """Lane ``lane`` of every field from the scalar ``state`` (fields declared ``"skip"``
        are the engine's to set)."""
        n = engine.n
        for f in self.fields:
            how = f.load
            if how == "skip":
                continue
            if isinstance(how, padded):
                row, values = getattr(engine, f.name)[lane], getattr(state, how.attr)
                row[...] = 0
                row[: len(values)] = values
                continue
            if how is None:
                value = getattr(state, f.name)
            elif isinstance(how, str):
                value = getattr(state, how)
            else:
                value = how(state, n)
            getattr(engine, f.name)[lane] = value


# ---- loaders for the usual conversions ---------------------------------------------------------
def seat_set(attr: str) -> Loader:
    """A list of seats on the scalar state as a ``(n,)`` bool row."""
    return lambda s, n: np.isin(np.arange(n), getattr(s, attr))


@dataclass(frozen=True)
class padded:
    """A list on the scalar state (a pile, bottom first) written at the start of a zeroed row."""

    attr: str


def length(attr: str) -> Loader:
    """The length of a list on the scalar state."""
    return lambda s, n: len(getattr(s, attr))


def none_as(value: int, attr: str) -> Loader:
    """An attribute that may be None, with None as ``value``."""
    return lambda s, n: value if getattr(s, attr) is None else getattr(s, attr)


# ---- (lane, seat) rows ---------------------------------------------------------------------------
def seat_rows(lanes: np.ndarray, seats: np.ndarray, n: int) -> np.ndarray:
    """The rows of ``(lane, seat)`` pairs in a ``per_seat`` view."""
    return lanes * n + seats


def per_seat(arr: np.ndarray) -> np.ndarray:
    """A ``(B, n, *rest)`` array as ``(B * n, *rest)`` rows (a view), indexed by ``seat_rows``."""
    return arr.reshape((-1,) + arr.shape[2:])


def seat_take(arr: np.ndarray, lanes: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """``arr[lanes, seats]`` of a ``(B, n, ...)`` array (a ``take`` on its ``per_seat`` rows:
    several times cheaper than two-array fancy indexing); ``lanes`` and ``seats`` broadcast."""
    return per_seat(arr).take(seat_rows(lanes, seats, arr.shape[1]), axis=0)
