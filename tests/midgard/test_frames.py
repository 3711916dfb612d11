"""Decision frames (frames.py): the saved dict form stays what saved games hold, and clones share
only the frames that never change."""

from __future__ import annotations

import numpy as np
import pytest

from deckzoo.envs.midgard.frames import FRAMES, frame_from_dict
from deckzoo.envs.midgard.rules import KEEP, ONSLAUGHT

from .util import A, act, at, blank, complete, troop, world

# One saved frame per mode (the mode's number, as saved), as the engine wrote them before frames
# were typed, field order included.
SAVED = [
    {"m": 0, "p": 1, "ender": 0},
    {"m": 1, "p": 0},
    {"m": 2, "p": 0},
    {"m": 3, "p": 0, "troop": 5, "wild": 11, "options": [0, 1]},
    {"m": 4, "p": 0, "target": 2, "troop": 1},
    {"m": 5, "p": 0},
    {"m": 6, "p": 0, "world": 3, "chosen": [1]},
    {"m": 7, "p": 0, "ch": 12, "chosen": []},
    {"m": 8, "p": 0, "ch": 12, "troops": [0, 2], "left": 2},
    {"m": 9, "p": 0, "src": "pool"},
    {"m": 10, "p": 0},
    {"m": 11, "p": 0, "drawn": [0, 5]},
    {"m": 12, "p": 2, "att": 0, "troop": 1},
    {"m": 13, "p": 0},
    {"m": 14, "p": -1, "queue": [[2, [30, 31]]], "card": True, "then": {"do": "played"}},
    {"m": 14, "p": 1, "queue": [], "card": False, "then": None, "kinds": [33]},
    {"m": 15, "p": 3, "queue": [[0, 1]], "side": 0},
    {"m": 16, "p": -1, "queue": [1, 2, 3], "keep": True, "by": 0},
    {"m": 17, "p": 2, "queue": [3]},
    {"m": 18, "p": 0},
]


def test_every_mode_has_a_saved_example():
    assert sorted({d["m"] for d in SAVED}) == sorted(FRAMES)


@pytest.mark.parametrize("saved", SAVED, ids=lambda d: f"{FRAMES[d['m']].__name__}")
def test_a_saved_frame_round_trips_in_its_field_order(saved):
    f = frame_from_dict(saved)
    assert f.m == saved["m"] and f.p == saved["p"]
    assert list(f.to_dict().items()) == list(saved.items())
    assert f.copy().to_dict() == saved


@pytest.mark.parametrize("saved", SAVED, ids=lambda d: f"{FRAMES[d['m']].__name__}")
def test_a_copy_shares_nothing_that_changes(saved):
    f = frame_from_dict(saved)
    c = f.copy()
    params = FRAMES[saved["m"]].__dataclass_params__
    if params.frozen:
        assert c is f  # never changed once pushed: clones share it
        return
    assert c is not f
    for name in FRAMES[saved["m"]].field_names:
        value = getattr(f, name)
        if isinstance(value, list) and name in ("queue", "chosen", "drawn"):
            assert getattr(c, name) is not value  # changed in place or redrawn: copied


def test_determinize_redraws_a_hidden_keep_choice_on_the_clone_only():
    s = blank(3)
    s.troops[0] = [troop("Hyggelig - Skålde - Kriger - Berserker - Bueskytter - Sjømann - Ränger")]
    s.reward_deck = [2, 2, 2, 0, 5]
    complete(s)
    at(s, 0, ONSLAUGHT)
    act(s, "travel", world("Asgard"))
    act(s, "select_troop", 0)
    assert s.mode == KEEP
    before = s.to_dict()
    frame = s.stack[-1]
    rng = np.random.default_rng(0)
    redrawn = {tuple(sorted(s.determinize(1, rng).stack[-1].drawn)) for _ in range(30)}
    assert len(redrawn) > 1  # seat 1 cannot see the drawn rewards: they are resampled
    assert s.stack[-1] is frame and s.to_dict() == before
    assert s.legal_actions().tolist() == [A.BASE["keep_reward"] + 0, A.BASE["keep_reward"] + 5]
