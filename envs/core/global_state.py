"""The full-information global state: what ``env.state()`` gives a centralised critic.

A critic trained with every seat's hidden information (MAPPO-style, or perfect-information
training for imperfect-information play) needs one vector per position that no seat's
observation holds: every hand, face-down cards, the piles whose order decides the future. Each
game declares it as a ``StateLayout``: the public pieces of its observation as seat 0 sees them
(seat 0's relative seat order *is* the absolute order), minus the pieces only the observer sees
(its hand, its own commit...), followed by the game's hidden pieces. So the state reuses the
observation's encoder and scales (one source), every new public piece of the observation appears
in the state too, and the layout table in the docs is printed from the same object.

Piles whose order matters are encoded by ``put_pile``: per-kind counts of the whole pile plus the
next ``window`` cards in order, one-hot, top first. A window as long as the pile is its full order.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from .encoding import Layout


class StateLayout(Layout):
    """The observation's public pieces (from seat 0's observation), then the hidden pieces.

    ``observer_pieces`` names the observation pieces that depend on who observes (its own hand,
    its own face-down card): they are left out, and the hidden pieces give every seat's version.
    """

    def __init__(
        self,
        observation: Layout,
        observer_pieces: Iterable[str],
        hidden_pieces: list[tuple[str, int | tuple[int, ...]]],
    ):
        observer_pieces = tuple(observer_pieces)
        names = {name for name, _, _, _ in observation.pieces}
        unknown = [name for name in observer_pieces if name not in names]
        if unknown:
            raise ValueError(f"observer pieces {unknown} are not observation pieces")
        public = [piece for piece in observation.pieces if piece[0] not in observer_pieces]
        super().__init__([(name, shape) for name, shape, _, _ in public] + list(hidden_pieces))
        self.observer_pieces = observer_pieces
        # where each public entry of the state comes from in the observation (one gather)
        index = [np.arange(a, b) for _, _, a, b in public]
        self.public_index = np.concatenate(index).astype(np.intp) if index else np.zeros(0, np.intp)
        self.public_size = len(self.public_index)

    def start(self, seat0_observation: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """A new buffer with its public part filled, and its named pieces (as ``Layout.new``)."""
        buf, v = self.new()
        buf[: self.public_size] = seat0_observation[self.public_index]
        return buf, v


def put_pile(counts: np.ndarray, order: np.ndarray, pile, scale, offset: int = 0) -> None:
    """Encode ``pile`` (card kinds + ``offset``, top = last) into its two pieces: ``counts[k]`` =
    copies of kind ``k`` times ``scale`` (a number or a per-kind array); ``order[i]`` = one-hot
    kind of the ``i``-th card from the top, for the first ``len(order)`` cards (rows past the end
    stay 0)."""
    if not len(pile):
        return
    kinds = np.asarray(pile, dtype=np.intp)
    if offset:
        kinds = kinds - offset
    counts[:] = np.bincount(kinds, minlength=len(counts)) * scale
    top = kinds[: -len(order) - 1 : -1]
    order[np.arange(len(top)), top] = 1.0
