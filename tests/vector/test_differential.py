"""Batched engines against the scalar engines, step for step (see helpers.py for how chance is
matched): bitwise observations, masks, players, rewards and terminations, through complete
games and automatic resets, for every batched game and a spread of option sets (each game's
``DIFFERENTIAL_CASES`` in its envs/<game>/testing.py, or cases derived from it)."""

from __future__ import annotations

import pytest

from deckzoo.envs import registry

from .helpers import differential_cases, run_differential

# (env, options, lanes, steps): each runs every lane through several complete games
CASES = differential_cases()


@pytest.mark.parametrize(
    "env_name,options,lanes,steps",
    CASES,
    ids=[f"{e}-{'-'.join(f'{k}={v}' for k, v in o.items())}" for e, o, _, _ in CASES],
)
def test_batched_matches_scalar(env_name, options, lanes, steps):
    seen = run_differential(env_name, options, lanes, steps, seed=len(options) + lanes)
    # games ran to the end and restarted
    assert seen["finished"] >= lanes
    assert seen["starts"] == lanes + seen["finished"]  # one per lane, then one per restart
    # and whatever else the game says a case must reach (new deals, rare actions)
    check = registry.testing_fact(env_name, "check_differential", None)
    if check is not None:
        check(options, seen)
