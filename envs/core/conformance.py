"""Engine conformance checks shared by every game's tests (and by anyone adding a game).

``check_random_play`` plays seeded random games and verifies, at every decision, the
properties the engine protocol (envs/core/game.py) promises: a non-empty mask, a current
player exactly when not terminal,
conservation (``check_invariants`` if the state has it), and on a sample of decisions the
expensive ones: the mask is exact (on clones, every masked-in action applies and every
masked-out one raises ``IllegalActionError`` leaving the clone unchanged), JSON round trips are
exact, ``view`` is JSON-able, ``observe`` is in bounds and depends only on ``view`` (checked
against determinized states, which have equal views but different hidden cards), and
``determinize`` keeps each seat's view; ``global_state`` is in bounds, pure, and tells apart any
two worlds that some seat can tell apart. Every game also stays within its declared bounds: at
most ``max_game_length`` decisions, scores in ``score_bounds``, returns in ``return_bounds``.

Plain functions raising ``AssertionError`` so they need no test framework.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np

from .errors import IllegalActionError
from .game import Game, State


@dataclass
class PlayStats:
    games: int = 0
    steps: int = 0
    lengths: list = field(default_factory=list)
    winners: list = field(default_factory=list)
    action_counts: np.ndarray | None = None


def _snapshot(state: State) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def check_mask_exact(state: State) -> None:
    mask = state.legal_mask()
    before = _snapshot(state)
    for a in range(state.game.num_actions):
        trial = state.clone()
        if mask[a]:
            trial.apply(a)  # must not raise
        else:
            try:
                trial.apply(a)
            except IllegalActionError:
                if _snapshot(trial) != before:
                    raise AssertionError(f"masked-out action {a} raised but changed the state")
            else:
                raise AssertionError(f"masked-out action {a} ({state.action_name(a)}) was accepted")
    if _snapshot(state) != before:
        raise AssertionError("checking the mask changed the original state")


def check_bad_inputs(state: State) -> None:
    """Out-of-range, negative, float, None, bool and masked-out actions raise and change nothing."""
    before = _snapshot(state)
    n = state.game.num_actions
    mask = state.legal_mask()
    bad = [n, n + 7, -1, 1.0, 0.5, None, True, "0", [0]]
    masked_out = np.flatnonzero(~mask)
    if len(masked_out):
        bad.append(int(masked_out[0]))
    for a in bad:
        try:
            state.apply(a)
        except IllegalActionError as e:
            if "legal actions are" not in str(e):
                raise AssertionError(f"error for {a!r} does not name the legal actions: {e}")
        else:
            raise AssertionError(f"bad action {a!r} was accepted")
        if _snapshot(state) != before:
            raise AssertionError(f"bad action {a!r} changed the state")


def check_state(state: State, rng: np.random.Generator, deep: bool) -> None:
    game = state.game
    terminal = state.is_terminal()
    if terminal != (state.current_player is None):
        raise AssertionError("current_player must be None exactly when terminal")
    if hasattr(state, "check_invariants"):
        state.check_invariants()
    if not terminal:
        mask = state.legal_mask()
        if mask.shape != (game.num_actions,) or mask.dtype != bool:
            raise AssertionError(f"mask has shape {mask.shape} dtype {mask.dtype}")
        if not mask.any():
            raise AssertionError(f"empty mask for player {state.current_player}:\n{state.render()}")
    check_global_state(state, pure=deep)
    if not deep:
        return
    if not terminal:
        check_mask_exact(state)
    d = state.to_dict()
    text = json.dumps(d, sort_keys=True)
    back = type(state).from_dict(json.loads(text), game)
    if json.dumps(back.to_dict(), sort_keys=True) != text:
        raise AssertionError("to_dict/from_dict round trip is not exact")
    if state.clone() != state:
        raise AssertionError("clone differs from the original")
    for p in range(game.num_players):
        view = state.view(p)
        json.dumps(view)
        obs = state.observe(p)
        if obs.shape != game.observation_shape or obs.dtype != np.float32:
            raise AssertionError(f"observation shape {obs.shape} dtype {obs.dtype}")
        if not (np.all(obs >= 0) and np.all(obs <= game.observation_high)):
            bad = np.flatnonzero((obs < 0) | (obs > game.observation_high))
            raise AssertionError(
                f"observation out of bounds at {bad[:10].tolist()}: {obs[bad[:10]]}"
            )
        det = check_determinize_keeps_view(state, p, rng, view, obs)
        check_global_state_between(state, det)


def check_determinize_keeps_view(
    state: State, p: int, rng: np.random.Generator, view=None, obs=None
) -> State:
    """``determinize(p)`` changes neither ``view(p)`` nor ``observe(p)`` (else the view shows hidden
    cards), gives a state that passes its invariants and, for the seat to act, the same mask.
    Returns the determinized state."""
    view = state.view(p) if view is None else view
    obs = state.observe(p) if obs is None else obs
    det = state.determinize(p, rng)
    if det.view(p) != view:
        diff = sorted(k for k in view if det.view(p).get(k) != view[k])
        raise AssertionError(f"determinize({p}) changed the player's view: {diff}")
    if not np.array_equal(det.observe(p), obs):
        raise AssertionError(f"observe({p}) differs on a state with the same view")
    if hasattr(det, "check_invariants"):
        det.check_invariants()
    if p == state.current_player and not np.array_equal(det.legal_mask(), state.legal_mask()):
        raise AssertionError("determinized state has a different legal mask for the player to act")
    return det


def check_global_state(state: State, pure: bool = True) -> np.ndarray:
    """``global_state()`` has the declared shape, dtype and bounds; with ``pure``, it is a function
    of the position (asking twice, a clone, a JSON round trip, the seats' views change nothing)."""
    game = state.game
    x = state.global_state()
    if x.shape != game.state_shape or x.shape != (game.state_layout.size,) or x.dtype != np.float32:
        raise AssertionError(
            f"global state shape {x.shape} dtype {x.dtype}, declared {game.state_shape}"
        )
    if not (np.all(x >= 0) and np.all(x <= game.state_high)):
        bad = np.flatnonzero((x < 0) | (x > game.state_high))[:10]
        pieces = sorted(
            {name for name, _, a, b in game.state_layout.pieces for i in bad if a <= i < b}
        )
        raise AssertionError(f"global state out of bounds at {bad.tolist()} ({pieces}): {x[bad]}")
    if not pure:
        return x
    for p in range(game.num_players):
        state.observe(p)
        state.view(p)
    twin = type(state).from_dict(json.loads(json.dumps(state.to_dict())), game)
    for other, how in ((state, "asking again"), (state.clone(), "a clone"), (twin, "JSON")):
        if not np.array_equal(other.global_state(), x):
            raise AssertionError(f"global state changed with {how}")
    return x


def check_global_state_between(state: State, other: State) -> None:
    """Two worlds (``other`` a determinization of ``state``): the public part of the global state
    is equal (it holds nothing hidden), and if any seat can tell the worlds apart (its view differs)
    the global states differ (they hold everything hidden)."""
    game = state.game
    x, y = state.global_state(), other.global_state()
    k = game.state_layout.public_size
    if not np.array_equal(x[:k], y[:k]):
        bad = np.flatnonzero(x[:k] != y[:k])[:10].tolist()
        raise AssertionError(f"the global state's public part depends on hidden cards: {bad}")
    if np.array_equal(x, y):
        seen = [q for q in range(game.num_players) if other.view(q) != state.view(q)]
        if seen:
            raise AssertionError(f"worlds that seats {seen} tell apart have the same global state")


def check_bounds(state: State, initial_scores: np.ndarray, steps: int) -> None:
    """A finished game kept its declared bounds (``Game.max_game_length``, ``score_bounds``,
    ``return_bounds`` of every reward mode)."""
    game = state.game
    if steps > game.max_game_length:
        raise AssertionError(f"{steps} decisions, more than max_game_length {game.max_game_length}")
    scores = np.asarray(state.scores(), dtype=np.float64)
    lo, hi = game.score_bounds
    if scores.min() < lo or scores.max() > hi:
        raise AssertionError(f"scores {scores.tolist()} outside score_bounds {game.score_bounds}")
    dense = game.score_sign * (scores - initial_scores) / game.score_scale
    modes = (("win", state.returns()), ("score", state.score_returns()), ("dense", dense))
    for mode, returns in modes:
        lo, hi = game.return_bounds(mode)
        if np.min(returns) < lo - 1e-9 or np.max(returns) > hi + 1e-9:
            raise AssertionError(
                f"{mode} returns {np.round(returns, 4).tolist()} outside [{lo}, {hi}]"
            )


def check_random_play(game: Game, num_games: int, seed: int = 0, deep_every: int = 0) -> PlayStats:
    """Play ``num_games`` random games; run the deep checks on every ``deep_every``-th decision."""
    rng = np.random.default_rng(seed)
    stats = PlayStats(action_counts=np.zeros(game.num_actions, dtype=np.int64))
    for g in range(num_games):
        state = game.new_state(int(rng.integers(2**63)))
        initial_scores = np.asarray(state.scores(), dtype=np.float64)
        steps = 0
        while True:
            deep = deep_every > 0 and (stats.steps + steps) % deep_every == 0
            check_state(state, rng, deep)
            if state.is_terminal():
                break
            a = int(rng.choice(state.legal_actions()))
            stats.action_counts[a] += 1
            state.apply(a)
            steps += 1
            if steps > game.max_game_length:
                raise AssertionError(
                    f"game {g} did not end within max_game_length {game.max_game_length} decisions"
                )
        check_state(state, rng, deep=True)
        check_bounds(state, initial_scores, steps)
        r = state.returns()
        if abs(r.sum()) > 1e-9:
            raise AssertionError(f"win returns are not zero-sum: {r}")
        stats.games += 1
        stats.steps += steps
        stats.lengths.append(steps)
        stats.winners.append(sorted(state.winners()))
    return stats


def check_determinism(game: Game, seed: int, num_games: int = 3) -> None:
    """Same seed and same actions give the same trajectory, states compared in full."""
    rng = np.random.default_rng(seed)
    for _ in range(num_games):
        s = int(rng.integers(2**63))
        a, b = game.new_state(s), game.new_state(s)
        while not a.is_terminal():
            if _snapshot(a) != _snapshot(b):
                raise AssertionError("trajectories diverged")
            act = int(rng.choice(a.legal_actions()))
            a.apply(act)
            b.apply(act)
        if _snapshot(a) != _snapshot(b) or not b.is_terminal():
            raise AssertionError("final states differ")
