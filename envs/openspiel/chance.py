"""Explicit chance for the engines: a scripted generator and the chance processes that fill it.

The engines draw their chance from a numpy ``Generator`` (``rng.shuffle``, ``rng.permutation``,
``rng.integers``) in the middle of ``apply``. OpenSpiel wants every chance event as a node of its
own, with its outcomes and their probabilities. ``ScriptRng`` stands in for the generator: it
answers each call from a list of answers chosen outside, and raises ``NeedChance`` when the list
runs out. The bridge then keeps the position before the action, asks a *process* (below) for the
chance nodes that build the missing answer, and replays the action with one more answer. The
games are untouched: an engine cannot tell a scripted answer from a drawn one.

A process is a chain of immutable cursors (``Pick``), each one chance node; ``child(outcome)``
gives the next cursor or a ``Done`` holding the answer. Cursors are shared between cloned states,
never copied. Nodes with a single outcome are skipped (their outcome is forced): a chance node of
probability 1 only lengthens the tree.

Two kinds of process:

* ``fisher_yates(values)``: a shuffle as the uniform choices of Fisher-Yates from the end of the
  list (numpy's order: the last position first), merged by value: equal values are one outcome,
  with probability count / remaining. The arrangement of values is exactly as likely as under a
  uniform shuffle. Exact for any shuffle, but it branches on every position, seen or not.
* ``deal(pool, sizes)``: hands as multisets, for a per-game adapter (adapters.py) that knows
  which positions of a shuffle make which hand. A hand of ``k`` cards is dealt as its distinct
  values in increasing order, each node choosing the next value ``t`` present and how many
  copies ``j``, with the hypergeometric probability
  ``C(c_t, j) * C(N_{>t}, k - j) / C(N_{>=cur}, k)``; the product over a hand is
  ``prod C(c_t, h_t) / C(N, k)``, the probability of that multiset. One path per multiset, not
  one per ordering. What no group takes is the rest, without chance.

A pile that the game only pops from its top can stay unordered (``LazyPile``): its next card is
drawn, by value, when a pop reaches it (a ``resolve`` call), so a deck's order is never chosen
beyond the cards that leave it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from math import comb
from typing import Any

import numpy as np


class NeedChance(Exception):
    """Raised inside an engine's ``apply`` when the script has no answer for a chance call."""

    def __init__(self, call: Call):
        super().__init__(f"no scripted answer for rng.{call.method}")
        self.call = call


@dataclass(frozen=True)
class Call:
    """One chance call of an engine: ``method`` and what it draws from.

    ``values``: the multiset a ``shuffle``/``permutation`` arranges, in the order given; for
    ``integers``, the half-open range ``[low, high)`` as ``(low, high)``. ``index``: how many
    calls came before it in the same action.
    """

    method: str
    values: tuple
    index: int


class ScriptRng:
    """A stand-in for ``numpy.random.Generator`` answering from ``answers``, in call order.

    An answer is what the call produces: the arrangement of the shuffled values, the permuted
    array, the drawn integer. Only the methods the engines use for chance are here; a game that
    calls another (``random()``, a continuous draw) gets a ``NotImplementedError`` naming it.
    """

    def __init__(self, answers: Sequence):
        self.answers = answers
        self.calls = 0

    def _answer(self, method: str, values: tuple):
        call = Call(method, values, self.calls)
        if self.calls >= len(self.answers):
            raise NeedChance(call)
        self.calls += 1
        return self.answers[call.index]

    def shuffle(self, x, axis: int = 0) -> None:
        if axis != 0 or np.ndim(x) != 1:
            raise NotImplementedError("the OpenSpiel bridge scripts 1-d shuffles only")
        values = tuple(int(v) for v in x)
        arranged = self._answer("shuffle", values)
        _check_arrangement(values, arranged)
        x[:] = np.asarray(arranged, dtype=x.dtype) if isinstance(x, np.ndarray) else arranged

    def permutation(self, x):
        if isinstance(x, (int, np.integer)):
            values, dtype = tuple(range(int(x))), np.int64
        else:
            if np.ndim(x) != 1:
                raise NotImplementedError("the OpenSpiel bridge scripts 1-d permutations only")
            values, dtype = tuple(int(v) for v in x), np.asarray(x).dtype
        arranged = self._answer("permutation", values)
        _check_arrangement(values, arranged)
        return np.asarray(arranged, dtype=dtype)

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False):
        if size is not None:
            raise NotImplementedError("the OpenSpiel bridge scripts scalar integers only")
        low, high = (0, int(low)) if high is None else (int(low), int(high))
        if endpoint:
            high += 1
        if high <= low:
            raise ValueError(f"integers: empty range [{low}, {high})")
        value = self._answer("integers", (low, high))
        if not low <= value < high:
            raise AssertionError(f"scripted integer {value} outside [{low}, {high})")
        return dtype(value)

    def __getattr__(self, name: str):
        raise NotImplementedError(
            f"rng.{name}: the OpenSpiel bridge makes explicit chance of shuffle, permutation "
            "and integers only (deckzoo.openspiel.chance)"
        )


class LazyPile(list):
    """A pile (a list whose end is its top) whose bottom ``unresolved`` cards lie in no chosen
    order: when a pop reaches them, the card is drawn then (a ``resolve`` call answered by the
    script, by value) and moved to the top first. The engine may pop from it and add to its top;
    anything else that reads the order of the unresolved part would read a placeholder order.
    """

    def __init__(self, items, unresolved: int, script: ScriptRng):
        super().__init__(items)
        self.unresolved = min(unresolved, len(self))
        self.script = script

    def pop(self, index: int = -1):
        if index not in (-1, len(self) - 1):
            raise NotImplementedError("a lazy pile is popped from its top only")
        if self and len(self) <= self.unresolved:
            value = self.script._answer("resolve", tuple(self))
            j = self.index(value)
            self[j], self[-1] = self[-1], self[j]
            self.unresolved = len(self) - 1
        return super().pop()


