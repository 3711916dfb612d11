"""RLlib training on the simulated cluster: two iterations on every game (every env step raises
on an illegal action, so a finished run sampled none), the exported actor against the RLlib
module, the checkpoint round trip, and a control run without the mask that does hit one."""

from __future__ import annotations

import json

import numpy as np
import pytest

import deckzoo.envs as E
from deckzoo.agents.evaluation.arena import run_arena
from deckzoo.agents.evaluation.config import ArenaConfig
from deckzoo.envs.core.errors import IllegalActionError
from deckzoo.training.config import config_from_dict
from deckzoo.training.rllib import MAIN, RLlibTrainer

pytestmark = pytest.mark.xdist_group("ray")

BATCH = 96  # env steps per iteration


def tiny(run_dir, game, iterations=2, **over):
    data = {
        "trainer": "rllib",
        "game": game,
        "run_dir": str(run_dir),
        "total_timesteps": iterations * BATCH,
        "progress_bar": False,
        "checkpoint_every": BATCH,
        "seed": 5,
        "game_options": E.registry.short_options(E.canonical(game)),
        "ppo": {"batch_size": 48, "n_epochs": 1, "net_arch": [16]},
        "opponents": {
            "mix": {"learner": 0.4, "pool": 0.4, "random": 0.2},
            "snapshot_every": BATCH,
            "pool_size": 2,
        },
        # sampled evaluation: an untrained greedy policy can cycle forever in Midgard (cancel loops)
        "eval": {
            "every": BATCH,
            "games": 2,
            "final_games": 2,
            "opponents": ["random"],
            "deterministic": False,
        },
        "rllib": {"env_runners": 1, "envs_per_runner": 2, "train_batch_size": BATCH},
    }
    data.update(over)
    return config_from_dict(data)


@pytest.mark.parametrize("game", list(E.GAMES))
def test_rllib_on_every_game(cluster, tmp_path, game):
    """Two iterations (snapshots, evaluation, checkpoint, export), then the exported policy in the
    arena and against the module's greedy actions; Go Big also makes the checkpoint round trip."""
    run = tmp_path / game
    trainer = RLlibTrainer(tiny(run, game))
    try:
        summary = trainer.run()
        check_run(trainer, summary, run)
        check_exported_policy_plays(trainer, run)
        check_exported_policy_matches_the_module(trainer)
        if game == "gobig":
            check_checkpoint_round_trip(trainer, summary, run)
    finally:
        trainer.close()


def check_run(trainer, summary, run):
    assert summary["iterations"] == 2 and summary["steps"] >= 2 * BATCH
    assert 0 < summary["learner_steps"] <= summary["steps"] * trainer.game.num_players
    for f in ("config.yaml", "checkpoint/deckzoo.json", "eval.csv", "policy.npz", "summary.json"):
        assert (run / f).exists(), f
    assert any((run / "tb").rglob("events.out.tfevents*"))
    assert json.loads((run / "summary.json").read_text())["steps"] == summary["steps"]
    # snapshots at step 0 and after each iteration into two modules: the third took the oldest slot
    assert trainer.rs.pool[0][0] == "pool_1" and trainer.rs.pool[1] == ["pool_0", summary["steps"]]
    modules = set(trainer.algo.learner_group.get_weights())
    assert modules == {MAIN, "random", "pool_0", "pool_1"}
    rows = (run / "eval.csv").read_text().splitlines()
    assert len(rows) >= 3  # header, the periodic evaluation(s), the final one


def check_exported_policy_plays(trainer, run):
    agents = [f"ppo:{run / 'policy.npz'}:sample", "random"]
    result = run_arena(
        ArenaConfig(
            game=trainer.cfg.game,
            agents=agents,
            games=4,
            seed=1,
            players=trainer.game.num_players,
            options=trainer.cfg.game_options,
        )
    )
    assert len(result.records) == 4 and not result.interrupted


def recorded_observations(trainer, games=3):
    """Observations and masks from random games, as the training env gives them to its agents."""
    from deckzoo.training.rllib import make_env

    env = make_env(trainer._env_config())
    rng = np.random.default_rng(0)
    obs_rows, mask_rows = [], []
    for g in range(games):
        obs, _ = env.reset(seed=g)
        done = False
        while not done:
            actions = {}
            for agent, o in obs.items():
                obs_rows.append(o["observation"])
                mask_rows.append(o["action_mask"])
                actions[agent] = int(rng.choice(np.flatnonzero(o["action_mask"])))
            obs, _, term, trunc, _ = env.step(actions)
            done = term["__all__"] or trunc["__all__"]
    return np.array(obs_rows), np.array(mask_rows)


def module_greedy(module, obs, mask) -> np.ndarray:
    import torch
    from ray.rllib.core.columns import Columns

    with torch.no_grad():
        out = module.forward_inference(
            {
                Columns.OBS: {
                    "observation": torch.as_tensor(obs),
                    "action_mask": torch.as_tensor(mask),
                }
            }
        )
    return out[Columns.ACTION_DIST_INPUTS].numpy().argmax(axis=1)


def check_exported_policy_matches_the_module(trainer):
    obs, mask = recorded_observations(trainer)
    weights = trainer.policy_weights()
    n = trainer.game.num_actions
    deciding = mask[:, :n].any(axis=1)  # BigWig's Parallel env: seats that only NOOP are not asked
    obs, mask = obs[deciding], mask[deciding]
    results = trainer.algo.learner_group.foreach_learner(
        lambda lr: module_greedy(lr.module[MAIN], obs, mask)
    )
    learner = [r.get() for r in results]
    runner = module_greedy(trainer.algo.get_module(MAIN), obs, mask)  # the env runners' copy
    exported = np.array(
        [
            np.flatnonzero(m[:n])[np.argmax(weights.legal_logits(o, np.flatnonzero(m[:n])))]
            for o, m in zip(obs, mask)
        ]
    )
    assert len(obs) > 50
    np.testing.assert_array_equal(exported, learner[0])
    np.testing.assert_array_equal(exported, runner)


def check_checkpoint_round_trip(trainer, summary, run):
    saved = trainer.algo.learner_group.get_weights()
    resumed = RLlibTrainer(tiny(run, trainer.cfg.game, iterations=3), resume=True)
    try:
        resumed.setup()
        weights = resumed.algo.learner_group.get_weights()
        assert set(weights) == set(saved)
        for module, state in saved.items():
            assert set(weights[module]) == set(state)
            for key, value in state.items():
                np.testing.assert_array_equal(
                    weights[module][key], value, err_msg=f"{module}.{key}"
                )
        assert resumed.steps() == summary["steps"] and resumed.rs.pool == trainer.rs.pool
        out = resumed.run()  # and it trains on from there
        assert out["iterations"] == 3 and out["steps"] > summary["steps"]
    finally:
        resumed.close()


def test_without_the_mask_an_illegal_action_stops_the_run(cluster, tmp_path):
    from deckzoo.training.rllib_module import MaskedPPOModule

    class Unmasked(MaskedPPOModule):
        @staticmethod
        def _masked(out, mask):
            return out

    trainer = RLlibTrainer(
        tiny(
            tmp_path / "run",
            "gobig",
            iterations=4,
            rllib={"env_runners": 0, "train_batch_size": BATCH},
        )
    )
    trainer.module_class = Unmasked
    try:
        with pytest.raises(RuntimeError) as err:
            trainer.run()
        assert isinstance(err.value.__cause__, IllegalActionError)
    finally:
        trainer.close()
