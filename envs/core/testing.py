"""A game's ``testing.py``: the facts about it that the registry-driven test suites need.

The generic suites (``tests/core``, ``tests/vector``, ``tests/viewer``, ``tests/agents``) iterate
the registry, so a new game runs through all of them with no test edited. What they cannot derive
from the engine lives in the game's own folder, in ``envs/<game>/testing.py`` (numpy only, like
the engine), and is read with ``registry.testing_fact(name, KEY, default)``. The names:

* ``hand_names(state, p) -> collections.Counter``: seat ``p``'s hand as card name -> copies,
  read from the engine's own state (not from a view). Needed by a game with a ``scene.py``: the
  viewer's scenes are checked against it.
* ``SCREENSHOT_AT`` (default 0.5): how far into a recorded game (a fraction of its moves) the
  browser test takes the game's screenshot.
* ``CORRUPTIONS``: ``[(field, corrupt), ...]``, single-field corruptions of a saved state that
  ``State.from_dict`` must reject with a ``ValueError`` naming ``field`` (its part before a
  ``/``); ``corrupt(fields)`` edits the saved ``state`` dict in place. ``corruptible(state) ->
  bool`` picks the position they are applied to (the first one of random games that it accepts)
  and ``CORRUPTION_PLAYERS`` its player count (default: the game's default). A game without
  ``CORRUPTIONS`` is skipped by that test, with the reason; the corruptions every game must
  reject (missing and unknown fields, bad seats, the wrong config) run anyway.
* ``ROUND_TRIP_EVERY`` (default 1): the saved-state round trip checks every k-th state of its
  random games (for games with many decisions).
* For a game with a batched engine (``batched.py``), the cases ``tests/vector`` plays, each
  defaulting to something derived from the game (``tests/vector/helpers.py``: both ends of the
  player range, the short options, enough steps for every lane to finish a game):
  ``DIFFERENTIAL_CASES`` ``[(options, lanes, steps), ...]`` (the batched engine against the
  scalar one, step for step), ``check_differential(options, seen)`` (asserts that a case reached
  what it should: ``seen`` counts "finished", "starts", "deals" and the "actions" played),
  ``INFORMATION_CONFIGS`` ``[options, ...]`` (hidden information in lanes) and ``GYM_OPTIONS``
  (the single-agent vector view; default the short options).
* ``all_deals(game)``: every chance outcome of a game whose chance is all in its deal (a small
  variant: ``deckzoo.envs.variants``), one start state each, for exhaustive counts and solvers;
  ``ValueError`` for a configuration with chance later in the game.

The helpers below write the most common corruptions.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterator

import numpy as np

Corrupt = Callable[[dict], None]


def set_field(field: str, value) -> Corrupt:
    """A corruption that replaces ``field`` with ``value``."""
    return lambda fields: fields.__setitem__(field, copy.deepcopy(value))


def add_row(field: str) -> Corrupt:
    """A corruption that appends a copy of ``field``'s first row (one row too many)."""
    return lambda fields: fields[field].append(copy.deepcopy(fields[field][0]))


def distinct_orders(items) -> Iterator[tuple]:
    """Every distinct ordering of the multiset ``items`` (each once, in lexicographic order): the
    chance outcomes of shuffling a deck whose equal cards cannot be told apart."""
    pool = Counter(items)
    keys = sorted(pool)
    size = sum(pool.values())
    out: list = []

    def rec() -> Iterator[tuple]:
        if len(out) == size:
            yield tuple(out)
            return
        for k in keys:
            if pool[k]:
                pool[k] -= 1
                out.append(k)
                yield from rec()
                out.pop()
                pool[k] += 1

    return rec()


def count_names(counts, name_of: Callable[[int], str]) -> Counter:
    """Counts per card kind (a row of a hand) as card name -> copies, for ``hand_names``."""
    return Counter({name_of(k): int(c) for k, c in enumerate(np.asarray(counts).tolist()) if c})
