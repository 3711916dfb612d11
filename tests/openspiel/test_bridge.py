"""deckzoo.openspiel: every game registered with OpenSpiel, its options as parameters, OpenSpiel's
own random-simulation test at every player count, and the bridge's observations equal to the
engine's."""

from __future__ import annotations

import json

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import deckzoo.openspiel as O
from deckzoo.envs import registry
from deckzoo.envs.core.errors import ConfigError
from deckzoo.envs.core.game import State
from deckzoo.openspiel.bridge import decode_option, encode_option, parameters

from .helpers import GAMES, play_random, quick_game, sample_chance, short_game

COUNTS = [(g, n) for g in GAMES for n in registry.game_class(g).supported_players()]


@pytest.mark.parametrize("name", GAMES)
def test_each_game_is_registered_with_its_options_as_parameters(name):
    cls = registry.game_class(name)
    short = f"python_deckzoo_{name}"
    assert short in pyspiel.registered_names()
    game = pyspiel.load_game(short)
    kind = game.get_type()
    assert kind.short_name == short
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert (kind.min_num_players, kind.max_num_players) == (
        min(cls.supported_players()),
        max(cls.supported_players()),
    )
    options = {o.name for o in cls.OPTIONS}
    assert set(kind.parameter_specification) == {"players", "reward"} | options
    engine = game.engine
    assert type(engine) is cls and engine.num_players == cls.default_players
    assert game.num_distinct_actions() == engine.num_actions
    assert game.max_game_length() == engine.max_game_length
    assert (game.min_utility(), game.max_utility()) == engine.return_bounds("win")


@pytest.mark.parametrize("name", GAMES)
def test_every_option_value_travels_as_a_parameter_and_back(name):
    for o in registry.game_class(name).OPTIONS:
        values = list(o.choices) if o.choices is not None else [o.default]
        kinds = o.kind if isinstance(o.kind, tuple) else (o.kind,)
        if list in kinds:  # a seat order
            values.append([1, 0, 2])
        if o.seat:
            values.append(1)
        for v in values:
            assert decode_option(o, encode_option(o, v)) == v
        assert type(encode_option(o, o.default)) in (int, float, bool, str)
    assert parameters(registry.game_class(name))["reward"] == "win"


def test_a_game_is_configured_by_its_parameters_and_bad_ones_are_named():
    game = O.load("gobig", players=3, start_player=2, end_rule="literal", reward="score")
    assert game.engine.num_players == 3
    assert game.engine.options["start_player"] == 2
    assert game.engine.options["end_rule"] == "literal"
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    lo, hi = game.engine.return_bounds("score")
    assert game.min_utility() < lo < hi < game.max_utility()  # widened by a hair (bridge.py)
    with pytest.raises(ConfigError, match="unknown parameter"):
        O.GAMES["python_deckzoo_gobig"]({"colour": "red"})
    with pytest.raises(ConfigError, match="end_rule"):
        O.GAMES["python_deckzoo_gobig"]({"end_rule": "never"})
    with pytest.raises(ConfigError, match="reward"):
        O.GAMES["python_deckzoo_gobig"]({"reward": "money"})


def test_dense_rewards_are_general_sum_and_add_up_to_the_returns():
    game = O.load("gobig", players=2, reward="dense")
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert game.get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS
    total = np.zeros(2)

    def add(state):
        total[:] += state.rewards()

    end = play_random(game, seed=3, visit=add)
    assert total == pytest.approx(end.returns())
    engine = end.engine_state
    assert end.returns() == pytest.approx(engine.scores() / game.engine.score_scale)


@pytest.mark.parametrize(("name", "players"), COUNTS)
def test_openspiel_random_simulation_passes_at_every_player_count(name, players):
    game = short_game(name, players)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_states_serialise_and_reload(name):
    game = quick_game(name)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(12):
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state) and again.history() == state.history()
    assert again.information_state_string(0) == state.information_state_string(0)


def _view_string(engine: State, p: int) -> str:
    return json.dumps(engine.view(p), sort_keys=True, separators=(",", ":"))


def _check_observations(state, n: int) -> None:
    engine = state.engine_state
    if engine is None:  # the set-up still waits for chance: nothing to see
        assert not any(np.asarray(state.observation_tensor(0)))
        return
    for p in range(n):
        assert np.array_equal(np.asarray(state.observation_tensor(p)), engine.observe(p))
        assert state.observation_string(p) == _view_string(engine, p)


@pytest.mark.parametrize("name", GAMES)
def test_observations_through_the_bridge_are_the_engines(name):
    """At every node of random games, OpenSpiel's observation tensor and string (through its C++
    API) are the engine's ``observe`` and ``view``; every position the bridge reaches loads as a
    saved state (the engine's own invariants); and each step that needed no chance, replayed on
    the engine alone from the saved position before it, gives every seat the same view and
    observation. (The first 150 nodes of a long game.)"""
    game = quick_game(name)
    n = game.num_players()
    for seed in range(2):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        for _ in range(150):
            _check_observations(state, n)
            if state.engine_state is not None and not state.is_chance_node():
                type(state.engine_state).from_dict(state.engine_state.to_dict())
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            before, action = state.engine_state, int(rng.choice(state.legal_actions()))
            state.apply_action(action)
            if not state.is_chance_node():
                direct = type(before).from_dict(before.to_dict())
                direct.apply(action)
                for p in range(n):
                    assert direct.view(p) == state.engine_state.view(p)
                    assert np.array_equal(direct.observe(p), state.engine_state.observe(p))
