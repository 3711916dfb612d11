"""The differential harness: a batched env and the scalar engine play the same games side by side.

Chance is matched by loading the scalar deals into the batched lanes: each lane has a scalar
twin (``game.new_state(seed)``), and the batched env's chance hook (``StateDeals``) copies the
twin's deal whenever the batched engine needs one (a new game: "start"; a new round or deal:
"deal"). The scalar twin always moves first, so its next deal already exists when the batched
engine asks for it. Every step both get the same random legal action per lane, and everything
the batched env returns is compared with what the scalar engine and ``RewardTracker`` give.

Which games and options run: every game with a batched engine (``vector.available()``), with the
cases its envs/<game>/testing.py declares (``DIFFERENTIAL_CASES``, ``INFORMATION_CONFIGS``,
``GYM_OPTIONS``) or, where it declares none, cases derived from the game below.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from deckzoo.envs import game_class, registry, vector
from deckzoo.envs.core.adapter_options import ADAPTER_KEYS, RewardTracker
from deckzoo.envs.core.batched import StateDeals


def bits(x: np.ndarray) -> np.ndarray:
    """float32 values as their bit patterns (so -0.0 != 0.0 and NaN == NaN of the same payload)."""
    return np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)


@dataclass
class Twin:
    """The scalar side: one state and one reward tracker per lane."""

    game: object
    reward: str
    seeds: np.random.Generator
    states: list = field(default_factory=list)
    trackers: list = field(default_factory=list)
    chance: Counter = field(default_factory=Counter)

    def provide(self, kind: str, lanes: np.ndarray) -> list:
        for i in lanes.tolist():
            if kind == "start":
                s = self.game.new_state(int(self.seeds.integers(2**63)))
                self.states[i] = s
                self.trackers[i] = RewardTracker(self.reward, s)
            self.chance[kind] += 1
        return [self.states[i] for i in lanes.tolist()]


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``mask``."""
    u = np.where(mask, rng.random(mask.shape), -1.0)
    return u.argmax(axis=1)


def check_position(env, twin: Twin, obs, mask, player, where: str) -> None:
    states = twin.states
    exp_player = np.array([s.current_player for s in states])
    assert np.array_equal(player, exp_player), f"{where}: players differ"
    exp_mask = np.stack([s.legal_mask() for s in states])
    bad = np.flatnonzero((exp_mask != mask).any(axis=1))
    assert not len(bad), (
        f"{where}: masks differ in lanes {bad[:5]}: lane {bad[0]} scalar "
        f"{np.flatnonzero(exp_mask[bad[0]])} batched {np.flatnonzero(mask[bad[0]])}"
    )
    exp_obs = np.stack([s.observe(s.current_player) for s in states])
    diff = bits(exp_obs) != bits(obs)
    bad = np.flatnonzero(diff.any(axis=1))
    if len(bad):
        i = bad[0]
        cols = np.flatnonzero(diff[i])
        names = [_piece(states[i].game, c) for c in cols[:6]]
        raise AssertionError(
            f"{where}: observations differ in lanes {bad[:5]}; lane {i} at {cols[:6]} "
            f"{names}: scalar {exp_obs[i, cols[:6]]} batched {obs[i, cols[:6]]}"
        )


def _piece(game, col: int) -> str:
    layout = getattr(game, "layout", None)
    if layout is None:
        return "?"
    for name, _, a, b in layout.pieces:
        if a <= col < b:
            return f"{name}[{col - a}]"
    return "?"


