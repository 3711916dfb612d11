"""Random corruptions of saved states: refused naming the field, or a state that plays cleanly.

``State.from_dict`` takes untrusted JSON, so a saved state one edit away from a real one must not
load into a position the engine cannot run (an action that raises half applied, an invariant
broken a few moves later). For every game of the registry this plays random games, saves
positions of every decision phase (and the end), and corrupts one field of each at a time,
seeded: a number changed, a list entry dropped or duplicated, a list truncated, shuffled or
emptied, two entries (seats, cards) swapped, a string replaced by another of the state's (a mode,
a pile's name), a value of the wrong type, a key dropped or added. Each corrupted state must
either be refused with a ``ValueError`` that names the corrupted field, or load into a state in
which every seat can be determinized, every legal action applies (on clones, invariants kept)
and a random playout reaches the end with no exception at all. Both outcomes must occur, so
neither half is vacuous.
"""

from __future__ import annotations

import copy
import json
import re
import zlib
from collections import defaultdict

import numpy as np
import pytest

import deckzoo.envs as E

NAMES = E.registry.env_names()


def _paths(obj, path=()):
    """Every place in a JSON value: ``(path, value)``, the value itself first."""
    yield path, obj
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, (*path, i))


def _changed_list(value: list, rng: np.random.Generator):
    v = copy.deepcopy(value)
    if not v:
        return [[0], None, [v]][rng.integers(3)]
    i, j = int(rng.integers(len(v))), int(rng.integers(len(v)))
    op = rng.integers(9)
    if op == 0:
        del v[i]  # drop an entry
    elif op == 1:
        v.insert(i, copy.deepcopy(v[i]))  # duplicate one (a card twice)
    elif op == 2:
        v = v[: rng.integers(len(v))]  # truncate
    elif op == 3:
        v[i], v[j] = v[j], v[i]  # swap two (seats, cards)
    elif op == 4:
        rng.shuffle(v)
    elif op == 5:
        v = []
    elif op == 6:
        v.append(copy.deepcopy(v[i]))
    elif op == 7:
        v = None
    else:
        v = [v]  # one level too deep
    return v


def _changed(value, rng: np.random.Generator, strings: list[str]):
    """A corrupted copy of ``value``, by its type."""
    if isinstance(value, bool):
        return [not value, int(value), None][rng.integers(3)]
    if isinstance(value, int):
        return [
            value + 1,
            value - 1,
            int(rng.integers(-2, max(60, 2 * abs(value) + 2))),
            -value - 1,
            None,
            str(value),
            value + 0.5,
            bool(value % 2),
        ][rng.integers(8)]
    if value is None:
        return [0, -1, 1, [], {}, "x"][rng.integers(6)]
    if isinstance(value, str):
        others = [s for s in strings if s != value] + ["x", ""]
        return [others[rng.integers(len(others))], None, 3][min(rng.integers(4), 2)]
    if isinstance(value, list):
        return _changed_list(value, rng)
    v = copy.deepcopy(value)  # a dict: a key dropped or added, or the wrong type
    op = rng.integers(4)
    if op == 0 and v:
        del v[list(v)[rng.integers(len(v))]]
    elif op == 1:
        v["surplus"] = 1
    else:
        v = [list(v.values()), None][op - 2] if op >= 2 else v
    return v


def _corrupt(fields: dict, rng: np.random.Generator) -> tuple[str, tuple, object, object]:
    """Corrupt one place of a saved state's fields, in place: a field chosen uniformly (so rare
    fields get their share), then the field itself or a place inside it. Returns the field, the
    path, the value before and after."""
    key = sorted(fields)[rng.integers(len(fields))]
    places = list(_paths(fields[key], (key,)))
    path, value = places[0] if rng.random() < 0.4 else places[rng.integers(len(places))]
    strings = sorted({v for _, v in _paths(fields) if isinstance(v, str)})
    new = _changed(value, rng, strings)
    parent = fields
    for k in path[:-1]:
        parent = parent[k]
    parent[path[-1]] = new
    return key, path, value, new


