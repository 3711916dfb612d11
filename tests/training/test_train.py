"""The MaskablePPO runner: a smoke run on every available game, and exact resume (the model,
the optimiser state, the step counter, the opponent pool and the random states, one test each,
plus an interrupted run that ends bit-for-bit where an uninterrupted one does)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
import torch

import deckzoo.envs as E
from deckzoo.agents.policy import PPOAgent
from deckzoo.agents.registry import make_agent
from deckzoo.envs.core.errors import ConfigError
from deckzoo.training.config import config_from_dict
from deckzoo.training.sb3 import SB3Trainer as Trainer
from deckzoo.training.train import train

ROLLOUT = 64  # n_steps 32 x 2 envs


def tiny(run_dir, game="gobig", rollouts=4, **over):
    data = {
        "game": game,
        "run_dir": str(run_dir),
        "total_timesteps": rollouts * ROLLOUT,
        "n_envs": 2,
        "progress_bar": False,
        "checkpoint_every": 2 * ROLLOUT,
        "seed": 3,
        "game_options": E.registry.short_options(E.canonical(game)),
        "ppo": {"n_steps": 32, "batch_size": 32, "n_epochs": 2, "net_arch": [16]},
        "opponents": {
            "mix": {"random": 0.5, "pool": 0.5},
            "snapshot_every": ROLLOUT,
            "pool_size": 3,
        },
        "eval": {"every": 2 * ROLLOUT, "games": 2, "final_games": 0, "opponents": ["random"]},
    }
    for k, v in over.items():
        data[k] = (
            {**data.get(k, {}), **v}
            if isinstance(v, dict) and k in ("ppo", "opponents", "eval", "pretrain")
            else v
        )
    return config_from_dict(data)


@pytest.mark.parametrize("name", E.registry.env_names())
def test_smoke_run_every_game(name, tmp_path):
    game = E.game_class(name).name
    # sampled evaluation: an untrained greedy policy can cycle forever in Midgard (cancel loops)
    cfg = tiny(tmp_path / game, game, rollouts=5, eval={"final_games": 2, "deterministic": False})
    summary = train(cfg)
    run = tmp_path / game
    assert summary["steps"] == 5 * ROLLOUT
    for f in (
        "config.yaml",
        "checkpoint.ckpt",
        "eval.csv",
        "final.zip",
        "policy.npz",
        "summary.json",
        "learning_curve.png",
    ):
        assert (run / f).exists(), f
    assert any((run / "tb").rglob("events.out.tfevents*"))
    assert json.loads((run / "summary.json").read_text())["steps"] == 5 * ROLLOUT
    assert len(summary["final_eval"]) == 1 and 0 <= summary["final_eval"][0]["win_share"] <= 1
    # the final model is an Agent for the arena, from the policy file and from SB3's zip alike
    state = E.game_class(name)(**cfg.game_options).new_state(0)
    npz = make_agent(f"ppo:{run / 'policy.npz'}", game, seed=0)
    zipped = make_agent(f"ppo:{run / 'final.zip'}", game)
    assert npz.weights.equals(zipped.weights) and npz.meta["game"] == game
    assert npz.meta["training"]["total_timesteps"] == cfg.total_timesteps
    assert state.legal_mask()[npz.act(state.for_player(state.current_player))]


def test_final_evaluation_uses_the_pre_registered_seed(tmp_path):
    from deckzoo.training.opponents import derive_seed, evaluate

    cfg = tiny(tmp_path / "run", rollouts=1, eval={"every": 0, "final_games": 4, "final_seed": 77})
    summary = train(cfg)
    agent = PPOAgent(str(tmp_path / "run" / "final.zip"))
    step = summary["steps"]  # games seeded from (final_seed, step, opponent) as every evaluation
    again = evaluate(
        agent, E.game_class("gobig")(cfg.num_players), "random", 4, seed=derive_seed(77, step, 0)
    )
    assert summary["final_eval"][0]["win_share"] == again["win_share"]
    assert summary["final_eval"][0]["steps_per_game"] == again["steps_per_game"]


def test_evaluate_counts_games_the_engine_cuts_off_as_losses():
    """Midgard cuts a game off at its declared cap (max_decisions = max_game_length): evaluation
    counts such a game as a loss for the learner and reports it as abandoned."""
    from deckzoo.agents.base import Agent
    from deckzoo.agents.evaluation.stats import wilson_interval
    from deckzoo.training.opponents import evaluate

    class First(Agent):
        def act(self, info_state):
            return int(info_state.legal_actions()[0])

    game = E.game_class("midgard")(3, max_decisions=6)  # no Midgard game ends in 6 decisions
    assert game.max_game_length == 6
    r = evaluate(First(), game, "random", games=6, seed=0)
    assert (
        r["abandoned"] == 6
        and r["win_share"] == 0.0
        and (r["ci_low"], r["ci_high"]) == wilson_interval(0, 6)
    )
    r = evaluate(First(), E.game_class("gobig")(4), "random", games=8, seed=0)
    assert r["abandoned"] == 0 and r["games"] == 8 and r["uniform"] == 0.25


def model_params(model):
    return {k: v.clone() for k, v in model.policy.state_dict().items()}


def same_tensors(a, b):
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


@pytest.fixture(scope="module")
def stopped_and_resumed(tmp_path_factory):
    """Train 2 rollouts (checkpoint at the end), record the live trainer's state, then resume."""
    run = tmp_path_factory.mktemp("resume") / "run"
    first = Trainer(tiny(run, rollouts=2))
    first.setup()
    venv = first.venv
    first.run()
    live = {
        "params": model_params(first.model),
        "optim": first.model.policy.optimizer.state_dict(),
        "steps": first.model.num_timesteps,
        "updates": first.model._n_updates,
        "pool": first.rs.pool,
        "pool_steps": first.rs.pool_steps,
        "env_states": venv.env_method("get_env_state"),
        "np": np.random.get_state(),
        "torch": torch.get_rng_state(),
        "py": random.getstate(),
        "last_obs": first.model._last_obs.copy(),
    }
    np.random.seed(12345)  # disturb the globals: resume must restore them
    torch.manual_seed(12345)
    random.seed(12345)
    resumed = Trainer(tiny(run, rollouts=4), resume=True)
    resumed.setup()
    yield live, resumed
    resumed.close()


