"""A mistyped name is answered with the closest known one: envs, agents, game options and
training config keys (``deckzoo.envs.core.errors.closest``), and nothing is suggested where no
known name is close."""

from __future__ import annotations

import pytest

import deckzoo.envs as E
from deckzoo.agents.registry import make_agent
from deckzoo.envs.core.errors import closest, did_you_mean


def test_closest_ignores_case_maps_to_what_it_shows_and_stays_quiet_when_nothing_is_close():
    assert closest("GOBGI", {"gobig": "gobig_v0", "wizard": "wizard_v0"}) == "gobig_v0"
    assert closest("telepath", ["random", "heuristic"]) is None
    assert did_you_mean("rnd", ["random"]) == "; did you mean random?"
    assert did_you_mean("rnd", ["random"], quote=True) == "; did you mean 'random'?"
    assert did_you_mean("chess", ["gobig"]) == ""


def _suggested_env(typo: str) -> str:
    with pytest.raises(E.ConfigError) as err:
        E.canonical(typo)
    return str(err.value)


@pytest.mark.parametrize("env_name", E.registry.env_names())
def test_a_mistyped_env_name_suggests_the_env(env_name):
    game = env_name.rpartition("_v")[0]
    typo = game[:-2] + game[-1] + game[-2]  # the last two letters swapped
    message = _suggested_env(typo)
    assert message.startswith(f"unknown env {typo!r}; did you mean {env_name}?")
    assert all(name in message for name in E.registry.env_names())  # the list is still there


def test_the_issues_example_and_an_env_nothing_is_close_to():
    gobig = E.game_class("gobig").env_name()
    assert _suggested_env("gobgi").startswith(f"unknown env 'gobgi'; did you mean {gobig}?")
    assert "did you mean" not in _suggested_env("chess")


@pytest.mark.parametrize(
    "spec,suggested",
    [("rnd", "random"), ("heuristik", "heuristic"), ("ismtcs:200", "ismcts"), ("zo", "zoo")],
)
def test_a_mistyped_agent_suggests_the_agent(spec, suggested):
    with pytest.raises(E.ConfigError, match=f"unknown agent {spec!r}; did you mean {suggested}?"):
        make_agent(spec, "gobig", 0)


def test_an_agent_nothing_is_close_to_lists_the_known_ones():
    with pytest.raises(E.ConfigError) as err:
        make_agent("telepath", "gobig", 0)
    assert "did you mean" not in str(err.value) and "random, heuristic, ismcts" in str(err.value)


@pytest.mark.parametrize("game", list(E.GAMES))
def test_a_mistyped_game_option_suggests_the_option(game):
    options = [o.name for o in E.GAMES[game].OPTIONS]
    if not options:
        pytest.skip(f"{game} has no options")
    typo = options[0][:-1]  # the last letter dropped
    with pytest.raises(E.ConfigError) as err:
        E.GAMES[game](None, **{typo: 1, "zzz_not_an_option": 1})
    message = str(err.value)
    assert closest(typo, options) is not None
    assert f"{typo!r} (did you mean {closest(typo, options)!r}?)" in message
    assert "'zzz_not_an_option';" in message  # nothing close: no suggestion for it


def test_a_mistyped_config_key_suggests_the_key_in_its_section():
    config = pytest.importorskip("deckzoo.training.config", exc_type=ImportError)
    with pytest.raises(E.ConfigError) as err:
        config.config_from_dict({"game": "gobig", "ppo": {"lerning_rate": 1e-3}})
    assert "unknown config key 'ppo.lerning_rate' (did you mean 'learning_rate'?)" in str(err.value)
    with pytest.raises(E.ConfigError) as err:
        config.config_from_dict({"gmae": "gobig"})
    assert "'gmae' (did you mean 'game'?)" in str(err.value)