def _phase_of(state) -> str:
    if state.is_terminal():
        return "over"
    view = state.view(state.current_player)
    return str(view["phase"]) if "phase" in view else str(view["stack"][-1]["mode"])


def _positions(game, seed: int, count: int, rng: np.random.Generator) -> list:
    """Positions of one random game, ``count`` of them spread over its decision phases (a rare
    phase is as likely to be picked as a common one) and its end."""
    state, play = game.new_state(seed), np.random.default_rng(seed)
    by_phase = defaultdict(list)
    while True:
        by_phase[_phase_of(state)].append(state.clone())
        if state.is_terminal():
            break
        state.apply(int(play.choice(state.legal_actions())))
    phases = sorted(by_phase)
    rng.shuffle(phases)
    out = []
    while len(out) < count and any(by_phase.values()):
        for p in phases:
            if by_phase[p] and len(out) < count:
                out.append(by_phase[p].pop(int(rng.integers(len(by_phase[p])))))
    return out


def _check(state) -> None:
    if hasattr(state, "check_invariants"):
        state.check_invariants()


def _plays_cleanly(state, rng: np.random.Generator) -> None:
    """Every seat's determinization, every legal action (on clones) and a random playout to the
    end run without an exception, invariants kept."""
    for p in range(state.game.num_players):
        other = state.determinize(p, rng)
        _check(other)
        other.legal_mask()
    for a in state.legal_actions():
        child = state.clone()
        child.apply(int(a))
        _check(child)
    t = state.clone()
    while not t.is_terminal():
        t.apply(int(rng.choice(t.legal_actions())))
        t.observe(t.current_player) if t.current_player is not None else None
    _check(t)
    t.scores(), t.winners(), t.returns()


def fuzz(name: str, games: int, positions: int, corruptions: int, seed: int) -> dict:
    """Corrupt saved states of ``games`` random games of ``name``; counts of refused and loaded."""
    game_cls = E.game_class(name)
    counts = game_cls.supported_players()
    rng = np.random.default_rng([seed, zlib.crc32(name.encode())])
    seen = {"refused": 0, "loaded": 0}
    for _ in range(games):
        game = game_cls(counts[rng.integers(len(counts))], **E.registry.short_options(name))
        for state in _positions(game, int(rng.integers(2**31)), positions, rng):
            saved = json.loads(json.dumps(state.to_dict()))
            for _ in range(corruptions):
                d = copy.deepcopy(saved)
                key, path, before, after = _corrupt(d["state"], rng)
                what = f"{name}: {list(path)} {before!r:.80} -> {after!r:.80}"
                try:
                    loaded = type(state).from_dict(d)
                except ValueError as e:
                    assert re.search(rf"\b{re.escape(key)}\b", str(e)), f"{what}: {e}"
                    seen["refused"] += 1
                    continue
                try:
                    _plays_cleanly(loaded, np.random.default_rng(rng.integers(2**31)))
                except Exception as e:  # any exception at all is the failure reported
                    raise AssertionError(f"{what} loaded, then {type(e).__name__}: {e}") from e
                seen["loaded"] += 1
    return seen


@pytest.mark.parametrize("name", NAMES)
def test_corrupted_saved_states_are_refused_naming_the_field_or_play_cleanly(name):
    seen = fuzz(name, games=2, positions=8, corruptions=30, seed=0)
    assert seen["refused"] > 100 and seen["loaded"] > 0, seen


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 3))
@pytest.mark.parametrize("name", NAMES)
def test_corrupted_saved_states_many_seeds(name, seed):
    seen = fuzz(name, games=4, positions=10, corruptions=40, seed=seed)
    assert seen["refused"] > 100 and seen["loaded"] > 0, seen