def _check_arrangement(values: tuple, arranged) -> None:
    if sorted(values) != sorted(int(v) for v in arranged):
        raise AssertionError("a scripted arrangement is not a permutation of the shuffled values")


# ---- processes: chains of chance nodes ---------------------------------------------------------
@dataclass(frozen=True)
class Done:
    """The end of a process: the answer for the call, and the lazy piles it leaves (adapters)."""

    answer: Any
    lazy: tuple = ()
    meta: Any = field(default=None, compare=False)


@dataclass(frozen=True)
class Pick:
    """One chance node: ``outcomes`` as (action, probability); ``step`` maps an outcome to the next
    cursor or ``Done``; ``names`` an outcome to its text."""

    outcomes: tuple[tuple[int, float], ...]
    step: Callable[[int], Pick | Done] = field(compare=False)
    label: str = ""
    names: Callable[[int], str] = field(compare=False, default=str)

    def child(self, outcome: int) -> Pick | Done:
        return self.step(outcome)

    def outcome_name(self, outcome: int) -> str:
        return f"{self.label}: {self.names(outcome)}" if self.label else self.names(outcome)


def settle(node: Pick | Done) -> Pick | Done:
    """Follow forced nodes (one outcome) to the next real choice or the end."""
    while isinstance(node, Pick) and len(node.outcomes) == 1:
        node = node.child(node.outcomes[0][0])
    return node


def uniform(low: int, high: int, label: str = "draw") -> Pick | Done:
    """``integers(low, high)``: each value 1 / (high - low); the outcome is ``value - low``."""
    n = high - low
    return settle(
        Pick(
            tuple((k, 1.0 / n) for k in range(n)),
            lambda k: Done(low + k),
            label,
            lambda k: str(low + k),
        )
    )


def draw_one(values: Sequence[int], label: str = "draw") -> Pick | Done:
    """One card of ``values`` (a multiset of non-negative ints), each value count / total."""
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    total = len(values)
    return settle(Pick(tuple((v, c / total) for v, c in sorted(counts.items())), Done, label))


def fisher_yates(values: Sequence[int], label: str = "shuffle") -> Pick | Done:
    """A uniform arrangement of ``values``, position by position from the end (see the module
    docstring); outcomes are the values themselves (non-negative ints)."""
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return settle(_fy_node(tuple(sorted(counts.items())), (), label))


def _fy_node(remaining: tuple, placed: tuple, label: str) -> Pick | Done:
    if len(remaining) <= 1:
        rest = [v for v, c in remaining for _ in range(c)]
        return Done(rest + list(reversed(placed)))
    total = sum(c for _, c in remaining)

    def step(v: int) -> Pick | Done:
        left = tuple((u, c - (u == v)) for u, c in remaining if c - (u == v) > 0)
        return settle(_fy_node(left, (*placed, v), label))

    return Pick(tuple((v, c / total) for v, c in remaining), step, label)


def deal(
    pool: dict[int, int],
    sizes: Sequence[int],
    stride: int,
    finish: Callable[[list[dict[int, int]], dict[int, int]], Done],
    labels: Sequence[str] | None = None,
) -> Pick | Done:
    """Deal ``sizes[i]`` cards to group ``i`` from ``pool`` (value -> copies) as multisets (see
    the module docstring); ``finish(groups, rest)`` turns the groups (value -> count) and what is
    left into the answer. An outcome is ``value * stride + count - 1``."""
    items = tuple(sorted((v, c) for v, c in pool.items() if c > 0))
    labels = list(labels) if labels is not None else [f"group {i}" for i in range(len(sizes))]
    return settle(_deal_node(items, tuple(sizes), 0, 0, (), {}, stride, finish, labels))


def _deal_node(items, sizes, group, start, done_groups, hand, stride, finish, labels):
    """Group ``group`` still needs ``sizes[group] - sum(hand)`` cards, from ``items[start:]``."""
    while group < len(sizes) and sum(hand.values()) == sizes[group]:
        left = tuple((v, c - hand.get(v, 0)) for v, c in items if c - hand.get(v, 0) > 0)
        items, start, done_groups, hand = left, 0, (*done_groups, hand), {}
        group += 1
    if group == len(sizes):
        return finish(list(done_groups), dict(items))
    k = sizes[group] - sum(hand.values())
    tail = [0] * (len(items) + 1)  # tail[i]: cards of items[i:]
    for i in range(len(items) - 1, -1, -1):
        tail[i] = tail[i + 1] + items[i][1]
    if tail[start] < k:
        raise ValueError(f"cannot deal {k} more cards from {tail[start]}")
    whole = comb(tail[start], k)
    outcomes = []
    for i in range(start, len(items)):
        v, c = items[i]
        for j in range(1, min(c, k) + 1):
            ways = comb(c, j) * comb(tail[i + 1], k - j)
            if ways:
                outcomes.append((v * stride + j - 1, ways / whole))

    def step(outcome: int):
        v, j = divmod(outcome, stride)
        i = next(i for i in range(start, len(items)) if items[i][0] == v)
        return settle(
            _deal_node(
                items, sizes, group, i + 1, done_groups, {**hand, v: j + 1}, stride, finish, labels
            )
        )

    def name(outcome: int) -> str:
        v, j = divmod(outcome, stride)
        return f"{j + 1} x {v}"

    return Pick(tuple(outcomes), step, labels[group], name)
