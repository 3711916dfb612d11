"""The small variants (envs/variants.py) work wherever their games do: exact masks under random
play, the env and its observation, saved states, the heuristic, the batched engine or its refusal
and the arena's fallback to scalar lanes, the vector trainer, the arena's command line, and the
enumeration that counts their information states. The rulebook games keep their defaults."""

from __future__ import annotations

import json

import numpy as np
import pytest
from pettingzoo.test import api_test

from deckzoo.agents.cli import main as cli_main
from deckzoo.agents.evaluation.batched import choose_engine
from deckzoo.agents.registry import make_agent
from deckzoo.envs import registry, vector
from deckzoo.envs.core.conformance import check_random_play
from deckzoo.envs.core.errors import ConfigError
from deckzoo.envs.variants import (
    SMALL_VARIANTS,
    all_deals,
    count_information_states,
    make_env,
    variant_game,
)

NAMES = list(SMALL_VARIANTS)
# the deals each variant's enumeration covers (its rules page gives them with the counts)
DEALS = {"gobig_small": 5040, "bignumber_small": 7560, "wizard_small": 5040}


def test_the_variants_are_plain_data_of_three_players():
    assert json.loads(json.dumps(SMALL_VARIANTS)) == {
        k: [g, o] for k, (g, o) in SMALL_VARIANTS.items()
    }
    for name, (game, options) in SMALL_VARIANTS.items():
        assert name == f"{game}_small" and options["num_players"] == 3
        assert variant_game(name) == registry.game_class(game)(**options)
    with pytest.raises(KeyError, match="gobig_small"):
        variant_game("gobig_tiny")


@pytest.mark.parametrize("name", NAMES)
def test_masks_are_exact_under_random_play(name):
    game = variant_game(name)
    rng = np.random.default_rng(7)
    for seed in range(300):
        state = game.new_state(seed)
        while not state.is_terminal():
            mask = state.legal_mask()  # what apply accepts is exactly what the mask lets in
            assert [state.is_legal(a) for a in range(game.num_actions)] == mask.tolist()
            for a in np.flatnonzero(mask).tolist():
                state.clone().apply(a)
            state.apply(int(rng.choice(np.flatnonzero(mask))))
    # and the harness's deep checks (views, observations in bounds, determinize, saved states)
    stats = check_random_play(game, num_games=20, seed=7, deep_every=3)
    assert max(stats.lengths) <= game.max_game_length


@pytest.mark.parametrize("name", NAMES)
def test_the_env_passes_the_api_test_and_its_observation_follows_the_options(name):
    game = variant_game(name)
    env = make_env(name)
    env.reset(seed=3)
    space = env.observation_space(env.agents[0])
    assert space["observation"].shape == game.observation_shape
    assert space["action_mask"].shape == (game.num_actions,)
    assert env.action_space(env.agents[0]).n == game.num_actions
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        assert obs["observation"].shape == game.observation_shape
        assert space.contains(obs)
        legal = np.flatnonzero(obs["action_mask"])
        env.step(None if term or trunc else int(legal[-1]))
    api_test(make_env(name), num_cycles=60)


