"""The lane envs check every argument of a step before any lane moves.

A malformed ``actions``, ``active`` or ``final_seats`` found after some lanes had been stepped
would leave the env half stepped (finished lanes never restarted, masks out of date), so that
every later step fails too. Each bad input here must raise ``ValueError`` naming the argument,
leave the env exactly as it was (``get_state``), and the next good step must give what an env
that never saw the bad input gives. Batched engines (``vector.make``) and scalar lanes
(``vector.make_scalar_lanes``, every game) both run.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from deckzoo.envs import registry, vector

from .helpers import bits, random_actions

B = 4
BATCHED = vector.available()
LANES = registry.env_names()
KINDS = [("batched", n) for n in BATCHED] + [("lanes", n) for n in LANES]
IDS = [f"{kind}-{name}" for kind, name in KINDS]


def make(kind: str, name: str, **options):
    build = vector.make if kind == "batched" else vector.make_scalar_lanes
    return build(name, num_envs=B, seed=7, **registry.short_options(name), **options)


def saved(env) -> str:
    """Everything the env holds, as one comparable string."""
    arrays, meta = env.get_state()
    return json.dumps(
        {"arrays": {k: v.tolist() for k, v in sorted(arrays.items())}, "meta": meta},
        sort_keys=True,
        default=str,
    )


def same_step(s, t) -> None:
    assert np.array_equal(bits(s.obs), bits(t.obs))
    assert np.array_equal(s.mask, t.mask) and np.array_equal(s.player, t.player)
    assert np.array_equal(bits(s.rewards), bits(t.rewards))
    assert np.array_equal(s.terminated, t.terminated)
    assert s.info.keys() == t.info.keys()
    for key in s.info:
        assert np.array_equal(np.asarray(s.info[key]), np.asarray(t.info[key])), key


def bad_inputs(mask: np.ndarray, players: int) -> list[tuple[str, dict]]:
    """``(argument named in the error, step's keyword arguments)``: each breaks one argument."""
    good = random_actions(mask, np.random.default_rng(0))
    lanes = np.ones(B, dtype=bool)
    return [
        ("actions", {"actions": good[:-1]}),
        ("actions", {"actions": good.astype(np.float64)}),
        ("actions", {"actions": good.astype(bool)}),
        ("actions", {"actions": good[:, None]}),
        ("actions", {"actions": [str(x) for x in good]}),
        ("actions", {"actions": None}),
        ("active", {"actions": good, "active": lanes[:-1]}),
        ("active", {"actions": good, "active": np.ones(B + 1, dtype=bool)}),
        ("active", {"actions": good, "active": lanes.astype(np.int64)}),
        ("active", {"actions": good, "active": [0, 2]}),
        ("active", {"actions": good, "active": lanes.astype(np.float32)}),
        ("active", {"actions": good, "active": lanes[None, :]}),
        ("active", {"actions": good, "active": "all"}),
        ("final_seats", {"actions": good, "final_seats": [-1] * B}),
        ("final_seats", {"actions": good, "final_seats": [players] * B}),
        ("final_seats", {"actions": good, "final_seats": [0] * (B - 1)}),
        ("final_seats", {"actions": good, "final_seats": np.zeros(B, dtype=np.float64)}),
        ("final_seats", {"actions": good, "final_seats": np.zeros(B, dtype=bool)}),
        ("final_seats", {"actions": good, "final_seats": np.zeros((B, 1), dtype=np.int64)}),
        ("final_seats", {"actions": good, "final_seats": 0}),
    ]


@pytest.mark.parametrize("illegal", ["raise", "penalize"])
@pytest.mark.parametrize("kind,name", KINDS, ids=IDS)
def test_a_bad_argument_raises_naming_it_and_changes_nothing(kind, name, illegal):
    env, twin = make(kind, name, illegal_action=illegal), make(kind, name, illegal_action=illegal)
    _, mask, _ = env.reset()
    twin.reset()
    before = saved(env)
    for arg, kwargs in bad_inputs(mask, env.num_players):
        with pytest.raises(ValueError, match=arg):
            env.step(**kwargs)
        assert saved(env) == before, f"{arg}: {kwargs} changed the env"
    rng_env, rng_twin = np.random.default_rng(1), np.random.default_rng(1)
    for _ in range(3):  # the env goes on exactly as one that never saw the bad inputs
        s = env.step(random_actions(env.legal_mask(), rng_env))
        t = twin.step(random_actions(twin.legal_mask(), rng_twin))
        same_step(s, t)


@pytest.mark.parametrize("kind,name", KINDS, ids=IDS)
def test_final_seats_as_a_list_and_a_partial_active_mask_work_through_game_ends(kind, name):
    """A plain list of seats is a valid ``final_seats``: through finished games (where it is
    read) it gives what the same seats as an array give."""
    env, twin = make(kind, name), make(kind, name)
    env.reset()
    twin.reset()
    rng = np.random.default_rng(3)
    players = env.num_players
    ends = 0
    for i in range(4000):
        actions = random_actions(env.legal_mask(), rng)
        seats = [(lane + i) % players for lane in range(B)]
        active = np.arange(B) != i % B
        s = env.step(actions.tolist(), active=active.tolist(), final_seats=seats)
        t = twin.step(actions, active=active, final_seats=np.array(seats))
        same_step(s, t)
        if s.terminated.any():
            assert s.info["final_player"].tolist() == [seats[k] for k in s.info["final_lanes"]]
            ends += 1
            if ends == 2:
                return
    raise AssertionError("no game ended in 4000 steps")


def test_step_before_reset_says_so():
    for build in (vector.make, vector.make_scalar_lanes):
        env = build(BATCHED[0], num_envs=2)
        with pytest.raises(RuntimeError, match="reset"):
            env.step(np.zeros(2, dtype=np.int64))


SIMULTANEOUS = [n for n in BATCHED if vector.engine_class(n).simultaneous]


@pytest.mark.parametrize("name", SIMULTANEOUS)
def test_step_parallel_checks_its_actions_first(name):
    env, twin = make("batched", name), make("batched", name)
    env.reset()
    twin.reset()
    _, mask, acting = env.parallel_view()
    P = env.num_players
    noop = env.num_actions
    good = np.where(
        acting,
        random_actions(mask.reshape(B * P, -1), np.random.default_rng(0)).reshape(B, P),
        noop,
    )
    before = saved(env)
    for bad in (good[:-1], good.astype(np.float64), good.ravel(), good.tolist()[:-1], None):
        with pytest.raises(ValueError, match="actions"):
            env.step_parallel(bad)
        assert saved(env) == before
    s, t = env.step_parallel(good.tolist()), twin.step_parallel(good)
    assert np.array_equal(bits(s.obs), bits(t.obs)) and np.array_equal(s.mask, t.mask)
    assert np.array_equal(s.acting, t.acting) and np.array_equal(s.rewards, t.rewards)