def test_resume_restores_model(stopped_and_resumed):
    live, resumed = stopped_and_resumed
    assert same_tensors(live["params"], model_params(resumed.model))
    np.testing.assert_array_equal(live["last_obs"], resumed.model._last_obs)


def test_resume_restores_optimizer_state(stopped_and_resumed):
    live, resumed = stopped_and_resumed
    a, b = live["optim"], resumed.model.policy.optimizer.state_dict()
    assert a["param_groups"] == b["param_groups"] and a["state"].keys() == b["state"].keys()
    assert a["state"]  # Adam has moments after two updates
    for k in a["state"]:
        assert all(
            torch.equal(torch.as_tensor(a["state"][k][n]), torch.as_tensor(b["state"][k][n]))
            for n in a["state"][k]
        )


def test_resume_restores_step_counter(stopped_and_resumed):
    live, resumed = stopped_and_resumed
    assert resumed.model.num_timesteps == live["steps"] == 2 * ROLLOUT
    assert resumed.model._n_updates == live["updates"] > 0
    assert resumed.rs.next_checkpoint == 4 * ROLLOUT and resumed.rs.next_snapshot == 3 * ROLLOUT


def test_resume_restores_opponent_pool(stopped_and_resumed):
    live, resumed = stopped_and_resumed
    assert len(live["pool"]) == 3 and resumed.rs.pool_steps == live["pool_steps"] == [
        0,
        ROLLOUT,
        2 * ROLLOUT,
    ]
    assert all(a.equals(b) for a, b in zip(live["pool"], resumed.rs.pool))
    assert resumed.venv.env_method("get_wrapper_attr", "pool_size") == [3, 3]


def test_resume_restores_random_states(stopped_and_resumed):
    live, resumed = stopped_and_resumed
    np_state = np.random.get_state()
    assert (
        live["np"][0] == np_state[0]
        and np.array_equal(live["np"][1], np_state[1])
        and live["np"][2:] == np_state[2:]
    )
    assert torch.equal(live["torch"], torch.get_rng_state())
    assert live["py"] == random.getstate()
    got = resumed.venv.env_method("get_env_state")
    assert got == live["env_states"]  # generators, game, seats, opponents' states: plain data


