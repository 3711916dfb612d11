"""Batched engines against the scalar engines, step for step (see helpers.py for how chance is
matched): bitwise observations, masks, players, rewards and terminations, through complete
games and automatic resets, for every batched game and a spread of option sets."""

from __future__ import annotations

import pytest

from deckzoo.envs.wizard.rules import TRUMP_BASE

from .helpers import run_differential

# (env, options, lanes, steps): each runs every lane through several complete games
CASES = [
    ("wizard_v0", {"num_players": 4}, 24, 1200),  # the full 15-round game, twice per lane
    ("wizard_v0", {"num_players": 3, "reward": "score"}, 12, 1300),
    ("wizard_v0", {"num_players": 5, "num_rounds": 4, "reward": "dense"}, 48, 250),
    ("wizard_v0", {"num_players": 6, "foresight": False, "num_rounds": 3}, 32, 200),
    ("wizard_v0", {"num_players": 10, "first_dealer": 3, "reward": "dense"}, 8, 300),
    ("wizard_v0", {"num_players": 12, "num_rounds": 2, "illegal_action": "penalize"}, 16, 120),
    ("gobig_v0", {"num_players": 4}, 48, 250),
    ("gobig_v0", {"num_players": 2, "reward": "score"}, 48, 200),
    ("gobig_v0", {"num_players": 3, "end_rule": "literal", "reward": "dense"}, 48, 250),
    ("gobig_v0", {"num_players": 6, "start_player": 2}, 24, 250),
    ("bignumber_v0", {"num_players": 4}, 16, 1700),
    ("bignumber_v0", {"num_players": 2, "single_deal": True, "reward": "score"}, 48, 150),
    ("bignumber_v0", {"num_players": 3, "target": 5, "reward": "dense"}, 48, 250),
    ("bignumber_v0", {"num_players": 3, "two_decks": True, "target": 5}, 48, 300),
    ("bignumber_v0", {"num_players": 5, "target": 5, "start_player": 1}, 24, 450),
    ("bignumber_v0", {"num_players": 6, "single_deal": True, "reward": "dense"}, 24, 250),
]


@pytest.mark.parametrize(
    "env_name,options,lanes,steps",
    CASES,
    ids=[f"{e}-{'-'.join(f'{k}={v}' for k, v in o.items())}" for e, o, _, _ in CASES],
)
def test_batched_matches_scalar(env_name, options, lanes, steps):
    seen = run_differential(env_name, options, lanes, steps, seed=len(options) + lanes)
    # every kind of chance event happened, and games ran to the end and restarted
    assert seen["finished"] >= lanes
    assert seen["starts"] == lanes + seen["finished"]  # one per lane, then one per restart
    if env_name == "wizard_v0" or not options.get("single_deal", True):
        assert seen["deals"] > 0  # new rounds / deals within a game
    if env_name == "wizard_v0" and options["num_players"] <= 5:
        assert any(
            TRUMP_BASE <= a < TRUMP_BASE + 4 for a in seen["actions"]
        )  # a Wizard was flipped
