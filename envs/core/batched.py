"""Batched engines: B games of one configuration advanced by one ``step`` call.

The scalar engines (``envs/<game>/rules.py``) are the specification; a batched engine
(``envs/<game>/batched.py``) keeps the same games as struct-of-arrays numpy state (one row a
game, a "lane") and must reproduce them bit for bit: the same observation of the player to
act, the same exact mask and action ids, the same rewards. ``tests/vector`` checks that step
for step against the scalar engine.

This module holds what every batched game shares:

* ``BatchedEngine``: the base a game fills in (start games, mask, apply, observe, scores,
  winners, loading scalar states);
* ``BatchedEnv``: the public object ``deckzoo.envs.vector.make`` returns. It validates
  actions (one illegal action raises before any lane changes, or penalizes that lane only),
  turns scores into rewards for every seat exactly as ``RewardTracker`` does for the scalar
  adapters, and resets finished games automatically;
* chance: an engine draws every deal from the batch's one ``numpy.random.Generator``
  (vectorised), unless a *chance hook* is set. ``StateDeals`` is the hook that copies deals
  from scalar states instead, which is how the differential tests make chance match (a
  batched generator cannot reproduce per-game scalar generators without a loop over games).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, NamedTuple

import numpy as np

from .adapter_options import split_options
from .errors import ConfigError, IllegalActionError

#: a chance hook: ``hook(kind, lanes) -> record`` with ``kind`` "start" (a new game) or "deal"
#: (a new round/deal of a running game); the record's format belongs to the game's engine.
ChanceHook = Callable[[str, np.ndarray], dict]


def relative_seats(seats: np.ndarray, n: int) -> np.ndarray:
    """``(k, n)``: the absolute seat at each relative position of each observer (0 = itself)."""
    return _seat_tables(n)[0].take(seats, axis=0)


def seat_positions(seats: np.ndarray, n: int) -> np.ndarray:
    """``(k, n)``: the relative position of each absolute seat for each observer."""
    return _seat_tables(n)[1].take(seats, axis=0)


def _seat_tables(n: int, _cache: dict = {}) -> tuple[np.ndarray, np.ndarray]:  # noqa: B006 - a cache
    """Lookup tables for the two seat rotations (cheaper than ``%`` on every lane)."""
    if n not in _cache:
        s = np.arange(n)
        _cache[n] = ((s[:, None] + s) % n, (s - s[:, None]) % n)
    return _cache[n]


def flat_order(order: np.ndarray) -> np.ndarray:
    """``order`` (``(k, n)``, from ``relative_seats``) as indices into ``(k * n, ...)`` rows."""
    k, n = order.shape
    return (order + row_starts(k, n)).ravel()


def rotate(values: np.ndarray, flat: np.ndarray) -> np.ndarray:
    """Rows of per-seat values ``(k, n, ...)`` put in each observer's relative seat order
    (``flat`` from ``flat_order``). A ``take`` on the flattened rows: numpy's fancy indexing
    with two index arrays costs ten times more here."""
    rows = values.reshape((-1,) + values.shape[2:]).take(flat, axis=0)
    return rows.reshape(values.shape)


def row_starts(k: int, width: int, _cache: dict = {}) -> np.ndarray:  # noqa: B006 - a cache
    """``arange(k)[:, None] * width``: where each row of a flat ``(k, width)`` array starts. Used
    every step, with many different ``k`` (the lanes that just finished), so it is a view of one
    kept array per ``width``, grown when a larger ``k`` comes, not one array per ``k``."""
    rows = _cache.get(width)
    if rows is None or len(rows) < k:
        size = k if rows is None else max(k, 2 * len(rows))
        rows = _cache[width] = np.arange(size)[:, None] * width
    return rows[:k]


def float32_table(values) -> np.ndarray:
    """A lookup table of Python-float results cast to float32 (as a scalar encoder stores them)."""
    return np.asarray(values, dtype=np.float64).astype(np.float32)


def lane_actions(actions, num_envs: int) -> np.ndarray:
    """``actions`` as one int64 per lane, or ``IllegalActionError`` naming the shape wanted (shared
    by every env that steps lanes: the batched engines and the scalar lanes)."""
    a = np.asarray(actions)
    if a.shape != (num_envs,) or not np.issubdtype(a.dtype, np.integer):
        raise IllegalActionError(
            actions,
            [],
            f"actions must be an integer array of shape ({num_envs},), got {a.dtype} {a.shape}",
        )
    return a.astype(np.int64, copy=False)


def step_lanes(active, final_seats, num_envs: int, num_players: int):
    """``(lanes, final_seats)`` from ``step``'s ``active`` and ``final_seats``, checked before any
    lane moves: a bad argument found after some lanes had moved would leave the env half stepped
    (finished lanes never restarted), so every later step would fail too.

    ``active``: None (every lane) or a bool mask of shape ``(num_envs,)``, True where the lane
    steps; an integer array is refused rather than read as a mask (is ``[0, 1]`` lanes 0 and 1,
    or lane 1?). ``final_seats``: None or ``num_envs`` integer seats in ``0..num_players - 1``.
    ``ValueError`` naming the argument otherwise.
    """
    if active is None:
        lanes = np.arange(num_envs)
    else:
        m = np.asarray(active)
        if m.dtype != np.bool_ or m.shape != (num_envs,):
            raise ValueError(
                f"active must be None or a bool mask of shape ({num_envs},) (True: the lane "
                f"steps), got {m.dtype} {m.shape}"
            )
        lanes = np.flatnonzero(m)
    if final_seats is None:
        return lanes, None
    seats = np.asarray(final_seats)
    if (
        seats.shape != (num_envs,)
        or not np.issubdtype(seats.dtype, np.integer)
        or np.issubdtype(seats.dtype, np.bool_)
    ):
        raise ValueError(
            f"final_seats must be None or an integer array of shape ({num_envs},), one seat per "
            f"lane, got {seats.dtype} {seats.shape}"
        )
    out = seats.astype(np.int64)
    bad = np.flatnonzero((out < 0) | (out >= num_players))
    if len(bad):
        lane = int(bad[0])
        raise ValueError(
            f"final_seats must hold seats in 0..{num_players - 1}, got {int(out[lane])} for "
            f"lane {lane}"
        )
    return lanes, out


class BatchedEngine:
    """Base of a game's batched engine: the state of ``num_envs`` games as arrays.

    A subclass sets ``game_cls`` and ``UNSUPPORTED`` (option names it refuses, with the reason)
    and fills in the methods below. Lanes are addressed by integer index arrays. Every lane
    always holds a game in progress (``cur >= 0``) except right after ``apply`` ended it; the
    env restarts such lanes in the same step.
    """

    game_cls: type
    #: option name -> why the batched engine cannot play it (``ConfigError`` names it)
    UNSUPPORTED: ClassVar[dict[str, str]] = {}

    def __init__(self, game, num_envs: int, rng: np.random.Generator):
        self.game = game
        self.B = int(num_envs)
        self.n = game.num_players
        self.num_actions = game.num_actions
        self.obs_dim = int(np.prod(game.observation_shape))
        self.rng = rng
        self.chance: ChanceHook | None = None
        self.all = np.arange(self.B)
        self.cur = np.zeros(self.B, dtype=np.int64)  # seat to act; -1 when the game is over

    # ---- chance -------------------------------------------------------------------------------
    def draw(self, kind: str, lanes: np.ndarray) -> dict:
        """The chance outcome of ``kind`` ("start" or "deal") for ``lanes``: from the hook if one
        is set, else drawn from the batch generator."""
        if self.chance is not None:
            return self.chance(kind, lanes)
        return self.draw_random(kind, lanes)

    # ---- to fill in ---------------------------------------------------------------------------
    def draw_random(self, kind: str, lanes: np.ndarray) -> dict:
        raise NotImplementedError

    def record_from_states(self, kind: str, states: Sequence) -> dict:
        """The chance record that reproduces what the scalar ``states`` were just dealt."""
        raise NotImplementedError

    def start(self, lanes: np.ndarray) -> None:
        """New games in ``lanes`` (every chance event through ``draw``)."""
        raise NotImplementedError

    def legal_mask(self) -> np.ndarray:
        """``(B, A)`` bool: the exact mask of the player to act in every lane (a fresh array)."""
        raise NotImplementedError

    def apply(self, lanes: np.ndarray, actions: np.ndarray) -> None:
        """Apply actions already known to be legal, one per lane in ``lanes``."""
        raise NotImplementedError

    def observe(self, seats: np.ndarray, lanes: np.ndarray | None = None) -> np.ndarray:
        """``(k, obs_dim)`` float32: each lane's observation by ``seats`` (all lanes if None),
        identical to the scalar ``state.observe(seat)``."""
        raise NotImplementedError

    def scores(self, lanes: np.ndarray | None = None) -> np.ndarray:
        """``(k, n)`` int64 raw game points (the scalar ``state.scores()``)."""
        raise NotImplementedError

    def winners(self, lanes: np.ndarray) -> np.ndarray:
        """``(k, n)`` bool: the seats sharing the win of each (finished) game."""
        raise NotImplementedError

    def load(self, lanes: np.ndarray, states: Sequence) -> None:
        """Copy scalar states (positions in progress) into ``lanes``."""
        raise NotImplementedError

    # ---- simultaneous games (``BatchedEnv.step_parallel``) --------------------------------------
    #: whether the engine fills in ``acting`` and ``mask_for`` (a game whose seats decide at once)
    simultaneous: ClassVar[bool] = False

    def acting(self, lanes: np.ndarray | None = None) -> np.ndarray:
        """``(k, n)`` bool: the seats that decide at once now (``State.simultaneous_players``)."""
        raise NotImplementedError

    def ask_rank(self, lanes: np.ndarray) -> np.ndarray:
        """``(k, n)`` int: each seat's place in the order the AEC step asks the acting seats."""
        raise NotImplementedError

    def mask_for(self, lanes: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """``(k, A)`` bool: each seat's mask in its lane, now or when it is asked within the current
        simultaneous step (``State.legal_mask_for``); all False for a seat with nothing to
        decide."""
        raise NotImplementedError

    def state_nbytes(self) -> int:
        """Bytes of game state held for all lanes (the arrays of ``vars(self)``)."""
        return sum(
            v.nbytes
            for k, v in vars(self).items()
            if isinstance(v, np.ndarray) and k not in ("all",)
        )


class StateDeals:
    """A chance hook that deals what scalar states were dealt.

    ``provider(kind, lanes)`` returns one scalar state per lane, positioned right after the
    chance event: for "start" a new game (``game.new_state(seed)``), for "deal" the lane's
    scalar twin just after its round ended and the next deal was made. The engine turns them
    into its chance record (``record_from_states``), so every batched deal equals the scalar one.
    """

    def __init__(self, engine: BatchedEngine, provider: Callable[[str, np.ndarray], Sequence]):
        self.engine, self.provider = engine, provider

    def __call__(self, kind: str, lanes: np.ndarray) -> dict:
        return self.engine.record_from_states(kind, self.provider(kind, lanes))


class Step(NamedTuple):
    """What ``BatchedEnv.step`` returns (unpacks like a tuple)."""

    obs: np.ndarray  # (B, obs_dim) float32: the observation of the player to act in each lane
    mask: np.ndarray  # (B, A) bool: that player's legal actions
    player: np.ndarray  # (B,) int64: that player's seat
    rewards: np.ndarray  # (B, P) float32: every seat's reward for this step
    terminated: np.ndarray  # (B,) bool: the lane's game ended in this step (and was restarted)
    info: dict  # "final_obs", "final_lanes", "final_player", "final_scores", "illegal"


class ParallelStep(NamedTuple):
    """What ``BatchedEnv.step_parallel`` returns: every seat's view (like the Parallel env)."""

    obs: np.ndarray  # (B, P, obs_dim) float32: each seat's observation
    mask: np.ndarray  # (B, P, A + 1) bool: each seat's mask; the last id is NOOP
    acting: np.ndarray  # (B, P) bool: the seats that decide in the next step_parallel call
    rewards: np.ndarray  # (B, P) float32
    terminated: np.ndarray  # (B,) bool: the lane's game ended in this step (and was restarted)
    info: dict  # "final_obs" (k, P, obs_dim), "final_lanes", "final_scores", "illegal"


class BatchedEnv:
    """``num_envs`` games of one configuration, stepped together; see docs/vector.md.

    ``reset()`` returns ``(obs, mask, player)``; ``step(actions)`` returns a ``Step``. Finished
    games restart at once (a finished lane's ``obs`` is already its next game's first
    observation); their last observation, seen by the seat that made the last move, is in
    ``info["final_obs"]`` (rows in the order of ``info["final_lanes"]``).
    """

    def __init__(self, engine_cls: type[BatchedEngine], num_envs: int = 1, seed=None, **options):
        if (
            isinstance(num_envs, bool)
            or not isinstance(num_envs, (int, np.integer))
            or num_envs < 1
        ):
            raise ConfigError(f"option 'num_envs' must be an int >= 1, got {num_envs!r}")
        for key, why in engine_cls.UNSUPPORTED.items():
            if key in options and options[key] != _default(engine_cls.game_cls, key):
                raise ConfigError(
                    f"{engine_cls.game_cls.name} (batched): option {key!r} is not supported: {why}"
                )
        if options.get("render_mode") is not None:
            raise ConfigError(
                "batched envs: option 'render_mode' is not supported (render one "
                "game with the scalar env)"
            )
        game, adapter = split_options(engine_cls.game_cls, options)
        self.game = game
        self.reward_mode = adapter["reward"]
        self.illegal_action = adapter["illegal_action"]
        self.num_envs = int(num_envs)
        self.num_players = game.num_players
        self.num_actions = game.num_actions
        self.obs_dim = int(np.prod(game.observation_shape))
        self.engine = engine_cls(game, self.num_envs, np.random.default_rng(seed))
        self._last_scores = None
        self._mask = None

    # ---- chance ---------------------------------------------------------------------------------
    def set_chance(self, hook: ChanceHook | None) -> None:
        """Draw chance from ``hook`` instead of the batch generator (None: back to it)."""
        self.engine.chance = hook

    # ---- the loop -------------------------------------------------------------------------------
    def reset(self, seed=None):
        """Start a new game in every lane; ``seed`` reseeds the batch generator."""
        eng = self.engine
        if seed is not None:
            eng.rng = np.random.default_rng(seed)
        eng.start(eng.all)
        return self._after_start()

    def load_states(self, states: Sequence, lanes=None):
        """Put scalar positions (games in progress) into ``lanes`` (default: lanes 0..len-1)."""
        eng = self.engine
        lanes = np.arange(len(states)) if lanes is None else np.asarray(lanes, dtype=np.int64)
        if len(lanes) != len(states):
            raise ValueError(f"{len(states)} states for {len(lanes)} lanes")
        for i, s in enumerate(states):
            if s.game != self.game:
                raise ValueError(f"state {i} is a game of {s.game!r}, this env plays {self.game!r}")
            if s.is_terminal():
                raise ValueError(f"state {i} is a finished game; lanes hold games in progress")
        eng.load(lanes, states)
        return self._after_start()

    def _after_start(self):
        eng = self.engine
        if self.reward_mode == "dense":
            self._last_scores = eng.scores().astype(np.float64)
        self._mask = eng.legal_mask()
        return eng.observe(eng.cur), self._mask, eng.cur.copy()

    def legal_mask(self) -> np.ndarray:
        return self._mask

    def step(self, actions, active=None, final_seats=None) -> Step:
        """Apply one action per lane. ``active`` (bool ``(B,)``) limits the step to some lanes:
        the others keep their position and get zero rewards (their action is ignored).
        ``final_seats`` (``(B,)`` seats) chooses whose view ``info["final_obs"]`` shows (default:
        the seat that made the last move). Every argument is checked before any lane moves: a
        malformed one raises ``ValueError`` naming it (``IllegalActionError`` for ``actions``)
        and changes nothing."""
        eng = self.engine
        if self._mask is None:
            raise RuntimeError("call reset() (or load_states()) before step()")
        a = lane_actions(actions, self.num_envs)
        lanes, final_seats = step_lanes(active, final_seats, self.num_envs, self.num_players)
        act = a if active is None else a[lanes]
        inside = (act >= 0) & (act < self.num_actions)
        cell = lanes * self.num_actions + np.where(inside, act, 0)  # flat ``take``: fast
        ok = inside & self._mask.reshape(-1).take(cell)
        bad = None
        if not ok.all():
            bad_pos = np.flatnonzero(~ok)
            if self.illegal_action == "raise":
                lane = int(lanes[bad_pos[0]])
                raise IllegalActionError(
                    int(act[bad_pos[0]]),
                    np.flatnonzero(self._mask[lane]),
                    f"lane {lane} (player {int(eng.cur[lane])}): not legal now; "
                    f"no lane was changed",
                )
            bad = lanes[bad_pos]
            lanes, act = lanes[ok], act[ok]
        movers = eng.cur.copy()
        eng.apply(lanes, act)
        rewards, done = self._rewards(lanes)
        if bad is not None:
            rewards[bad] = 0.0
            rewards[bad, movers[bad]] = -1.0
            done[bad] = True
        return self._finish(rewards, done, movers if final_seats is None else final_seats, bad)

    def _rewards(self, lanes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Rewards as ``RewardTracker`` computes them (float64, then float32) and the lanes done."""
        eng, g = self.engine, self.game
        rewards = np.zeros((self.num_envs, self.num_players), dtype=np.float32)
        done = np.zeros(self.num_envs, dtype=bool)
        ended = lanes[eng.cur[lanes] < 0]
        done[ended] = True
        if self.reward_mode == "dense":
            now = eng.scores(lanes).astype(np.float64)
            rewards[lanes] = g.score_sign * (now - self._last_scores[lanes]) / g.score_scale
            self._last_scores[lanes] = now
        elif len(ended):
            if self.reward_mode == "win":
                rewards[ended] = win_returns(eng.winners(ended))
            else:
                s = g.score_sign * eng.scores(ended).astype(np.float64)
                rewards[ended] = (s - s.mean(axis=1, keepdims=True)) / g.score_scale
        return rewards, done

    def _finish(self, rewards, done, observers, bad) -> Step:
        eng = self.engine
        info = {"illegal": np.zeros(self.num_envs, dtype=bool)}
        if bad is not None:
            info["illegal"][bad] = True
        final = np.flatnonzero(done)
        if len(final):
            info["final_lanes"] = final
            info["final_player"] = observers[final]
            info["final_obs"] = eng.observe(observers[final], final)
            info["final_scores"] = eng.scores(final)
            eng.start(final)
            if self.reward_mode == "dense":
                self._last_scores[final] = eng.scores(final)
        self._mask = eng.legal_mask()
        return Step(eng.observe(eng.cur), self._mask, eng.cur.copy(), rewards, done, info)

    # ---- simultaneous decisions ----------------------------------------------------------------
    def parallel_view(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(obs, mask, acting)`` of every seat in every lane, as the scalar Parallel env gives
        them: ``(B, P, obs_dim)`` observations, ``(B, P, A + 1)`` masks whose last id is NOOP (the
        only choice of a seat with nothing to decide) and the ``(B, P)`` seats that act now."""
        eng = self._simultaneous_engine()
        return self._parallel_view(eng.all)

    def _parallel_view(self, lanes: np.ndarray):
        eng, P, k = self.engine, self.num_players, len(lanes)
        acting = eng.acting(lanes)
        obs = np.empty((k, P, self.obs_dim), dtype=np.float32)
        mask = np.zeros((k, P, self.num_actions + 1), dtype=bool)
        for q in range(P):
            seat = np.full(k, q)
            obs[:, q] = eng.observe(seat, lanes)
            mask[:, q, :-1] = eng.mask_for(lanes, seat)
        mask[:, :, -1] = ~acting
        return obs, mask, acting

    def _simultaneous_engine(self) -> BatchedEngine:
        if not self.engine.simultaneous:
            raise ConfigError(
                f"{self.game.name} (batched): no seats decide at once in this game; use step()"
            )
        return self.engine

    def step_parallel(self, actions) -> ParallelStep:
        """One action per seat and lane, ``(B, P)`` ints: every seat that decides now (``acting``
        from ``parallel_view`` or the last ``step_parallel``) acts, in the order the AEC step asks
        them; every other seat passes NOOP (``num_actions``). As in the scalar Parallel env the
        step is atomic per lane: an illegal action raises before any lane changes, or with
        ``illegal_action="penalize"`` gives the seat the scalar env blames -1 (``_offenders``; the
        lane's others 0) and ends that game.
        """
        eng = self._simultaneous_engine()
        if self._mask is None:
            raise RuntimeError("call reset() (or load_states()) before step_parallel()")
        B, P, A = self.num_envs, self.num_players, self.num_actions
        a = np.asarray(actions)
        if a.shape != (B, P) or not np.issubdtype(a.dtype, np.integer):
            raise IllegalActionError(
                actions,
                [],
                f"actions must be an integer array of shape ({B}, {P}), got {a.dtype} {a.shape}",
            )
        a = a.astype(np.int64, copy=False)
        _, mask, acting = self._parallel_view(eng.all)
        inside = (a >= 0) & (a <= A)
        ok = inside & np.take_along_axis(mask, np.where(inside, a, A)[:, :, None], axis=2)[..., 0]
        bad_lanes = np.flatnonzero(~ok.all(axis=1))
        if len(bad_lanes) and self.illegal_action == "raise":
            lane = int(bad_lanes[0])
            seat = int(np.flatnonzero(~ok[lane])[0])
            raise IllegalActionError(
                int(a[lane, seat]),
                np.flatnonzero(mask[lane, seat]),
                f"lane {lane} (player {seat}): not legal now (NOOP = {A}); no lane was changed",
            )
        count = acting.sum(axis=1)
        count[bad_lanes] = 0
        offender = self._offenders(bad_lanes, ok[bad_lanes], acting[bad_lanes])
        for j in range(int(count.max(initial=0))):
            lanes = np.flatnonzero(count > j)
            seats = eng.cur[lanes]
            eng.apply(lanes, a[lanes, seats])
        good = np.flatnonzero(count > 0)
        rewards, done = self._rewards(good)
        if len(bad_lanes):
            rewards[bad_lanes] = 0.0
            rewards[bad_lanes, offender] = -1.0
            done[bad_lanes] = True
        info = {"illegal": np.zeros(B, dtype=bool)}
        info["illegal"][bad_lanes] = True
        final = np.flatnonzero(done)
        if len(final):
            info["final_lanes"] = final
            info["final_obs"] = self._parallel_view(final)[0]
            info["final_scores"] = eng.scores(final)
            eng.start(final)
            if self.reward_mode == "dense":
                self._last_scores[final] = eng.scores(final)
        self._mask = eng.legal_mask()
        obs, mask, acting = self._parallel_view(eng.all)
        return ParallelStep(obs, mask, acting, rewards, done, info)

    def _offenders(self, lanes: np.ndarray, ok: np.ndarray, acting: np.ndarray) -> np.ndarray:
        """The seat the scalar Parallel env blames in each lane: the first seat (by number) with
        nothing to decide that did not pass NOOP, else the first acting seat, in the order the
        engine asks them, whose action is illegal."""
        idle = ~ok & ~acting
        rank = np.where(~ok & acting, self.engine.ask_rank(lanes), self.num_players)
        return np.where(idle.any(axis=1), idle.argmax(axis=1), rank.argmin(axis=1))

    # ---- saving and restoring -------------------------------------------------------------------
    def get_state(self) -> tuple[dict[str, np.ndarray], dict]:
        """``(arrays, meta)``: every lane's game as plain numpy arrays (the engine's public arrays,
        the current masks, the dense-reward baselines) and the batch generator's state as JSON-able
        values. A training run checkpoints these to continue exactly (``set_state``)."""
        eng = self.engine
        arrays = {
            f"engine.{k}": v.copy()
            for k, v in vars(eng).items()
            if isinstance(v, np.ndarray) and not k.startswith("_")
        }
        arrays["mask"] = self._mask.copy()
        if self._last_scores is not None:
            arrays["last_scores"] = self._last_scores.copy()
        return arrays, {"rng": eng.rng.bit_generator.state}

    def set_state(self, arrays: dict[str, np.ndarray], meta: dict):
        """Restore ``get_state()`` of an env of the same game, options and ``num_envs``; returns
        ``(obs, mask, player)`` of the players to act, as ``reset`` does. A missing or misshapen
        array raises ``ValueError`` naming it, before anything changes."""
        eng = self.engine
        targets = {
            f"engine.{k}": v
            for k, v in vars(eng).items()
            if isinstance(v, np.ndarray) and not k.startswith("_")
        }
        want = set(targets) | {"mask"} | ({"last_scores"} if self.reward_mode == "dense" else set())
        if set(arrays) != want:
            raise ValueError(
                f"batched env state: arrays {sorted(set(want) ^ set(arrays))} missing or unexpected"
            )
        shapes = {k: v.shape for k, v in targets.items()}
        shapes.update(
            mask=(self.num_envs, self.num_actions), last_scores=(self.num_envs, self.num_players)
        )
        for key, value in arrays.items():
            if value.shape != shapes[key]:
                raise ValueError(
                    f"batched env state: array {key!r} has shape {value.shape}, "
                    f"this env needs {shapes[key]}"
                )
        for key, value in targets.items():
            value[...] = arrays[key]
        self._mask = np.array(arrays["mask"], dtype=bool)
        if "last_scores" in arrays:
            self._last_scores = np.array(arrays["last_scores"], dtype=np.float64)
        eng.rng.bit_generator.state = meta["rng"]
        return eng.observe(eng.cur), self._mask, eng.cur.copy()

    def close(self) -> None:
        pass

    def __repr__(self) -> str:
        return f"<BatchedEnv {self.game!r} num_envs={self.num_envs}>"


def win_returns(winners: np.ndarray) -> np.ndarray:
    """``State.returns`` for rows of winner flags: winners share +1, the rest share -1 (float64)."""
    k, n = winners.shape
    w = winners.sum(axis=1, keepdims=True)
    out = np.zeros((k, n), dtype=np.float64)
    some = ((w > 0) & (w < n))[:, 0]
    ws, wn = w[some], winners[some]
    out[some] = np.where(wn, 1.0 / ws, -1.0 / (n - ws))
    return out


def _default(game_cls, key: str):
    for o in game_cls.OPTIONS:
        if o.name == key:
            return o.default
    return None