def test_interrupted_run_equals_uninterrupted_run(tmp_path):
    """pool_size 2: at the interruption, a snapshot just dropped from the pool is still seated in
    games in progress; the checkpoint carries it so those games finish as they would have."""
    from deckzoo.training.checkpoint import read_checkpoint

    opp = {"pool_size": 2}
    straight = Trainer(tiny(tmp_path / "a", rollouts=4, opponents=opp))
    straight.run()
    train(tiny(tmp_path / "b", rollouts=2, opponents=opp))
    assert read_checkpoint(tmp_path / "b" / "checkpoint.ckpt")[0]["retired"] == [0]
    resumed = Trainer(tiny(tmp_path / "b", rollouts=4, opponents=opp), resume=True)
    resumed.run()
    assert straight.model.num_timesteps == resumed.model.num_timesteps == 4 * ROLLOUT
    assert same_tensors(model_params(straight.model), model_params(resumed.model))
    assert (tmp_path / "a" / "eval.csv").read_text() == (tmp_path / "b" / "eval.csv").read_text()
    a, b = PPOAgent(str(tmp_path / "a" / "policy.npz")), PPOAgent(str(tmp_path / "b" / "final.zip"))
    assert a.weights.equals(b.weights)


def test_resume_guards(tmp_path):
    with pytest.raises(ConfigError, match="no checkpoint"):
        Trainer(tiny(tmp_path / "none"), resume=True).setup()
    train(tiny(tmp_path / "r", rollouts=2))
    with pytest.raises(ConfigError, match="already holds a run"):
        Trainer(tiny(tmp_path / "r", rollouts=2)).setup()
    with pytest.raises(ConfigError, match="ppo.learning_rate"):
        Trainer(tiny(tmp_path / "r", rollouts=4, ppo={"learning_rate": 1e-3}), resume=True).setup()


def test_checkpoint_write_is_atomic(tmp_path, monkeypatch):
    """A crash while writing leaves the previous checkpoint intact (tmp file + rename)."""
    import deckzoo.training.checkpoint as T

    train(tiny(tmp_path / "c", rollouts=2))
    before = (tmp_path / "c" / "checkpoint.ckpt").read_bytes()
    trainer = Trainer(tiny(tmp_path / "c", rollouts=4), resume=True)
    trainer.setup()

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(T.os, "replace", boom)
    with pytest.raises(OSError):
        trainer.save_checkpoint()
    trainer.close()
    assert (tmp_path / "c" / "checkpoint.ckpt").read_bytes() == before


def test_cli_rejects_bad_key(tmp_path, capsys):
    from deckzoo.agents.cli import main

    cfg = tmp_path / "bad.yaml"
    cfg.write_text("game: gobig\nppo:\n  lerning_rate: 0.1\n")
    assert main(["train", "--config", str(cfg)]) == 2
    assert "'ppo.lerning_rate'" in capsys.readouterr().err


def test_heuristic_missing_falls_back(tmp_path, monkeypatch):
    import deckzoo.training.opponents as T

    monkeypatch.setattr(T, "has_heuristic", lambda game: False)
    cfg = tiny(
        tmp_path / "h",
        rollouts=1,
        opponents={"mix": {"heuristic": 1.0}},
        eval={"opponents": ["random", "heuristic"]},
    )
    trainer = Trainer(cfg)
    assert trainer.mix.weights == {"random": 1.0} and trainer.eval_opponents == ["random"]


def test_subproc_vec_env_matches_dummy(tmp_path):
    """The vectoriser changes nothing but speed: one process per env gives the same run, so a
    run may also be resumed with the other kind."""
    dummy = Trainer(tiny(tmp_path / "d", rollouts=2))
    dummy.run()
    sub = Trainer(tiny(tmp_path / "s", rollouts=2, vec_env="subproc"))
    sub.run()
    assert same_tensors(model_params(dummy.model), model_params(sub.model))
    resumed = Trainer(tiny(tmp_path / "s", rollouts=3, vec_env="dummy"), resume=True)
    resumed.run()
    assert resumed.model.num_timesteps == 3 * ROLLOUT
