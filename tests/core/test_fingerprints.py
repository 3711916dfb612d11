"""Every game shows exactly what it showed when ``fingerprints.json`` was written (see
``fingerprints.py``): a refactor of the engines must not change a game."""

from __future__ import annotations

import json

import pytest

from . import fingerprints as F

RECORDED = json.loads(F.FILE.read_text())


def test_every_configuration_is_recorded():
    assert sorted(RECORDED) == sorted(f"{e}-{n}p" for e, n in F.configs()), (
        "a game or player count was added or removed: python tests/core/fingerprints.py --write"
    )


@pytest.mark.parametrize("env_name, num_players", F.configs())
def test_random_play_shows_what_it_showed(env_name, num_players):
    key = f"{env_name}-{num_players}p"
    if key not in RECORDED:  # a new game: test_every_configuration_is_recorded says what to do
        pytest.skip(f"{key} has no recorded fingerprint (tests/core/fingerprints.py --write)")
    assert F.fingerprint(env_name, num_players) == RECORDED[key], (
        f"{key}: random play shows something else than when fingerprints.json was written; if "
        "the game was meant to change, bump its version and run tests/core/fingerprints.py --write"
    )