@pytest.mark.parametrize("name", NAMES)
def test_saved_states_round_trip(name):
    game = variant_game(name)
    rng = np.random.default_rng(2)
    for seed in range(20):
        state = game.new_state(seed)
        while True:
            saved = json.loads(json.dumps(state.to_dict()))
            back = type(state).from_dict(saved)
            assert back == state and back.game == game
            assert type(state).from_dict(saved, game) == state
            if state.is_terminal():
                break
            state.apply(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("name", NAMES)
def test_the_heuristic_plays_every_seat(name):
    game = variant_game(name)
    agents = [make_agent("heuristic", type(game).name, seed) for seed in range(3)]
    for seed in range(30):
        state = game.new_state(seed)
        while not state.is_terminal():
            p = state.current_player
            a = agents[p].act(state.for_player(p))
            assert state.legal_mask()[a]
            state.apply(a)


@pytest.mark.parametrize("name", NAMES)
def test_the_batched_engine_plays_a_variant_or_refuses_it_and_the_arena_falls_back(name):
    game = variant_game(name)
    env_name, options = type(game).env_name(), SMALL_VARIANTS[name][1]
    why = vector.refusal(game)
    if why is None:  # Go Big: the batched engine plays the variant, step for step as the scalar
        from tests.vector.helpers import run_differential

        seen = run_differential(env_name, options, num_envs=24, steps=40)
        assert seen["finished"] > 24
        assert choose_engine(game, ["heuristic", "random"])[0] == "batched"
        return
    key = next(k for k in ("ranks", "suits") if k in why)
    with pytest.raises(ConfigError, match=f"option '{key}' is not supported"):
        vector.make(env_name, num_envs=2, **options)
    engine, reason = choose_engine(game, ["heuristic", "random"])
    assert engine == "batched" and reason.startswith(why) and "scalar lanes" in reason
    assert choose_engine(game, ["heuristic"]) == (
        "scalar",
        f"{why} and no agent has a batched form",
    )


@pytest.mark.parametrize("name", ["gobig_small", "bignumber_small"])
def test_the_arena_command_plays_a_variant_by_its_options(name, capsys):
    game, options = SMALL_VARIANTS[name]
    argv = ["arena", game, "--agents", "heuristic,random", "--games", "6", "--no-progress"]
    argv += ["--players", str(options["num_players"])]
    for key, value in options.items():
        if key != "num_players":
            argv += ["--option", f"{key}={json.dumps(value)}"]
    assert cli_main(argv) == 0
    out = capsys.readouterr().out
    assert "heuristic" in out and "random" in out


def test_the_vector_trainer_runs_a_variant_on_scalar_lanes(tmp_path):
    from deckzoo.training.config import config_from_dict
    from deckzoo.training.train import train

    game, options = SMALL_VARIANTS["bignumber_small"]
    cfg = config_from_dict(
        {
            "trainer": "vector",
            "game": game,
            "num_players": options["num_players"],
            "game_options": {k: v for k, v in options.items() if k != "num_players"},
            "run_dir": str(tmp_path / "run"),
            "total_timesteps": 100,
            "n_envs": 8,
            "progress_bar": False,
            "checkpoint_every": 100,
            "seed": 1,
            "ppo": {"n_steps": 8, "batch_size": 16, "n_epochs": 1, "net_arch": [8]},
            "opponents": {"mix": {"learner": 0.5, "heuristic": 0.5}, "snapshot_every": 100},
            "eval": {"every": 100, "games": 2, "final_games": 2, "opponents": ["heuristic"]},
            "vector": {"scalar_lanes": 0, "stagger": 4},
        }
    )
    summary = train(cfg)
    assert summary["steps"] >= 100 and len(summary["final_eval"]) == 1


def test_information_states_are_counted_by_enumeration():
    from deckzoo.envs.gobig.rules import GoBigGame

    tiny = GoBigGame(3, values=3, copies=2, hand_size=1)  # 6 cards: 3 dealt, 2 in the market
    counts = count_information_states(tiny)
    # 6!/(2!2!2!) = 90 orders of the deck, 3 start seats; every game is 3 plays and 3 draws
    assert counts == {
        "deals": 270,
        "histories": 1620,
        "terminals": 540,
        "information_states": 675,
    }
    for name, deals in DEALS.items():
        assert sum(1 for _ in all_deals(variant_game(name))) == deals, name


def test_only_a_game_with_all_its_chance_in_the_deal_enumerates_its_deals():
    with pytest.raises(ValueError, match="single_deal"):
        next(iter(all_deals(registry.game_class("bignumber")(3, ranks=2, hand_size=2))))
    with pytest.raises(ValueError, match="num_rounds=1"):
        next(iter(all_deals(registry.game_class("wizard")(3, suits=2, ranks=3))))


# the rulebook games: the sizes every tool, zoo policy and result was made for
ORDINARY = {  # (players, actions, observation, max_game_length, score_bounds)
    "gobig": (4, 23, (128,), 182, (0, 364)),
    "bignumber": (4, 2180, (325,), 35150, (0, 23)),
    "wizard": (4, 74, (677,), 555, (-1200, 1500)),
}


@pytest.mark.parametrize("game", sorted(ORDINARY))
def test_the_ordinary_games_are_unchanged(game):
    n, actions, shape, length, bounds = ORDINARY[game]
    g = registry.game_class(game)(n)
    assert (g.num_actions, g.observation_shape) == (actions, shape)
    assert (g.max_game_length, g.score_bounds) == (length, bounds)
    assert g.options == {o.name: o.default for o in type(g).OPTIONS}


@pytest.mark.parametrize(
    "game,options,key",
    [
        ("gobig", {"values": 8}, "values"),
        ("gobig", {"copies": 0}, "copies"),
        ("gobig", {"hand_size": 7}, "hand_size"),
        ("gobig", {"values": 2, "copies": 2}, "hand_size"),
        ("bignumber", {"ranks": 10}, "ranks"),
        ("bignumber", {"hand_size": 0}, "hand_size"),
        ("bignumber", {"ranks": 2, "single_deal": True}, "hand_size"),
        ("wizard", {"suits": 5}, "suits"),
        ("wizard", {"ranks": 14}, "ranks"),
        ("wizard", {"wizards": -1}, "wizards"),
        ("wizard", {"nulls": 5}, "nulls"),
        ("wizard", {"suits": 1, "ranks": 2, "wizards": 0, "nulls": 0}, "suits"),
        (
            "wizard",
            {"suits": 2, "ranks": 3, "wizards": 1, "nulls": 1, "num_rounds": 3},
            "num_rounds",
        ),
    ],
)
def test_bad_variant_options_raise_naming_the_key(game, options, key):
    with pytest.raises(ConfigError, match=f"'{key}'"):
        registry.game_class(game)(3, **options)
