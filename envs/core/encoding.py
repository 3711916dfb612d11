"""One source for every observation layout: named pieces of one flat float32 buffer.

A game declares its pieces once (``Layout([("hand", 7), ("market", 7), ...])``); the encoder
fills named views of a single buffer, and docs/playthroughs print the same table, so the
layout in the docs can never drift from the code.
"""

from __future__ import annotations

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
        # One record per observation: a packed structured dtype whose fields are the pieces, in
        # layout order, so the record's memory is exactly the flat float32 buffer.
        self._record = np.dtype([(name, np.float32, shape) for name, shape, _, _ in self.pieces])
        if self._record.itemsize != 4 * self.size:
            raise AssertionError("observation record does not match the layout")

    def new(self) -> tuple[np.ndarray, np.ndarray]:
        """A zeroed flat float32 buffer and its named pieces: ``buf, v = layout.new()``.

        ``v[name]`` is a writable view of that piece, shaped as declared (``v["banks"][r, k] = 1``
        writes into ``buf``). ``v`` is a 0-d structured array over the same memory (its fields,
        ``v.dtype.names``, are the pieces in layout order), so looking a piece up is one C-level
        field access: ``observe`` runs every step, and a dict of reshaped views built per call
        cost more than filling them. ``views(buf)`` gives a plain dict of views when one is needed.
        """
        if not self.size:
            return np.zeros(0, dtype=np.float32), np.zeros((), dtype=self._record)
        record = np.zeros((), dtype=self._record)
        return record.reshape(1).view(np.float32), record

    def batch(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """``k`` zeroed observations and their named pieces, for a batched encoder:
        ``buf, v = layout.batch(k)``; ``buf`` is ``(k, size)`` float32 and ``v[name]`` a writable
        ``(k, *shape)`` view of that piece in every row (``v["hand"][:] = counts / 2``). Why:
        a batched encoder then writes by name, as the scalar one does, instead of by offsets into
        the row; ``v`` is a ``(k,)`` structured array over ``buf``'s memory, so a piece is one
        field access."""
        record = np.zeros(k, dtype=self._record)
        if not self.size:
            return np.zeros((k, 0), dtype=np.float32), record
        return record.view(np.float32).reshape(k, self.size), record

    def offset(self, name: str) -> int:
        """Where piece ``name`` starts in the flat buffer (for flat one-hot scatters, whose
        targets are cells of the whole row)."""
        return self._slices[name][1]

    def views(self, buf: np.ndarray) -> dict[str, np.ndarray]:
        return {
            name: buf[a:b] if len(shape) == 1 else buf[a:b].reshape(shape)
            for name, (shape, a, b) in self._slices.items()
        }

    def slice(self, name: str) -> slice:
        _, a, b = self._slices[name]
        return slice(a, b)

    def split(self, buf: np.ndarray) -> dict[str, np.ndarray]:
        """Named pieces of an encoded observation (for docs, tests and debugging)."""
        return self.views(np.asarray(buf))

    def table(self, notes: dict[str, str] | None = None) -> str:
        """The layout as a markdown table (index ranges are inclusive); ``notes`` (piece -> text)
        adds an ``encoding`` column, as the docs print it (``deckzoo.envs.layout_docs``)."""
        extra = notes is not None
        rows = [
            "| piece | shape | indices |" + (" encoding |" if extra else ""),
            "|---|---|---|" + ("---|" if extra else ""),
        ]
        for name, shape, a, b in self.pieces:
            note = f" {notes.get(name, '')} |" if extra else ""
            rows.append(f"| `{name}` | {'x'.join(map(str, shape))} | {a}-{b - 1} |{note}")
        rows.append(f"| **total** | {self.size} | |" + (" |" if extra else ""))
        return "\n".join(rows)


def counts(values, size: int, offset: int = 0) -> np.ndarray:
    """Histogram of small ints (card ranks/ids) as float32, vectorised."""
    return np.bincount(np.asarray(values, dtype=np.int64) - offset, minlength=size)[:size].astype(
        np.float32
    )