def run_differential(
    env_name: str, options: dict, num_envs: int, steps: int, seed: int = 0
) -> dict:
    """Play ``steps`` batched steps against the scalar twins; return coverage counts."""
    game_opts = {k: v for k, v in options.items() if k not in ADAPTER_KEYS}
    game = game_class(env_name)(**game_opts)
    env = vector.make(env_name, num_envs=num_envs, seed=seed, **options)
    twin = Twin(
        game, env.reward_mode, np.random.default_rng(seed), [None] * num_envs, [None] * num_envs
    )
    env.set_chance(StateDeals(env.engine, twin.provide))
    obs, mask, player = env.reset()
    check_position(env, twin, obs, mask, player, "reset")
    rng = np.random.default_rng(seed + 1)
    actions_seen: Counter = Counter()
    finished = 0
    for t in range(steps):
        actions = random_actions(mask, rng)
        exp_rewards = np.zeros((num_envs, game.num_players), dtype=np.float64)
        exp_done = np.zeros(num_envs, dtype=bool)
        exp_final = {}
        for i, (s, a) in enumerate(zip(twin.states, actions.tolist())):
            mover = s.current_player
            s.apply(a)
            exp_rewards[i] = twin.trackers[i].step_rewards(s)
            if s.is_terminal():
                exp_done[i] = True
                exp_final[i] = (mover, s.observe(mover), s.scores())
        actions_seen.update(actions.tolist())
        obs, mask, player, rewards, done, info = env.step(actions)
        where = f"step {t}"
        assert rewards.dtype == np.float32 and rewards.shape == (num_envs, game.num_players)
        assert np.array_equal(bits(rewards), bits(exp_rewards.astype(np.float32))), (
            f"{where}: rewards differ in lanes "
            f"{np.flatnonzero((rewards != exp_rewards).any(axis=1))[:5]}"
        )
        assert np.array_equal(done, exp_done), f"{where}: terminations differ"
        if exp_done.any():
            lanes = info["final_lanes"]
            assert lanes.tolist() == np.flatnonzero(exp_done).tolist()
            for j, i in enumerate(lanes.tolist()):
                mover, fobs, fscores = exp_final[i]
                assert info["final_player"][j] == mover
                assert np.array_equal(bits(info["final_obs"][j]), bits(fobs)), (
                    f"{where}: final obs, lane {i}"
                )
                assert np.array_equal(info["final_scores"][j], fscores)
            finished += int(exp_done.sum())
        check_position(env, twin, obs, mask, player, where)
    return {
        "finished": finished,
        "starts": twin.chance["start"],
        "deals": twin.chance["deal"],
        "actions": actions_seen,
    }


# ---- the cases, from the registry --------------------------------------------------------------
def _ends(name: str) -> list[dict]:
    """The game's short options at the fewest and the most players it supports."""
    counts = game_class(name).supported_players()
    return [
        {"num_players": n, **registry.short_options(name)}
        for n in sorted({min(counts), max(counts)})
    ]


def _derived_differential(name: str) -> list[tuple[dict, int, int]]:
    """16 lanes at both ends of the player range, for more steps than a game's longest game:
    every lane finishes a game and starts another (a game whose bound is a loose cap declares
    its own cases)."""
    game_cls = game_class(name)
    return [(o, 16, min(game_cls(**o).max_game_length + 1, 1000)) for o in _ends(name)]


def differential_cases() -> list[tuple[str, dict, int, int]]:
    """``(env name, options, lanes, steps)`` for every batched game."""
    out = []
    for name in vector.available():
        cases = registry.testing_fact(name, "DIFFERENTIAL_CASES", None)
        cases = cases or _derived_differential(name)
        out += [(name, dict(options), lanes, steps) for options, lanes, steps in cases]
    return out


def information_configs() -> list[tuple[str, dict]]:
    """``(env name, options)`` for every batched game."""
    return [
        (name, dict(options))
        for name in vector.available()
        for options in registry.testing_fact(name, "INFORMATION_CONFIGS", None) or _ends(name)
    ]


def gym_options(name: str) -> dict:
    """The single-agent vector view's options: three players where the game allows them."""
    game_cls = game_class(name)
    players = 3 if 3 in game_cls.supported_players() else game_cls.default_players
    options = registry.testing_fact(name, "GYM_OPTIONS", None)
    options = registry.short_options(name) if options is None else options
    return {"num_players": players, **options}
