"""A policy trained on one version of a game never silently plays another: loading it for a
later version warns, naming both, and the zoo says whether each shipped file is current."""

from __future__ import annotations

import warnings

import pytest

import deckzoo.envs as E
from deckzoo.agents import zoo
from deckzoo.agents.policy import OtherVersionWarning, PPOAgent, save_policy
from tests.agents.test_policy_file import random_weights


def _policy(tmp_path, env: str):
    game = E.game_class("gobig")(4)
    w = random_weights(game.observation_shape[0], game.num_actions)
    return save_policy(tmp_path / "p.npz", w, game="gobig", env=env, game_config=game.config())


def test_a_policy_of_the_current_version_loads_quietly(tmp_path):
    path = _policy(tmp_path, E.GAMES["gobig"].env_name())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        agent = PPOAgent(str(path), game="gobig")
    assert agent.version_warning is None


def test_a_policy_of_an_older_version_warns_naming_both(tmp_path, monkeypatch):
    path = _policy(tmp_path, "gobig_v0")
    monkeypatch.setattr(E.GAMES["gobig"], "version", 7)
    with pytest.warns(OtherVersionWarning, match="trained on gobig_v0 and now plays gobig_v7"):
        agent = PPOAgent(str(path), game="gobig")
    assert "gobig_v7" in agent.version_warning


def test_the_zoo_marks_a_policy_of_an_older_version(monkeypatch):
    game = zoo.available()[0]
    trained = zoo.trained_on(game)
    assert trained.startswith(f"{game}_v")
    monkeypatch.setattr(E.GAMES[game], "version", int(trained.rpartition("_v")[2]) + 1)
    assert not zoo.trained_for_current(game)
    with pytest.warns(OtherVersionWarning, match=f"zoo:{game} was trained on {trained}"):
        zoo.ZooAgent(game)


def test_every_shipped_policy_says_which_version_it_was_trained_on():
    for game in zoo.available():
        trained = zoo.trained_on(game)
        assert trained and trained.startswith(f"{game}_v"), (game, trained)
        assert zoo.trained_for_current(game) is (trained == E.GAMES[game].env_name())


def test_every_shipped_policy_was_trained_on_the_version_played_today():
    """A reference policy that warns on every load is no reference: retrain it on the current
    version (as zoo:midgard was on midgard_v1) before bumping a game's version ships."""
    stale = {g: zoo.trained_on(g) for g in zoo.available() if not zoo.trained_for_current(g)}
    assert not stale, f"zoo policies trained on another version than today's: {stale}"
