"""Where batched evaluation games are played: a game's batched engine, or scalar lanes.

Both expose what the batched arena needs of an engine (``cur``, ``legal_mask()``,
``apply(lanes, actions)``, ``observe(seats, lanes)``, ``scores(lanes)``, ``winners(lanes)``,
``start(lanes)``), and both deal game ``g`` from the seed of the arena's task ``g``, so a game
is the same game whichever plays it:

* ``SeededChance`` is the chance hook that makes a batched engine deal what
  ``game.new_state(seed)`` deals. Each lane keeps that scalar state as its *shadow*. Chance
  after the start comes from the shadow too: where a game's later chance events follow from
  the shadow's own generator alone (a new round's deal: ``LATER_DEALS``), the shadow deals them
  when asked; otherwise the shadow replays every move of its lane (the differential tests' twin),
  which is exact for any game, keyed chance of duplicate boards included, at the price of the
  scalar engine's ``apply``.
* ``ScalarLanes`` holds one scalar state a lane: for a game without a batched engine (Midgard),
  where the scalar agents of a line-up decide in their own lanes and the batched forms decide
  across lanes.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def _wizard_round(engine, lane: int, state) -> None:
    state.deal(int(engine.rnd[lane]), int(engine.dealer[lane]))


def _bignumber_deal(engine, lane: int, state) -> None:
    state._deal_cards()  # the scalar game's own next deal, from its own generator


#: game name -> chance event kind -> how a lane's shadow makes that event's outcome by itself
#: (its generator draws nothing between such events, so the draws are the scalar game's own)
LATER_DEALS: dict[str, dict[str, Callable]] = {
    "gobig": {},
    "wizard": {"deal": _wizard_round},
    "bignumber": {"deal": _bignumber_deal},
}


class SeededChance:
    """The chance hook of a batched engine in the arena: every lane's game is dealt as
    ``game.new_state(seed, keyed_chance=...)`` of the task ``assign(lane)`` hands it.

    ``assign(lane) -> task | None``: the next task for a lane starting a new game (None: no more
    games; the lane gets a throw-away deal and sits out)."""

    def __init__(self, engine, game, assign: Callable[[int], dict | None]):
        self.engine, self.game, self.assign = engine, game, assign
        self.shadows: list = [None] * engine.B
        later = LATER_DEALS.get(type(game).name)
        self.later = later
        self.replays = later is None  # shadows follow every move

    def __call__(self, kind: str, lanes: np.ndarray) -> dict:
        if kind == "start":
            tasks = [self.assign(lane) for lane in lanes.tolist()]
            if all(t is None for t in tasks):  # lanes that sit out: any deal will do
                return self.engine.draw_random(kind, lanes)
            states = []
            for lane, task in zip(lanes.tolist(), tasks):
                keyed = bool(task and task.get("keyed_chance"))
                seed = task["seed"] if task is not None else lane
                self.shadows[lane] = self.game.new_state(seed, keyed_chance=keyed)
                states.append(self.shadows[lane])
            return self.engine.record_from_states("start", states)
        states = [self.shadows[lane] for lane in lanes.tolist()]
        if not self.replays:
            advance = self.later.get(kind)
            if advance is None:
                raise RuntimeError(f"{self.game.name}: no seeded source for chance event {kind!r}")
            for lane, state in zip(lanes.tolist(), states):
                advance(self.engine, lane, state)
        return self.engine.record_from_states(kind, states)

    def before_apply(self, lanes: np.ndarray, actions: np.ndarray) -> None:
        """Replaying shadows move first, so the outcome of a chance event the batched move
        triggers is already in the shadow when the engine asks for it."""
        if self.replays:
            for lane, a in zip(lanes.tolist(), actions.tolist()):
                self.shadows[lane].apply(a)


class ScalarLanes:
    """``B`` scalar games behind the batched engine's interface (observations and masks are the
    scalar engine's own, so nothing is translated)."""

    def __init__(self, game, num_lanes: int, assign: Callable[[int], dict | None]):
        self.game, self.B, self.n = game, int(num_lanes), game.num_players
        self.assign = assign
        self.states: list = [None] * self.B
        self.cur = np.full(self.B, -1, dtype=np.int64)
        self._mask = np.zeros((self.B, game.num_actions), dtype=bool)
        self.obs_dim = int(np.prod(game.observation_shape))

    def start(self, lanes: np.ndarray) -> None:
        for lane in lanes.tolist():
            task = self.assign(lane)
            keyed = bool(task and task.get("keyed_chance"))
            seed = task["seed"] if task is not None else lane
            self.states[lane] = self.game.new_state(seed, keyed_chance=keyed)
            self._moved(lane)

    def _moved(self, lane: int) -> None:
        s = self.states[lane]
        p = s.current_player
        self.cur[lane] = -1 if p is None else p
        if p is not None:
            self._mask[lane] = s.legal_mask()

    def legal_mask(self) -> np.ndarray:
        return self._mask

    def apply(self, lanes: np.ndarray, actions: np.ndarray) -> None:
        for lane, a in zip(lanes.tolist(), actions.tolist()):
            self.states[lane].apply(a)
            self._moved(lane)

    def observe(self, seats: np.ndarray, lanes: np.ndarray) -> np.ndarray:
        out = np.empty((len(lanes), self.obs_dim), dtype=np.float32)
        for i, (lane, p) in enumerate(zip(lanes.tolist(), seats.tolist())):
            out[i] = self.states[lane].observe(p).reshape(-1)
        return out

    def scores(self, lanes: np.ndarray) -> np.ndarray:
        return np.array([np.asarray(self.states[lane].scores()) for lane in lanes.tolist()])

    def truncated(self, lanes: np.ndarray) -> np.ndarray:
        """Games the engine's own cap cut off (Midgard's ``max_decisions``)."""
        return np.array([bool(getattr(self.states[lane], "truncated", False)) for lane in lanes])

    def winners(self, lanes: np.ndarray) -> np.ndarray:
        out = np.zeros((len(lanes), self.n), dtype=bool)
        for i, lane in enumerate(lanes.tolist()):
            out[i, list(self.states[lane].winners())] = True
        return out


__all__ = ["LATER_DEALS", "ScalarLanes", "SeededChance"]
