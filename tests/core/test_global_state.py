"""``env.state()`` / ``State.global_state()``: the full-information state for centralised critics.

The conformance harness (``check_random_play``, run on every env in test_envs.py) checks shape,
dtype, bounds and purity at every decision of random games, and on a sample of decisions that the
public part holds nothing hidden and that worlds some seat tells apart get different states. Here:
that those checks are not vacuous, PettingZoo's own state tests and the adapters (the docs
tables: test_docs.py).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test.state_test import test_parallel_env as pz_parallel_state
from pettingzoo.test.state_test import test_state as pz_state
from pettingzoo.test.state_test import test_state_space as pz_state_space

import deckzoo.envs as E
from deckzoo.envs.core.conformance import check_global_state, check_global_state_between
from deckzoo.envs.core.global_state import StateLayout, put_pile

from .test_envs import CASES, IDS, PARALLEL, short


def _positions(game, seed: int, steps: int):
    """Positions of seeded random games (a new game when one ends), the terminal ones included."""
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    for _ in range(steps):
        yield state
        if state.is_terminal():
            state = game.new_state(int(rng.integers(2**63)))
        else:
            state.apply(int(rng.choice(state.legal_actions())))
    yield state


@pytest.mark.parametrize("name", list(E.ENVS))
def test_determinize_changes_the_state_but_not_the_observation(name):
    """The opposite of the leak test: a determinization for seat p keeps p's observation and the
    public part of the state, and in positions where it resamples what another seat sees (its
    view differs), the global state differs. Asserts such positions occur, so the check bites."""
    game = E.game_class(name)(**short(name))
    rng = np.random.default_rng(1)
    changed = 0
    for i, state in enumerate(_positions(game, seed=3, steps=400)):
        if i % 9:
            continue
        for p in range(game.num_players):
            det = state.determinize(p, rng)
            assert np.array_equal(det.observe(p), state.observe(p))
            check_global_state_between(state, det)
            if any(det.view(q) != state.view(q) for q in range(game.num_players)):
                assert not np.array_equal(det.global_state(), state.global_state())
                changed += 1
    assert changed >= 5, f"only {changed} determinizations resampled anything"


@pytest.mark.parametrize("name", list(E.ENVS))
def test_state_does_not_change_when_nothing_changes(name):
    game = E.game_class(name)(**short(name))
    rng = np.random.default_rng(2)
    for i, state in enumerate(_positions(game, seed=4, steps=150)):
        if i % 10:
            continue
        x = check_global_state(state)  # again, clone, JSON round trip, views and observations
        if not state.is_terminal():
            masked_out = np.flatnonzero(~state.legal_mask())
            if len(masked_out):
                with pytest.raises(E.IllegalActionError):
                    state.apply(int(masked_out[0]))
            state.determinize(state.current_player, rng)
            state.legal_mask()
        assert np.array_equal(state.global_state(), x)


@pytest.mark.parametrize("name,n", CASES, ids=IDS)
def test_pettingzoo_state_tests(name, n):
    """PettingZoo 1.27's state_test (space checks, then state() after every step of random actions,
    contained in state_space); its warnings (all-zero states, NaNs, wrong dtype...) fail too.
    Random actions ignore masks, so the env penalizes an illegal one (the game ends), not raise."""
    env = E.make(name, num_players=n, illegal_action="penalize", **short(name))
    with warnings.catch_warnings():
        warnings.filterwarnings("error", module="pettingzoo.test.state_test")
        pz_state_space(env)
        pz_state(env, num_cycles=50)
        env.reset(seed=0)
        for agent in env.agent_iter():  # and a whole game of legal moves
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
            assert env.state_space.contains(env.state())
        if (name, n) in PARALLEL:
            pz_parallel_state(E.make(name, parallel=True, num_players=n, **short(name)))


@pytest.mark.parametrize("name", list(E.ENVS))
def test_adapters_give_the_engine_state(name):
    env = E.make(name, **short(name))
    raw = env.unwrapped
    with pytest.raises(RuntimeError, match="reset"):
        raw.state()
    env.reset(seed=5)
    game = raw.game
    assert env.state_space.shape == game.state_shape == (game.state_layout.size,)
    assert env.state_space.dtype == np.float32
    assert float(env.state_space.high.max()) == game.state_high
    for _ in range(20):
        x = env.state()
        assert np.array_equal(x, raw.game_state.global_state())
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        assert env.state_space.contains(env.state())
    if hasattr(E.ENVS[name], "parallel_env"):
        par = E.make(name, parallel=True, **short(name))
        with pytest.raises(RuntimeError, match="reset"):
            par.state()
        par.reset(seed=5)
        assert par.state_space == env.state_space
        assert np.array_equal(par.state(), par.game_state.global_state())


def test_state_layout_keeps_the_public_pieces_in_order():
    from deckzoo.envs.core.encoding import Layout

    obs = Layout([("hand", 3), ("sizes", 2), ("mine", 1), ("pile", (2, 2))])
    layout = StateLayout(obs, ("hand", "mine"), [("hands", (2, 3))])
    assert [name for name, *_ in layout.pieces] == ["sizes", "pile", "hands"]
    assert layout.public_index.tolist() == [3, 4, 6, 7, 8, 9]
    buf, v = layout.start(np.arange(10, dtype=np.float32))
    assert buf[:6].tolist() == [3, 4, 6, 7, 8, 9] and not buf[6:].any()
    v["hands"][1, 2] = 1.0
    assert buf[-1] == 1.0
    with pytest.raises(ValueError, match="nope"):
        StateLayout(obs, ("nope",), [])


def test_put_pile_counts_and_order_from_the_top():
    counts, order = np.zeros(4, dtype=np.float32), np.zeros((3, 4), dtype=np.float32)
    put_pile(counts, order, [2, 0, 3, 3, 1], 0.5)  # top = last
    assert counts.tolist() == [0.5, 0.5, 0.5, 1.0]
    assert [int(np.argmax(r)) for r in order] == [1, 3, 3] and order.sum() == 3
    counts[:], order[:] = 0, 0
    put_pile(counts, order, [5, 6], 1.0, offset=4)  # shorter than the window; kinds 1, 2
    assert counts.tolist() == [0, 1, 1, 0]
    assert order[0, 2] == order[1, 1] == 1 and not order[2].any()
    counts[:], order[:] = 0, 0
    put_pile(counts, order, [], 1.0)
    assert not counts.any() and not order.any()
