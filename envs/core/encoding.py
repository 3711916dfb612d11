"""One source for every observation layout: named pieces of one flat float32 buffer.

A game declares its pieces once (``Layout([("hand", 7), ("market", 7), ...])``); the encoder
fills named views of a single buffer, and docs/playthroughs print the same table, so the
layout in the docs can never drift from the code.
"""

from __future__ import annotations

from collections.abc import ItemsView, KeysView, ValuesView

import numpy as np


class Layout:
    def __init__(self, pieces: list[tuple[str, int | tuple[int, ...]]]):
        self.pieces: list[tuple[str, tuple[int, ...], int, int]] = []  # name, shape, start, stop
        start = 0
        seen = set()
        for name, shape in pieces:
            if name in seen:
                raise ValueError(f"duplicate observation piece {name!r}")
            seen.add(name)
            shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
            size = int(np.prod(shape))
            self.pieces.append((name, shape, start, start + size))
            start += size
        self.size = start
        self._slices = {name: (shape, a, b) for name, shape, a, b in self.pieces}

    def new(self) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """A zeroed buffer and named (reshaped) views into it.

        The views are made on first access (``observe`` runs every step, and building every
        piece's view up front cost more than filling most of them), but the mapping behaves as
        the full dict: iteration, ``len``, ``in``, ``keys``/``values``/``items`` and ``get``
        see every piece.
        """
        return (buf := np.zeros(self.size, dtype=np.float32)), _LazyViews(buf, self._slices)

    def views(self, buf: np.ndarray) -> dict[str, np.ndarray]:
        return {name: buf[a:b] if len(shape) == 1 else buf[a:b].reshape(shape)
                for name, (shape, a, b) in self._slices.items()}

    def slice(self, name: str) -> slice:
        _, a, b = self._slices[name]
        return slice(a, b)

    def split(self, buf: np.ndarray) -> dict[str, np.ndarray]:
        """Named pieces of an encoded observation (for docs, tests and debugging)."""
        return self.views(np.asarray(buf))

    def table(self) -> str:
        """The layout as a markdown table (index ranges are inclusive)."""
        rows = ["| piece | shape | indices |", "|---|---|---|"]
        for name, shape, a, b in self.pieces:
            rows.append(f"| `{name}` | {'x'.join(map(str, shape))} | {a}-{b - 1} |")
        rows.append(f"| **total** | {self.size} | |")
        return "\n".join(rows)


class _LazyViews(dict):
    """``Layout.new``'s named views of one buffer, each made when first looked up."""

    __slots__ = ("_buf", "_slices")

    def __init__(self, buf: np.ndarray, slices: dict):
        super().__init__()
        self._buf, self._slices = buf, slices

    def __missing__(self, name: str) -> np.ndarray:
        shape, a, b = self._slices[name]  # KeyError for an unknown piece, as from a dict
        view = self._buf[a:b] if len(shape) == 1 else self._buf[a:b].reshape(shape)
        self[name] = view
        return view

    def _fill(self) -> None:
        for name in self._slices:
            if not dict.__contains__(self, name):
                self.__missing__(name)

    def __iter__(self):
        return iter(self._slices)

    def __len__(self) -> int:
        return len(self._slices)

    def __contains__(self, name) -> bool:
        return name in self._slices

    def __eq__(self, other) -> bool:
        self._fill()
        return dict.__eq__(self, other)

    __hash__ = None

    def get(self, name, default=None):
        return self[name] if name in self._slices else default

    def keys(self):
        return KeysView(self)  # layout order, whatever order the pieces were first touched in

    def values(self):
        return ValuesView(self)

    def items(self):
        return ItemsView(self)

    def __repr__(self) -> str:
        return repr({name: self[name] for name in self._slices})


def counts(values, size: int, offset: int = 0) -> np.ndarray:
    """Histogram of small ints (card ranks/ids) as float32, vectorised."""
    return np.bincount(np.asarray(values, dtype=np.int64) - offset, minlength=size)[:size].astype(np.float32)
